#!/usr/bin/env python3
"""Drives the control page's groups (issue 25: DCAs and mute groups) in a real
headless Chromium (Selenium) against a running `crosspoint serve`, and prints
what it saw as JSON (the last line of stdout).

    group_check.py SCENARIO --http-port P --osc-port O [--other 127.0.0.2]

Changes "from another client" are sent over OSC from a socket bound to
--other; the rig's values are asked over OSC from a socket of its own.
Scenarios (a rig of 4 sources with the default 8 DCAs and 8 mute groups,
except `none`):

  dca-keyboard  the Groups section as built (the DCA strips and their
                controls, the mute-group buttons: role, aria-checked, their
                computed accessible names); /dca/1/fader focused, ArrowDown x5
                and PageDown x2 (0.75 -> 0.70 -> 0.50); the rig's /dca/1/fader
                and /dca/1/db
  mute-group    mute group 1 named "Vocals" with sources 1 and 3, DCA 2 named
                "Band" with source 2 (set over OSC before the page opens); a
                click on the /mutegroup/1/mute button: the rig's group mute,
                every source strip's data-group-muted, badge and own mute
                switch, the rig's /source/1/mute; Space on it again: cleared;
                then a click on DCA 2's mute (/dca/2/mute) and again
  membership    source 3's "Groups" disclosure: closed (no switch in it),
                opened with Enter from the keyboard; its switches and their
                accessible names; Space on /source/3/dca/2 and a click on
                /source/3/mutegroup/1: the rig's memberships; the summary's count
  osc-to-page   with the page open, another client sends /mutegroup/2/name
                "Horns", /mutegroup/2/mute 1, /source/4/mutegroup/2 1,
                /dca/1/name "Drums", /dca/1/fader 0.5: the page shows each
                (the button named "Horns" and on, strip 4 marked, the DCA's
                name and fader) without a reload; then /source/4/mutegroup/2 0
  none          a rig started with --dcas 0 --mute-groups 0: the Groups section
                and its link hidden, no group or membership control in the
                document, no "Groups" disclosure shown (also once forced open)

Everything it starts is ended by PID on exit (page_driver.Browsers).
"""
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import main_with_other, attribute, element, keys, near, rig_near, rig_settled, rig_value, \
    slider_now, step_down, stored, until, wait_loaded, wait_until


# Every source strip's groups: its mark, its badge (text, shown), its own mute, its disclosure.
STRIPS = """
return Object.fromEntries([...document.querySelectorAll('section.strip.source[data-channel]')].map((strip) => {
  const n = strip.dataset.channel;
  const badge = strip.querySelector(':scope > .group-mute');
  const details = strip.querySelector(':scope > details.memberships');
  return [n, {
    group_muted: strip.dataset.groupMuted ?? null,
    badge: badge ? badge.textContent : null,
    badge_shown: badge ? badge.checkVisibility({visibilityProperty: true}) : false,
    own_mute: strip.querySelector(`[data-address="/source/${n}/mute"]`)?.getAttribute('aria-checked') ?? null,
    groups_shown: details ? details.checkVisibility() : false,
    groups_open: details ? details.open : false,
    summary: details ? details.querySelector('summary').textContent : null,
    switches: [...strip.querySelectorAll('[data-address^="/source/"][role="switch"]')]
      .map((s) => s.dataset.address).filter((a) => /\\/(dca|mutegroup)\\/\\d+$/.test(a)),
  }];
}));
"""

# The Groups section: what is shown, and every group control.
SECTION = """
const shown = (selector) => document.querySelector(selector)?.checkVisibility() ?? false;
const controls = (prefix) => [...document.querySelectorAll(`[data-address^="${prefix}"]`)].map((e) => ({
  address: e.dataset.address, tag: e.tagName.toLowerCase(), role: e.getAttribute('role'),
  checked: e.getAttribute('aria-checked'), text: e.tagName === 'INPUT' ? e.value : e.textContent,
  valuetext: e.getAttribute('aria-valuetext'), tabindex: e.getAttribute('tabindex')}));
return {
  section: shown('#groups'), link: shown('#status nav a[href="#groups"]'),
  dcas_shown: shown('#dcas'), mutegroups_shown: shown('#mutegroups'),
  dca_strips: [...document.querySelectorAll('#dcas section.strip.dca')].map((s) => ({
    group: s.dataset.group, label: s.getAttribute('aria-label'),
    addresses: [...s.querySelectorAll('[data-address]')].map((e) => e.dataset.address),
    meters: s.querySelectorAll('xp-meter').length})),
  mutegroups: controls('/mutegroup/'), dcas: controls('/dca/'), safes: controls('/safe/dca/'),
  memberships: [...document.querySelectorAll('[data-address^="/source/"]')]
    .map((e) => e.dataset.address).filter((a) => /\\/(dca|mutegroup)\\/\\d+$/.test(a)),
  status: {dcas: window.crosspoint.store.value('/status/dcas') ?? null,
           mute_groups: window.crosspoint.store.value('/status/mute_groups') ?? null},
};
"""


