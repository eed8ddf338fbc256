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

from alhambra import (
    Action,
    ActionKind,
    Declared,
    DeclaredState,
    IllegalActionError,
    action_table,
    declared,
    hookimpl,
    operations,
)

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence
    from typing import Any
    from alhambra import Game, Next, ObservationLayout


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


#: A position's list of bonus cards, and its list of them per seat, each read sorted (R-BON-1).
_cards = declared.listed(BONUS_CARDS, "bonus cards")
_seat_lists = declared.listed(BONUS_CARDS, "bonus cards", per_seat=True)
#: A public record kept per seat (an empty list for none, as in older saves).
_RECORD = declared.internal(per_seat="or none", from_position=_seat_lists)
#: Determinization (R-BON-2): the other seats' hidden cards and the cards out of play are
#: dealt anew, keeping every hand's size and what is public: a card a seat has revealed
#: before stays with it (``owned``: back in the hand or revealed, R-BON-4), and no seat gets
#: a card it cannot hold (``not_held``: R-BON-5 would have revealed it at a scoring). A
#: loaded game's record agrees with the hands and the revealed cards (the declared check).
_REDEAL = declared.Redeal("out_of_play", kept="owned", barred="not_held", held="revealed", rules=("R-BON-4", "R-BON-5"))


@define(slots=True)
class BonusCardsState(DeclaredState):
    """Where the bonus cards are. Per seat: ``hands[seat]`` (hidden, secret: the others see
    how many) and ``revealed[seat]`` (face up, public); ``out_of_play``: the cards nobody was
    dealt (secret to everyone, R-BON-2: seen as a count). Each list is kept sorted.

    What every player knows besides (public, for ``determinize``): ``owned[seat]``, the cards
    that seat has ever revealed (it holds them for good, hidden again after R-BON-4), and
    ``not_held[seat]``, the cards it cannot hold: the wall-less buildings that stood in its
    Alhambra at a scoring without their card being revealed (R-BON-5 reveals every eligible
    card). Both empty lists (no record) in saves written before they existed."""

    hands: list[list[int]] = field(
        factory=list,
        metadata=declared.secret(key="hand", count_as="hidden", holds="own", from_position=_seat_lists, redeal=_REDEAL),
    )
    revealed: list[list[int]] = field(
        factory=list, metadata=declared.public(per_seat=True, holds="own", from_position=_seat_lists)
    )
    out_of_play: list[int] = field(factory=list, metadata=declared.counted(holds="own", from_position=_cards))
    owned: list[list[int]] = field(factory=list, metadata=_RECORD)
    not_held: list[list[int]] = field(factory=list, metadata=_RECORD)


def _observe(out: dict[str, Any], part: dict[str, Any], order: Sequence[int], layout: ObservationLayout) -> None:
    """The observation's ``bonus_cards.hand`` (the observer's own cards, one flag per tile),
    ``.revealed`` (each player's revealed cards), ``.hidden`` (how many each player still
    hides, R-BON-2) and ``.out_of_play``, from the view entry."""
    ti = layout.tile_index
    for b in part.get("hand", ()):
        out["hand"][ti[b]] = 1
    for k, s in enumerate(order):
        for b in part["players"][s]["revealed"]:
            out["revealed"][k, ti[b]] = 1
        out["hidden"][k] = part["players"][s]["hidden"]
    out["out_of_play"][0] = part["out_of_play"]


def _shapes(layout: ObservationLayout) -> dict[str, tuple[int, ...]]:
    n, tiles = layout.num_players, len(layout.tiles)
    return {"hand": (tiles,), "revealed": (n, tiles), "hidden": (n,), "out_of_play": (1,)}


#: Views: per player the revealed cards and how many are hidden, how many are out of play,
#: and the seat's own hidden cards; a position's ``[bonus_cards]`` holds every field.
DECLARED = Declared(
    STATE_KEY,
    BonusCardsState,
    label="bonus cards",
    view=("players", "out_of_play", "hand"),
    players=("revealed", "hands"),
    conserved=BONUS_CARDS,
    shapes=_shapes,
    observe=_observe,
)


def bonus_state(game: Game) -> BonusCardsState:
    """This module's state of ``game``."""
    bs: BonusCardsState = game.state.modules[STATE_KEY]
    return bs


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
    gone = [b for b in shown if not _in_city(game, seat, b)]
    if gone:
        operations.edit_module(game, STATE_KEY)
        shown[:] = [b for b in shown if b not in gone]
        bs.hands[seat] = sorted(bs.hands[seat] + gone)


def _reveal(bs: BonusCardsState, seat: int, building: int) -> None:
    bs.hands[seat].remove(building)
    bs.revealed[seat] = sorted(bs.revealed[seat] + [building])
    if bs.owned and building not in bs.owned[seat]:  # public from now on: the card is this seat's
        bs.owned[seat] = sorted(bs.owned[seat] + [building])


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


