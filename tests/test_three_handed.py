"""Profile ``three-handed``: three-handed Binocle (RULES.md §3, seed 000), issue #4.

Every scenario is dealt from an explicit deck built by :func:`deal`, which lays
given 16-card hands out in the deal order, and driven with ``binocle.apply``.
In the dix phase every seat takes a turn, from the dealer's left (RULES.md §3
"Dix"): a seat with no Nine of trumps to show has only ``pass``, so the scripts
pass for it.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

import pytest

import binocle
import helpers
from binocle import Action, Kind, Phase
from binocle.rules.points import BINOCLE_POINTS
from binocle.testing import check_consistency, check_state, perft
from helpers import KQ, hand, kings_and_queens_laid_down, texts

# --- helpers -------------------------------------------------------------------------

#: Apply action texts, checking every state's invariants on the way.
run = functools.partial(helpers.run, check=True)


def deck_for(hands: dict[int, str], dealer: int, turn_up: str) -> list[binocle.Card]:
    """The 48-card deck that deals ``hands`` (seat -> 16 cards) with ``turn_up`` last.

    The deal (RULES.md §3): four at a time from the dealer's left, four rounds;
    the last card, the dealer's 16th, is the turn-up.
    """
    assert sorted(hands) == [0, 1, 2]
    by_seat = [hands[seat] for seat in range(3)]
    deck = list(binocle.stack_deck("three-handed", by_seat, dealer=dealer, turn_up=turn_up))
    assert len(deck) == 48 and deck[-1] == binocle.parse_card(turn_up)
    return deck


def deal(hands: dict[int, str], dealer: int, turn_up: str, profile: str = "three-handed") -> Any:
    """A new three-handed game whose first hand gives these hands (later deals: seed 7)."""
    s = binocle.new_game(profile, seed=7, deck=deck_for(hands, dealer, turn_up), dealer=dealer)
    check_state(s)
    return s


def deal_action(hands: dict[int, str], dealer: int, turn_up: str) -> Action:
    return Action(Kind.DEAL, cards=tuple(deck_for(hands, dealer, turn_up)))


def plays(s: Any) -> set[str]:
    """The cards the player to act may play."""
    return {str(a.card) for a in binocle.legal_actions(s) if a.kind is Kind.PLAY}


def weakest(s: Any) -> Action:
    """The last legal card: the lowest of the last suit (a fixed, simple policy)."""
    return [a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY][-1]


def to_play(s: Any, dix: str = "pass", meld: str = "pass") -> Any:
    """Drive a fresh hand to the play: every seat takes its dix turn, from the dealer's left
    (RULES.md §3 "Dix"), acting ``dix`` where it is legal, else passing (a seat with no Nine
    of trumps to show has only ``pass``); then ``meld`` where legal, else ``pass``."""
    d = s.dealer
    seats: list[int | None] = []
    while s.phase is Phase.DIX:
        seats.append(s.current_player)
        if binocle.parse_action(s, dix) in binocle.legal_actions(s):
            s = binocle.apply(s, dix)
        else:
            assert texts(s) == ["pass"]
            s = binocle.apply(s, "pass")
    assert seats in ([], [(d + 1) % 3, (d + 2) % 3, d])
    while s.phase is Phase.MELD:
        s = binocle.apply(
            s, meld if binocle.parse_action(s, meld) in binocle.legal_actions(s) else "pass"
        )
    assert s.phase is Phase.PLAY
    return s


def play_out(s: Any) -> Any:
    """Play the hand to its end with :func:`weakest`; nobody knocks, after the last trick
    either (three-handed rules, Claiming (knocking): a player who has reached his target
    is then asked, and passes)."""
    while s.phase is Phase.PLAY:
        s = binocle.apply(s, weakest(s) if any(s.hands) else Action(Kind.PASS))
    return s


# Trump spades, dealer 0, the turn-up AS.  Seats 1 and 0 hold the same strong
# hand (each a 9S); seat 2 holds all twelve clubs and the four low diamonds: the
# others never lead a club, he holds no trump and no diamond that beats theirs,
# so seat 2 can never win a trick.
SPADES = {
    1: "AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD QD",
    2: "AC AC TC TC KC KC QC QC JC JC 9C 9C 9D 9D JD JD",
    0: "AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD QD",
}

# Trump hearts, dealer 0, the turn-up AH.  Seat 1: the trump sequence and nothing
# else (190); seat 2: four Kings and four Queens and nothing else (220); seat 0:
# three marriages and binocle (100), both Nines of trumps.
MELDS = {
    1: "AH TH KH QH JH AS TS TS AD TD TC JS 9S 9D 9C JC",
    2: "KS KH KD KC QS QH QD QC AS 9S TH JH AD TD 9D TC",
    0: "KS QS JS AH 9H 9H KD QD JD JD AC AC KC QC JC 9C",
}


# --- deal ----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_deal_sixteen_each_four_at_a_time_from_the_dealers_left(dealer: int) -> None:
    """RULES.md §3 "Deal" (seed 000: "the entire pack is dealt out, giving sixteen cards to
    each player, four at a time, and turning up the last for the trump"): packets of four
    from the dealer's left; the last card is the trump and belongs to the dealer's hand."""
    deck = list(binocle.pack(48))
    random.Random(3).shuffle(deck)
    s = binocle.new_game("three-handed", deck=deck, dealer=dealer)
    left, second = (dealer + 1) % 3, (dealer + 2) % 3
    for seat, start in ((left, 0), (second, 4), (dealer, 8)):
        packets = [c for r in range(4) for c in deck[start + 12 * r : start + 12 * r + 4]]
        assert s.hands[seat] == tuple(sorted(packets))
    assert [len(h) for h in s.hands] == [16, 16, 16]
    assert s.turn_up == deck[47] and s.trump == deck[47].suit
    assert deck[47] in s.hands[dealer]
    assert s.dealer == dealer and s.trick == () and s.scores == (0, 0, 0)
    assert binocle.observe(s, left).get("turn_up") == deck[47]


def test_deal_passes_to_the_left_and_the_eldest_hand_leads() -> None:
    """RULES.md §1 "Seats" and §3 "Play": after every hand the deal passes to the left; the
    eldest hand (the dealer's left) leads the first trick."""
    s = deal(SPADES, 0, "AS")
    s = to_play(s)
    assert s.current_player == 1
    s = play_out(s)
    assert s.phase is Phase.DEAL and s.current_player is None and s.dealer == 1
    assert s.results[0].dealer == 0 and s.results[0].outcome == "played"
    (d,) = binocle.legal_actions(s)
    assert d.kind is Kind.DEAL
    s = binocle.apply(s, d)
    assert s.dealer == 1 and s.hand_number == 2 and s.turn_up in s.hands[1]
    s = to_play(s)
    assert s.current_player == 2
    # An explicit deck is accepted too (dealt from the new dealer's left).
    rotated = {(seat + 2) % 3: cards for seat, cards in SPADES.items()}
    s = binocle.apply(play_out(s), "deal " + " ".join(map(str, deck_for(rotated, 2, "AS"))))
    assert s.dealer == 2 and s.hand_number == 3
    assert to_play(s).current_player == 0


# --- dix -----------------------------------------------------------------------------


def test_first_non_dealer_exchanges_and_a_dealer_with_a_nine_cannot_keep_the_turn_up() -> None:
    """RULES.md §3 "Dix", seed 000: "Even if the dealer has a Nine himself, he is not allowed
    to keep the turn-up trump."  The dealer holds 9S, but seat 1 (his left) shows first and
    takes the turn-up AS; the dealer receives that Nine and shows his own without exchange.
    Seat 2, between them, holds no 9S: he has his turn all the same, with only ``pass``."""
    s = deal(SPADES, 0, "AS")
    assert s.phase is Phase.DIX and s.current_player == 1
    assert texts(s) == ["pass", "dix"]
    s = run(s, "dix")
    assert s.exchanged and s.announced == (0, 10, 0)
    assert s.hands[1] == hand("AS AS TS KS QS JS AH TH KH QH JH 9H AD TD KD QD")
    assert s.hands[0] == hand("TS KS QS JS 9S 9S AH TH KH QH JH 9H AD TD KD QD")
    # Seat 2 holds no 9S: his turn comes all the same, and he can only pass.
    assert s.phase is Phase.DIX and s.current_player == 2 and texts(s) == ["pass"]
    for bad in ("dix", "dix 2"):
        with pytest.raises(binocle.IllegalActionError):
            binocle.apply(s, bad)
    s = run(s, "pass")
    assert s.announced == (0, 10, 0) and s.nines_shown == (0, 1, 0)
    # The dealer holds two Nines now, one of them received: he may show one, not two.
    assert s.current_player == 0 and texts(s) == ["pass", "dix"]
    before = s.hands
    s = run(s, "dix")
    assert s.hands == before and s.announced == (10, 10, 0) and s.nines_shown == (1, 1, 0)
    assert s.phase is Phase.MELD and s.current_player == 1
    with pytest.raises(binocle.IllegalActionError):
        binocle.apply(s, "dix")


DIX = {
    0: "AS AS TS TS KS KS QS QS JS JS AH TH KH QH JH JH",
    1: "9S AH TH 9H 9H AD AD TD TD KD KD QD QD JD JD JC",
    2: "9S KH QH 9D 9D AC AC TC TC KC KC QC QC JC 9C 9C",
}


def test_a_later_shower_scores_dix_without_exchange() -> None:
    """RULES.md §3 "Dix", seed 000: "Should two Nines be shown by different players, the one
    on the dealer's left takes the turn-up trump"; the later shower scores dix only, and the
    dealer, who only received a Nine, has nothing to show: at his turn he can only pass."""
    s = run(deal(DIX, 0, "KS"), "dix")
    assert s.hands[1] == hand("KS AH TH 9H 9H AD AD TD TD KD KD QD QD JD JD JC")
    assert binocle.parse_card("9S") in s.hands[0]
    assert s.current_player == 2
    before = s.hands
    s = run(s, "dix")
    assert s.hands == before and s.announced == (0, 10, 10)
    # The dealer's received Nine is not shown again: his turn offers only ``pass``.
    assert s.phase is Phase.DIX and s.current_player == 0 and texts(s) == ["pass"]
    with pytest.raises(binocle.IllegalActionError):
        binocle.apply(s, "dix")
    s = run(s, "pass")
    assert s.hands == before and s.announced == (0, 10, 10)
    assert s.phase is Phase.MELD and s.current_player == 1


def test_the_first_shower_takes_the_turn_up_even_when_the_eldest_passes() -> None:
    """RULES.md §3 "Dix": the first player other than the dealer *to show* a Nine exchanges
    it; if the eldest hand passes, the second hand takes the turn-up (and the dealer, who
    only received a Nine, can only pass)."""
    s = run(deal(DIX, 0, "KS"), "pass", "dix")
    assert s.exchanged and s.announced == (0, 0, 10)
    assert s.hands[2] == hand("KS KH QH 9D 9D AC AC TC TC KC KC QC QC JC 9C 9C")
    assert s.hands[1] == hand(DIX[1])
    assert binocle.parse_card("9S") in s.hands[0] and binocle.parse_card("KS") in s.hands[0]
    assert s.current_player == 0 and texts(s) == ["pass"]
    s = run(s, "pass")
    assert s.phase is Phase.MELD and s.announced == (0, 0, 10)


def test_both_nines_shown_by_one_player_score_twenty() -> None:
    """RULES.md §3 "Dix", seed 000: "If the same player holds both Nines he may score twenty";
    a non-dealer exchanges one of them; a dealer holding both exchanges nothing.  The seats
    without a Nine to show (the dealer who only received one included) can only pass."""
    both = {
        0: "TS AS AS TS KS KS QS QS JS JS AH AH TH TH KH KH",
        1: "9S 9S QH QH JH JH 9H 9H AD AD TD TD KD KD QD QD",
        2: "JD JD 9D 9D AC AC TC TC KC KC QC QC JC JC 9C 9C",
    }
    s = deal(both, 0, "TS")
    assert texts(s) == ["pass", "dix", "dix 2"]
    s = run(s, "dix 2")
    assert s.announced == (0, 20, 0) and s.nines_shown == (0, 2, 0) and s.exchanged
    assert s.hands[1].count(binocle.parse_card("9S")) == 1
    assert binocle.parse_card("TS") in s.hands[1]
    assert s.current_player == 2 and texts(s) == ["pass"]  # seat 2 holds no Nine
    s = run(s, "pass")
    assert s.current_player == 0 and texts(s) == ["pass"]  # the dealer only received a Nine
    s = run(s, "pass")
    assert s.phase is Phase.MELD and s.announced == (0, 20, 0)
    # The dealer with both Nines (MELDS: trump hearts, 9H 9H in seat 0).
    s = deal(MELDS, 0, "AH")
    for seat in (1, 2):  # no Nine: only pass
        assert s.current_player == seat and texts(s) == ["pass"]
        s = run(s, "pass")
    assert s.current_player == 0 and texts(s) == ["pass", "dix", "dix 2"]
    before = s.hands
    s = run(s, "dix 2")
    assert s.hands == before and not s.exchanged and s.announced == (20, 0, 0)
    assert s.phase is Phase.MELD


NINE_UP = {
    1: "AS AS TS TS JS JS 9S AD AD TD TD JD JD 9D 9D AH",
    2: "AC AC TC TC KC KC QC QC JC JC 9C 9C KD KD QD QD",
    0: "KS KS QS QS 9S AH TH TH KH KH QH QH JH JH 9H 9H",
}


def test_turn_up_nine_leaves_nothing_to_exchange() -> None:
    """RULES.md §3 "Dix": "If the turn-up is itself a Nine there is nothing to exchange": the
    other Nine's holder scores dix and keeps his cards.  Resolution: the dealer may show the
    turned-up Nine, which is in his hand, for dix (the dealer scores without exchange).
    Seat 2, the dealer's left, holds no Nine: his turn comes first, with only ``pass``."""
    s = deal(NINE_UP, 1, "9S")
    assert s.turn_up == binocle.parse_card("9S") and s.current_player == 2
    assert texts(s) == ["pass"]
    before = s.hands
    s = run(s, "pass")
    assert s.hands == before and s.current_player == 0 and texts(s) == ["pass", "dix"]
    s = run(s, "dix")
    assert s.hands == before and not s.exchanged and s.announced == (10, 0, 0)
    assert s.current_player == 1 and texts(s) == ["pass", "dix"]
    s = run(s, "dix")
    assert s.hands == before and s.announced == (10, 10, 0) and s.phase is Phase.MELD


def test_the_exchanged_turn_up_counts_in_the_showers_melds() -> None:
    """RULES.md §3 "Dix" and "Melds": melds are laid down after the dix exchange, so the
    turn-up taken for a Nine counts: 9S for KS gives seat 1 a royal marriage (KS QS), and
    ``meld`` (the best declaration) is offered for it.  (Found a bug: the best meld was
    computed at the deal, before the exchange.)"""
    gain = {
        0: "KS AS AS TS TS KS QS JS JS 9S KH KH QH QH JH 9H",
        1: "QS 9S AH AH TH TH JH 9H AD AD TD 9D AC TC JC 9C",
        2: "TD KD KD QD QD JD JD 9D AC TC KC KC QC QC JC 9C",
    }
    s = run(deal(gain, 0, "KS"), "dix", "pass", "pass")  # seat 2 holds no 9S: only pass
    assert s.phase is Phase.MELD and s.current_player == 1
    assert "meld" in texts(s)
    s = run(s, "meld")
    assert s.announced[1] == 10 + 40
    assert [m.name for m in binocle.observe(s, 2).get("melds")[1].melds] == ["royal marriage"]


def test_dix_is_announced_not_scored_until_a_trick_is_won() -> None:
    """RULES.md §3 "Scoring", seed 000: "The total number of points claimed by each player is
    simply announced, but not scored ... the first trick he wins entitles him to score
    everything he has announced, including dix.\""""
    s = to_play(deal(NINE_UP, 1, "9S"), dix="dix")
    assert s.announced == (10, 10, 0) and s.recorded == (0, 0, 0)
    assert s.scored == (False, False, False)
    s = run(s, "play AC", "play KS", "play AS")  # seat 1 overtrumps and wins
    assert s.current_player == 1 and s.scored == (False, True, False)
    assert s.recorded == (0, 10, 0) and s.meld_scored == (0, 10, 0)


# --- melds ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "trump", "total", "kinds"),
    [
        ("AH TH KH QH JH", "H", 190, ["royal marriage", "sequence"]),
        ("QS QS JD JD", "C", 120, ["binocle", "double binocle"]),
        (
            "KS KH KD KC QS QH QD QC",
            "H",
            220,
            ["royal marriage", "marriage", "marriage", "four queens", "four kings"],
        ),
    ],
)
def test_plenty_of_time_meld_values(cards: str, trump: str, total: int, kinds: list[str]) -> None:
    """RULES.md §3 "Melds", seed 000: "If he has the trump sequence, he may lay down the
    marriage first, then the A 10 J ... The trump sequence counts 190"; double binocle, the
    single first, then the other: 120; "Four Kings and four Queens count 220"."""
    r = binocle.meld(cards, trump, "three-handed")
    assert r.total == total and sum(m.value for m in r.melds) == total
    assert sorted(m.name for m in r.melds) == sorted(kinds)
    assert binocle.meld(cards, trump, binocle.profile("three")).total == total


def test_meld_action_declares_the_best_and_shows_it_to_everyone() -> None:
    """RULES.md §3 "Melds": ``meld`` declares the plenty-of-time optimum (190 sequence, 220
    Kings and Queens); the melded cards are shown to all, so every view holds them."""
    s = deal(MELDS, 0, "AH")
    assert s.current_player == 1 and texts(s) == ["pass"]  # only the dealer holds Nines
    s = run(s, "pass", "pass", "pass", "meld", "meld", "meld")
    assert s.phase is Phase.PLAY and s.announced == (100, 190, 220)
    assert s.recorded == (0, 0, 0)
    for seat in range(3):
        shown = binocle.observe(s, seat).get("melds")
        assert [m.total for m in shown] == [100, 190, 220]
        assert [m.name for m in shown[1].melds] == ["royal marriage", "sequence"]
        assert shown[1].melds[1].cards == hand("AH TH KH QH JH")
        assert sorted(m.name for m in shown[2].melds) == sorted(
            ["royal marriage", "marriage", "marriage", "four queens", "four kings"]
        )


def test_double_binocle_announced_one_by_one() -> None:
    """RULES.md §3 "Melds", seed 000: "If he has double binocle, he may lay down the single
    first, and then the other, claiming the count for both" (40 + 80 = 120)."""
    cards = {
        0: "AC KS KS JS JS 9S KH KH QH QH JH JH 9H AD AD TD",
        1: "QS QS JD JD AS AS TS TS AH AH TH TH 9S 9H 9D JC",
        2: "TD KD KD QD QD 9D AC TC TC KC KC QC QC JC 9C 9C",
    }
    s = deal(cards, 0, "AC")
    while s.phase is Phase.DIX:
        s = run(s, "pass")
    s = run(s, "meld binocle QS JD")
    assert "meld" not in texts(s)  # the best declaration only before single ones
    assert "meld double binocle QS JD + JD QS" in texts(s)
    s = run(s, "meld double binocle QS JD + JD QS", "pass")
    assert s.announced[1] == 120
    assert [m.value for m in binocle.observe(s, 0).get("melds")[1].melds] == [40, 80]


def test_announcements_go_on_until_the_first_card() -> None:
    """Three-handed rules, Melds: a player may announce further combinations at his turn
    until he plays his first card (the source bars melding only "after he has played to
    the first trick").  The holder of the sequence announces only the royal marriage in his
    meld turn; at his lead he may still add the sequence (40 + 150 = 190), and the
    announcement does not end his turn: he still leads."""
    s = run(
        deal(MELDS, 0, "AH"),
        *("pass", "pass", "pass"),  # dix: seats 1 and 2 hold no Nine; the dealer passes
        *("meld royal marriage KH QH", "pass", "pass", "pass"),
    )
    assert s.phase is Phase.PLAY and s.current_player == 1 and s.announced == (0, 40, 0)
    legal = texts(s)
    assert legal[-2:] == ["meld sequence AH TH JH + KH QH", "claim"]
    assert "meld" not in legal  # the best declaration only while nothing is announced
    assert len(legal) == len(set(s.hands[1])) + 2
    s = run(s, "meld sequence AH TH JH + KH QH")
    assert s.current_player == 1 and s.announced == (0, 190, 0) and s.phase is Phase.PLAY
    assert [m.name for m in binocle.observe(s, 2).get("melds")[1].melds] == [
        "royal marriage",
        "sequence",
    ]
    assert not any(a.startswith("meld") for a in texts(s))  # his whole meld is announced
    # Seat 2 passed in his meld turn: at his turn in the first trick, before his first card,
    # he may still declare his best (220) or any single combination.
    s = run(s, "play AH")
    assert s.current_player == 2
    assert "meld" in texts(s) and "meld four kings KS KH KD KC" in texts(s)
    s = run(s, "meld")
    assert s.announced == (0, 190, 220) and s.current_player == 2
    s = run(s, "play TH")
    assert s.current_player == 0 and "meld" in texts(s)  # the dealer has not played yet
    s = run(s, "play 9H")
    assert s.trick == () and s.current_player == 1 and s.recorded == (0, 190, 0)


def test_what_is_not_announced_before_the_first_card_is_lost() -> None:
    """Three-handed rules, Melds (the source: "If he discovers he had more to meld, but has
    played a card, the unannounced score is lost"): once a player has played his first card
    no meld is possible for him; 40 is all the holder of the sequence scores."""
    s = run(
        deal(MELDS, 0, "AH"),
        *("pass", "pass", "pass"),
        *("meld royal marriage KH QH", "pass", "pass", "pass"),
        "play AH",  # seat 1 leads the Ace of trumps without announcing the sequence
    )
    for _ in range(2):  # seats 2 and 0 follow
        s = binocle.apply(s, weakest(s))
    assert s.current_player == 1 and s.recorded == (0, 40, 0)
    assert not any(a.startswith("meld") for a in texts(s))
    for bad in ("meld", "meld sequence AH TH JH + KH QH", "pass"):
        with pytest.raises(binocle.IllegalActionError):
            binocle.apply(s, bad)
    with pytest.raises(binocle.IllegalActionError, match="has played his first card"):
        binocle.apply(s, "meld sequence AH TH JH + KH QH")
    s = play_out(s)
    assert s.results[0].meld[1] == 40


def test_option_meld_until_first_card_off() -> None:
    """Three-handed rules, Melds, option ``meld_until_first_card=false`` (tables that lay
    every meld down "before a card is played"): announcements only in the meld turns; in
    the play the legal actions are the cards and the claim."""
    p = "three-handed(meld_until_first_card=false)"
    s = run(deal(MELDS, 0, "AH", p), "pass", "pass", "pass", "meld royal marriage KH QH")
    s = run(s, "pass", "pass", "pass")
    assert s.phase is Phase.PLAY and texts(s) == [
        *(f"play {c}" for c in dict.fromkeys(s.hands[1])),
        "claim",
    ]
    with pytest.raises(binocle.IllegalActionError, match="meld_until_first_card is off"):
        binocle.apply(s, "meld sequence AH TH JH + KH QH")
    assert binocle.profile(p).meld_until_first_card is False
    assert binocle.profile("three-handed").meld_until_first_card is True


OVERLOOKED = "three-handed(claim_overlooked=true)"


def test_option_claim_overlooked() -> None:
    """Three-handed rules, Overlooked melds, option ``claim_overlooked`` (the source: "allowing
    the other players to claim any score overlooked by the one who melds").  Once a player
    has played his first card, each other player in turn from his left may ``claim
    overlooked`` or ``pass``; what may be claimed is what the table saw: the best meld the
    cards he laid down make (four Kings and four Queens: 220), less what he announced (140).
    The first to claim has it announced, to score with his first trick won."""
    s = kings_and_queens_laid_down(2)  # seat 0 is the eldest: he melds and leads first
    s = run(s, "pass", "pass")
    assert s.phase is Phase.PLAY and s.current_player == 0 and s.announced == (140, 0, 0)
    # Announcing is still possible: nothing is offered before his first card.
    assert s.offer is None and "claim overlooked" not in texts(s)
    with pytest.raises(binocle.IllegalActionError, match="nothing to claim"):
        binocle.apply(s, "claim overlooked")
    s = run(s, "play 9C")  # the three marriages he laid down but did not announce: 80
    assert s.offer == binocle.profiles.three_handed.Overlooked(0, 80, (1, 2), 1)
    assert binocle.observe(s, 2).get("overlooked") == s.offer
    assert s.current_player == 1 and texts(s) == ["claim overlooked", "pass"]
    with pytest.raises(binocle.IllegalActionError, match="may claim the 80 points"):
        binocle.apply(s, "play AC")
    s = run(s, "pass")  # seat 1 lets it go; seat 2, next in turn, claims it
    assert s.current_player == 2 and texts(s) == ["claim overlooked", "pass"]
    s = run(s, "claim overlooked")
    assert s.announced == (140, 0, 80) and s.offer is None
    assert s.current_player == 1 and "play AC" in texts(s)  # the play goes on
    s = run(s, "play AC", "play QC")  # seat 1 wins: seat 2's 80 wait for his first trick
    assert s.trick == () and s.current_player == 1 and s.recorded == (0, 0, 0)
    s = play_out(s)
    assert s.results[-1].meld[2] == 80  # scored with seat 2's first trick
    # Without the option nothing is offered and nothing claimed.
    s = run(kings_and_queens_laid_down(2, "three-handed"), "pass", "pass", "play 9C")
    assert s.offer is None and s.current_player == 1 and s.announced == (140, 0, 0)
    assert "claim overlooked" not in texts(s)
    with pytest.raises(binocle.IllegalActionError, match="claim_overlooked is off"):
        binocle.apply(s, "claim overlooked")


def test_only_what_was_laid_down_can_be_claimed_as_overlooked() -> None:
    """Three-handed rules, Overlooked melds: a table cannot claim what it never saw.  A
    player who laid down nothing opens nothing to claim, and one who laid down only binocle
    (QS JD, 40) and announced it opens nothing either, although his hand holds 260 (the
    offer must not reveal a concealed hand).  Before: 220 and 220 were offered."""
    s = deal(KQ, 0, "9H", OVERLOOKED)
    while s.phase is Phase.DIX:
        s = run(s, "pass")
    s = run(s, "pass", "meld binocle QS JD", "pass", "pass")
    assert s.phase is Phase.PLAY
    assert s.announced == (0, 0, 40) and s.best == (220, 300, 260)
    s = run(s, "play AS", "play 9S")  # seat 2 laid down binocle alone
    assert s.offer is None and s.current_player == 0
    s = run(s, "play 9S")  # seat 0 laid down nothing
    assert s.offer is None and s.current_player == 1


def test_an_overlooked_meld_nobody_claims_is_lost() -> None:
    """Three-handed rules, Overlooked melds (option ``claim_overlooked``): when every other
    player lets the overlooked meld go, nobody scores it, and the play goes on."""
    s = run(kings_and_queens_laid_down(2), "pass", "pass", "play 9C")
    assert s.offer is not None and s.offer.points == 80
    s = run(s, "pass", "pass")
    assert s.offer is None and s.current_player == 1 and s.announced == (140, 0, 0)


def test_an_overlooked_meld_claimed_after_a_trick_won_scores_at_once() -> None:
    """Three-handed rules, Overlooked melds and Scoring (option ``claim_overlooked``): the
    overlooked meld scores "under the same first-trick condition": claimed by a player who
    has already won a trick, it scores at once.  The dealer (seat 0) plays last to the first
    trick with 80 overlooked; seat 1, who won the trick, is asked first and claims it."""
    s = kings_and_queens_laid_down(0)
    assert s.phase is Phase.PLAY and s.current_player == 1 and s.announced == (140, 0, 0)
    s = run(s, "play AH", "play 9H", "play KH")
    assert s.trick == () and s.current_player == 1
    assert s.offer is not None and (s.offer.seat, s.offer.points) == (0, 80)
    s = run(s, "claim overlooked")
    assert s.announced == (140, 80, 0) and s.recorded == (0, 80, 0)
    assert s.meld_scored == (0, 80, 0) and s.current_player == 1 and s.offer is None
    s = play_out(s)
    assert s.results[0].meld[1] == 80


def test_claim_overlooked_counts_the_hand_after_the_exchange() -> None:
    """Three-handed rules, Overlooked melds (option ``claim_overlooked``): what a player
    overlooked is measured on his hand as it is when he melds: the dealer who gave up the
    turn-up AS for a Nine has lost his sequence, and declaring his best (80) overlooks
    nothing, so his first card offers nothing.  (Found a bug: 150 was credited.)"""
    s = to_play(deal(SPADES, 0, "AS", "three-handed(claim_overlooked=true)"), "dix", "meld")
    assert s.announced == (10 + 80, 10 + 230, 40)
    s = run(s, "play AS", "play 9D", "play 9S")
    assert s.offer is None and s.announced == (10 + 80, 10 + 230, 40)


# --- play ----------------------------------------------------------------------------

# Trump hearts, dealer 0, the turn-up KH.  The tricks are scripted in the test.
PLAY = {
    1: "JD QD KD KD TD TD AD AD AH JH KS KS QS QS JS JS",
    2: "QD 9D TH TH AC AC TC TC KC KC QC QC JC JC 9C 9C",
    0: "AS AS TS TS 9S 9S AH KH KH QH QH JH 9H 9H JD 9D",
}


def test_trick_obligations() -> None:
    """RULES.md §3 "Play", seed 000: "the others must follow suit if able, and must win the
    trick if they can, either with a higher card or with a trump. If the third hand cannot
    win the trick, he is still obliged to follow suit if he can; but if he has none of the
    suit led, and the second hand has already put on a better trump than any held by third
    hand, the latter must under-trump if he can."  Once the led suit is trumped, a player
    following suit may play any card of it; any card only when none of that is possible."""
    s = to_play(deal(PLAY, 0, "KH"))
    assert s.current_player == 1
    s = run(s, "play JD")
    assert plays(s) == {"QD"}  # follow and win
    s = run(s, "play QD")
    assert plays(s) == {"JD", "9D"}  # follow, cannot win: any card of the suit
    with pytest.raises(binocle.IllegalActionError, match="follow suit"):
        binocle.apply(s, "play AH")
    s = run(s, "play 9D")
    assert s.current_player == 2 and s.tricks == 1
    s = run(s, "play AC")
    assert plays(s) == {"AH", "KH", "QH", "JH", "9H"}  # void: trump, any trump wins
    s = run(s, "play QH")
    assert plays(s) == {"AH"}  # void: overtrump (JH would lose)
    with pytest.raises(binocle.IllegalActionError, match="overtrump"):
        binocle.apply(s, "play JH")
    s = run(s, "play AH")
    assert s.current_player == 1
    s = run(s, "play KS")
    assert plays(s) == {"TH"}
    s = run(s, "play TH")
    assert plays(s) == {"AS", "TS", "9S"}  # the spade lead is trumped: any spade
    s = run(s, "play 9S")
    assert s.current_player == 2
    s = run(s, "play TC", "play KH")
    assert plays(s) == {"JH"}  # cannot overtrump KH: must under-trump
    before = binocle.dumps(s)
    with pytest.raises(binocle.IllegalActionError, match="must trump"):
        binocle.apply(s, "play KS")
    assert binocle.dumps(s) == before  # RULES.md §5: a refused action changes nothing
    s = run(s, "play JH")
    assert s.current_player == 0 and s.trick == ()
    s = run(s, "play 9H")
    assert plays(s) == {"AD", "TD", "KD", "QD", "KS", "QS", "JS"}  # no heart: any card
    s = run(s, "play QS")
    assert plays(s) == {"TH"}  # trump led: beat it if able
    s = run(s, "play TH")
    assert s.current_player == 2 and s.tricks == 5
    assert [len(h) for h in s.hands] == [11, 11, 11]


def test_sixteen_tricks_and_the_last_scores_ten_at_once() -> None:
    """RULES.md §3 "Play" and "Scoring", seed 000: 16 tricks of three cards; "The winner of
    the sixteenth or last trick counts ten points for it at once"; 250 trick points a hand."""
    s = to_play(deal(SPADES, 0, "AS"), "dix", "meld")
    completed = 0
    while s.phase is Phase.PLAY:
        assert len(s.trick) < 3
        before = s
        s = binocle.apply(s, weakest(s))
        if not s.trick:
            completed += 1
    assert completed == 16
    # Seat 1 won the last trick (AS AC KS: 11 + 11 + 4) with 116 card points before it.
    assert before.taken[1] == 116 and before.trick == (
        (1, binocle.parse_card("AS")),
        (2, binocle.parse_card("AC")),
    )
    r = s.results[0]
    assert r.tricks == (98, 116 + 26 + 10, 0) and sum(r.tricks) == 250


# --- scoring -------------------------------------------------------------------------


def test_announcements_score_with_the_first_trick_or_are_rubbed_out() -> None:
    """RULES.md §3 "Scoring", seed 000: "The player must win a trick before he can score
    anything; but the first trick he wins entitles him to score everything he has announced,
    including dix. ... rub them out if the player does not win a trick."  Seat 2 announces
    two marriages (40) and wins no trick: 0.  HandResult.meld holds the dix and melds
    scored, .tricks the card points and the last trick, .delta their sum."""
    s = to_play(deal(SPADES, 0, "AS"), "dix", "meld")
    assert s.announced == (90, 240, 40)
    first: dict[int, int] = {}
    while s.phase is Phase.PLAY:
        s = binocle.apply(s, weakest(s))
        if s.phase is Phase.PLAY and not s.trick:
            w = s.current_player
            if w not in first:
                first[w] = s.tricks
                assert s.meld_scored[w] == s.announced[w] and s.scored[w]
    assert first == {0: 1, 1: 2}
    r = s.results[0]
    assert r.meld == (90, 240, 0)
    assert r.tricks == (98, 152, 0)
    assert r.delta == (188, 392, 0) and s.scores == (188, 392, 0)


def test_a_player_a_dix_short_is_not_out_until_he_wins_a_trick() -> None:
    """Seed 000: "A player with 990 up is not out if he turns up the Nine. He must win a
    trick."  Scaled: target 402, and after a played hand seat 1 has 392 up; dealing the next
    hand he turns up the Nine and shows it (10 announced).  A claim before he has won a trick
    is wrong (he retires); once he wins a trick, it is right."""
    s = play_out(to_play(deal(SPADES, 0, "AS", "three-handed(target=402)"), "dix", "meld"))
    assert s.scores == (188, 392, 0) and s.phase is Phase.DEAL and s.dealer == 1
    s = binocle.apply(s, deal_action(NINE_UP, 1, "9S"))
    s = run(s, "pass", "dix", "dix", "meld", "meld", "pass")  # seat 2, no Nine, passes first
    assert s.announced[1] == 10 and s.phase is Phase.PLAY
    s = run(s, "play AC", "play KS")
    assert s.current_player == 1 and "claim" in texts(s)
    wrong = run(s, "claim")
    assert wrong.retired == 1 and not binocle.is_over(wrong)
    s = run(s, "play AS")
    assert s.current_player == 1 and s.recorded[1] == 10
    won = run(s, "claim")
    assert binocle.is_over(won) and binocle.winner(won) == 1
    assert won.results[-1].outcome == "claimed" and won.scores[1] == 392 + 10 + 26


def test_a_claim_right_after_the_deal_with_only_dix_announced_is_wrong() -> None:
    """RULES.md §3 "Scoring"/"Game": announced dix is not scored until a trick is won, so a
    claim that counts on it fails (target 10: the dix would reach it)."""
    s = to_play(deal(SPADES, 0, "AS", "three-handed(target=10)"), "dix")
    assert s.announced == (10, 10, 0) and s.current_player == 1
    s = run(s, "claim")
    assert s.retired == 1 and s.game_winner is None and not binocle.is_over(s)
    assert s.hands[1] == () and s.current_player == 2


# --- game ----------------------------------------------------------------------------


def test_a_correct_claim_wins_at_once() -> None:
    """RULES.md §3 "Game", seed 000: "The moment any player correctly announces that he has
    reached 1000 points, he wins the game" (target 90 here, no matter the others' scores)."""
    s = to_play(deal(SPADES, 0, "AS", "three-handed(target=90)"), "dix", "meld")
    s = run(s, "play QD", "play 9D", "play KD")
    assert s.current_player == 0 and s.recorded[0] == 90
    s = run(s, "claim")
    assert binocle.is_over(s) and binocle.winner(s) == 0 and s.payers == ()
    assert s.results[-1].outcome == "claimed" and s.scores == (97, 0, 0)
    assert binocle.legal_actions(s) == ()


def test_a_wrong_claim_retires_the_claimant_and_the_two_others_go_on() -> None:
    """RULES.md §3 "Game", seed 000: "If his claim is not correct, he retires, and the two
    remaining players finish alone. If neither wins the game that deal, they play the next
    deal as in ordinary two-handed Binocle, with a stock."  Resolution: his cards are dead,
    tricks have two cards, turn order skips him; his remaining cards are dead (he had won
    no trick here, so he scores nothing)."""
    s = to_play(deal(SPADES, 0, "AS"), "dix", "meld")
    s = run(s, "play QD")
    held = s.hands[2]
    s = run(s, "claim")
    assert s.retired == 2 and s.hands[2] == () and s.dead == held
    assert s.current_player == 0 and s.trick == ((1, binocle.parse_card("QD")),)
    s = run(s, "play KD")  # completes a trick of two
    assert s.trick == () and s.tricks == 1 and s.current_player == 0
    while s.phase is Phase.PLAY:
        assert s.current_player in (0, 1) and len(s.trick) < 2
        s = binocle.apply(s, weakest(s))
        check_state(s)
    r = s.results[-1]
    assert r.outcome == "retired" and r.delta[2] == 0 and r.tricks[2] == 0
    # The dead cards (22 + 20 + 8 + 6 + 4 + 4 = 64 points) are in nobody's tricks.
    assert sum(r.tricks) == 250 - 64
    # Nobody reached 1000: the two others go on with the classic game from their scores.
    assert s.sub is not None and s.pair == (0, 1) and s.phase is Phase.DEAL
    assert s.sub.scores == (s.scores[0], s.scores[1]) and s.dealer == 1
    assert binocle.loads(binocle.dumps(s)) == s
    pone = classic_deck("AS KS QS 9H", "AC AC TC TC KC KC QC QC JC JC 9C 9C", "AH")
    s = binocle.apply(s, Action(Kind.DEAL, cards=tuple(pone)))
    check_state(s)
    assert [len(h) for h in s.hands] == [12, 12, 0] and s.trump is binocle.Suit.HEARTS
    assert s.current_player == 0  # the pone (seat 0) leads
    assert "play AS" in texts(s) and "play 9C" not in texts(s)
    s = run(s, "play AS", "play 9C")
    assert s.phase is Phase.ANNOUNCE and s.current_player == 0
    assert texts(s) == ["pass", "dix", "meld marriage KS QS", "claim"]
    s = run(s, "dix")
    assert s.sub.meld_points == (10, 0) and s.sub.turn_up == binocle.parse_card("9H")
    assert binocle.loads(binocle.dumps(s)) == s
    assert binocle.observe(s, 0).get("two_handed") is not None
    assert "concealed" not in dict(binocle.observe(s, 2).get("two_handed"))
    # ... until one of them wins.
    while not binocle.is_over(s):
        s = binocle.apply(s, next(a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM))
    check_state(s)
    assert binocle.winner(s) in (0, 1) and s.scores[2] == 0
    assert max(s.scores[0], s.scores[1]) >= 1000
    assert binocle.loads(binocle.dumps(s)) == s


def test_a_retired_player_keeps_the_card_points_he_had_won() -> None:
    """Three-handed rules, Claiming (knocking): a wrong claim retires the claimant; his
    remaining cards are dead, but what he scored before retiring stays his: his melds
    (scored with his first trick) and the card points of the tricks he had already won."""
    s = to_play(deal(SPADES, 0, "AS"), "dix", "meld")
    s = run(s, "play QD", "play 9D", "play KD")  # seat 0 wins QD 9D KD: 3 + 0 + 4
    assert s.current_player == 0 and s.taken == (7, 0, 0) and s.recorded == (90, 0, 0)
    s = run(s, "claim")  # 97 up, short of 1000: he retires
    assert s.retired == 0 and s.hands[0] == () and s.taken == (7, 0, 0)
    dead = sum(BINOCLE_POINTS[c] for c in s.dead)
    s = play_out(s)
    r = s.results[-1]
    assert r.outcome == "retired"
    assert r.meld[0] == 90 and r.tricks[0] == 7 and r.delta[0] == 97 and s.scores[0] == 97
    # Every trick point is someone's but for the dead cards.
    assert sum(r.tricks) == 250 - dead


def test_revoke_penalties() -> None:
    """Three-handed rules, Revoke: the player in error loses his entire score for cards for
    the hand; in the two-handed game the last two play after a retirement, the classic
    rule (classic rules, Revoke), with seats named as at the three-handed table."""
    s = to_play(deal(SPADES, 0, "AS"), "dix", "meld")
    assert s.profile.revoke_penalty(s, 2) == (
        "seat 2 loses his entire score for cards (the card points of his tricks; the last"
        " trick's 10 still counts) for hand 1"
        " (three-handed rules, Revoke)"
    )
    s = binocle.new_game("three-handed", seed=4)
    while s.phase is not Phase.PLAY:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    s = run(s, "claim")
    while s.sub is None or s.phase is not Phase.PLAY:
        s = binocle.apply(s, next(a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM))
    a, b = s.pair
    text = s.profile.revoke_penalty(s, b)
    assert text.startswith(f"seat {b} loses his entire score for cards")
    assert f"his adversary, seat {a}, may have the cards taken back" in text
    assert text.endswith("(classic rules, Revoke)")


def classic_deck(pone: str, dealer: str, turn_up: str) -> list[binocle.Card]:
    """A classic (two-handed) deck: the pone's and dealer's 12 cards (completed from the rest
    of the pack), four at a time, pone first; the 25th card turned up; then the stock."""
    p, d = list(binocle.parse_cards(pone)), list(binocle.parse_cards(dealer))
    up = binocle.parse_card(turn_up)
    rest = sorted((Counter(binocle.pack(48)) - Counter([*p, *d, up])).elements())
    while len(p) < 12:
        p.append(rest.pop(0))
    while len(d) < 12:
        d.append(rest.pop())
    return [*p[0:4], *d[0:4], *p[4:8], *d[4:8], *p[8:12], *d[8:12], up, *rest]


def test_a_second_wrong_claim_leaves_the_last_player_the_winner() -> None:
    """RULES.md §3 "Game" with §2 "Claiming": after one player retired, a wrong claim by one
    of the last two retires him too, and the last player left wins.  (Found a bug: the first
    retired player came back into the turn order with no cards.)"""
    s = to_play(deal(SPADES, 0, "AS"))
    s = run(s, "claim")
    assert s.retired == 1 and s.current_player == 2
    s = run(s, "claim")
    assert binocle.is_over(s) and binocle.winner(s) == 0
    assert binocle.legal_actions(s) == ()


def test_own_targets_after_two_players_reach_the_target() -> None:
    """RULES.md §3 "Game", seed 000: "If two players reach 1000 points without either having
    claimed the game, they must both go on to 1250; but if the third player reaches and
    announces 1000 before either of the others reaches 1250, he wins the game."  Scaled:
    target 150, raised by 250 for the two who reached it."""
    s = play_out(to_play(deal(SPADES, 0, "AS", "three-handed(target=150)"), "dix", "meld"))
    assert s.scores == (188, 392, 0) and s.targets == (400, 400, 150)
    assert not binocle.is_over(s) and s.phase is Phase.DEAL
    rotated = {2: SPADES[1], 0: SPADES[2], 1: SPADES[0]}
    s = to_play(binocle.apply(s, deal_action(rotated, 1, "AS")), "dix", "meld")
    assert s.announced == (40, 90, 240) and s.current_player == 2
    s = run(s, "play AS", "play JD")
    # Seat 1 has 392 up, more than 150 but short of his own 400: his claim is wrong.
    wrong = run(s, "claim")
    assert wrong.retired == 1 and wrong.targets == (400, 400, 150)
    s = run(s, "play TS")
    assert s.current_player == 2 and s.recorded[2] == 240
    s = run(s, "claim")
    assert binocle.winner(s) == 2 and s.scores == (188, 392, 263)


def test_one_player_reaching_the_target_at_the_end_of_a_hand_wins() -> None:
    """RULES.md §3 "Game" (and §2 "End of hand"): with no claim, a player alone at or above
    his target when the hand ends wins on its merits."""
    s = play_out(to_play(deal(SPADES, 0, "AS", "three-handed(target=300)"), "dix", "meld"))
    assert binocle.is_over(s) and binocle.winner(s) == 1 and s.targets == (300, 300, 300)


def test_option_lowest_pays() -> None:
    """RULES.md §3 "Game", seed 000: "If it has been agreed that the lowest score pays when
    the first player goes out, the game is ended as soon as one retires": he pays; when a
    player goes out, the lowest score pays."""
    p = "three-handed(lowest_pays=true)"
    s = to_play(deal(SPADES, 0, "AS", p), "dix", "meld")
    s = run(s, "play QD", "play 9D", "play KD")
    assert s.current_player == 0
    s = run(s, "claim")  # 97 up: wrong
    assert binocle.is_over(s) and s.payers == (0,) and binocle.winner(s) is None
    assert s.results[-1].outcome == "retired"
    # Going out by a claim: of the two others, the lowest pays (a tie: both).
    s = to_play(deal(SPADES, 0, "AS", "three-handed(lowest_pays=true,target=90)"), "dix", "meld")
    s = run(s, "play QD", "play 9D", "play KD", "claim")
    assert binocle.winner(s) == 0 and s.payers == (1, 2)
    # Going out on the merits at the end of a hand.
    s = to_play(deal(SPADES, 0, "AS", "three-handed(lowest_pays=true,target=300)"), "dix", "meld")
    s = play_out(s)
    assert binocle.winner(s) == 1 and s.payers == (2,) and s.scores == (188, 392, 0)


def test_lowest_pays_counts_what_a_claim_counts() -> None:
    """Three-handed rules, Game, option ``lowest_pays``: "the lowest score pays" when a
    player goes out is taken by the count a claim uses: score, melds and dix scored this
    hand and the card points taken.  Seat 1 goes out at 247 (target 240) after two tricks:
    seat 0 has 97 by that count and seat 2 nothing, so seat 2 alone pays (before, the
    scores before the hand, all 0, made both pay)."""
    s = to_play(deal(SPADES, 0, "AS", "three-handed(lowest_pays=true,target=240)"), "dix", "meld")
    for _ in range(6):
        s = binocle.apply(s, weakest(s))
    assert s.trick == () and binocle.observe(s, 0).get("claim_totals") == (97, 247, 0)
    s = binocle.apply(s, "claim 1")
    assert binocle.winner(s) == 1 and s.payers == (2,) and s.scores == (97, 247, 0)


def test_lowest_pays_the_payer_of_a_seeded_game() -> None:
    """Three-handed rules, Game, option ``lowest_pays``: the reported game (seed 6, target
    400): scores before the hand (222, 155, 343), pegged this hand (0, 210, 70); seat 2 goes
    out by a claim.  Seat 0 is lowest by every count at the claim: he pays, not seat 1."""
    rng = random.Random(6)
    s = binocle.new_game("three-handed(lowest_pays=true,target=400)", seed=6)
    while not any(
        binocle.observe(s, 0).get("claim_totals")[i] >= 400 for i in binocle.claimants(s)
    ):
        calm = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM]
        s = binocle.apply(s, rng.choice(calm))
    assert s.scores == (222, 155, 343)
    totals = binocle.observe(s, 0).get("claim_totals")
    t = binocle.apply(s, "claim 2")
    assert binocle.winner(t) == 2 and t.payers == (0,)
    assert totals[0] == min(totals[0], totals[1]) and t.scores[0] < t.scores[1]


