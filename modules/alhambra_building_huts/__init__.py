"""Module "building_huts" (Bauhütten) of Die Gunst des Wesirs (R-HUT-1 … R-HUT-6).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (all re-exported here), its own data beside them. See
:mod:`alhambra_building_huts.plugin` for how the module runs and its rulings.
"""

NAME = "building_huts"
DESCRIPTION = "Building huts: take a free hut that counts as 0-3 buildings of its colour beside matching buildings."
RULES = ("R-HUT-1", "R-HUT-2", "R-HUT-3", "R-HUT-4", "R-HUT-5", "R-HUT-6")
REPLACES = ()
ORDER = 2  # the canonical order of the first expansion's modules

from .layout import *  # noqa: E402, F403  (the shipped layout's data)
from .plugin import *  # noqa: E402, F403  (the metadata first: the plugin module reads nothing of it)
from .tools import alhambra_action_encodings, alhambra_evaluation_part, alhambra_tile_values, alhambra_table_part  # noqa: E402
