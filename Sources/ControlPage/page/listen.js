// The engineer's listen (docs/talkback.md): a section with its level, its
// mode, and what is being listened to, named ("Listening: Output 3, Drums
// wedge"), built from the catalogue's listen entries. What is listened to
// follows the rig (`/listen/source`, `/listen/output`) and the names of
// what it lists, whoever changed them; each source's and output's own
// listen switch is on its strip.

import { catalogue, addressOf, fill } from './catalogue.js';
import { store } from './state.js';
import { controls, element } from './strips.js';

/** The listen's entry called `name`. */
const entryOf = (name) => (catalogue.strips?.listen ?? []).find((entry) => entry.name === name) ?? null;

/** "3,5" -> [3, 5]. */
const numbers = (text) => String(text ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);

/** The section, before `before` in `main`; null without a listen. */
export function buildListen(main, before) {
  const level = entryOf('volume'), mode = entryOf('mode');
  const sourceAddress = entryOf('source')?.address, outputAddress = entryOf('output')?.address;
  if (!level || !mode || !sourceAddress || !outputAddress) return null;
  const listening = element('p', { class: 'listening', 'aria-live': 'polite' }, ['Listening: nothing']);
  const section = element('section', { id: 'listen', 'aria-labelledby': 'listen-title' }, [
    element('h2', { id: 'listen-title' }, ['Listen']),
    listening,
    element('div', { class: 'listen-controls' }, [
      controls.fader(level, level.address, level.title, 1, 'listen'),
      controls.choice(mode, mode.address, mode.title),
    ]),
  ]);
  main.insertBefore(section, before);

  // What is listened to, named: "Output 3, Drums wedge; Source 2, Bass DI",
  // followed as the selection and those names change.
  const name = (strip, n) => {
    const title = fill('{Strip}', strip, n);
    const own = store.value(addressOf(strip, 'name', n));
    return own ? `${title}, ${own}` : title;
  };
  const chosen = () => [...numbers(store.value(outputAddress)).map((m) => ['output', m]),
                        ...numbers(store.value(sourceAddress)).map((n) => ['source', n])];
  const text = () => {
    const now = chosen();
    listening.textContent = `Listening: ${now.length ? now.map(([strip, n]) => name(strip, n)).join('; ') : 'nothing'}`;
  };
  let watched = [];
  const show = () => {
    for (const stop of watched) stop();
    watched = chosen().map(([strip, n]) => store.on(addressOf(strip, 'name', n), text));
    text();
  };
  store.on(sourceAddress, show);
  store.on(outputAddress, show);
  return section;
}
