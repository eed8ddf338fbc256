"""What the engine, the rules and the saving code ask of a game: :class:`GameLike`, with the
rule set as they read it (:class:`RulesLike`) and the purchase rule (:class:`PurchaseRuleLike`).

They are typed against these protocols, not against :class:`alhambra.Game`, which imports
them all: the game and the rule set it holds refer to each other, so the types that say what
one asks of the other live here, below both. A protocol names what is read; the classes
(``Game``, ``Ruleset``, ``PurchaseRule``) satisfy them without naming them. The action kinds,
phases and hooks of a rule set are typed ``Any`` here: their classes take a game, and this
module stays below every module that names a game.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Mapping, Protocol, Self, Sequence, TypeVar

from .city import PlacementRulesLike
from .components import Card, TileCatalog
from .state import GameState
from ..errors import ConfigError


class PurchaseRuleLike(Protocol):
    """The purchase rule of a rule set (``rules.purchase``; :class:`alhambra.PurchaseRule`):
    ``buy`` and the purchases listed are :class:`~alhambra.engine.actions.Buy` actions."""

    def market_price(self, game: GameLike, space: int) -> int | None: ...

    def cached_purchases(self, game: GameLike, seat: int, exact: bool = False) -> Sequence[Any]: ...

    def purchases(self, game: GameLike, seat: int, *, exact: bool = False) -> list[Any]: ...

    def payments(self, game: GameLike, seat: int, space: int, *, exact: bool = False) -> list[Any]: ...

    def payment_cards(self, game: GameLike, seat: int, space: int) -> list[tuple[Any, frozenset[str]]]: ...

    def check_payment(self, game: GameLike, seat: int, action: Any) -> int: ...

    def pay(self, game: GameLike, seat: int, action: Any) -> Any: ...

    def earns_extra_action(self, game: GameLike, seat: int, action: Any, price: int | None) -> bool: ...

    def can_pay_exactly(self, game: GameLike, seat: int) -> bool: ...

    def first_exact_payer(self, game: GameLike, seats: Iterable[int]) -> int | None: ...


class RulesLike(Protocol):
    """A rule set as the engine reads it (:class:`alhambra.Ruleset`): read-only attributes."""

    @property
    def hook(self) -> Any: ...

    @property
    def pm(self) -> Any: ...

    @property
    def fast(self) -> Any: ...

    @property
    def modules(self) -> tuple[str, ...]: ...

    @property
    def module_objects(self) -> tuple[Any, ...]: ...

    @property
    def plugins(self) -> tuple[Any, ...]: ...

    @property
    def blocked(self) -> tuple[str, ...]: ...

    @property
    def builtins(self) -> Mapping[str, Any]: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def option_specs(self) -> Mapping[str, Any]: ...

    @property
    def catalog(self) -> TileCatalog: ...

    @property
    def cards(self) -> Mapping[str, Card]: ...

    @property
    def prices(self) -> Mapping[Any, int]: ...

    @property
    def space_prices(self) -> tuple[dict[Any, int], dict[Any, int], dict[Any, int], dict[Any, int]]: ...

    @property
    def price_bits(self) -> int: ...

    @property
    def price_lanes(self) -> tuple[dict[Any, int], ...]: ...

    @property
    def placement_rules(self) -> PlacementRulesLike: ...

    @property
    def purchase(self) -> PurchaseRuleLike: ...

    @property
    def take_limit(self) -> int: ...

    @property
    def state_classes(self) -> Mapping[str, type]: ...

    @property
    def phase_specs(self) -> Mapping[str, Any]: ...

    @property
    def kinds(self) -> Mapping[type, Any]: ...

    @property
    def phases(self) -> Mapping[str, Any]: ...

    @property
    def phase_legal(self) -> Mapping[str, Any]: ...

    @property
    def action_types(self) -> Mapping[str, type]: ...

    @property
    def has_payment_means(self) -> bool: ...

    @property
    def has_placement_filter(self) -> bool: ...

    @property
    def has_city_changed(self) -> bool: ...

    @property
    def has_between_turns(self) -> bool: ...

    @property
    def has_turn_start(self) -> bool: ...

    @property
    def has_card_drawn(self) -> bool: ...

    @property
    def has_game_ends(self) -> bool: ...

    @property
    def memo(self) -> dict[Any, Any]: ...

    @property
    def buy_memo(self) -> tuple[tuple[dict[Any, Any], ...], ...]: ...

    @property
    def memo_limit(self) -> int: ...

    converter_cache: Any


class GameLike(Protocol):
    """A game as the engine, the rules and the saving code read and change it
    (:class:`alhambra.Game` is one): its rule set, state, random generator and history, the
    plugins' scratch memo and change counters, and the few methods they call back.
    Besides the public members of a game, it names the engine's bookkeeping (underscored):
    the engine's own modules read it, a plugin asks :mod:`alhambra.operations`."""

    state: GameState
    seed: int
    history: list[Any]
    # what the engine keeps per game besides (plugins reach them through alhambra.operations:
    # rng, memo, module_changes): the random generator, the seats' names, where the history
    # starts (a position, or None for the set-up), the plugins' scratch memo and the change
    # counters of the modules' states
    _rng: random.Random
    _names: tuple[str, ...]
    _origin: dict[str, Any] | None
    _memo: dict[Any, Any]
    _changes: dict[str, int]
    # the engine's own bookkeeping (:mod:`alhambra.engine.acting`, :mod:`~alhambra.engine.lineage`,
    # :mod:`~alhambra.engine.piles`): the legal actions listed, where the state comes from, and
    # during a determinization the deck positions already resampled
    _legal: list[Any] | None
    _legal_set: dict[Any, Any] | None
    _base: Any
    _settled: set[int] | None

    @property
    def rules(self) -> RulesLike: ...

    @property
    def num_players(self) -> int: ...

    @property
    def config(self) -> dict[str, Any]: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any) -> None: ...

    @classmethod
    def _blank(cls, rules: Any, names: list[str], seed: int) -> Self: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def phase(self) -> str: ...

    @property
    def is_over(self) -> bool: ...

    def view(self, seat: int | None = None) -> dict[str, Any]: ...

    def _invalidate(self) -> None: ...

    def clone(self, *, seed: int | None = None) -> Self: ...

    def determinize(self, seat: int, rng: random.Random | None = None, *, recall: bool = True) -> Self: ...


#: a game class: what the saving functions make games of and return
G = TypeVar("G", bound=GameLike)


def check_seat(game: GameLike, seat: Any) -> None:
    """Raise :class:`~alhambra.errors.ConfigError` unless ``seat`` is a seat of ``game``: an
    int 0 … players-1."""
    n = game.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise ConfigError(f"seat must be an int 0..{n - 1}, not {seat!r}")
