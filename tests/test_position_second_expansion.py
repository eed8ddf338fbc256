"""Positions with the second expansion's modules (docs/positions.md): the ``[city_gates]``
part (the gate space, the gates of every Alhambra, the cards played and unused; R-GATE-1 …
R-GATE-7) and diamond cards named by code in hands, the display and the deck (R-DIA-1, R-DIA-2).

Walls: EAST 2, WEST 8. Tile 6 has a wall on its east side only, tile 12 on its west side only:
with 6 at (1, 0) beside the fountain, 12 at (2, 0) meets the Alhambra only wall against wall
and stands there only through a gate on that double wall."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import alhambra
from alhambra import EAST, WEST, ConfigError
from alhambra.engine.piles import pile_of
from alhambra.saving.position import position_to_toml
from alhambra.testing import check_invariants
from alhambra_city_gates import BuildThroughGate, GateCard
from alhambra_diamonds import Diamond

from helpers import COMBINATIONS6, MODULES6, advance, check_position_round_trip, players_st, saved_state, seeds_st

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"
SECOND = [c for c in COMBINATIONS6 if "city_gates" in c or "diamonds" in c]


_state = saved_state


def _gated(seed: int, players: int = 4) -> alhambra.Game:
    """A random all-six game played until a gate stands in an Alhambra (R-GATE-5)."""
    g = alhambra.new_game(players, modules=list(MODULES6), seed=seed)
    advance(g, random.Random(seed), 2000, until=lambda g: bool(g.state.modules["city_gates"].played))
    assert g.state.modules["city_gates"].played, "no gate was played"
    return g


@settings(max_examples=30)
@given(
    players=players_st,
    modules=hst.sampled_from([tuple(MODULES6), *SECOND]),
    seed=seeds_st,
    steps=hst.integers(min_value=0, max_value=500),
    form=hst.sampled_from(["toml", "json", "data"]),
)
def test_position_round_trip_with_gates_and_diamonds_continues_identically(players, modules, seed, steps, form):
    """game_position -> TOML/JSON -> game_from_position: the same state, the same legal
    actions, and the same game for 60 more random actions, for random games of every
    combination with a module of the second expansion (all six most often), 2-6 players."""
    check_position_round_trip(players, modules, seed, steps, form)


def test_r_gate_5_a_gate_standing_without_its_card_played_is_refused_by_the_cards_played():
    """R-GATE-5: a position of a random game whose gate stands but whose cards played were
    emptied: the card then lies nowhere, and the refusal names ``city_gates.played`` and the
    rule (each gate is one card played), not only the missing card."""
    g = _gated(0)
    count = sum(len(s) for s in g.state.modules["city_gates"].gates)
    part = g.position()
    part["city_gates"]["played"] = []
    with pytest.raises(
        ConfigError, match=rf"city_gates\.played: 0 gate card\(s\) played for {count} gate\(s\).*R-GATE-5"
    ):
        alhambra.Game.from_position(part)


@pytest.mark.parametrize("seed", [0, 4, 7])
def test_gates_played_in_a_random_game_are_written_and_read_back(seed):
    """R-GATE-5: a game with gates in its Alhambras round-trips through TOML; the part names
    each gate by cell and side name, and the Alhambra read back has those sides open."""
    g = _gated(seed)
    gs = g.state.modules["city_gates"]
    part = g.position()["city_gates"]
    assert part["played"] == [f"gate-{k}" for k in gs.played]
    assert part["gates"] == [[[x, y, {2: "east", 4: "south"}[s]] for x, y, s in seat] for seat in gs.gates]
    h = alhambra.Game.from_position(position_to_toml(g))
    assert [q.city.open_sides for q in h.state.players] == [p.city.open_sides for p in g.state.players]
    assert any(p.city.open_sides for p in h.state.players)
    assert h.legal_actions() == g.legal_actions()
    check_invariants(h)


GRID = '''
players = [{ name = "Ana", hand = ["florin-3"], alhambra = """
F 6 12
""" }, "Bo"]
modules = ["city_gates"]
seed = 1
'''


def test_a_hand_written_gate_opens_its_double_wall():
    """R-GATE-5/6: ``gates`` puts a gate on the double wall between 6 and 12, which alone makes
    12 reachable; the card played is the lowest that lies nowhere else; R-GATE-7: neither tile
    may leave the Alhambra."""
    g = alhambra.Game.from_position(GRID + '[city_gates]\ngates = [[[2, 0, "west"]], []]\n')
    gs = g.state.modules["city_gates"]
    assert gs.gates == [[[1, 0, EAST]], []]  # kept from its west cell
    assert gs.played == [1] and gs.unused == [3, 4, 5, 6] and gs.space == 0  # 2 players: 2 cards
    city = g.state.players[0].city
    assert city.is_open_side((1, 0), EAST) and city.is_open_side((2, 0), WEST)
    assert city.why_not_remove((1, 0)) and city.why_not_remove((2, 0)).startswith("R-GATE-7")
    assert g.position()["city_gates"] == {
        "gates": [[[1, 0, "east"]], []],
        "played": ["gate-1"],
        "unused": ["gate-3", "gate-4", "gate-5", "gate-6"],
    }
    assert [c.code for c in g.state.deck].count("gate-2") == 1
    check_invariants(g)


def test_without_the_gate_that_alhambra_is_refused():
    with pytest.raises(ConfigError, match=r"players\[0\]\.alhambra: R-PLACE-5"):
        alhambra.Game.from_position(GRID)


@pytest.mark.parametrize(
    ("part", "match"),
    [
        (
            'gates = [[[0, 0, "east"]], []]',
            r"city_gates\.gates\[0\]\[0\] \(seat 0.s Alhambra\): R-GATE-5: the east side of \(0, 0\) is not a double wall",
        ),
        (
            'gates = [[[1, 0, "south"]], []]',
            r"city_gates\.gates\[0\]\[0\] \(seat 0.s Alhambra\): R-GATE-5: the south side of \(1, 0\) does not lie between two tiles",
        ),
        (
            'gates = [[[1, 0, "east"], [2, 0, "west"]], []]',
            r"gates\[0\]\[1\] \(seat 0.s Alhambra\): R-GATE-5: the east side of \(1, 0\) has a gate already",
        ),
        ('gates = [[[1, 0, "up"]], []]', r"city_gates\.gates\[0\]\[0\]: a gate is \[x, y, side\]"),
        ('gates = [[[1, 0, "east"]]]', r"city_gates\.gates: one list of gates per seat \(2 lists\)"),
        ('gates = [[[1, 0, "east"]], []]\nplayed = []', r"city_gates\.played: 0 gate card\(s\) played for 1 gate"),
        ('gates = [[[1, 0, "east"]], []]\nplayed = ["gate-1", "gate-2"]', r"played for 1 gate"),
        ('gates = [[[1, 0, "east"]], []]\nplayed = ["gate-9"]', r"city_gates\.played\[0\]: unknown gate card 'gate-9'"),
        ('gates = [[[1, 0, "east"]], []]\nspace = "diamond-5a"', r"city_gates\.space: unknown gate card 'diamond-5a'"),
        (
            'gates = [[[1, 0, "east"]], []]\nspace = "gate-1"\nplayed = ["gate-1"]',
            r"gate-1 lies in two places, city_gates\.space and city_gates\.played",
        ),
        (
            'gates = [[[1, 0, "east"]], []]\nunused = ["gate-1"]',
            r"city_gates\.unused: gate-3 lies nowhere \(this game uses 2 gate cards",
        ),
        ('gates = [[[1, 0, "east"]], []]\nflags = 1', r"city_gates: a table with 'space', 'gates'"),
        ('gates = [[[1, 0, "east"]], []]\nwindow = "open"', r"city gates: window: each of \['', 'change', 'removal'\]"),
        ('gates = [[[1, 0, "east"]], []]\nthen = 5', r"city gates: then: a str expected, not 5"),
    ],
)
def test_positions_no_game_can_reach_are_refused_with_place_and_reason(part, match):
    with pytest.raises(ConfigError, match=match):
        alhambra.Game.from_position(GRID + "[city_gates]\n" + part + "\n")


def test_a_gate_card_in_a_hand_and_played_is_in_two_places():
    text = GRID.replace('hand = ["florin-3"]', 'hand = ["florin-3", "gate-1"]')
    with pytest.raises(
        ConfigError, match=r"city_gates\.played: gate-1 lies in two places, players\[0\]\.hand and city_gates\.played"
    ):
        alhambra.Game.from_position(text + '[city_gates]\ngates = [[[1, 0, "east"]], []]\nplayed = ["gate-1"]\n')
    # without `played`, the card played is one that lies nowhere else
    g = alhambra.Game.from_position(text + '[city_gates]\ngates = [[[1, 0, "east"]], []]\n')
    assert g.state.modules["city_gates"].played == [2]
    assert GateCard(1) in g.state.players[0].hand


def test_a_gate_card_set_aside_and_in_a_hand_is_in_two_places():
    text = GRID.replace('hand = ["florin-3"]', 'hand = ["florin-3", "gate-5"]')
    with pytest.raises(ConfigError, match=r"gate-5 lies in two places, players\[0\]\.hand and city_gates\.unused"):
        alhambra.Game.from_position(
            text + '[city_gates]\ngates = [[[1, 0, "east"]], []]\nunused = ["gate-3", "gate-4", "gate-5", "gate-6"]\n'
        )


def test_a_gate_card_in_the_display_is_refused():
    """R-GATE-3: a gate card drawn for the display goes to the gate space instead."""
    with pytest.raises(ConfigError, match=r"display: gate-2 never lies in the money display.*R-GATE-3"):
        alhambra.Game.from_position(
            GRID + 'display = ["gate-2", "florin-1"]\n[city_gates]\ngates = [[[1, 0, "east"]], []]\n'
        )


def test_unknown_card_codes_name_this_games_kinds_of_card():
    with pytest.raises(ConfigError, match=r"players\[0\]\.hand\[1\]: unknown card 'gate-7' \(money cards like") as info:
        alhambra.Game.from_position(
            'players = [{ hand = ["florin-3", "gate-7"] }, "Bo"]\nmodules = ["city_gates", "diamonds"]\n'
        )
    assert "'gate-1'" in str(info.value) and "'diamond-3a'" in str(info.value)
    # a diamond this game's values do not have (R-DIA-1: the option names the deck's diamonds)
    with pytest.raises(ConfigError, match=r"players\[1\]\.hand\[0\]: unknown card 'diamond-9a'"):
        alhambra.Game.from_position(
            'players = ["Ana", { hand = ["diamond-9a"] }]\nmodules = ["diamonds"]\n[options]\n"diamonds.values" = [3, 4]\n'
        )


def test_hands_of_the_part_add_gate_cards_to_dealt_hands():
    """``hands``: a gate card for a player whose hand is left to the deal (R-SET-3: dealt to
    20 in money, the gate card being no money, R-GATE-8)."""
    g = alhambra.Game.from_position(
        'players = 3\nmodules = ["city_gates"]\nseed = 4\n[city_gates]\nhands = [[], ["gate-2"], []]\n'
    )
    hand = g.state.players[1].hand
    assert GateCard(2) in hand and sum(c.value for c in hand if c.is_money) >= 20
    assert [c.code for c in g.state.deck].count("gate-2") == 0
    check_invariants(g)


def test_diamond_codes_in_hands_display_and_deck():
    """R-DIA-1/2: diamonds are named ``diamond-<value><copy>``; a hand left to the deal counts
    them towards its 20, those nobody holds go into the deck's piles like money."""
    g = alhambra.Game.from_position(
        'players = [{ name = "Ana", hand = ["diamond-5a", "diamond-5b", "florin-2"] }, "Bo", "Cy"]\n'
        'modules = ["diamonds"]\ndisplay = ["diamond-9a", "florin-1", "dinar-3", "ducat-4"]\nseed = 2\n'
    )
    st = g.state
    assert st.players[0].hand == [Diamond(5, 1), Diamond(5, 2), alhambra.MoneyCard("florin", 2)]
    assert st.display[0] == Diamond(9)
    rest = {"diamond-3a", "diamond-4a", "diamond-6a", "diamond-6b", "diamond-7a", "diamond-7b", "diamond-8a"}
    found = {c.code for p in st.players[1:] for c in p.hand} | {c.code for c in st.deck}
    assert rest <= found
    for p in st.players[1:]:
        assert sum(c.value for c in p.hand if c.is_money) >= 20  # diamonds count (R-DIA-2)
    check_invariants(g)
    h = alhambra.Game.from_position(position_to_toml(g))
    assert _state(h) == _state(g)
    assert g.position()["players"][0]["hand"] == ["diamond-5a", "diamond-5b", "florin-2"]


