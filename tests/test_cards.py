"""Cards, notation and the trick rule pieces (RULES.md §1, §4 "Play"; DESIGN.md "Cards").

The trick tests check :mod:`binocle.rules.tricks` against a reference written
here straight from the rule text, and the engine's legal plays in constructed
positions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import binocle
from binocle import Card, InvalidNotationError, Rank, Suit
from binocle.cards import parse_cards
from binocle.rules.tricks import Obligation, allowed_cards, beats, obligation_broken, trick_winner
from helpers import cs

RANK_ORDER = "ATKQJ9"  # A 10 K Q J 9, high to low (RULES.md §1)
SUIT_LETTERS = "SHDC"
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
KINDS48 = tuple(binocle.parse_card(r + s) for s in SUIT_LETTERS for r in RANK_ORDER)


def c(text: str) -> Card:
    return binocle.parse_card(text)


def strength(card: Card) -> int:
    """Higher is stronger within a suit, from the rank order of RULES.md §1."""
    return len(RANK_ORDER) - RANK_ORDER.index(str(card)[0])


# ---------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TS", "TS"),
        ("10S", "TS"),
        ("10♠", "TS"),
        ("A♠", "AS"),
        ("ts", "TS"),
        ("qh", "QH"),
        ("Jd", "JD"),
        ("9c", "9C"),
        ("k♦", "KD"),
        ("10h", "TH"),
        ("  AC ", "AC"),
        ("Q♣", "QC"),
        ("9♥", "9H"),
    ],
)
def test_parse_card_accepts_every_documented_spelling(text: str, expected: str) -> None:
    """DESIGN.md "Cards": parsing accepts TS, 10S, 10♠, A♠ and lower case."""
    card = binocle.parse_card(text)
    assert str(card) == expected
    assert isinstance(card, Card)


def test_every_card_round_trips_through_its_text() -> None:
    """DESIGN.md "Cards": str(card) is rank letter then suit letter and reads back, all 32 kinds."""
    seen = set()
    for suit in Suit:
        for rank in Rank:
            card = binocle.parse_card(rank.letter + suit.letter)
            assert (card.suit, card.rank) == (suit, rank)
            text = str(card)
            assert text == rank.letter + suit.letter
            assert binocle.parse_card(text) is card
            assert binocle.parse_card(text.lower()) is card
            assert binocle.parse_card(rank.letter + suit.symbol) is card
            seen.add(card)
    assert len(seen) == 32
    assert set(binocle.CARDS) == seen


def test_card_attributes_and_interning() -> None:
    """DESIGN.md "Cards": a Card has .suit and .rank; equal cards are one value."""
    ten = c("10♠")
    assert ten.suit is Suit.SPADES and ten.rank is Rank.TEN
    assert c("TS") is c("ts") is ten
    assert repr(ten) == "Card('TS')"
    assert c("QH").suit is Suit.HEARTS and c("QH").rank is Rank.QUEEN


def test_parse_cards_reads_lists_and_text() -> None:
    """DESIGN.md: parse_cards("AS TS KS") gives the cards in order; commas and mixed lists too."""
    assert [str(x) for x in cs("AS TS KS")] == ["AS", "TS", "KS"]
    assert [str(x) for x in cs("AS, 10♠,ks")] == ["AS", "TS", "KS"]
    assert cs(["AS", c("TS"), "k♠"]) == (c("AS"), c("TS"), c("KS"))
    assert cs("") == ()
    assert cs("AS AS") == (c("AS"), c("AS"))


def test_pack_48_holds_every_card_twice() -> None:
    """RULES.md §1 "Pack": A 10 K Q J 9 in four suits, two packs: 48 cards, each twice."""
    p = binocle.pack(48)
    assert len(p) == 48
    counts = Counter(p)
    assert set(counts) == set(KINDS48)
    assert set(counts.values()) == {2}
    assert binocle.pack() == p
    assert all(x.rank not in (Rank.EIGHT, Rank.SEVEN) for x in p)


def test_pack_64_adds_eights_and_sevens() -> None:
    """RULES.md §1: the 64-card pack adds 8s and 7s, every card twice."""
    p = binocle.pack(64)
    counts = Counter(p)
    assert len(p) == 64 and len(counts) == 32 and set(counts.values()) == {2}
    extra = set(counts) - set(KINDS48)
    assert {str(x) for x in extra} == {r + s for r in "87" for s in SUIT_LETTERS}


@pytest.mark.parametrize("size", [32, 0, True, "48", None, [48], {"48": 1}, bytearray(b"0")])
def test_a_pack_of_another_size_is_refused(size: Any) -> None:
    """A pack has 48 or 64 cards: any other size, or a value that is not a size (one
    that cannot be hashed among them), raises InvalidNotationError."""
    with pytest.raises(InvalidNotationError, match="48 or 64"):
        binocle.pack(size)


@pytest.mark.parametrize(
    "text",
    ["", " ", "X", "1S", "11S", "T", "S", "AX", "A S", "ZZ", "TSS", "10", "♠", "AS TS", "0S", "6H"],
)
def test_bad_card_texts_raise_invalid_notation(text: str) -> None:
    """DESIGN.md "Errors": text that does not parse raises InvalidNotationError naming it."""
    with pytest.raises(InvalidNotationError) as info:
        binocle.parse_card(text)
    assert "not a card" in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, binocle.BinocleError)


@pytest.mark.parametrize("value", [None, 5, 1.5, b"AS", ["AS"]])
def test_parse_card_refuses_non_text(value: object) -> None:
    """DESIGN.md "Errors": a card of the wrong type is refused with InvalidNotationError."""
    with pytest.raises(InvalidNotationError):
        binocle.parse_card(value)  # type: ignore[arg-type]


def test_parse_cards_refuses_bad_items() -> None:
    """DESIGN.md "Errors": parse_cards refuses one bad card in a list, and non-iterables."""
    with pytest.raises(InvalidNotationError, match="not a card"):
        binocle.parse_cards("AS XX KS")
    with pytest.raises(InvalidNotationError):
        binocle.parse_cards(["AS", 7])  # type: ignore[list-item]
    with pytest.raises(InvalidNotationError):
        binocle.parse_cards(42)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(KINDS48), max_size=20))
@settings(max_examples=50, deadline=None)
def test_parse_cards_round_trips_any_list(cards: list[Card]) -> None:
    """DESIGN.md: the text of a list of cards reads back to the same cards."""
    text = " ".join(str(x) for x in cards)
    assert binocle.parse_cards(text) == tuple(cards)
    assert binocle.parse_cards(text.lower()) == tuple(cards)


# ---------------------------------------------------------------------------
# Trick winner (RULES.md §1 "Trick winner")


def ref_winner(cards: tuple[Card, ...], trump: Suit | None) -> int:
    """RULES.md §1: highest trump, else highest of the suit led; identical: first played."""
    led = cards[0].suit

    def key(i: int) -> tuple[int, int, int]:
        x = cards[i]
        tier = 2 if x.suit == trump else (1 if x.suit == led else 0)
        return (tier, strength(x), -i)

    return max(range(len(cards)), key=key)


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("KS AS TS", "H", 1),  # highest of the suit led
        ("KS AS 9H", "H", 2),  # any trump beats the suit led
        ("9H AS TH", "H", 2),  # the higher trump
        ("AS AS TS", "H", 0),  # identical cards: the first played wins
        ("TS AS AS", "H", 1),
        ("QS AD AC", "H", 0),  # a card of a third suit never wins
        ("JD AC AC", "S", 0),
        ("9S 9S 9S", "H", 0),
        ("QC 9C AH", "C", 0),  # trump led: plain Ace does not win
        ("JH QH 9S", "S", 2),
    ],
)
def test_trick_winner_examples(trick: str, trump: str, winner: int) -> None:
    """RULES.md §1 "Trick winner": trump, then suit led, identical → first; third suit never."""
    cards = cs(trick)
    t = binocle.parse_suit(trump)
    assert trick_winner(cards, t) == winner
    assert ref_winner(cards, t) == winner


@given(
    st.lists(st.sampled_from(KINDS48), min_size=3, max_size=3),
    st.sampled_from(list(Suit)),
)
@settings(max_examples=300, deadline=None)
def test_trick_winner_matches_the_rule_text(trick: list[Card], trump: Suit) -> None:
    """RULES.md §1: the engine's trick winner equals a reading of the rule text, any trick."""
    assert trick_winner(tuple(trick), trump) == ref_winner(tuple(trick), trump)
    w = trick[trick_winner(tuple(trick), trump)]
    assert w.suit in (trump, trick[0].suit)


