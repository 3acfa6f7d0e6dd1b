"""An illegal click shows the server's reason, marks the named stone and free
point, and changes nothing; a legal click then plays."""

from harness import Page, Server, browser, run


def test(binary, data_dir):
    server = Server(binary, data_dir)
    driver = browser()
    try:
        page = Page(driver)
        page.open(server.url)
        page.new_game(size=5, mode="local")
        page.click_point("c3")
        page.wait_moves(1)
        page.click_point("d4")
        page.wait_moves(2)
        # Black to move: b2 would weakly connect to c3 while c2 joins it strongly.
        assert page.state_of("b2") == "illegal", page.state_of("b2")
        mark = page.point("b2").get_attribute("data-reason")
        assert mark == "weak-connection", mark
        title = page.point("b2").find_element("css selector", "title").get_attribute("textContent")
        assert "c3" in title and "c2" in title, title
        page.click_point("b2")
        page.wait(lambda: "b2 is illegal" in page.text("detail"), "the reason is shown")
        detail = page.text("detail")
        assert "weak connection" in detail and "c3" in detail and "c2" in detail, detail
        # The stone and the free point the rule names are highlighted.
        assert driver.find_elements("css selector", "#board .hl-stone")
        assert driver.find_elements("css selector", "#board .hl-alt")
        # Nothing changed: the same two moves, b2 still empty and illegal, Black still to move.
        assert page.moves() == ["c3", "d4"], page.moves()
        assert page.state_of("b2") == "illegal"
        assert page.text("status").startswith("Black to move"), page.text("status")
        page.click_point("c2")
        assert page.wait_moves(3) == ["c3", "d4", "c2"]
        page.check_console()
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
