"""alhambra: a rules engine for the board game Alhambra (Dirk Henn, Queen Games) and the
modules of its first expansion, built on pluggy hooks.

Quick use::

    import alhambra, random
    game = alhambra.new_game(4, modules=["vizier"], seed=7)
    rng = random.Random(7)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    print(game.scores, game.winners)
"""

from importlib import metadata as _metadata

from .actions import (
    Action,
    ActionKind,
    BuildFromReserve,
    Buy,
    GiveToDirk,
    Pass,
    PaymentMeans,
    Place,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
    action_table,
    canonical_cards,
    card_names,
)
from .city import Alhambra
from .components import (
    BUILDING_TYPES,
    BUILDINGS,
    CURRENCIES,
    EAST,
    FOUNTAIN,
    MARKET_CURRENCIES,
    NORTH,
    SCORING_TABLE,
    SOUTH,
    WEST,
    Card,
    InternedCard,
    MoneyCard,
    ScoringCard,
    TileCatalog,
    TileSpec,
)
from .errors import AlhambraError, ConfigError, IllegalActionError, SaveFormatError, SimulationError
from .game import Game, new_game
from .hookspec import hookimpl, hookspec
from .options import Option
from .payment import minimal_payments
from .replay import replay
from . import testing
from .ruleset import BUILTIN_PLUGINS, Ruleset, available_modules, get_ruleset
from .scoring import majority_points, majority_table
from .state import GameState, Pending, PlayerState, ScoringRecord

try:  # the version is written once, in pyproject.toml, and read from the installed metadata
    __version__: str = _metadata.version("alhambra-engine")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from a checkout not installed
    __version__ = "0+unknown"

__all__ = [name for name in dir() if not name.startswith("_")]
