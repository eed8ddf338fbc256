"""Bots that play Alhambra: ``random``, ``greedy``, ``mcts``, ``search`` (MCTS on tuned
parameters), ``learned`` (a value network trained on this engine) and ``pimc``
(perfect-information Monte Carlo with its playouts in the compiled kernel), behind one small
interface.

A bot has ``choose(game, seat, legal) -> action``: given the game, the seat to decide and that
seat's legal actions, it returns one of them. The bots here read only what the seat may know
(the public state, as in ``game.view(seat)``, and the seat's own hand); the search bot samples
the hidden rest with ``game.determinize(seat, rng)`` (:func:`observe`) and searches on clones
of the sample. Build them by name::

    from alhambra.bots import make_bot
    bots = [make_bot("mcts:100", seed=1), make_bot("greedy", seed=2)]

Specifications: ``"random"``, ``"greedy"``, ``"mcts"``; a budget after a colon
(``"mcts:200"`` playouts per decision, ``"mcts:0.5s"`` seconds per decision) and/or
``key=value`` parameters (``"mcts:iterations=100:top_k=4"``, ``"greedy:noise=0.5"``).
Bots are found like modules, through the entry-point group ``alhambra.bots`` (the built-in
ones are registered there too, in this package's ``pyproject.toml``), so an installed
third-party bot is named on the command line like a built-in one: a package declares
``[project.entry-points."alhambra.bots"] mybot = "mypackage.bots:MyBot"``. :func:`register_bot`
adds a class in this process only (it wins over an entry point of the same name).
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from .base import Bot, BotProtocol, BotSpecError, bind_params, observe, parse_spec
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, rank
from .greedy import GreedyBot
from .mcts import MCTSBot
from .random_bot import RandomBot
from .search import SearchBot

#: Entry-point group of bot classes (``name = "package.module:Class"``).
ENTRY_POINT_GROUP = "alhambra.bots"

#: name -> bot class (a :class:`Bot` subclass taking ``seed`` and keyword parameters): the
#: bots registered in this process and those loaded from entry points so far (:func:`bot_class`)
BOTS: dict[str, type] = {}


def register_bot(name: str, cls: type) -> None:
    """Make ``cls`` available to :func:`make_bot` (and ``alhambra simulate --bots``) as ``name``
    in this process. Raises :class:`BotSpecError` for a name with ``:`` or ``,``."""
    if not name or ":" in name or "," in name:
        raise BotSpecError(f"a bot name must be non-empty without ':' or ',', not {name!r}")
    BOTS[name.lower()] = cls


def bot_entry_points() -> dict[str, Any]:
    """``{name: entry point}`` of the installed bots (group :data:`ENTRY_POINT_GROUP`)."""
    return {ep.name.lower(): ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def bot_names() -> list[str]:
    """Every bot name :func:`make_bot` knows: installed (entry points) and registered."""
    return sorted(set(BOTS) | set(bot_entry_points()))


def bot_class(name: str) -> type:
    """The class of the bot ``name`` (registered in this process, else loaded from its entry
    point and remembered in :data:`BOTS`). Raises :class:`BotSpecError` with the known names
    for an unknown bot, and naming the entry point for one that cannot be loaded or is not a
    class with ``choose``."""
    key = name.lower()
    if key in BOTS:
        return BOTS[key]
    ep = bot_entry_points().get(key)
    if ep is None:
        raise BotSpecError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    try:
        cls = ep.load()
    except Exception as exc:  # a broken third-party package: say which
        raise BotSpecError(
            f"bot {name!r} (entry point {ep.value!r}) cannot be loaded: {type(exc).__name__}: {exc}"
        ) from None
    if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
        raise BotSpecError(f"bot {name!r} (entry point {ep.value!r}) is not a bot class with a choose() method")
    BOTS[key] = cls
    return cls


def describe_bots() -> list[str]:
    """One text block per bot for ``alhambra bots``: name, where it comes from, the first line
    of its docstring, and its parameters (with the positional one marked)."""
    lines: list[str] = []
    eps = bot_entry_points()
    for name in bot_names():
        origin = f"entry point {eps[name].value}" if name in eps else "registered in this process"
        try:
            cls = bot_class(name)
        except BotSpecError as exc:
            lines.append(f"{name}: cannot be loaded: {exc}")
            continue
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        lines.append(f"{name}: {' '.join(doc.split())} ({origin})")
        params = getattr(cls, "params", {}) or {}
        if params:
            pos = getattr(cls, "positional", None)
            parts = [
                f"{k} ({getattr(v, '__name__', v)}){' positional' if k == pos else ''}"
                for k, v in sorted(params.items())
            ]
            lines.append(f"  parameters: {', '.join(parts)}")
    return lines


def check_spec(spec: str) -> str:
    """Check a bot specification without building the bot; returns it normalised."""
    make_bot(spec, 0)
    return spec.strip()


def __getattr__(name: str) -> Any:
    """``LearnedBot`` and ``WeightsError`` of :mod:`.learned`, imported on first use (numpy is
    loaded only when the learned bot is)."""
    if name in ("LearnedBot", "WeightsError"):
        from . import learned

        return getattr(learned, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_bot(spec: str, seed: int | None = None, **params: Any) -> Bot:
    """Build a bot from its specification (``"greedy"``, ``"mcts:200"``, ``"mcts:2s"``,
    ``"mcts:iterations=100:top_k=4"``) with its own generator seeded by ``seed``; ``params``
    override the specification's parameters. Raises :class:`BotSpecError` with the known names
    for an unknown bot, and for unknown or malformed parameters."""
    name, parts = parse_spec(spec)
    cls = bot_class(name)
    kwargs = bind_params(cls, name, parts)
    kwargs.update(params)
    try:
        bot: Bot = cls(seed, **kwargs)
        return bot
    except TypeError as exc:
        raise BotSpecError(f"bot {name!r}: {exc}") from None


__all__ = [
    "BOTS",
    "Bot",
    "BotProtocol",
    "BotSpecError",
    "DEFAULT_WEIGHTS",
    "ENTRY_POINT_GROUP",
    "Evaluator",
    "GreedyBot",
    "LearnedBot",
    "MCTSBot",
    "RandomBot",
    "SearchBot",
    "Weights",
    "WeightsError",
    "bot_class",
    "bot_entry_points",
    "bot_names",
    "describe_bots",
    "check_spec",
    "make_bot",
    "observe",
    "rank",
    "register_bot",
]
