"""What a profile states of its own rules, for the rest of binocle to read instead of
its name: the seats of a side (:meth:`Profile.side_of`), what a wrong claim does, whether
melds are shown, the game after a retirement, the stock, the episode bounds."""

from __future__ import annotations

import random

import pytest

import binocle
from binocle import GameState, InvalidArgumentError, Kind, Phase
from binocle.actions import claim
from binocle.core import Profile
from binocle.encoding import max_decisions_per_hand, utility_bounds
from binocle.profiles.classic import Classic


def first_claim(name: str, seed: int = 3) -> GameState:
    """A game of ``name`` played at random to the first moment somebody may knock."""
    s = binocle.new_game(name, seed=seed)
    rng = random.Random(seed)
    while not binocle.claimants(s):
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
    return s


def public_keys_of_a_hand(name: str, seed: int = 3) -> set[str]:
    """Every public fact seat 0's view names in one hand of ``name`` played at random."""
    s = binocle.new_game(name, seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    while not s.results and s.phase is not Phase.OVER:
        seen |= set(dict(binocle.observe(s, 0).public))
        legal = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CONCEDE]
        s = binocle.apply(s, rng.choice(legal))
    return seen


@pytest.mark.parametrize("name", binocle.profile_names())
def test_side_of_is_the_side_in_sides_that_holds_the_seat(name: str) -> None:
    """Each seat's side is the one of ``sides`` it sits in, itself among it; the sides
    cover every seat once."""
    p = binocle.profile(name)
    for seat in range(p.players):
        side = p.side_of(seat)
        assert seat in side and side in p.sides
        assert all(p.side_of(mate) == side for mate in side)
    assert sorted(s for side in p.sides for s in side) == list(range(p.players))


def test_side_of_pairs_partners_opposite_in_the_partnership_game() -> None:
    """§4b Players and pack: partners sit opposite, 0 and 2 against 1 and 3; elsewhere
    each seat plays alone."""
    p = binocle.profile("partnership")
    assert [p.side_of(s) for s in range(4)] == [(0, 2), (1, 3), (0, 2), (1, 3)]
    assert binocle.profile("cutthroat").side_of(2) == (2,)
    assert binocle.profile("classic").side_of(1) == (1,)


@pytest.mark.parametrize("name", binocle.profile_names())
def test_side_of_refuses_a_seat_not_at_the_table(name: str) -> None:
    """A seat below 0, past the last, or a bool is not a seat: InvalidArgumentError."""
    p = binocle.profile(name)
    for bad in (-1, p.players, p.players + 7, True):
        with pytest.raises(InvalidArgumentError, match="seat is a whole number"):
            p.side_of(bad)


def test_a_wrong_claim_loses_the_classic_game_and_retires_a_three_handed_player() -> None:
    """§2 Claiming: wrong, he loses the game at once; §3 Game: a wrong claim, the
    claimant retires and the two others play on."""
    assert binocle.profile("classic").wrong_claim_loses
    s = first_claim("classic")
    seat = next(
        i for i in binocle.claimants(s) if binocle.observe(s, i).get("claim_totals")[i] < 1000
    )
    after = binocle.apply(s, claim(seat))
    assert binocle.is_over(after) and binocle.winner(after) == 1 - seat
    assert not binocle.profile("three-handed").wrong_claim_loses
    s = first_claim("three-handed")
    after = binocle.apply(s, claim(binocle.claimants(s)[0]))
    assert not binocle.is_over(after)
    assert binocle.observe(after, 0).get("retired") == binocle.claimants(s)[0]
    assert not binocle.profile("cutthroat").wrong_claim_loses


@pytest.mark.parametrize("name", binocle.profile_names())
def test_melds_shown_is_whether_the_view_lists_each_seats_meld(name: str) -> None:
    """Cutthroat, partnership and three-handed lay each meld on the table (the view's
    ``melds``); classic announces melds one by one (its ``tables``).  A meld shown is
    decided by the cards hidden from the viewer: it is a hidden fact."""
    p = binocle.profile(name)
    assert p.melds_shown == ("melds" in public_keys_of_a_hand(name))
    assert p.melds_shown == ("melds" in p.hidden_facts)
    assert p.melds_shown == (name != "classic")


def test_the_game_after_a_retirement_is_three_handeds_classic_game() -> None:
    """§3 Game: the two remaining players go on with §2's classic game (same target and
    grand_binocle); no other profile has a retirement."""
    p = binocle.profile("three-handed", target=1250, grand_binocle=True)
    assert p.retirement_game == Classic(target=1250, grand_binocle=True)
    for name in ("classic", "cutthroat", "partnership"):
        assert binocle.profile(name).retirement_game is None
    assert binocle.profile("three-handed").turn_up_stays
    assert not binocle.profile("classic").turn_up_stays


def test_the_stock_game_is_the_classic_state_or_none() -> None:
    """The classic game draws from its stock; three-handed has none before a retirement;
    cutthroat and partnership none."""
    s = binocle.new_game("classic", seed=1)
    assert s.profile.stock_game(s) is s
    for name in ("three-handed", "cutthroat", "partnership"):
        s = binocle.new_game(name, seed=1)
        assert s.profile.stock_game(s) is None


@pytest.mark.parametrize("name", binocle.profile_names())
def test_the_encodings_bounds_are_the_profiles(name: str) -> None:
    """binocle.encoding's bounds read the profile's: the same figures."""
    p = binocle.profile(name)
    assert max_decisions_per_hand(name) == p.max_decisions_per_hand() > 0
    low, high, pair = p.hand_bounds()
    assert low <= 0 < high <= pair
    assert utility_bounds(name) == (low, high)


def test_a_profile_without_bounds_says_so() -> None:
    """The base profile gives no episode bounds: InvalidArgumentError, not a crash."""
    with pytest.raises(InvalidArgumentError, match="no episode bounds"):
        Profile().hand_bounds()
    with pytest.raises(InvalidArgumentError, match="no episode bounds"):
        Profile().max_decisions_per_hand()


@pytest.mark.parametrize("name", binocle.profile_names())
def test_the_profile_hooks_refuse_what_is_not_theirs(name: str) -> None:
    """A profile's stock_game takes a state of its own game only, and
    highest_before_last_hand a whole number from 0: anything else is refused with
    InvalidArgumentError (the compiled build included), never a wrong answer."""
    p = binocle.profile(name)
    other = "classic" if name != "classic" else "cutthroat"
    for junk in (3, None, "state", binocle.new_game(other, seed=1)):
        with pytest.raises(InvalidArgumentError, match="not a state of the"):
            p.stock_game(junk)
    own = binocle.new_game(name, seed=1)
    assert p.stock_game(own) in (None, own)
    for junk in (-1, True, 2.0, "10", None):
        with pytest.raises(InvalidArgumentError, match="gained is a whole number"):
            p.highest_before_last_hand(junk)
    assert p.highest_before_last_hand(0) >= 0
