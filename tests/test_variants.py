"""The gallery of house rules in examples/variants/: each changes one base rule in at most 20
lines of typed code (docstrings and comments aside), imports only the public API, and plays:
seeded games with and without the four modules, and its exact effect in hand-built
situations (R-SCORE-5, R-TURN-2, R-TWO-4, R-PLACE-3, R-PLACE-5, R-TURN-6, R-TURN-4, R-TURN-3,
R-COMP-2, R-VIZ-2)."""

from __future__ import annotations

import ast
import importlib.util
import io
import tokenize
from pathlib import Path

import random

import pytest

import alhambra
from alhambra import EAST, NORTH, WEST, Buy, IllegalActionError, TakeMoney, operations
from alhambra.bots import GreedyBot
from alhambra.simulate import play
from helpers import MODULES, M, deck_arranged_by_hand, situation

VARIANTS = Path(__file__).resolve().parents[1] / "examples" / "variants"
NAMES = sorted(p.stem for p in VARIANTS.glob("*.py") if p.stem != "__init__")


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"variant_{name}", VARIANTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def code_lines(path: Path) -> int:
    """Lines holding code: not blank, not a comment, not a docstring."""
    src = path.read_text()
    doc: set[int] = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant):
                doc.update(range(first.lineno, first.end_lineno + 1))
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type not in skip:
            lines.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in doc)
    return len(lines)


def test_eleven_variants_each_short_and_public():
    assert NAMES == [
        "any_currency", "clear_display", "first_to_points", "hand_limit", "loose_walls",
        "market_tax", "no_dirk", "no_exact_bonus", "open_side", "wall_points", "wild_card",
    ]  # fmt: skip
    for name in NAMES:
        path = VARIANTS / f"{name}.py"
        assert code_lines(path) <= 20, name
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("alhambra"):
                assert node.module == "alhambra", (name, node.module)  # the public API only


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("mods", [(), MODULES])
def test_variant_plays_seeded_games_that_save_and_load(name, mods):
    variant = load(name)
    for players, seed in ((2, 3), (4, 5)):
        game = alhambra.new_game(players, modules=[*mods, variant], seed=seed)
        alhambra.testing.random_playout(game, seed)
        assert game.is_over
        again = alhambra.Game.from_json(game.to_json(), modules=[variant])
        assert again.to_json() == game.to_json()


def _by_walls(mask: int) -> int:
    walls = alhambra.Alhambra().catalog.walls
    return next(t for t in range(1, 55) if walls[t] == mask)


# -- 1. walls score 2 per segment (R-SCORE-5) ----------------------------------------------


def test_wall_points_r_score_5_each_segment_scores_two():
    records = []
    for plugins in ([], [load("wall_points")]):
        game = situation(3, cities={0: {(1, 0): _by_walls(NORTH | EAST)}}, modules=plugins)
        assert game.state.players[0].city.longest_outer_wall() == 2
        operations.run_scoring(game, 1)
        records.append(game.state.scorings[-1])
    base, doubled = records
    assert doubled.walls[0] == 2 and doubled.extra["walls x2"] == [2, 0, 0]
    assert doubled.totals == [base.totals[0] + 2, *base.totals[1:]]


# -- 2. at most N money cards in hand (R-TURN-2) ---------------------------------------------


def test_hand_limit_r_turn_2_over_limit_takes_not_listed_and_refused():
    hand = [M(c) for c in ("florin-1", "florin-2", "dinar-3", "dinar-4", "ducat-5", "ducat-6", "dirham-7", "dirham-8")]
    display = [M("florin-1"), M("dinar-2"), M("ducat-1"), M("dirham-9")]
    game = situation(3, hands={0: hand}, display=display, modules=[load("hand_limit")], options={"hand_limit.cards": 9})
    takes = [a for a in game.legal_actions() if isinstance(a, TakeMoney)]
    assert takes and all(len(a.cards) == 1 for a in takes)
    assert len(takes) == 4
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="hand limit: holding 8 money cards"):
        game.apply(TakeMoney((M("florin-1"), M("ducat-1"))))
    assert game.to_json() == before
    base = situation(3, hands={0: hand}, display=display)
    assert TakeMoney((M("florin-1"), M("ducat-1"))) in base.legal_actions()


