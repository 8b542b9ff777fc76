#!/usr/bin/env python3
"""Drives Crosspoint's control page on a big rig (256x256) in a real headless Chromium (Selenium) to check
that what the keyboard reaches is seen, and prints what it saw as JSON (issue 34).

    reach_check.py --http-port P --osc-port O reach --inputs N --outputs M [--phone]

Without --phone the window is a laptop's, 1280x800 (a 1280x657 viewport); with it a phone, 390x844.
The test names source 200 "Bass DI" and output 119 "Wedge 3" first. One scenario, `reach`:
  first     a fresh load at the top: the status bar's bottom, the first source strip's fader, meter,
            mute and solo (rectangles), the bar's height with an alert line shown and the menu open
  matrix    keyboard only, from the matrix's cell in the tab order: Ctrl+Home, ArrowDown x199,
            ArrowRight x199, Space (the rig's value before and after), Home, End, then the jump
            (input "bass", output "wedge"), then Tab from "Go" back into a grid scrolled away: at each
            step the focused cell, its rectangle, whether it is wholly in the viewport below the bar
            and clear of the matrix's sticky heads; the rig's value of the cell Space toggled
  heads     every column head in the document: its output's name and the head's accessible name (the
            browser's own computed label), and whether "Wedge 3" and "out_120" show whole
  strips    the strip jump: source 1's "More" opened by a click, "200" in the Sources' jump (then the
            focused element and whether it is in view; strip 1 emptied), "1" (strip 1 built again, its
            "More" still open), "wedge" in the Outputs' jump, "bass" in the Sources' filter (the strips
            it keeps)

Everything it starts (chromedriver, Chromium) is ended by PID on exit, also on failure or SIGTERM. No
result is judged here: the Swift test (PageReachTests) asserts on the JSON and the rig.
"""
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import rig_settled, rig_value, wait_until
from size_check import main, open_page, press

# The focused element: its address, rectangle, and whether it lies wholly in the viewport below the status
# bar (and, in the matrix, clear of the sticky heads inside the scroll box).
FOCUSED = """
const e = document.activeElement;
const bar = document.getElementById('status').getBoundingClientRect().bottom;
const r = e.getBoundingClientRect();
const inViewport = r.left >= 0 && r.right <= innerWidth && r.top >= bar && r.bottom <= innerHeight;
const scroller = e.closest('.matrix-scroll');
let clearOfHeads = null;
if (scroller) {
  const v = scroller.getBoundingClientRect(), s = getComputedStyle(scroller);
  const w = parseFloat(s.getPropertyValue('--head-width')), h = parseFloat(s.getPropertyValue('--head-height'));
  clearOfHeads = r.left >= v.left + w - 1 && r.right <= v.right + 1 && r.top >= v.top + h - 1 && r.bottom <= v.bottom + 1;
}
return {focused: e.dataset?.address ?? null, rect: [r.left, r.top, r.right, r.bottom].map(Math.round),
        bar_bottom: Math.round(bar), viewport: [innerWidth, innerHeight], in_viewport: inViewport,
        clear_of_heads: clearOfHeads, elements: document.getElementsByTagName('*').length};
"""

RECT = """
const e = document.querySelector(arguments[0]);
if (!e) return null;
const r = e.getBoundingClientRect();
return [r.left, r.top, r.right, r.bottom].map(Math.round);
"""

# Says the state cannot be saved; once the line shows, the status bar's rectangle.
ALERT = """
window.crosspoint.store.set('/status/state_saved', [0, 'no room left on the device']);
const line = document.querySelector('[data-status="state-saved"]');
if (!line.checkVisibility()) return null;
const r = document.getElementById('status').getBoundingClientRect();
return [r.left, r.top, r.right, r.bottom].map(Math.round);
"""

