"""R-TWO-3/5: the table drawing's line about Dirk's buildings, from a view edited by hand
(a break-it review: unknown tiles were counted silently, one building read "1 buildings")."""

from __future__ import annotations

import copy

import alhambra
import pytest
from alhambra import ConfigError
from alhambra.render import table_svg


def _view_with_dirk(tiles: object) -> tuple[dict, alhambra.TileCatalog]:
    game = alhambra.new_game(2, seed=4)
    view = copy.deepcopy(game.view(0))
    view["dirk"]["tiles"] = tiles
    return view, game.rules.catalog


@pytest.mark.parametrize("tiles", ["abc", [10**6], [None]], ids=["a str", "no such tile", "None"])
def test_r_two_3_dirks_tiles_not_in_the_catalogue_are_a_malformed_view(tiles: object) -> None:
    view, cat = _view_with_dirk(tiles)
    with pytest.raises(ConfigError, match="malformed view"):
        table_svg(view, 0, catalog=cat)


def test_r_two_3_dirk_holding_one_building_says_one_building() -> None:
    view, cat = _view_with_dirk([26])
    kind = cat[26].type
    assert f"Dirk holds 1 building (1 {kind})<" in table_svg(view, 0, catalog=cat)
