"""Balance lab: what every seat did (the records' ``tallies``): a hand-built history with its
exact tallies, both engines recording the same trace, the totals agreeing with the final state
and the scorings, and records without a trace replayed."""

from __future__ import annotations

import random
from types import SimpleNamespace

import alhambra
import pytest

import alhambra.kernel
from alhambra import Alhambra, MoneyCard
from alhambra.engine.actions import Buy, GiveToDirk, Place, Reserve, TakeMoney
from alhambra.lab.tally import PERIODS, Trace, bought_total, replay_trace, tallies
from alhambra.simulate import play, result_of, simulate_one

BASE_TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def _types(**counts: int) -> dict[str, int]:
    return {t: counts.get(t, 0) for t in BASE_TYPES}


def test_tallies_of_a_hand_built_history_R_TURN_4_R_END_2():
    """Two seats; a take of money, an exact purchase and one that is not, a hut, a building
    given to Dirk, purchases in all three scoring periods, and a building handed out at the
    end: every count as the rules define it."""
    from alhambra_building_huts.plugin import TakeHut

    rules = alhambra.new_game(2, seed=1, modules=["building_huts"], engine="python").rules
    f, d = MoneyCard("florin", 4), MoneyCard("dinar", 5)
    steps = [  # (seat, phase, scorings held, action, tiles it took from the pending ones)
        (0, "turn", 0, TakeMoney((MoneyCard("florin", 3), MoneyCard("dinar", 2))), ()),
        (1, "turn", 0, Buy(1, (f,)), ()),  # exact: seat 1 acts again in its turn
        (1, "turn", 0, Buy(2, (d, MoneyCard("dinar", 2))), ()),  # not exact: its placements follow
        (1, "place", 0, Place(1, (1, 0)), (1,)),  # pavilion
        (1, "place", 0, Reserve(8), (8,)),  # seraglio
        (0, "turn", 1, TakeHut("H1"), ()),
        (0, "place", 1, Place("H1", (0, 1)), ("H1",)),  # a hut: no building
        (1, "turn", 1, Buy(3, (MoneyCard("ducat", 9),)), ()),
        (1, "place", 1, GiveToDirk(9), (9,)),  # seraglio, bought and given to Dirk (R-TWO-5)
        (0, "turn", 2, Buy(4, (MoneyCard("dirham", 6),)), ()),
        (0, "place", 2, Place(2, (1, 0)), (2,)),  # pavilion
        (1, "place", 2, Place(3, (-1, 0)), (3,)),  # pavilion handed out at the end (R-END-2)
    ]
    trace = Trace(
        seats=[s[0] for s in steps],
        phases=[s[1] for s in steps],
        periods=[s[2] for s in steps],
        acquired={i: s[4] for i, s in enumerate(steps) if s[4]},
        end_at=11,
        held=3,
    )
    game = SimpleNamespace(history=[s[3] for s in steps], rules=rules, num_players=2)
    cities = [
        Alhambra.from_tiles({(0, 1): "H1", (1, 0): 2}, catalog=rules.catalog, check=False),
        Alhambra.from_tiles({(1, 0): 1, (-1, 0): 3}, catalog=rules.catalog, check=False),
    ]
    players = [SimpleNamespace(city=cities[0], reserve=[]), SimpleNamespace(city=cities[1], reserve=[8])]
    zero, one = tallies(game, trace, players)
    assert zero == {
        "bought": [_types(), _types(), _types(pavilion=1)],
        "received": _types(),
        "built": _types(pavilion=1),  # the hut is no building (R-SCORE-2)
        "reserve": 0,
        "wall": cities[0].longest_outer_wall(),
        "money_taken": 5,
        "money_spent": 6,
        "purchases": 1,
        "exact": 0,  # its purchase was its last action of the turn
        "actions": {"Buy": 1, "Place": 2, "TakeHut": 1, "TakeMoney": 1},
    }
    assert one == {
        "bought": [_types(pavilion=1, seraglio=1), _types(seraglio=1), _types()],
        "received": _types(pavilion=1),
        "built": _types(pavilion=2),
        "reserve": 1,
        "wall": cities[1].longest_outer_wall(),
        "money_taken": 0,
        "money_spent": 4 + 7 + 9,
        "purchases": 3,
        "exact": 1,
        "actions": {"Buy": 3, "GiveToDirk": 1, "Place": 2, "Reserve": 1},
    }
    assert bought_total(one) == _types(pavilion=1, seraglio=2)
    assert len(PERIODS) == 3
    with pytest.raises(ValueError, match="covers 12 actions, the history holds 11"):
        tallies(SimpleNamespace(history=game.history[:11], rules=rules, num_players=2), trace, players)


def _traced(players, seed, modules=(), bots="random", engine="auto", honest=False):
    trace = Trace()
    game = simulate_one(players, seed, modules=modules, bots=bots, engine=engine, trace=trace, honest=honest)
    return game, trace


