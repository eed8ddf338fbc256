"""A module's own action buying a market building with an exact payment outside the turn's
purchases, the building placed at once (the vizier's use between two turns is one, R-VIZ-2,
R-VIZ-3).

A module declares such a purchase as one :class:`ExactPurchase`: its action class (fields
``space``, ``cards``, ``via``, as a ``Buy``), the phases it is played in, who may buy so now,
the sentence refusing a payment that is not exact, what its state records once paid and the
phase the placement returns to. The object then plays every part of it through the purchase
rule (``game.rules.purchase``), so that a rule of a module or a house rule (a money of its own,
an exchange office, a market tax) is followed:

- the listing (:meth:`ExactPurchase.purchases`): the rule's exact purchases (its cached list),
  mirrored as the module's actions, the shared instances, kept with the list they mirror;
- the check (:meth:`ExactPurchase.check`): who may buy, then the payment as the rule checks a
  ``Buy``, then its exactness;
- the purchase (:meth:`ExactPurchase.apply`): paid through the rule, recorded by the module,
  the building placed at once (with two players it may go to Dirk, R-TWO-5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from attrs import field, frozen

from ..engine.actions import ActionKind, Buy, action_table
from ..engine.sequence import PlaceTiles
from ..errors import IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import GameLike


def _phases(names: Iterable[str]) -> frozenset[str]:
    return frozenset(names)


@frozen(slots=True)
class ExactPurchase:
    """A module's action buying the building on a market space with an exact payment, the
    building placed at once (see the module docstring).

    ``action``: the action class, made as ``action(space, cards, via)``. ``phases``: where it
    is played. ``inexact``: the sentence refusing a valid payment that is not exact, naming
    the rule, ``{total}`` and ``{price}`` in it. ``refuse(game, seat)``: why ``seat`` may not
    buy so now (a sentence naming the rule), or ``None``; while it answers a sentence nothing
    is listed. ``bought(game, seat)``: what the module records once ``seat`` has paid, before
    the placement. ``then``: the phase whose ``after_placement`` follows the placement."""

    action: type
    phases: frozenset[str] = field(converter=_phases)
    inexact: str
    refuse: Callable[[Any, int], str | None]
    bought: Callable[[Any, int], None]
    then: str
    #: the ``game.memo`` key of the listing, kept with the purchases list it mirrors (a
    #: string: its hash is kept)
    _key: str = field(init=False)

    @_key.default
    def _memo_key(self) -> str:
        return f"exact purchases of {self.action.__module__}.{self.action.__qualname__}"

    def purchases(self, game: GameLike, seat: int) -> Sequence[Any]:
        """``seat``'s exact purchases now (the purchase rule's ``cached_purchases(game, seat,
        exact=True)``) as :attr:`action`\\ s in their order, or none while :attr:`refuse`
        answers a sentence. Kept with the rule's list they mirror; do not change it."""
        if self.refuse(game, seat) is not None:
            return ()
        buys = game.rules.purchase.cached_purchases(game, seat, exact=True)
        memo = game._memo
        last = memo.get(self._key)
        if last is None or last[0] is not buys:
            table: Any = action_table(self.action)  # the shared instances: no new action per listing
            last = memo[self._key] = (buys, [table[buy.space, buy.cards, buy.via] for buy in buys])
        found: Sequence[Any] = last[1]
        return found

    def check(self, game: GameLike, seat: int, action: Any) -> int:
        """Check ``action`` (``space``, ``cards``, ``via``) for ``seat`` now and return the
        price. Raises :class:`~alhambra.IllegalActionError`: :attr:`refuse`'s sentence, the
        purchase rule's refusal of the payment as a ``Buy`` (R-TURN-3, R-EXC-4 …), then
        :attr:`inexact` for a payment that is not exact."""
        why = self.refuse(game, seat)
        if why is not None:
            raise IllegalActionError(why)
        price = game.rules.purchase.check_payment(game, seat, Buy(action.space, action.cards, action.via))
        total = sum(c.value for c in action.cards)
        if total != price:
            raise IllegalActionError(self.inexact.format(total=total, price=price))
        return price  # an exact, valid payment: listed, or accepted as the rule's

    def apply(self, game: GameLike, seat: int, action: Any) -> PlaceTiles:
        """Pay through the purchase rule (the cards and any means card to the discard pile),
        let the module record it (:attr:`bought`), and have ``seat`` place the building at
        once, Dirk allowed, then phase :attr:`then`."""
        tile = game.rules.purchase.pay(game, seat, Buy(action.space, action.cards, action.via))  # checked
        self.bought(game, seat)
        return PlaceTiles(seat, (tile,), then=self.then, dirk_ok=True)

    def _check_action(self, game: GameLike, seat: int, action: Any) -> None:
        self.check(game, seat, action)  # raises; otherwise an exact payment the rule accepts

    def kind(self) -> ActionKind:
        """The kind of :attr:`action` in :attr:`phases`: :meth:`purchases` listed, any other
        checked (:meth:`check`), applied by :meth:`apply`."""
        return ActionKind(self.action, self.phases, self.purchases, self.apply, self._check_action, unlisted=True)
