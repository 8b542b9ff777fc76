// <xp-switch data-address="/source/1/mute" label="M">: an on/off parameter
// (mute, solo, polarity, recall safe): role="switch" with aria-checked.
// A tap, click, Space or Enter toggles it and sends ADDRESS ,i 1|0.
// With data-name="/mutegroup/1/name" its text is that name, live (an
// xp-label; `label` while the name is empty): its accessible name too.

import { XPControl } from './control.js';
import './xp-label.js';

export class XPSwitch extends XPControl {
  checked = false;

  build() {
    if (this.hasAttribute('role')) return;
    this.setAttribute('role', 'switch');
    this.setAttribute('aria-checked', 'false');
    if (this.dataset.name) {
      const name = document.createElement('xp-label');
      name.dataset.name = this.dataset.name;
      name.setAttribute('fallback', this.getAttribute('label') ?? '');
      this.replaceChildren(name);
    } else {
      this.textContent = this.getAttribute('label') ?? '';
    }
    this.addEventListener('click', () => this.toggle());
    this.addEventListener('keydown', (event) => {
      if (event.key === ' ' || event.key === 'Enter') {
        event.preventDefault();
        this.toggle();
      }
    });
  }

  receive(args) {
    const value = args?.[0];
    this.render(value === true || (typeof value === 'number' && value !== 0));
  }

  render(checked) {
    this.checked = checked;
    this.setAttribute('aria-checked', String(checked));
  }

  toggle() {
    if (this.disabled) return;
    const checked = !this.checked;
    this.render(checked);
    this.send('i', [checked ? 1 : 0], { local: true });
  }
}

customElements.define('xp-switch', XPSwitch);
