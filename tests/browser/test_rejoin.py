"""A link to no game is refused. A reload rejoins the same game in the same seat (the player token kept in
localStorage, the game id in the URL), and so does the second player after
reopening the link; the game goes on."""

from harness import Page, Server, browser, run


def test(binary, data_dir):
    server = Server(binary, data_dir)
    first, second = browser(), browser()
    try:
        ann, bob = Page(first), Page(second)
        # A link to no game says so and leaves the page ready for a new one.
        ann.open(server.url + "?game=nosuchgame0")
        ann.wait(lambda: ann.text("status").startswith("Could not join game nosuchgame0"), "the bad link is refused")
        assert "game=" not in first.current_url, first.current_url
        game = ann.new_game(size=5, mode="online", name="Ann")
        bob.open(ann.by_id("share-link").get_attribute("value"))
        bob.wait(lambda: any(p.startswith("White") and "you" in p for p in bob.players()), "Bob holds White")
        ann.click_point("c3")
        bob.wait_moves(1)
        bob.wait(lambda: bob.by_id("pie").is_displayed(), "the pie offer")
        bob.by_id("keep").click()
        bob.click_point("b4")
        ann.wait_moves(2)

        first.refresh()
        ann.wait(lambda: ann.moves() == ["c3", "b4"], "Ann's reloaded page shows the game")
        assert f"game={game}" in first.current_url
        ann.wait(lambda: any(p.startswith("Black") and "you" in p for p in ann.players()), "Ann still holds Black")
        second.get(server.url + f"?game={game}")
        bob.wait(lambda: bob.moves() == ["c3", "b4"], "Bob's reopened link shows the game")
        bob.wait(lambda: any(p.startswith("White") and "you" in p for p in bob.players()), "Bob still holds White")
        ann.click_point("d3")
        bob.wait_moves(3)
        assert bob.state_of("d3") == "black"
        ann.check_console()
        bob.check_console()
    finally:
        first.quit()
        second.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
