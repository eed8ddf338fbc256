"""The huts to the tools beside the rules: a take's encoding in the environments' action
space (R-HUT-2), their counting to the greedy evaluator and the pictures (R-HUT-5), the
stacks on the table picture."""

from __future__ import annotations

from typing import Any

from alhambra import ActionEncoding, Alhambra, EvaluationPart, Field, Game, TablePart, hookimpl

from .plugin import HUTS, STATE_KEY, TakeHut


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """A take by its hut."""
    return [
        ActionEncoding(TakeHut, (Field(("hut",), [(t,) for t, s in game.rules.catalog.items() if s.kind == "hut"]),))
    ]


@hookimpl
def alhambra_evaluation_part(game: Game, viewer: int) -> EvaluationPart:
    """Huts count by their neighbours."""
    return EvaluationPart(huts=HUTS)


@hookimpl
def alhambra_tile_values(city: Alhambra) -> dict[tuple[int, int], int]:
    """What each hut of ``city`` counts as."""
    return {p: HUTS.hut_value(city, p) for p, t in city.tiles.items() if HUTS.is_hut(city.catalog, t)}


@hookimpl
def alhambra_table_part(view: dict[str, Any], seat: int | None) -> TablePart | None:
    """Each stack's size and face-up hut (R-HUT-1)."""
    part = view.get("modules", {}).get(STATE_KEY)
    if not part:
        return None
    stacks = tuple((t, s["size"], s["face_up"]) for t, s in part["stacks"].items())
    return TablePart("hut", stacks=stacks, stacks_title="building huts")
