#!/usr/bin/env python3
"""Drives the control page's roles and personal mix in a real headless
Chromium (Selenium), at a phone's size, against a running `crosspoint serve
--access FILE`, and prints what it saw as JSON (the last line of stdout).

    mix_check.py SCENARIO --http-port P --osc-port O [--code C] [--engineer 127.0.0.2]

The browser reaches the rig from 127.0.0.1: the access file should make that
a viewer and give the code an outputs role. The engineer address (another
loopback address, bound by this tool's second OSC client) sets names.

Scenarios:
  login       the page before login; a login through the visible form; the
              mix view (its addresses, labels, layout at 390x844, the code
              nowhere); a live name; ArrowUp on /matrix/1/M/fader, End on
              /matrix/2/N/fader, a mouse drag on /matrix/3/M/fader (M, N
              the role's outputs), a finger's vertical swipe (scrolls) and
              sideways one (moves) on /matrix/4/M/fader, taps on "Keep my
              mix" and a mute, with the rig's values; then Log out
  wrong-code  a wrong code (--code) in the form: the /error note beside the
              form, the view after it
  hold        a login, then {"phase": "open"}; waits for --continue-file (the
              test restarts serve, or reloads the access file, meanwhile);
              then until the page has role --role; the views seen
  screenshot  names set, a login, the mix view at 390x844 saved to --out
  talk        (the code's role granted talkback 2) the talk buttons before
              the login (the engineer's, in the status bar) and in the mix
              view (the role's, above its outputs); the mix's button held by
              a finger: the rig's /talkback/2/talk and the button while held,
              then let go

Everything it starts is ended by PID on exit (page_driver.Browsers).
"""
import json
import os
import sys
import threading
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import argument_parser, play, attribute, connection, element, keys, \
    rig_near, rig_settled, rig_value, scroll_to, slider_now, until, wait_until

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from osc import Client as OSCClient  # tools/lib/osc.py

PHONE = (390, 844)

ROOT = """
const root = document.documentElement;
return {connection: root.dataset.connection ?? null, access: root.dataset.access ?? null,
        view: root.dataset.view ?? null, role: root.dataset.role ?? null};
"""

MIX = """
const label = (e) => (e.getAttribute('aria-labelledby') ?? '').split(' ').filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '?').join(' ');
const box = (e) => { const r = e.getBoundingClientRect(); return {width: r.width, height: r.height, left: r.left}; };
return {
  addresses: [...document.querySelectorAll('[data-address]')].map((e) => e.dataset.address),
  sections: [...document.querySelectorAll('#mix section[data-output]')].map((s) => ({
      output: s.dataset.output, title: document.getElementById(s.getAttribute('aria-labelledby'))?.textContent})),
  sliders: Object.fromEntries([...document.querySelectorAll('#mix [role="slider"]')].map((e) => [e.dataset.address, {
      now: Number(e.getAttribute('aria-valuenow')), text: e.getAttribute('aria-valuetext'), label: label(e),
      disabled: e.getAttribute('aria-disabled'), tabindex: e.getAttribute('tabindex'), ...box(e)}])),
  switches: Object.fromEntries([...document.querySelectorAll('#mix [role="switch"]')].map((e) => [e.dataset.address, {
      checked: e.getAttribute('aria-checked'), name: e.getAttribute('aria-label'), ...box(e)}])),
  meters: document.querySelectorAll('#mix xp-meter[kind="input"]').length,
  engineer: document.querySelector('main#engineer') !== null,
  scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
};
"""

SECRETS = """
const code = arguments[0];
return {url: location.href.includes(code), dom: document.documentElement.outerHTML.includes(code),
        inputs: [...document.querySelectorAll('input')].some((e) => e.value.includes(code)),
        storage: localStorage.length + sessionStorage.length};
"""

LOGIN_NOTE = """
const note = document.querySelector('[role="alert"][data-error-for="/login"]');
if (!note) return null;
const at = note.getBoundingClientRect(), form = document.querySelector('#login').getBoundingClientRect();
return {text: note.textContent, visible: at.width > 0 && at.height > 0, dx: at.left - form.left, dy: at.top - form.bottom};
"""


def root(driver):
    return driver.execute_script(ROOT)


def phone(driver, scale=1):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": scale, "mobile": True})


def open_page(browsers, args, scale=1):
    driver = browsers.open(args.url)
    phone(driver, scale)
    decided = wait_until(lambda: connection(driver) == "open" and root(driver)["view"] is not None
                         and root(driver)["access"] is not None)
    return driver, bool(decided)


