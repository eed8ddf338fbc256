"""Module "city gates" (Die Tore der Stadt) of the second expansion (R-GATE-1 … R-GATE-9).

The package is the pluggy plugin: its metadata here, the cards, state, actions and hook
implementations in :mod:`.plugin` (all re-exported here). See :mod:`alhambra_city_gates.plugin`
for how the module runs and its rulings.
"""

NAME = "city_gates"
DESCRIPTION = "City gates: gate cards from the money deck that open a double wall of an Alhambra for walking."
RULES = tuple(f"R-GATE-{k}" for k in range(1, 10))
REPLACES = ()

from .plugin import *  # noqa: E402, F403  (the metadata first: the plugin module reads nothing of it)
from .observation import alhambra_observation_parts, alhambra_action_encodings  # noqa: E402
