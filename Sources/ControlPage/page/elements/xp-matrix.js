// <xp-matrix>: the routing grid, inputs (rows) × outputs (columns), with the
// source and output names in sticky headers so they stay visible while a
// 64x64 grid scrolls.
//
// Each cell is a <button data-address="/matrix/{in}/{out}"> with
// aria-pressed (true when the crosspoint is not 0) and its level in
// aria-label; its fill shows the level at a glance (by fader position).
// A tap (click, Space, Enter) toggles between 0 and the cell's last non-zero
// level (unity the first time). Pressing shows the dB; a long press (or
// right click, or F2 / the context-menu key) opens a fader for any level.
// Arrow keys move between cells (one cell is in the tab order at a time).
// Events are delegated to the grid: 4,096 cells cost no listeners each.

import { context, applyReadOnly } from './control.js';
import { store } from '../state.js';
import { positionFromGain, dbFromGain, formatDb } from '../fader-law.js';
import './xp-fader.js';

const LONG_PRESS_MS = 450;

export class XPMatrix extends HTMLElement {
  inputs = 0;
  outputs = 0;
  #off = [];
  #last = new Map(); // address -> last non-zero level
  #press = null;

  connectedCallback() {
    if (this.grid) return;
    this.setAttribute('role', 'group');
    this.setAttribute('aria-label', 'Routing matrix');
    this.dataset.control = '';
    this.scroller = document.createElement('div');
    this.scroller.className = 'matrix-scroll';
    this.grid = document.createElement('div');
    this.grid.className = 'matrix-grid';
    this.scroller.append(this.grid);
    this.bubble = document.createElement('div');
    this.bubble.className = 'matrix-bubble';
    this.bubble.hidden = true;
    this.panel = document.createElement('div');
    this.panel.className = 'matrix-popover';
    this.panel.hidden = true;
    this.panel.setAttribute('role', 'dialog');
    this.append(this.scroller, this.bubble, this.panel);

    this.grid.addEventListener('click', (e) => this.#click(e));
    this.grid.addEventListener('pointerdown', (e) => this.#down(e));
    for (const type of ['pointerup', 'pointercancel', 'pointerleave']) {
      this.grid.addEventListener(type, () => this.#release());
    }
    this.grid.addEventListener('contextmenu', (e) => {
      const cell = e.target.closest('.cell');
      if (!cell) return;
      e.preventDefault();
      this.openPopover(cell);
    });
    this.grid.addEventListener('keydown', (e) => this.#key(e));
    this.grid.addEventListener('focusin', (e) => {
      const cell = e.target.closest('.cell');
      if (!cell) return;
      this.grid.querySelector('.cell[tabindex="0"]')?.setAttribute('tabindex', '-1');
      cell.tabIndex = 0;
    });
  }

  /** Builds the grid for a rig of this size (again only when it changed). */
  configure(inputs, outputs) {
    if (inputs === this.inputs && outputs === this.outputs) return;
    this.inputs = inputs;
    this.outputs = outputs;
    for (const off of this.#off) off();
    this.#off = [];
    this.grid.style.setProperty('--outputs', outputs);
    const html = ['<div class="corner" aria-hidden="true">in ╲ out</div>'];
    for (let o = 1; o <= outputs; o++) {
      html.push(`<div class="col-head" data-output="${o}">${o}</div>`);
    }
    for (let i = 1; i <= inputs; i++) {
      html.push(`<div class="row-head" data-input="${i}">${i}</div>`);
      for (let o = 1; o <= outputs; o++) {
        html.push(`<button class="cell" type="button" tabindex="${i === 1 && o === 1 ? 0 : -1}"` +
                  ` data-address="/matrix/${i}/${o}" data-in="${i}" data-out="${o}" aria-pressed="false"></button>`);
      }
    }
    this.grid.innerHTML = html.join('');
    this.cells = new Map();
    for (const cell of this.grid.querySelectorAll('.cell')) {
      this.cells.set(cell.dataset.address, cell);
      applyReadOnly(cell);
      this.#label(cell, 0);
      this.#off.push(store.on(cell.dataset.address, (args) => this.#render(cell, args?.[0])));
    }
    for (let i = 1; i <= inputs; i++) {
      const head = this.grid.querySelector(`.row-head[data-input="${i}"]`);
      this.#off.push(store.on(`/source/${i}/name`, (args) => {
        head.textContent = args?.[0] || `${i}`;
        this.#relabel((cell) => cell.dataset.in === String(i));
      }));
    }
    for (let o = 1; o <= outputs; o++) {
      const head = this.grid.querySelector(`.col-head[data-output="${o}"]`);
      this.#off.push(store.on(`/output/${o}/name`, (args) => {
        head.textContent = args?.[0] || `${o}`;
        this.#relabel((cell) => cell.dataset.out === String(o));
      }));
    }
  }

  #name(kind, n) {
    const name = store.value(`/${kind}/${n}/name`, '');
    return name ? `${name}` : `${kind === 'source' ? 'in' : 'out'} ${n}`;
  }

  #label(cell, level) {
    const text = `${this.#name('source', cell.dataset.in)} to ${this.#name('output', cell.dataset.out)}: ${formatDb(dbFromGain(level))}`;
    cell.setAttribute('aria-label', text);
  }

  #relabel(which) {
    for (const cell of this.cells.values()) {
      if (which(cell)) this.#label(cell, store.value(cell.dataset.address, 0));
    }
  }

  #render(cell, level) {
    if (typeof level !== 'number') return;
    if (level > 0) this.#last.set(cell.dataset.address, level);
    cell.style.setProperty('--level', Math.min(1, positionFromGain(level) / 0.75).toFixed(3));
    cell.setAttribute('aria-pressed', String(level > 0));
    cell.toggleAttribute('data-above-unity', level > 1.0001);
    this.#label(cell, level);
    if (this.#press?.cell === cell) this.#showBubble(cell);
  }

  toggle(cell) {
    if (context.readOnly) return;
    const address = cell.dataset.address;
    const level = store.value(address, 0);
    const next = level > 0 ? 0 : (this.#last.get(address) ?? 1);
    context.connection?.send(address, 'f', [next], { from: cell, local: true });
  }

  #click(event) {
    const cell = event.target.closest('.cell');
    if (!cell) return;
    if (this.#press?.long) { this.#press = null; return; }
    this.toggle(cell);
  }

  #down(event) {
    const cell = event.target.closest('.cell');
    if (!cell || event.button > 0) return;
    this.#press = { cell, long: false };
    this.#showBubble(cell);
    clearTimeout(this.#press.timer);
    const press = this.#press;
    press.timer = setTimeout(() => {
      press.long = true;
      this.bubble.hidden = true;
      this.openPopover(cell);
    }, LONG_PRESS_MS);
  }

  #release() {
    if (!this.#press) return;
    clearTimeout(this.#press.timer);
    this.bubble.hidden = true;
    if (!this.#press.long) this.#press = null;
  }

  #showBubble(cell) {
    const rect = cell.getBoundingClientRect();
    this.bubble.textContent = formatDb(dbFromGain(store.value(cell.dataset.address, 0)));
    this.bubble.style.left = `${rect.left + rect.width / 2}px`;
    this.bubble.style.top = `${rect.top}px`;
    this.bubble.hidden = false;
  }

  /** A fader (and quick buttons) for one crosspoint. */
  openPopover(cell) {
    const { in: input, out: output } = cell.dataset;
    const address = cell.dataset.address;
    this.panel.innerHTML = '';
    const title = document.createElement('div');
    title.className = 'popover-title';
    title.textContent = `${this.#name('source', input)} → ${this.#name('output', output)}`;
    const fader = document.createElement('xp-fader');
    fader.setAttribute('orientation', 'horizontal');
    fader.dataset.address = `${address}/fader`;
    fader.setAttribute('aria-label', `Level ${title.textContent}`);
    const row = document.createElement('div');
    row.className = 'popover-buttons';
    for (const [label, value] of [['off', 0], ['-6 dB', 0.5011872], ['0 dB', 1]]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.dataset.control = '';
      applyReadOnly(button);
      button.addEventListener('click', () => {
        if (!context.readOnly) context.connection?.send(address, 'f', [value], { from: cell, local: true });
      });
      row.append(button);
    }
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.textContent = 'Done';
    close.addEventListener('click', () => this.closePopover());
    row.append(close);
    this.panel.append(title, fader, row);
    this.panel.hidden = false;
    this.panel.dataset.address = address;
    this.panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') this.closePopover(); });
    this.#returnFocus = cell;
    fader.focus();
  }

  #returnFocus = null;

  closePopover() {
    this.panel.hidden = true;
    this.panel.innerHTML = '';
    this.#press = null;
    this.#returnFocus?.focus();
  }

  #key(event) {
    const cell = event.target.closest('.cell');
    if (!cell) return;
    let i = Number(cell.dataset.in);
    let o = Number(cell.dataset.out);
    switch (event.key) {
      case 'ArrowUp': i--; break;
      case 'ArrowDown': i++; break;
      case 'ArrowLeft': o--; break;
      case 'ArrowRight': o++; break;
      case 'Home': o = 1; break;
      case 'End': o = this.outputs; break;
      case 'F2': case 'ContextMenu': event.preventDefault(); this.openPopover(cell); return;
      default: return; // Space and Enter: the button's own click
    }
    event.preventDefault();
    this.cells.get(`/matrix/${i}/${o}`)?.focus();
  }
}

customElements.define('xp-matrix', XPMatrix);
