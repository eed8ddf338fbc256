"""Sides declared open (``Alhambra.open_side``, a city gate) and the placement rules' fast path:
the facts an Alhambra keeps count its open sides, so the built-in tables, the tree test and the
cut tiles of the link graph (R-PLACE-3, R-PLACE-5, R-PLACE-6, R-TURN-5, R-TURN-6) must give
exactly what the rules give judged cell by cell, and the facts kept move by move must equal
those worked out afresh."""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from alhambra import EAST, NORTH, SOUTH, WEST, Alhambra, PlacementRules, cell_position


@attrs.frozen
class CellByCell(PlacementRules):
    """The built-in rules as written, judged cell by cell: the same rules with their tables
    taken away (rules with no tables, such as those reading the position, are judged so)."""

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(self, "tables", None)


_SIDES = (NORTH, EAST, SOUTH, WEST)


def _double_walls(city: Alhambra) -> list:
    """The sides between two tiles walled on both (where a city gate goes, R-GATE-5)."""
    walls = city.catalog.walls
    out = []
    for pos, tile in sorted(city.tiles.items()):
        for side, (dx, dy), facing in ((EAST, (1, 0), WEST), (SOUTH, (0, 1), NORTH)):
            other = city.tile_at((pos[0] + dx, pos[1] + dy))
            if other is not None and walls[tile] & side and walls[other] & facing:
                out.append((pos, side))
    return out


def _answers(city: Alhambra) -> tuple:
    return (
        [city.place_cells(m) for m in range(16)],
        [city.swap_cells(m) for m in range(16)],
        city.removable_cells(),
        [city.walled_off_cells(m) for m in range(16)],
    )


def _fresh_facts(city: Alhambra) -> tuple:
    again = city.copy()
    again._rebuild()
    return again.front_facts, again.tile_facts, again._links, again._three


