"""HTTP tests of every route of the web app: the new-game form, the play page and its
actions (403 / 409 / 400), saves after every action and resuming after a restart, undo
within the turn, the hot seat, downloads and the replay viewer."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from html import unescape
from pathlib import Path

import alhambra
import pytest
from alhambra.web import create_app
from alhambra.web.tables import Table, TableStore
from starlette.testclient import TestClient

from .conftest import ALL_MODULES, BASE, act, create, seat_url


def play_out(client: TestClient, table: Table, rng: random.Random, limit: int = 5000) -> None:
    """Play the persons' seats at random through HTTP until the game is over."""
    for _ in range(limit):
        seat = table.decider
        if seat is None:
            return
        n = len(table.game.legal_actions())
        r = act(client, table, seat, rng.randrange(n))
        assert r.status_code == 303, r.text
    raise AssertionError("the game did not end")


# -- the start page and the new-game form ------------------------------------------------------


def test_index_lists_modules_options_and_games(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    for m in ALL_MODULES:
        assert f'value="{m}"' in unescape(r.text)
    for option in ("holes", "tiebreak", "start_player"):
        assert f'name="opt:{option}"' in unescape(r.text)
    assert "building_huts.layout" not in unescape(r.text)  # a file option is not set from a browser
    table = create(client, ["person", "random"])
    r = client.get("/")
    assert f'href="/g/{table.id}"' in unescape(r.text)
    assert f"host?t={table.host_token}" in unescape(r.text)  # to the browser that created it (its cookie)
    client.cookies.clear()
    assert f"host?t={table.host_token}" not in unescape(client.get("/").text)  # to no other


def test_a_users_own_module_is_offered(data_dir: Path) -> None:
    from alhambra.saving.config import load_module_file

    golden_fountain = load_module_file(Path(__file__).parents[2] / "examples" / "golden_fountain.py")
    c = TestClient(create_app(data_dir, modules=[golden_fountain]), base_url=BASE)
    assert 'value="golden_fountain"' in c.get("/").text
    table = create(c, ["person", "greedy"], modules=["golden_fountain"])
    assert table.game.rules.modules == ("golden_fountain",)


def test_create_sets_seats_modules_options_and_seed(client: TestClient) -> None:
    table = create(
        client,
        ["person", "mcts", "greedy"],
        modules=["vizier"],
        seed=9,
        names=["Ana", "Bo", "Cy"],
        **{"budget1": "12", "opt:holes": "region"},
    )
    g = table.game
    assert g.config["players"] == ["Ana", "Bo", "Cy"] and g.rules.modules == ("vizier",) and g.seed == 9
    assert g.rules.options["holes"] == "region"
    assert [s.kind for s in table.seats] == ["person", "mcts", "greedy"]
    assert [s.bot for s in table.seats] == [None, "mcts:12", "greedy"]
    assert table.seats[0].token and table.seats[1].token is None
    assert table.decider == 0  # the bots have moved until the person must decide


def test_create_from_a_toml_config(client: TestClient) -> None:
    config = 'modules = ["building_huts", "bonus_cards"]\nseed = 77\n[options]\ntiebreak = "money"\n'
    table = create(client, ["person", "random"], config=config)
    assert table.game.rules.modules == ("building_huts", "bonus_cards")
    assert table.game.seed == 77 and table.game.rules.options["tiebreak"] == "money"


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind0": "person"}, "choose 2 to 6 seats"),
        ({"kind0": "person", "kind1": "wizard"}, "neither a person nor a bot"),
        ({"kind0": "person", "kind1": "mcts", "budget1": "0"}, "an mcts budget is 1-5000"),
        ({"kind0": "person", "kind1": "mcts", "budget1": "lots"}, "budget must be an integer"),
        ({"kind0": "person", "kind1": "random", "module": "nope"}, "unknown module 'nope'"),
        ({"kind0": "person", "kind1": "random", "opt:holes": "everywhere"}, "must be one of"),
        ({"kind0": "person", "kind1": "random", "opt:colour": "x"}, "unknown option 'colour'"),
        ({"kind0": "person", "kind1": "random", "seed": "x1"}, "seed must be an integer"),
        ({"kind0": "person", "kind1": "random", "config": "modules = ["}, "not valid TOML"),
        ({"kind0": "person", "kind1": "random", "config": 'module_paths = ["evil.py"]'}, "would run code"),
        ({"kind0": "person", "kind1": "random", "config": "players = 4"}, "the config is for 4 players"),
        (
            {
                "kind0": "person",
                "kind1": "random",
                "config": 'modules = ["building_huts"]\n[options]\n"building_huts.layout" = "/etc/passwd"',
            },
            "names a file",
        ),
        ({"kind0": "person", "kind1": "random", "config": '[options]\nholes = "nowhere"'}, "must be one of"),
    ],
)
def test_create_refuses_bad_forms_with_400(client: TestClient, form: dict, message: str) -> None:
    r = client.post("/games", data=form, follow_redirects=False)
    assert r.status_code == 400
    assert message in unescape(r.text)
    assert client.app.state.store.tables == {}


