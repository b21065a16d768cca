"""The support console in a real browser: headless Chromium driven by Selenium.

    python3 Tests/Browser/console_check.py NAVSTORE OUT-DIR [--postgres URL]

Starts `navstore serve` on a demo store (with a session restored from another, and one whose id
and screen are markup), then, as a support engineer would: opens a ticket's link and signs in
with a read token, lands on the page the link named, finds a session by a screen it showed,
looks over the fleet, opens a session, steps to an event in its report, follows the
restored-from link, downloads the history and imports it into a new store that verifies, signs
out and is refused. With --postgres, it then pushes the same sessions to a collector on that
database and walks through it again. axe-core (axe-selenium-python) checks every page kind: no
serious or critical violation. Screenshots at desktop and phone widths go to OUT-DIR.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

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
    # demo-tabs' host, the tabs it hosted dropped: a restore that fits demo-tabs at seq 15.
    start = {"routes": [{"screen": {"mainTabs": {}}, "style": "root"}]}
    lines = [
        {"session": "demo-restored", "seq": 1, "at": "2026-11-21T09:40:00.000Z",
         "op": {"op": "start", "state": start, "restoredFrom": {"session": "demo-tabs", "seq": 15}}},
        {"session": "demo-restored", "seq": 2, "at": "2026-11-21T09:40:02.000Z", "origin": "user",
         "op": {"op": "presentSheet", "screen": "settings"}},
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
        driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(out, f"console-{name}-{label}.png"))
    driver.set_window_size(1280, 1000)


def start_server(binary, db, work):
    """`navstore serve` on `db` (a file, or a PostgreSQL URL), on a free port: its process and base URL."""
    server = subprocess.Popen([binary, "serve", "--db", db, "--listen", "127.0.0.1:0"],
                              cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline().strip()
    if not line.startswith("listening on "):
        server.terminate()
        fail(f"serve --db {db.split('@')[-1]} did not start: {line!r}")
    return server, line[len("listening on "):]


def browser(downloads):
    options = webdriver.ChromeOptions()
    # Debian's chromium and its driver, named: nothing is fetched from the network.
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                              "download.prompt_for_download": False})
    return webdriver.Chrome(
        options=options, service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"))


def walk(binary, driver, base, token, work, downloads, out, store):
    """A support engineer's walk through the console at `base`, signed in with `token`."""
    wait = WebDriverWait(driver, 15)
    shots = out if store == "sqlite" else None

    # A ticket's link, before signing in: the sign-in page, and the same page after it.
    driver.get(base + "/console/sessions?screen=settings")
    if "/console/sign-in" not in driver.current_url:
        fail(f"{store}: unsigned, /console/sessions went to {driver.current_url}")
    check_accessibility(driver, f"sign-in ({store})")
    if shots:
        screenshot(driver, out, "sign-in")
    field = driver.find_element(By.ID, "token")
    field.send_keys(token)
    field.submit()
    try:
        wait.until(expected_conditions.url_contains("/console/sessions?screen=settings"))
    except Exception:
        fail(f"{store}: signing in went to {driver.current_url}, not the page asked for: {driver.page_source[:600]}")
    if token in driver.current_url:
        fail("the token is in the URL")

    # Find a session by a screen it showed: settings, which only demo-restored shows here.
    links = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "tbody td.id a")]
    if "demo-restored" not in links:
        fail(f"{store}: the sessions that showed settings: {links}")
    driver.find_element(By.ID, "screen").clear()
    driver.find_element(By.ID, "screen").send_keys("numbersList")
    driver.find_element(By.ID, "screen").submit()
    wait.until(expected_conditions.url_contains("screen=numbersList"))
    links = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "tbody td.id a")]
    if "demo-numbers" not in links or "demo-restored" in links:
        fail(f"{store}: the sessions that showed numbersList: {links}")
    check_accessibility(driver, f"sessions ({store})")
    driver.get(base + "/console/sessions")
    if HOSTILE not in [a.text for a in driver.find_elements(By.CSS_SELECTOR, "tbody td.id a")]:
        fail(f"{store}: the session whose id is markup is not listed by its id as text")
    if driver.find_elements(By.CSS_SELECTOR, "b#x"):
        fail("a session id became markup")
    if shots:
        screenshot(driver, out, "sessions")

    # The fleet at a glance: today's demo sessions in its plots.
    driver.find_element(By.LINK_TEXT, "Fleet").click()
    wait.until(expected_conditions.url_contains("/console/fleet"))
    visited = driver.find_elements(By.CSS_SELECTOR, "section.plot svg[aria-label^='The most visited screens'] rect.bar")
    if len(visited) < 3:
        fail(f"{store}: the most visited screens plot has {len(visited)} bars")
    labels = " ".join(svg.get_attribute("aria-label") for svg in driver.find_elements(By.CSS_SELECTOR, "svg.chart"))
    events = re.search(r"Events per day: (\d+) events", labels)
    # The demo's 94 events are today's (the hostile and restored sessions are dated in the past).
    if "numberDetail" not in labels or not events or int(events.group(1)) < 94:
        fail(f"{store}: the overview's plots say: {labels[:400]}")
    check_accessibility(driver, f"fleet ({store})")
    if shots:
        screenshot(driver, out, "fleet")

    # Open a session; its report, in the frame, steps to an event.
    driver.get(base + "/console/sessions?screen=settings")
    driver.find_element(By.LINK_TEXT, "demo-restored").click()
    wait.until(expected_conditions.url_contains("/console/sessions/demo-restored"))
    check_accessibility(driver, f"session ({store})")
    if shots:
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

    # Its restore plan, timed again for the delay the app uses.
    driver.switch_to.frame(driver.find_element(By.CSS_SELECTOR, "iframe.report"))
    wait.until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
    delay = driver.find_element(By.ID, "delay")
    delay.clear()
    delay.send_keys("1000")
    times = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#plan li[data-step] .time")]
    expected = [f"{0 if step < 2 else (step - 1) * 1000} ms" for step in range(len(times))]
    if len(times) < 3 or times != expected:
        fail(f"{store}: the plan at a delay of 1000 ms: {times}")
    driver.switch_to.default_content()

    # Download its history, import it into a new store, which verifies.
    path = os.path.join(downloads, "demo-tabs.jsonl")
    if os.path.exists(path):
        os.remove(path)
    driver.find_element(By.PARTIAL_LINK_TEXT, "Download its history").click()
    for _ in range(100):
        if os.path.exists(path) and not os.path.exists(path + ".crdownload"):
            break
        time.sleep(0.1)
    else:
        fail(f"{store}: the history was not downloaded (found {os.listdir(downloads)})")
    fresh = f"fresh-{store}.sqlite"
    run(binary, "import", path, "--db", fresh, cwd=work)
    run(binary, "verify", "--db", fresh, cwd=work)
    print(f"console-check: {store}: the downloaded history imports into a new store, which verifies")

    # Sign out: the console is closed again.
    driver.find_element(By.CSS_SELECTOR, 'form[action="/console/sign-out"] button').click()
    wait.until(expected_conditions.url_contains("/console/sign-in"))
    driver.get(base + "/console/sessions/demo-tabs")
    if "/console/sign-in" not in driver.current_url:
        fail(f"{store}: after signing out, a session page went to {driver.current_url}")
    print(f"console-check: {store}: signed in, found, looked over the fleet, opened, stepped, followed, "
          f"downloaded, signed out")


