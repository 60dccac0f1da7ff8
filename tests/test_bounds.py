"""The bounds on a seat's return (binocle.encoding.utility_bounds, reward_bounds).

Every bound the docs call exact is reached here by a legal game built from a
dealt deck and chosen actions, driven through an :class:`~binocle.encoding.Episode`
(each card a chance outcome, each decision an action id), so the figure asserted
is the episode's own return.  Random playouts check that no return, and no
hand's score change, ever leaves the bounds.
"""

from __future__ import annotations

import importlib.util
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Action, GameState, InvalidArgumentError, Phase
from binocle import encoding as E
from binocle.encoding._bounds import hand_bounds
from helpers import load_tool

TOOLS = Path(__file__).resolve().parent.parent / "tools"

Policy = Callable[[GameState, int], str | Action]


def _episode(
    profile: str, decks: list[tuple[binocle.Card, ...]], policy: Policy, *, hands: int, dealer: int
) -> E.Episode:
    """The episode dealt from ``decks`` (one a hand, in deck order), each decision
    taken by ``policy(state, seat)`` (an action or its text)."""
    ep = E.Episode.new(profile, hands=hands, dealer=dealer)
    kinds = E.kinds(ep.profile.pack_size)
    cards: Iterator[binocle.Card] = iter(())
    dealt = 0
    while not ep.is_terminal():
        if ep.is_chance():
            if ep.state.phase is Phase.DEAL and not ep.deck:
                cards = iter(decks[dealt])
                dealt += 1
            ep = ep.apply(kinds.index(next(cards)))
        else:
            seat = ep.current_player
            assert seat is not None
            ep = ep.apply(E.action_id(ep.state, policy(ep.state, seat)))
    return ep


# -- cutthroat: the highest meld with every trick, and a bidder set at max_bid -------------


def _texts(cards: str) -> list[str]:
    return cards.split()


#: The highest meld of 15 cards, spades trump: a double run (1500), Q♠ Q♠ J♦ J♦ (double
#: pinochle, 300) and A♠ A♥ A♦ A♣ (Aces around, 100): 1900 (cutthroat rules, Melds).
BEST = "AS AS TS TS KS KS QS QS JS JS AH AD AC JD JD"
#: The bidder's lead, trick by trick: ten trumps (the others' Nines of spades fall
#: at once and they throw their diamonds), the three Aces, then the two Jacks of
#: diamonds, which nobody can follow or trump any more.
LEADS = _texts(BEST)


def _best_deck(bidder: int, dealer: int, profile: str = "cutthroat") -> tuple[binocle.Card, ...]:
    hands: list[str | None] = [None, None, None]
    hands[bidder] = BEST
    return binocle.profile(profile).stack_deck(hands, dealer=dealer, widow="9H 9D 9C")


def _bidder_policy(
    bidder: int, calls: dict[int, list[str]], leads: list[str] = LEADS * 2
) -> Policy:
    """The bidder discards the Nines of the widow, names spades and takes every trick
    with ``leads`` (hand after hand); the others pass when ``calls`` says nothing more,
    meld, and throw the Ten of spades, then diamonds, while they may."""
    lead = iter(leads)
    said = {seat: iter(c) for seat, c in calls.items()}

    def policy(s: GameState, seat: int) -> str | Action:
        legal = binocle.legal_actions(s)
        texts = [str(a) for a in legal]
        if s.phase is Phase.BIDDING:
            return next(said.get(seat, iter(())), "pass")
        if s.phase is Phase.DISCARD:
            return next(t for t in texts if t in ("discard 9H", "discard 9D", "discard 9C"))
        if s.phase is Phase.TRUMP:
            return "trump S"
        if seat == bidder and s.phase is Phase.PLAY and not s.trick:
            return "play " + next(lead)
        ten = [a for a in legal if str(a) == "play TS"]
        diamonds = [a for a in legal if str(a).startswith("play ") and str(a).endswith("D")]
        return (ten or diamonds or list(legal))[0]

    return policy


