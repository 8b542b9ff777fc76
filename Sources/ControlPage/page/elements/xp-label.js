// <xp-label data-name="/source/1/name" fallback="In 1">: the live text of a
// name the rig keeps (/source/{n}/name, /output/{m}/name), or the fallback
// while it is empty. Text only: no control and no data-address, so a
// slider's aria-labelledby can point at it and read the name as it is now.

import { store } from '../state.js';

export class XPLabel extends HTMLElement {
  #unsubscribe = null;

  connectedCallback() {
    const fallback = this.getAttribute('fallback') ?? '';
    if (!this.textContent) this.textContent = fallback;
    this.#unsubscribe = store.on(this.dataset.name, (args) => {
      this.textContent = (typeof args?.[0] === 'string' && args[0]) || fallback;
    });
  }

  disconnectedCallback() {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}

customElements.define('xp-label', XPLabel);
