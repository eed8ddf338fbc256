"""Built-in plugin ``core.redesign``: redesigning the Alhambra (R-TURN-5, R-TURN-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.actions import ActionKind, ActionRow, BuildFromReserve, RemoveToReserve, Swap, action_row, actions_at
from ..engine.city import cell_position
from ..engine.operations import city_changed
from .placement_rules import OPEN_LEAF
from ..engine.sequence import ACTION_DONE
from ..errors import IllegalActionError
from ..hookspec import hookimpl

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from ..engine.actions import Action
    from ..engine.protocol import GameLike
    from ..engine.sequence import Next
    from collections.abc import Sequence

#: the rows (``action_row``) of RemoveToReserve, and of BuildFromReserve and Swap by tile,
#: keyed by the city's cell numbers (the per-tile pairs save two look-ups by (class, tile,
#: position) per tile: about 2 % of the base game's instructions)
_REMOVE_ROW = action_row(RemoveToReserve, None, cell_position)
_TILE_ROWS: dict[Any, tuple[ActionRow, ActionRow]] = {}


def _tile_rows(tile: Any) -> tuple[ActionRow, ActionRow]:
    """The BuildFromReserve and Swap rows of ``tile`` (kept in ``_TILE_ROWS``)."""
    rows = _TILE_ROWS[tile] = (action_row(BuildFromReserve, tile, cell_position), action_row(Swap, tile, cell_position))
    return rows


def legal_positions(game: GameLike, seat: int, tile: Any) -> list[tuple[int, int]]:
    """Cells where ``seat`` may build ``tile`` now: the placement rules (R-PLACE-1 … -6) and
    any ``alhambra_placement_filter`` of the enabled plugins (R-PLACE-7)."""
    positions = game.state.players[seat].city.placements(tile)
    if game.rules.has_placement_filter:
        game.rules.fast.alhambra_placement_filter(game=game, seat=seat, tile=tile, positions=positions)
    return positions


def why_not_build(game: GameLike, seat: int, tile: Any, pos: Any) -> str | None:
    """Why ``seat`` may not build ``tile`` at ``pos``, or None."""
    city = game.state.players[seat].city
    why = city.why_not_place(tile, pos)
    if why is None and game.rules.has_placement_filter and tuple(pos) not in legal_positions(game, seat, tile):
        why = f"a rule of this game's plugins forbids building {tile} at {tuple(pos)}"
    return why


def _build_actions(game: GameLike, seat: int, tiles: Sequence[Any], action: type) -> list[Any]:
    """``action(tile, pos)`` for every tile of ``tiles`` (tile ids are unique: no repeats)
    and every cell where ``seat`` may build it."""
    out = []
    if game.rules.has_placement_filter:
        for t in tiles:
            out += actions_at(action, t, legal_positions(game, seat, t))
        return out
    city = game.state.players[seat].city
    walls = city.catalog.walls
    for t in tiles:
        out += actions_at(action, t, city.place_cells(walls[t]), cell_position)
    return out


def cached_build_actions(game: GameLike, seat: int, tiles: Sequence[Any], action: type) -> list[Any]:
    """:func:`_build_actions`, cached with ``seat``'s Alhambra layout for these tiles (dropped
    whenever it changes); not cached when a plugin filters placements (R-PLACE-7), since its
    answer may depend on more than the layout."""
    if game.rules.has_placement_filter:
        return _build_actions(game, seat, tiles, action)
    memo = game.state.players[seat].city.memo
    key = (action, *tiles)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _build_actions(game, seat, tiles, action)
    return found


def redesign_actions(game: GameLike, seat: int) -> tuple[list[Any], list[Any], list[Any]]:
    """``(builds, removals, swaps)``: the :class:`BuildFromReserve`, :class:`RemoveToReserve`
    and :class:`Swap` actions open to ``seat`` now (R-TURN-5, R-TURN-6, R-PLACE-1 … -6),
    as the Alhambra's placement rules list them (``place_cells``, ``swap_cells``,
    ``removable_cells``; with their tables, in one pass over the cells for the whole reserve),
    kept with its layout for the reserve it was made for. The builds ignore
    ``alhambra_placement_filter`` (see ``_legal_build``). Do not change the lists returned."""
    p = game.state.players[seat]
    city = p.city
    memo = city.memo
    reserve = p.reserve
    last: tuple[list[Any], tuple[list[Any], list[Any], list[Any]]] | None = memo.get("redesign")
    if last is not None and last[0] == reserve:
        return last[1]
    walls = city.catalog.walls
    rules = city.rules
    tables = rules.tables
    builds: list[Any] = []
    swaps: list[Any] = []
    if tables is None or tables.swap_ok is None or not reserve:
        # the city's listings (its rules' tables where they have them, else cell by cell)
        for t in reserve:
            brow, srow = _TILE_ROWS.get(t) or _tile_rows(t)
            mask = walls[t]
            builds += [brow[q] for q in city.place_cells(mask)]
            swaps += [srow[q] for q in city.swap_cells(mask)]
    else:
        # the same listings in one pass (Alhambra.place_cells and swap_cells with the rules'
        # tables: PlacementRules.place_cells and swap_cells), the cells filtered once for all
        # the tiles of the reserve; tiles held in place (R-GATE-7) are left out of the spots
        front, near = city.front_facts, city.tile_facts
        place_ok, swap_ok = tables.place_ok, tables.swap_ok
        sites = rules.build_sites(city, tables)
        spots = rules.swap_spots(city)
        for t in reserve:
            brow, srow = _TILE_ROWS.get(t) or _tile_rows(t)
            fits = place_ok[walls[t]]
            builds += [brow[q] for q in sites if fits[front[q]]]
            fits = swap_ok[walls[t]]
            swaps += [srow[q] for q in spots if fits[near[q]]]
    if rules.leaf_removals and city.is_tree():
        # the removable tiles are the leaves of the link graph that leave no hole (R-TURN-6,
        # as PlacementRules.removable_cells finds them), among the spots the swaps filter
        near = city.tile_facts
        removals = [_REMOVE_ROW[c] for c in rules.swap_spots(city) if OPEN_LEAF[near[c]]]
    else:
        removals = [_REMOVE_ROW[c] for c in city.removable_cells()]
    found = (builds, removals, swaps)
    memo["redesign"] = (reserve.copy(), found)
    return found


def _legal_build(game: GameLike, seat: int) -> Sequence[Action]:
    if game.rules.has_placement_filter:
        reserve = game.state.players[seat].reserve
        return _build_actions(game, seat, reserve, BuildFromReserve) if reserve else ()
    return redesign_actions(game, seat)[0]


def _check_build(game: GameLike, seat: int, action: BuildFromReserve) -> None:
    p = game.state.players[seat]
    if action.tile not in p.reserve:
        raise IllegalActionError(f"R-TURN-5: tile {action.tile!r} is not in the reserve")
    raise IllegalActionError(why_not_build(game, seat, action.tile, action.pos) or f"{action} is not legal now")


def _apply_build(game: GameLike, seat: int, action: BuildFromReserve) -> Next | None:
    p = game.state.players[seat]
    p.city.place(action.tile, action.pos, checked=True)
    p.reserve.remove(action.tile)
    city_changed(game, seat)
    return ACTION_DONE


def _legal_remove(game: GameLike, seat: int) -> Sequence[Action]:
    return redesign_actions(game, seat)[1]


def _check_remove(game: GameLike, seat: int, action: RemoveToReserve) -> None:
    raise IllegalActionError(game.state.players[seat].city.why_not_remove(action.pos) or f"{action} is not legal now")


def _apply_remove(game: GameLike, seat: int, action: RemoveToReserve) -> Next | None:
    p = game.state.players[seat]
    p.reserve.append(p.city.remove(action.pos, checked=True))
    city_changed(game, seat)
    return ACTION_DONE


def _legal_swap(game: GameLike, seat: int) -> Sequence[Action]:
    return redesign_actions(game, seat)[2]


def _check_swap(game: GameLike, seat: int, action: Swap) -> None:
    p = game.state.players[seat]
    if action.tile not in p.reserve:
        raise IllegalActionError(f"R-TURN-5: tile {action.tile!r} is not in the reserve")
    raise IllegalActionError(p.city.why_not_swap(action.tile, action.pos) or f"{action} is not legal now")


def _apply_swap(game: GameLike, seat: int, action: Swap) -> Next | None:
    p = game.state.players[seat]
    old = p.city.swap(action.tile, action.pos, checked=True)
    p.reserve.remove(action.tile)
    p.reserve.append(old)
    city_changed(game, seat)
    return ACTION_DONE


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [
        ActionKind(BuildFromReserve, {"turn"}, _legal_build, _apply_build, _check_build),
        ActionKind(RemoveToReserve, {"turn"}, _legal_remove, _apply_remove, _check_remove),
        ActionKind(Swap, {"turn"}, _legal_swap, _apply_swap, _check_swap),
    ]
