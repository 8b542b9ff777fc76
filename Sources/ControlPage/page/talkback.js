// Talk buttons (docs/talkback.md): one per talkback the rig has
// (catalogue.json `counts`), in the status bar, built from the catalogue's
// talk entry. A button talks while it is pressed, by pointer or while Space
// is held, and stops when let go; a double tap latches it (it talks on
// after the release) until the next tap. It shows "talking" in words as
// well as colour, and follows the rig: a talk another client starts or
// stops shows at once. `aria-pressed` says whether it talks. A performer's
// personal mix has the buttons of the talkbacks its role is granted
// (/role/talkbacks), above its outputs.

import { catalogue, addressOf, titleOf } from './catalogue.js';
import { store } from './state.js';
import { context, applyReadOnly } from './elements/control.js';
import { element } from './strips.js';

/** A press shorter than this is a tap; a press this soon after a tap ends latches. */
const TAP_MS = 300;
const DOUBLE_TAP_MS = 500;

/** One talkback's button. */
class TalkButton {
  constructor(t) {
    this.address = addressOf('talkback', 'talk', t);
    this.name = addressOf('talkback', 'name', t);
    // The rig's own latch (/talkback/t/latch): a 1 then flips the talk and a 0 does nothing.
    this.rigLatch = addressOf('talkback', 'latch', t);
    this.label = element('span', { class: 'talk-name' }, [`T${t}`]);
    this.state = element('span', { class: 'talk-state' }, ['']);
    this.button = element('button', { type: 'button', class: 'talk', 'data-address': this.address,
                                       'aria-pressed': 'false', 'aria-label': titleOf('talkback', 'talk', t) ?? `Talk ${t}` },
                          [this.label, this.state]);
    this.held = false;
    this.latched = false;
    this.pressedAt = 0;
    this.tapEnded = -Infinity;
    // What `dispose` undoes: the store's listeners, the document's and the window's.
    this.unsubscribes = [];
    this.outside = new AbortController();
    this.button.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return; // the primary button, a touch, a pen
      event.preventDefault();
      // Its release comes here wherever the pointer has gone.
      this.button.setPointerCapture?.(event.pointerId);
      this.press();
    });
    for (const kind of ['pointerup', 'pointercancel', 'lostpointercapture', 'blur']) this.button.addEventListener(kind, () => this.release());
    // A page hidden or left while held lets go.
    const { signal } = this.outside;
    document.addEventListener('visibilitychange', () => { if (document.hidden) this.release(); }, { signal });
    window.addEventListener('pagehide', () => this.release(), { signal });
    this.button.addEventListener('keydown', (event) => {
      if (event.key !== ' ' || event.repeat) return;
      event.preventDefault();
      this.press();
    });
    this.button.addEventListener('keyup', (event) => {
      if (event.key !== ' ') return;
      event.preventDefault();
      this.release();
    });
    // A click is the pointer's or Space's, already handled; Enter taps.
    this.button.addEventListener('click', (event) => { if (event.detail === 0 && !this.held) this.tap(); });
    this.unsubscribes.push(store.on(this.address, (args) => this.show(args?.[0] === true || (typeof args?.[0] === 'number' && args[0] !== 0))));
    // Its name in its tooltip; the bar shows "T1" (room for the rest of the bar).
    if (this.name) this.unsubscribes.push(store.on(this.name, (args) => { this.button.title = String(args?.[0] ?? ''); }));
    applyReadOnly(this.button);
  }

  /** Gone from the page (the role's grants changed): a talk it holds or latched stops, and it listens no more. */
  dispose() {
    if (this.held || this.latched) {
      this.held = false;
      this.latched = false;
      this.send(false);
    }
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.outside.abort();
  }

  send(on) {
    if (context.readOnly) return;
    context.connection?.send(this.address, 'i', [on ? 1 : 0], { from: this.button, local: true });
    this.show(on);
  }

  /** Down: a tap while latched stops; a press just after a tap latches; else talks while held. */
  press() {
    if (this.held) return;
    this.held = true;
    const now = performance.now();
    this.pressedAt = now;
    if (this.latched) {
      this.latched = false;
      this.tapEnded = -Infinity;
      this.send(false);
      return;
    }
    this.latched = now - this.tapEnded < DOUBLE_TAP_MS;
    this.send(true);
  }

  /** Up: stops unless latched; a short press was a tap (the first of a double tap). */
  release() {
    if (!this.held) return;
    this.held = false;
    const now = performance.now();
    this.tapEnded = now - this.pressedAt < TAP_MS && !this.latched ? now : -Infinity;
    // With the rig's latch on, the press flipped it: a release is nothing to it.
    const rigLatched = Boolean(this.rigLatch && store.value(this.rigLatch));
    if (!this.latched && !rigLatched && this.button.getAttribute('aria-pressed') === 'true') this.send(false);
  }

  /** Enter: talks until the next tap. */
  tap() {
    this.latched = !this.latched;
    this.send(this.latched);
  }

  show(on) {
    if (!on) this.latched = this.latched && this.held;
    this.button.setAttribute('aria-pressed', String(on));
    this.state.textContent = on ? (this.latched ? 'talking (latched)' : 'talking') : '';
  }
}

/** The talkbacks the rig has, 1…N (catalogue.json `counts`); none without a talk entry. */
function talkbackNumbers() {
  const count = catalogue.counts?.talkback ?? 0;
  if (!Number.isInteger(count) || count < 1 || !addressOf('talkback', 'talk', 1)) return [];
  return Array.from({ length: count }, (_, index) => index + 1);
}

/** The talk buttons, in a group first in `container` (the status bar's menu); none on a rig without talkbacks. */
export function buildTalkButtons(container) {
  const numbers = talkbackNumbers();
  if (numbers.length === 0) return null;
  const group = element('div', { class: 'engineer talkbacks', role: 'group', 'aria-label': 'Talkback' },
                        numbers.map((t) => new TalkButton(t).button));
  container.prepend(group);
  return group;
}

/**
 * A performer's talk buttons: those of `granted` (the session's
 * /role/talkbacks) the rig has, named by the talkbacks' names, in a group
 * to go above the personal mix (its `dispose()` before it is dropped); null
 * when none.
 */
export function buildGrantedTalkButtons(granted) {
  const numbers = talkbackNumbers().filter((t) => granted.includes(t));
  if (numbers.length === 0) return null;
  const talks = numbers.map((t) => {
    const talk = new TalkButton(t);
    // A phone's button: the talkback's name in it, not "T1".
    if (talk.name) talk.unsubscribes.push(store.on(talk.name, (args) => { talk.label.textContent = `Talk: ${String(args?.[0] ?? `T${t}`)}`; }));
    return talk;
  });
  const group = element('div', { class: 'mix-talk talkbacks', role: 'group', 'aria-label': 'Talkback' }, talks.map((talk) => talk.button));
  // Before it leaves the page: its talks stop, its listeners go.
  group.dispose = () => { for (const talk of talks) talk.dispose(); };
  return group;
}
