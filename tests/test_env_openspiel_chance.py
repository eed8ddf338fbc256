"""Explicit chance in the OpenSpiel game (no search may see future draws): every
draw from the bag (R-SET-1), the money deck (R-SET-6, R-EXC-1) and the building huts'
stacks (R-HUT-1) is a chance node with the distribution ``Game.determinize`` samples from."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import alhambra
import numpy as np
import pytest
from alhambra import ScoringCard, operations
from alhambra.bots import make_bot

pyspiel = pytest.importorskip("pyspiel")
import alhambra.env.openspiel  # noqa: E402,F401  (registers python_alhambra)
from alhambra.env import Session  # noqa: E402
from alhambra.env.openspiel import ScoreEvaluator  # noqa: E402

ALL = "vizier,building_huts,bonus_cards,exchange_offices"
CHANCE = pyspiel.PlayerId.CHANCE


def _sample(state, rng: random.Random) -> int:
    ids, probs = zip(*state.chance_outcomes())
    return rng.choices(ids, probs)[0]


def _play_until(state, rng: random.Random, stop) -> None:
    """Random moves and chance outcomes until ``stop(state)`` holds at a player node."""
    while not state.is_terminal() and (state.is_chance_node() or not stop(state)):
        state.apply_action(_sample(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))


def _greedy_move(state, greedy) -> None:
    g = state.session.game
    seat = state.current_player()
    for i in state.session.encode(greedy.choose(g, seat, g.legal_actions())):
        state.apply_action(i)


def _buy(state) -> tuple[alhambra.Buy, tuple[int, ...]]:
    buy = next(a for a in state.session.game.legal_actions() if isinstance(a, alhambra.Buy))
    return buy, state.session.encode(buy)


def _finish_turn(state) -> None:
    """Place the bought building (first legal placement) until the turn's draws begin."""
    while not state.is_chance_node() and state.session.game.phase == "place":
        state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize(
    "players,modules",
    [
        (2, ""),
        (2, ALL),
        (3, ALL),
        (4, ""),
        (5, ALL),
        (6, ""),
        (6, "vizier,bonus_cards"),
        (2, "six"),
        (4, "six"),
        (6, "six"),
    ],
)
def test_random_simulation_test_passes_with_explicit_chance(players, modules):
    if modules == "six":
        modules = ALL + ",city_gates,diamonds"
    game = pyspiel.load_game("python_alhambra", {"players": players, "modules": modules})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_max_chance_outcomes_per_rule_set():
    """Every catalogue tile, then every distinct card: 55 tiles (54 buildings and the
    fountain) and 38 cards (36 money values, scoring cards A and B); all modules add 24 huts
    and 6 exchange offices."""
    assert pyspiel.load_game("python_alhambra", {"players": 4}).max_chance_outcomes() == 55 + 38
    assert (
        pyspiel.load_game("python_alhambra", {"players": 2, "modules": ALL}).max_chance_outcomes() == 55 + 24 + 38 + 6
    )


def test_two_clones_given_the_same_move_reach_chance_nodes_and_draw_different_items():
    """The issue's test: the clones are exact, but what the market space is refilled with is
    a chance outcome, sampled independently per clone (R-SET-1, R-TURN-8)."""
    game = pyspiel.load_game("python_alhambra", {"players": 3, "seed": 4})
    state = game.new_initial_state()
    buy, code = _buy(state)
    drawn = set()
    rng = random.Random(1)
    for _ in range(6):
        c = state.clone()
        assert str(c) == str(state)
        for i in code:
            c.apply_action(i)
        _finish_turn(c)
        assert c.is_chance_node() and c.current_player() == CHANCE
        outcomes = c.chance_outcomes()
        assert len(outcomes) == len(state.session.game.state.bag)  # each building left in the bag
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        c.apply_action(_sample(c, rng))
        _play_until(c, rng, lambda s: True)
        drawn.add(c.session.game.state.market[buy.space - 1])
    assert len(drawn) > 1
    # the engine's own hidden order decides nothing: its next building is one outcome among many
    assert state.session.game.state.bag[-1] in {state.get_game().chance_table.items[i] for i, _ in outcomes}


