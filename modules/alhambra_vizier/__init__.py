"""Module "vizier" of Die Gunst des Wesirs (R-VIZ-1 … R-VIZ-7).

The package itself is the pluggy plugin: the hook implementations of :mod:`.plugin` are
imported here. See :mod:`alhambra_vizier.plugin` for how the asking between turns works and
for the rulings (a player who cannot pay any market building exactly is not asked; the
vizier may pay through an exchange office, RULES.md section 12).
"""

NAME = "vizier"
DESCRIPTION = "Vizier: each player's vizier may buy a market building with an exact payment between turns."
RULES = ("R-VIZ-1", "R-VIZ-2", "R-VIZ-3", "R-VIZ-4", "R-VIZ-5", "R-VIZ-6", "R-VIZ-7")
REPLACES = ()
VIEW_SECRETS = ()  # its part of a view (the tokens, R-VIZ-1) hides nothing
ORDER = 1  # the canonical order of the first expansion's modules

from .plugin import *  # noqa: E402, F403  (the metadata first: the plugin module reads nothing of it)
from .observation import (  # noqa: E402
    alhambra_action_encodings,
    alhambra_evaluation_part,
    alhambra_table_part,
)
