"""The control page in headless Chromium, for BENCHMARKS.md (scripts/bench; `--only page` alone).

Against the real `crosspoint serve` on a private jackd, Chromium driven by
Selenium (chromium, chromium-driver, selenium from PyPI), headless:

- Time to a fully populated page, at 8x8 and 64x64: from navigation start
  (the page's own performance clock) to the first moment the page shows the
  whole rig: connected (`data-connection="open"`), every matrix cell
  (`data-address="/matrix/i/o"`) present, and every source fader carrying
  an `aria-valuenow`. A script injected before the page's own
  (`Page.addScriptToEvaluateOnNewDocument`) checks on every DOM mutation;
  the median of ROUNDS fresh loads.
- Delay from an OSC change to the page's DOM: CHANGES messages
  `/source/1/fader ,f x` from a UDP client of this process, each value
  distinct, one every CHANGE_INTERVAL (25 a second, under the 30 updates
  a second feedback is coalesced to); the page's MutationObserver stamps
  each new `aria-valuenow` with `performance.timeOrigin + performance.now()`
  (the wall clock, in ms), and the delay is that minus the time read just
  before `sendto()` of that value. Median and p99.
- The page's main-thread busy share at 64x64 with meters at 20 Hz and a
  tone on every input: Chrome's `TaskDuration` (CDP `Performance.getMetrics`,
  main-thread task time) over BUSY_SECONDS, as a share of the window.
"""
import os
import socket
import statistics
import sys
import time

import discovery

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import osc  # tools/lib/osc.py

HEADING = "## Control page (headless Chromium)"
TARGET = "control page"
SIZES = (8, 64)
ROUNDS = 5
CHANGES = 200
CHANGE_INTERVAL = 0.04  # 25 a second: under the 30 updates a second feedback is coalesced to
BUSY_SECONDS = 10

# Injected before the page's scripts (N and M replaced by the rig's size): records when the page first shows
# the whole rig, and stamps every aria-valuenow of /source/1/fader.
PROBE = """
(() => {
  const probe = window.__probe = { populated: null, stamps: [] };
  const n = N, m = M;
  const check = () => {
    if (probe.populated !== null) return;
    if (!document.querySelector('[data-connection="open"]')) return;
    if (document.querySelectorAll('[data-address^="/matrix/"][aria-pressed]').length < n * m) return;
    const faders = document.querySelectorAll('[role="slider"][data-address$="/fader"][data-address^="/source/"]');
    if (faders.length < n || [...faders].some(f => !f.hasAttribute('aria-valuenow'))) return;
    probe.populated = performance.now();
  };
  const watch = () => {
    new MutationObserver(records => {
      for (const r of records) {
        const t = r.target;
        if (r.attributeName === 'aria-valuenow' && t.dataset && t.dataset.address === '/source/1/fader') {
          probe.stamps.push([t.getAttribute('aria-valuenow'), performance.timeOrigin + performance.now()]);
        }
      }
      check();
    }).observe(document, { subtree: true, childList: true, attributes: true,
                           attributeFilter: ['aria-valuenow', 'aria-pressed', 'data-connection'] });
  };
  if (document.documentElement) watch(); else document.addEventListener('readystatechange', watch, { once: true });
})();
"""


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1920,1080"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def load(driver, url, inputs, outputs, timeout=30):
    """Loads the page fresh and returns the ms from navigation start to fully populated."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": PROBE.replace("N, m = M", f"{inputs}, m = {outputs}")})
    driver.get("about:blank")
    driver.get(url)
    deadline = time.time() + timeout
    while time.time() < deadline:
        populated = driver.execute_script("return window.__probe && window.__probe.populated")
        if populated is not None:
            return populated
        time.sleep(0.05)
    raise RuntimeError(f"the page did not show the whole {inputs}x{outputs} rig within {timeout} s")


def change_delays(driver, osc_port):
    """Delays (ms) from sendto() of each fader value to the page's DOM showing it."""
    client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sent = {}
    driver.execute_script("window.__probe.stamps = []")
    for k in range(CHANGES):
        position = round(0.2 + 0.6 * k / CHANGES, 4)
        sent[position] = time.time() * 1000
        client.sendto(osc.message("/source/1/fader", float(position)), ("127.0.0.1", osc_port))
        time.sleep(CHANGE_INTERVAL)
    time.sleep(0.5)
    stamps = driver.execute_script("return window.__probe.stamps")
    delays = []
    for value, at in stamps:
        try:
            position = round(float(value), 4)
        except (TypeError, ValueError):
            continue
        if position in sent:
            delays.append(at - sent.pop(position))
    return delays, len(sent)


