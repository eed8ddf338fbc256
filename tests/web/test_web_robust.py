"""Nothing lost, nobody locked out: default-seeded games survive a restart (their replay and
download load), seeds out of range are refused at the door, the bots move in background
workers without the table's lock and with a time budget, every body is limited before it is
read, a Host or a POST from another site is refused, and during the vizier's asking round
nobody but the seat asked learns whom it asks (R-VIZ-5)."""

from __future__ import annotations

import json
import random
import socket
import threading
from html import unescape
from pathlib import Path

import alhambra
import pytest
from alhambra import SEED_LIMIT, Game
from alhambra.bots import make_bot
from alhambra.cli import main
from alhambra.web import create_app
from alhambra.web import replays as replays_module
from alhambra.web.replays import CHECKPOINT, build_replay
from alhambra.web.tables import Table, TableStore
from alhambra.web.words import card_words
from starlette.testclient import TestClient

from .conftest import ALL_MODULES, BASE, act, create, seat_url
from .server import LiveServer


def play_out(client: TestClient, table: Table, rng: random.Random, limit: int = 5000) -> None:
    for _ in range(limit):
        seat = table.decider
        if seat is None:
            return
        assert act(client, table, seat, rng.randrange(len(table.game.legal_actions()))).status_code == 303
    raise AssertionError("the game did not end")


# -- seeds -------------------------------------------------------------------------------------


def test_default_seeded_game_survives_a_restart_and_its_replay_and_download_load(data_dir: Path) -> None:
    client = TestClient(create_app(data_dir), base_url=BASE)
    r = client.post("/games", data={"kind0": "person", "kind1": "random", "kind2": "person"}, follow_redirects=False)
    assert r.status_code == 303  # no seed typed: the game draws one in 0 <= seed < 2**63
    table = client.app.state.store.get(r.headers["location"].split("/")[2])
    assert client.app.state.store.settle(table)
    rng = random.Random(3)
    for _ in range(20):
        assert act(client, table, table.decider, rng.randrange(len(table.game.legal_actions()))).status_code == 303
    restarted = TestClient(create_app(data_dir), base_url=BASE)
    store = restarted.app.state.store
    assert store.problems == [] and table.id in store.tables
    resumed = store.get(table.id)
    assert resumed.game.seed == table.game.seed and resumed.game.to_json() == table.game.to_json()
    play_out(restarted, resumed, rng)
    token = resumed.seats[0].token
    saved = restarted.get(f"/g/{table.id}/save?t={token}")
    assert saved.status_code == 200
    assert Game.from_json(saved.content).to_json() == resumed.game.to_json()
    r = restarted.get(f"/g/{table.id}/replay?t={token}", follow_redirects=False)
    assert r.status_code == 303 and restarted.get(r.headers["location"]).status_code == 200
    again = TestClient(create_app(data_dir), base_url=BASE)  # and once more, over
    assert again.app.state.store.problems == [] and again.app.state.store.get(table.id).game.is_over


@pytest.mark.parametrize("seed", [str(SEED_LIMIT), str(2**64), "-1", "12x"])
def test_the_forms_seed_out_of_range_is_refused(client: TestClient, seed: str) -> None:
    r = client.post("/games", data={"kind0": "person", "kind1": "random", "seed": seed})
    assert r.status_code == 400 and "seed" in unescape(r.text)
    assert not client.app.state.store.tables


def test_the_forms_largest_seed_and_a_configs_seed(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=SEED_LIMIT - 1)
    assert table.game.seed == SEED_LIMIT - 1
    r = client.post("/games", data={"kind0": "person", "kind1": "random", "config": f"seed = {SEED_LIMIT}"})
    assert r.status_code == 400 and "seed" in unescape(r.text)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--seed", str(SEED_LIMIT)], "below 2**63"),
        (["simulate", "--seed", "-3"], "0 or more"),
        (["simulate", "--seed", str(SEED_LIMIT - 1), "--games", "2"], "last game's seed"),
    ],
)
def test_the_command_lines_seed_out_of_range_is_refused(argv: list[str], message: str, capsys) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


# -- bots in the background --------------------------------------------------------------------


