// A choice of a few words the catalogue lists (a source's direct out: off,
// pre, post): a <select data-address> that shows the rig's value and sends
// the word chosen. A select is keyboard- and screen-reader-ready as it is.

import { store } from './state.js';
import { context, applyReadOnly } from './elements/control.js';

/** A picker for `address` among `options` (the catalogue entry's). */
export function choicePicker(address, title, options) {
  const select = document.createElement('select');
  select.dataset.address = address;
  select.setAttribute('aria-label', title);
  select.className = 'choice';
  select.replaceChildren(...options.map((word) => {
    const option = document.createElement('option');
    option.value = word;
    option.textContent = word;
    return option;
  }));
  return bindSelect(select, address, () => { select.value = String(store.value(address, options[0] ?? '')); });
}

/**
 * Binds a <select> that sets a text value at `address`: `show` draws it
 * from the store whenever the value (or any of `alsoOn`) changes; a choice
 * sends the option's value (a read-only page shows the rig's again).
 */
export function bindSelect(select, address, show, alsoOn = []) {
  const offs = [...alsoOn, address].map((watched) => store.on(watched, show));
  select.disconnect = () => offs.forEach((off) => off());
  select.addEventListener('change', () => {
    if (context.readOnly) { show(); return; }
    context.connection?.send(address, 's', [select.value], { from: select, local: true });
  });
  show();
  applyReadOnly(select);
  return select;
}