def strips(driver):
    return driver.execute_script(STRIPS)


def section(driver):
    return driver.execute_script(SECTION)


def names(driver, selector):
    """The computed accessible name and role (the browser's own, by WebDriver) of each element."""
    return {e.get_attribute("data-address"): {"name": e.accessible_name, "role": e.aria_role}
            for e in driver.find_elements(By.CSS_SELECTOR, selector)}


def groups_loaded(driver):
    """Until the page is loaded and shows its groups (the rig said how many)."""
    return bool(wait_loaded(driver)) and bool(wait_until(lambda: driver.execute_script(
        "return window.crosspoint.store.value('/status/dcas') !== undefined"
        " && document.querySelector('[data-address=\"/dca/1/fader\"][aria-valuenow]') !== null"), timeout=10))


def click(driver, address):
    target = element(driver, address)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    target.click()


def scenario_dca_keyboard(browsers, osc, other, args):
    driver = browsers.open(args.url)
    loaded = groups_loaded(driver)
    built = section(driver)
    mute_names = names(driver, '[data-address^="/mutegroup/"][role="switch"]')
    address = "/dca/1/fader"
    before, after_arrows, after = step_down(driver, address)
    rig = rig_near(osc, address, after)
    return {"loaded": loaded, "built": built, "mute_names": mute_names,
            "fader_name": names(driver, f'[data-address="{address}"]').get(address),
            "before": before, "after_arrows": after_arrows, "after": after,
            "valuetext": attribute(driver, address, "aria-valuetext"),
            "focused": driver.execute_script("return document.activeElement?.dataset?.address ?? null"),
            "rig": rig, "rig_db": rig_value(osc, "/dca/1/db")}


def marked(driver, members, mark):
    """The strips once every one of `members` has data-group-muted == mark."""
    return until(lambda: strips(driver), lambda v: all(v.get(str(n), {}).get("group_muted") == mark for n in members))


def scenario_mute_group(browsers, osc, other, args):
    for message in (("/mutegroup/1/name", "Vocals"), ("/source/1/mutegroup/1", 1), ("/source/3/mutegroup/1", 1),
                    ("/dca/2/name", "Band"), ("/source/2/dca/2", 1)):
        other.send(*message)
    rig_settled(osc, "/source/2/dca/2", 1)
    driver = browsers.open(args.url)
    loaded = groups_loaded(driver) and stored(driver, "/source/2/dca/2", 1) and stored(driver, "/mutegroup/1/name", "Vocals")
    button = "/mutegroup/1/mute"
    before = {"strips": marked(driver, [1, 2, 3, 4], "0"), "button": attribute(driver, button, "aria-checked"),
              "name": names(driver, f'[data-address="{button}"]').get(button)}
    # A click mutes the group.
    click(driver, button)
    muted = {"rig": rig_settled(osc, button, 1), "button": attribute(driver, button, "aria-checked"),
             "strips": marked(driver, [1, 3], "1"), "rig_own_mute": rig_value(osc, "/source/1/mute"),
             "rig_own_mute_3": rig_value(osc, "/source/3/mute")}
    # Space on the focused button unmutes it.
    keys(driver, button, Keys.SPACE)
    unmuted = {"rig": rig_settled(osc, button, 0), "button": attribute(driver, button, "aria-checked"),
               "strips": marked(driver, [1, 3], "0")}
    # A DCA's mute marks its members the same way.
    click(driver, "/dca/2/mute")
    dca = {"rig": rig_settled(osc, "/dca/2/mute", 1), "strips": marked(driver, [2], "1"),
           "rig_own_mute": rig_value(osc, "/source/2/mute")}
    click(driver, "/dca/2/mute")
    dca_off = {"rig": rig_settled(osc, "/dca/2/mute", 0), "strips": marked(driver, [2], "0")}
    return {"loaded": loaded, "before": before, "muted": muted, "unmuted": unmuted, "dca": dca, "dca_off": dca_off}


