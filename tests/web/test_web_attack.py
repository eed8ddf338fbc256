"""An attacker at the door: integer fields that look like numbers but are not (``--1``,
``²``), saves, JSON Lines, tables and TOML configs nested deeply enough to exhaust the
parser's recursion, a TOML config made slow to read, and ``Host`` values whose "port" is not
a number. Each is a 400 (or a skipped file) with a sentence, never a server error, and the
game is unchanged."""

from __future__ import annotations

import random
import time
from html import unescape
from pathlib import Path

import alhambra
import pytest
from alhambra.web import create_app
from alhambra.web.app import host_name
from alhambra.web.forms import MAX_CONFIG
from alhambra.web.tables import TableStore
from starlette.testclient import TestClient

from .conftest import BASE, create

#: text Python's ``str.isdigit`` accepts (or ``lstrip("-")`` would) that ``int`` refuses
NOT_INTEGERS = ["--1", "-", "1-", "\u00b2", "1\u00b2", "\u0661", " - 1", "0x1", "1_0", "+-1"]


@pytest.fixture
def attacker(data_dir: Path) -> TestClient:
    """A client that sees a server error as its 500 answer (not as an exception)."""
    return TestClient(create_app(data_dir), base_url=BASE, raise_server_exceptions=False)


@pytest.mark.parametrize("value", NOT_INTEGERS)
def test_an_action_index_or_version_that_is_not_an_integer_is_a_400(attacker: TestClient, value: str) -> None:
    table = create(attacker, ["person", "person"], seed=3)
    token = table.seats[0].token
    before = table.game.to_json()
    for data in (
        {"t": token, "index": value, "version": "0"},
        {"t": token, "index": "0", "version": value},
    ):
        r = attacker.post(f"/g/{table.id}/seat/0/act", data=data)
        assert r.status_code == 400, (data, r.status_code)
        assert "must be an integer" in unescape(r.text)
    r = attacker.post(f"/g/{table.id}/seat/0/undo", data={"t": token, "version": value})
    assert r.status_code == 400
    assert table.game.to_json() == before and table.version == 0


@pytest.mark.parametrize("value", ["--5", "\u00b2", "-"])
def test_a_seed_step_or_game_number_that_is_not_an_integer_is_a_400(attacker: TestClient, value: str) -> None:
    r = attacker.post("/games", data={"kind0": "person", "kind1": "random", "seed": value})
    assert r.status_code == 400 and "seed" in unescape(r.text)
    game = alhambra.new_game(2, seed=5)
    for _ in range(10):
        game.apply(game.legal_actions()[0])
    r = attacker.post("/replay", files={"file": ("g.json", game.to_json(), "application/json")}, data={"game": value})
    assert r.status_code == 400 and "game" in unescape(r.text)
    r = attacker.post("/replay", files={"file": ("g.json", game.to_json(), "application/json")}, follow_redirects=False)
    assert r.status_code == 303
    r = attacker.get(r.headers["location"], params={"step": value})
    assert r.status_code == 400 and "step" in unescape(r.text)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        '{"format": "alhambra-save", "history": ' + "[" * 20_000 + "]" * 20_000 + "}",
        "{}\n" + "[" * 100_000 + "]" * 100_000,  # JSON Lines
    ],
    ids=["array", "object", "history", "json-lines"],
)
def test_an_upload_nested_too_deeply_is_a_400(attacker: TestClient, text: str) -> None:
    r = attacker.post("/replay", files={"file": ("g.json", text, "application/json")})
    assert r.status_code == 400
    assert "cannot replay that file" in unescape(r.text) or "not a save" in unescape(r.text)


def test_a_table_file_nested_too_deeply_is_skipped_and_named(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "deadbeef.json").write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    store = TableStore(data_dir)
    try:
        assert not store.tables
        assert store.problems and store.problems[0].startswith("deadbeef.json: ")
        assert "nested too deeply" in store.problems[0]
    finally:
        store.close()


