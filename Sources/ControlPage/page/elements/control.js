// What every control element shares: the session it sends on, its address
// (data-address, as in the README's address table), and read-only mode:
// with access "read-only" every control shows aria-disabled="true" and
// ignores input.

import { store } from '../state.js';

export const context = { connection: null, readOnly: false };

/** Turns read-only mode on or off for every control on the page. */
export function setReadOnly(readOnly) {
  context.readOnly = readOnly;
  document.documentElement.dataset.access = readOnly ? 'read-only' : 'full';
  for (const element of document.querySelectorAll('[data-address], [data-control]')) {
    applyReadOnly(element);
  }
}

export function applyReadOnly(element) {
  if (context.readOnly) element.setAttribute('aria-disabled', 'true');
  else element.removeAttribute('aria-disabled');
  // Native inputs and buttons are disabled outright; matrix cells stay
  // focusable (their level is still read out) and ignore presses.
  const native = element instanceof HTMLInputElement || element instanceof HTMLButtonElement;
  if (native && !element.classList.contains('cell')) element.disabled = context.readOnly;
}

export class XPControl extends HTMLElement {
  #unsubscribe = null;

  get address() {
    return this.dataset.address;
  }

  get disabled() {
    return context.readOnly;
  }

  connectedCallback() {
    if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
    applyReadOnly(this);
    this.build?.();
    this.#unsubscribe = store.on(this.address, (args) => this.receive(args));
  }

  disconnectedCallback() {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  send(types, args, options = {}) {
    return context.connection?.send(this.address, types, args, { from: this, ...options });
  }
}