def scenario_membership(browsers, osc, other, args):
    driver = browsers.open(args.url)
    loaded = groups_loaded(driver)
    closed = until(lambda: strips(driver), lambda v: v.get("3", {}).get("groups_shown"))["3"]
    # From the keyboard: the summary is focusable, Enter opens the disclosure.
    summary = driver.find_element(By.CSS_SELECTOR, 'section.strip.source[data-channel="3"] details.memberships summary')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", summary)
    summary_focused = driver.execute_script("return document.activeElement === arguments[0]", summary)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    opened = until(lambda: strips(driver), lambda v: len(v.get("3", {}).get("switches", [])) > 0)["3"]
    switch_names = names(driver, 'section.strip.source[data-channel="3"] xp-switch.membership')
    # Tab from the summary reaches the first switch.
    driver.execute_script("arguments[0].focus()", summary)
    ActionChains(driver).send_keys(Keys.TAB).perform()
    tabbed = driver.execute_script("return document.activeElement?.dataset?.address ?? null")
    keys(driver, "/source/3/dca/2", Keys.SPACE)
    dca = rig_settled(osc, "/source/3/dca/2", 1)
    click(driver, "/source/3/mutegroup/1")
    mutegroup = rig_settled(osc, "/source/3/mutegroup/1", 1)
    after = until(lambda: strips(driver), lambda v: v.get("3", {}).get("summary", "").endswith("(2)"), timeout=5)
    return {"loaded": loaded, "closed": closed, "summary_focused": summary_focused, "opened": opened,
            "switch_names": switch_names, "tabbed": tabbed,
            "checked": {a: attribute(driver, a, "aria-checked") for a in ("/source/3/dca/2", "/source/3/mutegroup/1",
                                                                          "/source/3/dca/1")},
            "rig": {"dca": dca, "mutegroup": mutegroup, "other": rig_value(osc, "/source/3/dca/1"),
                    "source_4": rig_value(osc, "/source/4/dca/2")},
            "after": after["3"], "others": {n: v for n, v in after.items() if n != "3"}}


def scenario_osc_to_page(browsers, osc, other, args):
    other.send("/source/4/mutegroup/2", 0)
    driver = browsers.open(args.url)
    loaded = groups_loaded(driver)
    driver.execute_script("window.__groupMark = 'before'")
    before = {"strip": strips(driver).get("4"), "button": attribute(driver, "/mutegroup/2/mute", "aria-checked")}
    for message in (("/mutegroup/2/name", "Horns"), ("/mutegroup/2/mute", 1), ("/source/4/mutegroup/2", 1),
                    ("/dca/1/name", "Drums"), ("/dca/1/fader", 0.5)):
        other.send(*message)
    button = "/mutegroup/2/mute"
    seen = bool(wait_until(lambda: attribute(driver, button, "aria-checked") == "true"
                           and driver.execute_script(
                               "return document.querySelector('[data-address=\"/dca/1/name\"]').value") == "Drums"
                           and near(slider_now(driver, "/dca/1/fader"), 0.5)
                           and strips(driver)["4"]["group_muted"] == "1", timeout=10))
    after = {"button": attribute(driver, button, "aria-checked"),
             "button_name": names(driver, f'[data-address="{button}"]').get(button),
             "dca_name": driver.execute_script("return document.querySelector('[data-address=\"/dca/1/name\"]').value"),
             "dca_fader": slider_now(driver, "/dca/1/fader"),
             "dca_valuetext": attribute(driver, "/dca/1/fader", "aria-valuetext"),
             "strips": strips(driver), "reloaded": driver.execute_script("return window.__groupMark !== 'before'")}
    other.send("/source/4/mutegroup/2", 0)
    left = marked(driver, [4], "0")
    return {"loaded": loaded, "before": before, "seen": seen, "after": after, "left": left["4"],
            "rig": {"mute": rig_value(osc, button), "own_mute": rig_value(osc, "/source/4/mute"),
                    "dca_db": rig_value(osc, "/dca/1/db")}}


def rig_status(osc, fields, timeout=5.0):
    """These fields of the rig's /status reply ({field: value}; those that did not come, missing)."""
    osc.send("/status")
    found, deadline = {}, time.monotonic() + timeout
    while time.monotonic() < deadline and len(found) < len(fields):
        for address, values in osc.receive():
            field = address.removeprefix("/status/")
            if field in fields and values:
                found[field] = values[0]
    return found


def scenario_none(browsers, osc, other, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    # Until the page has heard the rig's counts (0), so what follows is what it built from them.
    heard = bool(wait_until(lambda: driver.execute_script(
        "return window.crosspoint.store.value('/status/dcas') === 0"
        " && window.crosspoint.store.value('/status/mute_groups') === 0"), timeout=10))
    time.sleep(0.3)
    built = section(driver)
    shown = strips(driver)
    # A disclosure forced open still has nothing in it.
    driver.execute_script("for (const d of document.querySelectorAll('details.memberships')) d.open = true")
    time.sleep(0.3)
    forced = section(driver)["memberships"]
    return {"loaded": loaded, "heard": heard, "built": built, "strips": shown, "forced": forced,
            "rig": rig_status(osc, ["dcas", "mute_groups"])}


SCENARIOS = {"dca-keyboard": scenario_dca_keyboard, "mute-group": scenario_mute_group,
             "membership": scenario_membership, "osc-to-page": scenario_osc_to_page, "none": scenario_none}


if __name__ == "__main__":
    main_with_other(__doc__, SCENARIOS)
