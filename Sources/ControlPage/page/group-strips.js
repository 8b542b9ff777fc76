// The engineer's groups (docs/groups.md), in the Groups section: a row of
// mute-group buttons and a strip per DCA, as many as the rig has
// (groups.js: /status/dcas, /status/mute_groups), each built from its
// catalogue entries (strips.mutegroup, strips.dca) like every strip.
//
// - A mute group: its `mute` switch (role="switch", aria-checked,
//   data-address="/mutegroup/{g}/mute") is labelled by the group's name,
//   live (/mutegroup/{g}/name); under it the name's field to edit it.
// - A DCA: a strip (section.strip.dca[data-group="{g}"]): its name field,
//   mute and recall safe, and its fader (/dca/{g}/fader: the same fader as
//   a source's, keyboard and dB readout), without a meter: no signal goes
//   through a DCA.
//
// Without groups of a kind its part is hidden and empty; without any, the
// whole section (and its link in the status bar).

import { entries, fill, addressOf } from './catalogue.js';
import { groups } from './groups.js';
import { controls, element, strip } from './strips.js';

/** Controls of the mute group g, from its catalogue entries: the mute labelled by the name, then the rest. */
function muteGroup(g) {
  const label = fill('{Strip}', 'mutegroup', g);
  const made = entries('mutegroup', 'engineer').map((entry) => {
    const address = fill(entry.address, 'mutegroup', g);
    const title = fill(entry.title, 'mutegroup', g);
    const control = controls[entry.control]?.(entry, address, title, g, 'mutegroup');
    if (control && entry.name === 'mute' && entry.control === 'toggle') {
      // Named by the group's name (its text), described by the rig's title ("Mute mute group 2").
      const name = addressOf('mutegroup', 'name', g);
      if (name) control.dataset.name = name;
      control.setAttribute('label', label);
      control.removeAttribute('aria-label');
      control.title = title;
      control.classList.add('mutegroup-mute');
    }
    return control;
  }).filter(Boolean);
  // The mute first: the row reads as a row of buttons.
  made.sort((a, b) => Number(b.classList.contains('mutegroup-mute')) - Number(a.classList.contains('mutegroup-mute')));
  return element('div', { class: 'mutegroup', role: 'group', 'aria-label': label, 'data-group': String(g) }, made);
}

/** Removes a group's element with what listens inside it (name fields hold a store listener). */
function removeGroup(node) {
  for (const input of node.querySelectorAll('input, select')) input.disconnect?.();
  node.remove();
}

/** Gives a container the groups 1…count: appends the new (`make(g)`), removes those beyond; the rest stay. */
function fit(container, count, make) {
  const shown = [...container.querySelectorAll(':scope > [data-group]')];
  for (const node of shown.slice(count)) removeGroup(node);
  for (let g = shown.length + 1; g <= count; g++) container.append(make(g));
}

/**
 * Lays the Groups section out for the rig's groups: `section` holds
 * `#mutegroups .mutegroup-row` and `#dcas .strips`; `link` is its link in
 * the status bar. Again whenever the rig's number of groups changes.
 */
export function buildGroups(section, link) {
  const counts = { mutegroup: groups.count.mutegroup ?? 0, dca: groups.count.dca ?? 0 };
  const muteGroups = section.querySelector('#mutegroups');
  const dcas = section.querySelector('#dcas');
  fit(muteGroups.querySelector('.mutegroup-row'), counts.mutegroup, muteGroup);
  fit(dcas.querySelector('.strips'), counts.dca, (g) => strip('dca', g));
  muteGroups.hidden = counts.mutegroup === 0;
  dcas.hidden = counts.dca === 0;
  section.hidden = counts.mutegroup === 0 && counts.dca === 0;
  if (link) link.hidden = section.hidden;
}
