"""Profile ``cutthroat``: three-hand auction Pinochle (RULES.md §4, seed 003).

Scenario tests deal explicit decks built from the three hands and the widow, so
every number asserted below is worked out from the rule text, not read back
from the engine.  The worked example of 003 (Anna, Ben and Carla) is played
card for card.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Card, GameState, IllegalActionError, Kind, Phase, Suit
from helpers import cs, run

# ---------------------------------------------------------------------------
# Helpers


def build_deck(hands: list[str], widow: str, dealer: int) -> list[Card]:
    """The deck order that deals ``hands`` (by seat) and ``widow`` (RULES.md §4 "Deal").

    Packets of three clockwise from the dealer's left, five rounds; the widow
    takes the three cards after the first round (option ``widow_after_round=1``).
    """
    deck = list(binocle.stack_deck("cutthroat", hands, dealer=dealer, widow=widow))
    assert sorted(deck) == sorted(binocle.pack())
    return deck


def cards_played(text: str) -> list[str]:
    """A card-for-card play, written as card texts separated by spaces."""
    return text.split()


def sorted_cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(cs(text)))


# The worked example of seed 003 (RULES.md §4): clubs trump.  Anna, the bidder,
# keeps A♣ 10♣ K♣ Q♣ J♣ Q♠ J♦ A♠ A♥ A♦ (290) among her 15 cards; Ben melds a
# royal marriage and a heart marriage (60); Carla holds only Queens, Jacks and
# Nines and melds a pinochle (40).  Every counter is Anna's or Ben's.
ANNA = "AC TC KC QC JC QS JD AS AS AH AH AD AD KD 9C"
BEN = "KC QC KH QH TS TS KS KS TH TH KH TD TD AC TC"
CARLA = "QS QH QD QD JS JS JH JH JD 9S 9S 9H 9H 9D 9D"
WIDOW = "JC 9C KD"
AUCTION = ("bid 350", "pass", "pass", "discard 9C", "discard 9C", "discard JC", "trump C")
MELDS = ("meld", "meld", "meld")

# Two legal card-for-card plays of that hand (found once by a search, checked here).
# In the first Anna takes 8 counters and the last trick (90), Ben 16 counters
# (160), Carla nothing.  In the second Anna takes only 50.
PLAY_380 = cards_played(
    "KC TC JS AC JD JC QC JH AC QC KC JH QH 9H AH AH TH 9H TC TS 9D JD TD QD TH QH QS "
    "KH JS AS KH 9D AS KS 9S AD TS QS KD KS 9S KD TD QD AD"
)
PLAY_50 = cards_played(
    "KD TD JD KH 9H AH JC KC JS QC QD AC KD TD 9D AC JH TC TC JS KC QH QH AH QC KS 9D "
    "QS TS 9S TH JH AD TH 9H AS KH QS AS TS 9S AD KS QD JD"
)


def anna_deal(
    profile: object = "cutthroat", dealer: int = 2, seats: tuple[int, int, int] = (0, 1, 2)
) -> GameState:
    """The 003 hand dealt with Anna, Ben and Carla at ``seats``."""
    hands = ["", "", ""]
    for seat, hand in zip(seats, (ANNA, BEN, CARLA), strict=True):
        hands[seat] = hand
    return binocle.new_game(profile, deck=build_deck(hands, WIDOW, dealer), dealer=dealer)


def anna_to_play(profile: object = "cutthroat") -> GameState:
    """The 003 hand after the auction and the melds: Anna to lead."""
    return run(anna_deal(profile), *AUCTION, *MELDS)


def play_out(s: GameState, cards: list[str]) -> GameState:
    for card in cards:
        s = binocle.apply(s, "play " + card)
    return s


def is_counter(card: Card) -> bool:
    return card.rank in (binocle.Rank.ACE, binocle.Rank.TEN, binocle.Rank.KING)


def ref_winner(cards: list[Card], trump: Suit) -> int:
    """RULES.md §1: highest trump, else highest of the suit led; identical: first played."""
    order = "ATKQJ9"
    led = cards[0].suit

    def key(i: int) -> tuple[int, int, int]:
        x = cards[i]
        tier = 2 if x.suit == trump else (1 if x.suit == led else 0)
        return (tier, -order.index(str(x)[0]), -i)

    return max(range(len(cards)), key=key)


# ---------------------------------------------------------------------------
# Deal (RULES.md §4 "Deal")


def expected_layout(
    deck: list[Card], dealer: int, widow_round: int
) -> tuple[list[list[Card]], list[Card]]:
    hands: list[list[Card]] = [[], [], []]
    pos = 0
    widow: list[Card] = []
    for rnd in range(5):
        if rnd == widow_round:
            widow, pos = deck[pos : pos + 3], pos + 3
        for k in (1, 2, 3):
            hands[(dealer + k) % 3] += deck[pos : pos + 3]
            pos += 3
    return hands, widow


@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize("widow_round", [0, 1, 4])
def test_deal_in_packets_of_three_with_a_widow(dealer: int, widow_round: int) -> None:
    """RULES.md §4 "Deal": 15 cards each, three at a time clockwise from the dealer's left;
    3 widow cards after the chosen round of packets, never the last card; eldest speaks first."""
    deck = list(binocle.pack())
    random.Random(dealer * 10 + widow_round).shuffle(deck)
    p = binocle.profile("cutthroat", widow_after_round=widow_round)
    s = binocle.new_game(p, deck=deck, dealer=dealer)
    hands, widow = expected_layout(deck, dealer, widow_round)
    assert [len(h) for h in s.hands] == [15, 15, 15]
    assert s.hands == tuple(tuple(sorted(h)) for h in hands)
    assert tuple(sorted(s.widow)) == tuple(sorted(widow))
    assert deck[-1] in s.hands[dealer]  # the dealer's last packet ends the pack
    assert s.dealer == dealer
    assert s.current_player == (dealer + 1) % 3  # the eldest hand speaks first
    assert s.phase is Phase.BIDDING and s.trump is None


def test_default_widow_takes_the_cards_after_the_first_round() -> None:
    """RULES.md §4 Resolution: by default the widow is deck[9:12], after the first round."""
    deck = list(binocle.pack())
    random.Random(3).shuffle(deck)
    s = binocle.new_game("cutthroat", deck=deck, dealer=1)
    assert sorted(s.widow) == sorted(deck[9:12])
    # seat 2 (the dealer's left) got the first packet and the first after the widow
    assert not Counter(deck[0:3] + deck[12:15]) - Counter(s.hands[2])
    with pytest.raises(binocle.UnknownProfileError, match="widow_after_round"):
        binocle.profile("cutthroat", widow_after_round=5)


@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2))
@settings(max_examples=25, deadline=None)
def test_seeded_deal_accounts_for_every_card(seed: int, dealer: int) -> None:
    """RULES.md §1 "Dealing", §4 "Deal": a seeded deal gives 15 + 15 + 15 + widow 3 = the pack."""
    s = binocle.new_game("cutthroat", seed=seed, dealer=dealer)
    cards = [x for h in s.hands for x in h] + list(s.widow)
    assert sorted(cards) == sorted(binocle.pack())
    assert [len(h) for h in s.hands] == [15, 15, 15] and len(s.widow) == 3
    assert s.current_player == (dealer + 1) % 3
    assert binocle.new_game("cutthroat", seed=seed, dealer=dealer) == s  # reproducible


# ---------------------------------------------------------------------------
# Bidding (RULES.md §4 "Bidding")


def bids(s: GameState) -> list[int]:
    return [a.number or 0 for a in binocle.legal_actions(s) if a.kind is Kind.BID]


def test_lowest_bid_is_250_in_steps_of_ten() -> None:
    """RULES.md §4: the lowest bid is 250, in steps of 10; below or off the step is refused."""
    s = binocle.new_game("cutthroat", seed=1)
    legal = binocle.legal_actions(s)
    assert str(legal[0]) == "pass"
    assert bids(s) == list(range(250, 3001, 10))
    with pytest.raises(IllegalActionError, match="lowest bid is 250"):
        binocle.apply(s, "bid 240")
    with pytest.raises(IllegalActionError, match="steps of 10"):
        binocle.apply(s, "bid 255")
    assert binocle.apply(s, "bid 250").bid == 250


def test_each_bid_must_be_higher_than_the_last() -> None:
    """RULES.md §4: every bid must be higher than the last one."""
    s = run(binocle.new_game("cutthroat", seed=1, dealer=0), "bid 300")
    assert s.current_player == 2
    assert bids(s)[0] == 310
    for bad in ("bid 300", "bid 290", "bid 250"):
        with pytest.raises(IllegalActionError, match="higher than the last bid, 300"):
            binocle.apply(s, bad)
    with pytest.raises(IllegalActionError, match="steps of 10"):
        binocle.apply(s, "bid 305")
    assert run(s, "bid 310").bid == 310


def test_a_pass_is_final_and_two_passes_end_the_bidding() -> None:
    """RULES.md §4: a pass is final; the bidding ends when two players have passed."""
    s = binocle.new_game("cutthroat", seed=2, dealer=0)  # eldest is seat 1
    s = run(s, "bid 250", "pass")  # seat 1 bids, seat 2 passes
    assert s.current_player == 0
    s = run(s, "bid 260")
    assert s.current_player == 1  # seat 2 has passed and is skipped
    s = run(s, "bid 270")
    assert s.current_player == 0
    s = run(s, "pass")
    assert s.phase is Phase.DISCARD
    assert (s.bidder, s.bid, s.current_player) == (1, 270, 1)
    assert s.calls == ((1, 250), (2, 0), (0, 260), (1, 270), (0, 0))


def test_first_two_pass_third_takes_at_250_or_passes() -> None:
    """RULES.md §4: if the first two pass, the third may take the hand at 250 or pass."""
    s = run(binocle.new_game("cutthroat", seed=3, dealer=1), "pass", "pass")
    assert s.current_player == 1  # the dealer speaks last
    assert [str(a) for a in binocle.legal_actions(s)] == ["pass", "bid 250"]
    with pytest.raises(IllegalActionError, match="only at 250"):
        binocle.apply(s, "bid 260")
    taken = run(s, "bid 250")
    assert (taken.phase, taken.bidder, taken.bid, taken.current_player) == (
        Phase.DISCARD,
        1,
        250,
        1,
    )


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_all_pass_throws_the_hand_in(dealer: int) -> None:
    """RULES.md §4: if all three pass the hand is thrown in and the next dealer deals."""
    s = run(binocle.new_game("cutthroat", seed=4, dealer=dealer), "pass", "pass", "pass")
    assert s.phase is Phase.DEAL and s.current_player is None
    r = s.results[-1]
    assert r.outcome == "thrown-in"
    assert (r.meld, r.tricks, r.delta) == ((0, 0, 0), (0, 0, 0), (0, 0, 0))
    assert (r.bidder, r.bid, r.made) == (None, None, None)
    assert s.scores == (0, 0, 0)
    assert s.dealer == (dealer + 1) % 3
    (deal,) = binocle.legal_actions(s)
    assert deal.kind is Kind.DEAL
    nxt = binocle.apply(s, deal)
    assert nxt.hand_number == 2 and nxt.dealer == (dealer + 1) % 3
    assert nxt.current_player == (dealer + 2) % 3
    assert nxt.hands != binocle.new_game("cutthroat", seed=4, dealer=dealer).hands


def test_bid_ceiling_keeps_the_actions_finite() -> None:
    """RULES.md §4 Resolution: bids are bounded by the profile's ceiling (max_bid)."""
    p = binocle.profile("cutthroat", max_bid=300)
    s = binocle.new_game(p, seed=5)
    assert bids(s) == [250, 260, 270, 280, 290, 300]
    with pytest.raises(IllegalActionError, match="ceiling 300"):
        binocle.apply(s, "bid 310")
    s = run(s, "bid 300")
    assert [str(a) for a in binocle.legal_actions(s)] == ["pass"]
    assert binocle.profile("cutthroat").max_bid == 3000


