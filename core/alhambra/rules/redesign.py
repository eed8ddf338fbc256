"""Built-in plugin ``core.redesign``: redesigning the Alhambra (R-TURN-5, R-TURN-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..engine.actions import ActionKind, ActionRow, BuildFromReserve, RemoveToReserve, Swap, action_row, actions_at
from ..engine.city import cell_position
from .placement_rules import OPEN_LEAF, PLACE_ANY, PLACE_OK, SWAP_OK, PlacementRules
from ..engine.operations import city_changed
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
    listed in one pass over the Alhambra and kept with its layout for the reserve it was made
    for. The builds ignore ``alhambra_placement_filter`` (see ``_legal_build``). Do not
    change the lists returned."""
    p = game.state.players[seat]
    city = p.city
    memo = city.memo
    reserve = p.reserve
    last: tuple[list[Any], tuple[list[Any], list[Any], list[Any]]] | None = memo.get("redesign")
    if last is not None and last[0] == reserve:
        return last[1]
    rules = cast(PlacementRules, city.rules)  # the rule set's: a PlacementRules (alhambra_placement_rules)
    walls = city.catalog.walls
    if not rules.tables:  # rules a plugin changed: judged cell by cell, through the city
        builds = [
            a for t in reserve for a in actions_at(BuildFromReserve, t, city.place_cells(walls[t]), cell_position)
        ]
        swaps = [a for t in reserve for a in actions_at(Swap, t, city.swap_cells(walls[t]), cell_position)]
        found = (builds, [_REMOVE_ROW[c] for c in city.removable_cells()], swaps)
        memo["redesign"] = (reserve.copy(), found)
        return found
    # the built-in tables decide (the facts count the sides declared open); tiles the rules
    # hold in place (R-GATE-7) are neither removed nor swapped
    tiles = city.tile_facts
    spots = sorted(tiles)
    held = rules.held_cells(city) if rules.holds else None
    if held:
        spots = [c for c in spots if c not in held]
    if city.is_tree() and city.holes == "cell":
        # the removable tiles are the leaves of the link graph that leave no hole (R-TURN-6;
        # see Alhambra.removable_cells), here found in the sorted cells the swaps need anyway
        removals = [_REMOVE_ROW[c] for c in spots if OPEN_LEAF[tiles[c]]]
    else:
        removals = [_REMOVE_ROW[c] for c in city.removable_cells()]
    builds = _table_builds(city, reserve)
    swaps = []
    for t in reserve:
        srow = (_TILE_ROWS.get(t) or _tile_rows(t))[1]
        fits = SWAP_OK[walls[t]]
        swaps += [srow[q] for q in spots if fits[tiles[q]]]
    found = (builds, removals, swaps)
    memo["redesign"] = (reserve.copy(), found)
    return found


def _build_sites(city: Any) -> list[int]:
    """The frontier cells (sorted) where some tile fits and building leaves no hole (R-PLACE-6)."""
    front = city.front_facts
    barred = city.barred_cells()
    sites = [q for q in sorted(front) if PLACE_ANY[front[q]]]  # cells some tile fits
    if barred:
        sites = [q for q in sites if q not in barred]
    return sites


def _table_builds(city: Any, reserve: Sequence[Any]) -> list[Any]:
    """The :class:`BuildFromReserve` actions of ``reserve`` as the built-in tables find them
    (R-PLACE-2 … R-PLACE-6; the facts count the sides declared open), as
    ``city.place_cells`` would list them."""
    if not reserve:
        return []
    front = city.front_facts
    sites = _build_sites(city)
    walls = city.catalog.walls
    builds: list[Any] = []
    for t in reserve:
        brow = (_TILE_ROWS.get(t) or _tile_rows(t))[0]
        fits = PLACE_OK[walls[t]]
        builds += [brow[q] for q in sites if fits[front[q]]]
    return builds


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
