"""OpenSpiel game ``python_alhambra`` (the ``openspiel`` extra); importing this module
registers it:

    import pyspiel, alhambra.env.openspiel
    game = pyspiel.load_game("python_alhambra", {"players": 4, "modules": "vizier,bonus_cards"})

Parameters: ``players`` (2-6), ``modules`` (comma-separated names, ``"all"``; default none),
``seed`` (-1: the initial states get seeds 0, 1, 2, … in order of first use; else every
initial state is that seed's game), ``radius`` (the cell window), ``max_moves`` (a bound on
the integers of one game; a game that reaches it ends as a draw, each seat 1/n; random games
take 300-900), ``clones`` (``"exact"``, the default, or ``"resample"``: see below).

Actions are the integers of :class:`~alhambra.env.codec.ActionCodec`; a purchase or placement
is a few moves of the same player. Utilities are each seat's share of the victory (constant
sum 1, R-END-4).

**Chance and search.** Chance is implicit (``SAMPLED_STOCHASTIC``): the bag and the money
deck are shuffled inside the engine, and a state's ``clone()`` is exact, as OpenSpiel's
random-simulation test demands (a clone given the same action must reach the same state).
No search may use a clone of the true state to look ahead: searches for imperfect
information start from :meth:`AlhambraState.resample_from_infostate`, which resamples the
hidden future (bag and deck order, within the setup piles) and the hidden present (the other
hands, module secrets) through ``Game.determinize``; OpenSpiel's ISMCTS does so at every
simulation. With ``clones="resample"``, ``clone()`` itself resamples everything the player to
move cannot see (as ``resample_from_infostate`` does), so that a search that only clones
(OpenSpiel's MCTS) cannot read the next draws either; such clones are not exact, so the
random-simulation test is for the default. :class:`ScoreEvaluator` values a state by the
public scores, for searches that should not play random games to the end.

Serialisation: OpenSpiel serialises a Python state as its pickled attributes; this state's
single attribute pickles as the engine's JSON save (no engine object is pickled). But
``deserialize_state`` *unpickles* the string (OpenSpiel does so for every Python game), and
unpickling can run any code: only deserialise strings you made yourself (the engine's own
``Game.to_json``/``from_json`` saves are plain JSON and safe to load). A state of another
setup (players, modules, options, radius) is refused with :class:`SaveFormatError`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from alhambra import AlhambraError, ConfigError, IllegalActionError, SaveFormatError

from .codec import DEFAULT_RADIUS
from .observation import render_view
from .session import Session, parse_modules

__all__ = ["GAME_TYPE", "AlhambraGame", "AlhambraState", "ScoreEvaluator"]

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "modules": "",
    "seed": -1,
    "radius": DEFAULT_RADIUS,
    "max_moves": 20_000,
    "clones": "exact",
}
_CLONES = ("exact", "resample")

GAME_TYPE = pyspiel.GameType(
    short_name="python_alhambra",
    long_name="Python Alhambra",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
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


class AlhambraGame(pyspiel.Game):
    """The OpenSpiel game of one rule set (see the module docstring for the parameters).
    Raises :class:`ConfigError` for bad parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.players = int(p["players"])
        self.modules = parse_modules(str(p["modules"]))
        self.radius = int(p["radius"])
        self.max_moves = int(p["max_moves"])
        if self.max_moves < 1:
            raise ConfigError(f"max_moves must be at least 1, not {self.max_moves}")
        self.seed = int(p["seed"])
        self._next_seed = 0
        self.clones = str(p["clones"])
        if self.clones not in _CLONES:
            raise ConfigError(f"clones must be one of {_CLONES}, not {self.clones!r}")
        self._resample_rng = random.Random(self.seed)
        self.template = Session(self.players, self.modules, None, self.radius)
        n = self.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.template.num_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_moves,
        )
        super().__init__(GAME_TYPE, info, {k: p[k] for k in _DEFAULTS})

    def draw_seed(self) -> int:
        """The seed of the next initial state."""
        if self.seed >= 0:
            return self.seed
        s = self._next_seed
        self._next_seed += 1
        return s

    def new_initial_state(self) -> AlhambraState:
        return AlhambraState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> AlhambraObserver:
        if params:
            raise ConfigError(f"observation parameters are not supported: {params!r}")
        perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return AlhambraObserver(self.template, perfect_recall)


class _Holder:
    """The state's one attribute: its session, made on first use (OpenSpiel's ``clone()``
    makes an initial state and then overwrites its attributes: a lazy session costs nothing
    then and draws no seed), the moves so far, and how it clones (``resample``: the generator
    its clones resample with, shared by them all; ``None`` for exact clones)."""

    __slots__ = ("_session", "game", "moves", "resample")

    def __init__(
        self,
        game: AlhambraGame | None,
        session: Session | None = None,
        moves: int = 0,
        resample: random.Random | None = None,
    ) -> None:
        self.game = game
        self._session = session
        self.moves = moves
        if game is not None and game.clones == "resample" and resample is None:
            resample = game._resample_rng
        self.resample = resample

    @property
    def session(self) -> Session:
        s = self._session
        if s is None:
            if self.game is None:
                raise AlhambraError("a restored state without its game has no session")
            s = self._session = self.game.template.copy()
            s.reset(self.game.draw_seed())
        return s

    def __deepcopy__(self, memo: dict) -> _Holder:
        s = self.session
        seat = s.game.current_player
        if self.resample is not None and seat is not None:
            rng = random.Random(self.resample.getrandbits(64))
            for _ in range(100):  # keep an unfinished action, if the resampled hand allows it
                try:
                    return _Holder(
                        self.game, s.with_game(s.game.determinize(seat, rng), s.prefix), self.moves, self.resample
                    )
                except AlhambraError:
                    continue
        return _Holder(self.game, s.copy(), self.moves, self.resample)

    def __reduce__(self) -> tuple:
        """Pickled (OpenSpiel's serialisation) as the session's JSON save, the moves, and
        whether clones resample (a restored state resamples with a fresh generator)."""
        return (_restore_holder, (self.session, self.moves, self.resample is not None))


