"""The game users hold: :class:`Game`, the public state object, and :func:`new_game`.

Reading, ``legal_actions()``, ``apply(action)``, ``clone()``, ``view(seat)``,
``determinize(seat, rng)`` and saving; everything else is delegated: the turn sequence to
:mod:`alhambra.engine.sequence`, the operations plugins call to :mod:`alhambra.operations`,
the rules to the plugins of the rule set (the purchase methods ask the rule set's purchase
rule, ``game.rules.purchase``)."""

from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from .engine import accounting, sequence
from .engine.acting import match_unlisted
from .engine.actions import Action, Buy, Pass
from .engine.determinize import determinize
from .engine.ruleset import Ruleset, get_ruleset, plugin_name
from .engine.sequence import ACTION_DONE, END_GAME, PLACE, Next, advance
from .engine.state import MAX_PLAYERS as MAX_PLAYERS, MIN_PLAYERS as MIN_PLAYERS  # the limits: re-exported
from .engine.state import GameState, PlayerState, game_seed, player_names
from .engine.views import build_view
from .errors import ConfigError, IllegalActionError
from .rules import purchase  # noqa: F401  (the built-in rule set's plugins, imported with the Game)
from .saving.position import game_from_position, game_position
from .saving.serialize import game_from_json, game_to_json


def new_game(
    players: int | Sequence[str],
    *,
    modules: Iterable[Any] = (),
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    plugins: Iterable[Any] = (),
    blocked: Iterable[str] = (),
) -> Game:
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
    names, seed = player_names(players), game_seed(seed)
    game = Game._blank(get_ruleset(modules, options, plugins=plugins, blocked=blocked), names, seed)
    rules = game.rules
    rules.hook.alhambra_setup(game=game)
    sequence.start_turn(game, game.state.start_player)
    return game


