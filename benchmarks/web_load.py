"""Load on the web front end: many games at once over websockets on loopback.

Each client starts a game against two (or one) baseline bots, plays its own seat
with calm legal moves (never a claim or a concession while anything else is
legal) and deals each next hand, until the game is over.  The response time is
the time from sending a move to the first ``state`` message that shows it.

    python benchmarks/web_load.py --games 50 [--max-hands 2]

starts the server itself (uvicorn, on a free loopback port) and prints the
games finished, the errors, the time taken and the response-time percentiles.
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

    def summary(self) -> str:
        mean = statistics.fmean(self.responses) if self.responses else 0.0
        return (
            f"{self.finished}/{self.games} games finished, {len(self.errors)} errors, "
            f"{self.seconds:.1f} s, {len(self.responses)} moves, {self.messages} messages; "
            f"response time mean {mean * 1000:.1f} ms, p50 {self.percentile(0.5) * 1000:.1f} ms, "
            f"p95 {self.percentile(0.95) * 1000:.1f} ms, max {self.percentile(1.0) * 1000:.1f} ms"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once (default: 50)")
    parser.add_argument("--max-hands", type=int, default=None,
                        help="end each game after this many hands (default: play to the end)")  # fmt: skip
    args = parser.parse_args(argv)
    from binocle.web import create_app
    from web_support import running_server

    options = {} if args.max_hands is None else {"max_hands": args.max_hands}
    with running_server(create_app()) as address:
        report = asyncio.run(run_load(address, args.games, options))
    print(report.summary())
    for e in report.errors[:10]:
        print("  error:", e)
    return 0 if report.finished == args.games and not report.errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