# ---------------------------------------------------------------------------
# Trick obligations (RULES.md §4 "Play")


def ref_allowed(
    hand: tuple[Card, ...], trick: tuple[Card, ...], trump: Suit, easier: bool
) -> set[Card]:
    """RULES.md §4 "Play", read literally, as the set of cards that may be played.

    Strict: follow suit; beat every card so far if you can; void in the suit
    led, play a trump, beating a trump already played if you can; else any
    card.  Easier: you must beat the highest card so far only when trump was led.
    """
    everything = set(hand)
    if not trick:
        return everything
    led = trick[0].suit

    def wins(x: Card) -> bool:
        return ref_winner((*trick, x), trump) == len(trick)

    follow = {x for x in hand if x.suit == led}
    if follow:
        if easier and led != trump:
            return follow
        beating = {x for x in follow if wins(x)}
        return beating or follow
    trumps = {x for x in hand if x.suit == trump}
    if trumps:
        if easier:
            return trumps
        beating = {x for x in trumps if wins(x)}
        return beating or trumps
    return everything


STRICT = Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "allowed"),
    [
        # Follow suit and beat: KS led, holds AS TS QS → AS or TS, not QS.
        ("AS TS QS 9H AD", "KS", "H", "AS TS"),
        # Follow suit, cannot beat → any card of the suit.
        ("QS 9S AH", "AS", "H", "QS 9S"),
        # Identical card: AS led, holding AS does not "beat" it.
        ("AS QS AH", "AS", "H", "AS QS"),
        # Beat every card so far: KS AS played, holds TS QS → cannot beat AS → any spade.
        ("TS QS AD", "KS AS", "H", "TS QS"),
        # Led suit already trumped: following with any card of the suit.
        ("AS 9S TH", "KS 9H", "H", "AS 9S"),
        # Void in the suit led, holds trumps, no trump yet → any trump.
        ("AH 9H AD", "KS", "H", "AH 9H"),
        # Void, a trump played: must overtrump if able.
        ("AH 9H AD", "KS KH", "H", "AH"),
        # Void, cannot overtrump: must still under-trump.
        ("JH 9H AD", "KS KH", "H", "JH 9H"),
        # Void and no trump: any card.
        ("AD QC 9C", "KS", "H", "AD QC 9C"),
        # Trump led: must beat it with a higher trump.
        ("AH TH 9H AS", "KH", "H", "AH TH"),
        # Trump led, cannot beat: any trump.
        ("QH 9H AS", "KH", "H", "QH 9H"),
    ],
)
def test_strict_trick_rule_examples(hand: str, trick: str, trump: str, allowed: str) -> None:
    """RULES.md §4 "Play": follow suit, beat every card so far, void → (over)trump, else any."""
    h = tuple(sorted(cs(hand)))
    t = cs(trick)
    suit = binocle.parse_suit(trump)
    got = set(allowed_cards(h, t, suit, STRICT))
    assert got == set(cs(allowed))
    assert got == ref_allowed(h, t, suit, easier=False)


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "allowed"),
    [
        # Plain suit led: no need to beat.
        ("AS TS QS 9H", "KS", "H", "AS TS QS"),
        # Trump led: must still beat.
        ("AH TH 9H AS", "KH", "H", "AH TH"),
        # Void, a trump played: any trump (no overtrump duty).
        ("AH 9H AD", "KS KH", "H", "AH 9H"),
        # Void, no trump: any card.
        ("AD QC", "KS", "H", "AD QC"),
    ],
)
def test_easier_trick_rule_examples(hand: str, trick: str, trump: str, allowed: str) -> None:
    """RULES.md §4 Options: easier trick rule — beat the highest card only when trump was led."""
    h = tuple(sorted(cs(hand)))
    t = cs(trick)
    suit = binocle.parse_suit(trump)
    got = set(allowed_cards(h, t, suit, Obligation.EASIER))
    assert got == set(cs(allowed))
    assert got == ref_allowed(h, t, suit, easier=True)


