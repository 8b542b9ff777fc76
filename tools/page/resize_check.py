#!/usr/bin/env python3
"""Drives the control page in a real headless Chromium (Selenium) while the
rig changes its number of sources and outputs (issue 24), against a running
`crosspoint serve`, and prints what it saw as JSON (the last line of stdout).

    resize_check.py SCENARIO --http-port P --osc-port O [--engineer 127.0.0.2]

The rig's size is changed over OSC by a client bound to --engineer (full
control on a rig without roles, and the engineer of MixPageTests' access
file), or by the page's own "− N +" controls. Scenarios:

  follow    an 8x24 rig: the page open, /source/2/fader focused, the outputs
            row and the matrix scrolled sideways; /rig/inputs 9 over OSC: the
            strip and the matrix row of source 9 (its cell into output 6),
            without a reload, the focus, strip 2 (the same element) and both
            scrolls where they were; then /rig/outputs 23: output 24's strip
            and column gone
  controls  an 8x8 rig: "Add a source" (the rig's size by OSC query, strip 9);
            source 9 named; "Remove source 9": the confirmation (its role,
            text, focus), Escape (nothing removed), again and confirmed (the
            rig's size, strip 9 and its row gone, the focus back on "−");
            "Add an output", naming and removing it the same way; a size the rig
            refuses (0, sent as the "+" button would) and its /error note
  forget    an 8x8 rig, sources 7-8 linked, source 8 named with a crosspoint
            into output 1; /rig/inputs 7 over OSC: strip 8 gone from the
            document with its row, strip 7 on its own (not linked); the page's
            store holds nothing of source 8; /rig/inputs 8: strip 8 again,
            showing the rig's new source (its name and crosspoint), not the old
  mix       an 8x8 rig with MixPageTests' access file: the code's personal mix
            of outputs 5 and 6; /rig/inputs 9 (a fader per output for source
            9), /rig/outputs 5 (output 6's section gone), /rig/outputs 8
            (back); the mix has no size controls

Everything it starts is ended by PID on exit (page_driver.Browsers).
"""
import os
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from page_driver import argument_parser, play, attribute, connection, element, rig_settled, rig_value, stored, until, \
    wait_loaded, wait_until
from mix_check import log_in, mix_loaded, open_page as open_phone_page

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from osc import Client as OSCClient  # tools/lib/osc.py

# What the page shows of the rig's size: strips, matrix, size controls, focus, scrolls.
LAYOUT = """
const strips = (kind) => [...document.querySelectorAll(`section.strip.${kind}[data-channel]`)]
    .map((s) => Number(s.dataset.channel));
const matrix = document.querySelector('xp-matrix');
const rows = document.querySelector('#outputs .strips');
const count = (axis) => document.querySelector(`.rig-size[data-axis="${axis}"] .rig-size-count`)?.textContent ?? null;
return {
  size: document.documentElement.dataset.size ?? null,
  sources: strips('source'), outputs: strips('output'),
  last_output_strip: document.querySelector('#outputs .strips > .strip:last-child')?.classList.contains('master') ?? false,
  shown: matrix?.dataset.shown ?? null,
  rows: matrix?.view?.rows ?? [], cols: matrix?.view?.cols ?? [],
  row_heads: [...document.querySelectorAll('xp-matrix .row-head')].map((h) => Number(h.dataset.input)),
  col_heads: [...document.querySelectorAll('xp-matrix .col-head')].map((h) => Number(h.dataset.output)),
  counts: {inputs: count('inputs'), outputs: count('outputs')},
  focused: document.activeElement?.dataset?.address ?? null,
  focused_label: document.activeElement?.getAttribute('aria-label') ?? null,
  outputs_scroll: rows?.scrollLeft ?? null,
  matrix_scroll: matrix?.view?.scroller.scrollLeft ?? null,
  reloaded: window.__resizeMark !== 'before',
};
"""

