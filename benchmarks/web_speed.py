"""How long the web app takes per request, in process (Starlette's test client, no network):
an action (checked, played, the table saved to disk), the play page (HTML with the pictures)
and its JSON twin, over a 4-seat game of people with every module, played at random (seed 5),
and the engine's own apply() for comparison.

Run: python benchmarks/web_speed.py
"""

import random
import tempfile
import time
import warnings

from starlette.testclient import TestClient

import alhambra
from alhambra.web import create_app

warnings.filterwarnings("ignore", message="Using `httpx`")

MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]
client = TestClient(create_app(tempfile.mkdtemp()), base_url="http://localhost")  # a Host it serves
form = {"seed": "5", "module": MODULES} | {f"kind{i}": "person" for i in range(4)}
gid = client.post("/games", data=form, follow_redirects=False).headers["location"].split("/")[2]
table = client.app.state.store.get(gid)
rng = random.Random(5)
acts = pages = jsons = 0.0
n = 0
while not table.game.is_over:
    seat = table.decider
    url = f"/g/{gid}/seat/{seat}?t={table.seats[seat].token}"
    t0 = time.perf_counter()
    client.get(url)
    t1 = time.perf_counter()
    client.get(url.replace("?t=", "/state.json?t="))
    t2 = time.perf_counter()
    data = {
        "t": table.seats[seat].token,
        "index": rng.randrange(len(table.game.legal_actions())),
        "version": table.version,
    }
    client.post(f"/g/{gid}/seat/{seat}/act", data=data, follow_redirects=False)
    t3 = time.perf_counter()
    pages, jsons, acts, n = pages + t1 - t0, jsons + t2 - t1, acts + t3 - t2, n + 1
game = alhambra.new_game(4, modules=MODULES, seed=5)
t0 = time.perf_counter()
for action in table.game.history:
    game.apply(action)
engine = (time.perf_counter() - t0) / len(table.game.history)
print(f"{n} actions of people, {len(table.game.history)} in all")
print(
    f"play page {1000 * pages / n:.1f} ms, its JSON {1000 * jsons / n:.1f} ms, an action {1000 * acts / n:.1f} ms "
    f"(saved each time), engine apply {1000 * engine:.3f} ms; page / JSON {pages / jsons:.1f}x"
)
