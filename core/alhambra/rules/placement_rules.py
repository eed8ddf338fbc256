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

The methods are the one source of the rules. For the engine's hot path (one look-up per
frontier cell) each :class:`PlacementRules` also holds them as tables over the facts the city
keeps (:class:`PlacementTables`, its ``tables``), built when the rules are made by asking its
own :meth:`~PlacementRules.sides_match` and :meth:`~PlacementRules.side_open` about every
combination of one side's facts (:func:`side_answers`): an override of either (or
``walls_match=False``) changes the tables, with nothing else to register. The facts count the
sides declared open, so open sides keep the tables. Rules whose answer about a side depends on
more than that side's facts (the position, other cells: the ``open_side`` example) have no
tables and are judged cell by cell through the methods, exactly as written; the tree test and
the cut tiles of the link graph decide removals and swaps only under rules that walk the
city's links (``PlacementTables.walks_links``). The listings (``place_cells``,
``walled_off_cells``, ``swap_cells``, ``removable_cells``) stand for the judgements
(``why_not_place``, ``why_not_swap``, ``why_not_remove``) as written here: a plugin that
overrides a judgement beyond the rules above overrides its listing too.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

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
    neighbour,
)
from ..engine.components import EAST, FOUNTAIN, NORTH, SOUTH, WEST
from ..errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.city import Alhambra, Pos

_O = FOUNTAIN_CELL
_pos = cell_position


# -- the rules as tables over the city's facts --------------------------------------------------


class _Looked(Exception):
    """A rule asked the stand-in city of :func:`side_answers` something beyond one side's facts."""


class _ProbePos:
    """The position a rule is asked about while its tables are built: any use of it (its
    coordinates, comparing or hashing it) marks the rule as looking beyond the side."""

    __slots__ = ("probe",)

    def __init__(self, probe: _ProbeCity) -> None:
        self.probe = probe

    def _looked(self, *args: Any) -> Any:
        self.probe.looked = True
        raise _Looked("the rule reads the position")

    __iter__ = __getitem__ = __len__ = __eq__ = __ne__ = __hash__ = __lt__ = __contains__ = _looked

    def __getattr__(self, name: str) -> Any:
        return self._looked()


class _ProbeCity:
    """The city a rule is asked about while its tables are built: it knows one side, whether
    that side is declared open (``is_open_side``) and nothing else; anything else asked of it
    marks the rule as looking beyond the side (``looked``)."""

    __slots__ = ("side", "declared", "pos", "looked")

    def __init__(self) -> None:
        self.side = 0
        self.declared = False
        self.looked = False
        self.pos = _ProbePos(self)

    def is_open_side(self, pos: Any, side: int) -> bool:
        if pos is not self.pos or side != self.side:
            self.looked = True
            raise _Looked("the rule asks about another side")
        return self.declared

    def __getattr__(self, name: str) -> Any:
        self.looked = True
        raise _Looked(f"the rule reads city.{name}")


#: one side's facts, in the order :func:`side_answers` asks them: the side, the walls the new
#: tile (``mine``) and its neighbour (``theirs``) show there, and whether it is declared open
_SIDE_FACTS = tuple(
    (side, mine, theirs, declared)
    for side in (NORTH, EAST, SOUTH, WEST)
    for mine in (False, True)
    for theirs in (False, True)
    for declared in (False, True)
)


def side_answers(rules: PlacementRules) -> tuple[tuple[bool, bool], ...] | None:
    """What ``rules`` answer about one shared side, for every combination of its facts
    (:data:`_SIDE_FACTS`): ``(sides_match, side_open)`` each. ``None`` when the rules look at
    anything else (the position, other cells, other sides): then no table can stand for them
    and they are judged cell by cell. Both are asked with the side declared open
    (``city.is_open_side(pos, side)`` answers True) and without. A rule must answer alike for
    the same arguments (no state of its own that changes)."""
    probe = _ProbeCity()
    pos = cast("Pos", probe.pos)
    city = cast("Alhambra", probe)
    found = []
    for side, mine, theirs, declared in _SIDE_FACTS:
        probe.side, probe.declared = side, declared
        try:
            match = bool(rules.sides_match(city, pos, side, mine, theirs))
            walk = bool(rules.side_open(city, pos, side, mine, theirs))
        except _Looked:
            return None
        if probe.looked:  # asked, and the answer made up without it (an ``except Exception``)
            return None
        found.append((match, walk))
    return tuple(found)


