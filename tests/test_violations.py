"""The validator past a broken rule: every violation, how the record goes on, the
penalties in the scores, the report as JSON and the entry's index on record errors."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.test_record import (
    _AFTER_OPPONENT,
    _FIRST_TRICKS,
    _base,
    _revoke,
    _revoke_record,
    _until,
)

import binocle
from binocle.bots import RandomBot, play_game
from binocle.cli import main
from binocle.errors import InvalidStateError, RuleCode
from binocle.records import meld_value
from binocle.rules.tricks import trick_winner
from binocle.validation import LEGAL, REVOKE, ValidationReport, Violation, ViolationKind

ROOT = Path(__file__).resolve().parent.parent


def _played(profile: str, seed: int) -> binocle.GameState:
    n = binocle.profile(profile).players
    return play_game(profile, [RandomBot(seed + i) for i in range(n)], seed=seed, max_hands=2)


def _running(scores: list[tuple[int, ...]], results: Any) -> list[tuple[int, ...]]:
    """The game scores at the end of each hand, from the hands' results."""
    total = scores[0]
    out = []
    for r in results:
        total = tuple(a + b for a, b in zip(total, r.delta, strict=True))
        out.append(total)
    return out


# -- kinds ----------------------------------------------------------------------------------


def test_kinds_are_an_enum_whose_members_are_the_old_texts() -> None:
    """Each kind is a ViolationKind, equal to its text; the module constants are the members."""
    assert [k.value for k in ViolationKind] == [
        "legal",
        "revoke",
        "over-scored meld",
        "irregular meld",
        "out of turn",
        "illegal action",
    ]
    assert REVOKE is ViolationKind.REVOKE and ViolationKind.REVOKE == "revoke"
    assert LEGAL == "legal" and str(ViolationKind.ILLEGAL) == "illegal action"
    report = binocle.validate(binocle.record(binocle.new_game("cutthroat", seed=7)))
    assert report.kind is ViolationKind.LEGAL and report.violations == ()


# -- going on past a broken rule --------------------------------------------------------------


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_an_entry_out_of_turn_is_taken_back_and_the_game_goes_on(profile: str) -> None:
    """Each rules page, Out of turn: the card or call is taken back without penalty and the
    right player acts; the rest of the record is checked, and the final scores and the
    scores at the end of each hand are the game's."""
    final = _played(profile, seed=3)
    doc = binocle.record(final)
    states = binocle.replay(doc, every=True)
    i = next(k for k, s in enumerate(states[:-1]) if s.current_player is not None and k > 2)
    actor = states[i].current_player
    assert actor is not None
    other = (actor + 1) % final.profile.players
    wrong = {"seat": other, "action": doc["actions"][i]["action"]}
    if binocle.parse_action(states[i], "pass") in binocle.legal_actions(states[i]):
        wrong["action"] = "pass"
    doc["actions"].insert(i, wrong)
    report = binocle.validate(doc)
    assert not report.ok and len(report.violations) == 1
    v = report.violations[0]
    assert (v.index, v.seat, v.kind, v.code) == (i, other, "out of turn", RuleCode.NOT_YOUR_TURN)
    assert v.scores == states[i].scores and report.stopped is None
    assert report.scores == final.scores and report.over == binocle.is_over(final)
    assert list(report.hand_end_scores) == _running([(0,) * len(final.scores)], final.results)
    assert report.states_checked == len(doc["actions"])  # the entry taken back is not a state
    first = binocle.validate(doc, first_only=True)
    assert first.first_only and first.scores == states[i].scores and not first.over
    assert first.violations == (v,) and first.hand_end_scores == tuple(
        _running([(0,) * len(final.scores)], states[i].results)
    )


