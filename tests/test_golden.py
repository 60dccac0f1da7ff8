"""Golden counts (perft) that pin the cutthroat move generator (STYLE.md, RULES.md §4).

Each number is the count of legal action sequences to a depth from a fixed
position; any change in what is legal changes a number.  Where the count can be
worked out by hand from RULES.md, the test works it out too.
"""

from __future__ import annotations

import itertools
from collections import Counter

import binocle
from binocle import Card, Kind, Phase
from binocle.testing import perft
from helpers import run


def build_deck(hands: list[str], widow: str, dealer: int) -> list[Card]:
    """The deck order that deals ``hands`` (by seat) and ``widow`` (RULES.md §4 "Deal")."""
    deck = list(binocle.stack_deck("cutthroat", hands, dealer=dealer, widow=widow))
    assert sorted(deck) == sorted(binocle.pack())
    return deck


def ref_bidding_sequences(depth: int, min_bid: int, max_bid: int) -> int:
    """Sequences of calls of length ``depth`` under RULES.md §4 "Bidding", counted from the
    rule text: eldest first, a pass is final, each bid higher by steps of 10, the third may
    take the hand only at the minimum after two passes, the bidding ends when two passed."""

    def count(d: int, seat: int, passed: frozenset[int], high: int | None) -> int:
        if d == 0:
            return 1
        options: list[tuple[frozenset[int], int | None]] = [(passed | {seat}, high)]
        if high is None and len(passed) == 2:
            options.append((passed, min_bid))
        else:
            start = min_bid if high is None else high + 10
            options += [(passed, b) for b in range(start, max_bid + 1, 10)]
        total = 0
        for new_passed, new_high in options:
            ended = len(new_passed) == 3 or (len(new_passed) == 2 and new_high is not None)
            if ended:
                assert d == 1, "this model stops at the end of the bidding"
                total += 1
                continue
            nxt = (seat + 1) % 3
            while nxt in new_passed:
                nxt = (nxt + 1) % 3
            total += count(d - 1, nxt, new_passed, new_high)
        return total

    return count(depth, 1, frozenset(), None)


def test_perft_opening_seed_1() -> None:
    """RULES.md §4 "Bidding": from the opening, pass or one of 276 bids (250..3000); after bid
    number i the next player has pass and 275 - i higher bids: 277 and 277 + 276·277/2."""
    s = binocle.new_game("cutthroat", seed=1)
    n = (3000 - 250) // 10 + 1
    assert perft(s, 1) == 1 + n == 277
    assert perft(s, 2) == (1 + n) + n * (n + 1) // 2 == 38503


def test_perft_bidding_with_a_low_ceiling() -> None:
    """RULES.md §4 "Bidding" with max_bid 300: counts checked against the rule text to depth 3;
    depth 4 reaches the widow (the bidder's distinct discards) and thrown-in deals."""
    p = binocle.profile("cutthroat", max_bid=300)
    s = binocle.new_game(p, seed=1)
    got = [perft(s, d) for d in (1, 2, 3, 4, 5)]
    assert got[:3] == [ref_bidding_sequences(d, 250, 300) for d in (1, 2, 3)]
    assert got == [7, 28, 79, 323, 3216]


def test_perft_bidding_min_bid_100() -> None:
    """RULES.md §4 Options: with min_bid 100 and max_bid 200 the counts follow the rule text."""
    p = binocle.profile("cutthroat", min_bid=100, max_bid=200)
    s = binocle.new_game(p, seed=2)
    got = [perft(s, d) for d in (1, 2, 3)]
    assert got == [ref_bidding_sequences(d, 100, 200) for d in (1, 2, 3)]
    # depth 3 by hand: PP·2 + P b·66 + b P·66 + b b·220 = 354
    assert got == [12, 78, 354]


