"""People at one table in real browsers, a server killed mid-hand, and the pages resuming.

Two browser contexts (two people, each with his own storage) sit at a classic
table: one makes it and sends the other his seat's link; they play a whole hand
against each other by clicking, and at every step each page shows only its own
seat's cards, checked against the engine's view of the game the server keeps.
Mid-hand the server is killed (SIGKILL: nothing is saved on the way out) and a
new one started on the same SQLite file: both pages reconnect by themselves at
the same step and the hand is played to its end.  A third person sits at a
three-handed table with one bot from the lobby, and that hand is played too.
Screenshots are saved under ``build/screenshots``.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import binocle
from binocle.actions import Kind
from web_support import chromium, free_port, require, require_chromium, server_process

require("starlette")
require("uvicorn")
sync_api = require("playwright.sync_api")

from binocle.web import protocol  # noqa: E402

SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"

require_chromium()

DEADLINE = 240.0


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium(sync_api) as b:
        yield b


def kept_table(db: Path, game: str) -> protocol.Table:
    """The table as the server last wrote it to its database."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        (doc,) = con.execute("SELECT doc FROM tables WHERE id = ?", (game,)).fetchone()
    return protocol.table_from_doc(json.loads(doc))


def page_for(context: Any, errors: list[str]) -> Any:
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def step_of(page: Any) -> int | None:
    """The step the page shows, or None while an action it sent is unanswered."""
    step = page.evaluate("document.body.dataset.waiting ? null : document.body.dataset.step")
    return int(step) if step is not None and step.isdigit() else None


def shown_cards(page: Any) -> Counter[str]:
    """The cards in the page's own rows: its hand and its cards on the table."""
    cards = page.eval_on_selector_all(
        "#hand .card, #my-table .card", "nodes => nodes.map(n => n.dataset.card)"
    )
    return Counter(cards)


def own_cards(table: protocol.Table, seat: int) -> Counter[str]:
    """The seat's cards as the engine's view of it holds them."""
    return Counter(str(c) for c in binocle.observe(table.state, seat).hand)


def settle(pages: dict[int, Any], db: Path, game: str) -> protocol.Table:
    """Wait until the server waits for a person and every page shows that step."""
    deadline = time.monotonic() + DEADLINE
    while True:
        table = kept_table(db, game)
        if table.bot_to_act() is None and all(step_of(p) == table.steps for p in pages.values()):
            return table
        assert time.monotonic() < deadline, "the pages did not catch up"
        time.sleep(0.05)


def click_a_move(page: Any, table: protocol.Table) -> None:
    """Click what a calm person would: a legal card, else a button that is not a knock
    (a pass once someone has bid)."""
    s = table.state
    legal = binocle.legal_actions(s)
    cards = {str(a.card) for a in legal if a.kind in (Kind.PLAY, Kind.DISCARD)}
    enabled = {e.get_attribute("data-card") for e in page.query_selector_all(".card.legal")}
    assert enabled == cards, (str(s.phase), enabled, cards)
    if enabled:
        page.click(".card.legal >> nth=0")
        return
    buttons = [
        b for b in page.query_selector_all("#actions button")
        if b.get_attribute("data-action") not in ("knock", "claim", "concede", "bid-down", "bid-up")
    ]  # fmt: skip
    assert buttons, [str(a) for a in legal]
    # A calm bidder passes once someone has bid.
    passing = [b for b in buttons if b.get_attribute("data-action") == "pass"]
    (passing[0] if passing and getattr(s, "bid", None) else buttons[0]).click()


def play(pages: dict[int, Any], db: Path, game: str, *, stop_at: int | None = None) -> int:
    """Click moves until the hand is over (or the table reaches ``stop_at`` steps),
    checking each page's own cards at every step; the number of moves clicked."""
    clicked = 0
    hand = kept_table(db, game).state.hand_number
    while True:
        table = settle(pages, db, game)
        for seat, page in pages.items():
            assert shown_cards(page) == own_cards(table, seat), seat
        s = table.state
        if s.current_player is None or s.hand_number != hand or binocle.is_over(s):
            return clicked
        if stop_at is not None and table.steps >= stop_at:
            return clicked
        page = pages[s.current_player]
        click_a_move(page, table)
        clicked += 1
        deadline = time.monotonic() + 30
        while kept_table(db, game).steps == table.steps:
            assert time.monotonic() < deadline, (
                str(table.state.phase),
                page.inner_text("#message"),
                page.inner_text("#actions"),
                page.inner_text("#hint"),
            )
            time.sleep(0.02)


def open_setup(page: Any, address: str, profile: str, name: str) -> None:
    page.goto(f"http://{address}/")
    page.wait_for_selector("#profile option", state="attached")
    page.select_option("#profile", profile)
    page.select_option("#bot-delay", "0")
    page.fill("#seed", "12")
    page.fill("#your-name", name)


def sit_and_start(maker: Any, guest: Any, seat: int, starter: Any) -> str:
    """The guest opens the link of ``seat`` the maker's room shows and sits; once the
    maker's room shows him there, ``starter`` starts the game; the game's id."""
    link = maker.get_attribute(f".room-link[data-seat='{seat}']", "value")
    assert link and "token=" in link
    guest.goto(link)
    guest.wait_for_selector("#room:not(.hidden)")
    maker.wait_for_selector(f"#room-seats li[data-seat='{seat}'][data-state='here']")
    starter.click("#room-start")
    for page in (maker, guest):
        page.wait_for_selector("#game:not(.hidden)")
    return str(json.loads(maker.evaluate("sessionStorage.getItem('binocle-game')"))["game"])


