"""Tests of the classic meld rules: RULES.md §2 "Meld table" and items 1-4, §3 "plenty of time"."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from binocle.cards import Card, Suit, pack, parse_cards
from binocle.errors import IllegalActionError, InvalidArgumentError
from binocle.rules.classic_melds import (
    Announcement,
    Combination,
    MeldTable,
    TableMeld,
    announce,
    best_meld,
    combinations_in,
    legal_announcements,
    play_from_table,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
EMPTY = MeldTable.EMPTY


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def kinds_of(anns: Sequence[Announcement]) -> list[str]:
    return [str(a.combination) for a in anns]


def find(
    hand: Sequence[Card], table: MeldTable, trump: Suit, what: str, fresh: str | None = None
) -> Announcement:
    """The one legal announcement whose combination prints as ``what`` (and with these fresh cards)."""
    found = [
        a
        for a in legal_announcements(hand, table, trump, grand_binocle=True)
        if str(a.combination) == what and (fresh is None or a.fresh == cards(fresh))
    ]
    assert len(found) == 1, (what, fresh, [str(a) for a in legal_announcements(hand, table, trump)])
    return found[0]


def meld_seq(
    text: str, trump: Suit, steps: Sequence[tuple[str, str | None]]
) -> tuple[tuple[Card, ...], MeldTable]:
    """Announce ``steps`` (combination text, fresh cards) one after another from ``text`` in hand."""
    hand, table = cards(text), EMPTY
    for what, fresh in steps:
        hand, table = announce(hand, table, find(hand, table, trump, what, fresh), trump=trump)
    return hand, table


# --- brute-force reference: every sequence of legal announcements ----------------------------


def canonical(hand: tuple[Card, ...], table: MeldTable) -> object:
    """A key equal for states that differ only by which of two identical table copies is which."""
    by_card: dict[int, list[int]] = {}
    for s, c in table.slots:
        by_card.setdefault(int(c), []).append(s)
    assert len(table.slots) == len({s for m in table.melds for s in m.slots})  # nothing played
    # Copies told apart by the kinds of combinations they served in need no flipping.
    kinds: dict[int, list[str]] = {}
    for m in table.melds:
        for s in m.slots:
            kinds.setdefault(s, []).append(m.combination.kind)
    for sl in by_card.values():
        sl.sort(key=lambda s: sorted(kinds[s]))
    doubled = [
        sl
        for sl in by_card.values()
        if len(sl) == 2 and sorted(kinds[sl[0]]) == sorted(kinds[sl[1]])
    ]
    keys = []
    for flips in itertools.product((False, True), repeat=len(doubled)):
        label = {s: (c, i) for c, sl in by_card.items() for i, s in enumerate(sl)}
        for flip, (a, b) in zip(flips, doubled, strict=True):
            if flip:
                label[a], label[b] = label[b], label[a]
        keys.append(
            tuple(
                sorted(
                    (m.combination.kind, m.intact, tuple(sorted(label[s] for s in m.slots)))
                    for m in table.melds
                )
            )
        )
    return hand, min(keys)


def brute_force(hand: Sequence[Card], trump: Suit, grand: bool = False) -> int:
    """The best total over every sequence of legal announcements, nothing played (RULES.md §3)."""
    memo: dict[object, int] = {}

    def best(h: tuple[Card, ...], t: MeldTable) -> int:
        key = canonical(h, t)
        if key not in memo:
            memo[key] = max(
                (
                    a.combination.value + best(*announce(h, t, a))
                    for a in legal_announcements(h, t, trump, grand_binocle=grand)
                ),
                default=0,
            )
        return memo[key]

    return best(tuple(sorted(hand)), EMPTY)


def replays(
    hand: Sequence[Card], trump: Suit, order: Sequence[Combination], grand: bool = False
) -> bool:
    """Whether ``order`` can be announced in turn from ``hand`` (some choice of copies works)."""
    failed: set[object] = set()

    def go(h: tuple[Card, ...], t: MeldTable, i: int) -> bool:
        if i == len(order):
            return True
        key = (canonical(h, t), i)
        if key in failed:
            return False
        for a in legal_announcements(h, t, trump, grand_binocle=grand):
            if a.combination == order[i] and go(*announce(h, t, a), i + 1):
                return True
        failed.add(key)
        return False

    return go(tuple(sorted(hand)), EMPTY, 0)


# --- the meld table ----------------------------------------------------------------------------


def test_combination_text() -> None:
    """A combination prints as kind, cards and value (RULES.md §2 "Meld table")."""
    (royal, *_) = combinations_in(cards("KH QH"), H)
    assert str(royal) == "royal marriage KH QH (40)"
    assert royal == Combination("royal marriage", "A", 40, cards("KH QH"))
    assert hash(royal) == hash(Combination("royal marriage", "A", 40, cards("KH QH")))


def test_meld_table_values() -> None:
    """Every combination of the meld table with its class and value (RULES.md §2 "Meld table")."""
    every = cards(" ".join(f"{r}{s}" for r in "ATKQJ" for s in "SHDC" for _ in (1, 2)))
    found = {m.kind: (m.meld_class, m.value) for m in combinations_in(every, D, grand_binocle=True)}
    assert found == {
        "marriage": ("A", 20),
        "royal marriage": ("A", 40),
        "sequence": ("A", 150),
        "binocle": ("B", 40),
        "double binocle": ("B", 80),
        "grand binocle": ("B", 80),
        "four aces": ("C", 100),
        "four kings": ("C", 80),
        "four queens": ("C", 60),
        "four jacks": ("C", 40),
        "eight aces": ("C", 200),
        "eight kings": ("C", 160),
        "eight queens": ("C", 120),
        "eight jacks": ("C", 80),
    }


def test_combinations_in() -> None:
    """Marriages in plain suits, royal marriage and sequence in trumps; grand binocle is an option (RULES.md §2)."""
    hand = cards("AS TS KS QS JS KH QH JD 9C")
    assert [str(m) for m in combinations_in(hand, H)] == [
        "marriage KS QS (20)",
        "royal marriage KH QH (40)",
        "binocle QS JD (40)",
    ]
    assert [str(m) for m in combinations_in(hand, S, grand_binocle=True)] == [
        "royal marriage KS QS (40)",
        "sequence AS TS KS QS JS (150)",
        "marriage KH QH (20)",
        "binocle QS JD (40)",
        "grand binocle KS QS JD (80)",
    ]
    assert combinations_in(cards("KS KH KD QC 9S 7H 8D"), C) == ()


def test_eight_of_a_kind_needs_both_copies_of_every_suit() -> None:
    """Eight Aces/Kings/Queens/Jacks means all eight (RULES.md §2 "Meld table")."""
    assert [m.kind for m in combinations_in(cards("AS AS AH AH AD AD AC"), H)] == ["four aces"]
    assert [m.kind for m in combinations_in(cards("AS AS AH AH AD AD AC AC"), H)] == [
        "four aces",
        "eight aces",
    ]


# --- legality: items 1-4 ---------------------------------------------------------------------


def test_fresh_card_rule() -> None:
    """An announcement must contain a card from the concealed hand (RULES.md §2 item 1)."""
    hand, table = meld_seq("KS KH KD KC QS JD", H, [("four kings KS KH KD KC (80)", None)])
    hand, table = announce(hand, table, find(hand, table, H, "binocle QS JD (40)"))
    # K♠ and Q♠ both lie on the table now: the spade marriage has no fresh card.
    assert "marriage KS QS (20)" not in kinds_of(legal_announcements(hand, table, H))
    kq = [s for s, c in table.slots if c in cards("KS QS")]
    with pytest.raises(IllegalActionError, match="fresh card rule"):
        announce(hand, table, Announcement(combinations_in(cards("KS QS"), H)[0], tuple(kq), ()))


def test_double_declaration_scores_once() -> None:
    """Laying down binocle that also completes a spade marriage scores one; marry first to get both (§2 item 4)."""
    hand, table = meld_seq("KS KH KD KC QS JD", H, [("four kings KS KH KD KC (80)", None)])
    anns = legal_announcements(hand, table, H)
    assert all(len(a.combination.cards) == len(a.fresh) + len(a.table_slots) for a in anns)
    assert sorted(kinds_of(anns)) == ["binocle QS JD (40)", "marriage KS QS (20)"]
    # The way to both: the marriage first, then the Jack makes binocle.
    hand, table = announce(hand, table, find(hand, table, H, "marriage KS QS (20)"))
    hand, table = announce(hand, table, find(hand, table, H, "binocle QS JD (40)"))
    assert table.score == 140 and hand == ()


def test_royal_marriage_then_sequence() -> None:
    """Royal marriage then A 10 J make the sequence: 40 then 150 (RULES.md §2 item 2)."""
    hand, table = meld_seq("AH TH KH QH JH", H, [("royal marriage KH QH (40)", None)])
    seq = find(hand, table, H, "sequence AH TH KH QH JH (150)")
    assert seq.fresh == cards("AH TH JH") and len(seq.table_slots) == 2
    hand, table = announce(hand, table, seq)
    assert table.score == 190 and hand == ()


def test_no_marriage_out_of_a_sequence() -> None:
    """A marriage can't be taken out of a melded sequence, nor a new Queen married to its King (§2 item 2)."""
    hand, table = meld_seq(
        "AH TH KH QH JH QH", H, [("sequence AH TH KH QH JH (150)", "AH TH KH QH JH")]
    )
    assert kinds_of(legal_announcements(hand, table, H)) == []
    kh = next(s for s, c in table.slots if c == cards("KH")[0])
    royal = combinations_in(cards("KH QH"), H)[0]
    with pytest.raises(
        IllegalActionError, match="same class rule: KH already served in class A sequence"
    ):
        announce(hand, table, Announcement(royal, (kh,), cards("QH")))


