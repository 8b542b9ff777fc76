// The personal mix: what a performer's page shows (a role of outputs), made
// for a phone held in one hand, built from the catalogue's entries on the
// `mix` page (catalogue.json: what a performer's role may change). For each
// output of the role, a section headed with the output's name: the output's
// own entries by kind (its level fader with the output meter, its toggles:
// mute and "Keep my mix", /safe/mix/{m}; its number fields: the delay),
// then, from the matrix's entry, one wide fader per source into that
// output on the console law, named by the source's live name, over the
// source's input meter. Nothing of the engineer's page is built.
//
// Only the faders near the window are built (strip-row.js, as the
// engineer's strips): every source has its row from the start, empty
// (`data-pending`, a group named "Source 3" in the tab order: Tab builds
// it and moves into its fader), filled when it comes within MARGIN of the
// window and emptied again when it goes further, unless it holds the
// focus. When the rig's size changes, an output of the role that goes
// takes its section with it (and comes back with it), and a new source
// gets its row.

import { element, controlOf } from './strips.js';
import { catalogue, entries, fill, addressOf } from './catalogue.js';
import { StripRow } from './strip-row.js';
import './elements/xp-fader.js';
import './elements/xp-switch.js';
import './elements/xp-meter.js';
import './elements/xp-label.js';

/** How far above and below the window a source's fader is built, in px. */
const MARGIN = '1500px 0px';

/** The matrix's entry when it is on the mix page, else null (no faders per source). */
const crosspoint = () => (catalogue.matrix?.pages?.includes('mix') ? catalogue.matrix : null);

/** A wide fader row's parts: a live name over the track, a meter under it. */
function rowParts([address, gain], nameId, name, meter) {
  return [
    name,
    element('xp-fader', { orientation: 'horizontal', 'data-address': address, 'data-gain': gain, 'aria-labelledby': nameId }),
    element('xp-meter', { orientation: 'horizontal', ...meter }),
  ];
}

/** Source n's row into output m, empty: built when near the window (fillSource). */
function pendingSource(m, n) {
  return element('div', { class: 'mix-row', 'data-source': String(n), 'data-pending': '', role: 'group',
                          'aria-label': fill(crosspoint().title, 'source', n, m) });
}

/** Fills source n's row with its fader into output m, named by the source's live name. */
function fillSource(row, m) {
  const n = Number(row.dataset.source);
  const nameId = `mix-${m}-source-${n}`;
  const name = element('xp-label', { class: 'mix-name', id: nameId, 'data-name': addressOf('source', 'name', n),
                                     fallback: `In ${n}` });
  row.replaceChildren(...rowParts([crosspoint().address, crosspoint().gain].map((t) => fill(t, 'source', n, m)), nameId, name,
                                  { kind: 'input', channel: String(n) }));
}

/** Output m's own controls, from its entries on the mix page: the level, the toggles in a row, number fields. */
function ownControls(m) {
  const id = `mix-${m}`;
  const of = (control) => entries('output', 'mix').filter((entry) => entry.control === control);
  const parts = of('fader').map((entry) => element('div', { class: 'mix-row', 'data-own': '' }, rowParts(
    [entry.address, entry.gain].map((t) => fill(t, 'output', m)), `${id}-level ${id}-title`,
    element('span', { class: 'mix-name', id: `${id}-level` }, ['Level']), { kind: 'output', channel: String(m) })));
  const toggles = of('toggle').map((entry) => controlOf(entry, 'output', m));
  if (toggles.length > 0) parts.push(element('div', { class: 'mix-switches' }, toggles));
  // A number field shows its name before it ("delay"), as a choice does on a strip.
  const numbers = of('number').map((entry) => {
    const field = controlOf(entry, 'output', m);
    field.prepend(`${entry.name} `);
    return field;
  });
  if (numbers.length > 0) parts.push(element('div', { class: 'mix-numbers' }, numbers));
  return parts;
}

function mixSection(m) {
  const id = `mix-${m}`;
  const title = element('h2', { id: `${id}-title`, class: 'mix-title' }, [
    element('xp-label', { 'data-name': addressOf('output', 'name', m), fallback: `Out ${m}` }),
    element('small', {}, [` out ${m}`]),
  ]);
  const parts = [title, ...ownControls(m)];
  if (crosspoint()) {
    const sources = element('div', { class: 'mix-sources', role: 'group', 'aria-label': `Sources into output ${m}` });
    sources.row = new StripRow(sources, (row) => fillSource(row, m),
                               { root: null, margin: MARGIN, item: 'mix-row', channel: 'source' });
    parts.push(sources);
  }
  return element('section', { class: 'mix', 'data-output': String(m), 'aria-labelledby': `${id}-title` }, parts);
}

/** Takes a section out, its rows no longer watched. */
function removeSection(section) {
  section.querySelector('.mix-sources')?.row.stop();
  section.remove();
}

/**
 * Fills `root` with the sections of these outputs (those of the role the rig
 * has), each with a row per source. Again when the outputs or the rig's
 * size change, then only what came or went: a section of an output that
 * stays, and the rows of sources that stay, are kept as they are.
 */
export function buildMix(root, outputs, inputs) {
  if (outputs.length === 0) {
    if (!root.querySelector(':scope > .mix-empty')) {
      clearMix(root);
      root.replaceChildren(element('p', { class: 'mix-empty' }, ['This role has no outputs to mix.']));
    }
    return;
  }
  root.querySelector(':scope > .mix-empty')?.remove();
  const sections = new Map([...root.querySelectorAll(':scope > section[data-output]')]
    .map((section) => [Number(section.dataset.output), section]));
  for (const [m, section] of sections) if (!outputs.includes(m)) removeSection(section);
  // A performer's talk buttons (talkback.js) stay first.
  let previous = root.querySelector(':scope > .mix-talk');
  for (const m of outputs) {
    const section = sections.get(m) ?? mixSection(m);
    // In the role's order; a section already in place is not moved (it may hold the focus).
    if (!section.isConnected || section.previousElementSibling !== previous) {
      if (previous) previous.after(section);
      else root.prepend(section);
    }
    section.querySelector('.mix-sources')?.row.resize(inputs, (n) => pendingSource(m, n));
    previous = section;
  }
}

/** Empties the mix (another role, the full page). */
export function clearMix(root) {
  for (const section of root.querySelectorAll(':scope > section[data-output]')) removeSection(section);
  root.replaceChildren();
}
