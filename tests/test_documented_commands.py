"""Every shell command and Python block of README.md and docs/ runs, read from the files.

The blocks are extracted from the Markdown at test time (never copied here). They run in order,
page by page, in one scratch directory that holds `examples/` and `benchmarks/`, so a command
may use a file an earlier one wrote (as a reader following the page would). A Python line
`print(...)  # <literal>` is checked: its literal must be a printed line, in order.

Long examples run smaller (`SMALLER`: fewer games, trials, seconds); the docs state their full
run time. Installing (`python3 -m venv`, `. .venv/bin/activate`, `pip install`) is left to CI's
own steps, which run the same installs; the test command is CI's last line
(tests/test_docs.py); `mkdocs build --strict` is tests/test_docs_build.py; `mkdocs serve` and
`alhambra play` are servers: `alhambra play` is started until it prints its address (never
0.0.0.0). `benchmarks/instruction_counts.py` is the one command left out: under valgrind it
takes minutes even for one game.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```(sh|python|toml)[^\n]*\n(.*?)^```", re.S | re.M)
#: (pattern, replacement) applied to every shell command: the smaller size the suite runs
SMALLER = [
    (r"--games \d+", "--games 4"),
    (r"--trials \d+", "--trials 2"),
    (r"--seeds \d+", "--seeds 2"),
    (r"--seconds \d+", "--seconds 0.2"),
    (r"--rounds \d+", "--rounds 1"),
    (r"--warmup \d+", "--warmup 1"),
    (r"--time-decisions \d+", "--time-decisions 1"),
    (r"(benchmarks/instruction_counts\.py)", r"\1 --games 1"),
    (r"(benchmarks/tune_bot\.py)", r"\1 --check-seeds 2"),
    (r"--bots mcts,", "--bots mcts:4,"),
    (r"--bots greedy,search,mcts,random", "--bots greedy,search:4,mcts:4,random"),
    (r"--bots greedy,greedy:weights=tuned,search,random", "--bots greedy,greedy:weights=tuned,search:4,random"),
    (r"--matchups search:greedy", "--matchups search:4:greedy"),
]
SKIPPED = (
    "python3 -m venv ",
    ". .venv/bin/activate",
    "pip install ",
    "lint-imports",
    "mypy",
    "ruff ",
    "pytest",
    "mkdocs ",
)


def blocks() -> list[tuple[str, str, str]]:
    """``(where, language, text)`` of every sh/python/toml block, pages in order."""
    out = []
    for page in PAGES:
        text = page.read_text("utf-8")
        for m in BLOCK.finditer(text):
            line = text[: m.start()].count("\n") + 1
            out.append((f"{page.relative_to(ROOT)}:{line}", m.group(1), m.group(2)))
    return out


def commands(block: str) -> list[str]:
    """The commands of a shell block: comments cut, installs and the test command left out."""
    out = []
    for line in block.splitlines():
        line = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
        parts = [p.strip() for p in line.split("&&") if p.strip() and not p.strip().startswith(SKIPPED)]
        if parts:
            out.append(" && ".join(parts))
    return out


def smaller(command: str) -> str:
    for pattern, replacement in SMALLER:
        command = re.sub(pattern, replacement, command)
    return command


def expected_prints(code: str) -> list[str]:
    """The literal after ``print(...)  #`` on each line that has one, e.g. ``(77, 136, 106) (1,)``."""
    out = []
    for line in code.splitlines():
        m = re.match(r"\s*print\(.*\)\s+# (.*)$", line)
        if m and m.group(1)[:1] in "([{'\"0123456789-":
            try:
                for part in re.findall(r"\([^()]*\)|\[[^\[\]]*\]|\S+", m.group(1)):
                    ast.literal_eval(part)
            except (ValueError, SyntaxError):
                continue
            out.append(m.group(1))
    return out


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    work = tmp_path_factory.mktemp("documented")
    for name in ("examples", "benchmarks"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    (work / "docs" / "img").mkdir(parents=True)  # where docs/render.md's example writes
    # the records the lab page's DataFrame example loads (`alhambra simulate --out results.jsonl`)
    run_shell("alhambra simulate --games 2 --out results.jsonl --quiet", work)
    return work


def environment() -> dict[str, str]:
    env = dict(os.environ, MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "core"), str(ROOT / "modules"), env.get("PYTHONPATH", "")])
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_until_announced(command: str, cwd: Path) -> str:
    """Start ``alhambra play ...`` on a free port, return its first line once printed, stop it."""
    command = re.sub(r"--port \d+", "", command) + f" --port {free_port()}"
    proc = subprocess.Popen(
        shlex.split(command), cwd=cwd, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    return first


def run_block(where: str, language: str, text: str, cwd: Path) -> None:
    if language == "toml":
        if "module_paths" in text:  # a game config: it plays as written, beside the module it names
            config = cwd / "examples" / "readme-config.toml"
            config.write_text(text, "utf-8")
            run_shell(f"alhambra simulate --config {config} --quiet", cwd)
        return
    if language == "python":
        done = subprocess.run(
            [sys.executable, "-c", text], cwd=cwd, env=environment(), capture_output=True, text=True, timeout=900
        )
        assert done.returncode == 0, f"{where}:\n{done.stderr[-3000:]}"
        printed = done.stdout.splitlines()
        rest = iter(printed)
        for expected in expected_prints(text):
            assert any(line == expected for line in rest), f"{where}: {expected!r} not printed; got {printed}"
        return
    for command in commands(text):
        if "benchmarks/instruction_counts.py" in command:
            continue  # under valgrind: minutes even for one game; benchmarks/ has its own checks
        if "benchmarks/tune_bot.py" in command and importlib.util.find_spec("optuna") is None:
            continue  # the lab extra's Optuna (the test extra has it)
        if command.startswith("alhambra play"):
            first = serve_until_announced(command, cwd)
            assert first.startswith("Alhambra is served at http://"), (where, first)
            assert "0.0.0.0" not in first, (where, first)
        else:
            run_shell(smaller(command), cwd)


def run_shell(command: str, cwd: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail; " + command],
        cwd=cwd,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


BLOCKS = blocks()


def test_the_docs_have_the_blocks_this_suite_runs():
    languages = [language for _where, language, _text in BLOCKS]
    assert languages.count("python") >= 14 and languages.count("sh") >= 10
    readme = [
        c for where, language, text in BLOCKS if where.startswith("README") and language == "sh" for c in commands(text)
    ]
    assert any(c.startswith("alhambra simulate --players 4 --modules all") for c in readme)  # the quick start


def test_smaller_sizes_are_smaller():
    assert smaller("alhambra compare a.toml b.toml --games 400 --report out.html") == (
        "alhambra compare a.toml b.toml --games 4 --report out.html"
    )
    assert commands('pip install -e ".[web]" && alhambra play   # then open it') == ["alhambra play"]
    assert expected_prints("print(game.scores, game.winners)  # (77, 136, 106) (1,)\nprint(x)  # words") == [
        "(77, 136, 106) (1,)"
    ]


@pytest.mark.parametrize("where, language, text", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_documented_block_runs(where, language, text, scratch):
    if language == "sh" and "engine_speed" in text:
        pytest.importorskip("catanatron")  # the bench extra
    run_block(where, language, text, scratch)


def test_public_pages_speak_of_the_project_not_of_its_making():
    """README, CHANGELOG and the site's pages name no issue, work period or commit."""
    making = re.compile(
        r"\b(issue|session|period) \d+|\bsessions \d|\bcommit [0-9a-f]{7}|shared/rules|\.\./seeds", re.I
    )
    for page in [*PAGES, ROOT / "CHANGELOG.md"]:
        for number, line in enumerate(page.read_text("utf-8").splitlines(), 1):
            assert not making.search(line), f"{page.relative_to(ROOT)}:{number}: {line}"
