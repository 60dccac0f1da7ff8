"""Games that end, and say how they ended: the ``max_hands`` option every profile has, and
:func:`binocle.end_reason` ("target", "claim", "limit").

The sources play a game to its end; ``max_hands=N`` bounds it for programs that must
stop (simulations, uniform random play): at the end of hand N, a game the rules have
not ended is over, and the highest score wins, a tie as the profile breaks ties, else
nobody (the profile pages, "End of the game").
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Phase, UnknownProfileError
from binocle.bots import BaselineBot, RandomBot, play_game
from binocle.narrate import game_over_line
from binocle.profiles._common import top_scorer
from binocle.profiles.cutthroat import _limit_winner

PROFILES = ("classic", "three-handed", "cutthroat")


@pytest.mark.parametrize("name", PROFILES)
def test_every_profile_has_max_hands(name: str) -> None:
    """Every profile has the option ``max_hands``: none by default, a positive whole number
    otherwise, written in the profile's text only when set."""
    p = binocle.profile(name)
    assert p.max_hands is None and p.spec() == name and p.options()["max_hands"] is None
    q = binocle.profile(name, max_hands=3)
    assert q.max_hands == 3 and q.spec() == f"{name}(max_hands=3)"
    assert binocle.profile(q.spec()) == q
    assert binocle.profile(f"{name}(max_hands=none)").max_hands is None
    for bad in (0, -1, True, 2.5, "abc"):
        with pytest.raises(UnknownProfileError, match="max_hands"):
            binocle.profile(name, max_hands=bad)
    with pytest.raises(UnknownProfileError, match="max_hands"):
        binocle.profile(f"{name}(max_hands=abc)")


def _uniform_game(spec: str, seed: int, sudden: bool) -> binocle.GameState:
    """A uniformly random game: every legal action equally likely (claims and concessions
    too when ``sudden``), deals from the seed."""
    rng = random.Random(seed)
    s = binocle.new_game(spec, seed=seed)
    steps = 0
    while not binocle.is_over(s):
        legal = binocle.legal_actions(s)
        if s.current_player is None:
            s = binocle.apply(s, legal[0])
            continue
        calm = [a for a in legal if a.kind not in (binocle.Kind.CLAIM, binocle.Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(legal if sudden or not calm else calm))
        steps += 1
        assert steps < 20_000
    return s


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(PROFILES), st.integers(0, 10**6), st.integers(1, 4), st.booleans())
def test_uniform_random_play_through_max_hands_always_ends(
    name: str, seed: int, limit: int, sudden: bool
) -> None:
    """Uniform random play never ends a cutthroat game by the rules (an overbidder is set
    double); with ``max_hands=N`` every game ends by hand N, and says how."""
    s = _uniform_game(f"{name}(max_hands={limit})", seed, sudden)
    reason = binocle.end_reason(s)
    assert s.phase is Phase.OVER and len(s.results) <= limit
    assert reason in ("target", "claim", "limit")
    assert s.results[-1].game_end == reason
    assert all(r.game_end is None for r in s.results[:-1])
    if reason == "limit":
        assert len(s.results) == limit and s.hand_number == limit
        w = binocle.winner(s)
        top = max(s.scores)
        if w is not None:
            assert s.scores[w] == top
        elif name != "three-handed":
            assert s.scores.count(top) > 1  # a tie: nobody wins


def test_end_reason_while_the_game_goes_on_and_after() -> None:
    """``end_reason`` is None while the game goes on, between hands too; "claim" after a
    knock ended it, "target" after a player reached the target, "limit" after max_hands."""
    s = binocle.new_game("classic", seed=3)
    assert binocle.end_reason(s) is None
    assert binocle.end_reason(binocle.apply(s, "claim")) == "claim"
    end = play_game("cutthroat", seed=7)
    assert binocle.end_reason(end) == "target" and max(end.scores) >= 1500
    mid = play_game("cutthroat", seed=7, max_hands=1)
    assert binocle.end_reason(mid) == "limit" and len(mid.results) == 1
    with pytest.raises(binocle.InvalidArgumentError):
        binocle.end_reason("not a state")  # type: ignore[arg-type]


