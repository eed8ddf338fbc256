"""The engine's operations on a game's state, for plugins (and tools) to call.

These change the state only in the ways the rules allow (R-TURN-3, R-TURN-8, R-SCORE-1 …),
and never move the game to another phase: that is the turn sequence's work
(:mod:`alhambra.engine.sequence`), told by what an action returns. Importable as
``alhambra.operations`` (``from alhambra import operations``)::

    operations.add_pending(game, tile, dirk_ok=True)   # set a bought tile aside (R-TURN-3)
    operations.refill_market(game)                     # False: the bag ran out (R-END-1)
    operations.run_scoring(game, 2)                    # score and add to the scores
    operations.pile_range(game, index)                 # where a deck card may lie (R-SET-6)
    hs = operations.edit_module(game, "building_huts") # a module's state, to change it

Caches are keyed to the state they came from: hands, the market, the display and reserves are
kept as copies and compared, an Alhambra replaces its ``memo`` on every change, and a module's
state has a change counter (``operations.module_changes(game, key)``) that :func:`edit_module` bumps. So a plugin
that changes any state through these (its own module's or another's) never needs
``operations.invalidate(game)``.

Module-level functions taking the game, so a call costs no bound-method creation.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .components import Card, ScoringCard
from .piles import (
    DeckCards,
    HiddenPile,
    hidden_piles,
    pile_of,
    pile_range,
    redeal_hands,
    resample_in_piles,
    shuffle_into,
)
from .protocol import check_seat as check_seat
from .state import Pending

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Sequence

    from .protocol import GameLike

__all__ = [
    "add_pending",
    "waiting_tiles",
    "check_seat",
    "invalidate",
    "memo",
    "rng",
    "city_changed",
    "edit_module",
    "module_changes",
    "refill_market",
    "draw_money",
    "refill_display",
    "run_scoring",
    "DeckCards",
    "HiddenPile",
    "hidden_piles",
    "pile_of",
    "pile_range",
    "redeal_hands",
    "resample_in_piles",
    "shuffle_into",
    "shuffle_cards_into",
    "deal_hands",
]


def rng(game: GameLike) -> random.Random:
    """``game``'s random generator (``random.Random(seed)``), the only source of chance: a
    plugin shuffles and draws with it, so that the same seed and actions give the same game.
    (On a kernel game, reading it hands the game over to the Python engine.)"""
    return game._rng


def memo(game: GameLike) -> dict[Any, Any]:
    """``game``'s scratch dict for plugins: values derived from the state, each kept with what
    it was derived from (checked on use; see :func:`edit_module` and :func:`module_changes`).
    Emptied by :func:`invalidate`; a clone starts with a copy of the dict (not of its
    values: keep only values you never change in place)."""
    return game._memo


def invalidate(game: GameLike) -> None:
    """Forget what the engine and the plugins keep derived from ``game``'s state (the legal
    actions listed, ``operations.memo(game)``, the purchases' values) and bump the change counter of every
    module's state: after editing ``game.state`` by hand, outside the operations (a test
    building a situation, a tool). ``apply`` and the operations keep the caches right by
    themselves: a plugin never needs this (see :func:`edit_module`). A kernel game keeps no
    such cache (one whose state was read runs on Python, where this drops them)."""
    game._invalidate()


def add_pending(game: GameLike, tile: Any, *, dirk_ok: bool = False) -> None:
    """Set ``tile`` aside for placement at the end of the current turn (R-TURN-3, R-HUT-3)."""
    game.state.pending.append(Pending(tile, dirk_ok))


def waiting_tiles(game: GameLike) -> list[Any]:
    """The tiles waiting to be placed at the end of the turn (``game.state.pending``), each
    once, in their order (R-TURN-7): what a placement may pick from."""
    seen: list[Any] = []
    for p in game.state.pending:
        if p.tile not in seen:
            seen.append(p.tile)
    return seen


def edit_module(game: GameLike, key: str) -> Any:
    """The state of the module (or plugin) stored under ``key`` in ``game.state.modules``,
    for changing it: bumps its change counter, so every value derived from it (the huts'
    take actions, the bonus cards' reveals, a plugin's own ``operations.memo(game)`` entries kept with
    :func:`module_changes`) is worked out anew, and drops the game's cached legal actions.
    Call it before each change (the state object returned is the live one). Raises
    :class:`KeyError` if no state is stored under ``key``."""
    found = game.state.modules[key]
    changes = game._changes
    changes[key] = changes.get(key, 0) + 1
    game._legal = None
    game._legal_set = None
    return found


def module_changes(game: GameLike, key: str) -> int:
    """The change counter of the module state under ``key``: keep it with a value derived
    from that state and compare it on use (it changes on every :func:`edit_module` and
    ``operations.invalidate(game)``, never otherwise)."""
    return game._changes.get(key, 0)


def city_changed(game: GameLike, seat: int) -> None:
    """Tell plugins that ``seat``'s Alhambra changed (``alhambra_city_changed``)."""
    if game.rules.has_city_changed:
        game.rules.fast.alhambra_city_changed(game=game, seat=seat)


