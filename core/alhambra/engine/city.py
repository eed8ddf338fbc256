"""One player's Alhambra: the grid of tiles around the Lion Fountain, and its rules.

The placement rules (R-PLACE-1 … R-PLACE-7), removal validity (R-TURN-6) and the longest
outer wall (R-SCORE-5) are small functions of the grid; :class:`Alhambra` wraps them with
incremental bookkeeping so that the engine's hot path (listing legal placements, removals and
swaps after every change) never searches the whole board for every candidate.

Positions in the API are ``(x, y)`` tuples. Inside, a cell is one int (``_cell``), so that a
neighbour is one addition: the tables below are facts about the grid, not rules.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping

from .components import (
    BASE_CATALOG,
    BUILDING_TYPES,
    EAST,
    FOUNTAIN,
    NORTH,
    SOUTH,
    WEST,
    TileCatalog,
)
from ..errors import ConfigError, IllegalActionError

Pos = tuple[int, int]
ORIGIN: Pos = (0, 0)

#: (dx, dy, this tile's side, the neighbour's facing side)
SIDES = ((0, -1, NORTH, SOUTH), (1, 0, EAST, WEST), (0, 1, SOUTH, NORTH), (-1, 0, WEST, EAST))
_SIDE_WORD = {NORTH: "north", EAST: "east", SOUTH: "south", WEST: "west"}
HOLES_MODES = ("cell", "region")

#: Positions are limited to ``|x|, |y| <= GRID_LIMIT``; an Alhambra (at most 55 tiles plus a
#: module's few) can never reach that far from the fountain.
GRID_LIMIT = 1000
_OFF = 1024
#: an odd stride (more than the 2 * 1024 values of y + _OFF), so that the low bits of a cell
#: number, which pick its slot in a small dict, vary with x as well as y: with 2048, every
#: cell of a row had the same low bits and the frontier and tile dicts were full of collisions
_STRIDE = 2051
_O = _OFF * _STRIDE + _OFF  # the fountain's cell
#: (step, this tile's side, the neighbour's facing side), north, east, south, west
_STEPS = ((-1, NORTH, SOUTH), (_STRIDE, EAST, WEST), (1, SOUTH, NORTH), (-_STRIDE, WEST, EAST))


def _fits(touch: int, need: int, *, open_side: bool) -> int:
    """Bit ``m`` set for every wall mask ``m`` that has walls exactly on the ``need`` sides
    among the ``touch`` sides (R-PLACE-3); with ``open_side``, also at least one touching side
    open (R-PLACE-5)."""
    out = 0
    for m in range(16):
        if (m & touch) == need and (not open_side or touch & ~m):
            out |= 1 << m
    return out


#: ``_PLACE_FIT[touch << 4 | need]``: masks that may be built on a cell (R-PLACE-3, -5);
#: ``_SWAP_FIT``: masks that may replace a tile (R-TURN-5 iii: walls match, reachability kept).
_PLACE_FIT = tuple(_fits(i >> 4, i & 15, open_side=True) for i in range(256))
_SWAP_FIT = tuple(_fits(i >> 4, i & 15, open_side=False) for i in range(256))
#: per 4-bit side mask: how many sides, and (for three) the step towards the missing side
_TOUCH_COUNT = tuple(bin(i).count("1") for i in range(16))
_MISSING_STEP = tuple(
    next((step for step, side, _ in _STEPS if not i & side), 0) if bin(i).count("1") == 3 else 0 for i in range(16)
)
#: per 4-bit mask of open links: the steps to the linked neighbours
_LINK_STEPS = tuple(tuple(step for step, side, _ in _STEPS if i & side) for i in range(16))

# Tables over the packed facts kept per cell, so that the hot queries filter whole dicts with
# plain iteration (``[q for q, v in facts.items() if table[v]]``).
# A frontier cell's fact is ``touch << 4 | need`` (8 bits); a tile's is
# ``_FOUNTAIN_BIT | touch << 4 | walls`` (9 bits, the fountain flagged).
_FOUNTAIN_BIT = 256
#: frontier fact -> True where a tile of wall mask m may be built (R-PLACE-3, -5), per mask
_PLACE_OK = tuple(tuple(bool(_PLACE_FIT[v] >> m & 1) for v in range(256)) for m in range(16))
#: frontier fact -> True for a cell with tiles on exactly three sides (a hole in waiting)
_THREE_SIDES = tuple(_TOUCH_COUNT[v >> 4] == 3 for v in range(256))
#: tile fact -> number of open links (sides with a neighbour and no wall; walls match there)
_LINKS = tuple(_TOUCH_COUNT[(v >> 4) & ~v & 15] for v in range(512))
#: tile fact -> the steps to the linked neighbours
_LINKED = tuple(_LINK_STEPS[(v >> 4) & ~v & 15] for v in range(512))
#: tile fact -> True for a leaf of the link graph other than the fountain; ``_ENCLOSED``:
#: True for a tile with neighbours on all four sides (removing it leaves a hole, R-TURN-6)
_LEAF = tuple(_LINKS[v] == 1 and not v & _FOUNTAIN_BIT for v in range(512))
_ENCLOSED = tuple((v >> 4) & 15 == 15 for v in range(512))
_OPEN_LEAF = tuple(_LEAF[v] and not _ENCLOSED[v] for v in range(512))
#: tile fact -> True where a tile of wall mask m may replace it (R-TURN-5 iii), per mask
#: (the tile's need: its own walls on the sides where it meets a tile, since walls match)
_SWAP_OK = tuple(
    tuple(
        not v & _FOUNTAIN_BIT and bool(_SWAP_FIT[((v >> 4) & 15) << 4 | (v & (v >> 4) & 15)] >> m & 1)
        for v in range(512)
    )
    for m in range(16)
)
#: The two tables under public names, for rule plugins (see ``Alhambra.front_facts``).
PLACE_OK = _PLACE_OK
SWAP_OK = _SWAP_OK
#: frontier fact -> True where a tile of some wall mask may be built (about half of all
#: frontier cells take none: a cell whose only neighbour shows it a wall, for one)
PLACE_ANY = tuple(bool(f) for f in _PLACE_FIT)
#: tile fact -> True for a leaf of the link graph (not the fountain) that is not enclosed:
#: in a tree-shaped Alhambra (``Alhambra.is_tree``), exactly the removable tiles (R-TURN-6)
OPEN_LEAF = _OPEN_LEAF

#: cell number -> ``(x, y)`` (one shared tuple each), for every cell near the fountain and
#: every cell that has been a tile or frontier cell of some Alhambra (see ``_remember``)
_POS_OF: dict[int, Pos] = {}


#: the other way round: ``(x, y)`` -> cell number, for the same cells
_CELL_OF: dict[Pos, int] = {}


def _remember(cell: int) -> Pos:
    """Enter ``cell`` in ``_POS_OF`` and ``_CELL_OF`` and return its ``(x, y)``."""
    x, y = divmod(cell, _STRIDE)
    p = _POS_OF[cell] = (x - _OFF, y - _OFF)
    _CELL_OF[p] = cell
    return p


def cell_position(cell: int) -> Pos:
    """The ``(x, y)`` of an internal cell number, as returned by ``Alhambra.place_cells``,
    ``swap_cells`` and ``removable_cells`` (one shared tuple per cell). Cell numbers are an
    engine detail for hot paths: a cell is ``(x + 1024) * 2051 + y + 1024``."""
    p = _POS_OF.get(cell)
    return p if p is not None else _remember(cell)


_pos = cell_position


def _fitting(facts: dict[int, int], fits: tuple) -> list[int]:
    """The cells of ``facts`` whose fact ``fits`` (a table over facts) allows, sorted."""
    found = [q for q, v in facts.items() if fits[v]]
    found.sort()
    return found


def _positions(cells: Iterable[int]) -> tuple[Pos, ...]:
    """The ``(x, y)`` of known cells (tile or frontier cells), in their order."""
    P = _POS_OF
    return tuple([P[c] for c in cells])


for _x in range(-32, 33):
    for _y in range(-32, 33):
        _remember((_x + _OFF) * _STRIDE + _y + _OFF)


def _cell(pos: Pos) -> int | None:
    """The internal cell number of ``(x, y)`` (already checked to be int pairs), or None when
    it lies beyond :data:`GRID_LIMIT`."""
    c = _CELL_OF.get(pos)  # every position of a listed action is known
    if c is not None:
        return c
    x, y = pos
    if -GRID_LIMIT <= x <= GRID_LIMIT and -GRID_LIMIT <= y <= GRID_LIMIT:
        return (x + _OFF) * _STRIDE + y + _OFF
    return None


class _CityState:
    """What every part of :class:`Alhambra` reads: its attributes (the slots are Alhambra's)
    and the reading methods."""

    __slots__ = ()

    _tiles: dict[int, int | str]
    _walls: dict[int, int]
    _opened: dict[int, int]
    catalog: TileCatalog
    holes: str
    front_facts: dict[int, int]
    tile_facts: dict[int, int]
    _links: int
    _cuts: frozenset[int] | None
    _wall_len: int | None
    _three: int
    memo: dict[Any, Any]

    # -- reading ------------------------------------------------------------------------------

    @property
    def tiles(self) -> dict[Pos, int | str]:
        """A copy of the grid ``{(x, y): tile_id}``, fountain included."""
        return {_pos(c): t for c, t in self._tiles.items()}

    def __contains__(self, pos: object) -> bool:
        return self.tile_at(pos) is not None  # type: ignore[arg-type]  # tile_at checks the position

    def __len__(self) -> int:
        return len(self._tiles)

    def __iter__(self) -> Iterator[Pos]:
        return iter([_pos(c) for c in self._tiles])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Alhambra)
            and self._tiles == other._tiles
            and self.holes == other.holes
            and self._opened == other._opened
        )

    __hash__ = None  # type: ignore[assignment]  # a mutable value

    def __repr__(self) -> str:
        body = ", ".join(f"{p}: {t!r}" for p, t in sorted(self.tiles.items()) if p != ORIGIN)
        return f"Alhambra.from_tiles({{{body}}})"

    def tile_at(self, pos: Pos) -> int | str | None:
        """The tile id at ``pos``, or ``None`` for an empty cell (or anything not a position)."""
        try:
            c = _cell(_as_pos(pos))
        except IllegalActionError:
            return None
        return None if c is None else self._tiles.get(c)

    def tile_ids(self) -> frozenset:
        """The ids of the tiles in this Alhambra, fountain included (cached until it changes)."""
        found = self.memo.get("tile_ids")
        if found is None:
            found = self.memo["tile_ids"] = frozenset(self._tiles.values())
        return found

    def has_tile(self, tile: Any) -> bool:
        """True if ``tile`` stands in this Alhambra."""
        try:
            return tile in self.tile_ids()
        except TypeError:  # unhashable: not a tile id
            return False

    def position_of(self, tile: Any) -> Pos | None:
        """Where ``tile`` stands, or ``None`` if it is not in this Alhambra."""
        for c, t in self._tiles.items():
            if t == tile:
                return _pos(c)
        return None

    def opened_sides(self) -> list[tuple[Pos, int]]:
        """The walled sides opened for walking (:meth:`Alhambra.open_side`), each once as
        ``((x, y), EAST)`` or ``((x, y), SOUTH)`` of the cell west or north of it, sorted."""
        out = []
        for c, sides in self._opened.items():
            for side in (EAST, SOUTH):
                if sides & side:
                    out.append((_pos(c), side))
        return sorted(out)

    def fixed_cells(self) -> dict[int, int]:
        """The cells (internal numbers, see :func:`cell_position`) of tiles with an opened
        wall, each with its opened sides: they can be neither removed nor swapped (R-GATE-7).
        Empty without opened walls; do not change the dict returned."""
        return self._opened

    def is_opened(self, pos: Pos, side: int) -> bool:
        """True if ``side`` (NORTH/EAST/SOUTH/WEST) of the tile at ``pos`` is an opened wall."""
        c = _cell(_as_pos(pos))
        return c is not None and bool(self._opened.get(c, 0) & side)

    def type_counts(self) -> dict[str, int]:
        """Buildings per type in this Alhambra (R-SCORE-2): only tiles of kind ``building``
        count (the fountain and module tiles such as huts do not). Every type is a key."""
        counts = dict.fromkeys(BUILDING_TYPES, 0)
        cat = self.catalog
        for t in self._tiles.values():
            spec = cat[t]
            if spec.kind == "building":
                counts[str(spec.type)] += 1
        return counts


class _CityRules(_CityState):
    """The placement, removal and swap rules of :class:`Alhambra` (R-PLACE-1 … R-PLACE-6,
    R-TURN-5, R-TURN-6): queries that never change the city."""

    __slots__ = ()

    # -- placement (R-PLACE-1 … R-PLACE-6) -----------------------------------------------------

    def frontier(self) -> frozenset[Pos]:
        """Empty cells that share a side with a tile: the only cells a tile can go (R-PLACE-2)."""
        return frozenset(_pos(c) for c in self.front_facts)

    def why_not_place(self, tile: Any, pos: Pos) -> str | None:
        """Why ``tile`` cannot be built at ``pos`` (a sentence citing the rule), or ``None``
        when it can. Checks R-PLACE-4, -2, -3, -5 and -6 in that order. Raises
        :class:`IllegalActionError` if ``pos`` is not a pair of integers."""
        pos = _as_pos(pos)
        if not _known_tile(self.catalog, tile):
            return f"unknown tile {tile!r}"
        c = _cell(pos)
        if c is not None and c in self._tiles:
            return f"R-PLACE-4: cell {pos} is not empty"
        if c is None or c not in self.front_facts:
            return f"R-PLACE-2: cell {pos} shares no side with a tile of the Alhambra"
        mask = self.catalog.walls[tile]
        walls = self._walls
        connected = False
        for step, side, opp in _STEPS:
            m = walls.get(c + step)
            if m is None:
                continue
            mine, theirs = mask & side, m & opp
            if bool(mine) != bool(theirs):
                q = _pos(c + step)
                return (
                    f"R-PLACE-3: the {_SIDE_WORD[side]} side of tile {tile!r} at {pos} "
                    f"({'wall' if mine else 'open'}) does not match tile {self._tiles[c + step]!r} at {q} "
                    f"({'wall' if theirs else 'open'})"
                )
            if not mine:
                connected = True
        if not connected:
            return f"R-PLACE-5: tile {tile!r} at {pos} cannot be reached on foot from the fountain (every shared side is walled)"
        hole = self._hole_after_placing(c)
        if hole is not None:
            return f"R-PLACE-6: building at {pos} would leave a hole at {_pos(hole)}"
        return None

    def can_place(self, tile: Any, pos: Pos) -> bool:
        """True if ``tile`` may be built at ``pos`` (R-PLACE-2 … R-PLACE-6)."""
        return self.why_not_place(tile, pos) is None

    def placements(self, tile: Any) -> list[Pos]:
        """Every cell where ``tile`` may be built, sorted by ``(x, y)``.

        Only the tile's wall mask matters, so results are cached per mask until the city
        changes. Raises :class:`ConfigError` for an unknown tile id."""
        if not _known_tile(self.catalog, tile):
            raise ConfigError(f"unknown tile id {tile!r}")
        return list(self.placements_for_walls(self.catalog.walls[tile]))

    def placements_for_walls(self, mask: int) -> tuple[Pos, ...]:
        """Every cell where a tile with wall bitmask ``mask`` (0-15) may be built, sorted.
        Raises :class:`ConfigError` for anything but an int 0-15."""
        _check_mask(mask)
        return _positions(self.place_cells(mask))

    def place_cells(self, mask: int) -> list[int]:
        """:meth:`placements_for_walls` as internal cell numbers (see :func:`cell_position`),
        cached until the city changes. ``mask`` must be an int 0-15 (not checked here); do
        not change the list returned."""
        found = self.memo.get(mask)
        if found is None:
            found = _fitting(self.front_facts, _PLACE_OK[mask])
            barred = self.barred_cells()
            if barred:
                found = [q for q in found if q not in barred]
            self.memo[mask] = found
        return found

    def barred_cells(self) -> list[int]:
        """The frontier cells (internal numbers) where building any tile would leave a hole
        (R-PLACE-6), cached until the city changes; do not change the list returned.

        With ``holes="cell"``: an empty cell with tiles on three sides becomes a hole when its
        fourth neighbour is built, so that neighbour is barred."""
        found = self.memo.get("barred")
        if found is None:
            front = self.front_facts
            if self.holes == "cell":
                found = [q + _MISSING_STEP[v >> 4] for q, v in front.items() if _THREE_SIDES[v]] if self._three else []
            else:
                found = [q for q in front if self._hole_after_placing(q) is not None]
            self.memo["barred"] = found
        return found

    def _hole_after_placing(self, c: int) -> int | None:
        """An empty neighbour of cell ``c`` that would become a hole (R-PLACE-6), or ``None``."""
        tiles = self._tiles
        cell = self.holes == "cell"
        for q in (c - 1, c + _STRIDE, c + 1, c - _STRIDE):
            if q in tiles:
                continue
            if cell:
                # q's four neighbours, with c counted as built
                if all(n in tiles or n == c for n in (q - 1, q + _STRIDE, q + 1, q - _STRIDE)):
                    return q
            elif not self._reaches_outside(q, filled=c):
                return q
        return None

    def _reaches_outside(self, start: int, filled: int | None = None, emptied: int | None = None) -> bool:
        """True if the empty cell ``start`` connects through empty cells to the unbounded
        outside (beyond the bounding box), with ``filled`` counted as a tile and ``emptied`` as
        empty. Used by the ``holes = "region"`` variant of R-PLACE-6."""
        tiles = self._tiles
        xs = [c // _STRIDE for c in tiles]
        ys = [c % _STRIDE for c in tiles]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        seen = {start}
        stack = [start]
        while stack:
            c = stack.pop()
            cx, cy = divmod(c, _STRIDE)
            if cx <= x0 or cx >= x1 or cy <= y0 or cy >= y1:
                return True
            for q in (c - 1, c + _STRIDE, c + 1, c - _STRIDE):
                if q not in seen and (q == emptied or (q not in tiles and q != filled)):
                    seen.add(q)
                    stack.append(q)
        return False

    # -- removal and swap (R-TURN-5, R-TURN-6) --------------------------------------------------

    def why_not_remove(self, pos: Pos) -> str | None:
        """Why the tile at ``pos`` cannot be removed to the reserve (citing the rule), or ``None``.

        The fountain never moves (R-TURN-5); what remains must satisfy the placement rules as a
        whole: every tile reachable on foot from the fountain, no hole (R-TURN-6)."""
        pos = _as_pos(pos)
        if pos == ORIGIN:
            return "R-TURN-5: the fountain can never be removed"
        c = _cell(pos)
        if c is None or c not in self._tiles:
            return f"R-TURN-5: there is no tile at {pos}"
        if c in self._opened:
            return f"R-GATE-7: the tile at {pos} is joined to a neighbour through an opened wall (a gate): it stays"
        tiles = self._tiles
        if self.holes == "cell":
            if all(q in tiles for q in (c - 1, c + _STRIDE, c + 1, c - _STRIDE)):
                return f"R-TURN-6: removing the tile at {pos} would leave a hole there"
        elif not self._reaches_outside(c, emptied=c):
            return f"R-TURN-6: removing the tile at {pos} would leave an enclosed empty area"
        # every remaining tile must stay reachable through open sides (R-PLACE-5)
        seen = self._reachable(without=c)
        if len(seen) != len(tiles) - 1:
            cut = sorted(_pos(q) for q in set(tiles) - seen - {c})
            return f"R-TURN-6: removing the tile at {pos} would cut {cut} off from the fountain"
        return None

    def _reachable(self, without: int | None = None) -> set[int]:
        """Cells reachable on foot from the fountain through open shared sides (R-PLACE-5),
        with the tile at ``without`` taken away."""
        walls = self._walls
        opened = self._opened
        seen = {_O}
        stack = [_O]
        while stack:
            c = stack.pop()
            m = walls[c] & ~opened.get(c, 0) if opened else walls[c]
            for step, side, _ in _STEPS:
                q = c + step
                if not m & side and q != without and q in walls and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return seen

    def can_remove(self, pos: Pos) -> bool:
        """True if the tile at ``pos`` may be moved to the reserve (R-TURN-5, R-TURN-6)."""
        return self.why_not_remove(pos) is None

    def removable(self) -> list[Pos]:
        """Every position whose tile may be removed (R-TURN-5 ii, R-TURN-6), sorted.

        One pass: a tile may go unless it is a cut vertex of the graph of open shared sides
        (its removal would cut tiles off from the fountain) or its removal would leave a hole.
        Cached until the Alhambra changes."""
        return list(_positions(self.removable_cells()))

    def removable_cells(self) -> list[int]:
        """:meth:`removable` as internal cell numbers (see :func:`cell_position`), cached
        until the city changes; do not change the list returned."""
        found = self.memo.get("removable")
        if found is None:
            near = self.tile_facts
            cell_holes = self.holes == "cell"
            if self.is_tree():
                # a connected graph with one link fewer than tiles is a tree: only its leaves
                # hold no other tile to the fountain; R-TURN-6: no hole where the tile stood
                leaf = _OPEN_LEAF if cell_holes else _LEAF
                found = [c for c, v in near.items() if leaf[v]]
                found.sort()
            else:
                cuts = self._cuts
                if cuts is None:
                    cuts = self._cuts = frozenset(self._cut_cells())  # type: ignore[misc]  # the slot is Alhambra's
                found = [
                    c
                    for c in sorted(near)
                    if c != _O and c not in cuts and (not _ENCLOSED[near[c]] if cell_holes else True)
                ]
            if not cell_holes:
                found = [c for c in found if self._reaches_outside(c, emptied=c)]
            if self._opened:
                found = [c for c in found if c not in self._opened]
            self.memo["removable"] = found
        return found

    def is_tree(self) -> bool:
        """True if the graph of open links (tiles joined through a shared side without
        walls) is a tree: as many links as tiles minus one. The Alhambra is connected
        (R-PLACE-5), so then only its leaves hold no other tile to the fountain."""
        return self._links == 2 * (len(self.tile_facts) - 1)

    def _cut_cells(self) -> set[int]:
        """Articulation points of the graph of open links, rooted at the fountain (iterative
        Tarjan): the tiles whose removal disconnects others from the fountain."""
        near = self.tile_facts
        disc = {_O: 0}
        low = {_O: 0}
        cuts: set[int] = set()
        counter = 1
        stack: list[tuple[int, int | None, Iterator[int]]] = [(_O, None, iter(_LINKED[near[_O]]))]
        while stack:
            v, parent, it = stack[-1]
            for step in it:
                w = v + step
                if w == parent:
                    continue
                if w in disc:
                    if disc[w] < low[v]:
                        low[v] = disc[w]
                else:
                    disc[w] = low[w] = counter
                    counter += 1
                    stack.append((w, v, iter(_LINKED[near[w]])))
                    break
            else:
                stack.pop()
                if parent is not None:
                    if low[v] < low[parent]:
                        low[parent] = low[v]
                    if parent != _O and low[v] >= disc[parent]:
                        cuts.add(parent)
        return cuts

    def why_not_swap(self, tile: Any, pos: Pos) -> str | None:
        """Why ``tile`` (from the reserve) cannot take the place of the tile at ``pos``, or ``None``.

        The new tile takes exactly the same position and must satisfy the placement rules
        (R-TURN-5 iii): its walls must match every neighbour (R-PLACE-3). Since matching sides
        equal the old tile's, reachability and holes are unchanged."""
        pos = _as_pos(pos)
        if pos == ORIGIN:
            return "R-TURN-5: the fountain can never be swapped"
        c = _cell(pos)
        if c is None or c not in self._tiles:
            return f"R-TURN-5: there is no tile at {pos} to swap"
        if c in self._opened:
            return f"R-GATE-7: the tile at {pos} is joined to a neighbour through an opened wall (a gate): it stays"
        if not _known_tile(self.catalog, tile):
            return f"unknown tile {tile!r}"
        mask = self.catalog.walls[tile]
        for step, side, opp in _STEPS:
            m = self._walls.get(c + step)
            if m is not None and bool(mask & side) != bool(m & opp):
                return (
                    f"R-PLACE-3: the {_SIDE_WORD[side]} side of tile {tile!r} would not match "
                    f"tile {self._tiles[c + step]!r} at {_pos(c + step)}"
                )
        return None

    def can_swap(self, tile: Any, pos: Pos) -> bool:
        """True if ``tile`` may replace the tile at ``pos`` (R-TURN-5 iii, R-PLACE-3)."""
        return self.why_not_swap(tile, pos) is None

    def swap_positions(self, tile: Any) -> list[Pos]:
        """Every position where ``tile`` could replace the tile standing there, sorted.
        Raises :class:`ConfigError` for an unknown tile id."""
        if not _known_tile(self.catalog, tile):
            raise ConfigError(f"unknown tile id {tile!r}")
        return list(self.swaps_for_walls(self.catalog.walls[tile]))

    def swaps_for_walls(self, mask: int) -> tuple[Pos, ...]:
        """Every position where a tile with wall bitmask ``mask`` (0-15) could replace the tile
        standing there, sorted. The new tile must show walls exactly where the old one meets a
        neighbour (R-PLACE-3). Raises :class:`ConfigError` for anything but an int 0-15."""
        _check_mask(mask)
        return _positions(self.swap_cells(mask))

    def swap_cells(self, mask: int) -> list[int]:
        """:meth:`swaps_for_walls` as internal cell numbers (see :func:`cell_position`),
        cached until the city changes. ``mask`` must be an int 0-15 (not checked here); do
        not change the list returned."""
        found = self.memo.get(mask + 16)
        if found is None:
            found = _fitting(self.tile_facts, _SWAP_OK[mask])
            if self._opened:
                found = [c for c in found if c not in self._opened]
            self.memo[mask + 16] = found
        return found


class Alhambra(_CityRules):
    """One player's Alhambra as a value: ``{(x, y): tile_id}`` with the fountain at ``(0, 0)``.

    Build one directly for tests and analysis::

        city = Alhambra.from_tiles({(1, 0): 21, (0, 1): 7})   # fountain implied at (0, 0)
        city.can_place(22, (-1, 0)); city.placements(22); city.longest_outer_wall()

    ``catalog`` maps tile ids to their walls and types (default: fountain + 54 buildings).
    ``holes`` is the R-PLACE-6 variant option: ``"cell"`` (default: only a single empty cell
    enclosed on four sides is a hole) or ``"region"`` (no enclosed empty area of any size).
    Positions are limited to ``|x|, |y| <= GRID_LIMIT`` (1000).

    For rule plugins on the engine's hot path: ``front_facts`` (frontier cell -> fact) and
    ``tile_facts`` (tile cell -> fact), kept up to date on every change and read-only for
    everyone else; a cell is an int (see :func:`cell_position`), a fact packs what the
    neighbours show (see ``_rebuild``). ``PLACE_OK[mask][fact]`` and ``SWAP_OK[mask][fact]``
    say whether a tile with that wall mask may be built on the frontier cell or replace the
    tile; :meth:`barred_cells` lists the frontier cells closed by R-PLACE-6.

    Queries (``can_place``, ``placements``, ``can_remove``, ``can_swap``, ``longest_outer_wall``)
    never change the city. Mutators (``place``, ``remove``, ``swap``) check the rules first and
    raise :class:`IllegalActionError` (citing the rule) without changing anything.
    """

    __slots__ = (
        "_tiles",
        "_walls",
        "_opened",
        "catalog",
        "holes",
        "front_facts",
        "tile_facts",
        "_links",
        "_cuts",
        "_wall_len",
        "_three",
        "memo",
    )

    def __init__(self, catalog: TileCatalog = BASE_CATALOG, holes: str = "cell"):
        if holes not in HOLES_MODES:
            raise ConfigError(f"holes must be one of {HOLES_MODES}, not {holes!r}")
        if not isinstance(catalog, TileCatalog):
            raise ConfigError(f"catalog must be a TileCatalog, not {catalog!r}")
        self.catalog = catalog
        self.holes = holes
        #: cell -> tile id, and cell -> wall mask, for every tile (fountain included)
        self._tiles: dict[int, int | str] = {_O: FOUNTAIN}
        self._walls: dict[int, int] = {_O: catalog.walls[FOUNTAIN]}
        #: cell -> the sides of its tile whose wall is opened for walking (open_side)
        self._opened: dict[int, int] = {}
        self._rebuild()

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_tiles(
        cls,
        tiles: Mapping[Pos, int | str],
        *,
        catalog: TileCatalog = BASE_CATALOG,
        holes: str = "cell",
        check: bool = True,
        opened: Iterable[tuple[Pos, int]] = (),
    ) -> "Alhambra":
        """Build an Alhambra from ``{(x, y): tile_id}``; the fountain at ``(0, 0)`` is implied.

        With ``check`` (default) the layout must satisfy the placement rules as a whole
        (R-PLACE-2/3/5/6: every tile reachable from the fountain, walls matching, no hole);
        otherwise :class:`ConfigError` says what is wrong. Unknown tile ids, a second fountain,
        a tile at ``(0, 0)`` or a position beyond ``GRID_LIMIT`` are always a
        :class:`ConfigError`.
        """
        if not isinstance(tiles, Mapping):
            raise ConfigError(f"tiles must be a mapping {{(x, y): tile_id}}, not {tiles!r}")
        city = cls(catalog, holes)
        seen = set()
        for pos, tile in tiles.items():
            try:
                pos = _as_pos(pos)
            except IllegalActionError as exc:
                raise ConfigError(str(exc)) from None
            if pos == ORIGIN:
                if tile == FOUNTAIN:
                    continue
                raise ConfigError("(0, 0) holds the fountain (R-COMP-1)")
            if not _known_tile(catalog, tile):
                raise ConfigError(f"unknown tile id {tile!r} at {pos}")
            if tile in seen:
                raise ConfigError(f"tile {tile!r} appears twice")
            c = _cell(pos)
            if c is None:
                raise ConfigError(f"position {pos} lies beyond the grid limit of {GRID_LIMIT} cells")
            seen.add(tile)
            city._tiles[c] = tile
            city._walls[c] = catalog.walls[tile]
        for entry in opened:
            try:
                (x, y), side = entry
                c = _cell(_as_pos((x, y)))
            except (TypeError, ValueError, IllegalActionError):
                raise ConfigError(f"an opened side is ((x, y), side), not {entry!r}") from None
            if c is None or side not in (NORTH, EAST, SOUTH, WEST):
                raise ConfigError(f"an opened side is ((x, y), side), not {entry!r}")
            for step, s, opp in _STEPS:
                if s == side:
                    city._opened[c] = city._opened.get(c, 0) | s
                    city._opened[c + step] = city._opened.get(c + step, 0) | opp
        city._rebuild()
        if check:
            problem = city.why_invalid()
            if problem:
                raise ConfigError(problem)
        return city

    def copy(self) -> "Alhambra":
        """An independent copy (the per-layout caches are shared until either side changes)."""
        new = Alhambra.__new__(Alhambra)
        new.catalog = self.catalog
        new.holes = self.holes
        new._tiles = self._tiles.copy()
        new._walls = self._walls.copy()
        new._opened = self._opened.copy()
        new.front_facts = self.front_facts.copy()
        new.tile_facts = self.tile_facts.copy()
        new._links = self._links
        new._three = self._three
        new._cuts = self._cuts
        new._wall_len = self._wall_len
        new.memo = self.memo  # replaced (not mutated) on change
        return new

    def _rebuild(self) -> None:
        """Recompute the neighbourhood facts and drop every cache (a new or rebuilt layout)."""
        tiles, walls, opened = self._tiles, self._walls, self._opened
        #: frontier (empty cell touching a tile) -> ``touch << 4 | need``: the sides where a
        #: tile stands (touch) and those of them whose tile shows a wall to this cell (need)
        front: dict[int, int] = {}
        #: tile cell -> ``touch << 4 | walls`` (the sides where another tile stands, its own
        #: walls), with ``_FOUNTAIN_BIT`` for the fountain
        near: dict[int, int] = {}
        for c in tiles:
            m = walls[c]
            t = 0
            for step, side, opp in _STEPS:
                q = c + step
                if q in tiles:
                    t |= side
                else:
                    front[q] = front.get(q, 0) | (opp << 4) | (opp if m & side else 0)
            # an opened wall (open_side) counts as open for walking: it is left out of the
            # walls of the tile fact (links, removals), never of ``_walls`` (matching, scoring)
            near[c] = t << 4 | (m & ~opened.get(c, 0)) | (_FOUNTAIN_BIT if c == _O else 0)
        for c in (*tiles, *front):
            if c not in _POS_OF:
                _remember(c)
        self.front_facts = front
        self.tile_facts = near
        #: ``_LINKS`` summed over all tiles: each open link counted at both ends (in a valid
        #: city; kept exactly as that sum in any city)
        self._links = sum([_LINKS[v] for v in near.values()])
        #: how many frontier cells have tiles on three sides (each bars a cell, R-PLACE-6)
        self._three = sum([_THREE_SIDES[v] for v in front.values()])
        #: the cut tiles of the link graph (see ``_cut_cells``), or None until worked out
        self._cuts: frozenset[int] | None = None
        self._changed()

    def _changed(self) -> None:
        """The layout changed: drop what was derived from it."""
        self._wall_len: int | None = None
        #: Scratch dict for values derived from this layout (rule plugins cache legal actions
        #: here, under a str key naming the plugin; int keys and "tile_ids", "barred",
        #: "removable", "redesign" are the engine's). A copy shares it while both have the
        #: same layout; any change replaces it.
        self.memo: dict[Any, Any] = {}

    # -- mutation -----------------------------------------------------------------------------

    def _target_cell(self, tile: Any, pos: Pos, why_not: Callable[[Any, Pos], str | None] | None) -> int:
        """The internal cell of ``pos`` for building or swapping in ``tile``. With ``why_not``
        (:meth:`why_not_place` or :meth:`why_not_swap`), first raise :class:`IllegalActionError`
        if the rules forbid the move or the tile already stands in this Alhambra; ``None``
        means the caller vouches for the move (``checked=True``)."""
        if why_not is not None:
            pos = _as_pos(pos)
            why = why_not(tile, pos)
            if why is None and tile in self._tiles.values():
                why = f"tile {tile!r} is already in this Alhambra"
            if why:
                raise IllegalActionError(why)
        c = _cell(pos)
        if c is None:  # checked above unless the caller vouches for pos
            raise IllegalActionError(f"{pos!r} lies beyond the grid (GRID_LIMIT {GRID_LIMIT})")
        return c

    def place(self, tile: Any, pos: Pos, *, checked: bool = False) -> None:
        """Build ``tile`` at ``pos``. Raises :class:`IllegalActionError` (unchanged city) if the
        placement rules forbid it; also if the tile already stands in this Alhambra.
        ``checked=True`` skips the checks: for callers that already know the move is legal
        (the engine, for an action it listed)."""
        c = self._target_cell(tile, pos, None if checked else self.why_not_place)
        tiles, front, near = self._tiles, self.front_facts, self.tile_facts
        m = self.catalog.walls[tile]
        three = self._three - _THREE_SIDES[front.pop(c)]
        tiles[c] = tile
        self._walls[c] = m
        t = 0
        gained = 0  # the neighbours' new open links (each counts its own side)
        for step, side, opp in _STEPS:
            q = c + step
            if q in tiles:
                t |= side
                old = near[q]
                near[q] = new = old | opp << 4
                gained += _LINKS[new] - _LINKS[old]
            else:
                v = front.get(q)
                if v is None:
                    v = 0
                    if q not in _POS_OF:
                        _remember(q)
                front[q] = w = v | (opp << 4) | (opp if m & side else 0)
                three += _THREE_SIDES[w] - _THREE_SIDES[v]
        self._three = three
        near[c] = v = t << 4 | m
        self._links += _LINKS[v] + gained
        if self._cuts is not None:
            linked = _LINKED[v]
            if len(linked) == 1:
                # a new leaf: its one neighbour now holds it to the fountain; nothing else changes
                u = c + linked[0]
                self._cuts = self._cuts if u == _O else self._cuts | {u}
            else:
                self._cuts = None
        self._changed()

    def remove(self, pos: Pos, *, checked: bool = False) -> Any:
        """Remove the tile at ``pos`` and return its id (R-TURN-5 ii, R-TURN-6);
        ``checked=True`` skips the checks (see :meth:`place`)."""
        if not checked:
            pos = _as_pos(pos)
            why = self.why_not_remove(pos)
            if why:
                raise IllegalActionError(why)
        c = _cell(pos)
        if c is None:  # checked above unless checked=True: then the caller vouches for pos
            raise IllegalActionError(f"{pos!r} lies beyond the grid (GRID_LIMIT {GRID_LIMIT})")
        tiles, walls, front, near = self._tiles, self._walls, self.front_facts, self.tile_facts
        tile = tiles.pop(c)
        del walls[c]
        lost = _LINKS[near.pop(c)]  # the open links lost, counted at each end
        three = self._three
        self._cuts = None
        v = 0
        for step, side, opp in _STEPS:
            q = c + step
            if q in tiles:
                old = near[q]
                near[q] = new = old & ~(opp << 4)
                lost += _LINKS[old] - _LINKS[new]
                v |= side << 4
                if walls[q] & opp:
                    v |= side
            else:
                old = front[q]
                three -= _THREE_SIDES[old]
                w = old & ~((opp << 4) | opp)
                if w >> 4:
                    front[q] = w
                    three += _THREE_SIDES[w]
                else:
                    del front[q]
        if v:
            front[c] = v
            three += _THREE_SIDES[v]
        self._three = three
        self._links -= lost
        self._changed()
        return tile

    def why_not_open(self, pos: Pos, side: int) -> str | None:
        """Why ``side`` (NORTH/EAST/SOUTH/WEST) of the tile at ``pos`` cannot be opened for
        walking (:meth:`open_side`), or ``None``: it must be a double wall, two tiles of this
        Alhambra meeting wall against wall there, not opened already."""
        pos = _as_pos(pos)
        c = _cell(pos)
        found = [(step, opp) for step, s, opp in _STEPS if s == side]
        if not found:
            return f"a side is NORTH, EAST, SOUTH or WEST (1, 2, 4, 8), not {side!r}"
        step, opp = found[0]
        walls = self._walls
        if c is None or c not in walls or c + step not in walls:
            return f"R-GATE-5: the {_SIDE_WORD[side]} side of {pos} does not lie between two tiles of the Alhambra"
        if not (walls[c] & side and walls[c + step] & opp):
            return f"R-GATE-5: the {_SIDE_WORD[side]} side of {pos} is not a double wall"
        if self._opened.get(c, 0) & side:
            return f"R-GATE-5: the {_SIDE_WORD[side]} side of {pos} is opened already (one gate per side)"
        return None

    def double_walls(self) -> list[tuple[Pos, int]]:
        """Every double wall not opened yet (two tiles meeting wall against wall), each once as
        ``((x, y), EAST)`` or ``((x, y), SOUTH)`` of the cell west or north of it, sorted."""
        walls, opened = self._walls, self._opened
        out = []
        for c, m in walls.items():
            for step, side, opp in (_STEPS[1], _STEPS[2]):
                q = c + step
                if m & side and q in walls and walls[q] & opp and not opened.get(c, 0) & side:
                    out.append((_pos(c), side))
        return sorted(out)

    def open_side(self, pos: Pos, side: int) -> None:
        """Open the double wall on ``side`` of the tile at ``pos`` for walking: it then counts
        as open for R-PLACE-5 (reachable on foot) and R-TURN-6 (what a removal must leave),
        while both walls still stand for R-PLACE-3 and scoring (a city gate, R-GATE-5, -6).
        The two tiles it joins can no longer be removed or swapped (R-GATE-7). Raises
        :class:`IllegalActionError` (city unchanged) where :meth:`why_not_open` says why."""
        why = self.why_not_open(pos, side)
        if why:
            raise IllegalActionError(why)
        c = _cell(_as_pos(pos))
        if c is None:  # pragma: no cover - why_not_open has refused it
            raise IllegalActionError(f"{pos!r} lies beyond the grid")
        step, opp = [(st, o) for st, s, o in _STEPS if s == side][0]
        self._opened[c] = self._opened.get(c, 0) | side
        self._opened[c + step] = self._opened.get(c + step, 0) | opp
        self._rebuild()

    def swap(self, tile: Any, pos: Pos, *, checked: bool = False) -> Any:
        """Put ``tile`` at ``pos`` in place of the tile there; return the old tile's id
        (R-TURN-5 iii); ``checked=True`` skips the checks (see :meth:`place`)."""
        c = self._target_cell(tile, pos, None if checked else self.why_not_swap)
        old = self._tiles[c]
        m = self.catalog.walls[tile]
        self._tiles[c] = tile
        self._walls[c] = m
        was = self.tile_facts[c]
        self.tile_facts[c] = now = (was & ~15) | m
        self._links += _LINKS[now] - _LINKS[was]  # nothing in a valid city: walls match
        front = self.front_facts
        for step, side, opp in _STEPS:  # what the empty neighbours see of this side changes
            q = c + step
            w = front.get(q)
            if w is not None:
                front[q] = (w | opp) if m & side else (w & ~opp)
        self._changed()
        return old

    # -- whole-city checks ----------------------------------------------------------------------

    def why_invalid(self) -> str | None:
        """Why this Alhambra breaks the placement rules as a whole, or ``None`` if it is valid:
        fountain at (0, 0), walls match on every shared side (R-PLACE-3), every tile reachable
        from the fountain through open sides (R-PLACE-5), and no hole (R-PLACE-6)."""
        tiles, walls = self._tiles, self._walls
        if tiles.get(_O) != FOUNTAIN:
            return "R-COMP-1: the fountain must stand at (0, 0)"
        for c, m in walls.items():
            for step, side, opp in _STEPS:
                q = c + step
                if q in walls and bool(m & side) != bool(walls[q] & opp):
                    return f"R-PLACE-3: walls do not match between {_pos(c)} and {_pos(q)}"
        for c, sides in self._opened.items():
            for step, side, opp in _STEPS:
                if sides & side and not (
                    c in walls and walls[c] & side and c + step in walls and walls[c + step] & opp
                ):
                    return f"R-GATE-5: the opened side {_SIDE_WORD[side]} of {_pos(c)} is not a double wall"
        seen = self._reachable()
        if len(seen) != len(tiles):
            return f"R-PLACE-5: {sorted(_pos(q) for q in set(tiles) - seen)} cannot be reached from the fountain"
        for q in sorted(self.front_facts):
            if self.holes == "cell":
                if all(n in tiles for n in (q - 1, q + _STRIDE, q + 1, q - _STRIDE)):
                    return f"R-PLACE-6: hole at {_pos(q)}"
            elif not self._reaches_outside(q):
                return f"R-PLACE-6: enclosed empty area at {_pos(q)}"
        return None

    # -- walls (R-SCORE-5) ----------------------------------------------------------------------

    def outer_wall_segments(self) -> list[tuple[Pos, Pos]]:
        """Every outer wall segment as a pair of grid corners ``((x1, y1), (x2, y2))``.

        A segment is a wall on a tile side that faces an empty cell; a wall facing another
        tile (a double, inner wall) is not outer (R-SCORE-5). Corner ``(x, y)`` is the
        north-west corner of cell ``(x, y)``."""
        tiles = self._tiles
        segs = []
        for c, m in self._walls.items():
            if not m:
                continue
            x, y = _pos(c)
            if m & NORTH and c - 1 not in tiles:
                segs.append(((x, y), (x + 1, y)))
            if m & EAST and c + _STRIDE not in tiles:
                segs.append(((x + 1, y), (x + 1, y + 1)))
            if m & SOUTH and c + 1 not in tiles:
                segs.append(((x, y + 1), (x + 1, y + 1)))
            if m & WEST and c - _STRIDE not in tiles:
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
        grid = self.tiles
        xs = [p[0] for p in grid]
        ys = [p[1] for p in grid]
        lines = []
        for y in range(min(ys), max(ys) + 1):
            top, mid, bot = [], [], []
            for x in range(min(xs), max(xs) + 1):
                t = grid.get((x, y))
                if t is None:
                    top.append("     ")
                    mid.append("  .  ")
                    bot.append("     ")
                    continue
                m = self.catalog.walls[t]
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


def _search_trail(adj: dict[Any, list[Any]], comp: list[Any], limit: int) -> int:
    used: set[int] = set()
    best = 0

    def walk(v: Any, length: int) -> None:
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


def _check_mask(mask: Any) -> None:
    if type(mask) is not int or not 0 <= mask <= 15:
        raise ConfigError(f"a wall mask is an int 0-15, not {mask!r}")


def _known_tile(catalog: TileCatalog, tile: Any) -> bool:
    """True if ``tile`` is a tile id of ``catalog`` other than the fountain: an int or str
    (not a look-alike such as ``True`` for 1 or ``21.0`` for 21)."""
    if type(tile) is not int and type(tile) is not str:
        return False
    return tile != FOUNTAIN and tile in catalog


def _as_pos(pos: Any) -> Pos:
    try:
        x, y = pos
    except (TypeError, ValueError):
        raise IllegalActionError(f"a position is a pair of integers (x, y), not {pos!r}") from None
    if type(x) is not int or type(y) is not int:
        if isinstance(x, bool) or isinstance(y, bool) or not (isinstance(x, int) and isinstance(y, int)):
            raise IllegalActionError(f"a position is a pair of integers (x, y), not {pos!r}")
        x, y = int(x), int(y)
    return (x, y)
