"""Playing the web table by pointing at the board, as a person would, in a real browser: each
legal action (as the page's JSON lists it) played by clicks on the thing it acts on, the
clicks counted. Shared by the browser tests."""

from __future__ import annotations

import json
import re
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

EXACT = re.compile(r", exact[:)]")


def page_data(driver: WebDriver) -> dict[str, Any]:
    """The page's own data (``#table-data``): its version, whether it decides, its actions."""
    return json.loads(driver.find_element(By.ID, "table-data").get_attribute("textContent"))


def exact(action: dict[str, Any]) -> bool:
    return bool(EXACT.search(action["label"]))


def card_value(code: str) -> int:
    tail = code.rsplit("-", 1)[-1].rstrip("ab")
    return int(tail) if tail.isdigit() else 0


def preselected(actions: list[dict[str, Any]], space: int) -> dict[str, Any] | None:
    """The payment the page chooses by itself for the building on ``space``: the best exact
    one (no exchange office nor diamond spent, the fewest cards), or None when none is exact."""
    buys = [a for a in actions if a.get("space") == space]

    def key(a: dict[str, Any]) -> tuple:
        return (
            0 if exact(a) else 1,
            1 if a.get("via") else 0,
            1 if a["kind"] == "BuyWithDiamonds" else 0,
            0 if exact(a) else sum(card_value(c) for c in a.get("cards") or []),
            len(a.get("cards") or []),
            a["index"],
        )

    best = min(buys, key=key, default=None)
    return best if best is not None and exact(best) else None


def position(action: dict[str, Any]) -> tuple[int, int] | None:
    if action.get("pos"):
        return tuple(action["pos"])  # type: ignore[return-value]
    if isinstance(action.get("x"), int) and isinstance(action.get("y"), int):
        return action["x"], action["y"]
    return None


class Board:
    """A person at the play page of ``driver``: :meth:`play` points at the board to take an
    action and counts the clicks (``clicks``: all of them so far)."""

    def __init__(self, driver: WebDriver, timeout: float = 60) -> None:
        self.driver = driver
        self.timeout = timeout
        self.clicks = 0

    def css(self, selector: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def click(self, element: WebElement) -> None:
        element.click()
        self.clicks += 1

    def shown(self, selector: str) -> WebElement:
        return WebDriverWait(self.driver, self.timeout).until(ec.visibility_of_element_located((By.CSS_SELECTOR, selector)))

    def play(self, action: dict[str, Any]) -> int:
        """Take ``action`` (one of the page's listed actions) by pointing; the clicks it took.
        Returns once the page has followed (its content replaced, or the hot seat's curtain)."""
        before = self.clicks
        old = self.driver.find_element(By.ID, "table-data")
        kind = action["kind"]
        where = position(action)
        if kind == "TakeMoney" and len(action["cards"]) == 1:
            self.click(self.css(f'#display .card[data-code="{action["cards"][0]}"]'))
        elif kind == "TakeMoney":
            marked: list[WebElement] = []
            for code in action["cards"]:
                card = next(
                    c for c in self.driver.find_elements(By.CSS_SELECTOR, f'#display .card[data-code="{code}"]') if c not in marked
                )
                marked.append(card)
                self.click(card.find_element(By.CSS_SELECTOR, ".plus"))
            self.click(self.css("#take-selected"))
        elif kind == "TakeOffice":
            self.click(self.css(f'#display .card[data-code="{action["office"]}"]'))
        elif kind == "TakeGate":
            self.click(self.css(f'.beside-market .card[data-code="{action["card"]}"]'))
        elif "space" in action and "cards" in action:  # a purchase: the building, then the payment
            self.click(self.css(f"#space-{action['space']}"))
            self.shown("#pay-options .payment")
            chosen = self.driver.find_elements(By.CSS_SELECTOR, "#pay-options .payment.selected")
            if not chosen or chosen[0].get_attribute("data-index") != str(action["index"]):
                self.click(self.css(f'#pay-options .payment[data-index="{action["index"]}"]'))
            self.click(self.css("#pay-selected"))
        elif kind == "PlayGate":
            self.click(self.css(f'#my-city .gate-spot[data-index="{action["index"]}"]'))
        elif "tile" in action and where is not None:  # a building to a cell: the tile, then the cell
            picked = self.driver.find_elements(By.CSS_SELECTOR, f'.picked[data-pick="tile:{action["tile"]}"]')
            if not picked:
                self.click(self.css(f'#pending [data-pick="tile:{action["tile"]}"], #my-reserve [data-pick="tile:{action["tile"]}"]'))
            x, y = where
            cell = self.css(f'#my-city .target[data-pos="{x},{y}"]')
            alone = cell.get_attribute("data-index")  # the one action there: sent by the click
            self.click(cell)
            if alone is None:  # several (gates on different sides): choose
                self.click(self.shown(f'#chooser button[data-index="{action["index"]}"]'))
            else:
                assert alone == str(action["index"])
        elif kind in ("RemoveToReserve", "Swap"):
            x, y = action["pos"]
            self.click(self.css(f'#my-city g.alh-tile[data-pos="{x},{y}"]'))
            self.click(self.shown(f'#chooser button[data-index="{action["index"]}"]'))
        elif kind == "TakeHut":
            self.click(self.css(f'.huts .stack.can[data-hut="{action["hut"]}"]'))
        elif kind == "RevealBonus":
            self.click(self.css(f'.bonus.can[data-bonus="{action["building"]}"]'))
        elif kind == "ReactivateVizier":
            self.click(self.css(".token.can"))
        else:  # an action on nothing on the board: decline the vizier, no more gates, keep a tile, pass
            buttons = [
                b
                for b in self.driver.find_elements(By.CSS_SELECTOR, f'button.act[data-index="{action["index"]}"]')
                if b.is_displayed()
            ]
            assert buttons, f"no button shown for {action['label']!r}"
            self.click(buttons[0])
        self.followed(old)
        return self.clicks - before

    def followed(self, old: WebElement) -> None:
        """Wait until the page has followed an action: its data replaced (or another page)."""
        WebDriverWait(self.driver, self.timeout).until(replaced(old))


def replaced(old: WebElement) -> Any:
    """A wait's condition: ``old`` is no longer in the page (replaced by the page's script, or
    another page loaded; a document being replaced may answer with another error than stale)."""

    def check(driver: WebDriver) -> bool:
        try:
            old.is_enabled()
        except (StaleElementReferenceException, WebDriverException):
            return True
        return False

    return check


def wait_for_turn(driver: WebDriver, table: Any, seat: int = 0, timeout: float = 180) -> dict[str, Any]:
    """Wait until the page shows ``seat``'s decision at the table's current version, or the end
    of the game, and return the page's data (the page follows the game by itself)."""

    def ready(d: WebDriver) -> dict[str, Any] | bool:
        try:
            data = page_data(d)
        except (StaleElementReferenceException, WebDriverException, ValueError):
            return False
        if data["over"]:
            return data
        if data["decides"] and data["version"] == table.version and table.decider == seat:
            return data
        return False

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(ready)
