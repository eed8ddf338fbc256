"""Observations for one seat, made from ``Game.view(seat)`` only: a flat ``float32`` vector
with named slices (:attr:`ObservationEncoder.slices`) and the same as readable text.

Seats are written relative to the observer: player slot 0 is the observing seat, slot 1 the
next seat in turn order, and so on. Counts are raw counts, flags 0/1, scores raw points. The
layout (names, shapes, meaning) is documented in ``docs/env.md``; a module's state is encoded
by the encoder registered for its view key (:func:`register_view_encoder`); a module without
one is left out of the tensor (its view still shows in the text).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from alhambra import BUILDING_TYPES, EAST, NORTH, SOUTH, WEST, ConfigError, ScoringCard

from .codec import WindowError, city_slots, max_slots, tile_ids

if TYPE_CHECKING:  # pragma: no cover
    from alhambra import Game

__all__ = ["CITY_PLANES", "SLOT_FEATURES", "ObservationEncoder", "ViewEncoder", "register_view_encoder", "render_view"]

#: What a tile shows of itself in its cell slot, in order.
CITY_PLANES: tuple[str, ...] = (
    "fountain",
    *BUILDING_TYPES,
    "hut",
    "wall_north",
    "wall_east",
    "wall_south",
    "wall_west",
)
_WALLS = (NORTH, EAST, SOUTH, WEST)
#: The features of each cell slot of an Alhambra (see :func:`alhambra.env.codec.city_slots`):
#: ``slot`` 1 for a slot in use, ``x``, ``y`` its position relative to the fountain, then the
#: tile's :data:`CITY_PLANES` (all 0 for an empty cell).
SLOT_FEATURES: tuple[str, ...] = ("slot", "x", "y", *CITY_PLANES)
_SLOT_F = len(SLOT_FEATURES)


class ViewEncoder:
    """Writes one module's part of the view (``view["modules"][key]``, or ``view[key]`` for a
    plugin that adds its own top-level entry, as the two-player rules do with ``"dirk"``) into
    the observation.

    ``shapes(game)``: ``{slice name: shape}`` for the rule set of ``game``; ``write(out,
    part, view, order, obs)``: fill the arrays ``out[name]`` (zeroed, of those shapes) from
    ``part`` (the module's view entry), ``view`` (the whole view), ``order`` (the absolute
    seats in observer-relative order) and ``obs`` (the :class:`ObservationEncoder`, for its
    ``tile_index`` and ``card_index``)."""

    def __init__(
        self,
        shapes: Callable[[Game], dict[str, tuple[int, ...]]],
        write: Callable[[dict[str, np.ndarray], Any, dict[str, Any], Sequence[int], Any], None],
    ) -> None:
        self.shapes = shapes
        self.write = write


_VIEW_ENCODERS: dict[str, ViewEncoder] = {}
#: The registered view encoders by view key (read-only; register with :func:`register_view_encoder`).
VIEW_ENCODERS = _VIEW_ENCODERS
_FLAG_SLICES = frozenset(
    {
        "phase",
        "current_player",
        "turn_player",
        "start_player",
        "scoring_cards_drawn",
        "scorings_done",
        "market_tiles",
        "pending",
        "reserves",
        "cities",
    }
)
_BASE_VIEW_KEYS = frozenset(
    {
        "seat",
        "phase",
        "current_player",
        "turn_player",
        "turn",
        "start_player",
        "market",
        "display",
        "discard",
        "deck_size",
        "bag_size",
        "scoring_cards_drawn",
        "pending",
        "scorings",
        "players",
        "modules",
    }
)


def register_view_encoder(key: str, encoder: ViewEncoder) -> None:
    """Encode the view entry ``view["modules"][key]`` with ``encoder`` (a later registration
    replaces an earlier one). Raises :class:`ConfigError` for an encoder that is not a
    :class:`ViewEncoder`."""
    if not isinstance(encoder, ViewEncoder):
        raise ConfigError(f"a view encoder must be an alhambra.env.ViewEncoder, not {encoder!r}")
    _VIEW_ENCODERS[key] = encoder


class ObservationEncoder:
    """The observation layout of one rule set, and the function from a view to the vector.

    ``game``: any game of the rule set (only its rules and player count are read).
    ``extra``: more named slices the environment appends (``{"decision": (num_actions,)}``:
    the integers chosen so far in an unfinished action). Each Alhambra is written over its
    cell slots (:func:`~alhambra.env.codec.city_slots`, :attr:`slots` of them, the same
    slots the action codec's cell integers name), so no legal game leaves the layout;
    :meth:`encode` raises :class:`WindowError` only for a state no game reaches."""

    def __init__(self, game: Game, extra: dict[str, tuple[int, ...]] | None = None) -> None:
        self.slots = max_slots(game)
        n = self.num_players = game.num_players
        rules = game.rules
        self.phases: tuple[str, ...] = (*sorted(rules.phase_legal), "over")
        self.cards = self.card_list(game)
        self.card_index = {c.code: i for i, c in enumerate(self.cards)}
        self.scoring_cards = tuple(c.code for c in rules.cards.values() if isinstance(c, ScoringCard))
        self.tiles = tile_ids(game)
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        # each tile's city planes (the fountain too)
        planes = np.zeros((len(self.tiles) + 1, len(CITY_PLANES)), dtype=np.float32)
        self._plane_row: dict[Any, int] = {}
        for row, (t, spec) in enumerate(rules.catalog.items()):
            self._plane_row[t] = row
            if spec.kind == "fountain":
                planes[row, 0] = 1
                continue
            planes[row, 1 + BUILDING_TYPES.index(spec.type)] = 1
            planes[row, 7] = spec.kind == "hut"
            for k, w in enumerate(_WALLS):
                planes[row, 8 + k] = bool(spec.walls & w)
        self._planes = planes
        T, K = len(self.tiles), len(self.cards)
        shapes: dict[str, tuple[int, ...]] = {
            "phase": (len(self.phases),),
            "current_player": (n,),
            "turn_player": (n,),
            "start_player": (n,),
            "scores": (n,),
            "hand": (K,),
            "hand_sizes": (n,),
            "display": (K,),
            "discard": (K,),
            "deck_size": (1,),
            "bag_size": (1,),
            "scoring_cards_drawn": (len(self.scoring_cards),),
            "scorings_done": (3,),
            "market_tiles": (4, T),
            "market_prices": (4,),
            "pending": (T,),
            "reserves": (n, T),
            "cities": (n, self.slots, _SLOT_F),
        }
        #: the modules' parts encoded: (view key, encoder, {its slice name: the full slice name})
        self.modules: list[tuple[str, ViewEncoder, dict[str, str]]] = []
        probe = game.view(0)
        present = set(probe["modules"]) | {k for k in probe if k not in _BASE_VIEW_KEYS}
        for key in sorted(present):
            enc = _VIEW_ENCODERS.get(key)
            if enc is None:
                continue
            own = enc.shapes(game)
            self.modules.append((key, enc, {name: f"{key}.{name}" for name in own}))
            for name, shape in own.items():
                shapes[f"{key}.{name}"] = shape
        for name, shape in (extra or {}).items():
            shapes[name] = shape
        self.shapes = shapes
        self.slices: dict[str, slice] = {}
        start = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self._start = {name: sl.start for name, sl in self.slices.items()}
        # per tile row: its slot features after slot, x, y
        # (the last row: an empty cell)
        self._slot_rows = np.zeros((len(planes) + 1, _SLOT_F), np.float32)
        self._slot_rows[:-1, 3:] = planes
        self._slot_rows[:, 0] = 1
        self._empty_row = len(planes)

    def city_block(self, city: Any) -> np.ndarray:
        """The ``(slots, len(SLOT_FEATURES))`` block of an Alhambra: ``city`` an
        :class:`alhambra.Alhambra` or a dict ``{(x, y): tile}``. Raises :class:`WindowError`
        for more slots than any legal game gives."""
        memo = getattr(city, "memo", None)
        if memo is not None:
            found = memo.get("env_block")
            if found is not None:
                return found
        tiles = city.tiles if memo is not None else city
        slots = city_slots(city)
        if len(slots) > self.slots:
            raise WindowError(
                f"an Alhambra of {len(tiles)} tiles has {len(slots)} cell slots, more than the "
                f"{self.slots} of any legal game"
            )
        block = np.zeros((self.slots, _SLOT_F), dtype=np.float32)
        rows, empty = self._plane_row, self._empty_row
        m = len(slots)
        block[:m] = self._slot_rows[[empty if (t := tiles.get(pos)) is None else rows[t] for pos in slots]]
        block[:m, 1:3] = slots
        if memo is not None:
            memo["env_block"] = block
        return block

    @staticmethod
    def card_list(game: Game) -> tuple[Any, ...]:
        """The cards a hand, the display or the discard pile can hold: money cards, then
        module cards (exchange offices), without the scoring cards."""
        return tuple(c for c in game.rules.cards.values() if not isinstance(c, ScoringCard))

    def views(self, out: np.ndarray) -> dict[str, np.ndarray]:
        """The named slices of ``out`` (a vector of :attr:`size`) as arrays of their shapes
        (views into ``out``: writing them writes it)."""
        return {name: out[s].reshape(self.shapes[name]) for name, s in self.slices.items()}

    def encode(self, view: dict[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector (``float32``, shape ``(size,)``) of ``view`` (from
        ``game.view(seat)`` for a seat, never ``None``), written into ``out`` if given (else a
        new array). Slices of ``extra`` are left zero. Raises :class:`ConfigError` for a
        spectator's view, :class:`WindowError` for a tile outside the window."""
        seat = view["seat"]
        if seat is None:
            raise ConfigError("observations are made for a seat, not for a spectator (view(None))")
        buf = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            buf[:] = 0
        o = self._start
        n = self.num_players
        order = [(seat + k) % n for k in range(n)]
        rel = {s: k for k, s in enumerate(order)}
        ones = [
            o["phase"] + self.phases.index(view["phase"]),
            o["turn_player"] + rel[view["turn_player"]],
            o["start_player"] + rel[view["start_player"]],
        ]
        if view["current_player"] is not None:
            ones.append(o["current_player"] + rel[view["current_player"]])
        ci = self.card_index
        players = view["players"]
        base = o["hand"]
        counts = [base + ci[c] for c in players[seat]["hand"]]
        base = o["display"]
        counts += [base + ci[c] for c in view["display"]]
        base = o["discard"]
        counts += [base + ci[c] for c in view["discard"]]
        at = [o["deck_size"], o["bag_size"]]
        values = [view["deck_size"], view["bag_size"]]
        base = o["scoring_cards_drawn"]
        ones += [base + self.scoring_cards.index(c) for c in view["scoring_cards_drawn"]]
        base = o["scorings_done"] - 1
        ones += [base + rec["number"] for rec in view["scorings"]]
        ti = self.tile_index
        T = len(self.tiles)
        base = o["market_tiles"]
        for k, m in enumerate(view["market"]):
            if m["tile"] is not None:
                ones.append(base + k * T + ti[m["tile"]])
                at.append(o["market_prices"] + k)
                values.append(m["price"])
        base = o["pending"]
        ones += [base + ti[t] for t in view["pending"]]
        cities = o["cities"]
        city_size = self.slots * _SLOT_F
        for s, p in enumerate(players):
            k = rel[s]
            at += (o["scores"] + k, o["hand_sizes"] + k)
            values += (p["score"], p["hand_size"])
            base = o["reserves"] + k * T
            ones += [base + ti[t] for t in p["reserve"]]
            block = self.city_block({(x, y): t for x, y, t in p["city"]})
            buf[cities + k * city_size : cities + (k + 1) * city_size] = block.ravel()
        buf[ones] = 1
        if counts:
            tally: dict[int, int] = {}
            for i in counts:
                tally[i] = tally.get(i, 0) + 1
            at += tally
            values += tally.values()
        buf[at] = values
        mods = view["modules"]
        for key, enc, names in self.modules:
            part = mods.get(key, view.get(key))
            if part is not None:
                enc.write(
                    {name: buf[self.slices[full]].reshape(self.shapes[full]) for name, full in names.items()},
                    part,
                    view,
                    order,
                    self,
                )
        return buf

    def high(self) -> np.ndarray:
        """Upper bounds of every entry (for a ``gymnasium.spaces.Box``): 1 for the base
        game's flags and tiles, 10 000 for scores, 200 for counts and for modules' entries,
        :attr:`slots` for a slot's ``x`` and ``y``."""
        hi = np.ones(self.size, dtype=np.float32)
        for name, s in self.slices.items():
            if "." in name or name not in _FLAG_SLICES:
                hi[s] = 200
        for name in ("scores", "dirk.score"):
            if name in self.slices:
                hi[self.slices[name]] = 10_000
        self._xy(hi)[:] = self.slots
        return hi

    def low(self) -> np.ndarray:
        """Lower bounds of every entry: 0, and ``-slots`` for a slot's ``x`` and ``y``."""
        lo = np.zeros(self.size, dtype=np.float32)
        self._xy(lo)[:] = -self.slots
        return lo

    def _xy(self, vec: np.ndarray) -> np.ndarray:
        return vec[self.slices["cities"]].reshape(self.shapes["cities"])[:, :, 1:3]


# -- the expansion modules' view parts (and Dirk's) ----------------------------------------


def _tiles_of(game: Game, kind: str) -> tuple[Any, ...]:
    return tuple(t for t, s in game.rules.catalog.items() if s.kind == kind)


def _dirk_write(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], obs: ObservationEncoder
) -> None:
    for t in part["tiles"]:
        out["tiles"][obs.tile_index[t]] = 1
    out["score"][0] = part["score"]


