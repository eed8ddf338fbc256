"""Properties of what the web app shows, over random play for every module combination and
2-6 players: a seat's page data and HTML do not depend on anything that seat cannot see, the
listed actions are exactly the legal ones in order, and a table saved and loaded is the same
table."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from alhambra.web.app import _environment
from alhambra.web.pages import table_data
from alhambra.web.tables import PERSON, Seat, Table, TableStore
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import ALL_MODULES

COMBINATIONS = [list(c) for n in range(len(ALL_MODULES) + 1) for c in itertools.combinations(ALL_MODULES, n)]
TEMPLATE = _environment().get_template("table.html")


def _page(table: Table, seat: int | None) -> tuple[str, str]:
    data = table_data(table, seat)
    catalog = table.game.state.players[0].city.catalog
    html = TEMPLATE.render(data=data, table=table, catalog=catalog, token="t", hotseat=False, title="")
    return json.dumps(data, sort_keys=True), html


def _played(
    players: int, modules: list[str], seed: int, steps: int, data: Path | None = None
) -> tuple[TableStore, Table]:
    store = TableStore(data)
    table = store.create([Seat(f"P{i}", PERSON) for i in range(players)], modules=modules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if table.game.is_over:
            break
        store.play(table, table.decider, rng.randrange(len(table.game.legal_actions())), table.version)
    return store, table


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    modules=st.sampled_from(COMBINATIONS),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 400),
)
def test_pages_show_only_what_the_seat_may_know(players: int, modules: list[str], seed: int, steps: int) -> None:
    _, table = _played(players, modules, seed, steps)
    real = table.game
    rng = random.Random(seed)
    for seat in [*range(players), None]:
        shown = _page(table, seat)
        table.game = real.determinize(seat if seat is not None else rng.randrange(players), rng, recall=False)
        try:
            assert _page(table, seat) == shown
        finally:
            table.game = real
    decider = real.current_player
    if decider is not None:
        listed = table_data(table, decider)["actions"]
        legal = real.legal_actions()
        assert [a["index"] for a in listed] == list(range(len(legal)))
        assert [a["kind"] for a in listed] == [type(a).__name__ for a in legal]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    modules=st.sampled_from(COMBINATIONS),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 300),
)
def test_a_saved_table_loads_as_the_same_table(
    players: int, modules: list[str], seed: int, steps: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    data = tmp_path_factory.mktemp("tables")
    _, table = _played(players, modules, seed, steps, data)
    loaded = TableStore(data).get(table.id)  # a restarted server
    assert loaded.game.to_json() == table.game.to_json() and loaded.version == table.version
    assert [u.game.to_json() for u in loaded.undo] == [u.game.to_json() for u in table.undo]
    for seat in range(players):
        assert _page(loaded, seat) == _page(table, seat)
