"""Against the engine: the human's move is answered by the engine's, and undo
takes the game back to the human's previous turn."""

from harness import Page, Server, browser, run


def test(binary, data_dir):
    server = Server(binary, data_dir)
    driver = browser()
    try:
        page = Page(driver)
        page.open(server.url)
        page.new_game(size=5, mode="engine", seat="first", seconds=0.2, name="Ann")
        players = page.players()
        assert any(p.startswith("White") and "(engine)" in p for p in players), players
        page.click_point("c3")
        moves = page.wait_moves(2)
        assert moves[0] == "c3" and len(moves) == 2, moves
        assert moves[1] != "c3"
        page.wait(lambda: page.text("status").startswith("Black to move (you)"), "the human is to move again")
        page.by_id("undo").click()
        page.wait(lambda: page.moves() == [], "undo takes back the engine's move and the human's")
        page.check_console()
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
