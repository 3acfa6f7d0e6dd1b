"""The pie rule between two browsers: Black's first stone, then the seat that
holds White is offered Swap or Keep; Swap gives it Black's stone and colour."""

from harness import Page, Server, browser, run


def test(binary, data_dir):
    server = Server(binary, data_dir)
    first, second = browser(), browser()
    try:
        ann, bob = Page(first), Page(second)
        ann.open(server.url)
        ann.new_game(size=5, mode="online", name="Ann")
        link = ann.by_id("share-link").get_attribute("value")
        assert "?game=" in link, link
        bob.open(link)
        bob.wait(lambda: "Black: Ann" in bob.text("players"), "Bob sees Ann's seat")
        bob.wait(lambda: "— you" in bob.text("players"), "Bob holds a seat")
        ann.click_point("b2")
        ann.wait_moves(1)
        bob.wait_moves(1)
        # The offer goes to White's holder only.
        bob.wait(lambda: bob.by_id("pie").is_displayed(), "Bob is offered the swap")
        assert not ann.by_id("pie").is_displayed()
        bob.by_id("swap").click()
        assert bob.wait_moves(2) == ["b2", "swap"]
        ann.wait_moves(2)
        # Bob (the second seat) now holds Black with the stone on b2; Ann, White, is to move.
        bob.wait(lambda: any(p.startswith("Black") and "you" in p for p in bob.players()), "Bob holds Black")
        assert any(p.startswith("White: Ann") for p in bob.players()), bob.players()
        assert ann.state_of("b2") == "black"
        ann.wait(lambda: ann.text("status").startswith("White to move (you)"), "Ann, now White, is to move")
        assert not bob.by_id("pie").is_displayed()
        ann.check_console()
        bob.check_console()
    finally:
        first.quit()
        second.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