def test_an_over_scored_meld_is_scored_at_its_true_value() -> None:
    """Cutthroat rules, Over-scored melds: the excess is taken down and the meld scores
    what the cards make; the hand goes on, and both broken rules are listed in order."""
    final = play_game("cutthroat", seed=5)
    doc = binocle.record(final)
    states = binocle.replay(doc, every=True)
    i = next(k for k, e in enumerate(doc["actions"]) if e["action"] == "meld")
    p = states[i].current_player
    assert p is not None and states[i].trump is not None
    worth = binocle.meld(states[i].hands[p], states[i].trump, "cutthroat").total
    doc["actions"][i]["action"] = f"meld {worth + 50}"
    doc["actions"].insert(2, {"seat": (doc["actions"][2]["seat"] + 1) % 3, "action": "pass"})
    report = binocle.validate(doc)
    assert [v.kind for v in report.violations] == ["out of turn", "over-scored meld"]
    assert report.kind == "out of turn" and report.index == 2
    meld = report.violations[1]
    assert meld.index == i + 1 and meld.code is RuleCode.WRONG_VALUE
    assert (meld.claimed_value, meld.correct_value) == (worth + 50, worth)
    assert "the 50 points over can be taken down" in meld.penalty
    assert report.scores == final.scores and report.over and report.winner == binocle.winner(final)
    text = str(report)
    assert "2 broken rules in all" in text and "then over-scored meld at action" in text
    assert "[wrong-value]" in text and "penalties applied" in text


def test_an_over_scored_two_handed_meld_leaves_the_adversarys_option_to_the_text() -> None:
    """Classic rules, Over-scored melds: the excess is taken down; that the adversary may add
    it to his score is his option, said in the penalty, not scored."""
    s = _until("classic", 2, binocle.Phase.ANNOUNCE)
    p = s.current_player
    assert p is not None
    doc = binocle.record(s)
    doc["actions"].append({"seat": p, "action": "meld 300"})
    report = binocle.validate(doc)
    v = report.violations[0]
    assert v.kind == "over-scored meld" and f"seat {1 - p}, may add them" in v.penalty
    assert report.scores == binocle.apply(s, "meld").scores == v.scores
    assert report.states_checked == len(doc["actions"]) + 1


def test_an_irregular_classic_meld_is_taken_down_to_the_best_legal_announcement() -> None:
    """Classic rules, Irregular melds: a plain marriage announced as a royal marriage is
    taken down to the marriage those cards make, which stands; the record goes on."""
    for seed in range(1, 40):
        s = _until("classic", seed, binocle.Phase.ANNOUNCE)
        marriages = [a for a in binocle.legal_actions(s) if a.name == "marriage"]
        if marriages:
            break
    else:
        raise AssertionError("no marriage to announce")
    cards = " ".join(str(c) for c in marriages[0].cards)
    doc = binocle.record(s)
    doc["actions"].append({"seat": s.current_player, "action": f"meld royal marriage {cards}"})
    after = binocle.apply(s, marriages[0])
    follow = binocle.legal_actions(after)[0]
    doc["actions"].append({"seat": after.current_player, "action": str(follow)})
    report = binocle.validate(doc)
    assert [v.kind for v in report.violations] == ["irregular meld"]
    assert report.violations[0].correct_value == 20 and report.stopped is None
    assert binocle.replay(binocle.record(binocle.apply(after, follow))).scores == report.scores
    assert report.states_checked == len(doc["actions"]) + 1


def test_an_irregular_meld_that_scores_nothing_is_taken_back() -> None:
    """Classic rules, Irregular melds: four Queens without the four Queens score nothing
    there: the entry does not stand, and the player's next action follows."""
    s = _until("classic", 1, binocle.Phase.ANNOUNCE)
    doc = binocle.record(s)
    doc["actions"].append({"seat": s.current_player, "action": "meld four queens QS QH QD QC"})
    doc["actions"].append({"seat": s.current_player, "action": "pass"})
    report = binocle.validate(doc)
    assert [(v.kind, v.correct_value) for v in report.violations] == [("irregular meld", 0)]
    assert report.stopped is None and report.scores == binocle.apply(s, "pass").scores


def test_an_irregular_cutthroat_meld_is_the_meld_of_the_cards_shown() -> None:
    """Cutthroat rules, Irregular melds: a combination named is taken down to what the cards
    shown score; the meld is laid down whole, so that is the player's meld for the hand."""
    s = _until("cutthroat", 12, binocle.Phase.MELD)
    p = s.current_player
    assert p is not None and s.trump is not None
    doc = binocle.record(s)
    trump = s.trump.letter
    doc["actions"].append({"seat": p, "action": f"meld royal marriage K{trump} Q{trump}"})
    report = binocle.validate(doc)
    v = report.violations[0]
    held = [c for c in (f"K{trump}", f"Q{trump}") if binocle.parse_card(c) in s.hands[p]]
    shown = binocle.meld(" ".join(held), s.trump, "cutthroat").total if held else 0
    assert v.kind == "irregular meld" and v.correct_value == shown
    state = binocle.replay(binocle.record(s))
    assert state.current_player == p and report.states_checked == len(doc["actions"]) + 1


