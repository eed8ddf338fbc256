"""Environments for agents and search libraries (the ``rl`` extra: numpy, gymnasium,
pettingzoo; ``alhambra.env.openspiel`` needs the ``openspiel`` extra).

* :mod:`alhambra.env.codec`: the fixed integer action space of a rule set
  (:class:`ActionCodec`, :func:`register_encoding` for a module's own action kinds).
* :mod:`alhambra.env.observation`: the observation vector of a seat, from ``view(seat)``
  (:class:`ObservationEncoder`, :func:`register_view_encoder`).
* :mod:`alhambra.env.alhambra_v0`: the PettingZoo AEC environment.
* :mod:`alhambra.env.gym_env`: the Gymnasium environment, registered here as
  ``alhambra/Alhambra-v0``.
* :mod:`alhambra.env.openspiel`: registers ``python_alhambra`` with OpenSpiel on import.

The layout of actions and observations is documented in ``docs/env.md``.
"""

from __future__ import annotations

from .codec import (
    DEFAULT_RADIUS,
    SAFE_RADIUS,
    ActionCodec,
    ActionEncoding,
    CardsField,
    Decision,
    Field,
    WindowError,
    register_encoding,
)
from .observation import (
    ObservationEncoder,
    ViewEncoder,
    register_view_encoder,
    render_view,
)
from .session import Session, parse_modules

__all__ = [
    "DEFAULT_RADIUS",
    "SAFE_RADIUS",
    "ActionCodec",
    "ActionEncoding",
    "CardsField",
    "Decision",
    "Field",
    "ObservationEncoder",
    "Session",
    "ViewEncoder",
    "WindowError",
    "alhambra_v0",
    "parse_modules",
    "register_encoding",
    "register_view_encoder",
    "render_view",
]

ENV_ID = "alhambra/Alhambra-v0"


def _register() -> None:
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point="alhambra.env.gym_env:AlhambraEnv")


_register()

from . import alhambra_v0
