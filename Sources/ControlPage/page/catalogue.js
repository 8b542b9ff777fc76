// The rig's description of its controls (/page/catalogue.json, made by the
// rig from its parameter catalogue: docs/page.md, "Built from the
// catalogue"). The page keeps no list of parameters of its own: strips and
// the personal mix are built from these entries, so a parameter the rig adds
// appears here with no page code.

const url = new URL('catalogue.json', import.meta.url);

/** The description: { strips: { source, output, master }, matrix }, or an empty one if it could not be read. */
export const catalogue = await fetch(url)
  .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`${response.status}`))))
  .catch((error) => {
    console.error(`catalogue.json: ${error.message}`);
    return { strips: { source: [], output: [], master: [] }, matrix: null };
  });

/** The entries of a strip ("source", "output", "master") shown on a page ("engineer", "mix"), in catalogue order. */
export function entries(strip, page) {
  return (catalogue.strips?.[strip] ?? []).filter((entry) => entry.pages?.includes(page));
}

/** How a place is named in titles: "source 3" and "Source 3", "master" and "Master". */
function names(strip, n) {
  const lower = strip === 'master' ? 'master' : `${strip} ${n}`;
  return { lower, upper: lower.charAt(0).toUpperCase() + lower.slice(1) };
}

/** An entry's template with its place filled in: {n} (and {m}, for the matrix's output), {strip}, {Strip}. */
export function fill(template, strip, n, m) {
  const { lower, upper } = names(strip, n);
  return String(template ?? '')
    .replaceAll('{n}', String(n)).replaceAll('{m}', String(m))
    .replaceAll('{strip}', lower).replaceAll('{Strip}', upper);
}