def _revoked_hand(profile: str, seed: int) -> tuple[binocle.GameState, int, int, bool]:
    """A game with a revoke (``_revoke``), played on past it to the end of the hand with
    the first legal action that is not a knock: the state at the hand's end (no penalty
    applied), the revoke's index, the offender, and whether he took the last trick
    (worked out here from the last trick's cards by the common rules, Trick winner)."""
    doc, i, s = _revoke(profile, seed=seed)
    p = s.current_player
    assert p is not None
    state = s.profile.apply(s, binocle.parse_action(s, doc["actions"][i]["action"]))
    n = len(state.results)
    while True:
        action = next(a for a in binocle.legal_actions(state) if a.kind is not binocle.Kind.CLAIM)
        after = binocle.apply(state, action)
        if len(after.results) > n:
            break
        state = after
    assert action.card is not None and state.trick and sum(map(len, state.hands)) == 1
    cards = [c for _, c in state.trick] + [action.card]
    seats = [q for q, _ in state.trick] + [state.current_player]
    return after, i, p, seats[trick_winner(cards, state.trump)] == p


@pytest.mark.parametrize("profile", ["classic", "three-handed"])
def test_a_revoke_costs_the_offender_his_score_for_cards_at_the_end_of_the_hand(
    profile: str,
) -> None:
    """Classic and three-handed rules, Revoke: the player in error loses his entire score
    for "cards" for that hand.  The revoking card is played anyway, the hand goes on as
    the record plays it, and at its end the card points of his tricks come off his game
    score, before the next deal; the last trick's 10 is scored apart from "cards"
    (classic rules: "The winner of the last trick scores ten points for it; and the
    players then ... count their score for 'cards'"; three-handed: "dix, melds, and the
    last trick are all scored with the counters ..., but the score for cards must be kept
    mentally"), so it stays his.  The next hand is checked from there."""
    took_last = 0
    for seed in (1, 3, 4) if profile == "classic" else (1, 2, 4):  # he took it or not
        state, i, p, last = _revoked_hand(profile, seed)
        tricks = state.results[-1].tricks[p]
        lost = tricks - 10 if last else tricks
        took_last += last
        doc = binocle.record(state)
        report = binocle.validate(doc)
        assert [v.kind for v in report.violations] == ["revoke"] and report.index == i
        penalised = tuple(x - (lost if k == p else 0) for k, x in enumerate(state.scores))
        assert report.scores == penalised == report.violations[0].scores
        assert report.hand_end_scores[-1] == penalised
        assert any(f"loses his entire score for cards, {lost} " in n for n in report.notes)
        assert "the last trick's 10 still counts" in report.violations[0].penalty
        if binocle.is_over(state):
            continue
        deal = binocle.legal_actions(state)[0]
        doc["actions"].append({"seat": None, "action": str(deal)})
        after = binocle.validate(doc)
        assert after.scores == penalised and after.violations == report.violations
    assert took_last  # the offender took the last trick in at least one of these hands


def test_a_cutthroat_revoke_scores_the_hand_played_out_in_the_game_scores() -> None:
    """Cutthroat rules, Revoke: the record plays the hand out past an opponent's revoke, so
    the bidder's choice, the hand played out (410, never below his bid), is what the game
    scores take; the hand's end scores say so."""
    doc = _revoke_record(
        "cutthroat", 250, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"), _AFTER_OPPONENT
    )
    report = binocle.validate(doc)
    assert report.hand_scores == (110, 250, 80) and report.played_out_scores == (110, 410, 80)
    assert report.scores == (110, 410, 80) and report.hand_end_scores == ((110, 410, 80),)
    assert report.violations[0].scores == (110, 410, 80)
    first = binocle.validate(doc, first_only=True)
    assert first.scores == (0, 0, 0) and first.played_out_scores == (110, 410, 80)