def test_binocle_then_double_binocle() -> None:
    """Single binocle, then the other two cards make double binocle: 40 + 80 (RULES.md §2 item 2)."""
    hand, table = meld_seq("QS QS JD JD", C, [("binocle QS JD (40)", None)])
    assert kinds_of(legal_announcements(hand, table, C)) == [
        "binocle QS JD (40)",
        "double binocle QS QS JD JD (80)",
    ]
    hand, table = announce(hand, table, find(hand, table, C, "double binocle QS QS JD JD (80)"))
    assert table.score == 120


def test_no_single_binocle_after_double() -> None:
    """After double binocle no single binocle can be taken out of it (RULES.md §2 item 2)."""
    hand, table = meld_seq("QS QS JD JD", C, [("double binocle QS QS JD JD (80)", None)])
    assert legal_announcements(hand, table, C) == ()


def test_second_single_then_double_is_not_new() -> None:
    """Two singles then the double: the double has no fresh card (RULES.md §2 items 1 and 2)."""
    hand, table = meld_seq(
        "QS QS JD JD", C, [("binocle QS JD (40)", None), ("binocle QS JD (40)", None)]
    )
    assert hand == () and legal_announcements(hand, table, C) == ()
    # The second single could not reuse the first single's cards either.
    hand, table = meld_seq("QS QS JD", C, [("binocle QS JD (40)", None)])
    assert legal_announcements(hand, table, C) == ()