def test_the_outcome_chosen_is_the_building_in_the_market_space_R_TURN_8():
    game = pyspiel.load_game("python_alhambra", {"players": 4, "seed": 2})
    state = game.new_initial_state()
    table = game.chance_table
    buy, code = _buy(state)
    for i in code:
        state.apply_action(i)
    _finish_turn(state)
    assert "bag draws: " in state.action_to_string(CHANCE, state.chance_outcomes()[0][0])
    engine_next = state.session.game.state.bag[-1]
    pick = next(i for i, _ in state.chance_outcomes() if table.items[i] != engine_next)
    bag = list(state.session.game.state.bag)
    state.apply_action(pick)
    assert not state.is_chance_node()  # one space to refill: the action is played
    g = state.session.game
    assert g.state.market[buy.space - 1] == table.items[pick]
    assert sorted(g.state.bag) == sorted(t for t in bag if t != table.items[pick])


def test_the_outcome_chosen_is_the_card_in_the_money_display_R_TURN_8():
    state, seat, take = _deck_draw_state(4, "", 3, pile=1)
    table = state.get_game().chance_table
    for i in state.session.encode(take):
        state.apply_action(i)
    assert state.is_chance_node() and "deck draws: " in state.action_to_string(CHANCE, state.chance_outcomes()[0][0])
    engine_next = state.session.game.state.deck[-1]
    pick = next(i for i, _ in state.chance_outcomes() if table.items[i] != engine_next)
    before = Counter(state.session.game.state.display)
    state.apply_action(pick)
    assert not state.is_chance_node()
    after = Counter(state.session.game.state.display)
    assert after - (before - Counter(take.cards)) == Counter([table.items[pick]])


def _deck_draw_state(players: int, modules: str, seed: int, pile: int):
    """A state at a player node whose next action (taking a card of the money display) will
    draw from the top of the deck, which lies in setup pile ``pile``."""
    game = pyspiel.load_game("python_alhambra", {"players": players, "modules": modules, "seed": seed})
    state = game.new_initial_state()
    rng = random.Random(seed)

    def reached(s) -> bool:
        g = s.session.game
        take = [a for a in g.legal_actions() if isinstance(a, alhambra.TakeMoney)]
        return bool(take) and g.state.deck and operations.pile_of(g, len(g.state.deck) - 1) == pile

    _play_until(state, rng, reached)
    g = state.session.game
    seat = g.current_player
    take = next(a for a in g.legal_actions() if isinstance(a, alhambra.TakeMoney) and len(a.cards) == 1)
    return state, seat, take


def test_deck_chance_matches_the_determinize_frequency_of_the_next_card_R_SET_6_R_EXC_1():
    """Chi-square: the chance distribution of the next deck card against its frequency on
    top of the deck over many ``Game.determinize`` samples (pile 2: scoring card A and two
    exchange offices lie uniformly within its undrawn part, money is exchangeable)."""
    from scipy.stats import chisquare

    state, seat, take = _deck_draw_state(3, "exchange_offices", 5, pile=2)
    table = state.get_game().chance_table
    g = state.session.game
    for i in state.session.encode(take):
        state.apply_action(i)
    assert state.is_chance_node() and state._h.chance[0] == "deck"
    probs = {table.items[i]: p for i, p in state.chance_outcomes()}
    assert sum(probs.values()) == pytest.approx(1.0)
    r = operations.pile_range(g, len(g.state.deck) - 1)
    assert probs[ScoringCard("A")] == pytest.approx(1 / len(r))  # R-SET-6: A is somewhere in pile 2
    offices = [c for c in probs if type(c).__name__ == "ExchangeOffice"]
    assert offices and sum(probs[c] for c in offices) == pytest.approx(2 / len(r))  # R-EXC-1: two in pile 2
    rng = random.Random(9)
    n = 4000
    seen = Counter(g.determinize(seat, rng).state.deck[-1] for _ in range(n))
    cards = sorted(probs, key=lambda c: c.code)
    assert set(seen) <= set(cards)
    observed = np.array([seen[c] for c in cards], dtype=float)
    expected = np.array([probs[c] * n for c in cards])
    assert chisquare(observed, expected).pvalue > 1e-3


def test_bag_chance_matches_the_determinize_frequency_of_the_next_building_R_SET_1():
    from scipy.stats import chisquare

    game = pyspiel.load_game("python_alhambra", {"players": 2, "seed": 6})
    state = game.new_initial_state()
    g = state.session.game
    seat = g.current_player
    buy, code = _buy(state)
    for i in code:
        state.apply_action(i)
    _finish_turn(state)
    assert state._h.chance[0] == "bag"
    table = game.chance_table
    probs = {table.items[i]: p for i, p in state.chance_outcomes()}
    assert set(probs) == set(g.state.bag) and all(p == pytest.approx(1 / len(g.state.bag)) for p in probs.values())
    rng = random.Random(4)
    n = 3000
    seen = Counter(g.determinize(seat, rng).state.bag[-1] for _ in range(n))
    tiles = sorted(probs)
    assert chisquare([seen[t] for t in tiles], [probs[t] * n for t in tiles]).pvalue > 1e-3


