// The Crosspoint control page: one WebSocket session with the rig that served
// it, the state it sends rendered as strips, a matrix, presets and status.
// Contract for automation (tests rely on it): docs/page.md, "Contract for automation and tests".

import { Connection } from './connection.js';
import { store } from './state.js';
import { context, setReadOnly } from './elements/control.js';
import { buildStrips } from './strips.js';
import { bindPresets } from './presets.js';
import { bindStatus } from './status.js';
import { showError } from './errors.js';
import './elements/xp-matrix.js';

// ws://HOST:PORT/ of the page's own origin; ?ws=HOST:PORT for development
// (a page of another origin gets a read-only session from the rig).
const params = new URLSearchParams(location.search);
const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
const url = `${scheme}://${params.get('ws') ?? location.host}/`;

const connection = new Connection(url);
context.connection = connection;
// For automation and debugging from the console.
window.crosspoint = { store, connection };

const sources = document.querySelector('#sources .strips');
const outputs = document.querySelector('#outputs .strips');
const matrix = document.querySelector('xp-matrix');

function layout() {
  const inputs = store.value('/status/inputs');
  const outputCount = store.value('/status/outputs');
  if (!Number.isInteger(inputs) || !Number.isInteger(outputCount)) return;
  buildStrips(sources, outputs, inputs, outputCount);
  matrix.configure(inputs, outputCount);
  setReadOnly(context.readOnly);
  document.documentElement.dataset.size = `${inputs}x${outputCount}`;
}
store.on('/status/inputs', layout);
store.on('/status/outputs', layout);

bindStatus(document.querySelector('#status'), connection);
bindPresets(document.querySelector('#presets'), connection);

connection.addEventListener('osc-error', ({ detail }) => {
  if (detail.reason === 'read-only') setReadOnly(true);
  showError(detail, document.querySelector('#status'));
});

connection.connect();
