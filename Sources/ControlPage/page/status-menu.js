// The status bar on a phone: one line (the connection, the access, the
// session's login or role, and "☰"); the rest (sample rate, period, xruns,
// DSP load, the master meter, other rigs, the section links) is one tap
// away: "☰" (aria-expanded, aria-controls #status-more) shows it under the
// line, a section link followed or Escape folds it again. The alert lines
// (the state not saved, the state file's note) show whenever the rig says
// so. On a wider screen everything is in the bar and "☰" is not shown.

export function bindStatusMenu(bar) {
  const toggle = bar.querySelector('.status-toggle');
  const more = bar.querySelector('#status-more');
  if (!toggle || !more) return;
  const set = (open) => {
    toggle.setAttribute('aria-expanded', String(open));
    bar.toggleAttribute('data-expanded', open);
  };
  toggle.addEventListener('click', () => set(toggle.getAttribute('aria-expanded') !== 'true'));
  more.addEventListener('click', (event) => { if (event.target.closest('a')) set(false); });
  bar.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && bar.hasAttribute('data-expanded')) { set(false); toggle.focus(); }
  });
}
