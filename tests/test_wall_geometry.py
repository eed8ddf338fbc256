"""The walls of an Alhambra as the core names them: the cell across a side, one name for a side
two cells share, the double walls (two tiles meeting wall against wall, where a city gate goes,
R-GATE-5) and why a side is none, the sides of a cell with tiles, and the parts one reaches on
foot without a tile (the walk of R-PLACE-5 and R-TURN-6)."""

from __future__ import annotations

import random

import pytest
from test_open_side_tables import CellByCell

from alhambra import (
    EAST,
    NORTH,
    SIDE_BITS,
    SIDE_NAMES,
    SOUTH,
    WEST,
    Alhambra,
    ConfigError,
    canonical_side,
    neighbour,
    read_side,
)

# fountain (0,0); 13 at (1,0) east of it (south wall); 5 at (1,1) below 13 (north wall); 7 at
# (0,1) below the fountain, open all round: 13 and 5 meet wall against wall, 5 is reached
# through 7 only
TILES = {(1, 0): 13, (1, 1): 5, (0, 1): 7}


def test_side_names_and_the_cell_across_a_side_r_place_1():
    assert SIDE_NAMES == {NORTH: "north", EAST: "east", SOUTH: "south", WEST: "west"}
    assert {SIDE_BITS[name]: name for name in SIDE_BITS} == SIDE_NAMES
    assert [neighbour((2, 3), side) for side in (NORTH, EAST, SOUTH, WEST)] == [(2, 2), (3, 3), (2, 4), (1, 3)]
    with pytest.raises(KeyError):
        neighbour((0, 0), 3)


def test_a_side_two_cells_share_has_one_name_from_its_west_or_north_cell():
    assert canonical_side((1, 0), WEST) == ((0, 0), EAST) == canonical_side((0, 0), EAST)
    assert canonical_side((1, 1), NORTH) == ((1, 0), SOUTH) == canonical_side((1, 0), SOUTH)
    with pytest.raises(KeyError):
        canonical_side((0, 0), 16)


def test_double_walls_are_the_sides_where_two_tiles_meet_wall_against_wall_not_open():
    city = Alhambra.from_tiles(TILES)
    assert city.double_walls() == [((1, 0), SOUTH)]
    assert city.why_not_double_wall((1, 1), NORTH) is None
    assert (
        city.why_not_double_wall((1, 0), EAST)
        == "the east side of (1, 0) does not lie between two tiles of the Alhambra"
    )
    assert city.why_not_double_wall((0, 0), EAST) == "the east side of (0, 0) is not a double wall"
    assert city.why_not_double_wall((0, 0), 5) == "a side is NORTH, EAST, SOUTH or WEST (1, 2, 4, 8), not 5"
    city.open_side((1, 1), NORTH)  # a city gate (R-GATE-6): still a double wall, no longer closed
    assert city.double_walls() == []
    assert city.why_not_double_wall((1, 0), SOUTH) is None


def test_double_walls_agree_with_the_walls_of_every_pair_of_tiles_in_random_alhambras():
    rng = random.Random(5)
    for _ in range(20):
        city = Alhambra()
        for tile in rng.sample(range(1, 55), 30):
            spots = city.placements(tile)
            if spots:
                city.place(tile, rng.choice(spots))
        walls = city.catalog.walls
        expected = sorted(
            (pos, side)
            for pos, tile in city.tiles.items()
            for side, facing in ((EAST, WEST), (SOUTH, NORTH))
            if (other := city.tile_at(neighbour(pos, side))) is not None
            and walls[tile] & side
            and walls[other] & facing
        )
        assert city.double_walls() == expected
        assert all(city.why_not_double_wall(pos, side) is None for pos, side in expected)


def test_the_sides_of_a_cell_with_tiles_in_the_order_north_east_south_west():
    city = Alhambra.from_tiles(TILES)
    assert city.sides_with_tiles((0, 1)) == [NORTH, EAST]
    assert city.sides_with_tiles((2, 1)) == [WEST]
    assert city.sides_with_tiles((0, 0)) == [EAST, SOUTH]
    assert city.sides_with_tiles((5, 5)) == []


def test_the_parts_one_reaches_on_foot_without_a_tile_r_place_5_r_turn_6():
    city = Alhambra.from_tiles(TILES)
    assert city.parts_without((0, 1)) == {(0, 0): 0, (1, 0): 0, (1, 1): 1}
    assert city.parts_without((1, 1)) == {(0, 0): 0, (1, 0): 0, (0, 1): 0}
    city.open_side((1, 0), SOUTH)  # across a gate one walks (R-GATE-6)
    assert city.parts_without((0, 1)) == {(0, 0): 0, (1, 0): 0, (1, 1): 0}


def test_openings_where_one_side_opened_lets_a_tile_in_r_place_5_r_gate_6():
    """6 at (1, 0) shows a wall to the east, 12 one to the west: 12 meets the Alhambra at
    (2, 0) only wall against wall, and a gate on that side lets it in; 12 opens nowhere else."""
    city = Alhambra.from_tiles({(1, 0): 6})
    assert city.openings(12) == [((2, 0), WEST)]
    assert (2, 0) not in city.placements(12)
    city.open_side((2, 0), WEST)
    assert (2, 0) in city.placements(12) and city.openings(12) == []
    with pytest.raises(ConfigError):
        city.openings(99)


def test_openings_judged_cell_by_cell_agree_with_the_built_in_tables_in_random_alhambras():
    rng = random.Random(11)
    found = 0
    for holes in ("cell", "region"):
        for _ in range(8):
            fast = Alhambra(holes=holes)
            for tile in rng.sample(range(1, 55), 25):
                spots = fast.placements(tile)
                if spots:
                    fast.place(tile, rng.choice(spots))
            slow = Alhambra.from_tiles(fast.tiles, holes=holes, rules=CellByCell(holes=holes))
            assert fast.fast_rules() and not slow.fast_rules()
            for tile in range(1, 55):
                if not fast.has_tile(tile):
                    assert fast.openings(tile) == slow.openings(tile)
                    found += len(fast.openings(tile))
                    for pos, side in fast.openings(tile):
                        trial = fast.copy()
                        trial.open_side(pos, side)
                        assert trial.can_place(tile, pos) and not fast.can_place(tile, pos)
    assert found > 20  # the walls of random Alhambras open somewhere


def test_a_side_read_from_a_position_by_name_or_bit_is_named_from_its_west_or_north_cell():
    assert read_side([2, 0, "west"], "here") == ((1, 0), EAST)
    assert read_side([1, 1, NORTH], "here") == ((1, 0), SOUTH)
    assert read_side([-1, 0, "south"], "here") == ((-1, 0), SOUTH)
    for bad in ([1, 0, "up"], [1, 0], (1, 0, "east"), [1.0, 0, "east"], [1, 0, 3], [1, 0, True]):
        with pytest.raises(ConfigError, match=r"^here\[0\]: a door is \[x, y, side\] with side 'north', 'east'"):
            read_side(bad, "here[0]", "a door")
