"""The public API: configuration errors, views, saves, replays, variants, the CLI."""

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import alhambra
from alhambra import Buy, ConfigError, IllegalActionError, MoneyCard, SaveFormatError
from alhambra.cli import main
from alhambra.config import load_config
from helpers import advance, continue_alike

ROOT = Path(__file__).resolve().parents[1]


def _double_walls():
    """The example variant plugin ``examples/replace_scoring.py``: DoubleWalls."""
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from replace_scoring import DoubleWalls
    finally:
        sys.path.pop(0)
    return DoubleWalls


@pytest.mark.parametrize("players", [0, 1, 7, True, "four", ["solo"], 2.5])
def test_bad_player_counts(players):
    with pytest.raises(ConfigError):
        alhambra.new_game(players)


def test_bad_config_values():
    with pytest.raises(ConfigError, match="available modules"):
        alhambra.new_game(3, modules=["wizard"])
    with pytest.raises(ConfigError, match="known options"):
        alhambra.new_game(3, options={"hole": "cell"})
    with pytest.raises(ConfigError, match="one of"):
        alhambra.new_game(3, options={"holes": "sometimes"})
    with pytest.raises(ConfigError, match="seed"):
        alhambra.new_game(3, seed="abc")
    with pytest.raises(ConfigError, match="modules must be a list"):
        alhambra.new_game(3, modules="vizier")
    with pytest.raises(ConfigError, match="built-in plugins"):
        alhambra.new_game(3, blocked=["core.nothing"])
    assert issubclass(ConfigError, alhambra.AlhambraError)


def test_nothing_enabled_implicitly():
    g = alhambra.new_game(4, seed=1)
    assert g.rules.modules == ()
    assert set(g.state.modules) == set()


def test_view_hides_secrets():
    g = alhambra.new_game(4, seed=3)
    v = g.view(1)
    assert "hand" in v["players"][1] and "hand" not in v["players"][0]
    assert v["players"][0]["hand_size"] == len(g.state.players[0].hand)
    assert "deck" not in v and "bag" not in v and v["deck_size"] == len(g.state.deck)
    json.dumps(v)  # plain data
    spectator = g.view(None)
    assert all("hand" not in p for p in spectator["players"])
    with pytest.raises(ConfigError):
        g.view(9)


def test_save_format_errors():
    g = alhambra.new_game(3, seed=3)
    good = json.loads(g.to_json())
    bad_texts = [
        "",
        "not json",
        "[]",
        json.dumps({"format": "other"}),
        json.dumps({**good, "version": 99}),
        json.dumps({**good, "modules": ["wizard"]}),
        json.dumps({**good, "seed": "x"}),
        json.dumps({**good, "rng": {"version": 3, "state": [1, 2], "gauss": None}}),
        json.dumps({**good, "history": [{"type": "Explode"}]}),
        json.dumps({**good, "history": [{"type": "Buy", "space": 1}]}),
        json.dumps({**good, "state": {**good["state"], "display": ["gold-12"]}}),
        json.dumps({**good, "state": {**good["state"], "bag": good["state"]["bag"][1:]}}),
        json.dumps({**good, "state": {**good["state"], "players": []}}),
        b"\xff\xfe",
    ]
    for text in bad_texts:
        with pytest.raises(SaveFormatError):
            alhambra.Game.from_json(text)
    # a save whose Alhambra breaks the placement rules
    broken = json.loads(g.to_json())
    broken["state"]["players"][0]["city"].append([5, 5, 22])
    broken["state"]["bag"].remove(22) if 22 in broken["state"]["bag"] else None
    with pytest.raises(SaveFormatError):
        alhambra.Game.from_json(json.dumps(broken))


def test_save_never_executes_code(tmp_path):
    g = alhambra.new_game(3, seed=3)
    data = json.loads(g.to_json())
    data["modules"] = ["os:system"]
    with pytest.raises(SaveFormatError):
        alhambra.Game.from_json(json.dumps(data))


