"""The play page in a real browser (headless Chromium from Debian's ``chromium`` and
``chromium-driver`` packages; ``.ci/run`` installs them): a whole two-player game against a
bot played through clicks to the final scores, and a game with every module on that uses a
vizier offer, a building hut and an exchange office. The second takes the README's
screenshot (``docs/img/play.png``, renewed with ``ALHAMBRA_SCREENSHOT``)."""

from __future__ import annotations

import json
import os
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser import headless_chromium
from selenium.webdriver.support.ui import Select, WebDriverWait

from .pointing import replaced
from .server import LiveServer

#: where the README's screenshot is written: a scratch file unless asked for
#: (``ALHAMBRA_SCREENSHOT=docs/img/play.png pytest tests/web/test_web_browser.py`` renews the picture)
SCREENSHOT = Path(os.environ.get("ALHAMBRA_SCREENSHOT") or Path(tempfile.gettempdir()) / "alhambra-play.png")
ALL_MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    browser = headless_chromium("1500,1000")
    yield browser
    browser.quit()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "games")
    yield live
    live.stop()


def state(server: LiveServer, url: str) -> dict[str, Any]:
    """The JSON twin of the play page at ``url`` (what the person sees, to decide with)."""
    parts = urlparse(url)
    token = parse_qs(parts.query)["t"][0]
    with urllib.request.urlopen(f"{server.url}{parts.path}/state.json?t={token}") as r:
        return json.loads(r.read())


def start_game(driver: WebDriver, server: LiveServer, bot: str, modules: list[str], seed: int) -> None:
    """Fill in the new-game form (a person and a bot), start, and sit down at the hot seat."""
    driver.get(server.url + "/")
    driver.find_element(By.ID, "name0").send_keys("Ana")
    Select(driver.find_element(By.ID, "kind1")).select_by_value(bot)
    for m in modules:
        driver.find_element(By.ID, f"module-{m}").click()
    driver.find_element(By.NAME, "seed").send_keys(str(seed))
    driver.find_element(By.ID, "start").click()
    for step in ("hotseat", "show-hand"):
        WebDriverWait(driver, 60).until(lambda d, step=step: d.find_elements(By.ID, step))[0].click()
    WebDriverWait(driver, 60).until(lambda d: "/seat/" in d.current_url)


def sit_down(driver: WebDriver) -> bool:
    """At the hot seat's curtain, wait for the bots (they move in the background) and sit
    down again; False once the game is over."""
    if "/seat/" in driver.current_url:
        return True
    if "/next" not in driver.current_url:
        return False
    WebDriverWait(driver, 120).until(
        lambda d: d.find_elements(By.ID, "show-hand") or d.find_elements(By.ID, "final-scores")
    )
    shown = driver.find_elements(By.ID, "show-hand")
    if not shown:
        return False
    shown[0].click()
    WebDriverWait(driver, 60).until(lambda d: "/seat/" in d.current_url)
    return True


def wait_for_new_page(driver: WebDriver, old: Any) -> None:
    """Wait until the page has followed an action: ``old`` (its ``#table-data`` then) replaced
    by the page's script, or another page (the hot seat's curtain)."""
    WebDriverWait(driver, 60).until(replaced(old))


def page_marker(driver: WebDriver) -> Any:
    return driver.find_element(By.ID, "table-data")


