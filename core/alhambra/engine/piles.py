"""The money deck's setup piles (R-SET-6): shuffling a card into a pile, and (for
determinize) which pile a deck position was stacked in.

What a seat knows of the money deck is which setup pile each scoring card and module card
went into, not where in it. ``state.pile_sizes`` records the piles' sizes (pile 1, the top,
first; five entries after setup, one after the discard pile has been reshuffled into a new
deck, none in older saves). Deck positions are counted from the bottom (``deck[0]``) and
cards leave only from the top, so the record never needs updating while cards are drawn.

Plugins declare their own secret piles and deck cards with :class:`HiddenPile` and
:class:`DeckCards` (hook ``alhambra_hidden_piles``, collected by :func:`hidden_piles`), so
that tools which make every draw explicit (the OpenSpiel game's chance nodes) know them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable

from attrs import field, frozen

from ..errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import GameLike


def shuffle_into(rng: random.Random, pile: list[Any], card: Any) -> None:
    """Shuffle ``card`` into ``pile``: it lands at a uniformly random depth (one
    ``rng.randrange(len(pile) + 1)`` draw). For ``alhambra_money_piles`` implementations
    (scoring cards A and B, R-SET-6; exchange offices, R-EXC-1)."""
    pile.insert(rng.randrange(len(pile) + 1), card)


def _pile_bounds(game: GameLike) -> list[tuple[int, int]] | None:
    """``[(lo, hi), ...]`` per recorded pile, top pile first: the deck indices it was
    stacked on (``hi`` may exceed the deck's length once cards are drawn). ``None`` when
    there is no usable record: none kept, or a deck longer than the record (edited by
    hand)."""
    st = game.state
    sizes = st.pile_sizes
    if not sizes:
        return None
    hi = sum(sizes)
    if hi < len(st.deck):
        return None
    out = []
    for size in sizes:
        out.append((hi - size, hi))
        hi -= size
    return out


def _check_deck_index(game: GameLike, index: int) -> None:
    n = len(game.state.deck)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
        raise IndexError(f"deck position must be 0..{n - 1} (0 is the bottom card), not {index!r}")


def pile_of(game: GameLike, index: int) -> int | None:
    """The number of the pile (1 = the top pile) that deck position ``index`` was stacked
    in: after setup one of the five piles of R-SET-6, after a reshuffle of the discard
    pile always 1 (the new deck is one pile, R-TURN-8); ``None`` without a pile record
    (see :meth:`pile_range`).

    ``index`` is an index into ``state.deck`` (0 the bottom card, ``len - 1`` the top, the
    next one drawn). Raises :class:`IndexError` for any other value."""
    _check_deck_index(game, index)
    bounds = _pile_bounds(game)
    if bounds is None:
        return None
    for number, (lo, hi) in enumerate(bounds, 1):
        if lo <= index < hi:
            return number
    raise AssertionError("unreachable: the piles cover the deck")  # pragma: no cover


def pile_range(game: GameLike, index: int) -> range:
    """The deck positions among which the card at deck position ``index`` may lie, as far
    as any player knows: the still-undrawn part of its pile, ``range(lo, hi)`` of indices
    into ``state.deck`` (0 the bottom card; cards are drawn from the top, so the range of
    the top pile shrinks as the game goes on, the others stay whole until reached).

    * After setup: the pile of R-SET-6 that holds the position (scoring card A always
      lies in pile 2's range, B in pile 4's, exchange offices in those of piles 2-4,
      R-EXC-1).
    * After the discard pile has been reshuffled into a new deck (R-TURN-8): the whole
      deck, ``range(len(deck))``: there are no piles any more.
    * Without a pile record (a save from before the record existed, or a deck edited by
      hand so that it is longer than the record): ``range(index, index + 1)``, the
      position alone, so that nothing is moved on unknown grounds.

    Raises :class:`IndexError` unless ``0 <= index < len(state.deck)``. Modules use it
    (or :meth:`resample_in_piles`) to resample their own deck cards in
    ``alhambra_determinize``."""
    _check_deck_index(game, index)
    bounds = _pile_bounds(game)
    if bounds is None:
        return range(index, index + 1)
    n = len(game.state.deck)
    for lo, hi in bounds:
        if lo <= index < hi:
            return range(lo, min(hi, n))
    raise AssertionError("unreachable: the piles cover the deck")  # pragma: no cover


def resample_in_piles(game: GameLike, which: Callable[[Any], bool], rng: random.Random) -> list[int]:
    """Move every deck card for which ``which(card)`` is true to a uniformly random
    position within its :meth:`pile_range` (R-SET-6, R-EXC-1): per pile, the chosen cards
    take a uniformly random set of positions, in random order; the cards they displace
    (money, or another plugin's card not yet resampled) take the positions they left.
    Returns the new positions (indices into ``state.deck``).

    For ``alhambra_determinize`` implementations, whose game is the clone being
    determinized: the positions chosen are remembered until that determinization ends,
    and later calls never choose them (and so never displace a card already resampled).
    This makes the result exact whatever the order of the plugins: each group's positions
    are chosen knowing only the groups resampled before it, never the true positions of
    the cards still to come. ``Game.determinize`` resamples the scoring cards this way
    before asking the plugins. Resample each card once per determinization. Outside a
    determinization nothing is remembered.

    ``which`` must select cards, not money (money cards are redealt by ``determinize``)."""
    deck = game.state.deck
    hits = [k for k, card in enumerate(deck) if which(card)]
    if not hits:
        return []
    settled = game._settled if game._settled is not None else set()
    groups: dict[tuple[int, int], list[int]] = {}
    for k in hits:
        r = pile_range(game, k)
        groups.setdefault((r.start, r.stop), []).append(k)
    moved: list[int] = []
    for (lo, hi), old in groups.items():
        old_set = set(old)
        free = [j for j in range(lo, hi) if j not in settled or j in old_set]
        new = rng.sample(free, len(old))  # random positions in random order
        mine = [deck[k] for k in old]
        new_set = set(new)
        vacated = [k for k in old if k not in new_set]
        displaced = [deck[j] for j in new if j not in old_set]
        for k, card in zip(vacated, displaced):
            deck[k] = card
        for j, card in zip(new, mine):
            deck[j] = card
        settled.update(new)
        moved.extend(new)
    return moved


def redeal_hands(
    hands: list[list[Any]],
    rest: list[Any],
    seat: int,
    rng: random.Random,
    kept: list[list[Any]] | None = None,
    barred: list[list[Any]] | None = None,
) -> list[Any]:
    """Determinization of secret hands: every hand but ``seat``'s, and ``rest`` (cards nobody
    holds and nobody has seen), dealt anew at random from their cards together, each hand
    keeping its size and sorted (in place). What is public stays: a card in ``kept[i]`` that
    hand ``i`` holds stays there, and no hand ``i`` is dealt a card of ``barred[i]`` (a
    ``kept`` or ``barred`` without one list per hand is no record). The deal is uniform over
    the allowed ones (:func:`allowed_order`). Returns the new ``rest``, sorted."""
    n = len(hands)
    kept = kept if kept is not None and len(kept) == n else [[] for _ in range(n)]
    barred = barred if barred is not None and len(barred) == n else [[] for _ in range(n)]
    others = [i for i in range(n) if i != seat]
    stay = {i: [c for c in hands[i] if c in kept[i]] for i in others}
    pool = [c for i in others for c in hands[i] if c not in stay[i]] + list(rest)
    slots = [i for i in others for _ in range(len(hands[i]) - len(stay[i]))]
    deal = allowed_order(pool, slots, barred, rng)
    for i in others:
        hands[i] = sorted(stay[i] + [c for c, s in zip(deal, slots) if s == i])
    return sorted(deal[len(slots) :])


def allowed_order(pool: list[Any], slots: list[int], barred: list[list[Any]], rng: random.Random) -> list[Any]:
    """``pool`` in a random order such that ``order[k]`` may go to hand ``slots[k]`` (is not
    in ``barred[slots[k]]``); the items after ``len(slots)`` are left over (no bar). Uniform
    over the allowed orders (rejection); after 1000 rejections, a random search that always
    finds one if there is one (the true deal is allowed), else the plain shuffle."""
    order = list(pool)
    for _ in range(1000):
        rng.shuffle(order)
        if all(c not in barred[s] for c, s in zip(order, slots)):
            return order
    rng.shuffle(order)

    def place(k: int, left: list[Any]) -> list[Any] | None:
        """The first allowed deal of ``left`` to the slots from ``k`` on, trying in order."""
        if k == len(slots):
            return left
        for j, c in enumerate(left):
            if c not in barred[slots[k]]:
                found = place(k + 1, left[:j] + left[j + 1 :])
                if found is not None:
                    return [c, *found]
        return None

    found = place(0, order)
    return order if found is None else found  # none allowed (a hand-edited state): the plain shuffle


@frozen(slots=True)
class HiddenPile:
    """A plugin's pile whose order no player knows, drawn from its top (for
    ``alhambra_hidden_piles``): the building huts' face-down stacks (R-HUT-1), say.

    ``name`` names the pile in logs (``"building huts: garden stack"``). ``get(game)``
    returns the live list (bottom first, the top last; the game takes from it only with
    ``list.pop()``) and ``put(game, items)`` puts a list with the same items in its place
    (a tool may put an equal list that watches the draws). ``face_up``: how many of the top
    items are in sight, 0 or 1: with 0 every ``pop()`` draws a hidden item; with 1 the top
    is face up, ``pop()`` takes it and the next item becomes face up (that is the draw).
    Every hidden item is equally likely to be drawn next: the plugin's
    ``alhambra_determinize`` shuffles the hidden part uniformly."""

    name: str = field(validator=lambda _s, _a, v: _check_name(v))
    get: Callable[[Any], list[Any]] = field(validator=lambda _s, a, v: _check_callable(a.name, v))
    put: Callable[[Any, list[Any]], None] = field(validator=lambda _s, a, v: _check_callable(a.name, v))
    face_up: int = field(default=0, validator=lambda _s, _a, v: _check_face_up(v))


#: The names of the core's hidden piles: no plugin's pile may take them (the tools watching
#: draws tell the piles apart by name).
CORE_PILES = frozenset({"bag", "deck"})


def _check_name(name: Any) -> None:
    if type(name) is not str or not name:
        raise ConfigError(f"a hidden pile's name must be a non-empty str, not {name!r}")


def _check_callable(what: str, value: Any) -> None:
    if not callable(value):
        raise ConfigError(f"a hidden pile's {what} must be callable, not {value!r}")


def _check_face_up(face_up: Any) -> None:
    if type(face_up) is not int or face_up not in (0, 1):
        raise ConfigError(f"a hidden pile's face_up must be 0 or 1, not {face_up!r}")


@frozen(slots=True)
class DeckCards:
    """A plugin's cards in the money deck that were shuffled into setup piles (for
    ``alhambra_hidden_piles``; the exchange offices, R-EXC-1). ``which(card)`` is true for
    exactly those cards; ``name`` names them (``"exchange office"``).

    Declaring them says what the plugin's ``alhambra_determinize`` does with them: a player
    knows how many of them lie in the undrawn part of each pile (:func:`pile_range`), not
    which of them nor where; so the positions of a pile that hold them are a uniformly random
    set of that pile's positions (shared with the scoring cards), and which of them lies where
    is uniform over all of them in the deck. Deck cards that are neither money, nor scoring
    cards, nor declared are taken to lie where they are, as ``determinize`` leaves them."""

    name: str = field(validator=lambda _s, _a, v: _check_name(v))
    which: Callable[[Any], bool] = field(validator=lambda _s, a, v: _check_callable(a.name, v))


def hidden_piles(game: GameLike) -> list[HiddenPile | DeckCards]:
    """Every plugin's :class:`HiddenPile` and :class:`DeckCards` of ``game`` (hook
    ``alhambra_hidden_piles``), in the hook's call order. The bag and the money deck
    themselves are the core's and are not listed.

    Raises :class:`ConfigError` if a plugin answers with anything but a list (or tuple) of
    them, or if two piles share a name or one takes a core pile's name (``"bag"``,
    ``"deck"``): a tool watching the draws tells the piles apart by name, so such a pile would
    be drawn from unwatched, in the engine's hidden order."""
    out: list[HiddenPile | DeckCards] = []
    names: set[str] = set(CORE_PILES)
    for found in game.rules.hook.alhambra_hidden_piles(game=game):
        if not isinstance(found, (list, tuple)):
            raise ConfigError(
                f"alhambra_hidden_piles must return a list of HiddenPile or DeckCards objects, not {found!r}"
            )
        for item in found:
            if not isinstance(item, (HiddenPile, DeckCards)):
                raise ConfigError(f"alhambra_hidden_piles must list HiddenPile or DeckCards objects, not {item!r}")
            if isinstance(item, HiddenPile):
                if item.name in names:
                    taken = "is the core's" if item.name in CORE_PILES else "is declared twice"
                    raise ConfigError(f"hidden pile name {item.name!r} {taken}: every hidden pile needs its own name")
                names.add(item.name)
            out.append(item)
    return out
