"""The plugin project's name and its hook implementation marker.

``alhambra.hookspec`` specifies the hooks under this project name and re-exports the marker
(``from alhambra import hookimpl``); the engine marks its own implementations (the hooks a
:class:`~alhambra.Declared` state derives) with the same marker without importing the
specifications, which stand above it.
"""

from __future__ import annotations

import pluggy

#: the pluggy project of every hook: specifications, implementations, plugin managers
PROJECT = "alhambra"
#: marks a function as a hook implementation (``@hookimpl``, ``@hookimpl(tryfirst=True)``)
hookimpl = pluggy.HookimplMarker(PROJECT)