def click_action(driver: WebDriver, action: dict[str, Any], on_pick: Any = None) -> None:
    """Play ``action`` by pointing, as a person would: a market building then a payment, a
    tile then a highlighted cell, or the action's own button. ``on_pick()`` runs once a tile
    is picked and its cells are highlighted."""
    old = page_marker(driver)
    kind = action["kind"]
    if "space" in action and not action.get("via") and action.get("cards"):
        driver.find_element(By.ID, f"space-{action['space']}").click()  # then the cards of the hand beside it
        select_cards(driver, "#pay-cards", action["cards"])
        driver.find_element(By.ID, "pay-selected").click()
    elif "space" in action:
        driver.find_element(By.ID, f"space-{action['space']}").click()  # then the payment, in the list
        driver.find_element(By.CSS_SELECTOR, f'#pay-options .payment[data-index="{action["index"]}"]').click()
        driver.find_element(By.ID, "pay-selected").click()
    elif kind == "TakeMoney":
        select_cards(driver, "#display", action["cards"])
        if len(action["cards"]) > 1:  # one card is taken by pointing at it
            driver.find_element(By.ID, "take-selected").click()
    elif "tile" in action and "pos" in action:
        if not driver.find_elements(By.CSS_SELECTOR, f'.picked[data-pick="tile:{action["tile"]}"]'):
            driver.find_element(By.CSS_SELECTOR, f'[data-pick="tile:{action["tile"]}"]').click()
        if on_pick is not None:
            on_pick()
        x, y = action["pos"]
        cell = driver.find_element(By.CSS_SELECTOR, f'#my-city .target[data-pos="{x},{y}"]')
        assert cell.get_attribute("data-index") == str(action["index"])
        cell.click()
    elif kind == "RemoveToReserve":
        x, y = action["pos"]
        driver.find_element(By.CSS_SELECTOR, f'#my-city g.alh-tile[data-pos="{x},{y}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'#chooser button[data-index="{action["index"]}"]').click()
    else:
        driver.find_element(By.CSS_SELECTOR, f'button.act[data-index="{action["index"]}"]').click()
    wait_for_new_page(driver, old)


def select_cards(driver: WebDriver, box: str, codes: list[str]) -> None:
    """Point at the cards ``codes`` in ``box``: the money display (one card alone is taken at
    once; several are marked with their "+"), or the hand beside a building (the payment the
    page chose first unmarked)."""
    if box == "#pay-cards":
        for c in driver.find_elements(By.CSS_SELECTOR, "#pay-cards .card.selected"):
            c.click()
    for code in codes:
        free = [
            c
            for c in driver.find_elements(By.CSS_SELECTOR, f'{box} .card[data-code="{code}"]')
            if "selected" not in (c.get_attribute("class") or "")
        ]
        if box == "#display" and len(codes) > 1:
            free[0].find_element(By.CSS_SELECTOR, ".plus").click()
        else:
            free[0].click()


def total(action: dict[str, Any]) -> int:
    return sum(int(c.rsplit("-", 1)[1]) for c in action.get("cards", []) if c.rsplit("-", 1)[1].isdigit())


def simple_choice(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A person in a hurry: build what is pending, buy when possible, else take the most money."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_kind.setdefault(a["kind"], []).append(a)
    for kind in ("Place", "Buy"):
        if kind in by_kind:
            return by_kind[kind][0]
    if "TakeMoney" in by_kind:
        return max(by_kind["TakeMoney"], key=total)
    return actions[0]


def test_a_whole_two_player_game_against_a_bot_through_clicks(driver: WebDriver, server: LiveServer) -> None:
    start_game(driver, server, "random", [], seed=5)
    clicks = 0
    while sit_down(driver):
        data = state(server, driver.current_url)
        assert data["actions"], "the page of the deciding person lists its actions"
        click_action(driver, simple_choice(data["actions"]))
        clicks += 1
        assert clicks < 1000
    table = next(iter(server.app.state.store.tables.values()))
    assert table.game.is_over and clicks > 20
    rows = driver.find_elements(By.CSS_SELECTOR, "#final-scores tr")[1:]
    shown = [
        (r.find_elements(By.TAG_NAME, "td")[0].text.rstrip(" ★"), int(r.find_elements(By.TAG_NAME, "td")[1].text))
        for r in rows
    ]
    assert shown == [(p.name, p.score) for p in table.game.state.players]
    assert table.game.config["players"][0] == "Ana"
    winners = driver.find_element(By.CSS_SELECTOR, ".winners").text
    assert all(table.game.config["players"][w] in winners for w in table.game.winners)


def module_choice(actions: list[dict[str, Any]], used: set[str]) -> dict[str, Any]:
    """A person trying the modules: the vizier's offer, a hut, an office (taken, then paid
    with), keeping money for exact payments otherwise."""
    kinds = {a["kind"] for a in actions}
    if "UseVizier" in kinds:
        return next(a for a in actions if a["kind"] == "UseVizier")
    if "TakeHut" in kinds and "hut" not in used:
        return next(a for a in actions if a["kind"] == "TakeHut")
    if "TakeOffice" in kinds and "office" not in used:
        return next(a for a in actions if a["kind"] == "TakeOffice")
    vias = [a for a in actions if a["kind"] == "Buy" and a.get("via")]
    if vias:
        return vias[0]
    if "Place" in kinds:
        return next(a for a in actions if a["kind"] == "Place")
    if "vizier" not in used and "TakeMoney" in kinds:
        return max((a for a in actions if a["kind"] == "TakeMoney"), key=total)
    return simple_choice([a for a in actions if a["kind"] not in ("DeclineVizier", "TakeHut")] or actions)


def test_all_modules_a_vizier_offer_a_hut_and_an_office(driver: WebDriver, server: LiveServer) -> None:
    start_game(driver, server, "greedy", ALL_MODULES, seed=3)
    used: set[str] = set()
    shot = False

    def screenshot() -> None:
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOT))

    for _ in range(600):
        if not sit_down(driver) or {"vizier", "hut", "office", "via"} <= used:
            break
        data = state(server, driver.current_url)
        action = module_choice(data["actions"], used)
        if action["kind"] == "UseVizier":
            assert "The vizier offers you a building" in driver.find_element(By.ID, "banner").text
        big = len(data["view"]["players"][0]["city"]) >= 7
        picture = not shot and big and action["kind"] == "Place"
        click_action(driver, action, screenshot if picture else None)
        shot = shot or picture
        used |= {"UseVizier": {"vizier"}, "TakeHut": {"hut"}, "TakeOffice": {"office"}}.get(action["kind"], set())
        if action["kind"] == "Buy" and action.get("via"):
            used.add("via")
    assert {"vizier", "hut", "office"} <= used, used
    for _ in range(300):  # the README's picture: a tile picked, the cells it may go to highlighted
        if shot or not sit_down(driver):
            break
        action = module_choice(state(server, driver.current_url)["actions"], used)
        picture = action["kind"] == "Place"
        click_action(driver, action, screenshot if picture else None)
        shot = picture
    table = next(iter(server.app.state.store.tables.values()))
    texts = [e.text for e in table.log if e.seat == 0]
    assert any(t.startswith("Ana used the vizier and bought the ") for t in texts)
    assert any(t.startswith("Ana took the ") and " hut " in t for t in texts)
    assert any(t.startswith("Ana took the exchange office ") for t in texts)
    assert shot and SCREENSHOT.stat().st_size > 20_000
