"""The game users hold: :class:`Game`, the public state object, and :func:`new_game`.

Reading, ``legal_actions()``, ``apply(action)``, ``clone()``, ``view(seat)``,
``determinize(seat, rng)`` and saving; everything else is delegated: the turn sequence to
:mod:`alhambra.engine.sequence`, the operations plugins call to :mod:`alhambra.operations`,
the rules to the plugins of the rule set (the purchase methods ask the rule set's purchase
rule, ``game.rules.purchase``)."""

from __future__ import annotations

import json
import random
from array import array
import warnings
from functools import partial
from typing import Any, Callable, Iterable, Sequence

from . import kernel
from .engine import accounting, sequence
from .engine.acting import match_unlisted
from .engine.actions import Action, Pass, passes_in_a_row
from .engine.determinize import determinize
from .engine.protocol import check_seat
from .engine.ruleset import Ruleset, plugin_name
from .rules.ruleset import get_ruleset
from .engine.sequence import ACTION_DONE, END_GAME, PLACE, Next, advance
from .engine.state import MAX_PLAYERS as MAX_PLAYERS, MIN_PLAYERS as MIN_PLAYERS  # the limits: re-exported
from .engine.state import GameState, PlayerState, ScoringRecord, game_seed, player_names
from .engine.views import build_view
from .engine import lineage
from .engine.blame import culprit
from .errors import AlhambraError, ConfigError, IllegalActionError, KernelError, PluginError
from .saving.position import game_from_position, game_position
from .saving.serialize import game_from_json, game_to_json, start_of


def new_game(
    players: int | Sequence[str],
    *,
    modules: Iterable[Any] = (),
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    plugins: Iterable[Any] = (),
    blocked: Iterable[str] = (),
    engine: str = "auto",
) -> Game:
    """Create and set up a game (R-SET-1 … R-SET-7).

    ``players``: the number of players (2-6, named "Player 1" …) or their names.
    ``modules``: names of expansion modules to enable (entry points of ``alhambra.modules``,
    e.g. ``["vizier", "bonus_cards"]``) or module objects; nothing is enabled implicitly.
    ``seed``: integer seed of the game's own random generator, the only source of chance;
    ``None`` picks one (readable as ``game.seed``). ``options``: option values (``holes``,
    ``tiebreak``, ``start_player``, ``"<module>.<option>"``). ``plugins``/``blocked``: house
    rules registered on top, and built-in plugins to block (see :class:`Ruleset`).
    ``engine``: ``"auto"`` (the compiled rules kernel when it is installed and plays this
    configuration, else Python), ``"kernel"`` or ``"python"``; both play the same game for the
    same seed and actions (``game.engine`` says which runs; see :class:`KernelGame`).

    Raises :class:`ConfigError` for a bad player count, unknown module or option, bad seed, an
    unknown ``engine``, or ``engine="kernel"`` with a configuration the kernel does not play
    (naming the module, plugin or option).
    """
    names, seed = player_names(players), game_seed(seed)
    rules = get_ruleset(modules, options, plugins=plugins, blocked=blocked)
    if kernel.use_kernel(engine, rules):
        return KernelGame._start(rules, names, seed)
    game = Game._blank(rules, names, seed)
    rules.hook.alhambra_setup(game=game)
    sequence.start_turn(game, game.state.start_player)
    return game


