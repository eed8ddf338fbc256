"""Determinization: a copy of a game in which everything one seat cannot see is resampled
(for search bots: determinized Monte Carlo search)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from .components import MoneyCard, ScoringCard
from .piles import resample_in_piles

if TYPE_CHECKING:  # pragma: no cover
    from ..game import Game


def _is_scoring_card(card: Any) -> bool:
    return type(card) is ScoringCard


def determinize(game: Game, seat: int, rng: random.Random | None = None) -> Game:
    """A clone in which everything ``seat`` cannot see is resampled with ``rng``.

    * Other players' hands are redealt (same sizes) from the money cards of those hands
      and of the deck; the deck's money cards fill the deck positions left by the rest.
    * Scoring cards still in the deck are placed anew, each uniformly within the undrawn
      part of its setup pile (A in pile 2, B in pile 4, R-SET-6; see :func:`~alhambra.engine.piles.pile_range`):
      which pile holds them is all a player knows, not where in it.
    * The bag is shuffled.
    * Plugins resample their own secrets (``alhambra_determinize``), module cards in the
      deck included (exchange offices within piles 2-4, R-EXC-1), through
      :func:`~alhambra.engine.piles.resample_in_piles`.
    * The clone's own generator is reseeded from ``rng``.

    ``seat``'s view (``game.view``) is unchanged. Used by search bots to sample the hidden
    information (determinized Monte Carlo search). Raises :class:`ConfigError` if ``seat``
    is not a seat of this game."""
    game._check_seat(seat)
    if rng is not None and not isinstance(rng, random.Random):
        raise ConfigError(f"rng must be a random.Random, not {rng!r}")
    rng = rng if rng is not None else random.Random()
    g = game.clone(seed=rng.getrandbits(64))
    st = g.state
    others = [i for i in range(g.num_players) if i != seat]
    pool: list = []
    for i in others:
        pool.extend(c for c in st.players[i].hand if type(c) is MoneyCard)
    slots = [k for k, c in enumerate(st.deck) if type(c) is MoneyCard]
    pool.extend(st.deck[k] for k in slots)
    rng.shuffle(pool)
    for i in others:
        hand = st.players[i].hand
        for k, c in enumerate(hand):
            if type(c) is MoneyCard:
                hand[k] = pool.pop()
    for k in slots:
        st.deck[k] = pool.pop()
    rng.shuffle(st.bag)
    g._settled = set()
    try:
        resample_in_piles(g, _is_scoring_card, rng)
        g.hook.alhambra_determinize(game=g, seat=seat, rng=rng)
    finally:
        g._settled = None
    g.invalidate()
    return g
