"""Built-in plugin ``core.placement``: placing bought or received tiles (R-TURN-7, R-END-3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.actions import ActionKind, Place, Reserve, interned
from ..engine.operations import city_changed, waiting_tiles
from ..errors import IllegalActionError
from ..hookspec import hookimpl
from .redesign import cached_build_actions, why_not_build
from . import placement_rules  # noqa: F401  (the placement rules, entered as the Alhambra's default)

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from ..engine.actions import Action
    from ..engine.protocol import GameLike
    from ..engine.sequence import Next
    from collections.abc import Sequence


def pending_index(game: GameLike, tile: Any) -> int:
    """Index of ``tile`` among the pending tiles; :class:`IllegalActionError` if not pending."""
    for i, p in enumerate(game.state.pending):
        if p.tile == tile:
            return i
    raise IllegalActionError(f"R-TURN-7: tile {tile!r} is not waiting to be placed")


def _legal_place(game: GameLike, seat: int) -> Sequence[Action]:
    return cached_build_actions(game, seat, waiting_tiles(game), Place)


def _check_place(game: GameLike, seat: int, action: Place) -> None:
    pending_index(game, action.tile)
    raise IllegalActionError(why_not_build(game, seat, action.tile, action.pos) or f"{action} is not legal now")


def _apply_place(game: GameLike, seat: int, action: Place) -> Next | None:
    st = game.state
    i = pending_index(game, action.tile)
    st.players[seat].city.place(action.tile, action.pos, checked=True)
    del st.pending[i]
    city_changed(game, seat)
    return None  # the same seat places the next tile; the engine goes on once none is pending


def _legal_reserve(game: GameLike, seat: int) -> Sequence[Action]:
    return [interned(Reserve, t) for t in waiting_tiles(game)]


def _check_reserve(game: GameLike, seat: int, action: Reserve) -> None:
    pending_index(game, action.tile)


def _apply_reserve(game: GameLike, seat: int, action: Reserve) -> Next | None:
    st = game.state
    i = pending_index(game, action.tile)
    del st.pending[i]
    st.players[seat].reserve.append(action.tile)
    return None


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [
        ActionKind(Place, {"place"}, _legal_place, _apply_place, _check_place),
        ActionKind(Reserve, {"place"}, _legal_reserve, _apply_reserve, _check_reserve),
    ]
