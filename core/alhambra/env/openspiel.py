"""OpenSpiel game ``python_alhambra`` (the ``openspiel`` extra); importing this module
registers it:

    import pyspiel, alhambra.env.openspiel
    game = pyspiel.load_game("python_alhambra", {"players": 4, "modules": "vizier,bonus_cards"})

Parameters: ``players`` (2-6), ``modules`` (names joined by ``+``, ``"vizier+bonus_cards"``,
or ``"all"``; default none; a comma-separated string is accepted and written with ``+``, since
OpenSpiel's game strings split on commas), ``seed`` (the initial deal: every initial state is
that seed's game, a fixed root; the default ``-1`` is seed 0, so ``new_initial_state()`` gives
the same root every time and ``load_game(str(game))`` the same game), ``max_moves`` (a bound on
the integers of one game, chance outcomes included; a game that reaches it ends as a draw,
each seat 1/n, even at a chance node; random games take 400-1100), ``engine`` (``"auto"``, the
default: the compiled rules kernel where it plays the rule set and its environments' codec and
observer cover it, which they do for the base game and the six modules; ``"python"``;
``"kernel"``; the same games, chance outcomes and tensors either way).

On the kernel a state stays there: the kernel plays each action with its draws decided by the
chance outcomes chosen so far, or finds its next chance event, with the same draws,
arrangements and distributions as :mod:`alhambra.env.chance`
(``alhambra_kernel.spiel_next_draw``, ``kernel/core/src/draws.rs``); an action that draws
nothing is played at once. The tensors are then written by the kernel straight into the
observer's buffer (``alhambra_kernel.spiel_tensor``), and
:meth:`AlhambraState.observation_tensor` and :meth:`~AlhambraState.information_state_tensor`
return ``float32`` numpy arrays, not lists of Python floats (an observation holds thousands of
floats, whose conversion to a list cost far more than writing them).

Actions are the integers of :class:`~alhambra.env.codec.ActionCodec`; a purchase or placement
is a few moves of the same player. Utilities are each seat's share of the victory (constant
sum 1, R-END-4).

**Chance is explicit** (``EXPLICIT_STOCHASTIC``): every draw from a hidden pile is a chance
node whose outcomes name the item drawn, with its true probability given everything the
state holds except the hidden orders: the bag (each building left equally likely, R-SET-1),
the money deck (scoring cards and exchange offices uniformly within the undrawn part of their
setup pile, money cards exchangeable, R-SET-6, R-EXC-1) and modules' hidden piles (the
building huts' face-down stacks, R-HUT-1; a third-party module declares its own with the
hook ``alhambra_hidden_piles``). When a player's integers complete an action that draws, the
state becomes a chance node, once per draw with more than one possible outcome, and the
action is played when the last outcome is chosen, each drawn item first moved to the drawn
position (see :mod:`alhambra.env.chance`). A draw's number can depend on what was drawn
before it (a scoring card drawn into the money display is followed by another draw,
R-SCORE-1): the next chance node is found by playing the action on a clone with the outcomes
fixed so far. So the engine's own hidden order never decides a draw, and ``clone()`` can stay
exact (as OpenSpiel's random-simulation test demands) while no search that clones, OpenSpiel's
plain MCTS included, can know the next draw: two clones given the same move reach the same
chance node and draw independently. Chance outcome ids (``max_chance_outcomes``): every tile
of the rule set's catalogue, then every distinct card by code, then any other item of a
module's hidden pile (:class:`~alhambra.env.chance.ChanceTable`). The initial deal (bag,
deck, hands, starting player, module set-up) is not chance: it is the engine's game of the
``seed`` parameter, as in ``alhambra.new_game``; what it hides is hidden again at once,
since every later draw is a chance node.

Searches for imperfect information start from :meth:`AlhambraState.resample_from_infostate`,
which also resamples the hidden present (the other hands, module secrets) through
``Game.determinize``; OpenSpiel's ISMCTS does so at every simulation.
:class:`HeuristicEvaluator` values a state as the greedy bot does (projected points, so it
sees a difference before the first scoring); :class:`ScoreEvaluator` by the points scored so
far only (equal shares until the first scoring), for searches that should not play random
games to the end.

Serialisation: OpenSpiel serialises a Python state as its pickled attributes; this state's
single attribute pickles as the engine's JSON save (no engine object is pickled). But
``deserialize_state`` *unpickles* the string (OpenSpiel does so for every Python game), and
unpickling can run any code: only deserialise strings you made yourself (the engine's own
``Game.to_json``/``from_json`` saves are plain JSON and safe to load). A state of another
setup (players, modules, options) is refused with :class:`SaveFormatError`.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pyspiel

from alhambra import Action, AlhambraError, ConfigError, Game, IllegalActionError, SaveFormatError
from alhambra import kernel
from alhambra.engine.state import MAX_PLAYERS, MIN_PLAYERS
from alhambra.errors import shown
from alhambra.game import KernelGame, returns

from . import chance
from .chance import ChanceTable
from .codec import Decision
from .observation import render_view
from .session import KernelDecision, Session, as_action_int, as_integer_option, as_number_option, parse_modules

#: OpenSpiel's player ids of a terminal state and of a chance node, as plain ints
_TERMINAL: int = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: int = int(pyspiel.PlayerId.CHANCE)

__all__ = ["GAME_TYPE", "AlhambraGame", "AlhambraState", "HeuristicEvaluator", "ScoreEvaluator"]

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "modules": "",
    "seed": -1,
    "max_moves": 20_000,
    "engine": "auto",
}

GAME_TYPE = pyspiel.GameType(
    short_name="python_alhambra",
    long_name="Python Alhambra",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


#: The largest integer parameter OpenSpiel holds (its game parameters are C ``int``): the
#: bound of ``seed`` and ``max_moves``.
MAX_PARAMETER = 2**31 - 1


class AlhambraGame(pyspiel.Game):
    """The OpenSpiel game of one rule set (see the module docstring for the parameters).
    Raises :class:`ConfigError` naming the parameter for a bad one: ``players`` not an
    integer 2-6 (R-COMP-1), ``max_moves`` not an integer 1 … :data:`MAX_PARAMETER`, ``seed``
    not an integer -1 … :data:`MAX_PARAMETER` (a bool, a float or a string is no integer),
    ``modules`` not a string."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.players = as_integer_option(p["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
        if not isinstance(p["modules"], str):
            raise ConfigError(f"modules must be module names joined by '+' (a string), not {shown(p['modules'])}")
        self.modules = parse_modules(p["modules"].replace("+", ","))
        p["modules"] = "+".join(m if isinstance(m, str) else repr(m) for m in self.modules)
        self.max_moves = as_integer_option(p["max_moves"], "max_moves", 1, MAX_PARAMETER)
        self.seed = as_integer_option(p["seed"], "seed", -1, MAX_PARAMETER)
        if not isinstance(p["engine"], str):
            raise ConfigError(f"engine must be a string, not {shown(p['engine'])}")
        p.update(players=self.players, max_moves=self.max_moves, seed=self.seed)
        self.template = Session(self.players, self.modules, None, p["engine"])
        self.chance_table = _table(self.template)
        n = self.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.template.num_actions,
            max_chance_outcomes=self.chance_table.size,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_moves,
        )
        super().__init__(GAME_TYPE, info, {k: p[k] for k in _DEFAULTS})

    def draw_seed(self) -> int:
        """The seed of every initial state (a fixed root): ``seed``, or 0 for ``-1``."""
        return max(self.seed, 0)

    def new_initial_state(self) -> AlhambraState:
        return AlhambraState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> AlhambraObserver:
        """The observer of one seat: its public and its own private information (OpenSpiel's
        default observation type), with ``perfect_recall`` for the information state. Raises
        :class:`ConfigError` for observation parameters and for any other observation type
        (public information only, or every seat's private information), which this game does
        not make: it would hand out the seat's hand where none was asked for."""
        if params:
            raise ConfigError(f"observation parameters are not supported: {params!r}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ConfigError(
                "python_alhambra observes one seat with its public and its own private information only "
                f"(public_info=True, private_info=SINGLE_PLAYER), not {iig_obs_type}"
            )
        perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return AlhambraObserver(self.template, perfect_recall)

    def observer(self, perfect_recall: bool) -> AlhambraObserver:
        """The game's own observer of :meth:`AlhambraState.observation_tensor`
        (``perfect_recall=False``) or :meth:`AlhambraState.information_state_tensor` (``True``),
        made on first use (its buffer is rewritten by every call)."""
        found: dict[bool, AlhambraObserver] = self.__dict__.setdefault("_observers", {})
        obs = found.get(perfect_recall)
        if obs is None:
            obs = found[perfect_recall] = AlhambraObserver(self.template, perfect_recall)
        return obs


