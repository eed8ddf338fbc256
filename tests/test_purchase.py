"""The built-in plugin core.purchase: the price hook every reader uses (R-TURN-3, R-TURN-4,
R-VIZ-2, R-EXC-4), the market-tax house rule (examples/market_tax.py) and the declaration
that lets one plugin replace another's action kind."""

from __future__ import annotations

import random
import types
from pathlib import Path

import pytest
from hypothesis import given, settings

import alhambra
from alhambra import Buy, ConfigError, IllegalActionError, hookimpl
from alhambra.actions import ActionKind
from alhambra.bots import make_bot
from alhambra.components import BASE_CATALOG
from alhambra.config import load_config
from alhambra.testing import check_invariants
from helpers import COMBINATIONS, MODULES, M, modules_st, players_st, seeds_st, situation

ROOT = Path(__file__).resolve().parents[1]
FIVE = next(t for t in range(1, 55) if BASE_CATALOG[t].price == 5)  # a building printed at 5


@pytest.fixture(scope="module")
def market_tax():
    """The example module, loaded through examples/market_tax.toml as a user would."""
    cfg = load_config(ROOT / "examples" / "market_tax.toml")
    assert cfg.modules == ["vizier", "building_huts", "bonus_cards", "exchange_offices", "market_tax"]
    (tax,) = [m for m in cfg.module_objects if m.NAME == "market_tax"]
    return tax


def _purchases_paid(game, rng, *, bots=None, views=True):
    """Play ``game`` to the end; at every step (with ``views``) check that the spectator's view
    and the deciding seat's show the price on each market space as ``rules.space_prices``;
    a seat the vizier asks must have a use (R-VIZ-2). Returns ``[(paid, printed price,
    action kind), ...]`` for every purchase."""
    st = game.state
    paid = []
    while not game.is_over:
        for seat in (None, game.current_player) if views else ():
            view = game.view(seat)
            assert [e["price"] for e in view["market"]] == [
                None if t is None else game.rules.space_prices[i][t] for i, t in enumerate(st.market)
            ]
        seat = game.current_player
        legal = game.legal_actions()
        if game.phase == "vizier":  # asked only with an exact payment at the price (R-VIZ-2 ruling)
            assert any(type(a).__name__ == "UseVizier" for a in legal), legal
        action = bots[seat].choose(game, seat, legal) if bots else rng.choice(legal)
        if type(action).__name__ in ("Buy", "UseVizier"):
            tile = st.market[action.space - 1]
            paid.append((sum(c.value for c in action.cards), game.rules.prices[tile], type(action).__name__))
        game.apply(action)
    return paid


@settings(max_examples=12)
@given(players=players_st, seed=seeds_st, drawn=modules_st)
def test_r_turn_3_r_viz_2_r_exc_4_market_tax_every_purchase_pays_the_taxed_price(market_tax, players, seed, drawn):
    """With the market tax, vizier and exchange offices on, with every module, and with a
    drawn combination: every purchase, the vizier's included, pays at least the printed
    price + 1, the views show the taxed price on every space, and the game's invariants hold."""
    rng = random.Random(seed)
    for mods in (["vizier", "exchange_offices"], list(MODULES), list(drawn)):
        game = alhambra.new_game(players, modules=[*mods, market_tax], seed=seed)
        assert all(game.rules.space_prices[i][t] == BASE_CATALOG[t].price + 1 for i in range(4) for t in range(1, 55))
        paid = _purchases_paid(game, rng)
        assert paid, "no purchase in a whole game"
        assert all(total >= printed + 1 for total, printed, _ in paid), paid
        check_invariants(game)


def test_r_viz_2_market_tax_many_games_exact_purchases_are_at_the_taxed_price(market_tax):
    """Over 30 seeded games (2-6 players, vizier and offices on) the tax is paid on every one of
    hundreds of purchases, and many vizier purchases pay exactly printed + 1 (R-VIZ-2): the
    exactness is the taxed price's. Without the tax, the same check fails (it can fail)."""
    taxed, plain = [], []
    for seed in range(30):
        n = 2 + seed % 5
        rng = random.Random(seed)
        game = alhambra.new_game(n, modules=["vizier", "exchange_offices", market_tax], seed=seed)
        taxed += _purchases_paid(game, rng, views=False)
        plain += _purchases_paid(
            alhambra.new_game(n, modules=["vizier", "exchange_offices"], seed=seed), rng, views=False
        )
    assert len(taxed) > 300
    assert all(total >= printed + 1 for total, printed, _ in taxed)
    vizier = [(t, p) for t, p, kind in taxed if kind == "UseVizier"]
    assert len(vizier) > 40 and all(t == p + 1 for t, p in vizier)
    assert sum(t == p for t, p, _ in plain) > 40  # untaxed games do pay the printed price exactly


