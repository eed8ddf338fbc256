"""Simulations: bots per seat, workers and Ray giving the same results as serial play, JSON
Lines results, summaries, plots, and the ``alhambra simulate`` command line."""

from __future__ import annotations

import json

import pytest

import alhambra
from alhambra.cli import main
from alhambra.errors import AlhambraError
from alhambra.simulate import (
    GameResult,
    make_tasks,
    read_results,
    result_of,
    run_games,
    seat_bots,
    simulate_one,
    summarize,
    write_results,
)
from alhambra.bots import BotSpecError

MODS = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _records(results):
    return [r.to_dict() for r, _ in results]


def test_seat_bots():
    assert seat_bots(None, 3) == ["random"] * 3
    assert seat_bots("greedy", 2) == ["greedy", "greedy"]
    assert seat_bots("greedy, random,mcts:5", 3) == ["greedy", "random", "mcts:5"]
    with pytest.raises(BotSpecError, match="2 bots given for 3 players"):
        seat_bots("greedy,random", 3)
    with pytest.raises(BotSpecError, match="unknown bot"):
        seat_bots("greedy,robot", 2)


def test_result_record_fields_and_module_actions():
    game = simulate_one(3, 5, modules=MODS, bots=["greedy", "random", "random"])
    r = result_of(game, ["greedy", "random", "random"])
    assert r.bots == ["greedy", "random", "random"] and r.seed == 5 and r.players == 3
    assert r.scores == list(game.scores) and r.winners == list(game.winners)
    assert r.actions == len(game.history) and 3 in r.scorings
    assert set(r.module_actions) == set(MODS)
    assert set(r.module_actions["vizier"]) == {"UseVizier", "DeclineVizier", "ReactivateVizier"}
    assert r.module_actions["building_huts"] == {"TakeHut": r.action_counts.get("TakeHut", 0)}
    assert sum(r.returns()) == pytest.approx(1.0)


def test_jsonl_round_trip(tmp_path):
    results = [r for r, _ in run_games(make_tasks(3, 40, players=2, modules=MODS, bots="greedy,random"))]
    path = tmp_path / "r.jsonl"
    assert write_results(path, results) == 3
    again = read_results(path)
    assert again == results
    assert [json.loads(line)["seed"] for line in path.read_text().splitlines()] == [40, 41, 42]
    path.write_text(path.read_text() + "{not json}\n")
    with pytest.raises(AlhambraError, match=":4: not JSON"):
        read_results(path)
    path.write_text(json.dumps({"format": "other"}) + "\n")
    with pytest.raises(AlhambraError, match=":1: not an alhambra-result record"):
        read_results(path)
    with pytest.raises(AlhambraError, match="malformed"):
        GameResult.from_dict({"format": "alhambra-result", "version": 1, "seed": 1})


def test_workers_give_the_same_results_as_serial():
    tasks = make_tasks(3, 7, players=2, modules=("vizier", "exchange_offices"), bots="mcts:iterations=2:top_k=2,greedy")
    serial = _records(run_games(tasks, workers=1))
    parallel = _records(run_games(tasks, workers=2))
    assert parallel == serial
    assert [r["seed"] for r in serial] == [7, 8, 9]


def test_ray_backend_agrees_with_local(tmp_path, capsys):
    """A local Ray instance started here: run_games and the CLI on Ray give the local results."""
    ray = pytest.importorskip("ray", reason="ray is not installed (the 'ray' extra)")
    tasks = make_tasks(3, 3, players=2, modules=("building_huts",), bots="greedy,mcts:iterations=2:top_k=2")
    local = _records(run_games(tasks, workers=1))
    out_local, out_ray = tmp_path / "l.jsonl", tmp_path / "r.jsonl"
    argv = ["simulate", "--players", "2", "--games", "2", "--seed", "3", "--bots", "greedy,random", "--quiet"]
    assert main(argv + ["--workers", "1", "--out", str(out_local)]) == 0
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = _records(run_games(tasks, backend="ray"))
        assert main(argv + ["--backend", "ray", "--out", str(out_ray)]) == 0
        assert ray.is_initialized()  # the CLI used the running instance and left it running
    finally:
        ray.shutdown()
    assert remote == local
    assert out_local.read_text() == out_ray.read_text()


def test_summary_per_bot_and_seat():
    results = [r for r, _ in run_games(make_tasks(4, 1, players=2, modules=("vizier",), bots="greedy,random"))]
    s = summarize(results)
    assert s["games"] == 4
    bots = {b["bot"]: b for b in s["bots"]}
    assert bots["greedy"]["win_rate"] == 1.0 and bots["random"]["win_rate"] == 0.0
    assert bots["greedy"]["seatings"] == 4 and bots["greedy"]["score_sd"] >= 0
    assert s["seats"][0]["win_share"] == 1.0
    assert set(s["module_actions"]["vizier"]["actions"]) == {"UseVizier", "DeclineVizier", "ReactivateVizier"}


def test_plot_is_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the 'plot' extra)")
    from alhambra.plotting import plot_results

    results = [r for r, _ in run_games(make_tasks(3, 1, players=3, bots="greedy,random,random"))]
    out = plot_results(results, tmp_path / "sub" / "p.png")
    assert out.read_bytes()[:8] == PNG_MAGIC


# -- the command line -------------------------------------------------------------------------------


