"""The building huts' part of the environments' observation tensor (``alhambra.env``,
docs/env.md): ``building_huts.face_up`` (the face-up hut of each stack, one flag per tile) and
``building_huts.stack_sizes`` (each stack's size, in :data:`alhambra.BUILDING_TYPES` order),
never the face-down order (R-HUT-1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from alhambra import BUILDING_TYPES, Game, ObservationLayout, ObservationPart, hookimpl

from .plugin import STATE_KEY, hut_state

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