def find_in_index(binary, driver, work):
    """`navstore report --all`'s index, opened from disk: the box finds a session by its row's text."""
    run(binary, "report", "--all", "--db", "collector.sqlite", "--out", "reports", cwd=work)
    driver.get("file://" + os.path.join(work, "reports", "index.html"))
    WebDriverWait(driver, 15).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
    first = driver.find_element(By.CSS_SELECTOR, "#sessions tbody tr td").text
    # The demo's last session (its sessions are today's; the extra ones are older).
    if first != "demo-killed-relaunch":
        fail(f"the index's first row is {first!r}, not the latest session")
    driver.find_element(By.ID, "find").send_keys("demo-tabs")
    shown = [row.find_element(By.TAG_NAME, "td").text
             for row in driver.find_elements(By.CSS_SELECTOR, "#sessions tbody tr") if row.is_displayed()]
    # demo-tabs itself, and demo-restored, which continues it.
    if sorted(shown) != ["demo-restored", "demo-tabs"]:
        fail(f"finding demo-tabs in the index shows {shown}")
    check_accessibility(driver, "report index")
    print("console-check: the report index finds demo-tabs and the session that continues it")


def main():
    arguments = sys.argv[1:]
    postgres = None
    if len(arguments) == 4 and arguments[2] == "--postgres":
        postgres = arguments[3]
        arguments = arguments[:2]
    if len(arguments) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary, out = os.path.abspath(arguments[0]), os.path.abspath(arguments[1])
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="navstore-console-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    servers = []
    driver = None
    try:
        # The demo's sessions from two hours ago, so that the overview's days hold them.
        start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 7200))
        run(binary, "demo", "--db", "collector.sqlite", "--no-wait", "--start", start, cwd=work)
        with open(os.path.join(work, "extra.jsonl"), "w", encoding="utf-8") as file:
            file.write(extra_sessions())
        run(binary, "import", "extra.jsonl", "--db", "collector.sqlite", cwd=work)
        token = run(binary, "token", "create", "--app", "default", "--role", "read", "--db", "collector.sqlite",
                    cwd=work)
        server, base = start_server(binary, "collector.sqlite", work)
        servers.append(server)
        driver = browser(downloads)
        walk(binary, driver, base, token, work, downloads, out, "sqlite")
        find_in_index(binary, driver, work)

        if postgres:
            # The same sessions, pushed to a collector on PostgreSQL, in an app of their own.
            app = f"console-check-{os.getpid()}"
            ingest = run(binary, "token", "create", "--app", app, "--role", "ingest", "--db", postgres, cwd=work)
            reader = run(binary, "token", "create", "--app", app, "--role", "read", "--db", postgres, cwd=work)
            server, base = start_server(binary, postgres, work)
            servers.append(server)
            run(binary, "push", "--to", base, "--token", ingest, "--db", "collector.sqlite", cwd=work)
            walk(binary, driver, base, reader, work, downloads, out, "postgresql")
        print(f"console-check: screenshots in {out}")
    finally:
        if driver:
            driver.quit()
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
