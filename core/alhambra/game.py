"""The game: a thin loop over the state, the rule set's action kinds and its hooks.

:class:`Game` is what users hold: ``legal_actions()``, ``apply(action)``, ``clone()``,
``view(seat)``, ``to_json()``. It also offers the few engine operations plugins call from their
hook implementations and action kinds (``action_done``, ``begin_placement``, ``refill_market``,
``end_game``, ``resume``, ``payments``), so modules never touch the turn sequence directly.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Sequence

from .actions import Action, Pass
from .components import MoneyCard, ScoringCard
from .errors import ConfigError, IllegalActionError
from .rules import purchase
from .ruleset import Ruleset, get_ruleset
from .state import GameState, Pending, PlayerState
from .city import Alhambra

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def _is_scoring_card(card) -> bool:
    return type(card) is ScoringCard


def new_game(
    players: int | Sequence[str],
    *,
    modules: Iterable = (),
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    plugins: Iterable = (),
    blocked: Iterable[str] = (),
) -> "Game":
    """Create and set up a game (R-SET-1 … R-SET-7).

    ``players``: the number of players (2-6, named "Player 1" …) or their names.
    ``modules``: names of expansion modules to enable (entry points of ``alhambra.modules``,
    e.g. ``["vizier", "bonus_cards"]``) or module objects; nothing is enabled implicitly.
    ``seed``: integer seed of the game's own random generator, the only source of chance;
    ``None`` picks one (readable as ``game.seed``). ``options``: option values (``holes``,
    ``tiebreak``, ``start_player``, ``"<module>.<option>"``). ``plugins``/``blocked``: house
    rules registered on top, and built-in plugins to block (see :class:`Ruleset`).

    Raises :class:`ConfigError` for a bad player count, unknown module or option, bad seed.
    """
    if isinstance(players, bool):
        raise ConfigError("players must be a number of players or a list of names")
    if isinstance(players, int):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ConfigError(f"Alhambra is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (R-COMP-1)")
        names = [f"Player {i + 1}" for i in range(players)]
    elif isinstance(players, (list, tuple)) and all(isinstance(n, str) for n in players):
        names = list(players)
    else:
        raise ConfigError(f"players must be a number of players or a list of names, not {players!r}")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ConfigError(f"Alhambra is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)} (R-COMP-1)")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"seed must be an integer, not {seed!r}")
    rules = get_ruleset(modules, options, plugins=plugins, blocked=blocked)
    game = Game._blank(rules, names, seed)
    rules.hook.alhambra_setup(game=game)
    game._start_turn(game.state.start_player)
    return game


class Game:
    """A game of Alhambra in progress (OpenSpiel-style state object).

    Reading: ``current_player`` (seat to decide, ``None`` when over), ``phase``,
    ``legal_actions()``, ``is_over``, ``scores``, ``winners``, ``returns()``, ``view(seat)``,
    ``history``, ``state`` (the full :class:`~alhambra.state.GameState`, secrets included).
    Changing: ``apply(action)``. Copying and saving: ``clone()``, ``to_json()``,
    ``Game.from_json(text)``. Build games with :func:`new_game`.
    """

    __slots__ = ("rules", "state", "rng", "seed", "names", "history", "_legal", "_legal_set", "_purchases",
                 "memo", "_settled")
    # _legal: cached legal actions; _legal_set: the same as {action: action} for lookups;
    # _purchases: the purchase rules' derived values (alhambra.rules.purchase.PurchaseMemo);
    # _settled: during determinize only, the deck positions already resampled (resample_in_piles)

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def _blank(cls, rules: Ruleset, names: list[str], seed: int) -> "Game":
        g = cls.__new__(cls)
        g.rules = rules
        g.seed = seed
        g.names = tuple(names)
        g.rng = random.Random(seed)
        holes = rules.options.get("holes", "cell")
        g.state = GameState(
            players=[PlayerState(n, [], Alhambra(rules.catalog, holes)) for n in names],
            bag=[], market=[None] * 4, deck=[], discard=[], display=[],
            start_player=0, turn_player=0, decider=0,
        )
        g.history = []
        g._legal = None
        g._legal_set = None
        g._purchases = purchase.PurchaseMemo.fresh(len(names))
        #: Scratch dict for rule plugins: values derived from the state that they keep with
        #: what they were derived from (checked on use). A clone starts with a copy.
        g.memo = {}
        g._settled = None
        return g

    def clone(self, *, seed: int | None = None) -> "Game":
        """An independent copy of this game: state, random generator and history.

        With ``seed``, the copy's generator is freshly seeded instead of copied (cheaper; for
        search, where chance after the copy is sampled anew anyway)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.names = self.names
        if seed is None:
            g.rng = random.Random.__new__(random.Random)
            g.rng.setstate(self.rng.getstate())
        else:
            g.rng = random.Random(seed)
        g.state = self.state.clone()
        g.history = self.history.copy()
        g._legal = self._legal
        g._legal_set = self._legal_set
        g._purchases = self._purchases.clone()
        g.memo = self.memo.copy()
        g._settled = None
        return g

    # -- reading --------------------------------------------------------------------------------

    @property
    def hook(self):
        """The rule set's pluggy hook relay (``game.hook.alhambra_…(game=game, …)``)."""
        return self.rules.hook

    @property
    def options(self) -> dict[str, Any]:
        """The resolved option values of this game."""
        return self.rules.options

    @property
    def modules(self) -> tuple[str, ...]:
        """Names of the enabled modules."""
        return self.rules.modules

    @property
    def num_players(self) -> int:
        return len(self.state.players)

    @property
    def config(self) -> dict[str, Any]:
        """What :func:`new_game` needs to rebuild this game: players, modules, seed, options,
        and the names of blocked built-in plugins and of extra (house-rule) plugins."""
        from .ruleset import plugin_name

        return {"players": list(self.names), "modules": list(self.modules), "seed": self.seed,
                "options": dict(self.options), "blocked": list(self.rules.blocked),
                "plugins": [plugin_name(p) for p in self.rules.plugins]}

    @property
    def current_player(self) -> int | None:
        """Seat index of the player who must decide now, or ``None`` when the game is over."""
        return None if self.state.phase == "over" else self.state.decider

    @property
    def phase(self) -> str:
        """``"turn"``, ``"place"``, a module's phase, or ``"over"``."""
        return self.state.phase

    @property
    def is_over(self) -> bool:
        """True once the final scoring is done (R-END-3)."""
        return self.state.phase == "over"

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per seat so far (R-SCORE-6: they never decrease)."""
        return tuple(p.score for p in self.state.players)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won (several on a shared victory, R-END-4); empty while the game runs."""
        if not self.is_over:
            return ()
        return tuple(self.hook.alhambra_winners(game=self))

    def returns(self) -> tuple[float, ...]:
        """Per seat: the share of the victory (1.0 alone, 1/k in a k-way tie, 0.0 otherwise);
        all zeros while the game runs."""
        w = self.winners
        return tuple((1.0 / len(w)) if s in w else 0.0 for s in range(self.num_players))

    def player(self, seat: int) -> PlayerState:
        """The state of ``seat`` (hand included); :class:`ConfigError` for a seat that is not
        0 … players-1."""
        self._check_seat(seat)
        return self.state.players[seat]

    def _check_seat(self, seat) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.state.players):
            raise ConfigError(f"seat must be an int 0..{len(self.state.players) - 1}, not {seat!r}")

    def invalidate(self) -> None:
        """Forget cached legal actions and every value plugins keep in ``game.memo``. Call it
        after editing ``game.state`` by hand (tests, analysis tools), and in a plugin's own
        action after changing state that is not its own other than through the engine's
        operations (a hut moved out of its stack, a tile taken from a reserve): other plugins
        keep values derived from their state in ``game.memo``. ``apply`` keeps the caches right
        by itself."""
        self._legal = None
        self._legal_set = None
        self._purchases = purchase.PurchaseMemo.fresh(len(self.state.players))
        self.memo = {}

    # -- actions --------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to decide now (``current_player``).

        Purchases are listed with every non-dominated payment (no card can be dropped while
        still covering the price); :meth:`apply` also accepts any other legal payment,
        overpaying included. Empty when the game is over. If nothing else is legal on a turn,
        the list is ``[Pass()]`` (R-TURN-9)."""
        if self._legal is None:
            st = self.state
            if st.phase == "over":
                self._legal = []
            else:
                seat = st.decider
                out: list[Action] = []
                for legal in self.rules.phase_legal.get(st.phase, ()):
                    out += legal(self, seat)
                if not out:
                    out = [Pass()]
                self._legal = out
        return list(self._legal)

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the player to decide now.

        Raises :class:`IllegalActionError` (citing the rule) for an action that is not legal
        now; the game is then exactly as it was."""
        st = self.state
        if st.phase == "over":
            raise IllegalActionError("the game is over (R-END-3): no more actions")
        legal = self._legal
        if legal is None:
            self.legal_actions()
            legal = self._legal
        for a in legal:
            if a is action:  # the engine's own instance, listed just now: nothing to check
                kind = self.rules.kinds.get(type(action))
                break
        else:
            action, kind = self._check_unlisted(action)
        if kind is None:  # Pass (R-TURN-9)
            if self._passes_in_a_row() + 1 >= len(self.state.players):
                self.end_game()  # R-END-1 ruling: a whole round of turns could only pass, so the game ends
            else:
                self.action_done()
        else:
            kind.apply(self, st.decider, action)
        self.history.append(action)
        self._legal = None
        self._legal_set = None

    def _passes_in_a_row(self) -> int:
        """How many of the last actions were passes (R-TURN-9), each a whole turn: when every
        player in a row of turns could only pass, the game ends after that round (R-END-1)."""
        k = 0
        for a in reversed(self.history):
            if type(a) is not Pass:
                break
            k += 1
        return k

    def _check_unlisted(self, action):
        """For :meth:`apply`: an action that is not one of the listed instances. Returns the
        listed instance equal to it (or ``action`` itself when a plugin's check accepts it,
        e.g. an overpayment) and its kind (None for Pass); raises
        :class:`IllegalActionError` with the reason otherwise."""
        st = self.state
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r} is not an action")
        kind = self.rules.kinds.get(type(action))
        if isinstance(action, Pass):
            kind = None
        elif kind is None:
            raise IllegalActionError(f"{type(action).__name__} is not an action of this game's rules (modules: {list(self.modules)})")
        if kind is not None and st.phase not in kind.phases:
            raise IllegalActionError(f"{action} cannot be played in phase {st.phase!r}")
        if self._legal_set is None:
            self._legal_set = {a: a for a in self._legal}
        try:
            found = self._legal_set.get(action)
        except TypeError:  # a field holds something unhashable: certainly not listed
            found = None
        if found is not None:
            # play the engine's own instance: an equal action may hold look-alike values
            # (2.0 for 2, True for 1) that must never reach the state
            return found, kind
        if kind is None:
            raise IllegalActionError("R-TURN-9: a player may pass only when no other action is possible")
        if kind.check is None:
            raise IllegalActionError(f"{action!r} is not legal now")
        try:
            kind.check(self, st.decider, action)  # raises with the reason, or accepts (e.g. overpaying)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            if isinstance(exc, IllegalActionError):
                raise
            raise IllegalActionError(f"malformed action {action!r}: {exc}") from None
        if not kind.unlisted:  # every legal action of this kind is listed, and this one is not
            raise IllegalActionError(f"{action!r} is not legal now")
        return action, kind

    # -- engine operations for plugins ----------------------------------------------------------

    def action_done(self, extra: bool = False) -> None:
        """The turn player's action is complete. With ``extra`` (an exact payment, R-TURN-4) they
        act again; otherwise the turn's actions are over: bought tiles are placed (R-TURN-7),
        then the turn ends (R-TURN-8)."""
        if extra:
            return
        st = self.state
        if st.pending:
            self.begin_placement(st.turn_player, "turn")
        else:
            self._finish_turn()

    def begin_placement(self, seat: int, context: str, tiles: Iterable = (), *, dirk_ok: bool = False) -> None:
        """Let ``seat`` place pending tiles (plus ``tiles``, added now) one action at a time.

        ``context`` says what follows once all are placed: ``"turn"`` ends the turn,
        ``"distribution"`` goes on with the end of the game, anything else is handed to the
        ``alhambra_placement_done`` hook (a module's own context)."""
        st = self.state
        st.pending.extend(Pending(t, dirk_ok) for t in tiles)
        st.phase = "place"
        st.decider = seat
        st.place_context = context
        if not st.pending:
            self.placement_finished()

    def add_pending(self, tile, *, dirk_ok: bool = False) -> None:
        """Set ``tile`` aside for placement at the end of the current turn (R-TURN-3, R-HUT-3)."""
        self.state.pending.append(Pending(tile, dirk_ok))

    def placement_finished(self) -> None:
        """Called by placement actions when no tile is pending any more."""
        st = self.state
        ctx, seat = st.place_context, st.decider
        st.place_context = ""
        if ctx == "turn":
            self._finish_turn()
        elif ctx == "distribution":
            self._next_distribution()
        elif not self.hook.alhambra_placement_done(game=self, seat=seat, context=ctx):
            raise RuntimeError(f"no plugin continues after placement context {ctx!r}")

    def city_changed(self, seat: int) -> None:
        """Tell plugins that ``seat``'s Alhambra changed (``alhambra_city_changed``)."""
        if self.rules.has_city_changed:
            self.rules.fast.alhambra_city_changed(game=self, seat=seat)

    def refill_market(self) -> bool:
        """Fill empty market spaces from the bag, lowest-numbered first (R-TURN-8). Returns
        False if the bag ran out before every space was filled (R-END-1)."""
        st = self.state
        market, bag = st.market, st.bag
        if None not in market:
            return True
        for i in range(4):
            if market[i] is None:
                if not bag:
                    return False
                market[i] = bag.pop()
        return True

    def draw_money(self):
        """Draw the top card of the money deck, reshuffling the discard pile into a new deck
        when the deck is empty (R-TURN-8). Returns ``None`` if both are empty.

        The reshuffled deck is one shuffled pile: the setup piles of R-SET-6 are gone, so
        ``state.pile_sizes`` becomes ``[len(deck)]`` (every card of it may lie anywhere)."""
        st = self.state
        if not st.deck:
            if not st.discard:
                return None
            st.deck = st.discard
            st.discard = []
            self.rng.shuffle(st.deck)
            st.pile_sizes = [len(st.deck)]
        return st.deck.pop()

    # -- the piles of the money deck (R-SET-6) --------------------------------------------------

    def _pile_bounds(self) -> list[tuple[int, int]] | None:
        """``[(lo, hi), ...]`` per recorded pile, top pile first: the deck indices it was
        stacked on (``hi`` may exceed the deck's length once cards are drawn). ``None`` when
        there is no usable record: none kept, or a deck longer than the record (edited by
        hand)."""
        st = self.state
        sizes = st.pile_sizes
        if not sizes:
            return None
        hi = sum(sizes)
        if hi < len(st.deck):
            return None
        out = []
        for size in sizes:
            out.append((hi - size, hi))
            hi -= size
        return out

    def _check_deck_index(self, index: int) -> None:
        n = len(self.state.deck)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
            raise IndexError(f"deck position must be 0..{n - 1} (0 is the bottom card), not {index!r}")

    def pile_of(self, index: int) -> int | None:
        """The number of the pile (1 = the top pile) that deck position ``index`` was stacked
        in: after setup one of the five piles of R-SET-6, after a reshuffle of the discard
        pile always 1 (the new deck is one pile, R-TURN-8); ``None`` without a pile record
        (see :meth:`pile_range`).

        ``index`` is an index into ``state.deck`` (0 the bottom card, ``len - 1`` the top, the
        next one drawn). Raises :class:`IndexError` for any other value."""
        self._check_deck_index(index)
        bounds = self._pile_bounds()
        if bounds is None:
            return None
        for number, (lo, hi) in enumerate(bounds, 1):
            if lo <= index < hi:
                return number
        raise AssertionError("unreachable: the piles cover the deck")  # pragma: no cover

    def pile_range(self, index: int) -> range:
        """The deck positions among which the card at deck position ``index`` may lie, as far
        as any player knows: the still-undrawn part of its pile, ``range(lo, hi)`` of indices
        into ``state.deck`` (0 the bottom card; cards are drawn from the top, so the range of
        the top pile shrinks as the game goes on, the others stay whole until reached).

        * After setup: the pile of R-SET-6 that holds the position (scoring card A always
          lies in pile 2's range, B in pile 4's, exchange offices in those of piles 2-4,
          R-EXC-1).
        * After the discard pile has been reshuffled into a new deck (R-TURN-8): the whole
          deck, ``range(len(deck))``: there are no piles any more.
        * Without a pile record (a save from before the record existed, or a deck edited by
          hand so that it is longer than the record): ``range(index, index + 1)``, the
          position alone, so that nothing is moved on unknown grounds.

        Raises :class:`IndexError` unless ``0 <= index < len(state.deck)``. Modules use it
        (or :meth:`resample_in_piles`) to resample their own deck cards in
        ``alhambra_determinize``."""
        self._check_deck_index(index)
        bounds = self._pile_bounds()
        if bounds is None:
            return range(index, index + 1)
        n = len(self.state.deck)
        for lo, hi in bounds:
            if lo <= index < hi:
                return range(lo, min(hi, n))
        raise AssertionError("unreachable: the piles cover the deck")  # pragma: no cover

    def resample_in_piles(self, which: Callable[[Any], bool], rng: random.Random) -> list[int]:
        """Move every deck card for which ``which(card)`` is true to a uniformly random
        position within its :meth:`pile_range` (R-SET-6, R-EXC-1): per pile, the chosen cards
        take a uniformly random set of positions, in random order; the cards they displace
        (money, or another plugin's card not yet resampled) take the positions they left.
        Returns the new positions (indices into ``state.deck``).

        For ``alhambra_determinize`` implementations, whose game is the clone being
        determinized: the positions chosen are remembered until that determinization ends,
        and later calls never choose them (and so never displace a card already resampled).
        This makes the result exact whatever the order of the plugins: each group's positions
        are chosen knowing only the groups resampled before it, never the true positions of
        the cards still to come. ``Game.determinize`` resamples the scoring cards this way
        before asking the plugins. Resample each card once per determinization. Outside a
        determinization nothing is remembered.

        ``which`` must select cards, not money (money cards are redealt by ``determinize``)."""
        deck = self.state.deck
        hits = [k for k, card in enumerate(deck) if which(card)]
        if not hits:
            return []
        settled = self._settled if self._settled is not None else set()
        groups: dict[tuple[int, int], list[int]] = {}
        for k in hits:
            r = self.pile_range(k)
            groups.setdefault((r.start, r.stop), []).append(k)
        moved: list[int] = []
        for (lo, hi), old in groups.items():
            old_set = set(old)
            free = [j for j in range(lo, hi) if j not in settled or j in old_set]
            new = rng.sample(free, len(old))  # random positions in random order
            mine = [deck[k] for k in old]
            new_set = set(new)
            vacated = [k for k in old if k not in new_set]
            displaced = [deck[j] for j in new if j not in old_set]
            for k, card in zip(vacated, displaced):
                deck[k] = card
            for j, card in zip(new, mine):
                deck[j] = card
            settled.update(new)
            moved.extend(new)
        return moved

    def refill_display(self) -> None:
        """Refill the money display to 4 cards (R-TURN-8). A drawn scoring card is set aside,
        its scoring is scheduled for the end of the turn, and a replacement drawn (R-SCORE-1)."""
        st = self.state
        while len(st.display) < 4:
            card = self.draw_money()
            if card is None:
                return  # deck and discard empty: the display stays short (ruling, R-TURN-8)
            if type(card) is ScoringCard:
                st.scoring_cards.append(card)
                st.pending_scorings.append(card.number)
            else:
                st.display.append(card)

    def run_scoring(self, number: int) -> None:
        """Carry out scoring ``number`` and add its totals to the scores (R-SCORE-1 … -6)."""
        st = self.state
        record = self.hook.alhambra_scoring(game=self, number=number)
        n = self.num_players
        for who, pts in zip(record.participants, record.totals):
            if who < n:
                st.players[who].score += pts
        st.scorings.append(record)
        self.hook.alhambra_after_scoring(game=self, number=number)

    def resume(self) -> None:
        """Go on after a between-turn interrupt: ask the plugins again, then start the next
        player's turn (R-VIZ-3: play goes on with the player who would have played next)."""
        self._between_turns()

    def end_game(self) -> None:
        """End the game (R-END-1): distribute the market (R-END-2), let the recipients place
        (R-END-3), then the final scoring."""
        st = self.state
        st.phase = "distribution"
        st.pending_scorings.clear()
        st.distribution = [[seat, list(tiles)] for seat, tiles in (self.hook.alhambra_distribution(game=self) or [])]
        self._next_distribution()

    # -- purchases: the functions of the built-in plugin core.purchase (R-TURN-3, R-TURN-4,
    # R-VIZ-2, R-EXC-4), offered as methods; see alhambra.rules.purchase for their docs
    purchases = purchase.purchases
    cached_purchases = purchase.cached_purchases
    payments = purchase.payments
    payment_cards = purchase.payment_cards
    check_payment = purchase.check_payment
    pay = purchase.pay
    can_pay_exactly = purchase.can_pay_exactly
    first_exact_payer = purchase.first_exact_payer
    market_price = purchase.market_price

    # -- the turn sequence ----------------------------------------------------------------------

    def _start_turn(self, seat: int) -> None:
        st = self.state
        st.turn_player = seat
        st.decider = seat
        st.phase = "turn"
        if self.rules.has_turn_start:
            self.rules.fast.alhambra_turn_start(game=self, seat=seat)

    def _finish_turn(self) -> None:
        """End of turn (R-TURN-8): refill the market (or end the game, R-END-1), refill the money
        display, run the scorings whose card was drawn (R-SCORE-1), then between-turn
        interrupts, then the next player's turn."""
        if not self.refill_market():
            self.end_game()
            return
        self.refill_display()
        st = self.state
        while st.pending_scorings:
            self.run_scoring(st.pending_scorings.pop(0))
        self._between_turns()

    def _between_turns(self) -> None:
        st = self.state
        if self.rules.has_between_turns:
            seat = self.rules.fast.alhambra_between_turns(game=self, finished=st.turn_player)
            if seat is not None:
                st.decider = seat
                return
        if st.phase in ("over", "distribution"):
            return
        st.turn += 1
        self._start_turn((st.turn_player + 1) % self.num_players)

    def _next_distribution(self) -> None:
        st = self.state
        while st.distribution:
            seat, tiles = st.distribution.pop(0)
            if tiles:
                self.begin_placement(seat, "distribution", tiles)
                return
        self.run_scoring(3)
        st.phase = "over"
        st.decider = None
        self.hook.alhambra_game_over(game=self)

    # -- views, accounting, saving --------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may know, as plain data (``None``: a spectator).

        Contains the market, money display, discard pile (face up), sizes of bag and deck (not
        their order), every Alhambra and reserve, scores, scorings so far, each player's hand
        size, and only ``seat``'s own hand. Modules add their part under ``"modules"``."""
        from .views import build_view

        return build_view(self, seat)

    def determinize(self, seat: int, rng: random.Random | None = None) -> "Game":
        """A clone in which everything ``seat`` cannot see is resampled with ``rng``.

        * Other players' hands are redealt (same sizes) from the money cards of those hands
          and of the deck; the deck's money cards fill the deck positions left by the rest.
        * Scoring cards still in the deck are placed anew, each uniformly within the undrawn
          part of its setup pile (A in pile 2, B in pile 4, R-SET-6; see :meth:`pile_range`):
          which pile holds them is all a player knows, not where in it.
        * The bag is shuffled.
        * Plugins resample their own secrets (``alhambra_determinize``), module cards in the
          deck included (exchange offices within piles 2-4, R-EXC-1), through
          :meth:`resample_in_piles`.
        * The clone's own generator is reseeded from ``rng``.

        ``seat``'s view (:meth:`view`) is unchanged. Used by search bots to sample the hidden
        information (determinized Monte Carlo search). Raises :class:`ConfigError` if ``seat``
        is not a seat of this game."""
        self._check_seat(seat)
        if rng is not None and not isinstance(rng, random.Random):
            raise ConfigError(f"rng must be a random.Random, not {rng!r}")
        rng = rng if rng is not None else random.Random()
        g = self.clone(seed=rng.getrandbits(64))
        st = g.state
        others = [i for i in range(g.num_players) if i != seat]
        pool: list = []
        for i in others:
            pool.extend(c for c in st.players[i].hand if type(c) is MoneyCard)
        slots = [k for k, c in enumerate(st.deck) if type(c) is MoneyCard]
        pool.extend(st.deck[k] for k in slots)
        rng.shuffle(pool)
        for i in others:
            hand = st.players[i].hand
            for k, c in enumerate(hand):
                if type(c) is MoneyCard:
                    hand[k] = pool.pop()
        for k in slots:
            st.deck[k] = pool.pop()
        rng.shuffle(st.bag)
        g._settled = set()
        try:
            g.resample_in_piles(_is_scoring_card, rng)
            g.hook.alhambra_determinize(game=g, seat=seat, rng=rng)
        finally:
            g._settled = None
        g.invalidate()
        return g

    def tile_locations(self) -> dict[str, list]:
        """Every tile of the game by where it is, for accounting checks (all 54 buildings are
        always somewhere exactly once)."""
        st = self.state
        out: dict[str, list] = {
            "bag": list(st.bag),
            "market": [t for t in st.market if t is not None],
            "pending": [p.tile for p in st.pending],
            "out_of_play": list(st.out_of_play),
            "distribution": [t for _, tiles in st.distribution for t in tiles],
        }
        for i, p in enumerate(st.players):
            out[f"city:{i}"] = [t for t in p.city.tiles.values() if t != 0]
            out[f"reserve:{i}"] = list(p.reserve)
        for group in self.hook.alhambra_tile_locations(game=self):
            out.update(group)
        return out

    def card_locations(self) -> dict[str, list]:
        """Every card of the game by where it is (deck, display, discard, hands, scoring cards
        set aside, module places), for accounting checks."""
        st = self.state
        out: dict[str, list] = {
            "deck": list(st.deck),
            "display": list(st.display),
            "discard": list(st.discard),
            "scoring_cards": list(st.scoring_cards),
        }
        for i, p in enumerate(st.players):
            out[f"hand:{i}"] = list(p.hand)
        for group in self.hook.alhambra_card_locations(game=self):
            out.update(group)
        return out

    def to_json(self) -> str:
        """This game as JSON text: configuration, full state, random-generator state and
        history. :meth:`from_json` restores it so that it continues exactly as this one."""
        from .serialize import game_to_json

        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes, *, modules: Iterable = (), plugins: Iterable = ()) -> "Game":
        """Load a game saved with :meth:`to_json`. Nothing in the file is executed: modules are
        looked up by name among the installed ones (or in ``modules``, objects you pass); the
        built-ins the save blocked are blocked again; house-rule ``plugins`` the game was
        played with must be passed again (matched by name).
        Raises :class:`~alhambra.errors.SaveFormatError` for a malformed or inconsistent file,
        or when the plugins passed do not match the save's."""
        from .serialize import game_from_json

        return game_from_json(text, modules=modules, plugins=plugins)

    def position(self) -> dict[str, Any]:
        """This game's position as plain data (TOML- and JSON-writable), every part written
        out, the random generator's state included, so that :meth:`from_position` of it
        continues identically (see ``docs/positions.md``; ``alhambra.position``)."""
        from .position import game_position

        return game_position(self)

    @classmethod
    def from_position(cls, source: Any, *, modules: Iterable = (), plugins: Iterable = ()) -> "Game":
        """Build a game from a position: a dict, TOML or JSON text, or a ``pathlib.Path``;
        unspecified parts are filled in as a real game would have them. Raises
        :class:`ConfigError` naming the key and the problem for a position that is malformed
        or that no game can reach (see ``docs/positions.md``; ``alhambra.position``)."""
        from .position import game_from_position

        return game_from_position(source, modules=modules, plugins=plugins)

    def __repr__(self) -> str:
        return f"<Game {len(self.names)}p modules={list(self.modules)} turn={self.state.turn} phase={self.phase} scores={self.scores}>"
