"""Game records (``binocle.record``/``replay``) and the validator (``binocle.validate``)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import binocle
from binocle.bots import BaselineBot, RandomBot, play_game
from binocle.records import FORMAT, VERSION

PROFILES = binocle.profile_names()


def _game(profile: str, seed: int = 5, **kw: Any) -> binocle.GameState:
    return play_game(profile, seed=seed, **kw)


def _until(profile: str, seed: int, phase: binocle.Phase) -> binocle.GameState:
    """A game played by baseline bots up to the first state in ``phase``."""
    s = binocle.new_game(profile, seed=seed)
    bots = [BaselineBot(seed * 10 + i) for i in range(s.profile.players)]
    for _ in range(2000):
        if s.phase is phase:
            return s
        p = s.current_player
        action = binocle.legal_actions(s)[0] if p is None else bots[p].choose(binocle.observe(s, p))
        s = binocle.apply(s, action)
    raise AssertionError(f"no {phase} phase reached")


def _random_game(profile: str, seed: int, max_hands: int) -> binocle.GameState:
    n = binocle.profile(profile).players
    return play_game(
        profile, [RandomBot(seed * 10 + i) for i in range(n)], seed=seed, max_hands=max_hands
    )


# -- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_record_replays_to_the_same_state(profile: str) -> None:
    """A whole game's record replays, action by action, to an equal final state; the
    JSON text reads back to the same record; ``every=True`` gives every state in order."""
    seen: list[binocle.GameState] = []
    final = _game(profile, on_step=lambda before, action, after: seen.append(after))
    doc = binocle.record(final)
    assert doc["format"] == FORMAT and doc["version"] == VERSION
    assert doc["profile"] == final.profile.spec() and doc["seed"] == 5
    assert binocle.replay(doc) == final
    text = binocle.record_json(final)
    assert json.loads(text) == doc
    assert binocle.load_record(text) == doc
    assert binocle.replay(text) == final
    states = binocle.replay(doc, every=True)
    assert len(states) == len(doc["actions"]) + 1
    assert states[0] == binocle.start(profile, 5, 0)
    assert states[1:] == seen
    assert binocle.is_over(states[-1])


@pytest.mark.parametrize("profile", PROFILES)
def test_record_of_unfinished_random_games(profile: str) -> None:
    """Random play (claims, concessions, every phase) round-trips too, mid-hand and
    between hands, with a first dealer other than seat 0."""
    final = _random_game(profile, seed=3, max_hands=2)
    states = binocle.replay(binocle.record(final), every=True)
    assert states[-1] == final
    for cut in (1, len(states) // 3, len(states) // 2):
        s = states[cut]
        assert binocle.replay(binocle.record(s)) == s
    s = binocle.new_game(profile, seed=9, dealer=1)
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    doc = binocle.record(s)
    assert doc["first_dealer"] == 1
    assert binocle.replay(json.loads(binocle.record_json(s, indent=None))) == s


@pytest.mark.parametrize("profile", PROFILES)
def test_every_deal_is_an_explicit_deck(profile: str) -> None:
    """RULES.md §1 "Dealing": a recorded deal is its explicit deck order, the whole pack,
    with no seat; the record has one deal per hand dealt."""
    final = _game(profile, seed=2)
    deals = [e for e in binocle.record(final)["actions"] if e["action"].startswith("deal ")]
    size = final.profile.pack_size
    assert len(deals) == final.hand_number
    for entry in deals:
        assert entry["seat"] is None
        cards = binocle.parse_cards(entry["action"][5:])
        assert sorted(cards) == list(binocle.pack(size))


def test_record_before_the_first_deal_and_seat_names() -> None:
    """A game not yet dealt records no action; seat names are kept, and must fit the table."""
    s = binocle.start("classic", seed=4)
    doc = binocle.record(s, seats=["Anna", None])
    assert doc["actions"] == [] and doc["seats"] == ["Anna", None]
    assert binocle.replay(doc) == s
    with pytest.raises(binocle.InvalidArgumentError):
        binocle.record(s, seats=["Anna"])
    with pytest.raises(binocle.InvalidArgumentError):
        binocle.record("not a state")  # type: ignore[arg-type]


def test_hand_written_record_is_read() -> None:
    """A person's record: optional fields left out, tags and comments, cards as 10S or
    lower case, and the announced meld total ``meld <total>`` when it is exact."""
    s = _until("cutthroat", 11, binocle.Phase.MELD)
    doc = binocle.record(s)
    p = s.current_player
    assert p is not None and s.trump is not None
    worth = binocle.meld(s.hands[p], s.trump, "cutthroat").total
    entries = [dict(e) for e in doc["actions"]]
    entries[0]["action"] = entries[0]["action"].lower().replace("t", "10")
    entries[0]["comment"] = "Anna shuffled"
    entries.append({"seat": p, "action": f"meld {worth}"})
    hand_written = {
        "format": "binocle-record",
        "version": 1,
        "profile": "auction",
        "seed": 11,
        "tags": {"event": "club night"},
        "actions": entries,
    }
    assert binocle.replay(hand_written) == binocle.apply(s, "meld")


# -- refused records -----------------------------------------------------------------------


def _base() -> dict[str, Any]:
    s = binocle.new_game("cutthroat", seed=7)
    for text in ("pass", "bid 250"):
        s = binocle.apply(s, text)
    return binocle.record(s)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc[key] = value

    return change


def _entry(i: int, **fields: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["actions"][i] = {**doc["actions"][i], **fields}

    return change


def _append(seat: int | None, text: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["actions"].append({"seat": seat, "action": text})

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        del doc[key]

    return change


_DECK = binocle.record(binocle.new_game("cutthroat", seed=7))["actions"][0]["action"]

BAD_RECORDS = [
    ("wrong format", _set("format", "binocle-state"), "not a binocle record"),
    ("wrong version", _set("version", 2), "record version 2 is not supported"),
    ("version true", _set("version", True), "record version True is not supported"),
    ("version 1.0", _set("version", 1.0), "record version 1.0 is not supported"),
    ("unknown field", _set("deals", []), "unknown field 'deals'"),
    ("missing actions", _drop("actions"), "field 'actions' is missing"),
    ("unknown profile", _set("profile", "euchre"), "unknown profile 'euchre'"),
    ("profile option", _set("profile", "cutthroat(min_bid=7)"), "profile"),
    ("seed not a number", _set("seed", "7"), "seed is a whole number"),
    ("first dealer", _set("first_dealer", 3), "first_dealer is a seat 0..2"),
    ("seats", _set("seats", ["Anna"]), "seats is a list of 3 names"),
    ("tags", _set("tags", {"event": 3}), "tags is an object of texts"),
    ("actions not a list", _set("actions", "pass"), "actions is a list"),
    ("entry not an object", _set("actions", [["x"]]), "action 0: an entry"),
    ("entry field", _entry(1, player=1), "action 1: unknown field 'player'"),
    ("entry without seat", _set("actions", [{"action": "pass"}]), "needs both seat and action"),
    ("text not text", _entry(1, action=3), "action 1: the action is text"),
    ("seat out of range", _entry(1, seat=5), "action 1 ('pass'): seat is 0..2 or null"),
    ("comment not text", _entry(1, comment=1), "a comment is text"),
    ("deck too short", _entry(0, action=_DECK[:-3]), "action 0 ('deal "),
    ("card thrice", _entry(0, action=_DECK[:-2] + "AS"), "every card twice"),
    ("text does not parse", _entry(2, action="bid lots"), "action 2 ('bid lots') by seat 2"),
    ("not a card", _entry(2, action="play XX"), "action 2 ('play XX') by seat 2: not a card"),
    ("not the player to act", _entry(2, seat=0), "action 2 ('bid 250'): seat 0 acts, but the"),
    ("deal given a seat", _entry(0, seat=1), "the next action is a deal (seat null)"),
    ("player action without seat", _entry(1, seat=None), "no seat given, but seat 1 is to act"),
    ("illegal action", _append(0, "bid 240"), "action 3 ('bid 240') by seat 0: the lowest bid"),
    ("wrong meld total", _append(0, "meld 20"), "action 3 ('meld 20') by seat 0: seat 0 must"),
]


@pytest.mark.parametrize(
    ("case", "change", "message"), BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS]
)
def test_inconsistent_record_is_refused(
    case: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    """An inconsistent record raises InvalidStateError naming what and where (index,
    action text): unknown fields, wrong version, impossible deck (RULES.md §1), text that
    does not parse, a seat not to act, an action the rules forbid (RULES.md §5)."""
    doc = copy.deepcopy(_base())
    change(doc)
    with pytest.raises(binocle.InvalidStateError, match=_escape(message)):
        binocle.replay(doc)


def _escape(text: str) -> str:
    return re.escape(text)


def test_wrong_meld_total_and_moves_after_the_end_are_refused() -> None:
    """``meld <total>`` must be exactly the meld (RULES.md §4 "Melds"); nothing follows the
    end of the game; text that is not a record is refused."""
    s = _until("cutthroat", 11, binocle.Phase.MELD)
    p = s.current_player
    assert p is not None and s.trump is not None
    worth = binocle.meld(s.hands[p], s.trump, "cutthroat").total
    doc = binocle.record(s)
    doc["actions"].append({"seat": p, "action": f"meld {worth + 10}"})
    with pytest.raises(binocle.InvalidStateError, match=f"announces {worth + 10}, but the meld"):
        binocle.replay(doc)
    over = binocle.record(_game("classic"))
    over["actions"].append({"seat": 0, "action": "pass"})
    with pytest.raises(binocle.InvalidStateError, match="the game is over"):
        binocle.replay(over)
    for text in ("{not json", "[1, 2]", '"a string"', b"\xff"):
        with pytest.raises(binocle.InvalidStateError):
            binocle.load_record(text)
    with pytest.raises(binocle.InvalidStateError, match="not a binocle record"):
        binocle.replay({"format": "pgn"})


# -- the validator -------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_clean_game_passes(profile: str) -> None:
    """A legal game validates: no broken rule, the final scores and the winner."""
    final = _game(profile, seed=8)
    doc = binocle.record(final, seats=["A", "B", "C", "D"][: final.profile.players])
    report = binocle.validate(doc)
    assert report.ok and report.kind == "legal" and report.index is None
    assert report.scores == final.scores and report.winner == binocle.winner(final)
    assert report.over and report.states_checked == len(doc["actions"]) + 1
    assert report.wrong_claims == ()
    text = str(report)
    assert "legal game" in text and f"{report.winner} (" in text and "wins" in text
    assert binocle.validate(binocle.record_json(final, seats=report.seats)) == report
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        report.ok = False  # type: ignore[misc]


def _revoke(
    profile: str,
    seed: int,
    beat: bool = False,
    who: Callable[[Any, int], bool] | None = None,
) -> tuple[dict[str, Any], int, Any]:
    """A real game's record with one play replaced by a card that breaks the obligation
    (another suit while holding the suit led, or with ``beat`` a lower card of the suit
    led while holding a higher one), cut after it; ``who(state, seat)`` picks the seats
    whose plays may be changed."""
    final = _game(profile, seed=seed)
    doc = binocle.record(final)
    states = binocle.replay(doc, every=True)
    for i, entry in enumerate(doc["actions"]):
        s = states[i]
        p = s.current_player
        if p is None or not s.trick or not entry["action"].startswith("play "):
            continue
        if who is not None and not who(s, p):
            continue
        led = s.trick[0][1].suit
        legal = binocle.legal_actions(s)
        plays = [a.card for a in legal if a.kind is binocle.Kind.PLAY and a.card is not None]
        if not all(c.suit is led for c in plays):
            continue  # free play (classic, while the stock lasts) or void in the suit led
        for c in s.hands[p]:
            if beat != (c.suit is led):
                continue
            if binocle.parse_action(s, f"play {c}") not in legal:
                doc["actions"][i] = {"seat": p, "action": f"play {c}"}
                doc["actions"] = doc["actions"][: i + 1]
                return doc, i, s
    raise AssertionError("no revoke found")


@pytest.mark.parametrize("profile", PROFILES)
def test_validator_catches_a_revoke(profile: str) -> None:
    """Each profile's rules page, "Revoke": a card off the suit led while holding it is a
    revoke, reported with the rule it broke and the penalty of that profile's rules."""
    doc, i, s = _revoke(profile, seed=4)
    p = s.current_player
    report = binocle.validate(doc)
    assert not report.ok and report.kind == "revoke"
    assert (report.index, report.seat, report.action) == (i, p, doc["actions"][i]["action"])
    assert report.rule is not None and "must follow suit" in report.rule
    assert report.penalty is not None
    assert report.penalty == s.profile.revoke_penalty(s, p)
    assert f"hand {s.hand_number}" in report.penalty
    assert report.states_checked == i + 1 and report.scores == s.scores
    assert report.winner is None and not report.over
    text = str(report)
    assert f"revoke at action {i}" in text and "rule broken: must follow suit" in text
    assert f"what follows: {report.penalty}" in text
    if profile == "cutthroat":
        # Cutthroat rules, Revoke: never the three-handed "loses his entire score for cards".
        assert "score for cards" not in report.penalty
        assert "(cutthroat rules, Revoke)" in report.penalty
    elif profile == "partnership":
        # Partnership rules, Revoke: the offending side's card points count 0.
        assert "score for cards" not in report.penalty
        assert "scores no card points" in report.penalty
        assert "(partnership rules, Revoke)" in report.penalty
    else:
        assert f"seat {p} loses his entire score for cards" in report.penalty
        assert f"({profile} rules, Revoke)" in report.penalty
    if not s.profile.revokes_played_out:
        assert report.hand_scores is None and report.played_out_scores is None
    if profile == "classic":
        assert "replayed from there" in report.penalty  # classic rules, Revoke
    else:
        assert "replayed" not in report.penalty