#: ``operations.memo(game)`` keys, one per seat: that seat's RevealBonus actions (R-BON-3), kept with what
#: they came from: the change counter of this module's state (bumped by every
#: ``operations.edit_module``, this module's own changes and any other plugin's, and by
#: ``operations.invalidate(game)``) and the Alhambra's ``memo`` (which the city replaces on each change).
_REVEALABLE = tuple(f"{STATE_KEY}.revealable.{seat}" for seat in range(8))
_NONE: tuple[RevealBonus, ...] = ()


def _legal_reveal(game: Game, seat: int) -> Sequence[Action]:
    """The RevealBonus actions of ``seat`` now: its hidden cards whose building stands in its
    Alhambra (R-BON-3), kept in the memo under :data:`_REVEALABLE`."""
    key = _REVEALABLE[seat]
    found = operations.memo(game).get(key)
    city = game.state.players[seat].city
    changes = operations.module_changes(game, STATE_KEY)
    if found is None or found[0] != changes or found[1] is not city.memo:
        bs = game.state.modules.get(STATE_KEY)
        if bs is None:
            return _NONE
        hand, tiles = bs.hands[seat], city.tile_ids()
        reveals = _NONE if tiles.isdisjoint(hand) else [action_table(RevealBonus)[b,] for b in hand if b in tiles]
        found = operations.memo(game)[key] = (changes, city.memo, reveals)
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
    # any other reveal is listed; the engine refuses an unlisted one it accepts here


def _apply_reveal(game: Game, seat: int, action: RevealBonus) -> Next | None:
    _reveal(operations.edit_module(game, STATE_KEY), seat, action.building)
    return None  # a free action (R-BON-5): the same seat decides again


# ---------------------------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_setup(game: Game) -> None:
    """R-BON-2: shuffle the 10 cards and deal them secretly: 3 each with 2-3 players, 2 each
    with 4-5, 1 each with 6; the rest are out of play. Dirk gets none."""
    hands, out_of_play = operations.deal_hands(game, BONUS_CARDS, DEAL_SIZES[game.num_players])
    empty: list[list[list[int]]] = [[[] for _ in hands] for _ in range(3)]  # none revealed, no record yet
    revealed, owned, not_held = empty
    game.state.modules[STATE_KEY] = BonusCardsState(hands, revealed, out_of_play, owned, not_held)


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [ActionKind(RevealBonus, {"turn", "place"}, _legal_reveal, _apply_reveal, _check_reveal)]


@hookimpl
def alhambra_city_changed(game: Game, seat: int) -> None:
    """R-BON-4: a building that left the Alhambra takes its revealed card back to the hand;
    then the seat's RevealBonus actions are worked out anew (R-BON-3)."""
    bs = game.state.modules.get(STATE_KEY)
    if bs is not None and bs.revealed[seat]:  # the usual case, nothing revealed, without a call
        _return_departed(game, seat)


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
        if bs.not_held:  # public: a wall-less building standing here without its card shown
            tiles = game.state.players[seat].city.tile_ids()
            missing = set(BONUS_CARDS).intersection(tiles).difference(bs.revealed[seat], bs.not_held[seat])
            if missing:
                operations.edit_module(game, STATE_KEY)
                bs.not_held[seat] = sorted(bs.not_held[seat] + list(missing))
        mine = counts.setdefault(seat, {})
        for b in bs.revealed[seat]:
            mine[types[b]] = mine.get(types[b], 0) + 1


@hookimpl
def alhambra_position_read(game: Game, parts: dict[str, Any]) -> list[str] | None:
    """``[bonus_cards]`` (its fields read as declared): ``revealed`` defaults to none,
    ``hands`` to a deal at random as at R-BON-2 (``DEAL_SIZES`` cards a seat) from the cards
    not named, ``out_of_play`` to the cards left, ``owned`` to the revealed cards. Without
    the part, the set-up's deal stands."""
    part, bs = parts.get(STATE_KEY), bonus_state(game)
    if part is None:
        return [STATE_KEY]
    dealt = "hands" in part  # a field not given keeps the set-up's value: none revealed, no record
    named = [b for group in (*bs.revealed, *(bs.hands if dealt else ())) for b in group]
    rest = [b for b in BONUS_CARDS if b not in named]
    hands, rest = operations.deal_hands(game, rest, 0 if dealt else DEAL_SIZES[game.num_players])
    bs.hands = bs.hands if dealt else hands
    bs.out_of_play = bs.out_of_play if "out_of_play" in part else rest
    bs.owned = bs.owned if "owned" in part else [sorted(r) for r in bs.revealed]
    return [STATE_KEY]
