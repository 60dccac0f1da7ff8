"""The reference web front end (extra ``web``): ``binocle serve``.

A person picks a profile, its options, a seat and the opponents, and plays a
whole game against bots in the browser.  The server keeps each game as an
immutable :class:`~binocle.core.GameState` and sends each client only its own
seat's :func:`~binocle.observe` view; the page is static HTML, CSS and
JavaScript shipped in the package, with nothing fetched from the network.

:mod:`binocle.web.protocol` turns client messages into engine calls and views
into JSON, with no web framework involved; :mod:`binocle.web.app` is the
Starlette application that carries those messages over a websocket;
:mod:`binocle.web.local` answers the same messages with no server, in the browser,
for the static site :mod:`binocle.web.site` writes (``binocle site``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app", "serve"]

if TYPE_CHECKING:
    from binocle.web.app import create_app, serve


def __getattr__(name: str) -> Any:
    # The application is imported when asked for, so the framework-free parts
    # (binocle.web.protocol, binocle.web.local) import without Starlette: the static
    # site (binocle.web.site) runs them in the browser.
    if name in __all__:
        from binocle.web import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