def test_claim_totals_once_the_game_is_over_are_the_scores() -> None:
    """Three-handed rules, Claiming (knocking): a claim counts the score and what this hand
    added; once the game is over no hand is in progress, so the claim totals of a view are
    the final scores (before, the last hand was counted twice)."""
    s = binocle.apply(spades_at_the_end(300), "pass")
    assert binocle.is_over(s) and s.scores == (188, 392, 0)
    assert binocle.observe(s, 1).get("claim_totals") == s.scores


def spades_at_the_end(target: int) -> Any:
    """The SPADES hand to ``target`` played out by :func:`weakest`, its last trick taken."""
    s = to_play(deal(SPADES, 0, "AS", f"three-handed(target={target})"), "dix", "meld")
    while any(s.hands):
        s = binocle.apply(s, weakest(s))
    return s


# --- views ---------------------------------------------------------------------------


def test_views_hide_the_others_cards() -> None:
    """DESIGN.md ``observe``: two states that differ only in cards hidden from a seat give
    the same view to that seat (before any meld is shown); the other seats see a difference.
    Driven through RULES.md §3's dix turns (all three seats pass) and meld turns (all pass)
    to the first cards played."""
    swapped = dict(SPADES)
    swapped[1] = SPADES[1].replace("AH", "AC")
    swapped[2] = SPADES[2].replace("AC", "AH", 1)
    a, b = deal(SPADES, 0, "AS"), deal(swapped, 0, "AS")
    assert a != b
    dix_turns, meld_turns = ["pass"] * 3, ["pass"] * 3
    for step in (*dix_turns, *meld_turns, "play AS", "play JD"):
        assert binocle.observe(a, 0) == binocle.observe(b, 0)
        assert binocle.observe(a, 1) != binocle.observe(b, 1)
        assert binocle.observe(a, 2) != binocle.observe(b, 2)
        a, b = binocle.apply(a, step), binocle.apply(b, step)
    assert binocle.observe(a, 0) == binocle.observe(b, 0)
    view = binocle.observe(a, 0)
    assert view.hand == a.hands[0] and view.hand_sizes == (16, 15, 15)
    assert view.legal_actions == binocle.legal_actions(a)


