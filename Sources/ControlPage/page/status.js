// The status bar: connection, role and access, sample rate, period, xruns,
// DSP load, from /status (polled by the connection every 1.5 s; its fields'
// addresses from the rig's reply table, catalogue.js `replyAddress`), the
// session state and the session's role (role.js).

import { store } from './state.js';
import { replyAddress } from './catalogue.js';

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
