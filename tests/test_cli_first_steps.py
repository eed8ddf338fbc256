"""What a newcomer meets first on the command line: ``alhambra`` alone prints what it can do,
an option of a module that is not enabled says so, a flag that cannot apply is refused rather
than ignored, and ``alhambra modules`` shows an option without default as none."""

from __future__ import annotations

from pathlib import Path

import pytest

import alhambra
from alhambra.cli import main

EXAMPLES = Path(__file__).parents[1] / "examples"


def test_alhambra_alone_prints_its_commands_and_succeeds(capsys) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    for command in ("simulate", "replay", "modules", "play", "compare", "tournament", "bots"):
        assert f"    {command}" in out


def test_an_option_of_a_module_not_enabled_names_the_module(capsys) -> None:
    assert main(["simulate", "--option", "city_gates.cards=3", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown option 'city_gates.cards' (an option of the module 'city_gates'?" in err
    with pytest.raises(alhambra.ConfigError, match="known options"):
        alhambra.new_game(3, options={"holes2": 1})


def test_replay_of_a_position_refuses_a_game_number(capsys) -> None:
    position = next(EXAMPLES.glob("positions/*.toml"))
    assert main(["replay", "--position", str(position), "--game", "2"]) == 2
    assert "give no save file and no --game" in capsys.readouterr().err
    assert main(["replay", "--position", str(position)]) == 0


def test_modules_shows_an_option_without_a_default_as_none(capsys) -> None:
    assert main(["modules"]) == 0
    out = capsys.readouterr().out
    assert "option building_huts.layout = (none):" in out
    assert "= None" not in out
