"""The greedy bot inside the compiled kernel against the Python greedy bot.

The kernel's copy of the evaluator (``kernel/core/src/greedy.rs``) must choose exactly as
:class:`alhambra.bots.GreedyBot` does: over seeded games of every combination of the modules it
values and 2-6 players (with the building huts or the city gates, whose Python games are the
slowest, a few seeded games of 2 and 3 players per combination), greedy bots (plain, with noise,
with a named weight set, and mixed with random bots) play the same actions on both engines,
their generators end in the same state, the kernel's action values equal the Python evaluator's
bit for bit, and ``simulate`` writes the same records (the ``engine`` field aside). Bad input is
an :class:`AlhambraError`.
"""

from __future__ import annotations

import alhambra
import itertools
import json
import os
import random
import sys
from pathlib import Path

import pytest

from alhambra import kernel, new_game
from alhambra.bots import make_bot
from alhambra.bots.evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, tuned
from alhambra.bots.greedy import KERNEL_GREEDY_MODULES, GreedyBot, weight_row
from alhambra.errors import AlhambraError, ConfigError
from alhambra.game import KernelGame
from alhambra.simulate import SimTask, bot_seed, play, run_task, simulate_one

if kernel.native is None:
    if os.environ.get("ALHAMBRA_REQUIRE_KERNEL"):
        raise RuntimeError("ALHAMBRA_REQUIRE_KERNEL is set but alhambra_kernel is not installed")
    pytest.skip("the rules kernel is not installed (pip install ./kernel)", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import kernel_oracle  # noqa: E402

MODULES = sorted(KERNEL_GREEDY_MODULES)
#: the modules with pieces of their own in the Alhambras and hands (R-HUT-1, R-GATE-1)
PIECES = ("building_huts", "city_gates")
BASE_MODULES = [m for m in MODULES if m not in PIECES]
COMBOS = [c for k in range(len(BASE_MODULES) + 1) for c in itertools.combinations(BASE_MODULES, k)]
#: every combination with the building huts or the city gates (or both)
PIECE_COMBOS = [
    c for k in range(1, len(MODULES) + 1) for c in itertools.combinations(MODULES, k) if set(c) & set(PIECES)
]
PLAYERS = [2, 3, 4, 5, 6]
#: the mixed line-ups: noise, a named weight set, random seats among greedy ones
MIXED = ["greedy:noise=1.5", "random", "greedy:weights=tuned", "greedy", "random", "greedy:noise=0.2"]


def _seed(combo: tuple, n: int) -> int:
    return 10 * COMBOS.index(combo) + n


def _mixed(seed: int, n: int) -> list[str]:
    k = seed % len(MIXED)
    return (MIXED[k:] + MIXED)[:n]


def _play(engine: str, n: int, mods: tuple, seed: int, specs: list[str], honest: bool = False, options=None):
    bots = [make_bot(s, bot_seed(seed, i)) for i, s in enumerate(specs)]
    game = new_game(n, modules=list(mods), seed=seed, engine=engine, options=options or {})
    assert alhambra.engine_of(game) == engine
    play(game, bots, honest=honest)
    return [repr(a) for a in game.history], [b.rng.getstate() for b in bots], game.scores


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("mods", COMBOS, ids=lambda c: "+".join(c) or "base")
def test_greedy_plays_the_same_actions_on_both_engines(mods, n):
    seed = _seed(mods, n)
    for k, specs in enumerate((["greedy"] * n, _mixed(seed, n))):
        python = _play("python", n, mods, seed + 1000 * k, specs)
        on_kernel = _play("kernel", n, mods, seed + 1000 * k, specs)
        assert on_kernel == python, (mods, n, specs)


@pytest.mark.parametrize("mods", PIECE_COMBOS, ids=lambda c: "+".join(c))
def test_greedy_plays_the_same_actions_with_huts_and_gates(mods):
    """R-HUT-1 … R-HUT-6, R-GATE-1 … R-GATE-9: hut values and layouts, gate cards, gates played
    after a change or before a removal, builds through a gate: the same actions on both
    engines, in 2- and 3-player games (plain greedy seats and a mixed line-up)."""
    base = 500 + 10 * PIECE_COMBOS.index(mods)
    for n, seed in ((2, base), (3, base + 1)):
        for k, specs in enumerate((["greedy"] * n, _mixed(seed, n))):
            python = _play("python", n, mods, seed + 1000 * k, specs)
            on_kernel = _play("kernel", n, mods, seed + 1000 * k, specs)
            assert on_kernel == python, (mods, n, seed, specs)


@pytest.mark.parametrize("mods", [("building_huts",), ("building_huts", "city_gates", "vizier")], ids="+".join)
def test_greedy_plays_the_same_actions_with_a_hut_layout_of_the_option(mods):
    """R-HUT-1, R-HUT-5: the huts of a ``building_huts.layout`` file (other ids, walls and
    order) are valued by their own walls and colours on both engines."""
    options = {"building_huts.layout": kernel_oracle.hut_layout_file()}
    for n, seed in ((2, 61), (3, 62)):
        specs = ["greedy", "greedy:noise=1.5", "random"][:n]
        python = _play("python", n, mods, seed, specs, options=options)
        on_kernel = _play("kernel", n, mods, seed, specs, options=options)
        assert on_kernel == python, (mods, n, seed)
        assert any("hut" in a.lower() for a in python[0])


def test_mixed_lineups_cover_noise_weights_and_random_seats():
    seen = set()
    for mods, n in itertools.product(COMBOS, PLAYERS):
        lineup = _mixed(_seed(mods, n), n)
        seen.update(lineup)
    assert seen == set(MIXED)


@pytest.mark.parametrize("seed", [3, 11])
def test_kernel_values_equal_the_python_evaluator_bit_for_bit(seed):
    weights = [DEFAULT_WEIGHTS, tuned(coin_start=0.6, smooth=0.0, money_cap=30, closed=7.5)]
    for n, w in zip((2, 5), weights):
        game = new_game(n, modules=MODULES, seed=seed, engine="kernel")
        rng = random.Random(seed)
        decisions = 0
        while not game.is_over:
            legal = game.legal_actions()
            if len(legal) > 1:
                twin = game._twin()
                expected = Evaluator(twin, game.current_player, w).action_values(twin.legal_actions())
                assert game._kernel.greedy_values(weight_row(w)) == expected
                decisions += 1
            game.apply(legal[rng.randrange(len(legal))])
        assert decisions > 50


@pytest.mark.parametrize("n", PLAYERS)
def test_honest_greedy_on_a_kernel_game_decides_as_on_python(n):
    # honest play: every decision on a determinized world, valued by the kernel one by one
    specs = (MIXED * 2)[n : 2 * n]
    python = _play("python", n, tuple(MODULES), 40 + n, specs, honest=True)
    on_kernel = _play("kernel", n, tuple(MODULES), 40 + n, specs, honest=True)
    assert on_kernel == python


def _record(engine: str, n: int, mods: tuple, seed: int, bots: list[str]) -> str:
    task = SimTask(index=0, seed=seed, players=n, modules=mods, bots=tuple(bots), engine=engine)
    record, _ = run_task(task)
    assert record.pop("engine") == ("python" if engine == "python" else "kernel")
    return json.dumps(record, sort_keys=True)


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize(
    "mods",
    [(), tuple(MODULES), ("bonus_cards", "diamonds"), ("exchange_offices", "vizier"), PIECES],
    ids=lambda c: "+".join(c) or "base",
)
def test_simulate_records_are_the_same_on_both_engines(mods, n):
    bots = (["greedy", "random", "greedy:noise=1", "greedy:weights=tuned"] * 2)[:n]
    seed = 77 + n
    assert _record("python", n, mods, seed, bots) == _record("auto", n, mods, seed, bots)


def test_simulate_auto_keeps_the_kernel_for_greedy_bots():
    game = simulate_one(4, 5, modules=["vizier"], bots=["greedy", "random", "greedy:noise=1", "greedy"])
    assert alhambra.engine_of(game) == "kernel" and game.is_over
    # honest greedy bots decide one by one on determinized worlds: "auto" plays them on Python
    game = simulate_one(3, 5, bots="greedy", honest=True)
    assert alhambra.engine_of(game) == "python"


def test_modules_the_kernel_greedy_does_not_value_fall_back_to_python(monkeypatch):
    monkeypatch.setattr(kernel, "KERNEL_GREEDY_MODULES", frozenset({"diamonds"}))
    # "auto": on Python; the kernel game's greedy bot is valued by the Python evaluator
    assert alhambra.engine_of(simulate_one(3, 9, modules=["vizier"], bots="greedy")) == "python"
    calls = []
    real = Evaluator.action_values
    monkeypatch.setattr(Evaluator, "action_values", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    game = new_game(3, modules=["vizier"], seed=9, engine="kernel")
    bot = GreedyBot(seed=1)
    legal = game.legal_actions()
    bot.choose(game, game.current_player, legal)
    assert calls and alhambra.engine_of(game) == "python"  # the Python evaluator read the state: handed over
    game = new_game(3, modules=["vizier"], seed=9, engine="kernel")
    with pytest.raises(ConfigError, match="greedy bot values the modules"):
        game.play_bots([(DEFAULT_WEIGHTS, 0.0, 1)] * 3)
    # with the kernel's list, no Python evaluation
    monkeypatch.setattr(kernel, "KERNEL_GREEDY_MODULES", frozenset(MODULES))
    calls.clear()
    bot.choose(game, game.current_player, game.legal_actions())
    assert not calls and alhambra.engine_of(game) == "kernel"


def test_the_weights_cross_in_field_order():
    from attrs import fields

    w = Weights(**{f.name: float(i + 1) for i, f in enumerate(fields(Weights))})
    assert weight_row(w) == tuple(float(i + 1) for i in range(len(fields(Weights))))
    assert len(weight_row(DEFAULT_WEIGHTS)) == 21
    assert weight_row(tuned(coin_start=float("nan"))) is None  # valued by the Python evaluator


def test_bad_input_is_an_alhambra_error_never_a_panic():
    game = new_game(3, seed=4, engine="kernel")
    assert isinstance(game, KernelGame)
    k = game._kernel
    first = game.current_player
    row = list(weight_row(DEFAULT_WEIGHTS))
    with pytest.raises(ConfigError, match="21 weights"):
        k.greedy_values(row[:-1])
    with pytest.raises(ConfigError, match="finite"):
        k.greedy_values(row[:-1] + [float("inf")])
    with pytest.raises(ConfigError, match="21 weights"):
        game.play_bots([(row + [1.0], 0.0, 1), 2, 3])
    with pytest.raises(ConfigError, match="noise must be finite"):
        game.play_bots([(row, float("nan"), 1), 2, 3])
    with pytest.raises(ConfigError, match="bad generator state"):
        game.play_bots([(row, 0.0, b"\0" * 12), 2, 3])
    with pytest.raises(ConfigError, match="one generator or greedy player per seat"):
        game.play_bots([1, 2])
    with pytest.raises(ConfigError, match="a greedy player is"):
        game.play_bots([(row, 0.0), 2, 3])
    with pytest.raises(ConfigError):
        game.play_bots([(row, "loud", 1), 2, 3])
    with pytest.raises(ConfigError):
        k.play_bots([1, 2])
    with pytest.raises(AlhambraError):
        game.play_bots([(row, 0.0, -1), 2, 3])
    assert not game.history and game.current_player == first  # nothing played


def test_play_bots_advances_the_generators_as_the_python_bots():
    n, seed = 4, 21
    specs = ["greedy:noise=2", "random", "greedy", "greedy:noise=0.5"]
    bots = [make_bot(s, bot_seed(seed, i)) for i, s in enumerate(specs)]
    for b in bots:  # generators already drawn from cross as states
        b.rng.random()
    twins = [make_bot(s, bot_seed(seed, i)) for i, s in enumerate(specs)]
    for b in twins:
        b.rng.random()
    g_py = new_game(n, seed=seed, engine="python")
    play(g_py, twins)
    g_k = new_game(n, seed=seed, engine="kernel")
    played = g_k.play_bots([b.rng if type(b) is not GreedyBot else (b.weights, b.noise, b.rng) for b in bots])
    assert played == len(g_py.history)
    assert [repr(a) for a in g_k.history] == [repr(a) for a in g_py.history]
    assert [b.rng.getstate() for b in bots] == [b.rng.getstate() for b in twins]


@pytest.mark.parametrize("module", ["building_huts", "city_gates"])
def test_simulate_keeps_the_kernel_for_greedy_bots_with_huts_and_gates(module):
    """The kernel values the building huts (R-HUT-5) and the city gates (R-GATE-5): greedy
    seats play inside it (``play_bots``, ``simulate``), with the same record as on Python."""
    row = list(weight_row(DEFAULT_WEIGHTS))
    game = new_game(3, modules=[module], seed=4, engine="kernel")
    assert len(game._kernel.greedy_values(row)) == len(game.legal_actions())
    assert game.play_bots([(DEFAULT_WEIGHTS, 0.0, 1), 2, 3]) == len(game.history) > 0
    assert game.is_over
    assert alhambra.engine_of(simulate_one(3, 4, modules=[module], bots="greedy")) == "kernel"
    bots = ("greedy", "random", "greedy:noise=1")
    records = [
        run_task(SimTask(index=0, seed=5, players=3, modules=(module,), bots=bots, engine=e))[0]
        for e in ("python", "auto")
    ]
    assert [r.pop("engine") for r in records] == ["python", "kernel"] and records[0] == records[1]
