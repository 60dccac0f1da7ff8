"""Front-end guide, "Errors": every public function returns a correct result or raises
a BinocleError.  The text helpers (``binocle.display``, ``binocle.narrate``) and
``meld_value``, ``snapshot``, ``knocker``, ``check_consistency``, ``pack`` and
``binocle.encoding.kinds``, given a value of the wrong kind, raise
InvalidArgumentError (InvalidNotationError for a pack size), never Python's own
TypeError, AttributeError or ValueError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import binocle
from binocle import bots, display, encoding, narrate, records, serial, testing
from binocle.actions import parse_action_text

STATE = binocle.new_game("classic", seed=4)  # dealt: seat 1 to play
VIEW = binocle.observe(STATE, 1)
ACTION = binocle.legal_actions(STATE)[0]
CARDS = list(STATE.hands[1])


def _finished_hand() -> Any:
    s = binocle.new_game("classic", seed=4)
    while not s.results:
        legal = binocle.legal_actions(s)
        s = binocle.apply(s, next((a for a in legal if a.kind.value == "claim"), legal[0]))
    return s


HAND = _finished_hand()

#: (call, what it is given): each call gets one argument of the wrong kind.
BAD_CALLS: list[tuple[str, Callable[[], object]]] = [
    ("card_text of text", lambda: display.card_text("AS")),  # type: ignore[arg-type]
    ("card_text of None", lambda: display.card_text(None)),  # type: ignore[arg-type]
    ("cards_text of a number", lambda: display.cards_text(5)),  # type: ignore[arg-type]
    ("cards_text of text", lambda: display.cards_text("AS KS")),
    ("cards_text of junk cards", lambda: display.cards_text([*CARDS[:2], "AS"])),  # type: ignore[list-item]
    ("hand_by_suit of a dict", lambda: display.hand_by_suit({"AS": 1})),  # type: ignore[arg-type]
    ("state_text of a view", lambda: display.state_text(VIEW)),  # type: ignore[arg-type]
    ("view_text of a state", lambda: display.view_text(STATE)),  # type: ignore[arg-type]
    ("action_text of text", lambda: display.action_text("bid 300")),  # type: ignore[arg-type]
    ("a style of a huge number", lambda: display.card_text(CARDS[0], 10**5000)),  # type: ignore[arg-type]
    ("plural of text", lambda: narrate.plural("2", "hand")),  # type: ignore[arg-type]
    ("plural of a huge number", lambda: narrate.plural(10**5000, "hand")),
    ("plural of a number as the word", lambda: narrate.plural(2, 5)),  # type: ignore[arg-type]
    ("hand_summary of a state", lambda: narrate.hand_summary(STATE, (0, 0))),  # type: ignore[arg-type]
    ("hand_summary's scores short", lambda: narrate.hand_summary(HAND.results[0], (0,))),
    ("hand_summary's scores text", lambda: narrate.hand_summary(HAND.results[0], "00")),  # type: ignore[arg-type]
    ("narrate_all of views", lambda: narrate.narrate_all(VIEW, ACTION, VIEW)),  # type: ignore[arg-type]
    ("narrate_all of a text action", lambda: narrate.narrate_all(STATE, "pass", STATE)),  # type: ignore[arg-type]
    ("narrate for a huge seat", lambda: narrate.narrate(VIEW, VIEW, 10**5000)),
    ("label of text", lambda: narrate.label("pass")),  # type: ignore[arg-type]
    ("label in a number", lambda: narrate.label(ACTION, 3)),  # type: ignore[arg-type]
    ("game_over_line of None", lambda: narrate.game_over_line(None)),  # type: ignore[arg-type]
    ("meld_value of text", lambda: records.meld_value(None, "meld")),  # type: ignore[arg-type]
    ("meld_value in a number", lambda: records.meld_value(0, ACTION)),  # type: ignore[arg-type]
    ("snapshot of a view", lambda: serial.snapshot(VIEW)),  # type: ignore[arg-type]
    ("knocker of a view", lambda: bots.knocker(VIEW, [None, None])),  # type: ignore[arg-type]
    ("knocker with one bot", lambda: bots.knocker(STATE, [None])),
    ("knocker with text", lambda: bots.knocker(STATE, "ab")),
    ("check_consistency of None games", lambda: testing.check_consistency("classic", None)),  # type: ignore[arg-type]
    (
        "check_consistency of an object seed",
        lambda: testing.check_consistency("classic", 0, object()),
    ),  # type: ignore[arg-type]
    (
        "check_consistency's claim rate",
        lambda: testing.check_consistency("classic", 0, claim_rate=2),
    ),
    ("pack of a list", lambda: binocle.pack([48])),  # type: ignore[arg-type]
    ("encoding.kinds of a list", lambda: encoding.kinds([48])),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("call", "body"), BAD_CALLS, ids=[c for c, _ in BAD_CALLS])
def test_a_wrong_argument_raises_a_binocle_error(call: str, body: Callable[[], object]) -> None:
    with pytest.raises((binocle.InvalidArgumentError, binocle.InvalidNotationError)):
        body()


def test_the_helpers_still_answer_what_they_are_given() -> None:
    """The checks refuse only wrong kinds: the same helpers on real values answer."""
    assert display.card_text(CARDS[0], "letters") == str(CARDS[0])
    assert display.cards_text(tuple(CARDS)).count(" ") == len(CARDS) - 1
    assert display.cards_text([]) == "–"
    assert narrate.plural(2, "hand") == "2 hands" and narrate.plural(1, "hand") == "1 hand"
    assert narrate.hand_summary(HAND.results[0], HAND.scores)[0].startswith("  hand over")
    assert records.meld_value(None, parse_action_text("meld royal marriage KS QS")) == 40
    assert bots.knocker(STATE, [None, None]) is None
    assert testing.check_consistency("classic", 0).games == 0
    assert len(encoding.kinds(64)) == 32
