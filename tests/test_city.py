"""R-PLACE-1 … R-PLACE-7, R-TURN-6 and R-SCORE-5 on hand-built Alhambras."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import alhambra
from alhambra import Alhambra, ConfigError, IllegalActionError
from alhambra.city import longest_trail

# wall-less buildings: 7, 14, 22, 23, 31, 32, 41, 42, 52, 53


def test_r_place_1_no_rotation():
    """Tile 1 (walls N, E, W) fits north of the fountain (open south) but not south of it:
    turning it would be needed, and tiles keep the fountain's orientation."""
    city = Alhambra()
    assert city.can_place(1, (0, -1))
    assert not city.can_place(1, (0, 1))
    assert "R-PLACE-3" in city.why_not_place(1, (0, 1))


def test_r_place_2_side_contact_needed_corner_is_not_enough():
    city = Alhambra()
    assert "R-PLACE-2" in city.why_not_place(22, (1, 1))
    assert not city.can_place(22, (2, 0))
    assert city.placements(22) == [(-1, 0), (0, -1), (0, 1), (1, 0)]


def test_r_place_3_every_shared_side_must_match():
    city = Alhambra.from_tiles({(1, 0): 21})  # arcades, east wall
    assert "R-PLACE-3" in city.why_not_place(22, (2, 0))  # open west against a wall
    # (1, 1): below 21 (open south) and right of nothing; open north matches
    assert city.can_place(22, (1, 1))
    # tile 13 (south wall) at (1, -1): south wall against 21's open north -> mismatch
    assert "R-PLACE-3" in city.why_not_place(13, (1, -1))
    # a tile touching two tiles must match both: 6 (east wall) at (1, 1) with (0, 1)=32 open
    city2 = Alhambra.from_tiles({(1, 0): 22, (0, 1): 32})
    assert city2.can_place(6, (1, 1))  # north open vs 22 open, west open vs 32 open
    assert not city2.can_place(2, (1, 1))  # tile 2 west wall vs 32's open east


def test_r_place_4_cell_must_be_empty():
    city = Alhambra.from_tiles({(1, 0): 22})
    assert "R-PLACE-4" in city.why_not_place(23, (1, 0))
    assert "R-PLACE-4" in city.why_not_place(23, (0, 0))


def test_r_place_5_reachable_on_foot():
    """Tile 40 (west wall) east of 21 (east wall): the walls match (a double wall) but the
    only shared side is walled, so it cannot be reached from the fountain."""
    city = Alhambra.from_tiles({(1, 0): 21})
    why = city.why_not_place(40, (2, 0))
    assert why is not None and "R-PLACE-5" in why
    # reached through (2, -1) instead, the same tile is fine
    city = Alhambra.from_tiles({(1, 0): 21, (1, -1): 22, (2, -1): 23})
    assert city.can_place(40, (2, 0))


def _u_shape():
    return {(1, 0): 22, (2, 0): 23, (2, 1): 31, (0, 1): 32, (0, 2): 41}


def test_r_place_6_single_hole_forbidden():
    city = Alhambra.from_tiles(_u_shape())
    why = city.why_not_place(42, (1, 2))
    assert why is not None and "R-PLACE-6" in why and "(1, 1)" in why
    assert city.can_place(42, (1, 1))
    assert (1, 2) not in city.placements(42)


def _ring_around_two_cells():
    return {(1, 0): 22, (2, 0): 23, (3, 0): 31, (3, 1): 32, (0, 1): 41, (0, 2): 42, (1, 2): 52}


def test_r_place_6_larger_enclosed_area_allowed_by_default():
    city = Alhambra.from_tiles(_ring_around_two_cells())
    assert city.can_place(53, (2, 2))  # encloses {(1, 1), (2, 1)}: not a hole by the rulebook


def test_r_place_6_region_variant_forbids_any_enclosed_area():
    city = Alhambra.from_tiles(_ring_around_two_cells(), holes="region")
    why = city.why_not_place(53, (2, 2))
    assert why is not None and "R-PLACE-6" in why
    assert (2, 2) not in city.placements(53)
    assert city.can_place(53, (3, 2))
    # and through the game option
    g = alhambra.new_game(2, seed=1, options={"holes": "region"})
    assert g.state.players[0].city.holes == "region"


def test_r_place_7_same_rules_for_redesign_and_received_buildings():
    from helpers import situation

    g = situation(3, seat=0, cities={0: {(1, 0): 21}}, reserves={0: [22]})
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="R-PLACE-3"):
        g.apply(alhambra.BuildFromReserve(22, (2, 0)))
    assert g.to_json() == before
    assert alhambra.BuildFromReserve(22, (2, 0)) not in g.legal_actions()
    assert alhambra.BuildFromReserve(22, (1, 1)) in g.legal_actions()


