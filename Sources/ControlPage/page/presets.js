// Presets: the list (a recall button per preset, data-address =
// "/preset/recall/NAME"), recall with a fade and a scope, save with name and
// notes, rename, delete (a second tap confirms), undo, and the current
// preset with its "modified" mark. A preset whose file cannot be read
// (the rig's /preset/unreadable, asked with every list) is marked
// data-unreadable, aria-disabled and not recalled, and its error shows on
// hover or focus (a role="tooltip" the button is described by). The
// commands' addresses, and the replies to the queries (at the same
// addresses), come from the rig's command table (catalogue.js), and the
// events a change is answered with (/preset/saved, …) from its reply table.

import { store } from './state.js';
import { context, applyReadOnly } from './elements/control.js';
import { commandAddress, replyAddress } from './catalogue.js';

const SCOPES = ['sources', 'matrix', 'outputs', 'master'];

export function bindPresets(root, connection) {
  const saveAddress = commandAddress('presetSave');
  const recallAddress = commandAddress('presetRecall');
  const undoAddress = commandAddress('presetUndo');
  const listAddress = commandAddress('presetList');
  const currentAddress = commandAddress('presetCurrent');
  const deleteAddress = commandAddress('presetDelete');
  const renameAddress = commandAddress('presetRename');
  const unreadableAddress = commandAddress('presetUnreadable');
  const list = root.querySelector('.preset-list');
  const fade = root.querySelector('[name="fade"]');
  const scopes = SCOPES.map((scope) => root.querySelector(`[name="scope"][value="${scope}"]`));
  const form = root.querySelector('form.save');
  const undo = root.querySelector(`[data-address="${undoAddress}"]`);
  const current = root.querySelector('.current-name');
  const send = (...args) => context.readOnly ? false : connection.send(...args);

  const refresh = () => { connection.send(listAddress); connection.send(currentAddress); };
  const events = [replyAddress('presetSaved'), replyAddress('presetDeleted'), replyAddress('presetRenamed'),
                  replyAddress('presetRecalled')];
  for (const address of events) if (address) connection.on(address, refresh);

  function recall(name, button) {
    const chosen = scopes.filter((box) => box.checked).map((box) => box.value);
    const seconds = fade.value === '' ? null : Number(fade.value);
    if (seconds === null && chosen.length === SCOPES.length) {
      send(`${recallAddress}/${name}`, '', [], { from: button }); // the file's fade, every part
      return;
    }
    if (chosen.length === 0) return;
    let types = 's';
    const args = [name];
    if (seconds !== null && Number.isFinite(seconds)) { types += 'f'; args.push(seconds); }
    if (chosen.length < SCOPES.length) { types += 's'; args.push(chosen.join(',')); }
    send(recallAddress, types, args, { from: button });
  }

  function row(name) {
    const item = document.createElement('li');
    item.dataset.name = name;
    const recallButton = document.createElement('button');
    recallButton.type = 'button';
    recallButton.className = 'recall';
    recallButton.dataset.address = `${recallAddress}/${name}`;
    recallButton.textContent = name;
    recallButton.addEventListener('click', () => {
      if (!recallButton.hasAttribute('data-unreadable')) recall(name, recallButton);
    });

    const rename = document.createElement('button');
    rename.type = 'button';
    rename.dataset.control = '';
    rename.textContent = 'Rename';
    rename.setAttribute('aria-label', `Rename ${name}`);
    rename.addEventListener('click', () => {
      if (context.readOnly) return;
      const input = document.createElement('input');
      input.value = name;
      input.setAttribute('aria-label', `New name for ${name}`);
      input.setAttribute('enterkeyhint', 'done');
      const done = (commit) => {
        if (commit && input.value && input.value !== name) {
          send(renameAddress, 'ss', [name, input.value], { from: recallButton });
        }
        input.replaceWith(recallButton);
      };
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') done(true);
        if (e.key === 'Escape') done(false);
      });
      input.addEventListener('blur', () => input.isConnected && done(true));
      recallButton.replaceWith(input);
      input.focus();
      input.select();
    });

    const remove = document.createElement('button');
    remove.type = 'button';
    remove.dataset.control = '';
    remove.className = 'delete';
    remove.textContent = 'Delete';
    remove.setAttribute('aria-label', `Delete ${name}`);
    let armed = null;
    remove.addEventListener('click', () => {
      if (context.readOnly) return;
      if (armed) {
        clearTimeout(armed);
        armed = null;
        send(deleteAddress, 's', [name], { from: recallButton });
        return;
      }
      remove.textContent = 'Sure?';
      armed = setTimeout(() => { armed = null; remove.textContent = 'Delete'; }, 3000);
    });

    for (const button of [recallButton, rename, remove]) applyReadOnly(button);
    item.append(recallButton, rename, remove);
    return item;
  }

  /** Name -> the file's error, for the presets the rig cannot read. */
  let unreadable = new Map();

  function mark() {
    for (const item of list.children) {
      const button = item.querySelector('.recall');
      const note = item.querySelector('.unreadable-note');
      const error = unreadable.get(item.dataset.name);
      button?.toggleAttribute('data-unreadable', error !== undefined);
      if (button) applyReadOnly(button);
      if (error === undefined) {
        note?.remove();
        button?.removeAttribute('aria-describedby');
        continue;
      }
      const id = `unreadable-${item.dataset.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
      const tip = note ?? Object.assign(document.createElement('span'), { className: 'unreadable-note', id });
      tip.setAttribute('role', 'tooltip');
      tip.textContent = `Cannot be read: ${error}`;
      if (!note) button.after(tip);
      button.setAttribute('aria-describedby', id);
    }
  }

  store.on(listAddress, (args) => {
    const names = (args ?? []).filter((name) => typeof name === 'string');
    list.replaceChildren(...names.map(row));
    list.dataset.count = String(names.length);
    mark();
    connection.send(unreadableAddress);
  });

  store.on(unreadableAddress, (args) => {
    const pairs = (args ?? []).filter((value) => typeof value === 'string');
    unreadable = new Map();
    for (let k = 0; k + 1 < pairs.length; k += 2) unreadable.set(pairs[k], pairs[k + 1]);
    mark();
  });

  store.on(currentAddress, (args) => {
    const [name = '', modified = 0] = args ?? [];
    current.textContent = name || '(none)';
    root.toggleAttribute('data-modified', Boolean(name) && modified !== 0 && modified !== false);
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = form.elements.name.value.trim();
    const notes = form.elements.notes.value;
    if (!name) return;
    const button = form.querySelector(`[data-address="${saveAddress}"]`);
    if (notes) send(saveAddress, 'ss', [name, notes], { from: button });
    else send(saveAddress, 's', [name], { from: button });
  });

  undo.addEventListener('click', () => {
    const seconds = fade.value === '' ? null : Number(fade.value);
    // A lone number is the fade, a lone 0 a button release: send both.
    if (seconds !== null && Number.isFinite(seconds)) send(undoAddress, 'fi', [seconds, 1], { from: undo });
    else send(undoAddress, '', [], { from: undo });
  });
}
