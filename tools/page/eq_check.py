#!/usr/bin/env python3
"""Drives a strip's EQ view and an output's limiter meter (issue 36) in a real
headless Chromium (Selenium) against a running `crosspoint serve`, and prints
what it saw as JSON (the last line of stdout).

    eq_check.py eq --http-port P --osc-port O

The rig is set up by the caller (the test): source 1's EQ with some bands on,
output 1's limiter on and taking gain off a tone. The scenario:

  eq   before opening: no EQ control of source 1 in the document; source 1's
       "EQ" button (its aria-expanded), opened with Enter from the keyboard;
       the view's controls (their data-address) and the curve it drew
       (`canvas.curve`: dB at 121 frequencies, 20 Hz to 20 kHz evenly in
       octaves); band 1's gain raised with ArrowUp twice and Enter in its
       field: the rig's /source/1/eq/1/gain; the curve again; output 1's
       limiter meter (its bar, 0 to 1 for 0 to 20 dB taken off); the view
       closed with Enter: its controls gone.

Everything it starts is ended by PID on exit (page_driver.Browsers).
"""
import os
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import argument_parser, play, rig_settled, settled, wait_loaded, wait_until

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from osc import Client as OSCClient  # tools/lib/osc.py

BUTTON = 'section.strip.source[data-channel="1"] .eq-toggle'
CONTROLS = "return [...document.querySelectorAll('[data-address^=\"/source/1/\"]')].map((e) => e.dataset.address)" \
           ".filter((a) => /\\/(eq|hpf)\\//.test(a))"
CURVE = "return document.querySelector('section.strip.source[data-channel=\"1\"] canvas.eq-curve')?.curve ?? null"
METER = "const m = document.querySelector('xp-meter[kind=\"limiter\"][channel=\"1\"]');" \
        "return m ? Number(getComputedStyle(m).getPropertyValue('--peak') || 0) : null"


def scenario_eq(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    before = driver.execute_script(CONTROLS)
    button = driver.find_element(By.CSS_SELECTOR, BUTTON)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
    closed = button.get_attribute("aria-expanded")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    opened = wait_until(lambda: button.get_attribute("aria-expanded") == "true" and driver.execute_script(CURVE))
    controls = driver.execute_script(CONTROLS)
    curve = driver.execute_script(CURVE)
    gain = driver.find_element(By.CSS_SELECTOR, '[data-address="/source/1/eq/1/gain"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", gain)
    ActionChains(driver).send_keys(Keys.ARROW_UP, Keys.ARROW_UP, Keys.ENTER).perform()
    rig_gain = rig_settled(osc, "/source/1/eq/1/gain", 1.0)
    # The curve drawn again once the rig's value came back: the first that differs
    # may be one drawn for a step on the way (the first ArrowUp's 0.5 dB), so the
    # one kept is the curve once it has stayed the same for 300 ms.
    wait_until(lambda: (lambda c: c if c and c != curve else None)(driver.execute_script(CURVE)), timeout=5)
    raised = settled(lambda: driver.execute_script(CURVE))
    meter = wait_until(lambda: (lambda v: v if v and v > 0.5 else None)(driver.execute_script(METER)), timeout=5)
    driver.execute_script("arguments[0].focus()", button)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    time.sleep(0.2)
    return {"loaded": loaded, "before": before, "closed": closed, "opened": bool(opened), "controls": controls,
            "curve": curve, "rig_gain": rig_gain, "raised": raised, "meter": meter or driver.execute_script(METER),
            "after": driver.execute_script(CONTROLS), "expanded_after": button.get_attribute("aria-expanded"),
            "name": button.accessible_name}


SCENARIOS = {"eq": scenario_eq}


def main():
    parser = argument_parser(__doc__, SCENARIOS)
    args = parser.parse_args()
    args.url = f"http://{args.host}:{args.http_port}/"
    play(args, SCENARIOS, OSCClient(args.osc_port))


if __name__ == "__main__":
    main()