def test_four_kings_then_eight_kings() -> None:
    """Four Kings then the other four make eight Kings, 80 + 160; eight first loses the four (§2 item 2)."""
    kings = "KS KS KH KH KD KD KC KC"
    hand, table = meld_seq(kings, D, [("four kings KS KH KD KC (80)", None)])
    eight = find(hand, table, D, "eight kings KS KS KH KH KD KD KC KC (160)")
    assert len(eight.table_slots) == 4 and len(eight.fresh) == 4
    hand, table = meld_seq(kings, D, [("eight kings KS KS KH KH KD KD KC KC (160)", None)])
    assert legal_announcements(hand, table, D) == ()


def test_broken_marriage_is_not_re_formed() -> None:
    """A marriage whose King was played is not re-formed with a new King (RULES.md §2 item 2)."""
    hand, table = meld_seq("KH QH KH", S, [("marriage KH QH (20)", "KH QH")])
    assert kinds_of(legal_announcements(hand, table, S)) == []  # the old Queen is spent in class A
    kh = next(s for s, c in table.slots if c == cards("KH")[0])
    table = play_from_table(table, kh)
    assert table.cards == cards("QH") and not table.melds[0].intact
    assert legal_announcements(hand, table, S) == ()
    qh = table.slot_ids[0]
    with pytest.raises(IllegalActionError, match="no longer intact"):
        announce(
            hand, table, Announcement(combinations_in(cards("KH QH"), S)[0], (qh,), cards("KH"))
        )


