"""Module "building_huts" (Bauhütten) of Die Gunst des Wesirs (R-HUT-1 … R-HUT-6).

The package is the pluggy plugin: its metadata here, the state, actions and hook
implementations in :mod:`.plugin` (re-exported below), its own data beside them. See
:mod:`alhambra_building_huts.plugin` for how the module runs and its rulings.
"""

NAME = "building_huts"
DESCRIPTION = "Building huts: take a free hut that counts as 0-3 buildings of its colour beside matching buildings."
RULES = ("R-HUT-1", "R-HUT-2", "R-HUT-3", "R-HUT-4", "R-HUT-5", "R-HUT-6")
REPLACES = ()
ORDER = 2  # the canonical order of the first expansion's modules

from .layout import (  # noqa: E402  (the shipped layout's data)
    HUT_COUNTS,
    HUT_KIND,
    TOTAL_HUTS,
    check_layout_option,
    load_layout,
    parse_layout,
    shipped_layout,
)
from .plugin import (  # noqa: E402  (the metadata first: the plugin module reads nothing of it)
    HutState,
    LAYOUT_OPTION,
    MAX_HUTS,
    MAX_HUT_VALUE,
    STATE_KEY,
    TakeHut,
    hut_counts,
    hut_ids,
    hut_state,
    hut_value,
    huts_owned,
    is_hut,
    alhambra_action_kinds,
    alhambra_building_counts,
    alhambra_check_state,
    alhambra_determinize,
    alhambra_hidden_piles,
    alhambra_options,
    alhambra_position_part,
    alhambra_position_read,
    alhambra_setup,
    alhambra_state_classes,
    alhambra_tile_locations,
    alhambra_tiles,
    alhambra_view,
)
from .observation import (  # noqa: E402
    alhambra_action_encodings,
    alhambra_evaluation_part,
    alhambra_observation_parts,
    alhambra_table_part,
    alhambra_tile_values,
)

__all__ = [
    "NAME",
    "DESCRIPTION",
    "RULES",
    "REPLACES",
    "HUT_COUNTS",
    "HUT_KIND",
    "HutState",
    "LAYOUT_OPTION",
    "MAX_HUTS",
    "MAX_HUT_VALUE",
    "STATE_KEY",
    "TOTAL_HUTS",
    "TakeHut",
    "check_layout_option",
    "hut_counts",
    "hut_ids",
    "hut_state",
    "hut_value",
    "huts_owned",
    "is_hut",
    "load_layout",
    "parse_layout",
    "shipped_layout",
    "alhambra_action_kinds",
    "alhambra_building_counts",
    "alhambra_check_state",
    "alhambra_determinize",
    "alhambra_hidden_piles",
    "alhambra_options",
    "alhambra_position_part",
    "alhambra_position_read",
    "alhambra_setup",
    "alhambra_state_classes",
    "alhambra_tile_locations",
    "alhambra_tiles",
    "alhambra_observation_parts",
    "alhambra_view",
    "alhambra_action_encodings",
    "alhambra_evaluation_part",
    "alhambra_table_part",
    "alhambra_tile_values",
]
