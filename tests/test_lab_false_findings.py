"""A/A comparisons through ``alhambra compare``: the report's false-finding rate stays at its
stated level (Holm's correction, at most 5 % of comparisons with any finding), and the tests
behind the verdicts: McNemar's exact test for yes/no figures, counts bounded at 0, power."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from alhambra.cli import main
from alhambra.lab.stats import NO_DIFFERENCE, games_needed, holm, paired_p

RESHUFFLE = (Path(__file__).parents[1] / "examples" / "reshuffle.py").read_text("utf-8")

REPLICATES = 20
#: with at most 5 % of A/A comparisons flagging anything, 4 or more of 20 has chance < 1.7 %
ALLOWED = 3


@pytest.fixture
def aa_configs(tmp_path):
    (tmp_path / "reshuffle.py").write_text(RESHUFFLE)
    (tmp_path / "a.toml").write_text("players = 2\n")
    (tmp_path / "b.toml").write_text('players = 2\nmodules = ["reshuffle"]\nmodule_paths = ["reshuffle.py"]\n')
    return str(tmp_path / "a.toml"), str(tmp_path / "b.toml")


def test_aa_comparisons_through_the_cli_hold_the_family_wise_level(aa_configs, capsys):
    a, b = aa_configs
    flagged = 0
    figures = 0
    for r in range(REPLICATES):
        argv = ["compare", a, b, "--bots", "random", "--games", "16", "--seed", str(1 + 1000 * r), "--workers", "1"]
        assert main(argv) == 0
        out = capsys.readouterr().out
        m = re.search(r"verdict: (\d+) of (\d+) figures differ after Holm", out)
        assert m, out
        flagged += int(m.group(1)) > 0
        figures = int(m.group(2))
        if int(m.group(1)) == 0:
            assert "every other figure: no difference shown" in out
    assert figures >= 15  # many figures in one comparison: uncorrected, about half would flag one
    assert flagged <= ALLOWED, f"{flagged} of {REPLICATES} A/A comparisons reported a difference"


def test_yes_no_figures_use_mcnemar_exact():
    # 0 vs 4 discordant pairs: exact two-sided p = 2 / 16 = 0.125, not a t-test's p < 0.05
    a = [0.0] * 40
    b = [1.0] * 4 + [0.0] * 36
    assert paired_p(a, b) == pytest.approx(0.125)
    assert paired_p(a, a) == 1.0


def test_holm_adjusts_the_smallest_p_by_the_family_size():
    assert holm([0.01, 0.5, 0.04]) == pytest.approx([0.03, 0.5, 0.08])


def test_games_needed_for_80_percent_power():
    n = games_needed(0.5, 1.0)  # effect size 0.5: about 34 pairs for a paired t-test
    assert n is not None and 33 <= n <= 35
    assert games_needed(0.0, 1.0) is None


def test_primary_figure_and_power_line_through_the_cli(aa_configs, capsys):
    a, b = aa_configs
    argv = ["compare", a, b, "--bots", "random", "--games", "8", "--workers", "1", "--primary", "turns"]
    assert main([*argv, "--games-needed", "2"]) == 0
    out = capsys.readouterr().out
    assert "primary figure 'turns', tested on its own at 5%" in out
    assert re.search(r"games needed: about \d+ seeds detect a difference of 2 turns in 'turns'", out)
    for line in out.splitlines():
        if line.lstrip().startswith(("turns ", "actions ")):
            assert "[-" not in line.split("]")[0]  # a count's interval does not go below 0
    assert main(["compare", a, b, "--bots", "random", "--games", "2", "--primary", "no such figure"]) != 0
    assert "no figure 'no such figure'" in capsys.readouterr().err
    assert NO_DIFFERENCE == "no difference shown"
