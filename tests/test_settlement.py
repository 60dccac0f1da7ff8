"""Cutthroat rules, Settlement (the Auction Pinochle variant of 003 "Variants"): with
``settlement=chips`` each hand is settled in chips instead of a running score.

The hand's value by the bid (250-290: 2, 300-340: 3, 350-390: 5, 400-440: 10, then 5
more every 50), doubled with spades trump; the bidder collects it from each other
player when he makes his bid, pays it to each when he gives up, pays each twice the
value when he plays and is set (once with ``single_set``); all pass: nothing.  The
game has no target: it ends after ``max_hands`` hands, the highest balance winning.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Suit
from binocle.bots import play_game
from binocle.errors import InvalidArgumentError, UnknownProfileError
from binocle.profiles.cutthroat import chip_value
from test_record import _AFTER_OPPONENT, _FIRST_TRICKS, _revoke_record

CHIPS = "cutthroat(settlement=chips,max_hands=3)"


@pytest.mark.parametrize(
    ("bid", "value"),
    [(250, 2), (290, 2), (300, 3), (340, 3), (350, 5), (390, 5), (400, 10), (440, 10),
     (450, 15), (500, 20), (550, 25), (590, 25), (600, 30), (700, 40)],
)  # fmt: skip
def test_the_chip_schedule(bid: int, value: int) -> None:
    """Cutthroat rules, Settlement: the hand's value by the bid; doubled with spades."""
    assert chip_value(bid) == chip_value(bid, Suit.HEARTS) == value
    assert chip_value(bid, Suit.SPADES) == 2 * value


@pytest.mark.parametrize("bid", [240, 0, -250, 1.5, True, "250", 10_010])
def test_a_bid_off_the_schedule_is_refused(bid: object) -> None:
    """The schedule starts at 250: anything else is refused with InvalidArgumentError."""
    with pytest.raises(InvalidArgumentError):
        chip_value(bid)  # type: ignore[arg-type]


def test_the_option_is_read_from_text_and_needs_max_hands() -> None:
    """``settlement`` is a field of the frozen profile, read from text; chips need
    ``max_hands`` (there is no target) and a minimum bid on the schedule."""
    p = binocle.profile(CHIPS)
    assert p.settlement == "chips" and p.chips and p.spec() == CHIPS
    assert binocle.profile("cutthroat").settlement == "points"
    for bad in (
        "cutthroat(settlement=chips)",
        "cutthroat(settlement=chips,max_hands=3,min_bid=200)",
        "cutthroat(settlement=cash,max_hands=3)",
    ):
        with pytest.raises(UnknownProfileError):
            binocle.profile(bad)


def _after_melds(spec: str, bid: int = 250) -> binocle.GameState:
    """The revoke deal of test_record: seat 1 bids ``bid`` and names hearts; melds done."""
    from test_record import _HANDS

    deck = binocle.stack_deck("cutthroat", _HANDS, dealer=0, widow="AH TH KH")
    s = binocle.new_game(spec, deck=deck, dealer=0)
    for text in [f"bid {bid}", "pass", "pass", "discard 9C", "discard 9C", "discard QS"]:
        s = binocle.apply(s, text)
    for text in ["trump H", "meld", "meld", "meld"]:
        s = binocle.apply(s, text)
    return s


def test_a_bidder_who_makes_his_bid_collects_from_each() -> None:
    """Cutthroat rules, Settlement: seat 1 bids 250, makes it, and collects 2 chips from
    each of the others; ``HandResult.chips`` gives the hand's value, ``delta`` the
    chips, ``meld`` and ``tricks`` stay points."""
    s = _after_melds(CHIPS)
    while len(s.results) == 0:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    r = s.results[0]
    assert r.made and r.chips == 2 and r.delta == (-2, 4, -2) and s.scores == (-2, 4, -2)
    assert r.meld[1] == 200 and sum(r.tricks) == 250


@pytest.mark.parametrize(("spec", "paid"), [(CHIPS, 4), (CHIPS[:-1] + ",single_set=true)", 2)])
def test_a_set_bidder_pays_each_twice_and_one_who_gives_up_once(spec: str, paid: int) -> None:
    """Cutthroat rules, Settlement: bid 450 (15 chips) and set: he pays each twice the
    value (once with ``single_set``); given up before play, he pays each the value."""
    s = _after_melds(spec, 450)
    gave_up = binocle.apply(s, "concede")
    assert gave_up.results[0].delta == (15, -30, 15) and gave_up.results[0].chips == 15
    while len(s.results) == 0:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    r = s.results[0]
    assert not r.made and r.delta == (15 * paid // 2, -15 * paid, 15 * paid // 2)


def test_spades_trump_doubles_the_value() -> None:
    """Cutthroat rules, Settlement: the same hand with spades trump is worth twice."""
    for seed in range(40):
        g = play_game(CHIPS, seed=seed)
        for r in g.results:
            if r.outcome in ("played", "conceded"):
                assert r.chips == chip_value(r.bid, r.trump)
                if r.trump is Suit.SPADES:
                    return
    pytest.fail("no hand with spades trump")  # pragma: no cover


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_chips_change_hands_and_the_game_ends_after_max_hands(seed: int) -> None:
    """Cutthroat rules, Settlement: the chips of every hand sum to zero (what the bidder
    collects the others pay); thrown-in hands pay nothing; the game ends after
    ``max_hands`` hands, the highest balance winning and a tie for the top winning
    nothing; a record replays to the same game."""
    g = play_game(CHIPS, seed=seed)
    assert binocle.is_over(g) and binocle.end_reason(g) == "limit" and len(g.results) == 3
    for r in g.results:
        assert sum(r.delta) == 0
        if r.outcome in ("thrown-in", "redeal"):
            assert r.delta == (0, 0, 0) and r.chips is None
        else:
            assert r.chips is not None and r.delta[r.bidder] in (2 * r.chips, -2 * r.chips,
                                                                   -4 * r.chips)  # fmt: skip
    assert g.scores == tuple(sum(r.delta[i] for r in g.results) for i in range(3))
    top = max(g.scores)
    leaders = [i for i, v in enumerate(g.scores) if v == top]
    assert binocle.winner(g) == (leaders[0] if len(leaders) == 1 else None)
    assert binocle.replay(binocle.record(g)) == g


def test_the_validator_settles_a_revoked_hand_in_chips() -> None:
    """Cutthroat rules, Revoke and Settlement: after an opponent's revoke the bidder
    cannot be set, so he collects the hand's value from each (2 chips at 250); the
    validator's figures and scores are chips, and the penalty says so."""
    doc = _revoke_record(CHIPS, 250, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"), _AFTER_OPPONENT)
    report = binocle.validate(doc)
    assert report.kind == "revoke"
    assert report.hand_scores == report.played_out_scores == (-2, 4, -2)
    assert report.scores == (-2, 4, -2) and report.hand_end_scores == ((-2, 4, -2),)
    assert "settled in chips" in report.penalty
    # The bidder revokes (trick 6) and falls short: he pays each twice the value.
    bidder = _revoke_record(CHIPS, 250, f"{_FIRST_TRICKS} QD AD", (1, "9H"))
    assert binocle.validate(bidder).hand_scores == (4, -8, 4)
