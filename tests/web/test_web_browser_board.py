"""The web table played like the board, in a real browser (headless Chromium), by clicks only:
all-six-module games against a bot played to the end, in which every kind of action offered to
the person is taken by pointing at the thing it acts on (a money card, a market building and a
payment, a highlighted cell, a tile of the Alhambra, a double wall, a hut stack, an office, the
gate space, a bonus card, the vizier), the clicks counted: taking one money card takes 1 click,
a purchase with the preselected exact payment 2, and building it then 1. The page never reloads
(a mark left on its window survives the whole game). Screenshots (early game, a late game with
a large Alhambra, a gate played, a scoring) are written to ``$ALHAMBRA_BOARD_SHOTS`` (default: the
test's temporary folder)."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from alhambra.web.tables import Seat
from browser import headless_chromium

from .pointing import Board, card_value, exact, preselected, wait_for_turn
from .server import LiveServer

SIX = ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]
#: the kinds of action of a two-player game with the six modules; every one of them is taken
#: (Pass only when nothing else is possible, so not required: it is taken when it comes)
KINDS = [
    "BuildThroughGate", "FinishGates", "PlayGate", "Swap", "BuildFromReserve", "RemoveToReserve",
    "ReactivateVizier", "RevealBonus", "TakeGate", "TakeOffice", "TakeHut", "UseVizier", "BuyWithDiamonds",
    "GiveToDirk", "Reserve", "DeclineVizier", "Buy", "Place", "TakeMoney",
]  # fmt: skip
#: the games played, until every kind has been taken (seeds whose games offer them all between them)
SEEDS = (31, 8, 10, 15)


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    browser = headless_chromium("1500,1250")
    yield browser
    browser.quit()


def choose(actions: list[dict[str, Any]], used: set[str]) -> dict[str, Any]:
    """A person trying everything: a kind not taken yet (the rarest first), else gates, building
    what waits, an exact purchase with the payment the page chooses, the most money."""
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in actions:
        by[a["kind"]].append(a)
    for kind in KINDS + ["Pass"]:
        if kind in by and kind not in used:
            if kind in ("Buy", "BuyWithDiamonds", "UseVizier"):
                best = [preselected(actions, a["space"]) for a in by[kind]]
                return next((b for b in best if b is not None and b["kind"] == kind), by[kind][0])
            return by[kind][0]
    for kind in ("TakeGate", "BuildThroughGate", "PlayGate", "UseVizier", "Place", "BuildFromReserve"):
        if kind in by:
            return preselected(actions, by[kind][0]["space"]) or by[kind][0] if kind == "UseVizier" else by[kind][0]
    buys = [b for b in (preselected(actions, s) for s in (1, 2, 3, 4)) if b is not None and b["kind"] == "Buy"]
    if buys:
        return buys[0]
    if "TakeMoney" in by:
        return max(by["TakeMoney"], key=lambda a: (sum(card_value(c) for c in a["cards"]), -len(a["cards"])))
    for kind in ("FinishGates", "DeclineVizier", "Reserve"):
        if kind in by:
            return by[kind][0]
    return actions[0]


def test_all_six_module_games_played_by_pointing_at_the_board(driver: WebDriver, tmp_path: Path) -> None:
    shots = Path(os.environ.get("ALHAMBRA_BOARD_SHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    offered: set[str] = set()
    counts: dict[str, list[int]] = defaultdict(list)  # clicks per measured gesture
    taken: list[str] = []
    done: set[str] = set()  # the screenshots taken
    for seed in SEEDS:
        if set(KINDS) <= used:
            break
        live = LiveServer(tmp_path / f"games-{seed}", bot_pause=0.0)
        try:
            store = live.app.state.store
            table = store.create([Seat("Ana", "person"), Seat("Bo", "greedy", "greedy")], modules=SIX, seed=seed)
            driver.get(f"{live.url}/g/{table.id}/seat/0?t={table.seats[0].token}")
            driver.execute_script("window.alhambraStayed = true;")  # gone if the page ever reloads
            board = Board(driver)
            last: dict[str, Any] | None = None
            for _ in range(400):
                data = wait_for_turn(driver, table)
                if data["over"]:
                    break
                actions = data["actions"]
                offered |= {a["kind"] for a in actions}
                city = len(table.game.state.players[0].city)
                if "early" not in done and table.game.state.turn >= 3:
                    shot(driver, shots, "early", done)
                if "large" not in done and city >= 14:
                    shot(driver, shots, "large", done)
                action = choose(actions, used)
                if action["kind"] in ("Buy", "UseVizier", "BuyWithDiamonds") and exact(action):
                    assert preselected(actions, action["space"]) is not None
                steps = len(table.game.history)
                scorings = len(table.game.state.scorings)
                meant = table.game.legal_actions()[action["index"]]
                clicks = board.play(action)
                assert table.game.history[steps] == meant, (action, table.game.history[steps])
                used.add(action["kind"])
                taken.append(action["kind"])
                # the clicks each gesture took
                if action["kind"] == "TakeMoney" and len(action["cards"]) == 1:
                    counts["take one money card"].append(clicks)
                elif action["kind"] == "Buy" and action == preselected(actions, action["space"]):
                    counts["purchase with the preselected exact payment"].append(clicks)
                elif action["kind"] == "Place" and last is not None and last["kind"] == "Buy":
                    counts["building the building bought"].append(clicks)
                last = action
                if action["kind"] in ("PlayGate", "BuildThroughGate") and "gate" not in done:
                    wait_for_turn(driver, table)
                    scroll(driver, "my-city")
                    shot(driver, shots, "gate", done)
                if len(table.game.state.scorings) > scorings and "scoring" not in done:
                    wait_for_turn(driver, table)
                    scroll(driver, "scoring-%d" % len(table.game.state.scorings))
                    shot(driver, shots, "scoring", done)
            assert table.game.is_over, "the game went on too long"
            assert driver.find_elements(By.ID, "final-scores")  # the end shown without a reload
            assert driver.execute_script("return window.alhambraStayed === true;"), "the page reloaded"
            if "large" not in done:
                shot(driver, shots, "large", done)
        finally:
            live.stop()
    missing = set(KINDS) - used
    assert not missing, f"never taken by pointing: {sorted(missing)} (offered: {sorted(offered)})"
    assert offered <= used, sorted(offered - used)
    # the clicks: one money card 1, a purchase with the preselected exact payment 2, building it 1
    assert counts["take one money card"] and set(counts["take one money card"]) == {1}, counts
    assert counts["purchase with the preselected exact payment"], counts
    assert set(counts["purchase with the preselected exact payment"]) == {2}, counts
    assert counts["building the building bought"] and set(counts["building the building bought"]) == {1}, counts
    print({k: (len(v), sorted(set(v))) for k, v in counts.items()})
    for name in ("early", "large", "gate", "scoring"):
        assert (shots / f"{name}.png").stat().st_size > 20_000, name


def shot(driver: WebDriver, shots: Path, name: str, done: set[str]) -> None:
    driver.save_screenshot(str(shots / f"{name}.png"))
    done.add(name)


def scroll(driver: WebDriver, element_id: str) -> None:
    driver.execute_script(
        "var e = document.getElementById(arguments[0]); if (e) { e.scrollIntoView({block: 'center'}); }", element_id
    )


def test_the_setup_form_in_players_words(driver: WebDriver, tmp_path: Path) -> None:
    """Each module and option explained on the form; a seat's search budget shown only for a
    searching bot."""
    from selenium.webdriver.support.ui import Select

    live = LiveServer(tmp_path / "games")
    try:
        driver.get(live.url + "/")
        form = driver.find_element(By.ID, "new-game").text
        for words in ("Vizier", "between turns", "City gates", "what counts as a hole", "a tie for the most points"):
            assert words in form, words
        assert not driver.find_element(By.ID, "budget1").is_displayed()  # greedy: no search budget
        Select(driver.find_element(By.ID, "kind1")).select_by_value("mcts")
        assert driver.find_element(By.ID, "budget1").is_displayed()
        assert not driver.find_element(By.ID, "budget0").is_displayed()  # a person
        Select(driver.find_element(By.ID, "kind1")).select_by_value("random")
        assert not driver.find_element(By.ID, "budget1").is_displayed()
    finally:
        live.stop()
