// What every control element shares: the session it sends on, its address
// (data-address, as in the README's address table), and the session's
// access: with "read-only" every control shows aria-disabled="true" and
// ignores input; "full" and "outputs" (a performer's own mix, whose page
// shows only the controls the rig lets it change) leave them operable.

import { store } from '../state.js';

export const context = { connection: null, readOnly: false, access: 'full' };

/**
 * Sets the page's access, "full", "read-only" or "outputs", on the root
 * element (data-access) and on every control on the page.
 */
export function setAccess(access) {
  context.access = access;
  context.readOnly = access === 'read-only';
  document.documentElement.dataset.access = access;
  for (const element of document.querySelectorAll('[data-address], [data-control]')) {
    applyReadOnly(element);
  }
}

export function applyReadOnly(element) {
  // A preset whose file cannot be read (data-unreadable) stays disabled whatever the access;
  // so does a control that has nothing to do now (data-unavailable: removing the last source).
  const unavailable = element.hasAttribute('data-unavailable');
  if (context.readOnly || unavailable || element.hasAttribute('data-unreadable')) element.setAttribute('aria-disabled', 'true');
  else element.removeAttribute('aria-disabled');
  // Native inputs and buttons are disabled outright; matrix cells stay
  // focusable (their level is still read out) and ignore presses.
  const native = element instanceof HTMLInputElement || element instanceof HTMLButtonElement;
  if (native && !element.classList.contains('cell')) element.disabled = context.readOnly || unavailable;
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