def test_a_card_out_of_turn_past_a_cutthroat_revoke_is_taken_back() -> None:
    """Cutthroat rules, Revoke and Out of turn: past the revoke the hand goes on; a card out
    of turn (seat 0 before seat 2, trick 8) is taken back and the next card follows."""
    doc = _revoke_record(
        "cutthroat", 250, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"), "1:TH 0:JC 2:JS"
    )
    report = binocle.validate(doc)
    assert [(v.kind, v.index) for v in report.violations] == [
        ("revoke", len(doc["actions"]) - 4),
        ("out of turn", len(doc["actions"]) - 2),
    ]
    assert report.hand_scores == (110, 250, 80) and report.stopped is None
    assert any("is not played out in the record" in note for note in report.notes)


def test_an_entry_that_cannot_follow_one_taken_back_stops_the_check() -> None:
    """An illegal bid does not stand; a record that goes on as if it had (the next seat
    passes while the bidder is still to act) cannot be followed: validation stops there
    with a note, and the entries after it are not reported one by one."""
    doc = _base()
    doc["actions"].append({"seat": 0, "action": "bid 200"})
    doc["actions"].append({"seat": 1, "action": "pass"})
    doc["actions"].append({"seat": 2, "action": "pass"})
    report = binocle.validate(doc)
    assert [(v.kind, v.index) for v in report.violations] == [("illegal action", 3)]
    assert report.stopped == 4 and not report.over
    assert any("cannot be followed once action 3 is taken back" in note for note in report.notes)
    assert "checked up to action 4" in str(report)


def test_first_only_stops_at_the_first_broken_rule() -> None:
    """``first_only=True``: the report of the first broken rule alone, scores before it."""
    doc = _base()
    doc["actions"].append({"seat": 0, "action": "bid 200"})
    doc["actions"].append({"seat": 0, "action": "bid 260"})
    full, first = binocle.validate(doc), binocle.validate(doc, first_only=True)
    assert full.states_checked == 5 and first.states_checked == 4
    assert first.violations == full.violations[:1] and first.winner is None
    assert "scores (before it)" in str(first)


# -- JSON ----------------------------------------------------------------------------------


def _cases() -> dict[str, tuple[dict[str, Any], ValidationReport]]:
    """A record of each kind, and a legal one, with its report."""
    docs: dict[str, dict[str, Any]] = {}
    docs["legal"] = binocle.record(play_game("cutthroat", seed=3), seats=["Anna", None, "Carla"])
    docs["revoke"] = _revoke_record(
        "cutthroat", 250, f"{_FIRST_TRICKS} QD AD KD TC 9H", (2, "TS"), _AFTER_OPPONENT
    )
    doc = _base()
    doc["actions"][2]["seat"] = 0
    docs["out of turn"] = doc
    doc = _base()
    doc["actions"].append({"seat": 0, "action": "bid 250"})
    docs["illegal action"] = doc
    s = _until("cutthroat", 12, binocle.Phase.MELD)
    doc = binocle.record(s)
    doc["actions"].append({"seat": s.current_player, "action": "meld 990"})
    docs["over-scored meld"] = doc
    s = _until("classic", 1, binocle.Phase.ANNOUNCE)
    doc = binocle.record(s)
    doc["actions"].append({"seat": s.current_player, "action": "meld four queens QS QH QD QC"})
    docs["irregular meld"] = doc
    return {kind: (doc, binocle.validate(doc)) for kind, doc in docs.items()}


CASES = _cases()