register_view_encoder("dirk", ViewEncoder(lambda g: {"tiles": (len(tile_ids(g)),), "score": (1,)}, _dirk_write))


def _vizier_write(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], obs: ObservationEncoder
) -> None:
    for k, s in enumerate(order):
        out["active"][k] = bool(part["active"][s])
        if part["asking"] == s:
            out["asking"][k] = 1


register_view_encoder(
    "vizier", ViewEncoder(lambda g: {"active": (g.num_players,), "asking": (g.num_players,)}, _vizier_write)
)


def _huts_write(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], obs: ObservationEncoder
) -> None:
    for k, t in enumerate(BUILDING_TYPES):
        stack = part["stacks"].get(t)
        if stack is not None:
            out["stack_sizes"][k] = stack["size"]
            if stack["face_up"] is not None:
                out["face_up"][obs.tile_index[stack["face_up"]]] = 1


register_view_encoder(
    "building_huts",
    ViewEncoder(lambda g: {"face_up": (len(tile_ids(g)),), "stack_sizes": (len(BUILDING_TYPES),)}, _huts_write),
)


def _bonus_write(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], obs: ObservationEncoder
) -> None:
    ti = obs.tile_index
    for b in part.get("hand", ()):
        out["hand"][ti[b]] = 1
    for k, s in enumerate(order):
        p = part["players"][s]
        for b in p["revealed"]:
            out["revealed"][k, ti[b]] = 1
        out["hidden"][k] = p["hidden"]
    out["out_of_play"][0] = part["out_of_play"]


