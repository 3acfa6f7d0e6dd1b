"""The browser tests' harness: starts `konobi serve` on a free port with a
fresh data folder, opens headless Chromium through chromedriver (Debian's
packages, installed by scripts/setup.sh) and gives the page's state as the
DOM shows it. A test fails, never skips, when something is missing."""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAIT = 15  # seconds any one expected change may take


class Server:
    """`konobi serve --port PORT --data DIR`; the URL is its first line."""

    def __init__(self, binary, data_dir, port=0):
        self.binary = binary
        self.data_dir = data_dir
        self.start(port)

    def start(self, port=0):
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--port", str(port), "--data", self.data_dir],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=SOURCE_DIR)
        line = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(30)
        found = re.search(r"https?://\S+", line[0]) if line else None
        if not found:
            self.stop()
            raise AssertionError(f"konobi serve printed no URL: {line[0] if line else '(nothing in 30 s)'!r}")
        self.url = found.group(0)
        if not self.url.endswith("/"):
            self.url += "/"
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        # Keep draining its output so that it never blocks on a full pipe.
        threading.Thread(target=lambda: self.proc.stdout.read(), daemon=True).start()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def browser(width=1200, height=900):
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            raise AssertionError(f"{path} is missing: scripts/setup.sh installs chromium and chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(arg)
    if width < 500:
        # A phone: Chromium's windows are at least 500 px wide, so emulate the screen.
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class Page:
    """One browser tab on the board page."""

    def __init__(self, driver):
        self.d = driver

    def open(self, url):
        self.d.get(url)
        self.wait(lambda: "connected" == self.text("net"), "the page connects")

    def wait(self, cond, what, timeout=WAIT):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)
                                 ).until(lambda _: cond())
        except Exception as e:
            raise AssertionError(f"timed out waiting until {what}; status: {self.text('status')!r}, "
                                 f"detail: {self.text('detail')!r}") from e

    def check_console(self):
        """No script error on the page (a refused connection while the server
        restarts is not one)."""
        errors = [e["message"] for e in self.d.get_log("browser") if e["level"] == "SEVERE"
                  and "WebSocket" not in e["message"] and "ERR_CONNECTION_REFUSED" not in e["message"]]
        assert not errors, f"errors on the page: {errors}"

    def by_id(self, id_):
        return self.d.find_element(By.ID, id_)

    def text(self, id_):
        return self.d.execute_script(
            "const e = document.getElementById(arguments[0]); return e ? e.textContent : ''", id_)

    def players(self):
        return self.d.execute_script(
            "return Array.from(document.querySelectorAll('#players li'), li => li.textContent)")

    def point(self, name):
        return self.d.find_element(By.CSS_SELECTOR, f'#board [data-point="{name}"]')

    def state_of(self, name):
        return self.d.execute_script(
            "const g = document.querySelector(`#board [data-point='${arguments[0]}']`);"
            "return g ? g.dataset.state : null", name)

    def click_point(self, name):
        # The hit rectangle of the point: it covers the whole cell.
        self.point(name).find_element(By.CSS_SELECTOR, "rect.hit").click()

    def moves(self):
        return self.d.execute_script(
            "return Array.from(document.querySelectorAll('#moves li'), li => li.dataset.move)")

    def wait_moves(self, n):
        self.wait(lambda: len(self.moves()) >= n, f"{n} moves are listed")
        return self.moves()

    def new_game(self, game="konobi", size=5, mode="local", seat="first", seconds=None, name=None):
        d = self.d
        if not self.by_id("new-game").get_attribute("open"):
            self.by_id("new-game").find_element(By.TAG_NAME, "summary").click()
        for id_, value in (("ng-game", game), ("ng-size", str(size)), ("ng-mode", mode)):
            d.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))",
                             self.by_id(id_), value)
        if mode != "local":
            d.execute_script("arguments[0].value = arguments[1]", self.by_id("ng-seat"), seat)
        if seconds is not None:
            d.execute_script("arguments[0].value = arguments[1]", self.by_id("ng-seconds"), str(seconds))
        if name is not None:
            self.by_id("ng-name").clear()
            self.by_id("ng-name").send_keys(name)
        self.by_id("ng-start").click()
        self.wait(lambda: "game=" in d.current_url and self.d.find_elements(
            By.CSS_SELECTOR, f'#board[data-size="{size}"]') and not self.by_id("game-info").get_attribute("hidden"),
            "the new game is shown")
        return d.current_url.split("game=")[1].split("&")[0]


def run(test):
    """Runs test(binary, data_dir) with the binary from argv; exit status 1 on failure."""
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} PATH/TO/konobi", file=sys.stderr)
        sys.exit(2)
    binary = os.path.abspath(sys.argv[1])
    data_dir = tempfile.mkdtemp(prefix="konobi-browser-")
    start = time.time()
    try:
        test(binary, data_dir)
    except Exception:
        traceback.print_exc()
        print(f"FAILED after {time.time() - start:.1f} s")
        sys.exit(1)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    print(f"passed in {time.time() - start:.1f} s")
