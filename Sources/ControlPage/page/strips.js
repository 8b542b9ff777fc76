// Channel strips: sources (name, mute, solo, polarity, safe, pan, fader with
// input meter), outputs (name, mute, safe, delay, fader with output meter)
// and the master. Built from the rig's size (/status/inputs, /outputs).

import { store } from './state.js';
import { context, applyReadOnly } from './elements/control.js';
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

function toggle(address, label, title) {
  return element('xp-switch', { 'data-address': address, label, 'aria-label': title, class: `switch-${label.toLowerCase()}` });
}

function level(address, meterKind, channel, title) {
  const fader = element('xp-fader', { 'data-address': address, 'aria-label': title });
  const parts = [fader];
  if (meterKind) parts.push(element('xp-meter', { kind: meterKind, channel: String(channel) }));
  return element('div', { class: 'level' }, parts);
}

export function sourceStrip(n) {
  return element('section', { class: 'strip source', 'data-channel': String(n), 'aria-label': `Source ${n}` }, [
    element('div', { class: 'number' }, [`In ${n}`]),
    boundInput(`/source/${n}/name`, { label: `Source ${n} name`, placeholder: `in ${n}`, maxlength: '64' }),
    element('div', { class: 'switches' }, [
      toggle(`/source/${n}/mute`, 'M', `Mute source ${n}`),
      toggle(`/source/${n}/solo`, 'S', `Solo source ${n}`),
      toggle(`/source/${n}/invert`, 'Ø', `Invert polarity of source ${n}`),
      toggle(`/safe/source/${n}`, 'Safe', `Recall safe source ${n}`),
    ]),
    element('xp-pan', { 'data-address': `/source/${n}/pan`, 'aria-label': `Source ${n} pan` }),
    level(`/source/${n}/fader`, 'input', n, `Source ${n} level`),
  ]);
}

export function outputStrip(m) {
  return element('section', { class: 'strip output', 'data-channel': String(m), 'aria-label': `Output ${m}` }, [
    element('div', { class: 'number' }, [`Out ${m}`]),
    boundInput(`/output/${m}/name`, { label: `Output ${m} name`, placeholder: `out ${m}`, maxlength: '64' }),
    element('div', { class: 'switches' }, [
      toggle(`/output/${m}/mute`, 'M', `Mute output ${m}`),
      toggle(`/safe/output/${m}`, 'Safe', `Recall safe output ${m}`),
    ]),
    element('label', { class: 'delay' }, [
      boundInput(`/output/${m}/delay`, { type: 'number', label: `Output ${m} delay in ms`, numeric: true,
                                         min: '0', step: '0.1', inputmode: 'decimal' }),
      ' ms',
    ]),
    level(`/output/${m}/fader`, 'output', m, `Output ${m} level`),
  ]);
}

export function masterStrip() {
  return element('section', { class: 'strip master', 'aria-label': 'Master' }, [
    element('div', { class: 'number' }, ['Master']),
    element('div', { class: 'switches' }, [
      toggle('/master/mute', 'M', 'Mute master'),
      toggle('/safe/master', 'Safe', 'Recall safe master'),
    ]),
    level('/master/fader', null, 0, 'Master level'),
  ]);
}

/** Fills the containers for a rig of this size; again only when it changed. */
export function buildStrips(sources, outputs, inputs, outputCount) {
  if (sources.dataset.count === String(inputs) && outputs.dataset.count === String(outputCount)) return;
  sources.replaceChildren(...Array.from({ length: inputs }, (_, k) => sourceStrip(k + 1)));
  outputs.replaceChildren(...Array.from({ length: outputCount }, (_, k) => outputStrip(k + 1)), masterStrip());
  sources.dataset.count = String(inputs);
  outputs.dataset.count = String(outputCount);
}