@pytest.mark.parametrize(
    "profile",
    [
        "cutthroat",
        "cutthroat(single_set=true,easier_tricks=true)",
        "cutthroat(widow_after_round=0,min_bid=2150,max_bid=2150)",
    ],
)
def test_cutthroat_highest_hand_is_reached(profile: str) -> None:
    """Cutthroat rules, Scoring a hand: the bidder with the highest meld (1900) who takes
    every trick (250) scores 2150, the highest of one hand."""
    bidder, dealer = 1, 0
    bid = f"bid {binocle.profile(profile).min_bid}"  # type: ignore[attr-defined]
    ep = _episode(
        profile,
        [_best_deck(bidder, dealer, profile)],
        _bidder_policy(bidder, {bidder: [bid]}),
        hands=1,
        dealer=dealer,
    )
    result = ep.state.results[-1]
    assert result.meld[bidder] == 1900 and result.tricks[bidder] == 250
    assert ep.returns() == (0, 2150, 0)
    assert E.utility_bounds(profile)[1] == 2150
    assert E.reward_bounds(profile, 1, "score")[1] == 2150.0


#: A hand of 1240 that takes every trick, spades trump: eight Aces (1000), a run with a
#: second King (190), pinochle (40) and dix (10); with the 250 trick points, 1490, just
#: below the target (1500).  Seat 0 holds nine diamonds and six clubs, seat 2 the other
#: four spades, nine hearts and two clubs: the Ten of spades falls on the first Ace,
#: and by the last trick nobody can follow the Jack of diamonds or trump it.
NEAR = "AS AS AH AH AD AD AC AC TS KS KS QS JS JD 9S"
NEAR_LEADS = _texts("AS AS TS KS KS AH AH AD AD AC AC QS JS 9S JD")


def test_cutthroat_two_hands_highest_is_reached() -> None:
    """Cutthroat rules, Winning: a seat reaching 1500 ends the game, and two seats cannot
    both gain enough in one hand to tie there (their melds make at most 2320), so over
    two hands the most is 1490 (just below the target) and then 2150: 3640, reached."""
    near = binocle.stack_deck(
        "cutthroat",
        [
            "TD TD KD KD QD QD JD 9D 9D TC TC KC KC QC QC",
            NEAR,
            "TS QS JS 9S TH TH KH KH QH QH JH JH 9H JC JC",
        ],
        dealer=0,
        widow="9H 9C 9C",
    )
    bidder = 1
    # Hand 1: the bidder is eldest; hand 2: he deals, and the two before him pass.
    policy = _bidder_policy(bidder, {bidder: ["bid 250", "bid 250"]}, NEAR_LEADS + LEADS)
    ep = _episode("cutthroat", [near, _best_deck(bidder, 1)], policy, hands=2, dealer=0)
    first, second = ep.state.results
    assert first.delta == (0, 1490, 0) and first.meld[bidder] == 1240
    assert second.delta == (0, 2150, 0)
    assert ep.returns()[bidder] == 3640 == E.utility_bounds("cutthroat", 2)[1]
    assert binocle.is_over(ep.state)


@pytest.mark.parametrize(("options", "per_hand"), [("", -6000), ("(single_set=true)", -3000)])
@pytest.mark.parametrize("hands", [1, 2])
def test_cutthroat_lowest_is_reached(options: str, per_hand: int, hands: int) -> None:
    """Cutthroat rules, Scoring a hand: a bidder at max_bid (3000) whom even the best hand
    (2150) leaves short loses twice the bid (once with single_set), hand after hand;
    taking every trick, he leaves the others nothing, so nobody reaches the target."""
    profile = "cutthroat" + options
    bidder = 1
    # Hand 1: dealer 0, the bidder is eldest; hand 2: he deals and seat 2 opens at 250.
    calls = {bidder: ["bid 3000", "bid 3000"], 2: ["pass", "bid 250", "pass"]}
    decks = [_best_deck(bidder, 0), _best_deck(bidder, 1)]
    ep = _episode(profile, decks, _bidder_policy(bidder, calls), hands=hands, dealer=0)
    assert len(ep.state.results) == hands
    assert ep.returns() == (0, per_hand * hands, 0)
    assert E.utility_bounds(profile, hands)[0] == per_hand * hands


def test_cutthroat_lowest_is_reached_at_a_low_ceiling() -> None:
    """A bidder whose 18 cards hold no counter and no meld (Queens, Jacks and Nines, clubs
    trump without its Nines, no Q♠ and no J♥) is set even at max_bid 250."""
    profile = "cutthroat(max_bid=250)"
    bad = "QH QH QD QD QC QC JS JS JD JD JC JC 9S 9S 9H"
    deck = binocle.stack_deck("cutthroat", [None, bad, None], dealer=0, widow="9H 9D 9D")
    rng = random.Random(0)

    def policy(s: GameState, seat: int) -> str | Action:
        if s.phase is Phase.BIDDING:
            return "bid 250" if seat == 1 else "pass"
        if s.phase is Phase.TRUMP:
            return "trump C"
        return rng.choice(binocle.legal_actions(s))

    ep = _episode(profile, [deck], policy, hands=1, dealer=0)
    assert ep.state.results[-1].meld[1] == 0
    assert ep.returns()[1] == -500 == E.utility_bounds(profile)[0]


