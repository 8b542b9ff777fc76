#!/usr/bin/env python3
"""Drives Crosspoint's control page at size (a 64x64 or 256x256 rig) in a real headless
Chromium (Selenium) against a running `crosspoint serve`, and prints what it saw as JSON.

    size_check.py --http-port P --osc-port O SCENARIO --inputs N --outputs M [--phone]

Scenarios (each prints one JSON object on the last line of stdout):
  ready       a fresh load: ms from navigation start to populated (tools/page/populated.js),
              the DOM's element count then, the cells and built strips in the document (a
              channel's or the master's; the DCA strips, all built, counted apart)
  far-cell    keyboard only, from /matrix/1/1: End, ArrowLeft x6, ArrowDown x(N-57), Space:
              the cell focused at each step, whether it is in the view, the rig's value
  find        the overview, the jump and the filters: a tap on the overview's bottom right
              corner, a jump to "nosuch", then "bass" and "250" in the jump fields, then
              "bass" in the inputs' filter (the test names an input "Bass DI" first)
  unreadable  the preset list with a file the rig cannot read (the test writes it): its
              recall button's marks, the error shown on focus, a click that recalls nothing

Everything it starts (chromedriver, Chromium) is ended by PID on exit, also on failure or
SIGTERM. No result is judged here: the Swift tests (PageSizeTests) assert on the JSON and the rig.
"""
import os
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import argument_parser, play, attribute, rig_value, wait_until

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from osc import Client as OSCClient  # tools/lib/osc.py

POPULATED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "populated.js")

# What the matrix shows now: the focused cell, whether it is inside the scroll box's view (clear of the heads),
# the cells, row heads and strips in the document.
MATRIX = """
const scroller = document.querySelector('xp-matrix .matrix-scroll');
const view = scroller.getBoundingClientRect();
const style = getComputedStyle(scroller);
const head = { w: parseFloat(style.getPropertyValue('--head-width')), h: parseFloat(style.getPropertyValue('--head-height')) };
const focused = document.activeElement;
const inView = (e) => { if (!e) return false; const r = e.getBoundingClientRect();
  return r.left >= view.left + head.w - 1 && r.right <= view.right + 1 && r.top >= view.top + head.h - 1 && r.bottom <= view.bottom + 1; };
return {
  focused: focused?.dataset?.address ?? null,
  focused_in_view: inView(focused),
  cells: document.querySelectorAll('xp-matrix .cell').length,
  rows: [...document.querySelectorAll('xp-matrix .row-head')].map((e) => Number(e.dataset.input)),
  shown: document.querySelector('xp-matrix').dataset.shown ?? null,
  scroll: [scroller.scrollTop, scroller.scrollLeft],
  elements: document.getElementsByTagName('*').length,
  built_strips: document.querySelectorAll('.strip:not(.dca):not([data-pending])').length,
  strips: document.querySelectorAll('.strip.source, .strip.output, .strip.master').length,
  dca_strips: document.querySelectorAll('.strip.dca').length,
  overview_hidden: document.querySelector('xp-matrix .matrix-overview')?.hidden ?? null,
  col_head_font_px: parseFloat(getComputedStyle(document.querySelector('xp-matrix .col-head .head-number')).fontSize),
  col_head_name_font_px: parseFloat(getComputedStyle(document.querySelector('xp-matrix .col-head .head-name')).fontSize),
  col_head_writing_mode: getComputedStyle(document.querySelector('xp-matrix .col-head')).writingMode,
};
"""


def open_page(browsers, args):
    """A browser that loads the page with the populated probe in it; the ms to populated, or None."""
    driver = browsers.open("about:blank")
    if getattr(args, "laptop", False) and not args.phone:
        driver.set_window_size(1280, 800)  # headless: a 1280x657 viewport, as a laptop's browser window
    if args.phone:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    with open(POPULATED) as file:
        script = file.read().replace("INPUTS", str(args.inputs)).replace("OUTPUTS", str(args.outputs))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    driver.get(args.url)
    populated = wait_until(lambda: driver.execute_script("return window.__probe && window.__probe.populated"),
                           timeout=30)
    return driver, populated


def matrix(driver):
    return driver.execute_script(MATRIX)


def press(driver, *pressed):
    ActionChains(driver).send_keys(*pressed).perform()


def scenario_ready(browsers, osc, args):
    driver, populated = open_page(browsers, args)
    probe = driver.execute_script("return window.__probe")
    return {"populated_ms": populated, "elements_at_populated": probe.get("elements"), **matrix(driver)}


def scenario_far_cell(browsers, osc, args):
    driver, populated = open_page(browsers, args)
    driver.execute_script("document.querySelector('[data-address=\"/matrix/1/1\"]').focus()")
    steps = {"start": matrix(driver)}
    press(driver, Keys.END)
    steps["end"] = matrix(driver)
    press(driver, *[Keys.ARROW_LEFT] * 6)
    steps["left"] = matrix(driver)
    down = args.inputs - 57
    for start in range(0, down, 20):  # in batches: one long chain of key events is slow to build
        press(driver, *[Keys.ARROW_DOWN] * min(20, down - start))
    steps["down"] = matrix(driver)
    target = steps["down"]["focused"]
    press(driver, Keys.SPACE)
    pressed = wait_until(lambda: attribute(driver, target, "aria-pressed") == "true", timeout=5) if target else False
    rig = wait_until(lambda: (lambda v: v if v else None)(rig_value(osc, target)), timeout=5) if target else None
    return {"populated_ms": populated, "steps": steps, "target": target, "pressed": bool(pressed), "rig": rig,
            "after": matrix(driver)}


