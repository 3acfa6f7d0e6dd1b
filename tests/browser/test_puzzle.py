"""Puzzle mode: the shipped 5x5 puzzles load; the solution's first move is
accepted, and a wrong move is refuted by the server's line, played out on
the board."""

import json
import os
import subprocess

from harness import SOURCE_DIR, Page, Server, browser, run


def stone_count(page):
    return page.d.execute_script("return document.querySelectorAll('#board .pt.stone').length")


def test(binary, data_dir):
    with open(os.path.join(SOURCE_DIR, "results", "puzzles-5x5.json")) as f:
        first = json.load(f)["puzzles"][0]
    shown = subprocess.run([binary, "show", "--json", "-p", first["position"]],
                           capture_output=True, text=True, check=True)
    wrong = next(p for p in json.loads(shown.stdout)["legal"] if p != first["solution"])
    server = Server(binary, data_dir)
    driver = browser()
    try:
        page = Page(driver)
        page.open(server.url)
        page.by_id("tab-puzzles").click()
        driver.execute_script("arguments[0].value = '5'", page.by_id("pz-size"))
        page.by_id("pz-load").click()
        page.wait(lambda: len(driver.find_elements("css selector", "#pz-list button")) > 0, "puzzles are listed")
        page.wait(lambda: "to play and win" in page.text("pz-status"), "the first puzzle is shown")
        start = stone_count(page)
        assert start == sum(c in "BW" for c in first["position"].split()[0]), start

        # A wrong move: the refutation is played on the board, then Try again.
        page.click_point(wrong)
        page.wait(lambda: "wrong" in page.text("pz-status"), "the wrong move is refuted")
        page.wait(lambda: page.by_id("pz-retry").is_displayed(), "the refutation has been played")
        assert stone_count(page) >= start + 2, (start, stone_count(page))
        assert page.state_of(wrong) == first["to_move"]
        page.by_id("pz-retry").click()
        page.wait(lambda: stone_count(page) == start, "the puzzle starts again")

        # The solution: its first move, then after each reply a winning move
        # found by `konobi analyze`, until the page says it is solved.
        move = first["solution"]
        for _ in range(first["remoteness"]):
            line = page.by_id("pz-status").get_attribute("data-line").split()
            page.click_point(move)
            page.wait(lambda: "right" in page.by_id("pz-status").get_attribute("class") and (
                "Solved" in page.text("pz-status") or (
                    len(page.by_id("pz-status").get_attribute("data-line").split()) == len(line) + 2 and
                    "interactive" in page.by_id("board").get_attribute("class"))),
                f"{move} is accepted and answered")
            assert page.state_of(move) == first["to_move"]
            if "Solved" in page.text("pz-status"):
                break
            line = page.by_id("pz-status").get_attribute("data-line").split()
            analysed = subprocess.run([binary, "analyze", "--json", "-p", first["position"], "--moves", " ".join(line)],
                                      capture_output=True, text=True, check=True)
            move = next(m["move"] for m in json.loads(analysed.stdout)["moves"] if m["value"] == "win")
        assert "Solved" in page.text("pz-status"), page.text("pz-status")
        page.check_console()
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
