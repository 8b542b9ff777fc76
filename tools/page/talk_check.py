#!/usr/bin/env python3
"""Drives the control page's talk buttons and the engineer's listen (issue 37)
in a real headless Chromium (Selenium) against a running `crosspoint serve`,
and prints what it saw as JSON (the last line of stdout).

    talk_check.py SCENARIO --http-port P --osc-port O [--other 127.0.0.2]

Changes "from another client" are sent over OSC from a socket bound to
--other; the rig's values are asked over OSC from a socket of its own.
Scenarios (a rig with the default two talkbacks):

  talk     the status bar's talk buttons as built (address, aria-pressed,
           text); talkback 1's held by the pointer: the rig's
           /talkback/1/talk and the button while held, then let go; held
           with Space from the keyboard, then let go; a double tap (a press
           within 0.5 s of a tap's end): still talking after the release,
           until the next tap; another client's
           /talkback/2/talk 1 shown without a reload
  listen   the listen section as built; a click on output 2's listen switch
           (/output/2/listen): the rig's, the section's "Listening: …" text;
           output 2 named "Drums wedge" by another client: the text follows;
           then the other client puts source 1 in the listen (exclusive): the
           page's switches and text follow without a reload
  destinations  talkback 1's Destinations disclosure in the Talkbacks
           section, opened from the keyboard (Enter on its summary): a switch
           per output (address, role, name); a click on output 3's: the
           rig's /talkback/1/output/3 and the summary; another client's
           /talkback/1/output/4 1 shown without a reload; Space on output
           3's turns it off

Everything it starts is ended by PID on exit (page_driver.Browsers).
"""
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import attribute, click, keys, main_with_other, rig_settled, until, wait_loaded

BUTTONS = """
return [...document.querySelectorAll('#status button.talk')].map((b) => ({
  address: b.dataset.address, pressed: b.getAttribute('aria-pressed'), text: b.textContent,
  name: b.getAttribute('aria-label'), shown: b.checkVisibility()}));
"""

LISTEN = """
const section = document.querySelector('#listen');
return section ? {
  heading: section.querySelector('h2')?.textContent ?? null,
  text: section.querySelector('.listening')?.textContent ?? null,
  live: section.querySelector('.listening')?.getAttribute('aria-live') ?? null,
  controls: [...section.querySelectorAll('[data-address]')].map((e) => e.dataset.address),
} : null;
"""


def button(driver, t):
    return driver.find_element(By.CSS_SELECTOR, f'#status button.talk[data-address="/talkback/{t}/talk"]')


def pressed(driver, t):
    return button(driver, t).get_attribute("aria-pressed")


def state(driver, t):
    return {"pressed": pressed(driver, t), "text": button(driver, t).text}


