"""The bonus cards to the tools beside the rules: a reveal's encoding in the environments'
action space (R-BON-5), the cards the greedy evaluator counts (R-BON-3), the facts and the
hidden hand on the table picture."""

from __future__ import annotations

from typing import Any

from alhambra import ActionEncoding, EvaluationPart, Field, Game, TablePart, hookimpl

from .plugin import STATE_KEY, RevealBonus, bonus_state


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
