// The matrix's names: a channel's name as the rig holds it, the name a
// cell's label uses, and a head's content (its number over its name, the
// column head's name in up to two lines) with its accessible name.

import { store } from '../state.js';
import { addressOf } from '../catalogue.js';

/** The name a channel shows: its name, else "in 3" / "out 3". */
export function channelName(kind, n) {
  return nameOf(kind, n) || `${kind === 'source' ? 'in' : 'out'} ${n}`;
}

/** A channel's name as the rig holds it (the catalogue's name parameter), or "". */
export function nameOf(kind, n) {
  const address = addressOf(kind, 'name', n);
  return address ? String(store.value(address, '')) : '';
}

/**
 * A head: its channel number over its name (a column head's in up to two
 * lines, broken after "_", "-", ".", "/" first), whole in its title and its
 * accessible name ("Output 119: Wedge 3").
 */
export function nameHead(head, kind, n) {
  const name = nameOf(kind, n);
  const number = document.createElement('span');
  number.className = 'head-number';
  number.textContent = String(n);
  const text = document.createElement('span');
  text.className = 'head-name';
  for (const part of name.split(/(?<=[_\-./])/)) text.append(part, document.createElement('wbr'));
  head.replaceChildren(number, text);
  const whole = `${kind === 'source' ? 'Input' : 'Output'} ${n}`;
  head.title = name ? `${n} ${name}` : whole;
  head.setAttribute('role', kind === 'source' ? 'rowheader' : 'columnheader');
  head.setAttribute('aria-label', name ? `${whole}: ${name}` : whole);
}