@pytest.mark.parametrize("kind", list(CASES))
def test_the_cli_json_is_the_reports_to_dict(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``binocle validate --json`` prints ``report.to_dict()``: enums as their text,
    tuples as lists, each violation as a dict."""
    record, report = CASES[kind]
    assert report.kind == kind
    doc = report.to_dict()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["kind"] == kind and all(isinstance(v, dict) for v in doc["violations"])
    if report.violations:
        assert doc["violations"][0]["code"] == report.violations[0].code.value
        assert doc["violations"][0] == report.violations[0].to_dict()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["validate", str(path), "--json"]) == (0 if report.ok else 1)
    assert json.loads(capsys.readouterr().out) == doc


def test_a_violation_is_a_frozen_value() -> None:
    """A Violation is a frozen attrs value; its dict holds its kind's text and lists."""
    v = CASES["revoke"][1].violations[0]
    assert isinstance(v, Violation) and v.kind is ViolationKind.REVOKE
    assert v.to_dict()["kind"] == "revoke" and v.to_dict()["hand_scores"] == [110, 250, 80]
    with pytest.raises(AttributeError):
        v.index = 0  # type: ignore[misc]


# -- the entry's index on record errors ------------------------------------------------------


def _bad(change: Any) -> dict[str, Any]:
    doc = _base()
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("change", "index"),
    [
        (lambda d: d["actions"][1].update(note="x"), 1),  # an unknown field
        (lambda d: d["actions"].__setitem__(2, ["pass"]), 2),  # not an object
        (lambda d: d["actions"][1].pop("action"), 1),  # no action
        (lambda d: d["actions"][2].update(action=7), 2),  # an action not text
        (lambda d: d["actions"][1].update(seat=5), 1),  # a seat out of range
        (lambda d: d["actions"][2].update(comment=3), 2),  # a comment not text
    ],
)
def test_an_entry_whose_form_is_wrong_is_named_by_its_index(change: Any, index: int) -> None:
    """Record format: an entry whose form is wrong makes the record unreadable: validate,
    replay and load_record raise InvalidStateError whose ``index`` is its position in
    ``actions``."""
    doc = _bad(change)
    for read in (binocle.validate, binocle.replay, binocle.load_record):
        with pytest.raises(InvalidStateError) as info:
            read(doc)
        assert info.value.index == index, read


@pytest.mark.parametrize(
    ("change", "index", "code"),
    [
        (lambda d: d["actions"][1].update(action="bid lots"), 1, RuleCode.NOT_LEGAL),
        (lambda d: d["actions"][2].update(seat=None), 2, RuleCode.NOT_YOUR_TURN),
        (lambda d: d["actions"].append({"seat": 0, "action": "claim 1"}), 3, RuleCode.NOT_LEGAL),
        (lambda d: d["actions"][0].update(action="deal AS AS"), 0, RuleCode.BAD_DECK),
        (
            lambda d: d["actions"].insert(2, {"seat": None, "action": d["actions"][0]["action"]}),
            2,
            RuleCode.WRONG_PHASE,
        ),
    ],
)
def test_an_entry_that_cannot_stand_is_reported_not_raised(
    change: Any, index: int, code: RuleCode
) -> None:
    """Validating: a record whose form is right always gives a report.  An entry that
    cannot be read where it stands (a text that does not parse there, an action given no
    seat, a knock naming another seat, a deal that is not a pack or comes in the middle
    of a hand) is an illegal action, taken back; replay raises InvalidStateError naming
    it."""
    doc = _bad(change)
    binocle.load_record(doc)
    with pytest.raises(InvalidStateError) as info:
        binocle.replay(doc)
    assert info.value.index == index
    report = binocle.validate(doc)
    v = report.violations[0]
    assert (v.index, v.kind, v.code) == (index, "illegal action", code)
    assert "does not stand" in v.penalty


def test_a_deal_given_a_seat_is_read_as_the_deal_with_a_note() -> None:
    """Record format: a deal is nobody's action (seat null); the validator reads a deal
    given a seat as the deal, and says so in a note; replay refuses it."""
    doc = _bad(lambda d: d["actions"][0].update(seat=2))
    with pytest.raises(InvalidStateError):
        binocle.replay(doc)
    report = binocle.validate(doc)
    assert report.ok and any("a deal is nobody's action" in n for n in report.notes)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(version=2),
        lambda d: d.update(extra=1),
        lambda d: d.pop("actions"),
        lambda d: d.update(profile="no-such-game"),
    ],
)
def test_an_error_not_in_one_entry_has_no_index(change: Any) -> None:
    doc = _bad(change)
    for read in (binocle.validate, binocle.replay, binocle.load_record):
        with pytest.raises(InvalidStateError) as info:
            read(doc)
        assert info.value.index is None
    with pytest.raises(InvalidStateError) as info:
        binocle.validate("{not json")
    assert info.value.index is None


def test_a_replay_refusal_names_the_entry() -> None:
    """Record format: replay refuses an action the rules forbid, naming its index."""
    doc = _base()
    doc["actions"].append({"seat": 0, "action": "bid 250"})
    with pytest.raises(InvalidStateError) as info:
        binocle.replay(doc)
    assert info.value.index == 3


# -- the note on a meld announced below its worth ----------------------------------------------


