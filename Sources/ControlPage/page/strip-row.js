// A row of strips of which only those near view are built. Every strip is
// in the document from the start as an empty section of its width (its
// number and aria-label, `data-pending`), so the row scrolls as if all
// were there; a strip is filled when it comes within a screen's width of
// the row's view and emptied again when it goes further (unless it holds
// the focus). 256 sources cost a dozen strips' controls and listeners.
//
// An empty strip is in the tab order: when Tab reaches it, it is filled
// and the focus goes to its first control (its last, coming back with
// Shift+Tab), so the keyboard walks every strip as if all were built.
//
// The personal mix (mix.js) lays out its faders per source the same way,
// as a column the window scrolls: `{ root: null, margin, item, channel }`.

/** How far beyond the row's view a strip is built, in px either side. */
const MARGIN = '0px 900px';

const FOCUSABLE = 'input, button, [tabindex="0"]';

export class StripRow {
  /**
   * `container`: the row's scroll box. `fill(section)`: builds a pending
   * strip's controls into it (its data-channel says which). Options: `root`,
   * the box whose view counts (the container; null: the window), `margin`,
   * how far beyond it strips are built (CSS margin, px), `item` the class of
   * the strips and `channel` the data- attribute with their number.
   */
  constructor(container, fill, { root = container, margin = MARGIN, item = 'strip', channel = 'channel' } = {}) {
    this.container = container;
    this.fill = fill;
    this.channel = channel;
    /** The row's strips of channels (channel n's alone, with n); those of none (the master). */
    this.strips = (n) => `:scope > .${item}[data-${channel}${n === undefined ? '' : `="${n}"`}]`;
    this.others = `:scope > .${item}:not([data-${channel}])`;
    this.observer = new IntersectionObserver((entries) => this.#seen(entries), { root, rootMargin: margin });
  }

  /** Stops watching (the row leaves the page). */
  stop() {
    this.observer.disconnect();
  }

  /**
   * Gives the row the channel strips 1…count: new ones (`make(n)`, pending)
   * go after the last, before any strip without a channel (the master);
   * those beyond count go (`release(strip)` first). The strips that stay are
   * not touched: their controls, focus and the row's scroll stay as they are.
   */
  resize(count, make, release = () => {}) {
    const strips = [...this.container.querySelectorAll(this.strips())];
    for (const strip of strips.slice(count)) {
      this.observer.unobserve(strip);
      this.#empty(strip);
      release(strip);
      strip.remove();
    }
    const added = document.createDocumentFragment();
    for (let n = strips.length + 1; n <= count; n++) added.append(make(n));
    const pending = [...added.children];
    this.container.insertBefore(added, this.container.querySelector(this.others));
    for (const strip of pending) {
      strip.tabIndex = 0;
      strip.addEventListener('focus', (event) => this.#focused(strip, event));
      this.observer.observe(strip);
    }
  }

  /** Channel n's strip, built and scrolled into the row's view (for a jump); null if the row has none. */
  reveal(n) {
    const strip = this.container.querySelector(this.strips(n));
    if (!strip) return null;
    this.#build(strip);
    strip.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    return strip;
  }

  #seen(entries) {
    for (const { target, isIntersecting } of entries) {
      if (isIntersecting) this.#build(target);
      else if (!target.contains(document.activeElement)) this.#empty(target);
    }
  }

  #build(strip) {
    if (!strip.hasAttribute('data-pending')) return;
    strip.removeAttribute('data-pending');
    strip.removeAttribute('tabindex');
    this.fill(strip);
  }

  /** Empties a built strip: its controls' listeners go with them. */
  #empty(strip) {
    if (strip.hasAttribute('data-pending') || !strip.hasAttribute(`data-${this.channel}`)) return;
    for (const input of strip.querySelectorAll('input, select, canvas, .presence')) input.disconnect?.();
    strip.replaceChildren();
    strip.setAttribute('data-pending', '');
    strip.tabIndex = 0;
  }

  #focused(strip, event) {
    if (!strip.hasAttribute('data-pending')) return;
    const fromAfter = event.relatedTarget instanceof Node &&
      Boolean(strip.compareDocumentPosition(event.relatedTarget) & Node.DOCUMENT_POSITION_FOLLOWING);
    this.#build(strip);
    const controls = strip.querySelectorAll(FOCUSABLE);
    (fromAfter ? controls[controls.length - 1] : controls[0])?.focus();
  }
}
