"""The consistency checker runs for every profile (DESIGN.md "Quality bar")."""

from __future__ import annotations

import pytest

import binocle
from binocle.testing import check_consistency


@pytest.mark.parametrize(
    "name",
    [
        "cutthroat",
        "cutthroat(easier_tricks=true,bunched_hands=true,single_set=true)",
        "classic",
        "classic(pack=64,grand_binocle=true)",
        "three-handed",
        "three-handed(lowest_pays=true,claim_overlooked=true)",
        "partnership(passing=3)",
        "partnership(passing=4,all_pass=dealer,double_set=true,easier_tricks=true,min_bid=200)",
    ],
)
def test_random_playouts_keep_every_invariant(name: str) -> None:
    """RULES.md §5: random games keep every invariant at every step."""
    report = check_consistency(name, games=4, seed=11, max_hands=3, claim_rate=0.02)
    assert report.actions > 100
    assert report.illegal_tried > 100
    assert report.hands >= 4


def test_three_handed_retirement_switches_to_the_two_handed_game() -> None:
    """RULES.md §3 "Game": a wrong claim retires the claimant; the two others finish the
    hand alone and, with no winner in that deal, go on with the classic game."""
    from binocle.testing import check_state

    s = binocle.new_game("three-handed", seed=4)
    while s.phase is not binocle.Phase.PLAY:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    claimant = s.current_player
    assert claimant is not None
    s = binocle.apply(s, "claim")  # nobody has 1000 in the first hand: wrong
    assert s.retired == claimant and s.hands[claimant] == ()
    assert s.current_player != claimant
    while s.sub is None and not binocle.is_over(s):
        plays = [a for a in binocle.legal_actions(s) if a.kind is not binocle.Kind.CLAIM]
        s = binocle.apply(s, plays[0])
        check_state(s)
    assert s.results[-1].outcome == "retired"
    assert s.results[-1].delta[claimant] == 0
    assert s.sub is not None and s.pair == tuple(i for i in range(3) if i != claimant)
    assert s.current_player is None and s.phase is binocle.Phase.DEAL
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    assert [len(h) for h in s.hands].count(12) == 2 and s.hands[claimant] == ()
    assert binocle.loads(binocle.dumps(s)) == s
    check_state(s)


def test_options_from_text() -> None:
    """RULES.md §4 Options: profiles are found by alias and read from text."""
    p = binocle.profile("auction(min_bid=300,single_set=true)")
    assert (p.name, p.min_bid, p.single_set) == ("cutthroat", 300, True)
