#!/usr/bin/env python3
"""Drives the personal mix built from the catalogue (issue 33) and a linked pair's balance title in a real
headless Chromium (Selenium), and prints what it saw as JSON (the last line of stdout).

    mix_reach_check.py SCENARIO --http-port P --osc-port O [--code C] [--outputs 5,6] [--engineer 127.0.0.2]

Scenarios:
  delay    (MixPageTests' access file, a phone) the code's mix: each output's delay field (type, accessible
           name, range, operable, its section); "12.5" typed into the first output's and Enter (the rig's
           value); the engineer sets 40 ms (the field follows)
  far      (the same, on a 256x256 rig) the mix's element counts once loaded; source 200's row into the
           first output scrolled to, its fader built, End on it (the rig's value); a focused fader (source 3)
           stays built while the window goes to the bottom, and ArrowUp still moves it; from source 1's fader
           into the second output, Tab x255 and Shift+Tab x2 (the focused control, in view below the bar or
           not); the element counts after each
  balance  (no access file: the engineer's page, 64 sources) sources 61-62 linked before the page opens;
           sources 1 and 3's pans; 1-2 linked by the OSC client; strip 61 built by the Sources' jump; 61-62
           unlinked; strip 1 built again by the jump: at each step the pans' aria-label and the browser's
           own accessible name

Everything it starts is ended by PID on exit (page_driver.Browsers). Nothing is judged here: the Swift
test (MixPageReachTests) asserts on the JSON and the rig.
"""
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import element, keys, rig_near, rig_settled, slider_now, until, \
    wait_loaded, wait_until
from mix_check import log_in, mix_arguments, mix_loaded, open_page, play_mix
from reach_check import FOCUSED
from size_check import press


COUNTS = """
return {document: document.getElementsByTagName('*').length, mix: document.querySelectorAll('#mix *').length,
        faders: document.querySelectorAll('#mix xp-fader').length,
        pending: document.querySelectorAll('#mix .mix-row[data-pending]').length};
"""

# A delay field in the mix: what it is and where.
FIELD = """
const f = document.querySelector(`#mix input[data-address="${arguments[0]}"]`);
if (!f) return null;
const r = f.getBoundingClientRect();
return {type: f.type, label: f.getAttribute('aria-label'), min: f.min, max: f.max, step: f.step, disabled: f.disabled,
        value: f.value, section: f.closest('section[data-output]')?.dataset.output ?? null, height: r.height,
        inside: r.left >= 0 && r.right <= innerWidth, text: f.closest('label')?.textContent.trim() ?? null};
"""

# A pending row of the mix, by output and source: its attributes.
ROW = """
const row = document.querySelector(`#mix section[data-output="${arguments[0]}"] .mix-row[data-source="${arguments[1]}"]`);
return row && {pending: row.hasAttribute('data-pending'), role: row.getAttribute('role'),
               label: row.getAttribute('aria-label'), tabindex: row.getAttribute('tabindex')};
"""


def logged_in(browsers, args):
    """The page logged in with the code, once the mix shows: every output's level, and the first
    output's fader for source 1 with its value (at 256 sources the other outputs' are far below)."""
    driver, decided = open_page(browsers, args)
    log_in(driver, args.code)
    loaded = mix_loaded(driver, args.outputs[:1]) and wait_until(lambda: driver.execute_script(
        "return arguments[0].every((m) => document.querySelector(`[data-address=\"/output/${m}/fader\"]`))",
        args.outputs))
    return driver, bool(decided and loaded)


def counts(driver):
    time.sleep(0.5)  # the observer's rows built and emptied
    return driver.execute_script(COUNTS)


def scenario_delay(browsers, osc, engineer, args):
    driver, loaded = logged_in(browsers, args)
    fields = {m: driver.execute_script(FIELD, f"/output/{m}/delay") for m in args.outputs}
    address = f"/output/{args.outputs[0]}/delay"
    field = element(driver, address)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("12.5", Keys.ENTER)
    typed = rig_near(osc, address, 12.5)
    engineer.send(address, 40.0)
    followed = until(lambda: driver.execute_script(FIELD, address)["value"], lambda v: v == "40", timeout=5)
    return {"loaded": loaded, "fields": {str(m): v for m, v in fields.items()}, "typed": typed,
            "followed": followed, "rig_after": rig_near(osc, address, 40.0)}


