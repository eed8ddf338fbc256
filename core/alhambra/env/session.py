"""One game as the environments see it: the engine's :class:`~alhambra.Game`, the rule set's
fixed action space and observation layout, and the unfinished action of the player to move.

Shared by the PettingZoo, Gymnasium and OpenSpiel environments; it reads the game only
through its public API (``legal_actions``, ``apply``, ``view``, ``returns``, ``rules``).
"""

from __future__ import annotations

import json
import math
import numbers
import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from alhambra import (
    SEED_LIMIT,
    Action,
    ConfigError,
    Game,
    IllegalActionError,
    SaveFormatError,
    new_game,
)
from alhambra import kernel
from alhambra.engine.state import MAX_PLAYERS, MIN_PLAYERS
from alhambra.errors import shown
from alhambra.game import KernelGame

from .codec import ActionCodec, Decision
from .incremental import SeatObservations
from .observation import ObservationEncoder, render_view

__all__ = ["Session", "as_action_int", "as_integer_option", "as_number_option", "as_seed", "parse_modules"]


def as_action_int(i: Any) -> int:
    """``i`` as an action integer: a Python ``int``, a numpy integer or a 0-d integer array
    (``operator.index``). Raises :class:`IllegalActionError` for anything else (floats such
    as ``3.7``, strings, ``None``, booleans, longer arrays); the range is checked by the
    decision."""
    if isinstance(i, (bool, np.bool_)):
        raise IllegalActionError(f"an action is an integer, not {i!r}")
    try:
        return operator.index(i)
    except TypeError:
        raise IllegalActionError(f"an action is an integer, not {i!r}") from None


def as_number_option(value: Any, name: str) -> float:
    """``value`` of the option ``name`` (a reward, a scale) as a float: a finite real number,
    an ``int``, ``float``, :class:`~fractions.Fraction` or numpy number. Raises :class:`ConfigError` naming the option for
    anything else: a bool, a string, a complex number, infinity, NaN, or an integer too large
    for a float (``10**400``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ConfigError(f"{name} must be a real number, not {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ConfigError(f"{name} must be a finite number, not {shown(value)}")
    return number


def as_integer_option(value: Any, name: str, low: int, high: int) -> int:
    """``value`` of the option ``name`` as an ``int`` ``low <= value <= high``: an ``int`` or
    numpy integer. Raises :class:`ConfigError` naming the option for anything else (a bool,
    ``2.5``, ``"3"``) and for a number out of range."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ConfigError(f"{name} must be an integer, not {shown(value)}")
    number = int(value)
    if not low <= number <= high:
        raise ConfigError(f"{name} must be {low} … {high}, not {shown(number)}")
    return number


def as_seed(seed: Any) -> int:
    """``seed`` as a game seed: an ``int`` or numpy integer ``0 <= seed < 2**63``
    (:data:`alhambra.SEED_LIMIT`, the engine's one seed range, so every game saves). Raises
    :class:`ConfigError` for anything else (``"7"``, ``1.5``, ``True``), for a negative seed (the
    engine's generator would give seed ``-n`` the game of ``n``) and for ``2**63`` or more."""
    if isinstance(seed, np.integer) and not isinstance(seed, np.bool_):
        seed = int(seed)
    if type(seed) is not int:
        raise ConfigError(f"seed must be an integer, not {shown(seed)}")
    if seed < 0:
        raise ConfigError(
            f"seed must be at least 0, not {shown(seed)} (a negative seed would repeat the game of {shown(-seed)})"
        )
    if seed >= SEED_LIMIT:
        raise ConfigError(f"seed must be below 2**63, not {shown(seed)}")
    return seed


# (players, modules, options) -> (codec, encoder, a set-up game, the kernel's codec and observer
# or None): shared by sessions
_LAYOUTS: dict[tuple[Any, ...], tuple[ActionCodec, ObservationEncoder, Game, Any]] = {}