def test_hand_limit_r_turn_2_full_hand_that_can_buy_nothing_may_still_take():
    hand = [M(c) for c in ("florin-1", "florin-2", "dinar-1", "dinar-2", "ducat-1", "ducat-2")]
    display = [M("florin-1"), M("dinar-2"), M("ducat-1"), M("dirham-9")]
    market = [50, 51, 52, 54]  # prices 11, 11, 11, 13: this hand (at most 3 of a currency) pays none
    game = situation(
        3,
        hands={0: hand},
        display=display,
        market=market,
        modules=[load("hand_limit")],
        options={"hand_limit.cards": 6},
    )
    assert game.rules.purchase.purchases(game, 0) == []
    takes = [a for a in game.legal_actions() if isinstance(a, TakeMoney)]
    assert TakeMoney((M("dirham-9"),)) in takes


def test_hand_limit_r_turn_2_small_limit_games_end():
    for seed in range(4):
        game = alhambra.new_game(3, modules=[load("hand_limit")], options={"hand_limit.cards": 5}, seed=seed)
        rng = random.Random(seed)
        for _ in range(20_000):
            if game.is_over:
                break
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        assert game.is_over, seed


# -- 3. Dirk never scores (R-TWO-4) ----------------------------------------------------------


def test_no_dirk_r_two_4_dirk_never_scores():
    for plugins, scores in (([], True), ([load("no_dirk")], False)):
        game = alhambra.new_game(2, modules=plugins, seed=2)
        game.state.modules["dirk"].tiles.extend(game.state.bag[:12])  # Dirk holds 12 buildings
        del game.state.bag[:12]
        operations.run_scoring(game, 1)
        record = game.state.scorings[-1]
        assert record.participants == [0, 1, 2]
        assert (record.totals[2] > 0) is scores


# -- 4. walls need not match (R-PLACE-3 off; R-PLACE-5, R-PLACE-6 hold) ------------------------


def test_loose_walls_r_place_3_off_r_place_5_holds():
    """A plain tile (no walls) north of a north-walled tile, touching an open tile too: base
    R-PLACE-3 refuses it; without R-PLACE-3 it stands. Across the wall alone it could not be
    reached (R-PLACE-5)."""
    walls = alhambra.Alhambra().catalog.walls
    walled_north = _by_walls(NORTH)
    plain, other_plain = [t for t in range(1, 55) if walls[t] == 0][:2]
    city = {(1, 0): walled_north, (0, -1): plain}
    for plugins, ok in (([], False), ([load("loose_walls")], True)):
        game = situation(3, cities={0: city}, reserves={0: [other_plain]}, modules=plugins)
        why = game.state.players[0].city.why_not_place(other_plain, (1, -1))
        assert why is None if ok else why.startswith("R-PLACE-3")
        assert (alhambra.BuildFromReserve(other_plain, (1, -1)) in game.legal_actions()) is ok
    loose = situation(3, cities={0: {(1, 0): walled_north}}, modules=[load("loose_walls")])
    assert loose.state.players[0].city.why_not_place(other_plain, (1, -1)).startswith("R-PLACE-5")


# -- 5. one side counts as open for walking (R-PLACE-5, R-TURN-6) ------------------------------


def test_open_side_r_place_5_r_turn_6_a_double_wall_is_walked():
    east, west = _by_walls(EAST), _by_walls(WEST)
    for plugins, ok in (([], False), ([load("open_side")], True)):
        game = situation(
            3,
            cities={0: {(1, 0): east}},
            reserves={0: [west]},
            modules=plugins,
            options={"open_side.side": "2,0,west"} if plugins else {},
        )
        c = game.state.players[0].city
        why = c.why_not_place(west, (2, 0))
        assert (why is None) is ok and (ok or why.startswith("R-PLACE-5"))
        if ok:
            game.apply(alhambra.BuildFromReserve(west, (2, 0)))
            assert c.tile_at((2, 0)) == west or game.state.players[0].city.tile_at((2, 0)) == west
            city = game.state.players[0].city
            assert (1, 0) not in city.removable() and (2, 0) in city.removable()  # R-TURN-6
            assert city.why_not_remove((1, 0)).startswith("R-TURN-6")


# -- 6. an exact payment earns no extra action (R-TURN-4 off) ---------------------------------


def _exact_buy_game(plugins):
    five = next(t for t in range(1, 55) if alhambra.Alhambra().catalog[t].price == 5)
    return situation(3, market=[five, None, None, None], hands={0: [M("florin-2"), M("florin-3")]}, modules=plugins)