@pytest.mark.parametrize("minimum", [100, 200, 300])
def test_minimum_bid_option(minimum: int) -> None:
    """RULES.md §4 Options: minimum bid of 100, 200 or 300 instead of 250."""
    p = binocle.profile(f"cutthroat(min_bid={minimum})")
    s = binocle.new_game(p, seed=6)
    assert bids(s)[0] == minimum
    with pytest.raises(IllegalActionError, match=f"lowest bid is {minimum}"):
        binocle.apply(s, f"bid {minimum - 10}")
    s = run(s, "pass", "pass")
    assert [str(a) for a in binocle.legal_actions(s)] == ["pass", f"bid {minimum}"]


# Bunched hands: seat 1 (the eldest when seat 0 deals) holds five Nines and no meld but dix.
BUNCHED = "9S 9S 9H 9H 9D AS TS JS AH TH JH AD TD JC QD"


def bunched_deal(hand: str, profile: object = "cutthroat(bunched_hands=true)") -> GameState:
    rest = list(binocle.pack())
    for x in cs(hand):
        rest.remove(x)
    hands = [" ".join(map(str, rest[15:30])), hand, " ".join(map(str, rest[:15]))]
    return binocle.new_game(
        profile, deck=build_deck(hands, " ".join(map(str, rest[30:33])), 0), dealer=0
    )