@given(
    st.lists(st.sampled_from(KINDS48), min_size=1, max_size=15),
    st.lists(st.sampled_from(KINDS48), min_size=0, max_size=2),
    st.sampled_from(list(Suit)),
    st.booleans(),
)
@settings(max_examples=400, deadline=None)
def test_allowed_cards_match_the_rule_text(
    hand: list[Card], trick: list[Card], trump: Suit, easier: bool
) -> None:
    """RULES.md §4 "Play": allowed plays equal a literal reading of the rule, any position.

    Also: the result is distinct, never empty, and every refused card has a reason.
    """
    assume(max(Counter(hand + trick).values()) <= 2)  # the pack holds each card twice
    h = tuple(sorted(hand))
    rule = Obligation.EASIER if easier else STRICT
    got = allowed_cards(h, tuple(trick), trump, rule)
    assert len(set(got)) == len(got) and got
    assert set(got) == ref_allowed(h, tuple(trick), trump, easier)
    for x in set(h):
        reason = obligation_broken(x, h, tuple(trick), trump, rule)
        assert (reason is None) == (x in got)
        if reason is not None:
            assert reason.startswith("must") or reason.startswith("void")


def test_rank_order_of_the_pack() -> None:
    """RULES.md §1: rank, high to low, A 10 K Q J 9 — the Ten beats the King."""
    for suit in SUIT_LETTERS:
        for hi, lo in itertools.combinations(RANK_ORDER, 2):
            trick = cs(f"{lo}{suit} {hi}{suit}")
            assert trick_winner(trick, None) == 1, trick


