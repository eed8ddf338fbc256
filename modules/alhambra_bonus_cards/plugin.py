"""Module "bonus_cards" of Die Gunst des Wesirs (R-BON-1 … R-BON-5).

Ten bonus cards, each picturing one of the ten wall-less buildings (R-BON-1), are dealt
secretly at setup (R-BON-2). A player whose Alhambra contains the pictured building may reveal
the card at any moment as a free action (:class:`RevealBonus`, R-BON-3); a revealed card counts
as one more building of that type at every scoring while the building stays in the Alhambra.
When the building leaves the Alhambra the card goes back to the hand (R-BON-4). Since revealing
can only raise its owner's counts, every eligible card is revealed automatically at a scoring
(R-BON-5, engine ruling).

The package itself is the pluggy plugin: enable it with ``modules=["bonus_cards"]``.
Its state lives in ``game.state.modules["bonus_cards"]`` (:class:`BonusCardsState`); a card is
named by the id of the building it pictures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import define, field, frozen

from alhambra import Action, ActionKind, IllegalActionError, action_table, hookimpl, operations

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from alhambra import Game
    from alhambra import Next
    from collections.abc import Sequence
    import random


#: Key of this module's state in ``game.state.modules``.
STATE_KEY = "bonus_cards"

#: R-BON-1 (COMPONENTS.md): the 10 bonus cards, each named by the id of the wall-less building
#: it pictures: pavilion 8, seraglio 9, arcades 9 and 10, chambers 10 and 11, garden 10 and 11,
#: tower 11 and 12.
BONUS_CARDS: tuple[int, ...] = (7, 14, 22, 23, 31, 32, 41, 42, 52, 53)

#: R-BON-2: cards dealt to each player, by number of players (Dirk gets none).
DEAL_SIZES: dict[int, int] = {2: 3, 3: 3, 4: 2, 5: 2, 6: 1}


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


@define(slots=True)
class BonusCardsState:
    """Where the bonus cards are. Per seat: ``hands[seat]`` (hidden, secret) and
    ``revealed[seat]`` (face up, public); ``out_of_play``: the cards nobody was dealt (secret
    to everyone, R-BON-2). Each list is kept sorted."""

    hands: list[list[int]] = field(factory=list)
    revealed: list[list[int]] = field(factory=list)
    out_of_play: list[int] = field(factory=list)

    def clone(self) -> "BonusCardsState":
        return BonusCardsState(
            [h.copy() for h in self.hands], [r.copy() for r in self.revealed], self.out_of_play.copy()
        )


def bonus_state(game: Game) -> BonusCardsState:
    """This module's state of ``game``."""
    return game.state.modules[STATE_KEY]


def bonus_card_locations(game: Game) -> dict[str, list[int]]:
    """Every bonus card by where it is: ``"hand:<seat>"``, ``"revealed:<seat>"`` and
    ``"out_of_play"`` (for accounting checks: each of the 10 cards is in exactly one place)."""
    bs = bonus_state(game)
    out: dict[str, list[int]] = {}
    for seat, (hand, shown) in enumerate(zip(bs.hands, bs.revealed)):
        out[f"hand:{seat}"] = list(hand)
        out[f"revealed:{seat}"] = list(shown)
    out["out_of_play"] = list(bs.out_of_play)
    return out


def _in_city(game: Game, seat: int, building: int) -> bool:
    return game.state.players[seat].city.has_tile(building)


def _return_departed(game: Game, seat: int) -> None:
    """R-BON-4: every revealed card of ``seat`` whose building is no longer in the Alhambra
    goes back to the hand (hidden) and stops counting."""
    bs = game.state.modules[STATE_KEY]
    shown = bs.revealed[seat]
    if not shown:  # the usual case: nothing revealed, nothing to take back
        return
    gone = [b for b in shown if not _in_city(game, seat, b)]
    if gone:
        operations.edit_module(game, STATE_KEY)
        shown[:] = [b for b in shown if b not in gone]
        bs.hands[seat] = sorted(bs.hands[seat] + gone)


def _reveal(bs: BonusCardsState, seat: int, building: int) -> None:
    bs.hands[seat].remove(building)
    bs.revealed[seat] = sorted(bs.revealed[seat] + [building])


# ---------------------------------------------------------------------------------------------
# The reveal action (R-BON-3)
# ---------------------------------------------------------------------------------------------


@frozen(slots=True, cache_hash=True)
class RevealBonus(Action):
    """Reveal the bonus card picturing ``building`` (a wall-less building id), which stands in
    the player's Alhambra (R-BON-3). A free action: the same player decides again."""

    building: int

    def __str__(self) -> str:
        return f"reveal bonus card {self.building}"


#: ``game.memo`` keys, one per seat: that seat's RevealBonus actions (R-BON-3), kept with what
#: they came from: the change counter of this module's state (bumped by every
#: ``operations.edit_module``, this module's own changes and any other plugin's, and by
#: ``game.invalidate()``) and the Alhambra's ``memo`` (which the city replaces on each change).
_REVEALABLE = tuple(f"{STATE_KEY}.revealable.{seat}" for seat in range(8))
_NONE: tuple[RevealBonus, ...] = ()


def _reveal_actions(game: Game, seat: int) -> Sequence[RevealBonus]:
    """The RevealBonus actions of ``seat`` now: its hidden cards whose building stands in its
    Alhambra (R-BON-3)."""
    hand = game.state.modules[STATE_KEY].hands[seat]
    if not hand:
        return _NONE
    tiles = game.state.players[seat].city.tile_ids()
    if tiles.isdisjoint(hand):  # the usual answer, found at C speed
        return _NONE
    table = action_table(RevealBonus)
    return [table[b,] for b in hand if b in tiles]


