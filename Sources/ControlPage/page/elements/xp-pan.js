// <xp-pan data-address="/source/1/pan">: pan, -1 (left) … +1 (right),
// a horizontal slider with the fader's touch and keyboard behaviour.
// Arrows step 0.02; double-click (or a double tap) centres it.

import { XPSlider } from './xp-fader.js';

export class XPPan extends XPSlider {
  min = -1;
  max = 1;
  step = 0.02;

  connectedCallback() {
    this.setAttribute('orientation', 'horizontal');
    super.connectedCallback();
  }

  decorate() {
    this.addEventListener('dblclick', () => { if (!this.disabled) this.change(0); });
  }

  valueText(value) {
    const percent = Math.round(Math.abs(value) * 100);
    if (percent === 0) return 'centre';
    return `${value < 0 ? 'left' : 'right'} ${percent}%`;
  }
}

customElements.define('xp-pan', XPPan);
