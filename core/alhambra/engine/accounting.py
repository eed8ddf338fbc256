"""Accounting: where every tile and card of a game is, and the invariants that must hold
after every action (every building and money card exactly once, valid Alhambras, a decider).

Used by the save loader (a loaded game must pass :func:`check_invariants`) and by the test
helpers of :mod:`alhambra.testing`; kept in the engine so that loading a save never imports
the test helpers.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable

from .components import BUILDINGS, money_deck

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import GameLike


def tile_locations(game: GameLike) -> dict[str, list[Any]]:
    """Every tile of the game by where it is, for accounting checks (all 54 buildings are
    always somewhere exactly once)."""
    st = game.state
    out: dict[str, list[Any]] = {
        "bag": list(st.bag),
        "market": [t for t in st.market if t is not None],
        "pending": [p.tile for p in st.pending],
        "out_of_play": list(st.out_of_play),
        "distribution": [t for _, tiles in st.distribution for t in tiles],
    }
    for i, p in enumerate(st.players):
        out[f"city:{i}"] = [t for t in p.city.tiles.values() if t != 0]
        out[f"reserve:{i}"] = list(p.reserve)
    for group in game.rules.hook.alhambra_tile_locations(game=game):
        out.update(group)
    return out


def card_locations(game: GameLike) -> dict[str, list[Any]]:
    """Every card of the game by where it is (deck, display, discard, hands, scoring cards
    set aside, module places), for accounting checks."""
    st = game.state
    out: dict[str, list[Any]] = {
        "deck": list(st.deck),
        "display": list(st.display),
        "discard": list(st.discard),
        "scoring_cards": list(st.scoring_cards),
    }
    for i, p in enumerate(st.players):
        out[f"hand:{i}"] = list(p.hand)
    for group in game.rules.hook.alhambra_card_locations(game=game):
        out.update(group)
    return out


class InvariantError(AssertionError):
    """An invariant of the game does not hold (a bug in the engine or in a plugin)."""


def expected_money(game: GameLike) -> Counter[Any]:
    """The money cards this game was set up with (R-COMP-3, R-TWO-1), as a multiset."""
    cards = money_deck()
    game.rules.hook.alhambra_money_deck(game=game, cards=cards)
    return Counter(cards)


def check_invariants(game: GameLike, *, expected_cards: Counter[Any] | None = None) -> None:
    """Raise :class:`InvariantError` if the game breaks an invariant:

    * each of the 54 buildings is in exactly one place (bag, market, pending, an Alhambra, a
      reserve, Dirk, out of play, a module's place), and every other tile at most once;
    * every money card of the set-up deck is in exactly one place, and each of the two
      scoring cards at most once (R-COMP-3);
    * every Alhambra satisfies the placement rules as a whole (R-PLACE-2 … R-PLACE-6);
    * the money display holds at most 4 cards (R-SET-5, R-EXC-2);
    * while the game runs, the player to decide is a seat.
    """
    locs = tile_locations(game)
    everything = [t for tiles in locs.values() for t in tiles]
    counts = Counter(everything)
    dup = [t for t, n in counts.items() if n > 1]
    if dup:
        raise InvariantError(f"tiles in two places: {dup} ({_where(locs, dup)})")
    buildings = sorted(t for t in everything if isinstance(t, int))
    if buildings != [b.id for b in BUILDINGS]:
        missing = sorted(set(b.id for b in BUILDINGS) - set(buildings))
        raise InvariantError(f"buildings not accounted for: missing {missing}")
    card_locs = card_locations(game)
    cards = Counter(c for loc in card_locs.values() for c in loc)
    money = Counter({c: n for c, n in cards.items() if c.is_money})
    exp = expected_cards if expected_cards is not None else expected_money(game)
    if money != exp:
        extra, lost = money - exp, exp - money
        raise InvariantError(
            f"money cards not accounted for: extra {_card_counts(extra)}"
            f"{f' (lying in {_card_places(card_locs, extra)})' if extra else ''}, missing {_card_counts(lost)}"
        )
    for c, n in cards.items():
        if not c.is_money and n > 1:
            raise InvariantError(f"card {c.code} in two places")
    for i, p in enumerate(game.state.players):
        why = p.city.why_invalid()
        if why:
            raise InvariantError(f"seat {i}'s Alhambra is invalid: {why}")
    if len(game.state.display) > 4:
        raise InvariantError(f"money display holds {len(game.state.display)} cards")
    if not game.is_over and game.current_player not in range(game.num_players):
        raise InvariantError(f"no player to decide in phase {game.phase!r}")


def _card_counts(counts: Counter[Any]) -> str:
    """``{florin-3: 1}``-style: card codes and how many, or ``none``."""
    return "{" + ", ".join(f"{getattr(c, 'code', c)}: {n}" for c, n in counts.items()) + "}" if counts else "none"


def _card_places(locs: dict[str, list[Any]], cards: Iterable[Any]) -> str:
    return "; ".join(f"{getattr(c, 'code', c)}: {', '.join(k for k, v in locs.items() if c in v)}" for c in cards)


def _where(locs: dict[str, list[Any]], tiles: Iterable[Any]) -> dict[Any, list[str]]:
    return {t: [k for k, v in locs.items() if t in v] for t in tiles}