def scenario_talk(browsers, osc, other, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    built = driver.execute_script(BUTTONS)
    talk = "/talkback/1/talk"
    result = {"loaded": loaded, "built": built}

    # Held by the pointer.
    chain = ActionChains(driver)
    chain.click_and_hold(button(driver, 1)).perform()
    result["held"] = {"rig": rig_settled(osc, talk, 1), "page": state(driver, 1)}
    time.sleep(0.3)
    result["still_held"] = rig_settled(osc, talk, 1, timeout=0.5)
    ActionChains(driver).release().perform()
    result["released"] = {"rig": rig_settled(osc, talk, 0), "page": until(lambda: state(driver, 1), lambda s: s["pressed"] == "false")}

    # Held with Space.
    driver.execute_script("arguments[0].focus()", button(driver, 1))
    ActionChains(driver).key_down(Keys.SPACE).perform()
    result["space_held"] = {"rig": rig_settled(osc, talk, 1), "page": state(driver, 1),
                            "focused": driver.execute_script("return document.activeElement?.dataset.address ?? null")}
    ActionChains(driver).key_up(Keys.SPACE).perform()
    result["space_released"] = rig_settled(osc, talk, 0)

    # A double tap latches, until the next tap.
    time.sleep(0.6)  # the Space press above, if short, was a tap: not the first of this double tap
    ActionChains(driver).double_click(button(driver, 1)).perform()
    time.sleep(0.3)
    result["latched"] = {"rig": rig_settled(osc, talk, 1), "page": state(driver, 1)}
    time.sleep(0.4)
    ActionChains(driver).click(button(driver, 1)).perform()
    result["unlatched"] = {"rig": rig_settled(osc, talk, 0), "page": until(lambda: state(driver, 1), lambda s: s["pressed"] == "false")}

    # Another client talks on talkback 2.
    other.send("/talkback/2/talk", 1)
    result["other"] = until(lambda: state(driver, 2), lambda s: s["pressed"] == "true")
    other.send("/talkback/2/talk", 0)
    result["other_stopped"] = until(lambda: state(driver, 2), lambda s: s["pressed"] == "false")
    return result


def scenario_listen(browsers, osc, other, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    result = {"loaded": loaded, "built": until(lambda: driver.execute_script(LISTEN), lambda l: l is not None)}
    text = lambda: driver.execute_script(LISTEN)["text"]
    click(driver, "/output/2/listen")
    result["clicked"] = {"rig": rig_settled(osc, "/output/2/listen", 1),
                         "switch": attribute(driver, "/output/2/listen", "aria-checked"),
                         "text": until(text, lambda t: "Output 2" in t)}
    other.send("/output/2/name", "Drums wedge")
    result["named"] = until(text, lambda t: "Drums wedge" in t)
    other.send("/source/1/listen", 1)
    result["other"] = {"text": until(text, lambda t: "Source 1" in t),
                       "source_switch": until(lambda: attribute(driver, "/source/1/listen", "aria-checked"), lambda v: v == "true"),
                       "output_switch": until(lambda: attribute(driver, "/output/2/listen", "aria-checked"), lambda v: v == "false"),
                       "rig_output": rig_settled(osc, "/output/2/listen", 0)}
    return result


DESTINATIONS = """
const details = document.querySelector('#kind-talkback section.strip.talkback[data-group="1"] details.destinations');
return details ? {
  open: details.open, summary: details.querySelector('summary').textContent,
  switches: [...details.querySelectorAll('xp-switch')].map((s) => ({
    address: s.dataset.address, role: s.getAttribute('role'), name: s.getAttribute('aria-label'),
    checked: s.getAttribute('aria-checked'), label: s.textContent})),
} : null;
"""


def scenario_destinations(browsers, osc, other, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    seen = lambda: driver.execute_script(DESTINATIONS)
    closed = until(seen, lambda d: d is not None)
    summary = driver.find_element(By.CSS_SELECTOR, '#kind-talkback section.strip.talkback[data-group="1"] details.destinations summary')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", summary)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    opened = until(seen, lambda d: d["open"] and len(d["switches"]) > 0)
    click(driver, "/talkback/1/output/3")
    clicked = {"rig": rig_settled(osc, "/talkback/1/output/3", 1),
               "summary": until(lambda: seen()["summary"], lambda t: "3" in t)}
    other.send("/talkback/1/output/4", 1)
    shown = until(seen, lambda d: any(s["address"] == "/talkback/1/output/4" and s["checked"] == "true" for s in d["switches"]))
    keys(driver, "/talkback/1/output/3", Keys.SPACE)
    spaced = {"rig": rig_settled(osc, "/talkback/1/output/3", 0),
              "summary": until(lambda: seen()["summary"], lambda t: "(4)" in t)}
    return {"loaded": loaded, "closed": closed, "opened": opened, "clicked": clicked, "other": shown, "spaced": spaced}


SCENARIOS = {"talk": scenario_talk, "listen": scenario_listen, "destinations": scenario_destinations}


if __name__ == "__main__":
    main_with_other(__doc__, SCENARIOS)
