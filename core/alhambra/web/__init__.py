"""``alhambra.web``: a local web app to play Alhambra against bots or other people, watch
games and replay saves (``alhambra play``; the ``web`` extra).

``create_app(data_dir)`` builds the Starlette app; :mod:`alhambra.web.tables` holds the games
(seats, tokens, saves after every action), :mod:`alhambra.web.pages` what a seat may see
(``game.view(seat)`` and public records only), :mod:`alhambra.web.board` the SVG pictures,
:mod:`alhambra.web.replays` the replay viewer. Importing this package does not import the web
framework; ``create_app`` does.
"""

from __future__ import annotations

from typing import Any


def create_app(data: Any = None, **kwargs: Any) -> Any:
    """The web app (see :func:`alhambra.web.app.create_app`); needs the ``web`` extra."""
    from .app import create_app as build

    return build(data, **kwargs)


__all__ = ["create_app"]
