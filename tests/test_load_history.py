"""The save loader checks the history against the state: ``Game.from_json`` replays
the history from the save's configuration and seed (or from its start position) and refuses a
save whose history could not have led to its state, naming the first entry that does not fit
or the first part of the state that differs."""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

import pytest

import alhambra
from alhambra import SaveFormatError

from helpers import MODULES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"


@lru_cache(maxsize=None)
def _save(players: int = 4, modules: tuple = MODULES, seed: int = 3, steps: int = 120) -> str:
    g = alhambra.new_game(players, modules=list(modules), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g.to_json()


def _load(data: dict, **kw) -> alhambra.Game:
    return alhambra.Game.from_json(json.dumps(data), **kw)


def _money_swap(data: dict) -> tuple[int, str, str]:
    """Swap a money card of the first non-empty hand with a money card of the deck (every card
    still once: the validator cannot see it); return the seat and the two cards."""
    st = data["state"]
    seat = next(i for i, p in enumerate(st["players"]) if any(c.count("-") == 1 for c in p["hand"]))
    hand = st["players"][seat]["hand"]
    i = next(k for k, c in enumerate(hand) if c.count("-") == 1 and not c.startswith("scoring"))
    j = next(k for k, c in enumerate(st["deck"]) if c.count("-") == 1 and c != hand[i] and not c.startswith("scoring"))
    hand[i], st["deck"][j] = st["deck"][j], hand[i]
    return seat, hand[i], st["deck"][j]


def test_an_edited_hand_with_an_untouched_history_is_refused_naming_the_hand():
    data = json.loads(_save())
    seat, _new, _old = _money_swap(data)
    with pytest.raises(
        SaveFormatError,
        match=rf"its history does not lead to its saved state \(they differ in state\.players\[{seat}\]\.hand",
    ):
        _load(data)
    # the state alone is one a game can reach: without the history check it loads
    assert (
        _load(data, check_history=False).state.players[seat].hand
        != alhambra.Game.from_json(_save()).state.players[seat].hand
    )


def test_a_tile_swapped_between_market_and_bag_is_refused_naming_the_first_part():
    data = json.loads(_save())
    st = data["state"]
    space = next(k for k, t in enumerate(st["market"]) if t is not None)
    bagged, shown = st["bag"][0], st["market"][space]
    st["market"][space], st["bag"][0] = bagged, shown
    with pytest.raises(
        SaveFormatError, match=rf"they differ in state\.bag\[0\]: the history gives {bagged}, the save holds {shown}\)$"
    ):
        _load(data)


def test_a_history_from_another_seed_is_refused():
    """The state of seed 3 with the seed (and so the set-up) of seed 4: the first entry that
    does not fit names itself, or else the state part that differs."""
    data = json.loads(_save())
    data["seed"] = 4
    with pytest.raises(
        SaveFormatError, match=r"history\[\d+\] \(.*\) does not fit the replayed game|they differ in state\."
    ):
        _load(data)
    other = json.loads(_save(seed=4))
    data = json.loads(_save())
    data["history"] = other["history"]
    with pytest.raises(
        SaveFormatError, match=r"history\[\d+\] \(.*\) does not fit the replayed game|they differ in state\."
    ):
        _load(data)


def test_an_impossible_entry_names_itself():
    data = json.loads(_save(players=3, modules=(), seed=5, steps=30))
    data["history"][0] = {"type": "Buy", "space": 3, "cards": ["ducat-9"], "via": None}
    with pytest.raises(
        SaveFormatError, match=r"^history\[0\] \(buy space 3 paying ducat-9\) does not fit the replayed game: "
    ):
        _load(data)


def test_a_played_on_save_loads_equal_and_continues_identically():
    text = _save(players=6, seed=8, steps=10_000)
    g = alhambra.Game.from_json(text)
    assert g.is_over and g.to_json() == text


def test_every_save_of_the_suite_still_loads_with_the_check():
    saves = sorted((Path(__file__).parent / "data" / "saves").glob("*-*.json"))
    assert len(saves) == 8
    for path in saves:
        g = alhambra.Game.from_json(path.read_text())
        assert g.history, path.name


def test_a_game_built_from_a_position_saves_its_start_and_is_checked_from_there():
    g = alhambra.Game.from_position(EXAMPLES / "vizier_decision.toml")
    rng = random.Random(1)
    for _ in range(25):
        g.apply(rng.choice(g.legal_actions()))
    text = g.to_json()
    data = json.loads(text)
    assert data["start_position"]["format"] == "alhambra-position"
    assert alhambra.Game.from_json(text).to_json() == text
    assert alhambra.replay(text).to_json() == text  # replay starts there too
    assert alhambra.replay(g).to_json() == text
    seat, _, _ = _money_swap(data)
    with pytest.raises(SaveFormatError, match=rf"they differ in state\.players\[{seat}\]\.hand"):
        _load(data)
    # an edited start position cannot hide an edited state either
    data = json.loads(text)
    data["start_position"]["players"][0]["score"] += 7
    with pytest.raises(SaveFormatError, match=r"start_position: |they differ in state\.players\[0\]\.score"):
        _load(data)
    data = json.loads(text)
    data["start_position"]["modules"] = []
    with pytest.raises(SaveFormatError, match=r"start_position: "):
        _load(data)


def test_a_position_with_no_history_is_not_replayed():
    """A position is checked by the validator alone (it has no history); its save replays
    nothing and loads."""
    g = alhambra.Game.from_position(EXAMPLES / "hole.toml")
    assert g.history == [] and alhambra.start_position(g) is not None
    assert alhambra.Game.from_json(g.to_json()).to_json() == g.to_json()


def test_a_new_game_has_no_start_position_in_its_save():
    g = alhambra.new_game(3, seed=2)
    assert alhambra.start_position(g) is None and "start_position" not in json.loads(g.to_json())
