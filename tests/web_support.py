"""What the web front end's tests share: the extra's imports, a server on loopback, a player."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

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
def running_server(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread; yields its base URL."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="auto")
    server = uvicorn.Server(config)
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