# Trump spades, dealer 0, the turn-up AS.  Fifteen fixed cards a seat; each seat's
# sixteenth is one of 9S, 9S, 9C (see :func:`nine_with`).
NINE_FREE = {
    0: "AS TS KS QS JS AH TH KH QH JH AD TD KD QD JD",
    1: "AS TS KS QS JS AH TH KH QH JH AD TD KD QD JD",
    2: "9H 9H 9D 9D AC AC TC TC KC KC QC QC JC JC 9C",
}


def nine_with(seats: tuple[int, int]) -> dict[int, str]:
    """NINE_FREE completed: the two ``seats`` get a Nine of trumps (9S) each, the third 9C."""
    return {i: f"{cards} {'9S' if i in seats else '9C'}" for i, cards in NINE_FREE.items()}


@pytest.mark.parametrize("choice", ["pass", "dix"])
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_dix_turns_do_not_tell_who_holds_a_nine(seat: int, choice: str) -> None:
    """RULES.md §3 "Dix" (seed 000: the holder of the Nine of trumps may show it) with
    DESIGN.md ``observe`` (no hidden card of anyone else): every seat takes a dix turn, in
    order from the dealer's left (d+1, d+2, d), holding a Nine or not (then only ``pass``).
    So two deals that differ only in which of the two other seats holds the second Nine of
    trumps give ``seat`` (who holds the first and shows it or not) equal views throughout
    the dix phase: the same ``current_player`` sequence, the same legal actions at his turn,
    the same public facts; the two holders' own views differ."""
    x, y = (o for o in range(3) if o != seat)
    a, b = deal(nine_with((seat, x)), 0, "AS"), deal(nine_with((seat, y)), 0, "AS")
    assert a != b and a.hands[seat] == b.hands[seat]
    assert binocle.observe(a, x) != binocle.observe(b, x)
    assert binocle.observe(a, y) != binocle.observe(b, y)
    order: list[int | None] = []
    while a.phase is Phase.DIX:
        assert b.phase is Phase.DIX
        assert binocle.observe(a, seat) == binocle.observe(b, seat)
        p = a.current_player
        assert b.current_player == p
        order.append(p)
        if p == seat:
            assert texts(a) == texts(b) == ["pass", "dix"]
            action = choice
        else:
            # The hidden Nine: its holder may show it, the other can only pass.
            holder = {x: a, y: b}[p]
            other = {x: b, y: a}[p]
            assert texts(holder) == ["pass", "dix"] and texts(other) == ["pass"]
            action = "pass"
        a, b = run(a, action), run(b, action)
    assert order == [1, 2, 0]
    assert a.phase is b.phase is Phase.MELD and a.current_player == b.current_player == 1
    assert binocle.observe(a, seat) == binocle.observe(b, seat)
    shown = 10 if choice == "dix" else 0
    assert a.announced[seat] == b.announced[seat] == shown and sum(a.announced) == shown


