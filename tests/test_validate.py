"""The one validator (``alhambra.saving.validate``): the loader refuses states a game cannot reach,
each with a SaveFormatError naming the place and the problem."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest

import alhambra
from alhambra import SaveFormatError

from helpers import MODULES, MODULES6


@lru_cache(maxsize=None)
def _save_where(players: int, phase: str, context: str = "", modules: tuple = MODULES, seed: int = 1) -> str:
    """The save of the first state of random play (all modules) in ``phase`` (and placement
    ``context``), as JSON text."""
    for s in range(seed, seed + 50):
        g = alhambra.new_game(players, modules=list(modules), seed=s)
        rng = random.Random(s)
        while not g.is_over:
            if g.phase == phase and (not context or g.state.place_context == context):
                return g.to_json()
            g.apply(rng.choice(g.legal_actions()))
        if phase == "over":
            return g.to_json()
    raise AssertionError(f"no state in phase {phase!r}/{context!r}")


def _refused(text: str, edit, match: str) -> str:
    data = json.loads(text)
    edit(data)
    with pytest.raises(SaveFormatError, match=match) as info:
        alhambra.Game.from_json(json.dumps(data))
    return str(info.value)


def test_the_saves_used_here_load_unchanged():
    for args in ((3, "turn"), (3, "place", "turn"), (4, "place", "distribution"), (2, "turn"), (3, "vizier")):
        text = _save_where(*args)
        assert alhambra.Game.from_json(text).to_json() == text


def test_phase_distribution_is_never_a_decision_point():
    """A turn save set to phase 'distribution' used to load and then only ever offer Pass."""
    msg = _refused(
        _save_where(3, "turn"),
        lambda d: d["state"].update(phase="distribution"),
        r"state.phase: 'distribution' is never a decision point",
    )
    assert "R-END-2" in msg


def test_end_of_game_placement_save_set_to_distribution_is_refused():
    """From an end-of-game placement save, phase 'distribution' lost a building."""
    _refused(
        _save_where(4, "place", "distribution"),
        lambda d: d["state"].update(phase="distribution"),
        "never a decision point",
    )


def test_unknown_placement_context_is_refused():
    """``place_context = "bogus"`` used to raise RuntimeError at the first placement."""
    _refused(
        _save_where(3, "place", "turn"),
        lambda d: d["state"].update(place_context="bogus"),
        r"state.place_context: no plugin of this game continues after placement context 'bogus'",
    )


def test_module_placement_context_is_accepted():
    """The vizier's own context ('vizier') is continued by its plugin: such a save loads."""
    text = _save_where(3, "place", "vizier")
    assert alhambra.Game.from_json(text).state.place_context == "vizier"


def test_distribution_recipient_out_of_range_is_refused():
    """A distribution entry with seat 99 used to raise IndexError in the bonus cards module."""

    def edit(d):
        d["state"]["distribution"].append([99, [d["state"]["players"][0]["city"][-1][2]]])

    _refused(
        _save_where(4, "place", "distribution"), edit, r"state.distribution\[\d\] seat must be a seat 0..3, not 99"
    )


def test_distribution_outside_the_end_is_refused():
    _refused(
        _save_where(3, "turn"),
        lambda d: d["state"].update(distribution=[[1, [5]]]),
        "buildings are distributed only while they are placed",
    )


def test_deleted_exchange_office_is_refused():
    """Non-money cards are counted exactly once, not at most once (R-EXC-1: six offices)."""

    def edit(d):
        st = d["state"]
        for where in [st["deck"], st["display"], st["discard"], *[p["hand"] for p in st["players"]]]:
            for c in where:
                if c.startswith("office") or "/" in c or c.count("-") > 1 or not c.split("-")[-1].isdigit():
                    if c not in ("scoring-A", "scoring-B"):
                        where.remove(c)
                        return
        raise AssertionError("no office found")

    msg = _refused(_save_where(3, "turn"), edit, r"must be in the game exactly once, found 0 times")
    assert "card " in msg