def test_determinism_same_seed_same_game():
    a = alhambra.new_game(5, modules=[], seed=99)
    b = alhambra.new_game(5, modules=[], seed=99)
    alhambra.testing.random_playout(a, 5)
    alhambra.testing.random_playout(b, 5)
    assert a.to_json() == b.to_json()
    c = alhambra.new_game(5, seed=100)
    assert c.to_json() != alhambra.new_game(5, seed=99).to_json()


def test_actions_have_readable_strings():
    g = alhambra.new_game(3, seed=1)
    alhambra.testing.random_playout(g, 1)
    text = [str(a) for a in g.history]
    assert any(t.startswith("buy space") for t in text)
    assert any(t.startswith("take ") for t in text)
    assert all("(" not in t or " at (" in t for t in text if t.startswith("place"))


def test_variant_blocks_and_replaces_a_builtin_rule():
    DoubleWalls = _double_walls()
    g = alhambra.new_game(3, seed=4, plugins=[DoubleWalls()], blocked=["core.scoring"])
    assert "core.scoring" in g.rules.blocked
    alhambra.testing.random_playout(g, 4)
    for record in g.state.scorings:
        assert record.extra["double walls"] == record.walls
        assert record.totals == [sum(m.values()) + 2 * w for m, w in zip(record.majority, record.walls)]


def test_user_module_from_config_file():
    cfg = load_config(ROOT / "examples" / "golden_fountain.toml")
    mods = cfg.resolved_modules()
    g = alhambra.new_game(cfg.players, modules=mods, seed=1, options=cfg.options)
    g.state.players[0].city = alhambra.Alhambra.from_tiles({(1, 0): 22, (0, 1): 23, (2, 0): 31})
    g.state.players[1].city = alhambra.Alhambra.from_tiles({(-1, 0): 7})
    record = g.rules.hook.alhambra_scoring(game=g, number=1)
    # two buildings beside seat 0's fountain, one beside seat 1's; 2 points each (config)
    assert record.extra["golden fountain"] == [4, 2, 0, 0]
    assert record.totals[0] == 3 + 4 + 4  # arcades 1st (3) + chambers 1st (4) + gold
    with pytest.raises(ConfigError, match="0-5"):
        alhambra.new_game(3, modules=mods, options={"golden_fountain.points": 9})


def test_config_errors(tmp_path):
    p = tmp_path / "c.toml"
    for text, match in [
        ("players = 'x'", "players"),
        ("colour = 1", "unknown config keys"),
        ("modules = 'vizier'", "modules"),
        ("[[[", "TOML"),
        ("module_paths = ['nope.py']", "does not exist"),
    ]:
        p.write_text(text)
        with pytest.raises(ConfigError, match=match):
            load_config(p)
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml")


