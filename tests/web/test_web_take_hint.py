"""The play page's hints come from the rule set (issue 36): under a house rule allowing money
takes up to 6 (R-TURN-2, ``alhambra_take_limit``) the page says 6, not the rules' 5."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path

from starlette.testclient import TestClient

from alhambra import hookimpl
from alhambra.web import create_app

from .conftest import BASE, create, seat_url

MONEY_SIX = types.SimpleNamespace(
    NAME="money_six",
    DESCRIPTION="House rule: several money cards may total 6.",
    RULES=("R-TURN-2",),
    alhambra_take_limit=hookimpl(lambda limit: 6),
)


def _page(client: TestClient, modules: list[str]) -> str:
    table = create(client, ["person", "random"], modules=modules, seed=3)
    assert table.game.current_player == 0
    return client.get(seat_url(table, 0)).text


def test_r_turn_2_the_take_hint_names_the_rule_sets_total(data_dir: Path):
    client = TestClient(create_app(data_dir, modules=[MONEY_SIX]), base_url=BASE)
    base = _page(client, [])
    assert "several totalling at most 5 (R-TURN-2)" in base
    six = _page(client, ["money_six"])
    assert "several totalling at most 6 (R-TURN-2)" in six and "at most 5" not in six
    data = json.loads(re.search(r'<script type="application/json" id="table-data">(.*?)</script>', six, re.S).group(1))
    assert data["take_limit"] == 6  # play.js checks a selection against it
