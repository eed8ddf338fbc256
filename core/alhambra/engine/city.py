"""One player's Alhambra: the grid of tiles around the Lion Fountain, and its rules.

The placement rules (R-PLACE-1 … R-PLACE-7), removal validity (R-TURN-6) and the longest
outer wall (R-SCORE-5) are small functions of the grid; :class:`Alhambra` wraps them with
incremental bookkeeping so that the engine's hot path (listing legal placements, removals and
swaps after every change) never searches the whole board for every candidate.

Positions in the API are ``(x, y)`` tuples. Inside, a cell is one int (``_cell``), so that a
neighbour is one addition: the tables below are facts about the grid, not rules.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol, cast

from .components import (
    BASE_CATALOG,
    BUILDING_TYPES,
    EAST,
    FOUNTAIN,
    NORTH,
    SIDE_BITS,
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
#: The built-in placement rules per ``holes`` mode, entered by ``alhambra.rules.placement_rules``
#: when it is imported (with the package): an Alhambra made without ``rules`` uses them.
_BASE_RULES: dict[str, Any] = {}

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


#: per 4-bit side mask: how many sides, and (for three) the step towards the missing side
_TOUCH_COUNT = tuple(bin(i).count("1") for i in range(16))
_MISSING_STEP = tuple(
    next((step for step, side, _ in _STEPS if not i & side), 0) if bin(i).count("1") == 3 else 0 for i in range(16)
)
#: per 4-bit mask of open links: the steps to the linked neighbours
_LINK_STEPS = tuple(tuple(step for step, side, _ in _STEPS if i & side) for i in range(16))

# Tables over the packed facts kept per cell, so that the hot queries filter whole dicts with
# plain iteration (``[q for q, v in facts.items() if table[v]]``): facts about the grid, which
# the placement rules (``alhambra.rules.placement_rules``) read.
# A frontier cell's fact is ``open << 8 | touch << 4 | need`` (12 bits): the sides declared
# open for walking (``Alhambra.open_side``), the sides where a tile stands and those of them
# whose tile shows a wall to this cell; a tile's is
# ``open << 9 | FOUNTAIN_BIT | touch << 4 | walls`` (13 bits, the fountain flagged).
FOUNTAIN_BIT = _FOUNTAIN_BIT = 256
#: where the open sides sit in a frontier cell's fact and in a tile's fact
FRONT_OPEN_SHIFT = 8
TILE_OPEN_SHIFT = 9
#: how many values a frontier fact and a tile fact can take (the tables' lengths)
FRONT_FACTS = 1 << 12
TILE_FACTS = 1 << 13
#: frontier fact -> True for a cell with tiles on exactly three sides
THREE_SIDES = _THREE_SIDES = tuple(_TOUCH_COUNT[(v >> 4) & 15] == 3 for v in range(FRONT_FACTS))
#: tile fact -> number of links (sides with a neighbour and no wall on this tile, or with a
#: neighbour and declared open)
_LINKS = tuple(_TOUCH_COUNT[(v >> 4) & (~v | v >> TILE_OPEN_SHIFT) & 15] for v in range(TILE_FACTS))
#: tile fact -> the steps to the linked neighbours
_LINKED = tuple(_LINK_STEPS[(v >> 4) & (~v | v >> TILE_OPEN_SHIFT) & 15] for v in range(TILE_FACTS))
#: tile fact -> True for a leaf of the link graph other than the fountain; ``ENCLOSED``:
#: True for a tile with neighbours on all four sides
LEAF = tuple(_LINKS[v] == 1 and not v & _FOUNTAIN_BIT for v in range(TILE_FACTS))
ENCLOSED = tuple((v >> 4) & 15 == 15 for v in range(TILE_FACTS))
#: per 4-bit side mask with three sides: the step towards the missing one (else 0)
MISSING_STEP = _MISSING_STEP
#: (step, this tile's side, the neighbour's facing side), north, east, south, west; the
#: fountain's cell; the cell numbers' stride (see :func:`cell_position`)
STEPS = _STEPS
FOUNTAIN_CELL = _O
_FRONT_OPEN = FRONT_OPEN_SHIFT
_TILE_OPEN = TILE_OPEN_SHIFT
STRIDE = _STRIDE
SIDE_WORD = _SIDE_WORD

#: side bit -> (dx, dy, the neighbour's facing side)
_ACROSS = {side: (dx, dy, opp) for dx, dy, side, opp in SIDES}


def neighbour(pos: Pos, side: int) -> Pos:
    """The cell across the side ``side`` (NORTH, EAST, SOUTH or WEST) of cell ``pos``:
    ``neighbour((0, 0), EAST) == (1, 0)`` (x grows to the east, y to the south, R-PLACE-1).
    :class:`KeyError` for anything but a side bit."""
    dx, dy, _ = _ACROSS[side]
    return (pos[0] + dx, pos[1] + dy)


def canonical_side(pos: Pos, side: int) -> tuple[Pos, int]:
    """The side ``side`` (NORTH, EAST, SOUTH or WEST) of cell ``pos`` named from the cell west
    or north of it, as ``((x, y), EAST)`` or ``((x, y), SOUTH)``: one name for a side two cells
    share (``canonical_side((1, 0), WEST) == ((0, 0), EAST)``), as views, saves and
    :meth:`Alhambra.double_walls` name it. :class:`KeyError` for anything but a side bit."""
    dx, dy, opp = _ACROSS[side]
    if side == WEST or side == NORTH:
        return (pos[0] + dx, pos[1] + dy), opp
    return pos, side


def read_side(value: Any, where: str, what: str = "a side") -> tuple[Pos, int]:
    """A side written ``[x, y, side]`` (a position's, a table's), the side a name (``"north"``,
    ``"east"``, ``"south"``, ``"west"``) or a side bit, named as :func:`canonical_side` names
    it. :class:`ConfigError` ``"<where>: <what> is [x, y, side] with side 'north', ..."``
    for anything else."""
    ok = isinstance(value, list) and len(value) == 3 and type(value[0]) is type(value[1]) is int
    side = value[2] if ok else None
    side = SIDE_BITS.get(side) if type(side) is str else side if type(side) is int and side in _ACROSS else None
    if side is None:
        raise ConfigError(
            f"{where}: {what} is [x, y, side] with side 'north', 'east', 'south' or 'west', not {value!r}"
        )
    return canonical_side((value[0], value[1]), side)


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


def _fitting(facts: dict[int, int], fits: tuple[bool, ...]) -> list[int]:
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
        return isinstance(other, Alhambra) and self._tiles == other._tiles and self.holes == other.holes

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

    def tile_ids(self) -> frozenset[int | str]:
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


class PlacementTablesLike(Protocol):
    """What the engine reads of a rule set's placement tables
    (``alhambra.rules.placement_rules.PlacementTables``; see there for what each says)."""

    @property
    def place_ok(self) -> tuple[tuple[bool, ...], ...]: ...

    @property
    def swap_ok(self) -> tuple[tuple[bool, ...], ...] | None: ...

    @property
    def walks_links(self) -> bool: ...


class PlacementRulesLike(Protocol):
    """What an Alhambra asks of its placement rules (``city.rules``): the questions of
    :class:`alhambra.PlacementRules` (``alhambra.rules.placement_rules``, the rule set's answer
    to ``alhambra_placement_rules``), which the city answers through; cells are the city's
    internal numbers."""

    @property
    def holes(self) -> str: ...

    @property
    def tables(self) -> PlacementTablesLike | None: ...

    @property
    def leaf_removals(self) -> bool: ...

    def build_sites(self, city: Alhambra, tables: Any) -> list[int]: ...

    def swap_spots(self, city: Alhambra) -> list[int]: ...

    def why_not_place(self, city: Alhambra, tile: Any, pos: Pos) -> str | None: ...

    def place_cells(self, city: Alhambra, mask: int) -> list[int]: ...

    def walled_off_cells(self, city: Alhambra, mask: int) -> list[int]: ...

    def barred_cells(self, city: Alhambra) -> list[int]: ...

    def why_not_remove(self, city: Alhambra, pos: Pos) -> str | None: ...

    def removable_cells(self, city: Alhambra) -> list[int]: ...

    def why_not_swap(self, city: Alhambra, tile: Any, pos: Pos) -> str | None: ...

    def swap_cells(self, city: Alhambra, mask: int) -> list[int]: ...

    def why_invalid(self, city: Alhambra) -> str | None: ...

    def parts(self, city: Alhambra, without: int | None = None) -> dict[int, int]: ...


class _CityRules(_CityState):
    """The placement, removal and swap queries of :class:`Alhambra` (R-PLACE-1 … R-PLACE-6,
    R-TURN-5, R-TURN-6): each asks the city's placement rules (``city.rules``, a
    :class:`~alhambra.PlacementRules` of ``alhambra.rules.placement_rules``, the rule set's
    answer to ``alhambra_placement_rules``) and never changes the city. The geometry the
    rules read (cells, facts, links, enclosures) is the city's."""

    __slots__ = ()

    rules: PlacementRulesLike
    _gates: dict[int, int]
    _changed: Callable[[], None]

    # -- placement (R-PLACE-1 … R-PLACE-6) -----------------------------------------------------

    def frontier(self) -> frozenset[Pos]:
        """Empty cells that share a side with a tile: the only cells a tile can go (R-PLACE-2)."""
        return frozenset(_pos(c) for c in self.front_facts)

    def why_not_place(self, tile: Any, pos: Pos) -> str | None:
        """Why ``tile`` cannot be built at ``pos`` (a sentence citing the rule), or ``None``
        when it can (R-PLACE-2 … R-PLACE-6). Raises :class:`IllegalActionError` if ``pos`` is
        not a pair of integers."""
        return self.rules.why_not_place(cast("Alhambra", self), tile, _as_pos(pos))

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
            found = self.memo[mask] = self.rules.place_cells(cast("Alhambra", self), mask)
        return found

    def walled_off_cells(self, mask: int) -> list[int]:
        """The frontier cells (internal numbers, sorted) where a tile of wall bitmask ``mask``
        (0-15, not checked here) matches every neighbour's walls (R-PLACE-3) but meets them
        only wall against wall: R-PLACE-5 alone forbids building it there (a city gate on one
        of those double walls would let it in, R-GATE-6). Cached until the city changes; do
        not change the list returned."""
        found = self.memo.get(mask + 32)
        if found is None:
            found = self.memo[mask + 32] = self.rules.walled_off_cells(cast("Alhambra", self), mask)
        return found

    def openings(self, tile: Any) -> list[tuple[Pos, int]]:
        """Where ``tile`` could be built were one more side declared open (:meth:`open_side`:
        a city gate, R-GATE-6): each frontier cell where R-PLACE-5 alone forbids it now (it meets
        the Alhambra only wall against wall, :meth:`walled_off_cells`) with each side there
        whose opening lets it in (the rules judge the rest, R-PLACE-3 … R-PLACE-6), as ``((x,
        y), side)``, by cell, then north, east, south, west. Cached until the city changes; do
        not change the list returned. :class:`ConfigError` for an unknown tile id."""
        key = ("openings", tile)
        found: list[tuple[Pos, int]] | None = self.memo.get(key)
        if found is None:
            if not _known_tile(self.catalog, tile):
                raise ConfigError(f"unknown tile id {tile!r}")
            found = []
            fast = self.fast_rules()  # then an open side settles R-PLACE-5 and changes nothing else
            barred = self.barred_cells() if fast else ()
            for c in self.walled_off_cells(self.catalog.walls[tile]):
                if c in barred:  # R-PLACE-6, whichever side opens
                    continue
                pos = _pos(c)
                for side in self.sides_with_tiles(pos):
                    trial = None if fast else cast("Alhambra", self).with_open_sides([(pos, side)])
                    if trial is not None and trial.why_not_place(tile, pos) is not None:
                        continue
                    found.append((pos, side))
            self.memo[key] = found
        return found

    def barred_cells(self) -> list[int]:
        """The frontier cells (internal numbers) where building any tile would leave a hole
        (R-PLACE-6), cached until the city changes; do not change the list returned."""
        found = self.memo.get("barred")
        if found is None:
            found = self.memo["barred"] = self.rules.barred_cells(cast("Alhambra", self))
        return found

    def fast_rules(self) -> bool:
        """True when this city's rules judge sides as the built-in rules with ``walls_match``
        do (sides declared open or not): then their tables over the facts decide building,
        and the city's link graph (tree test, cut tiles) removal and swapping
        (``PlacementTables.walks_links`` of ``alhambra.rules.placement_rules``)."""
        tables = self.rules.tables
        return tables is not None and bool(tables.walks_links)

    # -- removal and swap (R-TURN-5, R-TURN-6) --------------------------------------------------

    def why_not_remove(self, pos: Pos) -> str | None:
        """Why the tile at ``pos`` cannot be removed to the reserve (citing the rule), or ``None``
        (R-TURN-5, R-TURN-6)."""
        return self.rules.why_not_remove(cast("Alhambra", self), _as_pos(pos))

    def can_remove(self, pos: Pos) -> bool:
        """True if the tile at ``pos`` may be moved to the reserve (R-TURN-5, R-TURN-6)."""
        return self.why_not_remove(pos) is None

    def removable(self) -> list[Pos]:
        """Every position whose tile may be removed (R-TURN-5 ii, R-TURN-6), sorted; cached
        until the Alhambra changes."""
        return list(_positions(self.removable_cells()))

    def removable_cells(self) -> list[int]:
        """:meth:`removable` as internal cell numbers (see :func:`cell_position`), cached
        until the city changes; do not change the list returned."""
        found = self.memo.get("removable")
        if found is None:
            found = self.memo["removable"] = self.rules.removable_cells(cast("Alhambra", self))
        return found

    def why_not_swap(self, tile: Any, pos: Pos) -> str | None:
        """Why ``tile`` (from the reserve) cannot take the place of the tile at ``pos``, or
        ``None`` (R-TURN-5 iii)."""
        return self.rules.why_not_swap(cast("Alhambra", self), tile, _as_pos(pos))

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
        """Every position where a tile with wall bitmask ``mask`` (0-15) could replace the
        tile standing there, sorted. Raises :class:`ConfigError` for anything but an int 0-15."""
        _check_mask(mask)
        return _positions(self.swap_cells(mask))

    def swap_cells(self, mask: int) -> list[int]:
        """:meth:`swaps_for_walls` as internal cell numbers, cached until the city changes;
        do not change the list returned."""
        found = self.memo.get(mask + 16)
        if found is None:
            found = self.memo[mask + 16] = self.rules.swap_cells(cast("Alhambra", self), mask)
        return found

    # -- geometry the rules read ------------------------------------------------------------------

    def is_open_side(self, pos: Pos, side: int) -> bool:
        """True if the side ``side`` (a side bit) of cell ``pos`` was declared open for walking
        (:meth:`open_side`: a city gate), whatever its walls."""
        c = _cell(_as_pos(pos))
        return c is not None and bool(self._gates.get(c, 0) & side)

    @property
    def open_sides(self) -> frozenset[tuple[Pos, int]]:
        """The sides declared open (:meth:`open_side`), as ``((x, y), side bit)``, each named
        from both of its cells."""
        return frozenset((_pos(c), side) for c, m in self._gates.items() for _, side, _ in _STEPS if m & side)

    def open_cells(self) -> frozenset[int]:
        """The cells (internal numbers, see :func:`cell_position`) with a side declared open
        (:meth:`open_side`): both cells of each such side. Cached until the Alhambra changes."""
        found = self.memo.get("open_cells")
        if found is None:
            found = self.memo["open_cells"] = frozenset(self._gates)
        return found

    def sides_with_tiles(self, pos: Pos) -> list[int]:
        """The sides of cell ``pos`` (NORTH, EAST, SOUTH, WEST, in that order) across which a
        tile of this Alhambra stands."""
        c = _cell(_as_pos(pos))
        tiles = self._tiles
        return [] if c is None else [side for step, side, _ in _STEPS if c + step in tiles]

    def double_walls(self) -> list[tuple[Pos, int]]:
        """Every double wall of this Alhambra that is not declared open (:meth:`open_side`): a
        side where two of its tiles meet wall against wall, each once as ``((x, y), EAST)`` or
        ``((x, y), SOUTH)`` (:func:`canonical_side`), sorted. Cached until the Alhambra
        changes; do not change the list returned."""
        found: list[tuple[Pos, int]] | None = self.memo.get("double_walls")
        if found is None:
            walls, gates = self._walls, self._gates
            found = []
            for c in sorted(walls):
                m = walls[c]
                for step, side, opp in (_STEPS[1], _STEPS[2]):  # east, south
                    q = walls.get(c + step)
                    if q is not None and m & side and q & opp and not gates.get(c, 0) & side:
                        found.append((_pos(c), side))
            self.memo["double_walls"] = found
        return found

    def why_not_double_wall(self, pos: Pos, side: int) -> str | None:
        """Why the side ``side`` (NORTH, EAST, SOUTH or WEST) of cell ``pos`` is no double wall
        of this Alhambra (two of its tiles meeting wall against wall there), naming the side and
        the cell; ``None`` when it is one, declared open (:meth:`open_side`) or not."""
        if type(side) is not int or side not in _ACROSS:
            return f"a side is NORTH, EAST, SOUTH or WEST (1, 2, 4, 8), not {side!r}"
        word = _SIDE_WORD[side]
        mine = self.tile_at(pos)
        other = None if mine is None else self.tile_at(neighbour(pos, side))
        if mine is None or other is None:
            return f"the {word} side of {pos} does not lie between two tiles of the Alhambra"
        walls = self.catalog.walls
        if not (walls[mine] & side and walls[other] & _ACROSS[side][2]):
            return f"the {word} side of {pos} is not a double wall"
        return None

    def parts_without(self, pos: Pos) -> dict[Pos, int]:
        """Every tile but the one at ``pos``, labelled with the part of the Alhambra one reaches
        on foot from it (the rules' walk, ``side_open``: R-PLACE-5, R-TURN-6), numbered from
        0, the fountain's part, in the order of the tiles: the parts that taking the tile at
        ``pos`` away would leave (one part: it cuts nothing off)."""
        c = _cell(_as_pos(pos))
        return {_pos(q): n for q, n in self.rules.parts(cast("Alhambra", self), c).items()}

    def open_side(self, pos: Pos, side: int, *, open: bool = True) -> None:
        """Declare the side ``side`` (NORTH, EAST, SOUTH or WEST) of cell ``pos`` open for
        walking (R-PLACE-5, R-TURN-6) whatever walls it shows (a city gate, R-GATE-6), or with
        ``open=False`` no longer; the placement rules' ``side_open`` reads it. Both cells of
        the side record it. Drops the layout's caches. :class:`ConfigError` for a bad side."""
        c = _cell(_as_pos(pos))
        step = next((st for st, sd, _ in _STEPS if sd == side), None)
        if c is None or step is None or type(side) is not int:
            raise ConfigError(
                f"a side is one of NORTH, EAST, SOUTH, WEST of a cell within the grid, not {pos!r}, {side!r}"
            )
        opp = next(o for st, sd, o in _STEPS if sd == side)
        near, front = self.tile_facts, self.front_facts
        for cell, bit in ((c, side), (c + step, opp)):
            m = self._gates.get(cell, 0)
            m = m | bit if open else m & ~bit
            if m:
                self._gates[cell] = m
            else:
                self._gates.pop(cell, None)
            # the facts count the open sides, so that the tables still decide (see _rebuild)
            old = near.get(cell)
            if old is not None:
                near[cell] = new = (old & (1 << _TILE_OPEN) - 1) | m << _TILE_OPEN
                self._links += _LINKS[new] - _LINKS[old]  # type: ignore[misc]  # the slot is Alhambra's
            elif cell in front:
                front[cell] = (front[cell] & (1 << _FRONT_OPEN) - 1) | m << _FRONT_OPEN
        self._cuts = None  # type: ignore[misc]  # the slot is Alhambra's
        self._changed()

    def _reaches_outside(self, start: int, filled: int | None = None, emptied: int | None = None) -> bool:
        """True if the empty cell ``start`` connects through empty cells to the unbounded
        outside (beyond the bounding box), with ``filled`` counted as a tile and ``emptied`` as
        empty (for the ``holes = "region"`` variant of R-PLACE-6)."""
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

    def is_tree(self) -> bool:
        """True if the graph of links (tiles joined through a shared side without walls) is
        a tree: as many links as tiles minus one."""
        return self._links == 2 * (len(self.tile_facts) - 1)

    def _cut_cells(self) -> set[int]:
        """Articulation points of the graph of links, rooted at the fountain (iterative
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

    def cut_cells(self) -> frozenset[int]:
        """:meth:`_cut_cells`, kept until the link graph changes."""
        cuts = self._cuts
        if cuts is None:
            cuts = self._cuts = frozenset(self._cut_cells())  # type: ignore[misc]  # the slot is Alhambra's
        return cuts


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
    neighbours show (see ``_rebuild``).

    The rules are not here: ``rules`` (default: the built-in
    :class:`~alhambra.PlacementRules` with ``holes``; in a game, the rule set's) judges every
    build, removal and swap over this geometry; :meth:`open_side` declares a side walkable.

    Queries (``can_place``, ``placements``, ``can_remove``, ``can_swap``, ``longest_outer_wall``)
    never change the city. Mutators (``place``, ``remove``, ``swap``) check the rules first and
    raise :class:`IllegalActionError` (citing the rule) without changing anything.
    """

    __slots__ = (
        "_tiles",
        "_walls",
        "catalog",
        "holes",
        "front_facts",
        "tile_facts",
        "_links",
        "_cuts",
        "_wall_len",
        "_three",
        "memo",
        "rules",
        "_gates",
    )

    def __init__(self, catalog: TileCatalog = BASE_CATALOG, holes: str = "cell", *, rules: Any = None):
        if rules is None:
            if holes not in HOLES_MODES:
                raise ConfigError(f"holes must be one of {HOLES_MODES}, not {holes!r}")
            rules = _BASE_RULES[holes]
        if not isinstance(catalog, TileCatalog):
            raise ConfigError(f"catalog must be a TileCatalog, not {catalog!r}")
        self.catalog = catalog
        self.rules = rules
        self.holes = rules.holes
        #: cell -> side bits declared open for walking (both cells of a side record it)
        self._gates: dict[int, int] = {}
        #: cell -> tile id, and cell -> wall mask, for every tile (fountain included)
        self._tiles: dict[int, int | str] = {_O: FOUNTAIN}
        self._walls: dict[int, int] = {_O: catalog.walls[FOUNTAIN]}
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
        rules: Any = None,
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
        city = cls(catalog, holes, rules=rules)
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
        new.rules = self.rules
        new._gates = self._gates.copy()
        new._tiles = self._tiles.copy()
        new._walls = self._walls.copy()
        new.front_facts = self.front_facts.copy()
        new.tile_facts = self.tile_facts.copy()
        new._links = self._links
        new._three = self._three
        new._cuts = self._cuts
        new._wall_len = self._wall_len
        new.memo = self.memo  # replaced (not mutated) on change
        return new

    def with_open_sides(self, sides: Iterable[tuple[Pos, int]]) -> "Alhambra":
        """A copy with each of ``sides`` (``(pos, side)`` pairs) declared open
        (:meth:`open_side`): the rules judge a change there as with those sides open (the city
        gates' gates a removal would need, R-GATE-6)."""
        new = self.copy()
        for pos, side in sides:
            new.open_side(pos, side)
        return new

    def _rebuild(self) -> None:
        """Recompute the neighbourhood facts and drop every cache (a new or rebuilt layout)."""
        tiles, walls = self._tiles, self._walls
        #: frontier (empty cell touching a tile) -> ``touch << 4 | need``: the sides where a
        #: tile stands (touch) and those of them whose tile shows a wall to this cell (need)
        front: dict[int, int] = {}
        #: tile cell -> ``touch << 4 | walls`` (the sides where another tile stands, its own
        #: walls), with ``_FOUNTAIN_BIT`` for the fountain
        near: dict[int, int] = {}
        gates = self._gates
        for c in tiles:
            m = walls[c]
            t = 0
            for step, side, opp in _STEPS:
                q = c + step
                if q in tiles:
                    t |= side
                else:
                    v = front.get(q)
                    if v is None:
                        v = gates.get(q, 0) << _FRONT_OPEN
                    front[q] = v | (opp << 4) | (opp if m & side else 0)
            near[c] = gates.get(c, 0) << _TILE_OPEN | t << 4 | m | (_FOUNTAIN_BIT if c == _O else 0)
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
        #: "removable", "redesign", "open_cells", "sites", "spots", "double_walls" are the
        #: engine's). A copy shares it while both have the same layout; any change replaces it.
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
                    v = self._gates.get(q, 0) << _FRONT_OPEN if self._gates else 0
                    if q not in _POS_OF:
                        _remember(q)
                front[q] = w = v | (opp << 4) | (opp if m & side else 0)
                three += _THREE_SIDES[w] - _THREE_SIDES[v]
        self._three = three
        near[c] = v = t << 4 | m | (self._gates.get(c, 0) << _TILE_OPEN if self._gates else 0)
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
                if w & 0xF0:
                    front[q] = w
                    three += _THREE_SIDES[w]
                else:
                    del front[q]
        if v:
            front[c] = v = v | self._gates.get(c, 0) << _FRONT_OPEN
            three += _THREE_SIDES[v]
        self._three = three
        self._links -= lost
        self._changed()
        return tile

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
        """Why this Alhambra breaks the placement rules as a whole, or ``None`` if it is valid
        (R-COMP-1, R-PLACE-3, R-PLACE-5, R-PLACE-6, as its rules judge them)."""
        return self.rules.why_invalid(self)

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
            self._wall_len = longest_trail(self._outer_wall_edges())
        return self._wall_len

    def _outer_wall_edges(self) -> list[tuple[int, int]]:
        """:meth:`outer_wall_segments` with each grid corner named by the number of the cell
        it is the north-west corner of (see :func:`cell_position`): the same graph, built
        without a position tuple."""
        tiles = self._tiles
        edges = []
        s = _STRIDE
        for c, m in self._walls.items():
            if not m:
                continue
            if m & NORTH and c - 1 not in tiles:
                edges.append((c, c + s))
            if m & EAST and c + s not in tiles:
                edges.append((c + s, c + s + 1))
            if m & SOUTH and c + 1 not in tiles:
                edges.append((c + 1, c + s + 1))
            if m & WEST and c - s not in tiles:
                edges.append((c, c + 1))
        return edges

    # -- display ------------------------------------------------------------------------------

    def render(self) -> str:
        """A text grid of this Alhambra with walls drawn: ``#`` marks a wall side, ``G`` a wall
        side open for walking (a city gate, R-GATE-6: :meth:`open_side`), ``F`` the fountain,
        building ids and hut ids inside the cells. Three text rows per grid row."""
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
                gates = self._gates.get(_cell((x, y)), 0)  # type: ignore[arg-type]  # within the grid
                wall = {s: ("G" if gates & s else "#") if m & s else "" for s in (NORTH, EAST, SOUTH, WEST)}
                label = "F" if t == FOUNTAIN else str(t)
                top.append("+" + (wall[NORTH].center(3, "#") if m & NORTH else "---") + "+")
                mid.append((wall[WEST] or "|") + label.center(3)[:3] + (wall[EAST] or "|"))
                bot.append("+" + (wall[SOUTH].center(3, "#") if m & SOUTH else "---") + "+")
            lines += ["".join(top), "".join(mid), "".join(bot)]
        return "\n".join(line.rstrip() for line in lines)


