"""How long the pictures take: city_svg of the largest Alhambra and table_svg of a whole
6-seat table with every module, at the end of a greedy-bot game (seed 3).

Run: python benchmarks/render_speed.py
"""

import timeit

import alhambra
from alhambra.bots import make_bot
from alhambra.render import city_svg, table_svg

g = alhambra.new_game(6, modules=["vizier", "building_huts", "bonus_cards", "exchange_offices"], seed=3)
bots = [make_bot("greedy", seed=s) for s in range(6)]
while not g.is_over:
    s = g.current_player
    g.apply(bots[s].choose(g, s, g.legal_actions()))
c = max((p.city for p in g.state.players), key=len)
n = 50
print("tiles in the largest Alhambra", len(c))
print(f"city_svg {1000 * timeit.timeit(lambda: city_svg(c), number=n) / n:.2f} ms")
print(
    f"table_svg, 6 seats, all modules {1000 * timeit.timeit(lambda: table_svg(g, 0), number=n) / n:.2f} ms, {len(table_svg(g, 0))} bytes"
)
