"""Observations kept up to date from the game's state: the fast path of
:class:`~alhambra.env.session.Session`.

:meth:`ObservationEncoder.encode(game.view(seat)) <alhambra.env.observation.ObservationEncoder.encode>`
is the reference: it builds the seat's view (a nested dict) and writes every slice anew, about
60 us a state. :class:`SeatObservations` keeps one vector per seat instead and, when asked for
a seat's vector, rewrites only the slices whose source changed since that vector was last
written: a source is compared with a copy of what was written (hands, the money display, the
discard pile, reserves and the market are short lists), an Alhambra by its ``memo`` (replaced on
every change of the layout, :class:`alhambra.engine.city.Alhambra`), and a changed Alhambra is
rewritten as its block of cell slots (made once per layout and kept in its ``memo``). It reads
exactly what ``view(seat)`` shows (the seat's own hand, never another's nor the bag or the deck
order: the core reads other hands for their sizes only, a module's snapshot what its view
entry shows), and a property test checks that it equals the reference at every step of random
games of every module combination for every seat.

A plugin's part (:class:`alhambra.ObservationPart`, hook ``alhambra_observation_parts``) is
kept up to date as the plugin declares it: its ``snapshot`` of the state is compared with the
one last written for the seat, and its ``write`` rewrites the part's slices when it differs.
A rule set is observed through the reference encoder instead (correct, only slower) when a
plugin that adds to the view (``alhambra_view``) does not declare its parts, or a part has no
``snapshot`` (a :class:`~alhambra.env.observation.ViewEncoder` registered for its key, say).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.sequence import decider_hidden
from .observation import SLOT_FEATURES, ObservationEncoder

if TYPE_CHECKING:  # pragma: no cover
    from alhambra import Game

__all__ = ["SeatObservations", "fast_path_covers"]

#: a part as the fast path runs it: (snapshot, write, [(slice name, slice, shape), ...])
_Part = tuple[
    Callable[[Any, int, Any, dict[Any, Any]], Any],
    Callable[[dict[str, np.ndarray], Any, Sequence[int], Any], None],
    list[tuple[str, slice, tuple[int, ...]]],
]


def fast_path_covers(encoder: ObservationEncoder, game: Game) -> bool:
    """True if :class:`SeatObservations` can observe games of ``game``'s rule set without
    ``view(seat)``: every plugin implementing ``alhambra_view`` declares its observation parts
    (``alhambra_observation_parts``) and every part of the layout is kept up to date from the
    state (``ObservationPart.incremental``)."""
    hook = game.rules.hook
    declared = {id(impl.plugin) for impl in hook.alhambra_observation_parts.get_hookimpls()}
    if any(id(impl.plugin) not in declared for impl in hook.alhambra_view.get_hookimpls()):
        return False
    return all(part.incremental for _key, part, _names in encoder.modules)


class SeatObservations:
    """One observation vector per seat of a session's games, kept up to date from the game's
    state (see the module docstring).

    ``encoder``: the rule set's layout. :meth:`observe` returns the seat's vector *itself*
    (``float32``, shape ``(encoder.size,)``, the ``extra`` slices zero): copy it before handing
    it out, it is rewritten by the next call for that seat. Every call compares each source
    with what was written from it, so a game's state may change in any way between calls
    (``apply``, or edits by hand with or without ``alhambra.operations.invalidate(game)``): an Alhambra is compared
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
        o = encoder._start
        self._o = o
        self._city_size = encoder.slots * len(SLOT_FEATURES)
        self._prices: tuple[dict[Any, Any], ...] = game.rules.space_prices
        # cards and tiles by object (a card's code is a property: slower to read)
        self._card_slot = {c: encoder.card_index[c.code] for c in encoder.cards}
        self._tile_slot = encoder.tile_index
        self._T = len(encoder.tiles)
        self._modules: list[_Part] = [
            (
                part.snapshot,
                part.write,
                [(name, encoder.slices[full], encoder.shapes[full]) for name, full in names.items()],
            )
            for _key, part, names in encoder.modules
            if part.snapshot is not None and part.write is not None
        ]
        # per part: its cache for the game observed now (``ObservationPart.snapshot``)
        self._caches: list[dict[Any, Any]] = [{} for _ in self._modules]

    def forget(self) -> None:
        """Drop what was written (the next :meth:`observe` of each seat rewrites it all)."""
        self._game = None

    def fresh(self) -> SeatObservations:
        """A new, empty one for the same rule set (cheap: the layout's tables are shared; for
        a copied session, as a search copies many)."""
        new = SeatObservations.__new__(SeatObservations)
        for name in ("encoder", "fast", "n", "_o", "_city_size", "_prices"):
            setattr(new, name, getattr(self, name))
        for name in ("_card_slot", "_tile_slot", "_T", "_modules"):
            setattr(new, name, getattr(self, name))
        new._bufs = [None] * self.n
        new._seen = [{} for _ in range(self.n)]
        new._game = None
        new._caches = [{} for _ in self._modules]
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
            self._caches = [{} for _ in self._modules]
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
        if cur != s and decider_hidden(game, st.phase):
            cur = None  # a phase's view hides who decides (the vizier's asking round, R-VIZ-5)
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
            written = seen.get("parts")
            if written is None:
                written = seen["parts"] = [self] * len(self._modules)  # self: never a snapshot's value
            for i, (snap, write, parts) in enumerate(self._modules):
                now = snap(game, s, enc, self._caches[i])
                if written[i] != now:
                    out = {}
                    for name, sl, shape in parts:
                        buf[sl] = 0
                        out[name] = buf[sl].reshape(shape)
                    write(out, now, order, enc)
                    written[i] = now
