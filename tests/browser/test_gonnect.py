"""Gonnect: neutral edges, a capture shown briefly where the stone was (then
gone), and the captured point's new mark from the server (suicide for Black)."""

import time

from harness import Page, Server, browser, run


def captured(page):
    return page.d.execute_script(
        "return Array.from(document.querySelectorAll('#board .captured'), g => g.dataset.point)")


def test(binary, data_dir):
    server = Server(binary, data_dir)
    driver = browser()
    try:
        page = Page(driver)
        page.open(server.url)
        page.new_game(game="gonnect", size=5, mode="local")
        assert driver.find_elements("css selector", "#board .edge-neutral")
        assert not driver.find_elements("css selector", "#board .edge-black")
        for n, move in enumerate(["a1", "a2", "e5", "b1"]):
            page.click_point(move)
            page.wait_moves(n + 1)
        # White's b1 takes Black's a1: shown as captured, then faded and removed.
        assert captured(page) == ["a1"], captured(page)
        assert page.state_of("a1") != "black"
        assert page.text("status").startswith("Black to move")
        time.sleep(3)
        assert captured(page) == [], captured(page)
        assert page.point("a1").get_attribute("data-reason") == "suicide"
        page.check_console()
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
