"""The static site in Chromium with no engine process: whole hands, a reload, offline play.

The site ``binocle site`` writes is served by a plain static file server (a thread
of ``http.server`` on loopback); the engine runs in the page's Web Worker
(Pyodide).  A whole hand of each profile is played by clicking against the bots:
at every move the playable cards are exactly the engine's legal ones (checked with
the library here, on the game the page keeps in its storage) and the score sheet
shows the engine's numbers.  A game survives a reload of the page, and once the
site is loaded play goes on with the network cut (the browser offline; the static
server sees no request after the cut), through a reload too: the service worker
serves every file.

One browser, one page: Pyodide is loaded twice (cold, then from the cache after the
reload).  Pyodide's npm tarball is read from the cache (:func:`binocle.web.site.
pyodide_cache`), downloaded there with npm once.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import binocle
from binocle.actions import Kind
from binocle.core import GameState
from web_support import CHROMIUM, CHROMIUM_FLAGS, require, require_chromium

sync_api = require("playwright.sync_api")
require_chromium()

from binocle.errors import InvalidArgumentError  # noqa: E402
from binocle.web.site import build_site, fetch_pyodide  # noqa: E402

KEY = "binocle-site-table"
#: Generous bounds for a loaded machine: Pyodide's cold load, one hand.
LOAD_LIMIT = 240.0
HAND_LIMIT = 300.0


class _Files(http.server.SimpleHTTPRequestHandler):
    """The site's files, each request counted; once ``cut`` is set, every request is
    counted and dropped unanswered (the network is gone)."""

    requests: list[str]
    cut: threading.Event

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.requests.append(self.path)
        if self.cut.is_set():
            self.close_connection = True
            return
        super().do_GET()


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, list[str], threading.Event]]:
    """The site built once and served on a loopback port: its URL, the requests seen, and
    the switch that cuts the server off."""
    try:
        pyodide = fetch_pyodide()
    except InvalidArgumentError as exc:  # no npm and no cached tarball: CI must have one
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Pyodide to build the site with: {exc}")
    root = tmp_path_factory.mktemp("site")
    build_site(root, pyodide=pyodide)
    seen: list[str] = []
    cut = threading.Event()
    handler = type("Files", (_Files,), {"requests": seen, "cut": cut})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(root))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", seen, cut
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=20)


@pytest.fixture(scope="module")
def page(site: tuple[str, list[str], threading.Event]) -> Iterator[Any]:
    """One page of the site, its engine loaded (cold)."""
    url, _, _ = site
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            context = browser.new_context(viewport={"width": 1200, "height": 900})
            p = context.new_page()
            p.errors = []
            p.on("pageerror", lambda e: p.errors.append(str(e)))
            p.on("console", lambda m: p.errors.append(m.text) if m.type == "error" else None)
            p.goto(url + "?hold=0")
            _connected(p)
            yield p
        finally:
            browser.close()


def _connected(page: Any) -> None:
    # A locator, not a script: the page's CSP allows no evaluated text.
    page.locator("#status", has_text=re.compile("^connected$")).wait_for(timeout=LOAD_LIMIT * 1000)


def _kept(page: Any) -> tuple[dict[str, Any], GameState]:
    """The table the page keeps in its storage, and its game read back here."""
    kept = json.loads(page.evaluate(f"localStorage.getItem({KEY!r})"))
    doc = json.loads(kept["doc"])
    return doc, binocle.loads(doc["game"])


def _settled(page: Any) -> tuple[dict[str, Any], GameState] | None:
    """The kept game when the page shows its newest step, has no action in flight, and
    the person is to act or the hand is over; else None."""
    if page.evaluate("localStorage.getItem('binocle-site-table') === null"):
        return None
    doc, state = _kept(page)
    game = page.evaluate("JSON.parse(sessionStorage.getItem('binocle-game') || 'null')")
    if game is None or game["game"] != doc["id"]:
        return None  # the kept game is not yet the one the page plays
    shown = page.evaluate("document.body.dataset.waiting ? null : document.body.dataset.step")
    if shown != str(doc["steps"]) or state.current_player not in (None, doc["seat"]):
        return None
    return doc, state


def _wait_settled(page: Any, deadline: float) -> tuple[dict[str, Any], GameState]:
    while (found := _settled(page)) is None:
        assert time.monotonic() < deadline, "the page did not settle in time"
        time.sleep(0.05)
    return found


def _start(page: Any, profile: str, seed: int = 21) -> None:
    """A new game of one hand (max_hands 1) from the set-up form, bots at once."""
    page.wait_for_selector("#setup:not(.hidden)")
    page.select_option("#profile", profile)
    page.fill("#option-max_hands", "1")
    page.select_option("#bot-delay", "0")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#game:not(.hidden)")


def _click_move(page: Any, state: GameState) -> None:
    """A calm move by mouse: a card, the cards to bury and the confirmation, a bid or a
    pass, else the first of the table's buttons (never a knock or a concession)."""
    if page.query_selector("#bury"):
        for _ in range(3):
            page.locator("#hand .card.legal:not(.chosen)").first.click()
        page.click("#bury")
    elif page.query_selector(".card.legal"):
        page.click(".card.legal >> nth=0")
    elif page.query_selector("#bid"):
        page.click("#pass" if state.bid and page.query_selector("#pass") else "#bid")
    else:
        page.locator("#actions button").first.click()


