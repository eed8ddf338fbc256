"""The play page's flows in a real browser (headless Chromium): taking money by selecting
cards of the display (the <= 5 rule shown, R-TURN-2), paying by selecting cards of the hand
beside the building (exact or overpaid shown, R-TURN-3/R-TURN-4), another player's Alhambra
large on hover or click, the bots' moves played back one by one with a "thinking" state, a
default-seeded game resumed after a restart, and a stale page's 409 after which the page follows
the game without reloading.
Screenshots of taking and paying are written to ``$ALHAMBRA_SHOTS`` (default
``<tmp>/shots24``)."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from alhambra.web.pages import table_data
from alhambra.web.tables import Seat, Table, TableStore
from browser import headless_chromium

from .pointing import replaced
from .server import LiveServer

SHOTS = Path(os.environ.get("ALHAMBRA_SHOTS") or Path(tempfile.gettempdir()) / "shots24")


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    browser = headless_chromium("1500,1100")
    yield browser
    browser.quit()


def page_data(driver: WebDriver) -> dict[str, Any]:
    return json.loads(driver.find_element(By.ID, "table-data").get_attribute("textContent"))


def seat_link(live: LiveServer, table: Table, seat: int = 0) -> str:
    return f"{live.url}/g/{table.id}/seat/{seat}?t={table.seats[seat].token}"


def person_turn_where(store: TableStore, table: Table, wanted: Any, limit: int = 300) -> list[Any]:
    """Play seat 0 (a person) by the store until ``wanted(legal actions)`` holds at its turn;
    taking the most money otherwise. Returns the legal actions then."""
    for _ in range(limit):
        assert store.settle(table)
        legal = table.game.legal_actions()
        if table.game.phase == "turn" and wanted(legal):
            return legal
        takes = [i for i, a in enumerate(legal) if type(a).__name__ == "TakeMoney"]
        index = max(takes, key=lambda i: sum(c.value for c in legal[i].cards)) if takes else 0
        store.play(table, 0, index, table.version)
    raise AssertionError("no such turn")


def select(driver: WebDriver, box: str, codes: list[str]) -> None:
    """Mark cards: of the money display with their "+" (a card pointed at alone is taken at
    once), of the hand beside a building after unmarking the payment the page chose first."""
    if box == "#pay-cards":
        for c in driver.find_elements(By.CSS_SELECTOR, "#pay-cards .card.selected"):
            c.click()
    for code in codes:
        free = [
            c
            for c in driver.find_elements(By.CSS_SELECTOR, f'{box} .card[data-code="{code}"]')
            if "selected" not in (c.get_attribute("class") or "")
        ]
        (free[0].find_element(By.CSS_SELECTOR, ".plus") if box == "#display" else free[0]).click()


def followed(driver: WebDriver, old: Any, timeout: float = 30) -> None:
    """Wait until the page has followed an action: ``old``, its ``#table-data`` then, replaced."""
    WebDriverWait(driver, timeout).until(replaced(old))


