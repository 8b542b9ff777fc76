// Finding a crosspoint in a big matrix: a filter per axis (the inputs or
// outputs whose name or number holds the text) and a jump (an input and an
// output, by number or by the start of a name; the cell is scrolled to and
// focused). Both are plain form fields, reachable by keyboard and read by
// screen readers, for what the overview does for a pointer.

import { nameOf } from './matrix-heads.js';
import { store } from '../state.js';
import { addressOf } from '../catalogue.js';

/** The channels 1…count whose number is `text` or whose name holds it (any case); all when it is empty. */
export function filtered(kind, count, text) {
  const all = Array.from({ length: count }, (_, k) => k + 1);
  const wanted = text.trim().toLowerCase();
  if (!wanted) return all;
  return all.filter((n) => String(n) === wanted || nameOf(kind, n).toLowerCase().includes(wanted));
}

/** The channel `text` names: its number, else the first whose name starts with it, else holds it; or null. */
export function named(kind, count, text) {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return null;
  const number = Number(wanted);
  if (Number.isInteger(number)) return number >= 1 && number <= count ? number : null;
  const names = Array.from({ length: count }, (_, k) => nameOf(kind, k + 1).toLowerCase());
  const start = names.findIndex((name) => name.startsWith(wanted));
  const within = start >= 0 ? start : names.findIndex((name) => name.includes(wanted));
  return within >= 0 ? within + 1 : null;
}

/**
 * Keeps one listener per channel's name (`offs`, channels 1…count, grown or
 * shrunk to count): a name that changes may change what a filter keeps.
 */
export function watchNames(offs, kind, count, changed) {
  while (offs.length > count) offs.pop()();
  while (offs.length < count) offs.push(store.on(addressOf(kind, 'name', offs.length + 1) ?? '', changed));
}

/** A finder's text field, marked `data-{mark}="{name}"`. */
export function field(name, label, placeholder, type = 'search', mark = 'matrix') {
  const input = document.createElement('input');
  Object.assign(input, { type, name, placeholder, autocomplete: 'off', spellcheck: false });
  input.setAttribute('aria-label', label);
  input.dataset[mark] = name;
  return input;
}

export class MatrixFinder {
  /** Called when a filter changes. */
  onFilter = () => {};
  /** Called with (input text, output text) when a jump is asked for. */
  onJump = () => {};

  constructor(host) {
    this.inputs = field('filter-inputs', 'Show inputs whose name or number holds', 'Filter inputs');
    this.outputs = field('filter-outputs', 'Show outputs whose name or number holds', 'Filter outputs');
    this.jumpInput = field('jump-input', 'Go to input (number or name)', 'Input', 'text');
    this.jumpOutput = field('jump-output', 'Go to output (number or name)', 'Output', 'text');
    const go = document.createElement('button');
    go.type = 'submit';
    go.textContent = 'Go';
    const jump = document.createElement('form');
    jump.className = 'matrix-jump';
    jump.setAttribute('aria-label', 'Go to a crosspoint');
    // What a jump could not find, said aloud and shown.
    this.status = document.createElement('span');
    this.status.className = 'matrix-jump-note';
    this.status.setAttribute('role', 'status');
    jump.append(this.jumpInput, this.jumpOutput, go, this.status);
    jump.addEventListener('submit', (event) => {
      event.preventDefault();
      this.onJump(this.jumpInput.value, this.jumpOutput.value);
    });
    const filters = document.createElement('div');
    filters.className = 'matrix-filters';
    filters.setAttribute('role', 'search');
    filters.setAttribute('aria-label', 'Filter the matrix');
    filters.append(this.inputs, this.outputs);
    let timer = 0;
    for (const input of [this.inputs, this.outputs]) {
      input.addEventListener('input', () => {
        clearTimeout(timer);
        timer = setTimeout(() => this.onFilter(), 120);
      });
    }
    this.box = document.createElement('div');
    this.box.className = 'matrix-tools';
    this.box.append(filters, jump);
    host.append(this.box);
  }

  /** The filters' texts. */
  get texts() {
    return { inputs: this.inputs.value, outputs: this.outputs.value };
  }

  /** Says what a jump could not find (nothing: it found it). */
  notFound(what) {
    this.status.textContent = what ? `No ${what}` : '';
    this.box.toggleAttribute('data-not-found', Boolean(what));
  }

  /** Empties a filter (when a jump goes to a channel it hides). */
  clear(which) {
    this[which].value = '';
  }
}
