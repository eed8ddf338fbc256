"""The compiled rules kernel against the Python engine: two engines, one rule book.

Lockstep games play the same random actions on both engines and compare, after every action,
the legal actions (in order), every seat's ``view`` and, at the end, the save; recorded games
replay identically on the kernel; a hypothesis property does the same for any player count and
options; illegal and foreign actions are refused alike and leave the game as it was; a panic
inside the kernel is an :class:`~alhambra.errors.AlhambraError`. The bigger oracle run (1,000
games and more) is ``python benchmarks/kernel_oracle.py``.

Without the kernel installed these tests skip, unless ``ALHAMBRA_REQUIRE_KERNEL`` is set (as in
CI, which builds it): then its absence fails them.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import alhambra
from alhambra import kernel
from alhambra.errors import AlhambraError, ConfigError, IllegalActionError, KernelError

if kernel.native is None:
    if os.environ.get("ALHAMBRA_REQUIRE_KERNEL"):
        raise RuntimeError("ALHAMBRA_REQUIRE_KERNEL is set but alhambra_kernel is not installed")
    pytest.skip("the rules kernel is not installed (pip install ./kernel)", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import fingerprint  # noqa: E402
import kernel_oracle  # noqa: E402

OPTIONS = [{}, {"holes": "region"}, {"tiebreak": "money", "start_player": "random"}]
#: every combination of the modules the kernel plays
COMBINATIONS = kernel_oracle.COMBINATIONS


def test_a_game_of_the_built_in_rules_runs_on_the_kernel_by_default():
    game = alhambra.new_game(4, seed=3)
    assert alhambra.engine_of(game) == "kernel"
    assert alhambra.engine_of(alhambra.new_game(4, seed=3, engine="python")) == "python"
    assert alhambra.engine_of(alhambra.new_game(4, modules=["vizier", "exchange_offices"], seed=3)) == "kernel"
    assert alhambra.engine_of(alhambra.new_game(4, modules=["bonus_cards", "diamonds"], seed=3)) == "kernel"
    assert alhambra.engine_of(alhambra.new_game(4, modules=["building_huts"], seed=3)) == "kernel"
    assert alhambra.engine_of(alhambra.new_game(4, modules=["city_gates"], seed=3)) == "kernel"
    assert (
        alhambra.engine_of(alhambra.new_game(4, modules=["city_gates"], seed=3, options={"city_gates.cards": 6}))
        == "kernel"
    )
    assert alhambra.engine_of(alhambra.new_game(4, modules=["building_huts", "city_gates"], seed=3)) == "kernel"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTIONS, ids=["default", "holes-region", "money-random"])
@pytest.mark.parametrize("modules", COMBINATIONS, ids=["+".join(c) or "base" for c in COMBINATIONS])
def test_r_set_1_to_7_the_same_seed_sets_up_the_same_game(players, options, modules):
    for seed in (0, 1, 2**40 + 7, 2**63 - 1):
        py = alhambra.new_game(players, modules=modules, seed=seed, options=options, engine="python")
        k = alhambra.new_game(players, modules=modules, seed=seed, options=options, engine="kernel")
        assert k.to_json() == py.to_json()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTIONS, ids=["default", "holes-region", "money-random"])
@pytest.mark.parametrize("modules", COMBINATIONS, ids=["+".join(c) or "base" for c in COMBINATIONS])
def test_lockstep_games_agree_on_every_legal_list_view_and_save(players, options, modules):
    report = kernel_oracle.lockstep(players, players * 7 + len(modules), options, modules=modules, views=True)
    assert report is None, report


def test_recorded_fingerprints_of_the_base_game_replay_identically_on_the_kernel():
    record = json.loads(fingerprint.RECORD.read_text())
    base = [(p, s) for p in fingerprint.PLAYERS for s in fingerprint.SEEDS]
    for players, seed in base:
        want = record[fingerprint.game_key((), players, seed)]
        assert fingerprint.play_digest((), players, seed) == want  # new_game: the kernel


def test_random_players_inside_the_kernel_play_the_python_random_bots_game():
    from alhambra.bots import make_bot
    from alhambra.simulate import bot_seed, play

    for players, seed in [(2, 4), (4, 5), (6, 6)]:
        py = play(
            alhambra.new_game(players, seed=seed, engine="python"),
            [make_bot("random", bot_seed(seed, i)) for i in range(players)],
        )
        k = alhambra.new_game(players, seed=seed, engine="kernel")
        bots = [make_bot("random", bot_seed(seed, i)) for i in range(players)]
        play(k, bots)
        assert alhambra.engine_of(k) == "kernel" and k.history == py.history
        assert k.to_json() == py.to_json()
        # the bots' generators advanced as the Python bots' did
        again = [make_bot("random", bot_seed(seed, i)) for i in range(players)]
        play(alhambra.new_game(players, seed=seed, engine="python"), again)
        assert [b.rng.getstate() for b in bots] == [b.rng.getstate() for b in again]


@pytest.mark.parametrize("modules", COMBINATIONS, ids=lambda m: "+".join(m) or "base")
def test_simulate_records_say_the_engine_and_match_the_python_records(modules):
    """A record of a game the kernel played whole (its tallies, counts and digest counted in
    Rust as it played) equals the Python engine's record of the same game, to the key order of
    its JSON line, for every player count."""
    from alhambra.simulate import make_tasks, run_task

    for players in range(2, 7):
        records = {}
        for engine in ("python", "kernel"):
            tasks = make_tasks(2, 11 + players, players=players, modules=list(modules), engine=engine)
            records[engine] = [run_task(t)[0] for t in tasks]
            assert {r["engine"] for r in records[engine]} == {engine}
        for a, b in zip(records["python"], records["kernel"]):
            assert json.dumps({**a, "engine": ""}) == json.dumps({**b, "engine": ""})


@settings(max_examples=15)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**63 - 1),
    choices=st.integers(0, 2**32 - 1),
    holes=st.sampled_from(["cell", "region"]),
    tiebreak=st.sampled_from(["shared", "money"]),
    start=st.sampled_from(["seat", "random"]),
    modules=st.sampled_from(COMBINATIONS),
)
def test_property_any_random_play_is_the_same_game_on_both_engines(
    players, seed, choices, holes, tiebreak, start, modules
):
    options = {"holes": holes, "tiebreak": tiebreak, "start_player": start}
    report = kernel_oracle.lockstep(players, seed, options, modules=modules, choices=choices, max_actions=150)
    assert report is None, report


def test_saves_and_positions_cross_between_the_engines():
    k = alhambra.new_game(3, seed=8, engine="kernel")
    rng = random.Random(8)
    for _ in range(120):
        k.apply(rng.choice(k.legal_actions()))
    py = alhambra.Game.from_json(k.to_json(), engine="python")
    again = alhambra.Game.from_json(py.to_json(), engine="kernel")
    assert alhambra.engine_of(py) == "python" and alhambra.engine_of(again) == "kernel"
    assert again.legal_actions() == k.legal_actions() == py.legal_actions()
    pos = alhambra.Game.from_position(k.position(), engine="kernel")
    assert alhambra.engine_of(pos) == "kernel" and pos.legal_actions() == k.legal_actions()
    for _ in range(30):
        a = rng.choice(k.legal_actions())
        for g in (k, py, again, pos):
            g.apply(a)
    assert k.view(0) == py.view(0) == again.view(0) == pos.view(0)


def test_clone_and_determinize_stay_on_the_kernel():
    k = alhambra.new_game(4, seed=9)
    rng = random.Random(9)
    for _ in range(40):
        k.apply(rng.choice(k.legal_actions()))
    c = k.clone()
    world = k.determinize(k.current_player, random.Random(1))
    assert alhambra.engine_of(c) == alhambra.engine_of(world) == "kernel"
    assert world.view(k.current_player) == k.view(k.current_player)
    c.apply(c.legal_actions()[0])
    assert len(c.history) == len(k.history) + 1  # independent
    py_world = alhambra.Game.from_json(k.to_json(), engine="python").determinize(k.current_player, random.Random(1))
    assert world.to_json() == py_world.to_json()


def test_reading_the_state_hands_the_game_to_python_and_edits_count():
    g = alhambra.new_game(3, seed=2)
    seat = g.current_player
    g.state.players[seat].hand = [alhambra.MoneyCard("florin", 9)] * 3
    alhambra.operations.invalidate(g)
    assert alhambra.engine_of(g) == "python"
    takes = [a for a in g.legal_actions() if isinstance(a, alhambra.Buy)]
    assert all(c == alhambra.MoneyCard("florin", 9) for a in takes for c in a.cards)


@pytest.mark.parametrize(
    "bad",
    [
        alhambra.Place(7, (5, 5)),
        alhambra.TakeMoney([alhambra.MoneyCard("florin", 9), alhambra.MoneyCard("florin", 8)]),
        alhambra.Buy(1, []),
        alhambra.Buy(9, [alhambra.MoneyCard("florin", 2)]),
        alhambra.RemoveToReserve((0, 0)),
        alhambra.Swap(3, (99999, 0)),
        alhambra.GiveToDirk(4),
        "not an action",
        alhambra.Pass(),
    ],
    ids=repr,
)
def test_an_illegal_action_is_refused_as_on_python_and_changes_nothing(bad):
    k = alhambra.new_game(2, seed=4, engine="kernel")
    py = alhambra.new_game(2, seed=4, engine="python")
    before = k.to_json()
    with pytest.raises(IllegalActionError) as on_kernel:
        k.apply(bad)
    with pytest.raises(IllegalActionError) as on_python:
        py.apply(bad)
    assert str(on_kernel.value) == str(on_python.value)
    assert k.to_json() == before and alhambra.engine_of(k) == "kernel"


def test_a_module_action_is_foreign_to_a_kernel_game_without_the_module():
    from alhambra_vizier import UseVizier

    k = alhambra.new_game(3, seed=4)
    py = alhambra.new_game(3, seed=4, engine="python")
    with pytest.raises(IllegalActionError, match="not an action of this game's rules"):
        k.apply(UseVizier(1, ()))
    with pytest.raises(IllegalActionError) as on_python:
        py.apply(UseVizier(1, ()))
    with pytest.raises(IllegalActionError) as on_kernel:
        k.apply(UseVizier(1, ()))
    assert str(on_kernel.value) == str(on_python.value)


def test_an_overpayment_is_played_by_the_kernel_as_by_python():
    k = alhambra.new_game(3, seed=12, engine="kernel")
    py = alhambra.new_game(3, seed=12, engine="python")
    rng = random.Random(3)
    for _ in range(200):
        seat = k.current_player
        legal = k.legal_actions()
        buys = [a for a in legal if isinstance(a, alhambra.Buy)]
        hand = py.state.players[seat].hand
        over = None
        for b in buys:
            more = [c for c in hand if isinstance(c, alhambra.MoneyCard) and c.currency == b.cards[0].currency]
            if len(more) > len(b.cards):
                over = alhambra.Buy(b.space, more)
                break
        a = over if over is not None and rng.random() < 0.5 else rng.choice(legal)
        k.apply(a)
        py.apply(a)
        if k.is_over:
            break
    assert k.to_json() == py.to_json()


def test_r_kernel_a_panic_inside_the_kernel_is_an_alhambra_error():
    with pytest.raises(KernelError, match="a planted panic") as info:
        kernel.native._panic_for_test()
    assert isinstance(info.value, AlhambraError)


def test_engine_kernel_with_a_module_or_house_rule_is_a_config_error_naming_it():
    from alhambra.config import load_config

    # every built-in module is on the kernel: a user's own module is not
    own = load_config(ROOT / "examples" / "golden_fountain.toml").resolved_modules()
    with pytest.raises(ConfigError, match="'golden_fountain'"):
        alhambra.new_game(3, modules=["vizier", *own], engine="kernel")

    class TowersPayNothing:
        NAME = "towers_pay_nothing"

    with pytest.raises(ConfigError, match="towers_pay_nothing"):
        alhambra.new_game(3, plugins=[TowersPayNothing()], engine="kernel")
    with pytest.raises(ConfigError, match="core.dirk"):
        alhambra.new_game(3, blocked=["core.dirk"], engine="kernel")
    with pytest.raises(ConfigError, match="engine must be one of"):
        alhambra.new_game(3, engine="rust")


def test_simulate_on_the_kernel_says_so(capsys):
    from alhambra.cli import main

    assert main(["simulate", "--players", "3", "--games", "2", "--quiet", "--workers", "1", "--engine", "kernel"]) == 0
    assert "engine: kernel (2 games)" in capsys.readouterr().out
    config = str(ROOT / "examples" / "golden_fountain.toml")
    assert main(["simulate", "--config", config, "--games", "1", "--engine", "kernel"]) != 0
    assert "not the module 'golden_fountain'" in capsys.readouterr().err


def test_replay_takes_the_engine_keyword():
    g = alhambra.new_game(3, seed=5)
    rng = random.Random(1)
    for _ in range(50):
        g.apply(rng.choice(g.legal_actions()))
    on_python = alhambra.replay(g.history, players=3, seed=5, engine="python")
    on_kernel = alhambra.replay(g.history, players=3, seed=5, engine="kernel")
    assert (alhambra.engine_of(on_python), alhambra.engine_of(on_kernel)) == ("python", "kernel")
    assert on_python.to_json() == on_kernel.to_json() == g.to_json()
    assert alhambra.engine_of(alhambra.replay(g.to_json(), engine="python")) == "python"


def test_auto_plays_bots_that_read_the_state_on_python_and_random_and_greedy_ones_on_the_kernel():
    from alhambra.simulate import simulate_one

    # honest greedy bots decide on determinized worlds, one by one: on Python
    assert alhambra.engine_of(simulate_one(3, 2, bots="greedy", honest=True)) == "python"
    assert alhambra.engine_of(simulate_one(3, 2, bots="random")) == "kernel"
    assert alhambra.engine_of(simulate_one(3, 2, bots="greedy")) == "kernel"  # the kernel's greedy bot
    assert simulate_one(3, 2, bots="greedy", engine="python").to_json() == simulate_one(3, 2, bots="greedy").to_json()


@pytest.mark.parametrize("values", [[5], [9, 1, 9], [3, 3, 3, 3, 3, 3], [1] * 6 + [2] * 6 + [9] * 6 + [4, 4]])
def test_r_dia_1_any_diamond_values_play_the_same_game(values):
    for players, mods in [(2, ("diamonds",)), (4, ("vizier", "diamonds")), (5, ("exchange_offices", "diamonds"))]:
        options = {"diamonds.values": values}
        for seed in (1, 2):
            report = kernel_oracle.lockstep(players, seed, options, modules=mods, views=seed == 1)
            assert report is None, report


def test_r_dia_1_more_diamonds_of_one_value_than_the_kernel_tells_apart_is_a_config_error_naming_the_option():
    options = {"diamonds.values": [5] * 7}
    with pytest.raises(ConfigError, match="diamonds.values"):
        alhambra.new_game(3, modules=["diamonds"], options=options, engine="kernel")
    assert alhambra.engine_of(alhambra.new_game(3, modules=["diamonds"], options=options)) == "python"


def _diamonds_game(engine: str, seed: int = 2) -> alhambra.Game:
    values = [2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6]
    options = {"diamonds.values": values}
    return alhambra.new_game(3, modules=["vizier", "diamonds"], seed=seed, options=options, engine=engine)


def test_r_dia_4_an_overpayment_in_diamonds_is_played_by_the_kernel_as_by_python():
    from alhambra_diamonds import BuyWithDiamonds, Diamond

    unlisted = 0
    for seed in (2, 3, 4, 5):
        k, py = _diamonds_game("kernel", seed), _diamonds_game("python", seed)
        rng = random.Random(seed)
        while not k.is_over:
            legal = k.legal_actions()
            mine = [c for c in py.state.players[k.current_player].hand if type(c) is Diamond]
            # every diamond in hand, for a building that a listed payment buys with fewer
            over = [
                BuyWithDiamonds(a.space, mine) for a in legal if type(a) is BuyWithDiamonds and len(mine) > len(a.cards)
            ]
            gems = [a for a in legal if type(a) is alhambra.TakeMoney and type(a.cards[0]) is Diamond]
            a = over[0] if over and rng.random() < 0.5 else rng.choice(gems or legal)
            unlisted += a not in legal
            k.apply(a)
            py.apply(a)
            assert k.legal_actions() == py.legal_actions()
        assert alhambra.engine_of(k) == "kernel" and k.to_json() == py.to_json()
    assert unlisted > 3


def test_r_dia_6_the_vizier_pays_exactly_with_any_copies_of_the_diamonds_listed():
    from alhambra_diamonds import Diamond
    from alhambra_vizier import UseVizier

    py = _diamonds_game("python")
    rng = random.Random(1)
    while not any(type(a) is UseVizier and type(a.cards[0]) is Diamond for a in py.legal_actions()):
        py.apply(rng.choice(py.legal_actions()))
    use = next(a for a in py.legal_actions() if type(a) is UseVizier and type(a.cards[0]) is Diamond)
    # the asked seat gets a lower copy of the payment's first value besides: now listed is the
    # payment with that copy, and the one listed before is another exact payment, unlisted
    st, seat = py.position(), py.current_player
    first = use.cards[0]
    hand = st["players"][seat]["hand"]
    lower = next(Diamond(first.value, c).code for c in range(1, first.copy) if Diamond(first.value, c).code not in hand)
    for where in [st["deck"], st["discard"], st["display"], *[p["hand"] for p in st["players"]]]:
        if lower in where:
            where.remove(lower)
            break
    hand.append(lower)
    k, py = alhambra.Game.from_position(st, engine="kernel"), alhambra.Game.from_position(st, engine="python")
    assert k.legal_actions() == py.legal_actions() and use not in k.legal_actions()
    k.apply(use)
    py.apply(use)
    assert alhambra.engine_of(k) == "kernel" and k.to_json() == py.to_json()
    assert k.legal_actions() == py.legal_actions()


def test_r_dia_4_a_mixed_or_short_payment_in_diamonds_is_refused_as_on_python():
    from alhambra_diamonds import BuyWithDiamonds, Diamond

    k, py = _diamonds_game("kernel"), _diamonds_game("python")
    seat = k.current_player
    hand = py.state.players[seat].hand
    money = [c for c in hand if type(c) is alhambra.MoneyCard]
    bad = [
        BuyWithDiamonds(1, []),
        BuyWithDiamonds(1, [next(Diamond(v, 1) for v in (2, 3, 4, 5, 6) if Diamond(v, 1) not in hand)]),
        alhambra.Buy(1, [Diamond(2, 1), *money[:1]]),
        BuyWithDiamonds(2, [Diamond(2, 2)]),
    ]
    before = k.to_json()
    for action in bad:
        with pytest.raises(IllegalActionError) as on_kernel:
            k.apply(action)
        with pytest.raises(IllegalActionError) as on_python:
            py.apply(action)
        assert str(on_kernel.value) == str(on_python.value)
    assert k.to_json() == before and alhambra.engine_of(k) == "kernel"


def _play_on_alike(games: list[alhambra.Game], rng: random.Random, steps: int | None = None) -> None:
    """Play the same random actions on every game of ``games`` (chosen from the first one's
    legal actions) for ``steps`` actions or to the end; then seat 0 sees the same in all."""
    k = games[0]
    while not k.is_over and (steps is None or steps > 0):
        a = rng.choice(k.legal_actions())
        for g in games:
            g.apply(a)
        steps = None if steps is None else steps - 1
    assert all(g.view(0) == k.view(0) for g in games)


def _crossed(k: alhambra.Game) -> tuple[alhambra.Game, alhambra.Game, alhambra.Game]:
    """The kernel game ``k`` saved and loaded on Python, that loaded back on the kernel, and
    ``k``'s position loaded on the kernel: each lists the same legal actions, and a determinized
    world of ``k`` equals the Python game's drawn with the same generator."""
    py = alhambra.Game.from_json(k.to_json(), engine="python")
    again = alhambra.Game.from_json(py.to_json(), engine="kernel")
    assert alhambra.engine_of(again) == "kernel" and again.legal_actions() == k.legal_actions() == py.legal_actions()
    pos = alhambra.Game.from_position(k.position(), engine="kernel")
    assert alhambra.engine_of(pos) == "kernel" and pos.legal_actions() == k.legal_actions()
    world = k.determinize(k.current_player, random.Random(1))
    py_world = py.determinize(k.current_player, random.Random(1))
    assert alhambra.engine_of(world) == "kernel" and world.to_json() == py_world.to_json()
    return py, again, pos


