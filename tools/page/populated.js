// Injected before the page's own scripts (CDP Page.addScriptToEvaluateOnNewDocument)
// by tools/bench/page.py and tools/page/size_check.py, with INPUTS and OUTPUTS
// replaced by the rig's size. It records on the page's own clock the first
// moment the page is populated: connected, laid out for the rig's size (a
// strip per source), its store holding the state's corners (the last source's
// fader, the last crosspoint, the last output's fader, the master), and every
// control in the document showing the rig's value (each source fader an
// aria-valuenow, each matrix cell its level). The page builds only what is
// near view (docs/page.md), so that is what is checked. It also stamps every
// aria-valuenow of /source/1/fader on the wall clock, for the OSC-to-DOM delay.
(() => {
  const probe = window.__probe = { populated: null, elements: null, stamps: [] };
  const n = INPUTS, m = OUTPUTS;
  const check = () => {
    if (probe.populated !== null) return;
    const root = document.documentElement;
    if (root.dataset.connection !== 'open' || root.dataset.size !== `${n}x${m}`) return;
    const store = window.crosspoint && window.crosspoint.store;
    // The page is sent levels in linear gain (/subscribe/forms linear).
    const corners = [`/source/${n}/volume`, `/matrix/${n}/${m}`, `/output/${m}/volume`, '/master/volume'];
    if (!store || corners.some((address) => store.get(address) === undefined)) return;
    if (document.querySelectorAll('.strip.source').length < n) return;
    const faders = document.querySelectorAll('[role="slider"][data-address^="/source/"][data-address$="/fader"]');
    if (faders.length === 0 || [...faders].some((fader) => !fader.hasAttribute('aria-valuenow'))) return;
    const cells = document.querySelectorAll('xp-matrix .cell');
    if (cells.length === 0 || [...cells].some((cell) => cell.style.getPropertyValue('--level') === '')) return;
    probe.populated = performance.now();
    probe.elements = document.getElementsByTagName('*').length;
  };
  const watch = () => {
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target;
        if (record.attributeName === 'aria-valuenow' && target.dataset && target.dataset.address === '/source/1/fader') {
          probe.stamps.push([target.getAttribute('aria-valuenow'), performance.timeOrigin + performance.now()]);
        }
      }
      check();
    }).observe(document, { subtree: true, childList: true, attributes: true,
                           attributeFilter: ['aria-valuenow', 'aria-pressed', 'style', 'data-connection', 'data-size'] });
  };
  if (document.documentElement) watch(); else document.addEventListener('readystatechange', watch, { once: true });
})();