def test_market_tax_greedy_bots_read_the_taxed_price(market_tax):
    """The bots read the price from the rule set's tables: greedy bots play whole taxed games
    with every module on, and their evaluator's wanted buildings carry the taxed price."""
    from alhambra.bots.evaluate import Evaluator

    for seed in range(3):
        game = alhambra.new_game(
            3, modules=["vizier", "building_huts", "bonus_cards", "exchange_offices", market_tax], seed=seed
        )
        wanted = Evaluator(game, 0).wanted(0)
        assert wanted and all(
            price
            == game.rules.purchase.market_price(game, space)
            == BASE_CATALOG[game.state.market[space - 1]].price + 1
            for space, _, price, _ in wanted
        )
        bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(3)]
        paid = _purchases_paid(game, None, bots=bots)
        assert paid and all(total >= printed + 1 for total, printed, _ in paid)


def test_r_turn_3_r_turn_4_r_viz_2_taxed_price_hand_built(market_tax):
    """Space 1 (florin) holds a building printed at 5, taxed 6. Seat 0 holds florin 5: no
    purchase, no exact payment, the vizier is not for it; florin 6 is exact (another action,
    R-TURN-4); florin 5 + 2 overpays (no extra action)."""
    game = situation(
        3,
        market=[FIVE, None, None, None],
        hands={0: [M("florin-5")], 1: [M("florin-6")], 2: [M("florin-5"), M("florin-2")]},
        modules=["vizier", market_tax],
    )
    assert game.rules.purchase.market_price(game, 1) == 6 and game.view(0)["market"][0]["price"] == 6
    assert game.rules.purchase.purchases(game, 0) == [] and not game.rules.purchase.can_pay_exactly(game, 0)
    with pytest.raises(IllegalActionError, match="R-TURN-3: 5 does not cover the price 6"):
        game.apply(Buy(1, (M("florin-5"),)))
    assert (
        game.rules.purchase.purchases(game, 1)
        == game.rules.purchase.purchases(game, 1, exact=True)
        == [Buy(1, (M("florin-6"),))]
    )
    assert game.rules.purchase.first_exact_payer(game, [0, 2, 1]) == 1
    assert (
        game.rules.purchase.purchases(game, 2) == [Buy(1, (M("florin-5"), M("florin-2")))]
        and game.rules.purchase.purchases(game, 2, exact=True) == []
    )
    assert game.rules.purchase.check_payment(game, 1, Buy(1, (M("florin-6"),))) == 6
    untaxed = situation(3, market=[FIVE, None, None, None], hands={0: [M("florin-5")]}, modules=["vizier"])
    assert untaxed.rules.purchase.market_price(untaxed, 1) == 5 and untaxed.rules.purchase.purchases(
        untaxed, 0, exact=True
    ) == [Buy(1, (M("florin-5"),))]


def test_r_turn_4_taxed_exact_payment_earns_another_action(market_tax):
    game = situation(
        3, market=[FIVE, None, None, None], hands={0: [M("florin-6"), M("florin-5")]}, modules=[market_tax]
    )
    game.apply(Buy(1, (M("florin-6"),)))
    assert game.phase == "turn" and game.current_player == 0  # exact at 6: one more action
    game2 = situation(
        3, market=[FIVE, None, None, None], hands={0: [M("florin-5"), M("florin-2")]}, modules=[market_tax]
    )
    game2.apply(Buy(1, (M("florin-5"), M("florin-2"))))
    assert game2.phase == "place"  # 7 for 6: the action is over


