"""Load on loopback: 50 games at once, and 100 tables of two people, over websockets.

The figures (time taken, response-time percentiles, the server's memory) are
printed; the same runs at any size are ``python benchmarks/web_load.py --games N``
and ``python benchmarks/web_load.py --tables N``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from web_support import require, running_server

require("starlette")
require("uvicorn")
require("websockets")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from web_load import open_limits, run_load, tables_load  # noqa: E402

from binocle.web import create_app  # noqa: E402


def test_fifty_concurrent_games_all_finish_without_error() -> None:
    with running_server(create_app(limits=open_limits())) as address:
        report = asyncio.run(run_load(address, 50))
    print(report.summary())
    assert report.errors == []
    assert report.finished == 50
    assert len(report.responses) > 50 * 10


def test_a_hundred_tables_of_two_people_each_play_a_hand_without_error(tmp_path: Path) -> None:
    """200 people on 200 websockets at 100 classic tables (made, joined by seat token,
    started), each pair playing one hand against each other, against ``binocle serve``
    keeping every action in SQLite."""
    report = tables_load(100, str(tmp_path / "load.sqlite3"))
    print(report.summary())
    assert report.errors == []
    assert report.finished == 100
    assert len(report.responses) > 100 * 20
    assert report.memory_mb is not None and report.memory_mb < 1000
