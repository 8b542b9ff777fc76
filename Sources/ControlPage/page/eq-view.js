// A strip's EQ view (issue 36): an "EQ" button under the fader
// (aria-expanded) opens, inside the strip, a drawing of the EQ's combined
// response and a control for every value the catalogue puts in the view
// (`view: "eq"`, and on outputs `view: "limiter"`), keyboard reachable, each
// with its data-address. The curve is worked out here from the rig's values
// with the rig's own formulas (eq-curve.js, held to the Swift ones), and
// drawn again whenever one of them changes. Nothing of it exists until it
// is opened, and closing it takes it away: the page at 256 channels costs
// no more for it. Which views are open is remembered for the session.

import { store } from './state.js';
import { entries, fill, replyAddress } from './catalogue.js';
import { response, cutSections } from './eq-curve.js';
import { applyReadOnly, context } from './elements/control.js';
import { choicePicker } from './choice.js';

/** The frequencies the curve is drawn at: 121 from 20 Hz to 20 kHz, evenly in octaves. */
export const CURVE_FREQUENCIES = Array.from({ length: 121 }, (_, k) => 20 * Math.pow(1000, k / 120));
/** The drawing's range in dB. */
const RANGE = 18;

const opened = new Set();

/** The entries a strip's EQ view holds, in the catalogue's order. */
function viewEntries(kind) {
  return entries(kind, 'engineer').filter((entry) => entry.view === 'eq' || entry.view === 'limiter');
}

/** The sections of `kind` n's EQ as the rig has them now: what the curve sums. */
export function sectionsOf(kind, n) {
  const value = (name, fallback) => {
    const entry = viewEntries(kind).find((candidate) => candidate.name === name);
    const got = entry ? store.value(fill(entry.address, kind, n)) : undefined;
    return got === undefined ? fallback : got;
  };
  const sections = [];
  for (const [cut, shape] of [['hpf', 'highpass'], ['lpf', 'lowpass']]) {
    if (Number(value(`${cut}/on`, 0)) === 1) {
      sections.push(...cutSections({ shape, frequency: Number(value(`${cut}/freq`, 1000)), slope: Number(value(`${cut}/slope`, 24)) }));
    }
  }
  if (Number(value('eq/on', 1)) === 1) {
    for (let b = 1; viewEntries(kind).some((entry) => entry.name === `eq/${b}/gain`); b++) {
      if (Number(value(`eq/${b}/on`, 0)) !== 1) continue;
      sections.push({ shape: String(value(`eq/${b}/type`, 'peak')), frequency: Number(value(`eq/${b}/freq`, 1000)),
                      gain: Number(value(`eq/${b}/gain`, 0)), q: Number(value(`eq/${b}/q`, 1)) });
    }
  }
  return sections;
}

/** Draws `curve` (dB at CURVE_FREQUENCIES) on the canvas, 0 dB across the middle. */
function draw(canvas, curve) {
  const { width, height } = canvas;
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, width, height);
  const style = getComputedStyle(canvas);
  g.strokeStyle = style.getPropertyValue('--grid') || '#444';
  g.lineWidth = 1;
  for (const db of [-12, -6, 0, 6, 12]) {
    const y = height / 2 - (db / RANGE) * (height / 2);
    g.beginPath(); g.moveTo(0, y); g.lineTo(width, y); g.stroke();
  }
  g.strokeStyle = style.getPropertyValue('--curve') || '#5ab0ff';
  g.lineWidth = 2;
  g.beginPath();
  curve.forEach((db, k) => {
    const x = (k / (curve.length - 1)) * width;
    const y = height / 2 - (Math.max(-RANGE, Math.min(RANGE, db)) / RANGE) * (height / 2);
    if (k === 0) g.moveTo(x, y); else g.lineTo(x, y);
  });
  g.stroke();
}

