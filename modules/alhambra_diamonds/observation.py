"""The diamonds' part of the environments' observation tensor (``alhambra.env``, docs/env.md):
none. Diamonds are money cards (R-DIA-1): the core's ``hand``, ``display`` and ``discard``
slices count them like any card, so the module's view entry (the same diamonds again) adds
nothing to the tensor."""

from __future__ import annotations

from alhambra import Game, ObservationLayout, ObservationPart, hookimpl


@hookimpl
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart]:
    """No part: declaring none lets the environments keep the vector up to date from the state."""
    return []