def test_cli_simulate_save_and_replay(tmp_path, capsys):
    save = tmp_path / "games.jsonl"
    assert main(["simulate", "--players", "3", "--games", "2", "--seed", "7", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "game 1 seed 7" in out and "game 2 seed 8" in out and "summary: 2 games" in out
    assert len(save.read_text().splitlines()) == 2
    assert main(["replay", str(save), "--game", "2"]) == 0
    out = capsys.readouterr().out
    assert "scoring 3:" in out and "winners" in out and "#" in out
    assert main(["replay", str(save), "--game", "5"]) == 2


def test_cli_replay_of_a_save_with_a_user_module_points_to_config(tmp_path, capsys):
    """A save that needs a module of the user's own replays with its --config, and without
    it fails with a message that says so (status 2)."""
    config = Path(__file__).parent.parent / "examples" / "golden_fountain.toml"
    save = tmp_path / "g.jsonl"
    assert main(["simulate", "--players", "2", "--games", "1", "--config", str(config), "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["replay", str(save)]) == 2
    err = capsys.readouterr().err
    assert "golden_fountain" in err and "--config" in err
    assert main(["replay", str(save), "--config", str(config)]) == 0
    assert "scoring 3:" in capsys.readouterr().out


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda d: d["state"]["players"][0].update(score=d["state"]["players"][0]["score"] + 5),
            "scoring records give",
        ),
        (
            lambda d: d.update(history=d["history"][:100]),
            r"history does not lead to its saved state \(they differ in state\.",
        ),
        (
            lambda d: d["history"].__setitem__(5, {"type": "Buy", "space": 9, "cards": ["florin-2"], "via": None}),
            r"history\[5\] \(buy space 9 paying florin-2\) does not fit the replayed game",
        ),
        (
            lambda d: d["history"].__setitem__(7, {"type": "TakeMoney", "cards": ["florin-99"]}),
            r"history\[7\]: .*florin-99",
        ),
    ],
    ids=["score", "cut-history", "impossible-action", "unreadable-action"],
)
def test_cli_replay_checks_the_history_against_the_saved_state(tmp_path, capsys, edit, message):
    """``alhambra replay`` loads the saved state (checked) and replays the history from the
    seed; a save where the two disagree, or whose history cannot be replayed, is an error
    naming the game, its line in a JSON Lines file, and the history entry at fault."""
    save = tmp_path / "games.jsonl"
    assert (
        main(["simulate", "--players", "3", "--modules", "vizier", "--games", "2", "--seed", "4", "--save", str(save)])
        == 0
    )
    capsys.readouterr()
    lines = save.read_text().splitlines()
    data = json.loads(lines[1])
    edit(data)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps(data) + "\n")
    assert main(["replay", str(bad), "--game", "1"]) == 0  # the untouched game still replays
    capsys.readouterr()
    assert main(["replay", str(bad), "--game", "2"]) == 2
    err = capsys.readouterr().err
    assert "game 2 (line 2)" in err
    assert re.search(message, err), err


def test_cli_replay_of_an_empty_file_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    assert main(["replay", str(empty)]) == 2
    assert "is empty" in capsys.readouterr().err


def test_cli_errors_are_messages_not_tracebacks(tmp_path, capsys):
    assert main(["simulate", "--players", "9"]) == 2
    assert "2 to 6 players" in capsys.readouterr().err
    assert main(["simulate", "--modules", "wizard"]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["replay", str(bad)]) == 2
    assert main(["replay", str(tmp_path / "none.json")]) == 2


def test_cli_modules_lists_installed_modules(capsys):
    assert main(["modules"]) == 0
    out = capsys.readouterr().out
    for name in ("vizier", "building_huts", "bonus_cards", "exchange_offices"):
        assert name in out


def test_cli_modules_flags_a_misregistered_module(monkeypatch, capsys):
    """An installed module whose entry-point name differs from its NAME cannot be enabled
    (saves record the NAME); ``alhambra modules`` says so on its line and lists the rest."""
    from importlib.metadata import EntryPoint

    import alhambra.cli
    import alhambra.ruleset

    real = alhambra.ruleset.available_modules()
    fake = {**real, "wizard": EntryPoint("wizard", "alhambra_vizier", "alhambra.modules")}
    monkeypatch.setattr(alhambra.ruleset, "available_modules", lambda: fake)
    monkeypatch.setattr(alhambra.cli, "available_modules", lambda: fake)
    assert main(["modules"]) == 0
    out = capsys.readouterr().out
    assert "wizard: cannot be enabled: module registered as 'wizard'" in out and "NAME 'vizier'" in out
    assert "vizier: " in out and "option building_huts.layout" in out


