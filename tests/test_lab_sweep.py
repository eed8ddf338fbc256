"""Balance lab: ``alhambra sweep``, a variant against its base over several player counts and
line-ups, every comparison on the same seeds and all their differences in one family."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from statsmodels.stats.multitest import multipletests

from alhambra.cli import main
from alhambra.errors import ConfigError
from alhambra.lab.compare import load_variant
from alhambra.lab.sweep import (
    compare_cells,
    found_rows,
    lineup_for,
    parse_players,
    summary_lines,
    sweep_cells,
)
from alhambra.simulate import GameResult

EXAMPLES = Path(__file__).parent.parent / "examples"
TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def test_player_counts_and_line_ups():
    assert parse_players("2-6") == [2, 3, 4, 5, 6]
    assert parse_players("3,5") == [3, 5] and parse_players("2-3,6,3") == [2, 3, 6] and parse_players("4") == [4]
    for bad, message in (("7", "7 players; the game takes 2 to 6"), ("x", "give counts like"), ("5-3", "like")):
        with pytest.raises(ConfigError, match=message):
            parse_players(bad)
    assert lineup_for("greedy", 3) == ("greedy", "greedy", "greedy")
    assert lineup_for("search,greedy", 4) == ("search", "greedy", "greedy", "greedy")
    assert lineup_for("a,b,c", 3) == ("a", "b", "c")
    with pytest.raises(ConfigError, match="names 3 bots, more than the 2 seats"):
        lineup_for("a,b,c", 2)
    with pytest.raises(ConfigError, match="an empty bot name"):
        lineup_for("greedy,,random", 4)


def _cells(**kw):
    variant = load_variant(EXAMPLES / "double_walls.toml")
    return sweep_cells(variant, None, players=[2, 4], lineups=["greedy", "random,greedy"], games=3, **kw)


def test_every_comparison_plays_the_same_seeds_with_its_line_up():
    cells = _cells()
    assert [(c.players, c.bots) for c in cells] == [
        (2, ("greedy", "greedy")),
        (2, ("random", "greedy")),
        (4, ("greedy",) * 4),
        (4, ("random", "greedy", "greedy", "greedy")),
    ]
    assert [c.title for c in cells][:2] == ["2 players, bots greedy", "2 players, bots random,greedy"]
    indices = [t.index for c in cells for ts in c.tasks for t in ts]
    assert indices == list(range(len(indices))) == list(range(24))  # one run, in order
    for c in cells:
        base, variant = c.tasks
        assert [v.label for v in c.variants] == ["base", "double_walls"]
        assert [t.seed for t in base] == [t.seed for t in variant] == [1, 2, 3]
        assert {t.players for ts in c.tasks for t in ts} == {c.players}
        assert all(t.bots == c.bots for ts in c.tasks for t in ts)
        assert base[0].modules == () and variant[0].modules == ("double_walls",)
    rotated = _cells(rotate_seats=True)
    # three games, rounded up to a whole round: one seed in the four rotations of one random
    # among three greedy bots
    assert [(t.seed, t.rotation) for t in rotated[3].tasks[0]] == [(1, 0), (1, 1), (1, 2), (1, 3)]


def _record(task, *, wall):
    n = task.players
    tally = {
        "bought": [dict.fromkeys(TYPES, 1), dict.fromkeys(TYPES, 1), dict.fromkeys(TYPES, 0)],
        "received": dict.fromkeys(TYPES, 0),
        "built": dict.fromkeys(TYPES, 2),
        "reserve": 0,
        "wall": wall,
        "money_taken": 40,
        "money_spent": 40,
        "purchases": 12,
        "exact": 3,
        "actions": {"Buy": 12},
    }
    return GameResult(
        seed=task.seed,
        players=n,
        modules=list(task.modules),
        scores=[100 - s for s in range(n)],
        winners=[0],
        actions=40,
        scorings=[1, 2, 3],
        bots=list(task.bots),
        turns=20,
        start_player=0,
        rotation=task.rotation,
        variant=task.variant,
        tallies=[tally] * n,
    )


def test_one_family_over_the_whole_sweep():
    """Hand-made records: the variant's walls are longer by the seed (1, 2, 3) with four players
    only. Holm's correction and Bonferroni's intervals run over every difference of the sweep."""
    cells = sweep_cells(load_variant(EXAMPLES / "double_walls.toml"), None, players=[2, 4], lineups=["greedy"], games=3)
    results = [
        _record(t, wall=10 + (t.seed * 4 if c.players == 4 and i == 1 else 0))
        for c in cells
        for i, ts in enumerate(c.tasks)
        for t in ts
    ]
    family = compare_cells(cells, results)
    comparisons = [c.comparison for c in cells]
    assert family == sum(len(r.pvalues) for cmp in comparisons for r in cmp.rows)
    assert all(cmp.family == family and cmp.family_scope == "this sweep's 2 comparisons" for cmp in comparisons)
    pvals = [r.pvalues[0] for cmp in comparisons for r in cmp.rows]
    expected = multipletests(pvals, alpha=0.05, method="holm")[1]
    assert [r.adjusted[0] for cmp in comparisons for r in cmp.rows] == pytest.approx(list(expected))
    wall2, wall4 = (
        next(r for r in cmp.rows if r.figure.key == "longest wall per player at the end") for cmp in comparisons
    )
    assert wall2.diffs[0].value == 0.0 and wall4.diffs[0].value == pytest.approx(8.0)
    # three seeds cannot show a difference the same on every seed (2 / 2**3), nor one that varies this much
    assert found_rows(cells) == []
    lines = summary_lines(cells)
    assert lines[0] == (
        f"sweep summary: double_walls - base per comparison, simultaneous 95% intervals (Bonferroni over the "
        f"sweep's {family} differences), * a finding after Holm's correction over them"
    )
    assert lines[1] == "  no figure differs in any comparison: no difference shown"
    assert lines[-1].startswith("    4 players, bots greedy: play changed in not recorded; winner changed in 0 of 3")


def test_sweep_command_reports_every_comparison(tmp_path, capsys):
    out, report = tmp_path / "r.jsonl", tmp_path / "s.html"
    argv = ["sweep", str(EXAMPLES / "double_walls.toml"), "--players", "2,3", "--bots", "random", "--games", "2"]
    assert main([*argv, "--workers", "1", "--no-progress", "--out", str(out), "--report", str(report)]) == 0
    captured = capsys.readouterr()
    assert (
        "sweep schedule: 2 comparisons (2 players, bots random; 3 players, bots random), 8 games in all" in captured.err
    )
    text = captured.out
    assert text.startswith(
        "sweep: double_walls against base, 2 comparisons (2 players, bots random; 3 players, bots random)"
    )
    assert (
        "\n== 2 players, bots random ==\ncompare: 2 seeds paired" in text and "\n== 3 players, bots random ==\n" in text
    )
    assert "points per player: extra double walls" in text and "sweep summary: double_walls - base" in text
    assert "of this sweep's 2 comparisons" in text
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert [(r["players"], r["variant"]) for r in records] == [(2, "base")] * 2 + [(2, "double_walls")] * 2 + [
        (3, "base")
    ] * 2 + [(3, "double_walls")] * 2
    html = report.read_text("utf-8")
    assert "<h2>2 players, bots random</h2>" in html and "<h2>3 players, bots random</h2>" in html
    assert html.count("data:image/png;base64,") == 2 and "<h2>Summary</h2>" in html


def test_sweep_command_fails_before_playing(capsys):
    variant = str(EXAMPLES / "double_walls.toml")
    assert main(["sweep", variant, "--players", "2-7"]) == 2
    assert "7 players; the game takes 2 to 6" in capsys.readouterr().err
    assert main(["sweep", variant, "--players", "2,3", "--bots", "greedy,random,random"]) == 2
    assert "names 3 bots, more than the 2 seats" in capsys.readouterr().err
    assert main(["sweep", variant, "--players", "3", "--bots", "wizard"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err


def test_sweep_without_the_lab_extra_is_a_one_line_error(monkeypatch, capsys):
    import sys

    for name in ("statsmodels", "scipy", "jinja2", "matplotlib"):
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["sweep", str(EXAMPLES / "double_walls.toml"), "--players", "2", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sweep needs the lab extra (statsmodels, scipy are not installed)" in err
