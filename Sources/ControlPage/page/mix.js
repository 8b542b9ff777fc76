// The personal mix: what a performer's page shows (a role of outputs), made
// for a phone held in one hand. For each output of the role, a section
// headed with the output's name: its level, mute and "Keep my mix" (the
// mix-safe, /safe/mix/{m}: its crosspoints stay through preset recalls and
// undo), then one wide fader per source into that output, on the console
// law (/matrix/{n}/{m}/fader), named by the source's live name, over the
// source's input meter. Nothing of the engineer's page is built. When the
// rig's size changes, an output of the role that goes takes its section
// with it (and comes back with it), and a new source gets its fader.

import { element } from './strips.js';
import './elements/xp-fader.js';
import './elements/xp-switch.js';
import './elements/xp-meter.js';
import './elements/xp-label.js';

/** One wide fader row: a live name over the track, a meter under it. */
function row(address, nameId, name, meter, extra = {}) {
  return element('div', { class: 'mix-row', ...extra }, [
    name,
    element('xp-fader', { orientation: 'horizontal', 'data-address': address, 'aria-labelledby': nameId }),
    element('xp-meter', { orientation: 'horizontal', ...meter }),
  ]);
}

/** Source n's fader into output m, named by the source's live name. */
function sourceRow(m, n) {
  const nameId = `mix-${m}-source-${n}`;
  const name = element('xp-label', { class: 'mix-name', id: nameId, 'data-name': `/source/${n}/name`,
                                     fallback: `In ${n}` });
  return row(`/matrix/${n}/${m}/fader`, nameId, name, { kind: 'input', channel: String(n) },
             { 'data-source': String(n) });
}

/** Gives an output's list the faders of sources 1…inputs: appends the new, removes those beyond; the rest stay. */
function fitSources(list, m, inputs) {
  const rows = list.children;
  while (rows.length > inputs) rows[rows.length - 1].remove();
  for (let n = rows.length + 1; n <= inputs; n++) list.append(sourceRow(m, n));
}

function mixSection(m, inputs) {
  const id = `mix-${m}`;
  const title = element('h2', { id: `${id}-title`, class: 'mix-title' }, [
    element('xp-label', { 'data-name': `/output/${m}/name`, fallback: `Out ${m}` }),
    element('small', {}, [` out ${m}`]),
  ]);
  const own = row(`/output/${m}/fader`, `${id}-level ${id}-title`,
                  element('span', { class: 'mix-name', id: `${id}-level` }, ['Level']),
                  { kind: 'output', channel: String(m) }, { 'data-own': '' });
  const switches = element('div', { class: 'mix-switches' }, [
    element('xp-switch', { 'data-address': `/output/${m}/mute`, label: 'Mute', class: 'switch-m',
                           'aria-label': `Mute output ${m}` }),
    element('xp-switch', { 'data-address': `/safe/mix/${m}`, label: 'Keep my mix', class: 'switch-safe',
                           'aria-label': `Keep my mix on output ${m} through preset recalls` }),
  ]);
  const sources = element('div', { class: 'mix-sources', role: 'group', 'aria-label': `Sources into output ${m}` });
  fitSources(sources, m, inputs);
  return element('section', { class: 'mix', 'data-output': String(m), 'aria-labelledby': `${id}-title` }, [
    title, own, switches, sources,
  ]);
}

/**
 * Fills `root` with the sections of these outputs (those of the role the rig
 * has), each with a fader per source. Again when the outputs or the rig's
 * size change, then only what came or went: a section of an output that
 * stays, and the faders of sources that stay, are kept as they are.
 */
export function buildMix(root, outputs, inputs) {
  if (outputs.length === 0) {
    if (!root.querySelector(':scope > .mix-empty')) {
      root.replaceChildren(element('p', { class: 'mix-empty' }, ['This role has no outputs to mix.']));
    }
    return;
  }
  root.querySelector(':scope > .mix-empty')?.remove();
  const sections = new Map([...root.querySelectorAll(':scope > section[data-output]')]
    .map((section) => [Number(section.dataset.output), section]));
  for (const [m, section] of sections) if (!outputs.includes(m)) section.remove();
  let previous = null;
  for (const m of outputs) {
    const section = sections.get(m) ?? mixSection(m, inputs);
    fitSources(section.querySelector('.mix-sources'), m, inputs);
    // In the role's order; a section already in place is not moved (it may hold the focus).
    if (!section.isConnected || section.previousElementSibling !== previous) {
      if (previous) previous.after(section);
      else root.prepend(section);
    }
    previous = section;
  }
}

/** Empties the mix (another role, the full page). */
export function clearMix(root) {
  root.replaceChildren();
}