@pytest.mark.parametrize(
    "players,modules", [(2, ()), (3, ("vizier",)), (4, ("exchange_offices",)), (5, ("vizier", "exchange_offices"))]
)
def test_both_engines_record_the_same_trace_and_tallies(players, modules):
    """A game the kernel plays whole is counted by the kernel as it plays (no per-action
    trace); its tallies equal the Python engine's, counted from its trace. A game the kernel's
    random players take over once begun reports its steps: the kernel's trace (seats, phases,
    scorings from its scores, the distribution from the purchases still to be placed) equals
    the Python engine's, read from its state."""
    import random

    from alhambra.bots import make_bot
    from alhambra.simulate import bot_seed, play

    for seed in (1, 2):
        k, kt = _traced(players, seed, modules)
        p, pt = _traced(players, seed, modules, engine="python")
        assert (alhambra.engine_of(k), alhambra.engine_of(p)) == ("kernel", "python")
        assert kt.native is not None and len(kt.codes) == len(k.history) and len(kt) == 0
        assert pt.native is None and len(pt) == len(p.history)
        assert result_of(k, ["random"] * players, trace=kt).tallies == result_of(p, trace=pt).tallies
        games, traces = [], []
        for engine in ("kernel", "python"):
            g = alhambra.new_game(players, modules=list(modules), seed=seed, engine=engine)
            rng = random.Random(seed)
            for _ in range(7):  # begun through the Game API
                g.apply(rng.choice(g.legal_actions()))
            trace = Trace()
            play(g, [make_bot("random", bot_seed(seed, i)) for i in range(players)], trace=trace)
            games.append(g)
            traces.append(trace)
        assert alhambra.engine_of(games[0]) == "kernel" and traces[0].native is None
        assert traces[0] == traces[1] and len(traces[0]) == len(games[0].history) - 7


def test_a_kernel_game_between_greedy_bots_is_traced_action_by_action_as_on_python(monkeypatch):
    """Bots the kernel does not play whole play through the loop of ``play`` on the kernel too
    (when asked for; here honest greedy bots): the recorder reads the kernel's seat, phase and
    scores before and after each action. A bot that reads the live game's state hands it over
    to Python in the middle (greedy on modules the kernel's greedy evaluation does not value):
    the recorder follows it there. Greedy bots the kernel plays whole are counted by it."""
    k, kt = _traced(3, 2, modules=("vizier",), bots="greedy", engine="kernel", honest=True)
    p, pt = _traced(3, 2, modules=("vizier",), bots="greedy", engine="python", honest=True)
    assert (alhambra.engine_of(k), alhambra.engine_of(p)) == ("kernel", "python") and k.history == p.history
    assert kt == pt and kt.end_at is not None and kt.held == 3
    assert result_of(k, trace=kt).tallies == result_of(p, trace=pt).tallies
    whole, wt = _traced(3, 2, modules=("vizier",), bots="greedy", engine="kernel")
    python, hp = _traced(3, 2, modules=("vizier",), bots="greedy", engine="python")
    assert alhambra.engine_of(whole) == "kernel" and whole.history == python.history
    assert result_of(whole, trace=wt).tallies == result_of(python, trace=hp).tallies
    monkeypatch.setattr(alhambra.kernel, "KERNEL_GREEDY_MODULES", frozenset())
    handed, ht = _traced(3, 2, modules=("vizier",), bots="greedy", engine="kernel")
    assert alhambra.engine_of(handed) == "python" and handed.history == python.history and ht == hp


@pytest.mark.parametrize("players", [2, 3, 6])
def test_tallies_agree_with_the_final_state_and_the_scorings_R_SCORE_5(players):
    """Greedy bots on Python: what was bought and received is what was built, reserved or
    given to Dirk; the last scoring's wall points are the final walls (base scoring: one point
    per wall side, R-SCORE-5) and its counts the buildings built; money dealt, taken and spent
    leave the money in hand."""
    dealt = [
        sum(c.value for c in pl.hand if isinstance(c, MoneyCard))
        for pl in alhambra.new_game(players, seed=7, engine="python").state.players
    ]
    game, trace = _traced(players, 7, bots="greedy", engine="python")
    rec = result_of(game, trace=trace)
    final = game.state.scorings[-1]
    assert final.number == 3
    for seat, t in enumerate(rec.tallies):
        got = sum(bought_total(t).values())
        assert got == t["purchases"]  # one building per purchase (no huts, no vizier here)
        placed = t["actions"].get("Place", 0) + t["actions"].get("Reserve", 0) + t["actions"].get("GiveToDirk", 0)
        assert placed == got + sum(t["received"].values())
        assert t["wall"] == final.walls[seat] == game.state.players[seat].city.longest_outer_wall()
        assert t["built"] == final.counts[seat]
        assert t["reserve"] == len(game.state.players[seat].reserve)
        assert dealt[seat] + t["money_taken"] - t["money_spent"] == rec.money_left[seat]
        assert t["exact"] <= t["purchases"] and t["money_taken"] > 0
        assert sum(t["actions"].values()) == sum(1 for s in trace.seats if s == seat)
        assert "GiveToDirk" not in t["actions"] or players == 2  # Dirk plays with two only (R-TWO-5)
    assert sum(sum(t["actions"].values()) for t in rec.tallies) == len(game.history)