def longest_trail(segments: Iterable[tuple[Any, Any]]) -> int:
    """Longest trail (path that repeats no edge) in the graph of wall segments, each a pair
    of corners (any hashable values: grid corners ``(x, y)``, or the engine's numbers).

    A connected component with at most two odd-degree corners has an Euler trail, so all its
    segments count; other components (rare) are searched exhaustively. Returns 0 for none."""
    adj: dict[Any, list[tuple[Any, int]]] = {}
    for i, (a, b) in enumerate(segments):
        if a in adj:
            adj[a].append((b, i))
        else:
            adj[a] = [(b, i)]
        if b in adj:
            adj[b].append((a, i))
        else:
            adj[b] = [(a, i)]
    best = 0
    seen: set[Any] = set()
    for start in adj:
        if start in seen:
            continue
        comp, stack = [start], [start]
        seen.add(start)
        edges = odd = 0
        while stack:
            v = stack.pop()
            near = adj[v]
            edges += len(near)
            odd += len(near) & 1
            for w, _ in near:
                if w not in seen:
                    seen.add(w)
                    comp.append(w)
                    stack.append(w)
        edges //= 2
        if edges <= best:
            continue
        if odd <= 2:
            best = edges
            continue
        best = max(best, _search_trail(adj, comp, edges))
    return best


def _search_trail(adj: dict[Any, list[Any]], comp: list[Any], limit: int) -> int:
    """The longest trail of component ``comp`` (at most ``limit`` segments), by trying every
    trail from each odd corner: a longest trail of a non-Eulerian component starts at one."""
    best = [0]
    used: set[int] = set()
    for v in comp:
        if len(adj[v]) % 2:
            _walk(adj, v, 0, used, best, limit)
    return best[0]


def _walk(adj: dict[Any, list[Any]], v: Any, length: int, used: set[int], best: list[int], limit: int) -> None:
    """Extend a trail of ``length`` segments ending at ``v`` every way it can go, keeping the
    longest length in ``best[0]``. A function of its own: a recursive closure is a reference
    cycle left for the garbage collector."""
    if length > best[0]:
        best[0] = length
    for w, i in adj[v]:
        if i not in used and best[0] < limit:
            used.add(i)
            _walk(adj, w, length + 1, used, best, limit)
            used.discard(i)


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
