// What feeds a source, on the page: the patch picker (a <select> of the
// other clients' output ports, from the rig's /jack/ports, grouped by
// client, plus "none"; choosing one sets /source/{n}/patch to exactly that
// port) and its presence (data-present on the element carrying
// data-source="{n}", dimmed by the style sheet when 0). docs/sources.md.

import { store } from './state.js';
import { addressOf, commandAddress } from './catalogue.js';
import { bindSelect } from './choice.js';

/** A pattern that matches exactly this port's full name. */
export function exactly(port) {
  return `^${port.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&')}$`;
}

/** The port an exact pattern names, or null for any other pattern. */
function named(pattern) {
  const match = /^\^(.*)\$$/.exec(pattern);
  if (!match) return null;
  const port = match[1].replace(/\\(.)/g, '$1');
  return exactly(port) === pattern ? port : null;
}

function option(value, text, selected) {
  const node = document.createElement('option');
  node.value = value;
  node.textContent = text;
  node.selected = selected;
  return node;
}

/** Fills a picker with "none", the ports by client, and the patch itself when it names no one port. */
function fill(select, ports, patch) {
  const chosen = named(patch);
  const groups = new Map();
  for (const port of ports) {
    const client = port.slice(0, port.indexOf(':'));
    if (!groups.has(client)) groups.set(client, []);
    groups.get(client).push(port);
  }
  const parts = [option('', 'none', patch === '')];
  if (patch !== '' && (chosen === null || !ports.includes(chosen))) {
    // A pattern, or a port that is not there now: shown as it is.
    parts.push(option(patch, chosen === null ? `pattern: ${patch}` : `${chosen} (absent)`, true));
  }
  for (const [client, names] of groups) {
    const group = document.createElement('optgroup');
    group.label = client;
    group.append(...names.map((port) => option(exactly(port), port.slice(client.length + 1), port === chosen)));
    parts.push(group);
  }
  select.replaceChildren(...parts);
}

/** The patch picker of a source: `<select data-address="/source/{n}/patch">`. */
export function patchPicker(address, title) {
  const select = document.createElement('select');
  select.dataset.address = address;
  select.setAttribute('aria-label', title);
  select.className = 'patch';
  // The rig's reply to /jack/ports, at the command's own address.
  const ports = commandAddress('jackPorts');
  const show = () => fill(select, ((ports && store.get(ports)) ?? []).filter((p) => typeof p === 'string'),
                          String(store.value(address, '')));
  return bindSelect(select, address, show, ports ? [ports] : []);
}

/** A source's presence light: "live" or "absent", in words as well as in colour. */
export function presenceLight(address, title) {
  const light = document.createElement('span');
  light.className = 'presence';
  light.dataset.presence = address;
  light.setAttribute('aria-label', title);
  const off = store.on(address, (args) => {
    const present = Boolean(args?.[0]);
    light.textContent = present ? '● live' : '○ absent';
    light.dataset.present = present ? '1' : '0';
  });
  light.disconnect = off;
  return light;
}

/** Keeps `data-present` on an element carrying data-source="{n}"; returns the unsubscribe. */
export function watchPresence(element, n) {
  element.dataset.source = String(n);
  const address = addressOf('source', 'present', n);
  return address ? store.on(address, (args) => { element.dataset.present = args?.[0] ? '1' : '0'; }) : () => {};
}
