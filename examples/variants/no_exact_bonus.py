"""House rule: an exact payment earns no extra action (R-TURN-4 off).

Hook ``alhambra_purchase_rule``: the built-in purchase rule with
:meth:`~alhambra.PurchaseRule.earns_extra_action` always false.
"""

from alhambra import Buy, GameLike, PurchaseRule, hookimpl

NAME = "no_exact_bonus"
DESCRIPTION = "House rule: an exact payment earns no extra action."
RULES = ("R-TURN-4",)


class NoExactBonus(PurchaseRule):
    def earns_extra_action(self, game: GameLike, seat: int, action: Buy, price: int | None) -> bool:
        return False


@hookimpl
def alhambra_purchase_rule(rule: PurchaseRule | None) -> PurchaseRule:
    return NoExactBonus()
