"""``operations.waiting_tiles``: the tiles waiting to be placed, each once, in their order
(R-TURN-7), what the placement lists."""

from __future__ import annotations

import alhambra
from alhambra import Place, operations


def test_the_tiles_waiting_to_be_placed_each_once_in_their_order_r_turn_7():
    game = alhambra.new_game(2, seed=3, engine="python")
    assert operations.waiting_tiles(game) == []
    for tile in (21, 7, 21, 30):
        operations.add_pending(game, tile)
    assert operations.waiting_tiles(game) == [21, 7, 30]
    assert len(game.state.pending) == 4
    game.state.phase, game.state.decider = "place", game.current_player
    operations.invalidate(game)
    placed = {a.tile for a in game.legal_actions() if type(a) is Place}
    assert placed == {21, 7, 30}
