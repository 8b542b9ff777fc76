#!/usr/bin/env python3
"""Drives Crosspoint's control page in a real headless Chromium (Selenium)
against a running `crosspoint serve`, and prints what it saw as JSON.

    page_check.py --http-port P --osc-port O SCENARIO [--host H] [--continue-file F]

Scenarios (each prints one JSON object on the last line of stdout):
  load            the page's view of the scene: names, fader positions, switches, cells, status
  keyboard-fader  ArrowDown x5 on /source/1/fader, then PageDown x2; the rig's value by OSC query
  osc-to-page     another client (this tool's UDP socket) sets /source/2/fader 0.3 and mute 1
  matrix-tap      a click on /matrix/1/2: aria-pressed before and after, the rig's value
  preset-recall   a click on /preset/recall/NAME (--preset NAME); the fader it restores
  two-pages       two browsers: a change on one shows on the other, both ways
  reconnect       prints {"phase": "open"} and waits for --continue-file (the test restarts
                  serve meanwhile); reports whether it saw "closed" and the resynced scene
  read-only       the page of a read-only client: controls disabled and inoperable
  held-fader      a mouse drags /source/1/fader and holds it; meanwhile this tool's UDP socket
                  sets it to 0.2; the page while held, then both page and rig after release
  error-note      a name with a tab pasted into /source/1/name (refused by the rig): the
                  /error note beside the field, its data-error, the note gone, the name after
  two-fingers     two touch pointers drag /source/1/fader up and /source/2/fader down at once
  patch-picker    source strips' presence (data-present) and /source/3/patch's picker (in its
                  strip's "More", opened by a click): its choices, then the player's first
                  port chosen; the rig's patch, presence after
  stereo-strip    a linked pair 1-2 (the test links it): one strip with two meters, the link
                  switches, ArrowDown on its fader and ArrowRight on its balance; the rig's values
  state-saved     prints {"phase": "unsaved"} with the status bar's line once the rig says it cannot
                  save its state (the test made the state's directory a file), waits for
                  --continue-file (the test mends it), then whether the line went
  state-note      the state file's note in the status bar (the test made the rig skip a field):
                  its text and role, then "Got it" clicked; whether it went, the rig's note after

Everything it starts (chromedriver, Chromium) is ended by PID on exit, also on
failure or SIGTERM. No result is judged here: the Swift tests assert on the
JSON and on the rig.
"""
import json
import os
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import argument_parser, play, attribute, click, connection, element, keys, near, rig_near, rig_reply, \
    rig_value, scroll_to, slider_now, snapshot, step_down, until, wait_loaded, wait_until

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from osc import Client as OSCClient  # tools/lib/osc.py


# --- Scenarios ----------------------------------------------------------------