def test_history_action_with_unknown_tile_is_refused():
    def edit(d):
        d["history"].append({"type": "Place", "tile": "no such tile", "pos": [0, 1]})

    _refused(_save_where(3, "turn"), edit, r"history\[\d+\].tile: unknown tile 'no such tile'")


def test_deeply_nested_history_is_refused_without_recursion_error():
    """A 500-deep nested list used to load, then make to_json() raise RecursionError."""

    def edit(d):
        deep: list = []
        for _ in range(500):
            deep = [deep]
        d["history"].append({"type": "Place", "tile": deep, "pos": [0, 1]})

    _refused(_save_where(3, "turn"), edit, r"save.history\[\d+\].tile(\[0\])*: nested deeper than 24 levels")


def test_repeated_pending_scoring_is_refused():
    """``pending_scorings = [1, 1]`` used to run a scoring twice."""
    _refused(
        _save_where(3, "turn"),
        lambda d: d["state"].update(pending_scorings=[1, 1]),
        r"state.pending_scorings: scorings 1 or 2, each once and not yet done \(R-SCORE-1\), not \[1, 1\]",
    )


def test_place_phase_decided_by_another_seat_is_refused():
    """The turn player places what they bought (R-TURN-7); another decider built it for them."""

    def edit(d):
        st = d["state"]
        st["decider"] = (st["turn_player"] + 1) % 3

    _refused(
        _save_where(3, "place", "turn"),
        edit,
        r"state.decider: the turn player \(seat \d\) places what they bought, not seat \d \(R-TURN-7\)",
    )


def test_dirk_score_beyond_his_scorings_is_refused():
    def edit(d):
        d["state"]["modules"]["dirk"]["score"] = 10**6

    _refused(_save_where(2, "turn"), edit, r"Dirk has 1000000 points, but the scoring records give \d+")


def test_turn_number_out_of_reach_is_refused():
    _refused(_save_where(3, "turn"), lambda d: d["state"].update(turn=10**30), r"beyond any number a game reaches")
    _refused(_save_where(3, "turn"), lambda d: d["state"].update(turn=10**6), r"state.turn: bad turn number 1000000")


def test_non_finite_numbers_are_refused():
    text = _save_where(3, "turn").replace('"turn":', '"turn":NaN,"x":', 1)
    with pytest.raises(SaveFormatError, match="not a number a game holds"):
        alhambra.Game.from_json(text)


def test_scoring_repeated_in_the_records_is_refused():
    text = _save_where(3, "over")

    def edit(d):
        d["state"]["scorings"].insert(1, d["state"]["scorings"][0])

    _refused(text, edit, r"state.scorings: scorings happen once each, 1, 2 then 3 \(R-SCORE-1\)")


def test_majority_points_out_of_reach_are_refused():
    def edit(d):
        d["state"]["scorings"][0]["majority"][0]["pavilion"] = 500

    _refused(_save_where(3, "over"), edit, r"state.scorings\[0\].majority\[0\]: majority points are 0 … \d+")


def test_finished_game_with_a_decider_is_refused():
    _refused(_save_where(3, "over"), lambda d: d["state"].update(decider=0), "the game is over, nobody decides")


def test_turn_phase_with_a_placement_context_is_refused():
    _refused(
        _save_where(3, "turn"),
        lambda d: d["state"].update(place_context="turn"),
        r"state.place_context: 'turn' outside phase 'place'",
    )


def test_scoring_card_set_aside_without_its_scoring_is_refused():
    def edit(d):
        st = d["state"]
        st["deck"].remove("scoring-A")
        st["scoring_cards"].append("scoring-A")

    _refused(_save_where(3, "turn"), edit, r"state.scoring_cards: the cards set aside \(\[1\]\) must be those")


def test_missing_bonus_card_is_refused_by_the_module():
    def edit(d):
        bs = d["state"]["modules"]["bonus_cards"]
        (bs["out_of_play"] or next(h for h in bs["hands"] if h)).pop()

    _refused(_save_where(3, "turn"), edit, r"inconsistent save: bonus cards: each of")


