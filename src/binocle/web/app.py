"""The Starlette application: the page, the profile catalogue, the lobby and the websocket.

Each game is a :class:`~binocle.web.protocol.Table` held by a :class:`Hub`.
Messages from a client are applied under the table's lock; bots move in a task
of their own (their choices computed in a worker thread), so a person can knock
while a bot is thinking.  Every change is sent to each client at that table as
its own seat's view, and only that, and written to the hub's store
(:mod:`binocle.web.store`), from which the tables come back after a restart.

Bots move only while someone is connected to their table: a game nobody
watches pauses where it is.  What a client may ask is bounded: the websocket's
``Origin`` must be the served host (or one allowed), each address has a number
of connections and of new tables a minute, the hub holds at most ``max_tables``
(finished games are dropped first, then bot-only games nobody watches; a game a
person sits at is never dropped to make room).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from binocle._json import DuplicateKeyError, parse_json
from binocle.actions import Action
from binocle.bots import Bot, BotSpec, resolve_bot
from binocle.core import GameState, Phase
from binocle.errors import BinocleError, InvalidArgumentError, excerpt, is_finite
from binocle.web import protocol
from binocle.web.protocol import MessageError, Table
from binocle.web.store import MemoryStore, StoredTable, TableStore

__all__ = [
    "LOCAL_HOSTS",
    "SECURITY_HEADERS",
    "Guard",
    "Hub",
    "Limits",
    "content_security_policy",
    "create_app",
    "host_allowed",
    "origin_allowed",
    "serve",
]

STATIC: Final = Path(__file__).parent / "static"
#: Longest client message read, in characters (a replayed record is the largest); the
#: server reads no longer frame either (:data:`binocle.web.server.WS_MAX_SIZE`).
MAX_MESSAGE: Final = 1 << 20
#: Seconds a client may leave a message unread before it is sent no more: one
#: client that stops reading does not hold up the others at its table.
SEND_TIMEOUT: Final = 10.0
#: Replays the server narrates at once; another asked meanwhile is refused.
REPLAYS_AT_ONCE: Final = 2
log = logging.getLogger("binocle.web")
#: The names the server always answers to (besides any IP address and those allowed).
LOCAL_HOSTS: Final = ("localhost", "127.0.0.1", "[::1]")
#: Headers sent with every HTTP response (the Content-Security-Policy is added too).
SECURITY_HEADERS: Final = (
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
)


@dataclass(frozen=True)
class Limits:
    """What one client may ask of the server (``binocle serve`` options of the same names).

    ``max_tables``: tables held at once; ``tables_per_minute``: new tables (``new`` or
    ``table``) one address may make in a minute, and ``tables_per_connection`` one
    connection in a minute; ``connections_per_address``: websockets open at once from
    one address; ``max_connections``: websockets open at once in all;
    ``bot_seconds``: the time a bot has to choose a move (wall clock; None: no limit).
    A bot that has not answered by then loses its seat for the rest of the game: the
    baseline bot takes it and makes that move, the players are told in an ``error``
    message, and the late answer is dropped (Python cannot stop the bot's thread, so
    the late bot is never asked again)."""

    max_tables: int = 1000
    tables_per_minute: int = 20
    tables_per_connection: int = 5
    connections_per_address: int = 16
    max_connections: int = 2000
    bot_seconds: float | None = 30.0

    def __post_init__(self) -> None:
        if self.bot_seconds is not None and not (
            is_finite(self.bot_seconds) and self.bot_seconds > 0
        ):
            raise InvalidArgumentError(
                f"bot_seconds is a number of seconds above 0 or None, not {excerpt(self.bot_seconds)}"
            )


class _Window:
    """At most ``count`` events in any ``seconds``."""

    def __init__(self, count: int, seconds: float = 60.0) -> None:
        self.count = count
        self.seconds = seconds
        self.times: deque[float] = deque()

    def allow(self) -> bool:
        now = time.monotonic()
        while self.times and now - self.times[0] > self.seconds:
            self.times.popleft()
        if len(self.times) >= self.count:
            return False
        self.times.append(now)
        return True


class Connection:
    """One websocket, the address it comes from, and the table and seat it plays at."""

    def __init__(self, ws: WebSocket, address: str = "", per_minute: int = 5) -> None:
        self.ws = ws
        self.address = address
        self.table: Table | None = None
        #: The seat this connection plays (or watches, in a bot-only game).
        self.seat: int | None = None
        self.creations = _Window(per_minute)
        #: Whether the client stopped reading (its table goes on without it).
        self.slow = False
        #: The (step, seating) of the last state message sent for ``table`` (-1: none yet).
        self.seen: tuple[int, int] = (-1, -1)
        self._sending = asyncio.Lock()

    async def send_state(self, msg: dict[str, Any]) -> bool:
        """Send a ``state`` message unless this connection has been sent its step (or a
        later one) of that game already: each step at most once, in order, even when
        updates overlap; a step is sent again only with a later seating (a name
        changed).  False if not sent."""
        async with self._sending:
            table = self.table
            seen = (msg["step"], msg.get("seating", 0))
            if table is None or msg["game"] != table.id or seen <= self.seen:
                return False
            self.seen = seen
            return await self.send(msg)

    async def send(self, msg: dict[str, Any]) -> bool:
        """Send ``msg``; False if the client is gone or has read nothing for
        :data:`SEND_TIMEOUT` seconds (it is then marked ``slow`` and sent no more)."""
        if self.slow:
            return False
        try:
            text = json.dumps(msg, separators=(",", ":"))
            await asyncio.wait_for(self.ws.send_text(text), SEND_TIMEOUT)
        except asyncio.TimeoutError:
            self.slow = True  # nothing was written: the frames sent before are whole
            return False
        except Exception:  # the client went away: its reader ends the connection
            return False
        return True


class Hub:
    """Every table, their locks, clients and bot tasks, and the store they are kept in.

    ``store``: where tables are written after every change and read back from when
    the hub is made (:class:`~binocle.web.store.MemoryStore` by default);
    ``bot_delay``: seconds between bot moves when a client asks for none;
    ``limits``: see :class:`Limits` (``max_tables`` overrides its field)."""

    def __init__(
        self,
        *,
        max_tables: int | None = None,
        bots: Sequence[BotSpec] = protocol.BOT_NAMES,
        store: TableStore | None = None,
        bot_delay: float = 0.0,
        limits: Limits | None = None,
    ) -> None:
        limits = limits or Limits()
        if max_tables is not None:
            limits = Limits(**{**limits.__dict__, "max_tables": max_tables})
        self.limits = limits
        self.max_tables = limits.max_tables
        #: The bot specs offered to the clients (chosen by label).
        self.offer: tuple[BotSpec, ...] = tuple(bots)
        self.store: TableStore = store if store is not None else MemoryStore()
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.clients: dict[str, set[Connection]] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.by_address: dict[str, _Window] = {}
        self.open_from: dict[str, int] = {}
        self.connections = 0
        #: Replays narrated at once (each costs CPU in proportion to its record).
        self.replays = asyncio.Semaphore(REPLAYS_AT_ONCE)
        self._restore()

    # -- the store ----------------------------------------------------------------

    def _restore(self) -> None:
        for kept in self.store.load():
            try:
                table = protocol.table_from_doc(parse_json(kept.doc), self.offer)
                if table.id != kept.id:
                    raise MessageError(f"its id is {table.id[:70]!r}")
            except Exception as exc:  # a bad row is skipped, never served
                log.warning("table %r is not served: it cannot be read back: %s",
                            kept.id[:70], str(exc)[:200])  # fmt: skip
                continue
            self._hold(table)

    def save(self, table: Table) -> None:
        """Write ``table`` to the store (raises what the store raises)."""
        doc = json.dumps(protocol.table_doc(table), separators=(",", ":"))
        over = table.state.phase is Phase.OVER
        self.store.save(StoredTable(table.id, doc, over, time.time()))

    def keep(self, table: Table, before: tuple[Any, ...]) -> None:
        """Write ``table`` to the store; if that fails, put the table back as it was
        at ``before`` (:meth:`~binocle.web.protocol.Table.snapshot`) and raise
        MessageError: a move the store did not keep did not happen, and may be made
        again."""
        try:
            self.save(table)
        except Exception as exc:
            log.error("table %s: the store failed, the change is undone: %s", table.id, exc)
            table.restore(before)
            raise MessageError(
                "that move was not kept (the server could not save it): the table is as it"
                " was, try again"
            ) from None

    # -- tables ----------------------------------------------------------------

    def _hold(self, table: Table) -> None:
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.clients[table.id] = set()

    def add(self, table: Table) -> None:
        """Hold and store a new table, dropping a finished or unwatched bot-only one if
        the hub is full; raise MessageError if none may go."""
        if len(self.tables) >= self.max_tables:
            victim = self._evictable()
            if victim is None:
                raise MessageError("the server holds as many games as it can: try again later")
            self.drop(victim.id)
        self._hold(table)
        try:
            self.save(table)
        except Exception as exc:
            log.error("table %s: the store failed, the table is not made: %s", table.id, exc)
            self.tables.pop(table.id, None)
            self.locks.pop(table.id, None)
            self.clients.pop(table.id, None)
            raise MessageError("the server could not keep a new table: try again later") from None

    def _evictable(self) -> Table | None:
        """The table to drop for a new one: the finished game untouched longest, else
        the bot-only game nobody watches untouched longest; never a person's game."""
        idle = [t for t in self.tables.values() if not self.clients.get(t.id)]
        over = [t for t in idle if t.state.phase is Phase.OVER]
        bots_only = [t for t in idle if not t.tokens]
        for group in (over, bots_only):
            if group:
                return min(group, key=lambda t: t.touched)
        return None

    def drop(self, game: str) -> None:
        """Forget a table, here and in the store."""
        self.tables.pop(game, None)
        self.locks.pop(game, None)
        self.clients.pop(game, None)
        task = self.tasks.pop(game, None)
        if task is not None:
            task.cancel()
        self.store.delete(game)

    def attach(self, conn: Connection, table: Table, seat: int) -> None:
        self.detach(conn)
        conn.table = table
        conn.seat = seat
        conn.slow = False
        conn.seen = (-1, -1)
        self.clients[table.id].add(conn)

    def detach(self, conn: Connection) -> None:
        if conn.table is not None:
            self.clients.get(conn.table.id, set()).discard(conn)
            conn.table = None
            conn.seat = None

    def connected_seats(self, table: Table) -> list[int]:
        """The seats someone is connected to now."""
        return sorted({c.seat for c in self.clients.get(table.id, ()) if c.seat is not None})

    def lobby(self) -> list[dict[str, Any]]:
        """The listed tables a person may still sit at (not started, a seat free)."""
        out = []
        for t in self.tables.values():
            if t.listed and not t.started and not t.ready:
                out.append(protocol.table_summary(t, self.connected_seats(t)))
        return out[:200]

    def updates(self, table: Table) -> list[tuple[Connection, dict[str, Any]]]:
        """Each client at ``table`` with its seat's ``state`` message, built now (call it
        under the table's lock, right after the change it tells)."""
        table.touched = time.monotonic()
        if not table.started:
            return []
        built: dict[int, dict[str, Any]] = {}
        out = []
        for conn in list(self.clients.get(table.id, ())):
            seat = table.seat if conn.seat is None else conn.seat
            if seat not in built:
                built[seat] = protocol.state_message(table, seat)
            out.append((conn, built[seat]))
        return out

    async def broadcast(self, table: Table) -> None:
        """Keep ``table`` and send each client at it its seat's view (under the table's
        lock; raises what the store raises)."""
        async with self.locks[table.id]:
            self.save(table)
            updates = self.updates(table)
        await self.send_updates(updates)

    async def send_updates(self, updates: list[tuple[Connection, dict[str, Any]]]) -> None:
        """Send what :meth:`updates` built (a step a client has had already is not sent
        again: ``Connection.send_state``)."""
        for conn, msg in updates:
            if not await conn.send_state(msg) and conn.slow:
                self.detach(conn)

    async def tell_seats(self, table: Table) -> None:
        """Send everyone at ``table`` who sits where and who is connected."""
        msg = {"type": "table", **protocol.table_summary(table, self.connected_seats(table))}
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
            while table.id in self.tables and self.clients.get(table.id):
                updates = None
                async with lock:
                    knock = protocol.bot_knocks(table) if table.started else None
                    if knock is not None:
                        kept = table.snapshot()
                        table.apply(knock)
                        self.keep(table, kept)
                        updates = self.updates(table)
                        nxt = None
                    else:
                        nxt = table.bot_to_act()
                        if nxt is None:
                            return
                    before = table.state
                if nxt is not None:
                    seat, bot = nxt
                    action = await self._bot_move(table, before, seat, bot)
                    if action is None:  # too late: the baseline bot has the seat now
                        continue
                    async with lock:
                        if table.state is not before:  # a person knocked meanwhile
                            continue
                        kept = table.snapshot()
                        table.apply(action)
                        self.keep(table, kept)
                        updates = self.updates(table)
                await self.send_updates(updates or [])
                if table.bot_delay:
                    await asyncio.sleep(table.bot_delay)
        except asyncio.CancelledError:
            raise
        except MessageError as exc:  # the store failed: the bots wait for the next move
            for conn in list(self.clients.get(table.id, ())):
                await conn.send({"type": "error", "message": f"a bot's move: {exc}"})
        except Exception:  # a bug in a bot: say so, keep the server up
            log.exception("bots stopped in game %s", table.id)
            for conn in list(self.clients.get(table.id, ())):
                await conn.send({"type": "error", "message": "a bot failed: the game is stopped"})

    async def _bot_move(
        self, table: Table, before: GameState, seat: int | None, bot: Bot | None
    ) -> Action | None:
        """The bot's move in ``before``, in a thread; None when it was too late
        (:attr:`Limits.bot_seconds`): its seat then goes to the baseline bot."""
        limit = self.limits.bot_seconds
        if limit is None or seat is None:
            return await run_in_threadpool(protocol.bot_action, before, seat, bot)
        # anyio's worker thread, abandoned (left to end by itself, its result dropped)
        # when the time is up: the thread pool's place is given back at once.
        with anyio.move_on_after(limit):
            return await anyio.to_thread.run_sync(
                protocol.bot_action, before, seat, bot, abandon_on_cancel=True
            )
        async with self.locks[table.id]:
            if table.state is not before or table.bots.get(seat) is not bot:
                return None  # the table moved on meanwhile (a knock, a seat handed over)
            kept = table.snapshot()
            late = protocol.replace_late_bot(table, seat)
            self.keep(table, kept)
            updates = self.updates(table)
        log.warning("game %s: the bot at seat %s (%s) took over %gs", table.id, seat, late, limit)
        text = (f"{late} did not choose a move within {limit:g} s: the baseline bot plays"
                f" seat {seat} for the rest of the game")  # fmt: skip
        for conn in list(self.clients.get(table.id, ())):
            await conn.send({"type": "error", "message": text})
        await self.send_updates(updates)
        return None

    # -- messages ------------------------------------------------------------------

    async def receive(self, conn: Connection, raw: str) -> None:
        """Read one client message and answer it; a bad one gets an ``error`` reply."""
        try:
            await self._dispatch(conn, raw)
        except (MessageError, BinocleError) as exc:
            text = str(exc)
            await conn.send({"type": "error", "message": text[:500]})
        except Exception:  # a bug: the client gets an error, the log the traceback
            log.exception("a message could not be handled")
            await conn.send({"type": "error", "message": "the server could not handle that"})

    def _may_create(self, conn: Connection) -> None:
        window = self.by_address.setdefault(conn.address, _Window(self.limits.tables_per_minute))
        if not conn.creations.allow() or not window.allow():
            raise MessageError("too many new tables: wait a minute before making another")

    async def _dispatch(self, conn: Connection, raw: str) -> None:
        if len(raw) > MAX_MESSAGE:
            raise MessageError(f"message too long: at most {MAX_MESSAGE} characters")
        try:
            msg = parse_json(raw)
        except DuplicateKeyError as exc:
            raise MessageError(f"ambiguous JSON: {exc}") from None
        except (ValueError, RecursionError):
            raise MessageError("not JSON: every message is a JSON object") from None
        if not isinstance(msg, dict):
            raise MessageError("every message is a JSON object with a 'type'")
        kind = msg.get("type")
        if kind == "ping":
            await conn.send({"type": "pong"})
        elif kind == "new":
            self._may_create(conn)
            table = protocol.new_table(msg, self.offer, self.bot_delay)
            self.add(table)
            await self._join(conn, table, table.seat, table.token)
        elif kind == "table":
            self._may_create(conn)
            table = protocol.person_seats_table(msg, self.offer, self.bot_delay)
            self.add(table)
            await self._join(conn, table, table.seat, table.token)
            await conn.send({"type": "links", "game": table.id,
                             "tokens": {str(s): t for s, t in table.tokens.items()}})  # fmt: skip
        elif kind == "join":
            table = self._table(msg)
            token: Any = msg.get("token")
            valid = isinstance(token, str) and protocol.TOKEN.fullmatch(token) is not None
            seat = table.seat_of(token) if valid else None
            if seat is None:
                raise MessageError("wrong token for that game")
            if seat in table.tokens:
                self._rename(table, seat, msg)
            await self._join(conn, table, seat, token)
        elif kind == "sit":
            table = self._table(msg)
            seat = msg.get("seat")
            if (
                not isinstance(seat, int)
                or isinstance(seat, bool)
                or seat not in table.tokens
                or seat in table.taken
            ):
                raise MessageError("'seat' is a free person's seat of that table")
            if not table.listed:
                raise MessageError("that table is by invitation: use your seat's link")
            async with self.locks[table.id]:
                self._rename(table, seat, msg)
            await self._join(conn, table, seat, table.tokens[seat])
        elif kind in ("leave", "replace"):
            await self._leave(conn, msg, kind)
        elif kind == "lobby":
            await conn.send({"type": "lobby", "tables": self.lobby()})
        elif kind == "replay":
            if self.replays.locked():
                raise MessageError("the replay viewer is busy: try again in a moment")
            async with self.replays:
                await conn.send(await run_in_threadpool(protocol.replay_message, msg))
        elif kind in ("action", "knock", "deal", "record", "start"):
            playing = conn.table
            if playing is None or playing.id not in self.tables:
                raise MessageError("start a game ('new') or join one ('join') first")
            if kind == "record":
                await conn.send(protocol.record_message(playing))
                return
            seen: Any = msg.get("step")
            if kind == "deal" and isinstance(seen, int) and seen < playing.steps:
                return  # someone dealt since this client was offered the deal
            async with self.locks[playing.id]:
                kept = playing.snapshot()
                if kind == "action":
                    protocol.handle_action(playing, msg, conn.seat)
                elif kind == "knock":
                    protocol.handle_knock(playing, conn.seat)
                elif kind == "deal":
                    protocol.handle_deal(playing)
                else:
                    self._start(playing, conn)
                self.keep(playing, kept)
                updates = self.updates(playing)
            if kind == "start":
                await self.tell_seats(playing)
            await self.send_updates(updates)
            self.kick(playing)
        else:
            shown = kind if isinstance(kind, str) else type(kind).__name__
            raise MessageError(
                f"unknown message type {shown[:40]!a} (known: new, table, join, sit, "
                "start, leave, replace, lobby, action, knock, deal, record, replay, ping)"
            )

    async def _leave(self, conn: Connection, msg: dict[str, Any], kind: str) -> None:
        """``leave``: the connection's person leaves his seat; ``replace``: the table's
        maker hands an absent person's seat to a bot."""
        table = conn.table
        if table is None or table.id not in self.tables or conn.seat is None:
            raise MessageError("you are not seated at a table")
        seat = conn.seat
        if kind == "replace":
            asked: Any = msg.get("seat")
            if conn.seat != table.seat or not table.tokens:
                raise MessageError("only the table's maker may hand a seat to a bot")
            if not isinstance(asked, int) or isinstance(asked, bool) or asked not in table.tokens:
                raise MessageError("'seat' is a person's seat of the table")
            seat = asked
            if seat in self.connected_seats(table):
                raise MessageError("that person is at the table: only an absent one is replaced")
        async with self.locks[table.id]:
            kept = table.snapshot()
            bot = protocol.leave_seat(table, seat, msg, self.offer)
            self.keep(table, kept)
            updates = self.updates(table)
        gone = [c for c in self.clients.get(table.id, ()) if c.seat == seat]
        for c in gone:
            self.detach(c)
            await c.send({"type": "left", "game": table.id, "seat": seat, "bot": bot})
        await self.tell_seats(table)
        await self.send_updates(updates)
        self.kick(table)

    def _table(self, msg: dict[str, Any]) -> Table:
        game: Any = msg.get("game")
        valid = isinstance(game, str) and protocol.TOKEN.fullmatch(game) is not None
        found = self.tables.get(game) if valid else None
        if found is None:
            raise MessageError("no such game (it may have ended long ago)")
        return found

    @staticmethod
    def _rename(table: Table, seat: int, msg: dict[str, Any]) -> None:
        name = protocol.read_name(msg, table.taken.get(seat, table.names[seat]))
        table.taken[seat] = name
        table.set_name(seat, name)

    @staticmethod
    def _start(table: Table, conn: Connection) -> None:
        if table.started:
            raise MessageError("the table has started already")
        if conn.seat not in table.tokens:
            raise MessageError("only a person seated at the table may start it")
        if not table.ready:
            free = [s for s in table.tokens if s not in table.taken]
            raise MessageError(f"every person's seat must be taken first (free: {free})")
        table.started = True

    async def _join(self, conn: Connection, table: Table, seat: int, token: str) -> None:
        self.attach(conn, table, seat)
        await conn.send({"type": "joined", "game": table.id, "token": token, "seat": seat,
                         "names": list(table.names), "started": table.started})  # fmt: skip
        try:
            self.save(table)
        except Exception as exc:  # the seat is held here; the next change keeps it
            log.error("table %s: the store failed on a join: %s", table.id, exc)
        if table.tokens and not (table.started and len(table.tokens) == 1):
            await self.tell_seats(table)
        if table.started:
            async with self.locks[table.id]:
                state = protocol.state_message(table, seat)
            await conn.send_state(state)
        self.kick(table)

    # -- connections -----------------------------------------------------------------

    def open(self, address: str) -> bool:
        """Count a new websocket from ``address``; False if it is one too many."""
        if (
            self.connections >= self.limits.max_connections
            or self.open_from.get(address, 0) >= self.limits.connections_per_address
        ):
            return False
        self.connections += 1
        self.open_from[address] = self.open_from.get(address, 0) + 1
        return True

    def close(self, conn: Connection) -> None:
        """Forget a websocket that closed."""
        table = conn.table
        self.detach(conn)
        self.connections -= 1
        left = self.open_from.get(conn.address, 1) - 1
        if left:
            self.open_from[conn.address] = left
        else:
            self.open_from.pop(conn.address, None)
        if table is not None and table.id in self.tables and table.tokens:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(self.tell_seats(table))


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """Whether a websocket from a page at ``origin`` may connect to the server that
    ``host`` (the request's Host header) names: no Origin (not a browser), the same
    host, or an origin of ``allowed`` (``"*"``: any)."""
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc.lower() == (host or "").lower()