# ---------------------------------------------------------------------------
# The same rules through the public engine


def build_deck(hands: list[str], widow: str, dealer: int) -> list[Card]:
    """The deck order that deals ``hands`` (by seat) and ``widow`` (RULES.md §4 "Deal").

    Packets of three clockwise from the dealer's left; the widow takes the three
    cards after the first round (option ``widow_after_round=1``).
    """
    deck = list(binocle.stack_deck("cutthroat", hands, dealer=dealer, widow=widow))
    assert sorted(deck) == sorted(binocle.pack())
    return deck


LAB = [
    "AS AS TS TS KS KS QS QS JS JS 9S 9S AD AD TD",
    "AH KH KH QH QH JH JH AC AC TC TC KC KC QC QC",
    "AH TH TH 9H 9H JC JC 9C 9C KD KD QD QD JD JD",
]
LAB_WIDOW = "TD 9D 9D"


def lab_position(profile: str = "cutthroat") -> binocle.GameState:
    """Seat 0 bids, takes the widow, discards the diamonds it can spare, names hearts."""
    s = binocle.new_game(profile, deck=build_deck(LAB, LAB_WIDOW, 2), dealer=2)
    for a in ["bid 250", "pass", "pass", "discard 9D", "discard 9D", "discard TD", "trump H"]:
        s = binocle.apply(s, a)
    for _ in range(3):
        s = binocle.apply(s, "meld")
    assert s.phase is binocle.Phase.PLAY and s.current_player == 0
    return s


def plays(s: binocle.GameState) -> set[str]:
    return {str(a.card) for a in binocle.legal_actions(s) if a.kind is binocle.Kind.PLAY}


def test_engine_void_player_must_trump_then_overtrump() -> None:
    """RULES.md §4 "Play": void in the suit led → a trump, beating a trump already played."""
    s = lab_position()
    s = binocle.apply(s, "play KS")
    assert plays(s) == {"AH", "KH", "QH", "JH"}  # void in spades: any trump
    with pytest.raises(binocle.IllegalActionError, match="must trump"):
        binocle.apply(s, "play AC")
    s = binocle.apply(s, "play JH")
    assert plays(s) == {"AH", "TH"}  # must overtrump the Jack
    with pytest.raises(binocle.IllegalActionError, match="must overtrump"):
        binocle.apply(s, "play 9H")
    with pytest.raises(binocle.IllegalActionError, match="must trump"):
        binocle.apply(s, "play KD")
    s = binocle.apply(s, "play TH")
    assert s.current_player == 2 and s.trick == ()  # the higher trump won