class Game:
    """A game of Alhambra in progress (OpenSpiel-style state object).

    Reading: ``current_player`` (seat to decide, ``None`` when over), ``phase``,
    ``legal_actions()``, ``is_over``, ``scores``, ``winners``, ``view(seat)``,
    ``history``, ``state`` (the full :class:`~alhambra.state.GameState`, secrets included).
    Changing: ``apply(action)``. Copying and saving: ``clone()``, ``to_json()``,
    ``Game.from_json(text)``. Build games with :func:`new_game`.
    """

    __slots__ = (
        "rules",
        "state",
        "_rng",
        "seed",
        "_names",
        "history",
        "_origin",
        "_legal",
        "_legal_set",
        "_memo",
        "_changes",
        "_settled",
        "_kernel",
        "_base",
    )
    # _legal(_set): the legal actions (as {action: action});
    # _settled: during determinize only, the deck positions already resampled (resample_in_piles)

    rules: Ruleset
    state: GameState
    _rng: random.Random
    seed: int
    _names: tuple[str, ...]
    history: list[Action]
    #: Where ``history`` starts: ``None`` for the set-up of the seed (:func:`new_game`), else
    #: the position (as :meth:`position` writes it) the game was built from
    #: (:meth:`from_position`); saved as the save's ``start_position``.
    _origin: dict[str, Any] | None
    _legal: list[Action] | None
    _legal_set: dict[Action, Action] | None
    _memo: dict[Any, Any]
    _changes: dict[str, int]
    _settled: set[int] | None
    #: the kernel's game (``alhambra_kernel.KernelGame``) of a :class:`KernelGame`, else None
    _kernel: Any
    #: where the state comes from (:mod:`alhambra.engine.lineage`): what :meth:`apply` rebuilds
    #: the game from when a plugin fails in the middle of an action
    _base: Any

    @classmethod
    def _blank(cls, rules: Ruleset, names: list[str], seed: int) -> "Game":
        g = cls.__new__(cls)
        g.rules = rules
        g.seed = seed
        g._names = tuple(names)
        g._rng = random.Random(seed)
        g.state = GameState.empty(names, rules.catalog, rules.options.get("holes", "cell"), rules.placement_rules)
        g.history = []
        g._origin = None
        g._legal = None
        g._legal_set = None
        #: Scratch dict for rule plugins: values derived from the state that they keep with
        #: what they were derived from (checked on use). A clone starts with a copy.
        g._memo = {}
        #: Change counters of the modules' states, by state key (absent: 0), bumped by
        #: ``operations.edit_module`` and by :meth:`invalidate`; caches of values derived from a
        #: module's state keep the counter they were made at. A clone starts with a copy.
        g._changes = {}
        g._settled = None
        g._kernel = None
        g._base = lineage.ORIGIN
        return g

    def _python(self) -> Game:
        """This game as a Python game, to read through: itself (a :class:`KernelGame`'s copy,
        kept until the next action, for a kernel game)."""
        return self

    def clone(self, *, seed: int | None = None) -> "Game":
        """An independent copy of this game: state, random generator and history.

        With ``seed``, the copy's generator is freshly seeded instead of copied (cheaper; for
        search, where chance after the copy is sampled anew anyway)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g._names = self._names
        g._rng = random.Random(seed) if seed is not None else random.Random.__new__(random.Random)
        if seed is None:
            g._rng.setstate(self._rng.getstate())
        g.state = self.state.clone()
        g.history = self.history.copy()
        g._origin = self._origin
        g._legal = self._legal
        g._legal_set = self._legal_set
        g._memo = self._memo.copy()
        g._changes = self._changes.copy()
        g._settled = None
        g._kernel = None
        g._base = self._base if seed is None else lineage.Reseeded(self._base, len(self.history), seed)
        return g

    # -- reading --------------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.state.players)

    @property
    def config(self) -> dict[str, Any]:
        """What :func:`new_game` needs to rebuild this game: players, modules, seed, options,
        and the names of blocked built-in plugins and of extra (house-rule) plugins."""
        return {
            "players": list(self._names),
            "modules": list(self.rules.modules),
            "seed": self.seed,
            "options": dict(self.rules.options),
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
        return tuple(self.rules.hook.alhambra_winners(game=self))

    def _invalidate(self) -> None:
        """:func:`alhambra.operations.invalidate`: forget the caches after ``game.state`` was
        edited by hand."""
        self._drop_caches()
        self._base = None  # the state edited by hand: apply copies it before the next action

    def _drop_caches(self) -> None:
        changes = self._changes
        for key in (*changes, *self.state.modules):
            changes[key] = changes.get(key, 0) + 1
        self._legal = None
        self._legal_set = None
        self._memo = {}

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
        now; the game is then exactly as it was. Whatever a plugin raises while the action is
        carried out, the game is put back as it was before the call (its state, generator and
        history; the caches are dropped): an :class:`~alhambra.errors.AlhambraError` is passed
        on as it is, any other exception as a :class:`~alhambra.errors.PluginError` naming
        the plugin and the hook (the original is its ``__cause__``)."""
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
        if self._base is None:  # the state was edited by hand since the last action
            self._base = lineage.snapshot(self)
        # the kind changes the state and says what comes next; the engine makes the transition
        nxt: Next | None
        try:
            if kind is None:  # Pass (R-TURN-9); a whole round of turns of passes ends the game (R-END-1 ruling)
                nxt = END_GAME if passes_in_a_row(self.history) + 1 >= len(self.state.players) else ACTION_DONE
            else:
                nxt = kind.apply(self, seat, action)
            st = self.state
            if nxt is not None or (st.phase == PLACE and not st.pending):  # else: the same seat again
                advance(self, nxt)
        except BaseException as exc:
            self._failed(exc)
            raise
        self.history.append(action)
        self._legal = None
        self._legal_set = None

    def _failed(self, exc: BaseException) -> None:
        """An action failed half-way with ``exc``: put the game back as it was before it, by
        playing its history again from where its state comes from (:mod:`alhambra.engine.lineage`;
        only a failure pays for this), then raise ``exc`` again, or a :class:`PluginError`
        naming the plugin for an exception that is not an :class:`AlhambraError`."""
        if self._base is lineage.NO_RESTORE:  # a game being rebuilt: the caller gives up
            return
        restored = True
        try:
            good = lineage.rebuilt(self._base, self, len(self.history), _start_of, _blank_of)
        except Exception:
            restored = False
        else:
            self.state = good.state
            self._rng.setstate(good._rng.getstate())
            self._drop_caches()
        if not isinstance(exc, Exception) or (restored and isinstance(exc, AlhambraError)):
            return  # KeyboardInterrupt and the like pass on as they are
        found = culprit(self.rules, exc)
        plugin, hook = found if found is not None else (None, None)
        who = f"plugin {plugin!r} raised {type(exc).__name__} in {hook}" if plugin else f"{type(exc).__name__}"
        note = (
            "the game is as it was before the action"
            if restored
            else "the game could not be put back: playing its history again failed too (a plugin that "
            "answers differently for the same game?)"
        )
        raise PluginError(f"{who}: {exc} ({note})", plugin=plugin, hook=hook, restored=restored) from exc

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

    def to_json(self) -> str:
        """This game as JSON text: configuration, full state, random-generator state and
        history. :meth:`from_json` restores it so that it continues exactly as this one."""
        return game_to_json(self)

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        *,
        modules: Iterable[Any] = (),
        plugins: Iterable[Any] = (),
        check_history: bool = True,
        engine: str = "auto",
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
        passed do not match the save's. ``engine``: as for :func:`new_game` (the save is read
        and checked by the Python engine, then handed to the kernel)."""
        game = game_from_json(text, Game._blank, modules=modules, plugins=plugins, check_history=check_history)
        if not check_history:  # a state its history may not lead to: copied before the next action
            game._base = None
        return KernelGame._adopt_for(engine, game)

    def position(self) -> dict[str, Any]:
        """This game's position as plain data (TOML- and JSON-writable), every part written
        out, the random generator's state included, so that :meth:`from_position` of it
        continues identically (see ``docs/positions.md``; :mod:`alhambra.saving.position`)."""
        return game_position(self)

    @classmethod
    def from_position(
        cls, source: Any, *, modules: Iterable[Any] = (), plugins: Iterable[Any] = (), engine: str = "auto"
    ) -> "Game":
        """Build a game from a position: a dict, TOML or JSON text, or a path to a file (a
        ``pathlib.Path``, or a ``str`` of one line naming an existing file);
        unspecified parts are filled in as a real game would have them. Raises
        :class:`ConfigError` naming the key and the problem for a position that is malformed
        or that no game can reach (see ``docs/positions.md``; :mod:`alhambra.saving.position`).
        ``engine``: as for :func:`new_game`."""
        game = game_from_position(source, Game._blank, modules=modules, plugins=plugins)
        return KernelGame._adopt_for(engine, game)

    def __repr__(self) -> str:
        return f"<Game {len(self._names)}p modules={list(self.rules.modules)} turn={self.state.turn} phase={self.phase} scores={self.scores}>"


def returns(game: Game) -> tuple[float, ...]:
    """Per seat of ``game``: the share of the victory (1.0 alone, 1/k in a k-way tie, 0.0
    otherwise); all zeros while the game runs."""
    w = game.winners
    return tuple((1.0 / len(w)) if s in w else 0.0 for s in range(game.num_players))


def engine_of(game: Game) -> str:
    """Which engine plays ``game``: ``"kernel"`` for a :class:`KernelGame` (the compiled
    rules kernel), else ``"python"`` (also a kernel game whose state was read: it was handed
    over to the Python engine for good)."""
    return "kernel" if isinstance(game, KernelGame) else "python"


def _player(game: Game) -> Callable[[int], PlayerState]:
    def player(seat: int) -> PlayerState:
        check_seat(game, seat)
        return game.state.players[seat]

    return player


def _purchase(name: str) -> Callable[[Game], Any]:
    def bound(game: Game) -> Any:
        return partial(getattr(game.rules.purchase, name), game)

    return bound


#: Members that left :class:`Game`'s public surface, with what replaces each: reading one
#: still works (``game.purchases(seat)``), with a :class:`DeprecationWarning` that names the
#: replacement; they will be removed in a later release.
DEPRECATED_MEMBERS: dict[str, tuple[str, Callable[[Game], Any]]] = {
    **{
        name: (f"game.rules.purchase.{name}(game, ...)", _purchase(name))
        for name in (
            "purchases",
            "cached_purchases",
            "payments",
            "payment_cards",
            "check_payment",
            "pay",
            "can_pay_exactly",
            "first_exact_payer",
            "market_price",
        )
    },
    "hook": ("game.rules.hook", lambda g: g.rules.hook),
    "options": ("game.rules.options", lambda g: g.rules.options),
    "modules": ("game.rules.modules", lambda g: g.rules.modules),
    "engine": ("alhambra.engine_of(game)", engine_of),
    "returns": ("alhambra.returns(game)", lambda g: partial(returns, g)),
    "player": ("game.state.players[seat]", _player),
    "invalidate": ("alhambra.operations.invalidate(game)", lambda g: g._invalidate),
    "rng": ("alhambra.operations.rng(game)", lambda g: g._rng),
    "memo": ("alhambra.operations.memo(game)", lambda g: g._memo),
    "changes": ("alhambra.operations.module_changes(game, key)", lambda g: g._changes),
    "origin": ("alhambra.start_position(game)", lambda g: g._origin),
    "names": ('game.config["players"]', lambda g: g._names),
    "tile_locations": ("alhambra.tile_locations(game)", lambda g: partial(accounting.tile_locations, g._python())),
    "card_locations": ("alhambra.card_locations(game)", lambda g: partial(accounting.card_locations, g._python())),
}


class _Moved:
    """``game.<name>`` for a member of :data:`DEPRECATED_MEMBERS`: its replacement's value, with
    the warning. A descriptor on the class rather than a ``__getattr__``: a class with
    ``__getattr__`` takes the slow path for every attribute of every game (``game.state``
    included; CPython does not specialise its attribute reads), about 9 % of the Python
    engine's instructions per action."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, game: Game | None, owner: type | None = None) -> Any:
        if game is None:
            return self
        replacement, get = DEPRECATED_MEMBERS[self.name]
        warnings.warn(
            f"Game.{self.name} is deprecated and will be removed: use {replacement}", DeprecationWarning, stacklevel=2
        )
        return get(game)


