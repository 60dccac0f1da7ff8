"""The error contract at every entry point (docs: front-end guide, "Errors").

Every public function returns a correct result or raises a BinocleError
subclass with a short message; a refused action leaves the state unchanged.
Each test here pins one way of breaking that contract that was found from the
outside, so it stays fixed.
"""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
import random
import time
import tracemalloc
from typing import Any

import pytest

import binocle
from binocle import (
    Action,
    BinocleError,
    Card,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    Kind,
    Rank,
    RuleCode,
    Suit,
    UnknownProfileError,
)
from binocle import actions as A


def _announcing_classic() -> binocle.GameState:
    """A classic state where the player to act announces (after winning a trick)."""
    s = binocle.new_game("classic", seed=1)
    rng = random.Random(0)
    while s.phase is not binocle.Phase.ANNOUNCE:
        s = binocle.apply(
            s, rng.choice([a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM])
        )
    return s


# -- cards and suits: the repr is the constructor call ---------------------------------------


def test_card_reads_its_text_and_number() -> None:
    """Front-end guide, "Errors": ``Card("AS")`` is the card its repr shows; a number 0..31
    is the card of that number; both give the interned card."""
    for c in binocle.CARDS:
        assert eval(repr(c), {"Card": Card}) is c
        assert Card(str(c)) is c and Card(int(c)) is c and Card(c) is c
    assert Card("10♠") is binocle.parse_card("TS")


@pytest.mark.parametrize("value", [99, 32, -1, True, False, None, 1.0, "XX", "", b"AS", [0]])
def test_card_refuses_what_is_not_a_card(value: Any) -> None:
    """Front-end guide, "Errors": anything that is not a card is InvalidNotationError."""
    with pytest.raises(InvalidNotationError, match="not a card"):
        Card(value)


def test_card_needs_a_value() -> None:
    """Front-end guide, "Errors": ``Card()`` is not the Ace of spades but an error."""
    with pytest.raises(InvalidNotationError):
        Card()  # type: ignore[call-arg]


def test_suit_and_rank_read_their_letters() -> None:
    """Front-end guide, "Errors": ``Suit("C")`` reads the letter as parse_suit does,
    numbers still give the member, and junk is InvalidNotationError."""
    assert Suit("C") is Suit.CLUBS and Suit("♥") is Suit.HEARTS and Suit("spades") is Suit.SPADES
    assert Suit(2) is Suit.DIAMONDS
    assert Rank("Q") is Rank.QUEEN and Rank("10") is Rank.TEN and Rank(0) is Rank.ACE
    for bad in ("X", "", 9, -1, 2.5, None):
        with pytest.raises(InvalidNotationError):
            Suit(bad)
        with pytest.raises(InvalidNotationError):
            Rank(bad)


# -- actions built by hand --------------------------------------------------------------------


def test_hand_built_action_is_checked_where_it_is_made() -> None:
    """Front-end guide, "Errors": a hand-built Action is checked at construction; its
    kind may be given as its word and its card as text or number."""
    assert Action("pass") is not A.PASS and Action("pass") == A.PASS
    assert Action(Kind.PLAY, card="TS") == A.PLAY[1] == Action(Kind.PLAY, card=1)
    assert Action(Kind.TRUMP, suit="H") == A.TRUMP[Suit.HEARTS]
    for fields in (
        {"kind": "garbage"},
        {"kind": 3},
        {"kind": Kind.PLAY},
        {"kind": Kind.PLAY, "card": 40},
        {"kind": Kind.PLAY, "card": "ZZ"},
        {"kind": Kind.BID, "number": "300"},
        {"kind": Kind.BID, "number": 10**5000},
        {"kind": Kind.BID, "number": -10},
        {"kind": Kind.TRUMP, "suit": "X"},
        {"kind": Kind.TRUMP, "suit": 1.5},
        {"kind": Kind.MELD, "cards": (40,), "name": "marriage"},
        {"kind": Kind.MELD, "cards": "AS KS", "name": "marriage"},
        {"kind": Kind.MELD, "cards": (Card("KS"),), "name": 7},
        {"kind": Kind.MELD, "name": "x" * 10_000},
        {"kind": Kind.PLAY, "card": 1, "source": ["table"]},
        {"kind": Kind.DEAL, "cards": iter(lambda: 0, 1)},  # endless: refused, not read forever
    ):
        with pytest.raises(InvalidNotationError) as info:
            Action(**fields)
        assert len(str(info.value)) < 300


