"""The exception hierarchy of the engine.

Every error the engine raises on purpose derives from :class:`AlhambraError`, so a caller can
catch them all with one ``except``. An :class:`IllegalActionError` always leaves the game
exactly as it was before the call that raised it.
"""

from __future__ import annotations


def shown(value: object, limit: int = 120) -> str:
    """``repr(value)`` for an error message, safe for any value: an integer too long to print
    (Python refuses more than 4300 digits) is named by its size, and a long text is cut at
    ``limit`` characters."""
    if type(value) is int and value.bit_length() > 256:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # a container holding such an integer
        return f"a {type(value).__name__} holding an integer too long to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class AlhambraError(Exception):
    """Base class of every error raised on purpose by the alhambra engine."""


class IllegalActionError(AlhambraError, ValueError):
    """An action that is not legal in the current state.

    The message says why and cites the rule id (``R-…``) that forbids it. The game state is
    unchanged.
    """


class ConfigError(AlhambraError, ValueError):
    """A bad game configuration: player count, unknown module or option, bad option value."""


class SaveFormatError(AlhambraError, ValueError):
    """A saved game (JSON) that cannot be read: malformed, wrong format/version, inconsistent."""


class SimulationError(AlhambraError):
    """A game of a simulation (``alhambra simulate``, ``run_games``) failed: the message names
    the game, its seed and where the error came from, so that it can be played again alone
    (``--games 1 --seed N``)."""


class KernelError(AlhambraError):
    """The compiled rules kernel (``alhambra_kernel``) failed inside: a bug in the kernel,
    reported with what failed instead of crashing the process. The game it happened in is as it
    was before the call."""


class PluginError(AlhambraError):
    """A plugin (an expansion module, a house rule or a built-in rule) raised an exception that
    is not an :class:`AlhambraError` while ``Game.apply`` carried out an action. The message
    names the plugin and the hook (or the plugin's function) that raised; the original
    exception is its ``__cause__``. The game is exactly as it was before the call.

    ``plugin``: the plugin's name (a module's ``NAME``, a built-in's ``core.…``, a house
    rule's ``NAME`` or class name), ``None`` when no plugin's code raised; ``hook``: the hook
    or function named; ``restored``: whether the game could be put back (``False`` only when
    playing its history again failed too: a plugin that answers differently for the same
    game)."""

    def __init__(self, message: str, *, plugin: str | None = None, hook: str | None = None, restored: bool = True):
        super().__init__(message)
        self.plugin = plugin
        self.hook = hook
        self.restored = restored
