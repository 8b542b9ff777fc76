// The rig's description of its controls and commands (/page/catalogue.json,
// made by the rig from its catalogue: docs/page.md, "Built from the
// catalogue"). The page keeps no list of parameters of its own: the strips
// are built from these entries, so a parameter the rig adds appears there
// with no page code; and it writes no command or reply address:
// `commandAddress` and `replyAddress` look each up in the rig's tables. It
// comes from the rig that served the page (with ?ws= the page talks to
// another rig, whose catalogue may differ).

const url = new URL('catalogue.json', import.meta.url);

/**
 * The description: { strips: { source, output, master, dca, mutegroup },
 * matrix, memberships, places, commands, replies }, or an empty one with `failed` set to why,
 * if it could not be read (the strips then say so: `failure()`).
 */
export const catalogue = await fetch(url)
  .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
  .catch((error) => {
    console.error(`catalogue.json: ${error.message}`);
    return { strips: { source: [], output: [], master: [], dca: [], mutegroup: [] }, matrix: null, memberships: [],
             commands: {}, replies: {}, failed: error.message };
  });

/** Why the controls could not be built, for the page to show; null when they can. */
export function failure() {
  return catalogue.failed
    ? `The rig's description of its controls could not be read (catalogue.json: ${catalogue.failed}). Reload the page.`
    : null;
}

/** The entries of a strip ("source", "output", "master", "dca", "mutegroup") shown on a page ("engineer", "mix"), in catalogue order. */
export function entries(strip, page) {
  return (catalogue.strips?.[strip] ?? []).filter((entry) => entry.pages?.includes(page));
}

/**
 * The memberships of an `owner` kind's strips shown on a page: one entry
 * per kind of group, its `group` the strip of the group ("dca",
 * "mutegroup"; a talkback's: "output"), its address /source/{n}/dca/{g}
 * (/talkback/{n}/output/{g}).
 */
export function memberships(page, owner = 'source') {
  return (catalogue.memberships ?? []).filter((entry) => entry.pages?.includes(page) && (entry.owner ?? 'source') === owner);
}

/**
 * How a place is named in titles, as the rig says (catalogue.json's
 * `places`): "source 3" and "Source 3", "master" and "Master", "DCA 2",
 * "mute group 2" and "Mute group 2".
 */
function names(strip, n) {
  const place = catalogue.places?.[strip];
  if (place) return { lower: place.strip.replaceAll('{n}', String(n)), upper: place.Strip.replaceAll('{n}', String(n)) };
  const lower = strip === 'master' ? 'master' : `${strip} ${n}`;
  return { lower, upper: lower.charAt(0).toUpperCase() + lower.slice(1) };
}

/**
 * An entry's template with its place filled in: {n} (and {m}, for the
 * matrix's output; {g}, for a membership's group), {strip}, {Strip}.
 */
export function fill(template, strip, n, m, g) {
  const { lower, upper } = names(strip, n);
  return String(template ?? '')
    .replaceAll('{n}', String(n)).replaceAll('{m}', String(m)).replaceAll('{g}', String(g))
    .replaceAll('{strip}', lower).replaceAll('{Strip}', upper);
}

/**
 * The address of a strip's parameter called `name` at channel n, as the rig
 * describes it ("/source/3/link"), or null when the rig has no such
 * parameter: the page names no parameter address of its own.
 */
export function addressOf(strip, name, n) {
  const entry = entryOf(strip, name);
  return entry ? fill(entry.address, strip, n) : null;
}

/** The title of a strip's parameter called `name` at channel n ("Source 3 pan"), or null. */
export function titleOf(strip, name, n) {
  const entry = entryOf(strip, name);
  return entry ? fill(entry.title, strip, n) : null;
}

/** A strip's entry called `name`, on any page. */
function entryOf(strip, name) {
  return (catalogue.strips?.[strip] ?? []).find((candidate) => candidate.name === name) ?? null;
}

/**
 * A command of the rig's command table by its name ("rigInputs", as the
 * catalogue's `Command.Name`): { address, types, range } (`types` and
 * `range`, per argument [lowest, highest] or null, where the rig gives
 * them), or null when the rig has no such command.
 */
export function command(name) {
  return catalogue.commands?.[name] ?? null;
}

/**
 * A command's address ("/rig/inputs" for "rigInputs"), and so that of its
 * reply (a query is answered at its own address), or null when the rig has
 * no such command: the page writes no command address of its own.
 */
export function commandAddress(name) {
  return command(name)?.address ?? null;
}

/**
 * The address of a message the rig sends at an address of its own, by its
 * name in the rig's reply table ("statusInputs": "/status/inputs",
 * "presetSaved", "error", "metersInput"), or null when the rig has no such
 * reply: the page writes no reply address of its own.
 */
export function replyAddress(name) {
  return catalogue.replies?.[name]?.address ?? null;
}

/** Patterns of the addresses that belong to one channel of a strip, from the catalogue: built once. */
const places = new Map();

/**
 * The channel of a strip ("source", "output") an address belongs to, found
 * by the catalogue's templates (the part up to the channel: /source/{n}/…,
 * /safe/source/{n}, /matrix/{n}/… for a source; /output/{n}/…,
 * /safe/mix/{n}, /matrix/…/{m} for an output), or null: what the page
 * forgets of a channel the rig removed.
 */
export function channelOf(strip, address) {
  if (!places.has(strip)) {
    // A strip's own entries name the channel {n}; the matrix's names the source {n} and the output {m}.
    const templates = (catalogue.strips?.[strip] ?? []).map((entry) => [entry.address, '{n}']);
    if (catalogue.matrix?.address) templates.push([catalogue.matrix.address, strip === 'output' ? '{m}' : '{n}']);
    const sources = new Set();
    for (const [template, mark] of templates) {
      const at = String(template).indexOf(mark);
      if (at < 0) continue;
      const head = template.slice(0, at).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[nm]\\\}/g, '[^/]+');
      sources.add(`^${head}(\\d+)(?:/|$)`);
    }
    places.set(strip, [...sources].map((source) => new RegExp(source)));
  }
  for (const pattern of places.get(strip)) {
    const match = pattern.exec(address);
    if (match) return Number(match[1]);
  }
  return null;
}
