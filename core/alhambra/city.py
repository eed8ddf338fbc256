"""One player's Alhambra: the grid of tiles around the Lion Fountain, and its rules.

The placement rules (R-PLACE-1 … R-PLACE-7), removal validity (R-TURN-6) and the longest
outer wall (R-SCORE-5) are small functions of the grid; :class:`Alhambra` wraps them with a
cache so that the engine's hot path (listing legal placements) does not search the whole board
for every candidate.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Iterator, Mapping

from .components import (
    BASE_CATALOG,
    BUILDING_TYPES,
    EAST,
    FOUNTAIN,
    NORTH,
    SOUTH,
    WEST,
    TileCatalog,
    wall_names,
)
from .errors import ConfigError, IllegalActionError

Pos = tuple[int, int]
ORIGIN: Pos = (0, 0)

#: (dx, dy, this tile's side, the neighbour's facing side)
SIDES = ((0, -1, NORTH, SOUTH), (1, 0, EAST, WEST), (0, 1, SOUTH, NORTH), (-1, 0, WEST, EAST))
_SIDE_WORD = {NORTH: "north", EAST: "east", SOUTH: "south", WEST: "west"}
HOLES_MODES = ("cell", "region")
_WITHIN_ONE = ((0, 0), (0, -1), (1, 0), (0, 1), (-1, 0))
_WITHIN_TWO = tuple((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if abs(dx) + abs(dy) <= 2)


class Alhambra:
    """One player's Alhambra as a value: ``{(x, y): tile_id}`` with the fountain at ``(0, 0)``.

    Build one directly for tests and analysis::

        city = Alhambra.from_tiles({(1, 0): 21, (0, 1): 7})   # fountain implied at (0, 0)
        city.can_place(22, (-1, 0)); city.placements(22); city.longest_outer_wall()

    ``catalog`` maps tile ids to their walls and types (default: fountain + 54 buildings).
    ``holes`` is the R-PLACE-6 variant option: ``"cell"`` (default: only a single empty cell
    enclosed on four sides is a hole) or ``"region"`` (no enclosed empty area of any size).

    Queries (``can_place``, ``placements``, ``can_remove``, ``can_swap``, ``longest_outer_wall``)
    never change the city. Mutators (``place``, ``remove``, ``swap``) check the rules first and
    raise :class:`IllegalActionError` (citing the rule) without changing anything.
    """

    __slots__ = ("_tiles", "_walls", "catalog", "holes", "_frontier", "_place_cache", "_wall_len", "memo",
                 "_cell_info", "_swap_info")

    def __init__(self, catalog: TileCatalog = BASE_CATALOG, holes: str = "cell"):
        if holes not in HOLES_MODES:
            raise ConfigError(f"holes must be one of {HOLES_MODES}, not {holes!r}")
        self.catalog = catalog
        self.holes = holes
        self._tiles: dict[Pos, int | str] = {ORIGIN: FOUNTAIN}
        self._walls: dict[Pos, int] = {ORIGIN: catalog.walls[FOUNTAIN]}
        self._invalidate()

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_tiles(
        cls,
        tiles: Mapping[Pos, int | str],
        *,
        catalog: TileCatalog = BASE_CATALOG,
        holes: str = "cell",
        check: bool = True,
    ) -> "Alhambra":
        """Build an Alhambra from ``{(x, y): tile_id}``; the fountain at ``(0, 0)`` is implied.

        With ``check`` (default) the layout must satisfy the placement rules as a whole
        (R-PLACE-2/3/5/6: every tile reachable from the fountain, walls matching, no hole);
        otherwise :class:`ConfigError` says what is wrong. Unknown tile ids, a second fountain
        or a tile at ``(0, 0)`` are always a :class:`ConfigError`.
        """
        city = cls(catalog, holes)
        seen = set()
        for pos, tile in tiles.items():
            pos = _as_pos(pos)
            if pos == ORIGIN:
                if tile == FOUNTAIN:
                    continue
                raise ConfigError("(0, 0) holds the fountain (R-COMP-1)")
            if tile not in catalog or tile == FOUNTAIN:
                raise ConfigError(f"unknown tile id {tile!r} at {pos}")
            if tile in seen:
                raise ConfigError(f"tile {tile!r} appears twice")
            seen.add(tile)
            city._tiles[pos] = tile
            city._walls[pos] = catalog.walls[tile]
        if check:
            problem = city.why_invalid()
            if problem:
                raise ConfigError(problem)
        return city

    def copy(self) -> "Alhambra":
        """An independent copy (caches are shared until either side changes)."""
        new = Alhambra.__new__(Alhambra)
        new.catalog = self.catalog
        new.holes = self.holes
        new._tiles = self._tiles.copy()
        new._walls = self._walls.copy()
        new._frontier = self._frontier
        new._place_cache = self._place_cache  # replaced (not mutated) on change
        new._wall_len = self._wall_len
        new.memo = self.memo  # replaced (not mutated) on change
        new._cell_info = self._cell_info.copy()
        new._swap_info = self._swap_info.copy()
        return new

    def _invalidate(self) -> None:
        """Drop every cache (a new or rebuilt layout)."""
        self._frontier = None
        self._cell_info: dict = {}
        self._swap_info: dict = {}
        self._changed()

    def _changed(self, pos: Pos | None = None) -> None:
        """The tile at ``pos`` changed: drop what depends on it. Frontier-cell facts depend on
        cells up to two steps away (walls of neighbours, holes next to neighbours), tile facts
        on the neighbours; under ``holes = "region"`` every hole fact may change."""
        if pos is not None:
            x, y = pos
            info = self._cell_info
            if self.holes == "cell":
                for dx, dy in _WITHIN_TWO:
                    info.pop((x + dx, y + dy), None)
            else:
                info.clear()
            for dx, dy in _WITHIN_ONE:
                self._swap_info.pop((x + dx, y + dy), None)
        self._place_cache = {}
        self._wall_len = None
        #: Scratch dict for values derived from this layout (rule plugins cache legal actions
        #: here). A copy shares it while both have the same layout; any change replaces it.
        self.memo = {}

    # -- reading ------------------------------------------------------------------------------

    @property
    def tiles(self) -> dict[Pos, int | str]:
        """A copy of the grid ``{(x, y): tile_id}``, fountain included."""
        return dict(self._tiles)

    def __contains__(self, pos) -> bool:
        return pos in self._tiles

    def __len__(self) -> int:
        return len(self._tiles)

    def __iter__(self) -> Iterator[Pos]:
        return iter(self._tiles)

    def __eq__(self, other) -> bool:
        return isinstance(other, Alhambra) and self._tiles == other._tiles and self.holes == other.holes

    def __repr__(self) -> str:
        body = ", ".join(f"{p}: {t!r}" for p, t in sorted(self._tiles.items()) if p != ORIGIN)
        return f"Alhambra.from_tiles({{{body}}})"

    def tile_at(self, pos: Pos) -> int | str | None:
        """The tile id at ``pos``, or ``None`` for an empty cell."""
        return self._tiles.get(pos)

    def tile_ids(self) -> frozenset:
        """The ids of the tiles in this Alhambra, fountain included (cached until it changes)."""
        found = self.memo.get("tile_ids")
        if found is None:
            found = self.memo["tile_ids"] = frozenset(self._tiles.values())
        return found

    def has_tile(self, tile) -> bool:
        """True if ``tile`` stands in this Alhambra."""
        return tile in self.tile_ids()

    def position_of(self, tile) -> Pos | None:
        """Where ``tile`` stands, or ``None`` if it is not in this Alhambra."""
        for p, t in self._tiles.items():
            if t == tile:
                return p
        return None

    def type_counts(self) -> dict[str, int]:
        """Buildings per type in this Alhambra (R-SCORE-2): only tiles of kind ``building``
        count (the fountain and module tiles such as huts do not). Every type is a key."""
        counts = dict.fromkeys(BUILDING_TYPES, 0)
        cat = self.catalog
        for t in self._tiles.values():
            spec = cat[t]
            if spec.kind == "building":
                counts[spec.type] += 1
        return counts

    # -- placement (R-PLACE-1 … R-PLACE-6) -----------------------------------------------------

    def frontier(self) -> frozenset[Pos]:
        """Empty cells that share a side with a tile: the only cells a tile can go (R-PLACE-2)."""
        if self._frontier is None:
            tiles = self._tiles
            out = set()
            for (x, y) in tiles:
                for dx, dy, _, _ in SIDES:
                    q = (x + dx, y + dy)
                    if q not in tiles:
                        out.add(q)
            self._frontier = frozenset(out)
        return self._frontier

    def why_not_place(self, tile, pos: Pos) -> str | None:
        """Why ``tile`` cannot be built at ``pos`` (a sentence citing the rule), or ``None``
        when it can. Checks R-PLACE-4, -2, -3, -5 and -6 in that order."""
        pos = _as_pos(pos)
        if tile not in self.catalog or tile == FOUNTAIN:
            return f"unknown tile {tile!r}"
        if pos in self._tiles:
            return f"R-PLACE-4: cell {pos} is not empty"
        mask = self.catalog.walls[tile]
        x, y = pos
        walls = self._walls
        touching = connected = False
        for dx, dy, side, opp in SIDES:
            q = (x + dx, y + dy)
            m = walls.get(q)
            if m is None:
                continue
            touching = True
            mine, theirs = mask & side, m & opp
            if bool(mine) != bool(theirs):
                return (
                    f"R-PLACE-3: the {_SIDE_WORD[side]} side of tile {tile!r} at {pos} "
                    f"({'wall' if mine else 'open'}) does not match tile {self._tiles[q]!r} at {q} "
                    f"({'wall' if theirs else 'open'})"
                )
            if not mine:
                connected = True
        if not touching:
            return f"R-PLACE-2: cell {pos} shares no side with a tile of the Alhambra"
        if not connected:
            return f"R-PLACE-5: tile {tile!r} at {pos} cannot be reached on foot from the fountain (every shared side is walled)"
        hole = self._hole_after_placing(pos)
        if hole is not None:
            return f"R-PLACE-6: building at {pos} would leave a hole at {hole}"
        return None

    def can_place(self, tile, pos: Pos) -> bool:
        """True if ``tile`` may be built at ``pos`` (R-PLACE-2 … R-PLACE-6)."""
        return self.why_not_place(tile, pos) is None

    def placements(self, tile) -> list[Pos]:
        """Every cell where ``tile`` may be built, sorted by ``(x, y)``.

        Only the tile's wall mask matters, so results are cached per mask until the city
        changes. Raises :class:`ConfigError` for an unknown tile id."""
        try:
            mask = self.catalog.walls[tile]
        except KeyError:
            raise ConfigError(f"unknown tile id {tile!r}") from None
        cached = self._place_cache.get(mask)
        if cached is None:
            # a cell fits when the tile has walls exactly where its neighbours face it with
            # walls (R-PLACE-3) and at least one shared side is open (R-PLACE-5)
            cached = self._place_cache[mask] = tuple(
                pos for pos, touch, need in self._cell_needs() if (mask & touch) == need and touch & ~mask
            )
        return list(cached)

    def _cell_needs(self) -> list:
        """For every frontier cell where building would leave no hole (R-PLACE-6), sorted:
        ``(pos, touching sides, sides that must be walled)`` as bitmasks. Each cell's facts are
        kept until a tile within two steps of it changes."""
        found = self.memo.get("cell_needs")
        if found is not None:
            return found
        walls = self._walls
        info = self._cell_info
        out = []
        for pos in sorted(self.frontier()):
            fact = info.get(pos)
            if fact is None:
                fact = info[pos] = (*self._wall_needs(pos), self._hole_after_placing(pos) is None)
            if fact[2]:
                out.append((pos, fact[0], fact[1]))
        self.memo["cell_needs"] = out
        return out

    def _wall_needs(self, pos: Pos) -> tuple[int, int]:
        """``(touching sides, sides that must be walled)`` of cell ``pos`` as bitmasks: a tile
        fits there when it has walls exactly on the walled sides it touches (R-PLACE-3)."""
        walls = self._walls
        x, y = pos
        touch = need = 0
        for dx, dy, side, opp in SIDES:
            m = walls.get((x + dx, y + dy))
            if m is not None:
                touch |= side
                if m & opp:
                    need |= side
        return touch, need

    def _hole_after_placing(self, pos: Pos) -> Pos | None:
        """An empty neighbour of ``pos`` that would become a hole (R-PLACE-6), or ``None``."""
        tiles = self._tiles
        x, y = pos
        cell = self.holes == "cell"
        for q in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if q in tiles:
                continue
            qx, qy = q
            if cell:
                # q's four neighbours, with pos counted as built
                if (((qx, qy - 1) in tiles or (qx, qy - 1) == pos)
                        and ((qx + 1, qy) in tiles or (qx + 1, qy) == pos)
                        and ((qx, qy + 1) in tiles or (qx, qy + 1) == pos)
                        and ((qx - 1, qy) in tiles or (qx - 1, qy) == pos)):
                    return q
            elif not self._reaches_outside(q, filled=pos):
                return q
        return None

    def _reaches_outside(self, start: Pos, filled: Pos | None = None, emptied: Pos | None = None) -> bool:
        """True if the empty cell ``start`` connects through empty cells to the unbounded
        outside (beyond the bounding box), with ``filled`` counted as a tile and ``emptied`` as
        empty. Used by the ``holes = "region"`` variant of R-PLACE-6."""
        tiles = self._tiles
        xs = [p[0] for p in tiles]
        ys = [p[1] for p in tiles]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)

        def occupied(c):
            if c == emptied:
                return False
            return c in tiles or c == filled

        seen = {start}
        stack = [start]
        while stack:
            cx, cy = stack.pop()
            if cx <= x0 or cx >= x1 or cy <= y0 or cy >= y1:
                return True
            for dx, dy, _, _ in SIDES:
                c = (cx + dx, cy + dy)
                if c not in seen and not occupied(c):
                    seen.add(c)
                    stack.append(c)
        return False

    # -- removal and swap (R-TURN-5, R-TURN-6) --------------------------------------------------

    def why_not_remove(self, pos: Pos) -> str | None:
        """Why the tile at ``pos`` cannot be removed to the reserve (citing the rule), or ``None``.

        The fountain never moves (R-TURN-5); what remains must satisfy the placement rules as a
        whole: every tile reachable on foot from the fountain, no hole (R-TURN-6)."""
        pos = _as_pos(pos)
        if pos == ORIGIN:
            return "R-TURN-5: the fountain can never be removed"
        if pos not in self._tiles:
            return f"R-TURN-5: there is no tile at {pos}"
        tiles = self._tiles
        x, y = pos
        if self.holes == "cell":
            if all((x + dx, y + dy) in tiles for dx, dy, _, _ in SIDES):
                return f"R-TURN-6: removing the tile at {pos} would leave a hole there"
        elif not self._reaches_outside(pos, emptied=pos):
            return f"R-TURN-6: removing the tile at {pos} would leave an enclosed empty area"
        # every remaining tile must stay reachable through open sides (R-PLACE-5)
        walls = self._walls
        seen = {ORIGIN}
        stack = [ORIGIN]
        while stack:
            cx, cy = stack.pop()
            m = walls[(cx, cy)]
            for dx, dy, side, _ in SIDES:
                if m & side:
                    continue
                q = (cx + dx, cy + dy)
                if q != pos and q in tiles and q not in seen:
                    seen.add(q)
                    stack.append(q)
        if len(seen) != len(tiles) - 1:
            cut = sorted(set(tiles) - seen - {pos})
            return f"R-TURN-6: removing the tile at {pos} would cut {cut} off from the fountain"
        return None

    def can_remove(self, pos: Pos) -> bool:
        """True if the tile at ``pos`` may be moved to the reserve (R-TURN-5, R-TURN-6)."""
        return self.why_not_remove(pos) is None

    def removable(self) -> list[Pos]:
        """Every position whose tile may be removed (R-TURN-5 ii, R-TURN-6), sorted.

        One pass: a tile may go unless it is a cut vertex of the graph of open shared sides
        (its removal would cut tiles off from the fountain) or its removal would leave a hole.
        Cached until the Alhambra changes."""
        cached = self.memo.get("removable")
        if cached is None:
            cuts = self._cut_positions()
            tiles = self._tiles
            out = []
            for p in tiles:
                if p == ORIGIN or p in cuts:
                    continue
                x, y = p
                if self.holes == "cell":
                    if (x, y - 1) in tiles and (x + 1, y) in tiles and (x, y + 1) in tiles and (x - 1, y) in tiles:
                        continue
                elif not self._reaches_outside(p, emptied=p):
                    continue
                out.append(p)
            out.sort()
            cached = self.memo["removable"] = tuple(out)
        return list(cached)

    def _cut_positions(self) -> set[Pos]:
        """Articulation points of the open-side graph, rooted at the fountain (iterative
        Tarjan): the tiles whose removal disconnects others from the fountain."""
        walls, tiles = self._walls, self._tiles
        adj: dict[Pos, list[Pos]] = {}
        for (x, y), m in walls.items():
            out = []
            if not m & NORTH and (x, y - 1) in tiles:
                out.append((x, y - 1))
            if not m & EAST and (x + 1, y) in tiles:
                out.append((x + 1, y))
            if not m & SOUTH and (x, y + 1) in tiles:
                out.append((x, y + 1))
            if not m & WEST and (x - 1, y) in tiles:
                out.append((x - 1, y))
            adj[(x, y)] = out
        disc = {ORIGIN: 0}
        low = {ORIGIN: 0}
        cuts: set[Pos] = set()
        counter = 1
        stack = [(ORIGIN, None, iter(adj[ORIGIN]))]
        while stack:
            v, parent, it = stack[-1]
            for w in it:
                if w == parent:
                    continue
                if w in disc:
                    if disc[w] < low[v]:
                        low[v] = disc[w]
                else:
                    disc[w] = low[w] = counter
                    counter += 1
                    stack.append((w, v, iter(adj[w])))
                    break
            else:
                stack.pop()
                if parent is not None:
                    if low[v] < low[parent]:
                        low[parent] = low[v]
                    if parent != ORIGIN and low[v] >= disc[parent]:
                        cuts.add(parent)
        return cuts

    def why_not_swap(self, tile, pos: Pos) -> str | None:
        """Why ``tile`` (from the reserve) cannot take the place of the tile at ``pos``, or ``None``.

        The new tile takes exactly the same position and must satisfy the placement rules
        (R-TURN-5 iii): its walls must match every neighbour (R-PLACE-3). Since matching sides
        equal the old tile's, reachability and holes are unchanged."""
        pos = _as_pos(pos)
        if pos == ORIGIN:
            return "R-TURN-5: the fountain can never be swapped"
        if pos not in self._tiles:
            return f"R-TURN-5: there is no tile at {pos} to swap"
        if tile not in self.catalog or tile == FOUNTAIN:
            return f"unknown tile {tile!r}"
        mask = self.catalog.walls[tile]
        x, y = pos
        for dx, dy, side, opp in SIDES:
            q = (x + dx, y + dy)
            m = self._walls.get(q)
            if m is not None and bool(mask & side) != bool(m & opp):
                return (
                    f"R-PLACE-3: the {_SIDE_WORD[side]} side of tile {tile!r} would not match "
                    f"tile {self._tiles[q]!r} at {q}"
                )
        return None

    def can_swap(self, tile, pos: Pos) -> bool:
        """True if ``tile`` may replace the tile at ``pos`` (R-TURN-5 iii, R-PLACE-3)."""
        return self.why_not_swap(tile, pos) is None

    def swap_positions(self, tile) -> list[Pos]:
        """Every position where ``tile`` could replace the tile standing there, sorted."""
        mask = self.catalog.walls[tile]
        key = ("swap", mask)
        cached = self.memo.get(key)
        if cached is None:
            walls = self._walls
            info = self._swap_info
            out = []
            for pos in self._tiles:
                if pos == ORIGIN:
                    continue
                fact = info.get(pos)
                if fact is None:
                    fact = info[pos] = self._wall_needs(pos)
                if (mask & fact[0]) == fact[1]:
                    out.append(pos)
            out.sort()
            cached = self.memo[key] = tuple(out)
        return list(cached)

    # -- mutation -----------------------------------------------------------------------------

    def place(self, tile, pos: Pos, *, checked: bool = False) -> None:
        """Build ``tile`` at ``pos``. Raises :class:`IllegalActionError` (unchanged city) if the
        placement rules forbid it; also if the tile already stands in this Alhambra.
        ``checked=True`` skips the checks: for callers that already know the move is legal
        (the engine, for an action it listed)."""
        if not checked:
            pos = _as_pos(pos)
            why = self.why_not_place(tile, pos)
            if why is None and tile in self._tiles.values():
                why = f"tile {tile!r} is already in this Alhambra"
            if why:
                raise IllegalActionError(why)
        self._tiles[pos] = tile
        self._walls[pos] = self.catalog.walls[tile]
        if self._frontier is not None:
            x, y = pos
            self._frontier = self._frontier.difference((pos,)).union(
                q for q in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)) if q not in self._tiles)
        self._changed(pos)

    def remove(self, pos: Pos, *, checked: bool = False):
        """Remove the tile at ``pos`` and return its id (R-TURN-5 ii, R-TURN-6);
        ``checked=True`` skips the checks (see :meth:`place`)."""
        if not checked:
            pos = _as_pos(pos)
            why = self.why_not_remove(pos)
            if why:
                raise IllegalActionError(why)
        del self._walls[pos]
        tile = self._tiles.pop(pos)
        if self._frontier is not None:
            tiles = self._tiles
            x, y = pos
            gone = [q for q in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                    if q not in tiles and not any((q[0] + dx, q[1] + dy) in tiles for dx, dy, _, _ in SIDES)]
            self._frontier = self._frontier.difference(gone).union((pos,))
        self._changed(pos)
        return tile

    def swap(self, tile, pos: Pos, *, checked: bool = False):
        """Put ``tile`` at ``pos`` in place of the tile there; return the old tile's id
        (R-TURN-5 iii); ``checked=True`` skips the checks (see :meth:`place`)."""
        if not checked:
            pos = _as_pos(pos)
            why = self.why_not_swap(tile, pos)
            if why:
                raise IllegalActionError(why)
        old = self._tiles[pos]
        self._tiles[pos] = tile
        self._walls[pos] = self.catalog.walls[tile]
        self._changed(pos)
        return old

    # -- whole-city checks ----------------------------------------------------------------------

    def why_invalid(self) -> str | None:
        """Why this Alhambra breaks the placement rules as a whole, or ``None`` if it is valid:
        fountain at (0, 0), walls match on every shared side (R-PLACE-3), every tile reachable
        from the fountain through open sides (R-PLACE-5), and no hole (R-PLACE-6)."""
        tiles, walls = self._tiles, self._walls
        if tiles.get(ORIGIN) != FOUNTAIN:
            return "R-COMP-1: the fountain must stand at (0, 0)"
        for (x, y), m in walls.items():
            for dx, dy, side, opp in SIDES:
                q = (x + dx, y + dy)
                if q in walls and bool(m & side) != bool(walls[q] & opp):
                    return f"R-PLACE-3: walls do not match between {(x, y)} and {q}"
        seen = {ORIGIN}
        stack = [ORIGIN]
        while stack:
            cx, cy = stack.pop()
            for dx, dy, side, _ in SIDES:
                q = (cx + dx, cy + dy)
                if not walls[(cx, cy)] & side and q in tiles and q not in seen:
                    seen.add(q)
                    stack.append(q)
        if len(seen) != len(tiles):
            return f"R-PLACE-5: {sorted(set(tiles) - seen)} cannot be reached from the fountain"
        for q in self.frontier():
            qx, qy = q
            if self.holes == "cell":
                if all((qx + dx, qy + dy) in tiles for dx, dy, _, _ in SIDES):
                    return f"R-PLACE-6: hole at {q}"
            elif not self._reaches_outside(q):
                return f"R-PLACE-6: enclosed empty area at {q}"
        return None

    # -- walls (R-SCORE-5) ----------------------------------------------------------------------

    def outer_wall_segments(self) -> list[tuple[Pos, Pos]]:
        """Every outer wall segment as a pair of grid corners ``((x1, y1), (x2, y2))``.

        A segment is a wall on a tile side that faces an empty cell; a wall facing another
        tile (a double, inner wall) is not outer (R-SCORE-5). Corner ``(x, y)`` is the
        north-west corner of cell ``(x, y)``."""
        tiles = self._tiles
        segs = []
        for (x, y), m in self._walls.items():
            if not m:
                continue
            if m & NORTH and (x, y - 1) not in tiles:
                segs.append(((x, y), (x + 1, y)))
            if m & EAST and (x + 1, y) not in tiles:
                segs.append(((x + 1, y), (x + 1, y + 1)))
            if m & SOUTH and (x, y + 1) not in tiles:
                segs.append(((x, y + 1), (x + 1, y + 1)))
            if m & WEST and (x - 1, y) not in tiles:
                segs.append(((x, y), (x, y + 1)))
        return segs

    def longest_outer_wall(self) -> int:
        """Length (in tile sides) of the longest continuous outer wall (R-SCORE-5).

        Segments join where they share a grid corner; the length is the longest trail (no
        segment used twice; corners may repeat), so a closed ring counts every segment."""
        if self._wall_len is None:
            self._wall_len = longest_trail(self.outer_wall_segments())
        return self._wall_len

    # -- display ------------------------------------------------------------------------------

    def render(self) -> str:
        """A text grid of this Alhambra with walls drawn: ``#`` marks a wall side, ``F`` the
        fountain, building ids and hut ids inside the cells. Three text rows per grid row."""
        xs = [p[0] for p in self._tiles]
        ys = [p[1] for p in self._tiles]
        lines = []
        for y in range(min(ys), max(ys) + 1):
            top, mid, bot = [], [], []
            for x in range(min(xs), max(xs) + 1):
                t = self._tiles.get((x, y))
                if t is None:
                    top.append("     ")
                    mid.append("  .  ")
                    bot.append("     ")
                    continue
                m = self._walls[(x, y)]
                label = "F" if t == FOUNTAIN else str(t)
                top.append("+" + ("###" if m & NORTH else "---") + "+")
                mid.append(("#" if m & WEST else "|") + label.center(3)[:3] + ("#" if m & EAST else "|"))
                bot.append("+" + ("###" if m & SOUTH else "---") + "+")
            lines += ["".join(top), "".join(mid), "".join(bot)]
        return "\n".join(line.rstrip() for line in lines)


