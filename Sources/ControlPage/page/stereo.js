// A linked pair of sources on the page (docs/sources.md): one stereo strip.
// The left member's strip (odd n) stands for the pair, with the pair's
// two-bar meter; the right member's strip is folded away (hidden), since
// every control of the pair is both members' (the rig gangs them): the
// fader carries /source/{n}/fader, the pan is the balance, one mute, solo,
// polarity and safe. Marked with data-linked="1" on both members' strips.
// The left strip's pan is titled as the balance it is then: "Sources 3 and
// 4 balance" (the catalogue's "Source 3 pan" again when unlinked).
// The rig's size may change under a pair (rig-size.js): strips.js watches
// the last odd source again when its right member comes or goes.

import { store } from './state.js';
import { addressOf, fill, titleOf } from './catalogue.js';

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
    titlePan(section, n);
    return [];
  }
  const show = () => {
    const linked = links.every((address) => Boolean(store.value(address, 0)));
    section.dataset.linked = linked ? '1' : '0';
    if (n === left) {
      section.setAttribute('aria-label', linked ? `Sources ${left} and ${left + 1}, linked` : label);
      titlePan(section, n);
    } else {
      section.hidden = linked;
    }
  };
  return links.map((address) => store.on(address, show));
}

/**
 * Titles the pan of source n's strip, once built: "Sources 3 and 4
 * balance" on a linked pair's left strip (data-linked="1"), else the
 * catalogue's title ("Source 3 pan").
 */
export function titlePan(section, n) {
  const address = addressOf('source', 'pan', n);
  const pan = address ? section.querySelector(`[data-address="${address}"]`) : null;
  if (!pan) return;
  const balance = n % 2 === 1 && section.dataset.linked === '1';
  pan.setAttribute('aria-label', balance ? `Sources ${n} and ${n + 1} balance` : titleOf('source', 'pan', n));
}