def test_bunched_hand_is_redealt_by_the_same_dealer() -> None:
    """RULES.md §4 Options: five or more Nines, no meld but dix, before having bid → the hand
    is thrown in and redealt by the same dealer."""
    s = bunched_deal(BUNCHED)
    assert s.current_player == 1
    assert str(binocle.legal_actions(s)[-1]) == "bunch"
    after = binocle.apply(s, "bunch")
    assert after.phase is Phase.DEAL and after.dealer == 0
    assert after.results[-1].outcome == "redeal" and after.scores == (0, 0, 0)
    nxt = binocle.apply(after, binocle.legal_actions(after)[0])
    assert nxt.dealer == 0 and nxt.current_player == 1 and nxt.hand_number == 2


def test_bunched_hands_only_with_the_option_and_the_right_hand() -> None:
    """RULES.md §4 Options: bunching needs the option, five Nines, no other meld, no bid yet."""
    plain = bunched_deal(BUNCHED, "cutthroat")
    assert "bunch" not in [str(a) for a in binocle.legal_actions(plain)]
    with pytest.raises(IllegalActionError, match="bunched_hands is off"):
        binocle.apply(plain, "bunch")
    # A marriage (K♦ Q♦) besides the Nines: no bunch.
    married = bunched_deal(BUNCHED.replace("TD", "KD"))
    assert "bunch" not in [str(a) for a in binocle.legal_actions(married)]
    with pytest.raises(IllegalActionError, match="five or more Nines"):
        binocle.apply(married, "bunch")
    # Only four Nines: no bunch.
    four = bunched_deal(BUNCHED.replace("9D", "QH"))
    assert "bunch" not in [str(a) for a in binocle.legal_actions(four)]
    # Having bid, the player may no longer bunch.
    s = run(bunched_deal(BUNCHED), "bid 250", "bid 260", "pass")
    assert s.current_player == 1
    assert "bunch" not in [str(a) for a in binocle.legal_actions(s)]
    with pytest.raises(IllegalActionError, match="must not have bid"):
        binocle.apply(s, "bunch")


