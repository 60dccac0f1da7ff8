"""The narration of a game (``binocle demo``, ``binocle play``): every action told once,
in words, with one card style for the whole output."""

from __future__ import annotations

import re

import pytest

import binocle
from binocle.actions import Kind
from binocle.bots import BaselineBot, play_game
from binocle.narrate import action_text, cards_text, hand_by_suit, label, narrate, narrate_all, plural

LETTER_CARD = re.compile(r"\b[AKQJT987][SHDC]\b")


def _told(
    profile: str, seed: int, suits: str = "symbols"
) -> tuple[list[str], list[binocle.Action]]:
    """The narration of a whole game between baseline bots, and its actions."""
    lines: list[str] = []
    actions: list[binocle.Action] = []

    def show(before: binocle.GameState, action: binocle.Action, after: binocle.GameState) -> None:
        actions.append(action)
        lines.extend(narrate_all(before, action, after, suits))

    n = binocle.profile(profile).players
    play_game(profile, [BaselineBot(seed * 10 + i) for i in range(n)], seed=seed, on_step=show)
    return lines, actions


def _game_with(profile: str, kind: Kind) -> tuple[list[str], list[binocle.Action]]:
    """The narration of the first game (seeds 1 to 12) with an action of ``kind``."""
    for seed in range(1, 13):
        lines, actions = _told(profile, seed)
        if any(a.kind is kind for a in actions):
            return lines, actions
    pytest.fail(f"no {kind.value} in seeds 1 to 12")  # pragma: no cover


def test_plural() -> None:
    assert plural(1, "game") == "1 game"
    assert plural(2, "game") == "2 games"
    assert plural(0, "baseline bot") == "0 baseline bots"
    assert plural(2, "Nine", "Nines") == "2 Nines"


def test_a_classic_knock_is_told_once() -> None:
    """Classic rules, Knocking: a claim is one line, the knock and its verdict, never the
    bare action text beside it."""
    lines, actions = _game_with("classic", Kind.CLAIM)
    claims = sum(1 for a in actions if a.kind is Kind.CLAIM)
    assert sum("knocks, claiming the game" in line for line in lines) == claims
    assert not any(line.strip().endswith(": claim") for line in lines)


def test_a_concession_is_told_in_words() -> None:
    """Cutthroat rules, Giving up: the bidder's concession reads as words, not ``seat 0:
    concede``."""
    lines, _ = _game_with("cutthroat", Kind.CONCEDE)
    assert any("concedes: the bidder gives up the hand" in line for line in lines)
    assert not any(re.search(r"seat \d: concede", line) for line in lines)


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_no_bare_plural_or_notation_in_the_narration(profile: str) -> None:
    """No "Nine(s)", no unexplained ``KS + QS``: a classic announcement that uses cards
    already on the table says so (classic rules, Melding)."""
    for seed in (1, 2, 3):
        lines, _ = _told(profile, seed)
        text = "\n".join(lines)
        assert "(s)" not in text
        assert " + " not in text


def test_an_announcement_with_table_cards_says_so() -> None:
    """Classic rules, Melding: a combination that reuses cards already on the table
    (notation ``meld marriage KS + QS``) says which cards were there already."""
    seen = 0
    for seed in (1, 2, 3):

        def check(before: binocle.GameState, a: binocle.Action, after: binocle.GameState) -> None:
            nonlocal seen
            if a.kind is Kind.MELD and a.source:
                (line,) = (x for x in narrate_all(before, a, after) if " announces " in x)
                assert "already on the table" in line or "all on the table" in line, line
                seen += 1

        bots = [BaselineBot(seed * 10 + i) for i in range(2)]
        play_game("classic", bots, seed=seed, on_step=check)
    assert seen >= 1


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_one_card_style_per_output(profile: str) -> None:
    """``symbols``: every card as ``T♠`` (no ``TS`` anywhere); ``letters``: every card as
    ``TS`` and plain ASCII throughout."""
    symbols, _ = _told(profile, 2, "symbols")
    assert not any(LETTER_CARD.search(line) for line in symbols), [
        line for line in symbols if LETTER_CARD.search(line)
    ][:3]
    letters, _ = _told(profile, 2, "letters")
    assert all(line.isascii() for line in letters), [
        line for line in letters if not line.isascii()
    ][:3]
    assert any(LETTER_CARD.search(line) for line in letters)


def test_card_helpers_in_both_styles() -> None:
    cards = binocle.parse_cards("AS TH 9C")
    assert cards_text(cards, "symbols") == "A♠ T♥ 9♣"
    assert cards_text(cards, "letters") == "AS TH 9C"
    assert cards_text((), "letters") == "-"
    assert hand_by_suit(cards, "letters") == "S A  H T  D -  C 9"
    assert hand_by_suit(cards, "symbols") == "♠ A  ♥ T  ♦ –  ♣ 9"
    with pytest.raises(binocle.InvalidArgumentError):
        hand_by_suit(cards, "fancy")


def test_action_text_reads_back() -> None:
    """An action printed with suit symbols is still text that ``parse_action`` reads."""
    s = binocle.new_game("classic", seed=3)
    for action in binocle.legal_actions(s):
        shown = action_text(action, "symbols")
        assert binocle.parse_action(s, shown) == action
        assert action_text(action, "letters") == str(action)


def test_overlooked_melds_and_late_announcements_are_told() -> None:
    """Three-handed rules, Melds and Overlooked melds: an announcement in the play (before
    the player's first card) is told with its value; the first card that leaves meld
    unannounced tells who overlooked how much and who is asked first; each answer is told
    in words, never as bare action text."""
    p = "three-handed(claim_overlooked=true)"
    deck = binocle.stack_deck(
        p,
        [
            "KS QS JS AH 9H 9H KD QD JD JD AC AC KC QC JC 9C",
            "AH TH KH QH JH AS TS TS AD TD TC JS 9S 9D 9C JC",
            "KS KH KD KC QS QH QD QC AS 9S TH JH AD TD 9D TC",
        ],
        dealer=0,
        turn_up="AH",
    )
    s = binocle.new_game(p, deck=deck, dealer=0)
    lines: list[str] = []
    for text in (
        *("pass", "pass", "pass", "meld royal marriage KH QH", "pass"),
        *("meld four kings KS KH KD KC", "meld four queens QS QH QD QC", "pass", "meld"),
        *("meld sequence AH TH JH + KH QH", "play AS", "play 9S", "pass", "claim overlooked"),
    ):
        after = binocle.apply(s, text)
        lines.extend(narrate_all(s, binocle.parse_action(s, text), after))
        s = after
    told = "\n".join(lines)
    assert "seat 1 announces sequence" in told and "(150)" in told
    assert "seat 2 overlooked 80 points of meld: seat 0 may claim them first" in told
    assert "seat 0 lets go the 80 points of meld seat 2 overlooked" in told
    assert "seat 1 claims the 80 points of meld seat 2 overlooked" in told
    assert "claim overlooked" not in told and ": pass" not in told
