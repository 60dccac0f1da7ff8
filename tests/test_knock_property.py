"""Knocks at random moments of random hands, from every seat that may knock, against an
independent count of what each claim is worth (classic rules, Claiming (knocking);
three-handed rules, Claiming (knocking))."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Kind, Phase
from binocle.actions import claim
from helpers import last_trick_bonus

#: Card points of the classic and three-handed games (common rules, Card points).
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def won(cards: tuple[binocle.Card, ...]) -> int:
    return sum(POINTS.get(str(c)[0], 0) for c in cards)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([60, 120, 200]))
def test_classic_every_knock_is_judged_on_score_meld_and_cards(seed: int, target: int) -> None:
    """At every moment of a random classic hand, either player's knock wins exactly when
    his score, the dix and melds recorded this hand and the cards he has taken (the last
    trick's 10 too, after it: classic rules, Claiming (knocking)) reach the target;
    otherwise the other player wins.  The knock ends the game either way."""
    rng = random.Random(seed)
    s = binocle.new_game(f"classic(target={target})", seed=seed)
    while s.phase in (Phase.PLAY, Phase.ANNOUNCE):
        assert binocle.claimants(s) == (0, 1)
        for q in (0, 1):
            worth = s.scores[q] + s.meld_points[q] + won(s.piles[q]) + last_trick_bonus(s, q)
            over = binocle.apply(s, claim(q))
            assert binocle.end_reason(over) == "claim"
            assert binocle.winner(over) == (q if worth >= target else 1 - q)
        calm = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM]
        s = binocle.apply(s, rng.choice(calm))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([30, 100, 1000]))
def test_three_handed_every_knock_is_judged_or_retires(seed: int, target: int) -> None:
    """At every moment of the play of a random three-handed hand, a knock by any player
    still in the hand wins when his score, what he has scored this hand and the cards he
    has taken reach the target; otherwise he retires (his cards dead, the hand going on
    without him) and the state keeps every card accounted for."""
    rng = random.Random(seed)
    s = binocle.new_game(f"three-handed(target={target})", seed=seed)
    while s.phase is not Phase.PLAY:
        s = binocle.apply(s, "pass")
    while s.phase is Phase.PLAY and s.sub is None:
        for q in binocle.claimants(s):
            worth = s.scores[q] + s.recorded[q] + won(s.piles[q])
            after = binocle.apply(s, claim(q))
            if worth >= target:
                assert binocle.winner(after) == q and binocle.end_reason(after) == "claim"
            else:
                # He never wins; the hand may end at once (his retirement completing the
                # last trick), another player then winning on the merits.
                assert binocle.winner(after) != q
                assert binocle.end_reason(after) in (None, "target")
                if after.phase is Phase.PLAY:
                    assert after.retired == q and after.hands[q] == ()
                    assert q not in binocle.claimants(after)
                    after.profile.check(after)
        legal = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM]
        s = binocle.apply(s, rng.choice(legal))