/** A numeric choice (a cut's slope: 12 or 24) sent as a number. */
function slopePicker(address, title) {
  const select = document.createElement('select');
  Object.assign(select, { className: 'choice' });
  select.dataset.address = address;
  select.setAttribute('aria-label', title);
  select.replaceChildren(...['12', '24'].map((word) => Object.assign(document.createElement('option'), { value: word, textContent: `${word} dB/oct` })));
  const show = () => { select.value = String(store.value(address, 24)); };
  const off = store.on(address, show);
  select.disconnect = off;
  select.addEventListener('change', () => {
    if (context.readOnly) { show(); return; }
    context.connection?.send(address, 'f', [Number(select.value)], { from: select, local: true });
  });
  show();
  applyReadOnly(select);
  return select;
}

/** The view's contents: the curve, then its controls in groups (cuts, bands, limiter). */
function fillView(view, kind, n, controlOf, element) {
  const title = fill('{Strip}', kind, n);
  const canvas = element('canvas', { class: 'eq-curve', width: '320', height: '120', role: 'img',
                                     'aria-label': `${title} EQ response` });
  const redraw = () => {
    const rate = Number(store.value(replyAddress('statusSampleRate'), 48000)) || 48000;
    canvas.curve = response(sectionsOf(kind, n), CURVE_FREQUENCIES, rate);
    draw(canvas, canvas.curve);
  };
  const groups = new Map();
  for (const entry of viewEntries(kind)) {
    const [head, band] = entry.name.split('/');
    const key = entry.view === 'limiter' ? 'Limiter' : head === 'hpf' ? 'Low cut' : head === 'lpf' ? 'High cut'
      : /^\d+$/.test(band) ? `Band ${band}` : 'Bands';
    const address = fill(entry.address, kind, n);
    // A slope is a number (12, 24); a band's shape a word, its group naming it.
    const control = entry.name.endsWith('/slope') ? slopePicker(address, fill(entry.title, kind, n))
      : entry.control === 'choice' ? choicePicker(address, fill(entry.title, kind, n), entry.options ?? [])
        : controlOf(entry, kind, n);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(control);
  }
  const fieldsets = [...groups].map(([legend, controls]) =>
    element('fieldset', { class: `eq-group ${legend.toLowerCase().replaceAll(' ', '-')}` }, [element('legend', {}, [legend]), ...controls]));
  view.replaceChildren(canvas, ...fieldsets);
  // Drawn again once per flush in which any of its values changed.
  const watched = new Set(viewEntries(kind).map((entry) => fill(entry.address, kind, n)));
  const strip = fill(viewEntries(kind)[0].address, kind, n).split('/').slice(0, 3).join('/');
  const offs = [store.onPrefix(`${strip}/`, (changed) => { if ([...changed].some((a) => watched.has(a))) redraw(); }),
                store.on(replyAddress('statusSampleRate'), redraw)];
  canvas.disconnect = () => offs.forEach((off) => off());
  redraw();
}

/** The "EQ" button and its view for `kind` n (a source or an output). */
export function eqParts(kind, n, controlOf, element) {
  if (viewEntries(kind).length === 0) return [];
  const id = `eq-${kind}-${n}`;
  const name = `${kind} ${n} eq`;
  const button = element('button', { type: 'button', class: 'eq-toggle', 'aria-expanded': 'false', 'aria-controls': id,
                                     'aria-label': `${fill('{Strip}', kind, n)} EQ` }, ['EQ']);
  const view = element('div', { id, class: 'eq-view', role: 'group', 'aria-label': `${fill('{Strip}', kind, n)} EQ`, hidden: '' });
  const show = (open) => {
    button.setAttribute('aria-expanded', String(open));
    view.hidden = !open;
    view.closest('.strip')?.toggleAttribute('data-eq-open', open);
    if (open) {
      fillView(view, kind, n, controlOf, element);
      opened.add(name);
    } else {
      for (const node of view.querySelectorAll('input, select, canvas')) node.disconnect?.();
      view.replaceChildren();
      opened.delete(name);
    }
  };
  button.addEventListener('click', () => show(button.getAttribute('aria-expanded') !== 'true'));
  // Opened again as it was when the strip is built anew (scrolled back into view).
  if (opened.has(name)) queueMicrotask(() => show(true));
  return [button, view];
}
