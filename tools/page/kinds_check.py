"""The page draws a kind of strip it has no code for (StripKindProofTests, issue 33).

Serves DIR (the page's files under DIR/page/, with a catalogue.json a test
catalogue made) over HTTP on a free port of 127.0.0.1, from this process,
loads /page/ in headless Chromium and reports, as one JSON line, what the
page drew for KIND: its section's heading, the status bar's link to it, and
per strip its label and each control's address, role and accessible name.
No rig answers the page's WebSocket: the strips of a kind kept in banks are
drawn from catalogue.json alone (its `counts`), as the page draws them
before the rig's state arrives.

    python3 kinds_check.py --dir DIR --kind testbus
"""
import argparse
import functools
import http.server
import json
import sys
import threading

from page_driver import Browsers, wait_until

DRAWN = """
const kind = arguments[0];
const section = document.querySelector(`section[data-kind="${kind}"]`);
if (!section) return null;
const link = document.querySelector(`#status nav a[href="#${section.id}"]`);
return {
  heading: section.querySelector('h2')?.textContent ?? null,
  labelledBy: section.getAttribute('aria-labelledby'),
  link: link ? link.textContent : null,
  strips: [...section.querySelectorAll('.strips > section.strip')].map((strip) => ({
    label: strip.getAttribute('aria-label'),
    controls: [...strip.querySelectorAll('[data-address]')].map((control) => ({
      address: control.dataset.address,
      role: control.getAttribute('role') ?? control.tagName.toLowerCase(),
      name: control.getAttribute('aria-label') ?? control.getAttribute('label')
            ?? control.closest('label')?.textContent?.trim() ?? null,
    })),
  })),
};
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="holds page/ with the page's files and its catalogue.json")
    parser.add_argument("--kind", required=True, help="the kind's key in catalogue.json (its address head)")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=args.dir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browsers = Browsers()
    try:
        driver = browsers.open(f"http://127.0.0.1:{server.server_address[1]}/page/")
        drawn = wait_until(lambda: driver.execute_script(DRAWN, args.kind))
        print(json.dumps({"drawn": drawn}))
    finally:
        browsers.quit()
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