# -- classic and three-handed: nobody loses points -----------------------------------------


@pytest.mark.parametrize("profile", ["classic", "three-handed"])
@pytest.mark.parametrize(("seed", "hands"), [(0, 1), (1, 3)])
def test_lowest_zero_is_reached(profile: str, seed: int, hands: int) -> None:
    """Classic and three-handed rules, Claiming (knocking): a knock at the first moment
    it is offered is wrong (nobody is near the target) and ends the game; a seat that
    scored nothing returns 0, the lowest."""
    rng = random.Random(seed)
    ep = E.Episode.new(profile, hands=hands)
    while not ep.is_terminal():
        if ep.is_chance():
            ep = ep.apply(rng.choice([i for i, _ in ep.chance_outcomes()]))
            continue
        ids = ep.legal_ids()
        claims = [i for i in ids if ep.action_label(i).startswith("claim")]
        passes = [i for i in ids if ep.action_label(i) == "pass"]
        ep = ep.apply((claims or passes or list(ids))[0])
    assert binocle.is_over(ep.state) and ep.state.results[-1].outcome in ("claimed", "retired")
    assert min(ep.returns()) == 0 == E.utility_bounds(profile, hands)[0]


# -- no return leaves the bounds ----------------------------------------------------------

VARIANTS = [
    "cutthroat",
    "cutthroat(single_set=true,min_bid=100,max_bid=400)",
    "cutthroat(target=300,easier_tricks=true,bunched_hands=true)",
    "cutthroat(max_hands=2,widow_after_round=0)",
    "classic",
    "classic(pack=64,grand_binocle=true)",
    "classic(target=200)",
    "three-handed",
    "three-handed(claim_overlooked=true,grand_binocle=true)",
    "three-handed(target=300,lowest_pays=true)",
]


