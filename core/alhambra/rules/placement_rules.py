"""The placement rules: where a tile may be built, removed and swapped in an Alhambra
(R-PLACE-1 … R-PLACE-6, R-TURN-5, R-TURN-6), over the geometry of :mod:`alhambra.engine.city`.

:class:`PlacementRules` is one rule set's answer (the hook ``alhambra_placement_rules``, chained
from the built-in rules); every player's Alhambra of a game judges with it. Each rule is a
method a plugin may override in a subclass, or a field it may change with ``attrs.evolve``:

* :meth:`PlacementRules.sides_match`: R-PLACE-3, two touching sides match (``walls_match``);
* :meth:`PlacementRules.side_open`: R-PLACE-5 and R-TURN-6, one may walk across a shared side
  (no wall on either side, or a side declared open with ``Alhambra.open_side``, a city gate);
* :meth:`PlacementRules.hole_after_placing` and :meth:`PlacementRules.hole_after_removing`:
  R-PLACE-6 and R-TURN-6, the holes (``holes``: ``"cell"`` or ``"region"``).

The built-in rules are decided by tables over the facts the city keeps (one look-up per
frontier cell: the engine's hot path); the facts count the sides declared open, so open sides
keep the tables, the tree test and the cut tiles of the link graph. Rules that judge sides
themselves (a subclass, or ``walls_match=False``) are decided cell by cell through the
methods above, exactly as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
from attrs import frozen

from ..engine import city as _city
from ..engine.city import (
    ENCLOSED,
    FOUNTAIN_BIT,
    FOUNTAIN_CELL,
    FRONT_FACTS,
    FRONT_OPEN_SHIFT,
    HOLES_MODES,
    LEAF,
    MISSING_STEP,
    ORIGIN,
    SIDE_WORD,
    STEPS,
    STRIDE,
    THREE_SIDES,
    TILE_FACTS,
    cell_position,
)
from ..engine.components import EAST, FOUNTAIN, NORTH, SOUTH, WEST
from ..errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.city import Alhambra, Pos

_O = FOUNTAIN_CELL
_pos = cell_position


# -- the built-in rules as tables over the city's facts ---------------------------------------


def _fits(touch: int, need: int, *, open_side: bool, declared: int = 0) -> int:
    """Bit ``m`` set for every wall mask ``m`` that has walls exactly on the ``need`` sides
    among the ``touch`` sides (R-PLACE-3); with ``open_side``, also at least one touching side
    open: without a wall, or among the ``declared`` open sides (R-PLACE-5, R-GATE-6)."""
    out = 0
    for m in range(16):
        if (m & touch) == need and (not open_side or touch & (~m | declared)):
            out |= 1 << m
    return out


#: ``_PLACE_FIT[open << 8 | touch << 4 | need]``: masks that may be built on a cell (R-PLACE-3,
#: -5); ``_SWAP_FIT[touch << 4 | need]``: masks that may replace a tile (R-TURN-5 iii: walls
#: match, and then every link, open sides included, stays as it was).
_PLACE_FIT = tuple(
    _fits((i >> 4) & 15, i & 15, open_side=True, declared=i >> FRONT_OPEN_SHIFT) for i in range(FRONT_FACTS)
)
_SWAP_FIT = tuple(_fits(i >> 4, i & 15, open_side=False) for i in range(256))
#: frontier fact -> True where a tile of wall mask m may be built (R-PLACE-3, -5), per mask
PLACE_OK = tuple(tuple(bool(_PLACE_FIT[v] >> m & 1) for v in range(FRONT_FACTS)) for m in range(16))
#: tile fact -> True where a tile of wall mask m may replace it (R-TURN-5 iii), per mask
#: (the tile's need: its own walls on the sides where it meets a tile, since walls match)
SWAP_OK = tuple(
    tuple(
        not v & FOUNTAIN_BIT and bool(_SWAP_FIT[((v >> 4) & 15) << 4 | (v & (v >> 4) & 15)] >> m & 1)
        for v in range(512)
    )
    # the open sides (the fact's high bits) change no tile's walls: the same answer repeats
    * (TILE_FACTS >> 9)
    for m in range(16)
)
#: frontier fact -> True where a tile of wall mask m matches every neighbour (R-PLACE-3) but
#: cannot be reached across any of them (R-PLACE-5: wall against wall, no side open), per mask
WALLED_OFF = tuple(
    tuple(bool((_SWAP_FIT[v & 255] & ~_PLACE_FIT[v]) >> m & 1) for v in range(FRONT_FACTS)) for m in range(16)
)
#: frontier fact -> True where a tile of some wall mask may be built (about half of all
#: frontier cells take none: a cell whose only neighbour shows it a wall, for one)
PLACE_ANY = tuple(bool(f) for f in _PLACE_FIT)
#: tile fact -> True for a leaf of the link graph (not the fountain) that is not enclosed:
#: in a tree-shaped Alhambra (``Alhambra.is_tree``), exactly the removable tiles (R-TURN-6)
OPEN_LEAF = tuple(LEAF[v] and not ENCLOSED[v] for v in range(TILE_FACTS))


#: no tile held in place (see ``PlacementRules.held_cells``)
_NONE_HELD: frozenset[int] = frozenset()
#: the rules the tables over the city's facts stand for: a subclass overriding any of them is
#: judged cell by cell (``PlacementRules.tables``); one changing only which tiles are held keeps them
_TABLE_RULES = (
    "sides_match",
    "side_open",
    "hole_after_placing",
    "hole_after_removing",
    "why_not_place",
    "_place_problem",
    "place_cells",
    "walled_off_cells",
    "barred_cells",
    "why_not_remove",
    "reachable",
    "removable_cells",
    "why_not_swap",
    "_swap_problem",
    "swap_cells",
    "why_invalid",
)


def _fitting(facts: dict[int, int], fits: tuple[bool, ...]) -> list[int]:
    found = [q for q, v in facts.items() if fits[v]]
    found.sort()
    return found


def _neighbours(c: int) -> tuple[int, int, int, int]:
    return (c - 1, c + STRIDE, c + 1, c - STRIDE)


@frozen
class PlacementRules:
    """The rules an Alhambra is built by (R-PLACE-1 … R-PLACE-6, R-TURN-5, R-TURN-6).

    ``holes``: the R-PLACE-6 variant, ``"cell"`` (an empty cell enclosed on four sides) or
    ``"region"`` (any enclosed empty area). ``walls_match``: R-PLACE-3 (two touching sides
    both walled or both open); ``False`` lets any sides touch, and then one walks only where
    neither side is walled. Positions are ``(x, y)``; sides are the bits ``NORTH``, ``EAST``,
    ``SOUTH``, ``WEST``; every ``why_not_*`` answers a sentence citing the rule, or ``None``.
    """

    holes: str = "cell"
    walls_match: bool = True
    #: True when the built-in rules decide, through the tables over the city's facts (a
    #: subclass overriding any rule of ``_TABLE_RULES``, or ``walls_match=False``, is judged
    #: cell by cell; one overriding only ``held_cells``/``why_held`` keeps them); worked out once
    tables: bool = attrs.field(init=False, eq=False, repr=False)
    #: True when ``held_cells`` is a plugin's: some tiles may be held in place
    holds: bool = attrs.field(init=False, eq=False, repr=False)
    #: True when the built-in R-PLACE-6 with ``holes="cell"`` decides the barred cells
    _cell_holes: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.holes not in HOLES_MODES:
            raise ConfigError(f"holes must be one of {HOLES_MODES}, not {self.holes!r}")
        if type(self.walls_match) is not bool:
            raise ConfigError(f"walls_match is True or False, not {self.walls_match!r}")
        cls = type(self)
        builtin = all(getattr(cls, name) is getattr(PlacementRules, name) for name in _TABLE_RULES)
        object.__setattr__(self, "tables", builtin and self.walls_match)
        object.__setattr__(self, "holds", cls.held_cells is not PlacementRules.held_cells)
        same = type(self).hole_after_placing is PlacementRules.hole_after_placing
        object.__setattr__(self, "_cell_holes", same and self.holes == "cell")

    # -- the rules a plugin overrides ------------------------------------------------------

    def sides_match(self, city: Alhambra, pos: Pos, side: int, mine: bool, theirs: bool) -> bool:
        """R-PLACE-3: may a tile showing a wall (``mine``) or not on its side ``side`` at
        ``pos`` touch a neighbour showing ``theirs`` on the facing side?"""
        return mine == theirs or not self.walls_match

    def side_open(self, city: Alhambra, pos: Pos, side: int, mine: bool, theirs: bool) -> bool:
        """R-PLACE-5, R-TURN-6: may one walk from the tile at ``pos`` across its side ``side``
        into the neighbour, the two showing walls ``mine`` and ``theirs`` there? Without a
        wall on either side, or where the city declares the side open (``Alhambra.open_side``,
        a city gate, R-GATE-6). (With ``walls_match`` the two agree in a valid city, and
        the side of the tile one stands on decides.)"""
        return not (mine or (theirs and not self.walls_match)) or city.is_open_side(pos, side)

    def hole_after_placing(self, city: Alhambra, pos: Pos) -> Pos | None:
        """R-PLACE-6: an empty cell that building at ``pos`` would leave as a hole, or ``None``."""
        c = _cell(pos)
        q = _hole_after_placing(city, c, self.holes)
        return None if q is None else _pos(q)

    def hole_after_removing(self, city: Alhambra, pos: Pos) -> bool:
        """R-TURN-6: would removing the tile at ``pos`` leave a hole (or, with ``holes =
        "region"``, an enclosed empty area)?"""
        c = _cell(pos)
        if self.holes == "cell":
            return all(q in city._tiles for q in _neighbours(c))
        return not city._reaches_outside(c, emptied=c)

    # -- building (R-PLACE-1 … R-PLACE-6) ---------------------------------------------------

    def held_cells(self, city: Alhambra) -> frozenset[int]:
        """The tiles (internal cells) that may be neither moved to the reserve nor swapped,
        whatever else the rules allow: a rule that holds tiles in place (the city gates'
        R-GATE-7 holds the two tiles a gate joins). None by default. It must agree with
        :meth:`why_held`; overriding the two keeps the built-in tables (``tables``)."""
        return _NONE_HELD

    def why_held(self, city: Alhambra, pos: Pos) -> str | None:
        """Why the tile at ``pos`` stays where it is (see :meth:`held_cells`), citing the
        rule, or ``None``."""
        return None

    def why_not_place(self, city: Alhambra, tile: Any, pos: Pos) -> str | None:
        """Why ``tile`` cannot be built at ``pos``: R-PLACE-4, -2, -3, -5 and -6 in that order."""
        if not _city._known_tile(city.catalog, tile):
            return f"unknown tile {tile!r}"
        c = _city._cell(pos)
        if c is not None and c in city._tiles:
            return f"R-PLACE-4: cell {pos} is not empty"
        if c is None or c not in city.front_facts:
            return f"R-PLACE-2: cell {pos} shares no side with a tile of the Alhambra"
        return self._place_problem(city, c, city.catalog.walls[tile], tile)

    def _place_problem(self, city: Alhambra, c: int, mask: int, tile: Any = None) -> str | None:
        walls = city._walls
        pos = _pos(c)
        connected = False
        label = f"tile {tile!r}" if tile is not None else f"a tile of walls {mask}"
        for step, side, opp in STEPS:
            m = walls.get(c + step)
            if m is None:
                continue
            mine, theirs = bool(mask & side), bool(m & opp)
            if not self.sides_match(city, pos, side, mine, theirs):
                return (
                    f"R-PLACE-3: the {SIDE_WORD[side]} side of {label} at {pos} "
                    f"({'wall' if mine else 'open'}) does not match tile {city._tiles[c + step]!r} at {_pos(c + step)} "
                    f"({'wall' if theirs else 'open'})"
                )
            if not connected and self.side_open(city, pos, side, mine, theirs):
                connected = True
        if not connected:
            return f"R-PLACE-5: {label} at {pos} cannot be reached on foot from the fountain (no shared side is open)"
        hole = self.hole_after_placing(city, pos)
        if hole is not None:
            return f"R-PLACE-6: building at {pos} would leave a hole at {hole}"
        return None

    def place_cells(self, city: Alhambra, mask: int) -> list[int]:
        """The frontier cells (internal numbers, sorted) where a tile of wall mask ``mask``
        may be built (``Alhambra.place_cells`` caches the answer)."""
        if self.tables:
            found = _fitting(city.front_facts, PLACE_OK[mask])
        else:
            found = [q for q in sorted(city.front_facts) if self._place_problem(city, q, mask) is None]
        barred = city.barred_cells()
        if barred:
            found = [q for q in found if q not in barred]
        return found

    def walled_off_cells(self, city: Alhambra, mask: int) -> list[int]:
        """The frontier cells (internal numbers, sorted) where R-PLACE-5 is why a tile of wall
        mask ``mask`` may not be built: it matches every neighbour (R-PLACE-3) but no shared
        side is open (``Alhambra.walled_off_cells`` caches the answer)."""
        if self.tables:
            return _fitting(city.front_facts, WALLED_OFF[mask])
        found = []
        for q in sorted(city.front_facts):
            why = self._place_problem(city, q, mask)
            if why is not None and why.startswith("R-PLACE-5"):
                found.append(q)
        return found

    def barred_cells(self, city: Alhambra) -> list[int]:
        """The frontier cells where building any tile would leave a hole (R-PLACE-6). With
        ``holes="cell"``: an empty cell with tiles on three sides bars its fourth neighbour."""
        front = city.front_facts
        if self._cell_holes:
            if not city._three:
                return []
            return [q + MISSING_STEP[(v >> 4) & 15] for q, v in front.items() if THREE_SIDES[v]]
        return [q for q in front if self.hole_after_placing(city, _pos(q)) is not None]

    # -- removal (R-TURN-5, R-TURN-6) -------------------------------------------------------

    def why_not_remove(self, city: Alhambra, pos: Pos) -> str | None:
        """Why the tile at ``pos`` cannot be moved to the reserve: the fountain never moves
        (R-TURN-5); what remains must leave no hole and keep every tile reachable (R-TURN-6)."""
        if pos == ORIGIN:
            return "R-TURN-5: the fountain can never be removed"
        c = _city._cell(pos)
        if c is None or c not in city._tiles:
            return f"R-TURN-5: there is no tile at {pos}"
        held = self.why_held(city, pos)
        if held:
            return held
        if self.hole_after_removing(city, pos):
            if self.holes == "cell":
                return f"R-TURN-6: removing the tile at {pos} would leave a hole there"
            return f"R-TURN-6: removing the tile at {pos} would leave an enclosed empty area"
        seen = self.reachable(city, without=c)
        if len(seen) != len(city._tiles) - 1:
            cut = sorted(_pos(q) for q in set(city._tiles) - seen - {c})
            return f"R-TURN-6: removing the tile at {pos} would cut {cut} off from the fountain"
        return None

    def reachable(self, city: Alhambra, without: int | None = None, swapped: tuple[int, int] | None = None) -> set[int]:
        """The tiles (internal cells) reachable on foot from the fountain (R-PLACE-5, judged
        by :meth:`side_open`), with the tile at ``without`` taken away and, with ``swapped``
        ``(cell, mask)``, that cell's walls replaced."""
        walls = city._walls
        if swapped is not None:
            walls = {**walls, swapped[0]: swapped[1]}
        seen = {_O}
        stack = [_O]
        while stack:
            c = stack.pop()
            m = walls[c]
            for step, side, opp in STEPS:
                q = c + step
                if q != without and q in walls and q not in seen:
                    if self.side_open(city, _pos(c), side, bool(m & side), bool(walls[q] & opp)):
                        seen.add(q)
                        stack.append(q)
        return seen

    def removable_cells(self, city: Alhambra) -> list[int]:
        """The tiles (internal cells, sorted) that may be moved to the reserve (R-TURN-5 ii,
        R-TURN-6): with the built-in rules, the leaves of a tree-shaped link graph, else the
        tiles that are no cut vertex (one pass); other rules: tile by tile."""
        if not self.tables or type(self).hole_after_removing is not PlacementRules.hole_after_removing:
            return [c for c in sorted(city._tiles) if c != _O and self.why_not_remove(city, _pos(c)) is None]
        near = city.tile_facts
        cell_holes = self.holes == "cell"
        if city.is_tree():
            leaf = OPEN_LEAF if cell_holes else LEAF
            found = [c for c, v in near.items() if leaf[v]]
            found.sort()
        else:
            cuts = city.cut_cells()
            found = [
                c for c in sorted(near) if c != _O and c not in cuts and (not ENCLOSED[near[c]] if cell_holes else True)
            ]
        if not cell_holes:
            found = [c for c in found if city._reaches_outside(c, emptied=c)]
        held = self.held_cells(city) if self.holds else None
        return [c for c in found if c not in held] if held else found

    # -- swapping (R-TURN-5 iii) ------------------------------------------------------------

    def why_not_swap(self, city: Alhambra, tile: Any, pos: Pos) -> str | None:
        """Why ``tile`` cannot take the place of the tile at ``pos``: the new tile must satisfy
        the placement rules there (R-TURN-5 iii): its sides match every neighbour (R-PLACE-3)
        and every tile stays reachable (R-PLACE-5; with matching walls it always does)."""
        if pos == ORIGIN:
            return "R-TURN-5: the fountain can never be swapped"
        c = _city._cell(pos)
        if c is None or c not in city._tiles:
            return f"R-TURN-5: there is no tile at {pos} to swap"
        if not _city._known_tile(city.catalog, tile):
            return f"unknown tile {tile!r}"
        return self.why_held(city, pos) or self._swap_problem(city, c, city.catalog.walls[tile], tile)

    def _swap_problem(self, city: Alhambra, c: int, mask: int, tile: Any = None) -> str | None:
        pos = _pos(c)
        label = f"tile {tile!r}" if tile is not None else f"a tile of walls {mask}"
        for step, side, opp in STEPS:
            m = city._walls.get(c + step)
            if m is not None and not self.sides_match(city, pos, side, bool(mask & side), bool(m & opp)):
                return (
                    f"R-PLACE-3: the {SIDE_WORD[side]} side of {label} would not match "
                    f"tile {city._tiles[c + step]!r} at {_pos(c + step)}"
                )
        if not self.tables:
            seen = self.reachable(city, swapped=(c, mask))
            if len(seen) != len(city._tiles):
                cut = sorted(_pos(q) for q in set(city._tiles) - seen)
                return f"R-PLACE-5: with {label} at {pos}, {cut} could not be reached from the fountain"
        return None

    def swap_cells(self, city: Alhambra, mask: int) -> list[int]:
        """The tiles (internal cells, sorted) a tile of wall mask ``mask`` could replace."""
        held = self.held_cells(city) if self.holds else _NONE_HELD
        if self.tables:
            found = _fitting(city.tile_facts, SWAP_OK[mask])
            return [c for c in found if c not in held] if held else found
        return [
            c for c in sorted(city._tiles) if c != _O and c not in held and self._swap_problem(city, c, mask) is None
        ]

    # -- the whole city ----------------------------------------------------------------------

    def why_invalid(self, city: Alhambra) -> str | None:
        """Why ``city`` breaks the rules as a whole: fountain at (0, 0) (R-COMP-1), sides
        matching (R-PLACE-3), every tile reachable (R-PLACE-5), no hole (R-PLACE-6)."""
        tiles, walls = city._tiles, city._walls
        if tiles.get(_O) != FOUNTAIN:
            return "R-COMP-1: the fountain must stand at (0, 0)"
        for c, m in walls.items():
            for step, side, opp in STEPS:
                q = c + step
                if q in walls and not self.sides_match(city, _pos(c), side, bool(m & side), bool(walls[q] & opp)):
                    return f"R-PLACE-3: walls do not match between {_pos(c)} and {_pos(q)}"
        seen = self.reachable(city)
        if len(seen) != len(tiles):
            return f"R-PLACE-5: {sorted(_pos(q) for q in set(tiles) - seen)} cannot be reached from the fountain"
        for q in sorted(city.front_facts):
            if self.holes == "cell":
                if all(n in tiles for n in _neighbours(q)):
                    return f"R-PLACE-6: hole at {_pos(q)}"
            elif not city._reaches_outside(q):
                return f"R-PLACE-6: enclosed empty area at {_pos(q)}"
        return None