def _host_name(host: str | None) -> str | None:
    """The name in a Host header (lower case, no port, no final dot), or None if it is
    not one."""
    if not host or len(host) > 300:
        return None
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        rest = host[end + 1 :]
        if end < 0 or (rest and not (rest[:1] == ":" and rest[1:].isdigit())):
            return None
        return host[: end + 1]
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    name = name.rstrip(".")
    return name or None


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    return True


def host_allowed(host: str | None, allowed: Sequence[str] = ()) -> bool:
    """Whether the server answers a request whose Host header is ``host``: an IP
    address, a name of :data:`LOCAL_HOSTS`, or one of ``allowed`` (names, any port;
    ``"*"``: any host).  A page on a name of someone else's that is made to resolve
    to this machine (DNS rebinding) sends that name, and is refused."""
    if "*" in allowed:
        return True
    name = _host_name(host)
    if name is None:
        return False
    names = {n.lower().rstrip(".") for n in (*LOCAL_HOSTS, *allowed)}
    return name in names or _is_address(name)


def _served_name(host: str) -> str:
    """The Host name of a listening address (an IPv6 address in brackets)."""
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class Guard:
    """ASGI middleware: requests for a host the server does not serve are refused
    (HTTP 421; a websocket closed before it opens, code 1008), and every HTTP response
    carries :data:`SECURITY_HEADERS` and a Content-Security-Policy that lets the page
    load only its own scripts and styles, talk only to its own server, and be framed
    by no other page."""

    def __init__(self, app: Any, allowed_hosts: Sequence[str] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed_hosts)

    @property
    def state(self) -> Any:
        """The wrapped application's ``state`` (for :func:`create_app`'s: ``state.hub``)."""
        return self.app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = None
        for key, value in scope.get("headers", ()):
            if key == b"host":
                host = value.decode("latin-1")
                break
        if not host_allowed(host, self.allowed):
            log.info("refused a request for host %r", (host or "")[:100])
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            body = b"unknown host: this server answers only the hosts it serves\n"
            await send({"type": "http.response.start", "status": 421,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"content-length", str(len(body)).encode()),
                                    *_header_bytes(host)]})  # fmt: skip
            await send({"type": "http.response.body", "body": body})
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message,
                           "headers": [*message.get("headers", ()), *_header_bytes(host)]}  # fmt: skip
            await send(message)

        await self.app(scope, receive, send_guarded)