@pytest.mark.parametrize("modules", [("bonus_cards",), ("vizier", "bonus_cards", "exchange_offices", "diamonds")])
def test_r_bon_saves_positions_and_determinized_worlds_cross_between_the_engines(modules):
    k = alhambra.new_game(3, modules=list(modules), seed=8, engine="kernel")
    rng = random.Random(8)
    for _ in range(150):
        k.apply(rng.choice(k.legal_actions()))
    py, again, pos = _crossed(k)
    _play_on_alike([k, py, again], rng, 60)
    assert k.to_json() == py.to_json() == again.to_json()


def test_r_viz_2_an_exact_vizier_payment_naming_an_office_it_does_not_need_is_played_as_on_python():
    """R-VIZ-2, R-EXC-4: the vizier's exact payment through an office in hand is legal even
    where the space's own currency would do (not listed: the listing keeps the payments that
    need the office); both engines play it."""
    from alhambra_exchange_offices import ExchangeOffice
    from alhambra_vizier import UseVizier

    rng = random.Random(1)
    k = alhambra.new_game(2, modules=["vizier", "exchange_offices"], seed=1, engine="kernel")
    py = alhambra.new_game(2, modules=["vizier", "exchange_offices"], seed=1, engine="python")
    for _ in range(146):
        a = rng.choice(py.legal_actions())
        k.apply(a)
        py.apply(a)
    use = UseVizier(
        2, (alhambra.MoneyCard("dirham", 3), alhambra.MoneyCard("dirham", 8)), ExchangeOffice("dirham", "dinar")
    )
    assert use not in k.legal_actions()
    k.apply(use)
    py.apply(use)
    assert k.to_json() == py.to_json() and k.phase == "place"