# One source strip: whether it is there, linked, hidden, labelled; its name field.
STRIP = """
const n = arguments[0];
const strip = document.querySelector(`section.strip.source[data-channel="${n}"]`);
const name = document.querySelector(`[data-address="/source/${n}/name"]`);
return strip === null ? null : {
  linked: strip.dataset.linked ?? null, hidden: strip.hidden, label: strip.getAttribute('aria-label'),
  pending: strip.hasAttribute('data-pending'), name: name ? name.value : null,
  partner_meter: strip.querySelector('.partner-meter') ? getComputedStyle(strip.querySelector('.partner-meter')).display : null,
};
"""

# The confirmation of a removal, if one is open.
CONFIRMATION = """
const dialog = document.querySelector('dialog[open]');
return dialog === null ? null : {
  role: dialog.getAttribute('role'), modal: dialog.matches(':modal'),
  text: document.getElementById(dialog.getAttribute('aria-labelledby'))?.textContent ?? null,
  buttons: [...dialog.querySelectorAll('button')].map((b) => b.textContent),
  focused: dialog.contains(document.activeElement) ? document.activeElement.textContent : null,
};
"""

ERROR_NOTE = """
const note = document.querySelector('[role="alert"][data-error-for="/rig/inputs"]');
return note ? {text: note.textContent, beside: document.querySelector('[data-address="/rig/inputs"][data-error]') !== null} : null;
"""


def layout(driver):
    return driver.execute_script(LAYOUT)


def mark(driver):
    """Marks the window (gone on a reload) and strip 2 (gone if rebuilt)."""
    driver.execute_script("window.__resizeMark = 'before';"
                          "document.querySelector('section.strip.source[data-channel=\"2\"]').__resizeMark = 'kept';")


def strip_kept(driver):
    return driver.execute_script(
        "return document.querySelector('section.strip.source[data-channel=\"2\"]')?.__resizeMark === 'kept'")


def until_layout(driver, predicate, timeout=10):
    """The layout once predicate holds for it (or as it is after the timeout)."""
    return until(lambda: layout(driver), predicate, timeout)


def click(driver, selector):
    target = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    target.click()


def confirmation(driver):
    return driver.execute_script(CONFIRMATION)


def scenario_follow(browsers, osc, engineer, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver)) and until_layout(driver, lambda v: v["size"] == "8x24")["size"] == "8x24"
    # The engineer is at work: a fader focused, the outputs row and the matrix scrolled sideways.
    driver.execute_script("arguments[0].focus()", element(driver, "/source/2/fader"))
    driver.execute_script("document.querySelector('#outputs .strips').scrollLeft = 300;"
                          "document.querySelector('xp-matrix').view.scroller.scrollLeft = 200;")
    mark(driver)
    time.sleep(0.5)  # the row's scroll snaps to a strip
    before = layout(driver)
    engineer.send("/rig/inputs", 9)
    grown = until_layout(driver, lambda v: 9 in v["sources"] and 9 in v["rows"] and 9 in v["row_heads"])
    grown["strip_kept"] = strip_kept(driver)
    grown["cell"] = wait_until(lambda: attribute(driver, "/matrix/9/6", "aria-pressed"), timeout=5)
    engineer.send("/rig/outputs", 23)
    shrunk = until_layout(driver, lambda v: 24 not in v["outputs"] and 24 not in v["cols"] and v["size"] == "9x23")
    shrunk["strip_kept"] = strip_kept(driver)
    return {"loaded": loaded, "before": before, "grown": grown, "shrunk": shrunk,
            "rig": {"inputs": rig_value(engineer, "/rig/inputs"), "outputs": rig_value(engineer, "/rig/outputs")}}


