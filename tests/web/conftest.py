"""Fixtures of the web app tests: an app on a temporary data directory and its HTTP client."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from alhambra.web import create_app
from alhambra.web.tables import Table

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

#: the address the test client sends as its Host (one the server answers to)
BASE = "http://localhost"
ALL_MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "games"


@pytest.fixture
def client(data_dir: Path) -> TestClient:
    return TestClient(create_app(data_dir), base_url=BASE)


def create(
    client: TestClient,
    kinds: list[str],
    *,
    modules: list[str] = (),
    seed: int = 1,
    names: list[str] | None = None,
    **extra: Any,
) -> Table:
    """Create a game through the form (``kinds``: ``person`` or a bot per seat) and return its
    table from the store."""
    form: dict[str, Any] = {"seed": str(seed), "module": list(modules), **extra}
    for i, kind in enumerate(kinds):
        form[f"kind{i}"] = kind
        form[f"name{i}"] = (names or [f"P{i}" for i in range(len(kinds))])[i]
    r = client.post("/games", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    gid = re.match(r"/g/(\w+)/host\?t=", r.headers["location"]).group(1)
    store = client.app.state.store
    table = store.get(gid)
    assert store.settle(table), "the bots did not move"
    return table


def seat_url(table: Table, seat: int, what: str = "") -> str:
    return f"/g/{table.id}/seat/{seat}{what}?t={table.seats[seat].token}"


def act(client: TestClient, table: Table, seat: int, index: Any, version: Any = None, **extra: Any):
    """POST an action of ``seat`` (the table's current version unless given)."""
    data = {
        "t": table.seats[seat].token,
        "index": index,
        "version": table.version if version is None else version,
        **extra,
    }
    r = client.post(f"/g/{table.id}/seat/{seat}/act", data=data, follow_redirects=False)
    assert client.app.state.store.settle(table), "the bots did not move"
    return r
