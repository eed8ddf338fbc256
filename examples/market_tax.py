"""A house rule that changes a base rule: the market tax. Every building costs 1 more than
its printed price (R-COMP-2) on every market space, so an exact payment (R-TURN-4) is the
taxed price, and the vizier buys at the taxed price too (R-VIZ-2), exchange offices or not.

One hook: the rule set folds it into its price tables, which every purchase, exactness
check, ``view()`` and bot reads. ``alhambra.new_game(4, modules=[market_tax])``, or
``alhambra simulate --config examples/market_tax.toml``.
"""

from alhambra import hookimpl

NAME = "market_tax"
DESCRIPTION = "House rule: every building costs 1 more than its printed price."
RULES = ()


@hookimpl
def alhambra_building_price(price):
    return price + 1
