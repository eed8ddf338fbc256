"""Module "exchange_offices" (Wechselstuben) of Die Gunst des Wesirs (R-EXC-1 … R-EXC-6).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (re-exported below), its own data beside them. See
:mod:`alhambra_exchange_offices.plugin` for how the module runs and its rulings.
"""

NAME = "exchange_offices"
DESCRIPTION = "Exchange offices: six cards in the money deck that let a purchase be paid in either of two currencies."
RULES = ("R-EXC-1", "R-EXC-2", "R-EXC-3", "R-EXC-4", "R-EXC-5", "R-EXC-6")
REPLACES = ()
VIEW_SECRETS = ("in_deck",)  # of its part of a view, only the count in the deck hides anything
ORDER = 4  # the canonical order of the first expansion's modules

from .plugin import (  # noqa: E402  (the metadata first: the plugin module reads nothing of it)
    OFFICES,
    OFFICES_BY_CODE,
    ExchangeOffice,
    OFFICES_PER_PILE,
    OFFICE_PILES,
    TakeOffice,
    offices_in,
    alhambra_action_kinds,
    alhambra_cards,
    alhambra_determinize,
    alhambra_hidden_piles,
    alhambra_money_piles,
    alhambra_payment_means,
    alhambra_view,
)
from .observation import alhambra_action_encodings, alhambra_observation_parts, alhambra_table_part  # noqa: E402

__all__ = [
    "NAME",
    "DESCRIPTION",
    "RULES",
    "REPLACES",
    "OFFICES",
    "OFFICES_BY_CODE",
    "ExchangeOffice",
    "OFFICES_PER_PILE",
    "OFFICE_PILES",
    "TakeOffice",
    "offices_in",
    "alhambra_action_kinds",
    "alhambra_cards",
    "alhambra_determinize",
    "alhambra_hidden_piles",
    "alhambra_money_piles",
    "alhambra_payment_means",
    "alhambra_observation_parts",
    "alhambra_view",
    "alhambra_action_encodings",
    "alhambra_table_part",
]
