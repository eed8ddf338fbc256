"""The balance lab's figures on hand-made result sets, with their exact values: each bot's win
share per variant (does the rule reward skill?), how often the rule mattered (games whose play
and winner changed on the same seed and seating), the tournament's head-to-head table; and
through the command line: ``--primary`` with an unknown figure fails before any game is
played, ``compare`` with several bots shows their shares, ``tournament`` a balanced schedule
with its head-to-head table."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from scipy import stats as sps

from alhambra.cli import main
from alhambra.errors import ConfigError
from alhambra.lab import compare as compare_module
from alhambra.lab.compare import (
    bot_figure,
    bot_share,
    compare_results,
    figure_names,
    format_comparison,
    load_variant,
    mattered,
)
from alhambra.lab.tournament import ahead_share, format_pairwise, pairwise, rate_tournament
from alhambra.lab.stats import paired_p, wilson
from alhambra.simulate import GameResult

EXAMPLES = Path(__file__).parent.parent / "examples"


def _t(df: int) -> float:
    return float(sps.t.ppf(0.975, df))


def _game(seed, bots, winners, *, rotation=0, scores=None, play="", players=None):
    n = players or len(bots)
    return GameResult(
        seed=seed,
        players=n,
        modules=[],
        scores=scores or [100 if s in winners else 80 for s in range(n)],
        winners=list(winners),
        actions=10,
        scorings=[1, 2, 3],
        bots=list(bots),
        turns=5,
        start_player=0,
        rotation=rotation,
        play=play,
    )


def _two_bot_variant(a_wins_per_seed, label=""):
    """Seeds 1.., each played in both seatings of bots a and b; ``a_wins_per_seed[k]`` of the
    two games of seed k+1 won by a (the first of them first)."""
    out = []
    for k, wins in enumerate(a_wins_per_seed):
        seed = k + 1
        for rot, bots in enumerate((("a", "b"), ("b", "a"))):
            a_seat = bots.index("a")
            winner = a_seat if rot < wins else 1 - a_seat
            out.append(_game(seed, bots, [winner], rotation=rot))
    return out


# -- each bot's win share per variant -------------------------------------------------------------


def test_bot_share_per_variant_with_intervals_clustered_by_seed():
    base = _two_bot_variant([2, 2, 1, 1])  # a wins 6 of 8: per seed 1, 1, 1/2, 1/2
    rule = _two_bot_variant([1, 1, 1, 1])  # a wins every seed's first game only: exactly 1/2
    cmp = compare_results([base, rule], ["base", "rule"])
    (row,) = [r for r in cmp.rows if r.figure == bot_figure("a")]
    assert row.figure.key == "win share per seat: a" and row.figure.group == "win share by bot"
    # base: r = 0.75 over 4 clusters of 2 seats; residuals +-0.5: var = 1 / (4 * 3 * 2**2) = 1/48
    half = _t(3) * math.sqrt(1 / 48)
    assert row.values[0].value == 0.75
    assert row.values[0].low == pytest.approx(0.75 - half) and row.values[0].high == 1.0  # cut at 1
    # the same share in every seed: no spread between seeds measured, so the Wilson interval of
    # all 8 seatings (never a zero-width interval)
    assert (row.values[1].value, row.values[1].low, row.values[1].high) == (0.5, *_wilson(4, 8))
    # paired by seed: differences -1/2, -1/2, 0, 0
    d = row.diffs[0]
    assert d.value == -0.25
    assert d.low == pytest.approx(-0.25 - _t(3) * math.sqrt(1 / 12) / 2)
    assert d.high == pytest.approx(-0.25 + _t(3) * math.sqrt(1 / 12) / 2)
    assert row.pvalues[0] == pytest.approx(float(sps.ttest_rel([0.5] * 4, [1, 1, 0.5, 0.5]).pvalue))
    (b_row,) = [r for r in cmp.rows if r.figure == bot_figure("b")]
    assert b_row.values[0].value == 0.25 and b_row.diffs[0].value == 0.25  # the shares of a seat add up to 1
    assert any(line.startswith(" win share by bot:") for line in format_comparison(cmp))


def test_bot_share_counts_a_bot_in_several_seats_once_per_seat():
    # a holds two of three seats and wins one game of each seed's two: 1/2 of a game per seat
    games = [
        _game(s, ("a", "a", "b"), [0] if rot == 0 else [2], rotation=rot, players=3)
        for s in (1, 2, 3)
        for rot in (0, 1)
    ]
    share = bot_share(games, "a")
    assert (share.value, share.low, share.high, share.n) == (0.25, *_wilson(3, 12), 12)  # 1/4 every seed
    assert bot_share(games, "b").value == 0.5
    assert bot_share(games, "nobody").n == 0


def _wilson(successes: float, n: int) -> tuple[float, float]:
    found = wilson(successes, n)
    return found.low, found.high


def test_one_seed_tests_nothing():
    assert paired_p([3.0], [9.0]) == 1.0  # a single difference has no spread to be judged by
    # the same difference on every seed: the exact sign-flip test, 2 / 2**n
    assert paired_p([3.0, 4.0], [9.0, 10.0]) == 0.5
    assert paired_p([3.0] * 10, [4.0] * 10) == pytest.approx(2 / 2**10)
    # equal but for rounding (a mean of thirds): the same test, not a t-test on no spread
    a = [23 / 3, 26 / 3, 7.0, 19 / 3]
    b = [x + 1 for x in a]
    assert len({y - x for x, y in zip(a, b)}) > 1  # 1.0 and 0.9999999999999991
    assert paired_p(a, b) == 2 / 2**4


def test_no_bot_share_figures_when_one_bot_holds_every_seat():
    games = [_game(s, ("a", "a"), [0]) for s in (1, 2)]
    cmp = compare_results([games, games], ["x", "y"])
    assert not [r for r in cmp.rows if r.figure.group == "win share by bot"]


# -- how often the rule mattered --------------------------------------------------------------


def _paired(changes, winner_changes):
    """Two variants on seeds 1..4 in two rotations; ``changes[k]`` of seed k+1's games play
    differently, ``winner_changes[k]`` of them also have another winner."""
    a, b = [], []
    for k, (c, w) in enumerate(zip(changes, winner_changes)):
        for rot in (0, 1):
            a.append(_game(k + 1, ("x", "x"), [0], rotation=rot, play=f"{k}{rot}".ljust(16, "0")))
            b.append(
                _game(
                    k + 1,
                    ("x", "x"),
                    [1] if rot < w else [0],
                    rotation=rot,
                    play=(f"{k}{rot}".ljust(16, "f") if rot < c else f"{k}{rot}".ljust(16, "0")),
                )
            )
    return a, b


def test_games_whose_play_and_winner_changed_on_the_same_seeds():
    a, b = _paired([2, 1, 2, 1], [1, 0, 0, 0])
    m = mattered(a, list(reversed(b)), "rule")  # paired by seed and rotation, not by order
    assert (m.label, m.games, m.play_count, m.winner_count) == ("rule", 8, 6, 1)
    assert m.play_changed is not None
    # 6 of 8 over 4 seeds, residuals +-0.5: var 1/48; 1 of 8: residuals 0.75, -0.25 x3: var 1/64
    assert m.play_changed.value == 0.75 and m.play_changed.low == pytest.approx(0.75 - _t(3) * math.sqrt(1 / 48))
    assert m.play_changed.high == 1.0
    assert m.winner_changed.value == 0.125
    assert (m.winner_changed.low, m.winner_changed.high) == (0.0, pytest.approx(0.125 + _t(3) * 0.125))
    cmp = compare_results([a, b], ["base", "rule"])
    assert cmp.mattered == [m]
    (line,) = [x for x in format_comparison(cmp) if "how often the rule mattered" in x]
    assert "rule against base over 8 games on the same seed and seating" in line
    assert "play changed in 6 (0.750 [" in line and "winner changed in 1 (0.125 [0.000, " in line


def test_the_same_play_everywhere_changes_nothing_and_missing_digests_say_so():
    a, b = _paired([0, 0, 0, 0], [0, 0, 0, 0])
    m = mattered(a, b)
    assert m.play_count == 0 and m.winner_count == 0 and m.play_changed == m.winner_changed
    assert (m.play_changed.low, m.play_changed.high) == _wilson(0, m.games)  # 0 of 8, the same every seed
    old = [_game(g.seed, g.bots, g.winners, rotation=g.rotation) for g in a]  # records without the digest
    assert mattered(old, b).play_changed is None
    assert mattered(a, [_game(99, ("x", "x"), [0])]).games == 0  # no seed in common


# -- the tournament's head-to-head table ------------------------------------------------------


def test_ahead_share_by_ranks_with_ties_half_R_END_4():
    g = _game(1, ("a", "a", "b"), [0], scores=[100, 80, 90], players=3)  # ranks 0, 2, 1
    assert ahead_share(g, "a", "b") == 0.5 and ahead_share(g, "b", "a") == 0.5
    tie = _game(1, ("a", "b", "c"), [2], scores=[80, 80, 100], players=3)
    assert ahead_share(tie, "a", "b") == 0.5 and ahead_share(tie, "c", "a") == 1.0
    assert ahead_share(tie, "a", "d") is None and ahead_share(tie, "a", "a") is None
    shared = _game(1, ("a", "b", "c"), [0, 1], scores=[100, 100, 90], players=3)
    assert ahead_share(shared, "a", "b") == 0.5 and ahead_share(shared, "b", "c") == 1.0


def test_pairwise_matrix_with_intervals_clustered_by_seed():
    games = []
    # seeds 1-4, both seatings: a wins 2, 1, 2, 1 of each seed's two games against b
    for seed, wins in zip((1, 2, 3, 4), (2, 1, 2, 1)):
        for rot, bots in enumerate((("a", "b"), ("b", "a"))):
            a_seat = bots.index("a")
            games.append(_game(seed, bots, [a_seat if rot < wins else 1 - a_seat], rotation=rot))
    pairs = pairwise(games)
    ab, ba = pairs[("a", "b")], pairs[("b", "a")]
    assert ab.games == ba.games == 8
    assert ab.ahead.value == 0.75 and ba.ahead.value == 0.25
    assert ab.ahead.low == pytest.approx(0.75 - _t(3) * math.sqrt(1 / 48)) and ab.ahead.high == 1.0
    assert ba.ahead.high == pytest.approx(0.25 + _t(3) * math.sqrt(1 / 48)) and ba.ahead.low == 0.0
    lines = format_pairwise(rate_tournament(games), pairs)
    assert lines[0].startswith("  head to head: share of the games both played in which the row bot")
    assert re.search(r"^  a\s+-\s+0\.75 \[0\.29, 1\.00\]$", lines[2])
    assert re.search(r"^  b\s+0\.25 \[0\.00, 0\.71\]\s+-$", lines[3])
    apart = pairwise([_game(1, ("a", "b"), [0]), _game(2, ("c", "d"), [0])], ["a", "b", "c"])
    assert ("a", "c") not in apart and apart[("a", "b")].ahead.value == 1.0


# -- through the command line ---------------------------------------------------------------------


def test_unknown_primary_figure_fails_before_any_game(monkeypatch, capsys):
    def no_games(*args, **kwargs):
        raise AssertionError("games were played")

    monkeypatch.setattr(compare_module, "run_compare", no_games)
    argv = ["compare", str(EXAMPLES / "base.toml"), str(EXAMPLES / "double_walls.toml"), "--games", "400"]
    assert main([*argv, "--primary", "winning scroe"]) == 2
    err = capsys.readouterr().err
    assert "no figure 'winning scroe' in this comparison; the figures are: " in err
    assert "winning score" in err and "points per player: extra double walls" in err
    assert "win share above chance, turn position 3" in err


def test_figure_names_known_before_play_cover_the_figures_played():
    variants = [load_variant(EXAMPLES / "base.toml"), load_variant(EXAMPLES / "double_walls.toml")]
    names = figure_names(variants, "greedy,random,random")
    assert {"win share per seat: greedy", "win share per seat: random", "points per player: extra double walls"} <= set(
        names
    )
    assert "Dirk's points" not in names  # three players: no Dirk (R-TWO-1)
    from alhambra.lab.compare import compare_tasks, run_compare

    results = run_compare(compare_tasks(variants, bots="greedy,random,random", games=3, rotate_seats=True))
    played = {r.figure.key for r in compare_results(results, ["base", "double_walls"]).rows}
    assert played <= set(names), played - set(names)
    with pytest.raises(ConfigError, match="the figures are: actions; "):
        compare_module.check_primary("no such", names)


def test_compare_command_with_two_bots_shows_their_shares_and_what_changed(tmp_path, capsys):
    report = tmp_path / "r.html"
    argv = [
        "compare",
        str(EXAMPLES / "base.toml"),
        str(EXAMPLES / "double_walls.toml"),
        "--bots",
        "greedy,random,random",
        "--rotate-seats",
        "--games",
        "6",
        "--workers",
        "1",
        "--no-progress",
        "--primary",
        "win share per seat: greedy",
        "--report",
        str(report),
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    # won every game in both variants: the Wilson interval of its 6 seatings (no spread between seeds)
    assert re.search(r"^  win share per seat: greedy\s+1 \[0\.61, 1\]\s+1 \[0\.61, 1\]\s+0 \[0, 0\]", out, re.MULTILINE)
    assert "how often the rule mattered, double_walls against base over 6 games on the same seed and seating" in out
    assert "play changed in 6 (1.000 [0.610, 1.000])" in out  # greedy values the doubled walls: it plays otherwise
    assert "primary figure 'win share per seat: greedy', tested on its own at 5%" in out
    html = report.read_text("utf-8")
    assert "<h2>How often the rule mattered</h2>" in html
    assert re.search(r"double_walls against base</td><td>6</td>\s*<td>6 \(1\.000 \[0\.610, 1\.000\]\)</td>", html)


def test_tournament_command_honours_the_config_and_balances_the_games(tmp_path, capsys):
    cfg = tmp_path / "three.toml"
    cfg.write_text("players = 3\n")
    argv = ["tournament", "--bots", "greedy,random,greedy:noise=9,greedy:noise=3", "--config", str(cfg)]
    assert main([*argv, "--games", "5", "--workers", "1", "--no-progress"]) == 0
    captured = capsys.readouterr()
    # four line-ups of three of the four bots, each in three rotations: 12 games, 9 per bot
    assert "tournament schedule: 12 games (--games 5 rounded up to whole cycles of line-ups) on 4 seeds, 3 players" in (
        captured.err
    )
    assert captured.err.count(" 9 games/9 seats") == 4
    lines = captured.out.splitlines()
    standings = [line for line in lines[2:6]]
    assert all(re.search(r"\s9\s+9\s", line) for line in standings), standings
    head = lines.index(next(x for x in lines if x.startswith("  head to head:")))
    matrix = lines[head + 2 : head + 6]
    assert len(matrix) == 4 and all(line.count("[") == 3 for line in matrix)  # every pairing met


# -- intervals within what a figure can be --------------------------------------------------------


def test_a_win_share_above_chance_keeps_its_interval_within_what_it_can_be():
    """3 players: the start player's share above chance lies in [-1/3, 2/3]; on four games
    (won, lost, won, lost) the t interval reaches beyond both ends and is cut there."""
    games = [_game(s, ["greedy"] * 3, [0] if s % 2 else [1]) for s in range(1, 5)]
    cmp = compare_results([games, games], ["a", "b"])
    row = next(r for r in cmp.rows if r.figure.key == "start player's win share above chance")
    est = row.values[0]
    assert est.value == pytest.approx(0.5 - 1 / 3)
    assert est.low == pytest.approx(-1 / 3) and est.high == pytest.approx(2 / 3)
    assert all(
        -1 / 3 - 1e-9 <= v.low and v.high <= 2 / 3 + 1e-9
        for r in cmp.rows
        if "above chance" in r.figure.key
        for v in r.values
    )
