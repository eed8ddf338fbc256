"""docs/env.md's tables are the environments' real sizes: the action layout for 4 players with
all six modules, and the actions, cell slots and observation sizes of every row of the sizes
table (each module combination it lists, 2-6 players)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from alhambra.env.session import Session  # noqa: E402

DOC = (Path(__file__).parents[1] / "docs" / "env.md").read_text("utf-8")
FIRST = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]
NAMED = {"none": [], "all four": FIRST, "all six": [*FIRST, "city_gates", "diamonds"]}


def _size_rows() -> list[tuple[str, int, int, list[int]]]:
    rows = re.findall(r"^\| ([a-z_, ]+(?: four| six)?) \| (\d+) \| (\d+) \| ([\d / ]+) \|$", DOC, re.M)
    return [(m, int(a), int(c), [int(x) for x in obs.split(" / ")]) for m, a, c, obs in rows]


def test_the_sizes_table_lists_every_first_expansion_combination_and_the_second_expansions() -> None:
    labels = [r[0] for r in _size_rows()]
    assert len(labels) == 20
    assert {"none", "all four", "city_gates", "diamonds", "city_gates, diamonds", "all six"} <= set(labels)


@pytest.mark.parametrize("row", _size_rows(), ids=lambda r: r[0])
def test_each_row_of_the_sizes_table_is_the_real_size(row) -> None:
    label, actions, slots, observations = row
    modules = NAMED.get(label, [m.strip() for m in label.split(",")])
    session = Session(4, modules)
    assert (session.num_actions, session.encoder.slots) == (actions, slots)
    assert [Session(n, modules).encoder.size for n in range(2, 7)] == observations


def test_the_action_layout_table_is_the_codecs_layout() -> None:
    part = DOC[DOC.index("For 4 players with all six modules:") :]
    part = part[: part.index("\n\n", part.index("| segment |"))]
    rows = re.findall(r"^\| `([^`]+)` \| (\d+) \| (\d+)", part, re.M)
    layout = Session(4, NAMED["all six"]).codec.layout()
    assert [(n, int(a), int(b)) for n, a, b in rows] == layout