def test_malformed_actions_never_crash_apply_or_explain() -> None:
    """Front-end guide, "Errors": well-typed actions the rules forbid are refused with
    IllegalActionError, in every profile, and the state does not change."""
    states = [binocle.new_game(name, seed=3) for name in binocle.profile_names()]
    states.append(_announcing_classic())
    odd = [
        Action(Kind.MELD, cards=(Card("KS"),), name="marriage"),
        Action(Kind.MELD, cards=(Card("KS"), Card("QS")), name="marriage", source="KS#99 QS"),
        Action(Kind.MELD, cards=(), name="four kings"),
        Action(Kind.MELD, name="nonsense", source="garbage"),
        Action(Kind.PLAY, card=Card("KS"), number=999, source="table"),
        Action(Kind.PLAY, card=Card("KS"), source="nowhere"),
        Action(Kind.DIX, number=7),
        Action(Kind.CLAIM, number=999),
        Action(Kind.BID, number=255),
        Action(Kind.PASS, card=Card("AS"), suit=Suit.CLUBS),
        Action(Kind.CONCEDE, cards=binocle.pack()),
    ]
    for s in states:
        before = binocle.dumps(s)
        for a in odd:
            if a in binocle.legal_actions(s):
                continue
            with pytest.raises(IllegalActionError):
                binocle.apply(s, a)
        assert binocle.dumps(s) == before


def test_classic_declaration_naming_a_card_three_times() -> None:
    """Classic rules, "Meld": a declaration naming a card more often than the pack holds
    it is an illegal announcement (IllegalActionError), so validate reports it as an
    irregular meld; the message is short."""
    s = _announcing_classic()
    with pytest.raises(IllegalActionError, match="names KS 3 times"):
        binocle.apply(s, "meld marriage KS KS KS QS")
    long = "meld marriage " + "KS " * 80 + "QS"
    with pytest.raises(InvalidNotationError) as info:
        binocle.apply(s, long)  # more cards than any action holds
    assert len(str(info.value)) < 300
    r = binocle.record(s)
    r["actions"].append({"seat": s.current_player, "action": "meld marriage KS KS KS QS"})
    report = binocle.validate(r)
    assert report.kind == "irregular meld" and report.index == len(r["actions"]) - 1


# -- numbers in text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["bid ²", "bid ٣٠٠", "bid 1" + "0" * 5000, "bid +300", "bid -300", "bid 1_000"]
)
def test_numbers_in_action_text_are_ascii_digits(text: str) -> None:
    """Front-end guide, "Errors": a number in action text is ASCII digits, at most nine:
    anything else is InvalidNotationError with a short message."""
    s = binocle.new_game("cutthroat", seed=1)
    with pytest.raises(InvalidNotationError) as info:
        binocle.apply(s, text)
    assert len(str(info.value)) < 200


def test_table_copy_number_is_ascii_digits() -> None:
    """Front-end guide, "Errors": ``play KS table ²`` is a notation error, not a crash."""
    s = binocle.new_game("classic", seed=1)
    for text in ("play KS table ²", "play KS table " + "9" * 5000, "meld marriage QS + KS#²"):
        with pytest.raises(InvalidNotationError):
            binocle.parse_action(s, text)


def test_record_meld_totals_are_ascii_digits() -> None:
    """Record format: ``meld <total>`` is ASCII digits; ``meld ²`` or a 5,000-digit total
    is an entry that cannot be read: replay refuses the record (InvalidStateError), and
    validate reports the entry as an illegal action (``not-legal``) without raising."""
    s = binocle.new_game("cutthroat", seed=7)
    for total in ("²", "9" * 5000):
        r = binocle.record(s)
        r["actions"].append({"seat": s.current_player, "action": f"meld {total}"})
        with pytest.raises(InvalidStateError):
            binocle.replay(r)
        report = binocle.validate(r)
        assert not report.ok and report.index == len(r["actions"]) - 1
        assert report.violations[0].code is RuleCode.NOT_LEGAL
        assert len(str(report)) < 2000


