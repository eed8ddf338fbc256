"""A fixed integer action space for one rule set (players, modules, options).

Every engine action is written as a short sequence of integers, its *code*: a first integer
that names the action kind (and its first field), then one integer per further sub-decision.
A payment (:class:`~alhambra.Buy`, the vizier's ``UseVizier``) is the space and payment means
first, then the money cards one at a time in canonical order, then "pay"; a placement is the
tile first, then the cell. The codes of one state's legal actions are *prefix-free* (no code
is the beginning of another), so an environment plays them one integer at a time and hands
the engine one action when a code is complete (see :class:`Decision`).

How an action kind is written is declared by an :class:`ActionEncoding` keyed by its action
class: the base game's kinds are registered here (:func:`register_encoding`), a module
declares its own with the hook ``alhambra_action_encodings`` (or registers them). The layout of the integers is in
``docs/env.md``.

Cells are *slots of the Alhambra being built* (the window follows each Alhambra): the cells it
occupies and the empty cells next to them (the only cells a tile can go to, R-PLACE-2), sorted
row by row (``y``, then ``x``); a cell's integer is its index in that list (:func:`city_slots`).
An Alhambra of ``n`` tiles (fountain included) has at most ``n + 2 n + 2`` of them (a set of ``n``
cells touches at most ``2 n + 2`` empty ones), and an Alhambra holds at most the 54 buildings, 3
huts (R-COMP-2, R-HUT-4) and its fountain, so :data:`MAX_SLOTS` (176 for the game's tiles) is
never left by any legal play. A placement's code therefore depends on the Alhambra it is made
in (the player to move's); every other code depends on the rule set only.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

from attrs import frozen

from alhambra.engine.encoding import ActionEncoding, CardsField, CellField, Field
from alhambra.rules.turn import _legal_take  # the built-in takes (core.turn), see builtin_takes

from alhambra import (
    Action,
    AlhambraError,
    BuildFromReserve,
    Buy,
    ConfigError,
    GiveToDirk,
    IllegalActionError,
    MoneyCard,
    Pass,
    Place,
    RemoveToReserve,
    Reserve,
    ScoringCard,
    Swap,
    TakeMoney,
)

if TYPE_CHECKING:  # pragma: no cover
    from alhambra import Game

__all__ = [
    "ActionCodec",
    "ActionEncoding",
    "CardsField",
    "CellField",
    "Decision",
    "Field",
    "WindowError",
    "city_slots",
    "encoding_for",
    "max_slots",
    "money_cards",
    "money_takes",
    "payment_encoding",
    "declared_encodings",
    "register_encoding",
    "take_encoding",
    "tile_ids",
]

#: R-HUT-4: a player owns at most 3 huts (reserve included).
_HUT_LIMIT = 3
# the money display holds 4 cards (R-SET-5, refilled to 4 by R-TURN-8): a take of 5 cards
# (five 1s) can never be legal, so the codes stop at 4 cards
_DISPLAY_SIZE = 4
#: The most money takes written one integer each (R-TURN-2: 407 with every module at the
#: rule's total of 5, 816 at 6, 2683 at 8); a rule set with more takes (a total of 9 or more),
#: or whose ``TakeMoney`` kind is not the built-in one, writes a take card by card (:func:`take_encoding`).
MAX_TAKE_CODES = 4096


def _index(i: Any) -> int:
    """``i`` as an integer (``int`` or numpy integer, not ``bool``); raises TypeError else."""
    if isinstance(i, bool) or type(i).__name__ == "bool_":
        raise TypeError(f"{i!r} is a boolean")
    return operator.index(i)


class WindowError(AlhambraError):
    """An Alhambra has more cell slots than any legal game gives (:func:`max_slots`), or a
    position is not a slot of the Alhambra the action is made in: never raised in play, only
    for a state built by hand that no game can reach."""


def max_slots(game: Game) -> int:
    """The most cell slots an Alhambra of ``game``'s rule set can have: with ``n`` tiles (the
    fountain, every building, at most 3 huts, R-COMP-2, R-HUT-4), ``n`` occupied cells and at
    most ``2 n + 2`` empty cells next to them. 176 for the base game and every module."""
    kinds = [s.kind for s in game.rules.catalog.values()]
    huts = kinds.count("hut")
    n = 1 + sum(1 for k in kinds if k not in ("fountain", "hut")) + min(huts, _HUT_LIMIT)
    return 3 * n + 2


def city_slots(city: Any) -> tuple[tuple[int, int], ...]:
    """The cell slots of Alhambra ``city`` (an :class:`alhambra.Alhambra`, a dict or any
    iterable of positions ``(x, y)``): its occupied cells and the empty cells sharing a side
    with one, sorted by ``(y, x)``. Kept in an Alhambra's ``memo`` (its layout's cache)."""
    memo = getattr(city, "memo", None)
    if memo is not None:
        found: tuple[tuple[int, int], ...] | None = memo.get("env_slots")
        if found is not None:
            return found
    cells = set(city)
    around = {(x + dx, y + dy) for x, y in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    found = tuple(sorted(cells | around, key=lambda p: (p[1], p[0])))
    if memo is not None:
        memo["env_slots"] = found
    return found


EncodingFactory = Callable[["Game", int], ActionEncoding]
_REGISTRY: dict[Any, EncodingFactory] = {}


def _class_key(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def register_encoding(action: type | str, factory: EncodingFactory) -> None:
    """Declare how action class ``action`` (or its dotted name ``"package.module.Class"``) is
    encoded: ``factory(game, slots)`` (``slots``: :func:`max_slots`, for a :class:`CellField`) returns its :class:`ActionEncoding` for the rule set of
    ``game`` (a freshly set-up game; read its rules, never its hidden state). A later
    registration replaces an earlier one. Raises :class:`ConfigError` for a factory that is
    not callable."""
    if not callable(factory):
        raise ConfigError(f"an encoding factory must be callable, not {factory!r}")
    _REGISTRY[action if isinstance(action, str) else _class_key(action)] = factory


def declared_encodings(game: Game, slots: int) -> dict[type, ActionEncoding]:
    """The encodings ``game``'s plugins declare (``alhambra_action_encodings``), by action
    class; :class:`ConfigError` for an answer that is not a list of :class:`ActionEncoding`."""
    out: dict[type, ActionEncoding] = {}
    for group in game.rules.hook.alhambra_action_encodings(game=game, slots=slots):
        if not isinstance(group, list) or not all(isinstance(e, ActionEncoding) for e in group):
            raise ConfigError(f"alhambra_action_encodings must return a list of ActionEncoding, not {group!r}")
        out.update((e.action, e) for e in group)
    return out


def encoding_for(action: type, game: Game, slots: int) -> ActionEncoding:
    """The :class:`ActionEncoding` of ``action`` for ``game``'s rule set: the registered one
    (:func:`register_encoding`), else the one a plugin declares (``alhambra_action_encodings``,
    as the expansion modules do); raises :class:`ConfigError` when there is none."""
    factory = _REGISTRY.get(_class_key(action))
    enc = factory(game, slots) if factory is not None else declared_encodings(game, slots).get(action)
    if enc is None:
        raise ConfigError(
            f"no environment encoding for action kind {action.__qualname__} ({action.__module__}); "
            "declare one with alhambra.env.register_encoding"
        )
    if not isinstance(enc, ActionEncoding) or enc.action is not action:
        raise ConfigError(f"the encoding factory of {action.__qualname__} returned {enc!r}")
    return enc


# -- domains read from the rule set ----------------------------------------------------------


def money_cards(game: Game) -> tuple[Any, ...]:
    """The distinct money cards of the rule set (R-COMP-3), in currency then value order,
    then a module's money of another kind (diamonds, R-DIA-1) in its order."""
    cards = game.rules.cards.values()
    return (
        *(c for c in cards if type(c) is MoneyCard),
        *(c for c in cards if c.is_money and type(c) is not MoneyCard),
    )


