// The part of the routing grid in view. A 256x256 rig has 65,536
// crosspoints; the page keeps only the cells, row heads and column heads
// that are on screen (and a couple beyond each edge) in the document, and
// moves them as the grid scrolls. The scroll box holds one empty space of
// the whole grid's size, so the scroll bars, the sticky heads and a fling
// on a tablet behave as for a grid that is all there.
//
// Rows are the inputs shown (all, or those the filter keeps), columns the
// outputs shown: `rows` and `cols` hold their channel numbers in order.
// The active cell (the one in the tab order) is kept in the document even
// when scrolled away, so Tab always reaches the grid.
//
//   .matrix-scroll            the scroll box
//     .matrix-space           the whole grid's size
//       .matrix-cols          sticky at the top: the corner and the column heads in view
//       .matrix-rows          sticky at the left: the row heads in view
//       .matrix-cells         the cells in view, each at its place

import { store } from '../state.js';
import { applyReadOnly } from './control.js';
import { positionFromGain, dbFromGain, formatDb } from '../fader-law.js';
import { addressOf } from '../catalogue.js';
import { channelName, nameHead } from './matrix-heads.js';

/** Rows and columns drawn beyond each edge of the view, so a scroll shows no gap before the next frame. */
const OVERSCAN = 2;

function div(className) {
  const node = document.createElement('div');
  node.className = className;
  return node;
}

/** A crosspoint's own address (not its /db or /fader form): its input and output. */
export const CROSSPOINT = /^\/matrix\/(\d+)\/(\d+)$/;

export class MatrixView {
  rows = [];
  cols = [];
  /** The cell in the tab order, as channel numbers. */
  active = { i: 1, o: 1 };
  /** Called after every render, with the range in view (for the overview). */
  onRender = () => {};
  /** Called with a cell whose level changed (the matrix keeps its last non-zero level). */
  onLevel = () => {};

  #cells = new Map(); // "i/o" -> { cell, off }
  #rowHeads = new Map(); // i -> { head, off }
  #colHeads = new Map(); // o -> { head, off }
  #frame = 0;
  #size = { cellWidth: 64, cellHeight: 44, headWidth: 140, headHeight: 48 };

