"""Module "vizier" of Die Gunst des Wesirs (R-VIZ-1 … R-VIZ-7).

The package itself is the pluggy plugin: the hook implementations of :mod:`.plugin` are
imported here. See :mod:`alhambra_vizier.plugin` for how the asking between turns works and
for the rulings (a player who cannot pay any market building exactly is not asked; the
vizier may pay through an exchange office, RULES.md section 12).
"""

from .plugin import (
    DeclineVizier,
    ReactivateVizier,
    UseVizier,
    VizierState,
    alhambra_action_kinds,
    alhambra_between_turns,
    alhambra_check_state,
    alhambra_phases,
    alhambra_position_part,
    alhambra_position_read,
    alhambra_setup,
    alhambra_state_classes,
    alhambra_turn_start,
    alhambra_view,
    can_use,
    priority_order,
    vizier_state,
)
from .observation import (
    alhambra_action_encodings,
    alhambra_evaluation_part,
    alhambra_observation_parts,
    alhambra_table_part,
)

NAME = "vizier"
DESCRIPTION = "Vizier: each player's vizier may buy a market building with an exact payment between turns."
RULES = ("R-VIZ-1", "R-VIZ-2", "R-VIZ-3", "R-VIZ-4", "R-VIZ-5", "R-VIZ-6", "R-VIZ-7")
REPLACES = ()
VIEW_SECRETS = ()  # its part of a view (the tokens, R-VIZ-1) hides nothing
ORDER = 1  # the canonical order of the first expansion's modules

__all__ = [
    "NAME",
    "DESCRIPTION",
    "RULES",
    "VizierState",
    "UseVizier",
    "DeclineVizier",
    "ReactivateVizier",
    "priority_order",
    "can_use",
    "vizier_state",
    "alhambra_action_kinds",
    "alhambra_between_turns",
    "alhambra_check_state",
    "alhambra_observation_parts",
    "alhambra_phases",
    "alhambra_position_part",
    "alhambra_position_read",
    "alhambra_setup",
    "alhambra_state_classes",
    "alhambra_turn_start",
    "alhambra_view",
    "alhambra_action_encodings",
    "alhambra_evaluation_part",
    "alhambra_table_part",
]
