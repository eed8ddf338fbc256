"""Module "bonus_cards" of Die Gunst des Wesirs (R-BON-1 … R-BON-5).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (re-exported below), its own data beside them. See
:mod:`alhambra_bonus_cards.plugin` for how the module runs and its rulings.
"""

NAME = "bonus_cards"
DESCRIPTION = "Bonus cards: a secretly dealt card counts as one more building of its type once its wall-less building is in the Alhambra."
RULES = ("R-BON-1", "R-BON-2", "R-BON-3", "R-BON-4", "R-BON-5")
REPLACES = ()
ORDER = 3  # the canonical order of the first expansion's modules

from .plugin import (  # noqa: E402  (the metadata first: the plugin module reads nothing of it)
    BONUS_CARDS,
    DEAL_SIZES,
    BonusCardsState,
    RevealBonus,
    STATE_KEY,
    bonus_card_locations,
    bonus_state,
    alhambra_action_kinds,
    alhambra_building_counts,
    alhambra_check_state,
    alhambra_city_changed,
    alhambra_determinize,
    alhambra_position_part,
    alhambra_position_read,
    alhambra_setup,
    alhambra_state_classes,
    alhambra_view,
)
from .observation import (  # noqa: E402
    alhambra_action_encodings,
    alhambra_evaluation_part,
    alhambra_observation_parts,
    alhambra_table_part,
)

__all__ = [
    "NAME",
    "DESCRIPTION",
    "RULES",
    "REPLACES",
    "BONUS_CARDS",
    "DEAL_SIZES",
    "BonusCardsState",
    "RevealBonus",
    "STATE_KEY",
    "bonus_card_locations",
    "bonus_state",
    "alhambra_action_kinds",
    "alhambra_building_counts",
    "alhambra_check_state",
    "alhambra_city_changed",
    "alhambra_determinize",
    "alhambra_position_part",
    "alhambra_position_read",
    "alhambra_setup",
    "alhambra_state_classes",
    "alhambra_observation_parts",
    "alhambra_view",
    "alhambra_action_encodings",
    "alhambra_evaluation_part",
    "alhambra_table_part",
]