# ---------------------------------------------------------------------------
# Widow and trump (RULES.md §4 "Widow and trump")


def test_widow_is_hidden_during_the_bidding_and_shown_to_all_after() -> None:
    """RULES.md §4: the bidder shows the widow to all once the bidding is over."""
    s = anna_deal()
    widow = sorted_cards(WIDOW)
    for partial in ((), ("bid 350",), ("bid 350", "pass")):
        t = run(s, *partial)
        assert all(binocle.observe(t, seat).get("widow") is None for seat in range(3))
    s = run(s, "bid 350", "pass", "pass")
    for t in (s, run(s, *AUCTION[3:6]), run(s, *AUCTION[3:]), run(s, *AUCTION[3:], *MELDS)):
        for seat in range(3):
            assert tuple(sorted(binocle.observe(t, seat).get("widow"))) == widow


def test_bidder_takes_the_widow_and_discards_three_single_cards() -> None:
    """RULES.md §4: the bidder takes the widow (18 cards) and discards 3, one card at a time."""
    s = run(anna_deal(), "bid 350", "pass", "pass")
    assert s.phase is Phase.DISCARD and s.current_player == 0
    assert s.hands[0] == tuple(sorted(cs(ANNA) + cs(WIDOW)))
    assert [str(a) for a in binocle.legal_actions(s)] == [
        f"discard {x}" for x in dict.fromkeys(s.hands[0])
    ]
    with pytest.raises(IllegalActionError, match="does not hold it") as info:
        binocle.apply(s, "discard QH")
    assert "seat 0" in str(info.value)
    s = run(s, "discard 9C", "discard 9C")
    with pytest.raises(IllegalActionError, match="discard 9C: seat 0 does not hold it"):
        binocle.apply(s, "discard 9C")  # both Nines of clubs are gone
    s = run(s, "discard JC")
    assert s.phase is Phase.TRUMP and len(s.hands[0]) == 15
    assert s.discards == cs("9C 9C JC")
    assert [str(a) for a in binocle.legal_actions(s)] == [
        "trump S",
        "trump H",
        "trump D",
        "trump C",
    ]
    s = run(s, "trump C")
    assert s.trump is Suit.CLUBS and s.phase is Phase.MELD and s.current_player == 0


def test_discards_are_hidden_from_the_others() -> None:
    """RULES.md §4: the discards go face down: only the bidder sees them."""
    s = run(anna_deal(), *AUCTION)
    assert binocle.observe(s, 0).get("discards") == cs("9C 9C JC")
    for seat in (1, 2):
        view = binocle.observe(s, seat)
        assert view.get("discards") is None
        assert view.get("discard_count") == 3
        assert not any("9C" in line or "JC" in line for line in view.log if "discard" in line)
        assert view.hand_sizes == (15, 15, 15)


def test_discards_cannot_be_melded() -> None:
    """RULES.md §4: discarded cards can't be melded (Q♠ discarded: no pinochle, 290 - 40)."""
    s = run(anna_deal(), "bid 350", "pass", "pass", "discard QS", "discard 9C", "discard 9C")
    s = run(s, "trump C", "meld")
    assert s.melds[0] is not None
    assert s.melds[0].total == 250
    assert "pinochle" not in [m.name for m in s.melds[0].melds]


# ---------------------------------------------------------------------------
# Melds (RULES.md §4 "Melds")