# -- tokens: 403 -------------------------------------------------------------------------------


def test_a_seat_needs_its_own_token(client: TestClient) -> None:
    table = create(client, ["person", "person", "random"])
    base = f"/g/{table.id}/seat/0"
    assert client.get(seat_url(table, 0)).status_code == 200
    for url in (
        f"{base}?t={table.host_token}",  # the host token opens no seat: the host page lists their links
        base,
        f"{base}?t=",
        f"{base}?t=guess",
        f"{base}?t={table.seats[1].token}",
        f"/g/{table.id}/seat/2?t={table.host_token}",
        f"/g/{table.id}/seat/9?t={table.seats[0].token}",
        f"{base}/state.json?t={table.seats[1].token}",
    ):
        r = client.get(url)
        assert r.status_code == 403, url
    r = act(client, table, 0, 0, t=table.seats[1].token)
    assert r.status_code == 403
    assert client.get(f"/g/{table.id}/host").status_code == 200  # the browser that created it
    client.cookies.clear()  # another browser
    assert client.get(f"/g/{table.id}/host").status_code == 403
    assert client.get(f"/g/{table.id}/host?t={table.seats[0].token}").status_code == 403
    assert client.get(f"/g/{table.id}/next?t={table.seats[0].token}").status_code == 403
    assert client.get(f"/g/{table.id}/host?t={table.host_token}").status_code == 200
    assert client.get(seat_url(table, 0, "/state.json")).json()["seat"] == 0
    headers = client.get(seat_url(table, 0)).headers
    assert headers["referrer-policy"] == "no-referrer" and headers["cache-control"] == "no-store"


def test_unknown_games_and_replays_are_404(client: TestClient) -> None:
    assert client.get("/g/nosuch").status_code == 404
    assert client.get("/g/nosuch/seat/0?t=x").status_code == 404
    assert client.get("/replay/nosuch").status_code == 404
    assert client.get("/nowhere").status_code == 404


# -- actions: 409 and 400 -----------------------------------------------------------------------


def test_an_action_is_an_index_and_a_version(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=3)
    legal = table.game.legal_actions()
    before = len(table.game.history)
    r = act(client, table, 0, 0)
    assert r.status_code == 303 and r.headers["location"] == seat_url(table, 0)
    assert table.game.history[before] == legal[0]
    assert table.version == len(table.game.history) - before  # the person's action, then each bot move


