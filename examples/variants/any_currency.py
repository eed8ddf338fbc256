"""House rule replacing the purchase rule as a whole (R-TURN-3): any money pays for any
building, in any mix of currencies, at its price + 2; an exact payment of that (R-TURN-4)
earns an extra action and lets the vizier be used (R-VIZ-2). Only non-dominated payments are
accepted (no card can be dropped); exchange offices have no use.

Hook ``alhambra_purchase_rule``: a rule of its own, which the ``Buy`` kind, the vizier,
``view()``, the bots and the environments all ask.
"""

from typing import Sequence

from alhambra import Buy, GameLike, IllegalActionError, MoneyCard, PurchaseRule, hookimpl, minimal_payments

NAME = "any_currency"
DESCRIPTION = "House rule: any currency pays, at the price + 2."
RULES = ("R-TURN-3",)


class AnyCurrency(PurchaseRule):
    def market_price(self, game: GameLike, space: int) -> int | None:
        return None if (price := super().market_price(game, space)) is None else price + 2

    def cached_purchases(self, game: GameLike, seat: int, exact: bool = False) -> Sequence[Buy]:
        money = [c for c in game.state.players[seat].hand if type(c) is MoneyCard]
        prices = [(s, p) for s in (1, 2, 3, 4) if (p := self.market_price(game, s)) is not None]
        return [Buy(s, cards) for s, p in prices for cards in minimal_payments(money, p, exact=exact)]

    def check_payment(self, game: GameLike, seat: int, action: Buy) -> int:
        if action not in self.cached_purchases(game, seat):  # overpaying is no payment here
            raise IllegalActionError(f"any currency: {action} pays no building its price + 2 without waste")
        return self.market_price(game, action.space) or 0


@hookimpl
def alhambra_purchase_rule(rule: PurchaseRule | None) -> PurchaseRule:
    return AnyCurrency()
