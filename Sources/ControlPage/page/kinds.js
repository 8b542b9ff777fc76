// Strips of the kinds the page has no section of its own for (docs/page.md,
// "Built from the catalogue"): for each kind the rig keeps in its scene's
// banks (catalogue.json `counts`), a section after the groups, headed by the
// kind's plural as the rig words it (`places`), with a strip per strip the
// rig has, each built from its catalogue entries as every strip is. The
// counts are fixed when the rig starts, as the groups' are; a kind with none
// has no section. Sources, outputs, the master and the groups have sections
// of their own and are not drawn again here.

import { catalogue } from './catalogue.js';
import { destinationParts } from './destinations.js';
import { element, strip } from './strips.js';

/** The kinds drawn by sections of their own (index.html). */
const OWN = ['source', 'output', 'master', 'dca', 'mutegroup'];
/** Kinds whose section gets no link in the bar: the talkbacks have their talk buttons there (talkback.js). */
const UNLINKED = ['talkback'];

/** "test buses" -> "Test buses". */
const heading = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Adds a section per kind to `main`, before `before`, and a link to it in
 * the status bar's `nav`; `size` (rig-size.js) for what a strip owns per
 * output. Returns the sections added.
 */
export function buildKinds(main, before, nav, size) {
  const added = [];
  for (const [kind, count] of Object.entries(catalogue.counts ?? {})) {
    if (OWN.includes(kind) || !Number.isInteger(count) || count < 1 || !catalogue.strips?.[kind]) continue;
    const id = `kind-${kind}`;
    const title = heading(catalogue.places?.[kind]?.plural ?? kind);
    // Each strip with the settings views of what it owns (a talkback's destinations).
    const strips = Array.from({ length: count }, (_, index) => {
      const built = strip(kind, index + 1);
      built.append(...destinationParts(kind, index + 1, size));
      return built;
    });
    const section = element('section', { id, 'data-kind': kind, 'aria-labelledby': `${id}-title` }, [
      element('h2', { id: `${id}-title` }, [title]),
      element('div', { class: 'strips' }, strips),
    ]);
    main.insertBefore(section, before);
    if (!UNLINKED.includes(kind)) nav?.insertBefore(element('a', { href: `#${id}` }, [title]), nav.querySelector('a[href="#matrix"]'));
    added.push(section);
  }
  return added;
}