def side_cells(pos: Pos, side: int) -> frozenset[Pos]:
    """The two cells the side ``side`` (NORTH, EAST, SOUTH or WEST) of cell ``pos`` lies
    between: one value for a side however it is named (``side_cells((1, 0), WEST) ==
    side_cells((0, 0), EAST)``). :class:`ConfigError` for a bad side."""
    x, y = pos
    step = {NORTH: (0, -1), EAST: (1, 0), SOUTH: (0, 1), WEST: (-1, 0)}.get(side)
    if step is None or type(side) is not int:
        raise ConfigError(f"a side is one of NORTH, EAST, SOUTH, WEST, not {side!r}")
    return frozenset(((x, y), (x + step[0], y + step[1])))


def _cell(pos: Pos) -> int:
    c = _city._cell(pos)
    if c is None:
        raise ConfigError(f"{pos!r} lies beyond the grid")
    return c


def _hole_after_placing(city: Alhambra, c: int, holes: str) -> int | None:
    """An empty neighbour of cell ``c`` that would become a hole (R-PLACE-6), or ``None``."""
    tiles = city._tiles
    for q in _neighbours(c):
        if q in tiles:
            continue
        if holes == "cell":
            if all(n in tiles or n == c for n in _neighbours(q)):
                return q
        elif not city._reaches_outside(q, filled=c):
            return q
    return None


#: The built-in rules per ``holes`` mode (an Alhambra made without rules judges with these).
BASE_RULES = {mode: PlacementRules(holes=mode) for mode in HOLES_MODES}
_city._BASE_RULES.update(BASE_RULES)
