// The status bar: connection, role and access, sample rate, period, xruns,
// DSP load, whether the state is saved and the state file's note, from /status (polled by the connection every 1.5 s; its fields'
// addresses from the rig's reply table, catalogue.js `replyAddress`), the
// session state and the session's role (role.js).

import { store } from './state.js';
import { commandAddress, replyAddress } from './catalogue.js';

const ACCESS_TEXT = { full: 'full control', 'read-only': 'read-only', outputs: 'my mix' };

export function bindStatus(root, connection, session) {
  const field = (name) => root.querySelector(`[data-status="${name}"]`);
  const show = (address, name, format = String) => {
    if (address) store.on(address, (args) => { field(name).textContent = args?.length ? format(args[0]) : '–'; });
  };
  show(replyAddress('statusSampleRate'), 'sample-rate', (v) => `${(v / 1000).toLocaleString()} kHz`);
  show(replyAddress('statusBufferSize'), 'period', (v) => `${v} frames`);
  show(replyAddress('statusXruns'), 'xruns');
  show(replyAddress('statusDSPLoad'), 'dsp-load', (v) => `${v.toFixed(1)} %`);
  bindStateNote(field, connection);
  // /status/state_saved: 0 and why while the rig cannot save its state.
  const saved = replyAddress('statusStateSaved');
  if (saved) store.on(saved, (args) => {
    const [ok = 1, why = ''] = args ?? [];
    field('state-saved').hidden = ok !== 0;
    field('state-saved').textContent = ok === 0 ? `The rig cannot save its state: ${why}` : '';
  });
  session.addEventListener('change', () => {
    field('access').textContent = ACCESS_TEXT[session.access] ?? '';
    // A role of an access file is named; the built-in ones ("full",
    // "read-only") say no more than the access.
    const name = session.name ?? '';
    field('role').textContent = session.roles && !Object.hasOwn(ACCESS_TEXT, name) ? name : '';
  });
  const state = field('connection');
  const render = (value) => { state.textContent = value === 'open' ? 'connected' : 'disconnected'; };
  render(document.documentElement.dataset.connection);
  connection.addEventListener('state', (event) => render(event.detail));
}

// The state file's note (/status/state_note: the file, what happened, when):
// shown until someone acknowledges it (/status/state_note/ack), so that a
// state set aside or fields skipped at start are seen, not only logged.
function bindStateNote(field, connection) {
  const note = field('state-note');
  const address = replyAddress('statusStateNote');
  const ack = commandAddress('stateNoteAck');
  if (!note || !address) return;
  store.on(address, (args) => {
    const [file = '', reason = '', time = ''] = args ?? [];
    note.hidden = !file && !reason;
    field('state-note-text').textContent = note.hidden ? '' : `Saved state ${file}: ${reason}${time ? ` (${time})` : ''}`;
  });
  field('state-note-ack').addEventListener('click', () => { if (ack) connection.send(ack); });
}
