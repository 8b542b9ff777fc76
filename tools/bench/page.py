"""The control page in headless Chromium, for BENCHMARKS.md (scripts/bench; `--only page` alone).

Against the real `crosspoint serve` on a private jackd, Chromium driven by
Selenium (chromium, chromium-driver, selenium from PyPI), headless:

- Time to a fully populated page, at 8x8, 64x64 and 256x256, on a desktop
  (1920x1080) and a phone (390x844, emulated: mobile, scale 2): from
  navigation start (the page's own performance clock) to the first moment
  the page holds the whole rig and shows what is in view: connected
  (`data-connection="open"`), laid out for the rig's size (`data-size`, a
  strip per channel), the page's store holding the state's corners (the
  last source's fader, the last crosspoint, the last output's fader, the
  master), and every control in the document showing it (each source
  fader an `aria-valuenow`, each matrix cell its level). The page builds
  only what is near view (docs/page.md), so that is what is checked. A
  script injected before the page's own
  (`Page.addScriptToEvaluateOnNewDocument`) checks on every DOM mutation;
  the median of ROUNDS fresh loads. With it, the DOM's element count and
  the JavaScript heap (CDP `Runtime.getHeapUsage`, after a collection).
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
SIZES = (8, 64, 256)
SCREENS = {"desktop": None, "phone": {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}}
ROUNDS = 5
CHANGES = 200
CHANGE_INTERVAL = 0.04  # 25 a second: under the 30 updates a second feedback is coalesced to
BUSY_SECONDS = 10

# Injected before the page's scripts: when the page is first populated, and a stamp per aria-valuenow of
# /source/1/fader (tools/page/populated.js, shared with the page tests).
PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "page", "populated.js")


def probe_script(inputs, outputs):
    with open(PROBE) as file:
        return file.read().replace("INPUTS", str(inputs)).replace("OUTPUTS", str(outputs))


def browser(screen):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1920,1080"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if SCREENS[screen]:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", SCREENS[screen])
    return driver


def load(driver, url, inputs, outputs, timeout=30):
    """Loads the page fresh; returns the ms from navigation start to fully populated, and the element count then."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": probe_script(inputs, outputs)})
    driver.get("about:blank")
    driver.get(url)
    deadline = time.time() + timeout
    while time.time() < deadline:
        probe = driver.execute_script("return window.__probe")
        if probe and probe.get("populated") is not None:
            return probe["populated"], probe["elements"]
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


def heap_mb(driver):
    """The page's JavaScript heap in use, MB, after a collection."""
    driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    return driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"] / 1e6


def busy_share(driver, seconds):
    driver.execute_cdp_cmd("Performance.enable", {})

    def task_seconds():
        metrics = driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")
    before, started = task_seconds(), time.time()
    time.sleep(seconds)
    return (task_seconds() - before) / (time.time() - started)


def page_benchmark(binary, probe, workdir, rig_class, size, log):
    """Every screen against one rig of this size."""
    rig = rig_class(workdir, realtime=True)
    drivers = []
    try:
        tone = rig.start([probe, "tone", "600"], "tone-page") if probe else None
        serve = rig.serve(binary, size, size, 0, f"serve-page-{size}", extra=("--no-advertise",))
        port = discovery.http_port(f"{workdir}/serve-page-{size}.log")
        if tone:
            rig.wait_for_port("xp_tone:out")
            for n in range(1, size + 1):
                rig.connect("xp_tone:out", f"crosspoint:in_{n}")
        url = f"http://127.0.0.1:{port}/page/"
        results = []
        for screen in SCREENS:
            driver = browser(screen)
            drivers.append(driver)
            rounds = [load(driver, url, size, size) for _ in range(ROUNDS)]
            loads = [ms for ms, _ in rounds]
            heap = heap_mb(driver)
            delays, lost = change_delays(driver, rig.osc_port)
            busy = busy_share(driver, BUSY_SECONDS) if size == 64 and screen == "desktop" else None
            result = {"size": size, "screen": screen, "load_ms": loads, "elements": max(e for _, e in rounds),
                      "heap_mb": heap, "delays_ms": delays, "lost": lost, "busy": busy,
                      "serve_alive": serve.poll() is None, "tone": bool(tone),
                      "chromium": driver.capabilities.get("browserVersion", "?")}
            log(f"page {size}x{size} {screen}: populated in {statistics.median(loads):.0f} ms (median of {ROUNDS}), "
                f"{result['elements']} elements, heap {heap:.1f} MB; OSC → DOM median {statistics.median(delays):.1f} ms, "
                f"p99 {p99(delays):.1f} ms ({lost} values not shown)"
                + (f"; main thread busy {busy * 100:.1f} %" if busy is not None else ""))
            results.append(result)
            driver.quit()
            drivers.remove(driver)
        return results
    finally:
        for driver in drivers:
            driver.quit()
        rig.close()


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


