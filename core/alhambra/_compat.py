"""Old module paths kept importable: ``alhambra.state``, ``alhambra.city`` ... now live in
:mod:`alhambra.engine` and :mod:`alhambra.saving`.

``import alhambra.state`` and ``from alhambra.city import Alhambra`` keep working: the old
names are aliases (entries of ``sys.modules`` and attributes of the package) of the modules at
their new places, not copies. New code imports the public names from :mod:`alhambra`.
"""

from __future__ import annotations

import sys
from importlib import import_module

#: old path (under ``alhambra.``) -> the module's place now
MOVED: dict[str, str] = {
    "actions": "alhambra.engine.actions",
    "city": "alhambra.engine.city",
    "components": "alhambra.engine.components",
    "options": "alhambra.engine.options",
    "payment": "alhambra.engine.payment",
    "ruleset": "alhambra.engine.ruleset",
    "scoring": "alhambra.engine.scoring",
    "state": "alhambra.engine.state",
    "views": "alhambra.engine.views",
    "serialize": "alhambra.saving.serialize",
    "config": "alhambra.saving.config",
}


def install(package: object) -> None:
    """Register every alias of :data:`MOVED` for ``package`` (the ``alhambra`` package)."""
    for old, new in MOVED.items():
        module = import_module(new)
        sys.modules.setdefault(f"alhambra.{old}", module)
        setattr(package, old, module)