def test_console_script_runs():
    exe = Path(sys.executable).parent / "alhambra"
    if not exe.exists():
        pytest.skip("console script not installed (running from the checkout)")
    res = subprocess.run(
        [str(exe), "simulate", "--players", "2", "--games", "1", "--quiet"], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0 and "summary: 1 game," in res.stdout


def test_variant_with_plugins_and_blocked_round_trips_through_saves():
    DoubleWalls = _double_walls()
    g = alhambra.new_game(3, seed=5, plugins=[DoubleWalls()], blocked=["core.scoring"])
    advance(g, random.Random(5), 60)
    assert not g.is_over
    text = g.to_json()
    data = json.loads(text)
    assert data["blocked"] == ["core.scoring"] and data["plugins"] == ["DoubleWalls"]
    with pytest.raises(SaveFormatError, match="DoubleWalls"):
        alhambra.Game.from_json(text)  # never silently loaded with the base rules
    loaded = alhambra.Game.from_json(text, plugins=[DoubleWalls()])
    assert "core.scoring" in loaded.rules.blocked
    continue_alike(g, loaded, 1)  # the same scores at the end, among the rest
    assert alhambra.replay(g.to_json(), plugins=[DoubleWalls()]).scores == g.scores
    with pytest.raises(SaveFormatError):
        alhambra.replay(g.to_json())


def test_save_with_a_duplicated_money_card_is_rejected():
    g = alhambra.new_game(3, seed=2)
    data = json.loads(g.to_json())
    data["state"]["players"][0]["hand"].append(data["state"]["players"][0]["hand"][0])
    with pytest.raises(SaveFormatError, match="money card"):
        alhambra.Game.from_json(json.dumps(data))


def test_look_alike_values_never_reach_the_state():
    """An action equal to a listed one but holding 2.0 for 2 (or True for 1) is played as the
    engine's own listed instance; cards with non-int values cannot even be made."""
    g = alhambra.new_game(3, seed=1)
    buy = next(a for a in g.legal_actions() if isinstance(a, alhambra.Buy))
    g.apply(alhambra.Buy(float(buy.space), buy.cards))
    assert type(g.history[-1].space) is int
    assert alhambra.Game.from_json(g.to_json()).to_json() == g.to_json()
    for bad in (("dinar", 8.0), ("dinar", True), ("gold", 3), ("dinar", 10)):
        with pytest.raises(ConfigError, match="R-COMP-3"):
            alhambra.MoneyCard(*bad)


def test_new_game_argument_errors_are_config_errors():
    for kwargs in (
        {"modules": None},
        {"plugins": None},
        {"blocked": None},
        {"options": ["x"]},
        {"options": "x"},
        {"plugins": [None]},
        {"plugins": ["x"]},
    ):
        with pytest.raises(ConfigError):
            alhambra.new_game(3, **kwargs)
    with pytest.raises(ConfigError, match="not 100"):
        alhambra.new_game(100)
    for essential in ("core.scoring", "core.end", "core.setup"):
        with pytest.raises(ConfigError, match="needs a replacement"):
            alhambra.new_game(3, blocked=[essential])


def _tampered(game, edit):
    data = json.loads(game.to_json())
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["state"].update(phase="bogus"),
        lambda d: d["state"].update(decider=1.7),
        lambda d: d["state"].update(decider=True),
        lambda d: d["state"].update(turn_player=10**30),
        lambda d: d["state"].update(pending_scorings=[7]),
        lambda d: d["state"].update(distribution="x"),
        lambda d: d["state"].update(market=d["state"]["market"][:3]),
        lambda d: d["state"]["players"][0].update(score=-5),
        lambda d: d["state"].update(modules={}),
        lambda d: d["state"]["modules"]["vizier"].update(active=[True]),
        lambda d: d.update(players=["solo"]),
        lambda d: d["state"]["deck"].remove("scoring-A") if "scoring-A" in d["state"]["deck"] else d.update(players=[]),
        lambda d: d["rng"]["state"].__setitem__(3, 2**40),
        lambda d: d.update(history=[{"type": "Pass", "x": 1}]),
    ],
    ids=lambda f: "",
)
def test_tampered_saves_are_rejected(edit):
    g = alhambra.new_game(3, modules=["vizier"], seed=3)
    with pytest.raises(SaveFormatError):
        alhambra.Game.from_json(_tampered(g, edit))