# --- consistency and perft -------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "three-handed",
        "three-handed(claim_overlooked=true,grand_binocle=true)",
        "three-handed(lowest_pays=true,target=300)",
    ],
)
def test_consistency_checker(spec: str) -> None:
    """RULES.md §5 / DESIGN.md "Quality bar": random playouts keep every invariant."""
    report = check_consistency(spec, games=6, seed=21, max_hands=3, claim_rate=0.03)
    assert report.actions > 200 and report.illegal_tried > 400 and report.hands >= 6


def test_perft_from_the_deal() -> None:
    """Golden counts from ``new_game(seed=1)``: dealer 0, trump hearts, the turn-up QH;
    seats 1 and 2 hold a 9H, the dealer none.  RULES.md §3 "Dix" (seed 000), every seat in
    turn from the dealer's left: depth 1: seat 1 passes or shows (2); depth 2: so does seat
    2 (4); depth 3: the dealer holds no Nine, or only the one he received, which is not
    shown again: he can only pass (4 * 1 = 4).  RULES.md §3 "Melds": depth 4: seat 1's melds
    are ``meld``, ``pass`` and his KD QD marriage (3), or, when he took the turn-up QH for
    his Nine, also a royal marriage KH QH (4): 2 * 3 + 2 * 4 = 14.  Depth 5: after seat 1's
    ``meld`` or ``pass``, seat 2 has 6 (``meld``, ``pass``, marriages KS QS and KC QC,
    binocle QS JD, four Queens); after seat 1's single marriage, only ``pass`` (1), or, with
    both marriages, ``pass`` or the other one (2): 2 * (6 + 6 + 1) + 2 * (6 + 6 + 2 + 2) =
    58."""
    s = binocle.new_game("three-handed", seed=1)
    assert s.dealer == 0 and s.trump is binocle.Suit.HEARTS
    assert s.turn_up == binocle.parse_card("QH")
    assert [perft(s, d) for d in (1, 2, 3, 4, 5)] == [2, 4, 4, 14, 58]


