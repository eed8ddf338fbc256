"""A money of a module's own that pays for the building on any market space, alone (the
diamonds of the second expansion are one, R-DIA-4 … R-DIA-6).

A module declares such a money as one :class:`AnySpaceMoney`: its card class (an
:class:`~alhambra.InternedCard` whose cards :func:`~alhambra.interned` makes, an int ``value``
each), the turn's action buying with it (fields ``space`` and ``cards``) and the sentences
refusing a payment that breaks its rule (naming the module's rule ids). The object then plays
every part of it:

- :meth:`AnySpaceMoney.kind`: the action's kind; its purchases listed space by space, every
  non-dominated payment of the space's price with the money's cards (overpaying allowed,
  :func:`~alhambra.engine.payment.value_payments`), checked (:meth:`AnySpaceMoney.check`) and
  applied as a ``Buy`` is (an exact payment earns another action, R-TURN-4);
- :meth:`AnySpaceMoney.buy_refusal`: for ``kind.checked`` on the turn's ``Buy``, which never
  pays with the money (the turn has the money's own action);
- :meth:`AnySpaceMoney.rule`: the purchase rule so far with the exact payments in the money
  among the exact purchases, as ``Buy`` actions (the vizier's, R-VIZ-2), a ``Buy`` paid all in
  it checked, one mixing it with other cards or with a payment means refused, and the asking
  round (R-VIZ-5) counting the seats that can pay exactly in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from attrs import Factory, field, frozen

from ..engine.actions import ActionKind, Buy, action_table, canonical_cards, card_names
from ..engine.components import made_cards
from ..engine.payment import value_payments
from ..engine.protocol import check_seat
from ..errors import ConfigError, IllegalActionError
from .purchase import DelegatingPurchaseRule, PurchaseRule, apply_purchase, check_paid

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import GameLike

#: ``(action class, exact, space index, cards, price)`` -> the purchases of that space paid with
#: ``cards`` (canonical order): shared by every game and every such money, since they depend on
#: nothing else; emptied when it grows past ``_MEMO_LIMIT``
_PAYMENTS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_MEMO_LIMIT = 50_000


@frozen(slots=True)
class AnySpaceMoney:
    """A money of a module's own that pays for the building on any market space, alone,
    overpaying allowed (see the module docstring). ``card``: the card class (an int ``value``
    each, made by :func:`~alhambra.interned`). ``action``: the turn's purchase with it, made as
    ``action(space, cards)``. The sentences refusing a payment, each naming the rule:
    ``none`` (no card paid), ``other`` (a card of another kind in ``action``'s cards,
    ``{card!r}`` in it), ``mixed`` (a ``Buy`` holding the money and other cards, ``{own}`` and
    ``{others}`` in it), ``via`` (a ``Buy`` holding the money with a payment means),
    ``by_action`` (the turn's ``Buy`` paid all in the money, ``{space}`` in it)."""

    card: type
    action: type
    none: str
    other: str
    mixed: str
    via: str
    by_action: str
    #: every card of the class (:func:`~alhambra.made_cards`, the same set growing)
    cards: set[Any] = field(init=False, default=Factory(lambda self: made_cards(self.card), takes_self=True))
    #: ``game.memo`` keys per seat (of the seat's exact-reach bitset), and of the market's prices
    _reach_keys: tuple[Any, ...] = field(
        init=False, default=Factory(lambda self: tuple((self.card, "reach", s) for s in range(8)), takes_self=True)
    )

    def purchases(self, game: GameLike, seat: int, exact: bool = False, cls: type | None = None) -> Sequence[Any]:
        """``seat``'s purchases paid all in the money, as actions ``cls`` (default
        :attr:`action`; ``Buy`` for the exact purchases of the rule) space by space, each
        space's payments as :func:`~alhambra.engine.payment.value_payments` lists them (only
        exact ones with ``exact``). Kept per seat with copies of the hand and the market it was
        made for; do not change the sequence returned. ``seat`` is not checked."""
        hand = game.state.players[seat].hand
        if self.cards.isdisjoint(hand):
            return ()
        cls = cls or self.action
        market = game.state.market
        key = (self.card, cls, exact, seat)
        last: tuple[list[Any], list[Any], Sequence[Any]] | None = game._memo.get(key)
        if last is not None and last[0] == hand and last[1] == market:
            return last[2]
        card = self.card
        cards = canonical_cards([c for c in hand if type(c) is card])
        prices = game.rules.space_prices
        memo = _PAYMENTS
        out: list[Any] = []
        for i, tile in enumerate(market):
            if tile is None:
                continue
            price = prices[i][tile]
            found = memo.get((cls, exact, i, cards, price))
            if found is None:
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                table: Any = action_table(cls)
                found = tuple([table[i + 1, paid] for paid in value_payments(cards, price, exact=exact)])
                memo[cls, exact, i, cards, price] = found
            out += found
        game._memo[key] = (hand.copy(), market.copy(), out)
        return out

    def pays_exactly(self, game: GameLike, seat: int) -> bool:
        """True if some of ``seat``'s cards of the money add up exactly to the price of a
        building on the market: the same answer as "some exact purchase in the money is
        listed", without listing them; a subset sum over their values as one bitset (kept with
        the hand), against the prices as one bitset (kept with the market). ``seat`` is not
        checked."""
        hand: list[Any] = game.state.players[seat].hand
        if self.cards.isdisjoint(hand):
            return False
        memo = game._memo
        key = self._reach_keys[seat]
        last = memo.get(key)
        if last is None or last[0] != hand:
            card: Any = self.card
            sums = 1
            for c in hand:
                if type(c) is card:
                    sums |= sums << c.value
            last = memo[key] = (hand.copy(), sums & ~1)  # at least one card
        market = game.state.market
        wanted = memo.get((self.card, "prices"))
        if wanted is None or wanted[0] != market:
            prices = game.rules.space_prices
            bits = 0
            for i, tile in enumerate(market):
                if tile is not None:
                    bits |= 1 << prices[i][tile]
            wanted = memo[self.card, "prices"] = (market.copy(), bits)
        return bool(last[1] & wanted[1])

    def check(self, game: GameLike, seat: int, action: Any) -> int:
        """Check that ``action`` (``space``, ``cards``) is a legal purchase in the money for
        ``seat`` now and return the price. Raises :class:`~alhambra.IllegalActionError`: an
        empty space (R-TURN-3), no card (:attr:`none`), a card of another kind
        (:attr:`other`), a card not in hand or too little (R-TURN-3)."""
        card, other = self.card, self.other
        return check_paid(
            game,
            seat,
            action.space,
            action.cards,
            lambda c: None if type(c) is card else other.format(card=c),
            self.none,
        )

    def refusal(self, action: Any, turn: bool = False) -> str | None:
        """Why a payment ``action`` (``cards``, ``via``: a ``Buy``, a vizier's use) holding a
        card of the money is refused whatever it buys, or ``None``: with a payment means
        (:attr:`via`), mixed with other cards (:attr:`mixed`), and with ``turn`` paid all in it
        (:attr:`by_action`: the turn buys with the money by :attr:`action`). A payment holding
        none gets ``None``."""
        cards = getattr(action, "cards", None)
        card = self.card
        own = [c for c in cards if type(c) is card] if isinstance(cards, tuple) else []
        if not own:
            return None
        if getattr(action, "via", None) is not None:
            return self.via
        others = [c for c in action.cards if type(c) is not card]
        if others:
            return self.mixed.format(own=card_names(own), others=card_names(others))
        return self.by_action.format(space=action.space) if turn else None

    def buy_refusal(self, game: GameLike, seat: int, action: Any) -> str | None:
        """:meth:`refusal` for the turn's ``Buy`` (``kind.checked(money.buy_refusal)``): no
        ``Buy`` the turn lists holds the money, so its listing stays as it is."""
        return self.refusal(action, turn=True)

    def _turn_purchases(self, game: GameLike, seat: int) -> Sequence[Any]:
        return self.purchases(game, seat)

    def _check_action(self, game: GameLike, seat: int, action: Any) -> None:
        self.check(game, seat, action)  # raises; otherwise an accepted overpayment

    def kind(self, phases: Iterable[str] = ("turn",)) -> ActionKind:
        """The kind of :attr:`action` in ``phases``: :meth:`purchases` listed (overpaying
        included), any other checked (:meth:`check`: an overpayment is accepted), applied as a
        ``Buy`` (:func:`~alhambra.rules.purchase.apply_purchase`)."""
        return ActionKind(
            self.action, frozenset(phases), self._turn_purchases, apply_purchase, self._check_action, unlisted=True
        )

    def rule(self, inner: PurchaseRule) -> PurchaseRule:
        """The purchase rule ``inner`` with the money (:class:`AnySpaceMoneyRule`), for the
        hook ``alhambra_purchase_rule``."""
        return AnySpaceMoneyRule(inner, self)


class AnySpaceMoneyRule(DelegatingPurchaseRule):
    """The purchase rule so far (``inner``) with payments all in ``money`` on any space among
    the exact purchases (as ``Buy`` actions), their checks and the asking round; a payment
    mixing the money with other cards or with a payment means is refused
    (:meth:`AnySpaceMoney.refusal`)."""

    __slots__ = ("money",)

    def __init__(self, inner: PurchaseRule, money: AnySpaceMoney) -> None:
        super().__init__(inner)
        self.money = money

    def cached_purchases(self, game: GameLike, seat: int, exact: bool = False) -> Sequence[Buy]:
        found = self.inner.cached_purchases(game, seat, exact)
        if not exact:
            return found
        more = self.money.purchases(game, seat, True, Buy)
        return [*found, *more] if more else found

    def check_payment(self, game: GameLike, seat: int, action: Buy) -> int:
        money = self.money
        why = money.refusal(action)
        if why is not None:
            raise IllegalActionError(why)
        cards = getattr(action, "cards", None)
        if isinstance(cards, tuple) and cards and type(cards[0]) is money.card:  # no mix (above): all of it
            return money.check(game, seat, money.action(action.space, cards))
        return self.inner.check_payment(game, seat, action)

    def first_exact_payer(self, game: GameLike, seats: Iterable[int]) -> int | None:
        """The first of ``seats`` that can pay exactly through the rule so far or in the
        money. ``seats`` is read up to the first that can pay exactly in the money
        (:meth:`AnySpaceMoney.pays_exactly`); the rule so far is then asked once, about the
        seats before it."""
        try:
            it = iter(seats)
        except TypeError:
            raise ConfigError(f"seats must be an iterable of seats, not {seats!r}") from None
        n = len(game.state.players)
        before: list[int] = []
        for seat in it:
            if type(seat) is not int or not 0 <= seat < n:
                check_seat(game, seat)  # raises
            if self.money.pays_exactly(game, seat):
                first = self.inner.first_exact_payer(game, before) if before else None
                return seat if first is None else first
            before.append(seat)
        return self.inner.first_exact_payer(game, before) if before else None
