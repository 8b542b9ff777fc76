"""What the page drivers (page_check.py, mix_check.py, group_check.py, resize_check.py, …) share:
headless Chromium instances that are ended by PID, finding, reading and operating the page's controls
by their OSC address, the rig's value of an address (over OSC, tools/lib/osc.py), waiting on the page
and on the rig until what they show holds, the command line every driver takes, and its report (one
JSON line)."""
import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import ElementClickInterceptedException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

CHROMIUM = os.environ.get("CROSSPOINT_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CROSSPOINT_CHROMEDRIVER", "/usr/bin/chromedriver")
TIMEOUT = 20.0


class Browsers:
    """Headless Chromium instances, each with its own profile; quit() ends
    every process they started, by PID."""

    def __init__(self):
        self.drivers = []
        self.profiles = []
        self.pids = set()

    def open(self, url):
        profile = tempfile.mkdtemp(prefix="crosspoint-page-")
        self.profiles.append(profile)
        options = Options()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", f"--user-data-dir={profile}",
                     "--disable-background-timer-throttling", "--disable-renderer-backgrounding"):
            options.add_argument(flag)
        # The console, for what the page's Content-Security-Policy refused.
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=CHROMEDRIVER)
        driver = webdriver.Chrome(service=service, options=options)
        self.drivers.append(driver)
        self.pids.add(service.process.pid)
        self.pids.update(descendants(service.process.pid))
        driver.get(url)
        return driver

    def quit(self):
        for driver in self.drivers:
            try:
                self.pids.update(descendants(driver.service.process.pid))
            except Exception:
                pass
        for driver in self.drivers:
            try:
                driver.quit()
            except Exception:
                pass
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for profile in self.profiles:
            shutil.rmtree(profile, ignore_errors=True)


def descendants(pid):
    """Every process below pid, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def wait_until(predicate, timeout=TIMEOUT, interval=0.02):
    """Polls predicate until it returns something truthy; returns the last value."""
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = predicate()
    return value


def settled(read, still=0.3, timeout=5, interval=0.05):
    """What `read()` gives once it has stayed the same for `still` seconds (or its last value after the timeout)."""
    deadline = time.monotonic() + timeout
    value, since = read(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(interval)
        now = read()
        if now != value:
            value, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            break
    return value


def until(read, predicate, timeout=10):
    """What `read()` gives once predicate holds for it (or what it gives after the timeout); a value
    that is false itself (0) counts too."""
    found = wait_until(lambda: (lambda v: (v,) if predicate(v) else None)(read()), timeout=timeout)
    return found[0] if found else read()


def stored(driver, address, value, timeout=10):
    """Until the page's store holds this value at the address; whether it came."""
    return bool(wait_until(lambda: driver.execute_script(
        "return window.crosspoint.store.value(arguments[0]) === arguments[1]", address, value), timeout=timeout))


def attribute(driver, address, name):
    return driver.execute_script(
        "const e = document.querySelector(`[data-address=\"${arguments[0]}\"]`);"
        "return e ? e.getAttribute(arguments[1]) : null;", address, name)


def element(driver, address):
    return driver.find_element(By.CSS_SELECTOR, f'[data-address="{address}"]')


def connection(driver):
    return driver.execute_script("return document.documentElement.dataset.connection")


def wait_loaded(driver):
    """Until the page is connected and has built its strips."""
    return wait_until(lambda: connection(driver) == "open" and driver.execute_script(
        "return document.querySelectorAll('xp-fader[data-address^=\"/source/\"]').length > 0"
        " && document.querySelectorAll('#presets .preset-list').length > 0"))


def keys(driver, address, *pressed):
    target = element(driver, address)
    driver.execute_script("arguments[0].focus()", target)
    ActionChains(driver).send_keys(*pressed).perform()


def step_down(driver, address):
    """A slider moved from the keyboard: ArrowDown five times, then PageDown twice. Its value before,
    after the arrows, and after."""
    before = slider_now(driver, address)
    keys(driver, address, *[Keys.ARROW_DOWN] * 5)
    after_arrows = slider_now(driver, address)
    keys(driver, address, Keys.PAGE_DOWN, Keys.PAGE_DOWN)
    return before, after_arrows, slider_now(driver, address)