def test_stale_and_malformed_actions(client: TestClient) -> None:
    table = create(client, ["person", "person"], seed=4)
    seat = table.decider
    other = 1 - seat
    saved = table.game.to_json()
    n = len(table.game.legal_actions())
    cases = [
        ({"index": 0, "version": table.version + 1}, 409, "the game has moved on"),
        ({"index": 0, "version": -1}, 409, "the game has moved on"),
        ({"index": "first"}, 400, "index must be an integer"),
        ({"index": ""}, 400, "index is missing"),
        ({"index": n}, 400, f"not one of the {n} listed actions"),
        ({"index": -1}, 400, "not one of the"),
        ({"index": 0, "version": "v1"}, 400, "version must be an integer"),
        ({"index": "1" * 40}, 400, "index must be an integer"),
    ]
    for fields, status, message in cases:
        r = act(client, table, seat, **fields)
        assert r.status_code == status, fields
        assert message in unescape(r.text)
    r = act(client, table, other, 0)
    assert r.status_code == 409 and "not seat" in unescape(r.text)
    r = client.post(
        f"/g/{table.id}/seat/{seat}/act", data={"t": table.seats[seat].token}, headers={"accept": "application/json"}
    )
    assert r.status_code == 400 and r.json()["error"] == "index is missing"
    r = client.post(f"/g/{table.id}/seat/{seat}/act", content=b"\xff\xfe", headers={"content-type": "text/plain"})
    assert r.status_code == 403  # no token in a body that is no form
    assert table.game.to_json() == saved and table.version == 0  # refused requests change nothing


def test_a_stale_page_gets_409_after_the_game_moved(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=5)
    version = table.version
    assert act(client, table, 0, 0).status_code == 303
    if table.decider == 0:
        r = act(client, table, 0, 0, version=version)
        assert r.status_code == 409


def test_two_requests_for_one_game_are_played_one_at_a_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = create(client, ["person", "random"], seed=6)
    inside, most = [0], [0]
    original = TableStore._apply

    def slow_apply(self: TableStore, t: Table, action: object) -> None:
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.2)  # a slow action: the other request arrives meanwhile
        try:
            original(self, t, action)
        finally:
            inside[0] -= 1

    monkeypatch.setattr(TableStore, "_apply", slow_apply)
    results: list[int] = []
    start = threading.Barrier(2)
    history = len(table.game.history)

    def send() -> None:
        start.wait()
        results.append(act(client, table, 0, 0, version=0).status_code)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [303, 409]
    assert most[0] == 1 and table.version == len(table.game.history) - history
    assert table.log[history].step == history  # the person's action, played once


def test_version_route(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=2)
    assert client.get(f"/g/{table.id}/version").json() == {
        "version": table.public_version,
        "decider": 0,
        "over": False,
        "vizier_round": False,
        "thinking": False,
        "yours": False,
    }
    mine = client.get(f"/g/{table.id}/version?t={table.seats[0].token}").json()
    assert mine["yours"] is True and mine["version"] == table.version


# -- what a page shows ---------------------------------------------------------------------------


def test_the_play_page_shows_the_table(client: TestClient) -> None:
    table = create(client, ["person", "greedy"], modules=ALL_MODULES, seed=8, names=["Ana", "Bot"])
    html = client.get(seat_url(table, 0)).text
    v = table.game.view(0)
    assert table.game.phase == "vizier"  # this seed: the vizier asks Ana between the bot's turns (R-VIZ-2)
    assert "The vizier offers you a building" in html and 'data-kind="DeclineVizier"' in html
    for m in v["market"]:
        assert f'data-pick="space:{m["space"]}"' in html
    for code in v["players"][0]["hand"]:
        assert alhambra.web.words.card_words(code) in html
    assert "Building huts" in html and "Vizier" in html and "Your bonus cards" in html
    assert 'id="mine-cell-1_0"' in html and 'id="mine-tile-0_0"' in html
    data = client.get(seat_url(table, 0, "/state.json")).json()
    assert data["view"] == json.loads(json.dumps(v))
    assert [a["index"] for a in data["actions"]] == list(range(len(table.game.legal_actions())))
    assert data["log"][0]["text"].startswith("Bot ") if data["log"] else True
    assert "token" not in json.dumps(data["seats"])


