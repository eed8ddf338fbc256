"""Bots that play Alhambra: ``random``, ``greedy`` and ``mcts``, behind one small interface.

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
:func:`register_bot` adds a user's own bot class.
"""

from __future__ import annotations

from typing import Any

from .base import Bot, BotProtocol, BotSpecError, bind_params, observe, parse_spec
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, rank
from .greedy import GreedyBot
from .mcts import MCTSBot
from .random_bot import RandomBot

#: name -> bot class (a :class:`Bot` subclass taking ``seed`` and keyword parameters)
BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


def register_bot(name: str, cls: type) -> None:
    """Make ``cls`` available to :func:`make_bot` (and ``alhambra simulate --bots``) as ``name``."""
    if not name or ":" in name or "," in name:
        raise BotSpecError(f"a bot name must be non-empty without ':' or ',', not {name!r}")
    BOTS[name.lower()] = cls


def bot_names() -> list[str]:
    return sorted(BOTS)


def check_spec(spec: str) -> str:
    """Check a bot specification without building the bot; returns it normalised."""
    make_bot(spec, 0)
    return spec.strip()


def make_bot(spec: str, seed: int | None = None, **params: Any) -> Bot:
    """Build a bot from its specification (``"greedy"``, ``"mcts:200"``, ``"mcts:2s"``,
    ``"mcts:iterations=100:top_k=4"``) with its own generator seeded by ``seed``; ``params``
    override the specification's parameters. Raises :class:`BotSpecError` with the known names
    for an unknown bot, and for unknown or malformed parameters."""
    name, parts = parse_spec(spec)
    cls = BOTS.get(name)
    if cls is None:
        raise BotSpecError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    kwargs = bind_params(cls, name, parts)
    kwargs.update(params)
    try:
        return cls(seed, **kwargs)
    except TypeError as exc:
        raise BotSpecError(f"bot {name!r}: {exc}") from None


__all__ = [
    "BOTS",
    "Bot",
    "BotProtocol",
    "BotSpecError",
    "DEFAULT_WEIGHTS",
    "Evaluator",
    "GreedyBot",
    "MCTSBot",
    "RandomBot",
    "Weights",
    "bot_names",
    "check_spec",
    "make_bot",
    "observe",
    "rank",
    "register_bot",
]
