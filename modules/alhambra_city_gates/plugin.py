"""Module "city gates" (Die Tore der Stadt) of the second expansion (R-GATE-1 … R-GATE-9).

Gate cards (one per player, 2 players: 2; option ``city_gates.cards`` 1-6, R-GATE-1) are dealt
in turn into money piles 3, 4 and 5 (R-GATE-2). A gate card drawn for the money display goes
face up to the gate space beside the building market instead, and another card is drawn; one
drawn while another waits there goes to the discard pile (R-GATE-3; the core's
``alhambra_card_drawn`` hook). Instead of taking money a player may take the waiting gate card
(:class:`TakeGate`, the whole action, R-GATE-4; with exchange offices one more "instead of
money" action, R-GATE-9). Gate cards in hand are public.

Gates are played with a change of the player's own Alhambra, never without one (R-GATE-5 and
its ruling): a placement of a bought tile, a build from the reserve, a swap, a removal, a
building bought through the vizier, a hut, a building received at the end of the game. After
every such change, whichever plugin's action made it, a player who holds a gate card and has
a double wall (two of its tiles meeting wall against wall, no gate yet: the core's
:meth:`alhambra.Alhambra.double_walls`) gets a window, phase
``"gates"`` (:func:`alhambra_action_kind` wraps every action kind's ``apply``): any number of
:class:`PlayGate`, each a gate on a double wall of the Alhambra as it stands after the change
(one per side; the card out of the game), then :class:`FinishGates`; the window closes by
itself when no gate can be played any more, and the game goes on as the change left it (the
next placement, the end of the placement, the end of the turn's actions: ``Decide`` back, or
``ACTION_DONE``). The turn's last placement is followed by its window like any other. A change
that a gate makes legal is judged with it: a tile that reaches the Alhambra only across a
double wall is built and gated at once (:class:`BuildThroughGate`, where the core's
:meth:`alhambra.Alhambra.openings` says a side opened lets it in; on a turn from the
reserve, in the placement phase a waiting tile); a removal that R-TURN-6 forbids is opened by
gates played on a turn before it (:func:`removal_gates`: only where some removal then needs no
more gates than the player holds, the parts it would cut off walked by the core's
:meth:`alhambra.Alhambra.parts_without`), which commits the player to a removal: phase ``"gates"``,
window ``"removal"``, where only more such gates and ``RemoveToReserve`` are legal
(:meth:`alhambra.ActionKind.also_in`). A gated side counts as open for walking (R-GATE-6:
R-PLACE-5 and R-TURN-6; the core's open sides of an Alhambra,
:meth:`alhambra.Alhambra.open_side`), stays for the rest of the game, and the two tiles it
joins can no longer be removed or swapped (R-GATE-7, :class:`alhambra.OpenSidesHeld`). A
building given to Dirk takes no gate (R-GATE-8: only the deciding seat's own Alhambra opens a
window). Gates score nothing and gate cards are no money (R-GATE-8).

State (``game.state.modules["city_gates"]``, :class:`CityGatesState`): the card waiting on the
gate space, the gates of every Alhambra, the cards played and those not used in this game, the
window open and what follows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import define, evolve, field, frozen

from alhambra import (
    ACTION_DONE,
    EAST,
    SIDE_NAMES,
    SOUTH,
    Action,
    ActionDone,
    ActionKind,
    Alhambra,
    Decide,
    PhaseSpec,
    PlacementRules,
    RemoveToReserve,
    ConfigError,
    IllegalActionError,
    Declared,
    DeclaredState,
    DeckKind,
    NumberedCard,
    Option,
    action_table,
    OpenSidesHeld,
    canonical_side,
    card_places,
    neighbour,
    field_check,
    declared,
    hookimpl,
    operations,
    tile_words,
)

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Sequence

    from alhambra import Card, Game, Next

KEY = "city_gates"  # the state, memo and view key of this module (its NAME)
#: the phase of the window for gates after a change of an Alhambra (R-GATE-5)
PHASE = "gates"
#: the two kinds of window: gates played with a change just made, and gates played on a turn
#: before the removal they open the way for (committed to it)
CHANGE, REMOVAL = "change", "removal"
CARDS_OPTION = "city_gates.cards"
MAX_CARDS = 6  # R-GATE-1
#: Piles of R-SET-6 (0-based: piles 3, 4, 5) that receive the gate cards, in turn (R-GATE-2).
GATE_PILES = (2, 3, 4)


@frozen(slots=True, eq=False, init=False)
class GateCard(NumberedCard):
    """Gate card ``number`` 1-6 (no currency, no value, R-GATE-1); ``code``: ``"gate-1"``.
    One instance per number. Raises :class:`~alhambra.ConfigError` for another number."""

    PREFIX, NOUN, REFUSAL = "gate", "gate card", f"R-GATE-1: gate cards are numbered 1-{MAX_CARDS}, not {{number!r}}"
    number: int


#: The six gate cards (R-GATE-1, COMPONENTS.md).
GATE_CARDS: tuple[GateCard, ...] = GateCard.make(range(1, MAX_CARDS + 1))


def gates_in(cards: Any) -> list[GateCard]:
    """The gate cards among ``cards`` (a hand, the discard pile …), in their order."""
    return [c for c in cards if type(c) is GateCard]


def why_not_gate(city: Alhambra, pos: tuple[int, int], side: int) -> str | None:
    """Why a gate cannot go on ``side`` of the tile at ``pos`` (R-GATE-5: a double wall of the
    Alhambra, :meth:`alhambra.Alhambra.why_not_double_wall`; one gate per side), or ``None``."""
    if why := city.why_not_double_wall(pos, side):
        return f"R-GATE-5: {why}"
    if city.is_open_side(pos, side):
        return f"R-GATE-5: the {SIDE_NAMES[side]} side of {pos} has a gate already (one gate per side)"
    return None


def _numbers(cards: Iterable[Any]) -> list[int]:
    """The numbers of the gate cards among ``cards``, in their order."""
    return [c.number for c in gates_in(cards)]


@define(slots=True)
class CityGatesState(DeclaredState):
    """The city gates' state (plain ints and lists, saved as they are).

    ``space``: the number of the gate card waiting on the gate space, 0 for none (R-GATE-3).
    ``gates[seat]``: the gates of that seat's Alhambra, each ``[x, y, side]`` with side 2
    (east) or 4 (south) of cell (x, y) (R-GATE-5, -7). ``played``: the numbers of the cards
    played, out of the game (R-GATE-5). ``unused``: the numbers of the cards this game does not
    use (R-GATE-1). ``window``: while the deciding seat is in phase ``"gates"``, ``"change"``
    (its Alhambra has just changed: gates on any double wall, then :class:`FinishGates`) or
    ``"removal"`` (gates played on a turn to open the way for a removal: committed to it,
    R-GATE-5 ruling); ``""`` otherwise. ``then``: what follows a ``"change"`` window,
    ``"done"`` (the turn's action is complete) or the phase the seat goes back to deciding in
    (``"place"``: the placement goes on, or ends; ``"turn"``: the turn player acts again).
    ``played`` and ``unused`` are written as gate card codes; a position leaving one out gives
    it gate cards lying nowhere else (``unplaced``)."""

    space: int = field(  # drawn beside the building market
        metadata=declared.public(**GateCard.declared_number(), omit=True, place="gate space", beside_market="R-GATE-3")
    )
    gates: list[list[list[int]]] = field(
        metadata=declared.public(**declared.opened_sides(why_not_gate, "R-GATE-5", "gate"))
    )
    played: list[int] = field(
        factory=list,
        metadata=declared.counted(
            place="gate cards played",
            unplaced=lambda game, gs, free: _numbers(free)[: sum(map(len, gs.gates))],
            **GateCard.declared_numbers(),
        ),
    )
    unused: list[int] = field(
        factory=list,
        metadata=declared.internal(
            place="gate cards unused",
            unplaced=lambda game, gs, free: [n for n in _numbers(free) if n > card_count(game)],
            **GateCard.declared_numbers(),
        ),
    )
    window: str = field(
        default="",
        metadata=declared.public(view=lambda w: w or None, among=("", CHANGE, REMOVAL), omit=True, during="R-GATE-5"),
    )
    then: str = field(default="", metadata=declared.internal(omit=True))


def card_count(game: Game) -> int:
    """How many gate cards this game uses (R-GATE-1): the option, else one per player (2
    players: 2)."""
    n = game.rules.options.get(CARDS_OPTION)
    return n if n is not None else max(2, min(MAX_CARDS, game.num_players))


def _check_cards(value: Any) -> str | None:
    ok = value is None or (type(value) is int and 1 <= value <= MAX_CARDS)
    return None if ok else f"the number of gate cards is 1-{MAX_CARDS} (R-GATE-1)"


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------


_gate_card_only = field_check(lambda v: type(v) is GateCard, "R-GATE-4: TakeGate takes a gate card")
_int_only = field_check(lambda v: type(v) is int and abs(v) <= 1000, "R-GATE-5: a gate's {name} is an int within ±1000")
_side_only = field_check(
    lambda v: v in (EAST, SOUTH), "R-GATE-5: a gate lies on the east (2) or south (4) side of a cell"
)


@frozen(slots=True, cache_hash=True)
class TakeGate(Action):
    """Take the gate card waiting on the gate space instead of taking money: the whole
    action (R-GATE-4)."""

    card: GateCard = field(validator=_gate_card_only)

    def __str__(self) -> str:
        return f"take {self.card.code}"

    def words(self, game: Game) -> tuple[str, str]:
        """In words (R-GATE-4): ``(what was done, what to do)``."""
        what = f"the {self.card} from the gate space"
        return f"took {what}", f"take {what}"


@frozen(slots=True, cache_hash=True)
class PlayGate(Action):
    """Play a gate card from hand: a gate on the ``side`` (EAST 2 or SOUTH 4) of cell
    ``(x, y)`` of the player's Alhambra, on a double wall (R-GATE-5). Never without a change
    of that Alhambra: in the window after one (phase ``"gates"``), or on a turn before the
    removal it opens the way for (R-GATE-6), which commits the player to a removal (R-GATE-5
    ruling). ``card``: the gate card spent (out of the game)."""

    card: GateCard = field(validator=_gate_card_only)
    x: int = field(validator=_int_only)
    y: int = field(validator=_int_only)
    side: int = field(validator=_side_only)

    def __str__(self) -> str:
        return f"gate at ({self.x}, {self.y}) {SIDE_NAMES[self.side]} with {self.card.code}"

    def words(self, game: Game) -> tuple[str, str]:
        """In words (R-GATE-5): ``(what was done, what to do)``."""
        a = (self.x, self.y)
        what = f"a gate on the double wall between {a} and {neighbour(a, self.side)}, playing the {self.card}"
        return f"put {what}", f"put {what}"


@frozen(slots=True, cache_hash=True)
class FinishGates(Action):
    """No more gates with this change (R-GATE-5): the window after a change of the player's
    Alhambra closes and the game goes on as the change left it (the next placement, the end of
    the placement, the end of the turn's actions)."""

    def __str__(self) -> str:
        return "no more gates"

    def words(self, game: Game) -> tuple[str, str]:
        return "put up no more gates with that change", "put up no more gates"


FINISH = FinishGates()
_FINISH = (FINISH,)


@frozen(slots=True, cache_hash=True)
class BuildThroughGate(Action):
    """Build the waiting ``tile`` at ``(x, y)``, where it meets the Alhambra only across
    double walls, and play gate ``card`` on its ``side`` (NORTH/EAST/SOUTH/WEST of the new
    tile) at once, which makes it reachable (R-GATE-5, R-GATE-6: a placement, then the gate on
    the Alhambra as it stands after it)."""

    card: GateCard = field(validator=_gate_card_only)
    tile: Any
    x: int = field(validator=_int_only)
    y: int = field(validator=_int_only)
    side: int = field()

    def __str__(self) -> str:
        return f"place {self.tile} at ({self.x}, {self.y}) through a gate on its {SIDE_NAMES.get(self.side, self.side)} side with {self.card.code}"

    def words(self, game: Game) -> tuple[str, str]:
        """In words (R-GATE-6): ``(what was done, what to do)``."""
        word = SIDE_NAMES.get(self.side, str(self.side))
        tile = tile_words(game.rules.catalog, self.tile)
        where = f"at ({self.x}, {self.y}) through a gate on its {word} side, playing the {self.card}"
        return f"built the {tile} {where}", f"build the {tile} {where}"


_GATE_SET = frozenset(GATE_CARDS)


def _legal_take(game: Game, seat: int) -> Sequence[Action]:
    space = game.state.modules[KEY].space
    return [action_table(TakeGate)[GateCard(space),]] if space else ()


def _check_take(game: Game, seat: int, action: TakeGate) -> None:
    waiting = f"gate-{space} is" if (space := game.state.modules[KEY].space) else "it is empty"
    raise IllegalActionError(f"R-GATE-4: {action.card.code} is not waiting on the gate space ({waiting})")


def _apply_take(game: Game, seat: int, action: TakeGate) -> Next | None:
    operations.edit_module(game, KEY).space = 0
    game.state.players[seat].hand.append(action.card)
    return ACTION_DONE


def can_play_gate(game: Game, seat: int) -> bool:
    """True if ``seat`` holds a gate card and its Alhambra has a double wall without a gate:
    a change of that Alhambra then opens the window for gates (R-GATE-5)."""
    p = game.state.players[seat]
    return not _GATE_SET.isdisjoint(p.hand) and bool(p.city.double_walls())


# -- the window after a change (R-GATE-5) -----------------------------------------------------


def _close(game: Game, seat: int, action: FinishGates = FINISH) -> Next:
    """The window closes (:class:`FinishGates`, or no gate left to play): the game goes on as
    the change left it."""
    gs = operations.edit_module(game, KEY)
    then = gs.then
    gs.window = gs.then = ""
    return ACTION_DONE if then == "done" else Decide(seat, then)


def _with_window(apply: Any) -> Any:
    """An action kind's ``apply`` that, when the action changed the deciding seat's own
    Alhambra (its layout: its ``memo`` replaced) and answered ``nxt``: meets the commitment of
    a removal a gate was played for; if a gate can be played now, opens the window for gates
    (phase ``"gates"``), which keeps what comes next for its end (R-GATE-5: any number of
    gates, on the Alhambra as it stands after the change, the turn's last placement included);
    otherwise answers ``nxt`` itself."""

    def apply_then_gates(game: Game, seat: int, action: Any) -> Next | None:
        before = game.state.players[seat].city.memo
        nxt: Next | None = apply(game, seat, action)
        st = game.state
        if st.players[seat].city.memo is before:
            return nxt
        if st.modules[KEY].window:  # the removal the gates were played for (R-GATE-5 ruling)
            gs = operations.edit_module(game, KEY)
            gs.window = gs.then = ""
        if nxt is None:  # the same seat decides again: a placement with tiles left, or its end
            then = st.phase
        elif type(nxt) is ActionDone:
            then = "turn" if nxt.extra else "done"
        else:  # a change that moves the game on in another way (no action of the game's rules does)
            return nxt
        if then == PHASE or not can_play_gate(game, seat):
            return nxt
        gs = operations.edit_module(game, KEY)
        gs.window, gs.then = CHANGE, then
        return Decide(seat, PHASE)

    return apply_then_gates


def _not_committed(game: Game, seat: int) -> str | None:
    """Why a removal is not played in phase ``"gates"`` now, or ``None`` while one is committed
    to (gates played on a turn to open its way, R-GATE-5 ruling): ``RemoveToReserve`` is then
    played in that phase, the removals legal with those gates in place (R-GATE-6)."""
    if game.state.modules[KEY].window == REMOVAL:
        return None
    return "R-GATE-5: the change is made; only gates played with it (PlayGate) or none more (FinishGates) now"


# -- gates that open the way for a removal (R-GATE-5 ruling, R-GATE-6) -----------------------


def _joining(
    parts: int, joins: list[tuple[tuple[tuple[int, int], int], int, int]], first: Any
) -> list[tuple[tuple[int, int], int]] | None:
    """Walls of ``joins`` (``(wall, part, part)``) that join all ``parts`` parts, ``first``
    among them (a spanning tree: ``parts - 1`` walls), or ``None`` if they cannot."""
    group = list(range(parts))  # each part's group of parts joined so far
    chosen = []
    for wall, a, b in sorted(joins, key=lambda j: j[0] != first):
        old, new = group[a], group[b]
        if old != new:
            group = [new if g == old else g for g in group]
            chosen.append(wall)
    return chosen if len(chosen) == parts - 1 else None


def removal_gates(city: Any, cards: int = MAX_CARDS) -> list[tuple[tuple[int, int], int]]:
    """The double walls of ``city`` (as :meth:`alhambra.Alhambra.double_walls` gives them) on which a gate opens
    the way for a removal that R-TURN-6 forbids now (R-GATE-6: a gated side is open for what a
    removal must leave): for some tile, the gate is one of at most ``cards`` gates on double
    walls of the Alhambra as it will stand after removing it (never on that tile's sides) with
    which the removal is legal (R-GATE-5 ruling). A removal that needs several gates lists each
    gate of each way to join the parts it would cut off; they are played one by one before it.
    Kept with the layout."""
    key = ("city_gates.removal", cards)
    found: list[tuple[tuple[int, int], int]] | None = city.memo.get(key)
    if found is not None:
        return found
    walls = city.double_walls()
    out: set[tuple[tuple[int, int], int]] = set()
    if walls and cards > 0:
        rules = city.rules
        now = set(city.removable())
        for pos in sorted(city.tiles):
            if pos == (0, 0) or pos in now or rules.why_held(city, pos) or rules.hole_after_removing(city, pos):
                continue
            label = city.parts_without(pos)  # the walk of R-PLACE-5, gated sides open (R-GATE-6)
            parts = max(label.values()) + 1
            if parts == 1 or parts - 1 > cards:
                continue
            joins = []
            for wall in walls:
                a, b = wall[0], neighbour(*wall)
                if pos not in (a, b) and label[a] != label[b]:
                    joins.append((wall, label[a], label[b]))
            for wall, _, _ in joins:
                if wall in out:
                    continue
                chosen = _joining(parts, joins, wall)
                if chosen is None:  # the double walls cannot join the parts: no gates will do
                    break
                # judged with the gates in place (R-GATE-6)
                if city.with_open_sides(chosen).why_not_remove(pos) is None:
                    out.add(wall)
    found = city.memo[key] = sorted(out)
    return found


# -- PlayGate, FinishGates --------------------------------------------------------------------


def _legal_play(game: Game, seat: int) -> Sequence[Action]:
    """R-GATE-5: in the window after a change, one gate per double wall of the seat's
    Alhambra, with the first gate card of its hand (gate cards are all alike). On a turn, and
    while committed to a removal, the gates that open the way for a removal R-TURN-6 forbids
    now, with the gate cards in hand (:func:`removal_gates`). Never while placing: the gates
    come with the placement (after it, or :class:`BuildThroughGate`)."""
    st = game.state
    hand = st.players[seat].hand
    if st.phase == "place" or _GATE_SET.isdisjoint(hand):
        return ()
    gates = gates_in(hand)
    card, city = gates[0], st.players[seat].city
    change = st.phase == PHASE and st.modules[KEY].window == CHANGE
    n = 0 if change else len(gates)
    key = ("city_gates.play", card, n)
    found = city.memo.get(key)
    if found is None:
        table = action_table(PlayGate)
        walls = city.double_walls() if change else removal_gates(city, n)
        found = city.memo[key] = [table[card, x, y, side] for (x, y), side in walls]
    return found


def _check_play(game: Game, seat: int, action: PlayGate) -> None:
    st = game.state
    hand = st.players[seat].hand
    if action.card not in hand:
        raise IllegalActionError(f"R-GATE-5: {action.card.code} is not in the player's hand")
    why = why_not_gate(st.players[seat].city, (action.x, action.y), action.side)
    if why is None and st.phase == "place":
        why = (
            "R-GATE-5: a gate card is played only with a change of the Alhambra: place the tile first (the "
            "gates follow it), or build it through a gate at once (BuildThroughGate)"
        )
    elif why is None and not (st.phase == PHASE and st.modules[KEY].window == CHANGE):
        why = (
            f"R-GATE-5: a gate card is played only with a change of the Alhambra; before a removal only where it "
            f"opens the way for one (R-GATE-6) with the {len(gates_in(hand))} gate card(s) in hand, and the gate at "
            f"({action.x}, {action.y}) {SIDE_NAMES[action.side]} opens none"
        )
    raise IllegalActionError(why or f"{action} is not legal now")


def _play_gate(game: Game, seat: int, action: PlayGate | BuildThroughGate) -> None:
    """The gate of ``action`` on its side of the seat's Alhambra, open for walking (R-GATE-6),
    its card out of the game (R-GATE-5)."""
    gs = operations.edit_module(game, KEY)
    game.state.players[seat].city.open_side((action.x, action.y), action.side)
    game.state.players[seat].hand.remove(action.card)
    gs.played.append(action.card.number)
    (x, y), side = canonical_side((action.x, action.y), action.side)
    gs.gates[seat].append([x, y, side])


def _apply_play(game: Game, seat: int, action: PlayGate) -> Next | None:
    """R-GATE-5: the gate goes on the double wall (the side opens for walking, R-GATE-6),
    the card out of the game. On a turn it is played for a removal, which the player is now
    committed to (phase ``"gates"``, window ``"removal"``); in the window after a change the
    same seat decides again, until no gate can be played any more (the window closes)."""
    st = game.state
    _play_gate(game, seat, action)
    operations.city_changed(game, seat)
    if st.phase != PHASE:  # on a turn, before the removal it opens the way for
        gs = operations.edit_module(game, KEY)
        gs.window, gs.then = REMOVAL, ""
        return Decide(seat, PHASE)
    if st.modules[KEY].window == CHANGE and not can_play_gate(game, seat):
        return _close(game, seat)
    return None


def _legal_finish(game: Game, seat: int) -> Sequence[Action]:
    return _FINISH if game.state.modules[KEY].window == CHANGE else ()


def _check_finish(game: Game, seat: int, action: FinishGates) -> None:
    raise IllegalActionError(
        "R-GATE-5: a gate card played to open the way for a removal commits the player to a removal: "
        "remove a tile (RemoveToReserve) or play the other gates it needs"
    )


# -- BuildThroughGate --------------------------------------------------------------------------


def _pending_tiles(game: Game) -> list[Any]:
    """The tiles a gate may let in now: those waiting to be placed in the placement phase,
    the seat's reserve on a turn (a redesign, R-TURN-5 i)."""
    st = game.state
    if st.phase != "place":
        return list(st.players[st.decider].reserve) if st.decider is not None else []
    return operations.waiting_tiles(game)


def _legal_build(game: Game, seat: int) -> Sequence[Action]:
    """R-GATE-5/6: for every tile waiting to be placed (on a turn: every tile of the
    reserve, a redesign) and every frontier cell it could reach only across double walls,
    one gate on each of those walls that lets it in (:meth:`alhambra.Alhambra.openings`)."""
    hand = game.state.players[seat].hand
    if _GATE_SET.isdisjoint(hand):
        return ()
    tiles = _pending_tiles(game)
    if not tiles:
        return ()
    card, city = gates_in(hand)[0], game.state.players[seat].city
    key = ("city_gates.build", card, tuple(tiles))
    found = city.memo.get(key)
    if found is None:
        table = action_table(BuildThroughGate)
        found = city.memo[key] = [table[card, t, x, y, side] for t in tiles for (x, y), side in city.openings(t)]
    return found


def _check_build(game: Game, seat: int, action: BuildThroughGate) -> None:
    if action.card not in game.state.players[seat].hand:
        raise IllegalActionError(f"R-GATE-5: {action.card.code} is not in the player's hand")
    if action.tile not in _pending_tiles(game):
        if game.state.phase != "place":
            raise IllegalActionError(f"R-TURN-5: tile {action.tile!r} is not in the reserve")
        raise IllegalActionError(f"R-TURN-7: tile {action.tile!r} is not waiting to be placed")
    city = game.state.players[seat].city
    if ((action.x, action.y), action.side) not in city.openings(action.tile):
        why = city.why_not_place(action.tile, (action.x, action.y))
        raise IllegalActionError(
            why
            if why and not why.startswith("R-PLACE-5")
            else f"R-GATE-6: tile {action.tile!r} at ({action.x}, {action.y}) needs no gate there, or its "
            f"{SIDE_NAMES.get(action.side, action.side)} side is no double wall"
        )


def _apply_build(game: Game, seat: int, action: BuildThroughGate) -> Next | None:
    """Build the tile (R-PLACE-1..4, 6 checked when listed), then the gate on the double
    wall it made (R-GATE-5, -6); the tile leaves the waiting tiles. On a turn the tile comes
    from the reserve and, like any redesign, that is the turn's action (R-TURN-5 i). Like
    every change, the window for more gates follows when one can be played."""
    st = game.state
    turn = st.phase != "place"
    _play_gate(game, seat, action)  # the gate first: the tile reaches the Alhambra through it
    st.players[seat].city.place(action.tile, (action.x, action.y), checked=True)
    if turn:
        st.players[seat].reserve.remove(action.tile)
    else:
        st.pending.remove(next(p for p in st.pending if p.tile == action.tile))
    operations.city_changed(game, seat)
    return ACTION_DONE if turn else None


# ---------------------------------------------------------------------------------------------
# Rule set and setup
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_options() -> list[Option]:
    return [
        Option(
            CARDS_OPTION,
            None,
            "how many gate cards are used, 1-6 (default: one per player, 2 with two players)",
            rule="R-GATE-1",
            check=_check_cards,
        )
    ]


@hookimpl
def alhambra_cards(options: dict[str, Any]) -> list[Card]:
    """R-GATE-1: the six gate cards (those a game does not use are kept aside, ``unused``)."""
    return list(GATE_CARDS)


@hookimpl
def alhambra_setup(game: Game) -> None:
    """R-GATE-1: the state; the cards a game does not use are set aside (the others are
    dealt into the piles by ``alhambra_money_piles``, which the base setup calls before)."""
    state = game.state.modules.setdefault(KEY, CityGatesState(0, [[] for _ in range(game.num_players)]))
    state.unused = list(range(card_count(game) + 1, MAX_CARDS + 1))


@hookimpl
def alhambra_money_piles(game: Game, piles: list[list[Card]]) -> None:
    """R-GATE-2 (R-SET-6): the gate cards used, shuffled, dealt in turn to piles 3, 4 and 5
    starting with pile 3, each at a random depth of its pile."""
    used = card_count(game)
    operations.shuffle_cards_into(
        game, piles, GATE_CARDS[:used], [GATE_PILES[k % len(GATE_PILES)] for k in range(used)]
    )
    # the state (a position's deck dealt anew keeps the part it read)
    game.state.modules.setdefault(KEY, CityGatesState(0, [[] for _ in range(game.num_players)]))


@hookimpl
def alhambra_card_drawn(game: Game, card: Card) -> bool | None:
    """R-GATE-3: a gate card drawn for the display goes to the gate space, or, while another
    waits there, to the discard pile; either way another card is drawn."""
    if type(card) is not GateCard:
        return None
    gs = operations.edit_module(game, KEY)
    if gs.space:
        game.state.discard.append(card)
    else:
        gs.space = card.number
    return True


@hookimpl
def alhambra_phases() -> list[PhaseSpec]:
    """The window for gates (R-GATE-5), entered after a change of the deciding seat's own
    Alhambra when a gate can be played, or on a turn by a gate played before a removal."""
    return [
        PhaseSpec(
            PHASE,
            None,
            "a seat plays gates with the change it just made to its Alhambra, or before a removal (R-GATE-5)",
            window=True,
        )
    ]


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [
        ActionKind(TakeGate, {"turn"}, _legal_take, _apply_take, _check_take),
        ActionKind(PlayGate, {"turn", "place", PHASE}, _legal_play, _apply_play, _check_play),
        ActionKind(FinishGates, {PHASE}, _legal_finish, _close, _check_finish),
        ActionKind(BuildThroughGate, {"turn", "place"}, _legal_build, _apply_build, _check_build),
    ]


@hookimpl
def alhambra_action_kind(options: dict[str, Any], kind: ActionKind) -> ActionKind | None:
    """R-GATE-5: every change of the deciding seat's own Alhambra (a placement, a build from
    the reserve, a swap, a removal, a building through a gate: whichever plugin's action made
    it) is followed by the window for gates when one can be played; ``RemoveToReserve`` is
    also played in that phase while a removal is committed. The gates' own steps are left as
    they are."""
    if kind.action is PlayGate or kind.action is FinishGates:
        return None
    if kind.action is RemoveToReserve:
        kind = kind.also_in({PHASE}, _not_committed)
    return evolve(kind, apply=_with_window(kind.apply))


# ---------------------------------------------------------------------------------------------
# Views and bookkeeping
# ---------------------------------------------------------------------------------------------


#: Public (R-GATE-4: gate cards are taken openly): the gate space, each player's gate cards
#: in hand and the gates of each Alhambra, the cards in the discard pile, how many are still in
#: the deck (resampled within piles 3-5 by determinization, R-GATE-2) and how many were played,
#: and the window the deciding seat plays gates in (``None`` outside phase ``"gates"``,
#: R-GATE-5); for the pictures, the gate space beside the building market (R-GATE-3) and the
#: gate cards in each hand in that seat's panel. A position's ``[city_gates]`` holds the
#: fields, the space and the window only when they are not empty, and may add gate cards to
#: the hands.
DECLARED = Declared(
    KEY,
    CityGatesState,
    label="city gates",
    phase=PHASE,
    # gate cards in hand are public (R-GATE-4); drawn for the display, they go to the gate space (R-GATE-3)
    deck=DeckKind(GateCard, "gate card", shown=True, drawn_to="space"),
    view=("space", "hands", "gates", "discard", "in_deck", "played", "window"),
    position=("space", "gates", "played", "unused", "hands", "window", "then"),
    words=(TakeGate, PlayGate, FinishGates, BuildThroughGate),
)


@hookimpl
def alhambra_placement_rules(options: dict[str, Any], rules: PlacementRules) -> PlacementRules:
    """R-GATE-7 on top of the rules so far (their ``holes`` and ``walls_match`` kept): a tile
    joined to another by a gate (a side the Alhambra declares open, which the built-in rules
    walk through, R-GATE-6) can be neither moved to the reserve nor swapped."""
    return OpenSidesHeld(
        rules.holes, rules.walls_match, "R-GATE-7: the tile at {pos} is joined to a neighbour by a gate: it stays"
    )


def _why_not_played(gs: CityGatesState) -> str | None:
    """Why the cards played do not match the gates of the Alhambras (R-GATE-5: each gate is one
    card played), or ``None``."""
    if (count := sum(len(s) for s in gs.gates)) != len(gs.played):
        return (
            f"city_gates.played: {len(gs.played)} gate card(s) played for {count} gate(s) in the Alhambras "
            "(R-GATE-5: each gate is one card played)"
        )
    return None


def _why_not_sound(game: Game, gs: CityGatesState) -> str | None:
    """Why a loaded game's gates are not sound, or ``None`` (declared: one list per seat, card
    numbers and the window's values in range, the gates exactly the sides open in each
    Alhambra, phase ``"gates"`` exactly while a window is open; the core: every card exactly
    once, and none in the money display, R-GATE-3): the gates each on a double wall of its
    seat's Alhambra, one card played per gate (R-GATE-5); a removal committed on a turn (the
    turn player, nothing being placed), after a change what follows ``"done"`` or a phase a
    seat decides in, ``"place"`` exactly while a placement is interrupted (R-GATE-5); the
    cards set aside those beyond the game's ``city_gates.cards`` (R-GATE-1)."""
    st = game.state
    for seat, seat_gates in enumerate(gs.gates):
        for g in seat_gates:
            if declared.side_entry(g) and st.players[seat].city.why_not_double_wall((g[0], g[1]), g[2]):
                return f"R-GATE-5: seat {seat}'s gate {g!r} is not on a double wall of its Alhambra"
    if why := _why_not_played(gs):
        return why
    if gs.window == REMOVAL:
        if gs.then or st.place_context or st.decider != st.turn_player:
            return "city gates: gates are played before a removal only by the turn player, on the turn (R-GATE-5)"
    elif gs.window == CHANGE:
        if gs.then != "done" and (gs.then not in game.rules.phase_specs or gs.then in (PHASE, "distribution", "over")):
            return f"city gates: after the window for gates the game goes on with 'done' or a phase, not {gs.then!r}"
        if (gs.then == "place") != bool(st.place_context):
            return "city gates: a window for gates after a placement keeps that placement's context, and only then"
    elif gs.then:
        return f"city gates: nothing follows a window that is not open, not {gs.then!r}"
    aside = list(range(card_count(game) + 1, MAX_CARDS + 1))
    if sorted(gs.unused) != aside:
        return f"R-GATE-1: this game (city_gates.cards) sets aside the gate cards {aside}, not {sorted(gs.unused)}"
    return None


@hookimpl
def alhambra_check_state(game: Game) -> str | None:
    """A loaded game's gates, if they are not sound (:func:`_why_not_sound`)."""
    gs = game.state.modules.get(KEY)
    if gs is None or len(gs.gates) != game.num_players:
        return None  # said by the declared check
    return _why_not_sound(game, gs)


# ---------------------------------------------------------------------------------------------
# Positions (docs/positions.md): the [city_gates] part, its fields read as declared
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_position_read(game: Game, parts: dict[str, Any]) -> list[str] | None:
    """``[city_gates]``, every key optional and read as declared (``hands``: per seat, gate
    cards added to that player's hand, for a hand left to the deal); ``played`` defaults to
    one card per gate, the lowest numbers that lie nowhere else, ``unused`` to the cards
    beyond ``city_gates.cards`` that lie nowhere else (R-GATE-1). Every other gate card in use
    goes into piles 3-5 of a shuffled deck (R-GATE-2). Refused with
    :class:`~alhambra.ConfigError` naming the key: a card not in use lying nowhere (R-GATE-1),
    fewer or more cards played than gates (R-GATE-5); by the core, a gate card in the money
    display (R-GATE-3) or in two places."""
    gs, used, places = game.state.modules[KEY], card_count(game), card_places(game)
    for card in GATE_CARDS[used:]:
        if card not in places:  # the deck's piles receive only the cards in use (R-GATE-2)
            raise ConfigError(
                f"city_gates.unused: {card.code} lies nowhere (this game uses {used} gate cards, "
                f"R-GATE-1: set the others aside in 'unused', or place them)"
            )
    if why := _why_not_played(gs):  # before the core's count of every card, which names no rule
        raise ConfigError(why)
    gs.unused.sort()
    return None