def test_take_money_and_pay_by_selecting_cards(driver: WebDriver, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games")
    try:
        store: TableStore = live.app.state.store
        table = store.create([Seat("Ana", "person"), Seat("Bo", "greedy", "greedy")], seed=8)
        many = person_turn_where(
            store, table, lambda legal: any(type(a).__name__ == "TakeMoney" and len(a.cards) >= 2 for a in legal)
        )
        take = next(a for a in many if type(a).__name__ == "TakeMoney" and len(a.cards) >= 2)
        driver.get(seat_link(live, table))
        assert not driver.find_element(By.ID, "money-list").get_attribute("open")  # no list of combinations shown
        select(driver, "#display", [c.code for c in take.cards])
        line = driver.find_element(By.ID, "take-sum").text
        assert f"= {sum(c.value for c in take.cards)}" in line and "at most 5" in line
        assert driver.find_element(By.ID, "take-selected").is_enabled()
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / "take-by-selection.png"))
        before = len(table.game.history)
        old = driver.find_element(By.ID, "table-data")
        driver.find_element(By.ID, "take-selected").click()
        followed(driver, old)
        assert table.game.history[before] == take

        def plain_buy(legal: list[Any]) -> bool:
            return any(type(a).__name__ == "Buy" and a.via is None and a.cards for a in legal)

        legal = person_turn_where(store, table, plain_buy)
        buys = [a for a in legal if type(a).__name__ == "Buy" and a.via is None and a.cards]
        prices = [m["price"] for m in table.game.view(0)["market"]]
        buy = max(buys, key=lambda a: sum(c.value for c in a.cards) - (prices[a.space - 1] or 0))  # overpaid if it can
        paid, price = sum(c.value for c in buy.cards), prices[buy.space - 1]
        driver.get(seat_link(live, table))
        driver.find_element(By.ID, f"space-{buy.space}").click()
        panel = driver.find_element(By.ID, "pay-panel")
        assert panel.is_displayed() and f"Pay {price}" in driver.find_element(By.ID, "pay-title").text
        select(driver, "#pay-cards", [c.code for c in buy.cards])
        line = driver.find_element(By.ID, "pay-sum").text
        assert (f"overpaid by {paid - price}" if paid > price else "exact: you get another action") in line
        assert driver.find_element(By.ID, "pay-selected").is_enabled()
        driver.save_screenshot(str(SHOTS / "pay-by-selection.png"))
        before = len(table.game.history)
        old = driver.find_element(By.ID, "table-data")
        driver.find_element(By.ID, "pay-selected").click()
        followed(driver, old)
        assert table.game.history[before] == buy
        assert (SHOTS / "take-by-selection.png").stat().st_size > 20_000
    finally:
        live.stop()


def test_a_selection_that_breaks_the_five_rule_is_explained(driver: WebDriver, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games")
    try:
        store: TableStore = live.app.state.store
        table = store.create([Seat("Ana", "person"), Seat("Bo", "random", "random")], seed=3)

        def over_five(legal: list[Any]) -> bool:
            return sum(sorted(c.value for c in table.game.state.display)[-2:]) > 5

        person_turn_where(store, table, over_five)
        driver.get(seat_link(live, table))
        two = sorted(table.game.state.display, key=lambda c: c.value)[-2:]
        select(driver, "#display", [c.code for c in two])
        assert "is too much" in driver.find_element(By.ID, "take-sum").text
        assert not driver.find_element(By.ID, "take-selected").is_enabled()
    finally:
        live.stop()


def test_another_alhambra_large_on_hover_and_click(driver: WebDriver, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games")
    try:
        store: TableStore = live.app.state.store
        table = store.create([Seat("Ana", "person"), Seat("Bo", "greedy", "greedy")], seed=4)
        person_turn_where(store, table, lambda legal: len(table.game.state.players[1].city.tiles) >= 3)
        driver.get(seat_link(live, table))
        small = driver.find_element(By.ID, "city-1")
        width = small.size["width"]
        ActionChains(driver).move_to_element(small).perform()
        WebDriverWait(driver, 5).until(lambda d: "zoomed" in d.find_element(By.ID, "city-1").get_attribute("class"))
        assert driver.find_element(By.ID, "city-1").size["width"] > 2 * width
        ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "header.top .brand")).perform()
        WebDriverWait(driver, 5).until(lambda d: "zoomed" not in d.find_element(By.ID, "city-1").get_attribute("class"))
        driver.find_element(By.ID, "city-1").click()
        assert "zoomed" in driver.find_element(By.ID, "city-1").get_attribute("class")
        driver.save_screenshot(str(SHOTS / "alhambra-large.png"))
    finally:
        live.stop()


