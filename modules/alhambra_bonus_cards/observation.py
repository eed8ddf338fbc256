"""The bonus cards' part of the environments' observation tensor (``alhambra.env``,
docs/env.md): ``bonus_cards.hand`` (the observer's own cards, one flag per tile),
``bonus_cards.revealed`` (each player's revealed cards), ``bonus_cards.hidden`` (how many each
player still hides, R-BON-2) and ``bonus_cards.out_of_play``.

Also the bonus cards to the other tools: a reveal's encoding (R-BON-5), the cards the
greedy evaluator counts (R-BON-3), the facts and the hidden hand on the table picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from alhambra import EvaluationPart, Game, ObservationLayout, ObservationPart, TablePart, hookimpl
from alhambra.env import ActionEncoding, Field

from .plugin import STATE_KEY, RevealBonus, bonus_state

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: what a seat sees: its own cards, each player's revealed cards, each player's number of
#: hidden cards, the number of cards out of play
Seen = tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...], tuple[int, ...], int]


def snapshot(game: Game, seat: int, layout: ObservationLayout, cache: dict[Any, Any]) -> Seen | None:
    """What ``seat`` sees of the bonus cards, from the state (never another's hidden cards)."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is None:
        return None
    return tuple(bs.hands[seat]), tuple(map(tuple, bs.revealed)), tuple(map(len, bs.hands)), len(bs.out_of_play)


def write(out: dict[str, np.ndarray], seen: Seen | None, order: Sequence[int], layout: ObservationLayout) -> None:
    if seen is None:
        return
    own, revealed, hidden, out_of_play = seen
    ti = layout.tile_index
    for b in own:
        out["hand"][ti[b]] = 1
    for k, s in enumerate(order):
        for b in revealed[s]:
            out["revealed"][k, ti[b]] = 1
        out["hidden"][k] = hidden[s]
    out["out_of_play"][0] = out_of_play


def encode(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], layout: ObservationLayout
) -> None:
    """The reference: the same slices from the view's entry."""
    players = part["players"]
    seen = (
        tuple(part.get("hand", ())),
        tuple(tuple(p["revealed"]) for p in players),
        tuple(p["hidden"] for p in players),
        part["out_of_play"],
    )
    write(out, seen, order, layout)


@hookimpl
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart]:
    """``bonus_cards.hand``, ``.revealed``, ``.hidden`` and ``.out_of_play``."""
    n, T = layout.num_players, len(layout.tiles)
    shapes = {"hand": (T,), "revealed": (n, T), "hidden": (n,), "out_of_play": (1,)}
    return [ObservationPart(STATE_KEY, shapes, encode, snapshot, write)]


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """A reveal by its building."""
    buildings = [(t,) for t, s in game.rules.catalog.items() if s.is_building]
    return [ActionEncoding(RevealBonus, (Field(("building",), buildings),))]


@hookimpl
def alhambra_evaluation_part(game: Game, viewer: int) -> EvaluationPart:
    """A seat's revealed cards count for it, its hidden ones as far as ``viewer`` knows them (R-BON-3)."""
    bs = bonus_state(game)

    def counted(seat: int) -> tuple[int, ...]:
        if seat >= len(bs.hands):
            return ()
        return tuple(bs.revealed[seat]) + (tuple(bs.hands[seat]) if seat == viewer else ())

    return EvaluationPart(counted=counted)


@hookimpl
def alhambra_table_part(view: dict[str, Any], seat: int | None) -> TablePart | None:
    """How many cards each seat hides and which it showed; the viewer's own hidden cards."""
    part = view.get("modules", {}).get(STATE_KEY)
    if not part:
        return None
    facts = tuple(
        f"bonus cards: {b['hidden']} hidden" + (f", shown {b['revealed']}" if b["revealed"] else "")
        for b in part["players"]
    )
    return TablePart(
        "bonus", facts=facts, hand_tiles=tuple(part.get("hand") or ()), hand_title="your bonus cards (hidden)"
    )