class Game:
    """A game of Alhambra in progress (OpenSpiel-style state object).

    Reading: ``current_player`` (seat to decide, ``None`` when over), ``phase``,
    ``legal_actions()``, ``is_over``, ``scores``, ``winners``, ``returns()``, ``view(seat)``,
    ``history``, ``state`` (the full :class:`~alhambra.state.GameState`, secrets included).
    Changing: ``apply(action)``. Copying and saving: ``clone()``, ``to_json()``,
    ``Game.from_json(text)``. Build games with :func:`new_game`.
    """

    __slots__ = (
        "rules",
        "state",
        "rng",
        "seed",
        "names",
        "history",
        "origin",
        "_legal",
        "_legal_set",
        "_purchases",
        "memo",
        "changes",
        "_settled",
    )
    # _legal(_set): the legal actions (as {action: action}); _purchases: core.purchase's values;
    # _settled: during determinize only, the deck positions already resampled (resample_in_piles)

    rules: Ruleset
    state: GameState
    rng: random.Random
    seed: int
    names: tuple[str, ...]
    history: list[Action]
    #: Where ``history`` starts: ``None`` for the set-up of the seed (:func:`new_game`), else
    #: the position (as :meth:`position` writes it) the game was built from
    #: (:meth:`from_position`); saved as the save's ``start_position``.
    origin: dict[str, Any] | None
    _legal: list[Action] | None
    _legal_set: dict[Action, Action] | None
    _purchases: purchase.PurchaseMemo
    memo: dict[Any, Any]
    changes: dict[str, int]
    _settled: set[int] | None

    @classmethod
    def _blank(cls, rules: Ruleset, names: list[str], seed: int) -> "Game":
        g = cls.__new__(cls)
        g.rules = rules
        g.seed = seed
        g.names = tuple(names)
        g.rng = random.Random(seed)
        g.state = GameState.empty(names, rules.catalog, rules.options.get("holes", "cell"), rules.placement_rules)
        g.history = []
        g.origin = None
        g._legal = None
        g._legal_set = None
        g._purchases = purchase.PurchaseMemo.fresh(len(names))
        #: Scratch dict for rule plugins: values derived from the state that they keep with
        #: what they were derived from (checked on use). A clone starts with a copy.
        g.memo = {}
        #: Change counters of the modules' states, by state key (absent: 0), bumped by
        #: ``operations.edit_module`` and by :meth:`invalidate`; caches of values derived from a
        #: module's state keep the counter they were made at. A clone starts with a copy.
        g.changes = {}
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
        g.rng = random.Random(seed) if seed is not None else random.Random.__new__(random.Random)
        if seed is None:
            g.rng.setstate(self.rng.getstate())
        g.state = self.state.clone()
        g.history = self.history.copy()
        g.origin = self.origin
        g._legal = self._legal
        g._legal_set = self._legal_set
        g._purchases = self._purchases.clone()
        g.memo = self.memo.copy()
        g.changes = self.changes.copy()
        g._settled = None
        return g

    # -- reading --------------------------------------------------------------------------------

    @property
    def hook(self) -> Any:
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
        return {
            "players": list(self.names),
            "modules": list(self.modules),
            "seed": self.seed,
            "options": dict(self.options),
            "blocked": list(self.rules.blocked),
            "plugins": [plugin_name(p) for p in self.rules.plugins],
        }

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

    def _check_seat(self, seat: Any) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.state.players):
            raise ConfigError(f"seat must be an int 0..{len(self.state.players) - 1}, not {seat!r}")

    def invalidate(self) -> None:
        """Forget cached legal actions, the purchases' values and ``game.memo``, and bump the
        change counter of every module's state: after editing ``game.state`` by hand (outside
        the operations). ``apply`` and the operations keep the caches right by themselves: a
        plugin never needs this (see :func:`alhambra.operations.edit_module`)."""
        changes = self.changes
        for key in (*changes, *self.state.modules):
            changes[key] = changes.get(key, 0) + 1
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
            self._legal = [] if st.phase == "over" or st.decider is None else self._list(st.decider)
        return list(self._legal)

    def _list(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``, who decides now: every kind of the phase, or Pass."""
        out: list[Action] = []
        for legal in self.rules.phase_legal.get(self.state.phase, ()):
            out += legal(self, seat)
        return out or [Pass()]

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the player to decide now.

        Raises :class:`IllegalActionError` (citing the rule) for an action that is not legal
        now; the game is then exactly as it was."""
        seat = self.state.decider
        if self.state.phase == "over" or seat is None:
            raise IllegalActionError("the game is over (R-END-3): no more actions")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list(seat)
        for a in legal:
            if a is action:  # the engine's own instance, listed just now: nothing to check
                kind = self.rules.kinds.get(type(action))
                break
        else:
            action, kind = match_unlisted(self, action)
        # the kind changes the state and says what comes next; the engine makes the transition
        nxt: Next | None
        if kind is None:  # Pass (R-TURN-9); a whole round of turns of passes ends the game (R-END-1 ruling)
            nxt = END_GAME if sequence.passes_in_a_row(self.history) + 1 >= len(self.state.players) else ACTION_DONE
        else:
            nxt = kind.apply(self, seat, action)
        st = self.state
        if nxt is not None or (st.phase == PLACE and not st.pending):  # else: the same seat again
            advance(self, nxt)
        self.history.append(action)
        self._legal = None
        self._legal_set = None

    # -- purchases: the rule set's purchase rule (R-TURN-3, R-TURN-4, R-VIZ-2, R-EXC-4),
    # ``self.rules.purchase`` (a plugin may replace it); see alhambra.PurchaseRule

    def purchases(self, seat: int, *, exact: bool = False) -> list[Buy]:
        """Every non-dominated purchase ``seat`` can make now (exact payments only with ``exact``)."""
        return self.rules.purchase.purchases(self, seat, exact=exact)

    def cached_purchases(self, seat: int, exact: bool = False) -> Sequence[Buy]:
        """:meth:`purchases` unchecked and cached, for rule plugins (do not change it)."""
        return self.rules.purchase.cached_purchases(self, seat, exact)

    def payments(self, seat: int, space: int, *, exact: bool = False, pool: tuple[Any, ...] | None = None) -> list[Buy]:
        """The purchases of ``seat`` for market ``space`` (1-4); ``pool`` is ignored."""
        self._check_seat(seat)
        return self.rules.purchase.payments(self, seat, space, exact=exact)

    def payment_cards(self, seat: int, space: int) -> list[tuple[Any, frozenset[str]]]:
        """The ways ``seat`` may pay for ``space``: ``[(via, currencies), ...]``."""
        return self.rules.purchase.payment_cards(self, seat, space)

    def check_payment(self, seat: int, action: Buy) -> int:
        """The price, if ``action`` is a legal payment for ``seat`` now; else :class:`IllegalActionError`."""
        return self.rules.purchase.check_payment(self, seat, action)

    def pay(self, seat: int, action: Buy) -> Any:
        """Carry out a checked payment; returns the building's tile id."""
        return self.rules.purchase.pay(self, seat, action)

    def can_pay_exactly(self, seat: int) -> bool:
        """True if ``seat`` can buy some market building with an exact payment now."""
        return self.rules.purchase.can_pay_exactly(self, seat)

    def first_exact_payer(self, seats: Iterable[int]) -> int | None:
        """The first of ``seats`` that can pay exactly now (the vizier's round, R-VIZ-2)."""
        return self.rules.purchase.first_exact_payer(self, seats)

    def market_price(self, space: int) -> int | None:
        """The price of the building on market ``space`` (1-4) now, ``None`` when empty."""
        return self.rules.purchase.market_price(self, space)

    # -- views, accounting, saving --------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may know, as plain data (``None``: a spectator).

        Contains the market, money display, discard pile (face up), sizes of bag and deck (not
        their order), every Alhambra and reserve, scores, scorings so far, each player's hand
        size, and only ``seat``'s own hand. Modules add their part under ``"modules"``."""
        return build_view(self, seat)

    def determinize(self, seat: int, rng: random.Random | None = None, *, recall: bool = True) -> Game:
        """A clone in which everything ``seat`` cannot know is resampled with ``rng``: deck and
        bag order and module secrets, and with ``recall=False`` also the other hands, which a
        player who remembers the game knows (R-SET-3); ``seat``'s view is unchanged. See
        :func:`alhambra.engine.determinize.determinize`. Raises :class:`ConfigError` if
        ``seat`` is not a seat of this game or ``recall`` not a ``bool``."""
        return determinize(self, seat, rng, recall=recall)

    def tile_locations(self) -> dict[str, list[Any]]:
        """Every tile of the game by where it is (:func:`alhambra.engine.accounting.tile_locations`)."""
        return accounting.tile_locations(self)

    def card_locations(self) -> dict[str, list[Any]]:
        """Every card of the game by where it is (:func:`alhambra.engine.accounting.card_locations`)."""
        return accounting.card_locations(self)

    def to_json(self) -> str:
        """This game as JSON text: configuration, full state, random-generator state and
        history. :meth:`from_json` restores it so that it continues exactly as this one."""
        return game_to_json(self)

    @classmethod
    def from_json(
        cls, text: str | bytes, *, modules: Iterable[Any] = (), plugins: Iterable[Any] = (), check_history: bool = True
    ) -> "Game":
        """Load a game saved with :meth:`to_json`. Nothing in the file is executed: modules are
        looked up by name among the installed ones (or in ``modules``, objects you pass); the
        built-ins the save blocked are blocked again; house-rule ``plugins`` the game was
        played with must be passed again (matched by name).

        The state is validated (:mod:`alhambra.saving.validate`), and then the history is
        replayed from where it starts (the set-up of the save's configuration and seed, or the
        save's ``start_position`` for a game built with :meth:`from_position`): only a state
        its history leads to loads, so an edited hand, a swapped tile or a history from another
        seed is refused. That costs a replay of the whole history (about as much as playing it
        again; see ``benchmarks/load_cost.py``). ``check_history=False`` skips it: only for
        saves you made yourself and kept where nobody could edit them (a tool's own store).

        Raises :class:`~alhambra.errors.SaveFormatError` for a malformed or inconsistent file
        (``history[12] (...) does not fit the replayed game: ...``, ``its history does not lead
        to its saved state (they differ in state.players[1].hand: ...)``), or when the plugins
        passed do not match the save's."""
        return game_from_json(text, cls._blank, modules=modules, plugins=plugins, check_history=check_history)

    def position(self) -> dict[str, Any]:
        """This game's position as plain data (TOML- and JSON-writable), every part written
        out, the random generator's state included, so that :meth:`from_position` of it
        continues identically (see ``docs/positions.md``; :mod:`alhambra.saving.position`)."""
        return game_position(self)

    @classmethod
    def from_position(cls, source: Any, *, modules: Iterable[Any] = (), plugins: Iterable[Any] = ()) -> "Game":
        """Build a game from a position: a dict, TOML or JSON text, or a path to a file (a
        ``pathlib.Path``, or a ``str`` of one line naming an existing file);
        unspecified parts are filled in as a real game would have them. Raises
        :class:`ConfigError` naming the key and the problem for a position that is malformed
        or that no game can reach (see ``docs/positions.md``; :mod:`alhambra.saving.position`)."""
        return game_from_position(source, cls._blank, modules=modules, plugins=plugins)

    def __repr__(self) -> str:
        return f"<Game {len(self.names)}p modules={list(self.modules)} turn={self.state.turn} phase={self.phase} scores={self.scores}>"
