"""What the web front end's tests share: the extra's imports, a server on loopback, a player."""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from adapters import need

CARD_TEXT = re.compile(r"\b[ATKQJ987][SHDC]\b")


def require(module: str) -> ModuleType:
    """Import ``module`` or skip the test module (the web extra); in CI a missing one fails."""
    return need(module, "web")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(app: Any, **config: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread, configured as
    ``binocle serve`` does (:func:`binocle.web.server.uvicorn_config`, ``config``
    overriding); yields its base URL."""
    import uvicorn

    from binocle.web.server import uvicorn_config

    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def choose(controls: dict[str, Any]) -> dict[str, Any] | None:
    """A calm move for a scripted person: never a claim or a concession while anything else
    is legal; the next deal when it is due; None when there is nothing to do."""
    if controls["deal"]:
        return {"type": "deal"}
    actions = controls["actions"]
    if not actions:
        return None
    calm = [a for a in actions if a["kind"] not in ("claim", "concede")] or actions
    return {"type": "action", "action": calm[0]["text"]}


@contextmanager
def server_process(*args: str, port: int | None = None) -> Iterator[tuple[str, Any]]:
    """``binocle serve`` in a process of its own on a loopback port (``args`` added to
    ``--port``); yields its address and the process, killed at the end."""
    import os
    import subprocess
    import sys
    import urllib.request

    import binocle

    port = port or free_port()
    env = dict(os.environ)
    here = str(Path(binocle.__file__).resolve().parent.parent)  # the binocle under test
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "binocle", "serve", "--port", str(port), *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://{address}/api/profiles", timeout=5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("binocle serve did not start") from None
                time.sleep(0.05)
        yield address, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=20)
        if proc.stderr is not None:
            proc.stderr.close()


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (user and system), in seconds (Linux)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def join_latency(address: str, origin: str | None = None) -> float:
    """Seconds a fresh client takes to connect and start a game against bots."""
    import json

    from websockets.sync.client import connect

    start = time.perf_counter()
    with connect(f"ws://{address}/ws", origin=origin, open_timeout=60) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "new", "profile": "classic", "bot_delay": 0}))
        while json.loads(ws.recv(timeout=60))["type"] != "state":
            pass
    return time.perf_counter() - start


#: Debian's Chromium (or the browser ``BINOCLE_CHROMIUM`` names), headless, and the flags
#: that keep it off the network this machine has not got.
CHROMIUM = os.environ.get("BINOCLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def require_chromium() -> None:
    """Skip the calling test module without the browser; in CI (``CI`` set) fail instead,
    so the browser tests never skip there."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if os.environ.get("CI"):
            raise RuntimeError(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
        pytest.skip(
            "needs Debian's chromium (apt-get install -y chromium)", allow_module_level=True
        )


@contextmanager
def chromium(sync_api: Any) -> Iterator[Any]:
    """The headless browser, launched through Playwright's ``sync_api`` and closed after."""
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()


def game_over_box(page: Any) -> None:
    """Wait for the game-over box: a game that ended with a hand shows that hand's score
    sheet first (one dialog at a time), and the box opens when the sheet is closed."""
    page.wait_for_selector("#sheet:not(.hidden), #over:not(.hidden)")
    if page.is_visible("#sheet"):
        assert page.is_hidden("#over"), "one dialog at a time"
        page.click("#sheet-close")
    page.wait_for_selector("#over:not(.hidden)")
    assert page.is_hidden("#sheet")