def means_cards(game: Game) -> tuple[Any, ...]:
    """Cards of the rule set that are neither money nor scoring cards (exchange offices,
    gate cards)."""
    return tuple(c for c in game.rules.cards.values() if not c.is_money and not isinstance(c, ScoringCard))


def tile_ids(game: Game) -> tuple[Any, ...]:
    """Every tile id of the rule set except the fountain: buildings 1-54, then module tiles
    (huts) in catalogue order."""
    return tuple(t for t, spec in game.rules.catalog.items() if spec.kind != "fountain")


def money_takes(game: Game, most: int | None = None) -> tuple[tuple[tuple[MoneyCard, ...]], ...]:
    """Every multiset of money cards a take can be (R-TURN-2): one card of any value, or 2-4
    cards totalling at most the rule set's ``rules.take_limit`` (5; the display holds 4,
    R-SET-5), canonical, as 1-tuples. ``most``: stop once there are more than that many (the
    caller then writes takes card by card)."""
    limit = game.rules.take_limit
    money = money_cards(game)
    small = [c for c in money if c.value < limit]
    out: list[tuple[tuple[MoneyCard, ...]]] = [((c,),) for c in money]
    for k in range(2, min(limit, _DISPLAY_SIZE) + 1):
        for combo in combinations_with_replacement(small, k):
            if sum(c.value for c in combo) <= limit:
                out.append((TakeMoney(combo).cards,))
                if most is not None and len(out) > most:
                    return tuple(out)
    return tuple(out)