def test_an_object_equal_to_a_legal_action_but_no_action_is_refused_as_on_python():
    class LooksLike:
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 0

    for engine in ("kernel", "python"):
        g = alhambra.new_game(3, seed=2, engine=engine)
        g.legal_actions()
        with pytest.raises(IllegalActionError, match="is not an action"):
            g.apply(LooksLike())


def test_a_save_the_kernel_cannot_hold_stays_on_python_with_auto_and_is_refused_with_kernel():
    g = alhambra.new_game(3, seed=1, engine="python")
    data = json.loads(g.to_json())
    data["history"] = [{"type": "Pass"}] * 256
    text = json.dumps(data)
    assert alhambra.engine_of(alhambra.Game.from_json(text, check_history=False)) == "python"
    with pytest.raises(ConfigError, match="cannot hold this game"):
        alhambra.Game.from_json(text, check_history=False, engine="kernel")


# -- the building huts (R-HUT-1 … R-HUT-6) --------------------------------------------------------

HUTS_ALL = ("vizier", "building_huts", "bonus_cards", "exchange_offices", "diamonds")


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("modules", [("building_huts",), HUTS_ALL], ids=["huts", "all"])
def test_r_hut_1_a_layout_of_the_option_plays_the_same_game(players, modules):
    """R-HUT-1: the huts of a ``building_huts.layout`` file (other ids, walls and order, an id
    that JSON escapes) play alike on both engines."""
    options = {"building_huts.layout": kernel_oracle.hut_layout_file()}
    for seed in (1, 2):
        report = kernel_oracle.lockstep(players, seed, options, modules=modules, views=seed == 1)
        assert report is None, report


