// <xp-meter kind="input" channel="3">: peak and RMS level of one channel,
// from /meters/input (peak dBFS per channel) and /meters/input/rms (or the
// output ones). <xp-meter kind="master">: the loudest output, after the
// master (the highest of /meters/output and of /meters/output/rms). Drawn
// on the fader law's scale, so the marks line up with a fader beside it.
// <xp-meter kind="limiter" channel="2">: what output 2's limiter takes off
// (/meters/limiter, its gain in dB), drawn down from the top, 0 to 20 dB.
// Styling is by two custom properties, no layout per frame. The meters'
// addresses come from the rig's reply table (catalogue.js `replyAddress`).

import { store } from '../state.js';
import { positionFromDb } from '../fader-law.js';
import { replyAddress } from '../catalogue.js';

/** Each kind's peak and RMS meter messages. */
const LEVELS = {
  input: { peak: replyAddress('metersInput'), rms: replyAddress('metersInputRMS') },
  output: { peak: replyAddress('metersOutput'), rms: replyAddress('metersOutputRMS') },
  limiter: { peak: replyAddress('metersLimiter'), rms: null },
};

/** How far down a limiter's bar reaches for a gain of `db` (≤ 0): 20 dB is the whole height. */
export const reductionShown = (db) => (typeof db === 'number' ? Math.min(1, Math.max(0, -db / 20)) : 0);

export class XPMeter extends HTMLElement {
  #unsubscribe = [];

  connectedCallback() {
    if (!this.firstChild) {
      this.setAttribute('aria-hidden', 'true');
      this.innerHTML = '<div class="rms"></div><div class="peak"></div>';
    }
    const master = this.getAttribute('kind') === 'master';
    const limiter = this.getAttribute('kind') === 'limiter';
    const kind = limiter ? 'limiter' : master || this.getAttribute('kind') === 'output' ? 'output' : 'input';
    const index = Number(this.getAttribute('channel')) - 1;
    const shown = {};
    const level = master
      ? (args) => {
        let top;
        for (const db of args ?? []) if (typeof db === 'number' && !(db <= top)) top = db;
        return top;
      }
      : (args) => args?.[index];
    const show = (name) => (args) => {
      const db = level(args);
      const at = (limiter ? reductionShown(db) : typeof db === 'number' ? Math.min(1, positionFromDb(db)) : 0).toFixed(3);
      // Nothing to draw when the bar has not moved (a silent or steady channel).
      if (shown[name] !== at) {
        shown[name] = at;
        this.style.setProperty(name, at);
      }
      if (name === '--peak' && !limiter) {
        const clip = typeof db === 'number' && db >= -0.1;
        if (clip !== this.hasAttribute('data-clip')) this.toggleAttribute('data-clip', clip);
      }
    };
    const { peak, rms } = LEVELS[kind];
    this.#unsubscribe = [[peak, '--peak'], [rms, '--rms']]
      .filter(([address]) => address).map(([address, name]) => store.on(address, show(name)));
  }

  disconnectedCallback() {
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
  }
}

customElements.define('xp-meter', XPMeter);
