"""The package's import graph has no circle, type-checking imports included.

A circle (``a`` imports ``b``, which imports ``a``, perhaps through others and perhaps only
for annotations) makes every module in it depend on every other: nothing in it can be read,
tested or replaced alone. The layers contract of ``lint-imports`` (pyproject.toml) forbids
imports between layers upwards; this test also catches a circle inside one layer.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from architecture import circles  # noqa: E402  (the circle finder the architecture report prints with)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("alhambra", include_external_packages=False, exclude_type_checking_imports=False)


def test_no_import_circles_type_checking_imports_included(graph: grimp.ImportGraph) -> None:
    found = circles(graph)
    assert found == [], "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_circle_finder_finds_a_circle(graph: grimp.ImportGraph) -> None:
    graph.add_import(importer="alhambra.engine.state", imported="alhambra.game")
    try:
        assert any({"alhambra.engine.state", "alhambra.game"} <= set(c) for c in circles(graph))
    finally:
        graph.remove_import(importer="alhambra.engine.state", imported="alhambra.game")
