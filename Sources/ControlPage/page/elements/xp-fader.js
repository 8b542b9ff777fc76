// <xp-fader data-address="/source/1/fader" data-gain="/source/1/volume">: a
// level fader, 0…1 console fader position (0.75 = 0 dB), with a dB scale and
// readout. The rig sends the page each level as linear gain only (its
// `/subscribe/forms linear`), at data-gain, and the fader shows the position
// the fader law gives (fader-law.js, held to the rig's); a value at its own
// address (a query's answer) is shown as it is. The slider base class is
// shared with <xp-pan>.
//
// Dragging is relative (a touch never makes the level jump) and captures
// the pointer, so two fingers move two faders at once. While a pointer holds
// it, the fader sends ADDRESS/touch 1 … 0 around its values and ignores what
// arrives for its address; on release it shows the rig's value again.
// A wide fader the page scrolls across (touch-action pan-y) takes a finger
// only once it moves along the fader.
// Keyboard (WAI-ARIA slider): arrows step, Page Up/Down ten steps, Home/End.

import { XPControl, context } from './control.js';
import { store } from '../state.js';
import { dbFromPosition, positionFromDb, positionFromGain, formatDb } from '../fader-law.js';

/** How far a finger goes along a fader the page scrolls across before it moves it, in px. */
const SLOP = 8;

export class XPSlider extends XPControl {
  min = 0;
  max = 1;
  step = 0.01;
  value = 0;
  #pointer = null;
  #pending = null;
  #sendFrame = 0;
  /** The rig's latest value, shown again when a finger lets go. */
  #known = null;

  get vertical() {
    return this.getAttribute('orientation') !== 'horizontal';
  }

  get held() {
    return this.#pointer !== null;
  }