def remove_with_confirmation(driver, osc, axis, strip, count):
    """Presses "−" for `axis`: the confirmation, Escape, then "−" again and confirmed. What each step showed."""
    command = f"/rig/{axis}"
    remove = f'.rig-size[data-axis="{axis}"] .rig-size-remove'
    label = driver.find_element(By.CSS_SELECTOR, remove).get_attribute("aria-label")
    click(driver, remove)
    asked = wait_until(lambda: confirmation(driver), timeout=5)
    time.sleep(0.3)  # a change sent without the confirmation would have reached the rig by now
    unconfirmed = {"rig": rig_value(osc, command), "strip": count in layout(driver)[strip]}
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    closed = bool(wait_until(lambda: confirmation(driver) is None, timeout=5))
    time.sleep(0.3)
    cancelled = {"closed": closed, "rig": rig_value(osc, command), "strip": count in layout(driver)[strip],
                 "focused_label": layout(driver)["focused_label"]}
    click(driver, remove)
    wait_until(lambda: confirmation(driver), timeout=5)
    click(driver, "dialog[open] .rig-size-confirm")
    rig = rig_settled(osc, command, count - 1)
    after = until_layout(driver, lambda v: count not in v[strip])
    return {"label": label, "asked": asked, "unconfirmed": unconfirmed, "cancelled": cancelled,
            "rig": rig, "after": after, "open_after": confirmation(driver) is not None}


def named(driver, engineer, address, name):
    """Names a channel from the engineer's client, until the page has the name."""
    engineer.send(address, name)
    stored(driver, address, name, timeout=5)


def scenario_controls(browsers, osc, engineer, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver)) and until_layout(driver, lambda v: v["size"] == "8x8")["size"] == "8x8"
    before = layout(driver)
    controls = driver.execute_script(
        "return [...document.querySelectorAll('[data-address^=\"/rig/\"]')].map((b) => ({address: b.dataset.address,"
        " label: b.getAttribute('aria-label'), tag: b.tagName, disabled: b.disabled,"
        " group: b.closest('[role=group]')?.getAttribute('aria-label') ?? null,"
        " head: b.closest('section')?.id ?? null}))")
    # Adding does not ask: the rig grows, then the page.
    click(driver, '[data-address="/rig/inputs"][aria-label="Add a source"]')
    add_rig = rig_settled(osc, "/rig/inputs", 9)
    added = until_layout(driver, lambda v: 9 in v["sources"] and 9 in v["rows"])
    named(driver, engineer, "/source/9/name", "Guest mic")
    source = remove_with_confirmation(driver, osc, "inputs", "sources", 9)
    click(driver, '[data-address="/rig/outputs"][aria-label="Add an output"]')
    add_output_rig = rig_settled(osc, "/rig/outputs", 9)
    added_output = until_layout(driver, lambda v: 9 in v["outputs"] and 9 in v["cols"])
    named(driver, engineer, "/output/9/name", "Side fill")
    output = remove_with_confirmation(driver, osc, "outputs", "outputs", 9)
    # A size the rig refuses, sent as the "+" button sends: its /error beside the button.
    driver.execute_script(
        "window.crosspoint.connection.send('/rig/inputs', 'i', [0],"
        " {from: document.querySelector('[data-address=\"/rig/inputs\"][aria-label=\"Add a source\"]')})")
    note = wait_until(lambda: driver.execute_script(ERROR_NOTE), timeout=5)
    return {"loaded": loaded, "before": before, "controls": controls, "add_rig": add_rig, "added": added,
            "source": source, "add_output_rig": add_output_rig, "added_output": added_output, "output": output,
            "note": note, "refused_rig": rig_value(osc, "/rig/inputs"), "final": layout(driver)}


