"""``str(state)`` and ``str(view)``: a readable table a person can look at in a REPL;
``repr`` stays the full, field-by-field form."""

from __future__ import annotations

import random
import re

import pytest

import binocle
from binocle.actions import Kind
from binocle.bots import play_game
from binocle.display import hand_by_suit, state_text, view_text

PROFILES = binocle.profile_names()


def _walk(profile: str, seed: int, steps: int) -> binocle.GameState:
    """A state reached by ``steps`` random legal actions (deals included), never a claim
    or a concession while something else is legal, so the hand goes on."""
    rng = random.Random(seed)
    s = binocle.new_game(profile, seed=seed)
    for _ in range(steps):
        if binocle.is_over(s):
            break
        legal = binocle.legal_actions(s)
        calm = [a for a in legal if a.kind not in (Kind.CLAIM, Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(calm or legal))
    return s


@pytest.mark.parametrize("profile", PROFILES)
def test_str_of_a_state_shows_the_table(profile: str) -> None:
    """Seats with their hands and scores, the trick, trump, the phase and who acts."""
    s = _walk(profile, 5, 25)
    text = str(s)
    assert text == state_text(s)
    first = text.splitlines()[0]
    assert first.startswith(s.profile.spec() + " · hand ")
    assert f"{s.phase.value} phase" in first
    if s.current_player is not None:
        assert f"seat {s.current_player} to act" in first
        assert re.search(rf"^seat {s.current_player} \([^)]*to act", text, re.M)
    if s.trump is not None:
        assert f"trump {s.trump.symbol}" in first
    for seat, hand in enumerate(s.hands):
        assert re.search(rf"^seat {seat}\b.*score {s.scores[seat]}\b", text, re.M)
        assert f"  hand: {hand_by_suit(hand)}" in text
    if s.trick:
        assert "trick: " + ", ".join(f"seat {p} {c.symbol}" for p, c in s.trick) in text
    assert len(text) < 2000  # a table to read, not a dump


@pytest.mark.parametrize("profile", PROFILES)
def test_str_of_a_view_hides_the_other_hands(profile: str) -> None:
    """A view shows its own hand and only the number of cards the others hold."""
    s = _walk(profile, 6, 20)
    for seat in range(s.profile.players):
        view = binocle.observe(s, seat)
        text = str(view)
        assert text == view_text(view)
        assert f"  hand: {hand_by_suit(view.hand)}" in text or not view.hand
        for other, n in enumerate(view.hand_sizes):
            if other != seat and n:
                assert re.search(rf"^seat {other}\b", text, re.M)
                assert f"  hand: {n} cards" in text
                assert hand_by_suit(s.hands[other]) not in text
        assert re.search(rf"^seat {seat} \(you", text, re.M)


def test_the_cutthroat_widow_is_face_down_in_the_state_and_absent_from_views() -> None:
    """Cutthroat rules, The widow: face down until the bidding ends; the state shows it as
    such, a player's view does not show it at all."""
    s = binocle.new_game("cutthroat", seed=3)
    widow = s.auction.widow  # type: ignore[attr-defined]
    shown = " ".join(c.symbol for c in widow)
    assert f"widow {shown} (face down)" in str(s)
    assert "widow" not in str(binocle.observe(s, 0))


def test_the_classic_stock_and_turn_up() -> None:
    """Classic rules, The deal: the state shows the stock's cards, a view its size."""
    s = binocle.new_game("classic", seed=3)
    view = binocle.observe(s, 0)
    assert f"turn-up {view.get('turn_up').symbol}" in str(s)
    assert f"stock {view.get('stock_size')} cards" in str(view)


def test_legal_actions_are_listed_briefly() -> None:
    """The acting seat's legal actions close the table; a long list is cut short."""
    s = binocle.new_game("cutthroat", seed=3)
    last = str(s).splitlines()[-1]
    assert last.startswith("legal: pass, bid 250, bid 260")
    assert last.endswith(f"({len(binocle.legal_actions(s))} in all)")


def test_letters_style_is_plain_ascii() -> None:
    s = _walk("classic", 2, 30)
    text = state_text(s, "letters")
    assert text.isascii()
    assert hand_by_suit(s.hands[0], "letters") in text
    with pytest.raises(binocle.InvalidArgumentError):
        state_text(s, "fancy")


def test_a_finished_game_says_who_won() -> None:
    final = play_game("classic", seed=3)
    first = str(final).splitlines()[0]
    assert f"game over: seat {binocle.winner(final)} wins" in first
    assert "game over" in str(binocle.observe(final, 1)).splitlines()[0]


def test_repr_stays_the_full_form() -> None:
    """``repr`` keeps every field (to debug), ``str`` is the readable form."""
    s = binocle.new_game("three-handed", seed=1)
    assert repr(s).startswith("ThreeHandedState(") and "hands=" in repr(s)
    assert repr(binocle.observe(s, 0)).startswith("View(")
    assert str(s) != repr(s)


@pytest.mark.parametrize("profile", PROFILES)
def test_every_reachable_state_has_a_text_form(profile: str) -> None:
    """No state of a random game (every phase, between hands, the end) fails to print."""
    rng = random.Random(11)
    s = binocle.new_game(f"{profile}(max_hands=2)", seed=11)
    while True:
        assert str(s)
        for seat in range(s.profile.players):
            assert str(binocle.observe(s, seat))
        if binocle.is_over(s):
            break
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
