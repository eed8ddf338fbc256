"""The engine owns the turn sequence: declared phases, what an action returns, interrupts
(alhambra.engine.sequence), and the operations plugins call (alhambra.operations)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from attrs import evolve, frozen

import alhambra
from alhambra import (
    ACTION_DONE,
    RESUME,
    Action,
    ActionKind,
    ConfigError,
    Decide,
    Interrupt,
    PhaseSpec,
    hookimpl,
    operations,
)
from alhambra.engine import ruleset as ruleset_module

SAVES = Path(__file__).resolve().parent / "data" / "saves"


@frozen(slots=True)
class Bow(Action):
    """A toy interrupt's only action: the asked seat bows, and play goes on."""


class BowAfterEachTurn:
    """House rule for the tests: after every finished turn the player who just finished bows
    once (phase "bow"), then the next turn starts."""

    NAME = "bow"

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    @hookimpl
    def alhambra_phases(self):
        return [PhaseSpec("bow", None, "the player who just finished bows")]

    @hookimpl
    def alhambra_action_kinds(self):
        return [ActionKind(Bow, {"bow"}, lambda game, seat: [Bow()], self._apply)]

    def _apply(self, game, seat, action):
        self.bowed = True
        return RESUME

    @hookimpl
    def alhambra_between_turns(self, game, finished):
        if getattr(self, "bowed", False):
            self.bowed = False
            return None
        self.asked.append((game.state.turn, finished))
        return Interrupt(finished, "bow")


def take_some_money(game):
    take = next(a for a in game.legal_actions() if isinstance(a, alhambra.TakeMoney))
    game.apply(take)


def test_interrupt_enters_the_declared_phase_and_resume_starts_the_next_turn():
    rule = BowAfterEachTurn()
    game = alhambra.new_game(3, seed=4, plugins=[rule])
    first = game.current_player
    take_some_money(game)  # R-TURN-2: the whole action, the turn is over
    assert (game.phase, game.current_player) == ("bow", first)
    assert game.legal_actions() == [Bow()]
    assert rule.asked == [(1, first)]
    game.apply(Bow())
    assert (game.phase, game.current_player, game.state.turn) == ("turn", (first + 1) % 3, 2)


def test_an_action_kind_in_an_undeclared_phase_is_a_config_error():
    class Stray:
        @hookimpl
        def alhambra_action_kinds(self):
            return [ActionKind(Bow, {"nowhere"}, lambda g, s: [], lambda g, s, a: ACTION_DONE)]

    with pytest.raises(ConfigError, match="nowhere"):
        alhambra.new_game(2, seed=1, plugins=[Stray()])


def test_a_phase_declared_twice_is_a_config_error():
    class Twice:
        @hookimpl
        def alhambra_phases(self):
            return [PhaseSpec("turn")]

    with pytest.raises(ConfigError, match="declared twice"):
        alhambra.new_game(2, seed=1, plugins=[Twice()])


def test_between_turns_answering_a_seat_instead_of_an_interrupt_is_a_config_error():
    class OldStyle:
        @hookimpl
        def alhambra_between_turns(self, game, finished):
            return finished  # the pre-redesign answer: a seat, with the phase set by hand

    game = alhambra.new_game(2, seed=2, plugins=[OldStyle()])
    with pytest.raises(ConfigError, match="Interrupt"):
        take_some_money(game)


def test_r_turn_7_bought_tiles_are_placed_then_the_turn_ends_through_the_sequence():
    """ACTION_DONE with a tile pending: phase place for the turn player, the placement
    returns to "turn", and placing the last tile ends the turn (R-TURN-7, R-TURN-8)."""
    game = alhambra.new_game(2, seed=9)
    seat = game.current_player
    buy = next(
        a
        for a in game.legal_actions()
        if isinstance(a, alhambra.Buy)
        and sum(c.value for c in a.cards) > game.rules.catalog[game.state.market[a.space - 1]].price
    )
    game.apply(buy)  # an overpayment: no extra action (R-TURN-4)
    st = game.state
    assert (st.phase, st.decider, st.place_context, len(st.pending)) == ("place", seat, "turn", 1)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, alhambra.Place)))
    assert (st.phase, st.turn_player, st.place_context, st.pending) == ("turn", 1 - seat, "", [])


def test_operations_refill_market_reports_an_empty_bag():
    """R-TURN-8 / R-END-1: the market fills lowest space first; False once the bag runs out."""
    game = alhambra.new_game(2, seed=3)
    st = game.state
    st.market = [None, 7, None, None]
    st.bag = [11, 12]
    assert operations.refill_market(game) is False
    assert st.market == [12, 7, 11, None] and st.bag == []