def test_the_rules_end_the_game_before_the_limit() -> None:
    """A game the rules end at hand N (the target reached) ends on "target", not on the
    limit; the limit only ends a game the rules have not ended."""
    full = play_game("cutthroat", seed=7)
    n = len(full.results)
    bounded = play_game(f"cutthroat(max_hands={n})", seed=7)
    assert binocle.end_reason(bounded) == "target" and bounded.scores == full.scores
    assert binocle.winner(bounded) == binocle.winner(full)
    shorter = play_game(f"cutthroat(max_hands={n - 1})", seed=7)
    assert binocle.end_reason(shorter) == "limit" and len(shorter.results) == n - 1


def test_play_game_bounds_the_game_with_the_profile_option() -> None:
    """``play_game(max_hands=N)`` plays under the option ``max_hands`` (the lower of the two
    when the profile has one): the game ends, and its record says so."""
    s = play_game("classic", [RandomBot(1), RandomBot(2)], seed=2, max_hands=2)
    assert s.profile.spec() == "classic(max_hands=2)" and binocle.is_over(s)
    assert binocle.end_reason(s) == "limit" and len(s.results) == 2
    assert binocle.record(s)["profile"] == "classic(max_hands=2)"
    assert binocle.replay(binocle.record(s)) == s
    kept = play_game("classic(max_hands=1)", [RandomBot(1), RandomBot(2)], seed=2, max_hands=5)
    assert kept.profile.max_hands == 1 and len(kept.results) == 1
    for bad in (0, -3, True, "2"):
        with pytest.raises(binocle.InvalidArgumentError, match="max_hands"):
            play_game("classic", seed=1, max_hands=bad)  # type: ignore[arg-type]


def test_limit_in_the_three_handed_two_handed_continuation() -> None:
    """Three-handed rules, Game: the two-handed game after a retirement counts its hands
    on from the three-handed ones, and the limit ends it between the two players left."""
    s = binocle.new_game("three-handed(max_hands=2)", seed=4)
    while s.phase is not Phase.PLAY:
        s = binocle.apply(s, "pass")
    s = binocle.apply(s, "claim 1")  # wrong: seat 1 retires
    bots = [BaselineBot(i) for i in range(3)]
    while not binocle.is_over(s):
        p = s.current_player
        legal = binocle.legal_actions(s)
        s = binocle.apply(s, legal[0] if p is None else bots[p].choose(binocle.observe(s, p)))
    assert len(s.results) <= 2 and s.hand_number <= 2
    if binocle.end_reason(s) == "limit":
        assert binocle.winner(s) in (0, 2, None) and len(s.results) == 2
    assert binocle.loads(binocle.dumps(s)) == s


def test_tie_rules_at_the_limit() -> None:
    """At the limit the highest score wins; tied top scores: cutthroat gives it to the last
    bidder among them (cutthroat rules, Winning), the others to nobody."""
    assert top_scorer((10, 30, 20)) == 1
    assert top_scorer((30, 30, 20)) is None
    assert top_scorer((30, 30, 20), [1, 2]) == 1
    assert _limit_winner((300, 300, 20), bidder=1) == 1
    assert _limit_winner((300, 300, 20), bidder=2) is None
    assert _limit_winner((300, 100, 20), bidder=2) == 0


def test_the_narration_says_the_game_stopped_on_the_limit() -> None:
    """The last line of a game says plainly that the hand limit ended it, and who won."""
    s = play_game("cutthroat", seed=7, max_hands=1)
    line = game_over_line(s)
    assert line.startswith("Game over: the hand limit is reached (max_hands=1)")
    w = binocle.winner(s)
    assert (
        (f"seat {w} wins with the highest score" in line)
        if w is not None
        else ("nobody wins" in line)
    )
