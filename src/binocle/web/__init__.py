"""The reference web front end (extra ``web``): ``binocle serve``.

A person picks a profile, its options, a seat and the opponents, and plays a
whole game against bots in the browser.  The server keeps each game as an
immutable :class:`~binocle.core.GameState` and sends each client only its own
seat's :func:`~binocle.observe` view; the page is static HTML, CSS and
JavaScript shipped in the package, with nothing fetched from the network.

:mod:`binocle.web.protocol` turns client messages into engine calls and views
into JSON, with no web framework involved; :mod:`binocle.web.app` is the
Starlette application that carries those messages over a websocket.
"""

from __future__ import annotations

from binocle.web.app import create_app, serve

__all__ = ["create_app", "serve"]
