"""Pictures rendered by a browser (headless Chromium, Debian's ``chromium``, through
Playwright): every card of a table's picture is drawn inside the picture, its text
(ranks, suits, names) laid out by the browser's own fonts, and the picture saved as PNG;
a scored hand's sheet has every text inside the picture and no two texts overlapping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import binocle
from binocle.bots import BaselineBot, play_game
from binocle.svg import hand_result_svg, table_svg
from web_support import chromium, require, require_chromium

sync_api = require("playwright.sync_api")
require_chromium()

SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"

MEASURE = """
() => {
  const svg = document.querySelector("svg");
  const box = svg.getBoundingClientRect();
  const cards = [...svg.querySelectorAll("g.card")].map(g => {
    const r = g.getBoundingClientRect();
    return {card: g.dataset.card, left: r.left - box.left, top: r.top - box.top,
            right: r.right - box.left, bottom: r.bottom - box.top};
  });
  const texts = [...svg.querySelectorAll("text")].map(t => t.getComputedTextLength());
  return {width: box.width, height: box.height, cards, texts};
}
"""


def _mid_hand(profile: str) -> binocle.GameState:
    s = binocle.new_game(profile, seed=3)
    bot = BaselineBot()
    while not (s.phase.value == "play" and len(s.trick) == 1):
        seat = s.current_player
        s = binocle.apply(
            s,
            bot.choose(binocle.observe(s, seat))
            if seat is not None
            else binocle.legal_actions(s)[0],
        )
    return s


def test_every_card_is_drawn_inside_the_picture(tmp_path: Path) -> None:
    """Each profile's table, seen by the seat to act: every card's drawn box lies inside
    the picture's, no text is empty, and the PNG is written (build/screenshots)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as browser:
        page: Any = browser.new_page(viewport={"width": 1000, "height": 900})
        for profile in binocle.profile_names():
            s = _mid_hand(profile)
            view = binocle.observe(s, s.current_player or 0)
            svg = table_svg(view)
            page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
            seen = page.evaluate(MEASURE)
            drawn = [box["card"] for box in seen["cards"]]
            others = sum(n for i, n in enumerate(view.hand_sizes) if i != view.seat)
            assert drawn.count("back") == others
            for c in [*view.hand, *(c for _, c in view.trick)]:
                assert str(c) in drawn
            for box in seen["cards"]:
                assert box["left"] >= 0 and box["top"] >= 0
                assert box["right"] <= seen["width"] + 0.5 and box["bottom"] <= seen["height"] + 0.5
            assert seen["texts"] and min(seen["texts"]) > 0
            page.locator("svg").screenshot(path=str(SHOTS / f"svg-table-{profile}.png"))
            assert (SHOTS / f"svg-table-{profile}.png").stat().st_size > 5_000


TEXT_BOXES = """
() => {
  const svg = document.querySelector("svg");
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll("text")].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left - box.left, top: r.top - box.top,
            right: r.right - box.left, bottom: r.bottom - box.top};
  });
  return {width: box.width, height: box.height, texts};
}
"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


def test_a_scored_hand_is_laid_out_inside_its_picture() -> None:
    """Each profile's scored hand (a game of the baseline bots, its second hand), as the
    browser lays out its text: every text inside the picture, none empty, no two
    overlapping (the columns are wide enough for their figures); the PNG is written."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium(sync_api) as browser:
        page: Any = browser.new_page(viewport={"width": 1000, "height": 600})
        for profile in binocle.profile_names():
            s = play_game(profile, seed=3, max_hands=2)
            svg = hand_result_svg(s, names=[f"Player {i}" for i in range(s.profile.players)])
            page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
            seen = page.evaluate(TEXT_BOXES)
            boxes = seen["texts"]
            assert len(boxes) > 3 * len(s.profile.sides)
            for i, box in enumerate(boxes):
                assert box["right"] > box["left"], box
                assert box["left"] >= 0 and box["top"] >= 0, box
                assert box["right"] <= seen["width"] + 0.5, box
                assert box["bottom"] <= seen["height"] + 0.5, box
                for other in boxes[i + 1 :]:
                    assert not _overlap(box, other), (profile, box, other)
            page.locator("svg").screenshot(path=str(SHOTS / f"svg-score-{profile}.png"))
            assert (SHOTS / f"svg-score-{profile}.png").stat().st_size > 2_000
