"""Module "city gates" (Die Tore der Stadt) of the second expansion (R-GATE-1 … R-GATE-9).

The package is the pluggy plugin: its metadata here, the cards, state, actions and hook
implementations in :mod:`.plugin` (re-exported below). See :mod:`alhambra_city_gates.plugin`
for how the module runs and its rulings.
"""

NAME = "city_gates"
DESCRIPTION = "City gates: gate cards from the money deck that open a double wall of an Alhambra for walking."
RULES = tuple(f"R-GATE-{k}" for k in range(1, 10))
REPLACES = ()

from .plugin import (  # noqa: E402  (the metadata first: the plugin module reads nothing of it)
    DECLARED,
    CARDS_OPTION,
    GATE_CARDS,
    GATE_PILES,
    PHASE,
    BuildThroughGate,
    CityGatesState,
    FinishGates,
    GateCard,
    PlayGate,
    TakeGate,
    alhambra_action_kind,
    alhambra_action_kinds,
    alhambra_card_drawn,
    alhambra_cards,
    alhambra_check_state,
    alhambra_money_piles,
    alhambra_options,
    alhambra_placement_rules,
    GateRules,
    alhambra_phases,
    can_play_gate,
    double_walls,
    removal_gates,
    gated,
    why_not_gate,
    alhambra_setup,
    canonical_gate,
    card_count,
    gate_cells,
    gates_in,
    gates_state,
    alhambra_position_read,
    alhambra_view_gate_space,
)
from .observation import alhambra_observation_parts  # noqa: E402

__all__ = [
    "DECLARED",
    "NAME",
    "DESCRIPTION",
    "RULES",
    "REPLACES",
    "CARDS_OPTION",
    "GATE_CARDS",
    "GATE_PILES",
    "PHASE",
    "BuildThroughGate",
    "CityGatesState",
    "FinishGates",
    "GateCard",
    "PlayGate",
    "TakeGate",
    "alhambra_action_kind",
    "alhambra_action_kinds",
    "alhambra_card_drawn",
    "alhambra_cards",
    "alhambra_check_state",
    "alhambra_money_piles",
    "alhambra_options",
    "alhambra_placement_rules",
    "GateRules",
    "alhambra_phases",
    "can_play_gate",
    "double_walls",
    "removal_gates",
    "gated",
    "why_not_gate",
    "alhambra_setup",
    "alhambra_observation_parts",
    "canonical_gate",
    "card_count",
    "gate_cells",
    "gates_in",
    "gates_state",
    "alhambra_position_read",
    "alhambra_view_gate_space",
]
