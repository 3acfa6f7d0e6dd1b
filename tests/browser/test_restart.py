"""A server restart on the same data folder keeps the game: the page
reconnects by itself to the restarted server (same port), rejoins, shows the
moves and plays on."""

from harness import Page, Server, browser, run


def test(binary, data_dir):
    server = Server(binary, data_dir)
    driver = browser()
    try:
        page = Page(driver)
        page.open(server.url)
        game = page.new_game(size=5, mode="local")
        for n, move in enumerate(["c3", "b4", "c2"]):
            page.click_point(move)
            page.wait_moves(n + 1)
        port = server.port
        server.stop()
        page.wait(lambda: "reconnecting" in page.text("net"), "the page sees the server gone")
        server.start(port)
        page.wait(lambda: page.text("net") == "connected", "the page reconnects")
        page.wait(lambda: page.moves() == ["c3", "b4", "c2"], "the game is back")
        assert f"game={game}" in driver.current_url
        page.wait(lambda: page.state_of("e4") == "legal", "the restored state arrives")
        page.click_point("e4")
        assert page.wait_moves(4) == ["c3", "b4", "c2", "e4"]
        # A fresh tab on the restarted server finds the game by its link too.
        driver.get(server.url + f"?game={game}")
        page.wait(lambda: len(page.moves()) == 4, "the link opens the game")
        page.check_console()
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
