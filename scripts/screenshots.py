#!/usr/bin/python3
"""Screenshots of the board page for docs/ and the README, taken with the
browser tests' set-up (headless Chromium, Selenium, `konobi serve` on a free
port with a scratch data folder).

usage: scripts/screenshots.py PATH/TO/konobi [OUT_DIR]   (default docs/images)
"""

import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "browser"))

from harness import Page, Server, browser  # noqa: E402


def play(page, moves):
    for n, move in enumerate(moves):
        page.wait(lambda: page.state_of(move) == "legal", f"{move} is legal")
        page.click_point(move)
        page.wait_moves(n + 1)


def shrink(path):
    # Fewer colours where a PNG is large; pngquant is not needed for these flat pictures.
    size = os.path.getsize(path)
    print(f"{path}: {size // 1024} KB")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary = os.path.abspath(sys.argv[1])
    out = os.path.abspath(sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(HERE), "docs", "images"))
    os.makedirs(out, exist_ok=True)
    server = Server(binary, tempfile.mkdtemp(prefix="konobi-shots-"))
    try:
        driver = browser(1180, 940)
        try:
            page = Page(driver)
            page.open(server.url)
            # A game in progress: illegal marks, and the reason of one of them with its stone and free point.
            page.new_game(size=7, mode="local", name="Ann")
            play(page, ["d4", "e5", "d5", "e4", "d3", "c4", "c3"])
            bad = driver.execute_script(
                "const g = document.querySelector('#board .pt.reason-weak-connection');"
                "return g ? g.dataset.point : null")
            if bad:
                page.click_point(bad)
                time.sleep(0.3)
            driver.save_screenshot(os.path.join(out, "web-game.png"))
            shrink(os.path.join(out, "web-game.png"))

            # The analysis view of a 5x5 position.
            page.new_game(size=5, mode="local")
            play(page, ["b3", "c3", "b2", "c2", "d4", "d2"])
            page.by_id("analyze").click()
            page.wait(lambda: driver.find_elements("css selector", "#board .valued"), "the analysis arrives", 60)
            time.sleep(0.3)
            driver.save_screenshot(os.path.join(out, "web-analysis.png"))
            shrink(os.path.join(out, "web-analysis.png"))

            # A puzzle.
            page.by_id("tab-puzzles").click()
            driver.execute_script("arguments[0].value = '6'", page.by_id("pz-size"))
            page.by_id("pz-load").click()
            page.wait(lambda: "to play and win" in page.text("pz-status"), "a puzzle is shown")
            # A wrong answer, refuted on the board.
            with open(os.path.join(os.path.dirname(HERE), "results", "puzzles-6x6.json")) as f:
                puzzle = json.load(f)["puzzles"][0]
            shown = subprocess.run([binary, "show", "--json", "-p", puzzle["position"]],
                                   capture_output=True, text=True, check=True)
            wrong = next(p for p in json.loads(shown.stdout)["legal"] if p != puzzle["solution"])
            page.click_point(wrong)
            page.wait(lambda: page.by_id("pz-retry").is_displayed(), "the refutation is played", 60)
            time.sleep(0.3)
            driver.save_screenshot(os.path.join(out, "web-puzzle.png"))
            shrink(os.path.join(out, "web-puzzle.png"))

            # The knowledge panel of 5x5.
            page.by_id("tab-knowledge").click()
            page.by_id("kn-show").click()
            page.wait(lambda: "Pie rule" in page.text("kn-facts"), "the knowledge arrives")
            time.sleep(0.3)
            driver.save_screenshot(os.path.join(out, "web-knowledge.png"))
            shrink(os.path.join(out, "web-knowledge.png"))
        finally:
            driver.quit()

        # A phone: an online game seen on a 390 px wide screen.
        driver = browser(390, 844)
        try:
            page = Page(driver)
            page.open(server.url)
            page.new_game(size=9, mode="online", name="Bo")
            play(page, ["e5"])
            driver.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.3)
            driver.save_screenshot(os.path.join(out, "web-phone.png"))
            shrink(os.path.join(out, "web-phone.png"))
        finally:
            driver.quit()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
