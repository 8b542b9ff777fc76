// The rig's size, and the controls that change it (issue 24: a rig that
// changes size while it plays). The rig says how many sources and outputs it
// has in /rig/inputs and /rig/outputs (in its full state, and to every
// subscriber when the size changes, whoever changed it) and in /status
// (/status/inputs, /status/outputs, polled; a rig without /rig/… has only
// these): the last one to arrive is the size, as the rig's messages come in
// the order it sent them. What the page lays out follows `RigSize`; when a
// channel goes, the page forgets what its store holds for it (the addresses
// the catalogue gives the channel), so no value left behind shows it again.
//
// The controls, on the engineer's page: "− N +" in the Sources and Outputs
// heads, both buttons data-address="/rig/inputs" (/rig/outputs), the
// commands' addresses and ranges (1…512) from the rig's command table
// (catalogue.js `command`). "+" sends N + 1 at once, and is unavailable at
// the range's highest; "−" first asks, in a modal alertdialog that names what goes
// ("Remove source 9 (Guest mic)? Its routing goes with it."), then sends
// N − 1. Nothing changes on the page until the rig answers with its new size;
// a refusal (/error) shows beside the button (errors.js); it is unavailable
// at the range's lowest. The /status fields come from the rig's reply table
// (catalogue.js `replyAddress`). Read-only, the
// buttons are disabled like every control; the personal mix has none.

import { store } from './state.js';
import { addressOf, channelOf, command, fill, replyAddress } from './catalogue.js';
import { applyReadOnly, context } from './elements/control.js';
import { element } from './strips.js';

/** Each axis: its command in the rig's table, its /status field, the strip it counts, and words for it. */
const AXES = {
  inputs: { command: command('rigInputs'), status: replyAddress('statusInputs'), strip: 'source', one: 'a source', plural: 'sources' },
  outputs: { command: command('rigOutputs'), status: replyAddress('statusOutputs'), strip: 'output', one: 'an output', plural: 'outputs' },
};

/** An axis's command as the rig describes it: its address, and the sizes it takes ([1, 512]; unbounded if not said). */
function resizing(axis) {
  const described = AXES[axis].command;
  const [lowest, highest] = described?.range?.[0] ?? [1, Infinity];
  return { address: described?.address ?? null, lowest, highest };
}

/**
 * The rig's number of sources (`inputs`) and outputs (`outputs`), null
 * until it said; a `change` event ({axis, before, count}) when one changes.
 */
export class RigSize extends EventTarget {
  inputs = null;
  outputs = null;

  constructor(connection) {
    super();
    // As each message arrives, in the order the rig sent them: the last one said is the size.
    for (const [axis, { status }] of Object.entries(AXES)) {
      for (const address of [resizing(axis).address, status]) {
        if (address) connection.on(address, ({ args }) => this.#heard(axis, args[0]));
      }
    }
  }

  #heard(axis, count) {
    if (!Number.isInteger(count) || count < 0 || count === this[axis]) return;
    const before = this[axis];
    this[axis] = count;
    if (before !== null && count < before) {
      const { strip } = AXES[axis];
      store.forget((address) => (channelOf(strip, address) ?? 0) > count);
    }
    this.dispatchEvent(new CustomEvent('change', { detail: { axis, before, count } }));
  }
}

/** "− N +" for one axis (`"inputs"`, `"outputs"`), appended to `host`. */
export class SizeControls {
  #asked = null;

  constructor(axis, host, size, connection) {
    const { strip, one, plural } = AXES[axis];
    const { address: command, lowest, highest } = resizing(axis);
    Object.assign(this, { axis, size, connection, strip, command, lowest, highest });
    this.remove = element('button', { type: 'button', class: 'rig-size-remove', 'data-address': command }, ['−']);
    this.count = element('span', { class: 'rig-size-count' });
    const adding = `Add ${one}`;
    this.add = element('button', { type: 'button', class: 'rig-size-add', 'data-address': command,
                                   'aria-label': adding, title: adding }, ['+']);
    this.group = element('div', { class: 'rig-size', role: 'group', 'aria-label': `Number of ${plural}`,
                                  'data-axis': axis }, [this.remove, this.count, this.add]);
    this.dialog = this.#confirmation();
    host.append(this.group, this.dialog);
    this.add.addEventListener('click', () => this.#send(this.add, 1));
    this.remove.addEventListener('click', () => this.#ask());
    size.addEventListener('change', ({ detail }) => { if (detail.axis === axis) this.render(); });
    this.render();
  }

  /** The confirmation of a removal: a modal alertdialog, Cancel focused first (Escape cancels too). */
  #confirmation() {
    this.question = element('p', { id: `rig-size-${this.axis}-question` });
    const cancel = element('button', { type: 'button', class: 'rig-size-cancel' }, ['Cancel']);
    this.confirm = element('button', { type: 'button', class: 'rig-size-confirm danger' });
    const dialog = element('dialog', { class: 'rig-size-dialog', role: 'alertdialog', 'aria-modal': 'true',
                                       'aria-labelledby': this.question.id },
                           [this.question, element('div', { class: 'rig-size-choices' }, [cancel, this.confirm])]);
    cancel.addEventListener('click', () => this.close());
    this.confirm.addEventListener('click', () => {
      // Only what was asked about: another change of the size meanwhile closed the dialog.
      if (this.#asked === this.size[this.axis]) this.#send(this.remove, -1);
      this.close();
    });
    dialog.addEventListener('close', () => {
      this.#asked = null;
      if (this.remove.isConnected) this.remove.focus();
    });
    this.cancel = cancel;
    return dialog;
  }

  /** Shows the size and names what "−" removes; closes a confirmation the new size made stale. */
  render() {
    const count = this.size[this.axis];
    this.group.hidden = count === null;
    this.count.textContent = String(count ?? '');
    const removing = `Remove ${fill('{strip}', this.strip, count)}`;
    this.remove.setAttribute('aria-label', removing);
    this.remove.title = removing;
    this.remove.toggleAttribute('data-unavailable', !(count > this.lowest));
    this.add.toggleAttribute('data-unavailable', !(count < this.highest));
    applyReadOnly(this.remove);
    applyReadOnly(this.add);
    this.close();
  }

  /** Closes the confirmation, if open, removing nothing. */
  close() {
    if (this.dialog.open) this.dialog.close();
  }

  /** Asks whether to remove the last channel, by its number and name. */
  #ask() {
    const count = this.size[this.axis];
    if (context.readOnly || !(count > this.lowest) || !this.dialog.isConnected) return;
    const what = fill('{strip}', this.strip, count);
    const address = addressOf(this.strip, 'name', count);
    const name = address ? String(store.value(address, '')) : '';
    this.question.textContent = `Remove ${what}${name ? ` (${name})` : ''}? Its routing goes with it.`;
    this.confirm.textContent = `Remove ${what}`;
    this.#asked = count;
    this.dialog.showModal();
    this.cancel.focus();
  }

  /** Asks the rig for one channel more or fewer; the page follows its answer. */
  #send(from, step) {
    const count = this.size[this.axis];
    const next = count + step;
    if (context.readOnly || count === null || next < this.lowest || next > this.highest) return;
    this.connection.send(this.command, 'i', [next], { from });
  }
}