register_view_encoder(
    "bonus_cards",
    ViewEncoder(
        lambda g: {
            "hand": (len(tile_ids(g)),),
            "revealed": (g.num_players, len(tile_ids(g))),
            "hidden": (g.num_players,),
            "out_of_play": (1,),
        },
        _bonus_write,
    ),
)


def _office_write(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], obs: ObservationEncoder
) -> None:
    ci = obs.card_index
    for k, s in enumerate(order):
        for code in part["hands"][s]:
            out["held"][k, ci[code]] += 1
    out["in_deck"][0] = part["in_deck"]


register_view_encoder(
    "exchange_offices",
    ViewEncoder(
        lambda g: {"held": (g.num_players, len(ObservationEncoder.card_list(g))), "in_deck": (1,)}, _office_write
    ),
)


def _gates_write(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], obs: ObservationEncoder
) -> None:
    ci = obs.card_index
    if part["space"] is not None:
        out["space"][ci[part["space"]]] = 1
    players = view["players"]
    for k, s in enumerate(order):
        for code in part["hands"][s]:
            out["held"][k, ci[code]] += 1
        gates = part["gates"][s]
        if gates:
            slot = {pos: i for i, pos in enumerate(city_slots([(x, y) for x, y, _ in players[s]["city"]]))}
            for x, y, side in gates:
                out["gates"][k, slot[(x, y)], 0 if side == "east" else 1] = 1
    out["in_deck"][0] = part["in_deck"]


