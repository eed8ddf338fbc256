"""Playing whole games between bots, for the command line and for users' experiments.

* :func:`play` lets bots play one game; :func:`simulate_one` builds and plays one;
  :func:`result_of` summarises a finished game as a :class:`GameResult`.
* :func:`run_games` plays many games (a list of :class:`SimTask`) serially, in local worker
  processes or on Ray, and yields the results in game order. A game depends only on its task
  (configuration, seed, bots), so every backend and worker count gives the same results.
* :func:`write_results` / :func:`read_results` store results as JSON Lines, one record per game.
* :func:`summarize` / :func:`format_summary`: win rates per bot and per seat, scores (mean and
  spread), game length, how often each module's actions were used.
"""

from __future__ import annotations

import json
import os
from collections import Counter
import signal
import threading
import statistics
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from attrs import define, evolve, field, fields

from .bots import RandomBot, make_bot  # noqa: F401  (RandomBot: kept importable from here)
from .bots.base import BotSpecError
from .errors import AlhambraError, ConfigError, SimulationError
from .game import Game, KernelGame, engine_of, new_game
from .saving.position import start_position
from .lab.tasks import SimTask as SimTask  # kept importable from here

if TYPE_CHECKING:  # pragma: no cover
    from .lab.tally import Trace

#: Format tag and version of a JSON Lines results record.
RECORD_FORMAT = "alhambra-result"
RECORD_VERSION = 3
#: Versions :meth:`GameResult.from_dict` reads (version 1 lacks the fields added in 2, and
#: versions 1 and 2 the ``tallies`` added in 3).
READABLE_VERSIONS = (1, 2, 3)