@pytest.mark.parametrize(
    "spec",
    [
        "cutthroat(min_bid=²)",
        "cutthroat(min_bid=" + "9" * 5000 + ")",
        "cutthroat(min_bid=-5)",
        "cutthroat(min_bid=1e99)",
        "classic(target=abc)",
        "cutthroat(min_bid=(300))",
        "cutthroat((min_bid=300))",
        "cutthroat(max_bid=100000)",
        "classic(target=" + "9" * 12 + ")",
    ],
)
def test_profile_option_numbers(spec: str) -> None:
    """Profiles: option numbers are ASCII digits, bounded; anything else is
    UnknownProfileError with a short message."""
    with pytest.raises(UnknownProfileError) as info:
        binocle.profile(spec)
    assert len(str(info.value)) < 400


def test_profile_keyword_options_are_bounded() -> None:
    """Profiles: an option given by keyword is bounded too, so the profile's text
    (``spec()``) can always be written."""
    for options in ({"target": 10**5000}, {"target": 10**9}, {"max_bid": 20_000}):
        with pytest.raises(UnknownProfileError):
            binocle.profile("cutthroat", **options)
    assert binocle.profile("cutthroat", target=999_999_999).spec() == (
        "cutthroat(target=999999999)"
    )


# -- linear parsing -----------------------------------------------------------------------------


def test_profile_spec_parsing_is_linear() -> None:
    """Profiles: reading a spec takes time in proportion to its length (a pattern that
    backtracked took 14 s on 64,000 spaces)."""
    for spec in ("a" + " " * 64000 + "x", "cutthroat" + " " * 64000 + "(", "(" * 64000):
        t = time.process_time()
        with pytest.raises(UnknownProfileError):
            binocle.profile(spec)
        assert time.process_time() - t < 2.0  # CPU seconds; quadratic: 14 s


def test_big_records_are_read_in_linear_time() -> None:
    """Record format: a 64 KB record of junk is refused quickly by loads, replay and
    validate."""
    base = binocle.record(binocle.new_game("cutthroat", seed=1))
    junk: list[dict[str, Any]] = [
        {**base, "profile": "a" + " " * 64000 + "x"},
        {**base, "actions": [{"seat": None, "action": "meld " + " " * 64000 + "x"}]},
        {**base, "actions": [{"seat": None, "action": "deal " + "AS " * 21000}]},
    ]
    for doc in junk:
        for read in (binocle.replay, binocle.validate, binocle.loads):
            t = time.process_time()
            if read is binocle.validate and doc["profile"] == "cutthroat":
                # An entry that cannot be read is a violation, reported (validate never
                # raises on a record load_record reads).
                report = binocle.validate(json.dumps(doc))
                assert not report.ok and len(str(report)) < 2000
            else:
                with pytest.raises(InvalidStateError) as info:
                    read(json.dumps(doc))
                assert len(str(info.value)) < 400
            assert time.process_time() - t < 2.0  # CPU seconds; quadratic: 13.5 s


# -- one rule for str, bytes and dict --------------------------------------------------------


def test_loads_replay_validate_take_text_bytes_and_dict() -> None:
    """Record format, "Saved states": loads, load_record, replay and validate all take
    JSON text as str or bytes, or the dict it parses to, and leave a dict unchanged."""
    s = binocle.apply(binocle.new_game("cutthroat", seed=7), "bid 250")
    text = binocle.dumps(s)
    doc = json.loads(text)
    kept = copy.deepcopy(doc)
    assert binocle.loads(text) == binocle.loads(text.encode()) == binocle.loads(doc) == s
    assert doc == kept
    rec = binocle.record(s)
    rtext = json.dumps(rec)
    for given in (rec, rtext, rtext.encode(), bytearray(rtext.encode("utf-16"))):
        assert binocle.replay(given) == s
        assert binocle.validate(given).ok
        assert binocle.load_record(given) == rec
    for bad in (None, 42, [rec], ("x",)):
        for read in (binocle.loads, binocle.replay, binocle.validate, binocle.load_record):
            with pytest.raises(InvalidStateError):
                read(bad)


