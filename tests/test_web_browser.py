"""The web front end in a real browser: whole hands of each profile, by mouse, by keyboard
alone and on a phone-sized screen; the two-step knock, concession and burial; axe-core.

Headless Chromium (Debian's ``chromium``) driven by Playwright.  At every step
only the cards the engine allows are playable (the others say why), and the
score sheet at the end of the hand shows the engine's numbers.  A screenshot of
each profile is saved under ``build/screenshots``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import binocle
from binocle.actions import Kind
from binocle.core import Phase
from web_support import chromium, game_over_box, require, require_chromium, running_server

require("starlette")
require("uvicorn")
sync_api = require("playwright.sync_api")

from binocle.web import create_app  # noqa: E402

SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
#: Counts every mouse, pointer and touch event the page receives (a keyboard-only hand has none).
POINTER_SPY = """
window.pointerEvents = 0;
for (const kind of ["mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "mousemove"]) {
  window.addEventListener(kind, () => { window.pointerEvents += 1; }, true);
}
"""
#: Every control a player may use now: enabled, shown, in the table or an open dialog.
CONTROLS = """
() => {
  const out = [];
  const sel = "#game button, #game input, #game select, .modal:not(.hidden) button";
  for (const node of document.querySelectorAll(sel)) {
    if (node.disabled || node.getAttribute("aria-disabled") === "true") continue;
    if (node.offsetParent === null && getComputedStyle(node).position !== "fixed") continue;
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    out.push({id: node.id || node.dataset.card || node.textContent.trim().slice(0, 30),
              left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  }
  return out;
}
"""

require_chromium()


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium(sync_api) as b:
        yield b


def _settled(page: Any, table: Any) -> bool:
    """The page shows the newest state, has no action of its own in flight (a burial sends
    its cards one state at a time), and it is the person's move (or the hand is over)."""
    step = page.evaluate("document.body.dataset.waiting ? null : document.body.dataset.step")
    return table.bot_to_act() is None and step == str(table.steps)


#: The seed of each profile's game, one whose first hand is played out (partnership's
#: seed 12 deals a hand its bidding side gives up, with no card to play).
WHOLE_HAND_SEEDS = {"partnership": 13}


class Game:
    """A page at a new table of the server: the person at seat 0 against bots."""

    def __init__(self, browser: Any, address: str, hub: Any, profile: str, *,
                 viewport: dict[str, int] = DESKTOP, seed: int | None = None, hold: int = 0,
                 keyboard: bool = False) -> None:  # fmt: skip
        if seed is None:
            seed = WHOLE_HAND_SEEDS.get(profile, 12)
        self.errors: list[str] = []
        self.page = page = browser.new_page(viewport=viewport)
        page.add_init_script(POINTER_SPY)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.goto(f"http://{address}/?hold={hold}")
        page.wait_for_selector("#profile option", state="attached")
        page.select_option("#profile", profile)
        page.select_option("#bot-delay", "0")
        page.fill("#seed", str(seed))
        if keyboard:
            page.focus("#start")
            page.keyboard.press("Enter")
        else:
            page.click("#start")
        page.wait_for_selector("#game:not(.hidden)")
        deadline = time.monotonic() + 20
        while not hub.tables and time.monotonic() < deadline:
            time.sleep(0.02)
        (self.table,) = hub.tables.values()

    def settle(self, deadline: float) -> None:
        while not _settled(self.page, self.table):
            assert time.monotonic() < deadline, "the page did not settle in time"
            time.sleep(0.02)

    def wait_for_step(self, steps: int, deadline: float) -> None:
        while self.table.steps == steps:
            assert time.monotonic() < deadline, "the action was not applied in time"
            time.sleep(0.01)

    def check_cards(self) -> set[str]:
        """The playable cards are the engine's legal ones; every other card says why not."""
        s = self.table.state
        legal = binocle.legal_actions(s)
        cards = {str(a.card) for a in legal if a.kind in (Kind.PLAY, Kind.DISCARD)}
        page = self.page
        enabled = {e.get_attribute("data-card") for e in page.query_selector_all(".card.legal")}
        assert enabled == cards, (str(s.phase), enabled, cards)
        for e in page.query_selector_all(".card.disabled"):
            assert e.get_attribute("title") and e.get_attribute("data-reason")
        return cards

    def play_hand(self, move: Callable[[Game], None], each: Callable[[Game], None] | None = None,
                  limit: float = 150) -> int:  # fmt: skip
        """Play until the hand is over: ``move`` makes the person's move; returns how many
        card choices were checked."""
        deadline = time.monotonic() + limit
        checked = 0
        while True:
            self.settle(deadline)
            if self.table.state.current_player is None:  # the hand is over: the sheet is up
                break
            checked += bool(self.check_cards())
            if each is not None:
                each(self)
            steps = self.table.steps
            move(self)
            self.wait_for_step(steps, deadline)
        self.page.wait_for_selector("#sheet:not(.hidden)")
        return checked

    def check_sheet(self) -> None:
        result = self.table.state.results[-1]
        for seat in range(len(self.table.state.scores)):
            row = self.page.query_selector(f"#sheet-table tr[data-seat='{seat}']")
            cell = {
                c: row.query_selector(f"[data-col={c}]").inner_text()
                for c in ("meld", "tricks", "delta", "total")
            }
            assert int(cell["meld"]) == result.meld[seat]
            assert int(cell["tricks"]) == result.tricks[seat]
            assert int(cell["delta"]) == result.delta[seat]
            assert int(cell["total"]) == self.table.state.scores[seat]


def _legal_cards(game: Game) -> list[str]:
    s = game.table.state
    return [str(a.card) for a in binocle.legal_actions(s) if a.kind in (Kind.PLAY, Kind.DISCARD)]


def click_move(game: Game) -> None:
    """A calm move by mouse: a card, the cards to bury and the confirmation, else the first
    button of the table's actions (never a knock or a concession)."""
    page = game.page
    if page.query_selector("#bury"):
        for _ in range(3):
            page.locator("#hand .card.legal:not(.chosen)").first.click()
        page.click("#bury")
    elif page.query_selector(".card.legal"):
        page.click(".card.legal >> nth=0")
    elif page.query_selector("#bid"):
        page.click("#pass" if game.table.state.bid else "#bid")
    else:
        page.locator("#actions button").first.click()


def keyboard_move(game: Game) -> None:
    """A move by keyboard alone: H to the hand, arrows to a legal card, Enter; C confirms
    the burial; B bids, P passes, N deals; Tab reaches any other button."""
    page = game.page
    kb = page.keyboard
    legal = _legal_cards(game)
    if legal:
        targets = legal[:3] if page.query_selector("#bury") else legal[:1]
        kb.press("h")
        kb.press("Home")
        for card in targets:
            for _ in range(40):
                focused = page.evaluate("document.activeElement.dataset.card || ''")
                chosen = page.evaluate("document.activeElement.classList.contains('chosen')")
                if focused == card and not chosen:
                    break
                kb.press("ArrowRight")
                if page.evaluate("document.activeElement.classList.contains('disabled')"):
                    reason = page.evaluate("document.activeElement.dataset.reason")
                    assert reason and reason in page.inner_text("#hint"), "the reason, on focus"
            else:
                raise AssertionError(f"the arrows did not reach {card}")
            hint = page.inner_text("#hint")
            assert hint, "a focused card says what it does"
            kb.press("Enter" if card == targets[0] else "Space")
        if len(targets) == 3:
            kb.press("c")
        return
    if page.query_selector("#bid"):
        kb.press("p" if game.table.state.bid else "b")
        return
    if page.query_selector("#pass") and not page.query_selector("#actions button:not(#pass)"):
        kb.press("p")
        return
    wanted = page.evaluate("document.querySelector('#actions button').dataset.action")
    for _ in range(60):
        kb.press("Tab")
        if page.evaluate("document.activeElement.dataset.action || ''") == wanted:
            kb.press("Enter")
            return
    raise AssertionError(f"Tab did not reach the button {wanted!r}")


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_one_whole_hand_by_clicking(browser: Any, profile: str) -> None:
    app = create_app()
    with running_server(app) as address:
        game = Game(browser, address, app.state.hub, profile)
        shot = SHOTS / f"{profile}-play.png"
        shot.unlink(missing_ok=True)
        SHOTS.mkdir(parents=True, exist_ok=True)

        tapped = []

        def snap(g: Game) -> None:
            if len(g.table.state.trick) >= 1 and len(_legal_cards(g)) >= 2 and not shot.exists():
                g.page.screenshot(path=str(shot))
            unplayable = g.page.query_selector(".card.disabled")
            if unplayable is not None and not tapped:  # a tap on it says why, and plays nothing
                before = g.table.state
                unplayable.click(force=True)  # aria-disabled: Playwright would wait
                reason = unplayable.get_attribute("data-reason")
                assert reason in g.page.inner_text("#hint") and g.table.state is before
                tapped.append(reason)

        assert game.play_hand(click_move, snap) >= 5
        assert tapped, "no card was unplayable in the hand"
        game.check_sheet()
        assert shot.exists()
        game.page.screenshot(path=str(SHOTS / f"{profile}-score-sheet.png"))
        game.page.click("#sheet-close")
        game.page.screenshot(path=str(SHOTS / f"{profile}.png"))
        game.page.close()
        assert game.errors == []


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_a_whole_hand_by_keyboard_alone(browser: Any, profile: str) -> None:
    """Arrows move between the cards, Enter or Space plays (or chooses a card to bury), the
    shortcuts bid, pass, confirm and deal, Tab reaches the other buttons: a whole hand with
    no mouse, pointer or touch event, ending with the next deal by N."""
    app = create_app()
    with running_server(app) as address:
        game = Game(browser, address, app.state.hub, profile, keyboard=True)
        assert game.play_hand(keyboard_move) >= 5
        game.check_sheet()
        focused = game.page.evaluate("document.activeElement.closest('[role=dialog]')?.id")
        assert focused == "sheet", "the score sheet takes the focus"
        steps = game.table.steps
        game.page.keyboard.press("Escape")  # the sheet closes; N deals
        assert game.page.is_hidden("#sheet")
        game.page.keyboard.press("n")
        game.wait_for_step(steps, time.monotonic() + 20)
        assert game.table.state.current_player is not None
        assert game.page.evaluate("window.pointerEvents") == 0
        game.page.close()
        assert game.errors == []


def _inside(game: Game) -> None:
    """Every control a player may use now lies inside the phone's screen, and the page does
    not scroll."""
    page = game.page
    page.wait_for_timeout(30)
    outside = [
        c for c in page.evaluate(CONTROLS)
        if c["left"] < 0 or c["top"] < 0 or c["right"] > PHONE["width"] + 0.5
        or c["bottom"] > PHONE["height"] + 0.5
    ]  # fmt: skip
    assert not outside, (str(game.table.state.phase), outside)
    height = page.evaluate("document.scrollingElement.scrollHeight")
    assert height <= PHONE["height"], height


def _bids_on_screen(game: Game) -> bool:
    """While the bidding is shown, its table lists each player's calls in order (the
    engine's), every one inside the phone's screen; returns whether it was shown."""
    view = binocle.observe(game.table.state, 0)
    calls = view.get("calls")
    page = game.page
    if not calls or not page.is_visible("#bidding"):
        return False
    for seat in range(len(view.hand_sizes)):
        want = ["pass" if amount == 0 else str(amount) for s, amount in calls if s == seat]
        cells = page.locator(f"#bidding tr[data-seat='{seat}'] td")
        assert [t for t in cells.all_inner_texts() if t] == want, (seat, want)
        for i in range(len(want)):
            box = cells.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0, (seat, i, box)
            assert box["x"] + box["width"] <= PHONE["width"] + 0.5, (seat, i, box)
    return True


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_a_whole_hand_on_a_phone_with_every_control_on_screen(browser: Any, profile: str) -> None:
    """At 390×844 (a phone), at every step of a hand, every enabled button, card and field
    is inside the screen without scrolling; the score sheet too.  Where there is bidding,
    its table shows every call, on screen (not names without bids)."""
    app = create_app()
    with running_server(app) as address:
        game = Game(browser, address, app.state.hub, profile, viewport=PHONE)
        bidding_shown = []

        def each(g: Game) -> None:
            _inside(g)
            bidding_shown.append(_bids_on_screen(g))

        assert game.play_hand(click_move, each) >= 5
        assert any(bidding_shown) == (profile in ("cutthroat", "partnership")), bidding_shown
        _inside(game)
        game.check_sheet()
        game.page.close()
        assert game.errors == []


def _to_play_as_bidder(game: Game, deadline: float) -> None:
    """Cutthroat: the person bids the ceiling (nobody can bid over it), buries three cards,
    names trump and melds, up to his first lead."""
    page = game.page
    while True:
        game.settle(deadline)
        if game.table.state.phase is Phase.PLAY:
            return
        steps = game.table.steps
        if page.query_selector("#bid"):
            page.fill("#bid-amount", "3000")
            page.dispatch_event("#bid-amount", "input")
            page.click("#bid")
        else:
            click_move(game)
        game.wait_for_step(steps, deadline)


def test_knocking_takes_two_steps_and_says_what_it_counts(browser: Any) -> None:
    """Classic rules, Claiming (knocking): a wrong knock loses the game.  The Knock button
    opens a dialog with the engine's count; "No" changes nothing; "Knock anyway" knocks."""
    app = create_app()
    with running_server(app) as address:
        game = Game(browser, address, app.state.hub, "classic", seed=8)
        page = game.page
        deadline = time.monotonic() + 60
        game.settle(deadline)
        table = game.table
        assert 0 in binocle.claimants(table.state)
        before = table.state
        page.click("#knock")
        page.wait_for_selector("#confirm:not(.hidden)")
        total = binocle.observe(before, 0).get("claim_totals")[0]
        text = page.inner_text("#confirm-text")
        assert text == (
            f"You have {total} of the 1000 points needed to win. A knock claims you have"
            " them: knocking now loses the game. Knock only once you count 1000."
        )
        assert page.evaluate("document.activeElement.id") == "confirm-no"
        assert table.state is before
        page.click("#confirm-no")
        assert page.is_hidden("#confirm") and table.state is before
        page.keyboard.press("k")  # the shortcut asks too
        page.wait_for_selector("#confirm:not(.hidden)")
        page.keyboard.press("Escape")
        assert page.is_hidden("#confirm") and table.state is before
        steps = table.steps
        page.click("#knock")
        page.click("#confirm-yes")
        game.wait_for_step(steps, deadline)
        assert binocle.is_over(table.state) and binocle.winner(table.state) == 1
        game_over_box(page)
        page.close()
        assert game.errors == []


def test_burying_is_chosen_then_confirmed_and_conceding_takes_two_steps(browser: Any) -> None:
    """Cutthroat rules, Widow, discards and trump, and Giving up: a click on a card chooses
    it to bury (again: puts it back), nothing is buried before the confirmation; the
    concession is away from the cards and asks first, saying what it costs."""
    app = create_app()
    with running_server(app) as address:
        game = Game(browser, address, app.state.hub, "cutthroat", seed=5)
        page = game.page
        table = game.table
        deadline = time.monotonic() + 90
        while True:
            game.settle(deadline)
            if table.state.phase is Phase.DISCARD:
                break
            steps = table.steps
            page.fill("#bid-amount", "3000")
            page.dispatch_event("#bid-amount", "input")
            page.click("#bid")
            game.wait_for_step(steps, deadline)
        assert len(page.query_selector_all("#hand .card.widow")) == 3
        assert "Bury 3 cards" in page.inner_text("#hint")
        before = table.state
        assert page.is_disabled("#bury")
        first = page.locator("#hand .card.legal").first
        first.click()
        assert page.locator("#hand .card.chosen").count() == 1 and table.state is before
        page.locator("#hand .card.chosen").first.click()  # put back
        assert page.locator("#hand .card.chosen").count() == 0
        for _ in range(3):
            page.locator("#hand .card.legal:not(.chosen)").first.click()
        assert table.state is before and page.is_enabled("#bury")
        page.click("#bury")
        while table.state.phase is Phase.DISCARD:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        _to_play_as_bidder(game, deadline)
        assert "concede" in [str(a) for a in binocle.legal_actions(table.state)]
        assert not page.query_selector("#actions [data-action=concede]"), "not under the cards"
        before = table.state
        page.click("#concede")
        page.wait_for_selector("#confirm:not(.hidden)")
        assert "you lose your bid, 3000" in page.inner_text("#confirm-text")
        page.click("#confirm-no")
        assert table.state is before
        steps = table.steps
        page.click("#concede")
        page.click("#confirm-yes")
        game.wait_for_step(steps, deadline)
        assert table.state.results[-1].outcome == "conceded"
        page.wait_for_selector("#sheet:not(.hidden)")
        assert "conceded" in page.inner_text("#sheet")
        page.close()
        assert game.errors == []


def _serious(page: Any) -> list[str]:
    axe = require("axe_playwright_python.sync_playwright").Axe()
    found = axe.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation_on_the_table_and_the_score_sheet(
    browser: Any, viewport: dict[str, int]
) -> None:
    """axe-core (axe-playwright-python) on a cutthroat table mid-hand and on the score
    sheet of a bidder who went set: no serious or critical violation."""
    app = create_app()
    with running_server(app) as address:
        game = Game(browser, address, app.state.hub, "cutthroat", seed=5, viewport=viewport)
        deadline = time.monotonic() + 120
        _to_play_as_bidder(game, deadline)
        page = game.page
        for _ in range(2):
            steps = game.table.steps
            click_move(game)
            game.wait_for_step(steps, deadline)
            game.settle(deadline)
        assert page.query_selector("#trick figure")
        assert _serious(page) == []
        game.play_hand(click_move)
        result = game.table.state.results[-1]
        assert result.bidder == 0 and result.made is False
        assert "double set" in page.inner_text("#sheet")
        assert _serious(page) == []
        page.close()
        assert game.errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation_in_the_lobby_and_the_waiting_room(
    browser: Any, viewport: dict[str, int]
) -> None:
    """axe-core on the lobby listing an open table (the seat buttons of another
    person's table) and on the waiting room of the table's host: no serious or
    critical violation."""
    app = create_app()
    with running_server(app) as address:
        host = browser.new_page(viewport=viewport)
        host.goto(f"http://{address}/")
        host.wait_for_selector("#profile option", state="attached")
        host.select_option("#profile", "classic")
        host.fill("#your-name", "Ann")
        host.click("#create-table")
        host.wait_for_selector("#room:not(.hidden)")
        assert _serious(host) == []
        guest = browser.new_page(viewport=viewport)
        guest.goto(f"http://{address}/")
        guest.wait_for_selector("#open-tables li button.sit")
        assert _serious(guest) == []
        host.close()
        guest.close()


def test_a_finished_trick_stays_on_the_table_a_moment(browser: Any) -> None:
    """The trick just taken stays shown with its winner while the next state waits (the
    page's hold), then the table moves on; the last trick stays reviewable."""
    app = create_app()
    with running_server(app) as address:
        game = Game(browser, address, app.state.hub, "three-handed", hold=800)
        page = game.page
        deadline = time.monotonic() + 120
        while True:
            game.settle(deadline)
            s = game.table.state
            if s.phase is Phase.PLAY and len(s.trick) == 2 and s.current_player == 0:
                break
            steps = game.table.steps
            click_move(game)
            game.wait_for_step(steps, deadline)
        steps = game.table.steps
        click_move(game)  # the last card of the trick
        page.wait_for_selector("#trick.finished", timeout=5000)
        assert "took the trick" in page.inner_text("#trick-note")
        assert "took the trick" in page.inner_text("#announcer")  # the live region says it
        assert len(page.query_selector_all("#trick.finished figure")) == 3
        # (a selector, not a script: the page's CSP allows no evaluated text)
        page.wait_for_selector(f"body[data-step='{game.table.steps}']", state="attached")
        page.keyboard.press("l")
        page.wait_for_selector("#last-trick:not(.hidden)")
        assert len(page.query_selector_all("#last-trick-cards figure")) == 3
        assert "took the trick" in page.inner_text("#last-trick-text")
        page.keyboard.press("Escape")
        assert page.is_hidden("#last-trick") and steps < game.table.steps
        page.close()
        assert game.errors == []


def test_the_options_form_sends_each_option_as_its_kind(browser: Any) -> None:
    """Every option is a labelled control with its help; ``max_hands`` typed in the form
    starts a game with that limit (the form once sent it as text, which was refused)."""
    app = create_app()
    with running_server(app) as address:
        page = browser.new_page(viewport=DESKTOP)
        page.goto(f"http://{address}/")
        page.wait_for_selector("#profile option", state="attached")
        for profile in binocle.profile_names():
            page.select_option("#profile", profile)
            for name in binocle.profile(profile).options():
                control = page.locator(f"#option-{name}")
                assert page.locator(f"label[for='option-{name}']").count() == 1
                help_id = control.get_attribute("aria-describedby")
                assert "Default:" in page.inner_text(f"#{help_id}")
        page.select_option("#profile", "classic")
        assert page.get_attribute("#option-max_hands", "type") == "number"
        assert page.get_attribute("#option-pack", "data-kind") == "int"
        page.fill("#option-max_hands", "1")
        page.select_option("#bot-delay", "0")
        page.click("#start")
        page.wait_for_selector("#game:not(.hidden)")
        assert page.inner_text("#message") == ""
        (table,) = app.state.hub.tables.values()
        assert table.state.profile.max_hands == 1
        page.close()
