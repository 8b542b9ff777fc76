// A talkback's destinations, its settings view (docs/talkback.md): on each
// talkback's strip, a "Destinations" disclosure (<details>: its summary is
// a button to the keyboard, Enter or Space opens it) holding a switch per
// output the rig has, from the catalogue's membership entry the talkback
// owns: data-address="/talkback/{t}/output/{m}", role="switch", label the
// output's number, accessible name the entry's title ("Talkback 1 to
// output 3"). The switches are made while it is open (a rig of 256 outputs
// costs a closed disclosure until they are wanted) and again when the rig's
// size changes; the summary says where the talkback talks ("3, 5"), or how
// many outputs when that is long, as the rig says it, whoever changed it.

import { fill, memberships } from './catalogue.js';
import { store } from './state.js';
import { controls, element } from './strips.js';
import { remember } from './strip-memory.js';

/** Destinations listed by number in the summary; more are counted. */
const LISTED = 6;

const isOn = (args) => args?.[0] === true || (typeof args?.[0] === 'number' && args[0] !== 0);

/**
 * The disclosures of `kind`'s strip n for the memberships it owns whose
 * group is the outputs (a talkback's destinations), for the rig's size
 * `size` (rig-size.js); none for a kind that owns none.
 */
export function destinationParts(kind, n, size) {
  return memberships('engineer', kind).filter((entry) => entry.group === 'output').map((entry) => {
    const address = (m) => fill(entry.address, kind, n, undefined, m);
    const outputs = () => (Number.isInteger(size.outputs) ? size.outputs : 0);
    const said = element('span', { class: 'destination-list' });
    const summary = element('summary', {}, ['Destinations ', said]);
    const body = element('div', { class: 'destination-set', role: 'group', 'aria-label': `${fill('{Strip}', kind, n)} destinations` });
    const details = element('details', { class: 'destinations' }, [summary, body]);
    const show = () => {
      const on = [];
      for (let m = 1; m <= outputs(); m += 1) if (isOn(store.get(address(m)))) on.push(m);
      said.textContent = on.length === 0 ? '(none)' : on.length <= LISTED ? `(${on.join(', ')})` : `(${on.length} outputs)`;
    };
    // Made as it opens (again, if open, when the rig's size changes), dropped as it closes.
    const fit = () => {
      if (details.open) {
        body.replaceChildren(...Array.from({ length: outputs() }, (_, index) => {
          const m = index + 1;
          const toggle = controls.toggle({ ...entry, label: fill(entry.label, kind, n, undefined, m) }, address(m),
                                         fill(entry.title, kind, n, undefined, m));
          toggle.classList.add('destination');
          return toggle;
        }));
      } else {
        body.replaceChildren();
      }
      show();
    };
    details.addEventListener('toggle', fit);
    size.addEventListener('change', ({ detail }) => { if (detail.axis === 'outputs') fit(); });
    store.onPrefix(address(''), show);
    remember(details, `${kind} ${n} destinations`);
    fit();
    return details;
  });
}
