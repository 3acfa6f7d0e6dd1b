"""A whole game between two browsers through the server: the creator shares
the link, the second player joins by opening it, a third browser watches, the
moves reach everyone, and the end shows the winner and the winning chain."""

from harness import Page, Server, browser, run


def test(binary, data_dir):
    server = Server(binary, data_dir)
    drivers = [browser(), browser(), browser()]
    try:
        ann, bob, eve = (Page(d) for d in drivers)
        ann.open(server.url)
        ann.new_game(size=3, mode="online", name="Ann")
        link = ann.by_id("share-link").get_attribute("value")
        bob.open(link)
        bob.wait(lambda: any(p.startswith("White") and "you" in p for p in bob.players()), "Bob holds White")
        eve.open(link)
        eve.wait(lambda: "You are watching." in eve.players(), "Eve watches")
        # Black joins top and bottom through the middle column; White does not swap.
        for n, (page, move) in enumerate([(ann, "b1"), (bob, "a2"), (ann, "b2"), (bob, "c2"), (ann, "b3")]):
            page.wait(lambda: page.state_of(move) == "legal" and "(you)" in page.text("status"),
                      f"{move} can be played")
            page.click_point(move)
            for p in (ann, bob, eve):
                p.wait_moves(n + 1)
        for p in (ann, bob, eve):
            p.wait(lambda: p.text("status").startswith("Black wins"), "the winner is shown")
            chain = p.d.execute_script(
                "return Array.from(document.querySelectorAll('#board .pt.chain'), g => g.dataset.point).sort()")
            assert chain == ["b1", "b2", "b3"], chain
            assert p.moves() == ["b1", "a2", "b2", "c2", "b3"], p.moves()
        # A watcher's click plays nothing.
        assert eve.by_id("resign").get_attribute("hidden") is not None
        ann.check_console()
        bob.check_console()
        eve.check_console()
    finally:
        for d in drivers:
            d.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
