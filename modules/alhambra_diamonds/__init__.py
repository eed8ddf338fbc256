"""Module "diamonds" (Die Diamanten) of Die Tore der Stadt (R-DIA-1 … R-DIA-7).

The package is the pluggy plugin: its metadata here, the cards, actions and hook
implementations in :mod:`.plugin` (all re-exported here). See :mod:`alhambra_diamonds.plugin`
for how the module runs and its rulings.
"""

NAME = "diamonds"
DESCRIPTION = "Diamonds: money of a fifth currency in the money deck that pays for a building on any market space."
RULES = ("R-DIA-1", "R-DIA-2", "R-DIA-3", "R-DIA-4", "R-DIA-5", "R-DIA-6", "R-DIA-7")
REPLACES = ()

from .plugin import *  # noqa: E402, F403  (the metadata first: the plugin module reads nothing of it)
from .tools import alhambra_action_encodings  # noqa: E402
