"""The command line checks before it plays, and the canonical module order."""

from __future__ import annotations

import random
import socket
import sys
import time
from pathlib import Path

import pytest

import alhambra
from alhambra import ConfigError, hookimpl
from alhambra.cli import main
from alhambra.config import load_config
from alhambra.ruleset import CANONICAL_MODULES

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _error(capsys, argv) -> str:
    assert main(argv) == 2
    return capsys.readouterr().err


def test_plot_format_is_checked_before_playing(tmp_path, capsys):
    err = _error(capsys, ["simulate", "--games", "1", "--quiet", "--plot", str(tmp_path / "out.txt")])
    assert "--plot" in err and ".txt is not an image format matplotlib writes; use one of" in err and ".png" in err
    assert "game 1" not in capsys.readouterr().out


def test_save_into_a_directory_is_refused_before_playing(tmp_path, capsys):
    err = _error(capsys, ["simulate", "--games", "1", "--save", str(tmp_path)])
    assert f"--save {tmp_path}: is a directory; name a file" in err


def test_bot_parameters_must_be_finite(capsys):
    for value in ("nan", "inf", "-inf"):
        err = _error(capsys, ["simulate", "--games", "1", "--bots", f"greedy:noise={value}"])
        assert f"bot 'greedy': noise='{value}' must be a finite number" in err


def test_a_ray_address_that_does_not_answer_fails_fast(capsys):
    with socket.socket() as s:  # a port nothing listens on: bind, then close
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    err = _error(capsys, ["simulate", "--games", "1", "--backend", "ray", "--ray-address", f"127.0.0.1:{port}"])
    assert time.monotonic() - start < 10
    assert f"--ray-address 127.0.0.1:{port}: no Ray cluster answers there within 3 s" in err
    err = _error(capsys, ["simulate", "--games", "1", "--backend", "ray", "--ray-address", "nowhere"])
    assert "expected HOST:PORT" in err


def test_a_user_module_named_like_an_installed_one_is_refused(tmp_path):
    (tmp_path / "mine.py").write_text('NAME = "vizier"\n')
    (tmp_path / "game.toml").write_text('modules = ["vizier"]\nmodule_paths = ["mine.py"]\n')
    with pytest.raises(
        ConfigError,
        match=r"mine.py defines module 'vizier', which clashes with the installed "
        r"module 'vizier' \(alhambra_vizier\)",
    ):
        load_config(tmp_path / "game.toml")


def test_an_unused_module_path_is_refused(tmp_path):
    (tmp_path / "mine.py").write_text('NAME = "mine"\n')
    (tmp_path / "game.toml").write_text('modules = ["vizier"]\nmodule_paths = ["mine.py"]\n')
    with pytest.raises(ConfigError, match=r"mine.py defines module 'mine', which 'modules' does not name"):
        load_config(tmp_path / "game.toml")


def test_a_misspelled_hook_is_refused():
    class Typo:
        NAME = "typo"

        @hookimpl
        def alhambra_scorng(self, game):  # alhambra_scoring misspelled
            return None

    with pytest.raises(ConfigError, match=r"unknown hook 'alhambra_scorng'.*misspelled hook"):
        alhambra.new_game(3, plugins=[Typo()])


def _play(names, modules, seed):
    g = alhambra.new_game(names, modules=modules, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_the_same_set_of_modules_in_any_order_gives_the_same_game():
    a = _play(4, ["exchange_offices", "bonus_cards", "building_huts", "vizier"], 3)
    b = _play(4, list(CANONICAL_MODULES), 3)
    assert a.rules.modules == b.rules.modules == CANONICAL_MODULES
    assert a.history == b.history and a.scores == b.scores


def test_the_readme_game_is_unchanged_by_the_canonical_order():
    """README: modules=["vizier", "bonus_cards"], seed 7 gives (77, 136, 106), seat 1 wins;
    named the other way round it is now the same game."""
    for modules in (["vizier", "bonus_cards"], ["bonus_cards", "vizier"]):
        g = _play(["Ana", "Bo", "Cy"], modules, 7)
        assert g.scores == (77, 136, 106) and g.winners == (1,)


@pytest.fixture
def no_lab(monkeypatch):
    """The ``lab`` extra not installed: its packages cannot be imported (None in sys.modules)."""
    for name in ("statsmodels", "scipy", "pandas", "openskill", "matplotlib", "jinja2", "optuna"):
        monkeypatch.setitem(sys.modules, name, None)


def test_simulate_report_without_the_lab_extra_fails_before_any_game(tmp_path, capsys, no_lab):
    """``simulate --report`` used to play every game and only then fail: now one line before."""
    out = tmp_path / "r.jsonl"
    argv = ["simulate", "--games", "3", "--workers", "1", "--out", str(out), "--report", str(tmp_path / "r.html")]
    err = _error(capsys, argv)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "--report needs the lab extra (jinja2, matplotlib, statsmodels, scipy are not installed)" in err
    assert "pip install 'alhambra-engine[lab]'" in err
    assert not out.exists() and not (tmp_path / "r.html").exists()  # no game was played


def test_compare_and_tournament_without_the_lab_extra_are_one_line_errors(capsys, no_lab):
    """``compare --games 1`` without the lab extra was a ModuleNotFoundError traceback."""
    configs = [str(EXAMPLES / "base.toml"), str(EXAMPLES / "strict_holes.toml")]
    err = _error(capsys, ["compare", *configs, "--games", "1", "--workers", "1"])
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "compare needs the lab extra (statsmodels, scipy are not installed)" in err
    err = _error(capsys, ["tournament", "--bots", "random,random", "--players", "2", "--games", "1"])
    assert "tournament needs the lab extra (openskill, statsmodels, scipy are not installed)" in err


def test_the_lab_check_names_only_what_is_missing(monkeypatch):
    from alhambra.cli_checks import check_lab

    check_lab("compare", "compare")  # the test extra installs the lab's packages
    monkeypatch.setitem(sys.modules, "jinja2", None)
    with pytest.raises(ConfigError, match=r"^--report needs the lab extra \(jinja2 is not installed\): pip install"):
        check_lab("--report", "report")
