"""Actions: every decision a player makes is one of these small immutable values.

Core action types are listed here; modules define their own the same way (an attrs
``frozen`` subclass of :class:`Action`) and make them playable through an :class:`ActionKind`
returned from the ``alhambra_action_kinds`` hook. Positions are ``(x, y)`` tuples, tiles are
tile ids, cards are :class:`~alhambra.components.Card` values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, TypeVar

from attrs import evolve, field, frozen

from .components import Card, MoneyCard
from ..errors import IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import GameLike
    from .sequence import Next


def canonical_cards(cards: Iterable[Any]) -> tuple[Any, ...]:
    """``cards`` as a tuple in the canonical order of an action's cards (currency, value,
    code), so that equal payments are equal actions. The converter of the ``cards`` fields of
    :class:`TakeMoney`, :class:`Buy` and modules' payment actions; raises
    :class:`~alhambra.errors.IllegalActionError` for anything that is not a sequence."""
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__iter__"):
        from ..errors import IllegalActionError

        raise IllegalActionError(f"cards must be a sequence of cards, not {cards!r}")
    cards = tuple(cards)
    if len(cards) < 2:
        return cards
    return tuple(sorted(cards, key=_card_key))


_CARD_KEYS: dict[Any, Any] = {}


def _card_key(card: Any) -> tuple[Any, ...]:
    """Canonical order of cards in an action (currency, value, code); tolerant of junk, so a
    malformed action is refused with a clear error rather than failing to build."""
    try:
        key = _CARD_KEYS.get(card)
    except TypeError:  # unhashable junk
        return ("", "", repr(card))
    if key is None:
        key = (
            str(getattr(card, "currency", "")),
            str(getattr(card, "value", 0)),
            str(getattr(card, "code", repr(card))),
        )
        if len(_CARD_KEYS) < 10_000:
            _CARD_KEYS[card] = key
    return key


_A = TypeVar("_A")


class ActionTable(dict[tuple[Any, ...], _A], Generic[_A]):
    """``table[args]`` is the one shared instance of ``cls(*args)`` (actions are immutable
    values): saves rebuilding the same legal actions over and over. Stops keeping new ones
    once it holds ``limit`` (they are still built and returned)."""

    __slots__ = ("cls", "limit")

    def __init__(self, cls: type[_A], limit: int = 50_000) -> None:
        super().__init__()
        self.cls = cls
        self.limit = limit

    def __missing__(self, args: tuple[Any, ...]) -> _A:
        found = self.cls(*args)
        if len(self) < self.limit:
            self[args] = found
        return found


_TABLES: dict[type, ActionTable[Any]] = {}


def action_table(cls: type[_A]) -> ActionTable[_A]:
    """The shared :class:`ActionTable` of action class ``cls``."""
    table = _TABLES.get(cls)
    if table is None:
        table = _TABLES[cls] = ActionTable(cls)
    return table


class ActionRow(dict[Any, Any]):
    """``row[key]`` is the one shared instance of ``cls(tile, position(key))`` (or
    ``cls(position(key))`` when ``tile`` is None, or with the key itself as the position when
    ``position`` is None): the actions of one class and tile at every position, built on
    first use. Stops keeping new ones once it holds ``limit`` (they are still built and
    returned)."""

    __slots__ = ("cls", "tile", "position", "limit")

    def __init__(self, cls: type, tile: Any, position: Callable[[Any], Any] | None = None, limit: int = 5_000) -> None:
        super().__init__()
        self.cls, self.tile, self.position, self.limit = cls, tile, position, limit

    def __missing__(self, key: Any) -> Any:
        pos = key if self.position is None else self.position(key)
        found = self.cls(pos) if self.tile is None else self.cls(self.tile, pos)
        if len(self) < self.limit:
            self[key] = found
        return found


_ROWS: dict[Any, Any] = {}


def action_row(cls: type, tile: Any, position: Callable[[Any], Any] | None = None) -> ActionRow:
    """The shared :class:`ActionRow` of action class ``cls`` and ``tile`` (see
    :func:`actions_at`): keyed by positions, or by whatever ``position`` turns into one (the
    city's cell numbers, with ``alhambra.city.cell_position``)."""
    key = (cls, tile, position)
    row = _ROWS.get(key)
    if row is None:
        row = _ROWS[key] = ActionRow(cls, tile, position)
    return row


def actions_at(
    cls: type, tile: Any, positions: Iterable[Any], position: Callable[[Any], Any] | None = None
) -> list[Any]:
    """``[cls(tile, pos) for pos in positions]`` as the shared instances (``cls`` takes a
    tile and a position, like :class:`BuildFromReserve`, :class:`Swap`, :class:`Place`;
    ``tile`` may be ``None`` for a class that takes the position alone, like
    :class:`RemoveToReserve`). With ``position``, ``positions`` are keys it turns into
    positions (the engine passes the city's cell numbers: no position tuple is hashed). The
    engine's hot path: one dict look-up per position."""
    row = action_row(cls, tile, position)
    return [row[k] for k in positions]


def interned(cls: type, *args: Any) -> Any:
    """The one shared instance of ``cls(*args)`` (see :class:`ActionTable`)."""
    return action_table(cls)[args]


def _pos(p: Any) -> tuple[int, int]:
    return tuple(p) if isinstance(p, list) else p


def card_code(card: Any) -> str:
    """A card's code (``florin-3``) for a readable ``str``; anything that is not a card (a
    malformed action's field: the class ``MoneyCard``, a string, a list) as its ``repr``, so
    printing an action never fails."""
    code = getattr(card, "code", None) if isinstance(card, Card) else None
    return code if type(code) is str else repr(card)


def card_names(cards: Iterable[Any]) -> str:
    """``florin-3+dinar-5`` (or ``nothing``): cards in an action's readable ``str``; junk
    entries as their ``repr`` (see :func:`card_code`)."""
    return "+".join([card_code(c) for c in cards]) if cards else "nothing"


class Action:
    """Base class of all actions. Subclasses are ``attrs.frozen(slots=True)`` classes; their
    ``str()`` is a readable log line."""

    __slots__ = ()


@frozen(slots=True, cache_hash=True)
class TakeMoney(Action):
    """Take money from the money display: one card of any value, or several whose total is
    at most 5 (R-TURN-2). ``cards``: the exact cards taken (sorted on creation)."""

    cards: tuple[MoneyCard, ...] = field(converter=canonical_cards)

    def __str__(self) -> str:
        return f"take {card_names(self.cards)}"


@frozen(slots=True)
class Purchase(Action):
    """The fields of a payment for the building on market ``space`` (1-4): the money ``cards``
    paid, and ``via``, a card from the hand that lets the cards be of other currencies and is
    spent with them (an exchange office, R-EXC-4), or ``None`` to pay in the space's currency.
    The base of :class:`Buy` and of a module's own purchase action (the vizier's use, see
    :class:`~alhambra.ExactPurchase`), each declared ``frozen(slots=True, cache_hash=True)``
    with its ``str``; no action itself."""

    space: int
    cards: tuple[MoneyCard, ...] = field(converter=canonical_cards)
    via: Card | None = None


@frozen(slots=True, cache_hash=True)
class Buy(Purchase):
    """Buy the building on market ``space`` (1-4), paying ``cards`` (R-TURN-3), through
    ``via`` or not (:class:`Purchase`). A payment equal to the price earns another action
    (R-TURN-4)."""

    def __str__(self) -> str:
        via = f" via {card_code(self.via)}" if self.via is not None else ""
        return f"buy space {self.space} paying {card_names(self.cards)}{via}"


@frozen(slots=True, cache_hash=True)
class BuildFromReserve(Action):
    """Redesign: build ``tile`` from the reserve at ``pos`` (R-TURN-5 i)."""

    tile: Any
    pos: tuple[int, int] = field(converter=_pos)

    def __str__(self) -> str:
        return f"build {self.tile} from reserve at {self.pos}"


@frozen(slots=True, cache_hash=True)
class RemoveToReserve(Action):
    """Redesign: move the tile at ``pos`` into the reserve (R-TURN-5 ii, R-TURN-6)."""

    pos: tuple[int, int] = field(converter=_pos)

    def __str__(self) -> str:
        return f"remove tile at {self.pos} to reserve"


@frozen(slots=True, cache_hash=True)
class Swap(Action):
    """Redesign: put ``tile`` from the reserve at ``pos``; the tile there goes to the reserve
    (R-TURN-5 iii)."""

    tile: Any
    pos: tuple[int, int] = field(converter=_pos)

    def __str__(self) -> str:
        return f"swap {self.tile} from reserve in at {self.pos}"


@frozen(slots=True, cache_hash=True)
class Place(Action):
    """Build a pending tile (bought this turn, or received) at ``pos`` (R-TURN-7, R-END-3)."""

    tile: Any
    pos: tuple[int, int] = field(converter=_pos)

    def __str__(self) -> str:
        return f"place {self.tile} at {self.pos}"


@frozen(slots=True, cache_hash=True)
class Reserve(Action):
    """Put a pending tile into the reserve (R-TURN-7, R-END-3)."""

    tile: Any

    def __str__(self) -> str:
        return f"reserve {self.tile}"


@frozen(slots=True, cache_hash=True)
class GiveToDirk(Action):
    """Two players: give a building bought this turn to Dirk (R-TWO-5)."""

    tile: Any

    def __str__(self) -> str:
        return f"give {self.tile} to Dirk"


@frozen(slots=True, cache_hash=True)
class Pass(Action):
    """No legal action is possible: the player passes (R-TURN-9)."""

    def __str__(self) -> str:
        return "pass"


@frozen(slots=True)
class PaymentMeans:
    """A way to pay for a building besides the space's own currency (purchase payment hook).

    ``via``: the card in hand that is spent with the payment (e.g. an exchange office); never
    a money card (a hand of money cards alone has no means, see ``alhambra_payment_means``).
    ``currencies``: the currencies the payment may then use; the means applies to a market
    space whose currency is among them (R-EXC-4)."""

    via: Card
    currencies: frozenset[str]


def _phases(names: Iterable[str]) -> frozenset[str]:
    return frozenset(names)


def _plugin_names(names: Iterable[str]) -> tuple[str, ...]:
    """``ActionKind.replaces`` as a tuple of plugin names; :class:`ConfigError` otherwise."""
    from ..errors import ConfigError

    if not isinstance(names, (tuple, list, set, frozenset)) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"ActionKind.replaces must be a tuple of plugin names, not {names!r}")
    return tuple(names)