HEAD = """
const head = arguments[0], name = head.querySelector('.head-name');
return {output: Number(head.dataset.output), text: name.textContent,
        whole: name.scrollHeight <= name.clientHeight + 1 && name.scrollWidth <= name.clientWidth + 1,
        lines: Math.round(name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight))};
"""


def focused(driver):
    return driver.execute_script(FOCUSED)


def rect(driver, selector):
    return driver.execute_script(RECT, selector)


def first_screen(driver):
    driver.execute_script("window.scrollTo(0, 0)")
    wait_until(lambda: driver.execute_script(
        "return !!document.querySelector('[data-address=\"/source/1/solo\"]')"), timeout=10)
    seen = {"viewport": driver.execute_script("return [innerWidth, innerHeight]"),
            "bar_bottom": rect(driver, "#status")[3]}
    for name, selector in {"fader": 'xp-fader[data-address="/source/1/fader"]',
                           "meter": 'section.strip.source[data-channel="1"] xp-meter',
                           "mute": '[data-address="/source/1/mute"]', "solo": '[data-address="/source/1/solo"]',
                           "more": 'section.strip.source[data-channel="1"] details.strip-more'}.items():
        seen[name] = rect(driver, selector)
    # An alert line from the rig (here put into the page's store as the rig's reply would be; set again at each
    # look, as the rig's own /status, polled every 1.5 s, says it is saved) shows under the bar.
    alert = wait_until(lambda: driver.execute_script(ALERT), timeout=5)
    seen["alert_shown"] = bool(alert)
    seen["bar_with_alert"] = alert
    driver.execute_script("window.crosspoint.store.set('/status/state_saved', [1, ''])")
    wait_until(lambda: not driver.execute_script(
        "return document.querySelector('[data-status=\"state-saved\"]').checkVisibility()"), timeout=5)
    # The menu: on a phone "☰" shows the rest of the bar (the section links); on a laptop it is all there.
    toggle = driver.find_element(By.CSS_SELECTOR, "#status .status-toggle")
    seen["toggle_shown"] = toggle.is_displayed()
    seen["links_before"] = driver.find_element(By.CSS_SELECTOR, '#status a[href="#matrix"]').is_displayed()
    if seen["toggle_shown"]:
        toggle.click()
        seen["toggle_expanded"] = toggle.get_attribute("aria-expanded")
        seen["links_after"] = driver.find_element(By.CSS_SELECTOR, '#status a[href="#matrix"]').is_displayed()
        seen["bar_open"] = rect(driver, "#status")
        driver.find_element(By.CSS_SELECTOR, '#status a[href="#matrix"]').click()
        seen["toggle_after_link"] = toggle.get_attribute("aria-expanded")
    return seen