def busy_share(driver, seconds):
    driver.execute_cdp_cmd("Performance.enable", {})

    def task_seconds():
        metrics = driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")
    before, started = task_seconds(), time.time()
    time.sleep(seconds)
    return (task_seconds() - before) / (time.time() - started)


def page_benchmark(binary, probe, workdir, rig_class, size, log):
    rig = rig_class(workdir, realtime=True)
    driver = None
    try:
        tone = rig.start([probe, "tone", "600"], "tone-page") if probe else None
        serve = rig.serve(binary, size, size, 0, f"serve-page-{size}", extra=("--no-advertise",))
        port = discovery.http_port(f"{workdir}/serve-page-{size}.log")
        if tone:
            rig.wait_for_port("xp_tone:out")
            for n in range(1, size + 1):
                rig.connect("xp_tone:out", f"crosspoint:in_{n}")
        driver = browser()
        url = f"http://127.0.0.1:{port}/page/"
        loads = [load(driver, url, size, size) for _ in range(ROUNDS)]
        delays, lost = change_delays(driver, rig.osc_port)
        busy = busy_share(driver, BUSY_SECONDS) if size == 64 else None
        result = {"size": size, "load_ms": loads, "delays_ms": delays, "lost": lost, "busy": busy,
                  "serve_alive": serve.poll() is None, "tone": bool(tone),
                  "chromium": driver.capabilities.get("browserVersion", "?")}
        log(f"page {size}x{size}: populated in {statistics.median(loads):.0f} ms (median of {ROUNDS}); OSC → DOM "
            f"median {statistics.median(delays):.1f} ms, p99 {p99(delays):.1f} ms ({lost} values not shown)"
            + (f"; main thread busy {busy * 100:.1f} %" if busy is not None else ""))
        return result
    finally:
        if driver:
            driver.quit()
        rig.close()


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


def page_benchmarks(binary, probe, workdir, rig_class, log, sizes=SIZES):
    return [page_benchmark(binary, probe, workdir, rig_class, size, log) for size in sizes]


def page_report(results, binary, verdict):
    lines, targets = [HEADING, ""], []
    add = lines.append
    add(f"`{binary} serve` on a private `jackd -R`, the page at `/page/` in headless Chromium "
        f"{results[0]['chromium']} driven by Selenium (tools/bench/page.py). Populated: from navigation start to "
        "the first moment the page is connected, shows every matrix cell and every source fader's position "
        f"(median of {ROUNDS} fresh loads). OSC → DOM: {CHANGES} `/source/1/fader` values from a UDP client, one "
        f"every {CHANGE_INTERVAL * 1000:.0f} ms; the page's `aria-valuenow` stamped by a MutationObserver on the "
        "wall clock, minus the time read before `sendto()`. Main thread: Chrome's `TaskDuration` over "
        f"{BUSY_SECONDS} s at 64x64 with meters at 20 Hz and a tone on every input.")
    add("")
    add("| rig | populated, median ms | min | max | OSC → DOM median ms | p99 ms | values not shown (coalesced) | main thread busy |")
    add("|---|---|---|---|---|---|---|---|")
    for r in results:
        busy = f"{r['busy'] * 100:.1f} %" if r["busy"] is not None else "—"
        add(f"| {r['size']}x{r['size']} | {statistics.median(r['load_ms']):.0f} | {min(r['load_ms']):.0f} | "
            f"{max(r['load_ms']):.0f} | {statistics.median(r['delays_ms']):.1f} | {p99(r['delays_ms']):.1f} | "
            f"{r['lost']} | {busy} |")
        if r["size"] == 64:
            value = statistics.median(r["load_ms"]) / 1000
            targets.append((f"{TARGET}: fully populated at 64x64, s", value, 1, value <= 1))
            value = r["busy"] * 100
            targets.append((f"{TARGET}: main thread busy at 64x64 with meters, %", value, 25, value <= 25))
    worst = max(p99(r["delays_ms"]) for r in results)
    targets.append((f"{TARGET}: OSC change to DOM, p99 ms", worst, 50, worst <= 50))
    add("")
    add("```sh")
    add("scripts/bench --only page    # this section alone")
    add("```")
    add("")
    return lines, targets