def test_r_turn_6_removal_must_keep_everything_reachable():
    # a chain fountain -> (1, 0) -> (2, 0): removing the middle cuts (2, 0) off
    city = Alhambra.from_tiles({(1, 0): 22, (2, 0): 23})
    why = city.why_not_remove((1, 0))
    assert why is not None and "R-TURN-6" in why
    assert city.can_remove((2, 0))
    assert city.removable() == [(2, 0)]
    assert "R-TURN-5" in city.why_not_remove((0, 0))
    with pytest.raises(IllegalActionError):
        city.remove((1, 0))
    assert city.tiles == {(0, 0): 0, (1, 0): 22, (2, 0): 23}


def test_r_turn_6_removal_must_not_leave_a_hole():
    tiles = {**_u_shape(), (1, 2): 42, (1, 1): 14}
    city = Alhambra.from_tiles(tiles)
    assert "hole" in city.why_not_remove((1, 1))
    # removing (1, 2) instead leaves (1, 2) open to the outside
    assert city.can_remove((1, 2))


def test_r_turn_6_region_variant_removal():
    tiles = {**_ring_around_two_cells(), (2, 2): 53}
    cell = Alhambra.from_tiles(tiles)
    assert cell.can_remove((2, 2))
    # with both cells of the enclosure filled, removing one of them leaves an enclosed area
    # under "region" (and a single hole only when it is one cell)
    tiles2 = {**_ring_around_two_cells(), (2, 1): 7, (1, 1): 14}
    region = Alhambra.from_tiles({**tiles2, (2, 2): 53}, holes="region")
    assert not region.can_remove((1, 1))


def test_swap_keeps_position_and_must_match_walls():
    city = Alhambra.from_tiles({(1, 0): 21, (1, -1): 22})
    assert city.can_swap(6, (1, 0))  # 6 has an east wall like 21: same sides
    assert "R-PLACE-3" in city.why_not_swap(13, (1, -1))  # 13's south wall vs 21's open north
    assert "R-TURN-5" in city.why_not_swap(6, (0, 0))
    assert city.swap(6, (1, 0)) == 21 and city.tile_at((1, 0)) == 6


# -- walls (R-SCORE-5) ----------------------------------------------------------------------

RING = {(-1, -1): 4, (0, -1): 5, (1, -1): 9, (1, 0): 6, (1, 1): 3, (0, 1): 13, (-1, 1): 2, (-1, 0): 12}


def test_r_score_5_closed_ring_counts_every_segment():
    city = Alhambra.from_tiles(RING)
    assert len(city.outer_wall_segments()) == 12
    assert city.longest_outer_wall() == 12


def test_r_score_5_double_wall_does_not_count():
    city = Alhambra.from_tiles({(1, 0): 21, (1, -1): 22, (2, -1): 23, (2, 0): 40})
    assert city.longest_outer_wall() == 0
    # without the neighbour, 21's east wall is outer
    assert Alhambra.from_tiles({(1, 0): 21}).longest_outer_wall() == 1


def test_r_score_5_only_the_longest_wall_counts():
    # tile 5 (north wall) north-west... two separate walls of length 1 and 3
    city = Alhambra.from_tiles({(0, -1): 1, (1, 0): 21})
    # tile 1: N, E, W walls: a chain of 3; tile 21's east wall: separate (corners differ)
    assert city.longest_outer_wall() == 3


def test_r_score_5_trail_may_turn_or_go_straight_at_a_four_way_corner():
    # figure eight: two unit squares touching at corner (1, 1)
    sq1 = [((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1)), ((0, 1), (0, 0))]
    sq2 = [((1, 1), (2, 1)), ((2, 1), (2, 2)), ((2, 2), (1, 2)), ((1, 2), (1, 1))]
    assert longest_trail(sq1 + sq2) == 8


def test_r_score_5_branching_wall_is_a_trail_not_a_tree():
    # a T: 3 segments at one corner; the trail uses only 2 of the arms
    t = [((0, 0), (1, 0)), ((1, 0), (2, 0)), ((1, 0), (1, 1))]
    assert longest_trail(t) == 2
    # a lollipop: a ring of 4 with a tail of 2 -> 6 (tail then the whole ring)
    ring = [((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1)), ((0, 1), (0, 0))]
    tail = [((1, 1), (2, 1)), ((2, 1), (3, 1))]
    assert longest_trail(ring + tail) == 6
    # a second tail at another corner of the ring: four odd corners, so no trail uses all 7
    tail2 = [((0, 0), (-1, 0))]
    assert longest_trail(ring + tail + tail2) == 6  # 7 segments, 4 odd corners: one is left out
    assert longest_trail([]) == 0


def test_from_tiles_rejects_invalid_layouts():
    with pytest.raises(ConfigError, match="R-PLACE-3"):
        Alhambra.from_tiles({(1, 0): 21, (2, 0): 22})
    with pytest.raises(ConfigError, match="R-PLACE-5"):
        Alhambra.from_tiles({(2, 0): 22})
    with pytest.raises(ConfigError, match="unknown tile"):
        Alhambra.from_tiles({(1, 0): 99})
    with pytest.raises(ConfigError, match="twice"):
        Alhambra.from_tiles({(1, 0): 22, (0, 1): 22})
    with pytest.raises(ConfigError):
        Alhambra(holes="sometimes")


