// The page's session with the rig: one WebSocket to the host the page came
// from, OSC packets as binary frames. On every open it sends the subscribe
// sequence, so a reconnect shows the whole state again; on close it retries
// with a backoff of 0.5 s doubling to 4 s. The connection state is on the
// root element: <html data-connection="open|closed">.

import { encodeMessage, decodePacket } from './osc.js';
import { store } from './state.js';
import { commandAddress, replyAddress } from './catalogue.js';

/** Where the rig says it did not act on a message (its address, then why). */
const ERROR = replyAddress('error');

/** Frames with fewer messages than this are drawn as they arrive. */
const SMALL_FRAME = 16;

/**
 * The commands sent on every open, from the rig's command table (catalogue.js):
 * first feedback with each level in linear gain only, which the page's faders
 * and matrix read (a 256x256 rig's full state is then 70,000 messages, not
 * 200,000), then meters, status, presets, ports and rigs.
 */
const SUBSCRIBE_SEQUENCE = [[commandAddress('subscribeForms'), 's', ['linear']],
                            ...['metersSubscribe', 'status', 'presetList', 'presetCurrent', 'jackPorts', 'rigs']
                              .map((name) => [commandAddress(name)])];

export class Connection extends EventTarget {
  #socket = null;
  #delay = 500;
  #retry = null;
  #poll = null;
  /** The element that last sent to each address, where its /error is shown. */
  #senders = new Map();
  /** Addresses whose value this page stored before the rig had it (`local`). */
  #unconfirmed = new Set();
  /** Listeners by exact address, called with each message there as it arrives (`on`). */
  #handlers = new Map();

  constructor(url) {
    super();
    this.url = url;
    this.setState('closed');
  }

  get isOpen() {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  setState(state) {
    document.documentElement.dataset.connection = state;
    this.dispatchEvent(new CustomEvent('state', { detail: state }));
  }

  connect() {
    clearTimeout(this.#retry);
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      console.error(error);
      this.#scheduleRetry();
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#delay = 500;
      this.setState('open');
      for (const [address, types, args] of SUBSCRIBE_SEQUENCE) this.send(address, types, args);
      clearInterval(this.#poll);
      // The preset state comes as feedback (/preset/current, /preset/list); the status does not.
      this.#poll = setInterval(() => this.send(commandAddress('status')), 1500);
    });
    socket.addEventListener('message', (event) => {
      if (!(event.data instanceof ArrayBuffer)) return; // text frames: LISTEN answers, not ours
      const messages = decodePacket(event.data);
      for (const message of messages) this.#receive(message);
      // A change or a meter frame is drawn now; a burst (the full state,
      // 1,400-byte bundles back to back) once per animation frame.
      if (messages.length < SMALL_FRAME) store.flush();
    });
    socket.addEventListener('close', () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      clearInterval(this.#poll);
      this.setState('closed');
      this.#scheduleRetry();
    });
  }

  #scheduleRetry() {
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => this.connect(), this.#delay);
    this.#delay = Math.min(this.#delay * 2, 4000);
  }

  /**
   * Sends one message. `from` is the element that sent it, where an /error
   * for this address will be shown. `local` also stores the value at once
   * (the rig does not echo a session's own value back to it). False when
   * not sent: closed, or no address (a command the rig's table lacks).
   */
  send(address, types = '', args = [], { from = null, local = false } = {}) {
    if (!address) return false;
    if (from) this.#senders.set(address, from);
    if (local) {
      store.set(address, args);
      this.#unconfirmed.add(address);
    }
    if (!this.isOpen) return false;
    this.#socket.send(encodeMessage(address, types, args));
    return true;
  }

  #receive(message) {
    if (message.address === ERROR) {
      const address = String(message.args[0] ?? '');
      // A refused value was stored here already: ask the rig for its own, so
      // the page does not go on showing what the rig does not have.
      if (this.#unconfirmed.delete(address)) this.send(address);
      this.dispatchEvent(new CustomEvent('osc-error', {
        detail: { address, reason: String(message.args[1] ?? ''),
                  element: this.#senders.get(address) ?? null },
      }));
      return;
    }
    store.set(message.address, message.args);
    const handlers = this.#handlers.get(message.address);
    if (handlers) for (const handler of handlers) handler(message);
  }

  /**
   * Calls `handler(message)` with every message the rig sends to `address`,
   * as it arrives: for replies that are events (`/role`, `/preset/saved`),
   * where the store keeps values. (No event per message: a 256x256 full
   * state is 200,000 of them.)
   */
  on(address, handler) {
    let set = this.#handlers.get(address);
    if (!set) { set = new Set(); this.#handlers.set(address, set); }
    set.add(handler);
  }
}