def test_a_scoring_card_drawn_is_followed_by_another_draw_R_SCORE_1():
    """The number of draws depends on what is drawn: with scoring card A chosen, the display
    still lacks a card and the next chance node is another deck draw."""
    for seed in range(20):
        state, seat, take = _deck_draw_state(3, "", seed, pile=2)
        for i in state.session.encode(take):
            state.apply_action(i)
        table = state.get_game().chance_table
        a = next((i for i, _ in state.chance_outcomes() if table.items[i] == ScoringCard("A")), None)
        if a is None:
            continue
        state.apply_action(a)
        assert state.is_chance_node() and state._h.chance[0] == "deck"
        assert all(table.items[i] != ScoringCard("A") for i, _ in state.chance_outcomes())
        state.apply_action(state.chance_outcomes()[0][0])
        g = state.session.game
        assert ScoringCard("A") in g.state.scoring_cards and len(g.state.display) == 4
        assert len(g.state.scorings) == 1  # R-SCORE-1: scored at the end of the turn
        return
    pytest.fail("no state had scoring card A among the outcomes")


def test_taking_a_hut_turns_up_a_chance_outcome_of_its_stack_R_HUT_2():
    game = pyspiel.load_game("python_alhambra", {"players": 3, "modules": "building_huts", "seed": 3})
    state = game.new_initial_state()
    g = state.session.game
    take = next(a for a in g.legal_actions() if type(a).__name__ == "TakeHut")
    colour = g.rules.catalog[take.hut].type
    stack = list(g.state.modules["building_huts"].stacks[colour])
    for i in state.session.encode(take):
        state.apply_action(i)
    assert state.is_chance_node() and state._h.chance[0] == f"building huts: {colour} stack"
    table = game.chance_table
    probs = {table.items[i]: p for i, p in state.chance_outcomes()}
    assert set(probs) == set(stack[:-1]) and sum(probs.values()) == pytest.approx(1.0)
    pick = min(probs)
    assert "turns up" in state.action_to_string(CHANCE, table.id_of(pick))
    state.apply_action(table.id_of(pick))
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(_sample(state, rng))
    assert state.session.game.state.modules["building_huts"].stacks[colour][-1] == pick


def test_chance_nodes_serialise_and_refuse_an_outcome_not_listed():
    game = pyspiel.load_game("python_alhambra", {"players": 3, "seed": 4})
    state = game.new_initial_state()
    _, code = _buy(state)
    for i in code:
        state.apply_action(i)
    _finish_turn(state)
    assert state.is_chance_node()
    again = game.deserialize_state(state.serialize())
    assert again.is_chance_node() and again.chance_outcomes() == state.chance_outcomes() and str(again) == str(state)
    listed = {i for i, _ in state.chance_outcomes()}
    bad = next(i for i in range(game.max_chance_outcomes()) if i not in listed)
    before = str(state)
    with pytest.raises(Exception, match="not an outcome"):
        state.apply_action(bad)
    assert str(state) == before


def test_resample_from_infostate_keeps_the_observation_and_the_chance_node():
    game = pyspiel.load_game("python_alhambra", {"players": 3, "modules": ALL, "seed": 8})
    state = game.new_initial_state()
    seat = state.current_player()
    _, code = _buy(state)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(4):
        r = state.resample_from_infostate(seat, sampler)
        assert r.information_state_string(seat) == state.information_state_string(seat)
    for i in code:
        state.apply_action(i)
    _finish_turn(state)
    r = state.resample_from_infostate(seat, sampler)
    assert r.is_chance_node() and r.observation_string(seat) == state.observation_string(seat)


def test_plain_mcts_bot_plays_a_game_against_greedy():
    """OpenSpiel's MCTS only clones: with explicit chance it samples every draw."""
    from open_spiel.python.algorithms.mcts import MCTSBot

    game = pyspiel.load_game("python_alhambra", {"players": 2, "modules": "vizier", "seed": 12})
    bot = MCTSBot(game, 2.0, 3, ScoreEvaluator(), random_state=np.random.RandomState(2))
    greedy = make_bot("greedy", seed=2)
    state = game.new_initial_state()
    rng = random.Random(7)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample(state, rng))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            _greedy_move(state, greedy)
    assert state.session.game.is_over and sum(state.returns()) == pytest.approx(1.0)
    assert searched > 50


MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]
COMBOS = [",".join(c) for r in range(5) for c in itertools.combinations(MODULES, r)]


@pytest.mark.parametrize("k", range(len(COMBOS)))
def test_drawn_items_are_swapped_in_without_breaking_the_setup_piles_R_SET_6_R_EXC_1(k):
    """Random games of every module combination (2-6 players): every chance node's
    probabilities are positive and sum to 1, and the game stays a valid save (every scoring
    card and exchange office within its setup pile, every component once) however the
    outcomes were moved into place."""
    players = 2 + k % 5
    game = pyspiel.load_game("python_alhambra", {"players": players, "modules": COMBOS[k], "seed": k})
    rng = random.Random(k)
    state = game.new_initial_state()
    nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0) and all(p > 0 for _, p in outcomes)
            state.apply_action(_sample(state, rng))
            nodes += 1
            if nodes % 25 == 0 and not state.is_chance_node():
                # validates the piles (SaveFormatError); the chance player chose the draws, not the
                # seed, so the history does not replay from the seed: the state alone is checked
                alhambra.Game.from_json(state.session.game.to_json(), check_history=False)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    g = state.session.game
    assert g.is_over and nodes > 50
    alhambra.Game.from_json(g.to_json(), check_history=False)


class _OmenState:
    """A house rule's face-down stack of omen tokens and the omens drawn so far."""

    __slots__ = ("drawn", "stack")

    def __init__(self, stack: list[str], drawn: list[str]) -> None:
        self.stack, self.drawn = stack, drawn

    def clone(self) -> _OmenState:
        return _OmenState(list(self.stack), list(self.drawn))


class Omens:
    """A third-party house rule with its own hidden pile: at the start of every turn an omen
    is drawn from a face-down stack (declared with ``alhambra_hidden_piles``)."""

    NAME = "omens"

    @alhambra.hookimpl
    def alhambra_state_classes(self) -> dict[str, type]:
        return {"omens": _OmenState}

    @alhambra.hookimpl
    def alhambra_setup(self, game) -> None:
        stack = ["storm", "sun", "sun", "moon"]
        alhambra.operations.rng(game).shuffle(stack)
        game.state.modules["omens"] = _OmenState(stack, [])

    @alhambra.hookimpl
    def alhambra_turn_start(self, game, seat) -> None:
        st = game.state.modules["omens"]
        if st.stack:
            st.drawn.append(st.stack.pop())

    @alhambra.hookimpl
    def alhambra_hidden_piles(self, game) -> list:
        def put(g, items) -> None:
            g.state.modules["omens"].stack = items

        return [alhambra.HiddenPile("omens", lambda g: g.state.modules["omens"].stack, put)]


def test_a_third_party_hidden_pile_takes_part_through_the_hook():
    from alhambra.env import chance

    g = alhambra.new_game(3, modules=[Omens()], seed=1)
    take = next(a for a in g.legal_actions() if isinstance(a, alhambra.TakeMoney))
    stack = list(g.state.modules["omens"].stack)
    first = list(g.state.modules["omens"].drawn)
    found = chance.next_draw(g, take, [])
    # the first draw of the action: the turn's end refills the display from the deck
    script = []
    while isinstance(found, chance.Chance) and found.source != "omens":
        script = found.script + [(found.source, found.outcomes[0][0])]
        found = chance.next_draw(g, take, script)
    assert isinstance(found, chance.Chance) and found.source == "omens"
    assert len(stack) == 3  # one omen drawn at the first turn's start (the deal, not chance)
    assert dict(found.outcomes) == pytest.approx({x: c / 3 for x, c in Counter(stack).items()})
    assert g.state.modules["omens"].stack == stack  # the game itself is untouched
    want = next(x for x in stack if x != stack[-1])
    script = found.script + [("omens", want)]
    done = chance.next_draw(g, take, script)
    assert isinstance(done, alhambra.Game) and done.history[-1] == take  # the clone that played it
    assert g.state.modules["omens"].stack == stack
    chance.play_scripted(g, lambda: g.apply(take), script)  # the same on the game itself
    for part in ("bag", "market", "deck", "display", "discard"):
        assert getattr(g.state, part) == getattr(done.state, part)
    mine, theirs = g.state.modules["omens"], done.state.modules["omens"]
    assert (mine.stack, mine.drawn) == (theirs.stack, theirs.drawn)
    assert g.state.modules["omens"].drawn == first + [want]
    assert sorted(g.state.modules["omens"].stack + [want]) == sorted(stack)
    assert type(g.state.modules["omens"].stack) is list and type(g.state.deck) is list


