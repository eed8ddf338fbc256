"""examples/train_vs_greedy.py: a tiny run trains end to end on the batched environment, its
printed figures are sane, the score margin improves, and a seed gives the same figures again.

The runs are subprocesses, as a user runs the script: it sets numpy's matrix products to one
thread before numpy is loaded, which an import into the test process would be too late for
(threads that wait on each other on two busy cores make a run several times slower)."""

from __future__ import annotations

import importlib.util
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

from alhambra import kernel  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "train_vs_greedy.py"
NUMBER = r"([-+]?\d+\.\d+)"
FIGURES = re.compile(
    rf"^(before|after): share of victories {NUMBER} \[{NUMBER}, {NUMBER}\] in (\d+) games against greedy, "
    rf"mean score margin {NUMBER}$"
)

pytestmark = pytest.mark.skipif(
    kernel.native is None or not hasattr(kernel.native, "BatchEnv"),
    reason="the rules kernel is not installed (the Python batch is too slow for this test)",
)


def train(*args: str) -> tuple[dict[str, tuple[float, float, float, int, float]], int, str]:
    """Run the script; (``{"before"|"after": (share, low, high, games, margin)}``, games
    trained on, the whole output)."""
    path = os.pathsep.join([str(ROOT / "core"), str(ROOT / "modules"), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={**os.environ, "PYTHONPATH": path},
    )
    figures = {}
    for line in done.stdout.splitlines():
        m = FIGURES.match(line)
        if m:
            when, share, low, high, games, margin = m.groups()
            figures[when] = (float(share), float(low), float(high), int(games), float(margin))
    trained = re.search(r"^trained on (\d+) games in \d+ s \(\d+ s in all\); ", done.stdout, re.M)
    assert set(figures) == {"before", "after"} and trained, done.stdout
    return figures, int(trained.group(1)), done.stdout


def test_wilson_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, os.environ.get(name, ""))  # restored after: the script sets them
    spec = importlib.util.spec_from_file_location("train_vs_greedy", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    low, high = module.wilson(0.0, 400)
    assert low == 0.0 and math.isclose(high, 0.00951, abs_tol=1e-4)
    low, high = module.wilson(0.5, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-3) and math.isclose(high, 0.5962, abs_tol=1e-3)


def test_a_tiny_run_narrows_the_gap() -> None:
    figures, trained, out = train("--updates", "120", "--num-envs", "32", "--eval-games", "64", "--seed", "3")
    for share, low, high, games, margin in figures.values():
        assert 0.0 <= low <= share <= high <= 1.0 and games == 64 and -400 < margin < 400
    assert figures["before"][0] < 0.05, out  # near-uniform random integers against greedy
    # 120 updates (about 550 games) narrow the gap by some 35 points; untrained (--lr 0) or
    # trained the wrong way (--lr -0.01) the margin moves by 4
    assert figures["after"][4] > figures["before"][4] + 20, out
    assert trained > 400, out


def test_a_seed_gives_the_same_figures() -> None:
    small = ("--updates", "8", "--num-envs", "8", "--eval-games", "16")
    first, second, other = (train(*small, "--seed", s) for s in ("5", "5", "6"))
    assert first[:2] == second[:2]
    assert first[0]["after"] != other[0]["after"]
