"""Bots follow the rules of the game they play: the greedy and search evaluation is measured
through the rule set's own scoring hooks (R-SCORE-1 … R-SCORE-5), so a variant changes play."""

from __future__ import annotations

import importlib.util
import pathlib
import types

import alhambra
from alhambra import hookimpl
from alhambra.bots import make_bot
from alhambra.bots.evaluate import scoring_values
from alhambra.engine.actions import Buy
from alhambra.simulate import play

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def _no_towers() -> types.SimpleNamespace:
    """A variant whose scorings pay nothing for towers (R-SCORE-2 changed by a plugin)."""

    @hookimpl
    def alhambra_scoring_adjust(game, record):
        record.add_points("no towers", [-m["tower"] for m in record.majority])

    return types.SimpleNamespace(alhambra_scoring_adjust=alhambra_scoring_adjust)


def _greedy_game(seed: int, plugins=()) -> alhambra.Game:
    g = alhambra.new_game(3, seed=seed, plugins=list(plugins))
    return play(g, [make_bot("greedy", seed * 10 + s) for s in range(3)])


def _walls(g) -> int:
    return sum(p.city.longest_outer_wall() for p in g.state.players)


def test_probe_reads_base_scoring_table_R_SCORE_2_and_walls_R_SCORE_5():
    vals = scoring_values(alhambra.new_game(3, seed=1))
    assert vals[1].rows["tower"] == (6, 0, 0)
    assert vals[3].rows["pavilion"] == (16, 8, 1)
    assert [vals[k].wall for k in (1, 2, 3)] == [1.0, 1.0, 1.0]


def test_probe_sees_a_variants_adjustments():
    dw = scoring_values(alhambra.new_game(3, seed=1, plugins=[_load("double_walls")]))
    assert dw[2].wall == 2.0 and dw[2].rows["tower"] == (13, 6, 0)
    nt = scoring_values(alhambra.new_game(3, seed=1, plugins=[_no_towers()]))
    assert all(nt[k].rows["tower"] == (0, 0, 0) for k in (1, 2, 3))
    assert nt[3].rows["garden"] == (20, 12, 5)


def test_greedy_plays_differently_and_builds_longer_walls_under_double_walls_R_SCORE_5():
    dw = _load("double_walls")
    changed = 0
    base_walls = dw_walls = 0
    for seed in range(4):
        a = _greedy_game(seed)
        b = _greedy_game(seed, [dw])
        changed += [type(x).__name__ + repr(x) for x in a.history] != [type(x).__name__ + repr(x) for x in b.history]
        base_walls += _walls(a)
        dw_walls += _walls(b)
    assert changed == 4
    assert dw_walls > base_walls


def test_greedy_stops_buying_towers_first_when_towers_score_nothing():
    def first_buys(plugins) -> list[str]:
        """Each seat's first purchase (its building type) in a few greedy games."""
        out = []
        for seed in range(4):
            g = alhambra.new_game(3, seed=seed, plugins=list(plugins))
            bots = [make_bot("greedy", seed * 10 + s) for s in range(3)]
            first: dict = {}
            while g.state.phase != "over" and len(first) < 3:
                seat = g.state.decider
                a = bots[seat].choose(g, seat, g.legal_actions())
                if isinstance(a, Buy) and seat not in first:
                    first[seat] = g.rules.catalog[g.state.market[a.space - 1]].type
                g.apply(a)
            out += first.values()
        return out

    base = first_buys(())
    variant = first_buys([_no_towers()])
    assert "tower" in base
    assert "tower" not in variant


class _Peeker:
    """A bot that reads the bag: the top tile it sees is recorded at every decision."""

    def __init__(self):
        self.seen: list = []

    def choose(self, game, seat, legal):
        self.seen.append(tuple(game.state.bag[-3:]))
        return legal[0]


def test_honest_play_hides_the_bag_from_a_peeking_bot():
    g = alhambra.new_game(2, seed=3)
    peek = _Peeker()
    true_bags = []

    class Recorder(_Peeker):
        def choose(self, game, seat, legal):
            true_bags.append(tuple(g.state.bag[-3:]))
            return peek.choose(game, seat, legal)

    play(g, [Recorder(), Recorder()], honest=True)
    assert len(peek.seen) == len(true_bags) > 20
    assert sum(a != b for a, b in zip(peek.seen, true_bags)) > len(true_bags) // 2
    # the same honest game twice: the same actions
    a = play(alhambra.new_game(2, seed=3), [make_bot("greedy", 1), make_bot("greedy", 2)], honest=True)
    b = play(alhambra.new_game(2, seed=3), [make_bot("greedy", 1), make_bot("greedy", 2)], honest=True)
    assert a.history == b.history
