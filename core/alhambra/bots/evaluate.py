"""Heuristic values of positions and actions, from one seat's point of view.

Action values read only what the deciding seat may know: every Alhambra, reserve, score and
the scorings so far, the market and money display, the bag's size, Dirk's buildings, the
face-up huts, revealed bonus cards, the offices players hold, the vizier tokens (all public),
and the seat's own hand and own bonus cards. Never another player's hand or a face-down stack,
so the true game and a determinized copy give the same action values. (``seat_value`` of
*another* seat reads that seat's hand: the search calls it on determinized copies only.)

Values are in points. A seat's position value is its score plus projected points:

* majorities: for each building type and each scoring still to come, the majority points its
  current count earns against everyone else's (R-SCORE-2 … R-SCORE-4, the scoring table),
  smoothed over a count one lower or higher, plus a small amount per building;
* the longest outer wall, once per scoring still to come (R-SCORE-5);
* money: a value per coin that falls as the bag empties, plus how well the hand can pay
  (exactly, R-TURN-4, or at all) for the market buildings the seat wants;
* an Alhambra that can hardly grow any more (few open sides left) is penalised;
* reserve tiles at a fixed share of their type's value minus a penalty (a redesign action is
  needed to build them; the value does not depend on the counts, so that moving tiles between
  reserve and Alhambra never cycles);
* module pieces: an active vizier, exchange offices, huts (through their scoring counts), and
  any other card in hand (a module's card, such as a city gate) at a value that falls as the
  game goes on.

An action the heuristic has no model of (a module's action) is valued by playing it on a copy
and comparing what the seat holds before and after (its Alhambra, reserve and hand, never
anything hidden the copy may have drawn). When the action is a free step that builds nothing
(the same seat decides again, its tiles where they were: a city gate played before the removal
it opens the way for, which commits the player to a removal), the best of the actions that
follow it is added: its value shows only in what it makes possible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

import math

from attrs import evolve, frozen

from ..engine.actions import BuildFromReserve, Buy, GiveToDirk, Pass, Place, RemoveToReserve, Reserve, Swap, TakeMoney
from ..engine.components import BUILDING_TYPES, MARKET_CURRENCIES, MoneyCard
from ..errors import AlhambraError
from ..engine.scoring import majority_table
from ..engine.state import ScoringRecord

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.actions import Action
    from ..engine.city import Alhambra, Pos
    from ..engine.state import PlayerState
    from ..game import Game

_SIDES = ((0, -1, 1, 4), (1, 0, 2, 8), (0, 1, 4, 1), (-1, 0, 8, 2))  # dx, dy, side, opposite


def _window(game: Any, phase: str) -> bool:
    """True if ``phase`` is a module's window phase (``PhaseSpec.window``: entered inside a
    turn or a placement, such as the city gates' after a change)."""
    spec = game.rules.phase_specs.get(phase)
    return spec is not None and spec.window


_CLOSED = (1.0, 0.6, 0.3, 0.12, 0.04)


@frozen(cache_hash=True)
class Weights:
    """The knobs of the heuristic (points per unit)."""

    #: value of one coin at the start (``coin_start``) and at the end of the game (``coin_end``)
    coin_start: float = 0.8
    coin_end: float = 0.12
    #: share of a wanted market building's value credited for an exact payment in hand,
    #: for any payment in hand, and (times the share of the price covered, squared) otherwise
    afford_exact: float = 0.45
    afford_pay: float = 0.3
    afford_part: float = 0.25
    #: value of the extra action an exact payment earns (R-TURN-4), plus ``extra_coins`` coins
    extra_action: float = 1.0
    extra_coins: float = 5.0
    #: share of a building's value kept in the reserve, and the flat reserve penalty
    reserve_share: float = 0.35
    reserve_penalty: float = 1.0
    #: points per building of a type (times the type's 3rd-scoring first-place points / 8)
    per_building: float = 0.3
    #: weight of the scorings after the next one (their counts will still change)
    later_scoring: float = 0.85
    #: smoothing of majority points over count - 1 / count + 1
    smooth: float = 0.25
    #: bonus per tile side shared with a neighbour when placing (a compact Alhambra)
    compact: float = 0.15
    #: value of an active vizier, of an exchange office in hand
    vizier: float = 2.0
    office: float = 1.5
    #: penalty for an Alhambra with no open side left (scaled down for 1-4 open sides)
    closed: float = 12.0
    #: coins beyond this count less (a hoard cannot all be spent)
    money_cap: int = 40
    #: cost of a redesign action (it ends the turn); bonus for a purchase once the bag is empty
    redesign: float = 0.4
    end_push: float = 2.0
    #: value of a card in hand that is neither money nor a payment means (a module's card, such
    #: as a city gate, worth nothing at the end): ``held_card`` plus ``held_card_early`` times
    #: the share of the game left
    held_card: float = 0.2
    held_card_early: float = 3.0


DEFAULT_WEIGHTS = Weights()

#: Weights tuned with Optuna by ``benchmarks/tune_bot.py`` (values and procedure in
#: ``docs/bots.md``); bots use them with the parameter ``weights=tuned``.
TUNED_WEIGHTS = DEFAULT_WEIGHTS