def test_bots_think_outside_the_request_and_the_tables_lock(client: TestClient, monkeypatch) -> None:
    store: TableStore = client.app.state.store
    entered, release = threading.Event(), threading.Event()
    bot_class = type(make_bot("greedy"))
    original = bot_class.choose

    def stuck(self, game, seat, legal):
        entered.set()
        release.wait(30)
        return original(self, game, seat, legal)

    monkeypatch.setattr(bot_class, "choose", stuck)
    try:
        r = client.post(
            "/games",
            data={"kind0": "greedy", "kind1": "greedy", "kind2": "person", "seed": "2"},  # a bot starts
            follow_redirects=False,
        )
        assert r.status_code == 303  # answered while the first bot is still thinking
        table = store.get(r.headers["location"].split("/")[2])
        assert entered.wait(30) and store.thinking(table)
        assert table.lock.acquire(timeout=5)  # nobody holds the table while the bot thinks
        table.lock.release()
        page = client.get(f"/g/{table.id}")
        assert page.status_code == 200 and 'id="thinking"' in page.text
        assert client.get(f"/g/{table.id}/version").json()["thinking"] is True
    finally:
        release.set()
    assert store.settle(table) and table.decider == 2


def test_a_web_bot_has_a_time_budget_per_decision() -> None:
    game = alhambra.new_game(4, seed=5)
    bot = make_bot("mcts:1000000", seed=1, max_seconds=0.2)
    bot.choose(game, game.current_player, game.legal_actions())
    assert 0 < bot.last_search["iterations"] < 1_000_000  # stopped by the clock, not the playouts
    table = Table(id="x", game=game, seats=[], host_token="h", bot_seconds=2.0)
    from alhambra.web.tables import Seat

    table.seats = [Seat(f"B{i}", "mcts", "mcts:5000") for i in range(4)]
    assert table.bot_for(0).max_seconds == 2.0


# -- limits before reading ---------------------------------------------------------------------


def raw_request(port: int, head: str, body: bytes = b"") -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head.encode() + body)
        return s.recv(4096).decode("latin-1")


def test_an_oversized_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games")
    try:
        head = (
            "POST /replay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            "Content-Length: 300000000\r\n\r\n"
        )
        answer = raw_request(live.port, head, b"--x\r\n")  # 300 MB announced, 5 bytes sent: answered at once
        assert answer.startswith("HTTP/1.1 413")
    finally:
        live.stop()


