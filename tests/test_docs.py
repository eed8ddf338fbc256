"""The README's library example and the examples/ scripts run as documented."""

import contextlib
import io
import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_library_example_runs_and_prints_what_it_says():
    text = (ROOT / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    expected = re.search(r"print\(game.scores, game.winners\)\s+# (.*)", code).group(1)
    assert printed[0] == expected
    assert printed[-1] == "[9, 9, 0]"


def test_readme_bot_example_runs_and_prints_what_it_says():
    """The Bots section's snippet (make_bot, choose): same seeds, same game, same output."""
    text = (ROOT / "README.md").read_text()
    code = [c for c in re.findall(r"```python\n(.*?)```", text, re.S) if "make_bot" in c][0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    expected = re.search(r"print\(game.scores, game.winners\)\s+# (.*)", code).group(1)
    assert out.getvalue().splitlines() == [expected]


def test_readme_quick_start_and_ci_use_the_same_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = 'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" ./kernel && lint-imports && mypy --strict && mypy --strict examples/variants && ruff check . && ruff format --check . && pytest -q'
    assert command in readme and command in ci


@pytest.mark.parametrize("script", ["play_one_game.py", "replace_scoring.py"])
def test_example_scripts_run(script):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(ROOT / "examples" / script), run_name="__main__")
    assert "scores" in out.getvalue()