register_view_encoder(
    "city_gates",
    ViewEncoder(
        lambda g: {
            "space": (len(ObservationEncoder.card_list(g)),),
            "held": (g.num_players, len(ObservationEncoder.card_list(g))),
            "gates": (g.num_players, max_slots(g), 2),
            "in_deck": (1,),
        },
        _gates_write,
    ),
)


# -- text --------------------------------------------------------------------------------------


def render_view(view: dict[str, Any]) -> str:
    """``view`` (of a seat) as readable text: phase, market, money display, the seat's hand,
    each player's score, reserve and Alhambra as a grid of tile ids (``F`` the fountain, ``.``
    an empty cell, huts by their id), and the modules' parts of the view."""
    seat = view["seat"]
    lines = [
        f"seat {seat}  phase {view['phase']}  deciding {view['current_player']}  turn {view['turn']}",
        "market: "
        + "  ".join(
            f"{m['space']}:{m['currency']} {m['tile'] if m['tile'] is not None else '-'}"
            f"{'' if m['price'] is None else ' $' + str(m['price'])}"
            for m in view["market"]
        ),
        "display: " + " ".join(view["display"]),
        f"deck {view['deck_size']}  bag {view['bag_size']}  scoring cards drawn: "
        + (" ".join(view["scoring_cards_drawn"]) or "none"),
        "pending: " + (" ".join(map(str, view["pending"])) or "none"),
    ]
    for i, p in enumerate(view["players"]):
        me = " (you)" if i == seat else ""
        lines.append(
            f"player {i}{me} {p['name']}: score {p['score']}, {p['hand_size']} cards"
            + (f" [{' '.join(p['hand'])}]" if "hand" in p else "")
            + f", reserve {p['reserve']}"
        )
        city = {(x, y): t for x, y, t in p["city"]}
        xs = [x for x, _ in city]
        ys = [y for _, y in city]
        for y in range(min(ys), max(ys) + 1):
            row = (
                "." if (t := city.get((x, y))) is None else "F" if t == 0 else str(t)
                for x in range(min(xs), max(xs) + 1)
            )
            lines.append("   " + " ".join(c.rjust(3) for c in row))
    for key, part in sorted(view["modules"].items()):
        lines.append(f"{key}: {part}")
    return "\n".join(lines)
