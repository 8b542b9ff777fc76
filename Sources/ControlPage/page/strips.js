// Channel strips, built from the rig's catalogue (catalogue.js): for each
// source, output, the master and each DCA, its entries on the engineer's
// page, laid out by control kind, faders first: the number, text fields
// (the name), toggles (mute, solo, polarity, safe), pans, number fields
// (delay), the fader with the strip's meter (a DCA has none: no signal goes
// through it); under the fader, what is set once a show: a source's groups
// (memberships.js, group-mute.js) and a "More" disclosure with its patch
// and direct out (each disclosure remembered for the session,
// strip-memory.js). Built for the rig's size (rig-size.js), and added or
// removed one by one when it changes; only the strips near view have their
// controls (strip-row.js).

import { store } from './state.js';
import { context, applyReadOnly } from './elements/control.js';
import { entries, fill, failure } from './catalogue.js';
import { StripRow } from './strip-row.js';
import { patchPicker, presenceLight, watchPresence } from './patch.js';
import { choicePicker } from './choice.js';
import { watchPair, titlePan } from './stereo.js';
import { watchGroupMute, showGroups } from './group-mute.js';
import { groupParts } from './memberships.js';
import { remember } from './strip-memory.js';
import { eqParts } from './eq-view.js';
import './elements/xp-fader.js';
import './elements/xp-pan.js';
import './elements/xp-switch.js';
import './elements/xp-meter.js';

/** A new element with attributes and children. */
export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/**
 * An input field bound to an address: shows the rig's value unless it is
 * being edited, sends on Enter or when it loses focus.
 */
function boundInput(address, { type = 'text', label, placeholder = '', numeric = false, ...extra }) {
  const input = element('input', { type, 'data-address': address, 'aria-label': label, placeholder,
                                   enterkeyhint: 'done', ...extra });
  const off = store.on(address, (args) => {
    if (document.activeElement === input) return;
    const value = args?.[0];
    input.value = numeric && typeof value === 'number' ? String(Math.round(value * 100) / 100) : (value ?? '');
  });
  const commit = () => {
    if (context.readOnly) return;
    const known = store.value(address);
    if (numeric) {
      const value = Number(input.value);
      if (input.value === '' || !Number.isFinite(value) || value === known) return;
      context.connection?.send(address, 'f', [value], { from: input, local: true });
    } else if (input.value !== (known ?? '')) {
      context.connection?.send(address, 's', [input.value], { from: input, local: true });
    }
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') { commit(); input.blur(); }
    if (event.key === 'Escape') { input.value = store.value(address) ?? ''; input.blur(); }
  });
  input.disconnect = off;
  applyReadOnly(input);
  return input;
}

/**
 * One control of an entry at a place, by its kind. `meter`: the strip's
 * meter kind beside a fader ("input", "output") or null.
 */
export const controls = {
  text(entry, address, title, n, strip) {
    return boundInput(address, { label: title, placeholder: fill(entry.placeholder, strip, n),
                                 maxlength: String(entry.maxLength ?? 64) });
  },
  toggle(entry, address, title) {
    return element('xp-switch', { 'data-address': address, label: entry.label, 'aria-label': title,
                                  class: `switch-${String(entry.label).toLowerCase().replaceAll(' ', '-')}` });
  },
  pan(entry, address, title) {
    return element('xp-pan', { 'data-address': address, 'aria-label': title });
  },
  number(entry, address, title) {
    return element('label', { class: `number-field ${entry.name}` }, [
      boundInput(address, { type: 'number', label: title, numeric: true, min: String(entry.min ?? ''),
                            max: String(entry.max ?? ''), step: String(entry.step ?? 'any'), inputmode: 'decimal' }),
      ` ${entry.suffix ?? ''}`,
    ]);
  },
  patch(entry, address, title) {
    return patchPicker(address, title);
  },
  presence(entry, address, title) {
    return presenceLight(address, title);
  },
  choice(entry, address, title) {
    return element('label', { class: `choice-field ${entry.name}` }, [
      `${entry.name} `, choicePicker(address, title, entry.options ?? []),
    ]);
  },
  fader(entry, address, title, n, strip, meter) {
    const parts = [element('xp-fader', { 'data-address': address, 'data-gain': fill(entry.gain, strip, n), 'aria-label': title })];
    if (meter) parts.push(element('xp-meter', { kind: meter, channel: String(n) }));
    // An output's limiter: what it takes off, beside its level.
    if (strip === 'output') parts.push(element('xp-meter', { kind: 'limiter', channel: String(n), title: `${fill('{Strip}', strip, n)} limiter gain reduction` }));
    // A pair's left strip also meters its right member, shown while linked (stereo.js).
    if (strip === 'source' && n % 2 === 1) {
      parts.push(element('xp-meter', { kind: meter, channel: String(n + 1), class: 'partner-meter' }));
    }
    return element('div', { class: 'level' }, parts);
  },
};

/** The control of a catalogue entry on strip `kind` at channel (or group) n, by the entry's kind. */
export function controlOf(entry, kind, n, meter = null) {
  return controls[entry.control](entry, fill(entry.address, kind, n), fill(entry.title, kind, n), n, kind, meter);
}

