"""The building huts' part of the environments' observation tensor (``alhambra.env``,
docs/env.md): ``building_huts.face_up`` (the face-up hut of each stack, one flag per tile) and
``building_huts.stack_sizes`` (each stack's size, in :data:`alhambra.BUILDING_TYPES` order),
never the face-down order (R-HUT-1).

Also the huts to the other tools: a take's encoding (R-HUT-2), their counting to the
greedy evaluator and the pictures (R-HUT-5), the stacks on the table picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from alhambra import (
    BUILDING_TYPES,
    Alhambra,
    EvaluationPart,
    Game,
    ObservationLayout,
    ObservationPart,
    TablePart,
    hookimpl,
)
from alhambra.env import ActionEncoding, Field

from . import plugin
from .plugin import STATE_KEY, TakeHut, hut_state, hut_value, is_hut

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


def snapshot(
    game: Game, seat: int, layout: ObservationLayout, cache: dict[Any, Any]
) -> tuple[tuple[str, int, Any], ...] | None:
    """What a seat sees: each stack's building type, size and face-up hut, from the state."""
    hs = hut_state(game)
    if hs is None:
        return None
    return tuple((t, len(s), s[-1] if s else None) for t, s in hs.stacks.items())


def write(out: dict[str, np.ndarray], seen: Any, order: Sequence[int], layout: ObservationLayout) -> None:
    if seen is None:
        return
    stacks = {t: (size, top) for t, size, top in seen}
    for k, t in enumerate(BUILDING_TYPES):
        stack = stacks.get(t)
        if stack is not None:
            out["stack_sizes"][k] = stack[0]
            if stack[1] is not None:
                out["face_up"][layout.tile_index[stack[1]]] = 1


def encode(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], layout: ObservationLayout
) -> None:
    """The reference: the same slices from the view's entry."""
    write(out, tuple((t, s["size"], s["face_up"]) for t, s in part["stacks"].items()), order, layout)


@hookimpl
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart]:
    """``building_huts.face_up`` and ``building_huts.stack_sizes``."""
    shapes = {"face_up": (len(layout.tiles),), "stack_sizes": (len(BUILDING_TYPES),)}
    return [ObservationPart(STATE_KEY, shapes, encode, snapshot, write)]


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """A take by its hut."""
    return [
        ActionEncoding(TakeHut, (Field(("hut",), [(t,) for t, s in game.rules.catalog.items() if s.kind == "hut"]),))
    ]


@hookimpl
def alhambra_evaluation_part(game: Game, viewer: int) -> EvaluationPart:
    """Huts count by their neighbours."""
    return EvaluationPart(huts=plugin)


@hookimpl
def alhambra_tile_values(city: Alhambra) -> dict[tuple[int, int], int]:
    """What each hut of ``city`` counts as."""
    return {p: hut_value(city, p) for p, t in city.tiles.items() if is_hut(city.catalog, t)}


@hookimpl
def alhambra_table_part(view: dict[str, Any], seat: int | None) -> TablePart | None:
    """Each stack's size and face-up hut (R-HUT-1)."""
    part = view.get("modules", {}).get(STATE_KEY)
    if not part:
        return None
    stacks = tuple((t, s["size"], s["face_up"]) for t, s in part["stacks"].items())
    return TablePart("hut", stacks=stacks, stacks_title="building huts")
