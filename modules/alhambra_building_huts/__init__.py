"""Module "building_huts" (Bauhütten) of Die Gunst des Wesirs (R-HUT-1 … R-HUT-6).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (all re-exported here), its own data beside them. See
:mod:`alhambra_building_huts.plugin` for how the module runs and its rulings.
"""

NAME = "building_huts"
DESCRIPTION = "Building huts: take a free hut that counts as 0-3 buildings of its colour beside matching buildings."
RULES = ("R-HUT-1", "R-HUT-2", "R-HUT-3", "R-HUT-4", "R-HUT-5", "R-HUT-6")
REPLACES = ()

from .layout import *  # noqa: E402, F403  (the shipped layout's data)
from .plugin import *  # noqa: E402, F403  (the metadata first: the plugin module reads nothing of it)