def test_log_in_words_and_scoring_breakdowns(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=11, names=["Ana", "Bo"])
    rng = random.Random(1)
    while not table.game.state.scorings:
        seat = table.decider
        legal = table.game.legal_actions()
        buys = [i for i, a in enumerate(legal) if type(a).__name__ == "Buy"]
        assert act(client, table, seat, rng.choice(buys or range(len(legal)))).status_code == 303
    html = client.get(seat_url(table, 0)).text
    texts = [e.text for e in table.log]
    assert any(t.startswith("Ana bought the ") and " space, paying " in t for t in texts)
    assert any(t.startswith("Scoring 1: Ana ") for t in texts)
    rec = table.game.state.scorings[0]
    assert 'id="scoring-1"' in html
    assert f'<td class="num"><b>{rec.totals[0]}</b></td>' in html
    assert f'<td class="num">{rec.walls[0]}</td>' in html


# -- nothing lost: saves, restart, download --------------------------------------------------


def test_saved_after_every_action_and_resumed_after_a_restart(client: TestClient, data_dir: Path) -> None:
    table = create(client, ["person", "greedy", "person"], modules=["vizier", "exchange_offices"], seed=12)
    rng = random.Random(2)
    for _ in range(15):
        seat = table.decider
        assert act(client, table, seat, rng.randrange(len(table.game.legal_actions()))).status_code == 303
        saved = json.loads((data_dir / f"{table.id}.json").read_text())
        assert saved["version"] == table.version
        assert json.dumps(saved["game"]) == json.dumps(json.loads(table.game.to_json()))
    again = TestClient(create_app(data_dir), base_url=BASE)
    resumed = again.app.state.store.get(table.id)
    assert resumed.version == table.version and resumed.game.to_json() == table.game.to_json()
    assert [e.text for e in resumed.log] == [e.text for e in table.log]
    seat = resumed.decider
    assert again.get(seat_url(resumed, seat)).status_code == 200
    assert again.get(seat_url(table, seat)).text == client.get(seat_url(table, seat)).text
    assert act(again, resumed, seat, 0).status_code == 303
    assert resumed.version == table.version + 1


def test_a_broken_save_is_skipped_and_named(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "abc.json").write_text('{"format": "alhambra-web-table", "format_version": 1}')
    (data_dir / "def.json").write_text("not json")
    c = TestClient(create_app(data_dir), base_url=BASE)
    problems = c.app.state.store.problems
    assert len(problems) == 2 and "abc.json" in problems[0] and "not JSON" in problems[1]
    assert "abc.json" in c.get("/").text


def test_the_save_downloads_once_the_game_is_over(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=13)
    r = client.get(f"/g/{table.id}/save?t={table.seats[0].token}")
    assert r.status_code == 403 and "once the game is over" in unescape(r.text)
    assert client.get(f"/g/{table.id}/save?t=nobody").status_code == 403
    play_out(client, table, random.Random(3))
    r = client.get(f"/g/{table.id}/save?t={table.seats[0].token}")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    loaded = alhambra.Game.from_json(r.text)
    assert loaded.is_over and loaded.scores == table.game.scores
    page = client.get(seat_url(table, 0)).text
    assert 'id="final-scores"' in page and 'id="download"' in page


# -- undo within the turn --------------------------------------------------------------------


def _exact_buy(game: alhambra.Game) -> int | None:
    cat = game.rules.catalog
    for i, a in enumerate(game.legal_actions()):
        if type(a).__name__ == "Buy" and sum(c.value for c in a.cards) == cat[game.state.market[a.space - 1]].price:
            return i
    return None


