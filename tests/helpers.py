"""Helpers shared by the test files: hand-built rule situations, random play, saves."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import strategies as hst

import alhambra
from alhambra import IllegalActionError, MoneyCard

MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
COMBINATIONS = [c for k in range(len(MODULES) + 1) for c in itertools.combinations(MODULES, k)]
#: with the second expansion's two modules: all 64 combinations of the six
MODULES6 = (*MODULES, "city_gates", "diamonds")
COMBINATIONS6 = [c for k in range(len(MODULES6) + 1) for c in itertools.combinations(MODULES6, k)]

# hypothesis strategies for a random game: player count, module combination, seed
players_st = hst.integers(min_value=2, max_value=6)
modules_st = hst.sampled_from(COMBINATIONS)
modules6_st = hst.sampled_from(COMBINATIONS6)
seeds_st = hst.integers(min_value=0, max_value=2**32)


def M(code: str) -> MoneyCard:
    """``M("florin-5")`` -> MoneyCard("florin", 5)."""
    cur, val = code.split("-")
    return MoneyCard(cur, int(val))


def cards(*codes: str) -> list[MoneyCard]:
    return [M(c) for c in codes]


def florin(value: int) -> MoneyCard:
    return MoneyCard("florin", value)


def dirham(value: int) -> MoneyCard:
    return MoneyCard("dirham", value)


def dinar(value: int) -> MoneyCard:
    return MoneyCard("dinar", value)


def ducat(value: int) -> MoneyCard:
    return MoneyCard("ducat", value)


def fresh(players: int = 3, seed: int = 1, **kw) -> alhambra.Game:
    """A new game; the start player decides."""
    return alhambra.new_game(players, seed=seed, **kw)


def situation(
    players: int = 3,
    *,
    seed: int = 1,
    seat: int = 0,
    market=None,
    hands=None,
    display=None,
    cities=None,
    reserves=None,
    **kw,
) -> alhambra.Game:
    """A game whose turn player is ``seat`` with the given market, hands, display, Alhambras
    and reserves (anything not given stays as dealt)."""
    g = alhambra.new_game(players, seed=seed, **kw)
    st = g.state
    st.turn_player = st.decider = seat
    if market is not None:
        old = [t for t in st.market if t is not None and t not in market]
        _take_out(g, [t for t in market if t is not None])
        st.market = list(market)
        st.bag[:0] = old  # the replaced market tiles go to the bottom of the bag
    if hands is not None:
        for s, h in hands.items():
            st.players[s].hand = list(h)
    if display is not None:
        st.display = list(display)
    if cities is not None:
        for s, tiles in cities.items():
            _take_out(g, list(tiles.values()))
            st.players[s].city = alhambra.Alhambra.from_tiles(
                tiles, catalog=g.rules.catalog, holes=g.rules.options["holes"], rules=g.rules.placement_rules
            )
    if reserves is not None:
        for s, r in reserves.items():
            _take_out(g, list(r))
            st.players[s].reserve = list(r)
    alhambra.operations.invalidate(g)
    return g


def _take_out(g, tiles) -> None:
    """Remove ``tiles`` from the bag, market and Dirk so a hand-built situation keeps each
    building in one place."""
    st = g.state
    for t in tiles:
        if t in st.bag:
            st.bag.remove(t)
        if t in st.market:
            st.market[st.market.index(t)] = None
        d = st.modules.get("dirk")
        if d is not None and t in d.tiles:
            d.tiles.remove(t)


def take_from(places, item, what: str = "item"):
    """Remove one copy of ``item`` from the first of ``places`` (lists) holding it and return
    it; fail the test if none does."""
    for place in places:
        if item in place:
            place.remove(item)
            return item
    raise AssertionError(f"no {what} {item} to take from the given places")


def deck_arranged_by_hand(game) -> None:
    """The deck no longer follows the setup piles (R-SET-6): drop the pile record (no pile
    information), which keeps the situation loadable from a save."""
    game.state.pile_sizes = []


def empty_the_bag(game, keep: int = 0) -> None:
    """Put the bag out of play but for its ``keep`` bottom tiles: once they are drawn the
    market cannot be refilled and the game ends (R-END-1). Every tile stays accounted for."""
    st = game.state
    st.out_of_play.extend(st.bag[keep:])
    del st.bag[keep:]
    alhambra.operations.invalidate(game)


# ---------------------------------------------------------------------------------------------
# Random play, refusals and saves
# ---------------------------------------------------------------------------------------------


def advance(game, rng: random.Random | int, steps: int, *, until=None) -> None:
    """Play up to ``steps`` uniformly random legal actions; stop early when the game is over
    or ``until(game)`` holds."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    for _ in range(steps):
        if game.is_over or (until is not None and until(game)):
            return
        game.apply(rng.choice(game.legal_actions()))


