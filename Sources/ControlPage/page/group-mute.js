// A source muted by its groups, on its strip: while a DCA or mute group it
// belongs to is muted, the rig silences it and leaves its own mute as it is
// (docs/groups.md). The strip then carries data-group-muted="1" ("0"
// otherwise) and, once built, a badge in words: "Group mute: Vocals" (the
// muting groups' names), so it is never told by colour alone; its own mute
// switch goes on showing /source/{n}/mute. Worked out here from the store:
// the source's memberships (the catalogue's `memberships` entries) and the
// groups' mutes (groups.js), again whenever either changes. Every source
// strip is watched, built or not (512 at most, 16 memberships each by
// default): through one store listener for all memberships, and the strip's
// attribute is written only when it changes.

import { store } from './state.js';
import { fill, memberships } from './catalogue.js';
import { groups } from './groups.js';

/** The catalogue's membership entries on the engineer's page (fixed while the page lives). */
const ENTRIES = memberships('engineer');

/** The addresses of source n's memberships: [{ kind, g, address }] for every group the rig has. */
export function membershipsOf(n) {
  const found = [];
  for (const entry of ENTRIES) {
    for (let g = 1; g <= (groups.count[entry.group] ?? 0); g++) {
      found.push({ kind: entry.group, g, address: fill(entry.address, 'source', n, undefined, g), entry });
    }
  }
  return found;
}

const isOn = (value) => value === true || (typeof value === 'number' && value !== 0);

/** The groups that mute source n now: [{ kind, g, name }]. */
export function mutingGroups(n) {
  const muting = [];
  for (const entry of ENTRIES) {
    for (const group of groups.muted(entry.group)) {
      if (isOn(store.value(fill(entry.address, 'source', n, undefined, group.g)))) muting.push(group);
    }
  }
  return muting;
}

/** The badge's words for these groups: "Group mute: Vocals, dca_2"; empty for none. */
export function badgeText(muting) {
  return muting.length === 0 ? '' : `Group mute: ${muting.map((group) => group.name).join(', ')}`;
}

/** How many groups source n belongs to. */
export function memberCount(n) {
  return membershipsOf(n).filter(({ address }) => isOn(store.value(address))).length;
}

/** Shows on a built strip's badge and "Groups" summary what source n's groups are now. */
export function showGroups(section, n, muting = mutingGroups(n)) {
  const badge = section.querySelector(':scope > .group-mute');
  if (badge) {
    badge.textContent = badgeText(muting);
    badge.hidden = muting.length === 0;
  }
  const summary = section.querySelector(':scope > .memberships .member-count');
  if (summary) {
    const count = memberCount(n);
    summary.textContent = count > 0 ? `(${count})` : '';
  }
}

/**
 * Which source a membership's address belongs to: patterns made from the
 * catalogue's templates (/source/{n}/dca/{g} -> ^/source/(\d+)/dca/\d+$),
 * and the part before the source, the prefix the store is watched under.
 */
const PATTERNS = ENTRIES.map((entry) => {
  const template = String(entry.address);
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = escape(template).replace('\\{n\\}', '(\\d+)').replace('\\{g\\}', '\\d+');
  return { prefix: template.slice(0, template.indexOf('{n}')), pattern: new RegExp(`^${source}$`) };
});

/** The source strips watched, by source number. */
const watched = new Map();

/** Shows on source n's strip (if watched) what its groups are now: its mark, and once built its badge and summary. */
function update(n) {
  const section = watched.get(n);
  if (!section) return;
  const muting = mutingGroups(n);
  const mark = muting.length > 0 ? '1' : '0';
  if (section.dataset.groupMuted !== mark) section.dataset.groupMuted = mark;
  if (!section.hasAttribute('data-pending')) showGroups(section, n, muting);
}

// A membership that changed: its source's strip. One store listener per
// prefix (not one per membership: 4,096 at 256 sources), called once per
// frame with every address that changed under it.
for (const prefix of new Set(PATTERNS.map((entry) => entry.prefix))) {
  store.onPrefix(prefix, (changed) => {
    const sources = new Set();
    for (const address of changed) {
      for (const { pattern } of PATTERNS) {
        const match = pattern.exec(address);
        if (match) sources.add(Number(match[1]));
      }
    }
    for (const n of sources) update(n);
  });
}
// A group muted, unmuted, renamed, or the rig's number of groups: every strip.
groups.addEventListener('change', () => {
  for (const n of watched.keys()) update(n);
});

/**
 * Keeps source n's strip (built or not) showing whether its groups mute it
 * (data-group-muted; the badge and the "Groups" summary once built);
 * returns the unsubscribe.
 */
export function watchGroupMute(section, n) {
  watched.set(n, section);
  update(n);
  return () => {
    if (watched.get(n) === section) watched.delete(n);
  };
}
