"""Keyboard play: the board takes the focus by Tab, the arrow keys move the
cursor (shown, and its point described), Enter and Space place stones."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import Page, Server, browser, run


def test(binary, data_dir):
    server = Server(binary, data_dir)
    driver = browser()
    try:
        page = Page(driver)
        page.open(server.url)
        page.new_game(size=5, mode="local")
        # Starting a game puts the focus on the board; the cursor starts in the middle (c3).
        page.wait(lambda: driver.switch_to.active_element.get_attribute("id") == "board", "the board has the focus")
        keys = ActionChains(driver)
        keys.send_keys(Keys.ARROW_LEFT).send_keys(Keys.ARROW_UP).perform()
        page.wait(lambda: page.text("detail").startswith("b4"), "the cursor's point is described")
        assert driver.find_element("css selector", "#board .cursor").is_displayed()
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        assert page.wait_moves(1) == ["b4"]
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, " ").perform()
        assert page.wait_moves(2) == ["b4", "d3"]
        assert page.state_of("d3") == "white"
        # Tab leaves the board for the controls and Shift+Tab comes back to it.
        ActionChains(driver).send_keys(Keys.TAB).perform()
        assert driver.switch_to.active_element.get_attribute("id") != "board"
        ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        assert driver.switch_to.active_element.get_attribute("id") == "board"
        page.check_console()
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    run(test)