def test_broken_four_kings_is_not_re_formed() -> None:
    """Four Kings with one played are not melded again by adding a new King (RULES.md §2 item 2)."""
    hand, table = meld_seq("KS KH KD KC KS", H, [("four kings KS KH KD KC (80)", "KS KH KD KC")])
    table = play_from_table(table, table.slot_ids[0])
    assert legal_announcements(hand, table, H) == ()


def test_broken_binocle_is_not_re_formed() -> None:
    """Binocle with its Jack played: another Jack does not make a new binocle with the old Queen (§2 item 2)."""
    hand, table = meld_seq("QS JD JD", H, [("binocle QS JD (40)", "QS JD")])
    jd = next(s for s, c in table.slots if c == cards("JD")[0])
    table = play_from_table(table, jd)
    assert legal_announcements(hand, table, H) == ()


def test_other_class_reuse() -> None:
    """A card may serve again in another class: the J♦ of four Jacks in binocle (RULES.md §2 item 3)."""
    hand, table = meld_seq("JS JH JD JC QS", H, [("four jacks JS JH JD JC (40)", None)])
    b = find(hand, table, H, "binocle QS JD (40)")
    assert b.fresh == cards("QS") and len(b.table_slots) == 1


def test_sequence_queen_serves_in_binocle_not_in_marriage() -> None:
    """Spades trumps, sequence melded: its Queen makes binocle but no royal marriage with a new King (§2 items 2-3)."""
    hand, table = meld_seq(
        "AS TS KS QS JS KS JD", S, [("sequence AS TS KS QS JS (150)", "AS TS KS QS JS")]
    )
    assert kinds_of(legal_announcements(hand, table, S)) == ["binocle QS JD (40)"]


def test_queen_of_spades_in_three_classes_in_any_order() -> None:
    """Q♠ serves in a marriage, in binocle and in four Queens, in any order (RULES.md §2 item 3)."""
    melds = ["marriage KS QS (20)", "binocle QS JD (40)", "four queens QS QH QD QC (60)"]
    for order in itertools.permutations(melds):
        hand, table = meld_seq("KS QS JD QH QD QC", H, [(m, None) for m in order])
        assert table.score == 120 and hand == ()
    assert best_meld(cards("KS QS JD QH QD QC"), H)[0] == 120


def test_grand_binocle_is_an_option() -> None:
    """Grand binocle K♠ Q♠ J♦ (class B, 80) only with the option; binocle upgrades to it (RULES.md §2)."""
    hand = cards("KS QS JD")
    assert "grand binocle KS QS JD (80)" not in kinds_of(legal_announcements(hand, EMPTY, D))
    assert "grand binocle KS QS JD (80)" in kinds_of(
        legal_announcements(hand, EMPTY, D, grand_binocle=True)
    )
    grand = find(hand, EMPTY, D, "grand binocle KS QS JD (80)")
    with pytest.raises(IllegalActionError, match="grand binocle is not played"):
        announce(hand, EMPTY, grand, grand_binocle=False)
    hand2, table = meld_seq("KS QS JD", D, [("binocle QS JD (40)", None)])
    assert find(hand2, table, D, "grand binocle KS QS JD (80)").fresh == cards("KS")
    assert best_meld(hand, D) == (
        60,
        (combinations_in(cards("KS QS"), D)[0], combinations_in(cards("QS JD"), D)[0]),
    )
    assert best_meld(hand, D, grand_binocle=True)[0] == 120


def test_trump_decides_marriage_or_royal() -> None:
    """K Q of trumps is a royal marriage, of a plain suit a marriage; announce checks it given trump (§2)."""
    hand = cards("KH QH")
    (royal,) = legal_announcements(hand, EMPTY, H)
    (plain,) = legal_announcements(hand, EMPTY, S)
    assert royal.combination.value == 40 and plain.combination.value == 20
    with pytest.raises(IllegalActionError, match="plain suit"):
        announce(hand, EMPTY, plain, trump=H)
    with pytest.raises(IllegalActionError, match="in trumps"):
        announce(hand, EMPTY, royal, trump=S)