def test_failing_to_win_the_trick_is_a_revoke_too() -> None:
    """Cutthroat rules, Play and Revoke: not beating the card led when able is a revoke; a
    revoking opponent scores no card points and the bidder cannot be set."""
    doc, _, s = _revoke("cutthroat", seed=6, beat=True, who=lambda s, p: p != s.bidder)
    report = binocle.validate(doc)
    assert report.kind == "revoke" and report.rule is not None
    assert report.rule.startswith("must beat")
    assert report.penalty is not None
    assert report.penalty.startswith(
        f"seat {report.seat}, an opponent, scores no card points for hand {s.hand_number}"
    )
    assert (
        f"the bidder, seat {s.bidder}, cannot be set: he scores his bid of {s.bid}, or at his"
        " choice the hand played out" in report.penalty
    )
    assert report.penalty.endswith("(cutthroat rules, Revoke)")
    assert report.hand_scores is not None and report.hand_scores[s.bidder] == s.bid


@pytest.mark.parametrize("spec", ["cutthroat", "cutthroat(single_set=true)"])
def test_a_revoking_bidder_is_scored_on_his_meld(spec: str) -> None:
    """Cutthroat rules, Revoke: a revoking bidder's card points count 0 for him and he is
    scored as usual on what is left; here his meld alone reaches his bid, so he is not set
    (the set itself: see the hands built below)."""
    doc, _, s = _revoke(spec, seed=4, who=lambda s, p: p == s.bidder)
    report = binocle.validate(doc)
    assert report.kind == "revoke" and report.seat == s.bidder
    meld = s.melds[s.bidder].total
    assert meld >= s.bid  # the position this seed gives
    assert report.penalty is not None
    assert report.penalty.startswith(
        f"seat {s.bidder}, the bidder, scores no card points for hand {s.hand_number}"
    )
    assert f"his meld of {meld} reaches his bid of {s.bid}, so he is not set" in report.penalty
    assert report.penalty.endswith("(cutthroat rules, Revoke)")
    assert report.hand_scores is not None and report.hand_scores[s.bidder] == meld
    assert report.played_out_scores is None


