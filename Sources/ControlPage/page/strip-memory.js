// Which disclosures of which strips are open, remembered for the session
// (sessionStorage: this tab, also across a reload): a strip emptied when
// scrolled away and built again opens its disclosures as they were.

const KEY = 'crosspoint.open-disclosures';

let open;
try { open = new Set(JSON.parse(sessionStorage.getItem(KEY) ?? '[]')); } catch { open = new Set(); }

function save() {
  try { sessionStorage.setItem(KEY, JSON.stringify([...open])); } catch { /* storage full or off: memory only */ }
}

/** Opens a <details> as it was last left (`name`: "source 3 input"), and remembers it from now on. */
export function remember(details, name) {
  details.open = open.has(name);
  details.addEventListener('toggle', () => {
    if (details.open === open.has(name)) return;
    if (details.open) open.add(name); else open.delete(name);
    save();
  });
  return details;
}
