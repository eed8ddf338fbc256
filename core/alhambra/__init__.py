"""alhambra: a rules engine for the board game Alhambra (Dirk Henn, Queen Games) and the
modules of its expansions, built on pluggy hooks.

Quick use::

    import alhambra, random
    game = alhambra.new_game(4, modules=["vizier"], seed=7)
    rng = random.Random(7)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    print(game.scores, game.winners)
"""

import sys as _sys
from importlib import metadata as _metadata

from .engine.actions import (
    Action,
    ActionKind,
    BuildFromReserve,
    Buy,
    GiveToDirk,
    Pass,
    PaymentMeans,
    Place,
    Purchase,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
    action_table,
    canonical_cards,
    card_names,
    field_check,
)
from .engine.city import SIDES, Alhambra, canonical_side, cell_position, neighbour, read_side
from .engine.components import (
    BUILDING_TYPES,
    BUILDINGS,
    COLOURS,
    CURRENCIES,
    EAST,
    FOUNTAIN,
    MARKET_CURRENCIES,
    NORTH,
    SCORING_TABLE,
    SIDE_BITS,
    SIDE_NAMES,
    SOUTH,
    WEST,
    Card,
    InternedCard,
    CardFamily,
    NumberedCard,
    MoneyCard,
    ScoringCard,
    TileCatalog,
    TileSpec,
    interned,
    made_cards,
    tile_words,
    walls_mask,
)
from .engine import declared, operations
from .engine.declared import Declared, DeclaredState, DeckKind, card_places
from .engine.encoding import ActionEncoding, CardsField, CellField, Field
from .engine.observation_parts import ObservationLayout, ObservationPart, mirrored_part
from .engine.plugin_parts import EvaluationPart, TablePart
from .engine.huts import HutKind
from .engine.piles import DeckCards, HiddenPile, shuffle_into
from .engine.sequence import (
    ACTION_DONE,
    END_GAME,
    EXTRA_ACTION,
    RESUME,
    ActionDone,
    Decide,
    EndGame,
    Interrupt,
    Next,
    PhaseSpec,
    PlaceTiles,
    Resume,
)
from .errors import AlhambraError, ConfigError, IllegalActionError, PluginError, SaveFormatError, SimulationError
from .game import Game, engine_of, new_game, returns
from .engine.accounting import card_locations, tile_locations
from .saving.data_files import read_data, read_data_file
from .saving.files import read_toml_file
from .saving.position import start_position
from .engine.protocol import GameLike
from . import hookspec
from .hookspec import hookimpl
from .engine.options import Option
from .engine.payment import minimal_payments, value_payments
from .replay import replay
from .rules.placement_rules import OpenSidesHeld, PlacementRules, side_cells
from .rules.purchase import DelegatingPurchaseRule, PurchaseRule, apply_purchase, check_paid, means_in_hand
from .rules.any_space_money import AnySpaceMoney, AnySpaceMoneyRule
from .rules.exact_purchase import ExactPurchase
from .rules.scoring import alhambra_scoring as base_scoring
from .engine.ruleset import BUILTIN_PLUGINS, available_modules
from .rules.ruleset import Ruleset, get_ruleset
from .rules.turn import display_take_kind
from .engine.scoring import majority_points, majority_table
from .engine.state import MAX_NAME_LENGTH, SEED_LIMIT, GameState, Pending, PlayerState, ScoringRecord

try:  # the version is written once, in pyproject.toml, and read from the installed metadata
    __version__: str = _metadata.version("alhambra-engine")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from a checkout not installed
    __version__ = "0+unknown"

__all__ = [
    "ACTION_DONE",
    "Action",
    "ActionDone",
    "ActionEncoding",
    "ActionKind",
    "Alhambra",
    "AnySpaceMoney",
    "AnySpaceMoneyRule",
    "AlhambraError",
    "BUILDINGS",
    "BUILDING_TYPES",
    "BUILTIN_PLUGINS",
    "BuildFromReserve",
    "Buy",
    "CardsField",
    "CellField",
    "COLOURS",
    "CURRENCIES",
    "Card",
    "CardFamily",
    "ConfigError",
    "DeckCards",
    "DeckKind",
    "Declared",
    "DelegatingPurchaseRule",
    "DeclaredState",
    "Decide",
    "EAST",
    "END_GAME",
    "EXTRA_ACTION",
    "EndGame",
    "EvaluationPart",
    "ExactPurchase",
    "Field",
    "field_check",
    "FOUNTAIN",
    "Game",
    "GameLike",
    "GameState",
    "GiveToDirk",
    "HiddenPile",
    "HutKind",
    "IllegalActionError",
    "InternedCard",
    "NumberedCard",
    "Interrupt",
    "MARKET_CURRENCIES",
    "MoneyCard",
    "NORTH",
    "Next",
    "ObservationLayout",
    "ObservationPart",
    "Option",
    "Pass",
    "PaymentMeans",
    "Purchase",
    "Pending",
    "PhaseSpec",
    "Place",
    "PlaceTiles",
    "PlacementRules",
    "OpenSidesHeld",
    "PlayerState",
    "PluginError",
    "PurchaseRule",
    "RESUME",
    "RemoveToReserve",
    "Reserve",
    "Resume",
    "Ruleset",
    "SCORING_TABLE",
    "MAX_NAME_LENGTH",
    "SEED_LIMIT",
    "SIDE_BITS",
    "SIDE_NAMES",
    "SIDES",
    "SOUTH",
    "SaveFormatError",
    "ScoringCard",
    "ScoringRecord",
    "SimulationError",
    "Swap",
    "TablePart",
    "TakeMoney",
    "TileCatalog",
    "TileSpec",
    "WEST",
    "action_table",
    "available_modules",
    "base_scoring",
    "canonical_cards",
    "canonical_side",
    "card_names",
    "cell_position",
    "get_ruleset",
    "engine_of",
    "returns",
    "tile_locations",
    "card_locations",
    "card_places",
    "start_position",
    "hookimpl",
    "hookspec",
    "interned",
    "display_take_kind",
    "made_cards",
    "means_in_hand",
    "majority_points",
    "majority_table",
    "minimal_payments",
    "neighbour",
    "value_payments",
    "apply_purchase",
    "check_paid",
    "mirrored_part",
    "new_game",
    "declared",
    "operations",
    "read_data",
    "read_data_file",
    "read_side",
    "read_toml_file",
    "replay",
    "shuffle_into",
    "side_cells",
    "tile_words",
    "walls_mask",
]

from . import _compat  # noqa: E402  (old module paths as aliases, after the package is complete)

_compat.install(_sys.modules[__name__])


def __getattr__(name: str) -> object:
    """``alhambra.testing``: the test helpers, imported on first use only (never by the
    engine, so loading a save does not import them)."""
    if name == "testing":
        import importlib

        return importlib.import_module(f"{__name__}.testing")
    raise AttributeError(f"module 'alhambra' has no attribute {name!r}")