def test_bots_moves_are_played_back_one_by_one_with_a_thinking_state(driver: WebDriver, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games", bot_pause=0.8)
    try:
        store: TableStore = live.app.state.store
        table = store.create(
            [Seat("Ana", "person"), Seat("Bo", "random", "random"), Seat("Cy", "random", "random")], seed=6
        )
        assert store.settle(table)
        driver.get(seat_link(live, table))
        legal = table.game.legal_actions()
        index = next(i for i, a in enumerate(legal) if type(a).__name__ == "TakeMoney")
        driver.find_element(By.CSS_SELECTOR, f'#money-list button[data-index="{index}"]').get_property("form")
        driver.execute_script("document.getElementById('money-list').open = true;")
        old = driver.find_element(By.ID, "table-data")
        driver.find_element(By.CSS_SELECTOR, f'#money-list button[data-index="{index}"]').click()
        followed(driver, old)
        seen_logs: set[int] = set()
        thinking = False
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                data = page_data(driver)
                thinking = thinking or bool(driver.find_elements(By.ID, "thinking"))
                seen_logs.add(len(driver.find_elements(By.CSS_SELECTOR, "#log li")))
                if data["decides"]:
                    break
            except Exception:  # noqa: BLE001, S112 -- the page is replacing its content
                continue
            time.sleep(0.1)
        assert data["decides"], "Ana's turn came back"
        assert thinking and len(seen_logs) >= 3  # several states shown: one per bot move, not all at once
    finally:
        live.stop()


def test_a_default_seeded_game_resumes_after_a_restart(driver: WebDriver, tmp_path: Path) -> None:
    data = tmp_path / "games"
    live = LiveServer(data)
    try:
        driver.get(live.url + "/")
        driver.find_element(By.ID, "name0").send_keys("Ana")
        Select(driver.find_element(By.ID, "kind1")).select_by_value("greedy")
        driver.find_element(By.ID, "start").click()  # no seed typed
        WebDriverWait(driver, 30).until(lambda d: "/host" in d.current_url)
        table = next(iter(live.app.state.store.tables.values()))
        assert live.app.state.store.settle(table)
        seed = table.game.seed
        driver.get(seat_link(live, table))
        old = driver.find_element(By.ID, "table-data")
        code = table.game.state.display[0].code
        driver.find_element(By.CSS_SELECTOR, f'#display .card[data-code="{code}"]').click()  # one card: one click
        followed(driver, old)
        assert live.app.state.store.settle(table)
        version = table.version
        link = seat_link(live, table)
    finally:
        live.stop()
    again = LiveServer(data)
    try:
        store = again.app.state.store
        assert store.problems == [] and store.get(table.id).game.seed == seed
        driver.get(link.replace(live.url, again.url))
        assert store.get(table.id).version == version
        assert page_data(driver)["version"] == version and page_data(driver)["decides"]
    finally:
        again.stop()


def test_a_stale_page_gets_a_409_and_follows_the_game(driver: WebDriver, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games")
    try:
        store: TableStore = live.app.state.store
        table = store.create([Seat("Ana", "person"), Seat("Bo", "person")], seed=9)
        seat = table.decider
        driver.get(seat_link(live, table, seat))
        # a page that has not yet seen the change: its polling of /version held up
        driver.execute_script(
            "window.alhambraStayed = true; var f = window.fetch; window.fetch = function (u, o) {"
            " return String(u).indexOf('/version') >= 0 ? new Promise(function () {}) : f(u, o); };"
        )
        store.play(table, seat, 0, table.version)  # played elsewhere: this page is stale now
        driver.execute_script(
            "document.getElementById('money-list') && (document.getElementById('money-list').open = true);"
        )
        driver.find_element(By.CSS_SELECTOR, "#money-list button.act").click()
        WebDriverWait(driver, 15).until(lambda d: d.find_elements(By.ID, "notice"))
        assert "the game had moved on" in driver.find_element(By.ID, "notice").text  # the 409, said
        assert page_data(driver)["version"] == table_data(table, seat)["version"]  # the page follows the game
        assert not page_data(driver)["decides"]
        assert f"/seat/{seat}?t=" in driver.current_url
        assert driver.execute_script("return window.alhambraStayed === true;")  # without reloading
    finally:
        live.stop()
