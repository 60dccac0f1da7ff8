"""The web server's defences: the hosts it answers, its security headers, the order of
its updates, one server per database, bad stores and bad stored tables.

A page on a name of someone else's made to resolve to this machine (DNS rebinding)
sends that name as its Host and as its Origin: the server answers only the hosts
it serves (any IP address, ``localhost``, ``--host`` and ``--allowed-host``), for
its pages, its API and its websocket alike.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import socket
from pathlib import Path
from typing import Any

import pytest

from web_support import require, server_process

require("starlette")
require("uvicorn")
require("httpx")
testclient = require("starlette.testclient")

from binocle.web import app as web_app  # noqa: E402
from binocle.web.store import (  # noqa: E402
    MemoryStore,
    SQLiteStore,
    StoredTable,
    StoreError,
)

PATHS = ("/", "/api/tables", "/api/profiles", "/static/app.js")


def _get(
    address: str, path: str, host: str, origin: str | None = None
) -> tuple[int, dict[str, str]]:
    """The status and headers of a GET of ``path`` sent with ``host`` as its Host."""
    ip, port = address.split(":")
    con = http.client.HTTPConnection(ip, int(port), timeout=30)
    try:
        con.putrequest("GET", path, skip_host=True)
        con.putheader("Host", host)
        if origin is not None:
            con.putheader("Origin", origin)
        con.endheaders()
        response = con.getresponse()
        response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        con.close()


def _upgrade_status(address: str, host: str, origin: str) -> bytes:
    """The status line the server answers a websocket handshake for ``host`` with."""
    ip, port = address.split(":")
    with socket.create_connection((ip, int(port)), timeout=30) as sock:
        sock.sendall(
            b"GET /ws HTTP/1.1\r\nHost: " + host.encode() + b"\r\nOrigin: " + origin.encode()
            + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )  # fmt: skip
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


def test_a_rebinding_request_is_refused_on_every_path_and_the_websocket() -> None:
    """``Host: evil.example:P`` with ``Origin: http://evil.example:P`` (a page on a name
    rebound to 127.0.0.1) is refused on the page, the lobby, the profiles and the
    websocket (once: 200 and 101); the served hosts, any IP address and a name given by
    ``--allowed-host`` are answered."""
    with server_process("--db", ":memory:", "--allowed-host", "cards.example") as (address, _):
        port = address.split(":")[1]
        evil = f"evil.example:{port}"
        for path in PATHS:
            status, _headers = _get(address, path, evil, f"http://{evil}")
            assert status == 421, (path, status)
        assert b" 101 " not in _upgrade_status(address, evil, f"http://{evil}")
        assert _upgrade_status(address, evil, f"http://{evil}").startswith(b"HTTP/1.1 403")
        for host in (address, f"localhost:{port}", f"[::1]:{port}", f"cards.example:{port}",
                     f"10.0.0.7:{port}", "LOCALHOST."):  # fmt: skip
            assert _get(address, "/api/tables", host)[0] == 200, host
        for host in (f"127.0.0.1.evil.example:{port}", f"localhost.evil.example:{port}",
                     f"cards.example.evil.example:{port}", "", f"localhost:{port}x"):  # fmt: skip
            assert _get(address, "/api/tables", host)[0] in (400, 421), host
        ok = _upgrade_status(address, f"cards.example:{port}", f"http://cards.example:{port}")
        assert ok.startswith(b"HTTP/1.1 101")


@pytest.mark.parametrize(
    ("host", "allowed", "answered"),
    [
        ("localhost:8000", (), True),
        ("127.0.0.1", (), True),
        ("[::1]:8000", (), True),
        ("192.168.1.4:80", (), True),
        ("[fe80::1]", (), True),
        ("evil.example:8000", (), False),
        ("evil.example", ("*",), True),
        ("Cards.Example.:443", ("cards.example",), True),
        ("cards.example.evil", ("cards.example",), False),
        ("[::1]x", (), False),
        ("[::1", (), False),
        ("localhost:80:80", (), False),
        (None, (), False),
        ("", (), False),
    ],
)
def test_host_allowed(host: str | None, allowed: tuple[str, ...], answered: bool) -> None:
    """A Host header is answered when it names an IP address, a local name or an
    allowed one (any port); nothing else, not even a name that starts with one."""
    assert web_app.host_allowed(host, allowed) is answered


def test_every_response_carries_the_security_headers() -> None:
    """The page, its files and the API are sent with a Content-Security-Policy (own
    scripts, styles and socket only, framed by no page), X-Frame-Options DENY,
    nosniff and no referrer; a request for another host gets them too."""
    app = web_app.create_app(allowed_hosts=("testserver",))
    with testclient.TestClient(app) as client:
        for path in PATHS:
            r = client.get(path)
            assert r.status_code == 200, path
            csp = r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
            assert "connect-src 'self' ws://testserver wss://testserver" in csp
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
        refused = client.get("/", headers={"host": "evil.example"})
        assert refused.status_code == 421 and refused.headers["x-frame-options"] == "DENY"


# -- updates in order ---------------------------------------------------------------------

TABLES = 30
FRAMES = 40


async def _busy_table(url: str, index: int, seen: dict[str, list[int]], errors: list[str]) -> None:
    """Two people and a random bot at a cutthroat table; each person answers every state
    he is sent (as a program would) and records its step."""
    import json

    from websockets.asyncio.client import connect

    from web_support import choose

    async def read(ws: Any, kind: str) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(await ws.recv())
            if msg["type"] in (kind, "error"):
                return msg

    async with connect(url, max_size=2**24) as a, connect(url, max_size=2**24) as b:
        await a.send(json.dumps({"type": "table", "profile": "cutthroat", "seed": 500 + index,
                                 "bot_delay": 0, "seats": ["person", "person", "random"],
                                 "name": "Ann"}))  # fmt: skip
        links = await read(a, "links")
        await b.send(json.dumps({"type": "join", "game": links["game"],
                                 "token": links["tokens"]["1"], "name": "Bob"}))  # fmt: skip
        await read(b, "joined")
        await a.send(json.dumps({"type": "start"}))

        async def person(ws: Any, who: str) -> None:
            seen[who] = []
            while len(seen[who]) < FRAMES:
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    errors.append(f"table {index}, {who}: {msg['message']}")
                if msg["type"] != "state":
                    continue
                seen[who].append(msg["step"])
                if msg["over"]:
                    return
                move = choose(msg["controls"])
                if move is not None:
                    await ws.send(json.dumps(move))

        await asyncio.gather(person(a, f"{index}-a"), person(b, f"{index}-b"))


def test_every_socket_gets_each_step_once_and_in_order_under_load() -> None:
    """30 busy tables at once (two people at each answering every state at once, a random
    bot moving with no delay): every state carries the game's step, and on every
    socket the steps only go up (none twice, none out of order), so a person who
    answers every state is never refused."""
    import asyncio as aio

    from web_support import running_server

    app = web_app.create_app(limits=web_app.Limits(tables_per_minute=10**6,
                                                   connections_per_address=10**4))  # fmt: skip
    seen: dict[str, list[int]] = {}
    errors: list[str] = []
    with running_server(app) as address:

        async def run() -> None:
            url = f"ws://{address}/ws"
            await aio.gather(*(_busy_table(url, i, seen, errors) for i in range(TABLES)))

        aio.run(run())
    frames = sum(len(steps) for steps in seen.values())
    repeats = sum(1 for steps in seen.values() for a, b in itertools.pairwise(steps) if b <= a)
    print(f"{TABLES} tables, {len(seen)} sockets, {frames} state frames, {repeats} repeats")
    assert len(seen) == 2 * TABLES and frames >= TABLES * FRAMES
    assert repeats == 0 and errors == []


# -- one writer per store, and stores that cannot be used ----------------------------------


def _serve_fails(*args: str) -> tuple[int, str]:
    """Run ``binocle serve`` expecting it to refuse to start: its status and stderr."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import binocle
    from web_support import free_port

    env = dict(os.environ)
    here = str(Path(binocle.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-m", "binocle", "serve", "--port", str(free_port()), *args],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    return proc.returncode, proc.stdout + proc.stderr


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    """While ``binocle serve --db X`` runs, a second one on X exits with status 2 and says
    the database is in use (before, both ran and forked the games); once the first is
    killed with SIGKILL (nothing cleaned up), a new one starts on X."""
    db = tmp_path / "same.sqlite3"
    with server_process("--db", str(db)) as (_, proc):
        status, said = _serve_fails("--db", str(db))
        assert status == 2, said
        assert f"{db} is in use by another binocle serve (process {proc.pid})" in said
        assert "serving on" not in said
        proc.kill()
        proc.wait(timeout=30)
        with server_process("--db", str(db)):
            pass


def _store_with_tables(path: Path, rows: int = 40) -> SQLiteStore:
    store = SQLiteStore(path)
    for i in range(rows):
        store.save(StoredTable(f"t{i}", json.dumps({"pad": "x" * 3000, "i": i}), False, 1.0 + i))
    return store


def test_a_garbage_file_refuses_to_start_naming_the_file(tmp_path: Path) -> None:
    """A file that is not an SQLite database: ``binocle serve`` exits with status 2 naming
    it (before: "serving on …" was printed, then an internal error)."""
    db = tmp_path / "garbage.sqlite3"
    db.write_bytes(bytes(range(256)) * 40)
    status, said = _serve_fails("--db", str(db))
    assert status == 2 and f"{db} is not an SQLite database" in said and "serving" not in said
    with pytest.raises(StoreError, match="not an SQLite database"):
        SQLiteStore(db)


def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    """A database cut short (its header counts more pages than the file holds) is
    refused, naming the file (before: the server started with the tables lost)."""
    db = tmp_path / "cut.sqlite3"
    _store_with_tables(db).close()
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.truncate(size // 2 // 4096 * 4096)
    with pytest.raises(StoreError, match=f"{db} is cut short"):
        SQLiteStore(db)
    with db.open("r+b") as f:
        f.truncate(size // 2 + 100)  # not even whole pages
    with pytest.raises(StoreError, match="cut short or damaged"):
        SQLiteStore(db)


def test_a_truncated_write_ahead_log_is_refused(tmp_path: Path) -> None:
    """A write-ahead log cut in the middle of a frame (as a copy taken while a server ran,
    then cut) is refused, naming the log (before: the server started without the moves
    in it, silently)."""
    import shutil

    live = tmp_path / "live.sqlite3"
    store = _store_with_tables(live)
    whole, cut = tmp_path / "whole.sqlite3", tmp_path / "cut.sqlite3"
    for copy in (whole, cut):  # the server, killed: its log is left beside the database
        shutil.copy(live, copy)
        shutil.copy(f"{live}-wal", f"{copy}-wal")
    store.close()
    reopened = SQLiteStore(whole)
    assert len(list(reopened.load())) == 40
    reopened.close()
    wal = Path(f"{cut}-wal")
    with wal.open("r+b") as f:
        f.truncate(wal.stat().st_size - 1000)
    with pytest.raises(
        StoreError, match=r"cut\.sqlite3-wal \(the database's write-ahead log\) is cut short"
    ):
        SQLiteStore(cut)


def test_a_read_only_database_is_refused(tmp_path: Path, monkeypatch: Any) -> None:
    """A database this process may not write is refused at start, naming the file (before:
    the server started and every join failed with an internal error).  The system's
    answer is simulated: the tests may run as root, who may write any file."""
    import os

    db = tmp_path / "ro.sqlite3"
    _store_with_tables(db, 1).close()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, m: False if str(p) == str(db) else real(p, m))
    with pytest.raises(StoreError, match=f"{db} is read-only"):
        SQLiteStore(db)


class FailingStore(MemoryStore):
    """A store whose writes fail while ``full`` is set (a full disk)."""

    full = False

    def save(self, table: StoredTable) -> None:
        if self.full:
            raise OSError(28, "No space left on device")
        super().save(table)


def test_a_move_the_store_fails_to_keep_is_undone_and_may_be_retried() -> None:
    """The store fails to write (a full disk): the move is undone (the table stays at its
    last stored step, no state is sent for it), the player is told it was not kept, and
    the same move made again once the store writes is kept."""
    store = FailingStore()
    app = web_app.create_app(store=store, allowed_hosts=("testserver",))
    hub = app.state.hub
    with testclient.TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "profile": "classic", "seed": 3, "bot_delay": 0})
        msg: dict[str, Any] = {}
        while not (msg.get("type") == "state" and msg["controls"]["actions"]):
            msg = ws.receive_json()
        table = hub.tables[msg["game"]]
        step, state = table.steps, table.state
        told = list(table.narration)
        move = next(a for a in msg["controls"]["actions"] if a["kind"] not in ("claim", "concede"))
        store.full = True
        ws.send_json({"type": "action", "action": move["text"]})
        reply = ws.receive_json()
        assert reply["type"] == "error" and "not kept" in reply["message"], reply
        assert table.steps == step and table.state is state and table.narration == told
        kept = json.loads(store.tables[table.id].doc)
        assert kept["steps"] == step
        store.full = False
        ws.send_json({"type": "action", "action": move["text"]})
        reply = ws.receive_json()
        assert reply["type"] == "state" and reply["step"] == step + 1, reply
        assert json.loads(store.tables[table.id].doc)["steps"] >= step + 1


# -- stored tables checked field by field ---------------------------------------------------


def _stored_doc() -> dict[str, Any]:
    """A classic table for two people and a bot-free game, a few actions in."""
    from binocle.web import protocol

    table = protocol.person_seats_table(
        {"profile": "cutthroat", "seats": ["person", "person", "random"], "name": "Ann", "seed": 4}
    )
    table.taken[1] = "Bob"
    table.started = True
    for _ in range(4):
        table.apply(binocle_legal(table))
    return protocol.table_doc(table)


def binocle_legal(table: Any) -> Any:
    import binocle

    return binocle.legal_actions(table.state)[0]


#: One edit a field at a time: what a damaged or forged row might hold.
BAD_FIELDS = [
    ("seat", 7), ("seat", -1), ("seat", 1.5), ("seat", True), ("seat", "0"),
    ("steps", -5), ("steps", 3), ("steps", 4.0), ("steps", None),
    ("bot_delay", float("nan")), ("bot_delay", -5), ("bot_delay", 1e300), ("bot_delay", "1"),
    ("bots", {"2": "random", "0": "random"}), ("bots", {"7": "random"}), ("bots", {}),
    ("bots", {"2": "os.system"}), ("bots", ["random"]), ("bots", {"x": "random"}),
    ("tokens", {"9": "abc", "0": "t0", "1": "t1"}), ("tokens", []), ("tokens", {"1": "a b"}),
    ("tokens", {"0": "t0", "1": "t1", "2": "t2"}),
    ("token", "not the seat's"), ("id", "../x"), ("id", 5),
    ("names", []), ("names", ["a", "b", 3]), ("names", ["a", "b", "c\n<script>"]),
    ("names", ["a", "b", ""]), ("names", {"0": "a"}),
    ("narration", "text"), ("narration", ["x"] * 201), ("narration", [7]),
    ("narration", ["a\x1b[2Jline"]),
    ("narrations", ["x"]), ("narrations", {"2": ["x"]}), ("narrations", {"1": "x"}),
    ("narrations", {"0": ["x"]}),
    ("taken", ["Ann"]), ("taken", {"2": "bot"}), ("taken", {"0": ""}), ("taken", {"0": "x" * 25}),
    ("started", 1), ("started", False), ("listed", "yes"),
    ("created", float("inf")), ("created", -1), ("created", None),
    ("game", 5), ("game", "{}"), ("version", 2),
]  # fmt: skip


def test_a_good_stored_table_reads_back() -> None:
    from binocle.web import protocol

    doc = _stored_doc()
    table = protocol.table_from_doc(json.loads(json.dumps(doc)))
    assert protocol.table_doc(table) == doc


@pytest.mark.parametrize(
    ("name", "value"), BAD_FIELDS, ids=[f"{n}={v!r}"[:40] for n, v in BAD_FIELDS]
)
def test_each_field_of_a_stored_table_is_checked(name: str, value: Any) -> None:
    """A stored table with one field out of its range or of the wrong kind (a seat 7,
    -1 or 1.5, steps not the game's, a bot delay NaN or huge, a bot on a person's seat,
    a token of a seat that is not a person's, names of the wrong number or not text,
    narrations of control characters, containers that are lists): refused with a
    MessageError (before, most were served, and a list stopped the server)."""
    from binocle.errors import BinocleError
    from binocle.web import protocol

    doc = _stored_doc()
    doc[name] = value
    with pytest.raises((protocol.MessageError, BinocleError)):
        protocol.table_from_doc(json.loads(json.dumps(doc)))


def test_bad_rows_are_skipped_and_logged_the_rest_served(caplog: Any) -> None:
    """A store holding a good table and every bad one of the list (and rows that are
    not JSON, or not an object): the server starts, serves the good table only, and
    logs each skipped row with its id."""
    import logging

    store = MemoryStore()
    good = _stored_doc()
    store.save(StoredTable(good["id"], json.dumps(good), False, 1.0))
    for i, (name, value) in enumerate(BAD_FIELDS):
        doc = (
            {**_stored_doc(), name: value, "id": f"bad{i}"}
            if name != "id"
            else {**good, "id": value}
        )
        store.save(StoredTable(f"bad{i}", json.dumps(doc), False, 2.0))
    store.save(StoredTable("notjson", "{", False, 3.0))
    store.save(StoredTable("alist", "[]", False, 3.0))
    with caplog.at_level(logging.WARNING, logger="binocle.web"):
        app = web_app.create_app(store=store, allowed_hosts=("testserver",))
    assert set(app.state.hub.tables) == {good["id"]}
    logged = caplog.text
    for i in range(len(BAD_FIELDS)):
        assert f"table 'bad{i}' is not served" in logged
    assert "table 'notjson' is not served" in logged and "'alist'" in logged


def test_the_policy_names_no_host_it_cannot_trust() -> None:
    """A Host header that is not a host name (possible only with ``--allowed-host '*'``)
    is not copied into the Content-Security-Policy, so it cannot add to the policy."""
    assert "evil" not in web_app.content_security_policy("x; script-src evil.example")
    assert "ws://cards.example:8000 " in web_app.content_security_policy("cards.example:8000")