#: The named weight sets a bot specification may choose (``greedy:weights=tuned``).
WEIGHT_SETS: dict[str, Weights] = {"default": DEFAULT_WEIGHTS, "tuned": TUNED_WEIGHTS}


def named_weights(name: str) -> Weights:
    """The weight set called ``name`` (:data:`WEIGHT_SETS`); ValueError for another name."""
    try:
        return WEIGHT_SETS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"no weight set {name!r} (known: {', '.join(WEIGHT_SETS)})") from None


def weights_name(weights: Weights) -> str:
    """The name of ``weights`` in :data:`WEIGHT_SETS` (the first that equals it), or ``"custom"``."""
    for name, w in WEIGHT_SETS.items():
        if w == weights:
            return name
    return "custom"


# ---------------------------------------------------------------------------------------------
# Geometry cache: for a city layout and a tile's walls, the wall length after each placement
# ---------------------------------------------------------------------------------------------

#: layout keys (:func:`city_key`, with what is asked) -> walls, counts, placements: mixed values
_GEOM: dict[Any, Any] = {}
_TYPEVAL: dict[tuple[Any, ...], dict[tuple[str, int, tuple[int, ...]], float]] = {}
_GEOM_LIMIT = 200_000


_CATALOGS: dict[int, Any] = {}


def city_key(city: Alhambra) -> tuple[frozenset[tuple[Pos, Any]], str, int]:
    """A hashable key of an Alhambra's layout (tiles, holes rule, tile catalogue)."""
    cat = city.catalog
    if id(cat) not in _CATALOGS:
        _CATALOGS[id(cat)] = cat  # keep it alive so that its id is never reused
    return (frozenset(city.tiles.items()), city.holes, id(cat))


def open_sides(city: Alhambra) -> int:
    """Tile sides without a wall facing an empty cell: where the Alhambra can still grow
    (a new tile must join through an open side, R-PLACE-5)."""
    walls = city.catalog.walls
    tiles = city.tiles
    n = 0
    for (x, y), t in tiles.items():
        m = walls[t]
        for dx, dy, side, _ in _SIDES:
            if not m & side and (x + dx, y + dy) not in tiles:
                n += 1
    return n


def shape(city: Alhambra, key: Any = None) -> tuple[int, int]:
    """(longest outer wall, open sides) of ``city`` (cached per layout)."""
    k = (key if key is not None else city_key(city), "shape")
    found: tuple[int, int] | None = _GEOM.get(k)
    if found is None:
        found = _GEOM[k] = (city.longest_outer_wall(), open_sides(city))
    return found


def placement_walls(city: Alhambra, tile: Any, key: Any = None) -> dict[Pos, tuple[int, int, int]]:
    """``{pos: (longest outer wall, open sides, neighbours)}`` after building ``tile`` at each
    cell where the placement rules allow it (cached per layout and wall mask)."""
    mask = city.catalog.walls[tile]
    k = (key if key is not None else city_key(city), mask)
    found: dict[Pos, tuple[int, int, int]] | None = _GEOM.get(k)
    if found is None:
        if len(_GEOM) > _GEOM_LIMIT:
            _GEOM.clear()
        found = {}
        for pos in city.placements(tile):
            c2 = city.copy()
            c2.place(tile, pos)
            found[pos] = (c2.longest_outer_wall(), open_sides(c2), neighbours(city, pos))
        _GEOM[k] = found
    return found


def neighbours(city: Alhambra, pos: Pos) -> int:
    x, y = pos
    return sum(1 for dx, dy, _, _ in _SIDES if city.tile_at((x + dx, y + dy)) is not None)


# ---------------------------------------------------------------------------------------------
# Payments
# ---------------------------------------------------------------------------------------------


def _sums(values: Iterable[int]) -> int:
    """Bitmask of every subset sum of ``values``."""
    reach = 1
    for v in values:
        reach |= reach << v
    return reach


_REACH: dict[tuple[int, ...], int] = {}


def _reach(values: Sequence[int]) -> int:
    key = tuple(sorted(values))
    r = _REACH.get(key)
    if r is None:
        if len(_REACH) > _GEOM_LIMIT:
            _REACH.clear()
        r = _REACH[key] = _sums(key)
    return r


def purse_of(hand: Iterable[Any]) -> tuple[dict[str, list[int]], list[Any], int]:
    """(``{currency: [values]}``, currency pairs of the exchange offices, total value).
    A module's money (diamonds, R-DIA-1) is a currency of its own here."""
    purse: dict[str, list[int]] = {}
    offices = []
    total = 0
    for c in hand:
        if type(c) is MoneyCard or c.is_money:
            purse.setdefault(c.currency, []).append(c.value)
            total += c.value
        else:
            curs = getattr(c, "currencies", None)
            if curs:
                offices.append(curs)
    return purse, offices, total


