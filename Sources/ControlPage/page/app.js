// The Crosspoint control page: one WebSocket session with the rig that served
// it, the state it sends rendered as strips, a matrix, presets and status;
// for a performer's role (outputs), the personal mix instead.
// Contract for automation (tests rely on it): docs/page.md, "Contract for automation and tests".

import { Connection } from './connection.js';
import { store } from './state.js';
import { context, setAccess } from './elements/control.js';
import { buildStrips } from './strips.js';
import { bindPresets } from './presets.js';
import { bindStatus } from './status.js';
import { bindRigs } from './rigs.js';
import { bindLogin } from './login.js';
import { Session } from './role.js';
import { buildMix, clearMix } from './mix.js';
import { showError } from './errors.js';
import { commandAddress } from './catalogue.js';
import { RigSize, SizeControls } from './rig-size.js';
import { groups } from './groups.js';
import { buildGroups } from './group-strips.js';
import { StripFinder } from './strip-finder.js';
import { bindInView } from './in-view.js';
import { bindStatusMenu } from './status-menu.js';
import { buildKinds } from './kinds.js';
import { buildListen } from './listen.js';
import { buildTalkButtons, buildGrantedTalkButtons } from './talkback.js';
import './elements/xp-matrix.js';

// ws://HOST:PORT/ of the page's own origin; ?ws=HOST:PORT for development
// (a page of another origin gets a read-only session from the rig).
const params = new URLSearchParams(location.search);
const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
const url = `${scheme}://${params.get('ws') ?? location.host}/`;

const connection = new Connection(url);
context.connection = connection;
const session = new Session(connection);
const size = new RigSize(connection);
// For automation and debugging from the console.
window.crosspoint = { store, connection, session, size, groups };

const root = document.documentElement;
const statusBar = document.querySelector('#status');
const engineer = document.querySelector('main#engineer');
const mix = document.querySelector('main#mix');
const sources = engineer.querySelector('#sources .strips');
const outputs = engineer.querySelector('#outputs .strips');
const matrix = engineer.querySelector('xp-matrix');
const groupSection = engineer.querySelector('#groups');
const groupLink = statusBar.querySelector('nav a[href="#groups"]');
// Kinds of strip the rig describes that have no section of their own here.
buildKinds(engineer, engineer.querySelector('#matrix'), statusBar.querySelector('nav.sections'), size);
// The engineer's listen, and a talk button per talkback in the status bar.
buildListen(engineer, engineer.querySelector('#matrix'));
// (In the status bar's menu, which a wide window shows in the bar itself;
// a performer's mix view has none.)
const talkButtons = buildTalkButtons(statusBar.querySelector('#status-more'));

/** The view shown (applyRole): null until the rig has said, then "full" or "mix" with its outputs. */
let shown = { view: null, outputs: [] };
/** A performer's talk buttons above the personal mix (its role's talkbacks), and the grant they were built for. */
let mixTalk = { group: null, granted: '' };

// "− N +" in the Sources and Outputs heads: the rig's size, changed by the engineer.
const sizeControls = [new SizeControls('inputs', engineer.querySelector('#sources .section-head'), size, connection),
                      new SizeControls('outputs', engineer.querySelector('#outputs .section-head'), size, connection)];
// A jump and a filter beside them: a far strip found by number or name (strip-finder.js).
const finders = [new StripFinder('source', engineer.querySelector('#sources .section-head'), sources),
                 new StripFinder('output', engineer.querySelector('#outputs .section-head'), outputs)];

/**
 * Lays the view shown out for the rig's size, once both are known; again
 * whenever the rig's size changes (whoever changed it), then only adding
 * and removing what came and went.
 */
function layout() {
  const { inputs, outputs: outputCount } = size;
  if (!Number.isInteger(inputs) || !Number.isInteger(outputCount)) return;
  root.dataset.size = `${inputs}x${outputCount}`;
  if (shown.view === null) return;
  if (shown.view === 'mix') {
    buildMix(mix, shown.outputs.filter((m) => m <= outputCount), inputs);
    if (mixTalk.group && mix.firstElementChild !== mixTalk.group) mix.prepend(mixTalk.group);
  } else {
    buildStrips(sources, outputs, inputs, outputCount);
    for (const finder of finders) finder.resize();
    buildGroups(groupSection, groupLink);
    matrix.configure(inputs, outputCount);
  }
  setAccess(context.access);
}
size.addEventListener('change', layout);
// The rig's DCAs and mute groups (/status/dcas, /status/mute_groups), however many it says.
groups.addEventListener('count', layout);

/**
 * The role's view: the engineer's page (full or read-only) or the personal
 * mix. The engineer's page leaves the document while the mix is shown, so
 * none of its controls or addresses are there; it comes back as it was.
 */
function applyRole() {
  const { view, access, outputs: mixed } = session;
  if (view === null) return;
  shown = { view, outputs: mixed };
  root.dataset.role = session.name ?? '';
  root.dataset.view = view;
  const granted = view === 'mix' ? session.talkbacks.join() : '';
  if (granted !== mixTalk.granted) {
    mixTalk.group?.dispose();
    mixTalk.group?.remove();
    mixTalk = { group: granted ? buildGrantedTalkButtons(session.talkbacks) : null, granted };
  }
  if (view === 'mix') {
    for (const controls of sizeControls) controls.close();
    engineer.remove();
    talkButtons?.remove();
    mix.hidden = false;
  } else {
    clearMix(mix);
    mix.hidden = true;
    if (!engineer.isConnected) mix.before(engineer);
    if (talkButtons && !talkButtons.isConnected) statusBar.querySelector('#status-more').prepend(talkButtons);
  }
  context.access = access;
  layout();
  setAccess(access);
}
session.addEventListener('change', applyRole);

bindStatus(statusBar, connection, session);
bindStatusMenu(statusBar);
bindInView(statusBar);
bindRigs(statusBar.querySelector('#rigs'));
bindLogin(statusBar, session);
bindPresets(engineer.querySelector('#presets'), connection);

connection.addEventListener('osc-error', ({ detail }) => {
  if (detail.address === commandAddress('role')) return; // a rig without roles: role.js falls back
  showError(detail, statusBar);
});

connection.connect();
