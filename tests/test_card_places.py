"""Where every card lies, by the names positions give places (``alhambra.card_places``), and
what a declaration derives from it for positions: a card in two places refused naming both,
a field of cards left out filled from the cards lying nowhere else (``unplaced``), a deck
kind's cards added to the hands (``hands``) and kept out of the money display
(``DeckKind.drawn_to``); tried on a card kind of a test's own, beads."""

from __future__ import annotations

from typing import Any

import pytest
from attrs import define, field, frozen

import alhambra
from alhambra import ConfigError, Declared, DeclaredState, DeckKind, NumberedCard, card_places, declared, hookimpl


@frozen(slots=True, eq=False, init=False)
class Bead(NumberedCard):
    """A test's card: beads 1-4."""

    PREFIX, NOUN, REFUSAL = "bead", "bead", "R-BEAD-1: beads are numbered 1-4, not {number!r}"
    number: int


BEADS = Bead.make(range(1, 5))
NUMBERS: dict[str, Any] = Bead.declared_numbers()


@define(slots=True)
class Beads(DeclaredState):
    tray: list[int] = field(
        factory=list, metadata=declared.public(place="bead tray", beside_market="R-BEAD-2", **NUMBERS)
    )
    box: list[int] = field(
        factory=list,
        metadata=declared.public(
            place="bead box", unplaced=lambda game, state, free: [c.number for c in free if type(c) is Bead], **NUMBERS
        ),
    )


class BeadRule:
    """A house rule with four beads: on a tray beside the market, in hands, or in a box."""

    NAME = "beads"
    DECLARED = Declared(
        "beads",
        Beads,
        label="beads",
        deck=DeckKind(Bead, "bead", drawn_to="tray"),
        view=("tray", "box"),
        position=("tray", "box", "hands"),
    )

    @hookimpl
    def alhambra_cards(self, options: dict[str, Any]) -> list[Any]:
        return list(BEADS)

    @hookimpl
    def alhambra_setup(self, game: Any) -> None:
        game.state.modules.setdefault("beads", Beads([], [1, 2, 3, 4]))


POSITION = 'players = [{ name = "Ana", hand = ["florin-3", "bead-2"] }, "Bo"]\nseed = 3\n'


def _read(extra: str = "") -> alhambra.Game:
    return alhambra.Game.from_position(POSITION + extra, plugins=[BeadRule()])


def test_a_numbered_familys_declarations_write_codes_and_count_the_cards():
    one, many = Bead.declared_number(), Bead.declared_numbers()
    assert one["among"] == (0, 1, 2, 3, 4) and many["among"] == (1, 2, 3, 4)
    assert (one["view"](2), one["view"](0), one["to_position"](3), one["to_position"](0)) == (
        "bead-2",
        None,
        "bead-3",
        "",
    )
    assert one["from_position"]("bead-4", None, "x") == 4 and one["from_position"]("", None, "x") == 0
    assert one["locate"](1) == [Bead(1)] and one["locate"](0) == [] and one["holds"] == many["holds"] == "cards"
    assert many["to_position"]([2, 1]) == ["bead-2", "bead-1"] and many["locate"]([4]) == [Bead(4)]
    assert many["from_position"](["bead-3", "bead-1"], None, "x") == [3, 1]
    with pytest.raises(ConfigError, match=r"^x\[1\]: unknown bead 'bead-7'"):
        many["from_position"](["bead-3", "bead-7"], None, "x")


def test_card_places_names_each_place_as_positions_do():
    game = _read('[beads]\ntray = ["bead-1"]\n')
    places = card_places(game)
    assert places[Bead(1)] == ["beads.tray"]
    assert places[Bead(2)] == ["players[0].hand"]
    assert places[Bead(3)] == places[Bead(4)] == ["beads.box"]
    florin = next(c for c in game.state.players[0].hand if c.code == "florin-3")
    assert places[florin][0] == "players[0].hand"
    assert set(places[game.state.display[0]]) >= {"display"}


def test_a_field_left_out_takes_the_cards_lying_nowhere_else():
    """``unplaced``: the box, left out, holds the beads neither in a hand nor on the tray; a
    box given is kept as it is."""
    assert _read('[beads]\ntray = ["bead-4"]\n').state.modules["beads"].box == [1, 3]
    assert _read().state.modules["beads"].box == [1, 3, 4]
    game = _read('[beads]\ntray = ["bead-4"]\nbox = ["bead-3", "bead-1"]\n')
    assert game.state.modules["beads"].box == [3, 1]


def test_hands_adds_the_deck_kinds_cards_to_each_hand():
    game = _read('[beads]\nhands = [[], ["bead-4", "bead-3"]]\n')
    assert [c.code for c in game.state.players[1].hand if type(c) is Bead] == ["bead-4", "bead-3"]
    assert game.state.modules["beads"].box == [1]
    with pytest.raises(
        ConfigError, match=r"^beads\.hands\[1\]\[0\]: unknown bead 'bead-9' \(the beads are bead-1, bead-2"
    ):
        _read('[beads]\nhands = [[], ["bead-9"]]\n')
    with pytest.raises(ConfigError, match=r"^beads\.hands: one list of beads per seat \(2 lists\)"):
        _read('[beads]\nhands = [["bead-1"]]\n')


def test_a_card_in_two_places_is_refused_naming_both():
    with pytest.raises(
        ConfigError, match=r"^beads\.tray: bead-2 lies in two places, players\[0\]\.hand and beads\.tray \(one card"
    ):
        _read('[beads]\ntray = ["bead-2"]\n')
    with pytest.raises(ConfigError, match=r"^beads\.box: bead-1 lies in two places, beads\.tray and beads\.box"):
        _read('[beads]\ntray = ["bead-1"]\nbox = ["bead-1", "bead-3", "bead-4"]\n')


def test_a_card_drawn_elsewhere_never_lies_in_the_display():
    """``drawn_to``: a position or a save with a bead in the money display is refused, naming
    the place the bead goes to and its rule."""
    with pytest.raises(
        ConfigError,
        match=r"^display: bead-1 never lies in the money display: a bead drawn for it goes to the bead tray \(R-BEAD-2\)",
    ):
        _read('display = ["bead-1", "florin-1"]\n')
    game = _read()
    game.state.display[0] = Bead(1)
    why = "state.display: bead-1 never lies in the money display: a bead drawn for it goes to the bead tray (R-BEAD-2)"
    assert BeadRule.DECLARED.problem(game) == why
    assert BeadRule.DECLARED.deck.of_code(game, "bead-3", "x") is Bead(3)
    with pytest.raises(ConfigError, match=r"^x: unknown bead 'florin-3'"):
        BeadRule.DECLARED.deck.of_code(game, "florin-3", "x")