# -- the cutthroat revoke, scored (cutthroat rules, Revoke) ---------------------------------
#
# One deal, dealer seat 0: seat 1 bids 250 and the others pass; he takes the widow
# AH TH KH, discards 9C 9C QS (no counter) and names hearts.  Melds: seat 0 90 (dix,
# two marriages, jacks around), seat 1 200 (run, royal marriage, dix), seat 2 80 (two
# marriages, pinochle).  The first six tricks (leader first):
#
#   1  1:AH 2:9D 0:9H  seat 1 takes 10      4  1:AS 2:9S 0:9S  seat 1 takes 10
#   2  1:AH 2:9D 0:JH  seat 1 takes 10      5  1:KS 2:AS 0:JS  seat 2 takes 20
#   3  1:TH 2:JD 0:QH  seat 1 takes 10      6  2:QD 0:AD 1:KD  seat 0 takes 20
#
# Trick 7: seat 0 leads TC, seat 1 trumps with 9H, and seat 2, who holds clubs, plays
# TS: a revoke ("must follow suit C").  Seat 1's trump wins it: 20 more for him.

_HANDS: list[str] = [
    "QH JH 9H JS 9S TC KC QC JC JC AD TD KD QD JD",
    "AH TH KH QH JH 9H AS TS KS QS 9C 9C AD TD KD",
    "AS TS KS QS JS 9S AC AC TC KC QC QD JD 9D 9D",
]
_FIRST_TRICKS = "AH 9D 9H AH 9D JH TH JD QH AS 9S 9S KS AS JS"