def builtin_takes(game: Game) -> bool:
    """Whether the rule set's ``TakeMoney`` kind lists the built-in takes (``core.turn``'s, at
    the rule set's total ``rules.take_limit``) or fewer (a restriction of them,
    :meth:`alhambra.ActionKind.restricted`, such as a hand limit): then :func:`money_takes`
    holds every take it can list. False for a kind of a plugin's own (its takes are unknown)."""
    kind = game.rules.kinds.get(TakeMoney)
    legal = None if kind is None else kind.legal
    for _ in range(1000):  # a chain of restrictions
        if legal is None:
            return False
        if legal is _legal_take:
            return True
        legal = getattr(legal, "restricts", None)
    return False


def take_encoding(game: Game) -> ActionEncoding:
    """How the rule set's takes are written (R-TURN-2), derived from the rule set: with the
    built-in kind (:func:`builtin_takes`) and at most :data:`MAX_TAKE_CODES` takes, one integer
    per take (:func:`money_takes`: the base game's 407 or fewer at the total of 5, more at a
    house rule's higher total); else ``TakeMoney`` then each card taken, in canonical order,
    then "done", which holds any take of the rule set's cards (money, and the cards that
    are neither money nor scoring cards), whatever the rule allows."""
    if builtin_takes(game):
        takes = money_takes(game, MAX_TAKE_CODES)
        if len(takes) <= MAX_TAKE_CODES:
            return ActionEncoding(TakeMoney, (Field(("cards",), takes),))
    return ActionEncoding(TakeMoney, (Field((), [()]), CardsField("cards", (*money_cards(game), *means_cards(game)))))


def payment_encoding(game: Game, action: type) -> ActionEncoding:
    """How a purchase's payment ``action`` (``Buy``, the vizier's use) is written: the space and
    payment means, then the money cards one at a time, then "pay"."""
    via = (None, *means_cards(game))
    return ActionEncoding(
        action,
        (
            Field(("space", "via"), [(s, v) for s in range(1, 5) for v in via]),
            CardsField("cards", money_cards(game)),
        ),
    )


def _tile_then_cell(action: type, game: Game, slots: int) -> ActionEncoding:
    return ActionEncoding(action, (Field(("tile",), [(t,) for t in tile_ids(game)]), CellField("pos", slots, "cell")))


