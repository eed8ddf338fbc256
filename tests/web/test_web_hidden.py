"""No response carries another seat's hand, the bag or the deck order: over whole games, every
page and JSON answer a seat (or a spectator, or the hot-seat curtain) gets is the same when
everything that seat cannot see is resampled (``Game.determinize``), and the JSON's view is
exactly ``game.view(seat)``."""

from __future__ import annotations

import json
import random

import pytest
from alhambra.web.tables import Table
from starlette.testclient import TestClient

from .conftest import ALL_MODULES, act, create, seat_url


def pages(client: TestClient, table: Table, seat: int | None) -> list[str]:
    """Every answer that shows the table to ``seat`` (None: spectator and hot-seat curtain)."""
    if seat is None:
        return [client.get(f"/g/{table.id}").text, client.get(f"/g/{table.id}/next?t={table.host_token}").text]
    return [client.get(seat_url(table, seat)).text, client.get(seat_url(table, seat, "/state.json")).text]


def check_hidden(client: TestClient, table: Table, rng: random.Random) -> None:
    """The pages of every person's seat and of spectators do not change when what that seat
    cannot see is resampled; the JSON view is ``game.view(seat)``."""
    real = table.game
    for seat in [*table.human_seats(), None]:
        shown = pages(client, table, seat)
        if seat is not None:
            data = json.loads(shown[1])
            assert data["view"] == json.loads(json.dumps(real.view(seat)))
            if table.in_vizier_round and table.decider != seat:  # whom it asks is hidden (R-VIZ-5)
                assert data["view"]["current_player"] is None and data["view"]["modules"]["vizier"]["asking"] is None
            assert all("hand" not in p for i, p in enumerate(data["view"]["players"]) if i != seat)
        table.game = real.determinize(seat if seat is not None else rng.randrange(real.num_players), rng, recall=False)
        try:
            assert pages(client, table, seat) == shown, f"seat {seat} sees a hidden difference"
        finally:
            table.game = real


@pytest.mark.parametrize(
    ("kinds", "modules", "seed"),
    [
        (["person", "person"], [], 41),
        (["person", "random", "person"], ALL_MODULES, 42),
    ],
)
def test_no_response_reveals_hidden_information_over_a_whole_game(
    client: TestClient, kinds: list[str], modules: list[str], seed: int
) -> None:
    table = create(client, kinds, modules=modules, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not table.game.is_over:
        if steps % 4 == 0 or table.game.phase not in ("turn", "place"):
            check_hidden(client, table, rng)
        seat = table.decider
        r = act(client, table, seat, rng.randrange(len(table.game.legal_actions())))
        assert r.status_code == 303
        steps += 1
    check_hidden(client, table, rng)
    assert steps > 50


def test_the_determinized_probe_would_see_a_leak(client: TestClient) -> None:
    """The check above can fail: a page that showed another hand would differ."""
    table = create(client, ["person", "person", "person"], seed=43)
    real = table.game
    other = real.determinize(0, random.Random(1), recall=False)
    assert [c.code for c in other.state.players[1].hand] != [c.code for c in real.state.players[1].hand]
    assert other.state.bag != real.state.bag and other.view(0) == real.view(0)
