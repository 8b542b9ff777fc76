// A source's groups, on its strip: the badge that says its groups mute it
// (group-mute.js) and a "Groups" disclosure (<details>: its summary is a
// button to the keyboard, Enter or Space opens it) holding a switch per DCA
// and per mute group the rig has, from the catalogue's `memberships`
// entries: data-address="/source/{n}/dca/{g}" (/source/{n}/mutegroup/{g}),
// label the group's number, accessible name the entry's title ("Source 3
// in DCA 2"). The switches are made while the disclosure is open, so a
// strip costs one closed disclosure until its groups are wanted; the
// summary counts the groups the source belongs to. A rig without groups
// shows neither.

import { fill, memberships } from './catalogue.js';
import { groups } from './groups.js';
import { membershipsOf } from './group-mute.js';
import { controls, element } from './strips.js';
import { remember } from './strip-memory.js';

/** The switches of source n's memberships, one role="group" per kind of group ("DCA", "Mute group"). */
function switches(n) {
  const made = [];
  for (const entry of memberships('engineer')) {
    const count = groups.count[entry.group] ?? 0;
    if (count === 0) continue;
    const own = membershipsOf(n).filter((membership) => membership.kind === entry.group).map(({ g, address }) => {
      const filled = { ...entry, label: fill(entry.label, 'source', n, undefined, g) };
      const toggle = controls.toggle(filled, address, fill(entry.title, 'source', n, undefined, g));
      toggle.classList.add('membership');
      return toggle;
    });
    // The kind's name as the rig words a place of it, without the number: "DCA", "Mute group".
    const kind = fill('{Strip}', entry.group, '').trim();
    made.push(element('div', { class: 'membership-set', 'data-kind': entry.group, role: 'group', 'aria-label': `${kind}s` }, [
      element('span', { class: 'membership-kind', 'aria-hidden': 'true' }, [kind]), ...own,
    ]));
  }
  return made;
}

/** The badge and the disclosure of source n's groups (open or closed as last left, strip-memory.js), for its strip. */
export function groupParts(n) {
  const badge = element('p', { class: 'group-mute', hidden: '' });
  const summary = element('summary', {}, ['Groups ', element('span', { class: 'member-count' })]);
  const details = element('details', { class: 'memberships' }, [summary]);
  const body = element('div', { class: 'membership-sets' });
  const fit = () => {
    details.hidden = !groups.any;
    // Made as it opens (again, if open, when the rig's groups change), dropped as it closes.
    if (details.open) body.replaceChildren(...switches(n));
    else body.replaceChildren();
  };
  details.append(body);
  details.addEventListener('toggle', fit);
  details.fitGroups = fit;
  remember(details, `source ${n} groups`);
  fit();
  return [badge, details];
}

// The rig's number of groups changed (or became known): every built strip's disclosure fits it.
groups.addEventListener('count', () => {
  for (const details of document.querySelectorAll('.strip > details.memberships')) details.fitGroups?.();
});