def test_a_streamed_body_over_the_limit_is_refused(data_dir: Path) -> None:
    c = TestClient(create_app(data_dir, max_upload=10_000), base_url=BASE)

    def chunks():
        for _ in range(100):
            yield b"x" * 1000

    r = c.post("/replay", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    big = "a=" + "x" * 20_000
    r = c.post("/games", content=big, headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413


def test_an_action_or_new_game_form_is_small(client: TestClient) -> None:
    table = create(client, ["person", "person"], seed=2)
    big = {"t": table.seats[0].token, "index": "0", "version": "0", "pad": "x" * 1_100_000}
    assert client.post(f"/g/{table.id}/seat/0/act", data=big).status_code == 413
    assert (
        client.post("/games", data={"kind0": "person", "kind1": "person", "config": "#" * 1_100_000}).status_code == 413
    )
    assert table.version == 0


def test_too_many_form_fields_are_refused(client: TestClient) -> None:
    r = client.post("/games", files=[(f"f{i}", (None, "1")) for i in range(400)])
    assert r.status_code == 400 and "form" in unescape(r.text)


def test_an_uploaded_history_too_long_is_refused_before_replaying(client: TestClient, monkeypatch) -> None:
    game = alhambra.new_game(3, seed=4)
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    monkeypatch.setattr(replays_module, "MAX_HISTORY", 20)
    r = client.post("/replay", files={"file": ("g.json", game.to_json(), "application/json")})
    assert r.status_code == 400 and "30 actions" in unescape(r.text)


def test_replay_memory_is_linear_in_the_history() -> None:
    game = alhambra.new_game(3, modules=ALL_MODULES, seed=7)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    replay = build_replay(game.to_json())
    assert len(replay.snapshots) == replay.last // CHECKPOINT + 1
    assert all(s.history == [] for s in replay.snapshots)  # the history is kept once, not per step
    for step in (0, 1, CHECKPOINT - 1, CHECKPOINT, replay.last // 2, replay.last):
        expected = alhambra.new_game(3, modules=ALL_MODULES, seed=7)
        for a in game.history[:step]:
            expected.apply(a)
        assert replay.game_at(step).to_json() == expected.to_json()


# -- who may ask, and from where ---------------------------------------------------------------


def test_a_host_not_served_is_refused(data_dir: Path) -> None:
    c = TestClient(create_app(data_dir), base_url="http://evil.example.com")
    r = c.get("/")
    assert r.status_code == 400 and "host" in r.text
    assert TestClient(create_app(data_dir), base_url="http://127.0.0.1:8765").get("/").status_code == 200
    ok = TestClient(create_app(data_dir, allow_hosts=["alhambra.lan"]), base_url="http://alhambra.lan:8765")
    assert ok.get("/").status_code == 200


def test_a_post_from_another_site_is_refused(client: TestClient) -> None:
    form = {"kind0": "person", "kind1": "random"}
    r = client.post("/games", data=form, headers={"Origin": "http://evil.example.com"})
    assert r.status_code == 403
    r = client.post("/games", data=form, headers={"Origin": "http://localhost:9999"})  # another port: another site
    assert r.status_code == 403
    r = client.post("/games", data=form, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    r = client.post("/games", data=form, headers={"Origin": "null", "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    r = client.post("/games", data=form, headers={"Origin": "null"})  # no Sec-Fetch-Site to vouch for it
    assert r.status_code == 403
    assert not client.app.state.store.tables
    r = client.post("/games", data=form, headers={"Origin": BASE}, follow_redirects=False)
    assert r.status_code == 303


def test_no_server_path_on_a_public_page(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "abc.json").write_text("not json")
    c = TestClient(create_app(data_dir), base_url=BASE)
    page = c.get("/").text
    assert "abc.json" in page and str(data_dir) not in page


# -- R-VIZ-5: whom the vizier asks ---------------------------------------------------------------


def _asking_round_with_two_asked(client: TestClient) -> tuple[Table, int]:
    """A table of four people in the vizier's asking round where the seat asked now may
    decline and another seat is asked next; and an observer who is neither."""
    for seed in range(60, 160):
        table = create(client, ["person"] * 4, modules=["vizier"], seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            game = table.game
            if game.is_over:
                break
            if game.phase == "vizier":
                decline = [i for i, a in enumerate(game.legal_actions()) if type(a).__name__ == "DeclineVizier"]
                trial = game.clone()
                trial.apply(game.legal_actions()[decline[0]])
                if trial.phase == "vizier" and trial.current_player != game.current_player:
                    observer = next(s for s in range(4) if s not in (game.current_player, trial.current_player))
                    return table, observer
            legal = game.legal_actions()
            plain = [i for i, a in enumerate(legal) if type(a).__name__ != "UseVizier"]
            assert act(client, table, table.decider, rng.choice(plain)).status_code == 303
    raise AssertionError("no asking round with two seats asked")


def test_the_asking_round_hides_whom_it_asks_and_who_declined(client: TestClient) -> None:
    table, observer = _asking_round_with_two_asked(client)
    token = table.seats[observer].token

    def responses() -> list[str]:
        return [
            client.get(f"/g/{table.id}").text,
            client.get(seat_url(table, observer)).text,
            client.get(seat_url(table, observer, "/state.json")).text,
            client.get(f"/g/{table.id}/version").text,
            client.get(f"/g/{table.id}/version?t={token}").text,
        ]

    first = table.decider
    before = responses()
    name = table.seats[first].name
    assert f"asking {name}" not in before[0] and f"asking {name}" not in before[1]
    assert "asking round is on" in before[0] and "asking round is on" in before[1]
    assert json.loads(before[3])["decider"] is None and json.loads(before[3])["vizier_round"] is True
    asked = client.get(f"/g/{table.id}/version?t={table.seats[first].token}").json()
    assert asked["yours"] is True and asked["decider"] == first  # the seat asked knows
    legal = table.game.legal_actions()
    decline = next(i for i, a in enumerate(legal) if type(a).__name__ == "DeclineVizier")
    assert act(client, table, first, decline).status_code == 303
    assert table.game.phase == "vizier" and table.decider not in (first, observer)
    assert responses() == before  # a decline looks the same as a seat not asked


def test_a_page_with_the_asked_seat_named_would_fail_the_check(client: TestClient) -> None:
    """The comparison above can fail: the asked seat's own view names it (and the engine's
    ``current_player`` does), the observer's does not (R-VIZ-5 in ``Game.view`` itself)."""
    table, observer = _asking_round_with_two_asked(client)
    asked = table.game.view(table.decider)
    assert asked["current_player"] == table.decider and asked["modules"]["vizier"]["asking"] == table.decider
    real = table.game.view(observer)
    assert real["current_player"] is None and real["modules"]["vizier"]["asking"] is None
    assert client.get(seat_url(table, table.decider, "/state.json")).json()["view"] != real


# -- what people know: hands seen entering, the end-of-game distribution ------------------------


def test_each_seats_known_hand_is_every_card_seen_entering_it(client: TestClient, data_dir: Path) -> None:
    """The starting deal is face up (R-SET-3) and takes from the display are public
    (R-TURN-2), payments too: in the base game everyone can know every hand, as the bots do."""
    table = create(client, ["person", "greedy", "person"], seed=14, names=["Ana", "Bo", "Cy"])
    rng = random.Random(4)
    for _ in range(40):
        if table.game.is_over:
            break
        for known, p in zip(table.known, table.game.state.players):
            assert sorted(known) == sorted(c.code for c in p.hand)
        assert act(client, table, table.decider, rng.randrange(len(table.game.legal_actions()))).status_code == 303
    page = client.get(seat_url(table, 0)).text
    bo = table.game.state.players[1]
    shown = unescape(page.split('id="known-1"', 1)[1].split("</p>", 1)[0])
    assert "known hand:" in page and all(card_words(c.code) in shown for c in bo.hand)
    restarted = TestClient(create_app(data_dir), base_url=BASE).app.state.store.get(table.id)
    assert restarted.known == table.known
    saved = json.loads((data_dir / f"{table.id}.json").read_text())
    del saved["known"]  # a table saved before known hands were kept: rebuilt from the history
    assert TableStore(None).load(json.dumps(saved)).known == table.known


def test_the_end_of_game_distribution_is_explained(client: TestClient) -> None:
    """R-END-2: each building left on the market goes to the holder of the most money of its
    currency, nobody on a tie; the final page says who got what and why."""
    table = create(client, ["person", "person", "person"], seed=0, names=["Ana", "Bo", "Cy"])
    play_out(client, table, random.Random(0))
    lines = [e.text for e in table.log if e.text.startswith("Distribution (R-END-2): ")]
    assert lines, "this seed ends with buildings on the market"
    after = [e.text for e in table.log]
    for line in lines:
        what = line.split("Distribution (R-END-2): the ", 1)[1].split(" of the ", 1)[0]
        if " goes to " in line:
            name = line.split(" goes to ", 1)[1].split(",", 1)[0]
            assert any(t.startswith(f"{name} ") and f"the {what}" in t for t in after[after.index(line) :])
        else:
            assert " tie for the most " in line
    page = client.get(seat_url(table, 0)).text
    assert 'id="distribution"' in page and unescape(lines[0].split(": ", 1)[1]) in unescape(page)


def test_unnamed_bots_of_one_kind_get_distinct_names(client: TestClient) -> None:
    r = client.post(
        "/games",
        data={"kind0": "person", "kind1": "greedy", "kind2": "greedy", "kind3": "random"},
        follow_redirects=False,
    )
    table = client.app.state.store.get(r.headers["location"].split("/")[2])
    assert [s.name for s in table.seats] == ["Player 1", "greedy bot", "greedy bot 2", "random bot"]


def test_a_vizier_purchase_earns_no_other_action_in_words() -> None:
    """R-VIZ-2: a vizier purchase is paid exactly but earns no action (R-TURN-4 is for turns)."""
    from alhambra.web.words import payment_words

    cards = tuple(alhambra.MoneyCard("dinar", v) for v in (3, 4))
    assert payment_words(cards, None, 7) == "dinar 3 + dinar 4 (7, exact: another action)"
    assert payment_words(cards, None, 7, bonus=False) == "dinar 3 + dinar 4 (7, exact)"


def test_a_favicon_is_served(client: TestClient) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert 'rel="icon"' in client.get("/").text