@pytest.mark.parametrize(
    ("cards", "trump", "total"),
    [
        ("AC TC KC QC JC QS JD AS AH AD", "C", 290),  # 003: Anna's meld
        ("AC TC KC QC JC KC", "C", 190),  # run plus extra King
        ("AC TC KC QC JC QC", "C", 190),  # run plus extra Queen
        ("AC TC KC QC JC KC QC", "C", 190),  # Resolution: one royal marriage only
        ("AC AC TC TC KC KC QC QC JC JC", "C", 1500),  # double run, nothing added
        ("AC TC KC QC JC", "C", 150),
        ("KC QC", "C", 40),  # royal marriage
        ("KC QC KC QC", "C", 80),
        ("KH QH", "C", 20),  # marriage
        ("KH QH KH QH", "C", 40),  # two marriages of one suit score twice
        ("KH QH KD QD KS QS", "C", 60),  # three marriages
        ("9C", "C", 10),  # dix
        ("9C 9C", "C", 20),
        ("9H", "C", 0),  # a plain Nine is nothing
        ("QS JD", "H", 40),  # pinochle
        ("QS QS JD JD", "H", 300),  # double pinochle
        ("QS QS JD", "H", 40),
        ("AS AH AD AC", "H", 100),
        ("AS AH AD AC AS AH AD AC", "H", 1000),
        ("KS KH KD KC", "H", 80),
        ("KS KH KD KC KS KH KD KC", "H", 800),
        ("QS QH QD QC", "H", 60),
        ("QS QH QD QC QS QH QD QC", "H", 600),
        ("JS JH JD JC", "H", 40),
        ("JS JH JD JC JS JH JD JC", "H", 400),
        ("KS QS JD", "H", 20 + 40),  # Q♠ in a spade marriage and in pinochle
        ("KS QS JD", "S", 40 + 40),  # ... a royal marriage when spades are trump
        ("KS KH KD KC QH", "S", 80 + 20),  # K♥ in Kings around and a heart marriage
        ("AS TS KS QS JS 9S", "S", 160),  # run and dix
        ("AH TH KH QH JH", "S", 20),  # a run in a plain suit is only a marriage
        ("AS AH AD AC AS", "C", 100),  # a single extra Ace adds nothing
        ("AC AC TC TC KC KC QC QC JC JC 9C 9C", "C", 1520),  # double run and two dix
        ("AC TC KC QC JC 9C KC", "C", 200),  # run, extra King, dix
        ("KC QC 9C", "C", 50),
        ("QS QS JD JD KS KS", "S", 80 + 300),  # two royal marriages, double pinochle
        # one of every A K Q J, spades trump: royal marriage, three marriages, pinochle and
        # four arounds — every King and Queen serves in two groups, Q♠ in three
        ("AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC", "S", 40 + 60 + 40 + 280),
        ("", "S", 0),
    ],
)
def test_meld_table(cards: str, trump: str, total: int) -> None:
    """RULES.md §4 "Melds" table, the examples of 003 and the run Resolution."""
    assert binocle.meld(cards, trump, "cutthroat").total == total
    assert (
        binocle.meld(cs(cards), binocle.parse_suit(trump), binocle.profile("cutthroat")).total
        == total
    )


def test_meld_breakdown_of_annas_hand() -> None:
    """RULES.md §4 worked example: run 150, pinochle 40, Aces around 100 — A♣ counts twice."""
    r = binocle.meld("AC TC KC QC JC QS JD AS AH AD", "C")
    assert r.total == 290
    named = {m.name: (m.value, sorted(map(str, m.cards))) for m in r.melds}
    assert named["run"] == (150, sorted(["AC", "TC", "KC", "QC", "JC"]))
    assert named["pinochle"] == (40, ["JD", "QS"])
    assert named["aces around"] == (100, sorted(["AS", "AH", "AD", "AC"]))
    assert sum(m.value for m in r.melds) == r.total


def test_meld_refuses_impossible_hands() -> None:
    """DESIGN.md "Errors": three copies of a card or a card not in the pack is bad input."""
    with pytest.raises(binocle.InvalidNotationError, match="appears 3 times"):
        binocle.meld("AS AS AS", "S")
    with pytest.raises(binocle.InvalidNotationError, match="not in the 48-card pack"):
        binocle.meld("8S", "S")
    with pytest.raises(binocle.InvalidNotationError, match="not a suit"):
        binocle.meld("AS", "X")
    with pytest.raises(binocle.UnknownProfileError):
        binocle.meld("AS", "S", "nope")


def test_meld_of_card_tuples_checks_like_text() -> None:
    """DESIGN.md "Errors": a tuple of cards (the fast path of binocle.meld) is checked as
    text is: a third copy, an Eight or Seven of the 64-card pack, or a plain int is refused."""
    spades = binocle.Suit.SPADES
    with pytest.raises(binocle.InvalidNotationError, match="AS appears 3 times"):
        binocle.meld(cs("KS AS QS AS AS"), spades)
    with pytest.raises(binocle.InvalidNotationError, match="7S is not in the 48-card pack"):
        binocle.meld(cs("AS 7S 7S"), spades)
    with pytest.raises(binocle.InvalidNotationError, match="not int"):
        binocle.meld((*cs("AS KS"), 3), spades)
    # Unsorted, and read from an int-valued trump: the same result as the sorted text.
    r = binocle.meld(cs("QS JD KS AS JS TS QS"), binocle.parse_suit("S"))
    assert r == binocle.meld("AS TS KS QS QS JS JD", "S")
    assert (r.total, [m.name for m in r.melds]) == (
        150 + 40 + 40,
        ["run", "royal marriage", "pinochle"],
    )


def test_hands_with_the_same_melds_share_one_result() -> None:
    """Results are frozen values: two hands scoring the same melds get equal results."""
    a = binocle.meld("KH QH 9S", "S")
    b = binocle.meld("KH QH 9S AC", "S")
    assert a == b and a.total == 30 and [m.name for m in a.melds] == ["marriage", "dix"]


def test_melds_in_order_bidder_first_and_public() -> None:
    """RULES.md §4: the bidder melds first, then the others in turn; melds lie on the table."""
    s = run(anna_deal(), *AUCTION)
    order = []
    while s.phase is Phase.MELD:
        order.append(s.current_player)
        s = run(s, "meld")
        mover = order[-1]
        assert mover is not None
        for seat in range(3):
            shown = binocle.observe(s, seat).get("melds")
            assert shown[mover] is not None and shown[mover] == s.melds[mover]
    assert order == [0, 1, 2]
    assert [m.total for m in s.melds if m is not None] == [290, 60, 40]
    assert s.phase is Phase.PLAY and s.current_player == 0  # the bidder leads
    assert binocle.observe(s, 2).get("melds")[1].total == 60