def scenario_load(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    # The status bar fills from the first /status reply.
    wait_until(lambda: snapshot(driver)["status"].get("sample-rate") not in (None, "–"), timeout=5)
    refused = [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]
    return {"loaded": loaded, "refused_by_policy": refused, **snapshot(driver)}


def scenario_keyboard_fader(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    address = "/source/1/fader"
    before, after_arrows, after = step_down(driver, address)
    # Until the rig has it (or 5 s): the page's session sends at once.
    return {"loaded": loaded, "before": before, "after_arrows": after_arrows, "after": after,
            "valuetext": attribute(driver, address, "aria-valuetext"),
            "rig": rig_near(osc, address, after)}


def scenario_osc_to_page(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    before = slider_now(driver, "/source/2/fader")
    osc.send("/source/2/fader", 0.3)
    osc.send("/source/2/mute", 1)
    seen = wait_until(lambda: near(slider_now(driver, "/source/2/fader"), 0.3)
                      and attribute(driver, "/source/2/mute", "aria-checked") == "true", timeout=5)
    return {"loaded": loaded, "before": before, "seen": bool(seen),
            "after": slider_now(driver, "/source/2/fader"),
            "valuetext": attribute(driver, "/source/2/fader", "aria-valuetext"),
            "mute": attribute(driver, "/source/2/mute", "aria-checked")}


def scenario_matrix_tap(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    address = "/matrix/1/2"
    before = attribute(driver, address, "aria-pressed")
    element(driver, address).click()
    after = until(lambda: attribute(driver, address, "aria-pressed"), lambda v: v is not None and v != before, 5)
    rig = rig_reply(osc, address, lambda v: v[0] > 0)
    label = attribute(driver, address, "aria-label")
    # A second tap: back to 0, with Space this time (keyboard on a cell).
    keys(driver, address, Keys.SPACE)
    again = until(lambda: attribute(driver, address, "aria-pressed"), lambda v: v is not None and v != after, 5)
    rig_again = rig_reply(osc, address, lambda v: v[0] == 0)
    return {"loaded": loaded, "before": before, "after": after, "label": label,
            "rig": rig[0] if rig else None, "again": again, "rig_again": rig_again[0] if rig_again else None}


def scenario_preset_recall(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    address = f"/preset/recall/{args.preset}"
    listed = bool(wait_until(lambda: attribute(driver, address, "data-address"), timeout=5))
    before = slider_now(driver, "/source/1/fader")
    element(driver, address).click()
    seen = wait_until(lambda: near(slider_now(driver, "/source/1/fader"), args.expect, 0.002), timeout=10)
    current = wait_until(lambda: (lambda c: c if c == args.preset else None)(
        driver.execute_script("return document.querySelector('#presets .current-name').textContent")), timeout=5)
    return {"loaded": loaded, "listed": listed, "before": before, "seen": bool(seen),
            "after": slider_now(driver, "/source/1/fader"), "current": current}


def scenario_two_pages(browsers, osc, args):
    a = browsers.open(args.url)
    b = browsers.open(args.url)
    loaded = bool(wait_loaded(a)) and bool(wait_loaded(b))
    keys(a, "/source/1/fader", Keys.PAGE_DOWN)
    moved = slider_now(a, "/source/1/fader")
    b_saw = wait_until(lambda: near(slider_now(b, "/source/1/fader"), moved), timeout=5)
    b_before = attribute(b, "/source/2/mute", "aria-checked")
    element(b, "/source/2/mute").click()
    b_mute = wait_until(lambda: (lambda v: v if v != b_before else None)(attribute(b, "/source/2/mute", "aria-checked")),
                        timeout=5) or b_before
    a_saw = wait_until(lambda: attribute(a, "/source/2/mute", "aria-checked") == b_mute, timeout=5)
    return {"loaded": loaded, "moved": moved, "b_fader": slider_now(b, "/source/1/fader"), "b_saw": bool(b_saw),
            "b_mute": b_mute, "a_mute": attribute(a, "/source/2/mute", "aria-checked"), "a_saw": bool(a_saw)}


def scenario_reconnect(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    before = {"fader": slider_now(driver, "/source/1/fader"),
              "name": driver.execute_script("return document.querySelector('[data-address=\"/source/1/name\"]').value")}
    print(json.dumps({"phase": "open", **before}), flush=True)
    saw_closed = False
    deadline = time.monotonic() + 60
    while not os.path.exists(args.continue_file) and time.monotonic() < deadline:
        saw_closed = saw_closed or connection(driver) == "closed"
        time.sleep(0.02)
    saw_closed = saw_closed or connection(driver) == "closed"
    reopened = bool(wait_until(lambda: connection(driver) == "open", timeout=15))
    resynced = wait_until(lambda: near(slider_now(driver, "/source/1/fader"), args.expect), timeout=10)
    return {"loaded": loaded, "before": before, "saw_closed": saw_closed, "reopened": reopened,
            "resynced": bool(resynced), **snapshot(driver)}


def scenario_read_only(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    marked = bool(wait_until(lambda: driver.execute_script(
        "return document.documentElement.dataset.access === 'read-only'"), timeout=5))
    before = snapshot(driver)
    # Try to operate: keys on a fader, a click on a cell and on a mute.
    keys(driver, "/source/1/fader", Keys.PAGE_UP)
    # Each scrolled to the middle first (`click`): a control left just under
    # the sticky status bar (two lines tall for a read-only page) is in view
    # but covered.
    for address in ("/matrix/1/2", "/source/1/mute"):
        click(driver, address)
    time.sleep(0.3)  # let any (wrong) change reach the rig before the test asks it
    after = snapshot(driver)
    return {"loaded": loaded, "marked": marked, "before": before, "after": after}


def scenario_held_fader(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    address = "/source/1/fader"
    scroll_to(driver, address)
    fader = element(driver, address)
    before = slider_now(driver, address)
    # Press, drag 60 px down (relative: 60 / track length of the range), and hold.
    ActionChains(driver).move_to_element(fader).click_and_hold().move_by_offset(0, 30).move_by_offset(0, 30).perform()
    held = attribute(driver, address, "data-held") is not None
    dragged = slider_now(driver, address)
    # The page's session sends the value while held: the rig has it.
    rig_dragged = rig_near(osc, address, dragged)
    # Another client moves the same fader, then a second parameter as a marker:
    # once the page shows the marker, the rig's feedback for the 0.2 (had it
    # been sent to the page's session) has been received and drawn too.
    osc.send(address, 0.2)
    rig_other = rig_near(osc, address, 0.2)
    osc.send("/source/2/mute", 1)
    marker = bool(wait_until(lambda: attribute(driver, "/source/2/mute", "aria-checked") == "true", timeout=5))
    while_held = slider_now(driver, address)
    still_held = attribute(driver, address, "data-held") is not None
    ActionChains(driver).release().perform()
    released = attribute(driver, address, "data-held") is None
    # After the release the rig sends the value once: page and rig agree.
    agree = bool(wait_until(lambda: near(slider_now(driver, address), rig_value(osc, address)), timeout=5))
    return {"loaded": loaded, "before": before, "held": held, "dragged": dragged,
            "rig_dragged": rig_dragged, "rig_other": rig_other, "marker": marker,
            "while_held": while_held, "still_held": still_held, "released": released, "agree": agree,
            "after": slider_now(driver, address), "rig_after": rig_value(osc, address)}


ERROR_NOTE = """
const note = document.querySelector(`[role="alert"][data-error-for="${arguments[0]}"]`);
if (!note) return null;
const control = document.querySelector(`[data-address="${arguments[0]}"]`);
const at = note.getBoundingClientRect(), by = control.getBoundingClientRect();
return {text: note.textContent, className: note.className, visible: at.width > 0 && at.height > 0,
        dx: at.left - by.left, dy: at.top - by.bottom};
"""


def scenario_error_note(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    address = "/source/1/name"
    scroll_to(driver, address)
    field = element(driver, address)
    before = field.get_attribute("value")
    rig_before = rig_value(osc, address)
    # Paste a name with a tab in it (as from a spreadsheet), then Enter.
    field.click()
    driver.execute_script("arguments[0].select()", field)
    driver.execute_cdp_cmd("Input.insertText", {"text": args.name})
    typed = field.get_attribute("value")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    note = wait_until(lambda: driver.execute_script(ERROR_NOTE, address), timeout=5)
    shown_at = time.monotonic()
    marked = attribute(driver, address, "data-error")
    gone = bool(wait_until(lambda: driver.execute_script(ERROR_NOTE, address) is None, timeout=8))
    shown_for = time.monotonic() - shown_at
    unmarked = attribute(driver, address, "data-error") is None
    rig_after = rig_value(osc, address)
    # The field shows the rig's name again, not the refused one.
    wait_until(lambda: field.get_attribute("value") == rig_after, timeout=5)
    return {"loaded": loaded, "before": before, "rig_before": rig_before, "typed": typed, "note": note,
            "marked": marked, "gone": gone, "shown_for": round(shown_for, 2), "unmarked": unmarked,
            "rig_after": rig_after, "after": field.get_attribute("value"),
            "stored": driver.execute_script("return window.crosspoint.store.value(arguments[0])", address)}


STATE_NOTE = """
const note = document.querySelector('[data-status="state-note"]');
if (!note || note.hidden) return null;
const box = note.getBoundingClientRect();
return {text: note.textContent.trim().replace(/\\s+/g, ' '), role: note.getAttribute('role'),
        visible: box.width > 0 && box.height > 0};
"""


def scenario_state_note(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    shown = wait_until(lambda: driver.execute_script(STATE_NOTE), timeout=8)
    driver.find_element("css selector", '[data-status="state-note-ack"]').click()
    gone = bool(wait_until(lambda: driver.execute_script(STATE_NOTE) is None, timeout=8))
    return {"loaded": loaded, "shown": shown, "gone": gone,
            "rig_after": osc.query("/status", answer="/status/state_note")}


STATE_SAVED = """
const line = document.querySelector('[data-status="state-saved"]');
return line && !line.hidden ? {text: line.textContent, role: line.getAttribute('role')} : null;
"""


def scenario_state_saved(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    shown = wait_until(lambda: driver.execute_script(STATE_SAVED), timeout=15)
    print(json.dumps({"phase": "unsaved", "shown": shown}), flush=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(args.continue_file) and time.monotonic() < deadline:
        time.sleep(0.05)
    gone = bool(wait_until(lambda: driver.execute_script(STATE_SAVED) is None, timeout=15))
    return {"loaded": loaded, "shown": shown, "gone": gone}


def scenario_two_fingers(browsers, osc, args):
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.mouse_button import MouseButton

    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    one, two = "/source/1/fader", "/source/2/fader"
    scroll_to(driver, one)
    before = {one: slider_now(driver, one), two: slider_now(driver, two)}
    builder = ActionBuilder(driver)
    fingers = [(builder.add_pointer_input(interaction.POINTER_TOUCH, "finger1"), element(driver, one), -1),
               (builder.add_pointer_input(interaction.POINTER_TOUCH, "finger2"), element(driver, two), 1)]
    # Tick by tick, both fingers at once: land, three moves of 16 px (finger 1
    # up, finger 2 down), lift.
    for finger, target, _ in fingers:
        finger.create_pointer_move(duration=0, origin=target)
    for finger, _, _ in fingers:
        finger.create_pointer_down(button=MouseButton.LEFT)
    for _ in range(3):
        for finger, _, direction in fingers:
            finger.create_pointer_move(duration=100, x=0, y=16 * direction, origin="pointer")
    for finger, _, _ in fingers:
        finger.create_pointer_up(MouseButton.LEFT)
    builder.perform()
    after = {one: slider_now(driver, one), two: slider_now(driver, two)}
    rig = {}

    def settled():
        rig.update({one: rig_value(osc, one), two: rig_value(osc, two)})
        return all(near(slider_now(driver, a), rig[a]) for a in (one, two))

    agree = bool(wait_until(settled, timeout=5))
    return {"loaded": loaded, "before": before, "after": after, "agree": agree, "rig": rig,
            "page": {one: slider_now(driver, one), two: slider_now(driver, two)}}

PICKER = """
const select = document.querySelector('select[data-address="/source/3/patch"]');
const strips = Object.fromEntries([...document.querySelectorAll('[data-source]')].map(e => [e.dataset.source, e.dataset.present ?? null]));
return {strips, dimmed: getComputedStyle(document.querySelector('[data-source="3"]')).opacity,
        options: select ? [...select.options].map(o => [o.parentElement.tagName === 'OPTGROUP' ? o.parentElement.label : '', o.value, o.textContent]) : null,
        value: select?.value ?? null};
"""


def scenario_patch_picker(browsers, osc, args):
    from selenium.webdriver.support.ui import Select
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    picker = lambda: driver.execute_script(PICKER)
    before = until(picker, lambda v: v["options"] and any(o[0] == "player" for o in v["options"]), 5)
    # The patch is folded in the strip's "More" disclosure (under the fader): opened as a user would.
    summary = driver.find_element(By.CSS_SELECTOR, 'section.strip.source[data-channel="3"] details.strip-more summary')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    Select(element(driver, "/source/3/patch")).select_by_value("^player:play_1$")
    rig = rig_reply(osc, "/source/3/patch", lambda v: v[0] == "^player:play_1$")
    after = until(picker, lambda v: v["strips"].get("3") == "1", 5)
    return {"loaded": loaded, "before": before, "rig": rig[0] if rig else None, "after": after}


STEREO = """
const strip = (n) => document.querySelector(`section.strip.source[data-channel="${n}"]`);
const shown = (e) => Boolean(e && e.offsetParent !== null && getComputedStyle(e).display !== 'none'
                             && getComputedStyle(e).visibility !== 'hidden');
return {
  linked: [1, 2, 3].map((n) => strip(n)?.dataset.linked ?? null),
  visible: [1, 2, 3].map((n) => shown(strip(n))),
  label: strip(1)?.getAttribute('aria-label') ?? null,
  meters: [...strip(1).querySelectorAll('xp-meter[kind="input"]')].filter(shown).map((m) => m.getAttribute('channel')),
  link_switches: [1, 2, 3, 4].map((n) => shown(document.querySelector(`[data-address="/source/${n}/link"]`))),
  link_role: document.querySelector('[data-address="/source/1/link"]')?.getAttribute('role') ?? null,
};
"""


def scenario_stereo_strip(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    seen = until(lambda: driver.execute_script(STEREO), lambda v: v["linked"][0] == "1", 5)
    keys(driver, "/source/1/fader", *[Keys.ARROW_DOWN] * 5)
    keys(driver, "/source/1/pan", *[Keys.ARROW_RIGHT] * 10)
    wanted = lambda: [osc.query(a) for a in ("/source/1/fader", "/source/2/fader", "/source/1/pan", "/source/2/pan")]
    rig = until(wanted, lambda v: all(v) and near(v[1][0], 0.70) and near(v[3][0], 0.2), 5)
    return {"loaded": loaded, "seen": seen, "rig": [v[0] if v else None for v in rig]}


SCENARIOS = {
    "load": scenario_load,
    "keyboard-fader": scenario_keyboard_fader,
    "osc-to-page": scenario_osc_to_page,
    "matrix-tap": scenario_matrix_tap,
    "preset-recall": scenario_preset_recall,
    "two-pages": scenario_two_pages,
    "reconnect": scenario_reconnect,
    "read-only": scenario_read_only,
    "held-fader": scenario_held_fader,
    "error-note": scenario_error_note,
    "two-fingers": scenario_two_fingers,
    "patch-picker": scenario_patch_picker,
    "stereo-strip": scenario_stereo_strip,
    "state-note": scenario_state_note,
    "state-saved": scenario_state_saved,
}


def main():
    parser = argument_parser(__doc__, SCENARIOS)
    parser.add_argument("--path", default="/", help="the page's path (/ or /page/)")
    parser.add_argument("--preset", default="scene-a")
    parser.add_argument("--expect", type=float, default=0.5, help="the /source/1/fader position a recall or resync restores")
    parser.add_argument("--continue-file", default="")
    parser.add_argument("--name", default="Kick\tDrum", help="the name error-note pastes (one the rig refuses)")
    args = parser.parse_args()
    args.url = f"http://{args.host}:{args.http_port}{args.path}"
    play(args, SCENARIOS, OSCClient(args.osc_port))


if __name__ == "__main__":
    main()