def test_a_config_nested_too_deeply_is_a_400(attacker: TestClient) -> None:
    config = "a = " + "[" * 5000 + "]" * 5000
    r = attacker.post("/games", data={"kind0": "person", "kind1": "random", "config": config})
    assert r.status_code == 400 and "not valid TOML" in unescape(r.text)
    assert not attacker.app.state.store.tables


def test_a_config_longer_than_a_game_config_is_refused_unread(attacker: TestClient, monkeypatch) -> None:
    """Deeply dotted keys make the TOML reader's time grow faster than the text (100,000 of
    them: many seconds, during which the server answered nobody): a config from the browser
    has at most MAX_CONFIG characters, and is refused before it is read."""
    read: list[str] = []
    monkeypatch.setattr("alhambra.web.forms.tomllib.loads", lambda text: read.append(text) or {})
    config = "[a" + ".a" * (MAX_CONFIG // 2) + "]"
    r = attacker.post("/games", data={"kind0": "person", "kind1": "random", "config": config})
    assert r.status_code == 400 and f"({MAX_CONFIG})" in unescape(r.text)
    assert read == []
    assert not attacker.app.state.store.tables


@pytest.mark.parametrize(
    "host",
    ["localhost:8765@evil.example.com", "localhost:abc", "127.0.0.1:\u00b2", "[::1]evil.example.com", "[::1]:x"],
)
def test_a_host_whose_port_is_not_a_number_is_refused(data_dir: Path, host: str) -> None:
    assert host_name(host) not in {"localhost", "127.0.0.1", "::1"}
    c = TestClient(create_app(data_dir), base_url=BASE)
    r = c.get("/", headers={"Host": host.encode("latin-1")})
    assert r.status_code == 400 and "host" in r.text


@pytest.mark.parametrize("host", ["localhost:8765", "[::1]:8765", "[::1]", "127.0.0.1", "LOCALHOST:1"])
def test_the_served_hosts_with_any_port_are_answered(data_dir: Path, host: str) -> None:
    c = TestClient(create_app(data_dir), base_url=BASE)
    assert c.get("/", headers={"Host": host}).status_code == 200


def test_forty_concurrent_copies_of_one_action_play_it_once(data_dir: Path) -> None:
    """The same listed action sent 40 times at once (a double click, a replayed request):
    one is played, the others are told the game has moved on (409)."""
    import threading

    c = TestClient(create_app(data_dir), base_url=BASE)
    table = create(c, ["person", "person"], seed=11)
    token = table.seats[0].token
    codes: list[int] = []
    rng = random.Random(0)
    indexes = [rng.randrange(len(table.game.legal_actions())) for _ in range(40)]

    def send(index: int) -> None:
        r = c.post(f"/g/{table.id}/seat/0/act", data={"t": token, "index": index, "version": 0}, follow_redirects=False)
        codes.append(r.status_code)

    threads = [threading.Thread(target=send, args=(i,)) for i in indexes]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert time.monotonic() - start < 60
    assert sorted(codes) == [303] + [409] * 39
    assert len(table.game.history) == 1 and table.version == 1


def test_a_game_of_bots_only_does_not_hold_up_the_other_tables_bots(data_dir: Path) -> None:
    """Two requests creating games of six bots each used to keep both bot workers for the
    whole of those games (minutes with mcts), so that no other table's bot moved meanwhile:
    the workers take turns, one bot move per table (here one worker, greedy bots)."""
    store = TableStore(data_dir, workers=1, bot_seconds=None)
    try:
        from alhambra.web.tables import Seat

        hog = store.create(seats=[Seat(f"B{i}", "greedy", "greedy") for i in range(6)], modules=[], seed=1)
        table = store.create(
            seats=[Seat("Bot", "greedy", "greedy"), Seat("Ann", "person")],
            modules=[],
            seed=3,
            options={"start_player": "seat"},
        )
        assert store.settle(table, timeout=120)
        assert table.decider == 1 and len(table.game.history) >= 1
        assert not hog.game.is_over  # the other table's bot moved long before the all-bot game ended
        assert store.settle(hog, timeout=300) and hog.game.is_over
    finally:
        store.close()
