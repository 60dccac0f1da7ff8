"""The knock after the last trick (classic rules and three-handed rules, Claiming (knocking)).

The winner of the last trick counts its ten points at once, and "when either player
knows" he has reached his target "he stops the play by knocking".  So the moment after
the last trick is taken and before the hand is counted is a moment to knock: each
player whose claim would be correct is asked in turn from the winner of the last trick
(``claim`` or ``pass``), any player still in the hand may knock out of turn, the first
knock wins, and if nobody knocks the hand is counted on its merits as before.  Before,
the hand was counted the moment the last card fell and nobody could knock with it.
"""

from __future__ import annotations

import random

import pytest

import binocle
from binocle import Kind, Phase
from binocle.testing import check_state
from helpers import run, texts, two_handed_continuation

# Three-handed, trump spades, dealer 0 (the turn-up AS).  Played by the weakest legal
# card, every seat having shown dix and declared its meld, the hand ends at (188, 392, 0):
# seat 1 wins the last trick (AS AC and seat 0's KS, 26 points, and the trick's 10),
# rising from 356 to 392 with it.
SPADES = [
    "AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD QD",
    "AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD QD",
    "AC AC TC TC KC KC QC QC JC JC 9C 9C 9D 9D JD JD",
]


def spades_to_the_last_card(target: int) -> binocle.GameState:
    """The SPADES hand of the three-handed game to ``target``, one card before its end."""
    deck = binocle.stack_deck("three-handed", SPADES, dealer=0, turn_up="AS")
    s = binocle.new_game(f"three-handed(target={target})", deck=deck, dealer=0)
    s = run(s, "dix", "pass", "dix", "meld", "meld", "meld")
    while sum(len(h) for h in s.hands) > 1:
        s = binocle.apply(s, [a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY][-1])
        check_state(s)
    assert binocle.observe(s, 0).get("claim_totals") == (188, 356, 0)
    return s


def test_three_handed_the_winner_of_the_last_trick_may_knock_with_it() -> None:
    """Three-handed rules, Claiming (knocking): seat 1 reaches 392 only with the last trick.
    He is asked at once (``pass`` or ``claim``) and his knock wins the game by claim; before,
    the hand was counted at once (he still won, on its merits, but could not knock)."""
    s = binocle.apply(spades_to_the_last_card(392), "play KS")
    check_state(s)
    assert s.phase is Phase.PLAY and s.trick == () and not any(s.hands)
    assert s.current_player == 1 and texts(s) == ["pass", "claim"]
    assert binocle.claimants(s) == (0, 1, 2)
    assert binocle.observe(s, 2).get("claim_totals") == (188, 392, 0)
    won = binocle.apply(s, "claim")
    assert binocle.winner(won) == 1 and binocle.end_reason(won) == "claim"
    assert won.results[-1].outcome == "claimed" and won.scores == (188, 392, 0)
    # Declined: the others have not reached theirs, so the hand is counted on its merits.
    counted = binocle.apply(s, "pass")
    assert binocle.winner(counted) == 1 and binocle.end_reason(counted) == "target"
    assert counted.results[-1].outcome == "played"
    # A wrong knock out of turn in that moment retires the knocker, as at any other.
    wrong = binocle.apply(s, "claim 0")
    assert wrong.results[-1].outcome == "retired" and binocle.winner(wrong) == 1
    with pytest.raises(binocle.IllegalActionError, match="may knock \\(claim\\) or pass"):
        binocle.apply(s, "meld")
    assert binocle.loads(binocle.dumps(s)) == s and binocle.replay(binocle.record(s)) == s


def test_three_handed_first_knock_after_the_last_trick_wins() -> None:
    """Three-handed rules, Claiming (knocking) and Game: with the target at 188 both seat 1
    and seat 0 have reached it after the last trick.  They are asked in turn from the
    winner of the last trick (seat 2, short of it, is not); the first knock wins, the
    dealer's after seat 1 declined.  Nobody knocking, both must go on to 438 (before, the
    only outcome)."""
    s = binocle.apply(spades_to_the_last_card(188), "play KS")
    assert s.current_player == 1 and texts(s) == ["pass", "claim"]
    s = binocle.apply(s, "pass")
    assert s.current_player == 0 and texts(s) == ["pass", "claim"]
    won = binocle.apply(s, "claim")
    assert binocle.winner(won) == 0 and binocle.end_reason(won) == "claim"
    on = binocle.apply(s, "pass")
    assert on.phase is Phase.DEAL and binocle.winner(on) is None
    assert on.targets == (438, 438, 188) and on.scores == (188, 392, 0)
    # Seat 0 may knock first, out of turn, while seat 1 is asked.
    first = binocle.apply(binocle.apply(spades_to_the_last_card(188), "play KS"), "claim 0")
    assert binocle.winner(first) == 0


def test_three_handed_with_nobody_at_the_target_the_hand_is_counted_at_once() -> None:
    """Three-handed rules, Claiming (knocking): nobody is asked who could only knock wrongly:
    with nobody at his target the hand is counted the moment the last card falls."""
    s = binocle.apply(spades_to_the_last_card(1000), "play KS")
    assert s.phase is Phase.DEAL and s.results[-1].delta == (188, 392, 0)


