"""The package's import graph has no circle, type-checking imports included.

A circle (``a`` imports ``b``, which imports ``a``, perhaps through others and perhaps only
for annotations) makes every module in it depend on every other: nothing in it can be read,
tested or replaced alone. The layers contract of ``lint-imports`` (pyproject.toml) forbids
imports between layers upwards; this test also catches a circle inside one layer.
"""

from __future__ import annotations

import grimp
import pytest


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w)))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("alhambra", include_external_packages=False, exclude_type_checking_imports=False)


def test_no_import_circles_type_checking_imports_included(graph: grimp.ImportGraph) -> None:
    circles = _circles(graph)
    assert circles == [], "import circles: " + "; ".join(" <-> ".join(c) for c in circles)


def test_the_circle_finder_finds_a_circle(graph: grimp.ImportGraph) -> None:
    graph.add_import(importer="alhambra.engine.state", imported="alhambra.game")
    try:
        assert any({"alhambra.engine.state", "alhambra.game"} <= set(c) for c in _circles(graph))
    finally:
        graph.remove_import(importer="alhambra.engine.state", imported="alhambra.game")