def test_r_exc_4_taxed_price_through_an_exchange_office(market_tax):
    """An office lets dinar pay on the florin space; the taxed price holds there too."""
    from alhambra_exchange_offices import OFFICES

    via = next(o for o in OFFICES if {o.first, o.second} == {"florin", "dinar"})
    game = situation(
        3, market=[FIVE, None, None, None], hands={0: [M("dinar-5"), via]}, modules=["exchange_offices", market_tax]
    )
    assert game.rules.purchase.purchases(game, 0) == [] and not game.rules.purchase.can_pay_exactly(game, 0)
    game.state.players[0].hand = [M("dinar-4"), M("florin-2"), via]
    assert game.rules.purchase.purchases(game, 0, exact=True) == [Buy(1, (M("florin-2"), M("dinar-4")), via)]
    assert game.rules.purchase.check_payment(game, 0, Buy(1, (M("florin-2"), M("dinar-4")), via)) == 6


def test_price_hook_chains_and_refuses_bad_prices(market_tax):
    """Two taxes add up; a price per space; a price that is not an int >= 0 is a ConfigError
    naming the plugin; without the hook the tables are the printed prices themselves."""
    double = types.SimpleNamespace(NAME="double", alhambra_building_price=hookimpl(lambda price: price + 1))
    rules = alhambra.new_game(2, modules=[market_tax, double], seed=1).rules
    assert rules.space_prices[0][FIVE] == 7 and rules.price_bits == 16
    by_space = types.SimpleNamespace(
        NAME="by_space", alhambra_building_price=hookimpl(lambda space, price: price + space)
    )
    rules = alhambra.new_game(2, modules=[by_space], seed=1).rules
    assert [rules.space_prices[i][FIVE] for i in range(4)] == [6, 7, 8, 9]
    for bad in (-1, 2.0, True, "6"):
        plugin = types.SimpleNamespace(NAME=f"bad{bad!r}", alhambra_building_price=hookimpl(lambda price, b=bad: b))
        with pytest.raises(ConfigError, match="alhambra_building_price .* a price is an int >= 0"):
            alhambra.new_game(2, modules=[plugin], seed=1)
    base = alhambra.new_game(2, seed=1).rules
    assert all(table is base.prices for table in base.space_prices)


def _buy_kind(name, replaces=()):
    kind = ActionKind(Buy, {"turn"}, lambda game, seat: [], lambda game, seat, action: None, replaces=replaces)
    return types.SimpleNamespace(NAME=name, alhambra_action_kinds=hookimpl(lambda: [kind]), kind=kind)


def test_two_plugins_replacing_the_same_action_kind_are_a_config_error():
    """One plugin may replace the built-in Buy kind; two are a ConfigError naming both, unless
    one declares that it replaces the other (whatever the registration order)."""
    one, two = _buy_kind("one"), _buy_kind("two")
    assert alhambra.new_game(2, modules=[one], seed=1).rules.kinds[Buy] is one.kind
    conflict = r"'two' and 'one' each provide the action kind Buy: .* replaces=\('two',\)\) in 'one'"
    with pytest.raises(ConfigError, match=conflict):
        alhambra.new_game(2, modules=[one, two], seed=1)
    with pytest.raises(ConfigError, match="'two' and 'one'"):
        alhambra.new_game(2, modules=[one], plugins=[two], seed=1)  # a module and a house rule
    three = _buy_kind("three", replaces=("one",))
    for order in ([one, three], [three, one]):
        assert alhambra.new_game(2, modules=order, seed=1).rules.kinds[Buy] is three.kind
    with pytest.raises(ConfigError, match="'(three' and 'two|two' and 'three)' each provide"):
        alhambra.new_game(2, modules=[one, two, three], seed=1)  # three replaces one, not two (canonical order)
    with pytest.raises(ConfigError, match="replaces must be a tuple of plugin names"):
        _buy_kind("four", replaces="one")


def test_core_purchase_is_a_builtin_that_needs_a_replacement():
    from alhambra.ruleset import BUILTIN_PLUGINS

    assert BUILTIN_PLUGINS["core.purchase"] == "alhambra.rules.purchase"
    game = alhambra.new_game(2, seed=1)
    assert game.rules.pm.get_plugin("core.purchase") is alhambra.rules.purchase
    assert [k.type_name for k in game.rules.phases["turn"]][-2:] == ["TakeMoney", "Buy"]
    with pytest.raises(ConfigError, match="needs a replacement"):
        alhambra.new_game(2, blocked=["core.purchase"])
    one = _buy_kind("one")
    assert alhambra.new_game(2, modules=[one], blocked=["core.purchase"], seed=1).rules.kinds[Buy] is one.kind


