"""A bounded load test on 127.0.0.1: while a table of slow bots (six ``mcts:5000``, each
capped at its time budget per decision) plays in the background, 1,000 requests for another
table's pages are answered without waiting on a bot's decision: 99% of them within 0.5 s and
every one well within the bots' budget per decision (5 s), which a page served behind a bot would
take. The bounds are generous (a page takes a few ms on a quiet machine; a shared CI machine
pauses now and then): it is the isolation of tables that is checked, not the speed. The
latencies are printed."""

from __future__ import annotations

import statistics
import threading
import time
import urllib.request
from pathlib import Path

from alhambra.web.tables import Seat, TableStore

from .server import LiveServer

REQUESTS = 1000
CLIENTS = 4
BOT_SECONDS = 5.0  # the slow bots' budget per decision
P99_BOUND = 0.5  # seconds
MAX_BOUND = BOT_SECONDS / 2  # a page that waited on a decision would take up to BOT_SECONDS


def test_a_table_of_slow_bots_never_delays_another_tables_pages(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games", bot_seconds=BOT_SECONDS, bot_only_seconds=BOT_SECONDS)
    try:
        store: TableStore = live.app.state.store
        slow = store.create([Seat(f"M{i}", "mcts", "mcts:5000") for i in range(6)], seed=1)
        other = store.create([Seat("Ana", "person"), Seat("Bo", "random", "random")], seed=2)
        assert store.settle(other)
        urls = [
            f"{live.url}/g/{other.id}/seat/0?t={other.seats[0].token}",
            f"{live.url}/g/{other.id}",
            f"{live.url}/g/{other.id}/version",
            f"{live.url}/static/style.css",
        ]
        latencies: list[float] = []
        failures: list[str] = []
        busy: list[bool] = []
        lock = threading.Lock()

        def client(k: int) -> None:
            for i in range(REQUESTS // CLIENTS):
                url = urls[(i + k) % len(urls)]
                start = time.perf_counter()
                try:
                    with urllib.request.urlopen(url, timeout=10) as r:
                        r.read()
                        ok = r.status == 200
                except OSError as exc:
                    ok = False
                    failures.append(f"{url}: {exc}")
                took = time.perf_counter() - start
                with lock:
                    latencies.append(took)
                    busy.append(store.thinking(slow))
                    if not ok:
                        failures.append(url)

        threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert not failures
        assert len(latencies) == REQUESTS
        assert sum(busy) > REQUESTS // 2  # the slow bots were thinking during most of the requests
        latencies.sort()
        print(
            f"\n{REQUESTS} requests, {CLIENTS} clients, slow table thinking during {sum(busy)}: "
            f"median {statistics.median(latencies) * 1000:.1f} ms, "
            f"p95 {latencies[int(0.95 * REQUESTS)] * 1000:.1f} ms, "
            f"p99 {latencies[int(0.99 * REQUESTS)] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms"
        )
        p99 = latencies[int(0.99 * REQUESTS)]
        assert p99 < P99_BOUND, f"the 99th percentile page took {p99:.2f} s"
        assert latencies[-1] < MAX_BOUND, f"the slowest page took {latencies[-1]:.2f} s"
    finally:
        live.stop()