def afford_purse(purse: dict[str, list[int]], offices: list[Any], currency: str, price: int) -> int:
    """2 if the purse can pay ``price`` exactly in ``currency`` (or through an exchange office
    showing it, R-EXC-4), 1 if it can pay at all, 0 otherwise."""
    own = purse.get(currency, ())
    groups: list[Sequence[int]] = [own]
    for curs in offices:
        if currency in curs:
            groups.append([v for c in curs for v in purse.get(c, ())])
    diamonds = purse.get("diamond")
    if diamonds:  # diamonds pay on any space, alone (R-DIA-4)
        groups.append(diamonds)
    best = 0
    for vals in groups:
        if sum(vals) >= price:
            if (_reach(vals) >> price) & 1:
                return 2
            best = 1
    return best


def afford(hand: Iterable[Any], currency: str, price: int) -> int:
    """:func:`afford_purse` of a hand."""
    purse, offices, _ = purse_of(hand)
    return afford_purse(purse, offices, currency, price)


def _pays(card: Any) -> bool:
    """Does ``card`` pay (money, or a payment means such as an exchange office)?"""
    return type(card) is MoneyCard or card.is_money or bool(getattr(card, "currencies", None))


def _paying(hand: Iterable[Any]) -> list[Any]:
    """The cards of ``hand`` that pay (:func:`_pays`)."""
    return [c for c in hand if _pays(c)]


# ---------------------------------------------------------------------------------------------
# What the rule set scores: probed through the scoring hooks
# ---------------------------------------------------------------------------------------------

_PROBES: dict[tuple[int, tuple[int, ...]], tuple[Any, dict[int, ScoringValues]]] = {}
_SIGNATURES: dict[int, tuple[tuple[Any, ...], ...]] = {}


@frozen
class ScoringValues:
    """What one scoring of the rule set pays, as measured through its own hooks.

    ``rows[t]``: points for the 1st, 2nd, 3rd … participant by count of building type ``t``
    (R-SCORE-2 … R-SCORE-4 as the rule set's ``alhambra_scoring_adjust`` plugins leave them;
    places beyond the participants are 0). ``wall``: points per unit of longest outer wall
    (R-SCORE-5 and any plugin column proportional to it, e.g. a house rule scoring walls twice).
    """

    rows: dict[str, tuple[int, ...]]
    wall: float

    def signature(self) -> tuple[Any, ...]:
        """A hashable summary (the rows and wall points)."""
        return (tuple(sorted(self.rows.items())), self.wall)


def _probe_totals(
    game: Game, number: int, participants: list[int], counts: list[dict[str, int]], walls: list[int]
) -> list[int]:
    """Totals of a scoring ``number`` of the given counts and walls, passed through the rule
    set's ``alhambra_scoring_adjust`` hook exactly as a real scoring is (R-SCORE-1 … -5)."""
    record = ScoringRecord(
        number=number,
        participants=list(participants),
        counts=counts,
        majority=majority_table(counts, number),
        walls=walls,
    )
    game.rules.hook.alhambra_scoring_adjust(game=game, record=record)
    return record.totals


def scoring_values(game: Game) -> dict[int, ScoringValues]:
    """``{number: ScoringValues}`` for scorings 1, 2 and 3 of ``game``'s rule set and
    participants (players, then Dirk when he plays), measured once per rule set and player
    count by scoring probe Alhambras through the same hooks as a real scoring: so a variant's
    own scoring (its ``alhambra_scoring_adjust`` plugins) is what the bots value, with no
    base-game table built into them. Adjustments are assumed to depend on the record's counts
    and walls; the building counts themselves come from the cities (huts, bonus cards)."""
    n = game.num_players
    participants = list(range(n))
    if game.state.modules.get("dirk") is not None:
        participants.append(n)
    rules = game.rules
    key = (id(rules), tuple(participants))
    found = _PROBES.get(key)
    if found is not None:
        return found[1]
    m = len(participants)
    zero = dict.fromkeys(BUILDING_TYPES, 0)
    out: dict[int, ScoringValues] = {}
    for number in (1, 2, 3):
        base = _probe_totals(game, number, participants, [dict(zero) for _ in participants], [0] * m)
        rows = {}
        for t in BUILDING_TYPES:
            counts = [dict(zero, **{t: m - i}) for i in range(m)]
            tot = _probe_totals(game, number, participants, counts, [0] * m)
            rows[t] = tuple(max(0, tot[i] - base[i]) for i in range(m))
        length = 10
        tot = _probe_totals(game, number, participants, [dict(zero) for _ in participants], [length] * m)
        wall = max(0.0, (tot[0] - base[0]) / length)
        out[number] = ScoringValues(rows=rows, wall=wall)
    if len(_PROBES) > 64:
        _PROBES.clear()
        _SIGNATURES.clear()
    _PROBES[key] = (rules, out)  # keep the rule set alive so that its id is never reused
    _SIGNATURES[id(out)] = tuple(out[k].signature() for k in (1, 2, 3))
    return out


# ---------------------------------------------------------------------------------------------
# The evaluator
# ---------------------------------------------------------------------------------------------


