"""The Starlette application: the page, the profile catalogue and the game websocket.

Each game is a :class:`~binocle.web.protocol.Table` held by a :class:`Hub`.
Messages from a client are applied under the table's lock; bots move in a task
of their own (their choices computed in a worker thread), so a person can knock
while a bot is thinking.  Every change is sent to the clients of that table as
the person's seat's view, and only that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from binocle.bots import BotSpec, resolve_bot
from binocle.errors import BinocleError, InvalidArgumentError
from binocle.web import protocol
from binocle.web.protocol import MessageError, Table

__all__ = ["Hub", "create_app", "serve"]

STATIC: Final = Path(__file__).parent / "static"
#: Longest client message read, in characters (a replayed record is the largest).
MAX_MESSAGE: Final = 4_000_000
log = logging.getLogger("binocle.web")


class Connection:
    """One websocket and the table it plays at."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.table: Table | None = None

    async def send(self, msg: dict[str, Any]) -> bool:
        try:
            await self.ws.send_text(json.dumps(msg, separators=(",", ":")))
        except Exception:  # the client went away: its reader ends the connection
            return False
        return True


class Hub:
    """Every game in progress, their locks, clients and bot tasks."""

    def __init__(
        self, *, max_tables: int = 1000, bots: Sequence[BotSpec] = protocol.BOT_NAMES
    ) -> None:
        self.max_tables = max_tables
        #: The bot specs offered to the clients (chosen by label).
        self.offer: tuple[BotSpec, ...] = tuple(bots)
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.clients: dict[str, set[Connection]] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}

    # -- tables ----------------------------------------------------------------

    def add(self, table: Table) -> None:
        if len(self.tables) >= self.max_tables:
            idle = [t for t in self.tables.values() if not self.clients.get(t.id)]
            if not idle:
                raise MessageError("the server holds as many games as it can: try again later")
            self.drop(min(idle, key=lambda t: t.touched).id)
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.clients[table.id] = set()

    def drop(self, game: str) -> None:
        self.tables.pop(game, None)
        self.locks.pop(game, None)
        self.clients.pop(game, None)
        task = self.tasks.pop(game, None)
        if task is not None:
            task.cancel()

    def attach(self, conn: Connection, table: Table) -> None:
        self.detach(conn)
        conn.table = table
        self.clients[table.id].add(conn)

    def detach(self, conn: Connection) -> None:
        if conn.table is not None:
            self.clients.get(conn.table.id, set()).discard(conn)
            conn.table = None

    async def broadcast(self, table: Table) -> None:
        table.touched = time.monotonic()
        msg = protocol.state_message(table)
        for conn in list(self.clients.get(table.id, ())):
            await conn.send(msg)

    # -- bots --------------------------------------------------------------------

    def kick(self, table: Table) -> None:
        """Start the table's bots moving, unless they already are."""
        task = self.tasks.get(table.id)
        if task is None or task.done():
            self.tasks[table.id] = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        lock = self.locks[table.id]
        try:
            while table.id in self.tables:
                async with lock:
                    knock = protocol.bot_knocks(table)
                    if knock is not None:
                        table.apply(knock)
                        nxt = None
                    else:
                        nxt = table.bot_to_act()
                        if nxt is None:
                            return
                    before = table.state
                if nxt is not None:
                    seat, bot = nxt
                    action = await run_in_threadpool(protocol.bot_action, before, seat, bot)
                    async with lock:
                        if table.state is not before:  # the person knocked meanwhile
                            continue
                        table.apply(action)
                await self.broadcast(table)
                if table.bot_delay:
                    await asyncio.sleep(table.bot_delay)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug in a bot: say so, keep the server up
            log.exception("bots stopped in game %s", table.id)
            for conn in list(self.clients.get(table.id, ())):
                await conn.send({"type": "error", "message": "a bot failed: the game is stopped"})

    # -- messages ------------------------------------------------------------------

    async def receive(self, conn: Connection, raw: str) -> None:
        """Read one client message and answer it; a bad one gets an ``error`` reply."""
        try:
            await self._dispatch(conn, raw)
        except (MessageError, BinocleError) as exc:
            text = str(exc)
            await conn.send({"type": "error", "message": text[:500]})

    async def _dispatch(self, conn: Connection, raw: str) -> None:
        if len(raw) > MAX_MESSAGE:
            raise MessageError(f"message too long: at most {MAX_MESSAGE} characters")
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):
            raise MessageError("not JSON: every message is a JSON object") from None
        if not isinstance(msg, dict):
            raise MessageError("every message is a JSON object with a 'type'")
        kind = msg.get("type")
        if kind == "ping":
            await conn.send({"type": "pong"})
        elif kind == "new":
            table = protocol.new_table(msg, self.offer)
            self.add(table)
            await self._join(conn, table)
        elif kind == "join":
            game, token = msg.get("game"), msg.get("token")
            found = self.tables.get(game) if isinstance(game, str) else None
            if found is None or not isinstance(token, str):
                raise MessageError("no such game (it may have ended long ago)")
            if not secrets.compare_digest(token.encode(), found.token.encode()):
                raise MessageError("wrong token for that game")
            await self._join(conn, found)
        elif kind == "replay":
            await conn.send(await run_in_threadpool(protocol.replay_message, msg))
        elif kind in ("action", "knock", "deal", "record"):
            playing = conn.table
            if playing is None:
                raise MessageError("start a game ('new') or join one ('join') first")
            if kind == "record":
                await conn.send(protocol.record_message(playing))
                return
            async with self.locks[playing.id]:
                if kind == "action":
                    protocol.handle_action(playing, msg)
                elif kind == "knock":
                    protocol.handle_knock(playing)
                else:
                    protocol.handle_deal(playing)
            await self.broadcast(playing)
            self.kick(playing)
        else:
            shown = kind if isinstance(kind, str) else type(kind).__name__
            raise MessageError(
                f"unknown message type {shown[:40]!r} (known: new, join, action, knock, deal, "
                "record, replay, ping)"
            )

    async def _join(self, conn: Connection, table: Table) -> None:
        self.attach(conn, table)
        await conn.send({"type": "joined", "game": table.id, "token": table.token,
                         "seat": table.seat, "names": list(table.names)})  # fmt: skip
        await conn.send(protocol.state_message(table))
        self.kick(table)