def test_placements_match_can_place_everywhere():
    city = Alhambra.from_tiles({**_u_shape(), (3, 0): 6})
    for tile in (1, 2, 8, 15, 21, 33, 40, 44, 54, 7):
        expected = sorted((x, y) for x in range(-2, 6) for y in range(-2, 5) if city.can_place(tile, (x, y)))
        assert city.placements(tile) == expected


def test_render_shows_walls():
    text = Alhambra.from_tiles({(1, 0): 21}).render()
    assert "F" in text and "21#" in text


@pytest.mark.parametrize("holes", ["cell", "region"])
def test_removable_agrees_with_why_not_remove_on_random_cities(holes):
    """The one-pass cut-vertex computation gives the same answer as checking each tile."""
    import random

    rng = random.Random(5)
    for _trial in range(60):
        city = Alhambra(holes=holes)
        for _ in range(rng.randrange(3, 25)):
            tile = rng.choice([t for t in range(1, 55) if t not in city.tiles.values()])
            spots = city.placements(tile)
            if spots:
                city.place(tile, rng.choice(spots))
        expected = sorted(p for p in city.tiles if city.why_not_remove(p) is None)
        assert city.removable() == expected
        for t in (6, 22, 44):
            if t not in city.tiles.values():
                assert city.swap_positions(t) == sorted(p for p in city.tiles if city.can_swap(t, p))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), holes=st.sampled_from(["cell", "region"]))
def test_r_place_r_turn_5_6_incremental_queries_match_the_rules(seed, holes):
    """R-PLACE-2 … -6, R-TURN-5/6: after any sequence of builds, removals and swaps (queries
    asked in between, so every kept fact is reused), the fast answers of ``placements``,
    ``removable`` and ``swap_positions`` equal the rules checked cell by cell, and equal those
    of the same layout built afresh."""
    import random

    rng = random.Random(seed)
    city = Alhambra(holes=holes)
    out = []  # tiles not in the city
    pool = list(range(1, 55))
    rng.shuffle(pool)
    for _ in range(rng.randrange(5, 60)):
        if not (out or pool):
            break
        roll = rng.random()
        tiles_now = [p for p in city.tiles if p != (0, 0)]
        if roll < 0.55 or not tiles_now:
            tile = (out or pool).pop()
            spots = city.placements(tile)
            if spots:
                city.place(tile, rng.choice(spots))
            else:
                out.insert(0, tile)
        elif roll < 0.8:
            spots = city.removable()
            if spots:
                out.append(city.remove(rng.choice(spots)))
        else:
            tile = (out or pool)[-1]
            spots = city.swap_positions(tile)
            if spots:
                (out or pool).pop()
                out.insert(0, city.swap(tile, rng.choice(spots)))
        fresh = Alhambra.from_tiles(city.tiles, holes=holes)
        assert city.removable() == fresh.removable() == sorted(p for p in city.tiles if city.why_not_remove(p) is None)
        near = {(x + dx, y + dy) for x, y in city.tiles for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        for tile in {(out or pool)[-1], 21, 33, 7, 44}:
            if city.has_tile(tile):
                continue
            assert city.placements(tile) == fresh.placements(tile) == sorted(p for p in near if city.can_place(tile, p))
            assert (
                city.swap_positions(tile)
                == fresh.swap_positions(tile)
                == sorted(p for p in city.tiles if city.can_swap(tile, p))
            )
        assert city.frontier() == fresh.frontier()
        # the counts kept up to date on every change: open links, three-sided frontier cells
        assert (city._links, city._three) == (fresh._links, fresh._three)


def test_r_turn_6_removable_on_a_huge_alhambra_deep_in_the_stack():
    """The cut-tile search is not recursive: a 1,200-tile strip (a custom catalogue) lists its
    removable tiles, also when asked from deep in the call stack."""
    import sys

    from alhambra.components import FOUNTAIN_SPEC, TileCatalog, TileSpec

    specs = [FOUNTAIN_SPEC] + [TileSpec(i, "building", "pavillon", 1, 0) for i in range(1, 1201)]
    tiles = {(x, y): 2 * x - 1 + y for x in range(1, 601) for y in (0, 1)}
    city = Alhambra.from_tiles(tiles, catalog=TileCatalog(specs))

    def deep(n):
        return deep(n - 1) if n else city.removable()

    found = deep(sys.getrecursionlimit() - 100)
    # a 2-wide strip joined to the fountain at (1, 0): that tile holds everything else to the
    # fountain; every other tile lies on a cycle
    assert found == sorted(p for p in tiles if p != (1, 0))