def test_undo_an_exact_purchase_within_the_turn(client: TestClient, data_dir: Path) -> None:
    table = create(client, ["person", "random"], seed=14)
    rng = random.Random(4)
    while (index := _exact_buy(table.game)) is None or table.game.phase != "turn":
        takes = [i for i, a in enumerate(table.game.legal_actions()) if type(a).__name__ == "TakeMoney"]
        assert act(client, table, 0, rng.choice(takes or [0])).status_code == 303
    before, version, log = table.game.to_json(), table.version, len(table.log)
    assert act(client, table, 0, index).status_code == 303
    assert table.decider == 0 and table.game.phase == "turn"  # R-TURN-4: another action
    page = client.get(seat_url(table, 0)).text
    assert 'id="undo"' in page
    undo = f"/g/{table.id}/seat/0/undo"
    assert client.post(undo, data={"t": table.seats[0].token, "version": version}).status_code == 409
    assert client.post(undo, data={"t": table.seats[1].token or "", "version": table.version}).status_code == 403
    restarted = TestClient(create_app(data_dir), base_url=BASE)  # the undo point is saved too
    table = restarted.app.state.store.get(table.id)
    assert restarted.app.state.store.can_undo(table, 0)
    r = restarted.post(undo, data={"t": table.seats[0].token, "version": table.version}, follow_redirects=False)
    assert r.status_code == 303
    assert table.game.to_json() == before and len(table.log) == log and table.version == version + 2
    client = restarted
    r = client.post(undo, data={"t": table.seats[0].token, "version": table.version})
    assert r.status_code == 409 and "nothing of yours to undo" in unescape(r.text)
    assert 'id="undo"' not in client.get(seat_url(table, 0)).text


def test_no_undo_after_something_hidden_is_revealed(client: TestClient) -> None:
    table = create(client, ["person", "random"], modules=["building_huts"], seed=15)
    hut = next(i for i, a in enumerate(table.game.legal_actions()) if type(a).__name__ == "TakeHut")
    assert act(client, table, 0, hut).status_code == 303  # the stack's next hut turns face up (R-HUT-1)
    assert table.decider == 0 and table.game.phase == "place"
    assert not table.undo
    r = client.post(f"/g/{table.id}/seat/0/undo", data={"t": table.seats[0].token, "version": table.version})
    assert r.status_code == 409


# -- hot seat, spectators, host page ---------------------------------------------------------


def test_hot_seat_hides_the_hands_between_people(client: TestClient) -> None:
    table = create(client, ["person", "person"], seed=16, names=["Ana", "Bo"])
    host = f"/g/{table.id}/next?t={table.host_token}"
    d = table.decider
    page = client.get(host).text
    assert f"Pass the device to {table.seats[d].name}" in page
    assert 'id="hand"' not in page
    assert f"/seat/{d}?t={table.seats[d].token}&amp;hs=1" in page  # the seat's own link
    r = act(client, table, d, 0, hs="1")
    assert r.status_code == 303
    expected = f"/g/{table.id}/next" if table.decider != d else f"/g/{table.id}/seat/{d}?t={table.seats[d].token}&hs=1"
    assert r.headers["location"] == expected
    assert client.get(f"/g/{table.id}/next").status_code == 200  # the host's browser (its cookie)
    assert client.get(f"/g/{table.id}/host?t={table.host_token}").text.count('class="seat-link"') == 2
    client.cookies.clear()
    assert client.get(f"/g/{table.id}/next").status_code == 403  # another browser needs the host link


def test_spectator_sees_public_information(client: TestClient) -> None:
    table = create(client, ["person", "random"], modules=["bonus_cards"], seed=17)
    html = client.get(f"/g/{table.id}").text
    assert 'id="hand"' not in html and "Your bonus cards" not in html
    assert "Waiting for" in html


# -- replay viewer -----------------------------------------------------------------------------