def test_engine_under_trump_when_unable_to_overtrump() -> None:
    """RULES.md §4 "Play": unable to beat the trump played, a void player must still trump."""
    s = binocle.apply(binocle.apply(lab_position(), "play KS"), "play AH")
    assert plays(s) == {"AH", "TH", "9H"}
    with pytest.raises(binocle.IllegalActionError, match="must trump"):
        binocle.apply(s, "play QD")
    s = binocle.apply(s, "play AH")
    assert s.current_player == 1  # of two identical Aces the first played wins


def test_engine_easier_rule_drops_the_overtrump_duty() -> None:
    """RULES.md §4 Options: with the easier trick rule a void player may play any trump."""
    s = lab_position("cutthroat(easier_tricks=true)")
    s = binocle.apply(binocle.apply(s, "play KS"), "play JH")
    assert plays(s) == {"AH", "TH", "9H"}
    with pytest.raises(binocle.IllegalActionError, match="must trump"):
        binocle.apply(s, "play KD")


def test_engine_follow_suit_and_beat() -> None:
    """RULES.md §4 "Play": follow suit and beat every card so far if you can."""
    s = lab_position()
    s = binocle.apply(s, "play KS")
    s = binocle.apply(s, "play KH")
    s = binocle.apply(s, "play AH")  # seat 2 wins trick 1 and leads
    assert s.current_player == 2
    s = binocle.apply(s, "play JC")
    # seat 0 is void in clubs and in trumps: any card.
    assert plays(s) == {"AS", "TS", "KS", "QS", "JS", "9S", "AD", "TD"}
    s = binocle.apply(s, "play 9S")
    assert plays(s) == {"AC", "TC", "KC", "QC"}  # all of them beat the Jack
    with pytest.raises(binocle.IllegalActionError, match="must follow suit C"):
        binocle.apply(s, "play AH")
    s = binocle.apply(s, "play QC")
    assert s.current_player == 1  # the Queen won; the Nine of a third suit never wins
    s = binocle.apply(s, "play AC")
    assert plays(s) == {"JC", "9C"}  # cannot beat the Ace: any club
    with pytest.raises(binocle.IllegalActionError, match="must follow suit C"):
        binocle.apply(s, "play KD")


@pytest.mark.parametrize("easier", [False, True])
@given(seed=st.integers(0, 10**6))
@settings(max_examples=12, deadline=None)
def test_engine_legal_plays_match_the_rule_text(easier: bool, seed: int) -> None:
    """RULES.md §1, §4 "Play": in random hands every legal play set equals the rule text,
    and the winner of every trick (by the rule text) leads the next one."""
    import random

    rng = random.Random(seed)
    profile = binocle.profile("cutthroat", easier_tricks=easier)
    s = binocle.new_game(profile, seed=seed)
    tricks = 0
    while tricks < 15 and not binocle.is_over(s):
        if s.phase is not binocle.Phase.PLAY:
            legal = binocle.legal_actions(s)
            if s.phase is binocle.Phase.BIDDING:
                # the first to speak bids the minimum, the others pass: the hand is played
                action = "pass" if s.bid is not None else str(legal[1])
            else:
                action = str(rng.choice(legal))
            s = binocle.apply(s, action)
            continue
        p = s.current_player
        assert p is not None and s.trump is not None
        trick = tuple(x for _, x in s.trick)
        got = plays(s)
        assert got == {str(x) for x in ref_allowed(s.hands[p], trick, s.trump, easier)}
        card = rng.choice(sorted(got))
        after = binocle.apply(s, "play " + card)
        if len(trick) == 2:
            tricks += 1
            seats = [seat for seat, _ in s.trick] + [p]
            w = seats[ref_winner((*trick, c(card)), s.trump)]
            if tricks < 15:
                assert after.current_player == w and after.trick == ()
        s = after