def test_melds_in_turn_from_another_bidder() -> None:
    """RULES.md §4: with seat 2 the bidder, melds go 2, 0, 1 and seat 2 leads."""
    s = anna_deal(dealer=1, seats=(1, 0, 2))  # eldest is seat 2; Anna's hand at seat 1
    s = run(s, "pass", "pass", "bid 250", "discard 9C", "discard 9C", "discard JC", "trump C")
    assert s.bidder == 1
    order = []
    while s.phase is Phase.MELD:
        order.append(s.current_player)
        s = run(s, "meld")
    assert order == [1, 2, 0]
    assert s.current_player == 1


# ---------------------------------------------------------------------------
# Giving up (RULES.md §4 "Giving up")


def test_giving_up_costs_the_bid_and_others_score_their_meld() -> None:
    """RULES.md §4: conceding subtracts the bid (single set); each other player scores his
    meld — 003: giving up would have cost Anna 350."""
    s = anna_to_play()
    assert "concede" in [str(a) for a in binocle.legal_actions(s)]
    done = binocle.apply(s, "concede")
    r = done.results[-1]
    assert r.outcome == "conceded" and r.made is False
    assert (r.bidder, r.bid) == (0, 350)
    assert r.delta == (-350, 60, 40)
    assert done.scores == (-350, 60, 40)
    assert done.phase is Phase.DEAL and done.dealer == 0


def test_giving_up_even_with_double_set_option_off() -> None:
    """RULES.md §4: giving up is a single set whatever the set option."""
    done = binocle.apply(anna_to_play("cutthroat(single_set=true)"), "concede")
    assert done.scores == (-350, 60, 40)


def test_only_the_bidder_gives_up_and_only_before_the_first_lead() -> None:
    """RULES.md §4: only the bidder, after the melds, before the first lead."""
    s = run(anna_deal(), *AUCTION)
    with pytest.raises(IllegalActionError):
        binocle.apply(s, "concede")  # melds first
    s = run(s, *MELDS, "play KC")
    assert "concede" not in [str(a) for a in binocle.legal_actions(s)]
    with pytest.raises(IllegalActionError, match=r"only the bidder \(seat 0\)"):
        binocle.apply(s, "concede")
    # Later, when the bidder leads again, it is too late.
    t = anna_to_play()
    for i, card in enumerate(PLAY_380):
        t = binocle.apply(t, "play " + card)
        if i >= 2 and not t.trick and t.current_player == 0:
            break
    assert t.current_player == 0 and t.trick == ()
    assert "concede" not in [str(a) for a in binocle.legal_actions(t)]
    with pytest.raises(IllegalActionError, match="before the first lead"):
        binocle.apply(t, "concede")


# ---------------------------------------------------------------------------
# Scoring a hand (RULES.md §4 worked example)


def test_worked_example_380_220_0() -> None:
    """RULES.md §4 worked example: Anna bid 350, meld 290, 8 counters and the last trick →
    +380; Ben meld 60, 16 counters → +220; Carla meld 40, no counter → 0."""
    s = anna_to_play()
    won = Counter[int]()
    last = -1
    t = s
    for card in PLAY_380:
        before = t
        t = binocle.apply(t, "play " + card)
        if len(before.trick) == 2:
            seats = [p for p, _ in before.trick] + [before.current_player]
            cards = [x for _, x in before.trick] + [binocle.parse_card(card)]
            last = seats[ref_winner(cards, Suit.CLUBS)]
            won[last] += sum(is_counter(x) for x in cards)
    assert (won[0], won[1], won[2], last) == (8, 16, 0, 0)
    r = t.results[-1]
    assert r.outcome == "played"
    assert (r.bidder, r.bid, r.made) == (0, 350, True)
    assert r.meld == (290, 60, 0)  # Carla loses her 40: she won no counter
    assert r.tricks == (90, 160, 0)
    assert sum(r.tricks) == 250
    assert r.delta == (380, 220, 0)
    assert t.scores == (380, 220, 0)
    assert t.phase is Phase.DEAL and t.dealer == 0 and t.current_player is None


def test_worked_example_double_set_700() -> None:
    """RULES.md §4: had Anna taken only 50 in tricks (340 < 350) she would have lost 700."""
    t = play_out(anna_to_play(), PLAY_50)
    r = t.results[-1]
    assert r.tricks[0] == 50 and sum(r.tricks) == 250
    assert r.made is False
    assert r.delta[0] == -700
    assert r.meld[0] == 0  # the set bidder scores nothing
    assert r.tricks == (50, 200, 0) and r.delta == (-700, 60 + 200, 0)
    assert t.scores == (-700, 260, 0)  # scores may go below zero