@pytest.mark.parametrize("mods", COMBINATIONS[::5])
def test_market_tax_games_save_and_load_alike(market_tax, mods):
    game = alhambra.new_game(4, modules=[*mods, market_tax], seed=3)
    alhambra.testing.random_playout(game, 3)
    again = alhambra.Game.from_json(game.to_json(), modules=[market_tax])
    assert again.to_json() == game.to_json() and again.rules.space_prices == game.rules.space_prices


# -- review 1 (break-it) findings 11, 12, 16 ---------------------------------------------------


def _price_plugin(name, fn):
    return types.SimpleNamespace(NAME=name, DESCRIPTION="a price rule", RULES=(), alhambra_building_price=hookimpl(fn))


@pytest.mark.parametrize("price", [101, 10**7, 10**9, 10**30])
def test_price_hook_price_above_the_bound_is_a_config_error(price):
    """Finding 11: a price above MAX_PRICE (100) is refused before the price lanes are built
    (no OverflowError, MemoryError or minutes of work)."""
    from alhambra.engine.ruleset import MAX_PRICE

    assert MAX_PRICE == 100
    with pytest.raises(ConfigError, match=r"'huge' made the price of tile .* a price is an int >= 0 and at most 100"):
        alhambra.new_game(2, modules=[_price_plugin("huge", lambda price, p=price: p)], seed=1)
    rules = alhambra.new_game(2, modules=[_price_plugin("top", lambda price: 100)], seed=1).rules
    assert rules.space_prices[3][FIVE] == 100 and rules.price_bits == 101


def test_price_hook_exception_is_a_config_error_naming_plugin_and_tile():
    """Finding 12: an exception inside a price hook becomes a ConfigError naming the plugin,
    the tile and the space."""
    with pytest.raises(
        ConfigError,
        match=r"alhambra_building_price of 'boom' failed for tile 1 on space 1: "
        r"ZeroDivisionError",
    ):
        alhambra.new_game(2, modules=[_price_plugin("boom", lambda price: 1 / 0)], seed=1)


def test_price_hook_is_asked_only_about_market_buildings():
    """Finding 12: the hook's ``tile`` is a building of the market (R-COMP-2), never the
    fountain or a building hut; those keep their printed price 0."""
    asked = []

    def fn(tile, price):
        asked.append(tile)
        return price + 1 if tile > 20 else None

    game = alhambra.new_game(2, modules=["building_huts", _price_plugin("dear", fn)], seed=1)
    assert set(asked) == set(range(1, 55)) and len(asked) == 4 * 54
    table = game.rules.space_prices[0]
    assert table[0] == 0 and all(table[t] == 0 for t in table if isinstance(t, str))
    assert table[21] == BASE_CATALOG[21].price + 1 and table[20] == BASE_CATALOG[20].price


def test_action_kind_replacing_itself_is_a_config_error():
    """Finding 16: a plugin cannot replace itself (before, the other plugin silently won)."""
    a, b = _buy_kind("a", replaces=("a",)), _buy_kind("b")
    for mods in ([a, b], [a]):
        with pytest.raises(ConfigError, match=r"plugin 'a' declares that its action kind Buy replaces itself"):
            alhambra.new_game(2, modules=mods, seed=1)


def test_action_kinds_replacing_each_other_say_so():
    """Finding 16: a <-> b: the message says each declares it replaces the other."""
    a, b = _buy_kind("a", replaces=("b",)), _buy_kind("b", replaces=("a",))
    with pytest.raises(
        ConfigError,
        match=r"plugins 'b' and 'a' each declare that their action kind Buy "
        r"replaces the other's",
    ):
        alhambra.new_game(2, modules=[a, b], seed=1)


@pytest.mark.parametrize("bad", [None, 5, ["a", 1], b"a"])
def test_action_kind_replaces_must_be_names(bad):
    """Finding 16: replaces=None or 5 is a ConfigError, not a TypeError of the converter."""
    with pytest.raises(ConfigError, match="ActionKind.replaces must be a tuple of plugin names"):
        _buy_kind("four", replaces=bad)