def content_security_policy(host: str | None) -> str:
    """The Content-Security-Policy of the page served as ``host``: its own scripts,
    styles and socket, no plugin, no base or form elsewhere, framed by no page."""
    name = (host or "").strip()
    safe = _host_name(name) is not None and all(c.isalnum() or c in ".-:[]" for c in name)
    sockets = f" ws://{name} wss://{name}" if safe and name.isascii() else ""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self'{sockets}; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'; object-src 'none'"
    )


def _header_bytes(host: str | None) -> list[tuple[bytes, bytes]]:
    headers = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS]
    headers.append((b"content-security-policy", content_security_policy(host).encode("latin-1")))
    return headers


def create_app(
    *,
    max_tables: int | None = None,
    bots: Sequence[BotSpec] | None = None,
    store: TableStore | None = None,
    bot_delay: float = 0.0,
    allow_origins: Sequence[str] = (),
    limits: Limits | None = None,
    allowed_hosts: Sequence[str] = (),
) -> Guard:
    """The ASGI application: ``/`` the page, ``/api/profiles`` the profiles,
    ``/api/tables`` the lobby, ``/ws`` games.

    ``bots``: the bot specs the players may choose from, by label
    (:func:`binocle.bots.resolve_bot`; :data:`~binocle.web.protocol.BOT_NAMES` by
    default).  Each table gets new bots: a bot object is deep-copied.  ``store``:
    where tables are kept (:mod:`binocle.web.store`; in memory by default), read
    back now.  ``bot_delay``: seconds between bot moves when a client asks for none.
    ``allow_origins``: the pages (``"https://cards.example"``; ``"*"`` any) that may
    open the websocket besides those of the served host.  ``limits`` and
    ``max_tables``: see :class:`Limits`.  ``allowed_hosts``: the host names the
    server answers besides any IP address and :data:`LOCAL_HOSTS` (see
    :func:`host_allowed` and :class:`Guard`, which wraps the application).  The
    Starlette application is the result's ``app``, its hub ``state.hub``."""
    if bots is not None and (isinstance(bots, str) or not isinstance(bots, Sequence)):
        raise InvalidArgumentError("bots is a list of bot specs")
    offer = protocol.BOT_NAMES if bots is None else bots
    for spec in offer:
        resolve_bot(spec, seed=0, fresh=True)  # a bad offer fails here, not at a table
    hub = Hub(max_tables=max_tables, bots=offer, store=store, bot_delay=bot_delay,
              limits=limits)  # fmt: skip
    allowed = tuple(allow_origins)

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def profiles(request: Request) -> JSONResponse:
        return JSONResponse({"profiles": protocol.profiles_catalogue(),
                             "bots": list(protocol.available_bots(hub.offer)),
                             "meld_values": protocol.MELD_VALUES})  # fmt: skip

    async def tables(request: Request) -> JSONResponse:
        return JSONResponse({"tables": hub.lobby()})

    async def games(ws: WebSocket) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), allowed):
            await ws.close(code=1008)
            return
        address = ws.client.host if ws.client is not None else ""
        if not hub.open(address):
            await ws.close(code=1013)
            return
        conn = Connection(ws, address, hub.limits.tables_per_connection)
        try:
            await ws.accept()
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
            hub.close(conn)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/profiles", profiles),
            Route("/api/tables", tables),
            WebSocketRoute("/ws", games),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.hub = hub
    return Guard(app, allowed_hosts)