def test_cli_bots_workers_out_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the 'plot' extra)")
    out1, out2, png = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "p.png"
    common = [
        "simulate",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "5",
        "--modules",
        "all",
        "--bots",
        "greedy,random,mcts:iterations=1:top_k=2",
    ]
    assert main(common + ["--workers", "1", "--out", str(out1)]) == 0
    serial = capsys.readouterr().out
    assert main(common + ["--workers", "2", "--out", str(out2), "--plot", str(png)]) == 0
    parallel = capsys.readouterr().out
    assert out1.read_text() == out2.read_text()
    games = [line for line in serial.splitlines() if line.startswith("game ")]
    assert games == [line for line in parallel.splitlines() if line.startswith("game ")]
    assert games[0].startswith("game 1 seed 5: scores [") and len(games) == 2
    assert "summary: 2 games, 3 players" in serial
    for text in (
        "win share per seat",
        "score sd per seat",
        "actions per game",
        "win rate",
        "mcts:iterations=1:top_k=2",
        "module vizier: DeclineVizier",
        "module building_huts: TakeHut",
    ):
        assert text in serial
    assert png.read_bytes()[:8] == PNG_MAGIC
    records = read_results(out1)
    assert [r.bots for r in records] == [["greedy", "random", "mcts:iterations=1:top_k=2"]] * 2
    assert [r.seed for r in records] == [5, 6]


def test_cli_single_bot_for_every_seat_and_quiet(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert (
        main(
            [
                "simulate",
                "--players",
                "2",
                "--games",
                "2",
                "--bots",
                "greedy",
                "--quiet",
                "--workers",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "game 1" not in text and "summary: 2 games" in text
    assert all(r.bots == ["greedy", "greedy"] for r in read_results(out))


def test_cli_progress_bar(capsys):
    assert main(["simulate", "--players", "2", "--games", "2", "--workers", "1", "--progress"]) == 0
    captured = capsys.readouterr()
    assert "100%" in captured.err and "summary: 2 games" in captured.out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bots", "wizard"], "unknown bot 'wizard'; known bots: greedy, learned, mcts, pimc, random, search"),
        (["--players", "3", "--bots", "greedy,random"], "2 bots given for 3 players"),
        (["--bots", "greedy,,random"], "empty bot name"),
        (["--bots", "mcts:depth=2"], "no parameter 'depth'"),
        (["--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_cli_flag_errors(argv, message, capsys):
    assert main(["simulate", "--games", "1"] + argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.startswith("alhambra: error:")


def test_cli_ray_backend_without_ray_is_a_message(monkeypatch, capsys):
    import alhambra.cli as cli

    monkeypatch.setattr(cli, "ray_available", lambda: False)
    assert main(["simulate", "--games", "1", "--backend", "ray"]) == 2
    assert "pip install 'alhambra-engine[ray]'" in capsys.readouterr().err


def test_cli_workers_load_a_config_s_own_modules(tmp_path):
    """Worker processes import the user modules named by --config (module_paths) themselves."""
    from pathlib import Path

    config = Path(__file__).resolve().parents[1] / "examples" / "golden_fountain.toml"
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.jsonl"
        assert (
            main(
                [
                    "simulate",
                    "--config",
                    str(config),
                    "--games",
                    "2",
                    "--quiet",
                    "--workers",
                    workers,
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    assert read_results(tmp_path / "w1.jsonl")[0].modules == ["golden_fountain"]


BUGGY_MODULE = """
from alhambra import hookimpl
NAME = "buggy"

@hookimpl
def alhambra_turn_start(game, seat):
    if game.state.turn == 40 and game.seed % 2 == 0:
        raise KeyError("oops")
"""


def test_a_failing_game_names_its_seed(tmp_path, capsys):
    """A game that fails inside a simulation (here a user module's bug, on even seeds) is a
    SimulationError naming the game, its seed and the failing line, not a bare traceback from
    a worker; the configuration errors keep their own type."""
    (tmp_path / "buggy.py").write_text(BUGGY_MODULE)
    config = tmp_path / "c.toml"
    config.write_text('players = 3\nmodules = ["buggy"]\nmodule_paths = ["buggy.py"]\n')
    assert main(["simulate", "--config", str(config), "--games", "1", "--seed", "5"]) == 0  # odd: fine
    capsys.readouterr()
    assert main(["simulate", "--config", str(config), "--games", "2", "--seed", "5", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "game 2 (seed 6) failed: KeyError: 'oops'" in err
    assert "buggy.py:8 in alhambra_turn_start" in err and "--games 1 --seed 6" in err
    with pytest.raises(alhambra.SimulationError, match=r"seed 6"):
        list(run_games(make_tasks(2, 5, players=3, modules=["buggy"], config_path=str(config))))
    with pytest.raises(alhambra.ConfigError):
        list(run_games(make_tasks(1, 5, players=3, options={"holes": "nowhere"})))


def test_games_the_kernel_plays_whole_default_to_one_worker_per_5000():
    """Starting a worker costs about a second, a kernel game a millisecond: by default the
    kernel's random and greedy games go to one worker per 5,000 games; other games to all."""
    import alhambra
    from alhambra.cli import _kernel_workers
    from alhambra.simulate import make_tasks

    game = alhambra.new_game(4, seed=1)
    assert alhambra.engine_of(game) == "kernel"
    assert _kernel_workers(game, make_tasks(100, 1, players=4)) == 1
    assert _kernel_workers(game, make_tasks(12000, 1, players=4, bots="greedy")) == 2
    assert _kernel_workers(game, make_tasks(100, 1, players=4, bots="mcts:4")) == 100
    python = alhambra.new_game(4, seed=1, engine="python")
    assert _kernel_workers(python, make_tasks(100, 1, players=4)) == 100
