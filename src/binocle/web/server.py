"""Running the web front end with uvicorn, ready to face a network.

:func:`uvicorn_config` sets what must be set at the server rather than in the
application: the longest websocket frame read (``ws_max_size``: a longer frame
closes the connection before it is held in memory), the keep-alive timeout, a
deadline for a request's headers (:class:`HeaderDeadline`: a client sending its
headers a byte at a time is cut off), a cap on concurrent HTTP requests, and a
quiet log when the process runs out of file descriptors.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, ClassVar, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HeaderDeadline", "quiet_accept_errors", "uvicorn_config"]

#: The longest websocket frame the server reads, in bytes (a replayed record of
#: 20,000 actions is about 0.75 MB).
WS_MAX_SIZE: Final = 1 << 20
#: Seconds a client has to send a whole request's headers.
HEADER_TIMEOUT: Final = 10.0
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE: Final = 5
log = logging.getLogger("binocle.web")


class HeaderDeadline(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on each request's headers.

    From the moment a connection opens (and again after each response), the client
    has :attr:`timeout` seconds to send a whole request line and headers; otherwise
    the connection is closed.  uvicorn's own keep-alive timer restarts on every byte
    received, so alone it never ends a client that sends one byte every few seconds.
    """

    #: Seconds allowed for a request's headers.
    timeout: ClassVar[float] = HEADER_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock for the first request."""
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        """Start the clock for the next request on this connection."""
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed already, or upgraded to a websocket
        if self.conn.their_state is h11.IDLE:  # no whole request yet
            transport.close()


class _AcceptErrors:
    """An event-loop exception handler that logs running out of descriptors at most
    once a minute (with a count) and passes everything else on."""

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self.last = -every
        self.missed = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != "socket.accept() out of system resource":
            loop.default_exception_handler(context)
            return
        now = time.monotonic()
        if now - self.last < self.every:
            self.missed += 1
            return
        log.error(
            "out of file descriptors: new connections wait (%s: %d more since the last report)",
            context.get("exception"), self.missed,
        )  # fmt: skip
        self.last, self.missed = now, 0


def quiet_accept_errors(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Make ``loop`` (default: the running one) report running out of file
    descriptors at most once a minute instead of at every retry."""
    (loop or asyncio.get_running_loop()).set_exception_handler(_AcceptErrors())


def uvicorn_config(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "warning",
    ws_max_size: int = WS_MAX_SIZE,
    header_timeout: float = HEADER_TIMEOUT,
    keep_alive: int = KEEP_ALIVE,
    limit_concurrency: int | None = 1000,
    backlog: int = 512,
    proxy_headers: bool = False,
    forwarded_allow_ips: str | None = None,
) -> uvicorn.Config:
    """The uvicorn configuration ``binocle serve`` runs ``app`` with (and the tests too).

    ``ws_max_size``: the longest websocket frame read, in bytes; ``header_timeout``:
    seconds a client has to send a request's headers (:class:`HeaderDeadline`);
    ``keep_alive``: seconds an idle HTTP connection is kept; ``limit_concurrency``:
    HTTP requests served at once (beyond it: 503); ``backlog``: connections waiting
    to be accepted.  ``proxy_headers`` and ``forwarded_allow_ips`` are uvicorn's, for
    a TLS proxy in front (the client's address is then read from ``X-Forwarded-For``).
    """
    protocol = type("Deadline", (HeaderDeadline,), {"timeout": float(header_timeout)})
    return uvicorn.Config(
        app, host=host, port=port, log_level=log_level, ws="auto", http=protocol,
        ws_max_size=ws_max_size, ws_per_message_deflate=False, timeout_keep_alive=keep_alive,
        limit_concurrency=limit_concurrency, backlog=backlog, proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
    )  # fmt: skip