@frozen
class PlacementTables:
    """One rule set's placement rules as tables over the facts a city keeps (the engine's hot
    path: one look-up per frontier cell or tile), built from the rules' own
    :meth:`~PlacementRules.sides_match` and :meth:`~PlacementRules.side_open` when the rules
    are made (:func:`placement_tables`).

    ``place_ok[mask][fact]``: a tile of wall mask ``mask`` may be built on a frontier cell of
    that fact (R-PLACE-3: every touching side matches; R-PLACE-5: one of them may be walked);
    ``walled_off[mask][fact]``: it matches every neighbour but none may be walked (R-PLACE-5
    alone forbids it); ``place_any[fact]``: some mask may be built there. ``walks_links``: the
    rules are the built-in ones with ``walls_match`` (two touching sides show the same walls,
    one walks where the tile shows no wall or the side is declared open): then the link graph
    the city keeps is the rules' walking graph, and ``swap_ok[mask][fact]`` (a tile of wall
    mask ``mask`` may replace a tile of that fact, R-TURN-5 iii) and the tree and cut-tile
    shortcuts of removal (R-TURN-6) hold; otherwise ``swap_ok`` is ``None`` and swaps and
    removals are judged tile by tile.
    """

    place_ok: tuple[tuple[bool, ...], ...]
    walled_off: tuple[tuple[bool, ...], ...]
    place_any: tuple[bool, ...]
    walks_links: bool
    swap_ok: tuple[tuple[bool, ...], ...] | None


def placement_tables(rules: PlacementRules) -> PlacementTables | None:
    """The tables standing for ``rules`` (:class:`PlacementTables`), or ``None`` when the rules
    look beyond one side's facts (see :func:`side_answers`). Rules that answer alike share
    one set of tables (built once per process)."""
    answers = side_answers(rules)
    return None if answers is None else _tables_for(answers)


def _bools(bits: int) -> tuple[bool, ...]:
    """The frontier facts of ``bits`` (bit v: fact v) as a table: True at each fact in it."""
    return tuple(map("1".__eq__, format(bits, f"0{FRONT_FACTS}b")[::-1]))


@functools.lru_cache(maxsize=32)
def _tables_for(answers: tuple[tuple[bool, bool], ...]) -> PlacementTables:
    """:class:`PlacementTables` for rules answering ``answers`` (see :func:`side_answers`)."""
    sides = (NORTH, EAST, SOUTH, WEST)
    said = {facts: answer for facts, answer in zip(_SIDE_FACTS, answers)}
    # sets of frontier facts as bits of an int (bit v: fact v): per side and wall on the new
    # tile's side there, the facts where a tile stands across that side and the sides do not
    # match (R-PLACE-3), or one may walk across (R-PLACE-5)
    mismatch: dict[tuple[int, bool], int] = {}
    walkable: dict[tuple[int, bool], int] = {}
    impossible = 0  # a wall shown from a side where no tile stands: no such cell
    for v in range(FRONT_FACTS):
        if v & 15 & ~(v >> 4):
            impossible |= 1 << v
    for side in sides:
        for mine in (False, True):
            bad = walk = 0
            for v in range(FRONT_FACTS):
                if (v >> 4) & side:
                    match, through = said[side, mine, bool(v & side), bool((v >> FRONT_OPEN_SHIFT) & side)]
                    if not match:
                        bad |= 1 << v
                    if through:
                        walk |= 1 << v
            mismatch[side, mine] = bad
            walkable[side, mine] = walk
    every = (1 << FRONT_FACTS) - 1
    place_ok = []
    walled_off = []
    anywhere = 0
    for mask in range(16):
        bad = impossible
        walk = 0
        for side in sides:
            bad |= mismatch[side, bool(mask & side)]
            walk |= walkable[side, bool(mask & side)]
        place_ok.append(_bools(every & ~bad & walk))
        walled_off.append(_bools(every & ~bad & ~walk))
        anywhere |= every & ~bad & walk
    # the built-in rules with walls_match: sides match where they show the same, and one walks
    # where the tile shows no wall or the side is declared open (the city's links)
    walks_links = all(
        match == (mine == theirs) and (not match or walk == (not mine or declared))
        for (_, mine, theirs, declared), (match, walk) in said.items()
    )
    swap_ok = None
    if walks_links:
        # walls match, so a tile's neighbours show its own walls on the touching sides: a new
        # tile must match those (and then every link stays as it was)
        swap_ok = tuple(
            tuple(
                not v & FOUNTAIN_BIT
                and all(said[side, bool(mask & side), bool(v & side), False][0] for side in sides if v >> 4 & side)
                for v in range(512)
            )
            # the open sides (the fact's high bits) change no tile's walls: the same answer repeats
            * (TILE_FACTS >> 9)
            for mask in range(16)
        )
    return PlacementTables(
        place_ok=tuple(place_ok),
        walled_off=tuple(walled_off),
        place_any=_bools(anywhere),
        walks_links=walks_links,
        swap_ok=swap_ok,
    )


