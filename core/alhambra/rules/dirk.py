"""Built-in plugin ``core.dirk``: the two-player game with Dirk (R-TWO-1 … R-TWO-5).

Active only in two-player games. Dirk is the participant numbered ``game.num_players`` (2) in
scoring records; his tiles and score live in ``game.state.modules["dirk"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import define, field

from ..engine.accounting import tile_locations
from ..engine.actions import ActionKind, GiveToDirk
from ..engine.observation_parts import ObservationLayout, ObservationPart
from ..errors import IllegalActionError
from ..hookspec import hookimpl
from .placement import pending_index

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.actions import Action
    from ..engine.components import Card
    from ..engine.protocol import GameLike
    from ..engine.sequence import Next
    from collections.abc import Sequence

    import numpy as np

DIRK_SETUP = 6  # R-TWO-3
DIRK_AFTER_SCORING_1 = 6
DIRK_CAP_AFTER_SCORING_2 = 6


@define(slots=True)
class DirkState:
    """Dirk's collection: ``tiles`` (public) and ``score`` (kept for the record, R-TWO-4)."""

    tiles: list[Any] = field(factory=list)
    score: int = 0

    def clone(self) -> "DirkState":
        return DirkState(self.tiles.copy(), self.score)


def dirk(game: GameLike) -> DirkState | None:
    """Dirk's state, or None when the game is not a two-player game."""
    return game.state.modules.get("dirk")


def dirk_draw_after(number: int, bag_size: int) -> int:
    """How many buildings Dirk takes from the bag right after scoring ``number`` (R-TWO-3):
    6 after scoring 1; after scoring 2 a third of the bag, rounded down, at most 6."""
    if number == 1:
        return min(DIRK_AFTER_SCORING_1, bag_size)
    if number == 2:
        return min(bag_size // 3, DIRK_CAP_AFTER_SCORING_2)
    return 0


@hookimpl
def alhambra_state_classes() -> dict[str, type]:
    return {"dirk": DirkState}


@hookimpl(tryfirst=True)  # built-ins first: a house rule sees (and can change) Dirk's part
def alhambra_money_deck(game: GameLike, cards: list[Card]) -> None:
    """R-TWO-1: with two players one of the three copies of each money card is removed."""
    if game.num_players == 2:
        seen: dict[Card, int] = {}
        keep = []
        for c in cards:
            seen[c] = seen.get(c, 0) + 1
            if seen[c] <= 2:
                keep.append(c)
        cards[:] = keep


@hookimpl
def alhambra_setup(game: GameLike) -> None:
    """R-TWO-3: Dirk receives 6 random buildings from the bag at setup."""
    if game.num_players == 2:
        bag = game.state.bag
        game.state.modules["dirk"] = DirkState([bag.pop() for _ in range(min(DIRK_SETUP, len(bag)))])


@hookimpl(tryfirst=True)  # built-ins first: a house rule sees (and can change) Dirk's part
def alhambra_building_counts(game: GameLike, number: int, counts: dict[int, dict[str, int]]) -> None:
    """R-TWO-4: Dirk takes part in the majorities like a player (buildings only)."""
    d = dirk(game)
    if d is not None:
        catalog = game.rules.catalog
        mine = {t: 0 for t in counts[0]}
        for tile in d.tiles:
            spec = catalog[tile]
            if spec.kind == "building":
                kind = str(spec.type)
                mine[kind] = mine.get(kind, 0) + 1
        counts[game.num_players] = mine


@hookimpl
def alhambra_after_scoring(game: GameLike, number: int) -> None:
    """Record Dirk's points, then his draw after scorings 1 and 2 (R-TWO-3)."""
    d = dirk(game)
    if d is None:
        return
    record = game.state.scorings[-1]
    me = game.num_players
    if me in record.participants:
        d.score += record.totals[record.participants.index(me)]
    bag = game.state.bag
    for _ in range(dirk_draw_after(number, len(bag))):
        d.tiles.append(bag.pop())


def _legal_give(game: GameLike, seat: int) -> Sequence[Action]:
    if dirk(game) is None:
        return []
    seen, out = set(), []
    for p in game.state.pending:
        if p.dirk_ok and p.tile not in seen:
            seen.add(p.tile)
            out.append(GiveToDirk(p.tile))
    return out


def _check_give(game: GameLike, seat: int, action: GiveToDirk) -> None:
    if dirk(game) is None:
        raise IllegalActionError("R-TWO-5: only in a two-player game can buildings go to Dirk")
    i = pending_index(game, action.tile)
    if not game.state.pending[i].dirk_ok:
        raise IllegalActionError(f"R-TWO-5: only buildings bought this turn may go to Dirk, not {action.tile!r}")


def _apply_give(game: GameLike, seat: int, action: GiveToDirk) -> Next | None:
    st = game.state
    i = pending_index(game, action.tile)
    del st.pending[i]
    d = dirk(game)
    if d is not None:  # GiveToDirk is listed only when Dirk plays
        d.tiles.append(action.tile)
    return None  # the engine goes on once nothing is pending (R-TURN-7)


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [ActionKind(GiveToDirk, {"place"}, _legal_give, _apply_give, _check_give)]


@hookimpl
def alhambra_tile_locations(game: GameLike) -> dict[str, list[Any]] | None:
    d = dirk(game)
    return {"dirk": list(d.tiles)} if d is not None else None


@hookimpl(tryfirst=True)  # built-ins first: a house rule sees (and can change) Dirk's part
def alhambra_view(game: GameLike, seat: int | None, view: dict[str, Any]) -> None:
    d = dirk(game)
    if d is not None:
        view["dirk"] = {"tiles": list(d.tiles), "score": d.score}


def _observed(
    game: GameLike, seat: int, layout: ObservationLayout, cache: dict[Any, Any]
) -> tuple[tuple[Any, ...], int] | None:
    d = dirk(game)
    return None if d is None else (tuple(d.tiles), d.score)


def _write_observed(
    out: dict[str, np.ndarray],
    seen: tuple[tuple[Any, ...], int] | None,
    order: Sequence[int],
    layout: ObservationLayout,
) -> None:
    if seen is None:
        return
    tiles, score = seen
    ti = layout.tile_index
    for t in tiles:
        out["tiles"][ti[t]] = 1
    out["score"][0] = score


def _encode_observed(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], layout: ObservationLayout
) -> None:
    _write_observed(out, (tuple(part["tiles"]), part["score"]), order, layout)


