// An /error ,ss ADDRESS reason from the rig, shown for a few seconds next to
// the control that sent to ADDRESS (else any control with that address, else
// in the status bar), and announced to screen readers.

const SHOW_MS = 4000;

export function showError(detail, fallback) {
  const { address, reason } = detail;
  const target = (detail.element?.isConnected && detail.element)
    ?? document.querySelector(`[data-address="${CSS.escape(address)}"]`);
  const note = document.createElement('div');
  note.className = 'error-note';
  note.setAttribute('role', 'alert');
  note.dataset.errorFor = address;
  note.textContent = reason ? `${reason}` : `error at ${address}`;
  if (target) {
    const rect = target.getBoundingClientRect();
    note.style.left = `${Math.max(4, Math.min(window.innerWidth - 220, rect.left))}px`;
    note.style.top = `${Math.min(window.innerHeight - 40, rect.bottom + 4)}px`;
    target.dataset.error = reason;
    document.body.append(note);
  } else {
    note.textContent = `${address}: ${reason}`;
    fallback.append(note);
    note.classList.add('in-bar');
  }
  setTimeout(() => {
    note.remove();
    if (target && target.dataset.error === reason) delete target.dataset.error;
  }, SHOW_MS);
}