def _tile_only(action: type, game: Game) -> ActionEncoding:
    return ActionEncoding(action, (Field(("tile",), [(t,) for t in tile_ids(game)]),))


register_encoding(Pass, lambda g, r: ActionEncoding(Pass, ()))
register_encoding(TakeMoney, lambda g, r: take_encoding(g))
register_encoding(Buy, lambda g, r: payment_encoding(g, Buy))
register_encoding(Place, lambda g, r: _tile_then_cell(Place, g, r))
register_encoding(BuildFromReserve, lambda g, r: _tile_then_cell(BuildFromReserve, g, r))
register_encoding(Swap, lambda g, r: _tile_then_cell(Swap, g, r))
register_encoding(RemoveToReserve, lambda g, r: ActionEncoding(RemoveToReserve, (CellField("pos", r),)))
register_encoding(Reserve, lambda g, r: _tile_only(Reserve, g))
register_encoding(GiveToDirk, lambda g, r: _tile_only(GiveToDirk, g))


_BASE_ORDER = (Pass, TakeMoney, Buy, BuildFromReserve, RemoveToReserve, Swap, Place, Reserve, GiveToDirk)


def _kind_order(kinds: Iterable[type]) -> list[type]:
    """The rule set's action classes in a fixed order: ``Pass`` and the base game's kinds,
    then the others by dotted name (so the layout does not depend on plugin order)."""
    kinds = set(kinds)
    base = [k for k in _BASE_ORDER if k is Pass or k in kinds]
    return base + sorted((k for k in kinds if k not in _BASE_ORDER), key=_class_key)


# -- the codec -------------------------------------------------------------------------------


@frozen(slots=True)
class Segment:
    """A run of integers ``start … start + size - 1``: one field of one kind (or a shared
    field). ``name``: ``"Kind.attr"`` (or the shared name). ``values``: what each integer
    means (for a cards field, the cards and then ``"done"``)."""

    name: str
    start: int
    values: tuple[Any, ...]

    @property
    def size(self) -> int:
        return len(self.values)


_DONE = "done"


