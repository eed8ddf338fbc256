"""The core works with any module through the plugin hooks (``alhambra.hookspec``): no code
line of ``core/alhambra`` names one of the expansion modules; what the tools need of a module
(its actions' encodings, its evaluator part, its table part, its phases, its order, the
kernel's tables) the module declares or the kernel exports."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from alhambra import available_modules, kernel

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import architecture  # noqa: E402


def test_no_core_code_line_names_an_expansion_module() -> None:
    assert architecture.core_lines_naming_modules() == []


def test_a_core_line_naming_a_module_is_found_and_docs_are_not(tmp_path: Path) -> None:
    core = tmp_path / "core" / "alhambra"
    core.mkdir(parents=True)
    (core / "x.py").write_text(
        '"""Draws the "vizier" facts."""\n'
        "# the building_huts module's stacks\n"
        'part = view["modules"].get("vizier")\n'
        "import alhambra_city_gates\n"
        'ok = "vizier ready"\n'
    )
    assert architecture.core_lines_naming_modules(tmp_path) == [
        'core/alhambra/x.py:3: part = view["modules"].get("vizier")',
        "core/alhambra/x.py:4: import alhambra_city_gates",
    ]


@pytest.mark.skipif(kernel.native is None, reason="the rules kernel is not installed")
def test_the_kernel_names_the_modules_it_plays_as_they_are_installed() -> None:
    """The kernel's own tables (``MODULES``, ``GREEDY_MODULES``, ``PHASES``) name installed
    modules and the phases the rule set declares."""
    assert set(kernel.KERNEL_MODULES) <= set(available_modules())
    assert len(set(kernel.KERNEL_MODULES.values())) == len(kernel.KERNEL_MODULES)
    assert kernel.KERNEL_GREEDY_MODULES <= set(kernel.KERNEL_MODULES)
    from alhambra import get_ruleset

    rules = get_ruleset(tuple(kernel.KERNEL_MODULES), {})
    assert set(kernel.KERNEL_PHASES) == set(rules.phase_specs)


def test_a_game_with_every_module_loads_neither_the_environments_nor_numpy() -> None:
    """The modules' hooks for the environments import the environments' package when they are
    called: a game (or a simulation) with every module loads neither Gymnasium nor numpy,
    whose import would double the start-up of every process."""
    import subprocess

    code = (
        "import sys, alhambra\n"
        "g = alhambra.new_game(4, modules=list(alhambra.available_modules()), seed=1)\n"
        "g.apply(g.legal_actions()[0])\n"
        "print(sorted(m for m in ('gymnasium', 'numpy', 'alhambra.env') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