/** The order a strip shows its controls in, by kind; toggles grouped in one row; the rarer ones folded under the fader. */
const layout = ['presence', 'text', 'toggle', 'pan', 'number', 'fader'];
const RARE = ['patch', 'choice'];

/** The label a strip's section carries: "Source 3", "Master", "DCA 2". */
const stripLabel = (kind, n) => (kind === 'master' ? 'Master' : fill('{Strip}', kind, n));

/** The short number a strip shows at its top: "In 3", "Out 2", "Master", "DCA 2". */
const shortLabel = (kind, n) => ({ source: `In ${n}`, output: `Out ${n}` })[kind] ?? stripLabel(kind, n);

/** Strips of channels, which a row builds when near view; a group's (DCA) carries data-group and is built at once. */
const CHANNELS = ['source', 'output'];

/** An empty strip: its section, numbered and labelled, with no controls yet. */
export function pendingStrip(kind, n) {
  const attributes = { class: `strip ${kind}`, 'aria-label': stripLabel(kind, n) };
  if (CHANNELS.includes(kind)) Object.assign(attributes, { 'data-channel': String(n), 'data-pending': '' });
  else if (kind !== 'master') attributes['data-group'] = String(n);
  return element('section', attributes);
}

/** Fills a strip's section with its controls, from the catalogue's entries for the engineer's page. */
export function fillStrip(section, kind, n, meter) {
  // What belongs to a view of its own (the EQ's) is not in the strip itself;
  // what belongs in its head (its listen) is beside its number.
  const shown = entries(kind, 'engineer').filter((entry) => !entry.view);
  const make = (control) => shown.filter((entry) => entry.control === control)
    .map((entry) => controlOf(entry, kind, n, meter));
  const head = entries(kind, 'engineer').filter((entry) => entry.view === 'head')
    .map((entry) => controlOf(entry, kind, n, meter));
  const parts = [element('div', { class: head.length > 0 ? 'number with-head' : 'number' }, [shortLabel(kind, n), ...head])];
  for (const control of layout) {
    const made = make(control);
    if (made.length > 0) parts.push(...(control === 'toggle' ? [element('div', { class: 'switches' }, made)] : made));
  }
  // A source's groups under its fader: the group-mute badge, the "Groups" disclosure.
  if (kind === 'source') parts.push(...groupParts(n));
  // The EQ (and an output's limiter), opened on demand (eq-view.js).
  if (kind === 'source' || kind === 'output') parts.push(...eqParts(kind, n, controlOf, element));
  const rare = RARE.flatMap(make);
  if (rare.length > 0) {
    const more = element('details', { class: 'strip-more' }, [element('summary', {}, ['More']), ...rare]);
    parts.push(remember(more, `${kind} ${n} more`));
  }
  section.replaceChildren(...parts);
  if (kind === 'source') {
    showGroups(section, n);
    titlePan(section, n);
  }
  return section;
}

const meters = { source: 'input', output: 'output', master: 'master' };

/** A built strip ("source", "output", "master", "dca") at channel (or group) n. */
export const strip = (kind, n) => fillStrip(pendingStrip(kind, n), kind, n, meters[kind]);

/** A source strip, built or not, with what it shows in any state: its presence (data-present) and its pair. */
function sourceStrip(n, inputs) {
  const section = pendingStrip('source', n);
  section.watching = { presence: watchPresence(section, n), pair: watchPair(section, n, inputs),
                       groups: watchGroupMute(section, n) };
  return section;
}

/** Stops what a source strip watches: it is removed. */
function unwatch(section) {
  const { presence, pair = [], groups } = section.watching ?? {};
  for (const off of [presence, ...pair, groups]) off?.();
}

/**
 * Lays the containers out for a rig of this size: at first every strip,
 * then (the rig's size changed) only the strips that came or went, so the
 * others keep their controls, focus and scroll.
 */
export function buildStrips(sources, outputs, inputs, outputCount) {
  const had = { inputs: Number(sources.dataset.count ?? -1), outputs: Number(outputs.dataset.count ?? -1) };
  if (had.inputs === inputs && had.outputs === outputCount) return;
  const why = failure();
  if (why) {
    sources.replaceChildren(element('p', { role: 'alert', class: 'failure' }, [why]));
    return;
  }
  for (const container of [sources, outputs]) {
    container.row ??= new StripRow(container, (section) => {
      const kind = section.classList.contains('source') ? 'source' : 'output';
      fillStrip(section, kind, Number(section.dataset.channel), meters[kind]);
    });
  }
  if (!outputs.querySelector(':scope > .strip.master')) outputs.append(strip('master', 0));
  sources.row.resize(inputs, (n) => sourceStrip(n, inputs), unwatch);
  outputs.row.resize(outputCount, (m) => pendingStrip('output', m));
  // The last odd source that stays gains or loses the right member of its pair (stereo.js).
  const edge = Math.min(had.inputs, inputs);
  const lone = edge % 2 === 1 ? sources.querySelector(`:scope > .strip[data-channel="${edge}"]`) : null;
  if (lone?.watching) {
    for (const off of lone.watching.pair) off();
    lone.watching.pair = watchPair(lone, edge, inputs);
  }
  sources.dataset.count = String(inputs);
  outputs.dataset.count = String(outputCount);
}