class ActionCodec:
    """The fixed action space of one rule set: ``num_actions`` integers, and each legal action
    written as a prefix-free sequence of them (``encode``/``decode``).

    Built from a game (only its rules are read). Cells are slots of the Alhambra of the player
    to move (:func:`city_slots`, :attr:`slots` of them), so the codes of placements are read
    against a game (``encode(action, game)``, ``decode(code, game)``). Raises
    :class:`ConfigError` if an action kind of the rule set has no registered encoding."""

    def __init__(self, game: Game) -> None:
        #: cell slots per Alhambra (:func:`max_slots`)
        self.slots = max_slots(game)
        kinds = _kind_order(game.rules.kinds)
        self.encodings: dict[type, ActionEncoding] = {k: encoding_for(k, game, self.slots) for k in kinds}
        self.segments: list[Segment] = []
        # per kind: per field, (segment start, {value tuple or card: index}); cards fields
        # have their "done" integer at start + len(cards)
        self._plans: dict[type, list[tuple[int, dict[Any, int], bool]]] = {}
        self._owner: dict[int, tuple[type, int]] = {}  # first integer of a segment -> (kind, field index)
        self._cell_kinds: set[type] = set()  # kinds with a cell: their codes depend on the Alhambra
        self._cell_first: set[type] = set()  # kinds whose first integer is a cell
        self._cell_start: dict[type, tuple[int, CellField]] = {}  # those: (their segment's start, the field)
        shared: dict[str, Segment] = {}
        start = 0
        for kind, enc in self.encodings.items():
            plan: list[tuple[int, dict[Any, int], bool]] = []
            if not enc.fields:
                seg = Segment(kind.__name__, start, ("",))
                self.segments.append(seg)
                start += 1
                plan.append((seg.start, {}, False))
            for i, f in enumerate(enc.fields):
                if isinstance(f, CardsField):
                    if i == 0:
                        raise ConfigError(f"{kind.__name__}: a cards field cannot come first")
                    values: tuple[Any, ...] = (*f.cards, _DONE)
                    name = f"{kind.__name__}.{f.attr}"
                    seg = Segment(name, start, values)
                    index = {c: k for k, c in enumerate(f.cards)}
                elif isinstance(f, CellField):
                    values = tuple((("slot", k),) for k in range(f.slots))
                    index = {v: k for k, v in enumerate(values)}
                    if f.shared is not None and i > 0:
                        seg = shared.get(f.shared)  # type: ignore[assignment]
                        if seg is not None and seg.values != values:
                            raise ConfigError(f"shared field {f.shared!r} declared with two different value lists")
                        if seg is None:
                            seg = shared[f.shared] = Segment(f.shared, start, values)
                    else:
                        seg = Segment(f"{kind.__name__}.{f.name}", start, values)
                    self._cell_kinds.add(kind)
                    if i == 0:
                        self._cell_first.add(kind)
                        self._cell_start[kind] = (seg.start, f)
                elif f.shared is not None and i > 0:
                    seg = shared.get(f.shared)  # type: ignore[assignment]
                    if seg is not None and seg.values != f.values:
                        raise ConfigError(f"shared field {f.shared!r} declared with two different value lists")
                    if seg is None:
                        seg = shared[f.shared] = Segment(f.shared, start, f.values)
                    index = {v: k for k, v in enumerate(f.values)}
                else:  # a field without attributes (one value) names the kind alone
                    seg = Segment(f"{kind.__name__}.{'+'.join(f.attrs)}".rstrip("."), start, f.values)
                    index = {v: k for k, v in enumerate(f.values)}
                if len(index) != len(seg.values) - (1 if isinstance(f, CardsField) else 0):
                    raise ConfigError(f"{seg.name}: the declared values are not distinct")
                if seg.start == start:
                    self.segments.append(seg)
                    start += seg.size
                plan.append((seg.start, index, isinstance(f, CardsField)))
            self._plans[kind] = plan
            self._owner[plan[0][0]] = (kind, 0)
        self.num_actions = start
        self._meaning: list[tuple[Segment, int]] = [(s, k) for s in self.segments for k in range(s.size)]
        self._first_kind: list[type | None] = [None] * start
        for kind, plan in self._plans.items():
            s0 = plan[0][0]
            seg = next(s for s in self.segments if s.start == s0)
            for k in range(seg.size):
                self._first_kind[s0 + k] = kind
        self._cache: dict[Action, tuple[int, ...]] = {}
        self._first: dict[Action, int] = {}  # the first integer of each code in _cache
        #: action masks by their legal integers, kept for the environments (see Session.mask_of)
        self.masks: dict[tuple[int, ...], Any] = {}
        # per integer: True when a code that begins with it is that integer alone
        self._single = [False] * start
        for kind, enc in self.encodings.items():
            only = enc.fields[0] if len(enc.fields) == 1 else None
            if not enc.fields or isinstance(only, (Field, CellField)):
                s0 = self._plans[kind][0][0]
                size = len(only.values) if isinstance(only, Field) else only.slots if isinstance(only, CellField) else 1
                for k in range(size):
                    self._single[s0 + k] = True

    # -- encoding ----------------------------------------------------------------------------

    def encode(self, action: Action, game: Game | None = None) -> tuple[int, ...]:
        """The code of ``action``: a tuple of integers in ``0 … num_actions - 1``. ``game``:
        the state the action is made in, needed for an action with a cell (its integer is the
        cell's slot in the Alhambra of the player to move, :func:`city_slots`).

        Raises :class:`IllegalActionError` for an action of a kind this rule set does not
        have or with a value outside its declared domain, or a cell action without ``game``;
        :class:`WindowError` for a position that is not a slot of that Alhambra."""
        try:
            found = self._cache.get(action)
        except TypeError:
            found = None
        if found is not None:
            return found
        code = self._encode(action, game)
        kind = type(action)
        if len(self._cache) < 200_000:
            if kind not in self._cell_kinds:
                self._cache[action] = code
            if kind not in self._cell_first:
                self._first[action] = code[0]
        return code

    def first(self, action: Action, game: Game | None) -> int:
        """The first integer of ``action``'s code (see :meth:`encode`); for a kind whose first
        integer is a cell, its slot without encoding the rest."""
        kind = type(action)
        cell = self._cell_start.get(kind)
        if cell is not None and game is not None:
            k = self.slot_index(game).get(cell[1].cell(action))
            if k is not None:
                return cell[0] + k
        return self.encode(action, game)[0]

    def slot_index(self, game: Game) -> dict[tuple[int, int], int]:
        """``{position: slot}`` of the Alhambra of ``game``'s player to move (kept in its
        ``memo``). Raises :class:`WindowError` if it has more than :attr:`slots` slots."""
        st = game.state
        seat = st.decider if st.decider is not None else st.turn_player
        city = st.players[seat].city
        found = city.memo.get("env_slot_index")
        if found is None:
            slots = city_slots(city)
            if len(slots) > self.slots:
                raise WindowError(
                    f"an Alhambra of {len(city)} tiles has {len(slots)} cell slots, more than the "
                    f"{self.slots} of any legal game"
                )
            found = city.memo["env_slot_index"] = {p: k for k, p in enumerate(slots)}
        return found

    def _encode(self, action: Action, game: Game | None) -> tuple[int, ...]:
        kind = type(action)
        plan = self._plans.get(kind)
        if plan is None:
            raise IllegalActionError(f"{kind.__name__} is not an action kind of this rule set")
        enc = self.encodings[kind]
        if not enc.fields:
            return (plan[0][0],)
        out: list[int] = []
        for f, (start, index, _is_cards) in zip(enc.fields, plan):
            if isinstance(f, CardsField):
                for c in getattr(action, f.attr):
                    k = index.get(c)
                    if k is None:
                        raise IllegalActionError(f"{action}: card {c!r} is not in the encoded cards")
                    out.append(start + k)
                out.append(start + len(index))
            elif isinstance(f, CellField):
                if game is None:
                    raise IllegalActionError(f"{action}: the code of a cell depends on the Alhambra: pass the game")
                pos = f.cell(action)
                k = self.slot_index(game).get(pos)
                if k is None:
                    raise WindowError(
                        f"{action}: position {pos} is not a cell slot of the Alhambra of the player to move"
                    )
                out.append(start + k)
            else:
                value = tuple(getattr(action, a) for a in f.attrs)
                k = index.get(value)
                if k is None:
                    raise IllegalActionError(f"{action}: {dict(zip(f.attrs, value))} is not in the encoded values")
                out.append(start + k)
        return tuple(out)

    def decode(self, code: Sequence[int], game: Game | None = None) -> Action:
        """The action whose code is ``code`` (the inverse of :meth:`encode`): a sequence of
        ``int`` or numpy integers; ``game`` as for :meth:`encode`. Raises
        :class:`IllegalActionError` for anything that is not a complete code (``None``, a bare
        integer such as ``5``, strings, out-of-range values, a cell slot the Alhambra does not
        have, a cell without ``game``)."""
        if code is None or isinstance(code, (str, bytes)):
            raise IllegalActionError(f"{code!r} is not a code of this action space (a sequence of integers)")
        try:
            code = tuple(_index(i) for i in code)
        except (TypeError, IllegalActionError):
            raise IllegalActionError(f"{code!r} is not a code of this action space (a sequence of integers)") from None
        if not code or not all(0 <= i < self.num_actions for i in code):
            raise IllegalActionError(f"{code!r} is not a code of this action space (0..{self.num_actions - 1})")
        kind = self._first_kind[code[0]]
        if kind is None:
            raise IllegalActionError(f"{code[0]} does not begin an action")
        enc = self.encodings[kind]
        plan = self._plans[kind]
        if not enc.fields:
            if len(code) != 1:
                raise IllegalActionError(f"{code!r}: {kind.__name__} is a single integer")
            return Pass() if kind is Pass else enc.build() if enc.build else kind()
        kw: dict[str, Any] = {}
        pos = 0
        for f, (start, index, _is_cards) in zip(enc.fields, plan):
            if isinstance(f, CardsField):
                chosen = []
                done = start + len(index)
                while pos < len(code) and code[pos] != done:
                    k = code[pos] - start
                    if not 0 <= k < len(index):
                        raise IllegalActionError(f"{code!r}: {code[pos]} is not a card of {kind.__name__}")
                    chosen.append(f.cards[k])
                    pos += 1
                if pos >= len(code):
                    raise IllegalActionError(f"{code!r} is incomplete: {kind.__name__} needs its 'done'")
                pos += 1
                kw[f.attr] = tuple(chosen)
            elif isinstance(f, CellField):
                if pos >= len(code):
                    raise IllegalActionError(f"{code!r} is incomplete for {kind.__name__}")
                k = code[pos] - start
                if game is None:
                    raise IllegalActionError(f"{code!r}: the code of a cell depends on the Alhambra: pass the game")
                slots = city_slots(_mover_city(game))
                if not 0 <= k < min(f.slots, len(slots)):
                    raise IllegalActionError(f"{code!r}: {code[pos]} is not a cell slot of the Alhambra")
                f.set(kw, slots[k])
                pos += 1
            else:
                if pos >= len(code):
                    raise IllegalActionError(f"{code!r} is incomplete for {kind.__name__}")
                k = code[pos] - start
                if not 0 <= k < len(f.values):
                    raise IllegalActionError(f"{code!r}: {code[pos]} is not a value of {kind.__name__}.{f.attrs}")
                kw.update(zip(f.attrs, f.values[k]))
                pos += 1
        if pos != len(code):
            raise IllegalActionError(f"{code!r} runs past the end of a {kind.__name__} code")
        action: Action = enc.build(**kw) if enc.build else kind(**kw)
        return action

    def describe(self, i: int) -> str:
        """What integer ``i`` means on its own: ``"Place.tile=17"``, ``"cell=(0, -1)"``,
        ``"Buy.cards=done"``."""
        if type(i) is not int or not 0 <= i < self.num_actions:
            raise IllegalActionError(f"{i!r} is not in 0..{self.num_actions - 1}")
        seg, k = self._meaning[i]
        v = seg.values[k]
        if isinstance(v, tuple) and len(v) == 1 and isinstance(v[0], tuple) and v[0][:1] == ("slot",):
            return f"{seg.name}=slot {v[0][1]}"
        if isinstance(v, tuple):
            v = ",".join(_show(x) for x in v)
        return f"{seg.name}={_show(v)}" if v != "" else seg.name

    def layout(self) -> list[tuple[str, int, int]]:
        """The segments as ``(name, first integer, size)``, in order."""
        return [(s.name, s.start, s.size) for s in self.segments]


