"""Module "diamonds" (Die Diamanten) of Die Tore der Stadt (R-DIA-1 … R-DIA-7).

Diamond cards are money of a fifth currency (R-DIA-1). They are shuffled into the money
cards before the starting money is dealt (R-DIA-2), so they lie in starting hands, the
display and the five piles like any money; they are taken like money, alone or with other
cards up to a total of 5 (R-DIA-3: the core takes every card with ``is_money``). A building
on any market space may be bought with diamonds alone (R-DIA-4): the :class:`BuyWithDiamonds`
action, overpaying allowed, an exact total earning another action; never mixed with another
currency nor with an exchange office (R-DIA-5). At the end they count for no currency
(R-DIA-7: the core's distribution counts money cards only) and score nothing.

Every diamond is its own card (``diamond-5a``, ``diamond-5b``: the printed deck has two
cards of some values), so saves and accounting find each exactly once. The module keeps no
state: a diamond is always in the deck, the display, a hand or the discard pile.

The vizier may buy with an exact payment in diamonds (R-DIA-6, ruling): the module's
purchase rule (:class:`DiamondPurchaseRule`, through ``alhambra_purchase_rule``) adds the
exact diamond payments, as ``Buy`` actions, to the exact purchases the vizier lists, accepts
a payment all in diamonds on any space, and counts them in the asking round.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from attrs import evolve, field, frozen

from alhambra import (
    Action,
    Buy,
    PurchaseRule,
    ActionDone,
    ActionKind,
    ConfigError,
    Declared,
    DelegatingPurchaseRule,
    DeckKind,
    IllegalActionError,
    InternedCard,
    Option,
    action_table,
    canonical_cards,
    card_names,
    hookimpl,
    operations,
)

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Sequence

    from alhambra import Card, Game, GameLike, Next

KEY = "diamonds"  # the memo and view key of this module (its NAME)
VALUES_OPTION = "diamonds.values"
#: R-DIA-1 (ruling): the ten values all sources name, of the eleven printed cards.
DEFAULT_VALUES: tuple[int, ...] = (3, 4, 5, 5, 6, 6, 7, 7, 8, 9)
CURRENCY = "diamond"

_DIAMONDS: dict[tuple[int, int], Diamond] = {}  # (value, copy) -> the one card
_DIAMOND_SET: set[Diamond] = set()  # every diamond card made so far (a hand without one: a C-speed test)
_RANK: dict[Diamond, int] = {}  # diamond -> its order by value, then copy (as minimal_diamond_payments sorts)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@frozen(slots=True, eq=False, init=False)
class Diamond(InternedCard):
    """A diamond card of ``value`` 1-9; ``copy`` (1, 2, …) tells apart cards of the same
    value. ``code``: ``"diamond-5a"``, ``"diamond-5b"``. One instance per (value, copy), so
    comparing cards compares identities. Money (``is_money``, R-DIA-3) of the currency
    ``"diamond"`` (R-DIA-1). Raises :class:`~alhambra.ConfigError` for a value that is not an
    int 1-9 or a copy that is not an int 1-26."""

    value: int
    copy: int

    is_money = True
    #: ``"diamond"``: the fifth currency (R-DIA-1).
    currency = CURRENCY

    def __new__(cls, value: int, copy: int = 1) -> Diamond:
        found = _DIAMONDS.get((value, copy)) if type(value) is int and type(copy) is int else None
        if found is not None:
            return found
        if type(value) is not int or not 1 <= value <= 9:
            raise ConfigError(f"R-DIA-1: a diamond's value is an int 1-9, not {value!r}")
        if type(copy) is not int or not 1 <= copy <= len(_LETTERS):
            raise ConfigError(f"R-DIA-1: a diamond's copy is an int 1-{len(_LETTERS)}, not {copy!r}")
        card = super().__new__(cls)
        object.__setattr__(card, "value", value)
        object.__setattr__(card, "copy", copy)
        _DIAMONDS[value, copy] = card
        _DIAMOND_SET.add(card)
        _RANK[card] = value * 32 + copy
        return card

    @property
    def code(self) -> str:
        return f"diamond-{self.value}{_LETTERS[self.copy - 1]}"

    def __str__(self) -> str:
        return f"diamond {self.value}"


def diamonds_for(values: Iterable[int]) -> list[Diamond]:
    """The diamond cards of a deck with ``values`` (R-DIA-1), copies numbered per value in
    order: ``diamonds_for([5, 5])`` is ``[diamond-5a, diamond-5b]``."""
    seen: dict[int, int] = {}
    out = []
    for v in values:
        seen[v] = seen.get(v, 0) + 1
        out.append(Diamond(v, seen[v]))
    return out


def _check_values(value: Any) -> str | None:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        return f"a list of diamond values 1-9 (R-DIA-1), not {value!r}"
    if not 1 <= len(value) <= 20:
        return f"between 1 and 20 diamond values, not {len(value)}"
    for v in value:
        if type(v) is not int or not 1 <= v <= 9:
            return f"diamond values are ints 1-9 (R-DIA-1), not {v!r}"
    return None


def _values(options: dict[str, Any]) -> tuple[int, ...]:
    return tuple(options.get(VALUES_OPTION) or DEFAULT_VALUES)


def _no_diamond(instance: Any, attribute: Any, value: Any) -> None:
    if type(value) is not int or not 1 <= value <= 4:
        raise IllegalActionError(f"R-COMP-4: market spaces are numbered 1-4, not {value!r}")


@frozen(slots=True, cache_hash=True)
class BuyWithDiamonds(Action):
    """Buy the building on market ``space`` (1-4), paying ``cards``: diamonds only (R-DIA-4),
    on any space. An exact total earns another action (R-TURN-4); overpaying is allowed."""

    space: int = field(validator=_no_diamond)
    cards: tuple[Diamond, ...] = field(converter=canonical_cards)

    @property
    def via(self) -> None:
        """No card is spent besides the diamonds (never an exchange office, R-DIA-5)."""
        return None

    def __str__(self) -> str:
        return f"buy space {self.space} with {card_names(self.cards)}"


# ---------------------------------------------------------------------------------------------
# Rule set and setup
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_options() -> list[Option]:
    return [
        Option(
            VALUES_OPTION,
            DEFAULT_VALUES,
            "the values of the diamond cards (default: the ten values the sources name)",
            rule="R-DIA-1",
            check=_check_values,
        )
    ]


@hookimpl
def alhambra_cards(options: dict[str, Any]) -> list[Card]:
    """R-DIA-1: the diamond cards, so that saves can name them by code."""
    return list(diamonds_for(_values(options)))


@hookimpl
def alhambra_money_deck(game: Game, cards: list[Card]) -> None:
    """R-DIA-2: the diamonds join the money cards before they are shuffled and the starting
    money dealt (R-TWO-1 removes none: each diamond is a card of its own)."""
    cards.extend(diamonds_for(_values(game.rules.options)))


# ---------------------------------------------------------------------------------------------
# Buying with diamonds (R-DIA-4, R-DIA-5; taking them is the core's R-TURN-2)
# ---------------------------------------------------------------------------------------------


def minimal_diamond_payments(
    diamonds: Sequence[Diamond], price: int, *, exact: bool = False
) -> list[tuple[Diamond, ...]]:
    """The non-dominated ways to pay ``price`` with some of ``diamonds``: sets whose total
    covers the price and from which no card can be left out (R-DIA-4, overpaying allowed);
    only those of total ``price`` with ``exact``. Equal values are chosen once (the first
    cards of each value), in order of increasing total, then of the values."""
    ordered = sorted(diamonds, key=lambda d: (d.value, d.copy))
    found: dict[tuple[int, ...], tuple[Diamond, ...]] = {}
    for k in range(1, len(ordered) + 1):
        for combo in combinations(ordered, k):
            values = tuple(d.value for d in combo)
            if values not in found:
                total = sum(values)
                # covers the price, but not without its smallest card (nor above it with ``exact``)
                if price <= total < price + values[0] and (total == price or not exact):
                    found[values] = combo
    return [found[v] for v in sorted(found, key=lambda v: (sum(v), v))]


#: ``(buy class, exact, space index, diamonds, price)`` -> the purchases of that space paid
#: with some of ``diamonds`` (sorted by value, then copy): shared by every game, since they
#: depend on nothing else (R-DIA-4); emptied when it grows past ``_MEMO_LIMIT``
_PAYMENT_MEMO: dict[tuple[type[Action], bool, int, tuple[Diamond, ...], int], tuple[Action, ...]] = {}
_MEMO_LIMIT = 50_000


def _diamond_purchases(game: GameLike, seat: int, exact: bool, cls: type[Action]) -> Sequence[Any]:
    """``seat``'s purchases paid all in diamonds (R-DIA-4), as actions ``cls`` (the turn's
    :class:`BuyWithDiamonds`, or the ``Buy`` of the vizier's exact purchases, R-DIA-6) space
    by space, each space's payments as :func:`minimal_diamond_payments` lists them (only exact
    ones with ``exact``). Kept per seat with copies of the hand and the market it was made for;
    do not change the sequence returned."""
    hand = game.state.players[seat].hand
    if _DIAMOND_SET.isdisjoint(hand):
        return ()
    market = game.state.market
    key = (KEY, cls, exact, seat)
    last: tuple[list[Card], list[Any], Sequence[Any]] | None = operations.memo(game).get(key)
    if last is not None and last[0] == hand and last[1] == market:
        return last[2]
    mine = [c for c in hand if type(c) is Diamond]
    mine.sort(key=_RANK.__getitem__)
    cards = tuple(mine)
    prices = game.rules.space_prices
    memo = _PAYMENT_MEMO
    out: list[Any] = []
    for i, tile in enumerate(market):
        if tile is None:
            continue
        price = prices[i][tile]
        found = memo.get((cls, exact, i, cards, price))
        if found is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            table = action_table(cls)
            combos = minimal_diamond_payments(cards, price, exact=exact)
            if cls is BuyWithDiamonds:
                found = tuple([table[i + 1, combo] for combo in combos])
            else:  # a Buy's third field: no exchange office
                found = tuple([table[i + 1, combo, None] for combo in combos])
            memo[cls, exact, i, cards, price] = found
        out += found
    operations.memo(game)[key] = (hand.copy(), market.copy(), out)
    return out


def _legal_buy(game: Game, seat: int) -> Sequence[Action]:
    """R-DIA-4: the purchases in diamonds of the turn (overpaying included)."""
    return _diamond_purchases(game, seat, False, BuyWithDiamonds)


def check_diamond_payment(game: GameLike, seat: int, action: Any) -> int:
    """Check that ``action`` is a legal purchase in diamonds for ``seat`` now and return the
    price. Raises :class:`~alhambra.IllegalActionError` naming the rule: empty space, a card
    that is not a diamond (R-DIA-4), a card not in hand, too little."""
    if type(action) is not BuyWithDiamonds:
        raise IllegalActionError(f"{action!r} is not a purchase in diamonds")
    tile = game.state.market[action.space - 1]
    if tile is None:
        raise IllegalActionError(f"R-TURN-3: market space {action.space} is empty")
    if not action.cards:
        raise IllegalActionError("R-DIA-4: a purchase in diamonds needs at least one diamond")
    remaining = list(game.state.players[seat].hand)
    for c in action.cards:
        if type(c) is not Diamond:
            raise IllegalActionError(f"R-DIA-4: a payment in diamonds is all diamonds, never mixed: {c!r}")
        try:
            remaining.remove(c)
        except ValueError:
            raise IllegalActionError(f"R-TURN-3: {c} is not in the player's hand") from None
    price = game.rules.space_prices[action.space - 1][tile]
    total = sum(c.value for c in action.cards)
    if total < price:
        raise IllegalActionError(f"R-TURN-3: {total} does not cover the price {price} of tile {tile}")
    return price


def _check_buy(game: Game, seat: int, action: Any) -> None:
    check_diamond_payment(game, seat, action)  # raises; otherwise an accepted overpayment


def _apply_buy(game: Game, seat: int, action: Any) -> Next | None:
    """R-DIA-4 (R-TURN-3/4): the diamonds go face up to the discard pile, the building is set
    aside for placement; an exact total earns another action."""
    st = game.state
    tile = st.market[action.space - 1]
    price = game.rules.space_prices[action.space - 1][tile]
    for c in action.cards:
        st.players[seat].hand.remove(c)
    st.discard.extend(action.cards)
    st.market[action.space - 1] = None
    operations.add_pending(game, tile, dirk_ok=True)
    return ActionDone(extra=sum(c.value for c in action.cards) == price)


def _diamonds_paid(action: Any) -> list[Diamond]:
    """The diamonds among the cards the payment ``action`` pays (none without ``cards``)."""
    cards = getattr(action, "cards", None)
    return [c for c in cards if type(c) is Diamond] if isinstance(cards, tuple) else []


def diamond_refusal(action: Any, turn: bool = False) -> str | None:
    """Why a payment ``action`` (a ``Buy`` or the vizier's ``UseVizier``: ``cards``, ``via``)
    holding a diamond is refused whatever it buys, or ``None``: diamonds pay only all diamonds
    (R-DIA-4: never mixed with the space's currency) and never with an exchange office
    (R-DIA-5). A payment without diamonds, or all in diamonds without ``via``, gets ``None``;
    with ``turn``, the turn's ``Buy`` all in diamonds is refused too, since the turn's purchase
    in diamonds is the listed :class:`BuyWithDiamonds` (the vizier's exact purchase in
    diamonds, R-DIA-6, is its own ``UseVizier``)."""
    diamonds = _diamonds_paid(action)
    if not diamonds:
        return None
    if getattr(action, "via", None) is not None:
        return "R-DIA-5: an exchange office cannot be played together with diamonds"
    others = [c for c in action.cards if type(c) is not Diamond]
    if others:
        return (
            f"R-DIA-4: one payment is either all diamonds (BuyWithDiamonds) or in the space's currency, "
            f"never a mix: {card_names(diamonds)} with {card_names(others)}"
        )
    if turn:
        return (
            f"R-DIA-4: a building is bought with diamonds by BuyWithDiamonds({action.space}, ...) "
            f"(all diamonds, on any market space), not by Buy"
        )
    return None


@hookimpl
def alhambra_action_kind(options: dict[str, Any], kind: ActionKind) -> ActionKind | None:
    """R-DIA-4, R-DIA-5: the turn's ``Buy`` refuses diamonds (:func:`diamond_refusal`)
    before its own check. Only the check changes: a listed ``Buy`` never holds a diamond (the
    turn lists payments in the space's currency, or through an office), so the listing, on
    every state's hot path, stays as it is."""
    if kind.action is not Buy:
        return None
    check = kind.check

    def checked(game: Game, seat: int, action: Any) -> None:
        why = diamond_refusal(action, turn=True)
        if why is not None:
            raise IllegalActionError(why)
        if check is not None:
            check(game, seat, action)

    return evolve(kind, check=checked)


#: ``operations.memo(game)`` keys: per seat, the totals its diamonds can pay exactly (a bitset, kept with
#: a copy of the hand); the market prices as a bitset (kept with a copy of the market)
_REACH = tuple((KEY, "reach", seat) for seat in range(8))
_PRICES = (KEY, "prices")


class DiamondPurchaseRule(DelegatingPurchaseRule):
    """The purchase rule so far (``inner``) with payments all in diamonds on any space
    (R-DIA-4) among the exact purchases of the vizier (R-DIA-6), its checks and its asking
    round. The turn's purchases in diamonds are :class:`BuyWithDiamonds`: the turn's ``Buy``
    kind refuses diamonds (:func:`alhambra_action_kind`). A payment mixing diamonds with other
    cards, or diamonds with an exchange office, is refused with its rule (R-DIA-4, R-DIA-5)."""

    __slots__ = ()

    def cached_purchases(self, game: GameLike, seat: int, exact: bool = False) -> Sequence[Buy]:
        found = self.inner.cached_purchases(game, seat, exact)
        if not exact:
            return found
        more = _diamond_purchases(game, seat, True, Buy)
        return [*found, *more] if more else found

    def check_payment(self, game: GameLike, seat: int, action: Buy) -> int:
        why = diamond_refusal(action)
        if why is not None:
            raise IllegalActionError(why)
        cards = getattr(action, "cards", None)
        if isinstance(cards, tuple) and cards and type(cards[0]) is Diamond:  # no mix (above): all diamonds, R-DIA-6
            return check_diamond_payment(game, seat, BuyWithDiamonds(action.space, cards))
        return self.inner.check_payment(game, seat, action)

    def first_exact_payer(self, game: GameLike, seats: Iterable[int]) -> int | None:
        """The first of ``seats`` that can pay exactly through the rule so far or in
        diamonds (R-DIA-6). ``seats`` is read up to the first that can pay exactly in
        diamonds (:func:`pays_exactly_in_diamonds`); the rule so far is then asked once,
        about the seats before it."""
        try:
            it = iter(seats)
        except TypeError:
            raise ConfigError(f"seats must be an iterable of seats, not {seats!r}") from None
        n = len(game.state.players)
        before: list[int] = []
        for seat in it:
            if type(seat) is not int or not 0 <= seat < n:
                operations.check_seat(game, seat)  # raises
            if pays_exactly_in_diamonds(game, seat):
                first = self.inner.first_exact_payer(game, before) if before else None
                return seat if first is None else first
            before.append(seat)
        return self.inner.first_exact_payer(game, before) if before else None


def pays_exactly_in_diamonds(game: GameLike, seat: int) -> bool:
    """True if some of ``seat``'s diamonds add up exactly to the price of a building on the
    market (R-DIA-4, R-DIA-6): the test behind :meth:`DiamondPurchaseRule.first_exact_payer`,
    a subset sum over the diamonds' values as one bitset (kept with the hand), against the
    prices as one bitset (kept with the market). The same answer as "some exact purchase in
    diamonds is listed", without listing them. ``seat`` is not checked."""
    hand = game.state.players[seat].hand
    if _DIAMOND_SET.isdisjoint(hand):
        return False
    memo = operations.memo(game)
    key = _REACH[seat]
    last = memo.get(key)
    if last is None or last[0] != hand:
        sums = 1
        for c in hand:
            if type(c) is Diamond:
                sums |= sums << c.value
        last = memo[key] = (hand.copy(), sums & ~1)  # at least one diamond
    market = game.state.market
    wanted = memo.get(_PRICES)
    if wanted is None or wanted[0] != market:
        prices = game.rules.space_prices
        bits = 0
        for i, tile in enumerate(market):
            if tile is not None:
                bits |= 1 << prices[i][tile]
        wanted = memo[_PRICES] = (market.copy(), bits)
    return bool(last[1] & wanted[1])


@hookimpl
def alhambra_purchase_rule(options: dict[str, Any], rule: PurchaseRule) -> PurchaseRule:
    """R-DIA-6: the vizier may pay exactly in diamonds (see :class:`DiamondPurchaseRule`)."""
    return DiamondPurchaseRule(rule)


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [ActionKind(BuyWithDiamonds, {"turn"}, _legal_buy, _apply_buy, _check_buy, unlisted=True)]


# ---------------------------------------------------------------------------------------------
# Declared: what the engine keeps track of
# ---------------------------------------------------------------------------------------------

#: Views show the diamonds in the money display and the discard pile, and the seat's own (a
#: hand is secret, R-SET-3); being money, the core redeals them when determinizing (R-DIA-2).
DECLARED = Declared(
    KEY, label="diamonds", deck=DeckKind(Diamond, "diamond", resample=False), view=("display", "discard", "hand")
)