def _within_descriptors(limits: Limits) -> Limits:
    """``limits`` with at most as many websockets as the process may open files, less
    a margin for HTTP requests, the database and the log."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return limits
    if soft == resource.RLIM_INFINITY or limits.max_connections <= (soft - 64) * 2 // 3:
        return limits
    return Limits(**{**limits.__dict__, "max_connections": max(8, (soft - 64) * 2 // 3)})


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "warning",
    bots: Sequence[BotSpec] | None = None,
    db: str | Path | None = None,
    bot_delay: float = 0.0,
    allow_origins: Sequence[str] = (),
    limits: Limits | None = None,
    header_timeout: float | None = None,
    proxy_headers: bool = False,
    allowed_hosts: Sequence[str] = (),
    store: TableStore | None = None,
) -> None:
    """Run the front end with uvicorn until interrupted, offering ``bots`` (see
    :func:`create_app`) and keeping tables in the SQLite file ``db``
    (:func:`binocle.web.store.default_db_path` by default; ``":memory:"`` keeps
    nothing).  ``header_timeout`` and ``proxy_headers``: see
    :func:`binocle.web.server.uvicorn_config`.  The server answers requests for
    ``host``, any IP address, :data:`LOCAL_HOSTS` and ``allowed_hosts`` only.
    ``store``: an open store to use instead of ``db`` (closed when the server stops).
    A database another server uses, or one read-only, damaged or cut short, raises
    :class:`~binocle.web.store.StoreError` before anything is served."""
    import uvicorn

    from binocle.web.server import HEADER_TIMEOUT, quiet_accept_errors, uvicorn_config
    from binocle.web.store import SQLiteStore, default_db_path

    if store is None:
        store = SQLiteStore(default_db_path() if db is None else db)
    limits = _within_descriptors(limits or Limits())
    app = create_app(bots=bots, store=store, bot_delay=bot_delay, allow_origins=allow_origins,
                     limits=limits, allowed_hosts=(_served_name(host), *allowed_hosts))  # fmt: skip
    config = uvicorn_config(
        app, host, port, log_level=log_level, proxy_headers=proxy_headers,
        limit_concurrency=max(16, min(1000, limits.max_connections // 2)),
        header_timeout=HEADER_TIMEOUT if header_timeout is None else header_timeout,
    )  # fmt: skip
    server = uvicorn.Server(config)

    async def run() -> None:
        quiet_accept_errors()
        await server.serve()

    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run())
    finally:
        store.close()