def test_a_diamond_in_two_places_is_refused():
    with pytest.raises(ConfigError, match=r"more diamond-5a cards than the game has \(1\)"):
        alhambra.Game.from_position(
            'players = [{ hand = ["diamond-5a"] }, { hand = ["diamond-5a"] }]\nmodules = ["diamonds"]\n'
        )


def test_example_city_gate():
    """examples/positions/city_gate.toml: the seraglio 12 reaches (2, 0) only through a gate
    on the double wall with the pavilion 6 (R-GATE-5, R-GATE-6)."""
    g = alhambra.Game.from_position(EXAMPLES / "city_gate.toml")
    legal = g.legal_actions()
    through = [a for a in legal if type(a) is BuildThroughGate]
    assert through == [BuildThroughGate(GateCard(1), 12, 2, 0, WEST)]
    assert not any(getattr(a, "pos", None) == (2, 0) for a in legal)
    gs = g.state.modules["city_gates"]
    assert gs.space == 3 and gs.unused == [4, 5, 6] and gs.played == []
    k = [c.code for c in g.state.deck].index("gate-2")
    assert pile_of(g, k) in (3, 4, 5)  # R-GATE-2
    g.apply(through[0])
    assert g.state.players[0].city.is_open_side((2, 0), WEST)
    assert g.state.modules["city_gates"].gates[0] == [[1, 0, EAST]]
    check_invariants(g)


@pytest.mark.parametrize(
    ("position", "reason"),
    [
        (
            {
                "players": 3,
                "modules": ["city_gates"],
                "city_gates": {"unused": ["gate-2", "gate-4", "gate-5", "gate-6"]},
            },
            "R-GATE-1",
        ),
        (
            {
                "players": 3,
                "modules": ["city_gates"],
                "options": {"city_gates.cards": 2},
                "city_gates": {"space": "gate-3"},
            },
            "R-GATE-1",
        ),
        ({"players": 3, "modules": ["city_gates", "diamonds"], "scoring_cards": ["diamond-3a"]}, "R-SCORE-1"),
        ({"players": 3, "modules": ["city_gates", "diamonds"], "scoring_cards": ["gate-2"]}, "R-SCORE-1"),
        ({"players": 3, "scoring_cards": ["florin-3"]}, "R-SCORE-1"),
    ],
)
def test_a_position_with_other_gate_cards_in_play_or_money_set_aside_is_refused(position, reason):
    """R-GATE-1: a game plays with gate cards 1..city_gates.cards, the others set aside;
    R-SCORE-1: only the two scoring cards are ever set aside when drawn."""
    with pytest.raises(ConfigError, match=reason):
        alhambra.Game.from_position(position)