def _native_layout(template: Game, codec: ActionCodec, encoder: ObservationEncoder) -> Any:
    """The kernel's codec and observer of ``template``'s rule set (``alhambra_kernel.KernelEnv``),
    or None when the kernel does not play it. Checked against the Python layout: the same
    segments and the same slices, else None (the Python codec and observer serve)."""
    if kernel.kernel_reason(template.rules) is not None or not hasattr(kernel.native, "KernelEnv"):
        return None
    native = kernel.native.KernelEnv(
        template.num_players, kernel.module_bits(template.rules), [c.code for c in encoder.cards]
    )
    slices = [(name, sl.start, sl.stop) for name, sl in encoder.slices.items()]
    if [tuple(x) for x in native.layout()] != codec.layout() or [tuple(x) for x in native.slices()] != slices:
        return None  # a rule set whose layout the installed kernel's codec does not know
    return native


def _restore(players: int, modules: list[str], options: dict[str, Any], *rest: Any) -> Session:
    """A session from its JSON save (see :meth:`Session.__reduce__`: made by the session itself,
    so its history is not replayed again, ``check_history=False``; the state is validated).
    ``rest``: the save and the unfinished action (a pickle of the former fixed-window layout
    has the window's radius before them: it is ignored, the cells are slots now)."""
    save, prefix = rest[-2:]
    s = Session(players, modules, options)
    return s.with_game(Game.from_json(save, check_history=False), tuple(prefix))


def parse_modules(modules: Iterable[Any] | str | None) -> list[Any]:
    """Modules from a list (names, or module objects as :func:`alhambra.new_game` takes them)
    or a comma-separated string (``"vizier,bonus_cards"``; ``"all"`` or ``["all"]``: every
    installed module, as ``--modules all`` on the command line, the six expansion modules and
    a user's own installed ones). Raises :class:`ConfigError` for anything else."""
    if modules is None:
        return []
    if isinstance(modules, str):
        modules = [m.strip() for m in modules.split(",") if m.strip()]
    else:
        try:
            modules = list(modules)
        except TypeError:
            raise ConfigError(
                f"modules must be a list of modules or a comma-separated string, not {shown(modules)}"
            ) from None
    if "all" in modules:
        from ..saving.config import expand_module_names

        return expand_module_names(modules)
    return modules


def _setup(game: Game) -> tuple[Any, ...]:
    """What makes games of one rule set: the number of players, the modules, the options."""
    return (game.num_players, tuple(game.rules.modules), json.dumps(game.rules.options, sort_keys=True, default=repr))


def _describe(setup: tuple[Any, ...]) -> str:
    players, modules, options = setup
    return f"{players} players, modules {list(modules)}, options {options}"


