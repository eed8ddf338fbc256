"""What one server holds and does at once is bounded: a "new game" flood stops at the table
limit with a 503 (the tables there untouched), a data directory over the limit loads only up
to it and names the rest, replay builds have their own two threads (a third upload is a 503
at once while the pages stay served), and ``alhambra play`` gives uvicorn a connection limit
(a connection beyond it is answered 503)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from html import unescape
from pathlib import Path

import alhambra
import pytest
from alhambra.web import app as web_app
from alhambra.web import create_app
from alhambra.web.tables import TableStore
from starlette.testclient import TestClient

from .conftest import BASE, create

ROOT = Path(__file__).parents[2]


def test_a_new_game_beyond_the_table_limit_is_a_503_and_the_tables_stay(data_dir: Path) -> None:
    client = TestClient(create_app(data_dir, max_tables=3), base_url=BASE, raise_server_exceptions=False)
    tables = [create(client, ["person", "random"], seed=s) for s in (1, 2, 3)]
    before = {t.id: t.game.to_json() for t in tables}
    for _ in range(5):
        r = client.post("/games", data={"kind0": "person", "kind1": "random"}, follow_redirects=False)
        assert r.status_code == 503
        assert "holds 3 tables, its limit" in unescape(r.text)
    store = client.app.state.store
    assert {t.id: t.game.to_json() for t in store.tables.values()} == before
    assert len(list(data_dir.glob("*.json"))) == 3
    assert client.get(f"/g/{tables[0].id}/host?t={tables[0].host_token}").status_code == 200


def test_a_data_directory_over_the_limit_loads_up_to_it_and_names_the_rest(data_dir: Path) -> None:
    store = TableStore(data_dir, workers=1)
    try:
        for seed in range(5):
            store.create([_seat("person"), _seat("random")], seed=seed)
    finally:
        store.close()
    again = TableStore(data_dir, workers=1, max_tables=2)
    try:
        assert len(again.tables) == 2
        over = [p for p in again.problems if "over the limit of 2 tables" in p]
        assert len(over) == 3
        assert sorted(again.tables) == sorted(p.stem for p in data_dir.glob("*.json"))[:2]
    finally:
        again.close()


def _seat(kind: str):
    from alhambra.web.tables import Seat

    return Seat(name=kind, kind=kind, bot=None if kind == "person" else kind)


def test_a_third_replay_built_at_once_is_a_503_while_the_pages_are_served(data_dir: Path, monkeypatch) -> None:
    started = threading.Semaphore(0)
    release = threading.Event()
    real = web_app.build_replay

    def slow_build(text: str, **kwargs):
        started.release()
        release.wait(20)
        return real(text, **kwargs)

    monkeypatch.setattr(web_app, "build_replay", slow_build)
    game = alhambra.new_game(2, seed=4)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    save = game.to_json()
    results: list[int] = []
    with TestClient(create_app(data_dir), base_url=BASE, raise_server_exceptions=False) as client:

        def upload() -> None:
            r = client.post("/replay", files={"file": ("g.json", save, "application/json")}, follow_redirects=False)
            results.append(r.status_code)

        threads = [threading.Thread(target=upload) for _ in range(web_app.REPLAY_BUILDS)]
        for t in threads:
            t.start()
        for _ in threads:
            assert started.acquire(timeout=20), "the builds did not start"
        try:
            r = client.post("/replay", files={"file": ("g.json", save, "application/json")}, follow_redirects=False)
            assert r.status_code == 503
            assert "replays are being built now" in unescape(r.text)
            assert client.get("/").status_code == 200  # the pages do not wait for the builds
        finally:
            release.set()
            for t in threads:
                t.join(30)
    assert results == [303] * web_app.REPLAY_BUILDS


def test_the_server_answers_a_connection_beyond_its_limit_with_a_503(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}{os.pathsep}{ROOT / 'modules'}", "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "alhambra.cli", "play", "--port", "0", "--data", str(tmp_path / "g")]
    proc = subprocess.Popen(
        [*cmd, "--max-connections", "2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    idle: list[socket.socket] = []
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        found = re.search(r"http://([^/:]+):(\d+)/ ", line)
        assert found, line
        host, port = found.group(1), int(found.group(2))
        assert urllib.request.urlopen(f"http://{host}:{port}/", timeout=10).status == 200
        for _ in range(2):  # two connections that send nothing hold the two places
            s = socket.create_connection((host, port), timeout=10)
            idle.append(s)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://{host}:{port}/", timeout=10)
        assert refused.value.code == 503
        for s in idle:
            s.close()
        idle.clear()
        for _ in range(50):  # the places come back once the idle connections close
            try:
                if urllib.request.urlopen(f"http://{host}:{port}/", timeout=10).status == 200:
                    break
            except urllib.error.HTTPError:
                pass
        else:
            pytest.fail("the server did not serve again after the connections closed")
    finally:
        for s in idle:
            s.close()
        proc.terminate()
        proc.wait(10)


def _serve(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, str, int]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}{os.pathsep}{ROOT / 'modules'}", "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "alhambra.cli", "play", "--port", "0", "--data", str(tmp_path / "g"), *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    line = proc.stdout.readline() if proc.stdout else ""
    found = re.search(r"http://([^/:]+):(\d+)/ ", line)
    if not found:
        proc.kill()
        pytest.fail(line)
    return proc, found.group(1), int(found.group(2))


def _closed_by_server(s: socket.socket, within: float) -> bool:
    """True when the server closes ``s`` within ``within`` seconds (what it still sends, the
    rest of an answer, is read and dropped)."""
    end = time.monotonic() + within
    while (left := end - time.monotonic()) > 0:
        s.settimeout(left)
        try:
            if s.recv(65536) == b"":
                return True
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True
    return False


def test_a_connection_that_sends_no_whole_head_in_time_is_closed(tmp_path: Path) -> None:
    """Slow clients (slowloris): one that sends nothing, one that sends its head a byte at a
    time, one idle after an answer; all are closed after the head timeout, and the places
    they held serve others again."""
    proc, host, port = _serve(tmp_path, "--max-connections", "3", "--head-timeout", "1")
    try:
        silent = socket.create_connection((host, port), timeout=5)
        trickle = socket.create_connection((host, port), timeout=5)
        trickle.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")  # never the blank line
        answered = socket.create_connection((host, port), timeout=5)
        answered.sendall(b"GET /version HTTP/1.1\r\nHost: localhost\r\n\r\n")
        answered.settimeout(5)
        assert answered.recv(100).startswith(b"HTTP/1.1 ")
        with pytest.raises(urllib.error.HTTPError) as refused:  # every place is held
            urllib.request.urlopen(f"http://{host}:{port}/", timeout=5)
        assert refused.value.code == 503
        for s in (silent, trickle, answered):
            assert _closed_by_server(s, 8), "a slow connection was kept open"
            s.close()
        assert urllib.request.urlopen(f"http://{host}:{port}/", timeout=5).status == 200
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("flag", ["--max-tables", "--max-connections", "--head-timeout"])
def test_a_limit_below_one_is_refused(flag: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}{os.pathsep}{ROOT / 'modules'}"}
    cmd = [sys.executable, "-m", "alhambra.cli", "play", "--port", "0", "--data", str(tmp_path / "g"), flag, "0"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode != 0
    assert "must be at least 1" in out.stderr or "must be positive" in out.stderr


@pytest.mark.parametrize(("body", "form", "took"), [(0.5, 10.0, "0.5"), (30.0, 0.3, "0.3")])
def test_a_body_that_does_not_arrive_in_time_is_a_408(data_dir: Path, monkeypatch, body, form, took) -> None:
    """A form sent slowly (part of it, then nothing) is answered 408 once the body time is up
    (a form's own, shorter than an upload's), and no table is made."""
    import anyio

    monkeypatch.setattr(web_app, "BODY_SECONDS", body)
    monkeypatch.setattr(web_app, "FORM_SECONDS", form)
    app = create_app(data_dir)
    sent: list[dict] = []
    chunks = [b"kind0=person&", b"kind1=ran"]

    async def receive() -> dict:
        if chunks:
            return {"type": "http.request", "body": chunks.pop(0), "more_body": True}
        await anyio.sleep(30)  # the rest never comes
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/games",
        "raw_path": b"/games",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"localhost"), (b"content-type", b"application/x-www-form-urlencoded")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }

    async def main() -> None:
        with anyio.fail_after(10):
            await app(scope, receive, send)

    anyio.run(main)
    start = next(m for m in sent if m["type"] == "http.response.start")
    assert start["status"] == 408
    answer = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert f"did not arrive within {took} s".encode() in answer
    assert app.state.store.tables == {}
