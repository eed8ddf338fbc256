"""The diamonds' part of the environments' observation tensor (``alhambra.env``, docs/env.md):
none. Diamonds are money cards (R-DIA-1): the core's ``hand``, ``display`` and ``discard``
slices count them like any card, so the module's view entry (the same diamonds again) adds
nothing to the tensor.

Also the encoding of a purchase with diamonds (R-DIA-4)."""

from __future__ import annotations

from alhambra import Game, MoneyCard, ObservationLayout, ObservationPart, hookimpl
from alhambra.env import ActionEncoding, CardsField, Field
from alhambra.env.codec import money_cards

from .plugin import BuyWithDiamonds


@hookimpl
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart]:
    """No part: declaring none lets the environments keep the vector up to date from the state."""
    return []


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """The space, then the diamonds paid one at a time."""
    diamonds = [c for c in money_cards(game) if type(c) is not MoneyCard]
    return [
        ActionEncoding(BuyWithDiamonds, (Field(("space",), [(s,) for s in range(1, 5)]), CardsField("cards", diamonds)))
    ]
