"""The support console in a real browser: headless Chromium driven by Selenium.

    python3 Tests/Browser/console_check.py NAVSTORE OUT-DIR

Starts `navstore serve` on a demo store (with a session restored from another, and one whose id
and screen are markup), then, as a support engineer would: signs in with a read token, finds a
session by a screen it showed, opens it, steps to an event in its report, follows the
restored-from link, downloads the history and imports it into a new store that verifies, signs
out and is refused. axe-core (axe-selenium-python) checks every page kind: no serious or
critical violation. Screenshots at desktop and phone widths go to OUT-DIR.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

HOSTILE = '<b id="x">s</b>'


def fail(message):
    print(f"console-check: {message}", file=sys.stderr)
    sys.exit(1)


def run(binary, *arguments, cwd):
    result = subprocess.run([binary, *arguments], cwd=cwd, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        fail(f"navstore {' '.join(arguments)}: {result.stderr.strip()}")
    return result.stdout.strip()


def extra_sessions():
    """A session restored from demo-tabs, and one whose id and screen are markup."""
    start = {"routes": [{"screen": "home", "style": "root", "withNavigation": True}]}
    lines = [
        {"session": "demo-restored", "seq": 1, "at": "2026-11-21T09:40:00.000Z",
         "op": {"op": "start", "state": start, "restoredFrom": {"session": "demo-tabs", "seq": 15}}},
        {"session": "demo-restored", "seq": 2, "at": "2026-11-21T09:40:02.000Z", "origin": "user",
         "op": {"op": "push", "screen": "settings"}},
        {"session": HOSTILE, "seq": 1, "at": "2026-11-21T09:45:00.000Z",
         "op": {"op": "start", "state": {"routes": [{"screen": "<img src=x onerror=alert(1)>", "style": "root",
                                                      "withNavigation": True}]}}},
    ]
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def check_accessibility(driver, page):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    if bad:
        fail(f"axe on {page}: " + "; ".join(f"{v['id']} ({v['impact']}): {v['help']}" for v in bad))
    print(f"console-check: axe on {page}: no serious or critical violation ({len(results['violations'])} lesser)")


def screenshot(driver, out, name):
    for width, height, label in ((1280, 1000, "desktop"), (390, 844, "phone")):
        driver.set_window_size(width, height)
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(out, f"console-{name}-{label}.png"))
    driver.set_window_size(1280, 1000)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="navstore-console-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    server = None
    driver = None
    try:
        run(binary, "demo", "--db", "collector.sqlite", "--no-wait", cwd=work)
        with open(os.path.join(work, "extra.jsonl"), "w", encoding="utf-8") as file:
            file.write(extra_sessions())
        run(binary, "import", "extra.jsonl", "--db", "collector.sqlite", cwd=work)
        token = run(binary, "token", "create", "--app", "default", "--role", "read", "--db", "collector.sqlite",
                    cwd=work)
        server = subprocess.Popen([binary, "serve", "--db", "collector.sqlite", "--listen", "127.0.0.1:0"],
                                  cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = server.stdout.readline().strip()
        if not line.startswith("listening on "):
            fail(f"serve did not start: {line!r}")
        base = line[len("listening on "):]

        options = webdriver.ChromeOptions()
        # Debian's chromium and its driver, named: nothing is fetched from the network.
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                                  "download.prompt_for_download": False})
        driver = webdriver.Chrome(
            options=options, service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"))
        wait = WebDriverWait(driver, 15)

        # Without signing in, the sessions page is the sign-in page.
        driver.get(base + "/console/sessions")
        if not driver.current_url.endswith("/console/sign-in"):
            fail(f"unsigned, /console/sessions went to {driver.current_url}")
        check_accessibility(driver, "sign-in")
        screenshot(driver, out, "sign-in")
        field = driver.find_element(By.ID, "token")
        field.send_keys(token)
        field.submit()
        try:
            wait.until(expected_conditions.url_contains("/console/sessions"))
        except Exception:
            fail(f"signing in went to {driver.current_url}: {driver.page_source[:600]}")
        if token in driver.current_url:
            fail("the token is in the URL")

        # Find a session by a screen it showed: settings, which only demo-restored shows here.
        driver.find_element(By.ID, "screen").send_keys("settings")
        driver.find_element(By.ID, "screen").submit()
        wait.until(expected_conditions.url_contains("screen=settings"))
        links = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "tbody td.id a")]
        if "demo-restored" not in links:
            fail(f"the sessions that showed settings: {links}")
        check_accessibility(driver, "sessions")
        driver.get(base + "/console/sessions")
        if HOSTILE not in [a.text for a in driver.find_elements(By.CSS_SELECTOR, "tbody td.id a")]:
            fail("the session whose id is markup is not listed by its id as text")
        if driver.find_elements(By.CSS_SELECTOR, "b#x"):
            fail("a session id became markup")
        screenshot(driver, out, "sessions")

        # Open it; its report, in the frame, steps to an event.
        driver.get(base + "/console/sessions?screen=settings")
        driver.find_element(By.LINK_TEXT, "demo-restored").click()
        wait.until(expected_conditions.url_contains("/console/sessions/demo-restored"))
        check_accessibility(driver, "session")
        screenshot(driver, out, "session")
        driver.switch_to.frame(driver.find_element(By.CSS_SELECTOR, "iframe.report"))
        # The report's script ran: its policy names it by hash.
        wait.until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
        driver.find_element(By.CSS_SELECTOR, 'tr[data-seq="1"]').click()
        wait.until(lambda d: d.find_element(By.ID, "state").get_attribute("data-seq") == "1")
        driver.switch_to.default_content()

        # Follow the restored-from link to the session it continues.
        driver.find_element(By.LINK_TEXT, "demo-tabs").click()
        wait.until(expected_conditions.url_contains("/console/sessions/demo-tabs"))

        # Download its history, import it into a new store, which verifies.
        driver.find_element(By.PARTIAL_LINK_TEXT, "Download its history").click()
        path = os.path.join(downloads, "demo-tabs.jsonl")
        for _ in range(100):
            if os.path.exists(path) and not os.path.exists(path + ".crdownload"):
                break
            time.sleep(0.1)
        else:
            fail(f"the history was not downloaded (found {os.listdir(downloads)})")
        run(binary, "import", path, "--db", "fresh.sqlite", cwd=work)
        run(binary, "verify", "--db", "fresh.sqlite", cwd=work)
        print("console-check: the downloaded history imports into a new store, which verifies")

        # Sign out: the console is closed again.
        driver.find_element(By.CSS_SELECTOR, 'form[action="/console/sign-out"] button').click()
        wait.until(expected_conditions.url_contains("/console/sign-in"))
        driver.get(base + "/console/sessions/demo-tabs")
        if not driver.current_url.endswith("/console/sign-in"):
            fail(f"after signing out, a session page went to {driver.current_url}")
        print(f"console-check: signed in, found, opened, stepped, followed, downloaded, signed out; "
              f"screenshots in {out}")
    finally:
        if driver:
            driver.quit()
        if server:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