def _finished(seed: int, modules: list[str] = ()) -> alhambra.Game:
    game = alhambra.new_game(2, modules=list(modules), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_replay_a_save_step_by_step(client: TestClient) -> None:
    game = _finished(21, ["vizier"])
    r = client.post("/replay", files={"file": ("g.json", game.to_json(), "application/json")}, follow_redirects=False)
    assert r.status_code == 303
    url = r.headers["location"]
    replay = client.app.state.replays.get(url.rsplit("/", 1)[1])
    assert replay.last == len(game.history)
    assert replay.game_at(replay.last).to_json() == alhambra.replay(game.to_json()).to_json()
    end = client.get(url).text
    assert f"step {replay.last} of {replay.last}" in end and "Scoring 3" in end
    start = client.get(url + "?step=0").text
    assert "step 0 of" in start and 'id="jump-scoring-1"' in start
    first = replay.scoring_steps[0]
    page = client.get(f"{url}?step={first}").text
    assert 'id="scoring-1"' in page and 'id="scoring-2"' not in page
    assert replay.game_at(first).state.scorings[0].number == 1 and not replay.game_at(first - 1).state.scorings
    assert f'href="?step={first - 1}" id="back"' in client.get(f"{url}?step={first}").text
    for bad in ("-1", str(replay.last + 1), "x"):
        assert client.get(f"{url}?step={bad}").status_code == 400


def test_replay_a_json_lines_record(client: TestClient) -> None:
    games = [_finished(s) for s in (31, 32)]
    text = "\n".join(g.to_json() for g in games) + "\n"
    r = client.post(
        "/replay",
        files={"file": ("g.jsonl", text, "application/octet-stream")},
        data={"game": "2"},
        follow_redirects=False,
    )
    replay = client.app.state.replays.get(r.headers["location"].rsplit("/", 1)[1])
    assert replay.number == 2 and replay.count == 2 and replay.game_at(replay.last).scores == games[1].scores
    r = client.post("/replay", files={"file": ("g.jsonl", text, "application/octet-stream")}, data={"game": "3"})
    assert r.status_code == 400 and "holds 2 game(s)" in unescape(r.text)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "choose a save"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b'{"format": "something else"}', "cannot replay that file"),
        (b"[1, 2", "cannot replay that file"),
    ],
)
def test_replay_refuses_what_is_not_a_save(client: TestClient, content: bytes, message: str) -> None:
    r = client.post("/replay", files={"file": ("x.json", content, "application/json")})
    assert r.status_code == 400 and message in unescape(r.text)


def test_replay_of_a_finished_table(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=22)
    assert client.get(f"/g/{table.id}/replay?t={table.seats[0].token}").status_code == 403
    play_out(client, table, random.Random(5))
    r = client.get(f"/g/{table.id}/replay?t={table.seats[0].token}", follow_redirects=False)
    assert r.status_code == 303
    assert client.get(r.headers["location"]).status_code == 200


def test_static_assets_ship_in_the_package(client: TestClient) -> None:
    assert "function" in client.get("/static/play.js").text
    assert "--sand" in client.get("/static/style.css").text
    html = client.get("/").text
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing fetched from the internet


def test_host_links_on_the_start_page_only_for_the_browser_that_created_the_game(data_dir: Path) -> None:
    app = create_app(data_dir)
    local = TestClient(app, base_url=BASE, client=("127.0.0.1", 50000))
    table = create(local, ["person", "random"])
    assert f"/g/{table.id}/host?t={table.host_token}" in local.get("/").text
    for client in (("127.0.0.1", 50001), ("192.168.1.9", 50000)):  # another browser of this machine, of another
        page = TestClient(app, base_url=BASE, client=client).get("/").text
        assert f'href="/g/{table.id}"' in page and table.host_token not in page
    trusted = create_app(data_dir, trusted_machine=True)  # alhambra play --trusted-machine
    assert table.host_token in TestClient(trusted, base_url=BASE, client=("127.0.0.1", 50001)).get("/").text
    assert table.host_token not in TestClient(trusted, base_url=BASE, client=("192.168.1.9", 50000)).get("/").text


