"""Positions (docs/positions.md): hand-written ones filled in as a real game would have them,
written ones continuing identically."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import alhambra
from alhambra import operations
from alhambra import ConfigError, MoneyCard
from alhambra.saving.position import parse_grid, position_to_toml, render_grid
from alhambra.testing import check_invariants, expected_money

from helpers import COMBINATIONS, advance, check_position_round_trip, players_st, saved_state, seeds_st

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"


_state = saved_state


@settings(max_examples=32)
@given(
    players=players_st,
    modules=hst.sampled_from(COMBINATIONS),
    seed=seeds_st,
    steps=hst.integers(min_value=0, max_value=400),
    form=hst.sampled_from(["data", "toml", "json"]),
)
def test_from_position_of_position_continues_identically(players, modules, seed, steps, form):
    """For random mid-game states of every module combination and 2-6 players, the game
    rebuilt from its position equals it and goes on exactly like it."""
    check_position_round_trip(players, modules, seed, steps, form)


def test_all_16_module_combinations_round_trip_mid_game():
    assert len(COMBINATIONS) == 16
    for k, modules in enumerate(COMBINATIONS):
        g = alhambra.new_game(2 + k % 5, modules=list(modules), seed=k)
        advance(g, k, 50 + 7 * k)
        assert not g.is_over
        assert _state(alhambra.Game.from_position(position_to_toml(g))) == _state(g), modules


def test_the_least_position_is_a_real_game_start():
    """Only the players given: everything is filled in as a set-up has it (R-SET-1 … R-SET-7)."""
    g = alhambra.Game.from_position('players = ["Ana", "Bo", "Cy"]\nseed = 2\n')
    st = g.state
    check_invariants(g)
    assert g.phase == "turn" and g.state.turn == 1 and g.current_player == st.start_player
    assert all(sum(c.value for c in p.hand) >= 20 for p in st.players)  # R-SET-3
    assert len(st.display) == 4 and all(t is not None for t in st.market)
    assert len(st.bag) == 50 and len(st.pile_sizes) == 5  # R-SET-6
    money_piles = [n - (k in (1, 3)) for k, n in enumerate(st.pile_sizes)]  # A in pile 2, B in pile 4
    assert max(money_piles) - min(money_piles) <= 1
    assert operations.pile_of(g, st.deck.index(alhambra.components.SCORING_A)) == 2
    assert operations.pile_of(g, st.deck.index(alhambra.components.SCORING_B)) == 4


def test_named_parts_are_kept_and_the_rest_is_what_nobody_holds():
    text = """