def _legal_reveal(game: Game, seat: int) -> Sequence[Action]:
    key = _REVEALABLE[seat]
    found = game.memo.get(key)
    city_memo = game.state.players[seat].city.memo
    changes = game.changes.get(STATE_KEY, 0)
    if found is None or found[0] != changes or found[1] is not city_memo:
        if game.state.modules.get(STATE_KEY) is None:
            return _NONE
        found = game.memo[key] = (changes, city_memo, _reveal_actions(game, seat))
    return found[2]


def _check_reveal(game: Game, seat: int, action: RevealBonus) -> None:
    b = action.building
    if isinstance(b, bool) or not isinstance(b, int) or b not in BONUS_CARDS:
        raise IllegalActionError(f"R-BON-1: there is no bonus card for building {b!r} (only {list(BONUS_CARDS)})")
    bs = bonus_state(game)
    if b in bs.revealed[seat]:
        raise IllegalActionError(f"R-BON-3: bonus card {b} is already revealed")
    if b not in bs.hands[seat]:
        raise IllegalActionError(f"R-BON-2: bonus card {b} is not in the hand of seat {seat}")
    if not _in_city(game, seat, b):
        raise IllegalActionError(
            f"R-BON-3: bonus card {b} can only be revealed while building {b} stands in the Alhambra"
        )
    raise IllegalActionError(f"{action} is not legal now")


def _apply_reveal(game: Game, seat: int, action: RevealBonus) -> Next | None:
    _reveal(operations.edit_module(game, STATE_KEY), seat, action.building)
    return None  # a free action (R-BON-5): the same seat decides again


# ---------------------------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_state_classes() -> dict[str, type]:
    return {STATE_KEY: BonusCardsState}


@hookimpl
def alhambra_setup(game: Game) -> None:
    """R-BON-2: shuffle the 10 cards and deal them secretly: 3 each with 2-3 players, 2 each
    with 4-5, 1 each with 6; the rest are out of play. Dirk gets none."""
    n = game.num_players
    k = DEAL_SIZES[n]
    cards = list(BONUS_CARDS)
    game.rng.shuffle(cards)
    hands = [sorted(cards[i * k:(i + 1) * k]) for i in range(n)]
    game.state.modules[STATE_KEY] = BonusCardsState(
        hands=hands, revealed=[[] for _ in range(n)], out_of_play=sorted(cards[n * k:])
    )


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [ActionKind(RevealBonus, {"turn", "place"}, _legal_reveal, _apply_reveal, _check_reveal)]


@hookimpl
def alhambra_city_changed(game: Game, seat: int) -> None:
    """R-BON-4: a building that left the Alhambra takes its revealed card back to the hand;
    then the seat's RevealBonus actions are worked out anew (R-BON-3)."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is not None:
        if bs.revealed[seat]:  # the usual case, nothing revealed, without a call
            _return_departed(game, seat)
    return None  # a free action (R-BON-5): the same seat decides again


@hookimpl
def alhambra_building_counts(game: Game, number: int, counts: dict[int, dict[str, int]]) -> None:
    """R-BON-5: reveal every eligible card, then R-BON-3: each revealed card whose building is
    in its owner's Alhambra counts as one more building of that type."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is None:
        return
    types = game.rules.catalog.types
    for seat in range(game.num_players):
        _return_departed(game, seat)  # R-BON-4 (in case an Alhambra changed unannounced)
        for b in [b for b in bs.hands[seat] if _in_city(game, seat, b)]:
            _reveal(operations.edit_module(game, STATE_KEY), seat, b)
        mine = counts.setdefault(seat, {})
        for b in bs.revealed[seat]:
            t = types[b]
            mine[t] = mine.get(t, 0) + 1


@hookimpl
def alhambra_check_state(game: Game) -> str | None:
    """A loaded game's bonus cards: a hand and a revealed list per seat, and each of the ten
    cards exactly once among hands, revealed cards and the cards out of play (R-BON-1/2)."""
    bs = game.state.modules.get(STATE_KEY)
    n = game.num_players
    if bs is None:
        return "the bonus cards module's state is missing"
    if len(bs.hands) != n or len(bs.revealed) != n:
        return f"bonus cards: one hand and one revealed list per seat expected ({n} seats)"
    every = [b for group in (*bs.hands, *bs.revealed, bs.out_of_play) for b in group]
    if sorted(every, key=repr) != sorted(BONUS_CARDS, key=repr) or any(type(b) is not int for b in every):
        return f"bonus cards: each of {list(BONUS_CARDS)} must be in exactly one place, not {sorted(every, key=repr)}"
    return None


@hookimpl
def alhambra_view(game: Game, seat: int | None, view: dict[str, Any]) -> None:
    """Revealed cards are public; of hidden cards only their number, except ``seat``'s own."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is None:
        return
    mine = {
        "players": [
            {"revealed": list(shown), "hidden": len(hand)} for hand, shown in zip(bs.hands, bs.revealed)
        ],
        "out_of_play": len(bs.out_of_play),
    }
    if seat is not None:
        mine["hand"] = list(bs.hands[seat])
    view["modules"][STATE_KEY] = mine


@hookimpl
def alhambra_determinize(game: Game, seat: int, rng: random.Random) -> None:
    """Other players' hidden bonus cards and the cards out of play are secret to ``seat``
    (R-BON-2): redeal them at random, keeping every hand's size (used by search bots)."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is None:
        return
    others = [i for i in range(len(bs.hands)) if i != seat]
    pool = [b for i in others for b in bs.hands[i]] + list(bs.out_of_play)
    rng.shuffle(pool)
    for i in others:
        k = len(bs.hands[i])
        bs.hands[i] = sorted(pool[:k])
        pool = pool[k:]
    bs.out_of_play = sorted(pool)
