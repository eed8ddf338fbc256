"""Module "exchange_offices" (Wechselstuben) of Die Gunst des Wesirs (R-EXC-1 … R-EXC-6).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (all re-exported here), its own data beside them. See
:mod:`alhambra_exchange_offices.plugin` for how the module runs and its rulings.
"""

NAME = "exchange_offices"
DESCRIPTION = "Exchange offices: six cards in the money deck that let a purchase be paid in either of two currencies."
RULES = ("R-EXC-1", "R-EXC-2", "R-EXC-3", "R-EXC-4", "R-EXC-5", "R-EXC-6")
REPLACES = ()
VIEW_SECRETS = ("in_deck",)  # of its part of a view, only the count in the deck hides anything
ORDER = 4  # the canonical order of the first expansion's modules

from .plugin import *  # noqa: E402, F403  (the metadata first: the plugin module reads nothing of it)
from .tools import alhambra_action_encodings, alhambra_table_part  # noqa: E402