def _state(g: alhambra.Game) -> dict:
    return json.loads(g.to_json())["state"]


def _huts_of(g: alhambra.Game, seat: int) -> list[str]:
    """The huts ``seat`` owns in its Alhambra and reserve (ids are strings, buildings numbers)."""
    p = _state(g)["players"][seat]
    return [t for t in [*p["reserve"], *(e[2] for e in p["city"])] if isinstance(t, str)]


def _huts_game(engine: str, layout: str | None = None, seed: int = 3) -> alhambra.Game:
    options = {"building_huts.layout": layout} if layout else {}
    return alhambra.new_game(3, modules=list(HUTS_ALL), seed=seed, options=options, engine=engine)


@pytest.mark.parametrize("layout", [None, "custom"])
def test_r_hut_saves_positions_and_determinized_worlds_cross_between_the_engines(layout):
    from alhambra_building_huts import TakeHut

    path = kernel_oracle.hut_layout_file() if layout else None
    k = _huts_game("kernel", path)
    rng = random.Random(8)
    for _ in range(150):  # taking huts whenever possible: every seat owns some
        legal = k.legal_actions()
        huts = [a for a in legal if type(a) is TakeHut]
        k.apply(huts[0] if huts and rng.random() < 0.6 else rng.choice(legal))
    assert all(_huts_of(k, seat) for seat in range(3))
    py, again, pos = _crossed(k)
    _play_on_alike([k, py, again, pos], rng)
    assert k.to_json() == py.to_json() == again.to_json()