@given(holes=st.sampled_from(["cell", "region"]), moves=st.lists(st.integers(0, 10**6), min_size=1, max_size=45))
def test_open_sides_fast_tables_agree_with_the_rules_cell_by_cell_r_place_5_r_turn_6(holes, moves):
    fast = Alhambra(holes=holes)
    slow = Alhambra(rules=CellByCell(holes=holes))
    assert fast.fast_rules() and not slow.fast_rules()
    unused = list(range(1, 55))
    for n in moves:
        kind = n % 4
        if kind == 3:  # declare (or withdraw) a side open: a double wall (a gate) or any side
            doubles = _double_walls(fast)
            if doubles and n // 4 % 2:
                pos, side = doubles[n // 8 % len(doubles)]
            else:
                cells = sorted(fast.tile_facts) + sorted(fast.front_facts)
                pos = cell_position(cells[n // 8 % len(cells)])
                side = _SIDES[n // 32 % 4]
            is_open = not fast.is_open_side(pos, side)
            trial = slow.copy()
            trial.open_side(pos, side, open=is_open)
            if trial.why_invalid():  # a withdrawn side held a tile: no game comes to that
                continue
            fast.open_side(pos, side, open=is_open)
            slow.open_side(pos, side, open=is_open)
        elif kind == 2 and slow.removable_cells():  # move a tile to the reserve
            c = slow.removable_cells()[n // 4 % len(slow.removable_cells())]
            unused.append(fast.remove(cell_position(c)))
            slow.remove(cell_position(c))
        else:  # build a tile where the rules (cell by cell) allow it, or swap one in
            tile = unused[n // 4 % len(unused)]
            mask = fast.catalog.walls[tile]
            spots = slow.swap_cells(mask) if kind == 1 else slow.place_cells(mask)
            if not spots:
                continue
            pos = cell_position(spots[n // 256 % len(spots)])
            unused.remove(tile)
            if kind == 1:
                unused.append(fast.swap(tile, pos))
                slow.swap(tile, pos)
            else:
                fast.place(tile, pos)
                slow.place(tile, pos)
        assert _answers(fast) == _answers(slow)
        assert (fast.front_facts, fast.tile_facts, fast._links, fast._three) == _fresh_facts(fast)
        assert fast.is_tree() == slow.is_tree()
        assert fast.why_invalid() is None


def test_a_gate_on_a_double_wall_makes_the_cell_buildable_and_the_tile_removable_r_gate_6():
    """A hand-built Alhambra: a tile walled on its east side only stands east of the fountain;
    a tile walled on its west side only meets it beyond, wall against wall (R-PLACE-5 forbids
    it) until that double wall is declared open."""
    walls = Alhambra().catalog.walls
    east_wall = next(t for t in range(1, 55) if walls[t] == EAST)
    west_wall = next(t for t in range(1, 55) if walls[t] == WEST)
    city = Alhambra()
    city.place(east_wall, (1, 0))
    assert (2, 0) not in city.placements(west_wall)  # R-PLACE-5: wall against wall
    city.open_side((1, 0), EAST)
    assert (2, 0) in city.placements(west_wall)  # R-GATE-6: the gate is walked through
    city.place(west_wall, (2, 0))
    assert city.removable() == [(2, 0)]  # (1, 0) holds (2, 0) to the fountain
    city.open_side((1, 0), EAST, open=False)
    # without the gate (2, 0) could not be reached: the city is no longer valid
    assert city.why_invalid() is not None


@attrs.frozen
class _Through(PlacementRules):
    """A rule of one side's facts other than the built-in one: east and west sides may be
    walked through, walls or not (its tables are built from this method)."""

    def side_open(self, city: Alhambra, pos: tuple[int, int], side: int, mine: bool, theirs: bool) -> bool:
        return side in (EAST, WEST) or super().side_open(city, pos, side, mine, theirs)


@attrs.frozen
class _ThroughCellByCell(_Through):
    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(self, "tables", None)


@attrs.frozen
class _LooseCellByCell(PlacementRules):
    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(self, "tables", None)


@given(
    which=st.sampled_from(["loose", "through"]),
    holes=st.sampled_from(["cell", "region"]),
    moves=st.lists(st.integers(0, 10**6), min_size=1, max_size=40),
)
def test_tables_built_from_a_plugins_methods_agree_with_the_methods_cell_by_cell_r_place_3_r_place_5(
    which, holes, moves
):
    """Rules other than the built-in ones (``walls_match=False``, R-PLACE-3; a ``side_open`` of
    one side's facts, R-PLACE-5) get tables from their own methods: building, swapping and
    removing as they list it is what the methods say cell by cell."""
    if which == "loose":
        rules, slow_rules = (
            PlacementRules(holes=holes, walls_match=False),
            _LooseCellByCell(holes=holes, walls_match=False),
        )
    else:
        rules, slow_rules = _Through(holes=holes), _ThroughCellByCell(holes=holes)
    assert rules.tables is not None and not rules.tables.walks_links and slow_rules.tables is None
    fast, slow = Alhambra(rules=rules), Alhambra(rules=slow_rules)
    unused = list(range(1, 55))
    for n in moves:
        kind = n % 3
        if kind == 2 and slow.removable_cells():
            c = slow.removable_cells()[n // 4 % len(slow.removable_cells())]
            unused.append(fast.remove(cell_position(c)))
            slow.remove(cell_position(c))
        else:
            tile = unused[n // 4 % len(unused)]
            mask = fast.catalog.walls[tile]
            spots = slow.swap_cells(mask) if kind == 1 else slow.place_cells(mask)
            if not spots:
                continue
            pos = cell_position(spots[n // 256 % len(spots)])
            unused.remove(tile)
            if kind == 1:
                unused.append(fast.swap(tile, pos))
                slow.swap(tile, pos)
            else:
                fast.place(tile, pos)
                slow.place(tile, pos)
        assert _answers(fast) == _answers(slow)
        assert fast.why_invalid() is None