@pytest.mark.parametrize("players,modules,seed", [(3, "", 4), (2, ALL, 11), (5, "building_huts", 6)])
def test_a_chance_node_shows_the_waiting_action_to_every_seat_R_TURN_8(players, modules, seed):
    """The end of a turn refills the market and the money display (R-TURN-8): at the chance
    node, the game is still the one before the action, so the action (played openly) is in
    every seat's ``decision`` slice and string; it is gone again once the draws are chosen."""
    game = pyspiel.load_game("python_alhambra", {"players": players, "modules": modules, "seed": seed})
    state = game.new_initial_state()
    rng = random.Random(seed)
    s = state.session
    sl = s.encoder.slices["decision"]
    seats = range(players)
    while True:
        if state.is_chance_node():
            state.apply_action(_sample(state, rng))
            continue
        before = {p: np.array(state.observation_tensor(p)) for p in seats}
        prefix = state.session.prefix
        i = rng.choice(state.legal_actions())
        state.apply_action(i)
        if state.is_chance_node():
            break
    code = (*prefix, i)
    expected = np.bincount(np.array(code), minlength=s.num_actions).astype(np.float32)
    named = "waiting for its draws: " + " ".join(s.codec.describe(j) for j in code)
    for p in seats:
        now = np.array(state.observation_tensor(p), dtype=np.float32)
        assert np.array_equal(now[sl], expected)
        assert not np.array_equal(now, before[p])
        assert named in state.observation_string(p)
        assert named in state.information_state_string(p)
    while state.is_chance_node():
        state.apply_action(_sample(state, rng))
    for p in seats:
        assert not np.any(np.array(state.observation_tensor(p))[sl])
        assert "waiting for its draws" not in state.observation_string(p)


def test_a_run_of_chance_nodes_counts_what_was_drawn_so_far_R_SCORE_1_R_TWO_3():
    """One action can draw several times (a scoring card drawn into the display is followed by
    another draw, R-SCORE-1; Dirk takes buildings after scorings, R-TWO-3; the market and the
    display refill, R-TURN-8): the items drawn so far are public and counted in ``drawn``, so
    two chance nodes of one action that differ in an earlier draw are observed apart."""
    game = pyspiel.load_game("python_alhambra", {"players": 2, "modules": ALL, "seed": 11})
    size = Session(2, ALL).observation_size
    rng = random.Random(11)
    state = game.new_initial_state()
    found = 0
    while not state.is_terminal() and found < 3:
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        for p in range(2):
            assert not np.array(state.observation_tensor(p))[size:].any() or state._h.script
        outcomes = [i for i, _ in state.chance_outcomes()]
        firsts = []
        for i in outcomes[:2]:
            c = state.clone()
            c.apply_action(i)
            if c.is_chance_node():
                firsts.append((i, c))
        if len(firsts) == 2:
            (i, a), (j, b) = firsts
            base = np.array(state.observation_tensor(0))
            for p in range(2):
                ta, tb = np.array(a.observation_tensor(p)), np.array(b.observation_tensor(p))
                drawn_a = ta[size:] - base[size:]
                assert drawn_a[i] == 1 and drawn_a.sum() >= 1
                assert not np.array_equal(ta, tb) and not np.array_equal(ta, base)
                assert np.array_equal(np.array(a.information_state_tensor(p))[: len(ta)], ta)
                assert "drawn: " in a.observation_string(p)
            found += 1
        state.apply_action(rng.choice(outcomes))
    assert found == 3
    while not state.is_terminal():  # the count is gone once the action is played
        if not state.is_chance_node():
            for p in range(2):
                assert not np.array(state.observation_tensor(p))[size:].any()
            break
        state.apply_action(rng.choice([i for i, _ in state.chance_outcomes()]))


def test_the_observer_refuses_other_observation_types_and_seats_that_are_not_one():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_alhambra", {"players": 3, "seed": 2})
    state = game.new_initial_state()
    public_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(alhambra.ConfigError, match="own private information only"):
        make_observation(game, public_only)
    obs = make_observation(game)
    obs.set_from(state, np.int64(1))
    assert np.array_equal(obs.tensor, np.array(state.observation_tensor(1), dtype=np.float32))
    for bad in (1.7, "1", -1, 3, None):
        with pytest.raises(alhambra.ConfigError):
            obs.set_from(state, bad)
        with pytest.raises(alhambra.ConfigError):
            obs.string_from(state, bad)