for _name in DEPRECATED_MEMBERS:
    setattr(Game, _name, _Moved(_name))


#: the slots of ``Game.state`` and ``Game._rng``, which KernelGame's properties hide
_STATE_SLOT: Any = Game.__dict__["state"]
_RNG_SLOT: Any = Game.__dict__["_rng"]


_new_game_object = object.__new__


def _start_of(game: Game) -> Game:
    """A new game where ``game``'s history starts (its set-up, or its start position)."""
    rules = game.rules
    return start_of(game, Game._blank, modules=rules.module_objects, plugins=rules.plugins)


def _blank_of(game: Game) -> Game:
    """An empty game of ``game``'s configuration."""
    return Game._blank(game.rules, list(game._names), game.seed)


class KernelGame(Game):
    """A :class:`Game` played by the compiled rules kernel (``alhambra_kernel``): the same
    rules, the same chance and the same public API, many times faster. :func:`new_game` makes
    one when the kernel plays the configuration (``engine="auto"`` or ``"kernel"``).

    The kernel keeps the state in compiled form; what reads it through Python is served by a
    Python copy made on demand and kept until the next action (:meth:`view`, :meth:`to_json`,
    :meth:`position`, :meth:`determinize`, the purchase methods: one conversion, some tens of
    microseconds). Reading :attr:`state` (or ``operations.rng(game)``) hands the game over to
    the Python engine for good: the state object returned is the live one, to read and to edit
    by hand as on any game (then ``operations.invalidate(game)``), and
    ``alhambra.engine_of(game)`` says ``"python"`` from then on.
    """

    __slots__ = ()

    @classmethod
    def _start(cls, rules: Ruleset, names: list[str], seed: int) -> "KernelGame":
        return cls._wrap(
            rules, tuple(names), seed, kernel.new_native(rules, len(names), seed), [], None, lineage.ORIGIN
        )

    @classmethod
    def _wrap(
        cls,
        rules: Ruleset,
        names: tuple[str, ...],
        seed: int,
        k: Any,
        history: list[Action],
        origin: Any,
        base: Any,
    ) -> "KernelGame":
        g = cls.__new__(cls)
        g.rules = rules
        g._names = names
        g.seed = seed
        g.history = history
        g._origin = origin
        g._base = base
        g._kernel = k
        g._legal = None
        g._legal_set = None
        g._memo = {}  # the Python copy (``_twin``) is kept here until the next action
        return g

    @classmethod
    def _adopt(cls, game: Game) -> "KernelGame":
        """A kernel game continuing the Python game ``game`` (its state, generator and history)."""
        if type(game) is KernelGame:
            return game
        k = kernel.load(game.state, game._rng.getstate(), passes_in_a_row(game.history), game.rules)
        return cls._wrap(game.rules, game._names, game.seed, k, list(game.history), game._origin, game._base)

    @classmethod
    def _adopt_for(cls, engine: str, game: Game) -> Game:
        """``game`` (a Python game just loaded) on ``engine``: handed to the kernel where it
        plays the rule set; with ``"auto"``, a state the kernel cannot hold (edited by hand
        beyond what play makes) stays on Python, with ``"kernel"`` it is a :class:`ConfigError`."""
        if not kernel.use_kernel(engine, game.rules):
            return game
        try:
            return cls._adopt(game)
        except ConfigError:
            if engine == "kernel":
                raise
            return game

    # -- the Python copy ---------------------------------------------------------------------

    def _twin(self) -> Game:
        """A Python game in this game's state (kept until the next action)."""
        twin: Game | None = self._memo.get("twin")
        if twin is None:
            k = self._kernel
            twin = Game._blank(self.rules, list(self._names), self.seed)
            twin.state = kernel.state_of(k, self.rules, self._names)
            words, index = k.rng_state()
            twin._rng.setstate((3, (*words, index), None))
            twin.history = self.history
            twin._origin = self._origin
            twin._base = self._base
            self._memo["twin"] = twin
        return twin

    def _python(self) -> Game:
        return self._twin()

    def _to_python(self) -> Game:
        """Hand this game over to the Python engine for good (see the class docstring)."""
        twin = self._twin()
        self._memo = {}
        _STATE_SLOT.__set__(self, twin.state)
        _RNG_SLOT.__set__(self, twin._rng)
        self._changes = {}
        self._settled = None
        self._kernel = None
        self._legal = None
        self._legal_set = None
        object.__setattr__(self, "__class__", Game)
        return self

    @property
    def state(self) -> GameState:  # type: ignore[override]
        """The full state: hands this game over to the Python engine (see the class docstring)."""
        return self._to_python().state

    @property
    def _rng(self) -> random.Random:  # type: ignore[override]
        """The game's random generator: hands this game over to the Python engine."""
        return self._to_python()._rng

    # -- reading -----------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self._names)

    @property
    def current_player(self) -> int | None:
        cp: int | None = self._kernel.current_player
        return cp

    @property
    def phase(self) -> str:
        phase: str = self._kernel.phase
        return phase

    @property
    def is_over(self) -> bool:
        over: bool = self._kernel.is_over
        return over

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._kernel.scores)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(self._kernel.winners)

    def _invalidate(self) -> None:
        """Nothing to forget: the kernel keeps no cache that an edit could leave stale (a game
        whose :attr:`state` was read runs on Python, where this drops the caches)."""

    # -- actions -------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        if self._kernel is None:  # handed over to Python while the call was made
            return Game.legal_actions(self)
        legal = self._legal
        if legal is None:
            legal = self._legal = kernel.actions_of(self._kernel.legal(), self.rules)
        return list(legal)

    def apply(self, action: Action) -> None:
        """Carry out ``action`` (see :meth:`Game.apply`); an action the kernel refuses is
        explained by the Python engine's rules, with the same exception and message."""
        k = self._kernel
        if k is None:  # handed over to Python while the call was made (an argument read the state)
            return Game.apply(self, action)
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        for i, a in enumerate(legal):
            if a is action:
                k.apply_index(i)
                break
        else:
            action = self._apply_unlisted(action)
        self.history.append(action)
        self._legal = None
        self._legal_set = None
        if self._memo:
            self._memo = {}

    def _apply_listed(self, index: int, code: int) -> Action:
        """Play the legal action at ``index`` of the kernel's list, whose kernel code is
        ``code`` (the environments' step, which found it among the codes); returns it."""
        # the base game's actions are kept by code (a hut's per layout, through action_of)
        action = kernel._ACTIONS.get(code) or kernel.action_of(code, self.rules)
        self._kernel.apply_index(index)
        self.history.append(action)
        self._legal = None
        self._legal_set = None
        if self._memo:
            self._memo = {}
        return action

    def _played(self, action: Action) -> None:
        """Record ``action``, which the kernel has just played on this game's state (the
        OpenSpiel game's, its draws decided by chance outcomes: ``alhambra_kernel.spiel_next_draw``)."""
        self.history.append(action)
        self._legal = None
        self._legal_set = None
        if self._memo:
            self._memo = {}

    def _apply_unlisted(self, action: Any) -> Action:
        """Play an action that is not one of the listed instances; returns the action played
        (the listed instance equal to it, as the Python engine records)."""
        if not isinstance(action, Action):  # before any comparison: a look-alike is no action
            raise IllegalActionError(f"{action!r} is not an action")
        legal = self._legal or []
        if self._legal_set is None:
            self._legal_set = {a: a for a in legal}
        found: Action | None
        try:
            found = self._legal_set.get(action)
        except TypeError:  # unhashable fields: certainly not listed
            found = None
        if found is not None:
            self._kernel.apply_index(legal.index(found))
            return found
        if self.is_over:
            raise IllegalActionError("the game is over (R-END-3): no more actions")
        # the Python engine's rules explain a refusal, or accept an unlisted legal action (an
        # overpayment), which the kernel then plays
        twin = self._twin().clone()
        twin.apply(action)
        code = kernel.code_of(action, self.rules)
        if code is None:  # pragma: no cover - every action the base game accepts has a code
            raise IllegalActionError(f"{action!r} is not legal now")
        try:
            self._kernel.apply_code(code)
        except ValueError as exc:  # pragma: no cover - the two engines disagree: a bug
            raise KernelError(f"the rules kernel refused {action!r}, which the Python engine plays: {exc}") from None
        played: Action = action
        return played

    def summary_state(self, *, cities: bool = False) -> Any:
        """What a result record reads of the state (``turn``, ``start_player``, ``scorings``,
        each player's ``hand``; with ``cities``, also each player's ``city``, an
        :class:`~alhambra.engine.city.Alhambra`, and ``reserve``), without handing the game over
        to Python: an object with those attributes, read from the kernel's state (its summary;
        with ``cities``, its whole state as well)."""
        from types import SimpleNamespace

        d = json.loads(self._kernel.summary_json())
        rules = self.rules
        cards = rules.cards
        players = [SimpleNamespace(hand=[cards[c] for c in hand]) for hand in d["hands"]]
        if cities:
            from .engine.city import Alhambra

            holes = rules.options.get("holes", "cell")
            for p, full in zip(players, json.loads(self._kernel.state_json())["players"]):
                tiles = {(e[0], e[1]): e[2] for e in full["city"] if len(e) == 3}
                p.city = Alhambra.from_tiles(
                    tiles, catalog=rules.catalog, holes=holes, check=False, rules=rules.placement_rules
                )
                for e in full["city"]:
                    if len(e) == 4:  # a side declared open (a city gate, R-GATE-6)
                        p.city.open_side((e[0], e[1]), e[2])
                p.reserve = list(full["reserve"])
        return SimpleNamespace(
            turn=d["turn"],
            start_player=d["start_player"],
            scorings=[ScoringRecord(**r) for r in d["scorings"]],
            players=players,
        )

    def play_random(
        self,
        rngs: Sequence[random.Random | int],
        *,
        max_actions: int = 100_000,
        codes: list[int] | None = None,
        steps: list[tuple[int | None, str, int]] | None = None,
        record: dict[str, Any] | None = None,
        states: list[bytes] | None = None,
    ) -> int:
        """Play on with a random player in every seat (each picks ``legal[rng.randrange(len(legal))]``
        with its seat's generator, as :class:`alhambra.bots.RandomBot`), inside the kernel, until
        the game is over or ``max_actions`` actions were played; returns how many were played.
        The generators advance as the Python bots' would. A seat's generator may also be given
        by an integer seed (``random.Random(seed)``, ``0 <= seed < 2**64``), which the kernel
        seeds itself; ``states``: a list that receives every seat's generator state at the end
        (bytes: 624 words and the index, native byte order). ``codes``: a list that receives the
        kernel's codes of the actions played; ``steps``: a list that receives, per action played,
        ``(seat that decided it, its phase, scorings held before it)``, and then ``(None, the
        phase, the scorings held)`` at the end; ``record``: a dict that receives what a result
        record counts of the actions played here and reads of the final state, counted by the
        kernel as it plays (``tallies``, ``action_counts``, ``money_left``: see
        :func:`alhambra.simulate.result_of`)."""
        return self.play_bots(rngs, max_actions=max_actions, codes=codes, steps=steps, record=record, states=states)

    def play_bots(
        self,
        seats: Sequence[Any],
        *,
        max_actions: int = 100_000,
        codes: list[int] | None = None,
        steps: list[tuple[int | None, str, int]] | None = None,
        record: dict[str, Any] | None = None,
        states: list[bytes] | None = None,
    ) -> int:
        """Play on inside the kernel as :meth:`play_random` does, each seat a random player
        (its generator: a ``random.Random`` or a seed) or a greedy player ``(weights, noise,
        generator)`` choosing as :class:`alhambra.bots.GreedyBot` with those weights
        (:class:`~alhambra.bots.evaluate.Weights` or their 21 numbers in field order), that
        noise and its generator for the noise (a ``random.Random``, advanced as the bot's would
        be, or a seed). The other keywords and the result: see :meth:`play_random`."""
        if not isinstance(seats, Sequence) or len(seats) != len(self._names):
            raise ConfigError(f"one generator or greedy player per seat ({len(self._names)}), not {seats!r}")
        if type(max_actions) is not int or max_actions < 0:
            raise ConfigError(f"max_actions must be a whole number of actions, 0 or more, not {max_actions!r}")
        max_actions = min(max_actions, 1 << 62)  # more than any game plays
        from .kernel import KERNEL_GREEDY_MODULES, weight_row

        def words(r: Any) -> Any:
            # the generators' states cross as bytes (624 words and the index), at C speed
            if type(r) in (int, bytes):
                return r
            if not isinstance(r, random.Random):
                raise ConfigError(f"a generator is a random.Random, a seed or a state as bytes, not {r!r}")
            return array("I", r.getstate()[1]).tobytes()

        given: list[Any] = []
        rngs: list[Any] = []
        for seat in seats:
            if isinstance(seat, tuple):
                if len(seat) != 3:
                    raise ConfigError(f"a greedy player is (weights, noise, generator), not {seat!r}")
                weights, noise, r = seat
                if not set(self.rules.modules) <= KERNEL_GREEDY_MODULES:
                    raise ConfigError(
                        f"the kernel's greedy bot values the modules {sorted(KERNEL_GREEDY_MODULES)}, "
                        f"not {sorted(set(self.rules.modules) - KERNEL_GREEDY_MODULES)}"
                    )
                row = weights if isinstance(weights, (list, tuple)) else weight_row(weights)
                if row is None:
                    raise ConfigError(f"weights the kernel cannot take (plain finite numbers only): {weights!r}")
                given.append((list(row), noise, words(r)))
            else:
                r = seat
                given.append(words(r))
            rngs.append(r)
        try:
            played, after, trace, report = self._kernel.play_bots(given, max_actions, record is not None)
        except (TypeError, OverflowError) as exc:
            raise ConfigError(
                "per seat a generator (random.Random or a seed 0 <= seed < 2**64) or a greedy player "
                f"(weights, noise, generator): {exc}"
            ) from None
        if record is not None:
            record.update(json.loads(report))
        if codes is not None:
            codes += played
        if steps is not None:
            names = kernel.KERNEL_PHASES
            steps += [
                (None if trace[k] == 255 else trace[k], names[trace[k + 1]], trace[k + 2])
                for k in range(0, len(trace), 3)
            ]
        self.history += kernel.actions_of(played, self.rules)
        if states is not None:
            states += after
        for r, words_after in zip(rngs, after):
            if isinstance(r, random.Random):
                r.setstate((3, tuple(array("I", words_after)), r.getstate()[2]))  # gauss's kept value stays
        self._legal = None
        self._legal_set = None
        self._memo = {}
        return len(played)

    def clone(self, *, seed: int | None = None) -> "KernelGame":
        """An independent copy (with ``seed``, the copy's generator freshly seeded, as
        :meth:`Game.clone`)."""
        g = _new_game_object(KernelGame)  # _wrap's fields, set here: a search clones often
        g.rules = self.rules
        g._names = self._names
        g.seed = self.seed
        g.history = self.history.copy()
        g._origin = self._origin
        g._base = self._base if seed is None else lineage.Reseeded(self._base, len(self.history), seed)
        g._kernel = self._kernel.clone()
        g._legal_set = None
        g._memo = {}
        if seed is not None:
            twin = self._twin()
            g._kernel = kernel.load(
                twin.state, random.Random(seed).getstate(), passes_in_a_row(self.history), self.rules
            )
        g._legal = self._legal
        return g

    # -- everything read through the Python copy -------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self._twin().view(seat)

    def determinize(self, seat: int, rng: random.Random | None = None, *, recall: bool = True) -> Game:
        world = self._twin().clone().determinize(seat, rng, recall=recall)
        return KernelGame._adopt(world)

    def to_json(self) -> str:
        return self._twin().to_json()

    def position(self) -> dict[str, Any]:
        return self._twin().position()

    def __repr__(self) -> str:
        return f"<Game {len(self._names)}p modules={list(self.rules.modules)} engine=kernel turn={self._kernel.turn} phase={self.phase} scores={self.scores}>"
