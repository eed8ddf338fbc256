"""Module "diamonds" (Die Diamanten) of Die Tore der Stadt (R-DIA-1 … R-DIA-7).

The package is the pluggy plugin: its metadata here, the cards, actions and hook
implementations in :mod:`.plugin` (re-exported below). See :mod:`alhambra_diamonds.plugin`
for how the module runs and its rulings.
"""

NAME = "diamonds"
DESCRIPTION = "Diamonds: money of a fifth currency in the money deck that pays for a building on any market space."
RULES = ("R-DIA-1", "R-DIA-2", "R-DIA-3", "R-DIA-4", "R-DIA-5", "R-DIA-6", "R-DIA-7")
REPLACES = ()

from .plugin import (  # noqa: E402  (the metadata first: the plugin module reads nothing of it)
    CURRENCY,
    DEFAULT_VALUES,
    VALUES_OPTION,
    BuyWithDiamonds,
    Diamond,
    alhambra_action_kind,
    alhambra_action_kinds,
    alhambra_cards,
    alhambra_money_deck,
    alhambra_options,
    alhambra_purchase_rule,
    DiamondPurchaseRule,
    alhambra_view,
    check_diamond_payment,
    diamond_refusal,
    diamonds_for,
    diamonds_in,
    minimal_diamond_payments,
)
from .observation import alhambra_action_encodings, alhambra_observation_parts  # noqa: E402

__all__ = [
    "NAME",
    "DESCRIPTION",
    "RULES",
    "REPLACES",
    "CURRENCY",
    "DEFAULT_VALUES",
    "VALUES_OPTION",
    "BuyWithDiamonds",
    "Diamond",
    "alhambra_action_kind",
    "alhambra_action_kinds",
    "alhambra_cards",
    "alhambra_money_deck",
    "alhambra_options",
    "alhambra_purchase_rule",
    "DiamondPurchaseRule",
    "alhambra_observation_parts",
    "alhambra_view",
    "check_diamond_payment",
    "diamond_refusal",
    "diamonds_for",
    "diamonds_in",
    "minimal_diamond_payments",
    "alhambra_action_encodings",
]