def test_allowed_slice_is_allowed_cards_on_sorted_hands() -> None:
    """Every profile's rules, Tricks: the engine's bisection of a sorted hand allows
    exactly the cards the rule text allows, under every obligation."""
    import random

    from binocle.rules.tricks import Obligation, allowed_cards, allowed_slice

    rng = random.Random(5)
    deck = list(binocle.pack(48))
    for _ in range(3000):
        rng.shuffle(deck)
        hand = tuple(sorted(deck[: rng.randrange(1, 17)]))
        played = deck[20 : 20 + rng.randrange(0, 3)]
        trick = tuple(enumerate(played))
        trump = rng.choice((None, 0, 1, 2, 3))
        for rule in Obligation:
            got = allowed_slice(hand, trick, trump, rule)
            assert tuple(dict.fromkeys(got)) == allowed_cards(hand, played, trump, rule)
            assert list(got) == sorted(got) and all(c in hand for c in got)


@given(
    st.lists(st.integers(0, 31), max_size=20),
    st.integers(-2, 33),
    st.integers(0, 21),
    st.integers(0, 21),
)
def test_bisect_cards_is_bisect_left(cards: list[int], c: int, lo: int, hi: int) -> None:
    """The engine's search of a sorted hand finds the first card not below ``c`` in
    ``cards[lo:hi]``, as ``bisect.bisect_left`` does (compiled, a loop of its own)."""
    import bisect

    from binocle.rules.tricks import bisect_cards

    hand = tuple(sorted(binocle.CARDS[i] for i in cards))
    hi = min(hi, len(hand))
    lo = min(lo, hi)
    assert bisect_cards(hand, c, lo, hi) == bisect.bisect_left(hand, c, lo, hi)


# --- the trick functions read their arguments or refuse them -------------------------


def test_trick_functions_read_a_trump_given_as_text() -> None:
    """Common rules, Trick winner; the Play sections of the rules pages.  A trump given as
    text ("H"), a Suit or its number gives the same answer; before, "H" was compared with
    card numbers as it stood, so a player void in the suit led was allowed every card and
    a card that breaks the obligation was called legal (a silent wrong answer)."""
    hand = "AS KS QH TH 9C"
    rule = Obligation.FOLLOW_WIN_TRUMP
    for trump in ("H", "hearts", "♥", Suit.HEARTS, 1):
        assert allowed_cards(hand, ["TD"], trump, rule) == hand_of("QH TH")
        assert obligation_broken("KS", hand, ["TD"], trump, rule) == (
            "void in D, must trump: holds QH TH"
        )
        assert trick_winner(["TD", "9H"], trump) == 1
        assert beats("9H", "AD", trump) and not beats("AS", "AD", trump)
    assert allowed_cards(hand, ["TD"], None, "follow-win-trump") == hand_of(hand)
    assert trick_winner(["TD", "9H"], None) == 0


@pytest.mark.parametrize(
    "call",
    [
        lambda: allowed_cards("AS KS", ["TD"], "X", Obligation.FREE),
        lambda: allowed_cards("AS KS", ["TD"], 7, Obligation.FREE),
        lambda: allowed_cards("AS KS", ["TD"], True, Obligation.FREE),
        lambda: allowed_cards("AS KS", ["TD"], 1.5, Obligation.FREE),
        lambda: allowed_cards("AS KS", ["TD"], "H", "no such rule"),
        lambda: allowed_cards("AS KS", ["TD"], "H", 3),
        lambda: allowed_cards("AS XX", ["TD"], "H", Obligation.FREE),
        lambda: allowed_cards(["AS", 99], ["TD"], "H", Obligation.FREE),
        lambda: allowed_cards(42, ["TD"], "H", Obligation.FREE),
        lambda: allowed_cards("AS", [None], "H", Obligation.FREE),
        lambda: obligation_broken("ZZ", "AS", ["TD"], "H", Obligation.FREE),
        lambda: trick_winner([], "H"),
        lambda: trick_winner(["AS", -1], "H"),
        lambda: beats("AS", "KS", "trumps"),
    ],
)
def test_trick_functions_refuse_what_they_cannot_read(call: Any) -> None:
    """No public function gives an answer for an argument it cannot read: it raises
    InvalidNotationError (a BinocleError and a ValueError) instead."""
    with pytest.raises(InvalidNotationError):
        call()


