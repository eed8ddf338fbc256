"""An interrupted simulation loses nothing (issue 13): a real ``alhambra simulate --workers 2``
subprocess stopped with Ctrl-C (SIGINT to its process group, as a terminal sends it) or
SIGTERM stops within about two seconds, keeps every finished game in ``--out``, prints the
summary of those, and leaves no worker running; ``--resume`` then plays only the rest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from alhambra.simulate import read_results

CLI = [sys.executable, "-c", "import sys; from alhambra.cli import main; sys.exit(main(sys.argv[1:]))"]


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc for the worker processes")
@pytest.mark.parametrize("how", ["SIGINT to the process group", "SIGTERM"])
def test_an_interrupted_run_stops_fast_and_keeps_every_finished_game(tmp_path, how):
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [
            *CLI,
            "simulate",
            "--games",
            "300",
            "--workers",
            "2",
            "--bots",
            "greedy",
            "--quiet",
            "--out",
            str(out),
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while _lines(out) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert proc.poll() is None and _lines(out) >= 2
        workers = [c for c in _children(proc.pid) if _running(c)]
        assert len(workers) >= 2  # two workers (and multiprocessing's resource tracker)
        start = time.monotonic()
        if how == "SIGTERM":
            os.kill(proc.pid, signal.SIGTERM)
        else:
            os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert took < 3.0, f"took {took:.1f} s to stop"
    assert proc.returncode == 130, stderr
    kept = read_results(out)
    assert f"interrupted: {len(kept)} of 300 game(s) finished" in stderr
    assert f"wrote {len(kept)} result record(s) to {out}" in stdout
    assert f"summary: {len(kept)} games, 4 players" in stdout  # the summary covers exactly the finished games
    assert [r.seed for r in kept] == list(range(1, len(kept) + 1))  # in order, none lost
    time.sleep(0.5)
    assert not [w for w in workers if _running(w)], "worker processes left running"
    assert "Traceback" not in stderr


def test_resume_plays_only_the_seeds_not_yet_there(tmp_path):
    from alhambra.cli import main

    out = tmp_path / "r.jsonl"
    assert main(["simulate", "--games", "3", "--quiet", "--out", str(out)]) == 0
    with open(out, "a") as fh:
        fh.write('{"format": "alhambra-result", "seed": 9')  # a run stopped while writing a line
    assert [r.seed for r in read_results(out)] == [1, 2, 3]
    assert main(["simulate", "--games", "5", "--quiet", "--resume", str(out)]) == 0
    kept = read_results(out)
    assert [r.seed for r in kept] == [1, 2, 3, 4, 5]
    assert all(json.loads(line)["seed"] for line in out.read_text().splitlines())  # no broken line left
    fresh = tmp_path / "fresh.jsonl"
    assert main(["simulate", "--games", "5", "--quiet", "--out", str(fresh)]) == 0
    assert [r.to_dict() for r in read_results(fresh)] == [r.to_dict() for r in kept]


def test_resume_refuses_a_file_of_other_games(tmp_path, capsys):
    from alhambra.cli import main

    out = tmp_path / "r.jsonl"
    assert main(["simulate", "--games", "2", "--quiet", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["simulate", "--games", "4", "--players", "3", "--quiet", "--resume", str(out)]) == 2
    assert "its games were played with (players, modules, bots) (4, [], ['random'" in capsys.readouterr().err


def test_resume_rates_count_only_the_games_played_now(tmp_path, capsys):
    """The last line's games/s of a ``--resume`` run divides the games played in this run, not
    the ones read back from the file (which took no time)."""
    import re

    from alhambra.cli import main
    from alhambra.simulate import format_summary, summarize

    out = tmp_path / "r.jsonl"
    assert main(["simulate", "--games", "3", "--quiet", "--out", str(out)]) == 0
    first = read_results(out)
    summary = summarize(first)
    line = format_summary(summary, 2.0, (1, 100))[-1]
    assert line == "  time 2.00s: 0.50 games/s, 50 actions/s"
    actions = sum(r.actions for r in first)
    assert format_summary(summary, 2.0)[-1] == f"  time 2.00s: 1.50 games/s, {actions / 2:.0f} actions/s"
    capsys.readouterr()
    assert main(["simulate", "--games", "4", "--quiet", "--resume", str(out)]) == 0
    text = capsys.readouterr().out
    fourth = read_results(out)[3]
    m = re.search(r"time ([0-9.]+)s: ([0-9.]+) games/s, ([0-9]+) actions/s", text)
    assert m is not None
    elapsed, rate, arate = float(m[1]), float(m[2]), int(m[3])
    assert "summary: 4 games" in text
    # one game played now (four before the fix): rate * elapsed is 1, elapsed printed rounded to 0.01 s
    assert 0.5 < rate * max(elapsed, 0.01) < 2
    assert 0.5 * fourth.actions < arate * max(elapsed, 0.01) < 2 * fourth.actions
