// A linked pair of sources on the page (docs/sources.md): one stereo strip.
// The left member's strip (odd n) stands for the pair, with the pair's
// two-bar meter; the right member's strip is folded away (hidden), since
// every control of the pair is both members' (the rig gangs them): the
// fader carries /source/{n}/fader, the pan is the balance, one mute, solo,
// polarity and safe. Marked with data-linked="1" on both members' strips.
// The rig's size may change under a pair (rig-size.js): strips.js watches
// the last odd source again when its right member comes or goes.

import { store } from './state.js';
import { addressOf, fill } from './catalogue.js';

/**
 * Keeps source n's strip (built or not) showing whether its pair is linked;
 * returns the unsubscribes. A last odd source has no pair (a rig of an odd
 * size, or one that lost the right member): its strip is shown on its own.
 */
export function watchPair(section, n, inputs) {
  const left = n % 2 === 1 ? n : n - 1;
  const links = [addressOf('source', 'link', left), addressOf('source', 'link', left + 1)];
  const label = fill('{Strip}', 'source', n);
  if (left + 1 > inputs || links.includes(null)) {
    delete section.dataset.linked;
    section.setAttribute('aria-label', label);
    section.hidden = false;
    return [];
  }
  const show = () => {
    const linked = links.every((address) => Boolean(store.value(address, 0)));
    section.dataset.linked = linked ? '1' : '0';
    if (n === left) {
      section.setAttribute('aria-label', linked ? `Sources ${left} and ${left + 1}, linked` : label);
    } else {
      section.hidden = linked;
    }
  };
  return links.map((address) => store.on(address, show));
}
