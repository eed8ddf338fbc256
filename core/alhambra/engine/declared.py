"""Declared module state: a module says what its state *is*, the engine does the bookkeeping.

A module keeps its state as an attrs class (a :class:`DeclaredState`, so it clones itself)
whose fields say what they hold through their metadata: ``field(metadata=public(...))``,
``secret(...)``, ``pile(...)``, ``internal(...)``. It names the class, and the cards of its
own it shuffles into the money deck (:class:`DeckKind`), in a :class:`Declared` object,
the ``DECLARED`` attribute of the module (beside ``NAME``). From that the engine derives a
plugin, registered right after the module (so its hooks are called in the module's place
among the plugins, just before the module's own), implementing:

* ``alhambra_state_classes``: the state class under the module's key;
* ``alhambra_view``: the entries ``Declared.view`` names, in that order (a public field as
  it is, or as its ``view`` function shows it; a field shown as a count; the deck kind's cards
  in each hand, in one's own hand, in the display, in the discard pile and how many in the deck);
* ``alhambra_position_part`` / ``alhambra_position_read``: the fields (``Declared.position``
  order), written as plain data and read back, a field left out keeping its set-up value
  (less the tiles the position placed elsewhere), the deciding seat of the module's phase
  taken from its ``decider`` field;
* ``alhambra_check_state``: one entry per seat, seats in range, true/false flags, the module's
  phase and its deciding seat agreeing, each of the module's tiles in exactly one place, the
  seats' secret hands agreeing with what is known of them (:meth:`Redeal.problem`);
* ``alhambra_determinize`` and ``alhambra_hidden_piles``: a pile's hidden part reshuffled (the
  last ``face_up`` items stay), the deck kind's cards resampled within their setup piles;
  secret hands (:class:`Redeal`) dealt anew among the other seats and the cards nobody holds;
* ``alhambra_tile_locations`` / ``alhambra_card_locations``: the fields holding tiles or cards;
* ``alhambra_action_words``: the module's actions, each saying itself (``words(game)``).

A module's own implementation of any of these hooks is called too, right after the derived
one: it adds what is particular to its rules (the scorings' public record of the bonus
cards). Declare less where the derived behaviour does not fit and keep the hook.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
from attrs import frozen

from ..errors import ConfigError
from .markers import hookimpl
from . import operations
from .accounting import tile_locations
from .city import read_side
from .components import EAST, SIDE_NAMES, SOUTH, Card
from .observation_parts import ObservationLayout, ObservationPart, Write
from .piles import DeckCards, HiddenPile, redeal_hands, resample_in_piles

if TYPE_CHECKING:  # pragma: no cover
    import random

    from .protocol import GameLike

META = "alhambra.declared"
SHOWS = ("public", "count", "owner", "hidden", "decider")


@frozen(slots=True)
class Field:
    """What one field of a declared state holds (its attrs metadata under :data:`META`).

    ``show``: how views show it: ``"public"`` (as it is, or as ``view(value)`` renders it),
    ``"count"`` (its length), ``"owner"`` (a per-seat list: each seat sees its own entry),
    ``"hidden"`` (not at all), ``"decider"`` (a seat field: the seat it names sees it while the
    module's phase is on, any other seat ``None``; for a phase hiding who decides,
    ``PhaseSpec.hidden_decider``). ``per_seat``: one entry per seat (``"or none"``: or an empty
    list, as in saves older than the field). ``seat``: a seat number, -1 for none (a list:
    distinct seats). ``flag``: true or false (a per-seat list: each). ``face_up``: a pile
    (or a table of piles) drawn from its end, whose last ``face_up`` items are seen and the
    rest in an order nobody knows; ``pile_name`` names each (``"{}"``: the table's key).
    ``among``: the values it (or each of its items) may take. ``key``: its name in views (default: the field's); ``count_as``: a secret per-seat
    field's name in each seat's entry of a view's ``players``, where its length is shown.
    ``holds``: ``"tiles"`` or ``"cards"`` in the place ``place`` (``locate(value)``: the
    components, else the items flattened). ``to_position`` / ``from_position(value, game,
    where)``: plain data in positions; ``omit``: left out of a position when empty.
    ``redeal``: a per-seat list of secret hands that determinization deals anew (:class:`Redeal`).
    ``beside_market``: the rule id of a place of the table drawn beside the building market
    (``view["beside_market"]``: its ``place`` and the cards ``locate`` gives). ``unplaced``: a
    field of cards a position leaves out holds ``unplaced(game, state, free)``, ``free`` the
    game's cards lying nowhere but in this field (:func:`card_places`, in the order of
    ``game.rules.cards``), such fields filled in ``Declared.position`` order. ``opens``: the
    rule id and the noun of an entry of a per-seat field listing the sides opened in each seat's Alhambra
    (:func:`opened_sides`), which a loaded game's must list exactly. ``during``: the rule id
    by which the field is set (not empty) exactly while the module's phase is on."""

    show: str = "public"
    view: Callable[[Any], Any] | None = None
    per_seat: bool | str = False
    seat: bool = False
    flag: bool = False
    face_up: int | None = None
    pile_name: str = "{}"
    holds: str | None = None
    place: str = ""
    locate: Callable[[Any], list[Any]] | None = None
    among: tuple[Any, ...] = ()
    key: str = ""
    count_as: str = ""
    to_position: Callable[[Any], Any] | None = None
    from_position: Callable[[Any, Any, str], Any] | None = None
    omit: bool = False
    redeal: Redeal | None = None
    beside_market: str = ""
    unplaced: Callable[[Any, Any, list[Any]], Any] | None = None
    opens: tuple[str, str] | None = None
    during: str = ""


@frozen(slots=True)
class Redeal:
    """How determinization deals a per-seat field of secret hands anew
    (:func:`~alhambra.operations.redeal_hands`): every hand but the determinizing seat's,
    and the list field ``rest`` (cards nobody holds or has seen), dealt at random from their
    cards together, each hand keeping its size. ``kept``: a per-seat field of the cards known
    to be each seat's (those it holds stay); ``barred``: one of the cards each seat is known
    not to hold (never dealt to it). A loaded game's record must agree with what the seats
    hold (:meth:`problem`): ``held``, a per-seat field of the cards a seat holds besides its
    hand (face up), and ``rules``, the rules ``kept`` and ``barred`` come from, for the
    refusals."""

    rest: str
    kept: str = ""
    barred: str = ""
    held: str = ""
    rules: tuple[str, str] = ("", "")

    def apply(self, state: Any, name: str, seat: int, rng: random.Random) -> None:
        """Deal ``state``'s field ``name`` anew for ``seat``."""
        kept = getattr(state, self.kept) if self.kept else None
        barred = getattr(state, self.barred) if self.barred else None
        setattr(
            state, self.rest, redeal_hands(getattr(state, name), getattr(state, self.rest), seat, rng, kept, barred)
        )

    def problem(self, state: Any, name: str, label: str) -> str | None:
        """What contradicts the record of ``state``'s hands ``name``: a seat no longer holding
        a card of its ``kept`` list, or holding one of its ``barred`` list (each ``"or none"``:
        an empty record says nothing), or ``None``."""
        hands = getattr(state, name)
        held = getattr(state, self.held) if self.held else [[] for _ in hands]
        kept = getattr(state, self.kept) if self.kept else []
        barred = getattr(state, self.barred) if self.barred else []
        for seat, hand in enumerate(hands):
            holds = [*hand, *held[seat]]
            gone = [c for c in (kept[seat] if kept else ()) if c not in holds]
            if gone:
                return (
                    f"{label}: seat {seat} no longer holds {gone[0]!r} of its {self.kept} {kept[seat]!r}, "
                    f"cards known to be its ({self.rules[0]})"
                )
            wrong = [c for c in (barred[seat] if barred else ()) if c in holds]
            if wrong:
                return (
                    f"{label}: seat {seat} holds {wrong[0]!r} of its {self.barred} {barred[seat]!r}, "
                    f"cards known not to be its ({self.rules[1]})"
                )
        return None


def _meta(show: str, **kw: Any) -> dict[str, Field]:
    if show not in SHOWS:
        raise ConfigError(f"a declared field is shown as one of {SHOWS}, not {show!r}")
    return {META: Field(show, **kw)}


def public(**kw: Any) -> dict[str, Field]:
    """Metadata of a field every seat sees (``view=``: how views show it)."""
    return _meta("public", **kw)


def counted(**kw: Any) -> dict[str, Field]:
    """Metadata of a field every seat sees as its length only."""
    return _meta("count", **kw)


def secret(**kw: Any) -> dict[str, Field]:
    """Metadata of a per-seat field each seat sees its own entry of (``show="owner"``)."""
    return _meta("owner", per_seat=True, **kw)


def deciding(**kw: Any) -> dict[str, Field]:
    """Metadata of the seat deciding in the module's phase (``Declared.decider``), or -1,
    which views show to that seat alone (``show="decider"``)."""
    return _meta("decider", seat=True, **kw)


def internal(**kw: Any) -> dict[str, Field]:
    """Metadata of a field no view shows (the engine's bookkeeping of the module's rules)."""
    return _meta("hidden", **kw)


def pile(face_up: int = 1, **kw: Any) -> dict[str, Field]:
    """Metadata of a pile (or a table of piles) whose order below the ``face_up`` last items
    nobody knows: reshuffled by determinization, declared as hidden piles."""
    return _meta(kw.pop("show", "public"), face_up=face_up, **kw)


def listed(among: tuple[Any, ...], what: str, *, per_seat: bool = False) -> Callable[[Any, Any, str], list[Any]]:
    """A ``from_position`` reading a list of ``among`` values, each of the exact type of one of
    them (``per_seat``: one such list per seat), each list sorted. A refusal names the place
    and ``what`` the values are (``"cards"``): ``"<place>: a list of cards [...], not ..."``."""
    kinds = {type(x) for x in among}

    def one(value: Any, where: str) -> list[Any]:
        if not isinstance(value, list) or any(x not in among or type(x) not in kinds for x in value):
            raise ConfigError(f"{where}: a list of {what} {list(among)}, not {value!r}")
        return sorted(value)

    def read(value: Any, game: Any, where: str) -> list[Any]:
        if not per_seat:
            return one(value, where)
        return [one(v, where) for v in seat_lists(value, game.num_players, where, f"{what} {list(among)}")]

    return read


def copied(value: Any) -> Any:
    """A copy of plain data: lists and tables copied all the way down, the rest shared."""
    kind = type(value)
    if kind is list:
        return [copied(v) for v in value] if value and type(value[0]) in (list, dict) else value.copy()
    if kind is dict:
        return {k: copied(v) for k, v in value.items()}
    return value


def _copy_expr(kind: str, value: str, depth: int = 0) -> str:
    """Python source copying ``value``, an attribute annotated ``kind`` (lists and tables of
    lists copied all the way down, anything else :func:`copied` or shared when immutable)."""
    kind = kind.replace(" ", "")
    if kind in ("int", "str", "bool", "float"):
        return value
    if kind.startswith(("list[", "dict[")) and kind.endswith("]"):
        inner = kind[5:-1].partition(",")[2] if kind.startswith("dict[") else kind[5:-1]
        if inner in ("int", "str", "bool", "float"):
            return f"{value}.copy()"
        x, k = f"_v{depth}", f"_k{depth}"
        if kind.startswith("list[") and inner.startswith(("list[", "dict[")):
            return f"[{_copy_expr(inner, x, depth + 1)} for {x} in {value}]"
        if kind.startswith("dict[") and inner.startswith(("list[", "dict[")):
            return f"{{{k}: {_copy_expr(inner, x, depth + 1)} for {k}, {x} in {value}.items()}}"
    return f"copied({value})"


_CLONES: dict[type, Callable[[Any], Any]] = {}


def _cloner(cls: type) -> Callable[[Any], Any]:
    """A function copying an instance of the attrs class ``cls`` field by field, written once
    per class from the fields' annotations (clones are made at every search step)."""
    lines = ["def clone(self):", "    new = new_of(cls)"]
    for f in attrs.fields(cls):
        kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")
        lines.append(f"    new.{f.name} = {_copy_expr(str(kind), 'self.' + f.name)}")
    lines.append("    return new")
    scope: dict[str, Any] = {"copied": copied, "new_of": object.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # noqa: S102 - the source is built from the class's own field names
    found: Callable[[Any], Any] = scope["clone"]
    return found


class DeclaredState:
    """Base of a declared state class: ``clone()`` copies every field (lists and tables of
    lists all the way down, by their annotations)."""

    __slots__ = ()

    def clone(self) -> Any:
        cls = type(self)
        clone = _CLONES.get(cls)
        if clone is None:
            clone = _CLONES[cls] = _cloner(cls)
        return clone(self)


_FIELDS: dict[type, list[tuple[str, Field]]] = {}
_LISTS: dict[type, frozenset[str]] = {}
_SCALARS: dict[type, dict[str, type]] = {}
#: per key, the declaration last shown and its view entries' fields by name
_VIEWED: dict[str, tuple[Any, dict[str, tuple[str, Field]]]] = {}


@frozen(slots=True)
class DeckKind:
    """A module's cards shuffled into the money deck's setup piles, all of type ``card``,
    named ``name`` (``"exchange office"``). ``resample``: determinization moves them as
    nobody knows where they lie (R-EXC-1); ``False`` when the core redeals them with the
    money (diamonds, R-DIA-2). Views name them by code under the entries ``Declared.view``
    lists: ``hands`` (per seat), ``hand`` (the seat's own), ``display``, ``discard``,
    ``in_deck`` (how many). ``shown``: the kind's cards in a hand are public, drawn in that
    seat's panel (``view["players"][i]["shown"]``). ``observed``: those of ``hands`` and ``in_deck`` the view shows are
    the module's part of the environments' observation (:meth:`Declared.deck_shapes`), for a
    module without an ``observe`` of its own. ``drawn_to``: the declared field (holding cards,
    with a ``place`` and a ``beside_market`` rule) the kind's cards go to when drawn for the
    money display: a loaded game with one in the display is refused. A position's part may
    add the kind's cards to the hands (its entry ``hands``, one list of codes per seat, where
    ``Declared.position`` names it)."""

    card: type
    name: str
    resample: bool = True
    shown: bool = False
    observed: bool = False
    drawn_to: str = ""

    def which(self, card: Any) -> bool:
        return type(card) is self.card

    def codes(self, cards: Iterable[Card]) -> list[str]:
        kind = self.card
        return [c.code for c in cards if type(c) is kind]

    def count(self, cards: Iterable[Card]) -> int:
        return list(map(type, cards)).count(self.card)

    def of_code(self, game: GameLike, value: Any, where: str) -> Card:
        """The game's card of this kind whose code ``value`` is; :class:`ConfigError` naming
        ``where`` and the kind's codes else."""
        cards = game.rules.cards
        found = cards.get(value) if type(value) is str else None
        if found is None or type(found) is not self.card:
            codes = ", ".join(c.code for c in cards.values() if type(c) is self.card)
            raise ConfigError(f"{where}: unknown {self.name} {value!r} (the {self.name}s are {codes})")
        return found


@frozen(slots=True)
class Declared:
    """A module's declaration (its ``DECLARED``): ``key`` of its state (and view entry),
    ``state`` (a :class:`DeclaredState` attrs class, or ``None``), ``label`` naming it in
    refusals (``"building huts"``), ``deck`` (a :class:`DeckKind`), ``view`` (the entries of
    its view, in order; ``None``: no derived view), ``position`` (the fields of its position
    part, in order; ``None``: every field in order; ``()``: no derived part), ``phase`` and
    ``decider`` (the module's phase and the field naming the seat deciding in it),
    ``tiles`` and ``noun`` (the kind of catalogue tile the module adds, each in exactly one
    place: ``"hut"``), ``players`` (the per-seat fields a view's ``players`` entry shows,
    one table per seat), ``reads`` (``False``: the module reads its position part itself), ``conserved`` (the
    module's own components, each in exactly one of its fields that hold ``"own"``),
    ``extra`` (keys of its position part that are no field, read by the module itself;
    ``position`` may place them among the fields),
    ``words`` (its action classes, each saying itself with a ``words(game)`` method giving
    ``(what was done, what to do)``, for ``alhambra_action_words``), ``shapes`` and
    ``observe`` (the module's part of the environments' observation: the slices' shapes for
    a layout, and ``observe(out, entry, order, layout)`` writing them from its view entry,
    which is then its reference ``encode`` and, taken from the state, its ``snapshot``)."""

    key: str
    state: type | None = None
    label: str = ""
    deck: DeckKind | None = None
    view: tuple[str, ...] | None = None
    position: tuple[str, ...] | None = None
    phase: str = ""
    decider: str = ""
    tiles: str = ""
    noun: str = ""
    players: tuple[str, ...] = ()
    reads: bool = True
    conserved: tuple[Any, ...] = ()
    extra: tuple[str, ...] = ()
    words: tuple[type, ...] = ()
    shapes: Callable[[ObservationLayout], dict[str, tuple[int, ...]]] | None = None
    observe: Write | None = None

    @property
    def fields(self) -> list[tuple[str, Field]]:
        """The state's fields and what they hold (worked out once per state class)."""
        if self.state is None:
            return []
        found = _FIELDS.get(self.state)
        if found is None:
            found = _FIELDS[self.state] = [
                (f.name, f.metadata.get(META) or Field("hidden")) for f in attrs.fields(self.state)
            ]
        return found

    @property
    def lists(self) -> frozenset[str]:
        """The state's fields annotated as lists (``list[...]``): a loaded game holds a list in each."""
        if self.state is None:
            return frozenset()
        found = _LISTS.get(self.state)
        if found is None:
            found = _LISTS[self.state] = frozenset(
                f.name for f in attrs.fields(self.state) if str(f.type).split("[")[0] == "list"
            )
        return found

    @property
    def scalars(self) -> dict[str, type]:
        """The state's fields annotated ``int`` or ``str``: a loaded game holds one of that
        type in each."""
        if self.state is None:
            return {}
        found = _SCALARS.get(self.state)
        if found is None:
            kinds = {"int": int, "str": str}
            fields = attrs.fields(self.state)
            named = {f.name: f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "") for f in fields}
            found = _SCALARS[self.state] = {name: kinds[kind] for name, kind in named.items() if kind in kinds}
        return found

    def plugin(self) -> Any:
        """The plugin implementing what this declaration derives (registered by the rule set)."""
        return DerivedPlugin(self)

    # -- views -----------------------------------------------------------------------------

    def view_part(self, game: GameLike, seat: int | None, cache: dict[Any, Any] | None = None) -> dict[str, Any]:
        """The module's entry of ``view["modules"]`` as seen by ``seat`` (None: a spectator).
        ``cache``: the deck kind's cards picked out of each pile are kept there with a copy of
        the pile and picked out again only when it changed (for the observation's snapshots,
        which share the lists kept)."""
        out: dict[str, Any] = {}
        state = game.state.modules.get(self.key)
        cached = _VIEWED.get(self.key)
        if cached is None or cached[0] is not self:
            cached = _VIEWED[self.key] = (self, {spec.key or name: (name, spec) for name, spec in self.fields})
        declared = cached[1]
        st = game.state
        for entry in self.view or ():
            found = declared.get(entry)
            if found is not None:
                name, spec = found
                value = getattr(state, name)
                if spec.show == "count":
                    out[entry] = len(value)
                elif spec.show == "owner":
                    if seat is not None:
                        out[entry] = copied(value[seat])
                elif spec.show == "decider":
                    out[entry] = value if seat == value and st.phase == self.phase else None
                elif spec.view is not None:
                    out[entry] = spec.view(value)
                else:
                    out[entry] = copied(value)
                continue
            name = entry
            if name == "players":
                out[name] = self._players(state, game.num_players)
                continue
            deck = self.deck
            if deck is None:
                raise ConfigError(f"{self.key}: the view entry {name!r} is no declared field")
            if name == "hands":
                out[name] = [_kept(cache, ("hand", i), p.hand, deck.codes) for i, p in enumerate(st.players)]
            elif name == "hand":
                if seat is not None:
                    out[name] = _kept(cache, ("hand", seat), st.players[seat].hand, deck.codes)
            elif name in ("display", "discard"):
                out[name] = _kept(cache, name, getattr(st, name), deck.codes)
            elif name == "in_deck":
                out[name] = _kept(cache, name, st.deck, deck.count)
            else:
                raise ConfigError(f"{self.key}: the view entry {name!r} is no declared field nor deck entry")
        return out

    def table_view(self, game: GameLike, view: dict[str, Any]) -> None:
        """What the pictures of the table draw of the module (``alhambra_view``): each field
        declared ``beside_market`` as a place beside the building market, and the deck kind's
        cards in each hand when it is ``shown``."""
        state = game.state.modules.get(self.key)
        for name, spec in self.fields:
            if spec.beside_market and state is not None:
                cards = _located(spec, getattr(state, name))
                place = {"name": spec.place or name, "cards": [c.code for c in cards], "rule": spec.beside_market}
                view.setdefault("beside_market", []).append(place)
        if self.deck is not None and self.deck.shown:
            for p, entry in zip(game.state.players, view["players"]):
                if held := self.deck.codes(p.hand):
                    entry.setdefault("shown", []).extend(held)

    def _players(self, state: Any, n: int) -> list[dict[str, Any]]:
        """Each seat's table of the ``players`` view entry: its public per-seat fields, and
        the length of its secret ones."""
        fields = dict(self.fields)
        out: list[dict[str, Any]] = [{} for _ in range(n)]
        for name in self.players:
            spec, value = fields[name], getattr(state, name)
            for seat, entry in enumerate(out):
                if spec.show == "owner":
                    entry[spec.count_as or name] = len(value[seat])
                else:
                    entry[spec.key or name] = copied(value[seat])
        return out

    def observation(self, layout: ObservationLayout) -> list[ObservationPart]:
        """The module's part of the observation tensor, from its view entry (``observe``);
        without ``observe``, that of the deck kind's ``hands`` and ``in_deck`` view entries
        (:meth:`deck_shapes`, :meth:`deck_observe`) where the deck kind is ``observed``."""
        observe, shapes = self.observe, self.shapes
        if (observe is None or shapes is None) and self.deck is not None and self.deck.observed:
            observe, shapes = self.deck_observe, self.deck_shapes
        if observe is None or shapes is None:
            return []

        def encode(out: Any, part: Any, view: dict[str, Any], order: Sequence[int], layout: ObservationLayout) -> None:
            observe(out, part, order, layout)

        def snapshot(game: GameLike, seat: int, layout: ObservationLayout, cache: dict[Any, Any]) -> dict[str, Any]:
            return self.view_part(game, seat, cache)

        return [ObservationPart(self.key, shapes(layout), encode, snapshot, observe)]

    def deck_shapes(self, layout: ObservationLayout) -> dict[str, tuple[int, ...]]:
        """The observation's slices of the deck kind's view entries, in view order: ``held``
        for ``hands`` (how many of each card each player holds), ``in_deck`` for ``in_deck``."""
        shapes = {"hands": ("held", (layout.num_players, len(layout.cards))), "in_deck": ("in_deck", (1,))}
        return dict(shapes[e] for e in self.view or () if e in shapes)

    def deck_observe(self, out: Any, part: dict[str, Any], order: Sequence[int], layout: ObservationLayout) -> None:
        """Write :meth:`deck_shapes`' slices from the view entry ``part``: each card a player
        holds (in observer-relative ``order``) counted in ``held``, the count in the deck in
        ``in_deck``. The deck kind's cards in the display and the discard pile are the core's
        ``display`` and ``discard`` slices."""
        if "held" in out:
            for k, s in enumerate(order):
                for code in part["hands"][s]:
                    out["held"][k, layout.card_index[code]] += 1
        if "in_deck" in out:
            out["in_deck"][0] = part["in_deck"]

    # -- positions -------------------------------------------------------------------------

    def _position_fields(self) -> list[tuple[str, Field]]:
        declared = dict(self.fields)
        order = self.position if self.position is not None else tuple(declared)
        hands = ("hands",) if self.deck is not None and "hands" not in declared else ()
        return [(name, declared[name]) for name in order if name not in self.extra + hands]

    def position_part(self, game: GameLike) -> dict[str, Any]:
        """The module's part of a position: its fields as plain data."""
        state = game.state.modules[self.key]
        part: dict[str, Any] = {}
        for name, spec in self._position_fields():
            value = getattr(state, name)
            if spec.omit and not value:
                continue
            part[name] = spec.to_position(value) if spec.to_position is not None else copied(value)
        return {self.key: part}

    def position_read(self, game: GameLike, parts: dict[str, Any]) -> list[str]:
        """Read the module's part: the deck kind's cards it adds to the hands (``hands``),
        each field given, or its set-up value (less the tiles the position placed elsewhere),
        or, declared ``unplaced``, the cards it takes of those lying nowhere else; then the
        seat deciding in the module's phase: the ``decider`` field's, or the position's
        decider for a ``decider`` field left out."""
        st = game.state
        fields = self._position_fields()
        part = parts.get(self.key, {})
        keys = list(self.position) if self.position is not None else [name for name, _ in fields] + list(self.extra)
        if not isinstance(part, dict) or set(part) - set(keys):
            listed = ", ".join(repr(name) for name in keys)
            raise ConfigError(f"{self.key}: a table with {listed}, not {part!r}")
        state = st.modules[self.key]
        if "hands" in part and self.deck is not None and "hands" in keys:
            self._read_hands(game, part["hands"])
        if why := self.why_displayed(game):
            raise ConfigError(f"display: {why}")
        placed: set[Any] | None = None
        for name, spec in fields:
            where = f"{self.key}.{name}"
            if name in part:
                value = part[name]
                if spec.flag and not spec.per_seat and type(value) is not bool:
                    raise ConfigError(f"{where}: true or false, not {value!r}")
                if spec.from_position is not None:
                    value = spec.from_position(value, game, where)
                setattr(state, name, copied(value))
            elif spec.holds == "tiles":
                if placed is None:
                    places = tile_locations(game)
                    mine = {s.place for _, s in fields if s.holds == "tiles"}
                    placed = {t for at, tiles in places.items() if at not in mine for t in tiles}
                setattr(state, name, _without(getattr(state, name), placed))
        for name, spec in fields:
            if spec.unplaced is not None and name not in part:
                here, lying = f"{self.key}.{name}", card_places(game)
                free = [c for c in game.rules.cards.values() if set(lying.get(c, [])) <= {here}]
                setattr(state, name, spec.unplaced(game, state, free))
        if self.decider and st.phase == self.phase and st.decider is None:
            seat = getattr(state, self.decider)
            st.decider = seat if type(seat) is int and seat >= 0 else None
        elif self.decider and st.phase == self.phase and self.decider not in part:
            setattr(state, self.decider, st.decider)  # the position's decider
        return [self.key]

    def _read_hands(self, game: GameLike, value: Any) -> None:
        """The deck kind's cards a position's ``hands`` adds to each hand (one list of codes
        per seat; a card the hand holds already is not added again)."""
        deck, where = self.deck, f"{self.key}.hands"
        assert deck is not None
        hands = seat_lists(value, game.num_players, where, f"{deck.name}s")
        for seat, (p, codes) in enumerate(zip(game.state.players, hands)):
            cards = [deck.of_code(game, code, f"{where}[{seat}][{i}]") for i, code in enumerate(codes)]
            p.hand += [c for c in cards if c not in p.hand]

    # -- checks ----------------------------------------------------------------------------

    def problem(self, game: GameLike) -> str | None:
        """What is wrong with the module's state in a loaded game, or ``None``."""
        state = game.state.modules.get(self.key)
        if state is None:
            return f"the {self.label} module's state is missing"
        n = game.num_players
        st = game.state
        if why := self.why_displayed(game):
            return f"state.display: {why}"
        for name, spec in self.fields:
            value = getattr(state, name)
            where = f"{self.label}: {name}"
            if name in self.lists and not spec.per_seat and not isinstance(value, list):  # per seat: below
                return f"{where}: a list expected, not {value!r}"
            if name in self.scalars and not spec.seat and type(value) is not self.scalars[name]:  # a seat: below
                kind = self.scalars[name].__name__
                return f"{where}: {'an' if kind[0] in 'aeiou' else 'a'} {kind} expected, not {value!r}"
            if spec.per_seat:
                sizes = (n, 0) if spec.per_seat == "or none" else (n,)
                if not isinstance(value, list) or len(value) not in sizes:
                    return f"{where}: one entry per seat expected ({n} seats), not {value!r}"
                items = value
            else:
                items = [value]
            if spec.among and any(x not in spec.among or type(x) is bool for x in _flat(value)):
                return f"{where}: each of {list(spec.among)} expected, not {value!r}"
            if spec.flag and any(type(v) is not bool for v in items):
                return f"{where}: true or false, not {value!r}"
            if spec.seat:
                if isinstance(value, list):
                    if any(type(s) is not int or not 0 <= s < n for s in value) or len(set(value)) != len(value):
                        return f"{where}: distinct seats 0-{n - 1} expected, not {value!r}"
                elif type(value) is not int or not -1 <= value < n:
                    return f"{where}: a seat 0-{n - 1} or -1 expected, not {value!r}"
            if spec.opens and (why := _why_not_opened(game, value, spec.opens)):
                return f"{where}: {why}"
            if spec.during and (st.phase == self.phase) != bool(value):
                return f"{self.label}: phase {st.phase!r} and the {name} {value!r} disagree ({spec.during}: set exactly while phase {self.phase!r} is on)"
        if self.decider:
            seat = getattr(state, self.decider)
            if (st.phase == self.phase) != (seat >= 0) or (seat >= 0 and st.decider != seat):
                return f"{self.label}: the {self.decider} seat and the phase disagree"
        if self.conserved:
            every = [x for name, spec in self.fields if spec.holds == "own" for x in _flat(getattr(state, name))]
            kinds = {type(x) for x in self.conserved}
            if sorted(every, key=repr) != sorted(self.conserved, key=repr) or any(type(x) not in kinds for x in every):
                return (
                    f"{self.label}: each of {list(self.conserved)} must be in exactly one place, "
                    f"not {sorted(every, key=repr)}"
                )
        if self.tiles:
            mine = sorted(t for t, spec in game.rules.catalog.items() if spec.kind == self.tiles)
            found = sorted(t for tiles in tile_locations(game).values() for t in tiles if t in set(mine))
            if found != mine:
                return f"{self.label}: every {self.noun} must be in exactly one place"
        wrong = (spec.redeal.problem(state, name, self.label) for name, spec in self.fields if spec.redeal is not None)
        return next((found for found in wrong if found is not None), None)

    # -- hidden information ----------------------------------------------------------------

    def determinize(self, game: GameLike, rng: random.Random, seat: int | None = None) -> None:
        """Reshuffle what nobody sees: the hidden part of each pile, the deck kind's cards;
        and what ``seat`` does not see: the hands of the other seats (:class:`Redeal`)."""
        state = game.state.modules.get(self.key)
        for name, spec in self.fields:
            if spec.redeal is not None and state is not None and seat is not None:
                spec.redeal.apply(state, name, seat, rng)
            if spec.face_up is None or state is None:
                continue
            value = getattr(state, name)
            for stack in value.values() if isinstance(value, dict) else (value,):
                cut = len(stack) - spec.face_up
                if cut > 1:
                    below = stack[:cut]
                    rng.shuffle(below)
                    stack[:cut] = below
        deck = self.deck
        if deck is not None and deck.resample:
            cards = game.state.deck
            slots = [k for k, c in enumerate(cards) if type(c) is deck.card]
            if slots:
                found = [cards[k] for k in slots]
                rng.shuffle(found)
                for k, card in zip(slots, found):
                    cards[k] = card
                resample_in_piles(game, deck.which, rng)

    def hidden_piles(self, game: GameLike) -> list[HiddenPile | DeckCards]:
        """The piles whose order nobody knows, and the deck kind's cards."""
        out: list[HiddenPile | DeckCards] = []
        state = game.state.modules.get(self.key)
        for name, spec in self.fields:
            if spec.face_up is None or state is None:
                continue
            value = getattr(state, name)
            for sub in value if isinstance(value, dict) else (None,):
                out.append(self._pile(name, sub, spec))
        if self.deck is not None and self.deck.resample:
            out.append(DeckCards(self.deck.name, self.deck.which))
        return out

    def _pile(self, name: str, sub: Any, spec: Field) -> HiddenPile:
        key = self.key

        def get(game: GameLike) -> list[Any]:
            state = game.state.modules.get(key)
            if state is None:
                return []
            value = getattr(state, name)
            found: list[Any] = value if sub is None else value[sub]
            return found

        def put(game: GameLike, items: list[Any]) -> None:
            state = operations.edit_module(game, key)
            if sub is None:
                setattr(state, name, items)
            else:
                getattr(state, name)[sub] = items

        label = spec.pile_name.format(sub if sub is not None else name)
        return HiddenPile(f"{self.label}: {label}", get, put, face_up=spec.face_up or 0)

    # -- components ------------------------------------------------------------------------

    def locations(self, game: GameLike, holds: str) -> dict[str, list[Any]] | None:
        """Where the module keeps components of kind ``holds`` (``"tiles"``, ``"cards"``)."""
        state = game.state.modules.get(self.key)
        if state is None:
            return None
        out: dict[str, list[Any]] = {}
        for name, spec in self.fields:
            if spec.holds == holds:
                out[spec.place or name] = _located(spec, getattr(state, name))
        return out

    def card_fields(self, game: GameLike) -> list[tuple[str, list[Any]]]:
        """The cards in each field holding cards, named as positions name them: ``key.field``."""
        state = game.state.modules.get(self.key)
        if state is None:
            return []
        return [(f"{self.key}.{n}", _located(s, getattr(state, n))) for n, s in self.fields if s.holds == "cards"]

    def why_displayed(self, game: GameLike) -> str | None:
        """Why the money display cannot hold what it holds, or ``None``: a card of the deck
        kind, which goes to its ``drawn_to`` field when drawn for the display."""
        deck = self.deck
        found = deck.codes(game.state.display) if deck is not None and deck.drawn_to else []
        if not found or deck is None:
            return None
        spec = dict(self.fields)[deck.drawn_to]
        goes = f"a {deck.name} drawn for it goes to the {spec.place} ({spec.beside_market})"
        return f"{found[0]} never lies in the money display: {goes}"


def card_places(game: GameLike) -> dict[Any, list[str]]:
    """Where each card of ``game`` lies, by the names a position gives its places:
    ``players[i].hand``, ``display``, ``discard``, ``deck``, ``scoring_cards``, then each
    declared field holding cards as ``key.field`` (:meth:`Declared.card_fields`) and the
    places a plugin's own ``alhambra_card_locations`` names. A card lying in several places
    lists each, in that order (copies of a money card each add theirs)."""
    st = game.state
    groups: list[tuple[str, Iterable[Any]]] = [(f"players[{i}].hand", p.hand) for i, p in enumerate(st.players)]
    groups += [("display", st.display), ("discard", st.discard), ("deck", st.deck), ("scoring_cards", st.scoring_cards)]
    for impl in game.rules.pm.hook.alhambra_card_locations.get_hookimpls():
        if isinstance(impl.plugin, DerivedPlugin):
            groups += impl.plugin.declared.card_fields(game)
        else:
            groups += (impl.function(game=game) or {}).items()
    out: dict[Any, list[str]] = {}
    for where, cards in groups:
        for card in cards:
            out.setdefault(card, []).append(where)
    return out


def opened_sides(
    why_not: Callable[[Any, tuple[int, int], int], str | None], rule: str, noun: str = "side"
) -> dict[str, Any]:
    """The declaration (keywords of :func:`public`) of a per-seat field listing the sides
    opened in each seat's Alhambra (``city.open_side``: the city gates' gates, R-GATE-5/6),
    each ``[x, y, side]`` named from its west or north cell (side EAST 2 or SOUTH 4,
    :func:`~alhambra.canonical_side`). Views and positions show ``[x, y, "east"|"south"]``; a
    position's entries (``[x, y, side name or bit]``, :func:`~alhambra.read_side`) open their
    sides one by one, each where ``why_not(city, pos, side)`` answers ``None`` (else a
    :class:`ConfigError` naming the entry and the seat's Alhambra, with that answer); a loaded
    game's list must be exactly the sides its Alhambra has open (``rule`` cited). ``noun``
    names one entry in refusals (``"gate"``)."""

    def read(value: Any, game: Any, where: str) -> list[list[list[int]]]:
        out: list[list[list[int]]] = [[] for _ in range(game.num_players)]
        for seat, sides in enumerate(seat_lists(value, game.num_players, where, f"{noun}s")):
            city = game.state.players[seat].city
            for k, one in enumerate(sides):
                (x, y), side = read_side(one, f"{where}[{seat}][{k}]", f"a {noun}")
                if why := why_not(city, (x, y), side):
                    raise ConfigError(f"{where}[{seat}][{k}] (seat {seat}'s Alhambra): {why}")
                city.open_side((x, y), side)
                out[seat].append([x, y, side])
        return out

    return dict(per_seat=True, view=_sides_seen, to_position=_sides_seen, from_position=read, opens=(rule, noun))


def _sides_seen(value: list[list[list[int]]]) -> list[list[list[Any]]]:
    """Opened sides as views and positions show them: ``[x, y, "east"|"south"]``."""
    return [[[x, y, SIDE_NAMES[s]] for x, y, s in sides] for sides in value]


def side_entry(value: Any) -> bool:
    """True if ``value`` is an opened side as a loaded game keeps it: ``[x, y, side]``, ``x``
    and ``y`` ints, ``side`` EAST (2) or SOUTH (4) (a module's own checks of the entries read
    only those; the declared check refuses the others)."""
    return (
        type(value) is list
        and len(value) == 3
        and type(value[0]) is type(value[1]) is int
        and type(value[2]) is int
        and value[2] in (EAST, SOUTH)
    )


def _why_not_opened(game: GameLike, value: list[Any], opens: tuple[str, str]) -> str | None:
    """Why ``value`` (per seat, ``[x, y, 2|4]`` entries) does not list exactly the sides open
    in each seat's Alhambra, or ``None``; ``opens``: the rule id and the noun of an entry."""
    rule, noun = opens
    for seat, sides in enumerate(value):
        for g in sides:
            if not side_entry(g):
                return f"seat {seat}: a {noun} is [x, y, 2|4], not {g!r}"
        listed = sorted(((x, y), side) for x, y, side in sides)
        opened = sorted((p, s) for p, s in game.state.players[seat].city.open_sides if s in (EAST, SOUTH))
        if listed != opened:
            return f"{rule}: seat {seat}'s {noun}s {listed} do not match the sides open in its Alhambra {opened}"
    return None


def seat_lists(value: Any, n: int, where: str, what: str) -> list[list[Any]]:
    """``value`` read from a position as one list per seat (``n`` lists, each of ``what``,
    ``"gate cards"``); :class:`ConfigError` naming ``where`` else."""
    if not isinstance(value, list) or len(value) != n or not all(isinstance(v, list) for v in value):
        raise ConfigError(f"{where}: one list of {what} per seat ({n} lists), not {value!r}")
    return value


def _kept(cache: dict[Any, Any] | None, key: Any, pile: list[Any], pick: Callable[[list[Any]], Any]) -> Any:
    """``pick(pile)``, or with a ``cache`` the value kept for ``key`` while ``pile`` is unchanged
    (compared whole: a reshuffle can keep a pile's length)."""
    if cache is None:
        return pick(pile)
    kept = cache.get(key)
    if kept is None or kept[0] != pile:
        kept = cache[key] = (pile.copy(), pick(pile))
    return kept[1]


def _located(spec: Field, value: Any) -> list[Any]:
    """The components a field holding them keeps in ``value``: ``locate(value)``, else its items."""
    return spec.locate(value) if spec.locate is not None else _flat(value)


def _flat(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _flat(v)]
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [value]


def _without(value: Any, placed: set[Any]) -> Any:
    if isinstance(value, dict):
        return {k: _without(v, placed) for k, v in value.items()}
    if isinstance(value, list):
        return [_without(v, placed) for v in value if isinstance(v, (list, dict)) or v not in placed]
    return value


class DerivedPlugin:
    """The hooks a :class:`Declared` derives, as one plugin: those it has nothing for are
    hidden (``None``), so pluggy registers only the others."""

    def __init__(self, declared: Declared):
        self.declared = d = declared
        fields = d.fields
        wanted = set()
        if d.state is not None:
            wanted |= {"alhambra_state_classes", "alhambra_check_state"}
            if d.position != ():
                wanted.add("alhambra_position_part")
                if d.reads:
                    wanted.add("alhambra_position_read")
        if d.view is not None:
            wanted |= {"alhambra_view", "alhambra_observation_parts"}
        if any(s.face_up is not None for _, s in fields) or (d.deck is not None and d.deck.resample):
            wanted |= {"alhambra_determinize", "alhambra_hidden_piles"}
        if any(s.redeal is not None for _, s in fields):
            wanted.add("alhambra_determinize")
        for holds in ("tiles", "cards"):
            if any(s.holds == holds for _, s in fields):
                wanted.add(f"alhambra_{holds[:-1]}_locations")
        if d.words:
            wanted.add("alhambra_action_words")
        for name in HOOKS:
            if name not in wanted:
                setattr(self, name, None)

    def __repr__(self) -> str:
        return f"<declared state of {self.declared.key}>"

    @hookimpl
    def alhambra_state_classes(self) -> dict[str, type]:
        state = self.declared.state
        return {self.declared.key: state} if state is not None else {}

    @hookimpl
    def alhambra_check_state(self, game: GameLike) -> str | None:
        return self.declared.problem(game)

    @hookimpl
    def alhambra_position_part(self, game: GameLike) -> dict[str, Any]:
        return self.declared.position_part(game)

    @hookimpl
    def alhambra_position_read(self, game: GameLike, parts: dict[str, Any]) -> list[str]:
        return self.declared.position_read(game, parts)

    @hookimpl
    def alhambra_view(self, game: GameLike, seat: int | None, view: dict[str, Any]) -> None:
        view["modules"][self.declared.key] = self.declared.view_part(game, seat)
        self.declared.table_view(game, view)

    @hookimpl
    def alhambra_observation_parts(self, game: GameLike, layout: ObservationLayout) -> list[ObservationPart]:
        return self.declared.observation(layout)  # none: the module declares the parts of its view entry

    @hookimpl
    def alhambra_determinize(self, game: GameLike, seat: int, rng: random.Random) -> None:
        self.declared.determinize(game, rng, seat)

    @hookimpl
    def alhambra_hidden_piles(self, game: GameLike) -> list[HiddenPile | DeckCards]:
        return self.declared.hidden_piles(game)

    @hookimpl
    def alhambra_tile_locations(self, game: GameLike) -> dict[str, list[Any]] | None:
        return self.declared.locations(game, "tiles")

    @hookimpl
    def alhambra_action_words(self, game: GameLike, seat: int, action: Any) -> tuple[str, str] | None:
        if type(action) not in self.declared.words:
            return None
        words: tuple[str, str] = action.words(game)
        return words

    @hookimpl
    def alhambra_card_locations(self, game: GameLike) -> dict[str, list[Any]] | None:
        return self.declared.locations(game, "cards")


HOOKS = tuple(name for name in vars(DerivedPlugin) if name.startswith("alhambra_"))


__all__ = [
    "Declared",
    "DeclaredState",
    "DeckKind",
    "DerivedPlugin",
    "Field",
    "Redeal",
    "card_places",
    "copied",
    "counted",
    "deciding",
    "internal",
    "listed",
    "opened_sides",
    "pile",
    "public",
    "seat_lists",
    "side_entry",
    "secret",
]
