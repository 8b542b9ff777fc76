// What has the focus is never hidden (WCAG 2.4.11): not under the sticky
// status bar, not below the fold. The bar's height is kept in the CSS
// custom property --bar-height on <html> (it changes: a phone's menu opened,
// an alert line shown), which the style sheet uses for scroll-padding-top
// and the matrix box's height. Whenever the focus moves (a Tab, an arrow in
// the matrix, a jump), the page scrolls as little as it takes for the
// focused element to lie wholly in view below the bar; inside a box marked
// `data-reveal-box` (the matrix's scroll box), the whole box when it fits,
// so its sticky heads come along. Not while a pointer is pressed: a tap
// or click focuses what is under it, which is seen.

const root = document.documentElement;

/** The bottom of the sticky status bar in the viewport, in px (0 without one). */
export function barBottom() {
  const bar = document.getElementById('status');
  return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
}

/** Room kept between the focused element and the edges of what is seen, in px. */
const GAP = 8;

/** Scrolls the document as little as it takes for this rectangle to lie between the bar and the bottom. */
function scrollToShow(rect) {
  const top = barBottom() + GAP;
  const bottom = window.innerHeight - GAP;
  let dy = 0;
  if (rect.height > bottom - top || rect.top < top) dy = rect.top - top;
  else if (rect.bottom > bottom) dy = rect.bottom - bottom;
  if (Math.abs(dy) >= 1) window.scrollBy({ top: dy, behavior: 'instant' });
}

/**
 * Brings an element wholly into view below the bar: its `data-reveal-box`
 * container first when that fits the screen, then the element itself.
 */
export function keepInView(element) {
  if (!(element instanceof Element) || !element.isConnected) return;
  const box = element.closest('[data-reveal-box]');
  if (box && box.getBoundingClientRect().height <= window.innerHeight - barBottom() - 2 * GAP) {
    scrollToShow(box.getBoundingClientRect());
  }
  scrollToShow(element.getBoundingClientRect());
}

let pressed = false;

/** Whether a pointer is pressed now (what it focuses is under it: nothing is scrolled then). */
export const pointerPressed = () => pressed;

/** Watches the bar's height and every move of the focus. */
export function bindInView(bar) {
  const measure = () => root.style.setProperty('--bar-height', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
  new ResizeObserver(measure).observe(bar);
  measure();
  // A press gives focus where the pointer already is: scrolling then would move the control from under it
  // (mouse up elsewhere, no click). What a press makes focus later (a jump's "Go") is brought into view.
  document.addEventListener('pointerdown', () => { pressed = true; }, true);
  for (const type of ['pointerup', 'pointercancel']) document.addEventListener(type, () => { pressed = false; }, true);
  document.addEventListener('focusin', (event) => {
    const target = event.target;
    if (pressed) return;
    // The bar itself and fixed layers (the crosspoint's fader) are always in view.
    if (!(target instanceof Element) || bar.contains(target) || target.closest('.matrix-popover, dialog')) return;
    keepInView(target);
  });
}