@pytest.mark.parametrize(
    "edit, why",
    [
        (lambda d: d["state"].update(decider=(d["state"]["turn_player"] + 1) % 3), "turn player decides"),
        (lambda d: d["state"].update(phase="place", pending=[]), "some tile is pending"),
        (lambda d: d["state"].update(phase="over"), "nobody decides"),
    ],
)
def test_saves_whose_phase_does_not_fit_are_rejected(edit, why):
    """Who decides must fit the phase: the turn player in a turn, a placer with a pending
    tile and a named context in 'place', nobody once the game is over."""
    g = alhambra.new_game(3, seed=5)
    with pytest.raises(SaveFormatError, match=why):
        alhambra.Game.from_json(_tampered(g, edit))
    assert alhambra.Game.from_json(g.to_json()).state == g.state  # the untouched save loads


@pytest.mark.parametrize(
    "edit, where",
    [
        (lambda d: d["state"]["players"][1].update(score="x"), r"expected int, not 'x' @ state\.players\[1\]\.score"),
        (lambda d: d["state"]["players"][0].update(hand=5), r"@ state\.players\[0\]\.hand$"),
        (
            lambda d: d["state"]["players"][2]["hand"].append("florin-99"),
            r"unknown card 'florin-99' @ state\.players\[2\]\.hand\[\d+\]",
        ),
        (
            lambda d: d["state"]["modules"]["vizier"].update(active=[True, "no", True]),
            r"@ state\.modules\.vizier\.active\[1\]",
        ),
        (lambda d: d["state"].update(pending=[{"x": 1}]), r"required field missing @ state\.pending\[0\]\.tile"),
        (
            lambda d: next(a for a in d["history"] if a["type"] == "TakeMoney").update(cards="dirham-2"),
            r"history\[\d+\]: bad TakeMoney action .*cards must be a list, not 'dirham-2'",
        ),
        (
            lambda d: d["state"]["players"][2]["hand"].append("florin-3"),
            r"money cards not accounted for: extra \{florin-3: 1\} \(lying in florin-3: .*hand:2.*\), missing none",
        ),
        (lambda d: d["state"].update(players=5), r"@ state\.players$"),
        (lambda d: d["state"]["modules"].update(vizier=5), r"^state\.modules\.vizier: .* not 5$"),
    ],
    ids=["score", "hand", "card", "module-state", "pending", "history-cards", "extra-card", "players", "module"],
)
def test_save_errors_say_where_and_what(edit, where):
    """A save that does not fit the state's types is a SaveFormatError naming the place in
    the save and what was wrong there, not an exception group's summary."""
    g = alhambra.new_game(3, modules=["vizier"], seed=3)
    for _ in range(12):
        g.apply(g.legal_actions()[0])
    with pytest.raises(SaveFormatError, match=where) as exc:
        alhambra.Game.from_json(_tampered(g, edit))
    assert "sub-exception" not in str(exc.value)


def test_deeply_nested_input_is_a_clean_error(tmp_path):
    deep = "[" * 5000 + "]" * 5000
    with pytest.raises(SaveFormatError):
        alhambra.Game.from_json(deep)
    p = tmp_path / "deep.toml"
    p.write_text("x = " + "[" * 5000 + "]" * 5000)
    with pytest.raises(ConfigError):
        load_config(p)


def test_hut_layout_option_refuses_non_regular_files():
    with pytest.raises(ConfigError, match="regular file"):
        alhambra.new_game(3, modules=["building_huts"], options={"building_huts.layout": "/dev/zero"})


def test_entry_point_name_must_match_module_name(monkeypatch):
    """A module installed under an entry-point name other than its NAME would be saved under
    the NAME and never found again: loading it by name is refused with the reason."""
    import types

    from alhambra import ruleset

    mod = types.SimpleNamespace(NAME="reserve_penalty")
    ep = types.SimpleNamespace(name="golden_fountain", value="my_house_rule", load=lambda: mod)
    monkeypatch.setattr(ruleset, "available_modules", lambda: {"golden_fountain": ep})
    with pytest.raises(ConfigError, match="has NAME 'reserve_penalty'"):
        ruleset.load_module("golden_fountain")
    mod.NAME = "golden_fountain"
    assert ruleset.load_module("golden_fountain") is mod


def test_cli_stops_quietly_when_the_reader_goes_away(monkeypatch, capsys):
    """``alhambra modules | head -1``: a closed pipe ends the command with status 0, no error."""

    class ClosedPipe:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["modules"]) == 0
    assert "error" not in capsys.readouterr().err


