// The other Crosspoint rigs on the network, as the rig's DNS-SD browse
// finds them (/rigs: name, page address, name, page address, …), as links
// in the status bar; hidden while there are none.

import { store } from './state.js';
import { commandAddress } from './catalogue.js';

/** Fills `nav`'s list with a link per rig whenever /rigs changes. */
export function bindRigs(nav) {
  const list = nav.querySelector('ul');
  const address = commandAddress('rigs');
  if (!address) return;
  store.on(address, (args) => {
    const items = [];
    const words = Array.isArray(args) ? args : [];
    for (let k = 0; k + 1 < words.length; k += 2) {
      const [name, url] = [String(words[k]), String(words[k + 1])];
      // Only a page address: nothing else becomes a link.
      if (!/^http:\/\/[^\s/]+\/$/.test(url)) continue;
      const link = document.createElement('a');
      link.href = url;
      link.textContent = name;
      link.dataset.rig = name;
      const item = document.createElement('li');
      item.append(link);
      items.push(item);
    }
    list.replaceChildren(...items);
    nav.hidden = items.length === 0;
  });
}
