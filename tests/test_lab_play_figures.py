"""Balance lab: the figures of play in ``compare`` on hand-built records (buildings bought by
scoring period, built, walls, money, exact payments) with their exact values, inside Holm's
family; no figure counted twice; simultaneous (Bonferroni) intervals of the differences; the
A/A baseline of "winner changed"."""

from __future__ import annotations

import math
import statistics

import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from alhambra.lab.compare import (
    _verdict,
    compare_results,
    format_comparison,
    mattered,
    winner_baseline,
)
from alhambra.lab.frames import comparison_frame
from alhambra.lab.stats import Estimate
from alhambra.simulate import GameResult

TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def _by_type(**counts: int) -> dict[str, int]:
    return {t: counts.get(t, 0) for t in TYPES}


def _tally(*, early_towers=0, wall=10, taken=50, spent=45, purchases=10, exact=4, reserve=1):
    return {
        "bought": [_by_type(tower=early_towers, garden=2), _by_type(garden=1), _by_type()],
        "received": _by_type(pavilion=1),
        "built": _by_type(garden=3, tower=early_towers),
        "reserve": reserve,
        "wall": wall,
        "money_taken": taken,
        "money_spent": spent,
        "purchases": purchases,
        "exact": exact,
        "actions": {"Buy": purchases, "TakeMoney": 5},
    }


def _game(seed, tallies, *, winners=(0,), players=None, rotation=0, play=""):
    n = players or len(tallies) or 2
    return GameResult(
        seed=seed,
        players=n,
        modules=[],
        scores=[100 if s in winners else 80 for s in range(n)],
        winners=list(winners),
        actions=50,
        scorings=[1, 2, 3],
        bots=["greedy"] * n,
        turns=20,
        start_player=0,
        rotation=rotation,
        play=play,
        tallies=tallies,
    )


def _row(cmp, key):
    (row,) = [r for r in cmp.rows if r.figure.key == key]
    return row


def test_towers_bought_by_scoring_1_per_player_with_their_paired_difference():
    """Three players on seeds 1-6. Base: 1 tower each before scoring 1 (every seed); the rule:
    0, 0, 1 -> 1/3 on seeds 1-3 and 0 on seeds 4-6. Per-seed differences -2/3 x3, -1 x3."""
    base = [_game(s, [_tally(early_towers=1)] * 3) for s in range(1, 7)]
    rule = [
        _game(s, [_tally(early_towers=0), _tally(early_towers=0), _tally(early_towers=1 if s <= 3 else 0)])
        for s in range(1, 7)
    ]
    cmp = compare_results([base, rule], ["base", "no_towers"])
    row = _row(cmp, "bought per player before scoring 1: tower")
    assert row.figure.group == "buildings bought" and row.figure.unit == "buildings"
    assert row.values[0].value == 1.0 and row.values[1].value == pytest.approx(1 / 6)
    d = [-2 / 3] * 3 + [-1.0] * 3
    half = float(sps.t.ppf(0.975, 5)) * statistics.stdev(d) / math.sqrt(6)
    assert row.diffs[0].value == pytest.approx(-5 / 6)
    assert (row.diffs[0].low, row.diffs[0].high) == (pytest.approx(-5 / 6 - half), pytest.approx(-5 / 6 + half))
    assert row.pvalues[0] == pytest.approx(float(sps.ttest_rel([1 / 3] * 3 + [0.0] * 3, [1.0] * 6).pvalue))
    built = _row(cmp, "built per player at the end: tower")
    assert built.diffs[0].value == pytest.approx(-5 / 6)  # the same towers, built
    assert _row(cmp, "bought per player before scoring 1: garden").diffs[0].value == 0.0
    assert _row(cmp, "bought per player between scorings 1 and 2: garden").values[0].value == 1.0
    assert _row(cmp, "buildings received at the end per player").values[0].value == 1.0
    for key, value in (
        ("longest wall per player at the end", 10),
        ("reserve per player at the end", 1),
        ("money taken per player", 50),
        ("money spent per player", 45),
        ("purchases per player", 10),
        ("exact payments per player", 4),
    ):
        assert _row(cmp, key).values[0].value == value and _row(cmp, key).figure.group == "play"
    # one family: every difference of the comparison, the figures of play among them
    pvals = [r.pvalues[0] for r in cmp.rows]
    assert cmp.family == len(pvals)
    adjusted = multipletests(pvals, alpha=0.05, method="holm")[1]
    assert [r.adjusted[0] for r in cmp.rows] == pytest.approx(list(adjusted))
    frame = comparison_frame(cmp)
    line = frame[frame["figure"] == "bought per player before scoring 1: tower"].iloc[0]
    assert line["no_towers - base Holm p"] == pytest.approx(row.adjusted[0])


