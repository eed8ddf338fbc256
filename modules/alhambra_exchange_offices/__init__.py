"""Module "exchange_offices" (Wechselstuben) of Die Gunst des Wesirs (R-EXC-1 … R-EXC-6).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (re-exported below), its own data beside them. See
:mod:`alhambra_exchange_offices.plugin` for how the module runs and its rulings.
"""

NAME = "exchange_offices"
DESCRIPTION = "Exchange offices: six cards in the money deck that let a purchase be paid in either of two currencies."
RULES = ("R-EXC-1", "R-EXC-2", "R-EXC-3", "R-EXC-4", "R-EXC-5", "R-EXC-6")
REPLACES = ()

from .plugin import (  # noqa: E402  (the metadata first: the plugin module reads nothing of it)
    DECLARED,
    OFFICES,
    OFFICES_BY_CODE,
    ExchangeOffice,
    OFFICES_PER_PILE,
    OFFICE_PILES,
    TakeOffice,
    offices_in,
    alhambra_action_kinds,
    alhambra_cards,
    alhambra_money_piles,
    alhambra_payment_means,
)

__all__ = [
    "NAME",
    "DESCRIPTION",
    "RULES",
    "REPLACES",
    "DECLARED",
    "OFFICES",
    "OFFICES_BY_CODE",
    "ExchangeOffice",
    "OFFICES_PER_PILE",
    "OFFICE_PILES",
    "TakeOffice",
    "offices_in",
    "alhambra_action_kinds",
    "alhambra_cards",
    "alhambra_money_piles",
    "alhambra_payment_means",
]