def matrix_keys(driver, osc, args):
    driver.execute_script("window.scrollTo(0, 0); document.querySelector('xp-matrix .cell[tabindex=\"0\"]').focus()")
    steps = {"start": focused(driver)}
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.HOME).key_up(Keys.CONTROL).perform()
    steps["ctrl_home"] = focused(driver)
    for start in range(0, 199, 20):  # in batches: one long chain of key events is slow to build
        press(driver, *[Keys.ARROW_DOWN] * min(20, 199 - start))
        if start == 20:
            steps["down_40"] = focused(driver)
    steps["down"] = focused(driver)
    for start in range(0, 199, 20):
        press(driver, *[Keys.ARROW_RIGHT] * min(20, 199 - start))
    steps["right"] = focused(driver)
    target = steps["right"]["focused"]
    before = rig_value(osc, target) if target else None
    press(driver, Keys.SPACE)
    toggled = rig_settled(osc, target, 0.0 if before else 1.0) if target else None
    press(driver, Keys.HOME)
    steps["home"] = focused(driver)
    press(driver, Keys.END)
    steps["end"] = focused(driver)
    # The jump: input by the start of a name, output by a name.
    driver.execute_script("window.scrollTo(0, 0)")
    jump = driver.find_element(By.CSS_SELECTOR, 'input[data-matrix="jump-input"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", jump)
    jump.send_keys("bass")
    driver.find_element(By.CSS_SELECTOR, 'input[data-matrix="jump-output"]').send_keys("wedge", Keys.ENTER)
    wait_until(lambda: focused(driver)["focused"] == "/matrix/200/119", timeout=5)
    steps["jump"] = focused(driver)
    # Away and back by Tab: the grid scrolled to its top and the page to its top, then Tab from "Go" into the
    # grid reaches the cell in the tab order (still /matrix/200/119), wholly in view and clear of the heads.
    driver.execute_script("document.querySelector('xp-matrix .matrix-scroll').scrollTo(0, 0); window.scrollTo(0, 0);"
                          "document.querySelector('.matrix-jump button[type=submit]').focus()")
    press(driver, Keys.TAB)
    steps["tab_back"] = focused(driver)
    return {"steps": steps, "toggled": target, "rig_before": before, "rig": toggled}


def strip_jump(driver, selector, text):
    driver.execute_script("window.scrollTo(0, 0)")
    field = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.clear()
    field.send_keys(text, Keys.ENTER)
    wait_until(lambda: (focused(driver)["focused"] or "").endswith("/fader"), timeout=5)
    return focused(driver)


MORE = """
const strip = document.querySelector('section.strip.source[data-channel="1"]');
const more = strip.querySelector('details.strip-more');
return {pending: strip.hasAttribute('data-pending'), open: more ? more.open : null,
        patch_shown: strip.querySelector('select[data-address="/source/1/patch"]')?.checkVisibility() ?? false};
"""


def strips(driver):
    # Source 1's "More" opened by a tap; it is still open when the strip is built again after a far jump.
    summary = driver.find_element(By.CSS_SELECTOR, 'section.strip.source[data-channel="1"] details.strip-more summary')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    result = {"more_opened": driver.execute_script(MORE),
              "source": strip_jump(driver, '#sources input[data-strips="jump"]', "200"),
              "more_away": driver.execute_script(MORE)}
    strip_jump(driver, '#sources input[data-strips="jump"]', "1")
    result["more_back"] = driver.execute_script(MORE)
    result["output"] = strip_jump(driver, '#outputs input[data-strips="jump"]', "wedge")
    driver.find_element(By.CSS_SELECTOR, '#sources input[data-strips="filter"]').send_keys("bass")
    kept = lambda: driver.execute_script(
        "return [...document.querySelectorAll('#sources .strip[data-channel]:not([data-filtered])')]"
        ".map((s) => Number(s.dataset.channel))")
    result["filtered"] = wait_until(lambda: (lambda v: v if len(v) < 256 else None)(kept()), timeout=5) or kept()
    result["labels"] = {field.get_attribute("data-strips"): field.accessible_name
                        for field in driver.find_elements(By.CSS_SELECTOR, '#sources input[data-strips]')}
    return result


def heads(driver):
    """Each column head in the document, once the view has settled (two frames): what it shows, and its
    accessible name as the browser computes it; a head the view drops meanwhile is left out."""
    driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
    shown = []
    for head in driver.find_elements(By.CSS_SELECTOR, "xp-matrix .col-head"):
        try:
            shown.append({**driver.execute_script(HEAD, head), "accessible_name": head.accessible_name})
        except StaleElementReferenceException:
            pass
    return shown


def scenario_reach(browsers, osc, args):
    args.laptop = True
    driver, populated = open_page(browsers, args)
    result = {"populated_ms": populated, "first": first_screen(driver)}
    result["matrix"] = matrix_keys(driver, osc, args)
    result["heads"] = heads(driver)  # the view is at output 119 (the jump, then Tab back): Wedge 3 and its neighbours
    result["strips"] = strips(driver)
    return result


SCENARIOS = {"reach": scenario_reach}


if __name__ == "__main__":
    main(__doc__, SCENARIOS)