def refill_market(game: GameLike) -> bool:
    """Fill empty market spaces from the bag, lowest-numbered first (R-TURN-8). Returns
    False if the bag ran out before every space was filled (R-END-1)."""
    st = game.state
    market, bag = st.market, st.bag
    if None not in market:
        return True
    for i in range(4):
        if market[i] is None:
            if not bag:
                return False
            market[i] = bag.pop()
    return True


def draw_money(game: GameLike) -> Card | None:
    """Draw the top card of the money deck, reshuffling the discard pile into a new deck
    when the deck is empty (R-TURN-8). Returns ``None`` if both are empty.

    The reshuffled deck is one shuffled pile: the setup piles of R-SET-6 are gone, so
    ``state.pile_sizes`` becomes ``[len(deck)]`` (every card of it may lie anywhere)."""
    st = game.state
    if not st.deck:
        if not st.discard:
            return None
        st.deck = st.discard
        st.discard = []
        game._rng.shuffle(st.deck)
        st.pile_sizes = [len(st.deck)]
    return st.deck.pop()


def shuffle_cards_into(game: GameLike, piles: list[list[Card]], cards: Iterable[Card], targets: Sequence[int]) -> None:
    """Shuffle ``cards`` with ``game``'s generator, then shuffle the k-th of them into pile
    ``targets[k]`` of ``piles`` at a random depth (:func:`shuffle_into`): for
    ``alhambra_money_piles`` implementations placing a module's cards in the setup piles
    (R-SET-6). Cards beyond the targets given are left out."""
    cards = list(cards)
    game._rng.shuffle(cards)
    for card, pile in zip(cards, targets):
        shuffle_into(game._rng, piles[pile], card)


def deal_hands(game: GameLike, cards: Iterable[Any], k: int) -> tuple[list[list[Any]], list[Any]]:
    """A secret deal with ``game``'s generator: ``cards`` shuffled, ``k`` dealt to each seat
    in seat order, the rest left over (for ``alhambra_setup``, or a position leaving a deal
    out). Returns the hands and the cards left, each sorted."""
    order = list(cards)
    n = game.num_players
    game._rng.shuffle(order)
    return [sorted(order[i * k : (i + 1) * k]) for i in range(n)], sorted(order[n * k :])


def refill_display(game: GameLike) -> None:
    """Refill the money display to 4 cards (R-TURN-8). A drawn scoring card is set aside,
    its scoring is scheduled for the end of the turn, and a replacement drawn (R-SCORE-1).
    Any other card is offered to the plugins first (``alhambra_card_drawn``): one they take
    elsewhere (a gate card, R-GATE-3) is replaced by another draw."""
    st = game.state
    taken = game.rules.fast.alhambra_card_drawn if game.rules.has_card_drawn else None
    while len(st.display) < 4:
        card = draw_money(game)
        if card is None:
            return  # deck and discard empty: the display stays short (ruling, R-TURN-8)
        if type(card) is ScoringCard:
            st.scoring_cards.append(card)
            st.pending_scorings.append(card.number)
        elif taken is None or not taken(game=game, card=card):
            st.display.append(card)


def run_scoring(game: GameLike, number: int) -> None:
    """Carry out scoring ``number`` and add its totals to the scores (R-SCORE-1 … -6)."""
    st = game.state
    record = game.rules.hook.alhambra_scoring(game=game, number=number)
    n = game.num_players
    for who, pts in zip(record.participants, record.totals):
        if who < n:
            st.players[who].score += pts
    st.scorings.append(record)
    game.rules.hook.alhambra_after_scoring(game=game, number=number)