def assert_refused(game, *actions, match: str | None = None) -> None:
    """Each of ``actions`` raises :class:`IllegalActionError` (its message matching ``match``
    where given) and leaves the game exactly as it was."""
    before = game.to_json()
    for bad in actions:
        with pytest.raises(IllegalActionError, match=match):
            game.apply(bad)
        assert game.to_json() == before, f"{bad} changed the state"


def save_and_load(game, **kw) -> alhambra.Game:
    """Save ``game`` and load it again (``kw`` for ``Game.from_json``); the loaded game saves
    to exactly the same text. The history is not replayed unless ``check_history=True`` is
    passed: the tests save situations set up by hand, which no history from the set-up leads
    to (the check has its own tests, ``test_load_history.py``)."""
    kw.setdefault("check_history", False)
    text = game.to_json()
    loaded = alhambra.Game.from_json(text, **kw)
    assert loaded.to_json() == text
    return loaded


def continue_alike(game, loaded, seed: int) -> None:
    """Play ``game`` and ``loaded`` to the end with the same random choices (one generator
    seeded ``seed`` for each): at every step both offer the same legal actions and make the
    same choice, and at the end they are the same game (history, save, scores, winners)."""
    r1, r2 = random.Random(seed), random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        assert loaded.legal_actions() == legal
        a, b = r1.choice(legal), r2.choice(loaded.legal_actions())
        assert a == b
        game.apply(a)
        loaded.apply(b)
    assert loaded.is_over
    assert loaded.history == game.history
    assert loaded.to_json() == game.to_json()
    assert loaded.scores == game.scores and loaded.winners == game.winners


def saved_state(game: alhambra.Game) -> dict:
    """A game's save without its history and where that starts (``start_position``): what
    must agree after a position round trip."""
    import json

    data = json.loads(game.to_json())
    data.pop("history")
    data.pop("start_position", None)
    return data


def check_position_round_trip(players: int, modules, seed: int, steps: int, form: str) -> None:
    """A random game of ``modules`` after ``steps`` actions, written as a position (``form``:
    ``"data"``, ``"toml"`` or ``"json"``) and read back, equals the game (state and position)
    and goes on exactly like it for 60 more random actions."""
    from alhambra.saving.position import position_to_json, position_to_toml

    g = alhambra.new_game(players, modules=list(modules), seed=seed)
    advance(g, random.Random(seed), steps)
    source = {"data": g.position, "toml": lambda: position_to_toml(g), "json": lambda: position_to_json(g)}[form]()
    h = alhambra.Game.from_position(source)
    assert saved_state(h) == saved_state(g)
    assert h.position() == g.position()
    a, b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(60):
        if g.is_over:
            break
        la, lb = g.legal_actions(), h.legal_actions()
        assert la == lb
        g.apply(a.choice(la))
        h.apply(b.choice(lb))
    assert saved_state(h) == saved_state(g)


def one_error_line(capsys, *words: str) -> str:
    """The command line's error as ``capsys`` caught it: one line starting ``alhambra:
    error:``, no traceback, holding each of ``words``."""
    captured = capsys.readouterr()
    err = captured.err
    assert err.startswith("alhambra: error:") and err.count("\n") == 1, err
    assert "Traceback" not in err + captured.out
    for word in words:
        assert word in err
    return err