SNAPSHOT = """
const read = (sel, fn) => Object.fromEntries([...document.querySelectorAll(sel)].map(e => [e.dataset.address, fn(e)]));
return {
  connection: document.documentElement.dataset.connection,
  access: document.documentElement.dataset.access ?? null,
  size: document.documentElement.dataset.size ?? null,
  names: read('input[data-address$="/name"]', e => e.value),
  sliders: read('[role="slider"][data-address]', e => ({
      now: Number(e.getAttribute('aria-valuenow')), text: e.getAttribute('aria-valuetext'),
      min: e.getAttribute('aria-valuemin'), max: e.getAttribute('aria-valuemax'),
      disabled: e.getAttribute('aria-disabled'), tabindex: e.getAttribute('tabindex')})),
  switches: read('[role="switch"][data-address]', e => ({
      checked: e.getAttribute('aria-checked'), disabled: e.getAttribute('aria-disabled')})),
  cells: read('xp-matrix .cell', e => ({
      pressed: e.getAttribute('aria-pressed'), label: e.getAttribute('aria-label'),
      disabled: e.getAttribute('aria-disabled')})),
  presets: [...document.querySelectorAll('[data-address^="/preset/recall/"]')].map(e => e.dataset.address),
  current: document.querySelector('#presets .current-name')?.textContent ?? null,
  status: Object.fromEntries([...document.querySelectorAll('[data-status]')].map(e => [e.dataset.status, e.textContent])),
};
"""


def snapshot(driver):
    return driver.execute_script(SNAPSHOT)


def slider_now(driver, address):
    value = attribute(driver, address, "aria-valuenow")
    return None if value is None else float(value)


def near(a, b, tolerance=1e-3):
    return a is not None and b is not None and abs(a - b) <= tolerance


def scroll_to(driver, address):
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element(driver, address))


def click(driver, address, tries=10):
    """Scrolls a control to the middle and clicks it as a user would (at its
    centre, so whatever lies on top gets the click). While the page is still
    laying out (the matrix's heads are placed after the names arrive), a head
    can lie over a cell for a moment: then it waits and tries again."""
    for attempt in range(tries):
        scroll_to(driver, address)
        try:
            element(driver, address).click()
            return
        except ElementClickInterceptedException:
            if attempt == tries - 1:
                raise
            time.sleep(0.2)


def rig_value(osc, address):
    reply = osc.query(address)
    return reply[0] if reply else None


def rig_reply(osc, address, predicate, timeout=5):
    """The rig's reply to a query of the address (its arguments) once it has some and predicate holds
    for them (or the reply after the timeout)."""
    return until(lambda: osc.query(address), lambda v: bool(v) and predicate(v), timeout)


def rig_settled(osc, address, expected, timeout=5):
    """The rig's value of an address once it is `expected` (or what it is after the timeout)."""
    return until(lambda: rig_value(osc, address), lambda v: v == expected, timeout)


def rig_near(osc, address, expected, timeout=5):
    """The rig's value of an address once it is near `expected` (or what it is after the timeout)."""
    return until(lambda: rig_value(osc, address), lambda v: near(v, expected), timeout)


def print_report(scenario, result, browsers):
    """Prints a scenario's result as one JSON line, with the browsers' console errors."""
    try:
        result["console_errors"] = [entry["message"] for driver in browsers.drivers
                                    for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    except Exception:
        pass
    print(json.dumps({"scenario": scenario, **result}), flush=True)


def play(args, scenarios, osc, *others):
    """Plays `args.scenario` with fresh browsers and these OSC clients (`osc`, then any `others`, before
    `args`), prints its report, and ends every browser and closes every client, also on failure or SIGTERM."""
    browsers = Browsers()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        print_report(args.scenario, scenarios[args.scenario](browsers, osc, *others, args), browsers)
    finally:
        browsers.quit()
        for client in (osc, *others):
            client.close()


def argument_parser(doc, scenarios):
    """The arguments every page driver takes: a scenario, the rig's ports, the browser's host."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=sorted(scenarios))
    parser.add_argument("--http-port", type=int, required=True)
    parser.add_argument("--osc-port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1", help="the address the browser loads the page from")
    return parser



def main_with_other(doc, scenarios):
    """A driver's main whose scenarios take the rig's client and another's (`--other`, the address it
    sends from): parses the arguments, plays the scenario, prints its report."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
    from osc import Client  # tools/lib/osc.py
    parser = argument_parser(doc, scenarios)
    parser.add_argument("--other", default="127.0.0.2", help="the address another client sends from")
    args = parser.parse_args()
    args.url = f"http://{args.host}:{args.http_port}/"
    play(args, scenarios, Client(args.osc_port), Client(args.osc_port, bind=args.other))
