// <xp-matrix>: the routing grid, inputs (rows) × outputs (columns), with the
// source and output names in sticky heads. Only the part in view is in the
// document (MatrixView), so a 256x256 rig costs what a screenful does; an
// overview of the whole matrix (MatrixOverview), filters by name and a jump
// to an input and output (MatrixFinder) find the rest.
//
// Each cell is a <button data-address="/matrix/{in}/{out}"> with
// aria-pressed (true when the crosspoint is not 0) and its level in
// aria-label; its fill shows the level at a glance (by fader position).
// A tap (click, Space, Enter) toggles between 0 and the cell's last non-zero
// level (unity the first time). Pressing shows the dB; a long press (or
// right click, or F2 / the context-menu key) opens a fader for any level.
// Arrow keys move between cells and scroll the view along (one cell is in
// the tab order at a time); Page Up/Down a screenful of rows, Home/End the
// row's ends, Ctrl+Home/End the matrix's corners; whatever moves the focus
// (or the overview) brings the page along (in-view.js). Events are
// delegated to the grid: no listeners per cell.

import { context, applyReadOnly } from './control.js';
import { store } from '../state.js';
import { dbFromGain, formatDb } from '../fader-law.js';
import { MatrixView, CROSSPOINT } from './matrix-view.js';
import { channelName } from './matrix-heads.js';
import { MatrixOverview } from './matrix-overview.js';
import { MatrixFinder, filtered, named, watchNames } from './matrix-finder.js';
import { keepInView, pointerPressed } from '../in-view.js';
import './xp-fader.js';

const LONG_PRESS_MS = 450;

export class XPMatrix extends HTMLElement {
  inputs = 0;
  outputs = 0;
  #last = new Map(); // address -> last non-zero level
  #press = null;

