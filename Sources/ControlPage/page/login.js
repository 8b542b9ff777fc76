// The login form in the status bar: a code (a password field) turns the
// session into the code's role (a performer's personal mix, say) until the
// page closes or "Log out" (shown instead of the form, beside the role's
// name in the status bar). The code goes from the field to the rig and to
// the session's memory (role.js), nowhere else: the field is emptied on
// submit and the form never navigates, so the code is not in the URL, the
// DOM or the history. A refused code's /error shows beside the form
// (errors.js, by the element that sent /login).

import { showError } from './errors.js';
import { commandAddress } from './catalogue.js';

export function bindLogin(root, session) {
  const form = root.querySelector('#login');
  const input = form.elements.code;
  const submit = form.querySelector('button[type="submit"]');
  const logout = root.querySelector('#logout');

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = input.value;
    input.value = '';
    if (code && !session.login(code, form) && !session.pending) {
      showError({ address: commandAddress('login'), reason: 'not connected', element: form }, root);
    }
  });

  logout.addEventListener('click', () => session.logout());

  const render = () => {
    const inByCode = session.loggedIn;
    // No form where there is nothing to log in to: a rig without roles, or
    // the built-in role "full" (a rig without an access file, where every
    // client has it; an engineer's role in a file needs no code either).
    const full = session.role?.name === 'full' && session.role.control === 'all';
    form.hidden = inByCode || session.roles === false || full;
    logout.hidden = !inByCode;
    submit.disabled = session.pending;
    form.toggleAttribute('aria-busy', session.pending);
  };
  session.addEventListener('change', render);
  render();
}