def _revoke_record(
    spec: str, bid: int, plays: str, revoke: tuple[int, str], after: str = ""
) -> dict[str, Any]:
    """The deal above in ``spec``, seat 1 bidding ``bid``: the legal ``plays``, then
    ``revoke`` (seat, card), then ``after``: "seat:card" entries, as the record has them."""
    deck = binocle.stack_deck("cutthroat", _HANDS, dealer=0, widow="AH TH KH")
    s = binocle.new_game(spec, deck=deck, dealer=0)
    for text in [f"bid {bid}", "pass", "pass", "discard 9C", "discard 9C", "discard QS"]:
        s = binocle.apply(s, text)
    for text in ["trump H", "meld", "meld", "meld"]:
        s = binocle.apply(s, text)
    for card in plays.split():
        s = binocle.apply(s, f"play {card}")
    doc = binocle.record(s)
    seat, card = revoke
    assert s.current_player == seat and binocle.parse_card(card) in s.hands[seat]
    doc["actions"].append({"seat": seat, "action": f"play {card}"})
    for entry in after.split():
        who, _, played = entry.partition(":")
        doc["actions"].append({"seat": int(who), "action": f"play {played}"})
    return doc


#: Tricks 8-15 after seat 2's revoke, seat 1 leading every one:
#:   8 TH JS JC, 9 KH QS JC, 10 KH QC JD, 11 QH KS QD, 12 JH KC QC: 10 each to seat 1;
#:   13 AD TC TD, 14 TD AC KD, 15 TS AC KC: 30 each to seat 1, and the last trick.
_AFTER_OPPONENT = (
    "1:TH 2:JS 0:JC 1:KH 2:QS 0:JC 1:KH 2:QC 0:JD 1:QH 2:KS 0:QD 1:JH 2:KC 0:QC"
    " 1:AD 2:TC 0:TD 1:TD 2:AC 0:KD 1:TS 2:AC 0:KC"
)