class _Holder:
    """The state's one attribute: its session, made on first use (OpenSpiel's ``clone()``
    makes an initial state and then overwrites its attributes: a lazy session costs nothing
    then and draws no seed), the moves so far, and at a chance node the action waiting for
    its draws: ``pending`` (its integers), ``action`` (the engine action), ``script`` (the
    outcomes fixed so far, :mod:`alhambra.env.chance`) and ``chance`` (the draw now: its
    source and ``[(outcome id, probability), ...]``)."""

    __slots__ = ("_session", "action", "chance", "drawn", "game", "listed", "moves", "pending", "record", "script")

    def __init__(
        self,
        game: AlhambraGame | None,
        session: Session | None = None,
        moves: int = 0,
    ) -> None:
        self.game = game
        self._session = session
        self.moves = moves
        #: a digest of the public record (every move but a declined vizier offer, R-VIZ-5),
        #: chained move by move: the information state's history in constant size
        self.record = b""
        self.pending: tuple[int, ...] | None = None
        self.action: Action | None = None
        self.script: list[tuple[str, Any]] = []
        self.chance: tuple[str, list[tuple[int, float]]] | None = None
        #: the outcome ids of ``script`` (the items drawn so far for the waiting action)
        self.drawn: tuple[int, ...] = ()
        #: for a game on the kernel, ``(index, code)`` of the waiting action in its list
        self.listed: tuple[int, int] | None = None

    @property
    def session(self) -> Session:
        s = self._session
        if s is None:
            if self.game is None:
                raise AlhambraError("a restored state without its game has no session")
            s = self._session = self.game.template.copy()
            s.reset(self.game.draw_seed())
        return s

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        new = _Holder(self.game, self.session.copy(), self.moves)
        new.record = self.record
        new.pending, new.action, new.script, new.chance = self.pending, self.action, list(self.script), self.chance
        new.drawn, new.listed = self.drawn, self.listed
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialisation) as the session's JSON save, the moves and, at
        a chance node, the waiting action's integers and the outcomes fixed so far (as
        outcome ids): no engine object is pickled."""
        script = None
        if self.pending is not None:
            table = self.session_table()
            script = [(src, table.id_of(item)) for src, item in self.script]
        return (_restore_holder, (self.session, self.moves, self.pending, script, self.record))

    def session_table(self) -> ChanceTable:
        return _table(self.session)

    def wait_for_draws(self, pending: tuple[int, ...], action: Action, listed: tuple[int, int] | None = None) -> None:
        """Play ``action`` (the integers ``pending``) once its draws are decided: a chance
        node for the next draw that has more than one outcome, else the action itself.
        ``listed``: ``(index, code)`` of the action in the kernel's list, for a game on the
        kernel (which then finds the draws itself)."""
        self.pending, self.action, self.script, self.listed = pending, action, [], listed
        self.advance()

    def advance(self) -> None:
        """Find the next draw of the waiting action (a chance node), or play it. A game on the
        kernel stays there: the kernel plays the action with the outcomes fixed so far
        (``alhambra_kernel.spiel_next_draw``, ``kernel/core/src/draws.rs``: the same draws,
        arrangements and distributions as :mod:`alhambra.env.chance`); without the action's
        place in the kernel's list, on the game's Python copy (``KernelGame._twin``), the
        copy that played it going back to the kernel. Raises :class:`chance.Unavailable` if
        the outcomes do not fit the game."""
        s = self.session
        game = s.game
        table = _table(s)
        if self.listed is not None and type(game) is KernelGame:
            kinds = _SOURCES
            try:
                found = kernel.native.spiel_next_draw(
                    game._kernel, self.listed[0], [(kinds.code[src], _kernel_item(x)) for src, x in self.script]
                )
            except (ValueError, KeyError) as exc:
                raise chance.Unavailable(f"the outcomes do not fit this game: {exc}") from None
            if found is None:  # played, every draw decided
                game._played(self.action)  # type: ignore[arg-type]
                s._decision = None
                self._done()
                return
            source, outcomes, fixed = found
            cards = game.rules.cards
            self.script = [(kinds.name[k], _python_item(k, x, cards)) for k, x in fixed]
            self.chance = (
                kinds.name[source],
                sorted((table.id_of(_python_item(source, x, cards)), p) for x, p in outcomes),
            )
            self.drawn = tuple(table.id_of(x) for _src, x in self.script)
            return
        on_kernel = type(game) is KernelGame
        found = chance.next_draw(game._twin() if on_kernel else game, self.action, self.script)  # type: ignore[arg-type, attr-defined]
        if isinstance(found, chance.Chance):
            self.script = list(found.script)
            self.chance = (found.source, sorted((table.id_of(x), p) for x, p in found.outcomes))
            self.drawn = tuple(table.id_of(x) for _src, x in self.script)
            return
        # the clone that played the action, every draw decided (back on the kernel)
        s.load(KernelGame._adopt_for("auto", found) if on_kernel else found)
        self._done()

    def _done(self) -> None:
        self.pending, self.action, self.script, self.chance, self.listed = None, None, [], None, None
        self.drawn = ()


class _Sources:
    """The kernel's hidden piles by number and the Python sources' names (``kernel/core/src/
    draws.rs``: 0 the bag, 1 the deck, ``2 + t`` the building huts' stack of type ``t``)."""

    def __init__(self) -> None:
        from alhambra import BUILDING_TYPES

        self.name = [chance.BAG, chance.DECK, *(f"building huts: {t} stack" for t in BUILDING_TYPES)]
        self.code = {name: k for k, name in enumerate(self.name)}


_SOURCES = _Sources()


def _kernel_item(item: Any) -> Any:
    """A drawn item as the kernel takes it: a building's number, a hut's id, a card's code."""
    return item if isinstance(item, (int, str)) else item.code


def _python_item(source: int, item: Any, cards: dict[str, Any]) -> Any:
    """A drawn item the kernel names (see :func:`_kernel_item`) as the Python engine holds it."""
    return cards[item] if source == 1 else item


def _table(session: Session) -> ChanceTable:
    """The chance outcome ids of ``session``'s rule set (made once per rule set)."""
    key = session.setup
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = ChanceTable(session.game)
    return found


_TABLES: dict[tuple[Any, ...], ChanceTable] = {}


def _restore_holder(
    session: Session,
    moves: int,
    pending: tuple[int, ...] | None,
    script: list[tuple[str, int]] | None,
    record: bytes = b"",
) -> _Holder:
    h = _Holder(None, session, moves)
    h.record = bytes(record)
    if pending is not None:
        table = _table(session)
        action = _decode(session, pending)
        h.pending, h.action = tuple(pending), action
        h.script = [(src, table.items[i]) for src, i in script or []]
        h.advance()
    return h


def _listed(session: Session, ints: tuple[int, ...]) -> tuple[int, int] | None:
    """For a game on the kernel, ``(index, code)`` in the kernel's list of the action whose
    integers are ``ints``, else None. Raises :class:`IllegalActionError` if they are not one
    legal action."""
    game = session.game
    if type(game) is not KernelGame or session._native is None:
        return None
    d = KernelDecision(session._native.fork(), game, session.codec)
    for i in ints[:-1]:
        if d.choose_listed(i) is not None:
            raise IllegalActionError(f"{ints!r} is not one action")
    done = d.choose_listed(ints[-1])
    if done is None:
        raise IllegalActionError(f"{ints!r} does not complete an action")
    return done


def _decode(session: Session, ints: tuple[int, ...]) -> Action:
    """The engine action of the integers ``ints`` in ``session``'s game. Raises
    :class:`IllegalActionError` if they are not one legal action."""
    d = Decision(session.codec, session.game.legal_actions(), session.game)
    for i in ints[:-1]:
        if d.choose(i) is not None:
            raise IllegalActionError(f"{ints!r} is not one action")
    action = d.choose(ints[-1])
    if action is None:
        raise IllegalActionError(f"{ints!r} does not complete an action")
    return action


class AlhambraState(pyspiel.State):
    """A state of ``python_alhambra``: an engine game played one integer at a time, with a
    chance node for each draw from a hidden pile (see the module docstring)."""

    def __init__(self, game: AlhambraGame) -> None:
        super().__init__(game)
        self._h = _Holder(game)

    def __setattr__(self, name: str, value: Any) -> None:
        """OpenSpiel's ``deserialize_state`` makes an initial state of this game and sets the
        unpickled attributes on it: a restored state is checked here to be of this game's
        setup (players, modules, options) and is given the game. Raises
        :class:`SaveFormatError` (a :class:`ConfigError`) naming both setups otherwise."""
        if name == "_h" and isinstance(value, _Holder) and value.game is None and "_h" in self.__dict__:
            game: AlhambraGame = self._h.game  # type: ignore[assignment]
            theirs, ours = value.session, game.template
            if theirs.setup != ours.setup:
                raise SaveFormatError(
                    f"the state is of another setup: {theirs.players} players, modules {theirs.modules}, "
                    f"options {theirs.setup[2]}; this game has {ours.players} players, "
                    f"modules {ours.modules}, options {ours.setup[2]}"
                )
            value.game = game
        super().__setattr__(name, value)

    @property
    def session(self) -> Session:
        """The engine game and the unfinished action (at a chance node: the game before the
        waiting action)."""
        return self._h.session

    def _max_moves(self) -> int:
        game = self._h.game  # read at every call of OpenSpiel's: its attribute, not a call into C++
        return game.max_moves if game is not None else self.get_game().max_game_length()

    def current_player(self) -> int:
        h = self._h
        if h.moves >= self._max_moves():
            return _TERMINAL  # cut off, a waiting action too
        if h.chance is not None:
            return _CHANCE
        s = self.session
        if s.game.is_over:
            return _TERMINAL
        return s.game.current_player  # type: ignore[return-value]

    def is_chance_node(self) -> bool:
        return self._h.chance is not None and self._h.moves < self._max_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, ``[(outcome id, probability), ...]`` by id, the probabilities
        summing to 1 (see :mod:`alhambra.env.chance`); elsewhere ``[]``."""
        found = self._h.chance
        return list(found[1]) if found is not None and self.is_chance_node() else []

    def observation_tensor(self, player: Any = None) -> np.ndarray:
        """``player``'s observation tensor (default: the player to move), as OpenSpiel's
        observer writes it (:class:`AlhambraObserver`), returned as a new ``float32`` numpy
        array of ``observation_tensor_size()`` rather than the list of Python floats a C++
        game returns: an observation holds thousands of floats, and converting them to a
        list would cost ten times the observation itself (code that converts with
        ``np.asarray`` or ``np.array``, as OpenSpiel's own algorithms do, gets the same
        values). Raises :class:`ConfigError` unless ``player`` is a seat (a chance node or a
        finished game has no player to move)."""
        return self._tensor(False, player)

    def information_state_tensor(self, player: Any = None) -> np.ndarray:
        """``player``'s information-state tensor (default: the player to move): as
        :meth:`observation_tensor`, with the ``known_hands`` slice (``information_state_tensor_size()``)."""
        return self._tensor(True, player)

    def _tensor(self, perfect_recall: bool, player: Any) -> np.ndarray:
        if player is None:
            player = self.current_player()
        game: AlhambraGame = self._h.game  # type: ignore[assignment]
        obs = game.observer(perfect_recall)
        obs.set_from(self, player)
        return obs.tensor.copy()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        if player == pyspiel.PlayerId.CHANCE:
            return [i for i, _ in self.chance_outcomes()]
        return self.session.legal_ints()

    def _apply_action(self, action: int) -> None:
        h = self._h
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if h.chance is not None:
            i = as_action_int(action)
            source, outcomes = h.chance
            if all(i != j for j, _ in outcomes):
                raise IllegalActionError(f"{i!r} is not an outcome of this draw from the {source}")
            script, chance_now, drawn = h.script, h.chance, h.drawn
            h.script = [*script, (source, _table(self.session).items[i])]
            h.chance = None
            try:
                h.advance()
            except BaseException:  # (a misdeclared hidden pile, say): the state stays as it was
                h.script, h.chance, h.drawn = script, chance_now, drawn
                raise
            h.moves += 1
            h.record = _chain(h.record, b"c", i)
            return
        s = self.session
        prefix = s.prefix
        i = as_action_int(action)
        d = s.decision
        listed = None
        if type(d) is KernelDecision and d.game is s.game and len(s.game.history) == d.at:
            listed = d.choose_listed(i)  # (index, code) in the kernel's list once complete
            done = None if listed is None else kernel.action_of(listed[1], s.game.rules)
        else:
            done = d.choose(i)
        if done is not None:
            try:
                h.wait_for_draws((*prefix, i), done, listed)
            except BaseException:  # the state stays as it was: the action still unfinished
                h.pending, h.action, h.script, h.chance = None, None, [], None
                s._decision = None
                for j in prefix:
                    s.decision.choose(j)
                raise
        h.moves += 1
        if i not in _declines(s):  # a declined vizier offer is not on the public record (R-VIZ-5)
            h.record = _chain(h.record, b"p", i)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            found = self._h.chance
            return _table(self.session).describe(found[0] if found is not None else None, int(action))
        return self.session.codec.describe(int(action))

    def is_terminal(self) -> bool:
        """The game is over, or cut off at ``max_moves`` (a waiting action is then dropped)."""
        if self._h.moves >= self._max_moves():
            return True
        return self._h.chance is None and self.session.game.is_over

    def returns(self) -> list[float]:
        s = self.session
        n = s.players
        if self._h.chance is None and s.game.is_over:
            return list(returns(s.game))
        if self._h.moves >= self._max_moves():
            return [1.0 / n] * n  # cut off: a draw (constant sum)
        return [0.0] * n

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> AlhambraState:
        """A state ``player_id`` cannot tell from this one, with everything it cannot see
        resampled (``Game.determinize``): the other hands, the bag and the deck order within
        the setup piles, the modules' secrets. ``probability_sampler`` (OpenSpiel's uniform
        sampler) seeds the resampling. An unfinished action of another player, or at a chance
        node the waiting action and the outcomes fixed so far, are kept when the resampled
        state allows them (retried up to 100 times); raises :class:`AlhambraError`
        otherwise, and :class:`ConfigError` if ``player_id`` is not a seat."""
        h = self._h
        s = self.session
        player_id = s._seat(player_id)  # ConfigError for a seat that is not one (not 100 failed tries)
        u = probability_sampler() if callable(probability_sampler) else random.random()
        rng = random.Random(int(u * 2**53))
        new: AlhambraState = self.clone()
        nh = new._h
        for _ in range(100):
            try:
                game = s.game.determinize(player_id, rng)
                if h.pending is None:
                    nh._session = s.with_game(game, s.prefix)
                    return new
                nh._session = ns = s.with_game(game)
                nh.listed = _listed(ns, h.pending)  # on the kernel: decoded there (no hand-over)
                action = _decode(ns, h.pending) if nh.listed is None else kernel.action_of(nh.listed[1], game.rules)
                nh.pending, nh.action, nh.script = h.pending, action, list(h.script)
                nh.advance()
                if nh.chance is not None and nh.chance[0] == h.chance[0]:  # type: ignore[index]
                    return new
            except AlhambraError:
                continue
        raise AlhambraError(
            f"no resampled state of seat {player_id} allows the unfinished action {s.prefix or h.pending}"
        )

    def __str__(self) -> str:
        """Everything, for debugging: the spectator's view, every hand, the unfinished action
        (at a chance node: the waiting action and the outcomes fixed so far)."""
        s = self.session
        hands = "\n".join(
            f"hand {i}: {' '.join(c.code for c in s.game._python().state.players[i].hand)}" for i in range(s.players)
        )
        text = f"{render_view(s.game.view(None))}\n{hands}\nchosen: {list(s.prefix)}\nmoves: {self._h.moves}"
        h = self._h
        if h.pending is not None:
            drawn = ", ".join(f"{src}: {getattr(x, 'code', x)}" for src, x in h.script)
            text += f"\nwaiting: {h.action} ({list(h.pending)}), drawn: [{drawn}], next draw from {h.chance[0] if h.chance else None}"
        return text


def _chain(record: bytes, kind: bytes, i: int) -> bytes:
    """The record's digest after one more move (``kind`` ``b"c"`` chance, ``b"p"`` a player's)."""
    return hashlib.blake2b(record + kind + i.to_bytes(8, "little", signed=True), digest_size=16).digest()


_DECLINES: dict[int, frozenset[int]] = {}


def _declines(session: Session) -> frozenset[int]:
    """The integers of ``DeclineVizier`` in ``session``'s action space (none without the vizier)."""
    key = id(session.codec)
    found = _DECLINES.get(key)
    if found is None:
        found = _DECLINES[key] = frozenset(
            start + k for name, start, size in session.codec.layout() if name == "DeclineVizier" for k in range(size)
        )
    return found


