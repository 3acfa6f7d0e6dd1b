"""Copy and paste of a game record: a pasted record starts a local game that
the server replays move by move; Copy record gives the same record back; a
record with an illegal move stops there with the server's reason; a pasted
position string starts a game from that position, and Copy record of such a
game gives its current position."""

from harness import Page, Server, browser, run


def paste(page, text):
    page.d.execute_script("document.getElementById('record-box').open = true")
    box = page.by_id("record-text")
    box.clear()
    box.send_keys(text)
    page.by_id("record-start").click()


def test(binary, data_dir):
    server = Server(binary, data_dir)
    driver = browser()
    try:
        page = Page(driver)
        page.open(server.url)
        driver.execute_script("arguments[0].value = '5'", page.by_id("ng-size"))
        paste(page, "c3, swap b2 c4")
        page.wait(lambda: page.moves() == ["c3", "swap", "b2", "c4"], "the record is replayed")
        assert page.state_of("c3") == "black" and page.state_of("b2") == "white"
        page.by_id("copy-record").click()
        page.wait(lambda: "c3 swap b2 c4" in page.text("detail"), "the record is copied")
        assert page.by_id("record-text").get_attribute("value") == "c3 swap b2 c4"

        paste(page, "c3 d4 b2")
        page.wait(lambda: page.text("detail").startswith("Move 3 (b2)"), "the illegal move is named")
        assert "weak" in page.text("detail"), page.text("detail")
        assert page.moves() == ["c3", "d4"], page.moves()

        paste(page, ".../.B./... w")
        page.wait(lambda: page.state_of("b2") == "black" and page.moves() == [], "the position is set up")
        page.click_point("a1")
        page.wait(lambda: page.moves() == ["a1"], "a move is played from the position")
        assert page.state_of("a1") == "white"
        page.by_id("copy-record").click()
        page.wait(lambda: ".../.B./W.. b" in page.text("detail"), "the position is copied")
        page.check_console()
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