def test_six_seats_of_people_and_every_bot(client: TestClient) -> None:
    table = create(client, ["person", "random", "greedy", "mcts", "person", "random"], modules=ALL_MODULES, budget3="4")
    assert table.game.num_players == 6 and table.decider in (0, 4)
    page = client.get(seat_url(table, table.decider)).text
    assert page.count('class="player') == 6 and "bot: mcts:4" in page
    r = client.post(
        "/games", data={f"kind{i}": "random" for i in range(6)} | {"kind6": "person"}, follow_redirects=False
    )
    assert r.status_code == 303  # a seventh seat is not in the form: only kind0..kind5 are read
    bots_only = client.app.state.store.get(r.headers["location"].split("/")[2])
    assert client.app.state.store.settle(bots_only, timeout=60)  # played by the worker, not in the request
    assert bots_only.game.is_over and not bots_only.human_seats()  # bots alone play to the end


def test_the_learned_bot_is_an_opponent(client: TestClient) -> None:
    """The new-game form offers the learned bot; a table with it plays on to the end."""
    assert 'value="learned"' in client.get("/").text
    table = create(client, ["learned", "greedy"], seed=5)
    assert table.seats[0].bot == "learned" and table.seats[0].kind == "learned"
    assert client.app.state.store.settle(table, timeout=120)
    assert table.game.is_over


def test_play_without_the_web_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from alhambra.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["play", "--data", "unused"]) == 2
    assert "pip install 'alhambra-engine[web]'" in capsys.readouterr().err


def test_revealing_a_bonus_card_from_the_hand(client: TestClient) -> None:
    table = create(client, ["person", "random"], modules=["bonus_cards"], seed=24, names=["Ana", "Bo"])
    rng = random.Random(6)
    while True:
        legal = table.game.legal_actions()
        reveal = [i for i, a in enumerate(legal) if type(a).__name__ == "RevealBonus"]
        if reveal:
            break
        buys = [i for i, a in enumerate(legal) if type(a).__name__ in ("Buy", "Place")]
        assert act(client, table, 0, rng.choice(buys or range(len(legal)))).status_code == 303
    building = legal[reveal[0]].building
    html = client.get(seat_url(table, 0)).text
    assert (
        f'<button class="act" form="act" name="index" value="{reveal[0]}" data-index="{reveal[0]}" '
        f'data-kind="RevealBonus">reveal</button>' in html
    )
    assert act(client, table, 0, reveal[0]).status_code == 303
    assert table.log[-1].text.startswith("Ana revealed the bonus card for the ")
    assert building in table.game.view(1)["modules"]["bonus_cards"]["players"][0]["revealed"]
    assert table.decider == 0 and not table.undo  # a free action (R-BON-5), and no taking back what Bo saw


def test_names_are_text_not_markup(client: TestClient) -> None:
    evil = '<script>alert("x")</script>'
    table = create(client, ["person", "random"], names=[evil, "Bo"])
    for url in (seat_url(table, 0), f"/g/{table.id}", f"/g/{table.id}/host?t={table.host_token}", "/"):
        page = client.get(url).text
        assert evil not in page and "&lt;script&gt;" in page


def test_config_names_the_players(client: TestClient) -> None:
    table = create(client, ["person", "greedy"], config='players = ["Ana", "Bo"]\nmodules = ["all"]')
    assert table.game.config["players"] == ["Ana", "Bo"]
    assert sorted(table.game.rules.modules) == sorted(alhambra.available_modules())  # every installed one


def test_options_of_the_servers_config_apply_to_new_games(data_dir: Path) -> None:
    from alhambra.saving.config import load_config

    cfg = load_config(Path(__file__).parents[2] / "examples" / "golden_fountain.toml")
    c = TestClient(create_app(data_dir, modules=cfg.module_objects, defaults=cfg.options), base_url=BASE)
    table = create(c, ["person", "random"], modules=["golden_fountain"])
    assert table.game.rules.options["golden_fountain.points"] == cfg.options["golden_fountain.points"] == 2
    plain = create(c, ["person", "random"], **{"opt:holes": "region"})
    assert "golden_fountain.points" not in plain.game.rules.options and plain.game.rules.options["holes"] == "region"