# -- pickling and copying long games ---------------------------------------------------------


def test_states_of_any_length_pickle_copy_and_round_trip() -> None:
    """Front-end guide, "Saving a game": a state pickles, copies and round-trips through
    JSON whatever the length of its history (20,000 actions here; a nested history once
    hit RecursionError past about 991)."""
    s = binocle.new_game("cutthroat", seed=1)
    rng = random.Random(1)
    played = len(s.moves())
    while played < 20_000 and not binocle.is_over(s):
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
        played += 1
    assert len(s.moves()) == 20_000
    back = pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == s and back.moves() == s.moves() and hash(back) == hash(s)
    assert binocle.legal_actions(back) == binocle.legal_actions(s)
    assert copy.copy(s) is s and copy.deepcopy(s) is s
    assert binocle.loads(binocle.dumps(s)) == s


# -- caches ---------------------------------------------------------------------------------------


def test_refused_bids_do_not_grow_memory() -> None:
    """Front-end guide, "Errors": no cache grows with what callers send: reading many
    different bids, refused ones included, keeps memory flat."""
    s = binocle.new_game("cutthroat", seed=1)

    def burst(start: int) -> None:
        for n in range(start, start + 20_000):
            for text in (f"bid {n}", f" bid {n} " + " " * 100):
                with contextlib.suppress(BinocleError):
                    binocle.apply(s, text)

    burst(100_000)  # warm every bounded cache
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    burst(200_000)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 200_000, grown
    assert A.bid(300) is A.bid(300)  # the bids a profile allows stay interned


# -- arguments --------------------------------------------------------------------------------------


def test_record_and_dumps_check_their_arguments() -> None:
    """Record format: ``seats`` is a list of names and ``indent`` None or 0..16; anything
    else is InvalidArgumentError, never TypeError or OverflowError from json."""
    s = binocle.new_game("cutthroat", seed=1)
    for seats in (5, "abc", ["a", "b"], ["a", "b", 3]):
        with pytest.raises(InvalidArgumentError):
            binocle.record(s, seats=seats)
        with pytest.raises(InvalidArgumentError):
            binocle.record_json(s, seats=seats)
    for indent in (1.5, 2**70, -1, "  ", True, 17):
        with pytest.raises(InvalidArgumentError):
            binocle.dumps(s, indent=indent)
        with pytest.raises(InvalidArgumentError):
            binocle.record_json(s, indent=indent)
    assert binocle.loads(binocle.dumps(s, indent=0)) == s
    assert binocle.replay(binocle.load_record(binocle.record_json(s, indent=16))) == s


def test_seeds_are_bounded() -> None:
    """Front-end guide, "Seeds and secrecy": a seed is a whole number of at most 64 bits
    (and a sign); a bigger one is InvalidArgumentError, in a record InvalidStateError."""
    assert binocle.new_game("cutthroat", seed=2**64 - 1).seed == 2**64 - 1
    with pytest.raises(InvalidArgumentError):
        binocle.new_game("cutthroat", seed=10**5000)
    r = binocle.record(binocle.new_game("cutthroat", seed=1))
    r["seed"] = 2**64
    with pytest.raises(InvalidStateError):
        binocle.replay(r)


def test_messages_quote_bounded_excerpts() -> None:
    """Front-end guide, "Errors": a message quotes at most about 80 characters of what it
    was given, then "…"."""
    s = binocle.new_game("cutthroat", seed=1)
    huge = "x" * 3_000_000
    for call in (
        lambda: binocle.parse_card(huge),
        lambda: binocle.parse_suit(huge),
        lambda: binocle.apply(s, huge),
        lambda: binocle.apply(s, "play " + huge),
        lambda: binocle.profile(huge),
        lambda: binocle.profile("cutthroat(" + huge + ")"),
        lambda: binocle.loads(huge),
        lambda: binocle.replay({**binocle.record(s), "format": huge}),
    ):
        with pytest.raises(BinocleError) as info:
            call()
        assert len(str(info.value)) < 300