def test_r_hut_2_and_r_hut_4_a_hut_that_may_not_be_taken_is_refused_as_on_python():
    from alhambra_building_huts import TakeHut

    k, py = _huts_game("kernel"), _huts_game("python")
    up = [a.hut for a in k.legal_actions() if type(a) is TakeHut]
    assert len(up) == 6
    stacks = _state(py)["modules"]["building_huts"]["stacks"]
    down = next(h for s in stacks.values() for h in s[:-1])
    before = k.to_json()
    for bad in [TakeHut(down), TakeHut("H99"), TakeHut(7)]:
        with pytest.raises(IllegalActionError) as on_kernel:
            k.apply(bad)
        with pytest.raises(IllegalActionError) as on_python:
            py.apply(bad)
        assert str(on_kernel.value) == str(on_python.value)
    assert k.to_json() == before and alhambra.engine_of(k) == "kernel"
    # R-HUT-4: a seat owning three huts is offered none (and refused one)
    rng = random.Random(2)
    while not k.is_over:
        seat, legal = k.current_player, k.legal_actions()
        if k.phase == "turn" and len(_huts_of(k, seat)) >= 3:
            assert not any(type(a) is TakeHut for a in legal)
            face_up = [s[-1] for s in _state(k)["modules"]["building_huts"]["stacks"].values() if s]
            with pytest.raises(IllegalActionError, match="R-HUT-4"):
                k.apply(TakeHut(face_up[0]))
            break
        huts = [a for a in legal if type(a) is TakeHut]
        k.apply(huts[0] if huts else rng.choice(legal))
    else:  # pragma: no cover - the seats take huts whenever they can
        raise AssertionError("no seat reached three huts")


