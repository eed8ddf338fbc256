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

from attrs import define, field, frozen

from alhambra import Action, ActionKind, IllegalActionError, action_table, hookimpl

NAME = "bonus_cards"
DESCRIPTION = "Bonus cards: a secretly dealt card counts as one more building of its type once its wall-less building is in the Alhambra."
RULES = ("R-BON-1", "R-BON-2", "R-BON-3", "R-BON-4", "R-BON-5")

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


def bonus_state(game) -> BonusCardsState:
    """This module's state of ``game``."""
    return game.state.modules[STATE_KEY]


def bonus_card_locations(game) -> dict[str, list[int]]:
    """Every bonus card by where it is: ``"hand:<seat>"``, ``"revealed:<seat>"`` and
    ``"out_of_play"`` (for accounting checks: each of the 10 cards is in exactly one place)."""
    bs = bonus_state(game)
    out: dict[str, list[int]] = {}
    for seat, (hand, shown) in enumerate(zip(bs.hands, bs.revealed)):
        out[f"hand:{seat}"] = list(hand)
        out[f"revealed:{seat}"] = list(shown)
    out["out_of_play"] = list(bs.out_of_play)
    return out


def _in_city(game, seat: int, building: int) -> bool:
    return game.state.players[seat].city.has_tile(building)


def _return_departed(game, seat: int) -> None:
    """R-BON-4: every revealed card of ``seat`` whose building is no longer in the Alhambra
    goes back to the hand (hidden) and stops counting."""
    bs = game.state.modules[STATE_KEY]
    shown = bs.revealed[seat]
    if not shown:  # the usual case: nothing revealed, nothing to take back
        return
    gone = [b for b in shown if not _in_city(game, seat, b)]
    if gone:
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

    def __str__(self):
        return f"reveal bonus card {self.building}"


#: ``game.memo`` keys, one per seat: that seat's RevealBonus actions (R-BON-3). They change only
#: when its Alhambra or its hand of bonus cards does, so they are worked out then (in
#: :func:`alhambra_city_changed`, while the Alhambra is fresh in the processor's caches) instead
#: of at every step; a hand-edited state must call ``game.invalidate()``, which empties the memo.
_REVEALABLE = tuple(f"{STATE_KEY}.revealable.{seat}" for seat in range(8))
_NONE: tuple = ()


def _reveal_actions(game, seat: int):
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


def _legal_reveal(game, seat):
    key = _REVEALABLE[seat]
    found = game.memo.get(key)
    if found is None:
        if game.state.modules.get(STATE_KEY) is None:
            return _NONE
        found = game.memo[key] = _reveal_actions(game, seat)
    return found


def _check_reveal(game, seat, action):
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


def _apply_reveal(game, seat, action):
    # a free action (R-BON-5): game.action_done() is not called, the same player decides again
    _reveal(bonus_state(game), seat, action.building)
    game.memo[_REVEALABLE[seat]] = _reveal_actions(game, seat)


# ---------------------------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_state_classes():
    return {STATE_KEY: BonusCardsState}


@hookimpl
def alhambra_setup(game):
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
def alhambra_action_kinds():
    return [ActionKind(RevealBonus, {"turn", "place"}, _legal_reveal, _apply_reveal, _check_reveal)]


@hookimpl
def alhambra_city_changed(game, seat):
    """R-BON-4: a building that left the Alhambra takes its revealed card back to the hand;
    then the seat's RevealBonus actions are worked out anew (R-BON-3)."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is not None:
        if bs.revealed[seat]:  # the usual case, nothing revealed, without a call
            _return_departed(game, seat)
        game.memo[_REVEALABLE[seat]] = _reveal_actions(game, seat)


@hookimpl
def alhambra_building_counts(game, number, counts):
    """R-BON-5: reveal every eligible card, then R-BON-3: each revealed card whose building is
    in its owner's Alhambra counts as one more building of that type."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is None:
        return
    types = game.rules.catalog.types
    for seat in range(game.num_players):
        _return_departed(game, seat)  # R-BON-4 (in case an Alhambra changed unannounced)
        for b in [b for b in bs.hands[seat] if _in_city(game, seat, b)]:
            _reveal(bs, seat, b)
        game.memo.pop(_REVEALABLE[seat], None)  # the hand may have changed
        mine = counts.setdefault(seat, {})
        for b in bs.revealed[seat]:
            t = types[b]
            mine[t] = mine.get(t, 0) + 1


@hookimpl
def alhambra_check_state(game):
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
def alhambra_view(game, seat, view):
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
def alhambra_determinize(game, seat, rng):
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


@hookimpl
def alhambra_position_part(game):
    """The bonus cards' part of a position: ``[bonus_cards]`` with ``hands`` (per seat, the
    hidden cards), ``revealed`` (per seat, face up) and ``out_of_play`` (nobody's), each card
    named by the building it pictures (R-BON-1/2)."""
    bs = bonus_state(game)
    return {STATE_KEY: {"hands": [list(h) for h in bs.hands], "revealed": [list(r) for r in bs.revealed],
                        "out_of_play": list(bs.out_of_play)}}


@hookimpl
def alhambra_position_read(game, parts):
    """``[bonus_cards]``: ``revealed`` per seat (default none), ``hands`` per seat (default:
    dealt at random as at R-BON-2, ``DEAL_SIZES`` cards a seat, from the cards not named),
    ``out_of_play`` (default: the cards left). Without the part, the set-up's deal stands."""
    from alhambra import ConfigError

    if STATE_KEY not in parts:
        return [STATE_KEY]
    part = parts[STATE_KEY]
    n = game.num_players
    if not isinstance(part, dict) or set(part) - {"hands", "revealed", "out_of_play"}:
        raise ConfigError(f"bonus_cards: a table with 'hands', 'revealed', 'out_of_play', not {part!r}")

    def seat_lists(name):
        value = part.get(name)
        if value is None:
            return None
        if (not isinstance(value, list) or len(value) != n
                or not all(isinstance(h, list) and all(b in BONUS_CARDS and type(b) is int for b in h) for h in value)):
            raise ConfigError(f"bonus_cards.{name}: one list of bonus cards {list(BONUS_CARDS)} per seat, not {value!r}")
        return [sorted(h) for h in value]

    revealed = seat_lists("revealed") or [[] for _ in range(n)]
    hands = seat_lists("hands")
    named = [b for group in (*revealed, *(hands or [])) for b in group]
    rest = [b for b in BONUS_CARDS if b not in named]
    game.rng.shuffle(rest)
    if hands is None:
        k = DEAL_SIZES[n]
        hands = [sorted(rest[i * k:(i + 1) * k]) for i in range(n)]
        rest = rest[n * k:]
    out = part.get("out_of_play")
    if out is None:
        out = rest
    elif not isinstance(out, list) or any(b not in BONUS_CARDS or type(b) is not int for b in out):
        raise ConfigError(f"bonus_cards.out_of_play: a list of bonus cards {list(BONUS_CARDS)}, not {out!r}")
    game.state.modules[STATE_KEY] = BonusCardsState(hands, revealed, sorted(out))
    return [STATE_KEY]
