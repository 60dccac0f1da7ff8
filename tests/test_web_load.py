"""Load on loopback: 50 games at once over websockets, against one server, all finish.

The figures (time taken, response-time percentiles) are printed; the same run at
any size is ``python benchmarks/web_load.py --games N``.
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

from web_load import run_load  # noqa: E402

from binocle.web import create_app  # noqa: E402


def test_fifty_concurrent_games_all_finish_without_error() -> None:
    with running_server(create_app()) as address:
        report = asyncio.run(run_load(address, 50))
    print(report.summary())
    assert report.errors == []
    assert report.finished == 50
    assert len(report.responses) > 50 * 10