  constructor(host) {
    this.scroller = div('matrix-scroll');
    // A focused cell brings the whole box into view when it fits (in-view.js).
    this.scroller.dataset.revealBox = '';
    this.space = div('matrix-space');
    this.colLayer = div('matrix-cols');
    this.rowLayer = div('matrix-rows');
    this.cellLayer = div('matrix-cells');
    const corner = div('corner');
    corner.setAttribute('aria-hidden', 'true');
    corner.textContent = 'in ╲ out';
    this.colLayer.append(corner);
    this.space.append(this.colLayer, this.rowLayer, this.cellLayer);
    this.scroller.append(this.space);
    host.append(this.scroller);
    this.scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    // A new size of the box (a tablet turned) may bring other cell sizes (the style sheet's phone sizes).
    new ResizeObserver(() => {
      const before = this.#size;
      this.#measure();
      const changed = Object.keys(before).some((key) => before[key] !== this.#size[key]);
      if (changed) this.show(this.rows, this.cols);
      else this.schedule();
    }).observe(this.scroller);
  }

  /**
   * Shows these rows and columns (channel numbers): another filter, another
   * size of the rig. What stays in view stays in the document, moved to its
   * place (a focused cell keeps the focus); the scroll stays where it is.
   */
  show(rows, cols) {
    this.rows = rows;
    this.cols = cols;
    this.#rowIndex = new Map(rows.map((n, k) => [n, k]));
    this.#colIndex = new Map(cols.map((n, k) => [n, k]));
    this.#measure();
    const { cellWidth, cellHeight, headWidth, headHeight } = this.#size;
    this.space.style.width = `${headWidth + cols.length * cellWidth}px`;
    this.space.style.height = `${headHeight + rows.length * cellHeight}px`;
    this.rowLayer.style.height = `${rows.length * cellHeight}px`;
    if (!this.#rowIndex.has(this.active.i) || !this.#colIndex.has(this.active.o)) {
      this.active = { i: rows[0] ?? 1, o: cols[0] ?? 1 };
    }
    this.#place();
    this.render();
  }

  #rowIndex = new Map();
  #colIndex = new Map();

  /** The row (column) index of a channel among those shown, or -1. */
  rowOf(i) { return this.#rowIndex.get(i) ?? -1; }
  colOf(o) { return this.#colIndex.get(o) ?? -1; }

  /** Cell and head sizes from the style sheet (they differ on a phone). */
  #measure() {
    const style = getComputedStyle(this.scroller);
    const read = (name, fallback) => parseFloat(style.getPropertyValue(name)) || fallback;
    this.#size = {
      cellWidth: read('--cell-width', 64), cellHeight: read('--cell-height', 44),
      headWidth: read('--head-width', 140), headHeight: read('--head-height', 48),
    };
  }

  schedule() {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => { this.#frame = 0; this.render(); });
  }

  /** The rows and columns in view: [first, last] indices, overscan included. */
  range() {
    const { cellWidth, cellHeight, headWidth, headHeight } = this.#size;
    const { scrollTop, scrollLeft, clientWidth, clientHeight } = this.scroller;
    const span = (start, length, cell, count) => [
      Math.max(0, Math.floor(start / cell) - OVERSCAN),
      Math.min(count - 1, Math.ceil((start + Math.max(0, length)) / cell) + OVERSCAN),
    ];
    return {
      rows: span(scrollTop, clientHeight - headHeight, cellHeight, this.rows.length),
      cols: span(scrollLeft, clientWidth - headWidth, cellWidth, this.cols.length),
      // Without the overscan, for the overview's frame.
      seen: {
        top: scrollTop / cellHeight, left: scrollLeft / cellWidth,
        height: Math.max(0, clientHeight - headHeight) / cellHeight,
        width: Math.max(0, clientWidth - headWidth) / cellWidth,
      },
    };
  }

  /** Puts in the document what is in view (and the active cell), takes out the rest. */
  render() {
    const { rows: [r0, r1], cols: [c0, c1], seen } = this.range();
    const wanted = new Set();
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) wanted.add(`${this.rows[r]}/${this.cols[c]}`);
    }
    if (this.rowOf(this.active.i) >= 0 && this.colOf(this.active.o) >= 0) wanted.add(`${this.active.i}/${this.active.o}`);
    for (const [key, entry] of this.#cells) {
      if (!wanted.has(key)) { entry.off(); entry.cell.remove(); this.#cells.delete(key); }
    }
    for (const key of wanted) if (!this.#cells.has(key)) this.#addCell(key);
    this.#heads(this.#rowHeads, this.rows.slice(r0, r1 + 1), (i) => this.#addHead('source', i));
    this.#heads(this.#colHeads, this.cols.slice(c0, c1 + 1), (o) => this.#addHead('output', o));
    this.onRender(seen);
  }

  /** Moves the cells and heads in the document to their places among the rows and columns shown; takes out the rest. */
  #place() {
    const { cellWidth, cellHeight, headWidth } = this.#size;
    const drop = (map, key, element) => { map.get(key).off(); element.remove(); map.delete(key); };
    for (const [key, { cell }] of this.#cells) {
      const i = Number(cell.dataset.in);
      const o = Number(cell.dataset.out);
      const [r, c] = [this.rowOf(i), this.colOf(o)];
      if (r < 0 || c < 0) { drop(this.#cells, key, cell); continue; }
      cell.style.left = `${c * cellWidth}px`;
      cell.style.top = `${r * cellHeight}px`;
      cell.tabIndex = i === this.active.i && o === this.active.o ? 0 : -1;
    }
    for (const [n, { head }] of this.#rowHeads) {
      if (this.rowOf(n) < 0) drop(this.#rowHeads, n, head);
      else head.style.top = `${this.rowOf(n) * cellHeight}px`;
    }
    for (const [n, { head }] of this.#colHeads) {
      if (this.colOf(n) < 0) drop(this.#colHeads, n, head);
      else head.style.left = `${headWidth + this.colOf(n) * cellWidth}px`;
    }
  }

  #heads(map, wanted, add) {
    const keep = new Set(wanted);
    for (const [n, entry] of map) {
      if (!keep.has(n)) { entry.off(); entry.head.remove(); map.delete(n); }
    }
    for (const n of wanted) if (!map.has(n)) map.set(n, add(n));
  }

  #addCell(key) {
    const [i, o] = key.split('/').map(Number);
    const { cellWidth, cellHeight } = this.#size;
    const cell = document.createElement('button');
    cell.className = 'cell';
    cell.type = 'button';
    cell.tabIndex = i === this.active.i && o === this.active.o ? 0 : -1;
    cell.dataset.address = `/matrix/${key}`;
    cell.dataset.in = String(i);
    cell.dataset.out = String(o);
    cell.setAttribute('aria-pressed', 'false');
    cell.style.left = `${this.colOf(o) * cellWidth}px`;
    cell.style.top = `${this.rowOf(i) * cellHeight}px`;
    applyReadOnly(cell);
    this.label(cell);
    this.cellLayer.append(cell);
    const off = store.on(cell.dataset.address, (args) => this.#paint(cell, args?.[0]));
    this.#cells.set(key, { cell, off });
  }

  /** A row head (an input, `kind` "source") or a column head (an output), at its place, named live. */
  #addHead(kind, n) {
    const row = kind === 'source';
    const { cellWidth, cellHeight, headWidth } = this.#size;
    const head = div(row ? 'row-head' : 'col-head');
    head.dataset[row ? 'input' : 'output'] = String(n);
    if (row) head.style.top = `${this.rowOf(n) * cellHeight}px`;
    else head.style.left = `${headWidth + this.colOf(n) * cellWidth}px`;
    (row ? this.rowLayer : this.colLayer).append(head);
    const key = row ? 'in' : 'out';
    const off = store.on(addressOf(kind, 'name', n) ?? '', () => {
      nameHead(head, kind, n);
      this.#relabel((cell) => cell.dataset[key] === String(n));
    });
    nameHead(head, kind, n);
    return { head, off };
  }

  label(cell) {
    const level = store.value(cell.dataset.address, 0);
    cell.setAttribute('aria-label', `${channelName('source', cell.dataset.in)} to ` +
                      `${channelName('output', cell.dataset.out)}: ${formatDb(dbFromGain(level))}`);
  }

  #relabel(which) {
    for (const { cell } of this.#cells.values()) if (which(cell)) this.label(cell);
  }

  #paint(cell, level) {
    if (typeof level !== 'number') return;
    cell.style.setProperty('--level', Math.min(1, positionFromGain(level) / 0.75).toFixed(3));
    cell.setAttribute('aria-pressed', String(level > 0));
    cell.toggleAttribute('data-above-unity', level > 1.0001);
    this.label(cell);
    this.onLevel(cell, level);
  }

  /** The cell of a crosspoint, if it is in the document. */
  cell(i, o) {
    return this.#cells.get(`${i}/${o}`)?.cell ?? null;
  }

  /** Makes (i, o) the active cell, scrolls it into view and focuses it. */
  focus(i, o) {
    if (this.rowOf(i) < 0 || this.colOf(o) < 0) return;
    this.cell(this.active.i, this.active.o)?.setAttribute('tabindex', '-1');
    this.active = { i, o };
    this.reveal(i, o);
    this.render();
    const cell = this.cell(i, o);
    if (!cell) return;
    cell.tabIndex = 0;
    cell.focus({ preventScroll: true });
  }

  /** Scrolls as little as it takes for cell (i, o) to be in view, clear of the sticky heads. */
  reveal(i, o) {
    const { cellWidth, cellHeight, headWidth, headHeight } = this.#size;
    const s = this.scroller;
    const top = this.rowOf(i) * cellHeight;
    const left = this.colOf(o) * cellWidth;
    const height = s.clientHeight - headHeight;
    const width = s.clientWidth - headWidth;
    if (top < s.scrollTop) s.scrollTop = top;
    else if (top + cellHeight > s.scrollTop + height) s.scrollTop = top + cellHeight - height;
    if (left < s.scrollLeft) s.scrollLeft = left;
    else if (left + cellWidth > s.scrollLeft + width) s.scrollLeft = left + cellWidth - width;
  }

  /** Scrolls so that the point (row, column), in fractional indices, is in the middle of the view. */
  centre(row, col) {
    const { cellWidth, cellHeight, headWidth, headHeight } = this.#size;
    const s = this.scroller;
    s.scrollTop = row * cellHeight - (s.clientHeight - headHeight) / 2;
    s.scrollLeft = col * cellWidth - (s.clientWidth - headWidth) / 2;
    this.render();
  }

  /** How many whole rows the view shows (a page of rows, for Page Up and Down). */
  pageRows() {
    return Math.max(1, Math.floor((this.scroller.clientHeight - this.#size.headHeight) / this.#size.cellHeight));
  }
}
