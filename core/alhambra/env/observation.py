"""Observations for one seat, made from ``Game.view(seat)`` only: a flat ``float32`` vector
with named slices (:attr:`ObservationEncoder.slices`) and the same as readable text.

Seats are written relative to the observer: player slot 0 is the observing seat, slot 1 the
next seat in turn order, and so on. Counts are raw counts, flags 0/1, scores raw points. The
layout (names, shapes, meaning) is documented in ``docs/env.md``. A plugin's part of the
view is encoded as the plugin declares it (:class:`alhambra.ObservationPart`, hook
``alhambra_observation_parts``), or by a :class:`ViewEncoder` registered for its view key
(:func:`register_view_encoder`, which takes precedence); a view entry with neither is left out
of the tensor (it still shows in the text).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from alhambra import BUILDING_TYPES, EAST, NORTH, SOUTH, WEST, ConfigError, ObservationPart, ScoringCard

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
    """Writes one plugin's part of the view (``view["modules"][key]``, or ``view[key]`` for a
    plugin that adds its own top-level entry) into the observation, from the view only: a rule
    set with one is observed through the reference encoding at every step. A plugin declares
    its part better with :class:`alhambra.ObservationPart` (hook
    ``alhambra_observation_parts``), which can also keep it up to date from the state.

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
    replaces an earlier one; it replaces a plugin's declared part of that key too, and makes
    the rule sets with that entry observed through the reference encoding). Raises
    :class:`ConfigError` for an encoder that is not a :class:`ViewEncoder`."""
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
        #: the plugins' parts encoded, sorted by key: (view key, its part, {its slice name:
        #: the full slice name})
        self.modules: list[tuple[str, ObservationPart, dict[str, str]]] = []
        for key, part in sorted(self._parts(game).items()):
            self.modules.append((key, part, {name: f"{key}.{name}" for name in part.shapes}))
            for name, shape in part.shapes.items():
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

    def _parts(self, game: Game) -> dict[str, ObservationPart]:
        """The parts the plugins declare (``alhambra_observation_parts``, asked with this
        layout's tables), a registered :class:`ViewEncoder` in place of a part of its key."""
        parts: dict[str, ObservationPart] = {}
        for answer in game.rules.hook.alhambra_observation_parts(game=game, layout=self):
            if not isinstance(answer, list):
                raise ConfigError(f"alhambra_observation_parts must return a list of ObservationPart, not {answer!r}")
            for part in answer:
                if not isinstance(part, ObservationPart):
                    raise ConfigError(f"alhambra_observation_parts must return ObservationPart values, not {part!r}")
                if part.key in parts:
                    raise ConfigError(f"two observation parts declare the view key {part.key!r}")
                parts[part.key] = part
        if _VIEW_ENCODERS:
            probe = game.view(0)
            present = set(probe["modules"]) | {k for k in probe if k not in _BASE_VIEW_KEYS}
            for key in present:
                enc = _VIEW_ENCODERS.get(key)
                if enc is not None:
                    parts[key] = ObservationPart(key, enc.shapes(game), enc.write)
        return parts

    @staticmethod
    def city_slots(city: Any) -> tuple[tuple[int, int], ...]:
        """The cell slots of ``city`` in the order of its ``cities`` rows
        (:func:`alhambra.env.city_slots`)."""
        return city_slots(city)

    def city_block(self, city: Any) -> np.ndarray:
        """The ``(slots, len(SLOT_FEATURES))`` block of an Alhambra: ``city`` an
        :class:`alhambra.Alhambra` or a dict ``{(x, y): tile}``. Raises :class:`WindowError`
        for more slots than any legal game gives."""
        memo = getattr(city, "memo", None)
        if memo is not None:
            found: np.ndarray | None = memo.get("env_block")
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
        for key, declared, names in self.modules:
            part = mods.get(key, view.get(key))
            if part is not None:
                declared.encode(
                    {name: buf[self.slices[full]].reshape(self.shapes[full]) for name, full in names.items()},
                    part,
                    view,
                    order,
                    self,
                )
        return buf

    def high(self) -> np.ndarray:
        """Upper bounds of every entry (for a ``gymnasium.spaces.Box``): 1 for the base
        game's flags and tiles, 10 000 for scores, 200 for counts and for plugins' entries
        (or the bound a part declares, ``ObservationPart.high``: Dirk's score 10 000),
        :attr:`slots` for a slot's ``x`` and ``y``."""
        hi = np.ones(self.size, dtype=np.float32)
        for name, s in self.slices.items():
            if "." in name or name not in _FLAG_SLICES:
                hi[s] = 200
        hi[self.slices["scores"]] = 10_000
        for _key, part, names in self.modules:
            for name, bound in part.high.items():
                hi[self.slices[names[name]]] = bound
        self._xy(hi)[:] = self.slots
        return hi

    def low(self) -> np.ndarray:
        """Lower bounds of every entry: 0, and ``-slots`` for a slot's ``x`` and ``y``."""
        lo = np.zeros(self.size, dtype=np.float32)
        self._xy(lo)[:] = -self.slots
        return lo

    def _xy(self, vec: np.ndarray) -> np.ndarray:
        return vec[self.slices["cities"]].reshape(self.shapes["cities"])[:, :, 1:3]


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
