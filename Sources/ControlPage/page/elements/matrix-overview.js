// The whole matrix at a glance: one pixel per crosspoint shown (rows the
// inputs, columns the outputs, as in the grid), lit by its level, with a
// frame where the grid's view is. A tap or a drag on the map moves the view
// there. It is drawn from the store, and redrawn where <xp-matrix> says
// crosspoints changed (its one prefix listener on /matrix/, once per
// frame), not from a listener per crosspoint. For a
// pointer only: the keyboard and screen readers have the jump fields and
// the grid's own arrow keys (docs/page.md).

import { store } from '../state.js';
import { positionFromGain } from '../fader-law.js';
import { CROSSPOINT } from './matrix-view.js';

const OFF = [18, 20, 24];
const ON = [255, 176, 32]; // --on

export class MatrixOverview {
  rows = [];
  cols = [];
  /** Called with (row, column) in fractional indices when the map is tapped or dragged. */
  onJump = () => {};

  constructor(host) {
    this.box = document.createElement('div');
    this.box.className = 'matrix-overview';
    this.box.setAttribute('aria-hidden', 'true');
    this.box.title = 'The whole matrix: tap to go there';
    this.canvas = document.createElement('canvas');
    this.frame = document.createElement('div');
    this.frame.className = 'overview-frame';
    this.box.append(this.canvas, this.frame);
    host.append(this.box);
    this.context = this.canvas.getContext('2d');
    const jump = (event) => {
      const rect = this.canvas.getBoundingClientRect();
      const row = ((event.clientY - rect.top) / rect.height) * this.rows.length;
      const col = ((event.clientX - rect.left) / rect.width) * this.cols.length;
      this.onJump(Math.max(0, Math.min(this.rows.length, row)), Math.max(0, Math.min(this.cols.length, col)));
    };
    this.box.addEventListener('pointerdown', (event) => {
      jump(event);
      // For a drag; a tap has gone where it points even where capture is refused.
      try { this.box.setPointerCapture(event.pointerId); } catch { /* the drag ends at the map's edge */ }
    });
    this.box.addEventListener('pointermove', (event) => {
      if (this.box.hasPointerCapture(event.pointerId)) jump(event);
    });
  }

  /** Draws these rows and columns (channel numbers) whole. */
  show(rows, cols) {
    this.rows = rows;
    this.cols = cols;
    this.rowIndex = new Map(rows.map((n, k) => [n, k]));
    this.colIndex = new Map(cols.map((n, k) => [n, k]));
    this.canvas.width = Math.max(1, cols.length);
    this.canvas.height = Math.max(1, rows.length);
    // The map's box keeps the matrix's shape, at most --overview-size either way (the style sheet's).
    const size = parseFloat(getComputedStyle(this.box).getPropertyValue('--overview-size')) || 180;
    const scale = size / Math.max(1, rows.length, cols.length);
    this.canvas.style.width = `${Math.max(1, cols.length) * scale}px`;
    this.canvas.style.height = `${Math.max(1, rows.length) * scale}px`;
    this.image = this.context.createImageData(this.canvas.width, this.canvas.height);
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < cols.length; c++) this.#pixel(r, c, store.value(`/matrix/${rows[r]}/${cols[c]}`, 0));
    }
    this.context.putImageData(this.image, 0, 0);
  }

  #pixel(r, c, level) {
    const at = (r * this.canvas.width + c) * 4;
    const lit = typeof level === 'number' && level > 0 ? 0.35 + 0.65 * Math.min(1, positionFromGain(level) / 0.75) : 0;
    for (let k = 0; k < 3; k++) this.image.data[at + k] = Math.round(OFF[k] + (ON[k] - OFF[k]) * lit);
    this.image.data[at + 3] = 255;
  }

  /** Redraws the crosspoints at these addresses (others, and their /db and /fader forms, are passed over). */
  changed(addresses) {
    if (!this.image) return;
    let drawn = false;
    for (const address of addresses) {
      const match = CROSSPOINT.exec(address);
      if (!match) continue; // its /db and /fader forms
      const r = this.rowIndex.get(Number(match[1]));
      const c = this.colIndex.get(Number(match[2]));
      if (r === undefined || c === undefined) continue;
      this.#pixel(r, c, store.value(address, 0));
      drawn = true;
    }
    if (drawn) this.context.putImageData(this.image, 0, 0);
  }

  /** Places the frame over the part the grid shows, in fractional rows and columns. */
  frameView({ top, left, height, width }) {
    const rows = Math.max(1, this.rows.length);
    const cols = Math.max(1, this.cols.length);
    const percent = (value) => `${(Math.max(0, Math.min(1, value)) * 100).toFixed(2)}%`;
    this.frame.style.top = percent(top / rows);
    this.frame.style.left = percent(left / cols);
    this.frame.style.height = percent(Math.min(height, rows - top) / rows);
    this.frame.style.width = percent(Math.min(width, cols - left) / cols);
    // Nothing to find when the whole matrix is in view.
    this.box.hidden = height >= rows && width >= cols;
  }
}