# -- bad input found by probing (each gets a specific error; illegal actions change nothing) --


class _LooksLike:
    """Equal to anything, unhashable: a forged value no listed action can hold."""

    __hash__ = None

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return True


def test_unlisted_action_of_a_fully_listed_kind_is_refused():
    """R-TURN-7: every legal Reserve/Place is listed, so a look-alike tile that slips past the
    listed-action lookup is refused with the reason and changes nothing."""
    from helpers import assert_refused

    g = alhambra.new_game(3, seed=2)
    rng = random.Random(2)
    while g.phase != "place":
        g.apply(rng.choice(g.legal_actions()))
    tile = g.state.pending[0].tile
    assert_refused(g, alhambra.Reserve(_LooksLike(tile)), alhambra.Place(_LooksLike(tile), (1, 0)))


def test_overpayment_names_its_space_with_an_int():
    """R-TURN-3: an accepted overpayment is unlisted; its space must be an int 1-4, so True
    (which equals 1) is refused rather than written into the history."""
    from helpers import assert_refused, florin, situation

    cheap = next(t for t in range(1, 55) if alhambra.components.BASE_CATALOG[t].price <= 8)
    g = situation(3, seat=0, market=[cheap, None, None, None], hands={0: [florin(9), florin(9)]})
    assert_refused(g, Buy(True, (florin(9), florin(9))), match="1-4")
    g.apply(Buy(1, (florin(9), florin(9))))  # the same overpayment with the int is accepted
    assert g.history[-1].space == 1 and type(g.history[-1].space) is int


@pytest.mark.parametrize("place,bad", [("reserve", "zzz"), ("reserve", "H1"), ("bag", True), ("bag", 21.0)])
def test_save_with_unknown_tile_is_refused(place, bad):
    """R-COMP-2: loading checks that every tile is one of this game's (int 1-54 or a
    module's id); a string, an unknown hut, True or 21.0 is refused."""
    g = alhambra.new_game(3, seed=4)
    data = json.loads(g.to_json())
    if place == "reserve":
        data["state"]["players"][1]["reserve"].append(bad)
    else:
        data["state"]["bag"][0] = bad
    with pytest.raises(SaveFormatError):
        alhambra.Game.from_json(json.dumps(data))


def test_city_refuses_look_alike_tile_ids_and_bad_masks():
    """R-COMP-2: tile ids are ints (buildings) or strings (module tiles); True, 21.0 or a list
    are not tile 1 or 21. Wall masks are 0-15; tiles are given as a mapping."""
    from alhambra import Alhambra

    for tiles in ({(1, 0): True}, {(1, 0): 21.0}, {(1, 0): [21]}, [((1, 0), 21)], None):
        with pytest.raises(ConfigError):
            Alhambra.from_tiles(tiles)
    city = Alhambra()
    for tile in (True, 21.0, [21], 0):
        with pytest.raises(ConfigError):
            city.placements(tile)
        with pytest.raises(IllegalActionError):
            city.place(tile, (1, 0))
        assert not city.can_place(tile, (1, 0))
    for mask in (16, -1, "x"):
        with pytest.raises(ConfigError):
            city.placements_for_walls(mask)
    with pytest.raises(ConfigError):
        Alhambra(catalog={})
    assert city.tiles == {(0, 0): 0}


@pytest.mark.parametrize("seat", [3, -1, True, 1.0, "0", None])
def test_queries_refuse_a_bad_seat(seat):
    """R-COMP-1, R-COMP-4: seats are ints 0..players-1 and market spaces ints 1-4; a query
    with anything else (another seat's number, a bool, a float, a string) is a ConfigError."""
    g = alhambra.new_game(3, seed=1)
    rule = g.rules.purchase
    queries = (
        lambda s: rule.purchases(g, s),
        lambda s: rule.can_pay_exactly(g, s),
        lambda s: alhambra.operations.check_seat(g, s),
        lambda s: rule.payments(g, s, 1),
    )
    for query in queries:
        with pytest.raises(ConfigError, match="seat"):
            query(seat)
    for space in (0, 5, True, "1"):
        with pytest.raises(ConfigError, match="1-4"):
            g.rules.purchase.payments(g, 0, space)


