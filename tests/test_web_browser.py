"""The web front end in a real browser: one whole hand of each profile, played by clicking.

Headless Chromium (Debian's ``chromium``) driven by Playwright.  At every step
only the cards the engine allows are clickable (the others say why), and the
score sheet at the end of the hand shows the engine's numbers.  A screenshot of
each profile is saved under ``build/screenshots``.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

import binocle
from binocle.actions import Kind
from web_support import require, running_server

require("starlette")
require("uvicorn")
sync_api = require("playwright.sync_api")

from binocle.web import create_app  # noqa: E402

CHROMIUM = os.environ.get("BINOCLE_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
    if os.environ.get("CI"):
        raise RuntimeError(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    pytest.skip("needs Debian's chromium (apt-get install -y chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Any:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def _settled(page: Any, table: Any) -> bool:
    """The page shows the newest state and it is the person's move (or the hand is over)."""
    step = page.evaluate("document.body.dataset.step")
    return table.bot_to_act() is None and step == str(table.steps)


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_one_whole_hand_by_clicking(browser: Any, profile: str) -> None:
    app = create_app()
    hub = app.state.hub
    errors: list[str] = []
    with running_server(app) as address:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"http://{address}/")
        page.wait_for_selector("#profile option", state="attached")
        page.select_option("#profile", profile)
        page.select_option("#bot-delay", "0")
        page.fill("#seed", "12")
        page.click("#start")
        page.wait_for_selector("#game:not(.hidden)")
        deadline = time.monotonic() + 120
        while not hub.tables:
            time.sleep(0.02)
        (table,) = hub.tables.values()
        checked = 0
        shot = SHOTS / f"{profile}-play.png"
        shot.unlink(missing_ok=True)
        SHOTS.mkdir(parents=True, exist_ok=True)
        while time.monotonic() < deadline:
            if not _settled(page, table):
                time.sleep(0.02)
                continue
            s = table.state
            if s.current_player is None:  # the hand is over: the score sheet is up
                break
            legal = binocle.legal_actions(s)
            cards = {str(a.card) for a in legal if a.kind in (Kind.PLAY, Kind.DISCARD)}
            enabled = {e.get_attribute("data-card") for e in page.query_selector_all(".card.legal")}
            assert enabled == cards, (str(s.phase), enabled, cards)
            for e in page.query_selector_all(".card.disabled"):
                assert e.get_attribute("title"), "an unplayable card says why"
            checked += bool(cards)
            if len(s.trick) >= 1 and len(cards) >= 2 and not shot.exists():
                page.screenshot(path=str(shot))
            steps = table.steps
            if enabled:
                page.click(".card.legal >> nth=0")
            else:
                buttons = [
                    b for b in page.query_selector_all("#actions button")
                    if b.get_attribute("data-action") not in ("knock", "claim", "concede")
                ]  # fmt: skip
                assert buttons, [str(a) for a in legal]
                buttons[0].click()
            while table.steps == steps and time.monotonic() < deadline:
                time.sleep(0.01)
        else:
            raise AssertionError("the hand did not end in time")
        assert checked >= 5
        page.wait_for_selector("#sheet:not(.hidden)")
        result = table.state.results[-1]
        for seat in range(len(table.state.scores)):
            row = page.query_selector(f"#sheet-table tr[data-seat='{seat}']")
            cell = {
                c: row.query_selector(f"[data-col={c}]").inner_text()
                for c in ("meld", "tricks", "delta", "total")
            }
            assert int(cell["meld"]) == result.meld[seat]
            assert int(cell["tricks"]) == result.tricks[seat]
            assert int(cell["delta"]) == result.delta[seat]
            assert int(cell["total"]) == table.state.scores[seat]
        assert shot.exists()
        page.screenshot(path=str(SHOTS / f"{profile}-score-sheet.png"))
        page.click("#sheet-close")
        page.screenshot(path=str(SHOTS / f"{profile}.png"))
        page.close()
    assert errors == []
