// The page's copy of the rig's state: OSC address -> arguments, with
// listeners by exact address. Incoming values are stored at once; listeners
// run once per animation frame for the addresses that changed since (the
// latest value wins), so a full state of thousands of messages costs one DOM
// pass; a small frame from the rig (a change, meters) is shown at once
// (`flush`), not a frame later. A timer backs the frame up where frames do
// not run (a hidden tab). A prefix listener (`onPrefix`) is called once per
// flush with every changed address under its prefix: the matrix's overview
// watches 65,536 crosspoints with one.

export class Store {
  #values = new Map();
  #listeners = new Map();
  #dirty = new Set();
  #prefixes = []; // { prefix, listener, changed: Set }
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
    for (const watch of this.#prefixes) {
      if (address.startsWith(watch.prefix)) {
        watch.changed.add(address);
        this.#schedule();
      }
    }
  }

  /**
   * Drops every value at an address `test(address)` picks (the channels a
   * rig no longer has: nothing shows them again); their listeners are not called.
   */
  forget(test) {
    for (const address of this.#values.keys()) {
      if (!test(address)) continue;
      this.#values.delete(address);
      this.#dirty.delete(address);
    }
  }

  /** Calls `listener(addresses)` once per flush with the changed addresses starting with `prefix`. Returns an unsubscribe. */
  onPrefix(prefix, listener) {
    const watch = { prefix, listener, changed: new Set() };
    this.#prefixes.push(watch);
    return () => { this.#prefixes = this.#prefixes.filter((other) => other !== watch); };
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
    for (const watch of this.#prefixes) {
      if (watch.changed.size === 0) continue;
      const changed = watch.changed;
      watch.changed = new Set();
      try {
        watch.listener(changed);
      } catch (error) {
        console.error('listener for', watch.prefix, error);
      }
    }
  }
}

export const store = new Store();