def longest_trail(segments: Iterable[tuple[Pos, Pos]]) -> int:
    """Longest trail (path that repeats no edge) in the graph of wall segments.

    A connected component with at most two odd-degree corners has an Euler trail, so all its
    segments count; other components (rare) are searched exhaustively. Returns 0 for none."""
    adj: dict[Pos, list[tuple[Pos, int]]] = {}
    for i, (a, b) in enumerate(segments):
        adj.setdefault(a, []).append((b, i))
        adj.setdefault(b, []).append((a, i))
    best = 0
    seen: set[Pos] = set()
    for start in adj:
        if start in seen:
            continue
        comp, stack = [start], [start]
        seen.add(start)
        while stack:
            v = stack.pop()
            for w, _ in adj[v]:
                if w not in seen:
                    seen.add(w)
                    comp.append(w)
                    stack.append(w)
        edges = sum(len(adj[v]) for v in comp) // 2
        if edges <= best:
            continue
        odd = [v for v in comp if len(adj[v]) % 2]
        if len(odd) <= 2:
            best = edges
            continue
        best = max(best, _search_trail(adj, comp, edges))
    return best


def _search_trail(adj, comp, limit: int) -> int:
    used: set[int] = set()
    best = 0

    def walk(v, length):
        nonlocal best
        if length > best:
            best = length
        for w, i in adj[v]:
            if i not in used and best < limit:
                used.add(i)
                walk(w, length + 1)
                used.discard(i)

    for v in comp:
        if len(adj[v]) % 2:  # a longest trail in a non-Eulerian component starts at an odd corner
            walk(v, 0)
    return best


def _as_pos(pos) -> Pos:
    try:
        x, y = pos
    except (TypeError, ValueError):
        raise IllegalActionError(f"a position is a pair of integers (x, y), not {pos!r}") from None
    if type(x) is not int or type(y) is not int:
        if isinstance(x, bool) or isinstance(y, bool) or not (isinstance(x, int) and isinstance(y, int)):
            raise IllegalActionError(f"a position is a pair of integers (x, y), not {pos!r}")
        x, y = int(x), int(y)
    return (x, y)