def test_missing_hut_is_refused_by_the_module():
    def edit(d):
        stacks = d["state"]["modules"]["building_huts"]["stacks"]
        next(s for s in stacks.values() if s).pop(0)

    _refused(_save_where(3, "turn"), edit, r"building huts: every hut must be in exactly one place")


@lru_cache(maxsize=None)
def _first_save(players: int, module: str) -> str:
    return alhambra.new_game(players, modules=[module], seed=1).to_json()


@pytest.mark.parametrize("players", [3, 2])
@pytest.mark.parametrize("module", MODULES6)
def test_a_missing_or_wrongly_typed_part_of_the_state_is_refused_naming_it(module: str, players: int) -> None:
    """Each module's part of the state (and Dirk's, with two players) deleted from a save, or
    replaced by something that is no table of its fields, is refused naming the part; a module
    that keeps no part refuses one made up under its name."""
    text = _first_save(players, module)
    parts = list(json.loads(text)["state"]["modules"])
    if module in ("exchange_offices", "diamonds"):  # their cards lie in the core's places
        assert module not in parts
        _refused(text, lambda d: d["state"]["modules"].update({module: {}}), f"state '{module}' belongs to no")
    else:
        assert module in parts
    assert ("dirk" in parts) == (players == 2)
    for key in parts:
        _refused(
            text,
            lambda d, key=key: d["state"]["modules"].pop(key),
            rf"state.modules.{key}: the {key} part of the state is missing",
        )
        for bad in (3, [], "x", None, [{}]):
            _refused(
                text,
                lambda d, key=key, bad=bad: d["state"]["modules"].update({key: bad}),
                rf"state.modules.{key}: the {key} part of the state is an object of its fields, not ",
            )
    if parts:
        _refused(text, lambda d: d["state"].pop("modules"), rf"state.modules.{parts[0]}: the .* is missing")


@pytest.mark.parametrize("players", [3, 2])
@pytest.mark.parametrize("module", MODULES6)
def test_a_field_no_part_of_the_state_has_is_refused_naming_it(module: str, players: int) -> None:
    """A field a part of the state does not have (a misspelt ``round_ovr``) was dropped
    unread, so the field meant loaded as its default; with or without the history check."""
    text = _first_save(players, module)
    for key in json.loads(text)["state"]["modules"]:
        for check in (True, False):
            data = json.loads(text)
            data["state"]["modules"][key]["round_ovr"] = True
            with pytest.raises(
                SaveFormatError, match=rf"state.modules.{key}: 'round_ovr' is no field of the {key} part"
            ):
                alhambra.Game.from_json(json.dumps(data), check_history=check)


def _ended_before_scoring_card_b() -> str:
    """A game of random play that ended before scoring card B was drawn (3 players, all six
    modules with six gate cards: few money turns): its scorings are 1 and 3."""
    g = alhambra.new_game(3, modules=list(MODULES6), seed=51, options={"city_gates.cards": 6}, engine="python")
    rng = random.Random(51)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert [r.number for r in g.state.scorings] == [1, 3]
    return g.to_json()


def test_r_score_1_a_game_that_ended_before_scoring_card_b_was_drawn_loads():
    text = _ended_before_scoring_card_b()
    assert alhambra.Game.from_json(text, engine="python").to_json() == text
    assert alhambra.Game.from_json(text).to_json() == text  # on the kernel where it plays the modules


def test_r_score_1_a_skipped_scoring_is_refused_while_the_game_runs_and_out_of_order():
    text = _save_where(3, "turn", seed=7)
    done = json.loads(text)["state"]["scorings"]

    def scorings(numbers):
        def edit(d):
            d["state"]["scorings"] = [{**done[0], "number": k} for k in numbers] if done else []

        return edit

    if done:
        _refused(text, scorings([2]), r"1, 2 then 3")
    ended = _ended_before_scoring_card_b()

    def swap(d):
        d["state"]["scorings"][0]["number"], d["state"]["scorings"][1]["number"] = 3, 1

    _refused(ended, swap, r"not \[3, 1\]")