def test_r_hut_1_the_same_code_names_each_layouts_own_hut():
    """The kernel names a hut by its place in the layout; the bridge keeps the actions of each
    layout apart, so two games with different layouts never mix their huts up."""
    from alhambra_building_huts import TakeHut

    shipped, custom = _huts_game("kernel"), _huts_game("kernel", kernel_oracle.hut_layout_file())
    a = [x for x in shipped.legal_actions() if type(x) is TakeHut]
    b = [x for x in custom.legal_actions() if type(x) is TakeHut]
    assert {x.hut for x in a}.isdisjoint(x.hut for x in b)
    assert kernel.code_of(a[0], shipped.rules) is not None
    assert kernel.code_of(a[0], custom.rules) is None  # a shipped id is no hut of the custom layout
    for g, x in [(shipped, a[0]), (custom, b[0])]:
        assert kernel.action_of(kernel.code_of(x, g.rules), g.rules) is x


def test_r_hut_1_hut_stacks_saved_out_of_colour_order_load_alike_on_both_engines():
    """A save listing the six stacks out of scoring order loads as the same game on both
    engines (the stacks in the module's order)."""
    data = json.loads(_huts_game("python").to_json())
    stacks = data["state"]["modules"]["building_huts"]["stacks"]
    data["state"]["modules"]["building_huts"]["stacks"] = dict(reversed(list(stacks.items())))
    text = json.dumps(data)
    py, k = alhambra.Game.from_json(text, engine="python"), alhambra.Game.from_json(text, engine="kernel")
    assert alhambra.engine_of(k) == "kernel" and k.to_json() == py.to_json()
    assert list(_state(k)["modules"]["building_huts"]["stacks"]) == list(stacks)