def test_single_set_option() -> None:
    """RULES.md §4 Options: single set only — the bidder loses the bid once, even after play."""
    t = play_out(anna_to_play("cutthroat(single_set=true)"), PLAY_50)
    assert t.results[-1].delta == (-350, 260, 0)
    made = play_out(anna_to_play("cutthroat(single_set=true)"), PLAY_380)
    assert made.results[-1].delta == (380, 220, 0)


def test_bidder_counts_counters_among_the_discards() -> None:
    """RULES.md §4: counters among the discards count for the bidder (K♦ discarded = 10)."""
    s = run(anna_deal(), "bid 350", "pass", "pass", "discard 9C", "discard 9C", "discard KD")
    s = run(s, "trump C", *MELDS)
    assert s.melds[0] is not None and s.melds[0].total == 290
    t = s
    taken = Counter[int]()
    last = -1
    while t.phase is Phase.PLAY:
        before = t
        a = next(x for x in binocle.legal_actions(t) if x.kind is Kind.PLAY)
        t = binocle.apply(t, a)
        if len(before.trick) == 2:
            seats = [p for p, _ in before.trick] + [before.current_player]
            cards = [x for _, x in before.trick] + [a.card]
            last = seats[ref_winner(cards, Suit.CLUBS)]  # type: ignore[arg-type]
            taken[last] += 10 * sum(is_counter(x) for x in cards)  # type: ignore[arg-type]
    r = t.results[-1]
    assert r.tricks[0] == taken[0] + 10 * (last == 0) + 10
    assert sum(r.tricks) == 250


def ref_hand_result(
    profile: binocle.Profile,
    at_play: GameState,
    plays: list[Card],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]:
    """RULES.md §4 "Scoring a hand" worked out from first principles: (meld, tricks, delta, made)."""
    trump = at_play.trump
    bidder, bid = at_play.bidder, at_play.bid
    assert trump is not None and bidder is not None and bid is not None
    declared = [binocle.meld(at_play.hands[i], trump).total for i in range(3)]
    counters = [0, 0, 0]
    leader = bidder
    last = -1
    for k in range(15):
        cards = plays[3 * k : 3 * k + 3]
        seats = [(leader + j) % 3 for j in range(3)]
        w = seats[ref_winner(cards, trump)]
        counters[w] += sum(is_counter(x) for x in cards)
        leader = last = w
    tricks = [10 * counters[i] + (10 if i == last else 0) for i in range(3)]
    tricks[bidder] += 10 * sum(is_counter(x) for x in at_play.discards)
    meld = [0, 0, 0]
    delta = [0, 0, 0]
    made = declared[bidder] + tricks[bidder] >= bid
    for i in range(3):
        if i == bidder:
            meld[i] = declared[i] if made else 0
            delta[i] = declared[i] + tricks[i] if made else -bid * (1 if profile.single_set else 2)  # type: ignore[attr-defined]
        else:
            meld[i] = declared[i] if counters[i] > 0 else 0
            delta[i] = meld[i] + tricks[i]
    return tuple(meld), tuple(tricks), tuple(delta), made


@given(
    seed=st.integers(0, 10**9),
    bid=st.sampled_from([250, 300, 350, 400, 500]),
    single=st.booleans(),
)
@settings(max_examples=30, deadline=None)
def test_scoring_from_first_principles(seed: int, bid: int, single: bool) -> None:
    """RULES.md §4 "Scoring a hand": bidder made ⇔ meld + tricks ≥ bid, else (double) set;
    others score meld only with a counter won; 250 trick points per hand incl. the discards
    and the last trick; scores are the sum of the deltas."""
    rng = random.Random(seed)
    profile = binocle.profile("cutthroat", single_set=single)
    s = binocle.new_game(profile, seed=seed, dealer=seed % 3)
    s = run(s, f"bid {bid}", "pass", "pass")
    for _ in range(3):
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
    s = run(s, f"trump {rng.choice('SHDC')}", *MELDS)
    at_play = s
    played: list[Card] = []
    while s.phase is Phase.PLAY:
        options = [a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY]
        a = rng.choice(options)
        assert a.card is not None
        played.append(a.card)
        s = binocle.apply(s, a)
    r = s.results[-1]
    meld, tricks, delta, made = ref_hand_result(profile, at_play, played)
    assert (r.meld, r.tricks, r.delta, r.made) == (meld, tricks, delta, made)
    assert sum(r.tricks) == 250
    assert s.scores == r.delta
    assert (r.bidder, r.bid, r.outcome) == (at_play.bidder, bid, "played")


# ---------------------------------------------------------------------------
# Winning (RULES.md §4 "Winning")