def test_the_wall_and_the_money_as_recorded_per_seat():
    base = [_game(s, [_tally(wall=8), _tally(wall=12)]) for s in (1, 2, 3)]
    rule = [_game(s, [_tally(wall=9 + s, taken=60), _tally(wall=12, taken=40)]) for s in (1, 2, 3)]
    cmp = compare_results([base, rule], ["base", "walls"])
    wall = _row(cmp, "longest wall per player at the end")
    assert wall.values[0].value == 10.0 and wall.values[1].value == pytest.approx((11 + 11.5 + 12) / 3)
    assert wall.diffs[0].value == pytest.approx(1.5)
    assert _row(cmp, "money taken per player").diffs[0].value == 0.0  # 60 and 40 average to 50
    old = [_game(s, []) for s in (1, 2, 3)]  # records before version 3: no figures of play
    assert not [r for r in compare_results([old, old]).rows if r.figure.group in ("play", "buildings bought")]


def test_no_figure_is_counted_twice():
    """The start player's share is turn position 1: kept once. With two players the margin of
    victory is the score spread: kept once."""
    three = [_game(s, [_tally()] * 3, winners=(s % 3,)) for s in range(1, 5)]
    keys = [r.figure.key for r in compare_results([three, three]).rows]
    assert "start player's win share above chance" in keys
    assert "win share above chance, turn position 1" not in keys
    assert {"win share above chance, turn position 2", "win share above chance, turn position 3"} <= set(keys)
    assert "margin of victory (1st - 2nd)" in keys
    two = [_game(s, [_tally()] * 2, winners=(s % 2,)) for s in range(1, 5)]
    keys = [r.figure.key for r in compare_results([two, two]).rows]
    assert "margin of victory (1st - 2nd)" not in keys and "score spread (best - worst)" in keys
    assert len(keys) == len(set(keys))


def test_differences_carry_simultaneous_bonferroni_intervals():
    base = [_game(s, [_tally(wall=10)] * 2) for s in range(1, 6)]
    rule = [_game(s, [_tally(wall=10 + s)] * 2) for s in range(1, 6)]  # per-seed differences 1..5
    cmp = compare_results([base, rule], ["base", "rule"])
    row = _row(cmp, "longest wall per player at the end")
    m = cmp.family
    assert m == sum(len(r.pvalues) for r in cmp.rows) and m > 40
    d = [1.0, 2.0, 3.0, 4.0, 5.0]
    se = statistics.stdev(d) / math.sqrt(5)
    t95, tm = float(sps.t.ppf(0.975, 4)), float(sps.t.ppf(1 - 0.025 / m, 4))
    assert (row.diffs[0].low, row.diffs[0].high) == (pytest.approx(3 - t95 * se), pytest.approx(3 + t95 * se))
    assert (row.corrected[0].low, row.corrected[0].high) == (pytest.approx(3 - tm * se), pytest.approx(3 + tm * se))
    assert row.corrected[0].low < row.diffs[0].low
    lines = format_comparison(cmp)
    assert lines[1] == (
        "  intervals: each variant's value 95% on its own (not corrected); every difference a simultaneous 95% "
        f"interval, corrected by Bonferroni over the {m} differences of this comparison (each at "
        f"{100 - 5 / m:.4g}%); verdicts by Holm's method over the same differences"
    )
    (wall_line,) = [x for x in lines if x.startswith("  longest wall per player at the end")]
    assert f"3 [{3 - tm * se:.3g}, {3 + tm * se:.3g}]" in wall_line


def test_a_finding_of_holms_step_down_whose_interval_reaches_zero_says_so():
    diff = Estimate(1.5, -0.2, 3.2, 10)
    assert _verdict(diff, "rule", "points", True) == "rule higher (Holm's step-down), by up to 3.2 points"
    assert _verdict(Estimate(-1.5, -3.2, 0.1, 10), "rule", "", True) == "rule lower (Holm's step-down), by up to 3.2"
    assert _verdict(Estimate(1.5, 0.5, 2.5, 10), "rule", "points", True) == "rule higher by 0.5 to 2.5 points"
    assert _verdict(diff, "rule", "points", False) == "no difference shown"