def log_in(driver, code):
    """Types the code into the visible form and submits it with Enter."""
    field = driver.find_element(By.CSS_SELECTOR, '#login input[name="code"]')
    shown = field.is_displayed()
    field.click()
    field.send_keys(code)
    field.send_keys(Keys.ENTER)
    return shown


def swipe(driver, address, dx, dy, steps=4):
    """A W3C touch pointer lands on the control and moves (dx, dy) px in steps."""
    builder = ActionBuilder(driver)
    finger = builder.add_pointer_input(interaction.POINTER_TOUCH, "finger")
    finger.create_pointer_move(duration=0, origin=element(driver, address))
    finger.create_pointer_down(button=MouseButton.LEFT)
    for _ in range(steps):
        finger.create_pointer_move(duration=60, x=dx // steps, y=dy // steps, origin="pointer")
    finger.create_pointer_up(MouseButton.LEFT)
    builder.perform()


def mix_loaded(driver, outputs):
    return wait_until(lambda: root(driver)["view"] == "mix" and driver.execute_script(
        "return arguments[0].every((m) => document.querySelector(`[data-address=\"/output/${m}/fader\"]`)"
        " && document.querySelector(`[data-address=\"/matrix/1/${m}/fader\"][aria-valuenow]`))", outputs))


def scenario_login(browsers, osc, engineer, args):
    driver, decided = open_page(browsers, args)
    before = {**root(driver), "read_only_controls": driver.execute_script(
        "return document.querySelectorAll('[data-address][aria-disabled=\"true\"]').length"),
        "login_shown": None}
    before["login_shown"] = log_in(driver, args.code)
    first, second = args.outputs
    loaded = bool(mix_loaded(driver, args.outputs))
    after_login = root(driver)
    mix = driver.execute_script(MIX)
    secrets = driver.execute_script(SECRETS, args.code)
    logout_shown = driver.find_element(By.ID, "logout").is_displayed()

    # A name changed by the engineer shows on the fader's label.
    engineer.send("/source/1/name", "Kick")
    label = f"/matrix/1/{first}/fader"
    renamed = wait_until(lambda: driver.execute_script(MIX)["sliders"].get(label, {}).get("label") == "Kick",
                         timeout=5)

    # Keyboard: ArrowUp on source 1 into the first output, End on source 2 into the second.
    up, end = f"/matrix/1/{first}/fader", f"/matrix/2/{second}/fader"
    up_before = slider_now(driver, up)
    keys(driver, up, Keys.ARROW_UP)
    up_after = slider_now(driver, up)
    keys(driver, end, Keys.END)
    end_after = slider_now(driver, end)
    end_text = attribute(driver, end, "aria-valuetext")
    rig_up = rig_near(osc, up, up_after)
    rig_end = rig_near(osc, end, end_after)

    # A mouse drag, 80 px to the right (relative: no jump where it lands).
    drag = f"/matrix/3/{first}/fader"
    scroll_to(driver, drag)
    drag_before = slider_now(driver, drag)
    ActionChains(driver).move_to_element(element(driver, drag)).click_and_hold() \
        .move_by_offset(40, 0).move_by_offset(40, 0).release().perform()
    drag_after = slider_now(driver, drag)
    rig_drag = rig_near(osc, drag, drag_after)
    rig_drag_gain = rig_value(osc, f"/matrix/3/{first}")

    # A finger: a vertical swipe on a fader scrolls the page and leaves the
    # fader; a sideways one moves it.
    touched = f"/matrix/4/{first}/fader"
    scroll_to(driver, touched)
    touch_before, scroll_before = slider_now(driver, touched), driver.execute_script("return scrollY")
    swipe(driver, touched, 0, -120)
    time.sleep(0.3)
    touch_swiped, scroll_after = slider_now(driver, touched), driver.execute_script("return scrollY")
    swipe(driver, touched, 120, 0)
    touch_after = slider_now(driver, touched)
    touch = {"before": touch_before, "swiped": touch_swiped, "scrolled": scroll_after - scroll_before,
             "after": touch_after, "rig": rig_near(osc, touched, touch_after)}

    # The switches: "Keep my mix" of the first output, mute of the second.
    switched = {}
    for address in (f"/safe/mix/{first}", f"/output/{second}/mute"):
        scroll_to(driver, address)
        element(driver, address).click()
        switched[address] = {"checked": attribute(driver, address, "aria-checked"), "rig": rig_near(osc, address, 1)}

    driver.find_element(By.ID, "logout").click()
    logged_out = bool(wait_until(lambda: root(driver)["view"] == "full" and root(driver)["access"] == "read-only"
                                 and driver.execute_script(
                                     "return !!document.querySelector('[data-address=\"/source/1/fader\"]')")))
    after_logout = {**root(driver), "login_shown": driver.find_element(By.ID, "login").is_displayed(),
                    "mix_sections": len(driver.find_elements(By.CSS_SELECTOR, "#mix section")),
                    "enabled_controls": driver.execute_script(
                        "return [...document.querySelectorAll('[role=slider][data-address], [role=switch][data-address]')]"
                        ".filter((e) => e.getAttribute('aria-disabled') !== 'true').length")}
    return {"decided": decided, "before": before, "loaded": loaded, "after_login": after_login, "mix": mix,
            "secrets": secrets, "logout_shown": logout_shown, "renamed": bool(renamed),
            "up": {"before": up_before, "after": up_after, "rig": rig_up},
            "end": {"after": end_after, "text": end_text, "rig": rig_end},
            "drag": {"before": drag_before, "after": drag_after, "rig": rig_drag, "gain": rig_drag_gain},
            "touch": touch, "switched": switched,
            "logged_out": logged_out, "after_logout": after_logout,
            "secrets_after": driver.execute_script(SECRETS, args.code)}


def scenario_wrong_code(browsers, osc, engineer, args):
    driver, decided = open_page(browsers, args)
    before = root(driver)
    log_in(driver, args.code)
    note = wait_until(lambda: driver.execute_script(LOGIN_NOTE), timeout=5)
    time.sleep(0.3)  # a role change, had there been one, would be drawn by now
    return {"decided": decided, "before": before, "note": note, "after": root(driver),
            "login_shown": driver.find_element(By.ID, "login").is_displayed(),
            "mix_sections": len(driver.find_elements(By.CSS_SELECTOR, "#mix section")),
            "secrets": driver.execute_script(SECRETS, args.code)}


def scenario_hold(browsers, osc, engineer, args):
    driver, decided = open_page(browsers, args)
    log_in(driver, args.code)
    loaded = bool(mix_loaded(driver, args.outputs))
    print(json.dumps({"phase": "open", **root(driver)}), flush=True)
    # Until the test has changed the rig: every view the page shows meanwhile.
    views, saw_closed = set(), False
    deadline = time.monotonic() + 60
    while not os.path.exists(args.continue_file) and time.monotonic() < deadline:
        state = root(driver)
        views.add(state["view"])
        saw_closed = saw_closed or state["connection"] == "closed"
        time.sleep(0.02)
    reopened = bool(wait_until(lambda: connection(driver) == "open", timeout=15))

    def arrived():
        state = root(driver)
        views.add(state["view"])
        return state["role"] == args.role and (state["view"] != "mix" or mix_loaded(driver, args.outputs))

    again = bool(wait_until(arrived, timeout=10))
    for _ in range(25):  # half a second more of watching: no flip back
        views.add(root(driver)["view"])
        time.sleep(0.02)
    return {"decided": decided, "loaded": loaded, "saw_closed": saw_closed, "reopened": reopened, "again": again,
            "views": sorted(v for v in views if v), **root(driver),
            "outputs": [s["output"] for s in driver.execute_script(MIX)["sections"]],
            "login_shown": driver.find_element(By.ID, "login").is_displayed(),
            "logout_shown": driver.find_element(By.ID, "logout").is_displayed(),
            "secrets": driver.execute_script(SECRETS, args.code)}


def scenario_screenshot(browsers, osc, engineer, args):
    names = ["Kick", "Snare", "Bass DI", "Keys L", "Keys R", "Lead Vox", "BV 1", "Click"]
    for n, name in enumerate(names, 1):
        engineer.send(f"/source/{n}/name", name)
    for m, name in zip(args.outputs, ["Drums L", "Drums R"]):
        engineer.send(f"/output/{m}/name", name)
    for n, level in zip(range(1, 9), [0.8, 0.7, 0.75, 0.5, 0.5, 0.6, 0.3, 0.65]):
        engineer.send(f"/matrix/{n}/{args.outputs[0]}/fader", level)
    engineer.send(f"/safe/mix/{args.outputs[0]}", 1)
    driver, decided = open_page(browsers, args, scale=2)
    log_in(driver, args.code)
    loaded = bool(mix_loaded(driver, args.outputs))
    wait_until(lambda: driver.execute_script(MIX)["sliders"].get(f"/matrix/1/{args.outputs[0]}/fader", {})
               .get("label") == "Kick", timeout=5)
    driver.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
    time.sleep(0.5)
    driver.save_screenshot(args.out)
    return {"decided": decided, "loaded": loaded, "out": args.out, **root(driver)}


TALK = """
return [...document.querySelectorAll('button.talk')].map((b) => ({
  address: b.dataset.address, pressed: b.getAttribute('aria-pressed'), text: b.textContent,
  shown: b.checkVisibility(), in_mix: Boolean(b.closest('main#mix')), width: b.getBoundingClientRect().width,
  height: b.getBoundingClientRect().height}));
"""


def scenario_talk(browsers, osc, engineer, args):
    engineer.send("/talkback/2/name", "MD")
    driver, decided = open_page(browsers, args)
    before = driver.execute_script(TALK)
    log_in(driver, args.code)
    loaded = bool(mix_loaded(driver, args.outputs))
    built = until(lambda: driver.execute_script(TALK), lambda b: len(b) == 1 and b[0]["in_mix"] and "MD" in b[0]["text"])
    talk = "/talkback/2/talk"
    # A finger holds the mix's button for a second, then lets go, in one
    # gesture (a touch's lift in a later one is lost by the driver). The
    # button's states are logged by the page; the rig's are polled meanwhile.
    driver.execute_script("""
        const b = arguments[0]; window.talkStates = [];
        new MutationObserver(() => window.talkStates.push([b.getAttribute('aria-pressed'), b.textContent]))
          .observe(b, {attributes: true, attributeFilter: ['aria-pressed']});""", element(driver, talk))
    samples, done = [], threading.Event()

    def poll():
        while not done.is_set():
            samples.append(rig_value(engineer, talk))
            time.sleep(0.05)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        builder = ActionBuilder(driver)
        finger = builder.add_pointer_input(interaction.POINTER_TOUCH, "finger")
        finger.create_pointer_move(duration=0, origin=element(driver, talk))
        finger.create_pointer_down(button=MouseButton.LEFT)
        finger.create_pause(1.0)
        finger.create_pointer_up(MouseButton.LEFT)
        builder.perform()
        released_rig = rig_settled(engineer, talk, 0)
    finally:
        done.set()
        poller.join()
    states = driver.execute_script("return window.talkStates")
    held = {"rig": 1 if 1 in samples else samples[-1] if samples else None,
            "pressed": states[0][0] if states else None, "text": states[0][1] if states else None}
    released = {"rig": released_rig, "pressed": states[-1][0] if states else None, "states": len(states)}
    return {"decided": decided, "loaded": loaded, "before": before, "built": built, "held": held,
            "released": released, **root(driver)}


SCENARIOS = {"login": scenario_login, "wrong-code": scenario_wrong_code, "hold": scenario_hold,
             "screenshot": scenario_screenshot, "talk": scenario_talk}


def mix_arguments(doc, scenarios):
    """The arguments of a driver of the personal mix: those of every driver, the engineer's address, the
    code and its role's outputs."""
    parser = argument_parser(doc, scenarios)
    parser.add_argument("--engineer", default="127.0.0.2", help="the address a client with full control sends from")
    parser.add_argument("--code", default="4711")
    parser.add_argument("--outputs", default="5,6", help="the outputs of the code's role")
    return parser


def play_mix(parser, scenarios):
    """Plays the scenario the arguments name with the OSC client of the browser's address and the engineer's."""
    args = parser.parse_args()
    args.url = f"http://{args.host}:{args.http_port}/"
    args.outputs = [int(m) for m in args.outputs.split(",")]
    play(args, scenarios, OSCClient(args.osc_port), OSCClient(args.osc_port, bind=args.engineer))


def main():
    parser = mix_arguments(__doc__, SCENARIOS)
    parser.add_argument("--role", default="drums", help="hold: the role the page should end in")
    parser.add_argument("--continue-file", default="", help="hold: waits for this file (the rig changed)")
    parser.add_argument("--out", default="page-mix-phone.png", help="screenshot: the PNG to write")
    play_mix(parser, SCENARIOS)


if __name__ == "__main__":
    main()