def _play(page: Any, moves: int | None = None) -> int:
    """Play by clicking until the hand is over (or ``moves`` moves are made), checking at
    each move that the playable cards are the engine's legal ones; returns the moves."""
    deadline = time.monotonic() + HAND_LIMIT
    made = 0
    while moves is None or made < moves:
        doc, state = _wait_settled(page, deadline)
        if state.current_player is None:
            break
        legal = binocle.legal_actions(state)
        cards = {str(a.card) for a in legal if a.kind in (Kind.PLAY, Kind.DISCARD)}
        shown = {e.get_attribute("data-card") for e in page.query_selector_all(".card.legal")}
        assert shown == cards, (str(state.phase), shown, cards)
        _click_move(page, state)
        while _kept(page)[0]["steps"] == doc["steps"]:
            assert time.monotonic() < deadline, "the move was not applied in time"
            time.sleep(0.02)
        made += 1
    return made


def _check_sheet(page: Any) -> None:
    """The score sheet shows the hand's meld, tricks, change and total as the engine
    counts them (on the game the page keeps), then the game is over: a new one."""
    page.wait_for_selector("#sheet:not(.hidden)")
    _, state = _kept(page)
    result = state.results[-1]
    for seat in range(len(state.scores)):
        row = page.query_selector(f"#sheet-table tr[data-seat='{seat}']")
        cell = {c: row.query_selector(f"[data-col={c}]").inner_text()
                for c in ("meld", "tricks", "delta", "total")}  # fmt: skip
        assert int(cell["meld"]) == result.meld[seat]
        assert int(cell["tricks"]) == result.tricks[seat]
        assert int(cell["delta"]) == result.delta[seat]
        assert int(cell["total"]) == state.scores[seat]
    # The game is over: its box opens once the last hand's sheet is closed.
    assert page.is_hidden("#over")
    page.click("#sheet-close")
    page.wait_for_selector("#over:not(.hidden)")
    assert page.is_hidden("#sheet")
    page.click("#again")


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_a_whole_hand_of_each_profile_by_clicking(page: Any, profile: str) -> None:
    """A whole hand against the bots, every move a click, with no engine server: the
    legal cards at each move are the engine's, and the sheet shows its numbers."""
    # Partnership's seed 21 deals a hand its bidding side gives up: no play to check.
    _start(page, profile, **({"seed": 23} if profile == "partnership" else {}))
    assert _play(page) >= 5
    _check_sheet(page)
    assert page.errors == []


def test_the_game_survives_a_reload_and_goes_on_offline(
    page: Any, site: tuple[str, list[str], threading.Event]
) -> None:
    """A game in progress comes back after a reload at the same step; with the network
    cut once the site is loaded (the browser offline, the static server answering
    nothing), play goes on, through a reload too: the service worker serves every file.
    The only request after the cut is the browser's own check for a new service worker."""
    _, seen, cut = site
    _start(page, "cutthroat", seed=4)
    _play(page, moves=2)
    doc, _ = _wait_settled(page, time.monotonic() + HAND_LIMIT)
    page.reload()
    _connected(page)
    page.wait_for_selector("#game:not(.hidden)")
    again, _ = _wait_settled(page, time.monotonic() + HAND_LIMIT)
    assert (again["id"], again["steps"]) == (doc["id"], doc["steps"])
    assert page.evaluate("navigator.serviceWorker.controller !== null")

    page.context.set_offline(True)
    cut.set()
    try:
        before = len(seen)
        _play(page, moves=2)
        page.reload()
        _connected(page)
        after, _ = _wait_settled(page, time.monotonic() + HAND_LIMIT)
        assert after["id"] == doc["id"] and after["steps"] > doc["steps"]
        _play(page)
        _check_sheet(page)
        assert set(seen[before:]) <= {"/sw.js"}
    finally:
        page.context.set_offline(False)
        cut.clear()
    assert page.errors == []