def scenario_forget(browsers, osc, engineer, args):
    engineer.send("/source/7/link", 1)
    engineer.send("/source/8/name", "Guest mic")
    engineer.send("/matrix/8/1", 1.0)
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver)) and until_layout(driver, lambda v: v["size"] == "8x8")["size"] == "8x8"
    strip = lambda n: driver.execute_script(STRIP, n)
    linked = until(lambda: strip(7), lambda v: v and v["linked"] == "1", 5)
    engineer.send("/rig/inputs", 7)
    shrunk = until_layout(driver, lambda v: 8 not in v["sources"] and 8 not in v["rows"])
    alone = until(lambda: strip(7), lambda v: v and v["linked"] != "1", 5)
    gone = driver.execute_script(
        "return {strip: document.querySelector('section.strip[data-source=\"8\"], section.strip.source[data-channel=\"8\"]') !== null,"
        " controls: [...document.querySelectorAll('[data-address^=\"/source/8/\"], [data-address^=\"/matrix/8/\"]')].length,"
        " meter: document.querySelector('xp-meter[kind=\"input\"][channel=\"8\"]:not(.partner-meter)') !== null,"
        " row_head: document.querySelector('xp-matrix .row-head[data-input=\"8\"]') !== null,"
        " stored: ['/source/8/name', '/source/8/link', '/matrix/8/1', '/source/8/fader']"
        "   .filter((a) => window.crosspoint.store.get(a) !== undefined)}")
    engineer.send("/rig/inputs", 8)
    grown = until_layout(driver, lambda v: 8 in v["sources"] and 8 in v["rows"])
    rig = {"name": rig_value(engineer, "/source/8/name"), "crosspoint": rig_value(engineer, "/matrix/8/1"),
           "link7": rig_value(engineer, "/source/7/link"), "link8": rig_value(engineer, "/source/8/link")}
    # Until the page shows the rig's source 8 (its full state follows the new size).
    back = until(lambda: strip(8), lambda v: v and not v["pending"] and v["name"] == rig["name"], 5)
    cell = wait_until(lambda: attribute(driver, "/matrix/8/1", "aria-pressed"), timeout=5)
    return {"loaded": loaded, "linked": linked, "shrunk": shrunk, "alone": alone, "gone": gone, "grown": grown,
            "rig": rig, "back": back, "strip7": driver.execute_script(STRIP, 7), "cell": cell,
            "stored_name": driver.execute_script("return window.crosspoint.store.value('/source/8/name') ?? null")}


MIX = """
return {
  sections: [...document.querySelectorAll('#mix section[data-output]')].map((s) => Number(s.dataset.output)),
  faders: [...document.querySelectorAll('#mix [data-address^="/matrix/"]')].map((e) => e.dataset.address),
  size_controls: document.querySelectorAll('[data-address^="/rig/"], .rig-size').length,
  size: document.documentElement.dataset.size ?? null,
  view: document.documentElement.dataset.view ?? null,
  reloaded: window.__resizeMark !== 'before',
};
"""


def scenario_mix(browsers, osc, engineer, args):
    driver, decided = open_phone_page(browsers, args)
    log_in(driver, args.code)
    loaded = bool(mix_loaded(driver, [5, 6]))
    driver.execute_script("window.__resizeMark = 'before'")
    mix = lambda: driver.execute_script(MIX)
    before = mix()
    engineer.send("/rig/inputs", 9)
    grown = until(mix, lambda v: "/matrix/9/5/fader" in v["faders"] and "/matrix/9/6/fader" in v["faders"])
    engineer.send("/rig/outputs", 5)
    shrunk = until(mix, lambda v: v["sections"] == [5])
    engineer.send("/rig/outputs", 8)
    back = until(mix, lambda v: v["sections"] == [5, 6] and "/matrix/9/6/fader" in v["faders"])
    return {"decided": decided, "loaded": loaded, "before": before, "grown": grown, "shrunk": shrunk,
            "back": back, "connection": connection(driver)}


SCENARIOS = {"follow": scenario_follow, "controls": scenario_controls, "forget": scenario_forget,
             "mix": scenario_mix}


def main():
    parser = argument_parser(__doc__, SCENARIOS)
    parser.add_argument("--engineer", default="127.0.0.2", help="the address a client with full control sends from")
    parser.add_argument("--code", default="4711", help="mix: the code of the role of outputs 5 and 6")
    args = parser.parse_args()
    args.url = f"http://{args.host}:{args.http_port}/"
    play(args, SCENARIOS, OSCClient(args.osc_port), OSCClient(args.osc_port, bind=args.engineer))


if __name__ == "__main__":
    main()
