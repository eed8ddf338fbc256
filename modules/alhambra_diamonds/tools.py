"""The diamonds to the tools beside the rules: the encoding of a purchase with diamonds in the
environments' action space (R-DIA-4). The observation needs no part of them: diamonds are money
cards (R-DIA-1), which the core's ``hand``, ``display`` and ``discard`` slices count."""

from __future__ import annotations

from alhambra import ActionEncoding, CardsField, Field, Game, MoneyCard, hookimpl

from .plugin import BuyWithDiamonds


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """The space, then the diamonds paid one at a time."""
    # the environments' package is loaded by then; importing it with the module would load
    # Gymnasium into every game
    from alhambra.env.codec import money_cards

    diamonds = [c for c in money_cards(game) if type(c) is not MoneyCard]
    return [
        ActionEncoding(BuyWithDiamonds, (Field(("space",), [(s,) for s in range(1, 5)]), CardsField("cards", diamonds)))
    ]