def hand_of(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# -- card strength for programs ------------------------------------------------------


def test_rank_strength_is_higher_for_the_stronger_rank() -> None:
    """Rank.strength orders the ranks from the Seven (weakest) to the Ace (strongest),
    the other way from the rank numbers (Rank.ACE == 0)."""
    from binocle.cards import Rank

    order = sorted(Rank, key=lambda r: r.strength)
    assert order == [Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING,
                     Rank.TEN, Rank.ACE]  # fmt: skip
    assert all(isinstance(r.strength, int) and -int(r) + 7 == r.strength for r in Rank)


def test_strength_helpers_agree_with_the_trick_winner_ruling() -> None:
    """Common rules, Trick winner: for every trick of random cards, winning_card (and
    highest of the trick in play order) is the card binocle.rulings.trick_winner
    names, and Card.beats answers as binocle.rules.tricks.beats for every pair."""
    import random

    from binocle import rulings
    from binocle.cards import CARDS, highest, winning_card
    from binocle.rules import tricks

    rng = random.Random(5)
    for _ in range(3000):
        n = rng.randint(1, 3)
        trick = rng.sample([c for c in CARDS if c & 7 < 6] * 2, n)
        trump = rng.choice([None, *Suit])
        w = winning_card(trick, trump)
        assert w is trick[rulings.trick_winner("cutthroat", trick, trump)]
        assert highest(trick, trump) is w
        a, b = rng.choice(CARDS), rng.choice(CARDS)
        assert a.beats(b, trump) is tricks.beats(a, b, trump)


def test_highest_with_a_led_suit_and_beats() -> None:
    """highest(cards, led=…) answers for a trick led in another suit: a card neither of
    that suit nor trump never wins; Card.beats is strict between identical cards
    (the first played wins)."""
    from binocle.cards import Card, Suit, highest, parse_cards

    hand = parse_cards("KH 9H AS QC")
    assert highest(hand, led=Suit.HEARTS) is Card("KH")
    assert highest(hand, trump=Suit.CLUBS, led=Suit.DIAMONDS) is Card("QC")
    assert highest(hand, led=Suit.DIAMONDS) is None
    assert highest(()) is None
    assert not Card("TS").beats(Card("TS"), Suit.SPADES)
    assert Card("9C").beats(Card("AS"), Suit.CLUBS) and not Card("AS").beats(Card("9C"), Suit.CLUBS)


def test_winning_card_refuses_an_empty_trick() -> None:
    """A trick with no card has no winner: InvalidArgumentError."""
    import pytest

    from binocle.cards import winning_card
    from binocle.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="at least one card"):
        winning_card(())


def test_current_winner_is_the_seat_that_takes_the_trick() -> None:
    """binocle.current_winner(state) names, before the last card of a trick, the seat
    winning it so far; with the last card, the seat that takes the trick (it leads
    the next one) is the one current_winner names on the trick's cards.  In every
    profile, over random games (three-handed with its retirements and dead cards)."""
    import random

    import binocle
    from binocle.cards import winning_card

    for name in ("cutthroat", "classic", "three-handed"):
        for seed in range(6):
            rng = random.Random(seed)
            s = binocle.start(name, seed=seed)
            steps = 0
            while not binocle.is_over(s) and steps < 400:
                steps += 1
                now = binocle.current_winner(s)
                if not s.trick:
                    assert now is None
                else:
                    assert now is None or now in s.trick
                    if getattr(s, "retired", None) is None:
                        assert now is not None
                        assert now[1] is winning_card([c for _, c in s.trick], s.trump)
                action = rng.choice(binocle.legal_actions(s))
                after = binocle.apply(s, action)
                if (
                    action.kind is binocle.Kind.PLAY
                    and s.trick
                    and not after.trick
                    and after.phase is binocle.Phase.PLAY
                    and after.hand_number == s.hand_number
                    and getattr(s, "retired", None) is None
                    and after.current_player is not None
                ):
                    seat = s.current_player
                    full = (*s.trick, (seat, action.card))
                    winner = next(e for e in full
                                  if e[1] is winning_card([c for _, c in full], s.trump))  # fmt: skip
                    assert after.current_player == winner[0]
                s = after