def _meld_turn(profile: str) -> binocle.GameState:
    """The first position, over the seeds, where the player to act may announce a meld
    worth something, with a choice of announcements where they are announced one by one."""
    phase = binocle.Phase.ANNOUNCE if profile == "classic" else binocle.Phase.MELD
    for seed in range(1, 80):
        s = _until(profile, seed, phase)
        legal = binocle.legal_actions(s)
        named = {a.name for a in legal if a.kind is binocle.Kind.MELD and a.name}
        meld = binocle.parse_action(s, "meld")
        if meld in legal and meld_value(s, meld) and (profile == "cutthroat" or len(named) > 1):
            return s
    raise AssertionError("no meld to announce")


def _under_note(s: binocle.GameState) -> tuple[dict[str, Any], str]:
    worth = meld_value(s, binocle.parse_action(s, "meld"))
    doc = binocle.record(s)
    doc["actions"].append({"seat": s.current_player, "action": f"meld {worth - 10}"})
    report = binocle.validate(doc)
    assert report.ok
    notes = [n for n in report.notes if "less than the" in n]
    assert len(notes) == 1
    return binocle.record(s), notes[0]


def test_an_under_declared_cutthroat_meld_is_scored_in_full_and_no_advice_is_given() -> None:
    """Cutthroat rules, Melds: the meld is laid down whole and the engine scores it in
    full: the note says so and gives no way to announce less, for the one it could give,
    the combinations one by one, is an irregular meld there
    (cutthroat rules, Irregular melds)."""
    s = _meld_turn("cutthroat")
    doc, note = _under_note(s)
    assert "laid down whole" in note and "cannot announce less" in note
    assert "(cutthroat rules, Melds)" in note and "one by one" not in note
    assert s.trump is not None
    t = s.trump.letter
    doc["actions"].append({"seat": s.current_player, "action": f"meld royal marriage K{t} Q{t}"})
    assert binocle.validate(doc).kind == "irregular meld"


def test_an_under_declared_three_handed_meld_note_advice_validates() -> None:
    """Three-handed rules, Melds: a player may announce less, combination by combination,
    then pass: the note says so, and a record that does it validates clean."""
    s = _meld_turn("three-handed")
    doc, note = _under_note(s)
    assert "one by one (meld <kind> <cards>), then pass (three-handed rules, Melds)" in note
    one = next(a for a in binocle.legal_actions(s) if a.kind is binocle.Kind.MELD and a.name)
    doc["actions"].append({"seat": s.current_player, "action": str(one)})
    doc["actions"].append({"seat": s.current_player, "action": "pass"})
    report = binocle.validate(doc)
    assert report.ok and report.violations == () and not report.notes


def test_an_under_declared_classic_meld_note_advice_validates() -> None:
    """Classic rules, Announcements: ``meld`` is the most valuable announcement; a less
    valuable one is recorded by name, or ``pass``: the note says so, and a record that
    does either validates clean."""
    s = _meld_turn("classic")
    doc, note = _under_note(s)
    assert "record it by name (meld <kind> <cards>), or pass" in note
    assert "(classic rules, Announcements)" in note
    best = binocle.parse_action(s, "meld")
    lower = next(
        a for a in binocle.legal_actions(s) if a.kind is binocle.Kind.MELD and a.name and a != best
    )
    for text in (str(lower), "pass"):
        d = copy.deepcopy(doc)
        d["actions"].append({"seat": s.current_player, "action": text})
        report = binocle.validate(d)
        assert report.ok and not report.notes, text


# -- a record that can be read always gives a report -------------------------------------------


@pytest.mark.parametrize("profile", ["classic", "three-handed", "cutthroat"])
def test_validate_gives_a_report_for_every_record_with_two_plays_swapped(profile: str) -> None:
    """Validating: ``validate`` never raises on a record ``load_record`` reads.  Two plays
    swapped in a real game (the rest of the record then often cannot follow): a report
    each time, listing every broken rule it finds in the record's order; where it stops,
    ``stopped`` says where and a note why; its first violation is ``first_only``'s."""
    final = play_game(profile, seed=3, max_hands=2)
    doc = binocle.record(final)
    plays = [i for i, e in enumerate(doc["actions"]) if e["action"].startswith("play ")]
    stops = 0
    for a, b in zip(plays[::5], plays[3::5], strict=False):
        d = copy.deepcopy(doc)
        d["actions"][a], d["actions"][b] = d["actions"][b], d["actions"][a]
        report = binocle.validate(d)
        if report.ok:  # two cards of free play, say
            continue
        indices = [v.index for v in report.violations]
        assert indices == sorted(indices) and indices[0] >= a
        first = binocle.validate(d, first_only=True).violations[0]
        v = report.violations[0]
        assert (first.index, first.kind, first.code) == (v.index, v.kind, v.code)
        if report.stopped is not None:
            stops += 1
            named = re.compile(rf"action {report.stopped}\b")
            assert any(named.search(n) for n in report.notes)
    assert stops  # some of these records cannot be followed to their end


