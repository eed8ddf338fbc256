"""Built-in plugin ``core.purchase``: buying a building from the market (R-TURN-3, R-TURN-4),
exact payment, payment means (R-EXC-4) and the vizier's asking round (R-VIZ-2, R-VIZ-5).

Everything about paying lives here: listing the non-dominated payments, checking a payment,
carrying one out, the exact-payment bitsets and the ``Buy`` action kind. The rule as a whole
is the :class:`PurchaseRule` object the rule set resolves (``game.rules.purchase``, through
the hook ``alhambra_purchase_rule``); :class:`~alhambra.Game`'s purchase methods
(``game.rules.purchase.purchases(game, seat)``, ``game.rules.purchase.check_payment(game, seat, buy)``, ``game.rules.purchase.first_exact_payer(game, seats)``
…), the ``Buy`` kind, the vizier, ``view()``, the bots and the environments all reach it there,
so a plugin that replaces it is followed by every caller.

The price of the building on a market space is read from the rule set's per-space price
tables (``rules.space_prices``, see :func:`alhambra.hookspec.alhambra_building_price`), never
from the printed price in the catalogue, so a house rule that changes prices (a market tax)
changes every reader at once: listing, checking, exactness, the vizier, ``view()`` and the bots.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from attrs import define

from ..engine.actions import Action, ActionKind, Buy, PaymentMeans, action_table
from ..engine.components import MARKET_CURRENCIES, MONEY_LANE, MONEY_RANK, MONEY_VALUES, MoneyCard, made_cards
from ..engine.operations import add_pending
from ..engine.payment import minimal_payments
from ..engine.sequence import ActionDone
from ..errors import ConfigError, IllegalActionError
from ..hookspec import hookimpl

from ..engine.protocol import check_seat

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import GameLike

_ONE_CURRENCY: dict[str, frozenset[str]] = {c: frozenset((c,)) for c in MARKET_CURRENCIES}


def _currency_cards(hand: list[Any], currency: str) -> tuple[Any, ...]:
    """The money cards of ``currency`` in ``hand``, sorted by value."""
    return tuple(
        sorted([c for c in hand if type(c) is MoneyCard and c.currency == currency], key=MONEY_RANK.__getitem__)
    )


_NOT_MONEY = (4, 1)  # a card that is not money: counted in a fifth slot


def _money_keys(hand: list[Any]) -> list[Any]:
    """Per market space (index 0-3), a hashable key for the hand's money cards of the space's
    currency, equal for hands with the same such cards in any order (the payments memo's
    key): an int, the sum of their ``MONEY_LANE`` numbers, or for a hand of 16 or more cards,
    where 4 bits could overflow, :func:`_currency_cards`; then (index 4) how many cards of the
    hand are not money. Do not change the list returned."""
    if len(hand) < 16:
        keys = [0, 0, 0, 0, 0]
        lane = MONEY_LANE.get
        for card in hand:
            i, code = lane(card, _NOT_MONEY)
            keys[i] += code
        return keys
    return [*[_currency_cards(hand, cur) for cur in MARKET_CURRENCIES], sum([type(c) is not MoneyCard for c in hand])]


#: a payment means' currencies -> an itemgetter of their lanes in the money keys
_LANES: dict[Any, Any] = {}


def _lanes(currencies: frozenset[str]) -> itemgetter[Any]:
    """Picks the money keys (``_money_keys``) of ``currencies``: an int for one currency, a
    tuple for several."""
    lanes = _LANES.get(currencies)
    if lanes is None:
        lanes = _LANES[currencies] = itemgetter(*[j for j, c in enumerate(MARKET_CURRENCIES) if c in currencies])
    return lanes


#: an int money key (value counts) -> the totals those cards pay exactly, shared by all games
_REACH: dict[Any, Any] = {}


def _reach_of(key: int) -> int:
    """Bit v set: some of the cards counted in money key ``key`` (4 bits per value, see
    ``MONEY_LANE``) add up to exactly v. Keys of several currencies add up to the key of all
    their cards (a hand of fewer than 16 cards never fills 4 bits)."""
    found = _REACH.get(key)
    if found is None:
        if len(_REACH) >= 50_000:
            _REACH.clear()
        found = 1
        for v in MONEY_VALUES:
            for _ in range(key >> 4 * v & 15):
                found |= found << v
        _REACH[key] = found
    return found


def _exact_sums(hand: list[Any], currencies: frozenset[str]) -> int:
    """Bit v set: some money cards of ``hand`` in ``currencies`` add up to exactly v."""
    found = 1
    for c in hand:
        if type(c) is MoneyCard and c.currency in currencies:
            found |= found << c.value
    return found


@define(slots=True)
class PurchaseMemo:
    """One game's derived purchase values, each kept with copies of what it came from (so a
    stale one is never used): ``buys``: per ``seat * 2 + exact``, ``(hand, market, purchases,
    money keys)``; ``reach``: per seat, ``(hand, exact-reach bitset)`` (see
    :func:`_exact_reach`); ``wanted``: ``(market, price bitset)``; ``means``: per seat,
    ``(hand, payment means)``. It lives in the game's scratch dict, ``game.memo`` (under
    :data:`MEMO_KEY`), like any plugin's derived values: dropped with it, and copied with it
    by a clone, which then copies the first three for itself (their values are never changed
    in place) and asks the means afresh. ``owner``: the ``id`` of the game it belongs to."""

    buys: dict[Any, Any]
    reach: list[Any]
    wanted: tuple[Any, ...]
    means: dict[Any, Any]
    owner: int = 0

    @classmethod
    def fresh(cls, players: int, owner: int = 0) -> "PurchaseMemo":
        """An empty memo for a game of ``players`` seats."""
        return cls({}, [(None, 0)] * players, (None, 0), {}, owner)

    def clone(self, owner: int = 0) -> "PurchaseMemo":
        """The memo of a clone of the game (see the class docstring)."""
        return PurchaseMemo(self.buys.copy(), self.reach.copy(), self.wanted, {}, owner)


#: the key of a game's :class:`PurchaseMemo` in ``game.memo``
MEMO_KEY = "core.purchase"


def purchase_memo(game: GameLike) -> PurchaseMemo:
    """``game``'s :class:`PurchaseMemo` (in ``game.memo``): made on first use, and copied for
    a clone the first time the clone asks (its memo dict starts as a copy of the original's)."""
    found: PurchaseMemo | None = game._memo.get(MEMO_KEY)
    me = id(game)
    if found is None:
        found = game._memo[MEMO_KEY] = PurchaseMemo.fresh(len(game.state.players), me)
    elif found.owner != me:
        found = game._memo[MEMO_KEY] = found.clone(me)
    return found


def market_price(game: GameLike, space: int) -> int | None:
    """The price to pay for the building on market ``space`` (1-4) now, or ``None`` for an
    empty space: the printed price (R-COMP-2) as the rule set's price hook makes it
    (``alhambra_building_price``). Raises :class:`ConfigError` for a bad space."""
    if type(space) is not int or not 1 <= space <= 4:
        raise ConfigError(f"R-COMP-4: market spaces are numbered 1-4, not {space!r}")
    tile = game.state.market[space - 1]
    return None if tile is None else game.rules.space_prices[space - 1][tile]


def purchases(game: GameLike, seat: int, *, exact: bool = False) -> list[Buy]:
    """Every non-dominated purchase ``seat`` can make now, over all four market spaces
    (see :func:`payments`); with ``exact``, only exact payments (R-TURN-4, R-VIZ-2).
    Raises :class:`ConfigError` for a seat that is not an int 0 … players-1."""
    check_seat(game, seat)
    return list(cached_purchases(game, seat, exact))


def cached_purchases(game: GameLike, seat: int, exact: bool = False) -> list[Buy]:
    """:func:`purchases` for rule plugins: ``seat`` is not checked, and the list returned
    is the cached one (do not change it).

    Purchases depend only on the hand (payment means are cards in hand) and the market:
    the last answer per seat is kept with copies of both, so asking again while neither
    changed costs two list comparisons."""
    st = game.state
    hand = st.players[seat].hand
    market = st.market
    exact = exact is True or (exact is not False and bool(exact))  # a look-alike: its truth
    key = seat * 2 + exact
    memo = purchase_memo(game)
    last = memo.buys.get(key)
    if last is not None and last[0] == hand:
        if last[1] == market:
            cached: list[Buy] = last[2]
            return cached
        keys = last[3]
    else:
        keys = _money_keys(hand)
    means = _means_of(game, seat, keys[4]) if game.rules.has_payment_means else None
    if means:
        found: list[Buy] = []
        for i in range(4):  # space by space: its own currency, then each means
            found += _plain_payments(game, hand, market, keys, exact, i)
            found += _means_payments(game, hand, market, keys, means, exact, i)
    else:
        found = _plain_payments(game, hand, market, keys, exact)
    memo.buys[key] = (hand.copy(), market.copy(), found, keys)
    return found


def _plain_payments(
    game: GameLike, hand: list[Any], market: list[Any], keys: list[Any], exact: bool, only: int | None = None
) -> list[Buy]:
    """The purchases paid in each space's own currency (R-TURN-3), for all four spaces at
    once (or for space index ``only``). ``keys``: the hand's ``_money_keys``. Memo:
    ``rules.buy_memo[exact][space index]``, ``(key, price)`` -> the Buy actions."""
    memos = game.rules.buy_memo[exact]
    prices = game.rules.space_prices
    found: list[Buy] = []
    for i in range(4) if only is None else (only,):
        tile = market[i]
        if tile is None:
            continue
        sub = keys[i]
        if not sub:
            continue  # no card of this space's currency
        price = prices[i][tile]
        memo = memos[i]
        out = memo.get((sub, price))
        if out is None:
            if len(memo) >= game.rules.memo_limit // 4:  # the eight together stay near the limit
                memo.clear()
            cards = _currency_cards(hand, MARKET_CURRENCIES[i])
            table = action_table(Buy)
            # a tuple: the empty ones are all the one ``()``, and tuples are smaller than lists
            out = memo[sub, price] = tuple([table[i + 1, p] for p in minimal_payments(cards, price, exact=exact)])
        found += out
    return found


def _means_payments(
    game: GameLike,
    hand: list[Any],
    market: list[Any],
    keys: list[Any],
    means: Sequence[PaymentMeans],
    exact: bool,
    i: int,
) -> list[Buy]:
    """The purchases of space index ``i`` through payment ``means`` (R-EXC-4), in their
    order, that the plain ones cannot offer (some card of another currency than the
    space's). Memo entries: ``("via", the means' currencies, their keys,
    price, exact, space index, via)`` -> the Buy actions."""
    tile = market[i]
    if tile is None:
        return []
    cur = MARKET_CURRENCIES[i]
    price = game.rules.space_prices[i][tile]
    memo = game.rules.memo
    found: list[Buy] = []
    for m in means:
        curs = m.currencies
        if cur not in curs:
            continue
        key = ("via", curs, _lanes(curs)(keys), price, exact, i, m.via)
        out = memo.get(key)
        if out is None:
            if len(memo) >= game.rules.memo_limit:
                memo.clear()
            wide = [c for c in hand if type(c) is MoneyCard and c.currency in curs]
            own = {c for c in wide if c.currency == cur}  # a payment of these alone is a plain one
            table = action_table(Buy)
            out = memo[key] = tuple(
                [
                    table[i + 1, cards, m.via]
                    for cards in minimal_payments(wide, price, exact=exact)
                    if not own.issuperset(cards)
                ]
            )
        found += out
    return found


def can_pay_exactly(game: GameLike, seat: int) -> bool:
    """True if ``seat`` can buy some market building with an exact payment now, through
    any payment means (R-TURN-4, R-VIZ-2). A subset-sum over card values, much cheaper
    than listing the payments: the totals the hand can pay exactly in each space's allowed
    currencies, as one bitset with a lane per market space (kept with the hand), against
    the market's prices as one bitset of the same shape (kept with the market).
    Raises :class:`ConfigError` for a seat that is not an int 0 … players-1."""
    check_seat(game, seat)
    return first_exact_payer(game, (seat,)) is not None


def first_exact_payer(game: GameLike, seats: Iterable[int]) -> int | None:
    """The first of ``seats`` that :func:`can_pay_exactly`, or None: the vizier's asking
    round (R-VIZ-2, R-VIZ-5) in one call. ``seats`` is read lazily, up to the first that
    can pay. Raises :class:`ConfigError` for a seat that is not an int 0 … players-1, or
    for ``seats`` that are not iterable."""
    try:
        seats = iter(seats)
    except TypeError:
        raise ConfigError(f"seats must be an iterable of seats, not {seats!r}") from None
    st = game.state
    players = st.players
    n = len(players)
    memo = purchase_memo(game)
    wanted = memo.wanted
    market = st.market
    if wanted[0] != market:
        b0, b1, b2, b3 = game.rules.price_lanes
        t0, t1, t2, t3 = market
        wanted = memo.wanted = (market.copy(), b0[t0] | b1[t1] | b2[t2] | b3[t3])
    bits = wanted[1]
    reach = memo.reach
    for seat in seats:  # lazily: the first that can pay ends the round
        if type(seat) is not int or not 0 <= seat < n:
            check_seat(game, seat)  # raises
        hand = players[seat].hand
        last = reach[seat]
        if last[0] != hand:
            last = reach[seat] = (hand.copy(), _exact_reach(game, seat, hand))
        if last[1] & bits:
            return seat
    return None


def _exact_reach(game: GameLike, seat: int, hand: list[Any]) -> int:
    """Bit ``price_bits * i + v`` set when ``hand`` can pay exactly v for market space
    index i (0-3), in the space's currency or through a payment means that allows it
    (R-TURN-3, R-EXC-4); totals above every price are left out."""
    keys = _money_keys(hand)
    means = _means_of(game, seat, keys[4]) if game.rules.has_payment_means else ()
    width = game.rules.price_bits
    lane = (1 << width) - 2  # totals 1 … width-1: an exact payment needs at least one card (R-TURN-3)
    counted = len(hand) < 16  # the keys count values (see _money_keys): they add up
    wide: dict[Any, Any] = {}  # the means' currency sets -> their sums
    out = 0
    for i, cur in enumerate(MARKET_CURRENCIES):
        reach = _reach_of(keys[i]) if counted else _exact_sums(hand, _ONE_CURRENCY[cur])
        for m in means:
            curs = m.currencies
            if cur in curs:
                more = wide.get(curs)
                if more is None:
                    if counted:
                        key = _lanes(curs)(keys)
                        more = _reach_of(key if type(key) is int else sum(key))
                    else:
                        more = _exact_sums(hand, curs)
                    wide[curs] = more
                reach |= more
        out |= (reach & lane) << (width * i)
    return out


def _means_of(game: GameLike, seat: int, others: int) -> Sequence[PaymentMeans]:
    """The payment means plugins offer ``seat`` (``alhambra_payment_means``), asked again
    whenever the seat's hand differs (means are cards in hand, so they depend on it alone).
    ``others``: how many cards of the hand are not money (``_money_keys(hand)[4]``); with
    none, the hand has no means and the plugins are not asked. Raises
    :class:`ConfigError` if a plugin offers a money card as a means."""
    if others == 0:
        return ()
    hand = game.state.players[seat].hand
    memo = purchase_memo(game)
    cached = memo.means.get(seat)
    if cached is None or cached[0] != hand:
        groups = game.rules.fast.alhambra_payment_means(game=game, seat=seat)
        means = [m for group in groups for m in group] if groups else []
        for m in means:
            if type(m.via) is MoneyCard:
                raise ConfigError(
                    f"alhambra_payment_means offered the money card {m.via} as a payment "
                    "means; a means is a card that is not money (an exchange office, say)"
                )
        cached = memo.means[seat] = (hand.copy(), means)
    return cached[1]


#: card -> its :class:`PaymentMeans` (:func:`means_in_hand`), one shared instance per card
_CARD_MEANS: dict[Any, PaymentMeans] = {}


def means_in_hand(hand: Sequence[Any], cls: type[Any]) -> list[PaymentMeans] | None:
    """For ``alhambra_payment_means``: the cards of the :class:`~alhambra.InternedCard` class
    ``cls`` in ``hand`` (equal ones once, in hand order), each a :class:`PaymentMeans` paying in
    the card's ``currencies`` (the exchange offices, R-EXC-4), one shared instance per card;
    ``None`` for a hand holding none (:func:`~alhambra.made_cards`: found at C speed)."""
    if made_cards(cls).isdisjoint(hand):
        return None
    found = []
    for card in dict.fromkeys([c for c in hand if type(c) is cls]):
        means = _CARD_MEANS.get(card)
        if means is None:
            means = _CARD_MEANS[card] = PaymentMeans(card, frozenset(card.currencies))
        found.append(means)
    return found


def payment_cards(game: GameLike, seat: int, space: int) -> list[tuple[Any, frozenset[str]]]:
    """The ways ``seat`` may pay for market ``space``: ``[(via, currencies), ...]``, first
    the space's own currency with ``via=None`` (R-TURN-3), then module means (R-EXC-4)."""
    cur = MARKET_CURRENCIES[space - 1]
    out: list[tuple[Any, frozenset[str]]] = [(None, _ONE_CURRENCY[cur])]
    if game.rules.has_payment_means:
        others = _money_keys(game.state.players[seat].hand)[4]
        out.extend((m.via, m.currencies) for m in _means_of(game, seat, others) if cur in m.currencies)
    return out


def payments(
    game: GameLike, seat: int, space: int, *, exact: bool = False, pool: tuple[Any, ...] | None = None
) -> list[Buy]:
    """Every non-dominated way for ``seat`` to buy the building on ``space`` now, as
    :class:`Buy` actions (only exact payments with ``exact``). Empty if the space is empty.
    The purchases of :func:`purchases` for this space, in the same order.

    Payments through a module's means (an exchange office) are listed only when they use
    a currency the plain payment could not; ``apply`` still accepts the others. ``pool``
    is ignored (it once passed the hand's cards of the space's currency; the payments are
    now memoised by the hand's money code). Raises :class:`ConfigError` for a bad seat or
    space."""
    st = game.state
    check_seat(game, seat)
    if type(space) is not int or not 1 <= space <= 4:
        raise ConfigError(f"R-COMP-4: market spaces are numbered 1-4, not {space!r}")
    exact = bool(exact)
    hand = st.players[seat].hand
    keys = _money_keys(hand)
    out = list(_plain_payments(game, hand, st.market, keys, exact, space - 1))
    means = _means_of(game, seat, keys[4]) if game.rules.has_payment_means else None
    if means:
        out += _means_payments(game, hand, st.market, keys, means, exact, space - 1)
    return out


def pay(game: GameLike, seat: int, action: Buy) -> Any:
    """Carry out a checked payment: the cards (and any means card, R-EXC-5) go from
    ``seat``'s hand to the discard pile, face up (R-TURN-3), and the building leaves the
    market (not refilled during the turn, R-TURN-4). Returns the building's tile id."""
    st = game.state
    hand = st.players[seat].hand
    for c in action.cards:
        hand.remove(c)
    st.discard.extend(action.cards)
    if action.via is not None:
        hand.remove(action.via)
        st.discard.append(action.via)
    tile = st.market[action.space - 1]
    st.market[action.space - 1] = None
    return tile


def check_payment(game: GameLike, seat: int, action: Buy) -> int:
    """Check that ``action`` is a legal payment for ``seat`` now and return the price.

    Raises :class:`IllegalActionError` naming the rule: empty space, card not in hand,
    wrong currency, unknown means, too little money (R-TURN-3, R-EXC-4)."""
    st = game.state
    if not isinstance(action, Action) or not hasattr(action, "space") or not hasattr(action, "cards"):
        raise IllegalActionError(f"{action!r} is not a purchase")
    if type(action.space) is not int or not 1 <= action.space <= 4:
        raise IllegalActionError(f"R-COMP-4: market spaces are numbered 1-4, not {action.space!r}")
    if st.market[action.space - 1] is None:
        raise IllegalActionError(f"R-TURN-3: market space {action.space} is empty")
    means = dict(payment_cards(game, seat, action.space))
    if action.via not in means:
        raise IllegalActionError(f"R-EXC-4: {action.via!r} cannot pay for space {action.space}")
    curs = means[action.via]

    def refuse(c: Any) -> str | None:
        if type(c) is not MoneyCard:
            return f"R-TURN-3: {c!r} is not a money card"
        if c.currency not in curs:
            return f"R-TURN-3: space {action.space} is paid in {MARKET_CURRENCIES[action.space - 1]}, not {c.currency}"
        return None

    return check_paid(
        game, seat, action.space, action.cards, refuse, "R-TURN-3: a purchase needs at least one money card", action.via
    )


def check_paid(
    game: GameLike,
    seat: int,
    space: int,
    cards: Sequence[Any],
    refuse: Callable[[Any], str | None],
    none: str,
    spent: Any = None,
) -> int:
    """The price of the building on market ``space`` (1-4) that ``seat`` pays with ``cards``
    (their ``value`` added up) besides the card ``spent`` (a payment means, or ``None``): for a
    payment check, the core's and a module's. Raises :class:`IllegalActionError`, in this
    order: an empty space (R-TURN-3); no card (``none``, the sentence saying so); a card that
    ``refuse(card)`` answers a sentence for (naming the rule: not money, another currency); a
    card not in the hand (R-TURN-3); a total below the price (R-TURN-3)."""
    st = game.state
    tile = st.market[space - 1]
    if tile is None:
        raise IllegalActionError(f"R-TURN-3: market space {space} is empty")
    if not cards:
        raise IllegalActionError(none)
    remaining = list(st.players[seat].hand)
    if spent is not None:
        remaining.remove(spent)
    for c in cards:
        why = refuse(c)
        if why is not None:
            raise IllegalActionError(why)
        try:
            remaining.remove(c)
        except ValueError:
            raise IllegalActionError(f"R-TURN-3: {c} is not in the player's hand") from None
    price: int = game.rules.space_prices[space - 1][tile]
    total = sum(c.value for c in cards)
    if total < price:
        raise IllegalActionError(f"R-TURN-3: {total} does not cover the price {price} of tile {tile}")
    return price


# ---------------------------------------------------------------------------------------------
# The Buy action kind (R-TURN-3, R-TURN-4)
# ---------------------------------------------------------------------------------------------


def _legal_buy(game: GameLike, seat: int) -> Sequence[Buy]:
    rule = game.rules.purchase
    if rule is BASE_PURCHASE_RULE:  # the built-in rule, called directly on the hot path
        return cached_purchases(game, seat)
    return rule.cached_purchases(game, seat)


def _check_buy(game: GameLike, seat: int, action: Any) -> None:  # a Buy, or a look-alike to refuse
    game.rules.purchase.check_payment(game, seat, action)  # raises with the reason


def apply_purchase(game: GameLike, seat: int, action: Any) -> ActionDone:
    """The ``apply`` of the ``Buy`` kind, and of a module's purchase action (``space``,
    ``cards``, ``via``) checked as the engine checks: R-TURN-3/4, pay through the purchase rule
    (cards and any means card to the discard), set the building aside; an exact payment (of
    the price on its space) earns another action (:meth:`PurchaseRule.earns_extra_action`).
    The market is not refilled during the turn."""
    rule = game.rules.purchase
    if rule is BASE_PURCHASE_RULE:  # the built-in rule, called directly on the hot path
        price: int | None = game.rules.space_prices[action.space - 1][game.state.market[action.space - 1]]
        tile = pay(game, seat, action)
        add_pending(game, tile, dirk_ok=True)
        return ActionDone(extra=sum([c.value for c in action.cards]) == price)
    price = rule.market_price(game, action.space)
    tile = rule.pay(game, seat, action)  # the engine has checked the payment
    add_pending(game, tile, dirk_ok=True)
    return ActionDone(extra=rule.earns_extra_action(game, seat, action, price))


class PurchaseRule:
    """The purchase rule of a game (R-TURN-3, R-TURN-4, R-VIZ-2, R-EXC-4): the object every
    caller asks (``game.rules.purchase``): the ``Buy`` kind, :class:`~alhambra.Game`'s
    purchase methods, the vizier's exact purchases and asking round, ``view()``'s market
    prices, the bots (through the legal actions) and the environments.

    The methods of this class are the built-in rule (``core.purchase``). A plugin changes the
    rule with the hook ``alhambra_purchase_rule(options, rule)``: return a subclass instance
    overriding what changes (:meth:`earns_extra_action` for "an exact payment earns nothing",
    or :meth:`market_price`, :meth:`cached_purchases`, :meth:`check_payment` and
    :meth:`first_exact_payer` for a purchase rule of its own). ``seat`` is an int 0 …
    players-1 (checked by the public methods), ``space`` a market space 1-4."""

    __slots__ = ()

    def market_price(self, game: GameLike, space: int) -> int | None:
        """The price of the building on ``space`` now, ``None`` for an empty space."""
        return market_price(game, space)

    def cached_purchases(self, game: GameLike, seat: int, exact: bool = False) -> Sequence[Buy]:
        """Every non-dominated purchase of ``seat`` now (exact payments only with
        ``exact``), not checked and possibly cached: do not change the list returned."""
        return cached_purchases(game, seat, exact)

    def purchases(self, game: GameLike, seat: int, *, exact: bool = False) -> list[Buy]:
        """:meth:`cached_purchases` with ``seat`` checked, as a new list."""
        check_seat(game, seat)
        return list(self.cached_purchases(game, seat, exact))

    def payments(self, game: GameLike, seat: int, space: int, *, exact: bool = False) -> list[Buy]:
        """The purchases of :meth:`purchases` for ``space``."""
        if type(self).cached_purchases is PurchaseRule.cached_purchases:
            return payments(game, seat, space, exact=exact)
        if type(space) is not int or not 1 <= space <= 4:
            raise ConfigError(f"R-COMP-4: market spaces are numbered 1-4, not {space!r}")
        return [b for b in self.purchases(game, seat, exact=exact) if b.space == space]

    def payment_cards(self, game: GameLike, seat: int, space: int) -> list[tuple[Any, frozenset[str]]]:
        """The ways ``seat`` may pay for ``space``: ``[(via, currencies), ...]``."""
        return payment_cards(game, seat, space)

    def check_payment(self, game: GameLike, seat: int, action: Buy) -> int:
        """Check that ``action`` is a legal payment for ``seat`` now and return the price;
        :class:`~alhambra.IllegalActionError` naming the rule otherwise."""
        return check_payment(game, seat, action)

    def pay(self, game: GameLike, seat: int, action: Buy) -> Any:
        """Carry out a checked payment and return the building's tile id (it leaves the market)."""
        return pay(game, seat, action)

    def earns_extra_action(self, game: GameLike, seat: int, action: Buy, price: int | None) -> bool:
        """Whether the payment ``action`` of ``price`` just made earns another action: an
        exact payment does (R-TURN-4)."""
        return sum([c.value for c in action.cards]) == price

    def can_pay_exactly(self, game: GameLike, seat: int) -> bool:
        """True if ``seat`` can buy some market building with an exact payment now."""
        check_seat(game, seat)
        return self.first_exact_payer(game, (seat,)) is not None

    def first_exact_payer(self, game: GameLike, seats: Iterable[int]) -> int | None:
        """The first of ``seats`` that can pay exactly for some building now, or ``None``
        (the vizier's asking round, R-VIZ-2, R-VIZ-5). A subclass that lists purchases or
        prices of its own (overriding :meth:`cached_purchases` or :meth:`market_price`) is
        asked seat by seat (its exact purchases); the built-in rule uses exact-payment bitsets."""
        cls = type(self)
        if cls.cached_purchases is PurchaseRule.cached_purchases and cls.market_price is PurchaseRule.market_price:
            return first_exact_payer(game, seats)
        try:
            seats = iter(seats)
        except TypeError:
            raise ConfigError(f"seats must be an iterable of seats, not {seats!r}") from None
        for seat in seats:
            check_seat(game, seat)
            if self.cached_purchases(game, seat, exact=True):
                return seat
        return None


class DelegatingPurchaseRule(PurchaseRule):
    """A purchase rule asking the rule so far (``inner``: the rule the hook
    ``alhambra_purchase_rule`` is handed) for everything. A plugin changing part of the rule
    subclasses it and overrides only what it changes, calling ``self.inner`` for the rest."""

    __slots__ = ("inner",)

    def __init__(self, inner: PurchaseRule) -> None:
        self.inner = inner

    def market_price(self, game: GameLike, space: int) -> int | None:
        return self.inner.market_price(game, space)

    def cached_purchases(self, game: GameLike, seat: int, exact: bool = False) -> Sequence[Buy]:
        return self.inner.cached_purchases(game, seat, exact)

    def payment_cards(self, game: GameLike, seat: int, space: int) -> list[tuple[Any, frozenset[str]]]:
        return self.inner.payment_cards(game, seat, space)

    def check_payment(self, game: GameLike, seat: int, action: Buy) -> int:
        return self.inner.check_payment(game, seat, action)

    def pay(self, game: GameLike, seat: int, action: Buy) -> Any:
        return self.inner.pay(game, seat, action)

    def earns_extra_action(self, game: GameLike, seat: int, action: Buy, price: int | None) -> bool:
        return self.inner.earns_extra_action(game, seat, action, price)

    def first_exact_payer(self, game: GameLike, seats: Iterable[int]) -> int | None:
        return self.inner.first_exact_payer(game, seats)


#: The built-in purchase rule.
BASE_PURCHASE_RULE = PurchaseRule()


@hookimpl(trylast=True)
def alhambra_purchase_rule(options: dict[str, Any], rule: PurchaseRule | None) -> PurchaseRule:
    return BASE_PURCHASE_RULE


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [ActionKind(Buy, frozenset({"turn"}), _legal_buy, apply_purchase, _check_buy, unlisted=True)]