def test_first_to_1500_wins_at_the_end_of_the_hand() -> None:
    """RULES.md §4: the first player to reach 1500 at the end of a hand wins (double run)."""
    rich = "AC AC TC TC KC KC QC QC JC JC AS AH 9S 9H 9D"
    rest = list(binocle.pack())
    for x in cs(rich):
        rest.remove(x)
    hands = [rich, " ".join(map(str, rest[:15])), " ".join(map(str, rest[15:30]))]
    s = binocle.new_game(
        "cutthroat", deck=build_deck(hands, " ".join(map(str, rest[30:33])), 2), dealer=2
    )
    s = run(s, "bid 250", "pass", "pass")
    s = run(s, *[f"discard {x}" for x in s.widow], "trump C", *MELDS)
    assert s.melds[0] is not None and s.melds[0].total >= 1500
    while s.phase is Phase.PLAY:
        assert binocle.winner(s) is None and not binocle.is_over(s)  # never mid-hand
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    assert binocle.is_over(s) and binocle.winner(s) == 0
    assert s.scores[0] >= 1500
    assert s.current_player is None and binocle.legal_actions(s) == ()
    with pytest.raises(IllegalActionError, match="game is over"):
        binocle.apply(s, "pass")


def test_the_game_goes_on_below_the_target() -> None:
    """RULES.md §4: 380 is short of 1500: the next hand is dealt."""
    t = play_out(anna_to_play(), PLAY_380)
    assert not binocle.is_over(t) and binocle.winner(t) is None
    assert len(binocle.legal_actions(t)) == 1


def test_several_reach_the_target_the_bidder_wins() -> None:
    """RULES.md §4: if more than one reach the target in the same hand, the bidder wins."""
    t = play_out(anna_to_play("cutthroat(target=200)"), PLAY_380)
    assert t.scores == (380, 220, 0)
    assert binocle.is_over(t) and binocle.winner(t) == 0


# The same hand with Anna's cards at seat 1 (the bidder), Ben's at seat 0 and
# Carla's at seat 2: Ben, now after Anna, takes 16 counters and the last trick
# (170), Anna 8 counters (80).
PLAY_MIRROR = cards_played(
    "KD QD TD AC AC JH TC JC 9S QC TC 9D AH 9H QH QC JD KC TH AH JH KC 9H KS QS QS KS "
    "TH AD QH TS AS JS KD QD TD KH JD 9S KH AS JS TS AD 9D"
)


def test_bidder_among_them_wins_over_a_higher_score() -> None:
    """RULES.md §4: if several reach the target in the same hand the bidder wins when he is
    among them, even below another player's score."""
    p = binocle.profile("cutthroat", target=590)
    t = play_out(anna_to_play(p), PLAY_380)
    assert t.scores == (380, 220, 0) and not binocle.is_over(t)
    assert t.dealer == 0
    deck = build_deck([BEN, ANNA, CARLA], WIDOW, 0)
    t = binocle.apply(t, "deal " + " ".join(map(str, deck)))
    t = run(t, *AUCTION, *MELDS)  # seat 1 bids 350 with Anna's cards
    assert t.bidder == 1 and [m.total for m in t.melds if m] == [60, 290, 40]
    t = play_out(t, PLAY_MIRROR)
    r = t.results[-1]
    assert r.tricks == (170, 80, 0) and r.made is True
    assert r.delta == (60 + 170, 290 + 80, 0)
    assert t.scores == (610, 590, 0)  # both reached 590; Ben's seat is higher
    assert binocle.is_over(t) and binocle.winner(t) == 1


def test_bidder_is_not_among_them_the_higher_score_wins() -> None:
    """RULES.md §4: several reach the target, the bidder not among them: the higher wins."""
    t = binocle.apply(anna_to_play("cutthroat(target=40)"), "concede")
    assert t.scores == (-350, 60, 40)
    assert binocle.is_over(t) and binocle.winner(t) == 1
    t = binocle.apply(anna_to_play("cutthroat(target=50)"), "concede")
    assert binocle.winner(t) == 1  # only Ben reached it


def test_tie_between_non_bidders_decides_nothing() -> None:
    """RULES.md §4 Resolution: an exact tie between two non-bidders: another hand is played."""
    ben = BEN.replace("QH", "9H")  # Ben: royal marriage only, 40
    carla = CARLA.replace("9H", "QH", 1)  # Carla: pinochle, 40
    p = binocle.profile("cutthroat", target=40)
    s = binocle.new_game(p, deck=build_deck([ANNA, ben, carla], WIDOW, 2), dealer=2)
    s = run(s, *AUCTION, *MELDS, "concede")
    assert s.scores == (-350, 40, 40)
    assert not binocle.is_over(s) and binocle.winner(s) is None
    assert s.phase is Phase.DEAL and s.dealer == 0
    # A thrown-in hand changes nothing: still tied.
    s = run(s, str(binocle.legal_actions(s)[0]), "pass", "pass", "pass")
    assert s.scores == (-350, 40, 40) and not binocle.is_over(s)
    # Next: seat 2 bids with Anna's hand and concedes; Ben's hand (seat 0) scores 60.
    assert s.dealer == 1
    deck = build_deck([BEN, CARLA, ANNA], WIDOW, 1)
    s = binocle.apply(s, "deal " + " ".join(map(str, deck)))
    s = run(s, *AUCTION, *MELDS, "concede")
    assert s.scores == (-350 + 60, 40 + 40, 40 - 350)
    assert binocle.winner(s) == 1  # 80 against -290: seat 1 alone at the target
