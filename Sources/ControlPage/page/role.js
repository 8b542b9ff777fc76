// The session's role with the rig: who this page is to the rig, and so which
// view it shows (docs/page.md, "Roles and the personal mix").
//
//   /role                  -> /role ,ss[i...] NAME CONTROL [OUTPUT...]
//                             then /role/talkbacks ,s "1,2" (those it may talk on)
//   /login ,s CODE         -> /role ... for the code's role, or /error "/login" REASON
//   /logout                -> /role ... for the role the client's address gives
//
// CONTROL is "all" (the full page), "none" (the full page, read-only) or
// "outputs" (the personal mix of those outputs). `/role` is sent on every
// open; a code that logged in is kept in this object only (never in the
// URL, the DOM or storage) and sent again after a reconnect, so the role
// lasts as long as the page. A rig without roles answers /error for /role:
// then /status/access alone says full or read-only, as before roles.
//
// Answers come back in the order of their requests, but a wrong code's
// /error comes about a second late and a right one's /role at once, so the
// page sends one /login at a time and matches each /role to the oldest
// request still waiting for one.

import { commandAddress, replyAddress } from './catalogue.js';

const ACCESS = { all: 'full', none: 'read-only', outputs: 'outputs' };

/** The commands this session sends (their replies come back at /role), from the rig's command table. */
const [ROLE, LOGIN, LOGOUT] = [commandAddress('role'), commandAddress('login'), commandAddress('logout')];
/** The /status field that says what this session may do, from the rig's reply table. */
const ACCESS_FIELD = replyAddress('statusAccess');
/** What follows every /role: the talkbacks this session may talk on ("1,2"). */
const TALKBACKS = replyAddress('roleTalkbacks');

export class Session extends EventTarget {
  /** `{name, control, outputs}` from the rig's last /role; null until one came. */
  role = null;
  /** True once the rig answered /role, false once it refused it (no roles), null before. */
  roles = null;
  /** The rig's /status/access: "full", "read-only" or "outputs". */
  statusAccess = null;
  /** The talkbacks this session may talk on, from the rig's /role/talkbacks. */
  talkbacks = [];
  /** A /role was passed over (a reconnect's, the code's on its way): so is the /role/talkbacks after it. */
  #passedOver = false;
  #connection;
  /** The code that logged in, sent again on every open; null when logged out. */
  #code = null;
  /** The name of the role the code gave. */
  #codeRole = null;
  /** Requests waiting for a /role (or an /error), oldest first: {kind, code}. */
  #waiting = [];
  /** A /status/access that disagreed with the role and was asked about once. */
  #asked = null;

