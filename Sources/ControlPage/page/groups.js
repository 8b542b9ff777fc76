// The rig's groups (docs/groups.md): how many DCAs and mute groups it has,
// which are muted now and what they are called. The counts come from
// /status (`/status/dcas`, `/status/mute_groups`: sent on connect and every
// 1.5 s), fixed by `serve --dcas N --mute-groups N`; until the rig has said,
// the page shows no group. A group's mute and name are its catalogue
// entries `mute` and `name` (catalogue.js `addressOf`), watched once here
// for every strip that asks which groups mute it (group-mute.js). The
// /status fields come from the rig's reply table (catalogue.js `replyAddress`).

import { store } from './state.js';
import { addressOf, replyAddress } from './catalogue.js';

/** Each kind of group, by its strip in the catalogue: the /status field that counts it. */
export const KINDS = { dca: replyAddress('statusDCAs'), mutegroup: replyAddress('statusMuteGroups') };

/**
 * The rig's groups. `count[kind]`: how many ("dca", "mutegroup"), null
 * until the rig said. A `count` event when a count changes; a `change`
 * event when a group's mute or name (or a count) changes.
 */
class Groups extends EventTarget {
  count = { dca: null, mutegroup: null };
  /** Per kind, per group (index g − 1): { mute, name }. */
  #groups = { dca: [], mutegroup: [] };
  #watching = { dca: [], mutegroup: [] };
  #scheduled = false;
  /** `muted(kind)`'s answers since the last change. */
  #muted = null;

  constructor() {
    super();
    for (const [kind, status] of Object.entries(KINDS)) {
      if (status) store.on(status, (args) => this.#counted(kind, args?.[0]));
    }
  }

  /** Whether the rig has any group of either kind. */
  get any() {
    return Object.values(this.count).some((count) => count > 0);
  }

  /** The groups of a kind muted now: [{ kind, g, name }], in number order (worked out once per change). */
  muted(kind) {
    this.#muted ??= {};
    this.#muted[kind] ??= this.#groups[kind].flatMap((group, index) => (group.mute ? [{ kind, g: index + 1, name: group.name }] : []));
    return this.#muted[kind];
  }

  /** A group's name as the rig has it (its default, "dca_2", until the state came). */
  name(kind, g) {
    return this.#groups[kind][g - 1]?.name ?? '';
  }

  #counted(kind, count) {
    if (!Number.isInteger(count) || count < 0 || count === this.count[kind]) return;
    this.count[kind] = count;
    for (const off of this.#watching[kind]) off();
    this.#groups[kind] = Array.from({ length: count }, () => ({ mute: false, name: '' }));
    this.#watching[kind] = [];
    for (let g = 1; g <= count; g++) {
      const group = this.#groups[kind][g - 1];
      for (const field of ['mute', 'name']) {
        const address = addressOf(kind, field, g);
        if (!address) continue;
        this.#watching[kind].push(store.on(address, (args) => {
          const value = args?.[0];
          group[field] = field === 'mute' ? value === true || (typeof value === 'number' && value !== 0) : String(value ?? '');
          this.#changed();
        }));
      }
    }
    this.dispatchEvent(new CustomEvent('count', { detail: { kind, count } }));
    this.#changed();
  }

  /** One `change` per batch of the store's listeners (a full state names every group at once). */
  #changed() {
    this.#muted = null;
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.dispatchEvent(new CustomEvent('change'));
    });
  }
}

export const groups = new Groups();