def test_identical_copies_listed_once() -> None:
    """Identical copies in the hand, or on the table with the same history, give one announcement (§2)."""
    assert kinds_of(legal_announcements(cards("KH KH QH QH"), EMPTY, C)) == ["marriage KH QH (20)"]
    # The two Q♠ of a double binocle have the same history: one announcement.
    hand, table = meld_seq(
        "QS QS JD JD QH QD QC", S, [("double binocle QS QS JD JD (80)", "QS QS JD JD")]
    )
    fours = [a for a in legal_announcements(hand, table, S) if a.combination.kind == "four queens"]
    assert [(a.fresh, len(a.table_slots)) for a in fours] == [(cards("QH QD QC"), 1)]
    # A hand copy and a table copy of Q♠ are different announcements.
    hand, table = meld_seq("QS QS JD QH QD QC", S, [("binocle QS JD (40)", "QS JD")])
    fours = [a for a in legal_announcements(hand, table, S) if a.combination.kind == "four queens"]
    assert [(a.fresh, len(a.table_slots)) for a in fours] == [
        (cards("QS QH QD QC"), 0),
        (cards("QH QD QC"), 1),
    ]
    # Table copies with different histories are different too.
    hand, table = meld_seq(
        "QS QS JD JD KS KS QH QD QC",
        H,
        [("marriage KS QS (20)", "KS QS"), ("marriage KS QS (20)", "KS QS")],
    )
    binocles = [a for a in legal_announcements(hand, table, H) if a.combination.kind == "binocle"]
    assert [len(a.table_slots) for a in binocles] == [1, 1]


def test_announce_refuses_bad_announcements() -> None:
    """announce names the rule or the missing card when an announcement is not legal (RULES.md §2)."""
    royal = combinations_in(cards("KH QH"), H)[0]
    with pytest.raises(IllegalActionError, match="not in the concealed hand: QH"):
        announce(cards("KH"), EMPTY, Announcement(royal, (), cards("KH QH")))
    with pytest.raises(IllegalActionError, match="not on the table: slot 3"):
        announce(cards("KH"), EMPTY, Announcement(royal, (3,), cards("KH")))
    with pytest.raises(IllegalActionError, match="do not make"):
        announce(cards("KH QS"), EMPTY, Announcement(royal, (), cards("KH QS")))
    fake = Combination("royal marriage", "A", 400, cards("KH QH"))
    with pytest.raises(IllegalActionError, match="not a combination"):
        announce(cards("KH QH"), EMPTY, Announcement(fake, (), cards("KH QH")))


def test_announce_moves_fresh_cards_to_new_slots() -> None:
    """Fresh cards leave the hand for new table slots; the combination is recorded intact (RULES.md §2)."""
    hand, table = meld_seq("KH QH AH TH JH 9S", H, [("royal marriage KH QH (40)", None)])
    assert hand == cards("AH TH JH 9S") and table.cards == cards("KH QH")
    assert table.melds == (TableMeld(combinations_in(cards("KH QH"), H)[0], (0, 1), True),)
    hand, table = announce(hand, table, find(hand, table, H, "sequence AH TH KH QH JH (150)"))
    assert hand == cards("9S") and table.slot_ids == (0, 1, 2, 3, 4) and table.next_slot == 5
    assert [c for c in table.melds[1].combination.cards] == [
        table.card_at(s) for s in table.melds[1].slots
    ]
    assert [m.combination.kind for m in table.history(0)] == ["royal marriage", "sequence"]