@hookimpl
def alhambra_observation_parts(game: GameLike, layout: ObservationLayout) -> list[ObservationPart] | None:
    """``dirk.tiles`` (one flag per tile: Dirk's buildings) and ``dirk.score`` (his points,
    R-TWO-3/4), in two-player games only."""
    if game.num_players != 2:
        return None
    return [
        ObservationPart(
            "dirk",
            {"tiles": (len(layout.tiles),), "score": (1,)},
            _encode_observed,
            _observed,
            _write_observed,
            high={"score": 10_000},
        )
    ]


@hookimpl
def alhambra_position_part(game: GameLike) -> dict[str, Any] | None:
    """Dirk's part of a position: ``[dirk]`` with his ``tiles`` and ``score`` (R-TWO-3/4)."""
    d = dirk(game)
    return {"dirk": {"tiles": list(d.tiles), "score": d.score}} if d is not None else None


@hookimpl
def alhambra_position_read(game: GameLike, parts: dict[str, Any]) -> list[str] | None:
    """``[dirk]``: ``tiles`` (default: the six the set-up gave him, R-TWO-3, less any the
    position has placed elsewhere) and ``score`` (default 0). Only in a two-player game."""
    from ..errors import ConfigError

    part = parts.get("dirk")
    if game.num_players != 2:
        if part is not None:
            raise ConfigError("dirk: Dirk plays only in a two-player game (R-TWO-1)")
        return ["dirk"]
    d = dirk(game)
    if part is None:
        if d is None:  # pragma: no cover - the set-up gives a two-player game its Dirk
            return ["dirk"]
        placed = {t for where, tiles in tile_locations(game).items() if where != "dirk" for t in tiles}
        d.tiles = [t for t in d.tiles if t not in placed]
        return ["dirk"]
    if not isinstance(part, dict) or set(part) - {"tiles", "score"}:
        raise ConfigError(f"dirk: a table with 'tiles' and 'score', not {part!r}")
    tiles = part.get("tiles", [])
    score = part.get("score", 0)
    catalog = game.rules.catalog
    if not isinstance(tiles, list) or any(type(t) is not int or not 1 <= t <= 54 or t not in catalog for t in tiles):
        raise ConfigError(f"dirk.tiles: Dirk holds buildings 1-54 only (R-TWO-3, R-HUT-3), not {tiles!r}")
    if type(score) is not int or score < 0:
        raise ConfigError(f"dirk.score: points are an integer >= 0, not {score!r}")
    game.state.modules["dirk"] = DirkState(list(tiles), score)
    return ["dirk"]