  constructor(connection) {
    super();
    this.#connection = connection;
    connection.addEventListener('state', ({ detail }) => {
      this.#waiting = [];
      this.#passedOver = false;
      if (detail === 'open') this.#opened();
      this.#changed();
    });
    for (const address of [ROLE, ACCESS_FIELD, TALKBACKS]) if (address) connection.on(address, (message) => this.#message(message));
    connection.addEventListener('osc-error', ({ detail }) => this.#refused(detail));
  }

  /** The role's name: the rig's, or the access a rig without roles gives. */
  get name() {
    return this.role?.name ?? this.statusAccess ?? null;
  }

  /** "full", "read-only" or "outputs"; null until the rig has said. */
  get access() {
    if (this.role) return Object.hasOwn(ACCESS, this.role.control) ? ACCESS[this.role.control] : 'read-only';
    if (this.roles === false && this.statusAccess) {
      // "outputs" without /role cannot say which outputs: show, but do not touch.
      return this.statusAccess === 'full' ? 'full' : 'read-only';
    }
    return null;
  }

  /** "mix" for a role of outputs, "full" otherwise; null until known. */
  get view() {
    const access = this.access;
    return access === null ? null : access === 'outputs' ? 'mix' : 'full';
  }

  /** The outputs of an outputs role, in the rig's order. */
  get outputs() {
    return this.role?.control === 'outputs' ? this.role.outputs : [];
  }

  /** Whether this page logged in with a code (and has not logged out). */
  get loggedIn() {
    return this.#code !== null;
  }

  /** Whether a /login waits for its answer. */
  get pending() {
    return this.#waiting.some((entry) => entry.kind === 'login');
  }

  /**
   * Sends /login with a code; `from` is the element its /error is shown
   * beside. False if it could not be sent (closed, or a login pending).
   */
  login(code, from = null) {
    if (!code || this.pending) return false;
    if (!this.#connection.send(LOGIN, 's', [code], { from })) return false;
    this.#waiting.push({ kind: 'login', code });
    this.#changed();
    return true;
  }

  /** Sends /logout and forgets the code (also when closed: the next open asks /role). */
  logout() {
    this.#code = null;
    if (this.#connection.send(LOGOUT)) this.#waiting.push({ kind: 'logout' });
    this.#changed();
  }

  #ask() {
    if (this.#connection.send(ROLE)) this.#waiting.push({ kind: 'role' });
  }

  #opened() {
    this.#asked = null;
    this.#ask();
    if (this.#code !== null) {
      this.#connection.send(LOGIN, 's', [this.#code]);
      this.#waiting.push({ kind: 'login', code: this.#code, again: true });
    }
  }

  #message({ address, args }) {
    if (address === ROLE) {
      const entry = this.#waiting.shift(); // none: the rig told us unasked
      this.roles = true;
      this.role = parseRole(args);
      if (entry?.kind === 'login') {
        this.#code = entry.code;
        this.#codeRole = this.role.name;
      } else if (this.#waiting[0]?.again) {
        // The address's role on a reconnect, with the code's on its way: keep
        // the view as it is rather than show the other one for a moment.
        this.#passedOver = true;
        return;
      } else if (this.#code !== null && this.role.name !== this.#codeRole) {
        // Another role than the code's, unasked: the rig logged this session
        // out (its code left the access file). Do not send it again.
        this.#code = null;
      }
      this.#changed();
    } else if (address === TALKBACKS) {
      if (this.#passedOver) {
        this.#passedOver = false;
        return;
      }
      const talkbacks = parseNumbers(args[0]);
      if (talkbacks.join() === this.talkbacks.join()) return;
      this.talkbacks = talkbacks;
      this.#changed();
    } else if (address === ACCESS_FIELD) {
      const value = String(args[0] ?? '');
      if (value === this.statusAccess && this.roles !== true) return;
      this.statusAccess = value;
      if (value === this.access) this.#asked = null;
      if (this.roles === false) {
        this.#changed();
      } else if (this.roles && this.#waiting.length === 0 && value !== this.access && value !== this.#asked) {
        // The rig's access moved under the page (a new access file): ask again, once.
        this.#asked = value;
        this.#ask();
      }
    }
  }

  #refused({ address, reason }) {
    const drop = (kind) => {
      const at = this.#waiting.findIndex((entry) => entry.kind === kind);
      return at < 0 ? null : this.#waiting.splice(at, 1)[0];
    };
    if (address === ROLE) {
      drop('role');
      this.roles = false;
      this.role = null;
    } else if (address === LOGIN) {
      const entry = drop('login');
      // A code that no longer logs in (on a reconnect) is forgotten.
      if (entry && entry.code === this.#code) this.#code = null;
    } else if (address === LOGOUT) {
      drop('logout');
    } else if (reason === 'read-only' || reason.startsWith('not permitted')) {
      // The rig refused a change this page offered: its role may have changed.
      if (this.roles === false) this.statusAccess = 'read-only';
      else if (this.#waiting.length === 0) this.#ask();
    } else {
      return;
    }
    this.#changed();
  }

  #changed() {
    this.dispatchEvent(new Event('change'));
  }
}

/** `/role` arguments: NAME, CONTROL, then the output numbers of an outputs role. */
export function parseRole(args) {
  const [name, control, ...rest] = args;
  const outputs = [];
  for (const value of rest) {
    if (Number.isInteger(value) && value > 0 && !outputs.includes(value)) outputs.push(value);
  }
  return { name: String(name ?? ''), control: String(control ?? 'none'), outputs };
}

/** "1,2" as [1, 2]: the positive whole numbers of a list the rig sent, each once. */
export function parseNumbers(text) {
  const numbers = [];
  for (const part of String(text ?? '').split(',')) {
    const value = Number(part);
    if (part.trim() !== '' && Number.isInteger(value) && value > 0 && !numbers.includes(value)) numbers.push(value);
  }
  return numbers;
}
