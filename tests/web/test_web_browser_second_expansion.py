"""The play page in a real browser with all six modules: a game against a bot played through
clicks until a gate card, a diamond and a gate on a wall of the person's Alhambra have shown
and a building has been paid in diamonds
(R-GATE-3 … R-GATE-6, R-DIA-1 … R-DIA-4), every page naming every card and action in words:
no card code, no repr and no "unknown" card on it."""

from __future__ import annotations

import re
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from .server import LiveServer
from .test_web_browser import (
    driver,
    page_marker,
    select_cards,
    server,
    sit_down,
    start_game,
    state,
    total,
    wait_for_new_page,
)

__all__ = ["driver", "server"]  # the fixtures, shared with the other browser tests

SIX = ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]
#: what must never be on the page: a card code, a Python repr, an unknown card
RAW = re.compile(
    r"\bgate-\d|\bdiamond-\d|\boffice-[a-z]+-|GateCard\(|Diamond\(|[A-Z]\w+\(\w+=|unknown card|tile unknown"
)


def person(actions: list[dict[str, Any]], used: set[str]) -> dict[str, Any]:
    """A person trying the second expansion: the gate card, a gate, a purchase in diamonds;
    otherwise building what is pending, buying, taking the most money."""
    by: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by.setdefault(a["kind"], []).append(a)
    for kind in ("TakeGate", "BuildThroughGate", "PlayGate", "BuyWithDiamonds"):
        if kind in by and kind not in used:
            return by[kind][0]
    for kind in ("DeclineVizier", "Place", "Buy"):
        if kind in by:
            return by[kind][0]
    if "TakeMoney" in by:
        diamonds = [a for a in by["TakeMoney"] if any(c.startswith("diamond-") for c in a["cards"])]
        return max(diamonds if "BuyWithDiamonds" not in used and diamonds else by["TakeMoney"], key=total)
    return actions[0]


def click(driver: WebDriver, action: dict[str, Any]) -> None:
    """Play ``action`` as a person would: a purchase by pointing at the building and the cards
    of the hand beside it (diamonds pay on any space, R-DIA-4), money by pointing at the
    display, a tile by pointing at it and a highlighted cell, any other by its button (opening
    the list of other actions when it is there)."""
    old = page_marker(driver)
    if "space" in action and action.get("cards") and not action.get("via"):
        driver.find_element(By.ID, f"space-{action['space']}").click()
        select_cards(driver, "#pay-cards", action["cards"])
        driver.find_element(By.ID, "pay-selected").click()
    elif action["kind"] == "TakeMoney":
        select_cards(driver, "#display", action["cards"])
        if len(action["cards"]) > 1:
            driver.find_element(By.ID, "take-selected").click()
    elif action["kind"] == "Place":
        if not driver.find_elements(By.CSS_SELECTOR, f'.picked[data-pick="tile:{action["tile"]}"]'):
            driver.find_element(By.CSS_SELECTOR, f'[data-pick="tile:{action["tile"]}"]').click()
        x, y = action["pos"]
        driver.find_element(By.CSS_SELECTOR, f'#my-city .target[data-pos="{x},{y}"]').click()
    else:
        buttons = driver.find_elements(By.CSS_SELECTOR, f'button.act[data-index="{action["index"]}"]')
        shown = [b for b in buttons if b.is_displayed()]
        if not shown:  # in the list of the other actions: open it
            box = buttons[0].find_element(By.XPATH, "ancestor::details")
            box.find_element(By.TAG_NAME, "summary").click()
            shown = [b for b in buttons if b.is_displayed()]
        shown[0].click()
    wait_for_new_page(driver, old)


def test_all_six_modules_a_gate_card_a_gate_and_a_diamond_in_words(driver: WebDriver, server: LiveServer) -> None:
    start_game(driver, server, "greedy", SIX, seed=3)
    used: set[str] = set()
    seen: set[str] = set()
    for _ in range(400):
        if not sit_down(driver):
            break
        text = driver.find_element(By.TAG_NAME, "body").text
        assert not RAW.search(text), RAW.search(text).group(0)
        assert "unknown" not in re.sub(r"\+ \d+ unknown", "", text)
        if driver.find_elements(By.CSS_SELECTOR, ".card.gate"):
            seen.add("gate card")
        if driver.find_elements(By.CSS_SELECTOR, ".card.diamond"):
            seen.add("diamond")
        if driver.find_elements(By.CSS_SELECTOR, "#my-city rect.alh-open-side"):
            seen.add("gate")
            if "BuyWithDiamonds" in used:
                break
        data = state(server, driver.current_url)
        for a in data["actions"]:
            assert not RAW.search(a["label"]), a["label"]
        action = person(data["actions"], used)
        click(driver, action)
        used.add(action["kind"])
    assert {"gate card", "diamond", "gate"} <= seen, (seen, used)
    assert {"TakeGate", "BuyWithDiamonds"} <= used and ({"BuildThroughGate", "PlayGate"} & used), used
    # the gate space, the gate on the wall and the log in words
    space = driver.find_element(By.CSS_SELECTOR, '.beside-market[data-name="gate space"]')
    assert space.find_element(By.XPATH, "preceding-sibling::h2[1]").text.startswith("Gate space")
    gate = driver.find_element(By.CSS_SELECTOR, "#my-city rect.alh-open-side")
    assert gate.get_attribute("data-side") in ("east", "south")
    table = next(iter(server.app.state.store.tables.values()))
    said = [e.text for e in table.log if e.seat == 0]
    assert any(re.fullmatch(r"Ana took the gate card \d from the gate space", t) for t in said), said
    assert any(" through a gate on its " in t or "put a gate on the double wall" in t for t in said), said
    assert any(re.search(r"Ana bought the \w+ \d+ from the \w+ space, paying diamond \d", t) for t in said), said
