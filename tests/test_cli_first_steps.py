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


def test_replay_of_a_position_honours_svg(tmp_path, capsys) -> None:
    """``replay --position FILE --svg DIR`` used to ignore ``--svg``: it writes every Alhambra
    of the position and its table, titled, and says so."""
    out = tmp_path / "pics"
    assert main(["replay", "--position", str(EXAMPLES / "positions" / "hole.toml"), "--svg", str(out)]) == 0
    printed = capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == ["position-seat-0.svg", "position-seat-1.svg", "position-seat-2.svg", "position-table.svg"]
    assert f"wrote 4 SVG file(s) to {out}" in printed
    assert "in the position:" in (out / "position-seat-0.svg").read_text("utf-8")
    assert main(["replay", "--position", str(EXAMPLES / "positions" / "hole.toml"), "--svg", " "]) == 2
    assert "--svg needs a directory" in capsys.readouterr().err


def test_replay_of_several_games_says_which_it_shows(tmp_path, capsys) -> None:
    """``replay games.jsonl`` showed game 1 of N without saying so: now it names the game, how
    many the file holds and --game; a file of one game says nothing of the kind."""
    save = tmp_path / "games.jsonl"
    assert main(["simulate", "--players", "2", "--games", "3", "--workers", "1", "--quiet", "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["replay", str(save)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"{save}: game 1 of 3 (line 1); --game 1..3 shows another"
    assert main(["replay", str(save), "--game", "3"]) == 0
    assert capsys.readouterr().out.startswith(f"{save}: game 3 of 3 (line 3);")
    one = tmp_path / "one.json"
    one.write_text(save.read_text("utf-8").splitlines()[1], "utf-8")
    assert main(["replay", str(one)]) == 0
    assert "game 1 of" not in capsys.readouterr().out