def _classic_last_trick(target: int, seed: int = 3) -> binocle.GameState:
    """Hand 1 of a classic game to ``target`` from ``seed``, each player taking the first
    legal action that is not a knock, to its last card."""
    s = binocle.new_game(f"classic(target={target})", seed=seed)
    while any(s.hands):
        s = binocle.apply(s, next(a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM))
        check_state(s)
    return s


def test_classic_the_winner_of_the_last_trick_may_knock_with_it() -> None:
    """Classic rules, Claiming (knocking): "The winner of the last trick counts ten points
    for it at once"; a target he reaches only with them is claimed by a knock after the last
    trick, before the hand is counted.  With a target both reach, the first knock wins: the
    winner of the last trick is asked first, then the other.  Before, the hand was counted
    the moment the last card fell."""
    ended = _classic_last_trick(10**6)
    assert ended.phase is Phase.DEAL
    delta = ended.results[-1].delta
    before = _classic_last_trick(delta[0] + delta[1] + 10**5)  # nobody reaches: no window
    assert before.phase is Phase.DEAL
    # Who took the last trick: the one whose total is 10 more than his tricks' cards.
    s = _classic_last_trick(max(delta))
    w = s.current_player
    assert w is not None and delta[w] == max(delta) > delta[1 - w]
    assert s.phase is Phase.PLAY and texts(s) == ["pass", "claim"]
    assert s.last_trick and binocle.claimants(s) == (0, 1)
    assert binocle.observe(s, w).get("claim_totals") == delta
    won = binocle.apply(s, "claim")
    assert binocle.winner(won) == w and binocle.end_reason(won) == "claim"
    assert binocle.winner(binocle.apply(s, "pass")) == w  # on its merits
    assert binocle.end_reason(binocle.apply(s, "pass")) == "target"
    wrong = binocle.apply(s, f"claim {1 - w}")  # the other knocks first, wrongly: he loses
    assert binocle.winner(wrong) == w and binocle.end_reason(wrong) == "claim"
    both = _classic_last_trick(min(delta))
    assert both.current_player == w
    both = binocle.apply(both, "pass")
    assert both.current_player == 1 - w and texts(both) == ["pass", "claim"]
    assert binocle.winner(binocle.apply(both, "claim")) == 1 - w
    on = binocle.apply(both, "pass")
    assert on.phase is Phase.DEAL and on.targets == (min(delta) + 250, min(delta) + 250)
    with pytest.raises(binocle.IllegalActionError, match="may knock \\(claim\\) or pass"):
        binocle.apply(both, "play AS")


def _in_the_knock_window(s: binocle.GameState) -> bool:
    return s.phase is Phase.PLAY and not any(s.hands) and not s.trick


@pytest.mark.parametrize(
    "spec", ["classic(target=150)", "three-handed(target=150)", "three-handed(target=400)"]
)
def test_random_playouts_ask_exactly_those_who_reached(spec: str) -> None:
    """Classic and three-handed rules, Claiming (knocking), checked at every step of random
    games (the two-handed game after a retirement too): after the last trick only ``pass``
    and ``claim`` are legal, and the player asked has reached his target; a hand is never
    counted while a player still in it who reached his target was not asked."""
    windows = counted = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = binocle.new_game(spec, seed=seed)
        while not binocle.is_over(s) and len(s.results) < 6:
            legal = binocle.legal_actions(s)
            if _in_the_knock_window(s):
                windows += 1
                p = s.current_player
                assert p is not None and [str(a) for a in legal] == ["pass", "claim"]
                assert binocle.observe(s, p).get("claim_totals")[p] >= _target(s, p)
            calm = [a for a in legal if a.kind is not Kind.CLAIM] or list(legal)
            a = rng.choice(calm)
            t = binocle.apply(s, a)
            if len(t.results) > len(s.results) and t.results[-1].outcome == "played":
                counted += 1
                if _in_the_knock_window(s):
                    asked = _asked(s)
                    totals = binocle.observe(s, 0).get("claim_totals")
                    for i in binocle.claimants(s):
                        if totals[i] >= _target(s, i):
                            assert i in asked
                else:
                    totals = binocle.observe(s, 0).get("claim_totals")
                    assert a.kind is Kind.PLAY
            s = t
    assert windows > 0 and counted > 0


def _target(s: binocle.GameState, seat: int) -> int:
    targets = binocle.observe(s, seat).get("targets")
    return int(targets[seat])


def _asked(s: binocle.GameState) -> set[int]:
    """The seats that declined since the last trick, and the one asked now."""
    seats = {s.current_player}
    for action, seat in reversed(s.moves()):
        if action.kind is not Kind.PASS:
            break
        seats.add(seat)
    return {i for i in seats if i is not None}


def test_the_two_handed_game_after_a_retirement_has_the_knock_too() -> None:
    """Three-handed rules, The two-handed game after a retirement: the two players left
    play the classic game, and its last trick may be knocked on as in the classic game,
    the seats named as at the three-handed table."""
    s = two_handed_continuation(4, "claim 1")
    pair = s.pair
    assert pair == (0, 2)
    seen = False
    rng = random.Random(0)
    while not binocle.is_over(s) and not seen:
        if _in_the_knock_window(s) and s.sub is not None:
            seen = True
            assert texts(s) == ["pass", "claim"] and s.current_player in pair
            assert binocle.claimants(s) == pair
            won = binocle.apply(s, "claim")
            assert binocle.winner(won) == s.current_player
            break
        legal = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM]
        s = binocle.apply(s, rng.choice(legal))
    assert seen
