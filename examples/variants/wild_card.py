"""House rule: a wild money card, the florin 1 (its three copies), pays for the building on
any market space alone, whatever its price and currency, as the diamonds will (R-DIA-4). Such
a payment is exact only for a building of price 1 (R-TURN-4).

Hook ``alhambra_purchase_rule``: the built-in purchase rule, with the wild purchases added.
"""

from typing import Sequence

from alhambra import Buy, GameLike, MoneyCard, PurchaseRule, hookimpl

NAME = "wild_card"
DESCRIPTION = "House rule: a florin 1 pays any building alone."
RULES = ("R-TURN-3",)
WILD = MoneyCard("florin", 1)  # the wild card (its three copies)


class WildCard(PurchaseRule):
    def cached_purchases(self, game: GameLike, seat: int, exact: bool = False) -> Sequence[Buy]:
        found, market = super().cached_purchases(game, seat, exact), game.state.market
        wild = [] if exact or WILD not in game.state.players[seat].hand else [Buy(s, (WILD,)) for s in (1, 2, 3, 4)]
        return [*found, *(b for b in wild if market[b.space - 1] is not None and b not in found)]

    def check_payment(self, game: GameLike, seat: int, action: Buy) -> int:
        if action.cards == (WILD,) and action in self.cached_purchases(game, seat):
            return self.market_price(game, action.space) or 0
        return super().check_payment(game, seat, action)


@hookimpl
def alhambra_purchase_rule(rule: PurchaseRule | None) -> PurchaseRule:
    return WildCard()