def _mover_city(game: Game) -> Any:
    st = game.state
    return st.players[st.decider if st.decider is not None else st.turn_player].city


def _show(v: Any) -> str:
    if isinstance(v, tuple):
        return "+".join(_show(x) for x in v)
    return getattr(v, "code", None) or str(v)


class Decision:
    """The legal actions of one state as a tree of codes: which integers are legal after the
    ones already chosen (``prefix``), and which action a complete code is.

    ``legal``: the legal actions of ``game``'s state (the game is read for the cell slots of
    the player to move). Only their first integers are worked out at once (one look-up each);
    the whole codes when a code of several integers is begun. Raises :class:`WindowError`
    (from the codec) only for a state no legal game reaches."""

    __slots__ = ("_codes", "_ints", "_live", "_prefix", "codec", "firsts", "game", "legal")

    def __init__(self, codec: ActionCodec, legal: Iterable[Action], game: Game | None = None) -> None:
        self.codec = codec
        self.game = game
        self.legal = list(legal)
        firsts = list(map(codec._first.get, self.legal))
        if None in firsts:
            cell_start = codec._cell_start
            slots = codec.slot_index(game) if game is not None and cell_start else {}
            for k, (a, f) in enumerate(zip(self.legal, firsts)):
                if f is None:
                    cell = cell_start.get(type(a))
                    at = None if cell is None else slots.get(cell[1].cell(a))
                    firsts[k] = cell[0] + at if at is not None else codec.encode(a, game)[0]  # type: ignore[index]
        self.firsts: list[int] = firsts  # type: ignore[assignment]
        self._codes: dict[tuple[int, ...], Action] | None = None
        self._prefix: tuple[int, ...] = ()
        # the legal integers after the prefix (kept until it changes), and the codes that
        # begin with a non-empty prefix, with their actions
        self._ints: tuple[int, ...] | None = None
        self._live: list[tuple[tuple[int, ...], Action]] | None = None

    @property
    def prefix(self) -> tuple[int, ...]:
        """The integers chosen so far (settable: ``()`` starts the action again)."""
        return self._prefix

    @prefix.setter
    def prefix(self, value: tuple[int, ...]) -> None:
        self._prefix = tuple(value)
        self._ints = None
        self._live = None

    @property
    def codes(self) -> dict[tuple[int, ...], Action]:
        """Every legal action by its code."""
        if self._codes is None:
            enc, game = self.codec.encode, self.game
            self._codes = {enc(a, game): a for a in self.legal}
        return self._codes

    def _begun(self) -> list[tuple[tuple[int, ...], Action]]:
        """The codes (with their actions) that begin with the non-empty prefix."""
        live = self._live
        if live is None:
            p = self._prefix
            k = len(p)
            live = self._live = [(c, a) for c, a in self.codes.items() if c[:k] == p]
        return live

    def legal_tuple(self) -> tuple[int, ...]:
        """The integers legal now (after ``prefix``), ascending, as a tuple (kept until the
        prefix changes)."""
        ints = self._ints
        if ints is None:
            k = len(self._prefix)
            if k == 0:
                ints = tuple(sorted(set(self.firsts)))
            else:
                ints = tuple(sorted({c[k] for c, _a in self._begun()}))
            self._ints = ints
        return ints

    def legal_ints(self) -> list[int]:
        """The integers legal now (after ``prefix``), ascending."""
        return list(self.legal_tuple())

    def choose(self, i: int) -> Action | None:
        """Take integer ``i``: returns the action once its code is complete (and clears the
        prefix), else None. Raises :class:`IllegalActionError` for an integer not legal now
        (the decision is then unchanged)."""
        prefix = self._prefix
        if not prefix and type(i) is int and 0 <= i < self.codec.num_actions and self.codec._single[i]:
            try:
                return self.legal[self.firsts.index(i)]
            except ValueError:
                raise IllegalActionError(f"{i!r} ({self._what(i)}) is not legal now") from None
        k = len(prefix)
        if k == 0:  # the codes of the actions that begin with i only (the others need not be encoded)
            enc, game = self.codec.encode, self.game
            live = [(enc(a, game), a) for a, f in zip(self.legal, self.firsts) if f == i]
        else:
            live = [(c, a) for c, a in self._begun() if c[k] == i]
        if not live:
            raise IllegalActionError(f"{i!r} ({self._what(i)}) is not legal now")
        k += 1
        for c, a in live:
            if len(c) == k:  # complete: prefix-free codes, so it is the only one begun so
                self.prefix = ()
                return a
        self._prefix = (*prefix, i)
        self._ints = None
        self._live = live
        return None

    def _what(self, i: Any) -> str:
        try:
            return self.codec.describe(i)
        except IllegalActionError:
            return "out of range"