@define(slots=True)
class GameResult:
    """The outcome of one simulated game.

    ``seed``, ``players`` (count), ``modules`` (names), ``bots`` (specification per seat),
    final ``scores`` per seat, ``winners`` (seats), ``actions`` (count), ``turns``, which
    ``scorings`` happened, ``action_counts`` by action type, ``module_actions`` (per module,
    the counts of its own action types), and the game's non-default ``options``.

    Since version 2: ``start_player`` (seat, R-SET-4), ``money_left`` per seat, ``points``
    (every scoring's points by source and seat: :func:`alhambra.lab.records.scoring_points`),
    ``rotation`` (how far the line-up was rotated: ``bots[s]`` is the line-up's bot
    ``(s + rotation) % players``), ``variant`` (a label, e.g. the config file's name) and
    ``play`` (:func:`play_digest` of the action sequence: two games were played move for move
    alike exactly when their digests are equal; empty in records that lack it), ``engine``
    (``"python"`` or ``"kernel"``: which engine played it; empty in records that lack it).

    Since version 3: ``tallies``, per seat what it did (:func:`alhambra.lab.tally.tallies`:
    buildings bought by type and scoring period, received at the end, built; reserve, longest
    wall, money taken and spent, purchases and exact payments, actions by type); empty in
    older records. The record format is ``docs/result-record.schema.json``."""

    seed: int
    players: int
    modules: list[str]
    scores: list[int]
    winners: list[int]
    actions: int
    scorings: list[int]
    action_counts: dict[str, int] = field(factory=dict)
    bots: list[str] = field(factory=list)
    module_actions: dict[str, dict[str, int]] = field(factory=dict)
    turns: int = 0
    options: dict[str, Any] = field(factory=dict)
    start_player: int | None = None
    money_left: list[int] = field(factory=list)
    points: list[dict[str, Any]] = field(factory=list)
    rotation: int = 0
    variant: str = ""
    play: str = ""
    engine: str = ""
    tallies: list[dict[str, Any]] = field(factory=list)

    def returns(self) -> list[float]:
        """Per seat: share of the victory (1/k for a k-way shared victory)."""
        k = len(self.winners)
        return [(1.0 / k if s in self.winners else 0.0) for s in range(self.players)]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record (the JSON Lines format of :func:`write_results`)."""
        # the fields as they are (plain lists and dicts, which nothing changes afterwards): a
        # record per game, where attrs' deep ``asdict`` cost more than playing a kernel game
        return {"format": RECORD_FORMAT, "version": RECORD_VERSION, **{n: getattr(self, n) for n in _RESULT_FIELDS}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameResult":
        """Rebuild a result from :meth:`to_dict`'s record; :class:`AlhambraError` if malformed."""
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise AlhambraError(f"not an {RECORD_FORMAT} record")
        if data.get("version") not in READABLE_VERSIONS:
            raise AlhambraError(f"unsupported {RECORD_FORMAT} version {data.get('version')!r}")
        try:
            return cls(
                seed=int(data["seed"]),
                players=int(data["players"]),
                modules=[str(m) for m in data["modules"]],
                scores=[int(s) for s in data["scores"]],
                winners=[int(w) for w in data["winners"]],
                actions=int(data["actions"]),
                scorings=[int(s) for s in data["scorings"]],
                action_counts={str(k): int(v) for k, v in data.get("action_counts", {}).items()},
                bots=[str(b) for b in data.get("bots", [])],
                module_actions={
                    str(m): {str(k): int(v) for k, v in d.items()} for m, d in data.get("module_actions", {}).items()
                },
                turns=int(data.get("turns", 0)),
                options=dict(data.get("options", {})),
                start_player=None if data.get("start_player") is None else int(data["start_player"]),
                money_left=[int(m) for m in data.get("money_left", [])],
                points=list(data.get("points", [])),
                rotation=int(data.get("rotation", 0)),
                variant=str(data.get("variant", "")),
                play=str(data.get("play", "")),
                engine=str(data.get("engine", "")),
                tallies=_tallies_of(data.get("tallies", [])),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise AlhambraError(f"malformed {RECORD_FORMAT} record: {exc!r}") from None


_RESULT_FIELDS = tuple(f.name for f in fields(GameResult))


def _tallies_of(data: Any) -> list[dict[str, Any]]:
    """A record's ``tallies`` with their numbers as ints (TypeError, ValueError or
    AttributeError for a malformed one)."""
    out = []
    for t in data:
        out.append(
            {
                "bought": [{str(k): int(v) for k, v in p.items()} for p in t["bought"]],
                "received": {str(k): int(v) for k, v in t["received"].items()},
                "built": {str(k): int(v) for k, v in t["built"].items()},
                "reserve": int(t["reserve"]),
                "wall": int(t["wall"]),
                "money_taken": int(t["money_taken"]),
                "money_spent": int(t["money_spent"]),
                "purchases": int(t["purchases"]),
                "exact": int(t["exact"]),
                "actions": {str(k): int(v) for k, v in t["actions"].items()},
            }
        )
    return out


# ---------------------------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------------------------


def play(
    game: Game, bots: list[Any], *, max_actions: int = 100_000, honest: bool = False, trace: Trace | None = None
) -> Game:
    """Let ``bots`` (one per seat) play ``game`` to the end; returns the game.

    ``honest``: every bot decides on ``game.determinize(seat)`` (a world consistent with what
    that seat may know, R-SET-3), never on
    the game itself, so no bot can read hidden state (the deck and bag order, module secrets); the worlds are drawn from a generator
    seeded by the game's seed, so an honest game is as reproducible as any other.
    ``trace``: a :class:`alhambra.lab.tally.Trace` that records who decided each action played
    here, in which phase and scoring period (what :func:`result_of` needs for the record's
    ``tallies``).

    Raises RuntimeError if the game is still running after ``max_actions`` actions, and if a
    bot returns an action that is not among the legal ones."""
    import random

    if len(bots) != game.num_players:
        raise ConfigError(f"one bot per seat ({game.num_players}), not {len(bots)}")
    if type(max_actions) is not int or max_actions < 0:
        raise ConfigError(f"max_actions must be a whole number of actions, 0 or more, not {max_actions!r}")
    rng = random.Random(game.seed * 2 + 1) if honest else None
    rec = None
    if trace is not None:
        from .lab.tally import Recorder

        rec = Recorder(game, trace)
    n = 0
    if isinstance(game, KernelGame) and _kernel_plays(game, bots, honest):
        # random players choose from the legal actions alone, which a determinized world
        # shares with the game, and greedy players from what their seat may know: the kernel
        # plays them itself, as the loop below would
        first = len(game.history)
        # a bot whose generator was never drawn from crosses as its seed (the kernel seeds it)
        seeds = [b.fresh_seed() for b in bots]
        gens = [b.rng if s is None else s for b, s in zip(bots, seeds)]
        rngs = [r if type(b) is RandomBot else (b.weights, b.noise, r) for b, r in zip(bots, gens)]
        states: list[bytes] = []
        if trace is not None and not first and start_position(game) is None:
            # the whole game on the kernel: it counts what the record needs as it plays
            native: dict[str, Any] = {}
            codes: list[int] = []
            n = game.play_bots(rngs, max_actions=max_actions, codes=codes, record=native, states=states)
            trace.native, trace.codes = native, codes
        else:
            steps: list[tuple[int | None, str, int]] = []
            n = game.play_bots(rngs, max_actions=max_actions, steps=steps, states=states)
            if rec is not None:  # what the kernel played, with who decided each action where
                from .lab.tally import record_native

                record_native(game.history[first:], steps, rec)
        for b, s, words in zip(bots, seeds, states):
            if s is not None:
                b.advance_to(words)
    while not game.is_over:
        if n >= max_actions:
            raise RuntimeError(f"game not over after {max_actions} actions")
        seat = game.current_player
        if seat is None:  # not over, so a seat decides
            raise RuntimeError("no seat to decide in a running game")
        legal = game.legal_actions()
        if rng is not None:
            world = game.determinize(seat, rng)
            action = bots[seat].choose(world, seat, world.legal_actions())
        else:
            action = bots[seat].choose(game, seat, legal)
        if action not in legal:
            raise RuntimeError(f"bot {bots[seat]!r} of seat {seat} chose {action!r}, which is not a legal action")
        if rec is not None:
            rec.before(game)
            game.apply(action)
            rec.after(game, action)
        else:
            game.apply(action)
        n += 1
    return game


def _kernel_plays(game: KernelGame, bots: list[Any], honest: bool) -> bool:
    """Can the kernel play ``game`` to the end with ``bots`` itself? Random bots, and greedy
    bots (``GreedyBot``: not a subclass, whose choice may differ) with weights the kernel takes
    on the modules its greedy evaluation values, outside honest play (where the greedy bots
    decide on determinized worlds, one by one)."""
    from .bots.greedy import GreedyBot, kernel_greedy
    from .kernel import weight_row

    if len({id(b) for b in bots}) < len(bots):
        return False  # one bot in several seats draws from one generator for all of them
    made = [b._rng for b in bots if getattr(b, "_rng", None) is not None]
    if len({id(r) for r in made}) < len(made):
        return False  # several bots sharing one generator object
    greedy = False
    for b in bots:
        if type(b) is GreedyBot:
            if weight_row(b.weights) is None or type(b.noise) not in (int, float):
                return False
            greedy = True
        elif type(b) is not RandomBot:
            return False
    return not greedy or (not honest and kernel_greedy(game))


def module_action_types(game: Game) -> dict[str, str]:
    """``{action type name: module name}`` for the action types the enabled modules add."""
    out: dict[str, str] = {}
    pm = game.rules.pm
    for name in game.rules.modules:
        plugin = pm.get_plugin(name)
        kinds_of = getattr(plugin, "alhambra_action_kinds", None)
        if kinds_of is None:
            continue
        for kind in kinds_of() or []:
            out.setdefault(kind.type_name, name)
    return out


def play_digest(game: Game, *, codes: list[int] | None = None) -> str:
    """A digest of ``game``'s action sequence (its history, in order): 16 hex digits of the
    SHA-256 of the actions' representations. Equal digests mean the same moves were played
    (the lab's "games whose play changed" between two variants on the same seed), on either
    engine. ``codes``: the compiled kernel's codes of the history's actions, when known (the
    same digest, from lines kept by code)."""
    import hashlib

    if codes is not None:
        from .kernel import repr_lines

        return hashlib.sha256(repr_lines(codes, game.rules)).hexdigest()[:16]
    get = _REPR_LINES.get
    try:
        text = b"".join([get(a) or _repr_line(a) for a in game.history])
    except TypeError:  # an unhashable action
        text = b"".join([repr(a).encode() + b"\n" for a in game.history])
    return hashlib.sha256(text).hexdigest()[:16]


#: an action -> its ``repr`` and a newline, as bytes (the digest's lines), for actions met before
_REPR_LINES: dict[Any, bytes] = {}


def _repr_line(action: Any) -> bytes:
    line = repr(action).encode() + b"\n"
    if len(_REPR_LINES) < 100_000:
        _REPR_LINES[action] = line
    return line


def result_of(
    game: Game, bots: Sequence[str] = (), *, rotation: int = 0, variant: str = "", trace: Trace | None = None
) -> GameResult:
    """Summarise a finished game as a :class:`GameResult` (``bots``: specification per seat;
    ``rotation`` and ``variant`` are stored as given). ``trace``: the
    :class:`~alhambra.lab.tally.Trace` recorded while the game was played (:func:`play`), for
    the ``tallies``; without one that covers the whole history (or one that missed a scoring),
    the history is replayed from the game's start to record it."""
    from .lab.records import money_left, scoring_points
    from .lab.tally import replay_trace, tallies

    engine = engine_of(game)
    native = codes = None
    if trace is not None and trace.native is not None and trace.codes is not None:
        if isinstance(game, KernelGame) and game.is_over and len(trace.codes) == len(game.history):
            native, codes = trace.native, trace.codes  # the kernel's own count of a game it played whole
    if native is not None:
        counts = native["action_counts"]
        digest = play_digest(game, codes=codes)
        tallied = native["tallies"]
        money = native["money_left"]
        points = native["points"]
        turn, start_player = native["turn"], native["start_player"]
    else:
        # a kernel game's summary without handing it over to Python (reading ``state`` would)
        st = game.summary_state(cities=True) if isinstance(game, KernelGame) else game.state
        if trace is None or len(trace) != len(game.history) or trace.held != len(st.scorings):
            trace = replay_trace(game)
        counts = {cls.__name__: k for cls, k in Counter(map(type, game.history)).items()}
        digest = play_digest(game)
        tallied = tallies(game, trace, st.players)
        money = money_left(game, st)
        points = scoring_points(game, st)
        turn, start_player = st.turn, st.start_player
    owners = module_action_types(game)
    per_module: dict[str, dict[str, int]] = {m: {} for m in game.rules.modules}
    for type_name, module in owners.items():
        per_module[module][type_name] = counts.get(type_name, 0)
    defaults = {name: spec.default for name, spec in game.rules.option_specs.items()}
    options = {k: v for k, v in game.rules.options.items() if k in defaults and v != defaults[k]}
    return GameResult(
        seed=game.seed,
        players=game.num_players,
        modules=list(game.rules.modules),
        scores=list(game.scores),
        winners=list(game.winners),
        actions=len(game.history),
        scorings=[p["number"] for p in points],
        action_counts=counts,
        bots=list(bots),
        module_actions=per_module,
        turns=turn,
        options=_plain(options),
        start_player=start_player,
        money_left=money,
        points=points,
        rotation=rotation,
        variant=variant,
        play=digest,
        engine=engine,
        tallies=tallied,
    )


def _plain(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except TypeError:
        return json.loads(json.dumps(value, default=str))


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game with ``seed``."""
    return seed * 1000 + seat


def seat_bots(specs: Sequence[str] | str | None, players: int, *, check: bool = True) -> list[str]:
    """One bot specification per seat: ``None`` means random everywhere, a single name applies
    to every seat; otherwise there must be exactly one per seat (:class:`BotSpecError`).
    ``check``: build each bot once to check its name and parameters (a caller that builds the
    bots right after may leave it to them)."""
    if specs is None:
        return ["random"] * players
    if isinstance(specs, str):
        specs = [s for s in specs.split(",")]
    specs = [s.strip() for s in specs]
    if any(not s for s in specs):
        raise BotSpecError("empty bot name in the bot list")
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise BotSpecError(
            f"{len(specs)} bots given for {players} players: give one bot per seat, or a single bot for all seats"
        )
    if check:
        for s in specs:
            make_bot(s, 0)  # raises BotSpecError for an unknown name or bad parameters
    return specs


def simulate_one(
    players: int | Sequence[str],
    seed: int,
    *,
    modules: Iterable[Any] = (),
    options: dict[str, Any] | None = None,
    bots: Sequence[str] | str | None = None,
    honest: bool = False,
    engine: str = "auto",
    trace: Trace | None = None,
) -> Game:
    """Play one game between bots (default: random); the bots' seeds derive from ``seed``
    (:func:`bot_seed`); ``honest`` and ``trace``: see :func:`play`; ``engine``: see
    :func:`new_game`."""
    count = players if isinstance(players, int) else len(players)
    specs = seat_bots(bots, count, check=False)
    seated = [make_bot(s, bot_seed(seed, i)) for i, s in enumerate(specs)]  # BotSpecError here
    from .bots.greedy import GreedyBot
    from .bots.pimc import PIMCBot

    if engine == "auto" and not all(type(b) in (RandomBot, GreedyBot, PIMCBot) for b in seated):
        # the other bots read the state through Python (views, determinized worlds): on the
        # kernel every decision would cost a conversion, so "auto" plays them on Python (the
        # PIMC bot plays its worlds in the kernel, so it stays there)
        engine = "python"
    game = new_game(players, modules=modules, seed=seed, options=options, engine=engine)
    pimc = any(type(b) is PIMCBot for b in seated)
    if engine == "auto" and isinstance(game, KernelGame) and not pimc and not _kernel_plays(game, seated, honest):
        # greedy bots the kernel does not play (their modules, honest play): on Python
        game = new_game(players, modules=modules, seed=seed, options=options, engine="python")
    return play(game, seated, honest=honest, trace=trace)


# ---------------------------------------------------------------------------------------------
# Many games: tasks, workers, Ray
# ---------------------------------------------------------------------------------------------


def make_tasks(
    games: int,
    seed: int,
    *,
    players: int | Sequence[str] = 4,
    modules: Iterable[str] = (),
    options: dict[str, Any] | None = None,
    bots: Sequence[str] | str | None = None,
    config_path: str | None = None,
    save: bool = False,
    rotate_seats: bool = False,
    variant: str = "",
    engine: str = "auto",
) -> list[SimTask]:
    """Tasks for ``games`` games with seeds ``seed``, ``seed + 1`` …

    ``rotate_seats``: play every seed in every distinct rotation of the line-up of bots
    (:func:`alhambra.lab.rotation.rotated_tasks`; ``games`` is rounded up to whole rounds).
    ``engine``: which engine plays the games (see :func:`new_game`)."""
    count = players if isinstance(players, int) else len(players)
    specs = tuple(seat_bots(bots, count))
    if rotate_seats:
        from .lab.rotation import rotated_tasks

        rotated = rotated_tasks(
            games,
            seed,
            specs,
            players=players,
            modules=modules,
            options=options,
            config_path=config_path,
            save=save,
            variant=variant,
        )
        return [evolve(t, engine=engine) for t in rotated]
    opts = tuple(sorted((options or {}).items()))
    mods = tuple(modules)
    pl = players if isinstance(players, int) else tuple(players)
    return [
        SimTask(i, seed + i, pl, mods, opts, specs, config_path, save, 0, variant, engine=engine) for i in range(games)
    ]


_CONFIG_MODULES: dict[str, dict[str, Any]] = {}


def _user_modules(config_path: str | None) -> dict[str, Any]:
    if not config_path:
        return {}
    if config_path not in _CONFIG_MODULES:
        from .saving.config import load_config

        register_config_modules(config_path, load_config(config_path).module_objects)
    return _CONFIG_MODULES[config_path]


def register_config_modules(config_path: str, module_objects: Iterable[Any]) -> None:
    """Tell this process the user modules already loaded from ``config_path`` (so that they
    are not imported a second time)."""
    from .engine.ruleset import module_name

    _CONFIG_MODULES[config_path] = {module_name(m): m for m in module_objects}


def run_task(task: SimTask) -> tuple[dict[str, Any], str | None]:
    """Play the game of ``task``; returns its result record and (if asked) its JSON save.

    Raises :class:`SimulationError` naming the game and its seed when anything but the
    configuration (:class:`ConfigError`, the same for every game) fails: a bug in a module or
    a bot, a bot's illegal action, a game that does not end."""
    users = _user_modules(task.config_path)
    modules = [users.get(m, m) for m in task.modules]
    players = task.players if isinstance(task.players, int) else list(task.players)
    try:
        from .lab.tally import Trace

        trace = Trace()
        game = simulate_one(
            players,
            task.seed,
            modules=modules,
            options=dict(task.options),
            bots=list(task.bots),
            honest=task.honest,
            engine=task.engine,
            trace=trace,
        )
        result = result_of(game, task.bots, rotation=task.rotation, variant=task.variant, trace=trace)
        return result.to_dict(), (game.to_json() if task.save else None)
    except (ConfigError, BotSpecError):
        raise
    except Exception as exc:
        raise SimulationError(_failure(task, exc)) from None


def _failure(task: SimTask, exc: BaseException) -> str:
    import traceback

    from .errors import PluginError

    cause = exc.__cause__
    plugin = ""
    if isinstance(exc, PluginError) and isinstance(cause, BaseException):
        # a plugin's failure: its own exception and line (the game was put back, then raised)
        plugin = f" in plugin {exc.plugin!r}" if exc.plugin else ""
        exc = cause
    frames = traceback.extract_tb(exc.__traceback__)
    at = f" (at {frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    return (
        f"game {task.index + 1} (seed {task.seed}) failed: {type(exc).__name__}: {exc}{plugin}{at}; "
        f"play it alone with --games 1 --seed {task.seed}"
    )


def default_workers() -> int:
    """All cores of this machine (as far as this process may use them)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


BACKENDS = ("local", "ray")


def run_games(
    tasks: Sequence[SimTask],
    *,
    workers: int = 1,
    backend: str = "local",
    progress: bool = False,
    ray_address: str | None = None,
) -> Iterator[tuple[GameResult, str | None]]:
    """Play ``tasks`` and yield ``(result, save or None)`` in task order, as soon as each
    result and all before it are done.

    ``backend="local"``: ``workers`` processes of this machine (1: in this process).
    ``backend="ray"``: Ray tasks, on the running Ray instance if there is one, else on
    ``ray_address`` or a local instance with ``workers`` CPUs (shut down afterwards).
    ``progress``: a tqdm progress bar on standard error."""
    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}")
    if workers < 1:
        raise ConfigError(f"workers must be at least 1, not {workers}")
    bar = _progress_bar(len(tasks), progress)
    try:
        if backend == "ray":
            source = _run_ray(tasks, workers, ray_address)
        elif workers == 1 or len(tasks) <= 1:
            source = ((t.index, run_task(t)) for t in tasks)
        else:
            source = _run_local(tasks, workers)
        try:
            for record, save in _in_order(source, bar):
                yield GameResult.from_dict(record), save
        finally:
            close = getattr(source, "close", None)
            if close is not None:  # stop the workers now, also when the caller stops early
                close()
    finally:
        if bar is not None:
            bar.close()


def _in_order(
    source: Iterable[tuple[int, tuple[dict[str, Any], str | None]]], bar: Any
) -> Iterator[tuple[dict[str, Any], str | None]]:
    pending: dict[int, tuple[dict[str, Any], str | None]] = {}
    nxt = 0
    for index, out in source:
        if bar is not None:
            bar.update(1)
        pending[index] = out
        while nxt in pending:
            yield pending.pop(nxt)
            nxt += 1


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True, leave=False)


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C reaches the whole process group; only the parent acts on
    it (it stops the workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _indexed(task: SimTask) -> tuple[int, tuple[dict[str, Any], str | None]]:
    return task.index, run_task(task)


def _run_local(tasks: Sequence[SimTask], workers: int) -> Iterator[tuple[int, tuple[dict[str, Any], str | None]]]:
    """Yield ``(index, result)`` as games finish in a pool of spawned worker processes.
    However the caller stops (all done, a failure, Ctrl-C, SIGTERM), the workers are
    terminated and joined before this returns: no process is left behind."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    try:  # workers start with SIGINT ignored (inherited), so a Ctrl-C while they start is the parent's alone
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: the initializer does it
        previous = None
    try:
        pool = ctx.Pool(min(workers, len(tasks)), initializer=_ignore_sigint)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    # games in chunks: a kernel game takes about a millisecond, no more than sending it to a
    # worker and its record back; a chunk still leaves every worker several to balance the load
    chunk = max(1, min(32, len(tasks) // (workers * 8)))
    try:
        yield from pool.imap_unordered(_indexed, tasks, chunksize=chunk)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_ray(
    tasks: Sequence[SimTask], workers: int, address: str | None
) -> Iterator[tuple[int, tuple[dict[str, Any], str | None]]]:
    """Yield ``(index, result)`` as Ray tasks finish. However the caller stops (all done, a
    failure, Ctrl-C, SIGTERM), this returns within about two seconds and leaves no process:
    on an instance it started itself it shuts it down (which ends its workers; the games still
    running are not cancelled one by one first: Ray 2.x can abort the driver when a forced
    cancel crosses a finishing task), on one it joined it cancels the games still waiting or
    running. Ray's own SIGTERM handler, installed by ``ray.init``, is replaced by the one
    the caller had (the command line's, which stops the run like Ctrl-C)."""
    try:
        import ray
    except ImportError:
        raise ConfigError("the ray backend needs Ray: pip install 'alhambra-engine[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = workers
        handlers = _python_handlers()
        try:
            ray.init(**kwargs)
        finally:
            _restore_handlers(handlers)
        started = True
    refs: dict[Any, int] = {}
    waiting: list[Any] = []
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(run_task)
        refs = {remote.remote(t): t.index for t in tasks}
        waiting = list(refs)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                yield refs[ref], ray.get(ref)
    finally:
        if not started:  # someone else's instance: stop our games on it
            for ref in waiting:
                try:
                    ray.cancel(ref, force=False, recursive=True)
                except Exception:  # pragma: no cover - already finished or gone
                    pass
        # drop the object references while Ray still runs: freed after a shutdown, each one
        # waits on the dead instance (about 5 ms apiece)
        refs.clear()
        waiting = done = []
        if started:
            ray.shutdown()


def _python_handlers() -> dict[int, Any]:
    """The Python-level handlers of SIGINT and SIGTERM now (main thread only; else empty)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}


def _restore_handlers(handlers: dict[int, Any]) -> None:
    """Install ``handlers`` again (after ``ray.init``, which puts its own C-level handlers on
    SIGTERM and SIGINT: Ray's prints a stack trace and kills the driver)."""
    for sig, handler in handlers.items():
        if handler is not None:
            signal.signal(sig, handler)


# ---------------------------------------------------------------------------------------------
# JSON Lines
# ---------------------------------------------------------------------------------------------


def write_results(path: str | Path, results: Iterable[GameResult]) -> int:
    """Write ``results`` as JSON Lines (one record per game); returns how many."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for r in results:
            fh.write(json.dumps(r.to_dict(), sort_keys=True) + "\n")
            n += 1
    return n


def read_results(path: str | Path) -> list[GameResult]:
    """Read a JSON Lines results file written by :func:`write_results` (or
    ``alhambra simulate --out``). A last line without its newline that is not a whole record
    (a run stopped while writing it) is left out. Raises :class:`AlhambraError` naming any
    other bad line."""
    return read_results_with_end(path)[0]


def read_results_with_end(path: str | Path) -> tuple[list[GameResult], int]:
    """:func:`read_results` and the length in bytes of the file's whole records (where a
    resumed run appends, cutting a half-written last line)."""
    out = []
    with open(path, "rb") as fh:
        raw = fh.read()
    lines = raw.split(b"\n")
    end = 0
    for lineno, line in enumerate(lines, 1):
        last = lineno == len(lines)
        if not line.strip():
            end += len(line) + (0 if last else 1)
            continue
        try:
            data = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            if last:  # half-written: the run stopped while writing it
                break
            raise AlhambraError(f"{path}:{lineno}: not JSON: {exc}") from None
        except RecursionError:
            raise AlhambraError(f"{path}:{lineno}: not a game result: JSON nested too deeply") from None
        try:
            out.append(GameResult.from_dict(data))
        except AlhambraError as exc:
            if last:
                break
            raise AlhambraError(f"{path}:{lineno}: {exc}") from None
        end += len(line) + (0 if last else 1)
    return out, end


def append_result(fh: IO[str], result: GameResult) -> None:
    """Write one result record to the open JSON Lines file ``fh`` and flush it, so that a run
    stopped at any moment keeps every finished game."""
    fh.write(json.dumps(result.to_dict(), sort_keys=True) + "\n")
    fh.flush()
    os.fsync(fh.fileno())


# ---------------------------------------------------------------------------------------------
# Summaries
# ---------------------------------------------------------------------------------------------


def _mean_sd(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    return statistics.fmean(values), (statistics.stdev(values) if len(values) > 1 else 0.0)


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Statistics of ``results``: per seat and per bot (win share with its 95 % Wilson
    interval, score mean and standard deviation), the start player's win rate, whether seats
    were confounded with bots (:func:`alhambra.lab.summary.add_intervals`), game length,
    scorings, action counts and module action use."""
    n = len(results)
    out: dict[str, Any] = {"games": n}
    if not n:
        return out
    seats = max(r.players for r in results)
    out["players"] = sorted({r.players for r in results})
    from .engine.ruleset import order_of_name  # the order the engine registers them in

    out["modules"] = sorted({m for r in results for m in r.modules}, key=order_of_name)
    engines: dict[str, int] = {}
    for r in results:
        if r.engine:
            engines[r.engine] = engines.get(r.engine, 0) + 1
    out["engines"] = engines
    per_seat = []
    for s in range(seats):
        rs = [r for r in results if s < r.players]
        mean, sd = _mean_sd([r.scores[s] for r in rs])
        per_seat.append(
            {
                "seat": s,
                "games": len(rs),
                "win_share": sum(r.returns()[s] for r in rs) / len(rs),
                "score_mean": mean,
                "score_sd": sd,
            }
        )
    out["seats"] = per_seat
    bots: dict[str, dict[str, Any]] = {}
    for r in results:
        ret = r.returns()
        for s, b in enumerate(r.bots or ["?"] * r.players):
            e = bots.setdefault(b, {"bot": b, "seatings": 0, "wins": 0.0, "scores": [], "fair": 0.0})
            e["seatings"] += 1
            e["wins"] += ret[s]
            e["scores"].append(r.scores[s])
            e["fair"] += 1.0 / r.players
    out["bots"] = []
    for b, e in bots.items():
        mean, sd = _mean_sd(e["scores"])
        out["bots"].append(
            {
                "bot": b,
                "seatings": e["seatings"],
                "win_rate": e["wins"] / e["seatings"],
                "fair_rate": e["fair"] / e["seatings"],
                "score_mean": mean,
                "score_sd": sd,
            }
        )
    am, asd = _mean_sd([r.actions for r in results])
    tm, tsd = _mean_sd([r.turns for r in results])
    out["length"] = {
        "actions_mean": am,
        "actions_sd": asd,
        "turns_mean": tm,
        "turns_sd": tsd,
        "actions_total": sum(r.actions for r in results),
    }
    out["scorings"] = {k: sum(k in r.scorings for r in results) for k in (1, 2, 3)}
    used: dict[str, int] = {}
    for r in results:
        for k, v in r.action_counts.items():
            used[k] = used.get(k, 0) + v
    out["action_counts"] = dict(sorted(used.items()))
    mods: dict[str, dict[str, Any]] = {}
    for r in results:
        for m, counts in r.module_actions.items():
            e = mods.setdefault(m, {"games": 0, "actions": {}})
            e["games"] += 1
            for k, v in counts.items():
                a = e["actions"].setdefault(k, {"total": 0, "games_used": 0})
                a["total"] += v
                a["games_used"] += 1 if v else 0
    out["module_actions"] = mods
    from .lab.summary import add_intervals

    return add_intervals(out, results)


def format_summary(
    summary: dict[str, Any], elapsed: float | None = None, timed: tuple[int, int] | None = None
) -> list[str]:
    """The summary as text lines (the first one: ``summary: N games, …``).

    ``elapsed``: seconds of play, for the last line's rates; ``timed``: (games, actions)
    played in those seconds when the summary covers more (a ``--resume`` run: the games read
    back from the file took no time), else every game of the summary.
    """
    n = summary["games"]
    if not n:
        return ["summary: 0 games"]
    players = summary["players"]
    pl = players[0] if len(players) == 1 else "/".join(map(str, players))
    lines = [f"summary: {n} game{'s' if n != 1 else ''}, {pl} players, modules {summary['modules'] or 'none'}"]
    engines = summary.get("engines") or {}
    if engines:  # which engine played the games: the compiled kernel, or Python
        lines.append("  engine: " + ", ".join(f"{e} ({k} game{'s' if k != 1 else ''})" for e, k in engines.items()))
    seats = summary["seats"]
    lines.append("  win share per seat: " + ", ".join(f"{s['win_share']:.2f}" for s in seats))
    lines.append("  mean score per seat: " + ", ".join(f"{s['score_mean']:.1f}" for s in seats))
    lines.append("  score sd per seat: " + ", ".join(f"{s['score_sd']:.1f}" for s in seats))
    from .lab.summary import interval_lines

    lines.extend(interval_lines(summary))
    ln = summary["length"]
    sc = summary["scorings"]
    lines.append(
        f"  actions per game: {ln['actions_mean']:.1f} (sd {ln['actions_sd']:.1f}), turns per game "
        f"{ln['turns_mean']:.1f} (sd {ln['turns_sd']:.1f}); scorings held: "
        + ", ".join(f"#{k} in {v}" for k, v in sc.items())
    )
    lines.append("  actions by type: " + ", ".join(f"{k} {v}" for k, v in summary["action_counts"].items()))
    bots = summary["bots"]
    if bots:
        width = max(12, max(len(b["bot"]) for b in bots))
        lines.append(
            f"  {'bot':<{width}} {'seats':>6} {'win rate':>9} {'95% interval':>15} {'fair':>6} {'score':>7} {'sd':>6}"
        )
        for b in sorted(bots, key=lambda b: -b["win_rate"]):
            ci = f"[{b['win_low']:.3f}, {b['win_high']:.3f}]" if "win_low" in b else "-"
            lines.append(
                f"  {b['bot']:<{width}} {b['seatings']:>6} {b['win_rate']:>9.3f} {ci:>15} {b['fair_rate']:>6.3f} "
                f"{b['score_mean']:>7.1f} {b['score_sd']:>6.1f}"
            )
        lines.append("  (fair: the win rate of a bot no better than the others, 1/players averaged over its seats)")
    for m, e in summary["module_actions"].items():
        parts = [
            f"{k} {a['total']} ({a['total'] / e['games']:.1f}/game, used in {a['games_used']}/{e['games']} games)"
            for k, a in sorted(e["actions"].items())
        ]
        lines.append(f"  module {m}: " + ("; ".join(parts) if parts else "no actions of its own"))
    if elapsed is not None and elapsed > 0:
        games, actions = timed if timed is not None else (n, ln["actions_total"])
        lines.append(f"  time {elapsed:.2f}s: {games / elapsed:.2f} games/s, {actions / elapsed:.0f} actions/s")
    return lines
