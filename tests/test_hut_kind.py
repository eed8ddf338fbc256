"""``alhambra.HutKind``: tiles of a catalogue kind that count as buildings of their type by the
buildings beside them (R-HUT-5), for any module, without the building huts' own tiles."""

from __future__ import annotations

import pytest

import alhambra
from alhambra import Alhambra, HutKind, TileCatalog, TileSpec
from alhambra.engine.components import BASE_CATALOG

#: a made-up kind: two open-sided "shrines" of type garden, one tower shrine walled north
SHRINES = HutKind("shrine", 2)
CATALOG = TileCatalog(
    (
        *BASE_CATALOG.values(),
        TileSpec("S1", "shrine", "garden", 0, 0),
        TileSpec("S2", "shrine", "garden", 0, 0),
        TileSpec("S3", "shrine", "tower", 0, alhambra.NORTH),
    )
)


def test_ids_and_is_hut_name_the_kind_alone() -> None:
    assert SHRINES.ids(CATALOG) == frozenset({"S1", "S2", "S3"})
    assert SHRINES.ids(CATALOG) is SHRINES.ids(CATALOG)  # worked out once per catalogue
    assert HutKind("hut", 3).ids(CATALOG) == frozenset()
    assert SHRINES.is_hut(CATALOG, "S2") and not SHRINES.is_hut(CATALOG, 41) and not SHRINES.is_hut(CATALOG, ["S1"])
    assert SHRINES.MAX_HUT_VALUE == 2


def test_value_counts_open_neighbours_of_its_type_capped() -> None:
    """Gardens 41 (west of S1), 42 (east) and 38 (south, its north side open) beside S1: 3,
    capped at 2; S2, north of S1, has a shrine beside it and no building: 0."""
    tiles = {(1, 0): 41, (2, 0): "S1", (3, 0): 42, (2, 1): 38, (2, -1): "S2"}
    city = Alhambra.from_tiles(tiles, catalog=CATALOG, check=False)
    assert SHRINES.hut_value(city, (2, 0)) == 2
    assert SHRINES.hut_value(city, (2, -1)) == 0
    assert SHRINES.hut_counts(city) == dict.fromkeys(alhambra.BUILDING_TYPES, 0) | {"garden": 2}
    with pytest.raises(ValueError, match=r"no shrine at \(1, 0\)"):
        SHRINES.hut_value(city, (1, 0))


def test_a_wall_on_either_tile_separates() -> None:
    """Garden 40's west wall faces S1 (0), garden 41 has none (1); tower 52 above S3 meets
    S3's own north wall (0), below it (south of S3, no wall between) it counts (1)."""
    for garden, value in ((40, 0), (41, 1)):
        city = Alhambra.from_tiles({(1, 0): "S1", (2, 0): garden}, catalog=CATALOG, check=False)
        assert SHRINES.hut_value(city, (1, 0)) == value
    for pos, value in (((5, 4), 0), ((5, 6), 1)):
        city = Alhambra.from_tiles({(5, 5): "S3", pos: 52}, catalog=CATALOG, check=False)
        assert SHRINES.hut_value(city, (5, 5)) == value


def test_owned_and_added_counts_in_a_game() -> None:
    """The building huts' game: ``owned`` counts the Alhambra's, the reserve's and the turn
    player's pending tiles of the kind; ``add_counts`` adds what they count to a scoring's
    counts, nothing for a participant that is no seat (Dirk)."""
    game = alhambra.new_game(2, modules=["building_huts"], seed=1)
    huts = HutKind("hut", 3)
    hut, other, third = sorted(t for t in huts.ids(game.rules.catalog) if game.rules.catalog[t].type == "garden")[:3]
    stacks = game.state.modules["building_huts"].stacks
    for h in (hut, other, third):
        stacks["garden"].remove(h)
    p = game.state.players[0]
    p.city = Alhambra.from_tiles({(1, 0): 41, (2, 0): hut}, catalog=game.rules.catalog, check=False)
    p.reserve = [other]
    game.state.pending = [alhambra.Pending(third, False)]
    game.state.turn_player = 0
    assert huts.owned(game, 0) == 3
    game.state.turn_player = 1
    assert huts.owned(game, 0) == 2
    assert huts.owned(game, 1) == 1  # the pending tile is the turn player's
    counts = {0: {"garden": 1}, 1: {}, 2: {"garden": 5}}
    huts.add_counts(game, counts)
    value = huts.hut_value(p.city, (2, 0))
    assert value == (0 if game.rules.catalog[hut].walls & alhambra.WEST else 1)
    assert counts == {0: {"garden": 1 + value}, 1: {}, 2: {"garden": 5}}