def _hands(game: Game) -> list[list[Any]]:
    """Every seat's hand (read without handing a game on the kernel over to Python)."""
    return [p.hand for p in game._python().state.players]


def _waiting(state: AlhambraState) -> tuple[tuple[int, ...], list[Any]]:
    """At a chance node, the integers of the action waiting for its draws (played openly: a
    purchase's payment goes face up, a placement and a taken hut are on the table) and the
    items drawn for it so far (public: they went to the market, the money display, Dirk or a
    hut stack's top); else ``((), [])``."""
    h = state._h
    if h.pending is None or not state.is_chance_node():
        return (), []
    return h.pending, [item for _source, item in h.script]


class AlhambraObserver:
    """OpenSpiel's Python observer: ``tensor`` (the observation vector of
    :class:`~alhambra.env.observation.ObservationEncoder`, then a ``drawn`` slice of
    ``max_chance_outcomes()`` counts), ``dict`` (its named slices), ``set_from(state, player)``
    and ``string_from(state, player)``.

    The information state (``perfect_recall``) adds to the tensor a ``known_hands`` slice
    ``(players, cards)``: every seat's hand (relative seats, cards as in ``hand``) as the public
    record gives it. Every money card enters a hand openly (the face-up starting deal, R-SET-3;
    takes from the display, R-TURN-2) and leaves it openly (payments go to the discard pile), so
    a player who remembers the game knows every hand (``Game.determinize`` keeps them); so two
    histories that differ in a take (dinar-9 or dirham-8) have different tensors even when the
    hand sizes agree. Its string adds those hands and the digest of the whole public record
    (every move but a declined vizier offer, which must look like a seat not asked, R-VIZ-5;
    chained move by move, so it costs the same at move 10 and move 1000).

    At a chance node the game is still the one before the waiting action (it is played once
    its draws are chosen), so the action is shown to every seat, as it was played openly: its
    integers are counted in the ``decision`` slice and named in the string (``"waiting for its
    draws: ..."``), and the items drawn for it so far (public) are counted in ``drawn`` by
    chance outcome id and named (``"drawn: ..."``). A chance node is then never observed like
    the decision before it, nor like another chance node of the same action. ``drawn`` is zero
    everywhere else. ``player``: a seat, an ``int`` or numpy integer; anything else is a
    :class:`ConfigError`."""

    def __init__(self, template: Session, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self._table = _table(template)
        size = template.observation_size
        self._size = size
        enc = template.encoder
        self._cards = {c: k for k, c in enumerate(enc.cards)}
        self._n, self._k = template.players, len(enc.cards)
        extra = self._n * self._k if perfect_recall else 0
        self.tensor = np.zeros(size + self._table.size + extra, np.float32)
        self.dict = enc.views(self.tensor[:size])
        self.dict["drawn"] = self.tensor[size : size + self._table.size]
        if perfect_recall:
            self.dict["known_hands"] = self.tensor[size + self._table.size :].reshape(self._n, self._k)
        self._decision_start = template._decision_start

    def set_from(self, state: AlhambraState, player: int) -> None:
        s = state.session
        game = s.game
        if type(game) is KernelGame and s._native is not None:  # written by the kernel in one call
            h = state._h
            waiting = h.pending is not None and state.is_chance_node()
            kernel.native.spiel_tensor(
                s._native,
                game._kernel,
                s._seat(player),
                self.tensor,
                type(s._decision) is KernelDecision,
                h.pending if waiting else (),
                h.drawn if waiting else (),
                self._table.size,
                self.perfect_recall,
            )
            return
        size = self._size
        tensor = self.tensor
        s.observe_into(player, tensor[:size])  # straight into the buffer OpenSpiel reads
        tensor[size:] = 0
        pending, drawn = _waiting(state)
        base = self._decision_start
        for i in pending:
            tensor[base + i] += 1
        for item in drawn:
            tensor[size + self._table.id_of(item)] += 1
        if self.perfect_recall:
            known = self.dict["known_hands"]
            cards = self._cards
            n = self._n
            for p, hand in enumerate(_hands(s.game)):
                row = known[(p - player) % n]
                for c in hand:
                    row[cards[c]] += 1

    def string_from(self, state: AlhambraState, player: int) -> str:
        s = state.session
        player = s._seat(player)
        text = render_view(s.game.view(player))
        if s.prefix and player == s.game.current_player:
            text += "\nchosen: " + " ".join(s.codec.describe(i) for i in s.prefix)
        pending, drawn = _waiting(state)
        if pending:
            text += "\nwaiting for its draws: " + " ".join(s.codec.describe(i) for i in pending)
            text += "\ndrawn: " + (", ".join(str(getattr(x, "code", x)) for x in drawn) or "nothing yet")
        if self.perfect_recall:
            hands = "; ".join(f"{p}: {' '.join(c.code for c in hand)}" for p, hand in enumerate(_hands(s.game)))
            text += f"\nknown hands: {hands}\nrecord: {state._h.record.hex()} ({state._h.moves} moves)"
        return text


class ScoreEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots that plays nothing out: a finished
    game's returns, otherwise each seat's share of the points scored so far (equal shares
    before the first scoring); uniform priors over the legal integers."""

    def evaluate(self, state: AlhambraState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        scores = np.array(state.session.game.scores, dtype=np.float64)
        total = scores.sum()
        return scores / total if total > 0 else np.full(len(scores), 1.0 / len(scores))

    def prior(self, state: AlhambraState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class HeuristicEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots that values a state as the greedy bot
    does (:class:`alhambra.bots.evaluate.Evaluator`: score plus projected points of the
    majorities, the outer wall, money and reserve, so it tells positions apart long before the
    first scoring): a finished game's returns, otherwise each seat's share as a softmax of its
    value over ``scale`` points (default 8). Priors are uniform over the legal integers."""

    def __init__(self, scale: float = 8.0) -> None:
        """Raises :class:`ConfigError` naming ``scale`` unless it is a finite real number > 0."""
        self.scale = as_number_option(scale, "scale")
        if not self.scale > 0:
            raise ConfigError(f"scale must be a positive number of points, not {shown(scale)}")

    def evaluate(self, state: AlhambraState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        from alhambra.bots.evaluate import Evaluator

        game = state.session.game
        if type(game) is KernelGame:
            game = game._twin()  # its Python copy, read only: the state's game stays on the kernel
        seat = game.current_player if game.current_player is not None else 0
        ev = Evaluator(game, seat)
        values = np.array([ev.seat_value(s) for s in range(game.num_players)], dtype=np.float64)
        z = np.exp((values - values.max()) / self.scale)
        probs: np.ndarray = z / z.sum()
        return probs

    def prior(self, state: AlhambraState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


pyspiel.register_game(GAME_TYPE, AlhambraGame)
