"""Declared module state (``alhambra.Declared``): the hooks the engine derives from what a
plugin's state fields say they are, shown on a small house rule of its own."""

from __future__ import annotations

import random
import re

import pytest
from attrs import define, field

import alhambra
from alhambra import ConfigError, Declared, DeclaredState, declared, hookimpl
from alhambra.engine.piles import hidden_piles

KEY = "favours"


@define(slots=True)
class Favours(DeclaredState):
    points: list[int] = field(metadata=declared.public(per_seat=True))
    hands: list[list[int]] = field(factory=list, metadata=declared.secret(key="hand", count_as="held"))
    pile: list[int] = field(factory=list, metadata=declared.pile(face_up=1))
    asked: int = field(default=-1, metadata=declared.internal(seat=True))
    on: bool = field(default=False, metadata=declared.internal(flag=True))


class FavourRule:
    """A house rule keeping favours: public points, a secret hand per seat, a face-down pile."""

    NAME = "favours"
    DECLARED = Declared(KEY, Favours, label="favours", view=("points", "players", "hand"), players=("hands",))

    @hookimpl
    def alhambra_setup(self, game):
        n = game.num_players
        game.state.modules[KEY] = Favours([0] * n, [[100 + i] for i in range(n)], list(range(10)))


def _game(players: int = 2) -> alhambra.Game:
    return alhambra.new_game(players, seed=7, plugins=[FavourRule()], engine="python")


def test_views_show_public_fields_counts_and_only_the_seats_own_secret():
    game = _game()
    assert game.view(1)["modules"][KEY] == {"points": [0, 0], "players": [{"held": 1}, {"held": 1}], "hand": [101]}
    assert game.view(None)["modules"][KEY] == {"points": [0, 0], "players": [{"held": 1}, {"held": 1}]}


def test_clone_copies_every_list():
    state = _game().state.modules[KEY]
    copy = state.clone()
    copy.hands[0].append(5)
    copy.points[1] = 9
    assert state.hands[0] == [100] and state.points == [0, 0] and copy != state


def test_position_part_round_trips_and_a_left_out_field_keeps_its_set_up_value():
    game = _game()
    game.state.modules[KEY].points = [3, 4]
    position = game.position()
    assert position[KEY] == {
        "points": [3, 4],
        "hands": [[100], [101]],
        "pile": list(range(10)),
        "asked": -1,
        "on": False,
    }
    del position[KEY]["pile"]
    again = alhambra.Game.from_position(position, plugins=[FavourRule()])
    assert again.state.modules[KEY] == Favours([3, 4], [[100], [101]], list(range(10)))


def test_a_bad_position_part_is_refused_with_the_key():
    position = _game().position()
    position[KEY]["on"] = 1
    with pytest.raises(ConfigError, match=r"favours\.on: true or false, not 1"):
        alhambra.Game.from_position(position, plugins=[FavourRule()])
    position[KEY] = {"nothing": 1}
    with pytest.raises(ConfigError, match=r"favours: a table with 'points', 'hands', 'pile', 'asked', 'on'"):
        alhambra.Game.from_position(position, plugins=[FavourRule()])


@pytest.mark.parametrize(
    "edit, reason",
    [
        (lambda s: setattr(s, "points", [0]), r"favours: points: one entry per seat expected \(2 seats\)"),
        (lambda s: setattr(s, "asked", 5), r"favours: asked: a seat 0-1 or -1 expected, not 5"),
        (lambda s: setattr(s, "on", "yes"), r"favours: on: true or false"),
        (lambda s: setattr(s, "pile", 0), r"favours: pile: a list expected, not 0"),
    ],
)
def test_the_derived_checks_name_the_field_and_the_reason(edit, reason):
    game = _game()
    edit(game.state.modules[KEY])
    problem = FavourRule.DECLARED.problem(game)
    assert problem is not None and re.search(reason, problem)


def test_a_position_with_a_number_where_a_list_of_seats_belongs_is_refused():
    """R-VIZ-5: the vizier's asking queue is a list of seats; a position giving a bare seat is
    refused naming the field (before, it loaded, and the game could not be saved)."""
    position = alhambra.new_game(3, modules=["vizier"], seed=1, engine="python").position()
    position["vizier"]["queue"] = 0
    with pytest.raises(ConfigError, match=r"vizier: queue: a list expected, not 0"):
        alhambra.Game.from_position(position)


def test_determinization_reshuffles_the_hidden_part_of_a_pile_only():
    game = _game()
    world = game.determinize(0, random.Random(1))
    pile = world.state.modules[KEY].pile
    assert pile[-1] == 9 and sorted(pile) == list(range(10)) and pile != list(range(10))
    assert game.state.modules[KEY].pile == list(range(10))
    [found] = [p for p in hidden_piles(game) if p.name == "favours: pile"]
    assert found.face_up == 1 and found.get(game) == list(range(10))