def test_no_exact_bonus_r_turn_4_exact_payment_ends_the_turn():
    for plugins, extra in (([], True), ([load("no_exact_bonus")], False)):
        game = _exact_buy_game(plugins)
        game.apply(Buy(1, (M("florin-2"), M("florin-3"))))
        while game.state.phase == "place":
            game.apply(game.legal_actions()[0])
        assert (game.state.turn_player == 0 and game.state.turn == 1) is extra


# -- 7. a wild money card pays any space alone (R-DIA-4-like) ----------------------------------


def test_wild_card_pays_any_market_space_alone():
    dear = next(t for t in range(1, 55) if alhambra.Alhambra().catalog[t].price >= 9)
    for plugins, ok in (([], False), ([load("wild_card")], True)):
        game = situation(3, market=[None, None, None, dear], hands={0: [M("florin-1")]}, modules=plugins)
        buy = Buy(4, (M("florin-1"),))  # space 4 is paid in dirhams, at 9 or more
        assert (buy in game.legal_actions()) is ok
        if ok:
            game.apply(buy)
            assert game.state.pending[0].tile == dear and M("florin-1") in game.state.discard
        else:
            with pytest.raises(IllegalActionError, match="R-TURN-3"):
                game.apply(buy)


# -- 8. the market tax (R-COMP-2) ------------------------------------------------------------


def test_market_tax_r_comp_2_every_price_one_more():
    base, taxed = alhambra.new_game(3, seed=1), alhambra.new_game(3, seed=1, modules=[load("market_tax")])
    assert [taxed.rules.purchase.market_price(taxed, s) for s in range(1, 5)] == [
        base.rules.purchase.market_price(base, s) + 1 for s in range(1, 5)
    ]


# -- 9. the purchase rule replaced: any currency at price + 2 (R-TURN-3) ----------------------


def test_any_currency_r_turn_3_replaced_everywhere():
    five = next(t for t in range(1, 55) if alhambra.Alhambra().catalog[t].price == 5)
    variant = load("any_currency")
    game = situation(
        3,
        market=[five, None, None, None],
        hands={0: [M("dinar-3"), M("ducat-4")], 1: [M("florin-1")], 2: [M("dinar-1")]},
        modules=["vizier", variant],
    )
    buy = Buy(1, (M("dinar-3"), M("ducat-4")))  # 7 = 5 + 2 in two currencies other than florins
    assert game.legal_actions().count(buy) == 1
    assert game.view(0)["market"][0]["price"] == 7 and game.rules.purchase.market_price(game, 1) == 7
    assert (
        game.rules.purchase.can_pay_exactly(game, 0) and game.rules.purchase.first_exact_payer(game, [1, 2, 0]) == 0
    )  # the vizier's round
    with pytest.raises(IllegalActionError, match="any currency"):
        game.apply(Buy(1, (M("dinar-3"),)))
    game.apply(buy)
    assert game.state.phase == "turn" and game.state.turn == 1 and game.state.pending  # exact: an extra action
    # the bots play by it, and so does the environment
    bots = alhambra.new_game(3, modules=[*MODULES, variant], seed=9)
    play(bots, [GreedyBot(i) for i in range(3)], max_actions=5_000)
    assert bots.is_over
    bought = [a for a in bots.history if isinstance(a, Buy)]
    assert any(len({c.currency for c in a.cards}) > 1 for a in bought)
    from alhambra.env.gym_env import AlhambraEnv

    env = AlhambraEnv(3, modules=[variant])
    obs, _ = env.reset(seed=1)
    game = env.session.game
    printed = [None if t is None else game.rules.catalog[t].price for t in game.state.market]
    at = env.session.encoder._start["market_prices"]
    assert [m["price"] for m in game.view()["market"]] == [None if p is None else p + 2 for p in printed]
    assert list(obs["observation"][at : at + 4]) == [0 if p is None else p + 2 for p in printed]


# -- the game ends once a player has N points (R-END-1, hook alhambra_game_ends) -------------