def test_play_from_table() -> None:
    """A card played from the table leaves it and breaks every combination it was in (RULES.md §2 item 2)."""
    hand, table = meld_seq(
        "KS QS JD KH KD KC", H, [("marriage KS QS (20)", None), ("binocle QS JD (40)", None)]
    )
    qs = next(s for s, c in table.slots if c == cards("QS")[0])
    after = play_from_table(table, qs)
    assert after.cards == cards("KS JD") and [m.intact for m in after.melds] == [False, False]
    assert after.score == 60 and table.cards == cards("KS QS JD")
    # Cards of a broken combination still serve in another class.
    assert kinds_of(legal_announcements(hand, after, H)) == ["four kings KS KH KD KC (80)"]
    with pytest.raises(IllegalActionError, match="not on the table"):
        play_from_table(after, qs)


def test_meld_table_is_a_value() -> None:
    """Tables are hashable values: equal content, equal table (RULES.md §2, states are values)."""
    a = meld_seq("KH QH", S, [("marriage KH QH (20)", None)])
    b = meld_seq("QH KH", S, [("marriage KH QH (20)", None)])
    assert a == b and hash(a) == hash(b) and MeldTable() == EMPTY and EMPTY.cards == ()
    assert "marriage KH QH (20)" in str(a[1])


def test_bad_arguments() -> None:
    """Not a suit, not a card, three copies: refused with an error of binocle (RULES.md §5)."""
    with pytest.raises(InvalidArgumentError):
        best_meld(cards("KH"), 4)
    with pytest.raises(InvalidArgumentError):
        best_meld([40], H)  # type: ignore[list-item]
    with pytest.raises(InvalidArgumentError):
        best_meld([-1], H)  # type: ignore[list-item]
    with pytest.raises(InvalidArgumentError):
        best_meld(cards("KH KH KH"), H)
    with pytest.raises(InvalidArgumentError):
        legal_announcements(["KH"], EMPTY, H)  # type: ignore[list-item]


# --- the "plenty of time" optimum --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "trump", "total"),
    [
        ("KS KH KD KC QS QH QD QC", H, 220),  # RULES.md §2 worked consequence and §3 (seed 000)
        ("AH TH KH QH JH", H, 190),  # §3: royal marriage then A 10 J
        ("QS QS JD JD", H, 120),  # §3: single binocle, then the other
        ("KS KS KH KH KD KD KC KC QS QH QD QC", H, 400),
        ("", H, 0),
        ("AS TS 9S 9H 7C 8D", C, 0),
        ("KS QS JD QH QD QC", H, 120),
    ],
)
def test_best_meld_known_values(text: str, trump: Suit, total: int) -> None:
    """Known optima of the plenty-of-time meld (RULES.md §3 "Melds", §2 worked consequence), and they replay."""
    hand = cards(text)
    value, order = best_meld(hand, trump)
    assert value == total == sum(m.value for m in order) == brute_force(hand, trump)
    assert replays(hand, trump, order)


def test_four_kings_four_queens_lose_one_marriage() -> None:
    """Four Kings and four Queens make 220, not 240: one marriage is lost (RULES.md §2 worked consequence)."""
    value, order = best_meld(cards("KS KH KD KC QS QH QD QC"), S)
    assert value == 220
    assert sorted(m.kind for m in order) == [
        "four kings",
        "four queens",
        "marriage",
        "marriage",
        "royal marriage",
    ]


def test_eight_kings_four_queens() -> None:
    """Eight Kings + four Queens = 400: four marriages, four Queens, four Kings, eight Kings (RULES.md §3)."""
    hand = cards("KS KS KH KH KD KD KC KC QS QH QD QC")
    value, order = best_meld(hand, H)
    assert value == 400 and len(order) == 7
    hand_, table = meld_seq(
        "KS KS KH KH KD KD KC KC QS QH QD QC",
        H,
        [
            ("marriage KS QS (20)", None),
            ("marriage KD QD (20)", None),
            ("marriage KC QC (20)", None),
            ("four queens QS QH QD QC (60)", "QH"),
            ("royal marriage KH QH (40)", "KH"),
            ("four kings KS KH KD KC (80)", "KH"),
            ("eight kings KS KS KH KH KD KD KC KC (160)", "KS KD KC"),
        ],
    )
    assert table.score == 400 and hand_ == ()