def test_a_deal_while_players_are_asked_to_knock_takes_them_to_pass() -> None:
    """Classic rules, Claiming (knocking): after the last trick a player whose claim would
    be correct is asked to knock or pass; only if nobody knocks is the hand counted.  A
    record written at a table shows no pass: the next deal says nobody knocked, and the
    validator takes the players asked to pass (a note says so) instead of stopping."""
    s = binocle.new_game("classic(target=300)", seed=2)  # both reach 300 in hand 2
    bots = [RandomBot(6), RandomBot(7)]
    while not (s.phase is binocle.Phase.PLAY and not any(s.hands) and not s.trick):
        p = s.current_player
        calm = [a for a in binocle.legal_actions(s) if a.kind is not binocle.Kind.CLAIM]
        s = binocle.apply(s, calm[0] if p is None else bots[p].choose(binocle.observe(s, p)))
        if s.phase is binocle.Phase.OVER:  # pragma: no cover - the seed reaches one first
            raise AssertionError("no knock asked after the last trick")
    doc = binocle.record(s)
    passed = s
    while passed.current_player is not None:
        passed = binocle.apply(passed, "pass")
    deal = binocle.legal_actions(passed)[0]
    doc["actions"].append({"seat": None, "action": str(deal)})
    report = binocle.validate(doc)
    assert report.ok and report.stopped is None
    assert report.scores == binocle.apply(passed, deal).scores
    assert any("the record shows no knock, so he is taken to pass" in n for n in report.notes)


@pytest.mark.parametrize("profile", ["classic", "three-handed"])
def test_a_violation_holds_its_trick_and_the_view_before_it(profile: str) -> None:
    """Validating: each violation holds the trick of its hand (the tricks taken so far,
    plus one) and what its seat saw just before the entry (``binocle.observe``), so the
    cards he could have played are ``view.legal_actions``; the penalty and the notes
    name the seats as the record names them, as ``str(report)`` does."""
    doc, i, s = _revoke(profile, seed=4)
    p = s.current_player
    assert p is not None
    names = ["Anna", "Ben", "Carla"][: s.profile.players]
    doc["seats"] = names
    report = binocle.validate(doc)
    v = report.violations[0]
    n = s.profile.players
    taken = sum(len(pile) for pile in s.piles) // n  # type: ignore[attr-defined]
    assert v.trick == taken + 1 and v.view == binocle.observe(s, p)
    assert v.view is not None and v.view.trick == s.trick
    card = binocle.parse_action(s, doc["actions"][i]["action"])
    assert card not in v.view.legal_actions and v.view.legal_actions == binocle.legal_actions(s)
    assert f"seat {p} ({names[p]}) loses his entire score for cards" in v.penalty
    assert report.penalty == v.penalty and "trick" in v.to_dict() and "view" not in v.to_dict()
    bare = re.compile(rf"\bseat {p}\b(?! \({names[p]}\))")
    assert report.notes and not any(bare.search(note) for note in report.notes)
    doc["seats"] = [None] * n
    assert binocle.validate(doc).violations[0].penalty.startswith(f"seat {p} loses")
    bid = CASES["illegal action"][1].violations[0]
    assert bid.trick is None and bid.view is not None and bid.view.phase is binocle.Phase.BIDDING


def _classic_lead(seed: int) -> tuple[binocle.GameState, int, binocle.Action, binocle.Action]:
    """A classic position where a player is to lead and his adversary holds a card he
    may lead: the state, the adversary, the adversary's lead out of turn, and the card
    the player to lead then plays to it."""
    s = _until("classic", seed, binocle.Phase.PLAY)
    for _ in range(300):
        p = s.current_player
        if s.phase is binocle.Phase.PLAY and not s.trick and p is not None and any(s.hands):
            other = 1 - p
            turned = s.replace(current_player=other)
            lead = next(a for a in binocle.legal_actions(turned) if a.kind is binocle.Kind.PLAY)
            after = binocle.apply(turned, lead)
            answer = next(a for a in binocle.legal_actions(after) if a.kind is binocle.Kind.PLAY)
            return s, other, lead, answer
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    raise AssertionError("no lead found")


