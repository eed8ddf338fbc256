"""Module "bonus_cards" of Die Gunst des Wesirs (R-BON-1 … R-BON-5).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (re-exported below), its own data beside them. See
:mod:`alhambra_bonus_cards.plugin` for how the module runs and its rulings.
"""

NAME = "bonus_cards"
DESCRIPTION = "Bonus cards: a secretly dealt card counts as one more building of its type once its wall-less building is in the Alhambra."
RULES = ("R-BON-1", "R-BON-2", "R-BON-3", "R-BON-4", "R-BON-5")
REPLACES = ()

from .plugin import (  # noqa: E402  (the metadata first: the plugin module reads nothing of it)
    DECLARED,
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
    alhambra_position_read,
    alhambra_setup,
)

__all__ = [
    "DECLARED",
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
    "alhambra_position_read",
    "alhambra_setup",
]