def _restore_holder(session: Session, moves: int, resample: bool) -> _Holder:
    return _Holder(None, session, moves, random.Random() if resample else None)


class AlhambraState(pyspiel.State):
    """A state of ``python_alhambra``: an engine game played one integer at a time."""

    def __init__(self, game: AlhambraGame) -> None:
        super().__init__(game)
        self._h = _Holder(game)

    def __setattr__(self, name: str, value: Any) -> None:
        """OpenSpiel's ``deserialize_state`` makes an initial state of this game and sets the
        unpickled attributes on it: a restored state is checked here to be of this game's
        setup (players, modules, options, radius) and is given the game. Raises
        :class:`SaveFormatError` (a :class:`ConfigError`) naming both setups otherwise."""
        if name == "_h" and isinstance(value, _Holder) and value.game is None and "_h" in self.__dict__:
            game: AlhambraGame = self._h.game  # type: ignore[assignment]
            theirs, ours = value.session, game.template
            if theirs.setup != ours.setup or theirs.radius != ours.radius:
                raise SaveFormatError(
                    f"the state is of another setup: {theirs.players} players, modules {theirs.modules}, "
                    f"options {theirs.setup[2]}, radius {theirs.radius}; this game has {ours.players} players, "
                    f"modules {ours.modules}, options {ours.setup[2]}, radius {ours.radius}"
                )
            value.game = game
        super().__setattr__(name, value)

    @property
    def session(self) -> Session:
        """The engine game and the unfinished action."""
        return self._h.session

    def _max_moves(self) -> int:
        return self.get_game().max_game_length()

    def current_player(self) -> int:
        s = self.session
        if s.game.is_over or self._h.moves >= self._max_moves():
            return pyspiel.PlayerId.TERMINAL
        return s.game.current_player  # type: ignore[return-value]

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self.session.legal_ints()

    def _apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        self.session.step(action)
        self._h.moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return self.session.codec.describe(int(action))

    def is_terminal(self) -> bool:
        return self.session.game.is_over or self._h.moves >= self._max_moves()

    def returns(self) -> list[float]:
        s = self.session
        n = s.players
        if s.game.is_over:
            return list(s.game.returns())
        if self._h.moves >= self._max_moves():
            return [1.0 / n] * n  # cut off: a draw (constant sum)
        return [0.0] * n

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> AlhambraState:
        """A state ``player_id`` cannot tell from this one, with everything it cannot see
        resampled (``Game.determinize``): the other hands, the bag and the deck order within
        the setup piles, the modules' secrets. ``probability_sampler`` (OpenSpiel's uniform
        sampler) seeds the resampling. An unfinished action of another player is kept when the
        resampled hand allows it (retried up to 100 times); raises :class:`AlhambraError`
        otherwise."""
        u = probability_sampler() if callable(probability_sampler) else random.random()
        rng = random.Random(int(u * 2**53))
        s = self.session
        new = self.clone()
        for _ in range(100):
            try:
                new._h._session = s.with_game(s.game.determinize(int(player_id), rng), s.prefix)
                return new
            except AlhambraError:
                continue
        raise AlhambraError(f"no resampled state of seat {player_id} allows the unfinished action {s.prefix}")

    def __str__(self) -> str:
        """Everything, for debugging: the spectator's view, every hand, the unfinished action."""
        s = self.session
        hands = "\n".join(f"hand {i}: {' '.join(c.code for c in s.game.player(i).hand)}" for i in range(s.players))
        return f"{render_view(s.game.view(None))}\n{hands}\nchosen: {list(s.prefix)}\nmoves: {self._h.moves}"


class AlhambraObserver:
    """OpenSpiel's Python observer: ``tensor`` (the observation vector of
    :class:`~alhambra.env.observation.ObservationEncoder`), ``dict`` (its named slices),
    ``set_from(state, player)`` and ``string_from(state, player)``. The information state
    (``perfect_recall``) has the same tensor; its string adds the moves so far."""

    def __init__(self, template: Session, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(template.observation_size, np.float32)
        self.dict = template.encoder.views(self.tensor)

    def set_from(self, state: AlhambraState, player: int) -> None:
        self.tensor[:] = state.session.observe(int(player))

    def string_from(self, state: AlhambraState, player: int) -> str:
        s = state.session
        text = render_view(s.game.view(int(player)))
        if s.prefix and player == s.game.current_player:
            text += "\nchosen: " + " ".join(s.codec.describe(i) for i in s.prefix)
        if self.perfect_recall:
            # a declined vizier offer is left out: to the others it must look the same as a
            # seat that could not pay exactly and was not asked (R-VIZ-5)
            moves = [a for a in state.history() if s.codec.describe(a) != "DeclineVizier"]
            text += "\nmoves: " + ",".join(str(a) for a in moves)
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


pyspiel.register_game(GAME_TYPE, AlhambraGame)
