"""Observations kept up to date from the game's state: the fast path of
:class:`~alhambra.env.session.Session`.

:meth:`ObservationEncoder.encode(game.view(seat)) <alhambra.env.observation.ObservationEncoder.encode>`
is the reference: it builds the seat's view (a nested dict) and writes every slice anew, about
60 us a state. :class:`SeatObservations` keeps one vector per seat instead and, when asked for
a seat's vector, rewrites only the slices whose source changed since that vector was last
written: a source is compared with a copy of what was written (hands, the money display, the
discard pile, reserves and the market are short lists), an Alhambra by its ``memo`` (replaced on
every change of the layout, :class:`alhambra.engine.city.Alhambra`), and a changed Alhambra is
rewritten as its block of cell slots (made once per layout and kept in its ``memo``). It reads exactly what ``view(seat)`` shows (the
seat's own hand, never another's nor the bag or the deck order: other hands are read for their
sizes and public exchange offices only), and a property test checks that it equals the reference
at every step of random games of every module combination for every seat.

The fast path covers the base game, Dirk and the four expansion modules. A rule set with another
plugin that adds to the view (``alhambra_view``), or a view encoder registered anew for one of
those keys, is observed through the reference encoder (correct, only slower).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from alhambra import BUILDING_TYPES

from .observation import SLOT_FEATURES, VIEW_ENCODERS, ObservationEncoder

if TYPE_CHECKING:  # pragma: no cover
    from alhambra import Game

__all__ = ["SeatObservations"]

#: The plugins whose ``alhambra_view`` the fast path reproduces, by the module defining the hook.
_KNOWN_VIEW_HOOKS = frozenset(
    {
        "alhambra.rules.dirk",
        "alhambra_vizier.plugin",
        "alhambra_building_huts.plugin",
        "alhambra_bonus_cards.plugin",
        "alhambra_exchange_offices.plugin",
    }
)


#: The key under which an Alhambra's ``memo`` (values derived from its layout, shared by its
#: copies, replaced on every change) keeps its tiles ``{((x, y), tile), ...}`` for the environments.


class _Shared:
    """What every seat's vector is made from, worked out once per change of the game: the
    exchange offices in each hand and in the deck."""

    __slots__ = ("hand_copy", "offices", "in_deck", "office_type")

    def __init__(self, n: int, office_type: type | None) -> None:
        #: the exchange offices' card class (the module's view counts cards of exactly it)
        self.office_type = office_type
        self.hand_copy: list[list[Any] | None] = [None] * n
        self.offices: list[tuple[Any, ...]] = [()] * n
        self.in_deck = 0


# -- the modules' parts: (snapshot(game, seat, shared), write(out, game, seat, order, obs, shared)) --
# A snapshot is a cheap value that is equal whenever the seat's view of the module is; the part is
# rewritten (its slices zeroed first) when it differs.

Snapshot = Callable[[Any, int, _Shared], Any]
Writer = Callable[[dict[str, np.ndarray], Any, int, Sequence[int], ObservationEncoder, _Shared], None]


def _dirk_snap(game: Game, seat: int, shared: _Shared) -> Any:
    d = game.state.modules.get("dirk")
    return None if d is None else (tuple(d.tiles), d.score)


def _dirk_fast(
    out: dict[str, np.ndarray], game: Game, seat: int, order: Sequence[int], obs: ObservationEncoder, shared: _Shared
) -> None:
    d = game.state.modules.get("dirk")
    if d is None:
        return
    ti = obs.tile_index
    for t in d.tiles:
        out["tiles"][ti[t]] = 1
    out["score"][0] = d.score


def _vizier_snap(game: Game, seat: int, shared: _Shared) -> Any:
    vs = game.state.modules["vizier"]
    asked = vs.asked if game.state.phase == "vizier" and vs.asked >= 0 else None
    return (tuple(vs.active), asked if asked == seat else None)  # only the seat asked knows (R-VIZ-5)


def _vizier_fast(
    out: dict[str, np.ndarray], game: Game, seat: int, order: Sequence[int], obs: ObservationEncoder, shared: _Shared
) -> None:
    active, asking = _vizier_snap(game, seat, shared)
    for k, s in enumerate(order):
        out["active"][k] = bool(active[s])
        if asking == s:
            out["asking"][k] = 1


def _huts_snap(game: Game, seat: int, shared: _Shared) -> Any:
    hs = game.state.modules.get("building_huts")
    if hs is None:
        return None
    return tuple((t, len(s), s[-1] if s else None) for t, s in hs.stacks.items())


def _huts_fast(
    out: dict[str, np.ndarray], game: Game, seat: int, order: Sequence[int], obs: ObservationEncoder, shared: _Shared
) -> None:
    snap = _huts_snap(game, seat, shared)
    if snap is None:
        return
    stacks = {t: (size, top) for t, size, top in snap}
    for k, t in enumerate(BUILDING_TYPES):
        stack = stacks.get(t)
        if stack is not None:
            out["stack_sizes"][k] = stack[0]
            if stack[1] is not None:
                out["face_up"][obs.tile_index[stack[1]]] = 1


def _bonus_snap(game: Game, seat: int, shared: _Shared) -> Any:
    bs = game.state.modules.get("bonus_cards")
    if bs is None:
        return None
    return (tuple(bs.hands[seat]), tuple(map(tuple, bs.revealed)), tuple(map(len, bs.hands)), len(bs.out_of_play))


def _bonus_fast(
    out: dict[str, np.ndarray], game: Game, seat: int, order: Sequence[int], obs: ObservationEncoder, shared: _Shared
) -> None:
    snap = _bonus_snap(game, seat, shared)
    if snap is None:
        return
    own, revealed, hidden, out_of_play = snap
    ti = obs.tile_index
    for b in own:
        out["hand"][ti[b]] = 1
    for k, s in enumerate(order):
        for b in revealed[s]:
            out["revealed"][k, ti[b]] = 1
        out["hidden"][k] = hidden[s]
    out["out_of_play"][0] = out_of_play


def _offices_of(game: Game, shared: _Shared) -> tuple[tuple[tuple[Any, ...], ...], int]:
    """The exchange offices in each hand (public, R-EXC-3) and how many are left in the deck,
    recounted only for the hands and the deck that changed."""
    st = game.state
    office = shared.office_type
    for p, player in enumerate(st.players):
        hand = player.hand
        if shared.hand_copy[p] != hand:
            shared.hand_copy[p] = hand.copy()
            shared.offices[p] = tuple([c for c in hand if type(c) is office])
    # counted afresh: a reshuffle of the discard pile (R-TURN-8, offices played come back,
    # R-EXC-5) can leave the deck as long as it was and change what it holds
    shared.in_deck = sum([type(c) is office for c in st.deck])
    return tuple(shared.offices), shared.in_deck


def _office_snap(game: Game, seat: int, shared: _Shared) -> Any:
    return _offices_of(game, shared)


def _office_fast(
    out: dict[str, np.ndarray], game: Game, seat: int, order: Sequence[int], obs: ObservationEncoder, shared: _Shared
) -> None:
    held, in_deck = _offices_of(game, shared)
    ci = obs.card_index
    for k, s in enumerate(order):
        for c in held[s]:
            out["held"][k, ci[c.code]] += 1
    out["in_deck"][0] = in_deck


_FAST_PARTS: dict[str, tuple[Snapshot, Writer]] = {
    "dirk": (_dirk_snap, _dirk_fast),
    "vizier": (_vizier_snap, _vizier_fast),
    "building_huts": (_huts_snap, _huts_fast),
    "bonus_cards": (_bonus_snap, _bonus_fast),
    "exchange_offices": (_office_snap, _office_fast),
}
# the encoders the fast parts reproduce (a key registered anew falls back to the reference)
_BUILTIN_ENCODERS = {key: VIEW_ENCODERS[key] for key in _FAST_PARTS}


def fast_path_covers(encoder: ObservationEncoder, game: Game) -> bool:
    """True if :class:`SeatObservations` can observe games of ``game``'s rule set without
    ``view(seat)``: every ``alhambra_view`` hook is one it reproduces and every module part
    is encoded by its built-in encoder."""
    for impl in game.hook.alhambra_view.get_hookimpls():
        if getattr(impl.function, "__module__", None) not in _KNOWN_VIEW_HOOKS:
            return False
    return all(_BUILTIN_ENCODERS.get(key) is enc for key, enc, _names in encoder.modules)


class SeatObservations:
    """One observation vector per seat of a session's games, kept up to date from the game's
    state (see the module docstring).

    ``encoder``: the rule set's layout. :meth:`observe` returns the seat's vector *itself*
    (``float32``, shape ``(encoder.size,)``, the ``extra`` slices zero): copy it before handing
    it out, it is rewritten by the next call for that seat. Every call compares each source
    with what was written from it, so a game's state may change in any way between calls
    (``apply``, or edits by hand with or without ``game.invalidate()``): an Alhambra is compared
    by its ``memo``, which its own methods replace on every change (replacing an Alhambra
    object counts too)."""

    def __init__(self, encoder: ObservationEncoder, game: Game) -> None:
        self.encoder = encoder
        self.fast = fast_path_covers(encoder, game)
        self.n = n = encoder.num_players
        # per seat: its vector (made on its first observation) and what it was written from
        self._bufs: list[np.ndarray | None] = [None] * n
        self._seen: list[dict[Any, Any]] = [{} for _ in range(n)]
        self._game: Game | None = None
        offices = {type(c) for c in game.rules.cards.values() if type(c).__name__ == "ExchangeOffice"}
        self._office_type = offices.pop() if len(offices) == 1 else None
        self._shared = _Shared(n, self._office_type)
        o = encoder._start
        self._o = o
        self._city_size = encoder.slots * len(SLOT_FEATURES)
        self._prices: tuple[dict, ...] = game.rules.space_prices
        # cards and tiles by object (a card's code is a property: slower to read)
        self._card_slot = {c: encoder.card_index[c.code] for c in encoder.cards}
        self._tile_slot = encoder.tile_index
        self._T = len(encoder.tiles)
        self._modules = [
            (
                key,
                *_FAST_PARTS[key],
                [(name, encoder.slices[full], encoder.shapes[full]) for name, full in names.items()],
            )
            for key, _enc, names in encoder.modules
            if key in _FAST_PARTS
        ]

    def forget(self) -> None:
        """Drop what was written (the next :meth:`observe` of each seat rewrites it all)."""
        self._game = None

    def fresh(self) -> SeatObservations:
        """A new, empty one for the same rule set (cheap: the layout's tables are shared; for
        a copied session, as a search copies many)."""
        new = SeatObservations.__new__(SeatObservations)
        for name in ("encoder", "fast", "n", "_office_type", "_o", "_city_size", "_prices"):
            setattr(new, name, getattr(self, name))
        for name in ("_card_slot", "_tile_slot", "_T", "_modules"):
            setattr(new, name, getattr(self, name))
        new._bufs = [None] * self.n
        new._seen = [{} for _ in range(self.n)]
        new._game = None
        new._shared = _Shared(self.n, self._office_type)
        return new

    def observe(self, game: Game, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` in ``game`` (see the class docstring); equal to
        ``encoder.encode(game.view(seat))``. Raises :class:`~alhambra.env.codec.WindowError` only for an Alhambra
        no game reaches (more cell slots than any legal game gives)."""
        if not self.fast:
            return self.encoder.encode(game.view(seat))
        if game is not self._game:
            self._game = game
            self._bufs = [None] * self.n
            self._seen = [{} for _ in range(self.n)]
            self._shared = _Shared(self.n, self._office_type)
        buf = self._bufs[seat]
        if buf is None:
            buf = self._bufs[seat] = np.zeros(self.encoder.size, dtype=np.float32)
        # every source is compared on every call (no shortcut on the history's length): a
        # state edited by hand, with or without ``game.invalidate()``, is observed as it is now
        try:
            self._write(game, seat, buf, self._seen[seat])
        except BaseException:
            self._game = None  # half written: start again on the next call
            raise
        return buf

    def _write(self, game: Game, s: int, buf: np.ndarray, seen: dict[Any, Any]) -> None:
        """Bring ``buf``, the vector of seat ``s``, up to date with ``game`` (``seen``: what
        it was written from)."""
        enc = self.encoder
        o = self._o
        n = self.n
        st = game.state
        players = st.players
        mv = seen.get("mv")
        if mv is None:  # first write of this seat for this game: everything from scratch
            mv = seen["mv"] = memoryview(buf)  # type: ignore[arg-type]  # scalar writes through a memoryview are cheapest
            seen["reserve"] = [None] * n
            seen["city"] = [None] * n
            seen["scores"] = seen["hand_sizes"] = (0,) * n
        cur = None if st.phase == "over" else st.decider
        if cur != s and st.phase == "vizier":
            cur = None  # the vizier's view hides whom its asking round asks (R-VIZ-5)
        key: Any = (st.phase, cur, st.turn_player, st.start_player)
        if seen.get("flags") != key:
            for i in seen.get("flags_at", ()):
                mv[i] = 0.0
            at = [
                o["phase"] + enc.phases.index(st.phase),
                o["turn_player"] + (st.turn_player - s) % n,
                o["start_player"] + (st.start_player - s) % n,
            ]
            if cur is not None:
                at.append(o["current_player"] + (cur - s) % n)
            for i in at:
                mv[i] = 1.0
            seen["flags"] = key
            seen["flags_at"] = at
        for name, key in (("scores", [p.score for p in players]), ("hand_sizes", [len(p.hand) for p in players])):
            old = seen[name]
            if old != key:
                base = o[name]
                for p in range(n):
                    if old[p] != key[p]:
                        mv[base + (p - s) % n] = float(key[p])
                seen[name] = key
        slot = self._card_slot
        for name, cards in (("hand", players[s].hand), ("display", st.display), ("discard", st.discard)):
            old = seen.get(name)
            if old is not None and old[0] == cards:
                continue
            base = o[name]
            was: list[Any] = [] if old is None else old[0]
            before: dict[int, int] = {} if old is None else old[1]
            m = len(was)
            if m and len(cards) >= m and cards[:m] == was:  # cards added on top (the discard pile)
                tally = before.copy()
                for c in cards[m:]:
                    k = slot[c]
                    tally[k] = v = tally.get(k, 0) + 1
                    mv[base + k] = float(v)
            else:
                tally = {}
                for c in cards:
                    k = slot[c]
                    tally[k] = tally.get(k, 0) + 1
                for k in before:
                    if k not in tally:
                        mv[base + k] = 0.0
                for k, v in tally.items():
                    if before.get(k) != v:
                        mv[base + k] = float(v)
            seen[name] = (cards.copy(), tally)
        key = (len(st.deck), len(st.bag))
        if seen.get("sizes") != key:
            mv[o["deck_size"]] = float(key[0])
            mv[o["bag_size"]] = float(key[1])
            seen["sizes"] = key
        key = (tuple(st.scoring_cards), tuple([rec.number for rec in st.scorings]))
        if seen.get("scoring") != key:
            a, b = o["scoring_cards_drawn"], o["scorings_done"]
            buf[a : b + 3] = 0  # scoring_cards_drawn and scorings_done lie side by side
            for c in key[0]:
                mv[a + enc.scoring_cards.index(c.code)] = 1.0
            for number in key[1]:
                mv[b + number - 1] = 1.0
            seen["scoring"] = key
        ti = self._tile_slot
        T = self._T
        market = st.market
        if seen.get("market") != market:
            a, p = o["market_tiles"], o["market_prices"]
            buf[a : p + 4] = 0  # market_tiles and market_prices lie side by side
            price = game.rules.purchase.market_price  # the purchase rule's (alhambra_purchase_rule)
            for k, t in enumerate(market):
                if t is not None:
                    mv[a + k * T + ti[t]] = 1.0
                    mv[p + k] = float(price(game, k + 1) or 0)
            seen["market"] = market.copy()
        pending = st.pending
        if seen.get("pending") != pending:
            a = o["pending"]
            for t in seen.get("pending_tiles", ()):
                mv[a + ti[t]] = 0.0
            tiles = [q.tile for q in pending]
            for t in tiles:
                mv[a + ti[t]] = 1.0
            seen["pending"] = pending.copy()  # Pending records are replaced, never changed
            seen["pending_tiles"] = tiles
        shared = self._shared
        reserves, cities = seen["reserve"], seen["city"]
        city_size = self._city_size
        for p, player in enumerate(players):
            k = (p - s) % n
            reserve = player.reserve
            old = reserves[p]
            if old != reserve:
                a = o["reserves"] + k * T
                for t in old or ():
                    mv[a + ti[t]] = 0.0
                for t in reserve:
                    mv[a + ti[t]] = 1.0
                reserves[p] = reserve.copy()
            memo = player.city.memo
            if cities[p] is memo:
                continue
            a = o["cities"] + k * city_size
            buf[a : a + city_size] = enc.city_block(player.city).ravel()
            cities[p] = memo
        if self._modules:
            order = [(s + k) % n for k in range(n)]
            for key, snap, write, parts in self._modules:
                now = snap(game, s, shared)
                if seen.get(key, self) != now:
                    out = {}
                    for name, sl, shape in parts:
                        buf[sl] = 0
                        out[name] = buf[sl].reshape(shape)
                    write(out, game, s, order, enc, shared)
                    seen[key] = now