class Evaluator:
    """Position and action values for ``viewer`` in the current state of ``game``.

    Build one per decision (it snapshots counts and caches per-tile values); the game must not
    change while it is used. ``seat_value(s)`` values any seat from ``viewer``'s knowledge;
    ``action_values(legal)`` values the actions of the seat deciding now (which must be
    ``viewer``), as changes of that seat's position value.
    """

    def __init__(self, game: Game, viewer: int, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.game = game
        self.viewer = viewer
        self.w = weights
        st = game.state
        self.st = st
        self.n = game.num_players
        #: the tile specs: a building's ``type`` is a str (read only once its kind is checked)
        self.catalog: Any = game.rules.catalog
        self.prices = game.rules.space_prices  # per market space: the price paid there
        self.types = self.catalog.types
        mods = st.modules
        self.dirk = mods.get("dirk")
        parts = game.rules.hook.alhambra_evaluation_part(game=game, viewer=viewer)[::-1]  # modules' order
        #: per plugin counting buildings for a seat (bonus cards, R-BON-3): seat -> buildings
        self.counted = [p.counted for p in parts if p.counted is not None]
        #: per plugin holding tokens the ``vizier`` weight values (R-VIZ-4): seat -> held
        self.tokens = [p.token for p in parts if p.token is not None]
        #: the rules of tiles counting by their neighbours (huts, R-HUT-5), when they play
        self.hut_plugin = next((p.huts for p in parts if p.huts is not None), None)
        done = {r.number for r in st.scorings}
        remaining = [k for k in (1, 2, 3) if k not in done]
        self.scorings = [(k, 1.0 if i == 0 else weights.later_scoring) for i, k in enumerate(remaining)]
        self.paid = scoring_values(game)
        self.wall_weight = sum(w * self.paid[k].wall for k, w in self.scorings)
        #: per building type: the 3rd scoring's first-place points (what a type is worth)
        self.type_worth = {t: float(self.paid[3].rows[t][0]) if self.paid[3].rows[t] else 0.0 for t in BUILDING_TYPES}
        start = 44.0 if self.dirk is not None else 50.0
        frac = max(0.0, min(1.0, len(st.bag) / start))
        if st.phase in ("over", "distribution"):
            frac = 0.0
        self.progress_left = frac
        self.coin = weights.coin_end + (weights.coin_start - weights.coin_end) * frac
        self._keys: dict[int, tuple[frozenset[tuple[Pos, Any]], str, int]] = {}
        self._others: dict[tuple[str | int, ...], tuple[int, ...]] = {}
        self.counts = [self.city_counts(s, st.players[s].city, self._key(s)) for s in range(self.n)]
        self.dirk_counts = self._dirk_counts()
        tkey = (weights, tuple(self.scorings), _SIGNATURES[id(self.paid)])
        tc = _TYPEVAL.get(tkey)
        if tc is None:
            if len(_TYPEVAL) > 64:
                _TYPEVAL.clear()
            tc = _TYPEVAL[tkey] = {}
        self._type_cache = tc
        self._tile_cache: dict[Any, Any] = {}  # per (seat, tile) and others: mixed values
        self._shapes = [self.shape_value(*shape(p.city, self._key(i))) for i, p in enumerate(st.players)]

    # -- counts ---------------------------------------------------------------------------------

    def city_counts(self, seat: int, city: Alhambra, key: Any = None) -> dict[str, int]:
        """Buildings per type that ``city`` would score for ``seat`` (huts and bonus cards
        included as far as ``viewer`` knows them). Cached: do not change the result."""
        cards: tuple[int, ...] = ()
        for counted in self.counted:
            cards += counted(seat)
        ck = (key if key is not None else city_key(city), "counts", cards, self.hut_plugin is not None)
        found: dict[str, int] | None = _GEOM.get(ck)
        if found is not None:
            return found
        counts = city.type_counts()
        if self.hut_plugin is not None:
            for t, v in self.hut_plugin.hut_counts(city).items():
                if v:
                    counts[t] += v
        for b in cards:
            if city.position_of(b) is not None:
                counts[self.types[b]] += 1
        _GEOM[ck] = counts
        return counts

    def _dirk_counts(self) -> dict[str, int] | None:
        if self.dirk is None:
            return None
        out = dict.fromkeys(BUILDING_TYPES, 0)
        for t in self.dirk.tiles:
            spec = self.catalog[t]
            if spec.kind == "building":
                out[spec.type] += 1
        return out

    def others(self, seat: int, t: str, dirk_extra: int = 0) -> tuple[int, ...]:
        """Counts of type ``t`` of every participant but ``seat`` (Dirk last)."""
        key = (seat, t, dirk_extra)
        found = self._others.get(key)
        if found is None:
            out = [self.counts[s][t] for s in range(self.n) if s != seat]
            if self.dirk_counts is not None:
                out.append(self.dirk_counts[t] + dirk_extra)
            found = self._others[key] = tuple(out)
        return found

    # -- majorities ------------------------------------------------------------------------------

    @staticmethod
    def _points(mine: int, others: tuple[int, ...], row: tuple[int, ...]) -> float:
        if mine <= 0:
            return 0.0
        higher = tied = 0
        for o in others:
            if o > mine:
                higher += 1
            elif o == mine:
                tied += 1
        if higher >= len(row):
            return 0.0
        tied += 1
        return sum(row[higher : higher + tied]) // tied

    def type_value(self, t: str, mine: int, others: tuple[int, ...]) -> float:
        """Projected majority points of a participant with ``mine`` buildings of type ``t``
        against ``others`` (counts), over the scorings still to come."""
        key = (t, mine, others)
        v = self._type_cache.get(key)
        if v is None:
            w = self.w
            s = w.smooth
            v = 0.0
            for k, wk in self.scorings:
                row = self.paid[k].rows[t]
                p = self._points(mine, others, row)
                if s:
                    p = (1 - 2 * s) * p + s * (
                        self._points(mine - 1, others, row) + self._points(mine + 1, others, row)
                    )
                v += wk * p
            v += w.per_building * mine * self.type_worth[t] / 8.0
            if len(self._type_cache) > _GEOM_LIMIT:
                self._type_cache.clear()
            self._type_cache[key] = v
        return v

    def majority_value(self, seat: int, counts: dict[str, int]) -> float:
        return sum(self.type_value(t, counts[t], self.others(seat, t)) for t in BUILDING_TYPES)

    def type_gain(self, seat: int, t: str, k: int = 1) -> float:
        """Projected points ``seat`` gains from ``k`` more buildings of type ``t``."""
        mine = self.counts[seat][t]
        o = self.others(seat, t)
        return self.type_value(t, mine + k, o) - self.type_value(t, mine, o)

    # -- cities -----------------------------------------------------------------------------------

    def city_value(self, seat: int, city: Alhambra) -> float:
        """Majorities and walls of ``city`` if it were ``seat``'s Alhambra."""
        counts = self.city_counts(seat, city)
        return self.majority_value(seat, counts) + self.shape_value(*shape(city))

    def shape_value(self, wall: int, opens: int) -> float:
        """Walls once per scoring to come, minus a penalty for an Alhambra that can hardly
        grow any more (few open sides left)."""
        v = self.wall_weight * wall
        if opens < len(_CLOSED):
            v -= self.w.closed * _CLOSED[opens] * self.progress_left
        return v

    def _key(self, seat: int) -> tuple[frozenset[tuple[Pos, Any]], str, int]:
        k = self._keys.get(seat)
        if k is None:
            k = self._keys[seat] = city_key(self.st.players[seat].city)
        return k

    def _hut_extra(self, city: Alhambra, tile: Any, pos: Pos) -> int:
        """How many buildings of its type building ``tile`` at ``pos`` adds through huts
        (R-HUT-5): for a hut, its adjacent buildings of its type; for a building, one per
        adjacent hut of its type that counts fewer than 3 (no wall between them)."""
        plugin: Any = self.hut_plugin  # the building-huts module, when it plays
        cat = self.catalog
        spec = cat[tile]
        x, y = pos
        is_hut = spec.kind != "building"
        extra = 0
        for dx, dy, side, opp in _SIDES:
            if spec.walls & side:
                continue
            q = (x + dx, y + dy)
            other = city.tile_at(q)
            if other is None:
                continue
            o = cat[other]
            if o.type != spec.type or o.walls & opp:
                continue
            if is_hut:
                if o.kind == "building":
                    extra += 1
            elif plugin.is_hut(cat, other) and plugin.hut_value(city, q) < plugin.MAX_HUT_VALUE:
                extra += 1
        if is_hut:
            capped: int = min(extra, plugin.MAX_HUT_VALUE)
            return capped
        return 1 + extra

    def place_values(self, seat: int, tile: Any) -> dict[Pos, float]:
        """``{pos: gain}`` of building ``tile`` at each legal cell of ``seat``'s Alhambra."""
        ck = (seat, tile)
        found: dict[Pos, float] | None = self._tile_cache.get(ck)
        if found is not None:
            return found
        city = self.st.players[seat].city
        key = self._key(seat)
        spec = self.catalog[tile]
        base = self._shapes[seat]
        sv = self.shape_value
        compact = self.w.compact
        walls = placement_walls(city, tile, key)
        found = {}
        if self.hut_plugin is None:
            gain = self.type_gain(seat, spec.type) if spec.kind == "building" else 0.0
            for pos, (wl, opens, nb) in walls.items():
                found[pos] = gain + sv(wl, opens) - base + compact * nb
        else:
            hk = (key, "hut-extra", tile)
            extra: dict[Pos, int] | None = _GEOM.get(hk)
            if extra is None:
                extra = _GEOM[hk] = {pos: self._hut_extra(city, tile, pos) for pos in walls}
            for pos, (wl, opens, nb) in walls.items():
                k = extra[pos]
                gain = self.type_gain(seat, spec.type, k) if k else 0.0
                found[pos] = gain + sv(wl, opens) - base + compact * nb
        self._tile_cache[ck] = found
        return found

    def _count_of(self, city: Alhambra, tile: Any, pos: Pos) -> tuple[str | None, int]:
        """(type, buildings counted) of the tile at ``pos`` (a hut counts its adjacency)."""
        spec = self.catalog[tile]
        if spec.kind == "building":
            return spec.type, 1
        if self.hut_plugin is not None and self.hut_plugin.is_hut(self.catalog, tile):
            return spec.type, self.hut_plugin.hut_value(city, pos)
        return None, 0

    def redesign_value(self, seat: int, pos: Pos, new_tile: Any) -> float:
        """Gain of removing the tile at ``pos`` into the reserve (``new_tile`` None) or of
        swapping ``new_tile`` from the reserve in (R-TURN-5): majorities (huts next to it are
        not re-counted), walls, and the reserve values of the tiles that move."""
        city = self.st.players[seat].city
        old = city.tile_at(pos)
        key = (self._key(seat), "redesign", pos, new_tile)
        wl: tuple[int, int] | None = _GEOM.get(key)
        if wl is None:
            c2 = city.copy()
            if new_tile is None:
                c2.remove(pos)
            else:
                c2.swap(new_tile, pos)
            wl = _GEOM[key] = (c2.longest_outer_wall(), open_sides(c2))
        v = self.shape_value(*wl) - self._shapes[seat] + self.reserve_value(seat, old)
        t_old, k_old = self._count_of(city, old, pos)
        deltas: dict[str, int] = {}
        if t_old is not None and k_old:
            deltas[t_old] = -k_old
        if new_tile is not None:
            v -= self.reserve_value(seat, new_tile)
            t_new = self.catalog[new_tile].type
            if self.catalog[new_tile].kind == "building":
                deltas[t_new] = deltas.get(t_new, 0) + 1
        for t, k in deltas.items():
            if k:
                v += self.type_gain(seat, t, k)
        return v

    def best_place(self, seat: int, tile: Any) -> float | None:
        """The best gain of building ``tile`` in ``seat``'s Alhambra now (None: nowhere)."""
        found: dict[Pos, float] | None = self._tile_cache.get((seat, tile))
        if found is not None:
            return max(found.values()) if found else None
        if self.hut_plugin is not None:
            vals = self.place_values(seat, tile)
            return max(vals.values()) if vals else None
        walls = placement_walls(self.st.players[seat].city, tile, self._key(seat))
        if not walls:
            return None
        spec = self.catalog[tile]
        gain = self.type_gain(seat, spec.type) if spec.kind == "building" else 0.0
        ww = self.wall_weight
        pen = self.w.closed * self.progress_left
        compact = self.w.compact
        closed = _CLOSED
        best = -math.inf
        for wl, opens, nb in walls.values():
            v = ww * wl + compact * nb
            if opens < 5:
                v -= pen * closed[opens]
            if v > best:
                best = v
        return gain + best - self._shapes[seat]

    def reserve_value(self, seat: int, tile: Any) -> float:
        """Value of ``tile`` lying in ``seat``'s reserve. It does not depend on the counts, so
        that moving tiles between reserve and Alhambra and back never looks like a gain."""
        spec = self.catalog[tile]
        if spec.kind == "building":
            base = self.type_worth[spec.type] / 8.0
        else:
            base = 0.5
        return self.w.reserve_share * base - self.w.reserve_penalty

    def dirk_value(self, seat: int, tile: Any) -> float:
        """Gain for ``seat`` of giving ``tile`` to Dirk: its own majority change minus half of
        the best opponent's."""
        spec = self.catalog[tile]
        if self.dirk_counts is None or spec.kind != "building":
            return -1.0
        t = spec.type

        def delta(s: int) -> float:
            mine = self.counts[s][t]
            return self.type_value(t, mine, self.others(s, t, 1)) - self.type_value(t, mine, self.others(s, t))

        opp = max((delta(s) for s in range(self.n) if s != seat), default=0.0)
        return delta(seat) - 0.5 * opp

    def tile_value(self, seat: int, tile: Any, dirk_ok: bool = False) -> float:
        """Value for ``seat`` of owning ``tile`` to place now: the best of building it,
        reserving it and (two players, bought) giving it to Dirk."""
        ck = ("tile", seat, tile, dirk_ok)
        v: float | None = self._tile_cache.get(ck)
        if v is None:
            best = self.best_place(seat, tile)
            v = self.reserve_value(seat, tile)
            if best is not None and best > v:
                v = best
            if dirk_ok and self.dirk is not None:
                v = max(v, self.dirk_value(seat, tile))
            self._tile_cache[ck] = v
        return v

    # -- money --------------------------------------------------------------------------------

    def wanted(self, seat: int) -> list[tuple[int, str, Any, float]]:
        """``[(space, currency, price, value)]`` for the market buildings ``seat`` wants."""
        ck = ("wanted", seat)
        found: list[tuple[int, str, Any, float]] | None = self._tile_cache.get(
            ck
        )  # prices: ints (spaces with a building)
        if found is None:
            found = []
            for i, tile in enumerate(self.st.market):
                if tile is None:
                    continue
                v = self.tile_value(seat, tile)
                if v > 0:
                    found.append(
                        (i + 1, MARKET_CURRENCIES[i], self.game.rules.purchase.market_price(self.game, i + 1), v)
                    )
            self._tile_cache[ck] = found
        return found

    def money_value(self, seat: int, hand: Iterable[Any], gone: tuple[int, ...] = ()) -> float:
        """Value of ``hand`` for ``seat``: coins, offices, and how well it pays for the wanted
        market buildings (except spaces in ``gone``, bought this turn)."""
        w = self.w
        purse, offices, count = purse_of(hand)
        total: float = count
        if total > w.money_cap:
            total = w.money_cap + 0.4 * (total - w.money_cap)
        v = self.coin * total + w.office * len(offices) * (0.3 + 0.7 * self.progress_left)
        if self.progress_left <= 0:
            return v
        parts = []
        for space, cur, price, val in self.wanted(seat):
            if space in gone:
                continue
            a = afford_purse(purse, offices, cur, price)
            if a == 2:
                parts.append(val * w.afford_exact)
            elif a == 1:
                parts.append(val * w.afford_pay)
            else:
                share = min(1.0, sum(purse.get(cur, ())) / price) if price else 1.0
                parts.append(val * w.afford_part * share * share)
        parts.sort(reverse=True)
        for share, p in zip((1.0, 0.5, 0.25, 0.12), parts):
            v += share * p
        return v

    def held_value(self, hand: Iterable[Any]) -> float:
        """Value of the cards of ``hand`` that are neither money nor payment means (a module's
        cards, such as city gates): ``held_card`` each, plus ``held_card_early`` times the share
        of the game left (their use comes with the placements still to come)."""
        n = sum(1 for c in hand if not _pays(c))
        if not n:
            return 0.0
        return n * (self.w.held_card + self.w.held_card_early * self.progress_left)

    # -- whole positions -------------------------------------------------------------------------

    def seat_value(self, seat: int) -> float:
        """Score plus projected points of ``seat`` (hands of other seats are read as they are in
        this game: call it on a determinized copy)."""
        st = self.st
        p = st.players[seat]
        v = p.score + self.majority_value(seat, self.counts[seat]) + self._shapes[seat]
        v += self.money_value(seat, p.hand) + self.held_value(p.hand)
        for t in p.reserve:
            v += self.reserve_value(seat, t)
        if st.pending and st.decider == seat and st.phase == "place":
            for q in st.pending:
                v += max(0.0, self.tile_value(seat, q.tile, q.dirk_ok))
        if self.holds_token(seat):
            v += self.w.vizier * self.progress_left
        return v

    def holds_token(self, seat: int) -> bool:
        """Whether ``seat`` holds a token the ``vizier`` weight values (an active vizier,
        R-VIZ-4; ``alhambra_evaluation_part``)."""
        return any(held(seat) for held in self.tokens)

    def holdings_value(self, seat: int, player: PlayerState) -> float:
        """Value for ``seat`` of holding ``player``'s Alhambra, reserve and hand (a
        :class:`~alhambra.state.PlayerState`, ``seat``'s now or after an action), against
        the position now: majorities, walls, reserve tiles, money and other cards. The score
        and everything outside the seat's own holdings are left out."""
        v = self.city_value(seat, player.city) + self.money_value(seat, player.hand) + self.held_value(player.hand)
        for t in player.reserve:
            v += self.reserve_value(seat, t)
        return v

    def holdings_gain(self, seat: int, before: PlayerState, after: PlayerState) -> float:
        """``holdings_value(seat, after) - holdings_value(seat, before)``, working out only the
        parts that differ (an Alhambra, a reserve, the money of a hand)."""
        v = 0.0
        if after.city != before.city:  # the same tiles (gates aside): the same majorities and walls
            v += self.city_value(seat, after.city) - self.city_value(seat, before.city)
        if after.reserve != before.reserve:
            v += sum(self.reserve_value(seat, t) for t in after.reserve)
            v -= sum(self.reserve_value(seat, t) for t in before.reserve)
        if after.hand != before.hand:
            v += self.held_value(after.hand) - self.held_value(before.hand)
            if _paying(after.hand) != _paying(before.hand):
                v += self.money_value(seat, after.hand) - self.money_value(seat, before.hand)
        return v

    def step_value(self, action: Action, lookahead: bool = True) -> float:
        """Gain of ``action`` (of the seat deciding now, ``viewer``), which the heuristic has no
        model of (a module's action): played on a copy of the game, the change of the seat's
        :meth:`holdings_value` (what it holds, read before anything hidden could be drawn into
        the copy's view: never the market, display or scores after the action). With
        ``lookahead``, a free step that builds nothing (the seat decides again, in the same
        phase or in a module's window phase, ``PhaseSpec.window``, such as the city gates'
        commitment to a removal, with its tiles where they were) adds the best value among the
        actions that follow it, valued without lookahead."""
        seat = self.viewer
        g = self.game.clone(seed=0)  # what chance brings after the action is not read
        try:
            g.apply(action)
        except AlhambraError:  # not legal now: never chosen
            return -1e9
        before = self.st.players[seat]
        after = g.state.players[seat]
        v = self.holdings_gain(seat, before, after)
        st = g.state
        if (
            lookahead
            and not g.is_over
            and st.decider == seat
            and (st.phase == self.st.phase or _window(g, st.phase))
            and len(st.pending) == len(self.st.pending)
            and len(after.city) == len(before.city)
            and after.reserve == before.reserve
        ):
            legal = g.legal_actions()
            if legal:
                v += max(Evaluator(g, seat, self.w).action_values(legal, lookahead=False))
        return v

    def margin(self, seat: int) -> float:
        """``seat``'s value minus the best other seat's value."""
        vals = [self.seat_value(s) for s in range(self.n)]
        mine = vals[seat]
        return mine - max(v for s, v in enumerate(vals) if s != seat)

    # -- actions ---------------------------------------------------------------------------------

    def action_values(self, legal: list[Any], fast: bool = False, lookahead: bool = True) -> list[float]:
        """Gain in ``viewer``'s position value of each action of ``legal`` (same order).
        ``fast``: do not value removals and swaps (they get -1e9), as in search playouts, and
        look no step ahead. Actions the heuristic has no model of are valued by
        :meth:`step_value` (with a look one free step ahead unless ``fast`` or not
        ``lookahead``)."""
        seat = self.viewer
        st = self.st
        p = st.players[seat]
        hand = p.hand
        gone = tuple(i + 1 for i, t in enumerate(st.market) if t is None)
        money_now = None
        out = []
        w = self.w
        extra = w.extra_action + w.extra_coins * self.coin
        city_now = None
        for a in legal:
            cls = type(a)
            name = cls.__name__
            if cls is TakeMoney:
                if money_now is None:
                    money_now = self.money_value(seat, hand, gone)
                v = self.money_value(seat, hand + list(a.cards), gone) - money_now
            elif cls is Buy or name == "UseVizier" or name == "BuyWithDiamonds":
                if money_now is None:
                    money_now = self.money_value(seat, hand, gone)
                rest = list(hand)
                for c in a.cards:
                    rest.remove(c)
                if a.via is not None:
                    rest.remove(a.via)
                tile = st.market[a.space - 1]
                v = self.money_value(seat, rest, gone + (a.space,)) - money_now
                v += self.tile_value(seat, tile, self.dirk is not None)
                if cls is Buy or name == "BuyWithDiamonds":
                    if sum(c.value for c in a.cards) == self.game.rules.purchase.market_price(self.game, a.space):
                        v += extra
                    if not st.bag:
                        v += w.end_push  # the bag is empty: only a purchase can end the game
                else:
                    v -= w.vizier * self.progress_left
            elif cls is Place:
                found = self.place_values(seat, a.tile).get(a.pos)
                if found is not None:
                    v = found
                else:  # a cell the heuristic did not list: value it directly
                    if city_now is None:
                        city_now = self.city_value(seat, p.city)
                    c2 = p.city.copy()
                    c2.place(a.tile, a.pos)
                    v = self.city_value(seat, c2) - city_now
            elif cls is Reserve:
                v = self.reserve_value(seat, a.tile)
            elif cls is GiveToDirk:
                v = self.dirk_value(seat, a.tile)
            elif cls is BuildFromReserve:
                v = self.place_values(seat, a.tile).get(a.pos, -50.0) - self.reserve_value(seat, a.tile) - w.redesign
            elif fast and (cls is RemoveToReserve or cls is Swap):
                v = -1e9
            elif cls is RemoveToReserve:
                v = self.redesign_value(seat, a.pos, None) - w.redesign
            elif cls is Swap:
                v = self.redesign_value(seat, a.pos, a.tile) - w.redesign
            elif name == "TakeOffice":
                if money_now is None:
                    money_now = self.money_value(seat, hand, gone)
                v = self.money_value(seat, hand + [a.office], gone) - money_now
            elif name == "TakeHut":
                v = self.tile_value(seat, a.hut) - 0.5
            elif name == "ReactivateVizier":
                v = w.vizier * self.progress_left
            elif name == "RevealBonus":
                v = -0.01  # free, and only tells the others something
            elif cls is Pass or name == "DeclineVizier":
                v = 0.0
            else:  # a module's action: played on a copy (and one free step ahead)
                v = self.step_value(a, lookahead=lookahead and not fast)
            out.append(v)
        return out


def rank(game: Game, seat: int, legal: list[Any], weights: Weights = DEFAULT_WEIGHTS) -> list[tuple[float, int]]:
    """``[(value, index into legal)]`` best first (ties: the earlier listed action first)."""
    vals = Evaluator(game, seat, weights).action_values(legal)
    return sorted(((v, i) for i, v in enumerate(vals)), key=lambda x: (-x[0], x[1]))


def tuned(**changes: Any) -> Weights:
    """The default weights with some changed (``tuned(coin_start=0.6)``)."""
    return evolve(DEFAULT_WEIGHTS, **changes)


def play_greedy_step(game: Any, weights: Any = None) -> None:
    """Play the move the greedy bot would play for the seat to decide now (the playouts of the
    search and learned bots): the only legal action, or the first of the best valued by
    :class:`Evaluator` with ``weights`` (default :data:`DEFAULT_WEIGHTS`). ``game`` must not
    be over."""
    legal = game.legal_actions()
    if len(legal) == 1:
        game.apply(legal[0])
        return
    vals = Evaluator(game, game.state.decider, DEFAULT_WEIGHTS if weights is None else weights).action_values(
        legal, fast=True
    )
    best = 0
    for i in range(1, len(vals)):
        if vals[i] > vals[best]:
            best = i
    game.apply(legal[best])