def test_perft_discards_then_trump() -> None:
    """RULES.md §4 "Widow and trump": three single discards from the bidder's 18 cards (each a
    kind he still holds), then four ways to name trump: counted from the cards."""
    s = run(binocle.new_game("cutthroat", seed=1), "bid 250", "pass", "pass")
    assert s.phase is Phase.DISCARD
    hand = Counter(s.hands[s.current_player or 0])
    assert sum(hand.values()) == 18

    def sequences(depth: int) -> int:
        n = 0
        for seq in itertools.product(hand, repeat=depth):
            if all(Counter(seq)[k] <= hand[k] for k in seq):
                n += 1
        return n

    assert [perft(s, d) for d in (1, 2, 3)] == [sequences(d) for d in (1, 2, 3)]
    assert perft(s, 4) == 4 * sequences(3)
    assert [perft(s, d) for d in (1, 2, 3, 4)] == [14, 186, 2340, 9360]


ANNA = "AC TC KC QC JC QS JD AS AS AH AH AD AD KD 9C"
BEN = "KC QC KH QH TS TS KS KS TH TH KH TD TD AC TC"
CARLA = "QS QH QD QD JS JS JH JH JD 9S 9S 9H 9H 9D 9D"


def test_perft_first_lead_of_the_worked_example() -> None:
    """RULES.md §4 "Play": Anna (clubs trump) leads one of 11 distinct cards or gives up; Ben
    must follow and beat if he can — the depth-2 count is worked out by hand."""
    deck = build_deck([ANNA, BEN, CARLA], "JC 9C KD", 2)
    s = run(
        binocle.new_game("cutthroat", deck=deck, dealer=2),
        *("bid 350", "pass", "pass", "discard 9C", "discard 9C", "discard JC", "trump C"),
        *("meld", "meld", "meld"),
    )
    assert s.phase is Phase.PLAY and s.current_player == 0
    assert perft(s, 1) == len(set(s.hands[0])) + 1 == 12  # + concede
    # Ben's replies (S: T T K K, H: T T K K Q, D: T T, C: A T K Q), one per distinct card:
    ben = {
        "AS": 2,  # T K: cannot beat the Ace
        "QS": 2,  # T K beat the Queen
        "AH": 3,  # T K Q
        "AD": 1,  # T
        "KD": 1,  # T beats the King
        "JD": 1,
        "AC": 4,  # no club beats the Ace: any club
        "TC": 1,  # only the Ace beats the Ten
        "KC": 2,
        "QC": 3,
        "JC": 4,
    }
    assert sorted(ben) == sorted(str(x) for x in set(s.hands[0]))
    assert perft(s, 2) == sum(ben.values()) + 1 == 25  # a concession leaves one deal
    assert [perft(s, d) for d in (3, 4)] == [433, 39991]


def test_perft_seeded_play_position() -> None:
    """RULES.md §4 "Play": a fixed seeded hand, hearts trump, from the first lead."""
    s = run(binocle.new_game("cutthroat", seed=1), "bid 250", "pass", "pass")
    discards = [str(a) for a in binocle.legal_actions(s)[:3]]
    assert discards == ["discard TS", "discard JS", "discard AH"]
    s = run(s, *discards, "trump H", "meld", "meld", "meld")
    bidder = s.current_player
    assert bidder is not None and s.phase is Phase.PLAY
    assert perft(s, 1) == len(set(s.hands[bidder])) + 1 == 13
    assert [perft(s, d) for d in (2, 3, 4)] == [21, 319, 38984]


def test_perft_between_hands_and_at_the_end() -> None:
    """DESIGN.md: between hands the one seeded deal is the only action; a game over has none."""
    s = run(binocle.new_game("cutthroat", seed=1), "pass", "pass", "pass")
    assert s.phase is Phase.DEAL
    assert perft(s, 1) == 1
    assert perft(s, 2) == perft(binocle.apply(s, binocle.legal_actions(s)[0]), 1) == 277
    from binocle.bots import play_game

    over = play_game("cutthroat", seed=3)
    assert binocle.is_over(over)
    assert perft(over, 3) == 1 and binocle.legal_actions(over) == ()
    assert all(a.kind is not Kind.DEAL for a in binocle.legal_actions(over))