def page_benchmarks(binary, probe, workdir, rig_class, log, sizes=SIZES):
    return [result for size in sizes for result in page_benchmark(binary, probe, workdir, rig_class, size, log)]


def page_report(results, binary, verdict):
    lines, targets = [HEADING, ""], []
    add = lines.append
    add(f"`{binary} serve` on a private `jackd -R`, the page at `/page/` in headless Chromium "
        f"{results[0]['chromium']} driven by Selenium (tools/bench/page.py), on a desktop (1920x1080) and a phone "
        "(390x844, emulated). Populated: from navigation start to the first moment the page is connected, laid out "
        "for the rig's size, holds the whole state and shows it in every control in the document (the page builds "
        f"only what is near view: docs/page.md); median of {ROUNDS} fresh loads. Elements: the DOM's element count "
        "then (the most of the loads); heap: the JavaScript heap in use after a collection. OSC → DOM: "
        f"{CHANGES} `/source/1/fader` values from a UDP client, one every {CHANGE_INTERVAL * 1000:.0f} ms; the page's "
        "`aria-valuenow` stamped by a MutationObserver on the wall clock, minus the time read before `sendto()`. "
        f"Main thread: Chrome's `TaskDuration` over {BUSY_SECONDS} s at 64x64 on the desktop, with meters at 20 Hz "
        "and a tone on every input.")
    add("")
    add("| rig | screen | populated, median ms | min | max | elements | JS heap MB | OSC → DOM median ms | p99 ms "
        "| values not shown (coalesced) | main thread busy |")
    add("|---|---|---|---|---|---|---|---|---|---|---|")
    bounds = {64: 1, 256: 2}  # s, issue 22
    for r in results:
        busy = f"{r['busy'] * 100:.1f} %" if r["busy"] is not None else "—"
        add(f"| {r['size']}x{r['size']} | {r['screen']} | {statistics.median(r['load_ms']):.0f} | "
            f"{min(r['load_ms']):.0f} | {max(r['load_ms']):.0f} | {r['elements']} | {r['heap_mb']:.1f} | "
            f"{statistics.median(r['delays_ms']):.1f} | {p99(r['delays_ms']):.1f} | {r['lost']} | {busy} |")
        if r["size"] in bounds:
            value = statistics.median(r["load_ms"]) / 1000
            bound = bounds[r["size"]]
            targets.append((f"{TARGET}: fully populated at {r['size']}x{r['size']} ({r['screen']}), s", value, bound,
                            value <= bound))
        if r["size"] == 256:
            targets.append((f"{TARGET}: elements at 256x256 ({r['screen']})", r["elements"], 10000,
                            r["elements"] <= 10000))
        if r["busy"] is not None:
            value = r["busy"] * 100
            targets.append((f"{TARGET}: main thread busy at 64x64 with meters, %", value, 25, value <= 25))
    worst = max(p99(r["delays_ms"]) for r in results)
    targets.append((f"{TARGET}: OSC change to DOM, p99 ms (every size and screen)", worst, 100, worst <= 100))
    add("")
    add("```sh")
    add("scripts/bench --only page    # this section alone")
    add("```")
    add("")
    return lines, targets
