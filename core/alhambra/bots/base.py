"""The bot interface, honest sampling of hidden information, and bot specifications.

A bot is any object with ``choose(game, seat, legal) -> action`` returning one of ``legal``
(the legal actions of ``seat``, the player to decide in ``game``). Bots in this package only
read what ``seat`` may know: the public state (what ``game.view(seat)`` shows) and ``seat``'s
own hand. Search bots sample the hidden rest with :func:`observe` (``game.determinize``) and
search on clones of that sample; they never read the true state of other players' secrets.
"""

from __future__ import annotations

import math
import random
from array import array
from typing import TYPE_CHECKING, Any, Callable, Protocol, runtime_checkable

from ..errors import AlhambraError

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.actions import Action
    from ..game import Game


class BotSpecError(AlhambraError):
    """An unknown bot name or bad bot parameters (``make_bot("wizard")``)."""


@runtime_checkable
class BotProtocol(Protocol):
    """What :func:`alhambra.simulate.play` needs of a bot."""

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:  # pragma: no cover - protocol
        ...


class Bot:
    """Base class of the bots of this package.

    ``name``: the registry name. ``seed``: seed of the bot's own random generator (``rng``),
    its only source of randomness, so that a game between bots is a function of the seeds.
    Subclasses implement :meth:`choose`; ``params`` lists the keyword parameters accepted from
    a specification such as ``"mcts:200"`` or ``"mcts:iterations=200:top_k=4"``.
    """

    name = "bot"
    #: parameter name -> converter (``int``, ``float`` …) accepted in specifications
    params: dict[str, Callable[[str], Any]] = {}
    #: parameter set by a bare value in a specification (``"mcts:200"``)
    positional: str | None = None

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng: random.Random | None = None  # made on first use
        self._rng_words: bytes | None = None  # its state, when set from outside before that

    @property
    def rng(self) -> random.Random:
        """The bot's generator: ``random.Random(seed)`` (made when first read)."""
        r = self._rng
        if r is None:
            r = random.Random(self.seed)
            if self._rng_words is not None:
                r.setstate((3, tuple(array("I", self._rng_words)), None))
                self._rng_words = None
            self._rng = r
        return r

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_words = None

    def fresh_seed(self) -> int | None:
        """The seed of the bot's generator while it is still in its seeded state (never read),
        else None: a player that draws as this bot would (the compiled kernel's random play)
        may seed its own copy and hand the state back with :meth:`advance_to`."""
        seed = self.seed
        if self._rng is None and self._rng_words is None and type(seed) is int and 0 <= seed < 1 << 64:
            return seed
        return None

    def advance_to(self, words: bytes) -> None:
        """Set the bot's generator to the state ``words`` (its 624 words and index, native
        byte order: what ``array("I", rng.getstate()[1]).tobytes()`` gives), made when read."""
        self._rng = None
        self._rng_words = words

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:  # pragma: no cover - abstract
        """Return one of ``legal`` (the legal actions of ``seat``, the player to decide)."""
        raise NotImplementedError

    def spec(self) -> str:
        """The specification that rebuilds this bot (``"mcts:iterations=64"``)."""
        return self.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec()!r} seed={self.seed}>"


# ---------------------------------------------------------------------------------------------
# Sampling the hidden information
# ---------------------------------------------------------------------------------------------


def observe(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which everything ``seat`` cannot see is resampled with ``rng``:
    :meth:`Game.determinize`, which also lets every module resample its own secrets
    (``alhambra_determinize``). Bots search on copies of the result only."""
    return game.determinize(seat, rng)


# ---------------------------------------------------------------------------------------------
# Specifications: "name", "name:VALUE", "name:key=value:key=value"
# ---------------------------------------------------------------------------------------------


def parse_spec(spec: str) -> tuple[str, list[str]]:
    """``"mcts:200:top_k=4"`` -> ``("mcts", ["200", "top_k=4"])``."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError(f"a bot is named by a non-empty string, not {spec!r}")
    parts = [p.strip() for p in spec.strip().split(":")]
    if any(not p for p in parts[1:]):
        raise BotSpecError(f"bot specification {spec!r} has an empty parameter")
    return parts[0].lower(), parts[1:]


def bind_params(cls: Any, name: str, parts: list[str]) -> dict[str, Any]:
    """Turn the parameter strings of a specification into keyword arguments for ``cls``."""
    out: dict[str, Any] = {}
    for part in parts:
        if "=" in part:
            key, value = (s.strip() for s in part.split("=", 1))
        elif cls.positional is not None:
            key, value = cls.positional, part
            if key == "iterations" and part.endswith("s") and "seconds" in cls.params:
                key, value = "seconds", part[:-1]
        else:
            raise BotSpecError(f"bot {name!r} takes no budget; use key=value parameters ({_known(cls)})")
        conv = cls.params.get(key)
        if conv is None:
            raise BotSpecError(f"bot {name!r} has no parameter {key!r} ({_known(cls)})")
        try:
            out[key] = conv(value)
        except (TypeError, ValueError):
            raise BotSpecError(f"bot {name!r}: {key}={value!r} is not a valid {conv.__name__}") from None
        if isinstance(out[key], float) and not math.isfinite(out[key]):
            raise BotSpecError(f"bot {name!r}: {key}={value!r} must be a finite number")
    return out


def _known(cls: Any) -> str:
    return "parameters: " + (", ".join(sorted(cls.params)) or "none")
