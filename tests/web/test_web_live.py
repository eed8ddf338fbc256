"""The served app (uvicorn): a game whose action is still being played holds up no other
request, not even a page of that game (it waits for the table's lock in a worker thread)."""

from __future__ import annotations

import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from alhambra.web.tables import Table, TableStore

from .server import LiveServer


def test_a_slow_action_holds_up_no_other_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = LiveServer(tmp_path / "games")
    try:
        store: TableStore = live.app.state.store
        from alhambra.web.tables import Seat

        slow = store.create([Seat("Ana", "person"), Seat("Bo", "random")], seed=1)
        other = store.create([Seat("Cy", "person"), Seat("Di", "random")], seed=2)
        assert store.settle(slow) and store.settle(other)  # the bots' first moves, in the worker
        entered, release = threading.Event(), threading.Event()
        original = TableStore._apply

        def held(self: TableStore, table: Table, action: object) -> None:
            if table is slow and not release.is_set():
                entered.set()
                release.wait(30)
            original(self, table, action)

        monkeypatch.setattr(TableStore, "_apply", held)
        form = urllib.parse.urlencode({"t": slow.seats[0].token, "index": 0, "version": slow.version}).encode()
        posting = threading.Thread(
            target=lambda: urllib.request.urlopen(f"{live.url}/g/{slow.id}/seat/0/act", data=form, timeout=60).read()
        )
        posting.start()
        assert entered.wait(30)
        waiting: list[int] = []  # a page of the slow game: it waits for the table's lock
        reading = threading.Thread(
            target=lambda: waiting.append(
                urllib.request.urlopen(f"{live.url}/g/{slow.id}/seat/0?t={slow.seats[0].token}", timeout=60).status
            )
        )
        reading.start()
        time.sleep(0.5)  # let it reach the lock (ordering only; nothing here is timed)
        page = urllib.request.urlopen(f"{live.url}/g/{other.id}/seat/0?t={other.seats[0].token}", timeout=10)
        assert page.status == 200  # served while the slow game's action is still held
        version = urllib.request.urlopen(f"{live.url}/g/{slow.id}/version", timeout=10).read()
        assert f'"version":{slow.public_version}'.encode() in version
        assert waiting == []
        release.set()
        posting.join(30)
        reading.join(30)
        assert slow.version >= 1 and waiting == [200]
    finally:
        live.stop()
