// Finding a strip in a long row (256 sources): beside the Sources and
// Outputs heads, a jump (a number or a name, as the matrix's: the number,
// else the first whose name starts with the text, else holds it; Enter or
// "Go" builds the strip, scrolls it into view and focuses its fader) and a
// filter (only the strips whose number is the text or whose name holds it,
// in any case; names that change are filtered again). Plain form fields,
// named for screen readers; a jump that finds nothing says so in a
// role="status".

import { filtered, named, field, watchNames } from './elements/matrix-finder.js';
import { element } from './strips.js';

const WORDS = { source: { one: 'source', many: 'sources' }, output: { one: 'output', many: 'outputs' } };

export class StripFinder {
  #names = [];
  #timer = 0;

  /** `kind` "source" or "output"; `head` the section's head; `container` the row of strips (its StripRow in `row`). */
  constructor(kind, head, container) {
    this.kind = kind;
    this.container = container;
    const { one, many } = WORDS[kind];
    this.filter = field('filter', `Show ${many} whose name or number holds`, `Filter ${many}`, 'search', 'strips');
    this.jump = field('jump', `Go to ${one} (number or name)`, `Go to ${one}`, 'text', 'strips');
    this.status = element('span', { class: 'strip-jump-note', role: 'status' });
    const go = element('button', { type: 'submit' }, ['Go']);
    const jump = element('form', { class: 'strip-jump', 'aria-label': `Go to a ${one}'s strip` }, [this.jump, go, this.status]);
    jump.addEventListener('submit', (event) => {
      event.preventDefault();
      this.go(this.jump.value);
    });
    const filters = element('div', { class: 'strip-filter', role: 'search', 'aria-label': `Filter the ${many}` }, [this.filter]);
    this.filter.addEventListener('input', () => this.#soon());
    this.box = element('div', { class: 'strip-tools' }, [jump, filters]);
    head.append(this.box);
  }

  /** The channels the row has now. */
  get count() {
    return this.container.querySelectorAll(':scope > .strip[data-channel]').length;
  }

  /** Follows the rig's size: watches the names of every channel, filters the new strips. */
  resize() {
    watchNames(this.#names, this.kind, this.count, () => { if (this.filter.value.trim()) this.#soon(); });
    this.apply();
  }

  #soon() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.apply(), 120);
  }

  /** Shows only the strips the filter keeps (the others `data-filtered`). */
  apply() {
    const kept = new Set(filtered(this.kind, this.count, this.filter.value));
    for (const strip of this.container.querySelectorAll(':scope > .strip[data-channel]')) {
      strip.toggleAttribute('data-filtered', !kept.has(Number(strip.dataset.channel)));
    }
  }

  /** Goes to the strip `text` names: built, in view, its fader focused; a filter that hides it goes. */
  go(text) {
    let n = named(this.kind, this.count, text);
    this.status.textContent = n === null ? `No ${WORDS[this.kind].one} "${text.trim()}"` : '';
    this.box.toggleAttribute('data-not-found', n === null);
    if (n === null) return;
    const find = (k) => this.container.querySelector(`:scope > .strip[data-channel="${k}"]`);
    // The right member of a linked pair is shown by its left strip.
    if (find(n)?.hidden && find(n - 1)?.dataset.linked === '1') n -= 1;
    if (find(n)?.hasAttribute('data-filtered')) {
      this.filter.value = '';
      this.apply();
    }
    const strip = this.container.row?.reveal(n);
    strip?.querySelector('xp-fader')?.focus();
  }
}