def test_entry_points_are_scanned_once_for_loading_a_save_with_every_module(monkeypatch):
    text = alhambra.new_game(
        4, modules=["vizier", "building_huts", "bonus_cards", "exchange_offices"], seed=5
    ).to_json()
    calls = []
    real = ruleset_module.entry_points
    monkeypatch.setattr(ruleset_module, "entry_points", lambda **kw: calls.append(kw) or real(**kw))
    ruleset_module._scan_entry_points.cache_clear()
    try:
        alhambra.Game.from_json(text)
        alhambra.Game.from_json(text)
    finally:
        ruleset_module._scan_entry_points.cache_clear()
    assert calls == [{"group": "alhambra.modules"}]


def test_loading_a_save_does_not_import_the_test_helpers():
    code = (
        "import sys, alhambra; g = alhambra.new_game(3, modules=['vizier'], seed=1); "
        "alhambra.Game.from_json(g.to_json()); print('alhambra.testing' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_old_module_paths_are_the_new_modules():
    import alhambra.city
    import alhambra.engine.city
    import alhambra.state

    assert alhambra.city is alhambra.engine.city
    assert alhambra.state.GameState is alhambra.GameState


def test_a_save_whose_placement_returns_to_an_undeclared_phase_is_refused():
    text = (SAVES / "all-6p-place.json").read_text()
    data = json.loads(text)
    assert data["state"]["place_context"] == "turn"
    alhambra.Game.from_json(text)  # as saved: loads
    data["state"]["place_context"] = "nowhere"
    with pytest.raises(alhambra.SaveFormatError, match="nowhere"):
        alhambra.Game.from_json(json.dumps(data))


@frozen(slots=True)
class Nod(Action):
    """A toy window's only action: the seat that placed a tile nods, and the placement goes on."""


class NodAfterPlacing:
    """House rule for the tests: after each placement the placing seat nods once, in a window
    phase ("nod") entered with ``Decide`` and left with ``Decide(seat, "place")``."""

    NAME = "nod"

    def __init__(self, back: str = "place") -> None:
        self.back = back

    @hookimpl
    def alhambra_phases(self):
        return [PhaseSpec("nod", None, "the placing seat nods", window=True)]

    @hookimpl
    def alhambra_action_kinds(self):
        return [ActionKind(Nod, {"nod"}, lambda game, seat: [Nod()], lambda game, seat, a: Decide(seat, self.back))]

    @hookimpl
    def alhambra_action_kind(self, kind):
        if kind.action is not alhambra.Place:
            return None
        apply = kind.apply

        def place_then_nod(game, seat, action):
            nxt = apply(game, seat, action)
            return Decide(seat, "nod") if nxt is None else nxt

        return evolve(kind, apply=place_then_nod)


def _buy_overpaying(game):
    buy = next(
        a
        for a in game.legal_actions()
        if isinstance(a, alhambra.Buy)
        and sum(c.value for c in a.cards) > game.rules.catalog[game.state.market[a.space - 1]].price
    )
    game.apply(buy)  # an overpayment: no extra action (R-TURN-4), the placement follows


def test_decide_opens_a_window_within_a_placement_and_goes_back_to_it():
    """An action may hand the decision to a seat in a declared window phase (``Decide``); the
    placement's context stays recorded, saves in the window load, and ``Decide(seat,
    "place")`` ends the placement once nothing is pending (R-TURN-7, R-TURN-8)."""
    rule = NodAfterPlacing()
    game = alhambra.new_game(2, seed=9, plugins=[rule])
    seat = game.current_player
    _buy_overpaying(game)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, alhambra.Place)))
    st = game.state
    assert (st.phase, st.decider, st.place_context, st.pending) == ("nod", seat, "turn", [])
    assert game.legal_actions() == [Nod()]
    for check_history in (True, False):  # the validator accepts a window within a placement
        loaded = alhambra.Game.from_json(game.to_json(), plugins=[rule], check_history=check_history)
        assert (loaded.phase, loaded.state.place_context) == ("nod", "turn")
    game.apply(Nod())
    assert (st.phase, st.turn_player, st.place_context, st.pending) == ("turn", 1 - seat, "", [])


@pytest.mark.parametrize("back", ["over", "distribution", "nowhere"])
def test_decide_names_a_declared_phase_where_a_seat_decides(back):
    game = alhambra.new_game(2, seed=9, plugins=[NodAfterPlacing(back)])
    _buy_overpaying(game)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, alhambra.Place)))
    with pytest.raises(ConfigError, match="Decide"):
        game.apply(Nod())
