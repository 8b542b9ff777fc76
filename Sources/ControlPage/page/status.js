// The status bar: connection, access, sample rate, period, xruns, DSP load,
// from /status (polled by the connection every 1.5 s) and the session state.

import { store } from './state.js';
import { setReadOnly } from './elements/control.js';

export function bindStatus(root, connection) {
  const field = (name) => root.querySelector(`[data-status="${name}"]`);
  const show = (address, name, format = String) => {
    store.on(address, (args) => { field(name).textContent = args?.length ? format(args[0]) : '–'; });
  };
  show('/status/sample_rate', 'sample-rate', (v) => `${(v / 1000).toLocaleString()} kHz`);
  show('/status/buffer_size', 'period', (v) => `${v} frames`);
  show('/status/xruns', 'xruns');
  show('/status/dsp_load', 'dsp-load', (v) => `${v.toFixed(1)} %`);
  store.on('/status/access', (args) => {
    const readOnly = args?.[0] === 'read-only';
    setReadOnly(readOnly);
    field('access').textContent = readOnly ? 'read-only' : 'full control';
  });
  const state = field('connection');
  const render = (value) => { state.textContent = value === 'open' ? 'connected' : 'disconnected'; };
  render(document.documentElement.dataset.connection);
  connection.addEventListener('state', (event) => render(event.detail));
}
