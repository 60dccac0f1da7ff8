"""Load on the web front end: many games at once over websockets on loopback.

Each client starts a game against two (or one) baseline bots, plays its own seat
with calm legal moves (never a claim or a concession while anything else is
legal) and deals each next hand, until the game is over.  The response time is
the time from sending a move to the first ``state`` message that shows it.

    python benchmarks/web_load.py --games 50 [--max-hands 2]

starts the server itself (uvicorn, on a free loopback port) and prints the
games finished, the errors, the time taken and the response-time percentiles.

    python benchmarks/web_load.py --tables 100

plays tables of two people instead: at each classic table one client makes the
table, a second joins with its seat's token, and the two play one hand against
each other; the server runs as ``binocle serve`` in a process of its own, keeping
its tables in an SQLite file, and its resident memory is reported too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

PROFILES = ("cutthroat", "classic", "three-handed")
#: Longest wait for one message, in seconds: past it the client reports an error.
TIMEOUT = 120.0


@dataclass
class LoadReport:
    games: int
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    responses: list[float] = field(default_factory=list)
    messages: int = 0

    def percentile(self, q: float) -> float:
        if not self.responses:
            return 0.0
        ordered = sorted(self.responses)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    #: The server's resident memory at the end, in MB (when it runs apart).
    memory_mb: float | None = None

    def summary(self) -> str:
        mean = statistics.fmean(self.responses) if self.responses else 0.0
        memory = "" if self.memory_mb is None else f"; server memory {self.memory_mb:.0f} MB"
        return (
            f"{self.finished}/{self.games} games finished, {len(self.errors)} errors, "
            f"{self.seconds:.1f} s, {len(self.responses)} moves, {self.messages} messages; "
            f"response time mean {mean * 1000:.1f} ms, p50 {self.percentile(0.5) * 1000:.1f} ms, "
            f"p95 {self.percentile(0.95) * 1000:.1f} ms, max {self.percentile(1.0) * 1000:.1f} ms"
            f"{memory}"
        )


async def play_one(url: str, index: int, report: LoadReport, options: dict[str, Any]) -> None:
    from websockets.asyncio.client import connect

    from web_support import choose

    profile = PROFILES[index % len(PROFILES)]
    async with connect(url, max_size=2**24) as ws:
        new = {"type": "new", "profile": profile, "seat": 0, "seed": 1000 + index,
               "bot_delay": 0, "options": options}  # fmt: skip
        await ws.send(json.dumps(new))
        step = -1
        sent_at: float | None = None
        while True:
            msg = json.loads(await ws.recv())
            report.messages += 1
            if msg["type"] == "error":
                report.errors.append(f"game {index} ({profile}): {msg['message']}")
                return
            if msg["type"] != "state" or msg["step"] <= step:
                continue
            step = msg["step"]
            if sent_at is not None:
                report.responses.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["over"]:
                report.finished += 1
                return
            move = choose(msg["controls"])
            if move is not None:
                await ws.send(json.dumps(move))
                sent_at = time.perf_counter()


async def run_load(address: str, games: int, options: dict[str, Any] | None = None) -> LoadReport:
    """Play ``games`` games at once against the server at ``address`` (host:port)."""
    report = LoadReport(games)
    start = time.perf_counter()
    results = await asyncio.gather(
        *(play_one(f"ws://{address}/ws", i, report, options or {}) for i in range(games)),
        return_exceptions=True,
    )
    report.seconds = time.perf_counter() - start
    report.errors += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    return report


async def _seat(
    ws: Any, report: LoadReport, name: str, first: dict[str, Any] | None = None
) -> bool:
    """Play one seat until the hand is over; True when it ended without error."""
    from web_support import choose

    step = -1
    sent_at: float | None = None
    msg = first
    while True:
        if msg is None:
            msg = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        report.messages += 1
        if msg["type"] == "error":
            report.errors.append(f"{name}: {msg['message']}")
            return False
        if msg["type"] == "state" and msg["step"] > step:
            step = msg["step"]
            if sent_at is not None:
                report.responses.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["over"] or msg["controls"]["deal"]:  # the hand is over
                return True
            move = choose(msg["controls"])
            if move is not None:
                await ws.send(json.dumps(move))
                sent_at = time.perf_counter()
        msg = None


async def play_table(url: str, index: int, report: LoadReport) -> None:
    """Two people at one classic table: make it, join it, start it, play one hand."""
    from websockets.asyncio.client import connect

    async with connect(url, max_size=2**24) as host, connect(url, max_size=2**24) as guest:
        await host.send(json.dumps({"type": "table", "profile": "classic", "seed": 2000 + index,
                                    "seats": ["person", "person"], "bot_delay": 0}))  # fmt: skip
        tokens = None
        while tokens is None:
            msg = json.loads(await asyncio.wait_for(host.recv(), TIMEOUT))
            if msg["type"] == "error":
                report.errors.append(f"table {index}: {msg['message']}")
                return
            if msg["type"] == "links":
                tokens = msg["tokens"]
                game = msg["game"]
        await guest.send(json.dumps({"type": "join", "game": game, "token": tokens["1"]}))
        while not (msg["type"] == "table" and msg["ready"]):  # the guest is seated
            msg = json.loads(await asyncio.wait_for(host.recv(), TIMEOUT))
        await host.send(json.dumps({"type": "start"}))
        ok = await asyncio.gather(
            _seat(host, report, f"table {index} seat 0"),
            _seat(guest, report, f"table {index} seat 1"),
        )
        report.finished += all(ok)


async def run_tables(address: str, tables: int) -> LoadReport:
    """Play ``tables`` tables of two people at once against the server at ``address``."""
    report = LoadReport(tables)
    start = time.perf_counter()
    results = await asyncio.gather(
        *(play_table(f"ws://{address}/ws", i, report) for i in range(tables)),
        return_exceptions=True,
    )
    report.seconds = time.perf_counter() - start
    report.errors += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    return report


#: ``binocle serve`` options for a load from one address (the limits made for the internet
#: would refuse it).
LOAD_OPTIONS: tuple[str, ...] = (
    "--bot-delay", "0", "--tables-per-minute", "100000", "--connections-per-address", "10000",
)  # fmt: skip


def tables_load(tables: int, db: str) -> LoadReport:
    """Start ``binocle serve`` on ``db``, play ``tables`` tables of two, report (with memory)."""
    from web_support import rss_mb, server_process

    with server_process(*LOAD_OPTIONS, "--db", db) as (address, proc):
        report = asyncio.run(run_tables(address, tables))
        report.memory_mb = rss_mb(proc.pid)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once (default: 50)")
    parser.add_argument("--max-hands", type=int, default=None,
                        help="end each game after this many hands (default: play to the end)")  # fmt: skip
    parser.add_argument("--tables", type=int, default=None,
                        help="play this many tables of two people instead")  # fmt: skip
    args = parser.parse_args(argv)
    from binocle.web import create_app
    from web_support import running_server

    if args.tables is not None:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            report = tables_load(args.tables, str(Path(tmp) / "load.sqlite3"))
        wanted = args.tables
    else:
        options = {} if args.max_hands is None else {"max_hands": args.max_hands}
        with running_server(create_app(limits=open_limits())) as address:
            report = asyncio.run(run_load(address, args.games, options))
        wanted = args.games
    print(report.summary())
    for e in report.errors[:10]:
        print("  error:", e)
    return 0 if report.finished == wanted and not report.errors else 1


def open_limits() -> Any:
    """Limits that let one address make every game of a load."""
    from binocle.web.app import Limits

    return Limits(tables_per_minute=10**6, tables_per_connection=10**6,
                  connections_per_address=10**6, max_connections=10**6)  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