#: tile fact -> True for a leaf of the link graph (not the fountain) that is not enclosed:
#: in a tree-shaped Alhambra (``Alhambra.is_tree``), exactly the removable tiles (R-TURN-6)
#: under rules whose walking graph is the link graph (``PlacementTables.walks_links``)
OPEN_LEAF = tuple(LEAF[v] and not ENCLOSED[v] for v in range(TILE_FACTS))


#: no tile held in place (see ``PlacementRules.held_cells``)
_NONE_HELD: frozenset[int] = frozenset()


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
    #: these rules as tables over the city's facts, built from :meth:`sides_match` and
    #: :meth:`side_open` as the rules are made (:func:`placement_tables`; an override of
    #: either changes them), or ``None`` when those look beyond one side's facts (the
    #: position, other cells): then every cell is judged by the methods
    tables: PlacementTables | None = attrs.field(init=False, eq=False, repr=False)
    #: True when ``held_cells`` is a plugin's: some tiles may be held in place
    holds: bool = attrs.field(init=False, eq=False, repr=False)
    #: True when, in a tree-shaped Alhambra (``Alhambra.is_tree``), the removable tiles are
    #: exactly the leaves of the link graph that are not enclosed (``OPEN_LEAF``) and not held
    #: (R-TURN-6): rules that walk the city's links (``PlacementTables.walks_links``) with the
    #: built-in :meth:`hole_after_removing` and ``holes="cell"``
    leaf_removals: bool = attrs.field(init=False, eq=False, repr=False)
    #: True when the built-in R-PLACE-6 with ``holes="cell"`` decides the barred cells
    _cell_holes: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.holes not in HOLES_MODES:
            raise ConfigError(f"holes must be one of {HOLES_MODES}, not {self.holes!r}")
        if type(self.walls_match) is not bool:
            raise ConfigError(f"walls_match is True or False, not {self.walls_match!r}")
        cls = type(self)
        object.__setattr__(self, "tables", placement_tables(self))
        object.__setattr__(self, "holds", cls.held_cells is not PlacementRules.held_cells)
        same = type(self).hole_after_placing is PlacementRules.hole_after_placing
        object.__setattr__(self, "_cell_holes", same and self.holes == "cell")
        tables = self.tables
        object.__setattr__(
            self,
            "leaf_removals",
            tables is not None
            and tables.walks_links
            and self.holes == "cell"
            and cls.hole_after_removing is PlacementRules.hole_after_removing,
        )

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
        tables = self.tables
        if tables is not None:
            front = city.front_facts
            fits = tables.place_ok[mask]
            return [q for q in self.build_sites(city, tables) if fits[front[q]]]
        found = [q for q in sorted(city.front_facts) if self._place_problem(city, q, mask) is None]
        barred = city.barred_cells()
        if barred:
            found = [q for q in found if q not in barred]
        return found

    def build_sites(self, city: Alhambra, tables: PlacementTables) -> list[int]:
        """The frontier cells (sorted) where a tile of some wall mask fits and building leaves
        no hole (R-PLACE-6): what :meth:`place_cells` filters per mask, kept in the city's
        ``memo`` (``"sites"``) with its layout."""
        sites: list[int] | None = city.memo.get("sites")
        if sites is None:
            front = city.front_facts
            fits = tables.place_any
            sites = [q for q in sorted(front) if fits[front[q]]]
            barred = city.barred_cells()
            if barred:
                sites = [q for q in sites if q not in barred]
            city.memo["sites"] = sites
        return sites

    def swap_spots(self, city: Alhambra) -> list[int]:
        """The tiles (sorted, the fountain among them) that are not held in place
        (:meth:`held_cells`): what :meth:`swap_cells` and :meth:`removable_cells` filter, kept
        in the city's ``memo`` (``"spots"``) with its layout."""
        spots: list[int] | None = city.memo.get("spots")
        if spots is None:
            spots = sorted(city.tile_facts)
            held = self.held_cells(city) if self.holds else None
            if held:
                spots = [c for c in spots if c not in held]
            city.memo["spots"] = spots
        return spots

    def walled_off_cells(self, city: Alhambra, mask: int) -> list[int]:
        """The frontier cells (internal numbers, sorted) where R-PLACE-5 is why a tile of wall
        mask ``mask`` may not be built: it matches every neighbour (R-PLACE-3) but no shared
        side is open (``Alhambra.walled_off_cells`` caches the answer)."""
        if self.tables is not None:
            return _fitting(city.front_facts, self.tables.walled_off[mask])
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

    def reachable(
        self, city: Alhambra, without: int | None = None, swapped: tuple[int, int] | None = None, start: int = _O
    ) -> set[int]:
        """The tiles (internal cells) reachable on foot from the fountain, or from the tile at
        ``start`` (R-PLACE-5, judged by :meth:`side_open`), with the tile at ``without`` taken
        away and, with ``swapped`` ``(cell, mask)``, that cell's walls replaced."""
        walls = city._walls
        if swapped is not None:
            walls = {**walls, swapped[0]: swapped[1]}
        seen = {start}
        stack = [start]
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

    def parts(self, city: Alhambra, without: int | None = None) -> dict[int, int]:
        """The tiles (internal cells) but ``without``, each labelled with the part of the
        Alhambra one reaches on foot from it (:meth:`reachable`), numbered from 0 (the
        fountain's part) in the order of the cells; a tile is labelled by the first part that
        reaches it (``Alhambra.parts_without`` answers through this)."""
        label: dict[int, int] = {}
        n = 0
        for start in (_O, *sorted(city._tiles)):
            if start != without and start not in label:
                for c in self.reachable(city, without, start=start):
                    label.setdefault(c, n)
                n += 1
        return label

    def removable_cells(self, city: Alhambra) -> list[int]:
        """The tiles (internal cells, sorted) that may be moved to the reserve (R-TURN-5 ii,
        R-TURN-6): with the built-in rules, the leaves of a tree-shaped link graph, else the
        tiles that are no cut vertex (one pass); other rules (``walks_links`` false, or
        :meth:`hole_after_removing` a plugin's): tile by tile."""
        tables = self.tables
        if (
            tables is None
            or not tables.walks_links
            or type(self).hole_after_removing is not PlacementRules.hole_after_removing
        ):
            return [c for c in sorted(city._tiles) if c != _O and self.why_not_remove(city, _pos(c)) is None]
        near = city.tile_facts
        cell_holes = self.holes == "cell"
        if city.is_tree():
            if self.leaf_removals:
                return [c for c in self.swap_spots(city) if OPEN_LEAF[near[c]]]  # held tiles left out
            found = [c for c in self.swap_spots(city) if LEAF[near[c]]]
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
        if self.tables is None or not self.tables.walks_links:
            seen = self.reachable(city, swapped=(c, mask))
            if len(seen) != len(city._tiles):
                cut = sorted(_pos(q) for q in set(city._tiles) - seen)
                return f"R-PLACE-5: with {label} at {pos}, {cut} could not be reached from the fountain"
        return None

    def swap_cells(self, city: Alhambra, mask: int) -> list[int]:
        """The tiles (internal cells, sorted) a tile of wall mask ``mask`` could replace."""
        swap_ok = self.tables.swap_ok if self.tables is not None else None
        if swap_ok is not None:
            tiles = city.tile_facts
            fits = swap_ok[mask]  # never the fountain
            return [c for c in self.swap_spots(city) if fits[tiles[c]]]
        held = self.held_cells(city) if self.holds else _NONE_HELD
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