def test_perft_from_the_first_play_position() -> None:
    """Golden counts from the first PLAY position reached by always taking the first legal
    action (``pass`` at each of the three dix turns, RULES.md §3): seat 1 leads any of 14
    distinct cards or claims (15).  Depths 2 and 3 (75, 262) were checked against an
    independent count of the trick obligations, with a claim
    retiring seat 1 (seat 2 then leads to seat 0 in tricks of two) and a second wrong claim
    ending the game (counted once)."""
    s = binocle.new_game("three-handed", seed=1)
    while s.phase is not Phase.PLAY:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    assert s.current_player == 1 and s.announced == (100, 20, 140)
    assert len(set(s.hands[1])) == 14
    assert [perft(s, d) for d in (1, 2, 3)] == [15, 75, 262]


def test_perft_with_announcements_in_the_play() -> None:
    """Golden counts from the first PLAY position of MELDS after every seat passed his dix
    and meld turns (three-handed rules, Melds: announcements until one's first card; option
    ``claim_overlooked``).  Depth 1, by hand: seat 1 leads one of 15 distinct cards, or
    announces ``meld`` (his best, 190), the royal marriage KH QH or the sequence, or claims:
    15 + 3 + 1 = 19.  With the option, only what a player laid down can be claimed as
    overlooked (three-handed rules, Overlooked melds): nothing laid down, nothing offered,
    so depth 2 is the same as without it.  At depth 3 the one difference, worked out here:
    the sequence laid down alone (150) makes 190 with its royal marriage, so after each of
    his 15 leads 40 are offered and seat 2 may only claim them or pass (2 actions instead of
    his own).  With the announcements in the play switched off
    (``meld_until_first_card=false``: 15 cards and the claim at depth 1), the counts differ
    as pinned here."""
    counts = {
        "three-handed(claim_overlooked=true)": [19, 237, 2060],
        "three-handed": [19, 237, 2194],
        "three-handed(meld_until_first_card=false)": [16, 76, 227],
    }
    for spec, expected in counts.items():
        s = run(deal(MELDS, 0, "AH", spec), *["pass"] * 6)
        assert s.phase is Phase.PLAY and s.current_player == 1 and s.announced == (0, 0, 0)
        assert [perft(s, d) for d in (1, 2, 3)] == expected, spec
    plain = run(deal(MELDS, 0, "AH"), *["pass"] * 6, "meld sequence AH TH KH QH JH")
    leads = [a for a in binocle.legal_actions(plain) if a.kind is Kind.PLAY]
    assert len(leads) == 15
    own = sum(len(binocle.legal_actions(binocle.apply(plain, a))) for a in leads)
    assert counts["three-handed"][2] - counts["three-handed(claim_overlooked=true)"][2] == (
        own - 2 * len(leads)
    )