def test_declared_must_be_a_declaration():
    class Bad:
        DECLARED = {"key": KEY}

    with pytest.raises(ConfigError, match="DECLARED must be an alhambra.Declared"):
        alhambra.new_game(2, seed=1, plugins=[Bad()], engine="python")


@define(slots=True)
class _Asking(DeclaredState):
    asked: int = field(default=-1, metadata=declared.deciding(key="asking"))


def _hidden_phase_game() -> tuple[alhambra.Game, Declared]:
    from alhambra import PhaseSpec

    class Phase:
        @hookimpl
        def alhambra_phases(self) -> list[PhaseSpec]:
            return [PhaseSpec("secret_round", None, "who decides is hidden", hidden_decider=True)]

    game = alhambra.new_game(3, seed=2, plugins=[Phase()])
    game.state.modules["asking_test"] = _Asking()
    return game, Declared("asking_test", _Asking, view=("asking",), phase="secret_round", decider="asked")


def test_a_deciding_field_is_seen_by_the_seat_it_names_alone_while_its_phase_is_on():
    game, d = _hidden_phase_game()
    game.state.modules["asking_test"].asked = 1
    assert [d.view_part(game, s) for s in (0, 1, 2, None)] == [{"asking": None}] * 4  # not its phase
    game.state.phase, game.state.decider = "secret_round", 1
    assert [d.view_part(game, s)["asking"] for s in (0, 1, 2, None)] == [None, 1, None, None]


def test_in_a_phase_hiding_who_decides_only_the_seat_deciding_sees_current_player():
    game, _ = _hidden_phase_game()
    first = game.current_player
    assert [game.view(s)["current_player"] for s in (0, 1, None)] == [first] * 3  # a turn: public
    game.state.phase, game.state.decider = "secret_round", 1
    assert game.current_player == 1
    assert [game.view(s)["current_player"] for s in (0, 1, 2, None)] == [None, 1, None, None]


def test_a_position_leaving_the_deciding_field_out_takes_the_positions_decider():
    game, d = _hidden_phase_game()
    game.state.phase, game.state.decider = "secret_round", 2
    d.position_read(game, {"asking_test": {}})
    assert game.state.modules["asking_test"].asked == 2
    d.position_read(game, {"asking_test": {"asked": 1}})  # given: kept
    assert game.state.modules["asking_test"].asked == 1


@define(slots=True)
class Shelf(DeclaredState):
    shelf: list[alhambra.Card] = field(
        factory=list, metadata=declared.public(holds="cards", place="shelf", beside_market="R-X-1")
    )


def test_a_place_beside_the_market_and_cards_shown_in_hand_come_from_the_declaration():
    """``beside_market``: the field drawn as a place of the table beside the building market
    (its place, its cards, the rule); a deck kind ``shown``: its cards in each hand are public."""
    game = _game()
    hands = [p.hand for p in game.state.players]
    game.state.modules["shelf"] = Shelf([hands[1][0]])
    money = alhambra.DeckKind(type(hands[0][0]), "money", shown=True)
    view: dict = {"players": [{}, {}]}
    Declared("shelf", Shelf, deck=money).table_view(game, view)
    assert view["beside_market"] == [{"name": "shelf", "cards": [hands[1][0].code], "rule": "R-X-1"}]
    assert [entry["shown"] for entry in view["players"]] == [[c.code for c in h] for h in hands]
    view = {"players": [{}, {}]}
    Declared("shelf", Shelf).table_view(game, view)  # not shown: the hands stay secret
    assert view == {"players": [{}, {}], "beside_market": [view["beside_market"][0]]}


def test_a_seat_field_of_another_type_keeps_its_seat_refusal_and_an_int_field_says_an_int():
    """A loaded declared field annotated ``int``: a seat field is refused as a seat, any other
    as "an int" (the vizier's asked seat, the city gates' gate space)."""
    from alhambra_city_gates.plugin import DECLARED as GATES
    from alhambra_vizier.plugin import DECLARED as VIZIER

    game = alhambra.new_game(3, seed=1, modules=["vizier", "city_gates"], engine="python")
    game.state.modules["vizier"].asked = "1"
    assert VIZIER.problem(game) == "vizier: asked: a seat 0-2 or -1 expected, not '1'"
    game.state.modules["vizier"].asked = -1
    assert VIZIER.problem(game) is None
    game.state.modules["city_gates"].space = "1"
    assert GATES.problem(game) == "city gates: space: an int expected, not '1'"