@frozen
class OpenSidesHeld(PlacementRules):
    """The placement rules with every tile that has a side declared open
    (:meth:`Alhambra.open_side`) held in place: it can be neither moved to the reserve nor
    swapped (the city gates' R-GATE-7: the two tiles a gate joins). ``refusal`` says why,
    ``{pos}`` the tile's cell. The open sides are walked by the built-in rules already, so
    their tables still decide everything else."""

    refusal: str = "the tile at {pos} has a side declared open: it stays"

    def held_cells(self, city: Alhambra) -> frozenset[int]:
        return city.open_cells()

    def why_held(self, city: Alhambra, pos: Pos) -> str | None:
        if any(city.is_open_side(pos, side) for side in (NORTH, EAST, SOUTH, WEST)):
            return self.refusal.format(pos=pos)
        return None


def side_cells(pos: Pos, side: int) -> frozenset[Pos]:
    """The two cells the side ``side`` (NORTH, EAST, SOUTH or WEST) of cell ``pos`` lies
    between: one value for a side however it is named (``side_cells((1, 0), WEST) ==
    side_cells((0, 0), EAST)``). :class:`ConfigError` for a bad side."""
    if side not in (NORTH, EAST, SOUTH, WEST) or type(side) is not int:
        raise ConfigError(f"a side is one of NORTH, EAST, SOUTH, WEST, not {side!r}")
    return frozenset((pos, neighbour(pos, side)))


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