def test_everything_doubled() -> None:
    """The whole Kings-and-Queens core doubled: exact against the brute force (RULES.md §3)."""
    hand = cards("KS KS KH KH KD KD KC KC QS QS QH QH QD QD QC QC")
    value, order = best_meld(hand, D)
    assert value == brute_force(hand, D) == sum(m.value for m in order)
    assert replays(hand, D, order)


def test_sixty_four_card_pack() -> None:
    """Sevens and Eights make no melds: the 64-card pack changes nothing (RULES.md §1, seed 002)."""
    hand = cards("KS QS JD AH TH KH QH JH")
    with_small = cards("KS QS JD AH TH KH QH JH 7S 7S 8H 8D 7D")
    assert best_meld(with_small, H) == best_meld(hand, H)
    assert combinations_in(with_small, H) == combinations_in(hand, H)
    assert legal_announcements(with_small, EMPTY, H) == legal_announcements(hand, EMPTY, H)
    assert len(pack(64)) == 64 and best_meld(pack(64), C)[0] == best_meld(pack(48), C)[0]


_RELEVANT = [f"{r}{s}" for r in "KQ" for s in "SHDC"] * 3 + ["QS", "JD", "KS", "JD"]
_OTHERS = [f"{r}{s}" for r in "ATJ" for s in "SHDC"] + ["9S", "9H", "7C", "8D"]


@st.composite
def meld_hands(draw: st.DrawFn, max_size: int = 10) -> tuple[tuple[Card, ...], Suit]:
    """A hand biased towards Kings, Queens, Q♠ and J♦, at most two copies of a card, and a trump."""
    trump = draw(st.sampled_from(list(Suit)))
    trumps = [f"{r}{'SHDC'[trump]}" for r in "ATKQJ"] * 2
    picks = draw(
        st.lists(
            st.sampled_from(_RELEVANT + _OTHERS + trumps), min_size=max_size // 2, max_size=max_size
        )
    )
    hand: list[Card] = []
    for c in parse_cards(picks):
        if hand.count(c) < 2:
            hand.append(c)
    return tuple(sorted(hand)), trump


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meld_hands(max_size=11))
def test_best_meld_equals_brute_force(case: tuple[tuple[Card, ...], Suit]) -> None:
    """best_meld is the exact plenty-of-time optimum, and its order replays legally (RULES.md §3, §2 items 1-4)."""
    hand, trump = case
    value, order = best_meld(hand, trump)
    assert value == brute_force(hand, trump)
    assert sum(m.value for m in order) == value
    assert replays(hand, trump, order)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meld_hands(max_size=10))
def test_best_meld_with_grand_binocle_equals_brute_force(
    case: tuple[tuple[Card, ...], Suit],
) -> None:
    """With grand binocle played, best_meld is still exact and replays (RULES.md §2 option, §3)."""
    hand, trump = case
    value, order = best_meld(hand, trump, grand_binocle=True)
    assert value == brute_force(hand, trump, grand=True)
    assert sum(m.value for m in order) == value
    assert replays(hand, trump, order, grand=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(list(Suit)), st.sampled_from([12, 16]))
def test_best_meld_on_dealt_hands(rnd: random.Random, trump: Suit, size: int) -> None:
    """On hands dealt from the double pack, best_meld equals the brute force (RULES.md §3)."""
    hand = tuple(sorted(rnd.sample(pack(), size)))
    value, order = best_meld(hand, trump)
    assert value == brute_force(hand, trump) == sum(m.value for m in order)
    assert replays(hand, trump, order)


@settings(max_examples=200, deadline=None)
@given(meld_hands(max_size=16))
def test_legal_announcements_are_distinct_and_announceable(
    case: tuple[tuple[Card, ...], Suit],
) -> None:
    """Each listed announcement is distinct, has a fresh card and is accepted by announce (RULES.md §2)."""
    hand, trump = case
    table = EMPTY
    for _ in range(3):
        anns = legal_announcements(hand, table, trump)
        assert len(set(anns)) == len(anns)
        if not anns:
            break
        for a in anns:
            assert a.fresh and sorted(
                [*a.fresh, *(table.card_at(s) for s in a.table_slots)]
            ) == list(a.combination.cards)
            announce(hand, table, a, trump=trump, grand_binocle=False)
        hand, table = announce(hand, table, anns[len(anns) // 2])
