// The page's copy of the rig's state: OSC address -> arguments, with
// listeners by exact address. Incoming values are stored at once; listeners
// run once per animation frame for the addresses that changed since (the
// latest value wins), so a full state of thousands of messages costs one DOM
// pass; a small frame from the rig (a change, meters) is shown at once
// (`flush`), not a frame later. A timer backs the frame up where frames do
// not run (a hidden tab).

export class Store {
  #values = new Map();
  #listeners = new Map();
  #dirty = new Set();
  #scheduled = false;

  get(address) {
    return this.#values.get(address);
  }

  /** The first argument at an address, or `fallback`. */
  value(address, fallback = undefined) {
    const args = this.#values.get(address);
    return args && args.length > 0 ? args[0] : fallback;
  }

  set(address, args) {
    this.#values.set(address, args);
    if (this.#listeners.has(address)) {
      this.#dirty.add(address);
      this.#schedule();
    }
  }

  /** Calls `listener(args, address)` on every change; at once if known. Returns an unsubscribe. */
  on(address, listener) {
    let set = this.#listeners.get(address);
    if (!set) { set = new Set(); this.#listeners.set(address, set); }
    set.add(listener);
    if (this.#values.has(address)) listener(this.#values.get(address), address);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(address);
    };
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    const flush = () => this.flush();
    requestAnimationFrame(flush);
    setTimeout(flush, 40);
  }

  /** Runs the listeners of what changed now, instead of at the next frame. */
  flush() {
    if (!this.#scheduled) return;
    this.#scheduled = false;
    const dirty = this.#dirty;
    this.#dirty = new Set();
    for (const address of dirty) {
      const args = this.#values.get(address);
      for (const listener of this.#listeners.get(address) ?? []) {
        try {
          listener(args, address);
        } catch (error) {
          console.error('listener for', address, error);
        }
      }
    }
  }
}

export const store = new Store();