# -- the city gates (R-GATE-1 … R-GATE-9) ---------------------------------------------------------

GATES_ALL = ("vizier", "bonus_cards", "exchange_offices", "city_gates", "diamonds")


@pytest.mark.parametrize("cards", [1, 2, 3, 4, 5, 6])
def test_r_gate_1_any_number_of_gate_cards_plays_the_same_game(cards):
    options = {"city_gates.cards": cards}
    for players, mods in [(2, ("city_gates",)), (4, ("vizier", "city_gates")), (6, GATES_ALL)]:
        for seed in (1, 2):
            report = kernel_oracle.lockstep(
                players, seed, options, modules=mods, views=seed == 1, prefer=kernel_oracle.GATE_ACTIONS
            )
            assert report is None, report


def _gates_game(engine: str, seed: int) -> alhambra.Game:
    return alhambra.new_game(4, modules=list(GATES_ALL), seed=seed, options={"city_gates.cards": 6}, engine=engine)


def _play_until(games: list[alhambra.Game], rng: random.Random, want: Any) -> bool:
    """Play the gates' actions first on all ``games`` until ``want(game)``; False at the end."""
    first = games[0]
    while not first.is_over:
        if want(first):
            return True
        legal = first.legal_actions()
        liked = [a for a in legal if type(a).__name__ in kernel_oracle.GATE_ACTIONS]
        a = rng.choice(liked) if liked and rng.random() < 0.75 else rng.choice(legal)
        for g in games:
            g.apply(a)
    return False


@pytest.mark.parametrize("window", ["change", "removal"])
def test_r_gate_5_a_game_inside_a_window_for_gates_crosses_between_the_engines(window):
    def inside(g: alhambra.Game) -> bool:
        return g.phase == "gates" and g.view(None)["modules"]["city_gates"]["window"] == window

    for seed in range(1, 40):
        k = _gates_game("kernel", seed)
        rng = random.Random(seed)
        if _play_until([k], rng, inside):
            break
    else:  # pragma: no cover - the seeds above reach both windows
        pytest.fail(f"no window {window!r} reached")
    py, again, pos = _crossed(k)
    _play_on_alike([k, py, again, pos], rng, 80)
    assert k.to_json() == py.to_json() == again.to_json()