def scenario_far(browsers, osc, engineer, args):
    first, second = args.outputs
    driver, loaded = logged_in(browsers, args)
    result = {"loaded": loaded, "counts": {"loaded": counts(driver)},
              "pending_row": driver.execute_script(ROW, first, 200)}

    # Scrolled to: source 200's row into the first output is built, and its fader works.
    far = f"/matrix/200/{first}/fader"
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
                          f'#mix section[data-output="{first}"] .mix-row[data-source="200"]')
    built = bool(wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-address="{far}"][aria-valuenow]'),
                            timeout=5))
    before = slider_now(driver, far) if built else None
    if built:
        keys(driver, far, Keys.END)
    result["far"] = {"built": built, "before": before, "after": slider_now(driver, far) if built else None,
                     "rig": rig_near(osc, far, 1.0) if built else None, "label": driver.execute_script(
                         "return document.getElementById(document.querySelector(`[data-address=\"${arguments[0]}\"]`)"
                         "?.getAttribute('aria-labelledby'))?.textContent ?? null", far)}
    result["counts"]["far"] = counts(driver)

    # A focused fader stays built however far the window goes.
    kept = f"/matrix/3/{first}/fader"
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
                          f'#mix section[data-output="{first}"] .mix-row[data-source="3"]')
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-address="{kept}"]'), timeout=5)
    keys(driver, kept)
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    time.sleep(1.0)
    still = driver.execute_script("return document.activeElement?.dataset.address ?? null")
    press(driver, Keys.ARROW_UP)
    result["kept"] = {"focused": still, "after": slider_now(driver, kept), "rig": rig_near(osc, kept, 0.01),
                      "source_2_pending": driver.execute_script(ROW, first, 2)["pending"]}

    # Tab walks every source: from source 1's fader into the second output to source 256's, and back.
    start = f"/matrix/1/{second}/fader"
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
                          f'#mix section[data-output="{second}"] .mix-row[data-source="1"]')
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-address="{start}"]'), timeout=5)
    keys(driver, start)
    press(driver, *[Keys.TAB] * 255)
    time.sleep(0.3)
    result["tab"] = driver.execute_script(FOCUSED)
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB, Keys.TAB).key_up(Keys.SHIFT).perform()
    time.sleep(0.3)
    result["shift_tab"] = driver.execute_script(FOCUSED)
    result["counts"]["tab"] = counts(driver)
    return result


def pan_names(driver, sources):
    names = {}
    for n in sources:
        found = driver.find_elements(By.CSS_SELECTOR, f'[data-address="/source/{n}/pan"]')
        names[str(n)] = {"label": found[0].get_attribute("aria-label"), "name": found[0].accessible_name} \
            if found else None
    return names


def scenario_balance(browsers, osc, engineer, args):
    osc.send("/source/61/link", 1)
    rig_settled(osc, "/source/61/link", 1)
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    balance = lambda n: f"Sources {n} and {n + 1} balance"

    def titled(n, title):
        return until(lambda: pan_names(driver, [n]), lambda v: v[str(n)] and v[str(n)]["label"] == title, timeout=5)

    def jump(n):
        field = driver.find_element(By.CSS_SELECTOR, '#sources input[data-strips="jump"]')
        field.clear()
        field.send_keys(str(n), Keys.ENTER)
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-address="/source/{n}/pan"]'), timeout=5)

    steps = {"start": pan_names(driver, [1, 3])}
    osc.send("/source/1/link", 1)
    steps["linked_1"] = titled(1, balance(1))
    jump(61)
    steps["jumped_61"] = pan_names(driver, [61])
    osc.send("/source/61/link", 0)
    steps["unlinked_61"] = titled(61, "Source 61 pan")
    jump(1)
    steps["back_1"] = pan_names(driver, [1])
    return {"loaded": loaded, "steps": steps}


SCENARIOS = {"delay": scenario_delay, "far": scenario_far, "balance": scenario_balance}


def main():
    play_mix(mix_arguments(__doc__, SCENARIOS), SCENARIOS)


if __name__ == "__main__":
    main()
