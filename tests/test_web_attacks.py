"""``binocle serve`` under attack from one client: each attack leaves the server up,
its memory bounded and a fresh client served.

Each test starts the real command in a process of its own (as it is run on a
host), attacks it, and measures the server's resident memory and the time a
fresh client takes to connect and start a game while the attack goes on; both
are held to generous bounds (the attacks before these defences took hundreds of
megabytes, minutes of CPU, or every descriptor).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import binocle
from web_support import cpu_seconds, join_latency, require, rss_mb, server_process

require("starlette")
require("uvicorn")
websockets = require("websockets")

from websockets.sync.client import connect  # noqa: E402

#: Generous bounds: a fresh client's connect-and-start time, and growth of the server's memory.
LATENCY = 5.0
GROWTH_MB = 120.0
RELAXED = ("--db", ":memory:", "--bot-delay", "0", "--tables-per-minute", "100000")


def _ws(address: str, **kw: Any) -> Any:
    # max_queue=None: the client reads every message as it comes.
    return connect(f"ws://{address}/ws", open_timeout=30, max_size=2**24, max_queue=None, **kw)


def _upgrade(address: str, rcvbuf: int | None = None) -> socket.socket:
    """A raw socket upgraded to a websocket (the handshake's answer read); ``rcvbuf``:
    its receive buffer, set before it connects."""
    host, port = address.split(":")
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(30)
    sock.connect((host, int(port)))
    sock.sendall(
        b"GET /ws HTTP/1.1\r\nHost: " + address.encode() + b"\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    return sock


def test_a_frame_longer_than_the_limit_is_refused_before_it_is_read() -> None:
    """Twenty connections each send the header of a 15 MB text frame, then stream its
    bytes: the server closes each at the header (the frame limit is set at the server),
    so its memory does not grow by the frames and a fresh client is served."""
    with server_process(*RELAXED, "--connections-per-address", "100") as (address, proc):
        before = rss_mb(proc.pid)
        size = 15_000_000
        chunk = b"a" * 65536  # a zero mask: the payload goes as it is
        header = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big") + b"\0\0\0\0"
        closed: list[bool] = []

        def flood() -> None:
            sock = _upgrade(address)
            try:
                sock.sendall(header)
                for _ in range(size // len(chunk)):
                    sock.sendall(chunk)
                closed.append(False)
            except OSError:
                closed.append(True)  # the server closed the connection
            finally:
                sock.close()

        threads = [threading.Thread(target=flood) for _ in range(20)]
        for t in threads:
            t.start()
        latency = join_latency(address)
        for t in threads:
            t.join(timeout=120)
        growth = rss_mb(proc.pid) - before
        print(f"15 MB frames x20: server memory +{growth:.1f} MB, join {latency * 1000:.0f} ms")
        assert closed == [True] * 20
        assert growth < GROWTH_MB and latency < LATENCY


def test_a_frame_within_the_limit_but_beyond_the_message_length_gets_an_error() -> None:
    with server_process(*RELAXED) as (address, _), _ws(address) as ws:
        ws.send(" " * ((1 << 20) - 10))
        assert "JSON" in json.loads(ws.recv(timeout=30))["message"]
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=30)) == {"type": "pong"}


def test_headers_sent_a_byte_at_a_time_are_cut_off_at_the_deadline() -> None:
    """Thirty clients send a request's headers one byte every 0.3 s: the server closes
    each once its header deadline (1 s here) has passed, and serves a fresh client meanwhile."""
    with server_process(*RELAXED, "--header-timeout", "1") as (address, proc):
        host, port = address.split(":")
        socks = [socket.create_connection((host, int(port)), timeout=30) for _ in range(30)]
        start = time.monotonic()
        text = b"GET / HTTP/1.1\r\nHost: " + address.encode() + b"\r\nX-Slow: " + b"a" * 200
        open_ = list(socks)
        latency = 0.0
        i = 0
        while open_ and time.monotonic() - start < 20:
            for s in list(open_):
                try:
                    s.sendall(text[i : i + 1])
                except OSError:
                    open_.remove(s)
            if i == 1:
                latency = join_latency(address)
            i += 1
            time.sleep(0.3)
        seconds = time.monotonic() - start
        for s in socks:
            s.close()
        print(f"slow headers x30: all cut off after {seconds:.1f} s; join {latency * 1000:.0f} ms")
        assert open_ == [] and seconds < 15
        assert latency < LATENCY and proc.poll() is None


def test_a_page_of_another_site_cannot_open_the_socket_unless_allowed() -> None:
    with server_process(*RELAXED, "--allow-origin", "https://cards.example") as (address, _):
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            _ws(address, origin="http://evil.example")
        assert refused.value.response.status_code == 403
        for origin in (f"http://{address}", "https://cards.example", None):
            with _ws(address, origin=origin) as ws:
                ws.send(json.dumps({"type": "ping"}))
                assert json.loads(ws.recv(timeout=30)) == {"type": "pong"}


def test_lone_surrogates_in_any_text_field_get_an_error_frame() -> None:
    with server_process(*RELAXED) as (address, proc), _ws(address) as ws:
        ws.send(json.dumps({"type": "new", "profile": "classic", "seed": 1}))
        joined = json.loads(ws.recv(timeout=30))
        game, token = joined["game"], joined["token"]
        messages = [
            {"type": "join", "game": game, "token": "LONE"},
            {"type": "join", "game": "LONE", "token": "abc"},
            {"type": "join", "game": game, "token": token, "name": "LONE"},
            {"type": "action", "action": "bid LONE"},
            {"type": "new", "profile": "LONE"},
            {"type": "LONE"},
            {"type": "replay", "record": "LONE"},
        ]
        # A lone surrogate, as JSON text may carry it (json.dumps cannot write one).
        raw = [json.dumps(m).replace("LONE", "\\ud800") for m in messages]
        for text in raw:
            ws.send(text)
            while (reply := json.loads(ws.recv(timeout=30)))["type"] not in ("error", "joined"):
                pass
            assert reply["type"] == "error", (text, reply)
        ws.send(json.dumps({"type": "ping"}))
        while json.loads(ws.recv(timeout=30))["type"] != "pong":
            pass
        assert proc.poll() is None


def test_a_thousand_new_games_from_one_socket_are_refused_past_the_limit() -> None:
    """One socket asks for 1,000 games: past its limit each gets an error; the game a
    person left earlier is still there, memory stays bounded, a fresh client is served."""
    args = ("--db", ":memory:", "--bot-delay", "0", "--max-tables", "50")
    with server_process(*args) as (address, proc):
        with _ws(address) as ws:
            ws.send(json.dumps({"type": "new", "profile": "classic", "seed": 2}))
            left = json.loads(ws.recv(timeout=30))
        before = rss_mb(proc.pid)
        refused = made = 0
        with _ws(address) as ws:
            for _ in range(1000):
                ws.send(json.dumps({"type": "new", "profile": "cutthroat", "seed": 1}))
            ws.send(json.dumps({"type": "ping"}))
            while (msg := json.loads(ws.recv(timeout=60)))["type"] != "pong":
                made += msg["type"] == "joined"
                refused += msg["type"] == "error" and "too many new tables" in msg["message"]
            latency = join_latency(address)
        growth = rss_mb(proc.pid) - before
        print(f"1000 x new: {made} made, {refused} refused; memory +{growth:.1f} MB, "
              f"join {latency * 1000:.0f} ms")  # fmt: skip
        assert made == 5 and refused == 995
        assert growth < GROWTH_MB and latency < LATENCY
        with _ws(address) as ws:
            ws.send(json.dumps({"type": "join", "game": left["game"], "token": left["token"]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "joined"


def test_a_full_server_drops_unwatched_bot_games_for_new_ones_and_keeps_a_persons() -> None:
    args = (*RELAXED, "--max-tables", "20", "--connections-per-address", "100")
    with server_process(*args) as (address, proc):
        with _ws(address) as ws:
            ws.send(json.dumps({"type": "new", "profile": "classic", "seed": 2}))
            person = json.loads(ws.recv(timeout=30))
        for _ in range(4):  # 19 bot-only games at each round, then their watchers leave
            for i in range(19):
                with _ws(address) as ws:
                    ws.send(json.dumps({"type": "new", "profile": "cutthroat", "seed": i,
                                        "autoplay": "random", "bot_delay": 5}))  # fmt: skip
                    assert json.loads(ws.recv(timeout=30))["type"] == "joined"
        latency = join_latency(address)  # a 21st table: another unwatched bot game goes
        print(f"full server: memory {rss_mb(proc.pid):.1f} MB, join {latency * 1000:.0f} ms")
        assert latency < LATENCY
        with _ws(address) as ws:
            ws.send(json.dumps({"type": "join", "game": person["game"],
                                "token": person["token"]}))  # fmt: skip
            assert json.loads(ws.recv(timeout=30))["type"] == "joined"


def test_bot_only_games_stop_burning_cpu_when_their_watchers_leave() -> None:
    with server_process(*RELAXED, "--connections-per-address", "100") as (address, proc):
        with contextlib.ExitStack() as watching:
            for i in range(20):
                ws = watching.enter_context(_ws(address))
                ws.send(json.dumps({"type": "new", "profile": "three-handed", "seed": i,
                                    "autoplay": "baseline", "bot_delay": 0}))  # fmt: skip
            time.sleep(1.0)
            busy = cpu_seconds(proc.pid)
            time.sleep(1.0)
            busy = cpu_seconds(proc.pid) - busy
        time.sleep(2.0)  # the move under way ends, then each game pauses
        idle = cpu_seconds(proc.pid)
        time.sleep(2.0)
        idle = cpu_seconds(proc.pid) - idle
        print(f"20 bot-only games: {busy:.2f} s CPU a second watched, {idle / 2:.2f} s after")
        assert busy > 0.1  # the games were running
        assert idle / 2 < 0.1


def _long_record(actions: int) -> dict[str, Any]:
    s = binocle.new_game(binocle.profile("classic", target=100_000), seed=1)
    for _ in range(actions):
        calm = [a for a in binocle.legal_actions(s) if a.kind is not binocle.Kind.CLAIM]
        s = binocle.apply(s, calm[0])
    return binocle.record(s)


def test_replaying_a_twenty_thousand_action_record_costs_linear_time() -> None:
    """The largest record the viewer reads (19,990 actions, 0.7 MB) is narrated in
    linear time (before: minutes, each step walking the whole history); meanwhile a
    fresh client is served, and a third replay at once is refused."""
    doc = _long_record(19_990)
    record = json.dumps({"type": "replay", "record": doc})
    assert len(record) < 1 << 20
    with server_process(*RELAXED) as (address, proc):
        before_cpu = cpu_seconds(proc.pid)
        start = time.perf_counter()
        with _ws(address) as a, _ws(address) as b, _ws(address) as c:
            a.send(record)
            b.send(record)
            time.sleep(0.5)
            c.send(record)
            assert "busy" in json.loads(c.recv(timeout=30))["message"]
            latency = join_latency(address)
            frames = len(json.loads(a.recv(timeout=300))["frames"])
            assert len(json.loads(b.recv(timeout=300))["frames"]) == frames
        seconds = time.perf_counter() - start
        cpu = cpu_seconds(proc.pid) - before_cpu
        print(f"two 20,000-action replays: {seconds:.1f} s, {cpu:.1f} s CPU, "
              f"memory {rss_mb(proc.pid):.0f} MB, join {latency * 1000:.0f} ms")  # fmt: skip
        assert frames == len(doc["actions"]) + 1 > 19_990
        assert cpu < 120 and latency < LATENCY


def test_running_out_of_descriptors_is_reported_once_a_minute_not_at_every_retry(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from binocle.web.server import quiet_accept_errors

    loop = asyncio.new_event_loop()
    try:
        quiet_accept_errors(loop)
        context = {"message": "socket.accept() out of system resource",
                   "exception": OSError(24, "Too many open files")}  # fmt: skip
        with caplog.at_level(logging.ERROR):
            for _ in range(1000):
                loop.call_exception_handler(context)
        mine = [r for r in caplog.records if r.name == "binocle.web"]
        assert len(mine) == 1 and "out of file descriptors" in mine[0].getMessage()
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            loop.call_exception_handler({"message": "something else"})
        assert [r.getMessage() for r in caplog.records] == ["something else"]
    finally:
        loop.close()


def test_the_serve_command_reads_its_limits_and_refuses_bad_ones(tmp_path: Path) -> None:
    from binocle.cli import main

    assert main(["serve", "--bot-delay", "9"]) == 2
    assert main(["serve", "--max-tables", "0"]) == 2
    assert main(["serve", "--header-timeout", "0"]) == 2


def test_a_client_that_stops_reading_does_not_hold_up_the_others_at_its_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two clients watch one game of bots; one reads nothing (a tiny receive buffer).
    Once a message has waited for it longer than the send timeout it is sent no more,
    and the other sees the game to its end."""
    from binocle.web import app as web_app
    from web_support import running_server

    monkeypatch.setattr(web_app, "SEND_TIMEOUT", 0.5)
    app = web_app.create_app()
    with running_server(app) as address, _ws(address) as watcher:
        watcher.send(json.dumps({"type": "new", "profile": "cutthroat", "seed": 5,
                                 "autoplay": "baseline", "bot_delay": 0.01}))  # fmt: skip
        joined = json.loads(watcher.recv(timeout=30))
        sock = _upgrade(address, rcvbuf=4096)
        join = json.dumps({"type": "join", "game": joined["game"], "token": joined["token"]})
        payload = join.encode()
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
        over = None
        while over is None:
            msg = json.loads(watcher.recv(timeout=60))
            if msg["type"] == "state" and msg["over"]:
                over = msg
        sock.close()
    assert over["over"]["scores"] == list(binocle.score(app.state.hub.tables[joined["game"]].state))
