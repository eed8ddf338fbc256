"""Environments for agents and search libraries (the ``rl`` extra: numpy, gymnasium,
pettingzoo; ``alhambra.env.openspiel`` needs the ``openspiel`` extra).

* :mod:`alhambra.env.codec`: the fixed integer action space of a rule set
  (:class:`ActionCodec`, :func:`register_encoding` for a module's own action kinds).
* :mod:`alhambra.env.observation`: the observation vector of a seat, from ``view(seat)``
  (:class:`ObservationEncoder`, :func:`register_view_encoder`).
* :mod:`alhambra.env.alhambra_v0`: the PettingZoo AEC environment.
* :mod:`alhambra.env.gym_env`: the Gymnasium environment, registered here as
  ``alhambra/Alhambra-v0``.
* :mod:`alhambra.env.vector`: :func:`vector_env`, a batch of Gymnasium games as one
  ``gymnasium.vector.VectorEnv`` (a batch step in one kernel call where it can).
* :mod:`alhambra.env.openspiel`: registers ``python_alhambra`` with OpenSpiel on import.

The layout of actions and observations is documented in ``docs/env.md``.
"""

import importlib as _importlib
from typing import Any as _Any

from .codec import (
    ActionCodec,
    ActionEncoding,
    CardsField,
    CellField,
    Decision,
    Field,
    WindowError,
    city_slots,
    register_encoding,
)

# the rest needs the rl extra (numpy, gymnasium, pettingzoo) and is loaded on first use, so a
# module can declare its encoding (alhambra.env.register_encoding) with the core alone
_LAZY = {
    "ObservationEncoder": "observation",
    "ViewEncoder": "observation",
    "register_view_encoder": "observation",
    "render_view": "observation",
    "Session": "session",
    "parse_modules": "session",
    "alhambra_v0": None,
    "gym_env": None,
    "observation": None,
    "session": None,
    "vector": None,
    "vector_env": "vector",
}

__all__ = [
    "ENV_ID",
    "ActionCodec",
    "ActionEncoding",
    "CardsField",
    "CellField",
    "Decision",
    "Field",
    "ObservationEncoder",
    "Session",
    "ViewEncoder",
    "WindowError",
    "alhambra_v0",
    "city_slots",
    "gym_env",
    "observation",
    "parse_modules",
    "register_encoding",
    "register_view_encoder",
    "render_view",
    "session",
    "vector",
    "vector_env",
]

ENV_ID = "alhambra/Alhambra-v0"


def __getattr__(name: str) -> _Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    where = _LAZY[name]
    module = _importlib.import_module(f"{__name__}.{where or name}")
    return module if where is None else getattr(module, name)


def _register() -> None:
    """Register ``alhambra/Alhambra-v0`` with Gymnasium, if it is installed."""
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed: nothing to register
        return
    if ENV_ID not in gymnasium.registry:
        # the environment's own default bound (alhambra.env.gym_env.MAX_EPISODE_STEPS)
        gymnasium.register(ENV_ID, entry_point="alhambra.env.gym_env:AlhambraEnv", max_episode_steps=5_000)


_register()


def __dir__() -> list[str]:
    return sorted(__all__)
