"""The static site (``binocle site``) beside the server (``binocle serve``): bytes and times.

For each of the two, in headless Chromium (Debian's, through Playwright), on loopback:

* bytes: the response bodies (HTTP files and websocket messages) the server sent,
  from opening the page to the person's first legal move of a new game, cold (a
  new browser context: no cache, no service worker);
* cold: wall-clock seconds from opening the page to the first legal move (the
  set-up form filled and sent as soon as the page is ready);
* warm: the same after a reload of the same context, the game forgotten (the
  browser's caches kept: for the site, its service worker's);
* move: the wall-clock time from a click on a legal move to the page showing the
  state with it (median and largest of ``--moves`` moves, bots at once).

    python benchmarks/site_load.py [--site DIR] [--moves 15] [--json]

builds the site into a temporary directory (Pyodide from the cache of
:func:`binocle.web.site.pyodide_cache`, downloaded with npm once) unless ``--site``
names one already built.  The figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from binocle.web.site import build_site

CHROMIUM = os.environ.get("BINOCLE_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update"]  # fmt: skip
LEGAL = ".card.legal, #actions button, #bid"
#: Resolves with the milliseconds from a click on the first legal move to the next step shown.
MOVE = """
(selector) => new Promise((resolve) => {
  const before = document.body.dataset.step;
  const started = performance.now();
  const seen = new MutationObserver(() => {
    if (document.body.dataset.step !== before && !document.body.dataset.waiting) {
      seen.disconnect();
      resolve(performance.now() - started);
    }
  });
  seen.observe(document.body, { attributes: true });
  document.querySelector(selector).click();
})
"""


class Counter:
    """Bytes of response bodies sent, added up across threads."""

    def __init__(self) -> None:
        self.total = 0
        self.lock = threading.Lock()

    def add(self, n: int) -> None:
        with self.lock:
            self.total += n


@contextmanager
def static_server(root: Path, counter: Counter) -> Iterator[str]:
    class Files(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def copyfile(self, source: Any, outputfile: Any) -> None:
            data = source.read()
            counter.add(len(data))
            outputfile.write(data)

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Files, directory=str(root))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def engine_server(counter: Counter) -> Iterator[str]:
    import socket

    import uvicorn

    from binocle.web import create_app
    from binocle.web.server import uvicorn_config

    app = create_app()

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        async def out(msg: dict[str, Any]) -> None:
            if msg["type"] == "http.response.body":
                counter.add(len(msg.get("body", b"")))
            elif msg["type"] == "websocket.send":
                counter.add(len((msg.get("text") or "").encode()) + len(msg.get("bytes") or b""))
            await send(msg)

        await app(scope, receive, out)

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(counted, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def first_move(page: Any, url: str, ready: Callable[[Any], None]) -> float:
    """Seconds from opening ``url`` to the first legal move of a new cutthroat game."""
    started = time.monotonic()
    page.goto(url + "?hold=0")
    ready(page)
    page.select_option("#bot-delay", "0")
    page.fill("#seed", "3")
    page.click("#start")
    page.wait_for_selector(LEGAL, timeout=300_000)
    return time.monotonic() - started


def moves(page: Any, count: int) -> list[float]:
    """Milliseconds each of ``count`` moves took to show, new hands dealt as needed."""
    out = []
    while len(out) < count:
        page.wait_for_selector(f"{LEGAL}, #sheet-deal", timeout=60_000)
        if page.query_selector("#sheet-deal"):
            page.click("#sheet-deal")
            continue
        if page.evaluate("document.body.dataset.waiting === 'true'"):
            continue
        selector = next(s for s in LEGAL.split(", ") if page.query_selector(s))
        if selector == ".card.legal" and page.query_selector("#bury"):
            selector = "#bury"  # three cards are chosen first: play on with the buttons
            page.locator("#hand .card.legal:not(.chosen)").first.click()
            page.locator("#hand .card.legal:not(.chosen)").first.click()
            page.locator("#hand .card.legal:not(.chosen)").first.click()
        out.append(float(page.evaluate(MOVE, selector)))
    return out


def measure(browser: Any, which: str, url: str, counter: Counter, count: int) -> dict[str, Any]:
    def ready(page: Any) -> None:
        page.wait_for_function(
            "document.getElementById('status').textContent === 'connected'", timeout=300_000
        )

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    before = counter.total
    cold = first_move(page, url, ready)
    cold_bytes = counter.total - before
    taken = moves(page, count)
    page.evaluate("sessionStorage.clear(); localStorage.clear()")
    before = counter.total
    warm = first_move(page, url, ready)
    warm_bytes = counter.total - before
    context.close()
    return {"version": which, "cold_bytes": cold_bytes, "cold_s": round(cold, 2),
            "warm_bytes": warm_bytes, "warm_s": round(warm, 2),
            "move_ms_median": round(statistics.median(taken), 1),
            "move_ms_max": round(max(taken), 1)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=None, help="a site already built")
    parser.add_argument("--moves", type=int, default=15, help="moves timed (default 15)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        root = args.site
        if root is None:
            root = Path(tmp) / "site"
            build_site(root)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            counter = Counter()
            with engine_server(counter) as url:
                rows.append(measure(browser, "binocle serve", url, counter, args.moves))
            counter = Counter()
            with static_server(root, counter) as url:
                rows.append(measure(browser, "binocle site", url, counter, args.moves))
        finally:
            browser.close()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'':14} {'cold bytes':>12} {'cold s':>7} {'warm bytes':>11} {'warm s':>7}"
          f" {'move ms (median, max)':>22}")  # fmt: skip
    for r in rows:
        print(f"{r['version']:14} {r['cold_bytes']:>12,} {r['cold_s']:>7} {r['warm_bytes']:>11,}"
              f" {r['warm_s']:>7} {r['move_ms_median']:>14} {r['move_ms_max']:>7}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