# The overview's canvas in the viewport: [left, top, right, bottom].
OVERVIEW_RECT = """
const r = document.querySelector('xp-matrix .matrix-overview canvas').getBoundingClientRect();
return [r.left, r.top, r.right, r.bottom];
"""


def tap_overview_corner(driver, corner):
    """Taps 3 px inside the overview's bottom right corner, at viewport coordinates taken once
    the canvas has held its place for 0.2 s (the page may still be laying out around it), then
    waits up to 5 s for the corner cell. A tap the map never heard (no pointerdown reached it:
    the driver's, not the page's) is tapped again, once. What the matrix shows then, with the
    taps: where, what was under the pointer, and how many pointerdowns the map heard."""
    driver.execute_script("""
      const box = document.querySelector('xp-matrix .matrix-overview');
      window.__overviewTaps = 0;
      box.addEventListener('pointerdown', () => { window.__overviewTaps += 1; });
      box.scrollIntoView({block: 'center'});""")
    taps = []
    shown = False
    while len(taps) < 2 and not shown and driver.execute_script("return window.__overviewTaps") == 0:
        placed = {"last": None}

        def held():
            now = driver.execute_script(OVERVIEW_RECT)
            still, placed["last"] = now == placed["last"], now
            return still

        wait_until(held, timeout=5, interval=0.2)
        left, top, right, bottom = placed["last"]
        x, y = int(right) - 3, int(bottom) - 3
        under = driver.execute_script(
            "const e = document.elementFromPoint(arguments[0], arguments[1]);"
            "return e ? e.outerHTML.slice(0, 120) : null", x, y)
        tap = ActionBuilder(driver)
        tap.pointer_action.move_to_location(x, y).click()
        tap.perform()
        shown = bool(wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-address="{corner}"]'),
                                timeout=5))
        taps.append({"at": [x, y], "canvas": placed["last"], "under": under,
                     "heard": driver.execute_script("return window.__overviewTaps")})
    return {**matrix(driver), "corner_cell": shown, "taps": taps,
            "heard": driver.execute_script("return window.__overviewTaps"),
            "viewport": driver.execute_script("return [innerWidth, innerHeight]")}


def scenario_find(browsers, osc, args):
    driver, populated = open_page(browsers, args)
    result = {"populated_ms": populated, "before": matrix(driver)}
    # The overview: a tap near its bottom right corner moves the view there.
    result["overview"] = tap_overview_corner(driver, f"/matrix/{args.inputs}/{args.outputs}")
    # A jump to a name nobody has: said, and nothing moves.
    field = driver.find_element(By.CSS_SELECTOR, 'input[data-matrix="jump-input"]')
    field.send_keys("nosuch", Keys.ENTER)
    time.sleep(0.2)
    result["not_found"] = driver.execute_script(
        "const s = document.querySelector('.matrix-jump [role=\"status\"]');"
        "return {text: s?.textContent ?? null, marked: document.querySelector('.matrix-tools').hasAttribute('data-not-found')}")
    field.clear()
    # The jump: an input by the start of its name, an output by number.
    field.send_keys("bass")
    driver.find_element(By.CSS_SELECTOR, 'input[data-matrix="jump-output"]').send_keys("250", Keys.ENTER)
    time.sleep(0.2)
    result["jump"] = matrix(driver)
    # The inputs' filter.
    driver.find_element(By.CSS_SELECTOR, 'input[data-matrix="filter-inputs"]').send_keys("bass")
    wait_until(lambda: matrix(driver)["shown"] != f"{args.inputs}x{args.outputs}", timeout=5)
    time.sleep(0.2)
    result["filter"] = matrix(driver)
    return result


UNREADABLE = """
const button = document.querySelector(`[data-address="/preset/recall/${arguments[0]}"]`);
if (!button) return null;
const tip = document.getElementById(button.getAttribute('aria-describedby') ?? '');
return {unreadable: button.hasAttribute('data-unreadable'), disabled: button.getAttribute('aria-disabled'),
        tip: tip?.textContent ?? null, tip_role: tip?.getAttribute('role') ?? null,
        tip_shown: tip ? getComputedStyle(tip).display !== 'none' : false};
"""


def scenario_unreadable(browsers, osc, args):
    driver, populated = open_page(browsers, args)
    marked = wait_until(lambda: (lambda v: v if v and v["unreadable"] else None)(
        driver.execute_script(UNREADABLE, "broken")), timeout=5)
    good = driver.execute_script(UNREADABLE, "good")
    button = driver.find_element(By.CSS_SELECTOR, '[data-address="/preset/recall/broken"]')
    hidden_before = driver.execute_script(UNREADABLE, "broken")
    driver.execute_script("arguments[0].focus()", button)
    focused = driver.execute_script(UNREADABLE, "broken")
    button.click()
    time.sleep(0.5)
    return {"populated_ms": populated, "marked": marked, "good": good, "before_focus": hidden_before,
            "on_focus": focused, "current": osc.query("/preset/current")}


SCENARIOS = {
    "ready": scenario_ready,
    "far-cell": scenario_far_cell,
    "find": scenario_find,
    "unreadable": scenario_unreadable,
}


def main(doc=__doc__, scenarios=SCENARIOS):
    """Plays a scenario of these (reach_check.py's too) on a rig of --inputs x --outputs."""
    parser = argument_parser(doc, scenarios)
    parser.add_argument("--inputs", type=int, required=True)
    parser.add_argument("--outputs", type=int, required=True)
    parser.add_argument("--phone", action="store_true", help="a phone's screen, 390x844")
    args = parser.parse_args()
    args.url = f"http://{args.host}:{args.http_port}/page/"
    play(args, scenarios, OSCClient(args.osc_port))


if __name__ == "__main__":
    main()