def test_in_play_melds_and_overlooked_claims_in_records_json_and_the_validator() -> None:
    """Three-handed rules, Melds (announcements until the first card; option
    ``claim_overlooked``): the new actions travel through records (their text replays),
    JSON (a state with an offer pending round-trips), views and the validator (a meld after
    one's first card is reported, with the rule)."""
    p = "three-handed(claim_overlooked=true)"
    s = run(deal(MELDS, 0, "AH", p), "pass", "pass", "pass", "meld royal marriage KH QH")
    s = run(s, "pass", "meld four kings KS KH KD KC", "meld four queens QS QH QD QC", "pass")
    s = run(s, "meld", "meld sequence AH TH JH + KH QH", "play AS", "play 9S")
    assert s.offer == binocle.profiles.three_handed.Overlooked(2, 80, (0, 1), 0)
    assert s.current_player == 0 and s.announced == (100, 190, 140)
    back = binocle.loads(binocle.dumps(s))
    assert back == s and back.offer == s.offer
    doc = binocle.record(s)
    texts_recorded = [e["action"] for e in doc["actions"]]
    assert "meld sequence AH TH JH + KH QH" in texts_recorded
    assert binocle.replay(doc) == s
    s = run(s, "pass", "claim overlooked")  # the dealer lets it go, seat 1 claims it
    assert s.announced == (100, 270, 140) and s.current_player == 0
    doc = binocle.record(s)
    assert doc["actions"][-2:] == [
        {"seat": 0, "action": "pass"},
        {"seat": 1, "action": "claim overlooked"},
    ]
    report = binocle.validate(doc)
    assert report.ok and report.states_checked == len(doc["actions"]) + 1
    assert binocle.observe(s, 2).log[-1] == "1: claim overlooked"
    assert binocle.loads(binocle.dumps(s)) == s
    # A meld after one's first card is refused, and the validator says why.
    late = binocle.record(s)
    late["actions"].append({"seat": 2, "action": "meld four kings KS KH KD KC"})
    late["actions"][-1:-1] = [
        {"seat": 0, "action": "play JS"},  # seat 1's Ace wins; he leads
        {"seat": 1, "action": "play TS"},
    ]
    report = binocle.validate(late)
    assert not report.ok and report.index == len(late["actions"]) - 1
    assert report.rule is not None and "has played his first card" in report.rule
