"""Screenshots of the control page for the README, made by headless Chromium.

    python3 tools/page/screenshots.py URL OUT_DIR

URL is the page of a running rig (http://127.0.0.1:9001/page/); writes
OUT_DIR/page-phone.png (390x844, a phone held upright) and
OUT_DIR/page-laptop.png (1280x800, a laptop), each once the page
is connected and shows the rig.
"""
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}


def main(url, out):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        for name, (width, height) in SIZES.items():
            # The viewport, not the window, at the device's size.
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 2, "mobile": name == "phone"})
            driver.get(url)
            deadline = time.time() + 20
            while time.time() < deadline and not driver.execute_script(
                    "return !!document.querySelector('[data-connection=\"open\"]')"
                    " && !!document.querySelector('[data-address=\"/source/1/fader\"][aria-valuenow]')"):
                time.sleep(0.1)
            time.sleep(1)  # meters and fonts settle
            driver.save_screenshot(f"{out}/page-{name}.png")
            print(f"{out}/page-{name}.png")
    finally:
        driver.quit()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