players = [{ name = "Ana", hand = ["florin-9", "florin-9", "dirham-2"], alhambra = "F 7\\n", reserve = [14] }, "Bo"]
seed = 4
market = [1, 2, 3, 4]
display = ["dinar-1", "ducat-1"]
discard = ["florin-1"]
"""
    g = alhambra.Game.from_position(text)
    st = g.state
    check_invariants(g)
    assert [c.code for c in st.players[0].hand] == ["florin-9", "florin-9", "dirham-2"]
    assert MoneyCard("florin", 9) not in st.deck + st.players[1].hand  # two players: two copies (R-TWO-1)
    assert st.players[0].city.tiles == {(0, 0): 0, (1, 0): 7}
    assert st.players[0].reserve == [14]
    assert st.market == [1, 2, 3, 4]
    assert sorted(st.bag + st.modules["dirk"].tiles) == [b for b in range(5, 55) if b not in (7, 14)]
    money = Counter(c for c in st.deck + st.players[1].hand if type(c) is MoneyCard)
    assert money + Counter(st.players[0].hand + st.display + st.discard) == expected_money(g)


def test_more_copies_of_a_card_than_the_game_has_are_refused():
    with pytest.raises(ConfigError, match=r"hand:0: more florin-9 cards than the game has \(2\)"):
        alhambra.Game.from_position({"players": [{"hand": ["florin-9"] * 3}, "Bo"]})


@pytest.mark.parametrize(
    "edit, match",
    [
        ({"colour": "red"}, r"unknown key\(s\) \['colour'\]"),
        ({"market": [1, 2, 3]}, r"market: four spaces"),
        ({"market": [1, 2, 3, "no such tile"]}, r"market\[3\]: unknown tile 'no such tile'"),
        ({"display": ["florin-10"]}, r"display\[0\]: unknown card 'florin-10'"),
        ({"phase": "distribution"}, r"state.phase: 'distribution' is never a decision point"),
        ({"phase": "place"}, r"state.pending: in phase 'place' some tile is pending"),
        ({"phase": "vizier"}, r"unknown phase 'vizier'"),
        ({"turn_player": 5}, r"state.turn_player must be a seat 0..2, not 5"),
        ({"turn": 10**30}, r"beyond any number a game reaches"),
        (
            {"players": ["Ana", {"name": "Bo", "score": 7}, "Cy"]},
            r"Bo \(seat 1\) has 7 points, but the scoring records give 0",
        ),
        ({"players": ["Ana", {"name": "Bo", "alhambra": "F . 7\n"}, "Cy"]}, r"players\[1\].alhambra"),
        ({"players": ["Ana", {"name": "Bo", "alhambra": "7 14\n"}, "Cy"]}, r"fountain 'F' exactly once"),
        ({"deck": ["florin-1"]}, r"deck: money cards .* are nowhere"),
        ({"pile_sizes": [1]}, r"pile_sizes: only with a deck listed card by card"),
        ({"bag": [1, 1]}, r"tiles in two places|bag"),
        ({"dirk": {"tiles": [1]}}, r"Dirk plays only in a two-player game"),
        ({"scoring_cards": ["scoring-A"]}, r"the cards set aside \(\[1\]\) must be those of the scorings done"),
    ],
)
def test_positions_no_game_can_reach_are_refused(edit, match):
    data = {"players": ["Ana", "Bo", "Cy"], "seed": 1, **edit}
    with pytest.raises(ConfigError, match=match):
        alhambra.Game.from_position(data)


def test_scores_with_scorings_done_load():
    g = alhambra.Game.from_position(
        {"players": [{"score": 30}, {"score": 21}], "scorings": [1], "seed": 3, "dirk": {"score": 12}}
    )
    assert g.scores == (30, 21) and g.state.modules["dirk"].score == 12
    assert g.state.scoring_cards == [alhambra.components.SCORING_A]
    assert alhambra.components.SCORING_A not in g.state.deck


def test_grid_round_trip():
    layout = {(0, -1): 7, (1, -1): 14, (1, 0): 22, (-1, 0): "H3"}
    city = alhambra.Alhambra.from_tiles({k: v for k, v in layout.items() if v != "H3"})
    assert parse_grid(render_grid(city)) == {k: v for k, v in layout.items() if v != "H3"}
    assert parse_grid(" .  7 14\nH3  F 22\n") == layout


# -- the worked examples --------------------------------------------------------------------------


def test_example_vizier_decision():
    """R-VIZ-2/R-VIZ-5: Bo, asked last, may buy the dirham space exactly with his dirham 4."""
    g = alhambra.Game.from_position(EXAMPLES / "vizier_decision.toml")
    import alhambra_vizier as vz

    assert g.phase == "vizier" and g.current_player == 1
    assert g.legal_actions() == [vz.UseVizier(2, [MoneyCard("dirham", 4)]), vz.DeclineVizier()]
    g.apply(vz.UseVizier(2, [MoneyCard("dirham", 4)]))
    assert g.phase == "place" and g.state.pending[0].tile == 9
    assert g.state.modules["vizier"].active == [False, False, False]


def test_example_hole_that_must_not_be_made():
    """R-PLACE-6: building 32 at (1, 1) would enclose (1, 0); it is not offered and refused."""
    g = alhambra.Game.from_position(EXAMPLES / "hole.toml")
    places = {a.pos for a in g.legal_actions() if isinstance(a, alhambra.Place)}
    assert (1, 1) not in places and {(1, 0), (2, 1)} <= places
    with pytest.raises(alhambra.IllegalActionError, match="R-PLACE-6"):
        g.apply(alhambra.Place(32, (1, 1)))


def test_example_last_distribution():
    """R-END-3: Cy places the building received at the end, then Ana, then the last scoring."""
    g = alhambra.Game.from_position(EXAMPLES / "last_distribution.json")
    assert g.phase == "place" and g.state.place_context == "distribution" and g.current_player == 2
    assert g.legal_actions()[-1] == alhambra.Reserve(31)
    g.apply(alhambra.Reserve(31))
    assert g.current_player == 0 and g.state.pending[0].tile == 41
    g.apply(alhambra.Reserve(41))
    assert g.is_over and [r.number for r in g.state.scorings] == [1, 2, 3]
    assert g.scores[0] >= 52 and g.scores[1] >= 47 and g.scores[2] >= 60


# -- the command line ----------------------------------------------------------------------------


def test_cli_replay_position_prints_who_decides_and_the_legal_actions(capsys):
    from alhambra.cli import main

    assert main(["replay", "--position", str(EXAMPLES / "vizier_decision.toml")]) == 0
    out = capsys.readouterr().out
    assert "phase 'vizier', turn 9: Bo (seat 1) decides, 2 legal action(s):" in out
    assert "  vizier: buy space 2 paying dirham-4\n  decline the vizier" in out


def test_cli_replay_position_refuses_a_bad_position_naming_the_file(tmp_path, capsys):
    from alhambra.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text('players = ["a", "b"]\nmarket = [1, 2, 3, 99]\n')
    assert main(["replay", "--position", str(bad)]) == 2
    assert f"{bad}: market[3]: unknown tile 99" in capsys.readouterr().err
    assert main(["replay", "--position", str(tmp_path / "none.toml")]) == 2
    assert "none.toml: cannot read the position file: No such file or directory" in capsys.readouterr().err


# -- options that name files ---------------------------------------------------------------------


def _position_with_layout(tmp_path: Path) -> Path:
    """``tmp_path/puzzle/huts.toml``: a position whose huts layout option names
    ``layouts/mine.toml`` next to it (H1 walled east, south and west)."""
    import alhambra_building_huts

    shipped = Path(alhambra_building_huts.__file__).parent / "huts.toml"
    text = shipped.read_text(encoding="utf-8")
    mine = text.replace(
        'id = "H1"\ntype = "pavilion"\nwalls = ["north"]',
        'id = "H1"\ntype = "pavilion"\nwalls = ["east", "south", "west"]',
    )
    assert mine != text
    (tmp_path / "puzzle" / "layouts").mkdir(parents=True)
    (tmp_path / "puzzle" / "layouts" / "mine.toml").write_text(mine, encoding="utf-8")
    position = tmp_path / "puzzle" / "huts.toml"
    position.write_text(
        'players = ["Ana", "Bo"]\nmodules = ["building_huts"]\nseed = 4\n\n'
        '[options]\n"building_huts.layout" = "layouts/mine.toml"\n',
        encoding="utf-8",
    )
    return position


def test_a_path_option_of_a_position_file_is_relative_to_that_file(tmp_path, monkeypatch):
    """Run from another directory: ``building_huts.layout = "layouts/mine.toml"`` is found next
    to the position file, and the game uses that layout (R-HUT-1)."""
    from alhambra.components import EAST, SOUTH, WEST

    position = _position_with_layout(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    game = alhambra.Game.from_position(position)
    assert game.rules.options["building_huts.layout"] == str(tmp_path / "puzzle" / "layouts" / "mine.toml")
    assert game.rules.catalog["H1"].walls == EAST | SOUTH | WEST
    # the position it writes names the file absolutely: it builds the same game from anywhere
    assert alhambra.Game.from_position(game.position()).rules.catalog["H1"].walls == EAST | SOUTH | WEST
    # from text there is no file to be relative to: the path is taken from the current directory
    with pytest.raises(ConfigError, match="layouts/mine.toml"):
        alhambra.Game.from_position(position.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path / "puzzle")
    assert (
        alhambra.Game.from_position(position.read_text(encoding="utf-8")).rules.catalog["H1"].walls
        == EAST | SOUTH | WEST
    )


def test_cli_replay_position_from_another_directory_finds_the_files_it_names(tmp_path):
    """``alhambra replay --position puzzle/huts.toml`` run in another directory (a real process)."""
    import os
    import subprocess
    import sys

    position = _position_with_layout(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "alhambra.cli", "replay", "--position", os.path.relpath(position, elsewhere)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "2 players, modules ['building_huts'], seed 4" in done.stdout


@pytest.mark.parametrize("count", [2**31, 7, 1, -3])
def test_a_number_of_players_out_of_range_is_refused_before_naming_them(count):
    """Found by the save-mutation fuzzer (a start position with ``players = 2**31`` built two
    billion names and ran out of memory): R-COMP-1's 2-6 is checked first."""
    with pytest.raises(ConfigError, match=rf"players: a game has 2 to 6 players, not {count} \(R-COMP-1\)"):
        alhambra.Game.from_position({"players": count})


def test_from_position_takes_a_path_given_as_text(monkeypatch):
    """The README's ``Game.from_position(path_or_text)``: a ``str`` naming a file used to be
    parsed as TOML ("not a position"); now it reads the file, as a ``Path`` does, relative to
    the current directory or absolute, and TOML or JSON text still works."""
    path = EXAMPLES / "hole.toml"
    want = alhambra.Game.from_position(path).to_json()
    assert alhambra.Game.from_position(str(path)).to_json() == want
    monkeypatch.chdir(EXAMPLES.parent.parent)
    assert alhambra.Game.from_position("examples/positions/hole.toml").to_json() == want
    assert alhambra.Game.from_position(str(EXAMPLES / "last_distribution.json")).is_over is False
    assert alhambra.Game.from_position(path.read_text("utf-8")).to_json() == want  # TOML text
    game = alhambra.Game.from_position(path)
    assert alhambra.Game.from_position(game.position()).to_json() == game.to_json()
    with pytest.raises(ConfigError, match=r"^examples/positions/nothere.toml: no such position file$"):
        alhambra.Game.from_position("examples/positions/nothere.toml")
