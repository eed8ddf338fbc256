"""The game's components as data: building tiles, money cards, scoring cards, the market.

The facts come from ``data/components.toml`` (a transcription of the project's
``COMPONENTS.md``); this module turns them into small immutable values.

Walls are a 4-bit mask per tile: :data:`NORTH` = 1, :data:`EAST` = 2, :data:`SOUTH` = 4,
:data:`WEST` = 8. Grid positions are ``(x, y)`` cells with the fountain at ``(0, 0)``, x growing
to the east and y to the south (R-PLACE-1).
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any, ClassVar, Iterable, Iterator, Mapping, TypeVar

from attrs import astuple, fields, frozen

from ..errors import ConfigError

NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
SIDE_BITS = {"north": NORTH, "east": EAST, "south": SOUTH, "west": WEST}
SIDE_NAMES = {bit: name for name, bit in SIDE_BITS.items()}

#: Tile id of every player's start tile, the Lion Fountain (R-COMP-1).
FOUNTAIN = 0

_DATA = tomllib.loads(resources.files(__package__).joinpath("data/components.toml").read_text("utf-8"))

#: The six building types in scoring order (R-COMP-2, R-SCORE-2).
BUILDING_TYPES: tuple[str, ...] = tuple(_DATA["building_types"])
#: Colour of each building type (used by the huts module and for display).
COLOURS: dict[str, str] = dict(_DATA["colours"])
#: The four currencies (R-COMP-3).
CURRENCIES: tuple[str, ...] = tuple(_DATA["money"]["currencies"])
#: the values of money cards (R-COMP-3: 1-9)
MONEY_VALUES: tuple[int, ...] = tuple(_DATA["money"]["values"])
#: Currency of building market spaces 1-4, as a tuple indexed by ``space - 1`` (R-COMP-4).
MARKET_CURRENCIES: tuple[str, ...] = tuple(_DATA["market"]["currencies"])
#: Points for 1st/2nd/3rd place per type, per scoring: ``SCORING_TABLE[type][number - 1]`` (R-SCORE-2).
SCORING_TABLE: dict[str, tuple[tuple[int, ...], ...]] = {
    t: tuple(tuple(p) for p in rows) for t, rows in _DATA["scoring"].items()
}


def walls_mask(sides: Iterable[str]) -> int:
    """Turn side names (``"north"``, ``"east"``, ``"south"``, ``"west"``) into a wall bitmask.

    Raises :class:`ConfigError` for an unknown side name.
    """
    mask = 0
    for side in sides:
        try:
            mask |= SIDE_BITS[side]
        except KeyError:
            raise ConfigError(f"unknown wall side {side!r}; expected one of {sorted(SIDE_BITS)}") from None
    return mask


def wall_names(mask: int) -> tuple[str, ...]:
    """The side names of a wall bitmask, in the order north, east, south, west."""
    return tuple(SIDE_NAMES[b] for b in (NORTH, EAST, SOUTH, WEST) if mask & b)


@frozen(slots=True)
class TileSpec:
    """One tile that can stand in an Alhambra.

    ``id``: int for the fountain (0) and buildings (1-54), str for module tiles (``"H1"``).
    ``kind``: ``"fountain"``, ``"building"`` or a module's own kind (``"hut"``).
    ``type``: building type (for huts, their colour's type), ``None`` for the fountain.
    ``price``: cost in money value (0 for tiles that are not bought). ``walls``: bitmask.
    """

    id: int | str
    kind: str
    type: str | None
    price: int
    walls: int

    @property
    def is_building(self) -> bool:
        """True for the 54 building tiles, the only tiles that are bought and scored (R-COMP-2)."""
        return self.kind == "building"


BUILDINGS: tuple[TileSpec, ...] = tuple(
    TileSpec(t["id"], "building", t["type"], t["price"], walls_mask(t["walls"])) for t in _DATA["tiles"]
)
FOUNTAIN_SPEC = TileSpec(FOUNTAIN, "fountain", None, 0, 0)


class TileCatalog(Mapping[Any, Any]):
    """Read-only mapping ``tile id -> TileSpec`` for every tile of one rule set.

    The base catalogue holds the fountain and the 54 buildings; modules add their own tiles
    (huts) through the ``alhambra_tiles`` hook. ``walls`` is a plain dict ``id -> wall mask``
    for the hot placement code. Raises :class:`ConfigError` on a duplicate id.
    """

    __slots__ = ("_specs", "walls", "types")

    def __init__(self, specs: Iterable[TileSpec]):
        self._specs: dict[Any, Any] = {}
        for spec in specs:
            if spec.id in self._specs:
                raise ConfigError(f"duplicate tile id {spec.id!r}")
            self._specs[spec.id] = spec
        self.walls: dict[int | str, int] = {i: s.walls for i, s in self._specs.items()}
        self.types: dict[Any, Any] = {i: s.type for i, s in self._specs.items()}

    def __getitem__(self, key: Any) -> TileSpec:
        spec: TileSpec = self._specs[key]
        return spec

    def __iter__(self) -> Iterator[Any]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def __repr__(self) -> str:
        return f"TileCatalog({len(self)} tiles)"


BASE_CATALOG = TileCatalog((FOUNTAIN_SPEC, *BUILDINGS))


# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------


class Card:
    """Base class of everything that lies in the money deck, money display, hands or discard.

    Every card has a ``code`` string that names it in saved games and logs. Copies of the same
    card are equal (three ``florin-7`` cards are interchangeable).
    """

    __slots__ = ()

    #: True for a card that is money (R-TURN-2: taken from the money display, alone or
    #: several up to a total of 5; R-SET-3: counted towards the starting money) and has an
    #: int ``value``: the money cards, and a module's money of another kind (diamonds,
    #: R-DIA-3). Whether it pays for a building is for the purchase rules to say.
    is_money = False

    @property
    def code(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


#: Every card of every rule set made in this process, by code (``Ruleset.cards`` of each):
#: how a picture or a page drawn from card codes alone (a view) learns what a module's card
#: is, from the card itself (its ``is_money``, ``currency``, ``value`` and ``str``).
_KNOWN_CARDS: dict[str, Card] = {}


def known_card(code: str) -> Card | None:
    """The card named ``code`` among the cards of the rule sets made so far (the base game's
    and every enabled module's, :func:`remember_cards`), or ``None``."""
    return _KNOWN_CARDS.get(code)


def remember_cards(cards: Iterable[Card]) -> None:
    """Make ``cards`` known by code to :func:`known_card` (the rule set does it for all of its
    cards). Codes name one card each across modules (saves depend on it), so a code seen
    again keeps its first card."""
    for c in cards:
        _KNOWN_CARDS.setdefault(c.code, c)


class InternedCard(Card):
    """A card kind with one instance per value (money cards, exchange offices): the
    subclass's ``__new__`` returns that instance, complete, so the class compares and hashes
    by identity (declare it with attrs' ``eq=False, init=False``). Copying, deep-copying and
    unpickling give the same instance back."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to do: ``__new__`` returns the card's one instance, complete (so calling
        ``__init__`` again cannot change a card every hand shares)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), astuple(self, recurse=False))  # type: ignore[arg-type]  # subclasses are attrs classes

    def __copy__(self) -> InternedCard:
        return self

    def __deepcopy__(self, memo: Any) -> InternedCard:
        return self


_F = TypeVar("_F", bound="CardFamily")


def _field_names(cls: Any) -> list[str]:
    """The names of the attrs class ``cls``'s fields, in order."""
    return [a.name for a in fields(cls)]


class CardFamily(InternedCard):
    """A fixed family of interned cards told apart by their fields' values (a module's
    exchange offices by two currencies, a :class:`NumberedCard` by a number). The subclass is
    an attrs class declared with ``frozen(slots=True, eq=False, init=False)``, makes its cards
    once with :meth:`make` and names the rule refusing anything else in :meth:`refusal`.
    ``Subclass(*values)`` (or with the fields' names) is then the one card of those values,
    each of the type it was made with (``True`` is no ``1``, ``2.0`` no ``2``, a ``str``
    subclass no ``str``); anything else raises :class:`~alhambra.ConfigError` with
    :meth:`refusal`'s sentence, and values that are not the fields a ``TypeError``."""

    __slots__ = ()
    #: ``(values, their types)`` -> the one card of those values (:meth:`make`)
    _ONE: ClassVar[dict[tuple[Any, ...], Any]] = {}

    def __new__(cls: type[_F], *args: Any, **kwargs: Any) -> _F:
        names = _field_names(cls)
        rest = names[len(args) :]
        if len(args) > len(names) or sorted(kwargs) != sorted(rest):
            raise TypeError(f"{cls.__name__} takes its fields {', '.join(names)}, not {args!r}, {kwargs!r}")
        values = (*args, *[kwargs[name] for name in rest])
        found = cls.find(*values)
        if found is None:
            raise ConfigError(cls.refusal(*values))
        return found

    @classmethod
    def refusal(cls, *values: Any) -> str:
        """Why no card of the family has the fields ``values`` (the rule's sentence: override
        it)."""
        return f"no {cls.__name__} of {values!r}"

    @classmethod
    def find(cls: type[_F], *values: Any) -> _F | None:
        """The card whose fields are ``values``, each of the type it was made with, or ``None``."""
        found: _F | None = cls._ONE.get((values, tuple(map(type, values))))
        return found

    @classmethod
    def make(cls: type[_F], rows: Iterable[Any]) -> tuple[_F, ...]:
        """The cards of ``rows``, in that order: made here, the one instance of each, and from
        now on the whole family. A row holds the fields' values in their order (a tuple; for
        a family of one field, the value alone)."""
        names = _field_names(cls)
        cls._ONE = {}
        for row in rows:
            values = tuple(row) if len(names) > 1 else (row,)
            cls._ONE[values, tuple(map(type, values))] = interned(cls, **dict(zip(names, values, strict=True)))
        return tuple(cls._ONE.values())


_N = TypeVar("_N", bound="NumberedCard")


class NumberedCard(CardFamily):
    """A family of interned cards told apart by a number alone (a module's gate cards 1-6).
    The subclass is an attrs class declared with ``frozen(slots=True, eq=False, init=False)``
    and the one field ``number: int``; it names its code's prefix (``PREFIX = "gate"``: code
    ``"gate-1"``), its noun (``NOUN = "gate card"``: ``str`` ``"gate card 1"``) and the sentence
    refusing a number it lacks (``REFUSAL``, ``{number!r}`` in it), and makes its cards once
    with :meth:`make` (``Subclass.make(numbers)``). ``Subclass(number)`` is then the one card of
    that number, anything else a :class:`~alhambra.ConfigError` saying ``REFUSAL``."""

    __slots__ = ()
    PREFIX: ClassVar[str] = "card"
    NOUN: ClassVar[str] = "card"
    REFUSAL: ClassVar[str] = "no card numbered {number!r}"
    number: int

    @classmethod
    def refusal(cls, *values: Any) -> str:
        return cls.REFUSAL.format(number=values[0])

    @classmethod
    def numbers(cls) -> tuple[int, ...]:
        """The family's numbers, in the order :meth:`make` made them."""
        return tuple(c.number for c in cls._ONE.values())

    @classmethod
    def numbered(cls, number: Any) -> Any:
        """The card numbered ``number``, or ``number`` itself where no card of the family has
        that number (a loaded save's ``-1``: a check of every card then names where it lies)."""
        found = cls.find(number)
        return number if found is None else found

    @classmethod
    def of_code(cls: type[_N], value: Any, where: str) -> _N:
        """The card whose code ``value`` is (``"gate-1"``); :class:`ConfigError` naming ``where``
        and the family's codes else."""
        found: _N | None = next((c for c in cls._ONE.values() if c.code == value), None)
        if found is None or type(value) is not str:
            codes = ", ".join(c.code for c in cls._ONE.values())
            raise ConfigError(f"{where}: unknown {cls.NOUN} {value!r} (the {cls.NOUN}s are {codes})")
        return found

    @classmethod
    def of_codes(cls: type[_N], value: Any, where: str) -> list[_N]:
        """The cards of a list of codes (:meth:`of_code`, ``where[i]`` naming each);
        :class:`ConfigError` naming ``where`` for anything but a list."""
        if not isinstance(value, list):
            first = next(iter(cls._ONE.values())).code
            raise ConfigError(f"{where}: a list of {cls.NOUN}s ('{first}' …), not {value!r}")
        return [cls.of_code(v, f"{where}[{i}]") for i, v in enumerate(value)]

    @classmethod
    def declared_numbers(cls) -> dict[str, Any]:
        """Keywords declaring a state field (``declared.public(**Cls.declared_numbers(),
        place=...)``) that holds a list of the family's numbers (the gate cards played): the
        cards' codes in positions (:meth:`of_codes` reading them), the cards themselves where
        components are counted (``holds="cards"``), a number of the family in each item."""
        return dict(
            to_position=lambda numbers: [cls(n).code for n in numbers],
            from_position=lambda value, game, where: [c.number for c in cls.of_codes(value, where)],
            among=cls.numbers(),
            holds="cards",
            locate=lambda numbers: [cls.numbered(n) for n in numbers],
        )

    @classmethod
    def declared_number(cls) -> dict[str, Any]:
        """Keywords declaring a state field that holds one number of the family, 0 for none
        (the card on the gate space): views and positions show its code (``None``, ``""``:
        none), the card itself counted where components are (``holds="cards"``)."""
        return dict(
            view=lambda n: f"{cls.PREFIX}-{n}" if n else None,
            to_position=lambda n: f"{cls.PREFIX}-{n}" if n else "",
            from_position=lambda value, game, where: cls.of_code(value, where).number if value != "" else 0,
            among=(0, *cls.numbers()),
            holds="cards",
            locate=lambda n: [cls.numbered(n)] if n else [],
        )

    @property
    def code(self) -> str:
        return f"{self.PREFIX}-{self.number}"

    def __str__(self) -> str:
        return f"{self.NOUN} {self.number}"


_Interned = TypeVar("_Interned", bound=InternedCard)


#: every card made by :func:`interned`, per class (see :func:`made_cards`)
_MADE: dict[type, set[Any]] = {}


def interned(cls: type[_Interned], **fields: Any) -> _Interned:
    """A new card of the :class:`InternedCard` class ``cls`` with its attrs ``fields`` set
    (``interned(Kind, number=3)``): for the class to make each of its cards once, in its
    ``__new__`` or at import, and keep it as the one instance of those values. The card joins
    :func:`made_cards` of ``cls``."""
    card = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(card, name, value)
    made_cards(cls).add(card)
    return card


def made_cards(cls: type[_Interned]) -> set[_Interned]:
    """Every card of the :class:`InternedCard` class ``cls`` that :func:`interned` has made so
    far: one set per class, the same set growing with each card made (keep it), so that
    ``made_cards(Kind).isdisjoint(hand)`` tells at C speed that a hand holds none."""
    found = _MADE.get(cls)
    if found is None:
        found = _MADE[cls] = set()
    return found


_MONEY_CARDS: dict[tuple[str, int], MoneyCard] = {}
#: Every money card -> ``16 * (index of its currency in CURRENCIES) + value``: sorting by rank
#: groups a hand by currency, each group by value (for the engine's hot path).
MONEY_RANK: dict[Any, Any] = {}
#: Every money card -> ``(i, 1 << 4 * value)``, ``i`` the index of its currency in
#: :data:`MARKET_CURRENCIES` (the market space it pays for, 0-3). Summed per currency over a
#: hand of fewer than 16 cards, the second numbers count how many cards of each value it
#: holds (4 bits per value), so that the same cards in any order give the same number: the
#: engine's key for its payment caches.
MONEY_LANE: dict[Any, Any] = {}


@functools.total_ordering
@frozen(slots=True, eq=False, init=False)
class MoneyCard(InternedCard):
    """A money card: ``currency`` (one of :data:`CURRENCIES`) and ``value`` 1-9 (R-COMP-3).

    There is one instance per currency and value: ``MoneyCard("florin", 7)`` always returns
    the same object, so the three copies of a card in the deck are one value and comparing or
    hashing cards is as cheap as comparing identities. Cards order by ``(currency, value)``.
    Raises :class:`ConfigError` for another currency or a value that is not an int 1-9."""

    currency: str
    value: int

    is_money = True  # see Card.is_money

    def __new__(cls, currency: str, value: int) -> MoneyCard:
        if type(currency) is str and type(value) is int:
            found = _MONEY_CARDS.get((currency, value))
            if found is not None:
                return found
        if (
            type(currency) is not str
            or currency not in CURRENCIES
            or type(value) is not int
            or value not in MONEY_VALUES
        ):
            raise ConfigError(
                f"no such money card: {currency!r} {value!r} (R-COMP-3: currencies {list(CURRENCIES)}, values 1-9)"
            )
        card = super().__new__(cls)
        object.__setattr__(card, "currency", currency)
        object.__setattr__(card, "value", value)
        _MONEY_CARDS[(currency, value)] = card
        MONEY_RANK[card] = CURRENCIES.index(currency) * 16 + value
        MONEY_LANE[card] = (MARKET_CURRENCIES.index(currency), 1 << 4 * value)
        return card

    def __lt__(self, other: object) -> bool:
        if type(other) is not MoneyCard:
            return NotImplemented
        return (self.currency, self.value) < (other.currency, other.value)

    @property
    def code(self) -> str:
        return f"{self.currency}-{self.value}"

    def __str__(self) -> str:
        return self.code


@frozen(slots=True, cache_hash=True)
class ScoringCard(Card):
    """Scoring card ``"A"`` (first scoring) or ``"B"`` (second scoring) (R-COMP-3, R-SCORE-1)."""

    which: str

    @property
    def number(self) -> int:
        """The scoring it triggers: 1 for A, 2 for B."""
        return 1 if self.which == "A" else 2

    @property
    def code(self) -> str:
        return f"scoring-{self.which}"

    def __str__(self) -> str:
        return self.code


SCORING_A = ScoringCard("A")
SCORING_B = ScoringCard("B")


def money_deck(copies: int | None = None) -> list[MoneyCard]:
    """All money cards: currencies x values x ``copies`` (default 3: 108 cards) (R-COMP-3)."""
    n = _DATA["money"]["copies"] if copies is None else copies
    return [MoneyCard(c, v) for c in CURRENCIES for v in MONEY_VALUES for _ in range(n)]


def tile_words(catalog: TileCatalog, tile: Any) -> str:
    """A tile in words, to follow "the": ``"tower 7"`` (building type and price), ``"Lion
    Fountain"``, ``"tower hut H22"`` (a module's tile: its type, kind and id); ``"tile X"``
    for an id the catalogue does not hold."""
    spec = catalog.get(tile)
    if spec is None:
        return f"tile {tile}"
    if spec.kind == "fountain":
        return "Lion Fountain"
    if spec.kind == "building":
        return f"{spec.type} {spec.price}"
    return f"{spec.type} {spec.kind} {tile}"