def _random_episode(profile: str, seed: int, hands: int, greedy: bool) -> E.Episode:
    """A random episode; with ``greedy`` every seat avoids knocking and melds what it can
    (so hands are played out and score)."""
    rng = random.Random(seed)
    ep = E.Episode.new(profile, hands=hands, dealer=seed % ep_players(profile))
    while not ep.is_terminal():
        if ep.is_chance():
            outcomes = ep.chance_outcomes()
            ep = ep.apply(rng.choices([i for i, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        ids = list(ep.legal_ids())
        if greedy:
            keep = [i for i in ids if not ep.action_label(i).startswith("claim")]
            melds = [i for i in keep if ep.action_label(i).startswith("meld")]
            ids = melds or keep or ids
        ep = ep.apply(rng.choice(ids))
    return ep


def ep_players(profile: str) -> int:
    return binocle.profile(profile).players


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**6), st.integers(1, 3), st.booleans())
def test_no_return_leaves_the_bounds(profile: str, seed: int, hands: int, greedy: bool) -> None:
    """Every seat's return stays within utility_bounds, and every hand's score change
    within the bounds of one hand; reward_bounds hold for each reward option."""
    ep = _random_episode(profile, seed, hands, greedy)
    low, high = E.utility_bounds(profile, hands)
    assert all(low <= r <= high for r in ep.returns())
    one_low, one_high, pair = hand_bounds(profile)
    for result in ep.state.results:
        assert all(one_low <= d <= one_high for d in result.delta)
        assert sum(sorted(result.delta)[-2:]) <= pair
    for reward in E.REWARDS:
        lo, hi = E.reward_bounds(profile, hands, reward)
        assert all(lo <= r <= hi for r in E.episode_returns(ep, reward))


# -- the figures and the contract ---------------------------------------------------------


def test_the_figures_follow_the_options() -> None:
    """Per hand and over hands, as the docs' table gives them."""
    assert E.utility_bounds("cutthroat") == (-6000, 2150)
    assert E.utility_bounds("cutthroat(single_set=true)") == (-3000, 2150)
    assert E.utility_bounds("cutthroat(max_bid=600)") == (-1200, 2150)
    assert E.utility_bounds("classic") == (0, 1260)
    assert E.utility_bounds("classic(grand_binocle=true)") == (0, 1320)
    assert E.utility_bounds("classic(pack=64)") == (0, 1640)
    assert E.utility_bounds("three-handed") == (0, 1260)
    assert E.utility_bounds("three-handed(claim_overlooked=true)") == (0, 1730)
    # The target caps the second hand: below it, or tied with another seat at it.
    assert E.utility_bounds("cutthroat", 2) == (-12000, 2150 + 1490)
    # Three hands: two seats tied at the target share at most 2 x 2570.
    assert E.utility_bounds("cutthroat", 3) == (-18000, 2150 + 2570)
    assert E.utility_bounds("cutthroat(target=5000)", 2) == (-12000, 2150 + 2150)
    assert E.utility_bounds("classic", 2) == (0, 1260 + 999)
    assert E.utility_bounds("classic(max_hands=1)", 5) == (0, 1260)
    # Never above hands times the highest of one hand.
    for name in ("cutthroat", "classic", "three-handed"):
        for n in range(1, 12):
            assert E.utility_bounds(name, n)[1] <= n * E.utility_bounds(name)[1]


def test_normalised_bounds_lie_within_one() -> None:
    """ "normalised" divides by the larger magnitude of the score bounds."""
    assert E.reward_bounds("cutthroat", 1, "normalised") == (-1.0, 2150 / 6000)
    assert E.reward_bounds("classic", 2, "normalised") == (0.0, 1.0)
    assert E.reward_bounds("three-handed", 1, "win") == (-1.0, 1.0)


@pytest.mark.parametrize("hands", [0, -1, True, 1.0, "2"])
def test_bad_hand_counts_are_refused(hands: object) -> None:
    with pytest.raises(InvalidArgumentError):
        E.utility_bounds("classic", hands)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        E.reward_bounds("classic", hands)  # type: ignore[arg-type]


def _tool() -> object:
    return load_tool("meld_bounds")


def test_cutthroat_meld_figure_is_the_highest() -> None:
    """The 1900 of the bounds is the highest cutthroat meld of 15 cards (an exhaustive
    search by suits), and the engine scores the hand found so."""
    from binocle.encoding import _bounds
    from binocle.rules.cutthroat_melds import meld_total

    value, trump, counts = _tool().cutthroat_best_meld()  # type: ignore[attr-defined]
    cards = [s * 8 + r for s in range(4) for r in range(6) for _ in range(counts[s][r])]
    assert value == meld_total(cards, trump) == _bounds._CUTTHROAT_MELD == 1900
    best = [int(c) for c in binocle.parse_cards(BEST)]
    assert meld_total(best, 0) == 1900


def test_meld_figures_come_from_the_integer_programmes() -> None:
    """The classic and three-handed meld figures are the optimum of the relaxed
    announcement rules, and cutthroat's figure for two hands the exact highest
    (tools/meld_bounds.py; scipy's integer programming)."""
    if importlib.util.find_spec("scipy") is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs scipy: this test must run there")
        pytest.skip("scipy is not installed")
    from binocle.encoding import _bounds

    tool = _tool()
    for grand in (False, True):
        got = {
            name: tool.classic_meld_bound(  # type: ignore[attr-defined]
                ann, cards, grand=grand, dix=dix, turn_up=turn_up
            )
            for name, (ann, cards, dix, turn_up) in tool.FIGURES.items()  # type: ignore[attr-defined]
        }
        assert got["classic seat"] == _bounds._CLASSIC_SEAT[48, grand]
        assert got["classic seats"] == _bounds._CLASSIC_PAIR[48, grand]
        assert got["classic-64 seat"] == _bounds._CLASSIC_SEAT[64, grand]
        assert got["classic-64 seats"] == _bounds._CLASSIC_PAIR[64, grand]
        assert got["three-handed seat"] == _bounds._THREE_SEAT[grand]
        assert got["three-handed seats"] == _bounds._THREE_ALL[grand]
    # The same integer programme, on cutthroat's meld table, finds the highest meld
    # of one hand that the search by suits finds, and that of two hands.
    assert tool.cutthroat_pair_meld((15, 0)) == _bounds._CUTTHROAT_MELD  # type: ignore[attr-defined]
    assert tool.cutthroat_pair_meld((18, 0)) == tool.cutthroat_best_meld(18)[0]  # type: ignore[attr-defined]
    assert tool.cutthroat_pair_meld() == _bounds._CUTTHROAT_PAIR  # type: ignore[attr-defined]
