"""Tiles that count by their neighbours: a kind of catalogue tile (the core's word for one is
a *hut*) that counts at a scoring as buildings of its own type, one for each building of that
type beside it with no wall between them (the building huts, R-HUT-5).

A module adding such tiles declares them once as a :class:`HutKind`; its scoring
(``alhambra_building_counts``), its pictures (``alhambra_tile_values``) and the greedy
evaluator (``EvaluationPart.huts``) all count them through it.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from .city import SIDES
from .components import BUILDING_TYPES

if TYPE_CHECKING:  # pragma: no cover
    from .city import Alhambra
    from .components import TileCatalog
    from .protocol import GameLike

Pos = tuple[int, int]
_TILE = attrgetter("tile")


@frozen(slots=True)
class HutKind:
    """The tiles of catalogue kind ``kind``, each counting at a scoring as buildings of its
    own type: one per orthogonally adjacent tile of kind ``"building"`` (not the fountain,
    not another such tile) of that type whose shared side has a wall on neither tile (in a
    valid Alhambra both sides match, R-PLACE-3), at most ``most`` (R-HUT-5).

    It is what the greedy evaluator needs to count them (``EvaluationPart(huts=...)``,
    :class:`~alhambra.engine.plugin_parts.HutRules`)."""

    kind: str
    most: int
    #: the ids of the kind per catalogue id; each entry keeps its catalogue alive, so that its
    #: id cannot be reused by another
    _ids: dict[int, tuple[TileCatalog, frozenset[Any]]] = field(factory=dict, init=False, eq=False, repr=False)

    @property
    def MAX_HUT_VALUE(self) -> int:  # noqa: N802 - the evaluator's name for ``most``
        """The most buildings one tile counts as (``most``)."""
        return self.most

    def ids(self, catalog: TileCatalog) -> frozenset[Any]:
        """The ids of the tiles of this kind in ``catalog`` (worked out once per catalogue)."""
        found = self._ids.get(id(catalog))
        if found is None or found[0] is not catalog:
            found = self._ids[id(catalog)] = (catalog, frozenset(t for t in catalog if self.is_hut(catalog, t)))
        return found[1]

    def is_hut(self, catalog: TileCatalog, tile: Any) -> bool:
        """True if ``tile`` is a tile id of this kind in ``catalog``."""
        try:
            spec = catalog.get(tile)
        except TypeError:  # unhashable: no tile id
            return False
        return spec is not None and spec.kind == self.kind

    def hut_value(self, city: Alhambra, pos: Pos) -> int:
        """How many buildings of its type the tile at ``pos`` of ``city`` counts as. Raises
        ``ValueError`` if no tile of this kind stands at ``pos``."""
        pos = (pos[0], pos[1])
        cat = city.catalog
        tile = city.tile_at(pos)
        if tile is None or not self.is_hut(cat, tile):
            raise ValueError(f"no {self.kind} at {pos} (found {tile!r})")
        spec = cat[tile]
        x, y = pos
        n = 0
        for dx, dy, side, opp in SIDES:  # (dx, dy, the tile's side, the neighbour's facing side)
            if spec.walls & side:
                continue
            other = city.tile_at((x + dx, y + dy))
            if other is None:
                continue
            o = cat[other]
            if o.kind == "building" and o.type == spec.type and not (o.walls & opp):
                n += 1
        return min(n, self.most)

    def hut_counts(self, city: Alhambra) -> dict[str, int]:
        """The buildings per type that the tiles of this kind in ``city`` add at a scoring;
        every type is a key."""
        out = dict.fromkeys(BUILDING_TYPES, 0)
        cat = city.catalog
        mine = self.ids(cat).intersection(city.tile_ids())
        if mine:  # else none stands here: nothing to look at
            for pos, tile in city.tiles.items():
                if tile in mine:
                    out[str(cat[tile].type)] += self.hut_value(city, pos)
        return out

    def add_counts(self, game: GameLike, counts: dict[int, dict[str, int]]) -> None:
        """Add to a scoring's ``counts`` (``alhambra_building_counts``) what the tiles of
        this kind in each seat's Alhambra count as; a participant that is no seat (Dirk)
        gets nothing, nor does a tile in a reserve."""
        players = game.state.players
        for seat, mine in counts.items():
            for t, v in self.hut_counts(players[seat].city).items() if seat < len(players) else ():
                if v:
                    mine[t] = mine.get(t, 0) + v

    def owned(self, game: GameLike, seat: int) -> int:
        """How many tiles of this kind ``seat`` owns: in its Alhambra (kept in the Alhambra's
        ``memo``), in its reserve, and (for the turn player) set aside this turn and not yet
        placed."""
        st = game.state
        p = st.players[seat]
        ids = self.ids(game.rules.catalog)
        n: int | None = p.city.memo.get(ids)  # kept under the ids (a frozenset keeps its hash)
        if n is None:
            n = p.city.memo[ids] = len(ids.intersection(p.city.tile_ids()))
        if p.reserve:
            n += len(ids.intersection(p.reserve))  # tile ids are unique: a set loses nothing
        if st.pending and seat == st.turn_player:
            n += len(ids.intersection(map(_TILE, st.pending)))
        return n


__all__ = ["HutKind"]
