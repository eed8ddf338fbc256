"""Built-in plugin ``core.scoring``: the three scorings (R-SCORE-1 … R-SCORE-5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspec import hookimpl
from ..engine.scoring import majority_table
from ..engine.state import ScoringRecord

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import GameLike


@hookimpl(trylast=True)
def alhambra_scoring(game: GameLike, number: int) -> ScoringRecord | None:
    """Majorities per building type among all participants (R-SCORE-2 … R-SCORE-4) and each
    player's longest outer wall (R-SCORE-5); plugins adjust counts and points via hooks."""
    st = game.state
    n = game.num_players
    counts = {i: p.city.type_counts() for i, p in enumerate(st.players)}
    game.rules.hook.alhambra_building_counts(game=game, number=number, counts=counts)
    participants = sorted(counts)
    table = [counts[i] for i in participants]
    record = ScoringRecord(
        number=number,
        participants=participants,
        counts=table,
        majority=majority_table(table, number),
        walls=[st.players[i].city.longest_outer_wall() if i < n else 0 for i in participants],
    )
    game.rules.hook.alhambra_scoring_adjust(game=game, record=record)
    return record