def test_an_opponents_revoke_with_the_record_stopping_there() -> None:
    """Cutthroat rules, Revoke: the offender's card points count 0 for him, but his meld
    stands, as he won a counter (trick 5); the bidder cannot be set and scores his bid;
    the other opponent scores as usual.  The record stops at the revoke, so there is no
    score for the hand played out.

    Seat 0: meld 90 (he won a counter, trick 6) + 20 = 110; seat 1: his bid, 250; seat 2:
    meld 80 + 0 (his 20 in trick 5 count 0) = 80.
    """
    doc = _revoke_record("cutthroat", 250, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"))
    report = binocle.validate(doc)
    assert not report.ok and report.kind == "revoke" and report.seat == 2
    assert (
        report.index == len(doc["actions"]) - 1
        and report.rule == "must follow suit C: holds AC TC KC QC"
    )
    assert report.hand_scores == (110, 250, 80)
    assert report.played_out_scores is None
    assert report.scores == (0, 0, 0) and report.states_checked == len(doc["actions"])
    assert report.penalty == (
        "seat 2, an opponent, scores no card points for hand 1 (the last trick still"
        " counts): his meld of 80 stands (he has won a counter); the bidder, seat 1, cannot"
        " be set: he scores his bid of 250, or at his choice the hand played out, scored as"
        " usual but never below 250 (cutthroat rules, Revoke)"
    )
    assert any("is not played out in the record" in note for note in report.notes)
    text = str(report)
    assert "hand 1 scored by the revoke rule: seat 0 110, seat 1 250, seat 2 80" in text
    assert "played out, at the bidder's choice" not in text


def test_an_opponents_revoke_with_the_hand_played_out() -> None:
    """Cutthroat rules, Revoke: the record plays the hand out past an opponent's revoke,
    so both figures are given: the bidder at his bid, and the hand played out, scored as
    usual (he is never set).

    Seat 1 takes 10+10+10+10 (tricks 1-4) + 20 (trick 7) + 5 x 10 (tricks 8-12) + 3 x 30
    (tricks 13-15) = 200 in counters, no counter in his discards, and the last trick: 210;
    with his meld of 200, 410, more than his bid.  Seats 0 and 2 score as in the record
    stopped at the revoke: 110 and 80 (their counters: 20 each, of 240).
    """
    doc = _revoke_record(
        "cutthroat", 250, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"), _AFTER_OPPONENT
    )
    report = binocle.validate(doc)
    assert report.kind == "revoke" and report.index == len(doc["actions"]) - 25
    assert report.hand_scores == (110, 250, 80)
    assert report.played_out_scores == (110, 410, 80)
    assert not any("not played out" in note for note in report.notes)
    n = report.index
    assert any(
        f"actions {n + 1} to {n + 24} checked, to the end of the hand" in note
        for note in report.notes
    )
    text = str(report)
    assert "hand 1 scored by the revoke rule: seat 0 110, seat 1 250, seat 2 80" in text
    assert "hand 1 played out, at the bidder's choice: seat 0 110, seat 1 410, seat 2 80" in text


def test_the_hand_played_out_never_sets_the_bidder() -> None:
    """Cutthroat rules, Revoke: after an opponent's revoke the hand played out is scored
    as usual but never below the bid.  Bid 420: his meld of 200 and 210 in tricks (as
    above) make 410, short of it, so the hand played out gives him 420, not a set."""
    doc = _revoke_record(
        "cutthroat", 420, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"), _AFTER_OPPONENT
    )
    report = binocle.validate(doc)
    assert report.hand_scores == (110, 420, 80)
    assert report.played_out_scores == (110, 420, 80)


def test_a_further_broken_rule_stops_the_play_out_with_first_only() -> None:
    """Cutthroat rules, Revoke, with ``first_only``: the hand past the revoke is replayed
    through the usual checks only to score it; a card out of turn (seat 0 before seat 2,
    trick 8) stops it there, with a note, and the hand is scored as far as it went: as
    when the record stops at the revoke."""
    doc = _revoke_record(
        "cutthroat", 250, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"), "1:TH 0:JC 2:JS"
    )
    report = binocle.validate(doc, first_only=True)
    assert report.first_only and len(report.violations) == 1
    assert report.kind == "revoke" and report.index == len(doc["actions"]) - 4
    assert report.hand_scores == (110, 250, 80) and report.played_out_scores is None
    stop = [note for note in report.notes if "stops there" in note]
    assert len(stop) == 1 and stop[0].startswith(
        f"action {report.index + 2} ('play JC') by seat 0, out of turn"
    )


@pytest.mark.parametrize(
    ("spec", "loss"), [("cutthroat", 500), ("cutthroat(single_set=true)", 250)]
)
def test_a_revoking_bidder_short_of_his_bid_is_set(spec: str, loss: int) -> None:
    """Cutthroat rules, Revoke: the bidder revokes (trick 6: QD led, he holds diamonds and
    trumps with 9H, which wins the trick); his card points count 0, and his meld of 200 is
    short of his bid of 250: he is set, for twice his bid (once with ``single_set``).

    Seat 2: meld 80 (a counter, trick 5) + 20 = 100; seat 0 has won no counter (his Ace
    went to the revoking trump): 0.
    """
    doc = _revoke_record(spec, 250, f"{_FIRST_TRICKS} QD AD", (1, "9H"))
    report = binocle.validate(doc)
    assert report.kind == "revoke" and report.seat == 1
    assert report.rule == "must follow suit D: holds AD TD KD"
    assert report.hand_scores == (0, -loss, 100) and report.played_out_scores is None
    how = "twice his bid" if loss == 500 else "his bid, set single"
    assert report.penalty == (
        "seat 1, the bidder, scores no card points for hand 1 (neither his counters nor his"
        " discards; the last trick still counts): his meld of 200 falls short of his bid of"
        f" 250, so he is set: he loses {loss} ({how}); the opponents score as usual"
        " (cutthroat rules, Revoke)"
    )


def test_a_revoking_bidder_whose_meld_reaches_his_bid() -> None:
    """Cutthroat rules, Revoke: the bidder revokes, but his meld alone, 200, reaches his
    bid of 200 (``min_bid=200``): he is not set and scores his meld, 200."""
    doc = _revoke_record("cutthroat(min_bid=200)", 200, f"{_FIRST_TRICKS} QD AD", (1, "9H"))
    report = binocle.validate(doc)
    assert report.kind == "revoke" and report.seat == 1
    assert report.hand_scores == (0, 200, 100) and report.played_out_scores is None
    assert report.penalty is not None
    assert (
        "his meld of 200 reaches his bid of 200, so he is not set: he scores 200" in report.penalty
    )


#: Tricks 7-15 after the bidder's revoke (his 9H takes trick 6), seat 1 leading every one.
_AFTER_BIDDER = (
    "1:TH 2:JS 0:JC 1:KH 2:QS 0:JC 1:KH 2:QC 0:JD 1:QH 2:KS 0:QD 1:JH 2:KC 0:QC"
    " 1:AD 2:TC 0:TD 1:TD 2:AC 0:KD 1:KD 2:AC 0:TC 1:TS 2:TS 0:KC"
)


def test_the_last_trick_still_counts_for_a_revoking_bidder() -> None:
    """Cutthroat rules, Revoke: the last trick is not card points, so it still counts for
    the offender.  The bidder revokes in trick 6 and the record plays the hand out; he
    takes every trick left and the last one: his meld of 200 + 10 reaches his bid of 210,
    so he scores 210.  Seat 2: meld 80 + 20 (trick 5) = 100; seat 0, no counter: 0.  A
    revoking bidder has no choice: no score for the hand played out."""
    doc = _revoke_record(
        "cutthroat(min_bid=200)", 210, f"{_FIRST_TRICKS} QD AD", (1, "9H"), _AFTER_BIDDER
    )
    report = binocle.validate(doc)
    assert report.kind == "revoke" and report.index == len(doc["actions"]) - 28
    assert report.hand_scores == (0, 210, 100) and report.played_out_scores is None
    assert report.penalty is not None
    assert (
        "falls short of his bid of 210, so unless the last trick makes it up he is set"
        in report.penalty
    )
    assert any("to the end of the hand" in note for note in report.notes)


def test_wrong_claim_loses_the_two_handed_game() -> None:
    """RULES.md §2 "Claiming": a claim is a legal action; a wrong one loses the game. It
    is reported as the game's result, not as a broken rule."""
    s = binocle.new_game("classic", seed=3)
    pone = s.current_player
    assert pone is not None
    s = binocle.apply(s, "claim")
    report = binocle.validate(binocle.record(s))
    assert report.ok and report.over and report.winner == 1 - pone
    assert report.wrong_claims == ((1, pone),)
    assert "loses the game" in report.notes[0] and "target of 1000" in report.notes[0]
    assert "note: action 1" in str(report)


def test_wrong_claim_retires_in_the_three_handed_game() -> None:
    """RULES.md §3 "Game": a wrong claim retires the claimant; the others play on."""
    s = _until("three-handed", 4, binocle.Phase.PLAY)
    claimant = s.current_player
    assert claimant is not None
    s = binocle.apply(s, "claim")
    report = binocle.validate(binocle.record(s))
    assert report.ok and not report.over
    assert report.wrong_claims[0][1] == claimant
    assert f"seat {claimant} retires" in report.notes[0]


def _at_meld(profile: str, seed: int) -> tuple[binocle.GameState, dict[str, Any]]:
    s = _until(profile, seed, binocle.Phase.MELD)
    return s, binocle.record(s)


@pytest.mark.parametrize("profile", ["cutthroat", "three-handed"])
def test_over_scored_meld_can_be_taken_down(profile: str) -> None:
    """Seed 002 "Should a player score more than he is entitled to": a meld announced at
    more than it is worth (``meld <total>``) is reported with its correct value."""
    if profile not in PROFILES:
        pytest.skip(f"no {profile} profile")
    s, doc = _at_meld(profile, seed=12)
    p = s.current_player
    assert p is not None and s.trump is not None
    worth = binocle.meld(s.hands[p], s.trump, profile).total
    doc["actions"].append({"seat": p, "action": f"meld {worth + 80}"})
    report = binocle.validate(doc)
    assert not report.ok and report.kind == "over-scored meld"
    assert (report.claimed_value, report.correct_value) == (worth + 80, worth)
    assert report.penalty is not None and "the 80 points over can be taken down" in report.penalty
    assert f"correct value: {worth}" in str(report)
    doc["actions"][-1]["action"] = f"meld {worth}"
    assert binocle.validate(doc).ok
    if worth:
        doc["actions"][-1]["action"] = f"meld {worth - 10}"
        under = binocle.validate(doc)
        assert under.ok and "less than" in under.notes[0]


def _classic_announce(seed: int) -> tuple[binocle.GameState, dict[str, Any]]:
    s = _until("classic", seed, binocle.Phase.ANNOUNCE)
    return s, binocle.record(s)


def test_irregular_classic_meld_is_taken_down() -> None:
    """Seed 002 "Irregular Melds": four Queens announced with a Queen missing is refused;
    the score is taken down to what the cards shown really make (RULES.md §2)."""
    s, doc = _classic_announce(seed=1)
    p = s.current_player
    assert p is not None
    doc["actions"].append({"seat": p, "action": "meld four queens QS QH QD QC"})
    hand = binocle.observe(s, p).get("concealed")
    assert hand.count(binocle.parse_card("QC")) == 0 or hand.count(binocle.parse_card("QS")) == 0
    report = binocle.validate(doc)
    assert not report.ok and report.kind == "irregular meld"
    assert report.claimed_value == 60 and report.correct_value == 0
    assert report.penalty is not None and "classic rules, Irregular melds" in report.penalty


def test_over_scored_classic_meld_goes_to_the_adversary() -> None:
    """Seed 002: in the two-handed game the adversary may add the excess to his score."""
    s, doc = _classic_announce(seed=2)
    p = s.current_player
    assert p is not None
    doc["actions"].append({"seat": p, "action": "meld 300"})
    report = binocle.validate(doc)
    assert report.kind == "over-scored meld" and report.claimed_value == 300
    assert report.penalty is not None and f"seat {1 - p}, may add them" in report.penalty


def test_plain_marriage_announced_as_royal_is_taken_down_to_20() -> None:
    """RULES.md §2 "Meld table", seed 002 "Irregular Melds": a plain-suit marriage announced
    as a royal marriage (40) is worth 20, the value of the marriage those cards make."""
    for seed in range(1, 40):
        s, doc = _classic_announce(seed=seed)
        marriages = [a for a in binocle.legal_actions(s) if a.name == "marriage"]
        if marriages:
            break
    else:
        raise AssertionError("no marriage to announce")
    cards = " ".join(str(c) for c in marriages[0].cards)
    doc["actions"].append({"seat": s.current_player, "action": f"meld royal marriage {cards}"})
    report = binocle.validate(doc)
    assert report.kind == "irregular meld"
    assert (report.claimed_value, report.correct_value) == (40, 20)
    assert report.penalty is not None and f"(meld marriage {cards})" in report.penalty


def test_out_of_turn_and_other_illegal_actions() -> None:
    """Seed 002 "Irregularities in Play": acting out of turn is reported (no penalty);
    other refused actions give the engine's rule (RULES.md §4 "Bidding")."""
    doc = _base()
    doc["actions"][2]["seat"] = 0
    report = binocle.validate(doc)
    assert report.kind == "out of turn" and report.index == 2 and report.seat == 0
    assert report.rule == "out of turn: seat 0 acts, but the player to act is seat 2"
    doc = _base()
    doc["actions"].append({"seat": 0, "action": "bid 250"})
    report = binocle.validate(doc)
    assert report.kind == "illegal action" and report.index == 3
    assert report.rule == "a bid must be higher than the last bid, 250 (bid 250)"


def test_unreadable_record_raises() -> None:
    """A record that cannot be read at all (not a record; a field or entry of the wrong
    form) raises InvalidStateError instead of a report; an entry that cannot be read
    where it stands is reported (tests/test_violations.py)."""
    with pytest.raises(binocle.InvalidStateError):
        binocle.validate("[]")
    doc = _base()
    doc["actions"][1]["action"] = ["bid", 250]
    with pytest.raises(binocle.InvalidStateError, match="action 1"):
        binocle.validate(doc)
    doc = _base()
    doc["actions"][1]["action"] = "bid lots"
    assert binocle.validate(doc).index == 1


def test_json_with_a_key_twice_is_refused_by_every_reader() -> None:
    """Record format: JSON text whose object names one key twice is refused
    (InvalidStateError) by loads, load_record, replay and validate, at the top and in an
    entry: readers differ on which of the two values counts (binocle took the last,
    ``{"profile": "classic", "profile": "cutthroat"}`` replaying as cutthroat, where
    another tool reads the first)."""
    s = binocle.apply(binocle.new_game("cutthroat", seed=7), "bid 250")
    text = binocle.record_json(s, indent=None)
    top = text.replace('"profile": "cutthroat"', '"profile": "classic", "profile": "cutthroat"')
    entry = text.replace('"seat": 1,', '"seat": 2, "seat": 1,')
    assert top != text and entry != text
    for doc in (top, entry, top.encode("utf-8")):
        for read in (binocle.load_record, binocle.replay, binocle.validate):
            with pytest.raises(binocle.InvalidStateError, match="appears twice in one object"):
                read(doc)
    saved = binocle.dumps(s, indent=None)
    twice = saved.replace('"version": 1,', '"version": 1, "version": 1,', 1)
    assert twice != saved
    with pytest.raises(binocle.InvalidStateError, match="'version' appears twice"):
        binocle.loads(twice)
    assert binocle.loads(saved) == s and binocle.replay(text) == s
