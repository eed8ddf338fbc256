"""House rule: the market tax. Every building costs 1 more than its printed price (R-COMP-2)
on every market space, so an exact payment (R-TURN-4) is the taxed price, and the vizier buys
at the taxed price too (R-VIZ-2), exchange offices or not.

Hook ``alhambra_building_price``: folded once into the rule set's price tables, which every
purchase, exactness check, ``view()`` and bot reads.
"""

from alhambra import hookimpl

NAME = "market_tax"
DESCRIPTION = "House rule: every building costs 1 more than its printed price."
RULES = ("R-COMP-2",)


@hookimpl
def alhambra_building_price(price: int) -> int:
    return price + 1
