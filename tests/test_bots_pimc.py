"""The PIMC bot: the same choice on either engine, honest about hidden information, the
kernel's playouts, the fallback where the kernel cannot play, and its specifications."""

from __future__ import annotations

import random

import pytest

import alhambra
from alhambra import kernel
from alhambra.bots import BotSpecError, make_bot, observe
from alhambra.bots.pimc import PIMCBot
from alhambra.simulate import play

pytestmark = pytest.mark.skipif(kernel.native is None, reason="the compiled kernel is not installed")

GREEDY_MODULES = [
    (),
    ("vizier",),
    ("bonus_cards", "exchange_offices"),
    ("vizier", "bonus_cards", "exchange_offices", "diamonds"),
    ("building_huts",),
    ("city_gates",),
    ("building_huts", "city_gates", "exchange_offices"),
]


def _advance(game, seed: int, k: int) -> None:
    rng = random.Random(seed)
    for _ in range(k):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("modules", GREEDY_MODULES)
@pytest.mark.parametrize("players", [2, 4])
def test_pimc_chooses_the_same_on_both_engines(modules, players):
    """A Python game's worlds are loaded into the kernel for the playouts: the same seed gives
    the same worlds, the same rewards and the same choice as on a kernel game."""
    k = alhambra.new_game(players, modules=list(modules), seed=3, engine="kernel")
    seen = 0
    for step in range(12):
        _advance(k, step, 9)
        if k.is_over:
            break
        py = alhambra.Game.from_json(k.to_json(), engine="python")
        seat = k.current_player
        a, b = PIMCBot(5, worlds=3), PIMCBot(5, worlds=3)
        ka = a.choose(k, seat, k.legal_actions())
        pa = b.choose(py, seat, py.legal_actions())
        assert ka == pa
        assert a.last_search == b.last_search
        seen += bool(a.last_search)
    assert seen >= 3  # searched, not only forced moves


def test_pimc_searches_only_worlds_the_seat_could_believe_in(monkeypatch):
    """The bot reads the true game only through ``observe`` (``Game.determinize``) and the
    greedy values of its own actions: every world it plays in shows the seat exactly what the
    true game shows it, and the true game is left as it was."""
    import alhambra.bots.pimc as pimc

    worlds = []

    def recording(game, seat, rng):
        w = observe(game, seat, rng)
        worlds.append(w)
        return w

    monkeypatch.setattr(pimc, "observe", recording)
    for seed in range(4):
        g = alhambra.new_game(3, modules=["vizier", "bonus_cards"], seed=seed, engine="kernel")
        _advance(g, seed, 40 + 13 * seed)
        seat, before = g.current_player, g.to_json()
        worlds.clear()
        PIMCBot(1, worlds=4).choose(g, seat, g.legal_actions())
        assert len(worlds) == 4 and g.to_json() == before
        assert all(w.view(seat) == g.view(seat) for w in worlds)
        assert len({w.to_json() for w in worlds}) == 4  # the hidden rest drawn anew each time


def test_pimc_rewards_are_shares_and_margins():
    g = alhambra.new_game(2, seed=11, engine="kernel")
    _advance(g, 11, 30)
    bot = PIMCBot(2, worlds=6, top_k=5)
    bot.choose(g, g.current_player, g.legal_actions())
    means = [m for _, m in bot.last_search["children"]]
    assert bot.last_search["worlds"] == 6 and 2 <= len(means) <= 5
    assert all(0.0 <= m <= 1.0 for m in means)
    assert len(set(means)) > 1  # the candidates are told apart


def test_pimc_is_deterministic_for_a_seed_and_plays_whole_games():
    def run():
        g = alhambra.new_game(3, modules=["diamonds"], seed=4)
        return play(g, [make_bot("pimc:worlds=2", 1), make_bot("greedy", 2), make_bot("random", 3)]).to_json()

    first = run()
    assert first == run()
    assert alhambra.Game.from_json(first).is_over


def test_pimc_decides_as_the_search_bot_where_the_kernel_cannot(monkeypatch):
    """A module the kernel's greedy bot does not value (here: the building huts taken off its
    list): the search bot decides."""
    monkeypatch.setattr(kernel, "KERNEL_GREEDY_MODULES", kernel.KERNEL_GREEDY_MODULES - {"building_huts"})
    g = alhambra.new_game(2, modules=["building_huts"], seed=6)
    _advance(g, 6, 20)
    bot = PIMCBot(1)
    legal = g.legal_actions()
    assert bot.choose(g, g.current_player, legal) in legal
    assert bot.last_search == {} and bot._fallback is not None


def test_pimc_specifications():
    bot = make_bot("pimc:16:horizon=4", 3)
    assert (bot.worlds, bot.horizon, bot.top_k) == (16, 4, 4)
    assert bot.spec() == "pimc:worlds=16:horizon=4"
    assert make_bot("pimc").spec() == "pimc"
    for spec, match in [("pimc:0", "at least 1"), ("pimc:horizon=-1", "at least 0"), ("pimc:scale=0", "positive")]:
        with pytest.raises(BotSpecError, match=match):
            make_bot(spec)
    with pytest.raises(BotSpecError, match="finite"):
        PIMCBot(noise=float("nan"))


@pytest.mark.parametrize("module", ["building_huts", "city_gates"])
def test_pimc_searches_in_the_kernel_with_huts_and_gates(module):
    """The kernel's greedy playouts value the building huts (R-HUT-5) and the city gates
    (R-GATE-5): the PIMC bot searches there (no fallback), its rewards shares in [0, 1]."""
    g = alhambra.new_game(2, modules=[module], seed=1, engine="kernel")
    codes = [kernel.code_of(a, g.rules) for a in g.legal_actions()[:3]]
    rewards = kernel.native.pimc_rewards([g._kernel], codes, g.current_player, [1.0] * 21, 0.0, 2, 12.0, 1, 100)
    assert len(rewards) == len(codes) and all(0.0 <= r <= 1.0 for r in rewards)
    _advance(g, 6, 20)
    bot = PIMCBot(1, worlds=2)
    legal = g.legal_actions()
    assert bot.choose(g, g.current_player, legal) in legal
    assert bot._fallback is None


def test_the_kernel_refuses_bad_playout_input():
    b = alhambra.new_game(2, seed=1, engine="kernel")
    code = kernel.code_of(b.legal_actions()[0], b.rules)
    with pytest.raises(alhambra.errors.ConfigError, match="not to decide"):
        kernel.native.pimc_rewards([b._kernel], [code], 1 - b.current_player, [1.0] * 21, 0.0, 2, 12.0, 1, 100)
    with pytest.raises(alhambra.errors.ConfigError, match="no action's code"):
        kernel.native.pimc_rewards([b._kernel], [2**63], b.current_player, [1.0] * 21, 0.0, 2, 12.0, 1, 100)


def test_simulate_records_are_the_same_on_either_engine():
    """``simulate`` plays a game with the PIMC bot on the kernel ("auto"): the record equals
    the Python engine's for the same seed, the engine named aside."""
    from alhambra.simulate import SimTask, run_task

    for modules in (("vizier",), ("building_huts", "city_gates")):
        records = []
        for engine in ("python", "auto"):
            bots = ("pimc:worlds=2", "greedy", "random")
            task = SimTask(index=0, seed=5, players=3, modules=modules, bots=bots, engine=engine)
            records.append(run_task(task)[0])
        assert [r.pop("engine") for r in records] == ["python", "kernel"]
        assert records[0] == records[1]