def _scoring_situation(**kw):
    """Seat 0's turn, with a building without walls in its Alhambra and scoring 1 due at the end of
    the turn: seat 0 alone holds one of that type, so it scores its first place (R-SCORE-3)."""
    game = situation(3, cities={0: {(1, 0): _by_walls(0)}}, **kw)
    st = game.state
    card = next(c for c in st.deck if type(c) is alhambra.ScoringCard and c.number == 1)
    st.deck.remove(card)  # drawn during the turn (R-SCORE-1)
    st.scoring_cards.append(card)
    st.pending_scorings.append(1)
    deck_arranged_by_hand(game)
    alhambra.operations.invalidate(game)
    return game


def test_first_to_points_r_end_1_ends_the_game_after_the_turn_that_reaches_the_goal():
    from alhambra.engine import sequence

    variant = load("first_to_points")
    game = _scoring_situation(modules=[variant], options={"first_to_points.points": 1})
    assert alhambra.engine_of(game) == "python"
    base = _scoring_situation()
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    game.apply(take)
    base.apply(take)
    assert [r.number for r in game.state.scorings] == [r.number for r in base.state.scorings] == [1]
    assert game.scores[0] >= 1
    # without the variant the next turn begins; with it, the game ends there as R-END-1 ends it
    assert (base.phase, base.current_player, base.state.turn) == ("turn", 1, game.state.turn + 1)
    st = base.state  # back to the end of seat 0's turn (the next turn's start only set these)
    st.turn, st.turn_player, st.decider = st.turn - 1, 0, 0
    sequence.end_game(base)
    assert base.state == game.state
    assert game.state.distribution == base.state.distribution
    assert (game.phase, game.current_player, game.state.market) == (base.phase, base.current_player, base.state.market)
    rng = random.Random(1)
    while not game.is_over:  # the recipients place (R-END-3), then the final scoring
        action = rng.choice(game.legal_actions())
        game.apply(action)
        base.apply(action)
    assert base.is_over and [r.number for r in game.state.scorings] == [1, 3]
    assert game.scores == base.scores and game.winners == base.winners
    assert set(game.winners) == {s for s in range(3) if game.scores[s] == max(game.scores)}  # R-END-4
    again = alhambra.Game.from_json(game.to_json(), modules=[variant], check_history=False)
    assert again.to_json() == game.to_json()


def test_first_to_points_below_the_goal_play_goes_on():
    game = _scoring_situation(modules=[load("first_to_points")], options={"first_to_points.points": 100})
    game.apply(next(a for a in game.legal_actions() if isinstance(a, TakeMoney)))
    assert (game.phase, game.current_player) == ("turn", 1)


def test_first_to_points_is_played_by_the_python_engine():
    variant = load("first_to_points")
    assert alhambra.engine_of(alhambra.new_game(4, modules=[variant], seed=1)) == "python"
    with pytest.raises(alhambra.ConfigError, match="first_to_points"):
        alhambra.new_game(4, modules=[variant], seed=1, engine="kernel")


def test_first_to_points_games_end_sooner():
    variant = load("first_to_points")
    for seed in range(3):
        short = alhambra.new_game(3, modules=[variant], seed=seed, options={"first_to_points.points": 20})
        alhambra.testing.random_playout(short, seed)
        assert short.is_over and max(short.scores) >= 20
        assert [r.number for r in short.state.scorings][-1] == 3


# -- a new action: clear the money display (R-TURN-1) -----------------------------------------


def test_clear_display_r_turn_1_a_new_action_discards_the_display_and_ends_the_action():
    variant = load("clear_display")
    game = alhambra.new_game(3, modules=[variant], seed=4)
    st = game.state
    display, top, discard = list(st.display), st.deck[-4:], list(st.discard)
    assert all(c.is_money for c in top)  # pile 1 of the deck holds no scoring card (R-SET-6)
    clear = [a for a in game.legal_actions() if str(a) == "clear the money display"]
    assert len(clear) == 1 and type(clear[0]).__name__ == "ClearDisplay"
    seat = game.current_player
    game.apply(clear[0])
    assert st.discard == [*discard, *display]
    assert st.display == top[::-1]  # refilled from the top of the deck at the end of the turn (R-TURN-8)
    assert (game.phase, game.current_player, game.history[-1]) == ("turn", (seat + 1) % 3, clear[0])
    again = alhambra.Game.from_json(game.to_json(), modules=[variant])
    assert again.to_json() == game.to_json()
    base = alhambra.new_game(3, seed=4)
    assert not any(str(a) == "clear the money display" for a in base.legal_actions())