def test_a_classic_lead_out_of_turn_that_the_adversary_plays_to_stands() -> None:
    """Classic rules, Out of turn: "If either player leads out of turn, and his adversary
    plays to the lead, whether intentionally or otherwise, the trick stands good."  The
    lead is reported out of turn, the trick stands (as if it had been his lead) and the
    record goes on from there; where the adversary leads instead, the card out of turn
    is taken back without penalty."""
    s, other, lead, answer = _classic_lead(3)
    p = 1 - other
    stood = binocle.apply(binocle.apply(s.replace(current_player=other), lead), answer)
    doc = binocle.record(s)
    doc["actions"].append({"seat": other, "action": str(lead)})
    doc["actions"].append({"seat": p, "action": str(answer)})
    nxt = binocle.legal_actions(stood)[0]
    doc["actions"].append({"seat": stood.current_player, "action": str(nxt)})
    report = binocle.validate(doc)
    v = report.violations[0]
    assert [x.kind for x in report.violations] == ["out of turn"] and report.stopped is None
    assert "played to the lead: the trick stands (classic rules, Out of turn)" in v.penalty
    assert report.scores == binocle.apply(stood, nxt).scores
    assert report.states_checked == len(doc["actions"]) + 1
    # Taken back: the player to lead leads, and the adversary plays to him.
    own = next(a for a in binocle.legal_actions(s) if a.kind is binocle.Kind.PLAY)
    led = binocle.apply(s, own)
    reply = next(a for a in binocle.legal_actions(led) if a.kind is binocle.Kind.PLAY)
    doc = binocle.record(s)
    doc["actions"].append({"seat": other, "action": str(lead)})
    doc["actions"].append({"seat": p, "action": str(own)})
    doc["actions"].append({"seat": other, "action": str(reply)})
    report = binocle.validate(doc)
    v = report.violations[0]
    assert [x.kind for x in report.violations] == ["out of turn"] and report.stopped is None
    assert "taken back" in v.penalty
    assert report.scores == binocle.apply(led, reply).scores


def test_a_revoke_in_the_two_handed_game_after_a_retirement_keeps_the_last_trick() -> None:
    """Three-handed rules, Revoke, in the two-handed game the last two play after a
    retirement (the classic rule): the offender loses the card points of his tricks; the
    last trick's 10, which he took here, stays his."""
    s = binocle.new_game("three-handed", seed=4)
    while s.phase is not binocle.Phase.PLAY:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    s = binocle.apply(s, "claim")  # a wrong claim: he retires, and nobody wins the deal

    def calm(state: binocle.GameState) -> binocle.Action:
        return next(a for a in binocle.legal_actions(state) if a.kind is not binocle.Kind.CLAIM)

    off: list[binocle.Card] = []
    while not off:
        s = binocle.apply(s, calm(s))
        sub: Any = getattr(s, "sub", None)
        if sub is None or s.phase is not binocle.Phase.PLAY or not s.trick or sub.stock:
            continue
        p = s.current_player
        assert p is not None
        led = s.trick[0][1].suit
        if sub.turn_up is None and any(c.suit is led for c in s.hands[p]):
            off = [c for c in s.hands[p] if c.suit is not led]
    state = s.profile.apply(s, binocle.parse_action(s, f"play {off[0]}"))
    n = len(state.results)
    while True:
        action = calm(state)
        after = binocle.apply(state, action)
        if len(after.results) > n:
            break
        state = after
    assert action.card is not None
    seats = [q for q, _ in state.trick] + [state.current_player]
    last = seats[trick_winner([c for _, c in state.trick] + [action.card], state.trump)]
    tricks = after.results[-1].tricks[p]
    assert last == p and tricks > 10
    report = binocle.validate(binocle.record(after))
    assert [v.kind for v in report.violations] == ["revoke"]
    assert report.scores[p] == after.scores[p] - (tricks - 10)
    assert any(f"loses his entire score for cards, {tricks - 10} " in n for n in report.notes)