def create_app(*, max_tables: int = 1000, bots: Sequence[BotSpec] | None = None) -> Starlette:
    """The ASGI application: ``/`` the page, ``/api/profiles`` the profiles, ``/ws`` games.

    ``bots``: the bot specs the players may choose from, by label
    (:func:`binocle.bots.resolve_bot`; :data:`~binocle.web.protocol.BOT_NAMES` by
    default).  Each table gets new bots: a bot object is deep-copied."""
    if bots is not None and (isinstance(bots, str) or not isinstance(bots, Sequence)):
        raise InvalidArgumentError("bots is a list of bot specs")
    hub = Hub(max_tables=max_tables, bots=protocol.BOT_NAMES if bots is None else bots)
    for spec in hub.offer:
        resolve_bot(spec, seed=0, fresh=True)  # a bad offer fails here, not at a table

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def profiles(request: Request) -> JSONResponse:
        return JSONResponse({"profiles": protocol.profiles_catalogue(),
                             "bots": list(protocol.available_bots(hub.offer)),
                             "meld_values": protocol.MELD_VALUES})  # fmt: skip

    async def games(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    await conn.send({"type": "error", "message": "messages are JSON text"})
                    continue
                await hub.receive(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            hub.detach(conn)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/profiles", profiles),
            WebSocketRoute("/ws", games),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.hub = hub
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "warning",
    bots: Sequence[BotSpec] | None = None,
) -> None:
    """Run the front end with uvicorn until interrupted, offering ``bots``
    (see :func:`create_app`)."""
    import uvicorn

    app = create_app(bots=bots)
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.run(app, host=host, port=port, log_level=log_level, ws="auto")