def test_exact_payments_are_the_purchases_that_earned_another_action_R_TURN_4():
    """Every purchase of the trace followed by the same seat acting again in its turn paid
    exactly: the payment's total is the building's price (the base game's purchase rule)."""
    game, trace = _traced(3, 4, bots="greedy", engine="python")
    replayed = alhambra.new_game(3, seed=4, engine="python")
    exact = paid = 0
    for i, action in enumerate(game.history):
        if type(action) is Buy:
            price = replayed.rules.purchase.market_price(replayed, action.space)
            again = trace.phases[i + 1] == "turn" and trace.seats[i + 1] == trace.seats[i]
            assert again == (sum(c.value for c in action.cards) == price)
            exact += again
            paid += 1
        replayed.apply(action)
    rec = result_of(game, trace=trace)
    assert sum(t["exact"] for t in rec.tallies) == exact > 0
    assert sum(t["purchases"] for t in rec.tallies) == paid


def test_a_game_played_without_a_trace_is_replayed_for_its_tallies():
    _, python_trace = _traced(3, 5, modules=("vizier",), engine="python")
    for engine in ("kernel", "python"):
        game, counted = _traced(3, 5, modules=("vizier",), engine=engine)
        trace = python_trace  # the kernel counted the game whole, without a per-action trace
        assert replay_trace(game) == trace
        assert result_of(game).tallies == result_of(game, trace=counted).tallies
        partial = Trace(seats=trace.seats[:5], phases=trace.phases[:5], periods=trace.periods[:5])
        assert result_of(game, trace=partial).tallies == result_of(game, trace=trace).tallies
        # a trace that counted another number of scorings than were held (the kernel's count
        # misses a scoring that scored nobody a point): replayed, periods all shifted here
        wrong = Trace(trace.seats, trace.phases, [0] * len(trace), trace.acquired, trace.end_at, trace.held - 1)
        assert result_of(game, trace=wrong).tallies == result_of(game, trace=trace).tallies


def test_a_kernel_game_from_a_position_with_tiles_pending_is_traced_as_on_python():
    """Recording starts mid-placement: the kernel learns the pending tiles and the scorings
    already held from its state once; the Python engine reads them as it goes."""
    game = alhambra.new_game(2, seed=3, engine="python")
    rng = random.Random(1)
    while not (game.phase == "place" and len(game.state.scorings) >= 1):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    position = game.position()
    traces = []
    for engine in ("kernel", "python"):
        g = alhambra.Game.from_position(position, engine=engine)
        assert alhambra.engine_of(g) == engine
        trace = Trace()
        play(g, [alhambra.bots.make_bot("random", 30 + s) for s in range(2)], trace=trace)
        assert trace.periods[0] >= 1 and trace.phases[0] == "place"
        traces.append((trace, result_of(g, trace=trace).tallies))
    assert traces[0] == traces[1]


@pytest.mark.parametrize("modules", [("diamonds",), ("building_huts",), ("city_gates",)])
def test_a_kernel_game_of_modules_with_their_own_pending_tiles_is_traced_as_on_python(modules):
    """Followed action by action on the kernel, a purchase with diamonds (R-DIA-4) and a hut
    taken (R-HUT-3) owe a placement, and a tile built with a city gate (R-GATE-6) is one when
    it was pending (on a turn it comes from the reserve): the trace equals the Python
    engine's, read from its state."""
    from alhambra.lab.tally import Recorder

    liked = {"BuyWithDiamonds", "TakeHut", "TakeGate", "PlayGate", "BuildThroughGate"}
    options = {"city_gates.cards": 6} if "city_gates" in modules else {}
    for seed in (1, 2):
        games = [
            alhambra.new_game(4, modules=list(modules), seed=seed, options=options, engine=e)
            for e in ("kernel", "python")
        ]
        recs = [Recorder(g) for g in games]
        rng = random.Random(seed)
        while not games[0].is_over:
            legal = games[0].legal_actions()
            first = [a for a in legal if type(a).__name__ in liked]
            action = rng.choice(first) if first and rng.random() < 0.6 else rng.choice(legal)
            for g, rec in zip(games, recs):
                rec.before(g)
                g.apply(action)
                rec.after(g, action)
        assert alhambra.engine_of(games[0]) == "kernel" and recs[0].trace.native is None
        assert recs[0].trace == recs[1].trace
        players = games[1].state.players
        assert tallies(games[0], recs[0].trace, players) == tallies(games[1], recs[1].trace, players)