def test_winner_changed_beside_its_aa_baseline():
    """Six seeds, two rotations each. The A/A baseline pairs seeds 1-2, 3-4, 5-6 (rotation with
    rotation): the winners differ in 2 of 2, 1 of 2 and 0 of 2 pairs; clustered by pair of seeds."""
    winners = {1: (0, 1), 2: (1, 0), 3: (0, 0), 4: (0, 1), 5: (1, 1), 6: (1, 1)}  # per rotation
    base = [
        _game(s, [], winners=(winners[s][rot],), players=2, rotation=rot, play=f"{s}{rot}".ljust(16, "0"))
        for s in range(1, 7)
        for rot in (0, 1)
    ]
    rate, pairs = winner_baseline(base)
    assert pairs == 6 and rate.value == pytest.approx(0.5)
    # clusters (2, 2), (1, 2), (0, 2): residuals 1, 0, -1 -> var = 2 / (3 * 2 * 2**2)
    half = float(sps.t.ppf(0.975, 2)) * math.sqrt(2 / 24)
    assert (rate.low, rate.high) == (pytest.approx(max(0.0, 0.5 - half)), pytest.approx(min(1.0, 0.5 + half)))
    rule = [
        _game(g.seed, [], winners=(1 - g.winners[0],) if g.seed == 1 else g.winners, players=2, rotation=g.rotation)
        for g in base
    ]
    m = mattered(base, rule, "rule")
    assert m.winner_count == 2 and m.baseline == rate and m.baseline_pairs == 6
    cmp = compare_results([base, rule], ["base", "rule"])
    (line,) = [x for x in format_comparison(cmp) if "how often the rule mattered" in x]
    assert line.endswith(
        f"winner changed in 2 ({m.winner_changed}); A/A baseline, base against itself on other seeds "
        f"(no rule changed, another deal): {rate} over 6 pairs"
    )
    assert winner_baseline(base[:2]) is None  # one seed: nothing to pair


def test_the_report_says_which_intervals_are_corrected(tmp_path):
    from alhambra.lab.report import write_comparison_report

    base = [_game(s, [_tally(wall=10)] * 2, winners=(s % 2,), play="0" * 16) for s in range(1, 7)]
    rule = [_game(s, [_tally(wall=10 + s)] * 2, winners=(0,), play="f" * 16) for s in range(1, 7)]
    cmp = compare_results([base, rule], ["base", "rule"])
    html = write_comparison_report(cmp, tmp_path / "r.html").read_text("utf-8")
    assert "<em>not corrected</em> for the\nmany figures" in html
    assert f"corrected by Bonferroni's\nmethod over the {cmp.family} differences" in html
    assert "(simultaneous 95&nbsp;%)" in html and "<th>A/A baseline</th>" in html
    m = cmp.mattered[0]
    assert f"<td>{m.baseline} over {m.baseline_pairs} pairs</td>" in html
    row = _row(cmp, "longest wall per player at the end")
    d = row.corrected[0]
    assert f'+3.5 <span class="ci">[{d.low:+.3g}, {d.high:+.3g}]</span>' in html
    assert "bought per player before scoring 1: tower" in html


def test_greedy_stops_buying_towers_early_when_towers_pay_nothing():
    """The example of docs/lab.md on six seeds: greedy values buildings by what the rule set's
    scoring pays, so with towers paying nothing it buys 5/18 towers per player before the first
    scoring instead of 20/18; a finding after Holm's correction even on six seeds."""
    from pathlib import Path

    from alhambra.lab.compare import compare_tasks, load_variant, run_compare, unique_labels

    examples = Path(__file__).parent.parent / "examples"
    variants = unique_labels([load_variant(examples / "base.toml"), load_variant(examples / "no_tower_points.toml")])
    cmp = compare_results(run_compare(compare_tasks(variants, bots="greedy", games=6)), ["base", "no_tower_points"])
    early = _row(cmp, "bought per player before scoring 1: tower")
    assert [v.value for v in early.values] == [pytest.approx(20 / 18), pytest.approx(5 / 18)]
    assert early.diffs[0].value == pytest.approx(-15 / 18) and early.detected
    assert early.verdicts[0].startswith("no_tower_points lower by")
    assert _row(cmp, "points per player: extra towers pay nothing").values[1].value == pytest.approx(-121 / 6)
    assert not _row(cmp, "built per player at the end: tower").detected  # the towers are built in the end
