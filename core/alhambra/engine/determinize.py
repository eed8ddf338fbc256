"""Determinization: a copy of a game in which everything one seat cannot see is resampled
(for search bots: determinized Monte Carlo search)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from .components import ScoringCard
from .lineage import Determinized
from .piles import resample_in_piles
from .protocol import check_seat

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import G


def _is_scoring_card(card: Any) -> bool:
    return type(card) is ScoringCard


def determinize(game: G, seat: int, rng: random.Random | None = None, *, recall: bool = True) -> G:
    """A clone in which everything ``seat`` cannot know is resampled with ``rng``.

    With ``recall=True`` (the default: a player who remembers the whole game, as search bots
    and OpenSpiel's information states do) what is resampled is what no player has seen, not
    merely what the view hides:

    * Every hand is kept. A hand is secret at the table (R-SET-3: others see only how many
      cards a player holds), but every card in it arrived openly: the starting money is dealt
      face up (R-SET-3), money is taken from the display (R-TURN-2), offices are taken from the
      display (R-EXC-3), and payments go face up to the discard (R-TURN-3, R-EXC-5). A player
      who remembers the game knows every hand, so no world may give a player a card everyone
      saw it pay or not receive it (``docs/rulings.md``, R-SET-3).
    * The deck's money cards are shuffled among the deck's money positions.
    * Scoring cards still in the deck are placed anew, each uniformly within the undrawn
      part of its setup pile (A in pile 2, B in pile 4, R-SET-6; see :func:`~alhambra.engine.piles.pile_range`):
      which pile holds them is all a player knows, not where in it.
    * The bag is shuffled.
    * Plugins resample their own secrets (``alhambra_determinize``), module cards in the
      deck included (exchange offices within piles 2-4, R-EXC-1), through
      :func:`~alhambra.engine.piles.resample_in_piles`; the bonus cards dealt secretly
      (R-BON-2) are the only hidden part of a hand.
    * The clone's own generator is reseeded from ``rng``.

    With ``recall=False`` (a player who sees only the table now, ``view(seat)``) the other
    players' money cards are redealt as well, keeping each hand's size, from those hands and
    the deck's money positions (exchange offices in a hand are public, R-EXC-3, and stay): every world the view cannot tell apart from this one is
    possible (tests use it to show a page or an observation leaks no hidden card).

    ``seat``'s view (``game.view``) is unchanged. Used by search bots to sample the hidden
    information (determinized Monte Carlo search). Raises :class:`ConfigError` if ``seat``
    is not a seat of this game, or if ``recall`` is not a ``bool`` (``recall="no"`` would
    otherwise mean ``True``) or ``rng`` not a :class:`random.Random`."""
    check_seat(game, seat)
    if type(recall) is not bool:
        raise ConfigError(f"recall must be True or False, not {recall!r}")
    if rng is not None and not isinstance(rng, random.Random):
        raise ConfigError(f"rng must be a random.Random, not {rng!r}")
    rng = rng if rng is not None else random.Random()
    drawn_from = rng.getstate()  # how to make this world again (alhambra.engine.lineage)
    g = game.clone(seed=rng.getrandbits(64))
    st = g.state
    slots = [k for k, c in enumerate(st.deck) if c.is_money]  # money of every kind (diamonds, R-DIA-2)
    pool = [st.deck[k] for k in slots]
    held: list[tuple[list[Any], int]] = []  # (hand, index) of every card redealt (recall=False)
    if not recall:
        for i in range(g.num_players):
            if i != seat:
                hand = st.players[i].hand
                held.extend((hand, k) for k, c in enumerate(hand) if c.is_money)
        pool.extend(hand[k] for hand, k in held)
    rng.shuffle(pool)
    for hand, k in held:
        hand[k] = pool.pop()
    for k, c in zip(slots, pool):
        st.deck[k] = c
    rng.shuffle(st.bag)
    g._settled = set()
    try:
        resample_in_piles(g, _is_scoring_card, rng)
        g.rules.hook.alhambra_determinize(game=g, seat=seat, rng=rng)
    finally:
        g._settled = None
    g._invalidate()
    g._base = Determinized(game._base, len(game.history), seat, drawn_from, recall)
    return g