@frozen(slots=True)
class ActionKind:
    """How one action type is played: which phases it belongs to, how its legal actions are
    listed, and how one is applied.

    ``action``: the :class:`Action` subclass. ``phases``: phase names (``"turn"``, ``"place"``,
    or a module's own, declared with ``alhambra_phases``) in which it can be legal.
    ``legal(game, seat)`` returns an iterable of the legal actions of this type for ``seat``
    now. ``apply(game, seat, action)`` carries one out (the engine has already checked it)
    and returns what comes next: a :class:`~alhambra.engine.sequence.Next` such as
    ``ACTION_DONE``, ``EXTRA_ACTION``, ``PlaceTiles(...)``, ``RESUME``, ``END_GAME``, or
    ``None`` when the same seat decides again in the same phase. ``check(game, seat, action)`` (optional) explains
    why an action that ``legal`` does not list is illegal, by raising
    :class:`~alhambra.errors.IllegalActionError` with the reason. Only with ``unlisted=True``
    may it accept such an action by returning normally (a kind whose legal actions are not all
    listed, e.g. an overpaying purchase); otherwise the engine refuses an unlisted action even
    if ``check`` returns. ``name``: the serialised type name (default: the class name).
    ``replaces``: names of other plugins (modules by ``NAME``, house rules by
    :func:`~alhambra.engine.ruleset.plugin_name`) whose kind for the same action class this one
    replaces. A kind of a built-in plugin is always replaced by a plugin's kind for the same
    class; two plugins that are not built-in offering one class are a
    :class:`~alhambra.errors.ConfigError` naming both unless one of them lists the other
    here (the rule set then plays the kind that no other replaces, whatever their order).
    An action whose ``apply`` returns ``None`` in phase ``turn`` is free: the same player
    decides again (a bonus-card reveal, R-BON-5).
    """

    action: type
    phases: frozenset[str] = field(converter=_phases)
    # the functions take the game in play first (a :class:`~alhambra.engine.protocol.GameLike`;
    # typed ``Any`` so that a plugin's function may take the ``alhambra.Game`` it is given)
    legal: Callable[[Any, int], Iterable[Action]]
    apply: Callable[[Any, int, Any], Next | None]
    check: Callable[[Any, int, Any], None] | None = None
    name: str | None = None
    unlisted: bool = False
    replaces: tuple[str, ...] = field(default=(), converter=_plugin_names)

    @property
    def type_name(self) -> str:
        return self.name or self.action.__name__

    def checked(self, refuse: Callable[[Any, int, Any], str | None]) -> ActionKind:
        """This kind with ``refuse(game, seat, action)`` asked before its check: an action it
        answers a sentence for (naming the rule) raises
        :class:`~alhambra.errors.IllegalActionError` with it, anything else goes on to this
        kind's check. The listing is left as it is, so ``refuse`` must refuse no action the
        kind lists (only an unlisted action is checked): the listing, on every state's path,
        costs nothing more (the diamonds refuse a turn's ``Buy`` paid in diamonds, R-DIA-4)."""
        check = self.check

        def checked_check(game: GameLike, seat: int, action: Any) -> None:
            why = refuse(game, seat, action)
            if why is not None:
                raise IllegalActionError(why)
            if check is not None:
                check(game, seat, action)

        return evolve(self, check=checked_check)

    def restricted(self, refuse: Callable[[Any, int, Any], str | None]) -> ActionKind:
        """This kind with fewer legal actions: ``refuse(game, seat, action)`` answers why an
        action this kind would allow is not legal (a sentence naming the rule, e.g.
        ``"hand limit: ..."``) or ``None``. The actions it refuses are not listed, and
        playing one raises :class:`~alhambra.errors.IllegalActionError` with that sentence
        (:meth:`checked`); everything else is this kind's (for ``alhambra_action_kind``: a
        house rule's hand limit on ``TakeMoney`` is ``kind.restricted(too_many)``)."""
        legal = self.legal

        def restricted_legal(game: GameLike, seat: int) -> list[Action]:
            return [a for a in legal(game, seat) if refuse(game, seat, a) is None]

        # what it restricts, for a reader that must know every action the kind can list (the
        # environments' action space: a restriction lists no action its base does not)
        restricted_legal.restricts = legal  # type: ignore[attr-defined]
        return evolve(self.checked(refuse), legal=restricted_legal)

    def also_in(self, phases: Iterable[str], refuse: Callable[[Any, int], str | None]) -> ActionKind:
        """This kind in ``phases`` too (a module's own, declared with ``alhambra_phases``), there
        only while ``refuse(game, seat)`` answers ``None``: while it answers a sentence (naming
        the rule), the kind lists nothing in those phases and playing one of its actions raises
        :class:`~alhambra.errors.IllegalActionError` with that sentence. In its own phases it
        is as it was (for ``alhambra_action_kind``: a built-in action also played in a
        module's window, while the module's state allows it)."""
        legal, check, extra = self.legal, self.check, frozenset(phases)

        def legal_also(game: GameLike, seat: int) -> Iterable[Action]:
            if game.state.phase in extra and refuse(game, seat) is not None:
                return ()
            return legal(game, seat)

        def check_also(game: GameLike, seat: int, action: Any) -> None:
            if game.state.phase in extra and (why := refuse(game, seat)) is not None:
                raise IllegalActionError(why)
            if check is not None:
                check(game, seat, action)

        return evolve(self, phases=self.phases | extra, legal=legal_also, check=check_also)


def passes_in_a_row(history: list[Any]) -> int:
    """How many of the last actions of ``history`` were passes (R-TURN-9), each a whole turn:
    when every player in a row of turns could only pass, the game ends after that round
    (R-END-1 ruling: every game ends). ``Game.apply`` then returns :data:`END_GAME`."""
    k = 0
    for a in reversed(history):
        if type(a) is not Pass:
            break
        k += 1
    return k


def field_check(test: Callable[[Any], bool], refusal: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator for a field of an action: a value for which ``test`` is false is
    refused with :class:`~alhambra.errors.IllegalActionError` ``"<refusal>, not <value!r>"``,
    ``{name}`` in ``refusal`` standing for the field's name (``field_check(lambda v: v in (2,
    4), "R-X-1: a {name} is 2 or 4")``)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not test(value):
            raise IllegalActionError(f"{refusal.format(name=attribute.name)}, not {value!r}")

    return check