  connectedCallback() {
    if (this.view) return;
    this.setAttribute('role', 'group');
    this.setAttribute('aria-label', 'Routing matrix');
    this.dataset.control = '';
    this.finder = new MatrixFinder(this);
    const body = document.createElement('div');
    body.className = 'matrix-body';
    this.append(body);
    this.overview = new MatrixOverview(body);
    this.view = new MatrixView(body);
    this.view.onRender = (seen) => this.overview.frameView(seen);
    this.view.onLevel = (cell) => {
      if (this.#press?.cell === cell) this.#showBubble(cell);
    };
    // Every crosspoint's last level above 0, for a tap to bring back (in view
    // or not), and the overview's pixels.
    store.onPrefix('/matrix/', (addresses) => {
      for (const address of addresses) {
        if (!CROSSPOINT.test(address)) continue;
        const level = store.value(address, 0);
        if (level > 0) this.#last.set(address, level);
      }
      this.overview.changed(addresses);
    });
    this.overview.onJump = (row, col) => this.view.centre(row, col);
    // A tap or drag on the overview ends with the grid's box in sight (below it on a phone).
    this.overview.box.addEventListener('pointerup', () => keepInView(this.view.scroller));
    this.finder.onFilter = () => this.#filter();
    this.finder.onJump = (input, output) => this.#jump(input, output);
    this.bubble = document.createElement('div');
    this.bubble.className = 'matrix-bubble';
    this.bubble.hidden = true;
    this.panel = document.createElement('div');
    this.panel.className = 'matrix-popover';
    this.panel.hidden = true;
    this.panel.setAttribute('role', 'dialog');
    this.panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') this.closePopover(); });
    this.append(this.bubble, this.panel);

    const grid = this.view.cellLayer;
    grid.addEventListener('click', (e) => this.#click(e));
    grid.addEventListener('pointerdown', (e) => this.#down(e));
    for (const type of ['pointerup', 'pointercancel', 'pointerleave']) {
      grid.addEventListener(type, () => this.#release());
    }
    grid.addEventListener('contextmenu', (e) => {
      const cell = e.target.closest('.cell');
      if (!cell) return;
      e.preventDefault();
      this.openPopover(cell);
    });
    grid.addEventListener('keydown', (e) => this.#key(e));
    grid.addEventListener('focusin', (e) => {
      const cell = e.target.closest('.cell');
      if (!cell) return;
      this.view.cell(this.view.active.i, this.view.active.o)?.setAttribute('tabindex', '-1');
      this.view.active = { i: Number(cell.dataset.in), o: Number(cell.dataset.out) };
      cell.tabIndex = 0;
      // Tab back into the grid: the cell clear of the sticky heads (not under a pointer: it would move away).
      if (!pointerPressed()) this.view.reveal(this.view.active.i, this.view.active.o);
    });
  }

  /**
   * Lays the grid out for a rig of this size; again when the size changes
   * (rig-size.js), keeping what stays: the view's scroll, the cells in view
   * and the focus, the filters. Crosspoints that went take their last
   * levels and an open fader with them.
   */
  configure(inputs, outputs) {
    if (inputs === this.inputs && outputs === this.outputs) return;
    this.inputs = inputs;
    this.outputs = outputs;
    watchNames(this.#names.source, 'source', inputs, () => this.#refilterSoon());
    watchNames(this.#names.output, 'output', outputs, () => this.#refilterSoon());
    const gone = (address) => {
      const match = CROSSPOINT.exec(address ?? '');
      return Boolean(match) && (Number(match[1]) > inputs || Number(match[2]) > outputs);
    };
    for (const address of this.#last.keys()) if (gone(address)) this.#last.delete(address);
    this.#filter();
    if (!this.panel.hidden && gone(this.panel.dataset.address)) this.closePopover();
  }

  /** Filters again at the next frame (once a frame at most), when a filter is in use. */
  #refilterSoon() {
    const { inputs: rows, outputs: cols } = this.finder.texts;
    if (!(rows || cols) || this.#refilter) return;
    this.#refilter = requestAnimationFrame(() => { this.#refilter = 0; this.#filter(); });
  }

  #names = { source: [], output: [] };
  #refilter = 0;

  /** Shows the inputs and outputs the filters keep. */
  #filter() {
    const { inputs, outputs } = this.finder.texts;
    const rows = filtered('source', this.inputs, inputs);
    const cols = filtered('output', this.outputs, outputs);
    this.dataset.shown = `${rows.length}x${cols.length}`;
    this.overview.show(rows, cols);
    this.view.show(rows, cols);
  }

  /** Goes to the crosspoint of an input and an output (numbers or names; an empty one stays where it is). */
  #jump(inputText, outputText) {
    const i = inputText.trim() ? named('source', this.inputs, inputText) : this.view.active.i;
    const o = outputText.trim() ? named('output', this.outputs, outputText) : this.view.active.o;
    if (i === null || o === null) {
      this.finder.notFound(i === null ? `input "${inputText.trim()}"` : `output "${outputText.trim()}"`);
      return;
    }
    this.finder.notFound(null);
    // A filter that hides the channel goes.
    if (this.view.rowOf(i) < 0) this.finder.clear('inputs');
    if (this.view.colOf(o) < 0) this.finder.clear('outputs');
    if (this.view.rowOf(i) < 0 || this.view.colOf(o) < 0) this.#filter();
    this.view.focus(i, o);
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
    title.textContent = `${channelName('source', input)} → ${channelName('output', output)}`;
    const fader = document.createElement('xp-fader');
    fader.setAttribute('orientation', 'horizontal');
    fader.dataset.address = `${address}/fader`;
    fader.dataset.gain = address;
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
    this.#returnFocus = { i: Number(input), o: Number(output) };
    fader.focus();
  }

  #returnFocus = null;

  closePopover() {
    this.panel.hidden = true;
    this.panel.innerHTML = '';
    this.#press = null;
    // Back to the cell, scrolled into view again if it went meanwhile.
    if (this.#returnFocus) this.view.focus(this.#returnFocus.i, this.#returnFocus.o);
  }

  #key(event) {
    const cell = event.target.closest('.cell');
    if (!cell) return;
    const view = this.view;
    let r = view.rowOf(Number(cell.dataset.in));
    let c = view.colOf(Number(cell.dataset.out));
    const corner = event.ctrlKey || event.metaKey;
    switch (event.key) {
      case 'ArrowUp': r--; break;
      case 'ArrowDown': r++; break;
      case 'ArrowLeft': c--; break;
      case 'ArrowRight': c++; break;
      case 'PageUp': r -= view.pageRows(); break;
      case 'PageDown': r += view.pageRows(); break;
      case 'Home': c = 0; if (corner) r = 0; break;
      case 'End': c = view.cols.length - 1; if (corner) r = view.rows.length - 1; break;
      case 'F2': case 'ContextMenu': event.preventDefault(); this.openPopover(cell); return;
      default: return; // Space and Enter: the button's own click
    }
    event.preventDefault();
    r = Math.max(0, Math.min(view.rows.length - 1, r));
    c = Math.max(0, Math.min(view.cols.length - 1, c));
    view.focus(view.rows[r], view.cols[c]);
  }
}

customElements.define('xp-matrix', XPMatrix);
