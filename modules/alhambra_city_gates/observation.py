"""The city gates' part of the environments' observation tensor (``alhambra.env``,
docs/env.md), all of it public (R-GATE-3, R-GATE-4): ``city_gates.space`` (the gate card on
the gate space, one flag per card), ``city_gates.held`` (the gate cards each player holds, per
card), ``city_gates.gates`` (each Alhambra's gates over its cell slots, in the order of the
core's ``cities`` rows: a gate on the cell's east side, on its south side) and
``city_gates.in_deck`` (gate cards left in the deck). Gate cards in the discard pile are
counted by the core's ``discard`` slice.

Also the encodings of its actions (R-GATE-3 … R-GATE-7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from alhambra import ActionEncoding, CellField, Field, Game, ObservationLayout, ObservationPart, hookimpl

from .plugin import DECLARED, KEY, BuildThroughGate, FinishGates, PlayGate, TakeGate

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: per seat: its gates as ``(x, y, column)`` (column 0 an east side, 1 a south side) and the
#: cell slots of its Alhambra (``None`` without gates)
SeatGates = tuple[tuple[tuple[int, int, int], ...], "tuple[tuple[int, int], ...] | None"]
#: what a seat sees: the card on the gate space (its code, or None), the codes of the gate
#: cards in each hand (by seat), each seat's gates, the gate cards in the deck
Seen = tuple["str | None", tuple[tuple[str, ...], ...], tuple[SeatGates, ...], int]


def _seen(part: dict[str, Any], cities: Sequence[Any], layout: ObservationLayout) -> Seen:
    """What a seat sees, from the module's view entry ``part``: each seat's gates ``[x, y,
    "east"|"south"]`` as :data:`SeatGates` (column 0: an east side, 1: a south side), with the
    cell slots of its Alhambra (``cities[seat]``, an :class:`alhambra.Alhambra` or its cells)."""
    gates = tuple(
        (tuple([(x, y, 0 if side == "east" else 1) for x, y, side in seat_gates]), layout.city_slots(city))
        if seat_gates
        else ((), None)
        for seat_gates, city in zip(part["gates"], cities)
    )
    return part["space"], tuple(map(tuple, part["hands"])), gates, part["in_deck"]


def snapshot(game: Game, seat: int, layout: ObservationLayout, cache: dict[Any, Any]) -> Seen:
    """From the module's view entry (the declared view: a hand's gate cards picked out again
    only when the hand changed, the deck's counted again only when the deck changed, kept in
    ``cache``) and the players' Alhambras."""
    return _seen(DECLARED.view_part(game, seat, cache), [player.city for player in game.state.players], layout)


def write(out: dict[str, np.ndarray], seen: Seen, order: Sequence[int], layout: ObservationLayout) -> None:
    space, held, gates, in_deck = seen
    ci = layout.card_index
    if space is not None:
        out["space"][ci[space]] = 1
    for k, s in enumerate(order):
        for code in held[s]:
            out["held"][k, ci[code]] += 1
        seat_gates, slots = gates[s]
        if seat_gates and slots is not None:
            slot = {pos: i for i, pos in enumerate(slots)}
            for x, y, column in seat_gates:
                out["gates"][k, slot[(x, y)], column] = 1
    out["in_deck"][0] = in_deck


def encode(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], layout: ObservationLayout
) -> None:
    """The reference: the same slices from the view's entry (and each Alhambra's cells, for
    its slots)."""
    cities = [[(x, y) for x, y, _ in player["city"]] for player in view["players"]]
    write(out, _seen(part, cities, layout), order, layout)


@hookimpl
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart]:
    """``city_gates.space``, ``.held``, ``.gates`` and ``.in_deck``."""
    n, K = layout.num_players, len(layout.cards)
    shapes = {"space": (K,), "held": (n, K), "gates": (n, layout.slots, 2), "in_deck": (1,)}
    return [ObservationPart(KEY, shapes, encode, snapshot, write)]


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """A gate card first; a cell and a side (east or south of it, or any side through a gate)."""
    # the environments' package is loaded by then; importing it with the module would load
    # Gymnasium into every game
    from alhambra.env.codec import tile_ids

    card = Field(("card",), [(c,) for c in game.rules.cards.values() if c.code.startswith("gate-")])
    cell = CellField(("x", "y"), slots)
    tiles = Field(("tile",), [(t,) for t in tile_ids(game)])
    return [
        ActionEncoding(TakeGate, (card,)),
        ActionEncoding(PlayGate, (card, cell, Field(("side",), [(2,), (4,)]))),  # EAST, SOUTH of the cell
        ActionEncoding(FinishGates, ()),
        ActionEncoding(BuildThroughGate, (card, tiles, cell, Field(("side",), [(1,), (2,), (4,), (8,)]))),
    ]