def test_two_people_play_a_classic_hand_across_a_server_restart_and_a_third_sits_from_the_lobby(
    browser: Any, tmp_path: Path
) -> None:
    db = tmp_path / "tables.sqlite3"
    port = free_port()
    args = ("--db", str(db), "--bot-delay", "0")
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    bob_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ann, bob = page_for(ann_ctx, errors), page_for(bob_ctx, errors)
    with server_process(*args, port=port) as (address, _):
        open_setup(ann, address, "classic", "Ann")
        ann.click("#create-table")
        ann.wait_for_selector("#room:not(.hidden)")
        assert ann.is_disabled("#room-start")
        game = sit_and_start(ann, bob, 1, starter=bob)
        pages = {0: ann, 1: bob}
        before = play(pages, db, game, stop_at=12)
        assert before >= 10
        ann.screenshot(path=str(SHOTS / "table-classic-ann.png"))
        step = kept_table(db, game).steps
    # The server was killed (SIGKILL) with the hand under way: the pages see it go.
    for page in pages.values():
        page.locator("#status", has_text=re.compile("^disc")).wait_for()
        page.evaluate("document.body.dataset.step = 'before the restart'")
    # A new server on the same file: the pages reconnect and are sent the same step.
    with server_process(*args, port=port) as (address, _):
        deadline = time.monotonic() + 60
        while not all(step_of(p) == step for p in pages.values()):
            assert time.monotonic() < deadline, "the pages did not resume"
            time.sleep(0.05)
        for page in pages.values():
            assert page.is_visible("#game") and not page.is_visible("#setup")
        after = play(pages, db, game)
        table = kept_table(db, game)
        assert table.state.current_player is None and len(table.state.results) == 1
        assert after > 5
        for page in pages.values():
            page.wait_for_selector("#sheet:not(.hidden)")
        # A third person sits at a three-handed table with one bot, from the lobby.
        carla_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        carla = page_for(carla_ctx, errors)
        host = page_for(ann_ctx, errors)
        open_setup(host, address, "three-handed", "Ann")
        host.select_option("#table-seats select[data-seat='2']", "baseline")
        host.click("#create-table")
        host.wait_for_selector("#room:not(.hidden)")
        game3 = json.loads(host.evaluate("sessionStorage.getItem('binocle-game')"))["game"]
        carla.goto(f"http://{address}/")
        carla.fill("#your-name", "Carla")
        carla.wait_for_selector(f"#open-tables li[data-game='{game3}'] button.sit")
        carla.screenshot(path=str(SHOTS / "lobby.png"))
        carla.click(f"#open-tables li[data-game='{game3}'] button.sit[data-seat='1']")
        carla.wait_for_selector("#room:not(.hidden)")
        host.wait_for_selector("#room-seats li[data-seat='1'][data-state='here']")
        assert "Carla" in host.inner_text("#room-seats")
        host.click("#room-start")
        three = {0: host, 1: carla}
        assert play(three, db, game3) > 5
        assert kept_table(db, game3).state.current_player is None
    # A server that lost its tables (another database): a page at a table goes back to
    # the lobby by itself, not to a table that answers nothing.
    assert bob.is_visible("#game")
    with server_process("--db", str(tmp_path / "other.sqlite3"), port=port):
        bob.wait_for_selector("#setup:not(.hidden)")
        assert bob.is_hidden("#game") and bob.is_hidden("#room")
        assert "no such game" in bob.inner_text("#message")
        assert bob.evaluate("sessionStorage.getItem('binocle-game')") is None
    assert errors == []


def test_two_partners_play_a_partnership_hand_against_two_bots(
    browser: Any, tmp_path: Path
) -> None:
    """Partnership rules, Players and pack: seats 0 and 2 are partners.  Ann makes a
    four-seat table with bots at seats 1 and 3 and sends Bob seat 2's link; they play a
    whole hand by clicking (bidding, passing when it comes, melds, tricks), each page
    showing its own cards only and the other person tagged as partner."""
    db = tmp_path / "tables.sqlite3"
    errors: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    bob_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ann, bob = page_for(ann_ctx, errors), page_for(bob_ctx, errors)
    with server_process("--db", str(db), "--bot-delay", "0") as (address, _):
        open_setup(ann, address, "partnership", "Ann")
        ann.fill("#seed", "13")  # a hand played out (seed 12's bidder gives it up)
        ann.fill("#option-max_hands", "1")
        for seat, who in (("1", "baseline"), ("2", "person"), ("3", "baseline")):
            ann.select_option(f"#table-seats select[data-seat='{seat}']", who)
        ann.click("#create-table")
        ann.wait_for_selector("#room:not(.hidden)")
        game = sit_and_start(ann, bob, 2, starter=ann)
        pages = {0: ann, 2: bob}
        settle(pages, db, game)
        for page, partner in ((ann, 2), (bob, 0)):
            tags = page.locator(f".seat[data-seat='{partner}'] .tag").all_inner_texts()
            assert "partner" in tags, tags
            for other in (1, 3):
                assert (
                    "partner"
                    not in page.locator(f".seat[data-seat='{other}'] .tag").all_inner_texts()
                )
        moves = play(pages, db, game)
        table = kept_table(db, game)
        assert table.state.current_player is None and len(table.state.results) == 1
        result = table.state.results[0]
        assert moves >= 5 and result.outcome == "played"
        assert result.delta[0] == result.delta[2] and result.delta[1] == result.delta[3]
        for page in pages.values():
            page.wait_for_selector("#sheet:not(.hidden), #over:not(.hidden)")
        bob.screenshot(path=str(SHOTS / "table-partnership-bob.png"))
    assert errors == []
