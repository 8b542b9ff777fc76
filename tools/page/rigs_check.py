#!/usr/bin/env python3
"""Reads the control page's list of other rigs (issue 26: /rigs, from the rig's
DNS-SD browse) in a real headless Chromium (Selenium) against a running
`crosspoint serve`, and prints what it saw as JSON (the last line of stdout).

    rigs_check.py list --http-port P --osc-port O [--expect NAME]

  list   the page loaded; waits (up to 20 s) for a link in the status bar's
         "Other rigs" list named --expect (if given); reports the list's
         links (name, href), whether it is shown, and its accessible name

Run it where the rigs are: a test runs it inside its network namespace.
Everything it starts is ended by PID on exit (page_driver.Browsers).
"""
import os
import sys

from page_driver import argument_parser, play, wait_loaded, wait_until

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from osc import Client as OSCClient  # tools/lib/osc.py

RIGS = """
const nav = document.querySelector('#rigs');
return {shown: nav ? nav.checkVisibility() : false, label: nav ? nav.getAttribute('aria-label') : null,
        links: nav ? [...nav.querySelectorAll('a')].map((a) => ({name: a.textContent, href: a.getAttribute('href')})) : []};
"""


def scenario_list(browsers, osc, args):
    driver = browsers.open(args.url)
    loaded = bool(wait_loaded(driver))
    seen = wait_until(lambda: (lambda r: r if not args.expect or any(l["name"] == args.expect for l in r["links"])
                               else None)(driver.execute_script(RIGS)))
    return {"loaded": loaded, "rigs": seen or driver.execute_script(RIGS)}


SCENARIOS = {"list": scenario_list}


def main():
    parser = argument_parser(__doc__, SCENARIOS)
    parser.add_argument("--expect", help="a rig's name to wait for")
    args = parser.parse_args()
    args.url = f"http://{args.host}:{args.http_port}/"
    play(args, SCENARIOS, OSCClient(args.osc_port))


if __name__ == "__main__":
    main()
