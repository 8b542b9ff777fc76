// The personal mix: what a performer's page shows (a role of outputs), made
// for a phone held in one hand. For each output of the role, a section
// headed with the output's name: its level, mute and "Keep my mix" (the
// mix-safe, /safe/mix/{m}: its crosspoints stay through preset recalls and
// undo), then one wide fader per source into that output, on the console
// law (/matrix/{n}/{m}/fader), named by the source's live name, over the
// source's input meter. Nothing of the engineer's page is built.

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

export function mixSection(m, inputs) {
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
  const sources = Array.from({ length: inputs }, (_, k) => {
    const n = k + 1;
    const nameId = `${id}-source-${n}`;
    const name = element('xp-label', { class: 'mix-name', id: nameId, 'data-name': `/source/${n}/name`,
                                       fallback: `In ${n}` });
    return row(`/matrix/${n}/${m}/fader`, nameId, name, { kind: 'input', channel: String(n) },
               { 'data-source': String(n) });
  });
  return element('section', { class: 'mix', 'data-output': String(m), 'aria-labelledby': `${id}-title` }, [
    title, own, switches,
    element('div', { class: 'mix-sources', role: 'group', 'aria-label': `Sources into output ${m}` }, sources),
  ]);
}

/** Fills `root` with the sections of these outputs; again only when they or the input count changed. */
export function buildMix(root, outputs, inputs) {
  const key = `${outputs.join(',')}/${inputs}`;
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  root.replaceChildren(...(outputs.length > 0
    ? outputs.map((m) => mixSection(m, inputs))
    : [element('p', { class: 'mix-empty' }, ['This role has no outputs to mix.'])]));
}

/** Empties the mix (another role, the full page). */
export function clearMix(root) {
  root.replaceChildren();
  delete root.dataset.key;
}
