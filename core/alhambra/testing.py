"""Helpers for tests of the engine, of modules and of users' variants.

``random_playout`` plays uniformly random legal actions; ``check_invariants`` asserts what must
hold after every action, for any combination of modules: every tile and card accounted for
exactly once, every Alhambra valid under the placement rules, and a decider on turn.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from .components import BUILDINGS, MoneyCard, money_deck


class InvariantError(AssertionError):
    """An invariant of the game does not hold (a bug in the engine or in a plugin)."""


def expected_money(game) -> Counter:
    """The money cards this game was set up with (R-COMP-3, R-TWO-1), as a multiset."""
    cards = money_deck()
    game.hook.alhambra_money_deck(game=game, cards=cards)
    return Counter(cards)


def check_invariants(game, *, expected_cards: Counter | None = None) -> None:
    """Raise :class:`InvariantError` if the game breaks an invariant:

    * each of the 54 buildings is in exactly one place (bag, market, pending, an Alhambra, a
      reserve, Dirk, out of play, a module's place), and every other tile at most once;
    * every money card of the set-up deck is in exactly one place, and each of the two
      scoring cards at most once (R-COMP-3);
    * every Alhambra satisfies the placement rules as a whole (R-PLACE-2 … R-PLACE-6);
    * the money display holds at most 4 cards (R-SET-5, R-EXC-2);
    * while the game runs, the player to decide is a seat.
    """
    locs = game.tile_locations()
    everything = [t for tiles in locs.values() for t in tiles]
    counts = Counter(everything)
    dup = [t for t, n in counts.items() if n > 1]
    if dup:
        raise InvariantError(f"tiles in two places: {dup} ({_where(locs, dup)})")
    buildings = sorted(t for t in everything if isinstance(t, int))
    if buildings != [b.id for b in BUILDINGS]:
        missing = sorted(set(b.id for b in BUILDINGS) - set(buildings))
        raise InvariantError(f"buildings not accounted for: missing {missing}")
    card_locs = game.card_locations()
    cards = Counter(c for loc in card_locs.values() for c in loc)
    money = Counter({c: n for c, n in cards.items() if type(c) is MoneyCard})
    exp = expected_cards if expected_cards is not None else expected_money(game)
    if money != exp:
        extra, missing = money - exp, exp - money
        raise InvariantError(
            f"money cards not accounted for: extra {_card_counts(extra)}"
            f"{f' (lying in {_card_places(card_locs, extra)})' if extra else ''}, missing {_card_counts(missing)}")
    for c, n in cards.items():
        if type(c) is not MoneyCard and n > 1:
            raise InvariantError(f"card {c.code} in two places")
    for i, p in enumerate(game.state.players):
        why = p.city.why_invalid()
        if why:
            raise InvariantError(f"seat {i}'s Alhambra is invalid: {why}")
    if len(game.state.display) > 4:
        raise InvariantError(f"money display holds {len(game.state.display)} cards")
    if not game.is_over and game.current_player not in range(game.num_players):
        raise InvariantError(f"no player to decide in phase {game.phase!r}")


def _card_counts(counts: Counter) -> str:
    """``{florin-3: 1}``-style: card codes and how many, or ``none``."""
    return "{" + ", ".join(f"{getattr(c, 'code', c)}: {n}" for c, n in counts.items()) + "}" if counts else "none"


def _card_places(locs, cards) -> str:
    return "; ".join(f"{getattr(c, 'code', c)}: {', '.join(k for k, v in locs.items() if c in v)}" for c in cards)


def _where(locs, tiles):
    return {t: [k for k, v in locs.items() if t in v] for t in tiles}


def random_playout(
    game,
    rng: random.Random | int = 0,
    *,
    max_steps: int = 20_000,
    each_step: Callable | None = None,
) -> int:
    """Play uniformly random legal actions until the game ends; return the number of actions.

    ``each_step(game, action)`` is called after every action (e.g. ``check_invariants``).
    Raises :class:`InvariantError` if the game has not ended after ``max_steps`` actions."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    steps = 0
    while not game.is_over:
        if steps >= max_steps:
            raise InvariantError(f"game not over after {max_steps} actions")
        action = rng.choice(game.legal_actions())
        game.apply(action)
        steps += 1
        if each_step is not None:
            each_step(game, action)
    return steps