  build() {
    if (this.track) return;
    this.setAttribute('role', 'slider');
    this.setAttribute('aria-valuemin', String(this.min));
    this.setAttribute('aria-valuemax', String(this.max));
    this.setAttribute('aria-orientation', this.vertical ? 'vertical' : 'horizontal');
    this.track = document.createElement('div');
    this.track.className = 'track';
    this.fill = document.createElement('div');
    this.fill.className = 'fill';
    this.thumb = document.createElement('div');
    this.thumb.className = 'thumb';
    this.track.append(this.fill, this.thumb);
    this.readout = document.createElement('output');
    this.readout.className = 'readout';
    this.append(this.track, this.readout);
    this.decorate?.();
    this.addEventListener('pointerdown', (e) => this.#down(e));
    this.addEventListener('pointermove', (e) => this.#move(e));
    this.addEventListener('pointerup', (e) => this.#up(e));
    this.addEventListener('pointercancel', (e) => this.#up(e));
    this.addEventListener('lostpointercapture', (e) => this.#up(e));
    this.addEventListener('keydown', (e) => this.#key(e));
    this.render(this.value);
  }

  /** Incoming value from the rig (or from another control on this page). */
  receive(args) {
    if (typeof args?.[0] !== 'number') return;
    this.#known = args[0];
    if (!this.held) this.render(args[0]);
  }

  render(value) {
    this.value = value;
    const fraction = Math.min(1, Math.max(0, (value - this.min) / (this.max - this.min)));
    this.style.setProperty('--value', fraction.toFixed(4));
    this.setAttribute('aria-valuenow', String(Math.round(value * 10000) / 10000));
    const text = this.valueText(value);
    this.setAttribute('aria-valuetext', text);
    this.readout.textContent = text;
  }

  valueText(value) {
    return value.toFixed(2);
  }

  clamp(value) {
    return Math.min(this.max, Math.max(this.min, value));
  }

  /** Sets a value from this page: shown at once, sent at most once per frame. */
  change(value) {
    value = this.clamp(value);
    if (value === this.value) return;
    this.render(value);
    this.#pending = value;
    if (!this.#sendFrame) {
      this.#sendFrame = requestAnimationFrame(() => this.#flush());
    }
  }

  #flush() {
    cancelAnimationFrame(this.#sendFrame);
    this.#sendFrame = 0;
    if (this.#pending === null) return;
    const value = this.#pending;
    this.#pending = null;
    this.send('f', [value], { local: true });
  }

  #down(event) {
    if (this.disabled || this.#pointer !== null || event.button > 0) return;
    event.preventDefault();
    this.focus({ preventScroll: true });
    this.setPointerCapture(event.pointerId);
    const length = this.vertical ? this.track.clientHeight : this.track.clientWidth;
    // Where the page may scroll across the fader (touch-action pan-y on the
    // personal mix's wide faders), a finger moves it only once it has gone
    // SLOP px along it: a swipe the browser takes for a scroll (it cancels
    // the pointer) changes nothing and sends no touch.
    const slop = event.pointerType === 'touch' && getComputedStyle(this).touchAction !== 'none' ? SLOP : 0;
    this.#pointer = { id: event.pointerId, x: event.clientX, y: event.clientY,
                      start: this.value, length: Math.max(40, length), engaged: slop === 0, slop, offset: 0 };
    this.dataset.held = '';
    if (slop === 0) context.connection?.send(`${this.address}/touch`, 'i', [1]);
  }

  #move(event) {
    const pointer = this.#pointer;
    if (!pointer || pointer.id !== event.pointerId) return;
    let travel = (this.vertical ? pointer.y - event.clientY : event.clientX - pointer.x) - pointer.offset;
    if (!pointer.engaged) {
      if (Math.abs(travel) < pointer.slop) return;
      // The slop is not travel: the fader starts from where it was, no jump.
      pointer.engaged = true;
      pointer.offset = Math.sign(travel) * pointer.slop;
      travel -= pointer.offset;
      context.connection?.send(`${this.address}/touch`, 'i', [1]);
    }
    // Fine control: with Shift (or a second, slower hand) a quarter of the speed.
    const scale = event.shiftKey ? 0.25 : 1;
    this.change(pointer.start + scale * travel / pointer.length * (this.max - this.min));
  }

  #up(event) {
    const pointer = this.#pointer;
    if (!pointer || pointer.id !== event.pointerId) return;
    this.#pointer = null;
    delete this.dataset.held;
    if (pointer.engaged) {
      this.#flush();
      context.connection?.send(`${this.address}/touch`, 'i', [0]);
    }
    // The rig sends the value once on release; until then show the latest known.
    if (this.#known !== null) this.render(this.#known);
  }

  #key(event) {
    if (this.disabled) return;
    const range = this.max - this.min;
    let value;
    switch (event.key) {
      case 'ArrowUp': case 'ArrowRight': value = this.value + this.step; break;
      case 'ArrowDown': case 'ArrowLeft': value = this.value - this.step; break;
      case 'PageUp': value = this.value + 10 * this.step; break;
      case 'PageDown': value = this.value - 10 * this.step; break;
      case 'Home': value = this.min; break;
      case 'End': value = this.max; break;
      default: return;
    }
    event.preventDefault();
    value = Math.round(this.clamp(value) / this.step) * this.step;
    value = Math.round(value * 1e6) / 1e6;
    this.change(value);
    if (range > 0) this.#flush();
  }
}

/** Scale marks of a level fader, in dB. */
const MARKS = [10, 5, 0, -5, -10, -20, -30, -40, -60];

export class XPFader extends XPSlider {
  #unwatchGain = null;

  connectedCallback() {
    super.connectedCallback();
    const gain = this.dataset.gain;
    if (gain) this.#unwatchGain = store.on(gain, (args) => {
      if (typeof args?.[0] === 'number') this.receive([positionFromGain(args[0])]);
    });
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#unwatchGain?.();
    this.#unwatchGain = null;
  }

  decorate() {
    if (!this.vertical) return;
    const scale = document.createElement('div');
    scale.className = 'scale';
    scale.setAttribute('aria-hidden', 'true');
    for (const db of [...MARKS, -90]) {
      const mark = document.createElement('span');
      mark.className = db === 0 ? 'mark unity' : 'mark';
      mark.style.setProperty('--at', positionFromDb(db).toFixed(4));
      mark.textContent = db === -90 ? '-∞' : db > 0 ? `+${db}` : String(db);
      scale.append(mark);
    }
    this.track.append(scale);
  }

  valueText(value) {
    return formatDb(dbFromPosition(value));
  }
}

customElements.define('xp-fader', XPFader);
