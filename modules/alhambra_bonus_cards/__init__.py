"""Module "bonus_cards" of Die Gunst des Wesirs (R-BON-1 … R-BON-5).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (all re-exported here), its own data beside them. See
:mod:`alhambra_bonus_cards.plugin` for how the module runs and its rulings.
"""

NAME = "bonus_cards"
DESCRIPTION = "Bonus cards: a secretly dealt card counts as one more building of its type once its wall-less building is in the Alhambra."
RULES = ("R-BON-1", "R-BON-2", "R-BON-3", "R-BON-4", "R-BON-5")
REPLACES = ()
ORDER = 3  # the canonical order of the first expansion's modules

from .plugin import *  # noqa: E402, F403  (the metadata first: the plugin module reads nothing of it)
from .tools import alhambra_action_encodings, alhambra_evaluation_part, alhambra_table_part  # noqa: E402