def test_money_card_instance_cannot_be_altered():
    """R-COMP-3: one instance per card; calling __init__ again must not change the card
    every hand shares."""
    card = MoneyCard("florin", 7)
    card.__init__("dinar", 2)
    assert (card.currency, card.value) == ("florin", 7) and MoneyCard("florin", 7) is card


def test_replay_of_a_binary_file_is_an_error(tmp_path, capsys):
    """A file that is not text is a clear error (status 2), not a traceback."""
    bad = tmp_path / "x.json"
    bad.write_bytes(b"\xff{}")
    assert main(["replay", str(bad)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def _drop_bonus_hand(d):
    d["state"]["modules"]["bonus_cards"]["hands"].pop()


def _duplicate_bonus_card(d):
    bc = d["state"]["modules"]["bonus_cards"]
    bc["out_of_play"].append(bc["hands"][0][0])


def _bad_vizier_queue(d):
    d["state"]["modules"]["vizier"]["queue"] = [7]


def _short_vizier_tokens(d):
    d["state"]["modules"]["vizier"]["active"].pop()


def _hut_in_wrong_stack(d):
    stacks = d["state"]["modules"]["building_huts"]["stacks"]
    stacks["pavilion"].append(stacks["tower"].pop())


def _hut_lost(d):
    d["state"]["modules"]["building_huts"]["stacks"]["garden"].pop(0)


def _version_true(d):
    d["version"] = True


def _negative_turn(d):
    d["state"]["turn"] = -3


@pytest.mark.parametrize(
    "corrupt",
    [
        _drop_bonus_hand,
        _duplicate_bonus_card,
        _bad_vizier_queue,
        _short_vizier_tokens,
        _hut_in_wrong_stack,
        _hut_lost,
        _version_true,
        _negative_turn,
    ],
)
def test_save_with_inconsistent_module_state_is_refused(corrupt):
    """R-VIZ-1 (a token per seat), R-BON-1/R-BON-2 (each bonus card in one place), R-HUT-1
    (each hut once, in its colour's stack): loading asks every plugin to check its part
    (``alhambra_check_state``); a corrupted module state is a SaveFormatError at load, not a
    crash later in play."""
    g = alhambra.new_game(3, seed=3, modules=["vizier", "building_huts", "bonus_cards"])
    advance(g, random.Random(3), 40)
    data = json.loads(g.to_json())
    alhambra.Game.from_json(json.dumps(data))  # sound before
    corrupt(data)
    with pytest.raises(SaveFormatError):
        alhambra.Game.from_json(json.dumps(data))


def test_save_with_a_scoring_card_in_hand_is_refused():
    """R-SCORE-1: a drawn scoring card is set aside at once; a save with one in a hand is corrupt."""
    g = alhambra.new_game(3, seed=3)
    data = json.loads(g.to_json())
    deck = data["state"]["deck"]
    a = next(c for c in deck if "scoring" in str(c))
    deck.remove(a)
    data["state"]["players"][0]["hand"].append(a)
    with pytest.raises(SaveFormatError, match="scoring card scoring-.* lies only in the deck or set aside"):
        alhambra.Game.from_json(json.dumps(data))


def test_simulate_refuses_an_output_in_a_missing_directory_before_playing(tmp_path, capsys):
    assert main(["simulate", "--games", "1", "--out", str(tmp_path / "no" / "r.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err


@pytest.mark.parametrize("seed", [-1, -7, -(2**70)])
def test_new_game_refuses_a_negative_seed_that_would_repeat_its_absolute_value(seed):
    """random.Random seeds with abs(seed): -1 and 1 would be the same game (R-SET-1 setup is seeded)."""
    with pytest.raises(ConfigError, match="0 or more"):
        alhambra.new_game(3, seed=seed)
    assert alhambra.new_game(3, seed=0).seed == 0


#: what an OpenSpiel-style state needs, and all that Game offers publicly
GAME_MEMBERS = {
    "apply",
    "legal_actions",
    "current_player",
    "is_over",
    "scores",
    "winners",
    "view",
    "clone",
    "determinize",
    "history",
    "phase",
    "state",
    "rules",
    "config",
    "seed",
    "to_json",
    "from_json",
    "position",
    "from_position",
    "num_players",
}


def test_game_is_thin():
    """Game's public surface is the state object's (at most 20 members); what the engine and
    the plugins need besides lives with the rule set, the operations and the module functions."""
    moved = set(alhambra.game.DEPRECATED_MEMBERS)  # answering with a warning until removed
    public = {n for n in dir(alhambra.Game) if not n.startswith("_")} - moved
    assert len(public) <= 20 and public <= GAME_MEMBERS
    assert all(type(vars(alhambra.Game)[n]).__name__ == "_Moved" for n in moved)


def test_members_that_left_game_still_work_and_warn():
    """Every member that left Game still answers for now, as its replacement does, with a
    DeprecationWarning that names the replacement; an unknown name is an AttributeError."""
    import warnings

    g = alhambra.new_game(3, seed=4, modules=["vizier"], engine="python")
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    rule = g.rules.purchase
    expected = {
        "purchases": (lambda f: f(1, exact=False), rule.purchases(g, 1)),
        "cached_purchases": (lambda f: list(f(1)), list(rule.cached_purchases(g, 1))),
        "payments": (lambda f: f(1, 2), rule.payments(g, 1, 2)),
        "payment_cards": (lambda f: f(1, 2), rule.payment_cards(g, 1, 2)),
        "can_pay_exactly": (lambda f: f(2), rule.can_pay_exactly(g, 2)),
        "first_exact_payer": (lambda f: f([2, 0, 1]), rule.first_exact_payer(g, [2, 0, 1])),
        "market_price": (lambda f: f(3), rule.market_price(g, 3)),
        "hook": (lambda v: v, g.rules.hook),
        "options": (lambda v: v, g.rules.options),
        "modules": (lambda v: v, g.rules.modules),
        "engine": (lambda v: v, alhambra.engine_of(g)),
        "returns": (lambda f: f(), alhambra.returns(g)),
        "player": (lambda f: f(1), g.state.players[1]),
        "tile_locations": (lambda f: f(), alhambra.tile_locations(g)),
        "card_locations": (lambda f: f(), alhambra.card_locations(g)),
        "rng": (lambda v: v, alhambra.operations.rng(g)),
        "memo": (lambda v: v, alhambra.operations.memo(g)),
        "changes": (lambda v: v.get("vizier", 0), alhambra.operations.module_changes(g, "vizier")),
        "origin": (lambda v: v, alhambra.start_position(g)),
        "names": (lambda v: list(v), g.config["players"]),
    }
    for name, (use, want) in expected.items():
        replacement = alhambra.game.DEPRECATED_MEMBERS[name][0]
        with pytest.warns(DeprecationWarning, match=re.escape(f"Game.{name} is deprecated")) as caught:
            got = use(getattr(g, name))
        assert got == want, name
        assert replacement in str(caught[0].message)
    old = g  # the deprecated spellings, read from the game
    seat = old.current_player
    buys = rule.purchases(old, seat)
    assert buys  # (the set-up deals each seat money enough for some building)
    with pytest.warns(DeprecationWarning, match="check_payment"):
        assert old.check_payment(seat, buys[0]) == rule.check_payment(old, seat, buys[0])
    with pytest.warns(DeprecationWarning, match=re.escape("alhambra.operations.invalidate(game)")):
        old.invalidate()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no attribute 'purchase_everything'"):
            g.purchase_everything  # noqa: B018
    k = alhambra.new_game(2, seed=4)
    if alhambra.engine_of(k) == "kernel":
        with pytest.warns(DeprecationWarning, match="engine_of"):
            assert k.engine == "kernel"
