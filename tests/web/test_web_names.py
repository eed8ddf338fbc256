"""Player names on the new-game form follow the engine's limit (``alhambra.MAX_NAME_LENGTH``,
100 characters, as ``new_game``, positions and saves have it): a longer name is a 400 saying
so, never cut silently (the form used to cut at 40)."""

from __future__ import annotations

from html import unescape

from starlette.testclient import TestClient

from alhambra import MAX_NAME_LENGTH

from .conftest import create


def test_a_name_up_to_the_engines_limit_is_kept(client: TestClient) -> None:
    assert f'maxlength="{MAX_NAME_LENGTH}"' in client.get("/").text
    name = "N" * MAX_NAME_LENGTH
    table = create(client, ["person", "random"], names=[name, "Bot"])
    assert table.game.config["players"][0] == name and table.seats[0].name == name


def test_a_longer_name_is_refused_with_a_clear_400(client: TestClient) -> None:
    long = "N" * (MAX_NAME_LENGTH + 1)
    r = client.post("/games", data={"kind0": "person", "name0": long, "kind1": "random"}, follow_redirects=False)
    assert r.status_code == 400
    assert "seat 1: a name is 101 characters long; a player name has at most 100 characters" in unescape(r.text)
    config = f'players = ["Ana", "{long}"]'
    r = client.post("/games", data={"kind0": "person", "kind1": "random", "config": config}, follow_redirects=False)
    assert r.status_code == 400
    assert "the config's players[1]: a name is 101 characters long" in unescape(r.text)
    assert client.app.state.store.tables == {}