def test_r_gate_5_illegal_gate_actions_are_refused_as_on_python_and_change_nothing():
    from alhambra_city_gates import GATE_CARDS, BuildThroughGate, FinishGates, PlayGate, TakeGate

    k, py = _gates_game("kernel", 3), _gates_game("python", 3)
    rng = random.Random(3)
    assert _play_until([k, py], rng, lambda g: g.phase == "gates")
    seat = k.current_player
    held = [c for c in py.state.players[seat].hand if c in GATE_CARDS]
    missing = next(c for c in GATE_CARDS if c not in held)
    bad = [
        TakeGate(missing),
        PlayGate(missing, 0, 0, 2),
        PlayGate(held[0] if held else missing, 50, 50, 4),
        BuildThroughGate(missing, 5, 9, 9, 1),
        alhambra.Pass(),
    ]
    if k.view(None)["modules"]["city_gates"]["window"] == "removal":
        bad.append(FinishGates())
    before = k.to_json()
    for action in bad:
        with pytest.raises(IllegalActionError) as on_kernel:
            k.apply(action)
        with pytest.raises(IllegalActionError) as on_python:
            py.apply(action)
        assert str(on_kernel.value) == str(on_python.value)
    assert k.to_json() == before and alhambra.engine_of(k) == "kernel"


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["players"][0]["city"].append([0, 0, 2, "open"]),  # a gate beside no tile
        lambda d: d["modules"]["city_gates"]["gates"][0].append([120, 120, 4]),  # no open side for it
        lambda d: d["modules"]["city_gates"].update(space=9),
        lambda d: d["modules"]["city_gates"].update(window="ajar"),
        lambda d: d["modules"]["city_gates"].update(then="nowhere"),
        lambda d: d["modules"]["city_gates"].update(played=[1]),
        lambda d: d["modules"].pop("city_gates"),
    ],
)
def test_r_gate_a_state_the_kernel_cannot_hold_is_refused_by_its_loader_without_a_panic(change):
    g = _gates_game("python", 1)
    state = json.loads(g.to_json())["state"]
    change(state)
    words, index = alhambra.operations.rng(g).getstate()[1][:624], alhambra.operations.rng(g).getstate()[1][624]
    with pytest.raises(ValueError):
        kernel.native.KernelGame.load(state, list(words), index, 0, mods=kernel.module_bits(g.rules))


def test_r_hut_1_records_of_two_hut_layouts_each_name_their_own_huts():
    """A kernel code names the k-th hut of a game's layout: records (their play digests, the
    actions' representations) of games with the shipped layout and with another one each
    equal the Python engine's, whichever was played first."""
    from alhambra.simulate import SimTask, run_task

    custom = {"building_huts.layout": kernel_oracle.hut_layout_file()}
    for options in ({}, custom, {}):
        records = [
            run_task(SimTask(0, 5, 3, ("building_huts",), tuple(options.items()), ("random",) * 3, engine=engine))[0]
            for engine in ("kernel", "python")
        ]
        assert records[0]["engine"] == "kernel"
        assert {**records[0], "engine": ""} == {**records[1], "engine": ""}


def test_bad_players_for_play_are_refused_alike_on_both_engines():
    """One bot in two seats draws for both from one generator: the kernel leaves such a game to
    the loop of ``play``, so it is the Python engine's game. The wrong number of bots, a negative
    ``max_actions`` and a greedy bot with noise that is no finite number are ConfigErrors
    (BotSpecError) on both engines; a batch of no games, or of more than a million, is refused
    by the kernel's batch itself."""
    from alhambra.bots import GreedyBot, RandomBot
    from alhambra.bots.base import BotSpecError
    from alhambra.env.session import Session
    from alhambra.simulate import play

    scores = []
    for engine in ("python", "kernel"):
        bot = RandomBot(1)
        scores.append(play(alhambra.new_game(2, seed=1, engine=engine), [bot, bot]).scores)
        with pytest.raises(ConfigError, match="one bot per seat"):
            play(alhambra.new_game(3, seed=1, engine=engine), [RandomBot(1), RandomBot(2)])
        with pytest.raises(ConfigError, match="max_actions"):
            play(alhambra.new_game(3, seed=1, engine=engine), [RandomBot(i) for i in range(3)], max_actions=-1)
    assert scores[0] == scores[1]
    with pytest.raises(BotSpecError, match="finite"):
        GreedyBot(seed=1, noise=float("nan"))
    native = Session(2, engine="kernel")._native
    for n in (0, 2**40):
        with pytest.raises(ValueError, match="a batch holds"):
            kernel.native.BatchEnv(native, n, None, None)


def test_r_hut_1_a_hut_id_longer_than_a_save_holds_is_refused_with_the_layout(tmp_path):
    layout = Path(kernel_oracle.hut_layout_file()).read_text()
    first = layout.split('id = "', 1)[1].split('"', 1)[0]
    path = tmp_path / "long.toml"
    path.write_text(layout.replace(f'id = "{first}"', f'id = "{"h" * 65}"', 1))
    with pytest.raises(ConfigError, match="at most 64 characters"):
        alhambra.new_game(3, modules=["building_huts"], options={"building_huts.layout": str(path)})
