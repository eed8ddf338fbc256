"""The expansion modules' import contracts, for every package registered under the
``alhambra.modules`` entry points of ``pyproject.toml`` (a new in-tree module is checked
without being named anywhere else):

1. a module imports only the public ``alhambra`` API (never ``alhambra.engine``,
   ``alhambra.rules``, ``alhambra.saving``, …; a module of the public API that imports them
   in turn is fine);
2. the core never imports a module, directly or through others (modules are found by entry
   point);
3. the modules are independent of each other: no chain of imports leads from one to another.

Imports under ``if TYPE_CHECKING:`` do not count, as in the layers that ``lint-imports``
checks (``[tool.importlinter]``)."""

from __future__ import annotations

import itertools
import tomllib
from functools import lru_cache
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]

#: what a module may not import directly: everything but the public API
FORBIDDEN = (
    "alhambra.engine",
    "alhambra.rules",
    "alhambra.saving",
    "alhambra.game",
    "alhambra.cli",
    "alhambra.simulate",
    "alhambra.plotting",
    "alhambra.bots",
    "alhambra.replay",
    "alhambra.testing",
    "alhambra._compat",
)


def registered_packages() -> tuple[str, ...]:
    """The top-level packages of the ``alhambra.modules`` entry points in ``pyproject.toml``
    (``name = "package"`` or ``"package.sub:attr"``), in their order."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    targets = project["entry-points"]["alhambra.modules"].values()
    return tuple(dict.fromkeys(t.split(":")[0].split(".")[0] for t in targets))


MODULES = registered_packages()


@lru_cache(maxsize=1)
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("alhambra", *MODULES, exclude_type_checking_imports=True, cache_dir=None)


def _chain(importer: str, imported: str) -> str:
    chain = graph().find_shortest_chain(importer=importer, imported=imported, as_packages=True)
    return " -> ".join(chain or ())


def test_every_package_in_the_modules_folder_is_registered():
    """A package under ``modules/`` without an entry point would escape these contracts (and
    no game could enable it by name): each is registered, and each registered one is there."""
    folder = {p.name for p in (ROOT / "modules").iterdir() if (p / "__init__.py").is_file()}
    assert folder == set(MODULES)
    assert len(MODULES) >= 6


@pytest.mark.parametrize("module", MODULES)
def test_a_module_imports_only_the_public_api(module):
    g = graph()
    bad = []
    for importer in sorted({module, *g.find_descendants(module)}):
        for imported in sorted(g.find_modules_directly_imported_by(importer)):
            if any(imported == f or imported.startswith(f + ".") for f in FORBIDDEN):
                bad.append(f"{importer} imports {imported}")
    assert not bad, f"{module} must import only the public alhambra API: {bad}"


@pytest.mark.parametrize("module", MODULES)
def test_the_core_never_imports_a_module(module):
    assert not graph().chain_exists(importer="alhambra", imported=module, as_packages=True), _chain("alhambra", module)


@pytest.mark.parametrize(("one", "other"), list(itertools.permutations(MODULES, 2)))
def test_modules_are_independent_of_each_other(one, other):
    assert not graph().chain_exists(importer=one, imported=other, as_packages=True), _chain(one, other)
