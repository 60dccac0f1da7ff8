"""One browser session at a two-person classic table, as a newcomer sees it, on a
desktop and on a phone (390×844), under the server's security headers.

The page at seat 1 (two pages on its link: desktop and phone) follows a game whose
moves are sent over the seats' own sockets: the Content-Security-Policy lets the
page work (no page error, nothing refused); the log speaks in names and "you"; a
knock that can only lose is shown as dangerous; a long name is cut and shown whole
on hover; once the game is over no dealer or trump remains and only the game-over
box is open.  A person then leaves a second table, a bot playing on, and the maker
of a third hands the seat of a person who has gone to a bot.  Screenshots
are saved under ``build/screenshots`` (those in the docs are copied from there).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from web_support import (
    choose,
    chromium,
    game_over_box,
    require,
    require_chromium,
    running_server,
)

require("starlette")
require("uvicorn")
sync_api = require("playwright.sync_api")
require("websockets")

from websockets.sync.client import connect  # noqa: E402

from binocle.web import create_app, protocol  # noqa: E402

require_chromium()

SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
LONG = "Annabelle Featherstonhau"  # 24 characters, the longest name a person may give


def _read(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=60))
        if msg["type"] in (kind, "error"):
            return msg


def _wait(page: Any, steps: int) -> None:
    deadline = time.monotonic() + 60
    while page.evaluate("document.body.dataset.step") != str(steps):
        assert time.monotonic() < deadline, "the page did not catch up"
        time.sleep(0.03)


def _move(hub: Any, game: str, sockets: dict[int, Any]) -> bool:
    """Send the next calm move of the seat to act (or the deal); False once over."""
    table = hub.tables[game]
    if table.state.phase.value == "over":
        return False
    seat = table.state.current_player
    steps = table.steps
    move = {"type": "deal"} if seat is None else choose(protocol.controls(table, seat))
    assert move is not None
    sockets[0 if seat is None else seat].send(json.dumps(move))
    deadline = time.monotonic() + 30
    while hub.tables[game].steps == steps:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return True


def test_a_newcomer_follows_a_game_to_its_end_on_desktop_and_phone() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    app = create_app(bot_delay=0)
    hub = app.state.hub
    errors: list[str] = []
    with running_server(app) as address, chromium(sync_api) as browser:
        url = f"ws://{address}/ws"
        with connect(url, max_queue=None) as ann, connect(url, max_queue=None) as bob:
            ann.send(json.dumps({"type": "table", "profile": "classic", "seed": 11,
                                 "seats": ["person", "person"], "name": LONG,
                                 "options": {"max_hands": 1}}))  # fmt: skip
            links = _read(ann, "links")
            game, token = links["game"], links["tokens"]["1"]
            bob.send(json.dumps({"type": "join", "game": game, "token": token, "name": "Bob"}))
            _read(bob, "joined")
            ann.send(json.dumps({"type": "start"}))
            pages = {}
            for kind, size in (("desktop", (1280, 860)), ("phone", (390, 844))):
                context = browser.new_context(viewport={"width": size[0], "height": size[1]})
                page = context.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                response = page.goto(f"http://{address}/?game={game}&token={token}&hold=0")
                assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
                assert response.headers["x-frame-options"] == "DENY"
                pages[kind] = page
            sockets = {0: ann, 1: bob}
            for _ in range(14):  # into the hand: tricks played, a knock open at 0 points
                _move(hub, game, sockets)
            steps = hub.tables[game].steps
            for kind, page in pages.items():
                _wait(page, steps)
                knock = page.locator("#knock")
                assert knock.count() == 1 and "danger" in (knock.get_attribute("class") or "")
                assert "you would lose" in knock.inner_text()
                log = page.evaluate(
                    "[...document.querySelectorAll('#log-full li')].map(n => n.textContent)"
                )
                assert log and not any(re.search(r"\bseat \d", line) for line in log), log
                assert any("you play" in line for line in log)
                assert any("take the trick" in line for line in log)
                name = page.locator(f".seat .who[title='{LONG}']")
                assert name.evaluate("n => n.scrollWidth > n.clientWidth") or kind == "desktop"
                name.hover()
                assert name.evaluate("n => n.scrollWidth <= n.clientWidth")
                label = page.locator("#hand .label").bounding_box()
                card = page.locator("#hand .card >> nth=0").bounding_box()
                assert (
                    label and card and label["y"] + label["height"] <= card["y"] + 1
                )  # not hidden
                assert page.locator(".bid-meld:visible").count() <= 1  # the meld line once
                page.screenshot(path=str(SHOTS / f"newcomer-mid-hand-{kind}.png"))
            while _move(hub, game, sockets):
                pass
            steps = hub.tables[game].steps
            for kind, page in pages.items():
                _wait(page, steps)
                game_over_box(page)
                assert page.locator(".modal:not(.hidden)").count() == 1  # one dialog at a time
                facts = page.inner_text("#info")
                assert "Dealer" not in facts and "Trump" not in facts, facts
                assert page.locator(".tag-dealer").count() == 0
                assert page.inner_text("#over-title") in (
                    "You won the game",
                    f"{LONG} won the game",
                )
                assert "Bob" not in page.inner_text("#over-detail")  # "you", as everywhere
                page.screenshot(path=str(SHOTS / f"newcomer-game-over-{kind}.png"))
        # A person leaves a table mid-game: a bot plays his seat on.
        with connect(url, max_queue=None) as ann:
            ann.send(json.dumps({"type": "table", "profile": "cutthroat", "seed": 4,
                                 "seats": ["person", "person", "random"], "name": "Ann"}))  # fmt: skip
            links = _read(ann, "links")
            game, token = links["game"], links["tokens"]["1"]
            page = pages["desktop"]
            page.goto(f"http://{address}/?game={game}&token={token}&hold=0")
            deadline = time.monotonic() + 30
            while 1 not in hub.tables[game].taken:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            page.wait_for_selector("#room:not(.hidden)")  # seated, waiting for the start
            ann.send(json.dumps({"type": "start"}))
            page.wait_for_selector("#leave")
            page.click("#leave")
            page.wait_for_selector("#confirm:not(.hidden)")
            page.screenshot(path=str(SHOTS / "newcomer-leave.png"))
            page.click("#confirm-yes")
            page.wait_for_selector("#setup:not(.hidden)")
            assert "You left the table" in page.inner_text("#message")
            assert 1 in hub.tables[game].bots and 1 not in hub.tables[game].tokens
        # The table's maker hands the seat of a person who has gone to a bot.
        with connect(url, max_queue=None) as ann:
            ann.send(json.dumps({"type": "table", "profile": "cutthroat", "seed": 5,
                                 "seats": ["person", "person", "random"], "name": "Ann"}))  # fmt: skip
            maker = _read(ann, "joined")
            links = _read(ann, "links")
            game = links["game"]
            with connect(url, max_queue=None) as bob:
                bob.send(json.dumps({"type": "join", "game": game, "token": links["tokens"]["1"],
                                     "name": "Bob"}))  # fmt: skip
                _read(bob, "joined")
                ann.send(json.dumps({"type": "start"}))
                _read(bob, "state")
            page.goto(f"http://{address}/?game={game}&token={maker['token']}&hold=0")
            page.wait_for_selector("#replace-1")
            assert "Bob" in page.inner_text("#replace-1")
            page.click("#replace-1")
            page.wait_for_selector("#confirm:not(.hidden)")
            page.screenshot(path=str(SHOTS / "newcomer-replace.png"))
            page.click("#confirm-yes")
            deadline = time.monotonic() + 30
            while 1 not in hub.tables[game].bots:
                assert time.monotonic() < deadline, page.inner_text("#message")
                time.sleep(0.02)
            page.wait_for_selector("#replace-1", state="detached")
    assert errors == []