class Session:
    """A game of one rule set played one integer at a time.

    ``players`` (2-6, an ``int`` or numpy integer), ``modules`` (names, see :func:`parse_modules`), ``options`` (as for
    :func:`alhambra.new_game`). :meth:`reset` starts a game; :attr:`num_actions` and
    :attr:`observation_size` are the same for every game of the rule set. Raises
    :class:`ConfigError` for a bad configuration."""

    def __init__(
        self,
        players: int = 4,
        modules: Iterable[str] | str | None = (),
        options: dict[str, Any] | None = None,
        engine: str = "auto",
    ) -> None:
        self.players = players = as_integer_option(players, "players", MIN_PLAYERS, MAX_PLAYERS)
        self.modules = parse_modules(modules)
        if options is not None and not isinstance(options, dict):
            raise ConfigError(f"options must be a dict of option values or None, not {shown(options)}")
        self.options = dict(options or {})
        key = (
            players,
            tuple(m if isinstance(m, str) else id(m) for m in self.modules),
            json.dumps(self.options, sort_keys=True, default=repr),
        )
        layout = _LAYOUTS.get(key)
        if layout is None:
            # the environments read the state itself (observations, chance): the Python engine's
            template = new_game(players, modules=self.modules, options=self.options, seed=0, engine="python")
            codec = ActionCodec(template)
            encoder = ObservationEncoder(template, extra={"decision": (codec.num_actions,)})
            layout = _LAYOUTS[key] = (codec, encoder, template, _native_layout(template, codec, encoder))
        self.codec, self.encoder, template, native = layout
        #: which engine :meth:`reset` starts games on: ``"kernel"`` or ``"python"`` (see
        #: :func:`alhambra.kernel.use_kernel`; ``engine="kernel"`` where the kernel does not play
        #: the rule set raises :class:`ConfigError`)
        on_kernel = kernel.use_kernel(engine, template.rules)
        if on_kernel and native is None and engine == "kernel":
            raise ConfigError(
                "the kernel plays this rule set, but its environments' codec and observer do not cover it "
                f"(modules {self.modules}): engine='auto' or 'python' plays it through the Python ones"
            )
        self.engine = "kernel" if on_kernel and native is not None else "python"
        # the kernel's codec and observer for this session: they serve a game on the kernel
        self._native: Any = None if native is None else native.fork()
        self.setup = _setup(template)
        self.num_actions = self.codec.num_actions
        self.observation_size = self.encoder.size
        self._decision_start = self.encoder.slices["decision"].start
        self.game: Game = template.clone()
        self._decision: Decision | KernelDecision | None = None
        self._observations = SeatObservations(self.encoder, template)

    def copy(self) -> Session:
        """An independent copy: the game cloned exactly (its generator too), the unfinished
        action kept."""
        new = Session.__new__(Session)
        new.players, new.modules, new.options = self.players, self.modules, self.options
        new.codec, new.encoder, new.setup = self.codec, self.encoder, self.setup
        new.engine = self.engine
        new._native = None if self._native is None else self._native.fork()
        new.num_actions, new.observation_size, new._decision_start = (
            self.num_actions,
            self.observation_size,
            self._decision_start,
        )
        new.game = self.game.clone()
        new._decision = None
        new._observations = self._observations.fresh()
        if self.prefix:
            new.decision.prefix = self.prefix
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Session:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel serialises its Python states so) as the engine's JSON save and
        the unfinished action, never as engine objects."""
        return (_restore, (self.players, self.modules, self.options, self.game.to_json(), self.prefix))

    def with_game(self, game: Game, prefix: tuple[int, ...] = ()) -> Session:
        """A copy of this session playing ``game`` (a game of the same rule set), with the
        unfinished action ``prefix``. Raises :class:`~alhambra.IllegalActionError` if
        ``prefix`` does not begin a legal action of ``game``, :class:`~alhambra.SaveFormatError`
        (a :class:`ConfigError`) if ``game`` has other players, modules or options."""
        new = self.copy()
        new.load(game)
        if prefix:
            d = new.decision
            for i in prefix:
                if d.choose(i) is not None:
                    raise IllegalActionError(f"{prefix!r} completes an action: it is not an unfinished one")
        return new

    def reset(self, seed: int) -> None:
        """Start a new game with ``seed`` (same seed, same game; see :func:`as_seed`). Raises
        :class:`ConfigError` for a bad seed."""
        self.game = new_game(
            self.players, modules=self.modules, options=self.options, seed=as_seed(seed), engine=self.engine
        )
        self._decision = None

    def load(self, game: Game) -> None:
        """Play ``game`` from now on (a game of this rule set, e.g. a loaded save or a
        determinization); the unfinished action is dropped. Raises
        :class:`~alhambra.SaveFormatError` (a :class:`ConfigError`; nothing changes) if
        ``game`` is not a :class:`~alhambra.Game` or has other players, modules or options: the
        action space and the observation layout are this rule set's."""
        if not isinstance(game, Game):
            raise SaveFormatError(f"a session plays a Game, not {type(game).__name__}")
        if game.rules is not self.game.rules or game.num_players != self.players:  # a clone shares its rules
            theirs = _setup(game)
            if theirs != self.setup:
                raise SaveFormatError(
                    f"the game is of another setup: {_describe(theirs)}, not this session's {_describe(self.setup)}"
                )
        self.game = game
        self._decision = None

    # -- reading ----------------------------------------------------------------------------

    @property
    def decision(self) -> Decision | KernelDecision:
        """The legal codes of the current state and the integers chosen so far (for a game on
        the kernel, a :class:`KernelDecision`: the same methods, worked out by the kernel)."""
        d = self._decision
        if d is None:
            game = self.game
            if type(game) is KernelGame and self._native is not None:
                d = self._decision = KernelDecision(self._native, game, self.codec)
            else:
                d = self._decision = Decision(self.codec, game.legal_actions(), game)
        return d

    @property
    def on_kernel(self) -> bool:
        """Whether the game is played by the kernel now, its codes and observations worked out
        by compiled code (a game handed over to Python, by reading its ``state``, is not)."""
        return type(self.game) is KernelGame and self._native is not None

    @property
    def prefix(self) -> tuple[int, ...]:
        """The integers chosen so far of an unfinished action (empty between actions)."""
        return () if self._decision is None else self._decision.prefix

    def legal_ints(self) -> list[int]:
        """The integers legal now, ascending (empty when the game is over)."""
        if self.game.is_over:
            return []
        return self.decision.legal_ints()

    def mask(self) -> np.ndarray:
        """``int8`` vector of :attr:`num_actions`: 1 exactly for the legal integers (all 0
        when the game is over)."""
        if self.game.is_over:
            return np.zeros(self.num_actions, dtype=np.int8)
        return self.mask_of(self.decision)

    def mask_of(self, decision: Decision | KernelDecision) -> np.ndarray:
        """The mask of ``decision`` (see :meth:`mask`): a new array every call."""
        if type(decision) is KernelDecision:
            out = np.empty(self.num_actions, dtype=np.int8)
            decision.native.mask_into(out)
            return out
        legal = decision.legal_tuple()
        masks = self.codec.masks
        m = masks.get(legal)
        if m is None:  # masks recur (a payment's cards, "done", the takes): kept per rule set
            m = np.zeros(self.num_actions, dtype=np.int8)
            if legal:
                m[list(legal)] = 1
            if len(masks) < 4096:
                masks[legal] = m
        return m.copy()

    def observe(self, seat: int) -> np.ndarray:
        """The observation vector of ``seat``: ``encoder.encode(game.view(seat))``, with the
        ``decision`` slice counting the integers chosen so far for the seat that is choosing
        them. A new array every call (never changed afterwards). Made from the game's state
        by :class:`~alhambra.env.incremental.SeatObservations`, which rewrites only what
        changed since the seat's last observation (equal to the reference encoding).

        ``seat``: ``0 .. players - 1``, an ``int`` or a numpy integer. Raises
        :class:`ConfigError` for anything else (as ``game.view(seat)`` does; ``-1`` would
        otherwise read as the last seat)."""
        seat = self._seat(seat)
        game = self.game
        if type(game) is KernelGame and self._native is not None:
            out = np.empty(self.observation_size, dtype=np.float32)
            self._observe_kernel(game, seat, out)
            return out
        out = self._observations.observe(game, seat).copy()
        d = self._decision
        if d is not None and d.prefix and seat == game.current_player:
            base = self._decision_start
            for i in d.prefix:
                out[base + i] += 1
        return out

    def observe_into(self, seat: int, out: np.ndarray) -> None:
        """:meth:`observe` written into ``out`` (a ``float32`` vector of
        :attr:`observation_size`, e.g. a slice of OpenSpiel's buffer) without a new array."""
        seat = self._seat(seat)
        game = self.game
        if type(game) is KernelGame and self._native is not None and out.flags.c_contiguous and out.flags.writeable:
            self._observe_kernel(game, seat, out)
            return
        np.copyto(out, self._observations.observe(game, seat))
        d = self._decision
        if d is not None and d.prefix and seat == game.current_player:
            base = self._decision_start
            for i in d.prefix:
                out[base + i] += 1

    def observe_agent(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``(observe(seat), mask)``: the mask all zero unless ``seat`` decides now (the
        PettingZoo environment's observation of an agent), in one call on the kernel."""
        game = self.game
        if type(game) is KernelGame and self._native is not None and type(seat) is int:
            obs = np.empty(self.observation_size, dtype=np.float32)
            mask = np.empty(self.num_actions, dtype=np.int8)
            current = seat == game._kernel.current_player
            if current and self._decision is None:
                self._decision = KernelDecision(self._native, game, self.codec)
            self._native.observe_agent(game._kernel, seat, obs, mask, current)
            return obs, mask
        mask = self.mask() if seat == game.current_player else np.zeros(self.num_actions, dtype=np.int8)
        return self.observe(seat), mask

    def _observe_kernel(self, game: KernelGame, seat: int, out: np.ndarray) -> None:
        """:meth:`observe` of a game on the kernel, written by the kernel into ``out``."""
        d = self._decision
        chosen = type(d) is KernelDecision and seat == game.current_player and bool(d.native.prefix())
        self._native.observe_into(game._kernel, seat, out, chosen)

    def _seat(self, seat: Any) -> int:
        """``seat`` as a seat of this game. Raises :class:`ConfigError` unless it is an
        integer (not a ``bool``) in ``0 .. players - 1``."""
        if isinstance(seat, np.integer) and not isinstance(seat, np.bool_):
            seat = int(seat)
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ConfigError(f"seat must be an int 0..{self.players - 1}, not {seat!r}")
        return seat

    def render(self, seat: int | None = None) -> str:
        """The game as text: ``seat``'s view, or a spectator's with ``None``."""
        return render_view(self.game.view(seat))

    # -- acting -----------------------------------------------------------------------------

    def step(self, i: Any) -> Action | None:
        """Take integer ``i`` for the player to move; once it completes an action, the
        engine plays it and it is returned. Raises
        :class:`~alhambra.IllegalActionError` for an integer that is not legal now (nothing
        changes then), also for anything but an integer (see :func:`as_action_int`)."""
        if type(i) is not int:
            i = as_action_int(i)
        d = self.decision
        if type(d) is KernelDecision:
            done = d.choose_listed(i)
            if done is None:
                return None
            self._decision = None
            game = self.game
            if type(game) is KernelGame and game is d.game and len(game.history) == d.at:
                return game._apply_listed(*done)
            # handed over to Python since the decision was made (a bot read its state), or the
            # game moved on behind the session: the action is checked as any other is
            played = kernel.action_of(done[1], game.rules)
            game.apply(played)
            return played
        action = d.choose(i)
        if action is not None:
            self.game.apply(action)
            self._decision = None
        return action

    def encode(self, action: Action) -> tuple[int, ...]:
        """The code of ``action`` in the current state (``codec.encode(action, game)``)."""
        if self.on_kernel and not self.game.is_over:
            d = self.decision
            code = kernel.code_of(action, self.game.rules)
            found = None if code is None or type(d) is not KernelDecision else d.native.encode(code)
            if found is not None:
                return tuple(found)
        return self.codec.encode(action, self.game)

    def play(self, action: Action) -> None:
        """Play a whole engine action (a bot's), dropping any unfinished one."""
        self.game.apply(action)
        self._decision = None


class KernelDecision:
    """:class:`~alhambra.env.codec.Decision` of a game on the kernel: the codes of the legal
    actions, the integers legal after ``prefix`` and the action a complete code is, worked
    out by the kernel (``alhambra_kernel.KernelEnv``, the same codes as the Python codec's)."""

    __slots__ = ("codec", "game", "native", "at")

    def __init__(self, native: Any, game: KernelGame, codec: ActionCodec) -> None:
        self.native = native
        self.game = game
        self.codec = codec
        #: the length of the game's history when the decision was listed (a game that moved on
        #: since has its action checked again when it is played)
        self.at = len(game.history)
        native.load(game._kernel)

    @property
    def legal(self) -> list[Action]:
        """The legal actions (the engine's list)."""
        return self.game.legal_actions()

    @property
    def prefix(self) -> tuple[int, ...]:
        """The integers chosen so far (settable: ``()`` starts the action again; raises
        :class:`IllegalActionError` for integers that do not begin a legal action)."""
        return tuple(self.native.prefix())

    @prefix.setter
    def prefix(self, value: tuple[int, ...]) -> None:
        self.native.clear_prefix()
        for i in value:
            if self.choose_listed(i) is not None:
                raise IllegalActionError(f"{tuple(value)!r} completes an action")

    def legal_tuple(self) -> tuple[int, ...]:
        """The integers legal now (after ``prefix``), ascending."""
        return tuple(self.native.legal_ints())

    def legal_ints(self) -> list[int]:
        """The integers legal now (after ``prefix``), ascending."""
        ints: list[int] = self.native.legal_ints()
        return ints

    def choose_listed(self, i: int) -> tuple[int, int] | None:
        """Take integer ``i``: None while the action is unfinished, else ``(index in the
        kernel's legal list, kernel code)``. Raises :class:`IllegalActionError` for an integer
        not legal now (nothing changes)."""
        try:
            done: tuple[int, int] | None = self.native.choose(i)
            return done
        except (ValueError, OverflowError):
            try:
                what = self.codec.describe(i)
            except IllegalActionError:
                what = "out of range"
            raise IllegalActionError(f"{i!r} ({what}) is not legal now") from None

    def choose(self, i: int) -> Action | None:
        """As :meth:`Decision.choose`: the action once its code is complete, else None."""
        done = self.choose_listed(i)
        if done is None:
            return None
        return kernel.action_of(done[1], self.game.rules)
