"""Checking games recorded elsewhere (layer 4): :func:`validate` and its report.

:func:`validate` replays a game record (:mod:`binocle.records`) under the rules
and reports every action that breaks one (:class:`Violation`, in the record's
order): where (index, action text, player), which rule in words (the engine's
own explanation) and as a :class:`~binocle.errors.RuleCode`, what the rules
say follows, and the game scores once that is enforced.  Past a broken rule
the record goes on the way a table goes on:

- **revoke** — a card that breaks the obligation to follow suit, win the trick
  or trump, with the penalty the profile's rules page gives under "Revoke".
  The revoking card is played anyway and the hand goes on as the record plays
  it, through the usual checks.  In the classic and three-handed games the
  player in error loses his entire score for cards for that hand: at the end
  of the hand the card points of his tricks of the hand are taken off his
  game score (the last trick's 10, scored apart from "cards", still counts)
  ("classic rules, Revoke" adds the adversary's right to have the hand
  replayed from the error, which the record, going on, did not take).  In
  cutthroat the offender's card points count 0 for him, a revoking bidder is
  scored as usual on what is left, and the bidder cannot be set by an
  opponent's revoke ("cutthroat rules, Revoke"): the hand is scored by the
  profile's revoke rule, ``hand_scores``, and ``played_out_scores`` where the
  bidder may choose to have the hand played out; the game scores take the
  hand played out where the record plays it to its end (the bidder's choice
  is never worse for him), else the hand under the revoke rule.  A second
  revoke in one cutthroat hand, which the rules do not score, ends the check;
- **over-scored meld** — ``meld <total>`` announcing more than the meld is
  worth: the meld is scored at its true value (the excess taken down), and in
  the two-handed game the adversary may add the excess to his own score
  ("classic rules, Over-scored melds");
- **irregular meld** — ``meld <kind> <cards>`` declaring a combination the
  cards do not make, or one the meld rules do not allow now (fresh card, same
  class): the score is taken down to what those cards may legally score now,
  the best legal announcement among them (in cutthroat, where the meld is laid
  down whole, the meld of the cards shown), else nothing, and the adversary
  may have one of the cards led or played ("classic rules, Irregular melds");
- **out of turn** — a seat acting when another is to act: the card or call is
  taken back without penalty and the right player acts: the entry is skipped
  ("classic rules, Out of turn");
- **illegal action** — anything else the rules forbid (a bid too low, a card
  not held …): the action does not stand, and the entry is skipped.

An entry that does not stand (out of turn, an illegal action, an irregular
meld that scores nothing) is taken back, and the record must then go on from
the position before it: the next entry must be a legal one.  If it breaks a
rule too, or cannot be read in that position, the record has followed the
entry taken back, and whatever came next would only repeat that error:
validation stops there with a note (``stopped``), instead of reporting a
cascade.  With ``first_only=True`` :func:`validate` stops at the first broken
rule, as it did before it went on past them.

Record forms for melds.  Where a player announces his whole meld at once
(cutthroat, three-handed) write ``meld`` or, with the total he announced,
``meld 290``; where combinations are announced one by one (classic, and
three-handed if played so) write each as ``meld <kind> <cards>``, e.g.
``meld four kings KS KH KD KC``, with ``+ <table cards>`` for cards already on
the table.  A total lower than the meld is worth is noted, not an error: the
note says what the profile's rules allow (cutthroat rules, Melds: the meld is
laid down whole and scored in full).

A wrong claim (knocking without having reached the target) is not a broken
rule: claims are legal actions whose result the rules fix — the claimant loses
the game ("classic rules, Claiming (knocking)") or retires ("three-handed
rules, Claiming (knocking)").  Any player may knock, not only the player to
act: the entry's seat is the knocker (``{"seat": 0, "action": "claim"}`` while
seat 1 is to act).  The report lists a wrong claim in ``wrong_claims`` (with
the knocker's seat) and ``notes`` and goes on; a knock where none is possible
(cutthroat, or before the three-handed melds are over) is an illegal action.

A record whose form :func:`~binocle.records.load_record` refuses (not a
record, wrong version, unknown fields, an entry that is not ``{seat, action}``
with a text and a seat in range) raises
:class:`~binocle.errors.InvalidStateError` instead of giving a report; its
``index`` is the entry at fault where the fault is in one entry.  Any other
record gives a report.  An entry that cannot stand where it comes — a text that
is no action in that position, a deal that is not a pack or comes while a
player is to act, a player's action given no seat, a knock naming another seat
than its entry's — is an illegal action (the code says which), taken back like
any other; a deal given a seat when the deal is due is read as the deal, with a
note.  A deal while the players are asked, after the last trick, to knock or
pass takes them to pass (the record shows no knock), with a note.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final, TypedDict

import attrs

from binocle.actions import Action, Kind, parse_action_text
from binocle.cards import Card, parse_card
from binocle.core import (
    GameState,
    MeldResult,
    Phase,
    View,
)
from binocle.errors import (
    BinocleError,
    IllegalActionError,
    InvalidNotationError,
    InvalidStateError,
    RuleCode,
)
from binocle.game import apply, legal_actions, observe, parse_action, start
from binocle.profiles._common import (
    replace_at,
)
from binocle.records import (
    KIND_VALUES,
    Header,
    claimed_meld,
    entry_knock,
    knock_mismatch,
    meld_value,
    read_header,
    read_json,
    short_text,
    turn_problem,
)
from binocle.rules.points import BINOCLE_POINTS, LAST_TRICK, card_points

__all__ = [
    "ILLEGAL",
    "IRREGULAR_MELD",
    "LEGAL",
    "OUT_OF_TURN",
    "OVER_SCORED_MELD",
    "REVOKE",
    "ValidationReport",
    "ValidationReportDict",
    "Violation",
    "ViolationDict",
    "ViolationKind",
    "validate",
]


class ViolationKind(str, enum.Enum):
    """What a broken rule is, as the validator tells them apart.

    A member is also its text (``ViolationKind.REVOKE == "revoke"``), which is
    what the report's JSON holds; ``LEGAL`` is the kind of a report with no
    broken rule.
    """

    LEGAL = "legal"
    REVOKE = "revoke"
    OVER_SCORED_MELD = "over-scored meld"
    IRREGULAR_MELD = "irregular meld"
    OUT_OF_TURN = "out of turn"
    ILLEGAL = "illegal action"

    def __str__(self) -> str:
        return self.value


LEGAL: Final = ViolationKind.LEGAL
REVOKE: Final = ViolationKind.REVOKE
OVER_SCORED_MELD: Final = ViolationKind.OVER_SCORED_MELD
IRREGULAR_MELD: Final = ViolationKind.IRREGULAR_MELD
OUT_OF_TURN: Final = ViolationKind.OUT_OF_TURN
ILLEGAL: Final = ViolationKind.ILLEGAL

#: The rule codes of the trick obligations (binocle.rules.tricks): a held card refused for
#: one of them is a revoke.
_OBLIGATIONS: Final = frozenset(
    {
        RuleCode.MUST_FOLLOW,
        RuleCode.MUST_BEAT,
        RuleCode.MUST_TRUMP,
        RuleCode.MUST_OVERTRUMP,
        RuleCode.MUST_UNDERTRUMP,
    }
)


def _rules(state: GameState) -> str:
    """The docs page that holds the rules of the state's profile, as messages cite it."""
    return f"{state.profile.name} rules"


def _seat_name(seat: int | None, seats: tuple[str | None, ...]) -> str:
    if seat is None:
        return "nobody"
    if seat < len(seats) and seats[seat]:
        return f"seat {seat} ({seats[seat]})"
    return f"seat {seat}"


def _by_seat(values: tuple[int, ...], seats: tuple[str | None, ...]) -> str:
    return ", ".join(f"{_seat_name(i, seats)} {v}" for i, v in enumerate(values))


def _plain(value: Any) -> Any:
    """``value`` as JSON holds it: enums as their text, tuples as lists, attrs values as
    dicts of their fields."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if attrs.has(type(value)):
        return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value))}
    return value


class ViolationDict(TypedDict):
    """:meth:`Violation.to_dict`: the fields by name, kinds and codes as their text."""

    index: int
    action: str
    seat: int | None
    kind: str
    code: str
    rule: str
    penalty: str
    claimed_value: int | None
    correct_value: int | None
    hand: int
    hand_scores: list[int] | None
    played_out_scores: list[int] | None
    scores: list[int]
    trick: int | None


class ValidationReportDict(TypedDict):
    """:meth:`ValidationReport.to_dict` (the ``validation-report`` JSON Schema)."""

    ok: bool
    index: int | None
    action: str | None
    seat: int | None
    rule: str | None
    penalty: str | None
    scores: list[int]
    winner: int | None
    states_checked: int
    kind: str
    profile: str
    hand: int
    over: bool
    claimed_value: int | None
    correct_value: int | None
    wrong_claims: list[list[int]]
    notes: list[str]
    seats: list[str | None]
    hand_scores: list[int] | None
    played_out_scores: list[int] | None
    violations: list[ViolationDict]
    hand_end_scores: list[list[int]]
    stopped: int | None
    first_only: bool


@attrs.frozen
class Violation:
    """One broken rule of a record, and what the rules make of it: a frozen value.

    ``index`` and ``action`` are the entry of the record and its text,
    ``seat`` the entry's seat, ``hand`` the hand number; ``kind`` what it is
    (:class:`ViolationKind`), ``code`` the rule as a program reads it
    (:class:`~binocle.errors.RuleCode`: the engine's own for a refused action,
    ``NOT_YOUR_TURN`` out of turn, ``WRONG_VALUE`` for an over-scored meld),
    ``rule`` the same in words and ``penalty`` what the rules say follows;
    ``claimed_value`` and ``correct_value`` the announced and the correct
    value of a meld.  ``hand_scores`` and ``played_out_scores``: after a
    revoke in a profile whose rules score the hand past it (cutthroat rules,
    Revoke), each seat's score for that hand under the revoke rule, and with
    the hand played out (see :class:`ValidationReport`).

    ``scores`` is every seat's game score once the rule is enforced, what the
    table's score sheet shows: after the entry is skipped or taken down; after
    a revoke, at the end of the hand, the penalty applied (the scores where
    the record stops, when it stops before the end of that hand).

    ``trick`` is the trick of the hand the entry plays to or comes after: the
    tricks taken so far in the hand, plus one (1 for the first); None outside
    the play (bidding, widow, melds before the first lead, between hands).
    ``view`` is what the entry's seat saw just before it
    (:func:`binocle.observe`, a :class:`binocle.View`: his hand, the trick, his
    legal actions), so a program can ask "which cards could he have played
    here" (``view.legal_actions``, or :mod:`binocle.rulings` with
    ``view.hand`` and ``view.trick``) without rebuilding the position; None
    for an entry without a seat.  ``to_dict`` leaves the view out (it is a
    Python value; the JSON has the entry's index to find the position by).
    """

    index: int
    action: str
    seat: int | None
    kind: ViolationKind
    code: RuleCode
    rule: str
    penalty: str
    claimed_value: int | None = None
    correct_value: int | None = None
    hand: int = 0
    hand_scores: tuple[int, ...] | None = None
    played_out_scores: tuple[int, ...] | None = None
    scores: tuple[int, ...] = ()
    trick: int | None = None
    view: View | None = attrs.field(default=None, repr=False)

    def to_dict(self) -> ViolationDict:
        """A JSON-ready dict: the fields by name but ``view``, enums as their text,
        tuples as lists."""
        plain: dict[str, Any] = _plain(attrs.evolve(self, view=None))
        del plain["view"]
        out: ViolationDict = plain  # type: ignore[assignment]
        return out

    def describe(self, seats: tuple[str | None, ...] = ()) -> list[str]:
        """The lines ``str(report)`` gives this violation (indented, but the first)."""
        text = self.action if len(self.action) <= 60 else "deal ..."
        lines = [
            f"{self.kind} at action {self.index} ({text!r}) by"
            f" {_seat_name(self.seat, seats)}, hand {self.hand}",
            f"  rule broken: {self.rule} [{self.code.value}]",
        ]
        if self.claimed_value is not None or self.correct_value is not None:
            claimed = "?" if self.claimed_value is None else str(self.claimed_value)
            lines.append(f"  meld announced: {claimed}; correct value: {self.correct_value}")
        lines.append(f"  what follows: {self.penalty}")
        if self.hand_scores is not None:
            lines.append(
                f"  hand {self.hand} scored by the revoke rule: "
                + _by_seat(self.hand_scores, seats)
            )
        if self.played_out_scores is not None:
            lines.append(
                f"  hand {self.hand} played out, at the bidder's choice: "
                + _by_seat(self.played_out_scores, seats)
            )
        return lines


@attrs.frozen
class ValidationReport:
    """What :func:`validate` found: a frozen value; ``str(report)`` reads as text.

    ``ok``: no rule was broken.  ``violations`` lists every broken rule in the
    record's order (:class:`Violation`); the fields ``kind`` (a
    :class:`ViolationKind`: ``"revoke"``, ``"over-scored meld"``,
    ``"irregular meld"``, ``"out of turn"``, ``"illegal action"``, or
    ``"legal"``), ``index``, ``action``, ``seat``, ``rule``, ``penalty``,
    ``claimed_value``, ``correct_value``, ``hand_scores`` and
    ``played_out_scores`` describe the first of them (None, or ``"legal"``,
    when ``ok``).

    ``scores`` are the game scores of the last state replayed, every penalty
    applied (with ``first_only``, those before the first broken rule);
    ``hand_end_scores`` the game scores at the end of each hand the record
    completes, penalties applied, so a score sheet can be compared hand by
    hand.  ``winner`` is the game's winner, ``hand`` the last hand number and
    ``over`` whether the game ended (the end as the record plays it);
    ``states_checked`` counts the states the engine built and checked (the
    start and one per action that stands: a revoking card played anyway is
    not checked).  ``stopped`` is the entry where validation stopped because
    the record could not be followed past an entry taken back (None when the
    whole record was checked).  ``wrong_claims`` holds ``(index, seat)`` of
    every wrong claim and ``notes`` a line for each remark; ``first_only``
    whether the report stops at the first broken rule.

    After a revoke in a profile whose rules score the hand past it
    (cutthroat rules, Revoke), ``hand_scores`` is each seat's score for that
    hand (the change of its game score) under the revoke rule, the bidder at
    his bid where an opponent revoked, scored as the record plays the hand;
    ``played_out_scores`` is the same with the bidder's score for the hand
    played out, given only where an opponent revoked and the record plays
    the hand to its end.  Both are None otherwise (a note says when the
    record stops before the hand's end).
    """

    ok: bool
    index: int | None
    action: str | None
    seat: int | None
    rule: str | None
    penalty: str | None
    scores: tuple[int, ...]
    winner: int | None
    states_checked: int
    kind: ViolationKind = LEGAL
    profile: str = ""
    hand: int = 0
    over: bool = False
    claimed_value: int | None = None
    correct_value: int | None = None
    wrong_claims: tuple[tuple[int, int], ...] = ()
    notes: tuple[str, ...] = ()
    seats: tuple[str | None, ...] = ()
    hand_scores: tuple[int, ...] | None = None
    played_out_scores: tuple[int, ...] | None = None
    violations: tuple[Violation, ...] = ()
    hand_end_scores: tuple[tuple[int, ...], ...] = ()
    stopped: int | None = None
    first_only: bool = False

    def to_dict(self) -> ValidationReportDict:
        """A JSON-ready dict: the fields by name, enums as their text, tuples as
        lists, each violation as its :meth:`Violation.to_dict`.  ``binocle validate
        --json`` prints it."""
        out: ValidationReportDict = _plain(attrs.evolve(self, violations=()))
        out["violations"] = [v.to_dict() for v in self.violations]
        return out

    def __str__(self) -> str:
        name = self.seats
        lines: list[str] = []
        if self.ok:
            lines.append(f"legal game ({self.profile}): no rule broken")
        else:
            count = len(self.violations)
            more = f"; {count} broken rules in all" if count > 1 else ""
            for k, v in enumerate(self.violations):
                first, *rest = v.describe(name)
                head = f"{first} ({self.profile}){more}" if k == 0 else f"then {first}"
                lines.append(head)
                lines.extend(rest)
        for note in self.notes:
            lines.append(f"  note: {note}")
        if self.first_only and not self.ok:
            where = "before it"
        else:
            where = "final" if self.over else "so far"
            if not self.ok:
                where += ", penalties applied"
        lines.append(f"  scores ({where}): " + _by_seat(self.scores, name))
        if self.over:
            won = (
                f"{_seat_name(self.winner, name)} wins"
                if self.winner is not None
                else "nobody wins"
            )
            lines.append(f"  game over after hand {self.hand}: {won}")
        elif self.stopped is not None:
            lines.append(
                f"  checked up to action {self.stopped}, where the record can't be followed"
            )
        elif self.ok or not self.first_only:
            lines.append(f"  the game goes on (hand {self.hand}); no winner yet")
        lines.append(f"  {self.states_checked} states replayed and checked")
        return "\n".join(lines)


def validate(
    record: Mapping[str, object] | str | bytes, *, first_only: bool = False
) -> ValidationReport:
    """Replay a game record and report every broken rule, or the result.

    ``record`` is a record dict or its JSON text (``str`` or ``bytes``; see
    :mod:`binocle.records`).  Past a broken rule the record goes on as the
    rules say the game does (the module's text above); ``report.scores``
    are then the final scores, every penalty applied.  With ``first_only``
    the replay stops at the first broken rule, and ``scores`` are those before
    it.  Raises InvalidStateError only for a record whose form
    :func:`binocle.load_record` refuses: any record it reads gives a report,
    which says where and why it stopped (``stopped``, a note) when the record
    cannot be followed.

    >>> import binocle
    >>> s = binocle.new_game("cutthroat", seed=7)
    >>> r = binocle.record(s)
    >>> r["actions"].append({"seat": 1, "action": "bid 200"})
    >>> report = binocle.validate(r)
    >>> report.ok, str(report.kind), report.index, report.rule
    (False, 'illegal action', 1, 'the lowest bid is 250 (bid 200)')
    >>> r["actions"].append({"seat": 1, "action": "bid 250"})   # the bid made again
    >>> report = binocle.validate(r)
    >>> [(v.index, v.kind.value) for v in report.violations], report.states_checked
    ([(1, 'illegal action')], 3)
    """
    head = read_header(read_json(record, "a record"))
    replay = _Replay(head, first_only)
    replay.run()
    return replay.report()


@attrs.frozen
class _Finding:
    """A broken rule found at one entry, before it is put in a report."""

    kind: ViolationKind
    code: RuleCode
    rule: str
    penalty: str
    claimed_value: int | None = None
    correct_value: int | None = None
    #: The action the entry means (None out of turn): a revoke's card, the meld refused.
    act: Action | None = None
    #: What stands instead: the meld at its true value, the announcement an irregular
    #: meld is taken down to; None where the entry is taken back.
    stands: Action | None = None
    #: The meld of the cards shown, where the meld is laid down whole (cutthroat).
    meld: MeldResult | None = None


_Step = tuple[GameState, Action, None] | tuple[None, Action | None, _Finding]
#: A revoke's figures: the hand under the revoke rule, and the hand played out.
_Figures = tuple[tuple[int, ...] | None, tuple[int, ...] | None]


@attrs.define
class _Revoke:
    """A revoke whose hand is not over yet: where it is in the violations, who, when."""

    at: int
    seat: int
    index: int
    hand: int


class _Replay:
    """The replay of one record: the state reached, and what was found on the way."""

    def __init__(self, head: Header, first_only: bool) -> None:
        self.head = head
        self.first_only = first_only
        self.state = start(head.profile, head.seed, head.first_dealer)
        self.checked = 1
        self.notes: list[str] = []
        self.wrong: list[tuple[int, int]] = []
        self.found: list[Violation] = []
        self.hand_ends: list[tuple[int, ...]] = []
        #: The revokes of the hand in progress, whose penalty falls due at its end.
        self.revokes: list[_Revoke] = []
        #: The tricks taken so far in the hand in progress.
        self.tricks = 0
        #: The entry just taken back, while the next one is awaited.
        self.taken_back: int | None = None
        self.stopped: int | None = None

    def run(self) -> None:
        for i, (seat, text) in enumerate(self.head.moves):
            if not self.entry(i, seat, text):
                break
        self.close()

    def entry(self, i: int, seat: int | None, text: str) -> bool:
        """One entry of the record; False where the replay stops."""
        if seat is None and self.state.current_player is not None:
            self.unasked(i, text)
        state = self.state
        try:
            after, action, found = _check_step(state, i, seat, text, self.notes)
        except InvalidStateError as exc:  # pragma: no cover - _check_step reports instead
            return self.stop(i, str(exc))
        if found is None:
            assert after is not None and action is not None
            self.claim(state, after, action, i)
            self.taken_back = None
            self.checked += 1
            self.advance(after, action, i)
            return True
        if self.taken_back is not None:
            return self.stop(
                i, f"action {i} ({short_text(text)!r}) by seat {seat}, {found.kind}: {found.rule}"
            )
        v = Violation(
            i,
            text,
            seat,
            found.kind,
            found.code,
            found.rule,
            found.penalty,
            found.claimed_value,
            found.correct_value,
            hand=state.hand_number,
            scores=state.scores,
            trick=self.trick_number(state),
            view=_view(state, seat),
        )
        lead = _lead_that_stands(state, seat, text, self.head.moves[i + 1 : i + 3])
        if lead is not None:
            v = attrs.evolve(
                v,
                penalty=f"his adversary, seat {state.current_player}, played to the lead: the"
                f" trick stands ({_rules(state)}, Out of turn)",
            )
        if self.first_only:
            if found.kind is REVOKE and found.act is not None and state.profile.revokes_played_out:
                hand, played = _play_out(state, i, found.act, self.head.moves, self.notes)
                v = attrs.evolve(v, hand_scores=hand, played_out_scores=played)
            self.found.append(v)
            return False
        self.found.append(v)
        if lead is not None:
            self.checked += 1
            self.advance(lead[0], lead[1], i)
            return True
        if found.kind is REVOKE and found.act is not None:
            return self.revoke(state, v, found.act, i)
        if found.stands is None:  # out of turn, illegal, an irregular meld scoring nothing
            self.taken_back = i
            return True
        after = apply(state, found.stands)
        if found.meld is not None:
            after = _with_meld(after, state.current_player, found.meld)
        self.checked += 1
        self.found[-1] = attrs.evolve(v, scores=after.scores)
        self.advance(after, found.stands, i)
        return True

    def unasked(self, i: int, text: str) -> None:
        """A deal (entry ``i``) while the players are asked, after the last trick, to knock
        or not: the record shows no knock, so those asked did not knock.  Their passes
        are taken as made, and the hand is counted before the deal (classic and
        three-handed rules, Claiming (knocking): only if nobody knocks is the hand
        counted)."""
        state = self.state
        if _deal_text(state, text) is None or any(state.hands) or state.trick:
            return
        passes = 0
        while state.current_player is not None and passes < len(state.scores):
            legal = legal_actions(state)
            decline = next((a for a in legal if a.kind is Kind.PASS), None)
            if decline is None or any(a.kind not in (Kind.PASS, Kind.CLAIM) for a in legal):
                return
            seat = state.current_player
            passes += 1
            self.checked += 1
            self.notes.append(
                f"action {i}: the deal comes while seat {seat} is asked to knock or pass after"
                " the last trick: the record shows no knock, so he is taken to pass"
            )
            self.advance(apply(state, decline), decline, i)
            state = self.state

    def claim(self, before: GameState, after: GameState, action: Action, i: int) -> None:
        """A wrong claim is noted: its result is the rules' (Claiming (knocking))."""
        p = action.number if action.kind is Kind.CLAIM and action.number is not None else None
        p = before.current_player if p is None else p
        if action.kind is Kind.CLAIM and p is not None and after.profile.winner(after) != p:
            self.wrong.append((i, p))
            self.notes.append(_wrong_claim(before, after, i, p))

    def revoke(self, state: GameState, v: Violation, card: Action, i: int) -> bool:
        """The revoking card is played anyway (the profile's own transition, which does
        not check it); its penalty falls due at the end of the hand."""
        p = state.current_player
        assert p is not None
        profile = state.profile
        if profile.revokes_played_out and self.revokes:
            self.notes.append(
                f"action {i}: a second revoke in hand {state.hand_number} (the first at action"
                f" {self.revokes[0].index}): the revoke rule scores a hand with one revoke"
                f" ({_rules(state)}, Revoke), so the record is checked no further"
            )
            self.stopped = i
            return False
        self.revokes.append(_Revoke(len(self.found) - 1, p, i, state.hand_number))
        # A revoke is never the last card of a hand: each seat then holds one card.
        self.advance(profile.apply(state, card), card, i)
        return True

    def advance(self, after: GameState, action: Action, i: int) -> None:
        """Move on to ``after``; at the end of a hand the penalties due are applied."""
        before = self.state
        if len(after.results) > len(before.results) or after.hand_number != before.hand_number:
            self.tricks = 0
        elif before.trick and not after.trick:
            self.tricks += 1
        if len(after.results) > len(before.results):
            after = self.hand_over(before, after, action, i)
        self.state = after

    def trick_number(self, state: GameState) -> int | None:
        """The trick of the hand an entry in ``state`` plays to or comes after (see
        :class:`Violation`), or None outside the play."""
        if state.phase not in (Phase.PLAY, Phase.ANNOUNCE) or not any(state.hands):
            return None
        return self.tricks + 1

    def hand_over(self, before: GameState, after: GameState, last: Action, i: int) -> GameState:
        """The hand just ended with ``last`` (entry ``i``): apply each revoke's penalty to
        the game scores before the next deal, and keep the scores of the hand's end."""
        revokes, self.revokes = self.revokes, []
        n = len(after.scores)
        change = [0] * n
        profile = before.profile
        result = after.results[-1]
        for k, r in enumerate(revokes):
            went = (
                f"action {r.index}: the revoking card is played anyway and hand {r.hand} goes"
                f" on as the record plays it (actions {r.index + 1} to {i} checked, to the end"
                " of the hand)"
            )
            v = self.found[r.at]
            if profile.revokes_played_out:
                hand, played = profile.revoke_scores(before, r.seat, last)
                figures = played if played is not None else hand
                for j in range(n):
                    change[j] += figures[j] - result.delta[j]
                self.found[r.at] = attrs.evolve(v, hand_scores=hand, played_out_scores=played)
                chosen = "the hand played out" if played is not None else "the revoke rule"
                self.notes.append(
                    f"{went}, and the hand is scored by the revoke rule ({_rules(before)},"
                    f" Revoke); the game scores take {chosen}"
                )
            else:
                lost = _score_for_cards(before, last, r.seat, result.tricks[r.seat])
                if any(o.seat == r.seat for o in revokes[:k]):
                    lost = 0  # his score for cards is lost once
                change[r.seat] -= lost
                self.notes.append(
                    f"{went}; at its end seat {r.seat} loses his entire score for cards, {lost}"
                    f" (the last trick's 10 still counts: {_rules(before)}, Revoke)"
                )
        if any(change):
            after = _adjusted(before, after, tuple(change))
        for r in revokes:
            self.found[r.at] = attrs.evolve(self.found[r.at], scores=after.scores)
        if revokes and after.phase is Phase.OVER:
            self.notes.append(
                f"hand {after.hand_number} ended the game as the record plays it: the end and"
                " the winner were decided on the scores before the revoke penalty"
            )
        self.hand_ends.append(after.scores)
        return after

    def stop(self, i: int, why: str) -> bool:
        """Entry ``i`` follows an entry taken back and cannot be followed: stop there."""
        self.notes.append(
            f"{why}; the record cannot be followed once action {self.taken_back} is taken"
            f" back, so it is checked no further (action {i} on is not validated)"
        )
        self.stopped = i
        return False

    def close(self) -> None:
        """The record ends (or the replay stops) with revokes whose hand is not over."""
        state = self.state
        for r in self.revokes:
            v = self.found[r.at]
            if state.profile.revokes_played_out and state.phase is Phase.PLAY:
                hand, _ = state.profile.revoke_scores(state, r.seat, None)
                v = attrs.evolve(v, hand_scores=hand)
                went = ""
                last = (self.stopped if self.stopped is not None else len(self.head.moves)) - 1
                if last > r.index:
                    went = (
                        f" and hand {r.hand} goes on as the record plays it (actions"
                        f" {r.index + 1} to {last} checked)"
                    )
                self.notes.append(
                    f"action {r.index}: the revoking card is played anyway{went}, and the hand"
                    f" is scored by the revoke rule ({_rules(state)}, Revoke)"
                )
                self.notes.append(_unfinished(r.hand))
            else:
                self.notes.append(
                    f"hand {r.hand} is not played out in the record: the penalty of the revoke"
                    f" at action {r.index} (seat {r.seat}) falls due at its end, and is not"
                    " applied"
                )
            self.found[r.at] = attrs.evolve(v, scores=state.scores)

    def named(self, text: str) -> str:
        """``text`` with each seat the record names given with its name, as
        ``str(report)`` gives them: ``seat 0 (Anna)``."""
        seats = self.head.seats
        if not any(seats):
            return text
        return _SEAT.sub(lambda m: _seat_name(int(m.group(1)), seats), text)

    def report(self) -> ValidationReport:
        state, found = self.state, self.found
        if not found:
            self.head.profile.check(state)
        first = found[0] if found else None
        whole = first is None or not self.first_only
        return ValidationReport(
            first is None,
            None if first is None else first.index,
            None if first is None else first.action,
            None if first is None else first.seat,
            None if first is None else first.rule,
            None if first is None else self.named(first.penalty),
            state.scores,
            state.profile.winner(state) if whole else None,
            self.checked,
            kind=LEGAL if first is None else first.kind,
            profile=self.head.profile.spec(),
            hand=state.hand_number,
            over=whole and state.phase is Phase.OVER,
            claimed_value=None if first is None else first.claimed_value,
            correct_value=None if first is None else first.correct_value,
            wrong_claims=tuple(self.wrong),
            notes=tuple(self.named(n) for n in self.notes),
            seats=self.head.seats,
            hand_scores=None if first is None else first.hand_scores,
            played_out_scores=None if first is None else first.played_out_scores,
            violations=tuple(attrs.evolve(v, penalty=self.named(v.penalty)) for v in found),
            hand_end_scores=tuple(self.hand_ends),
            stopped=self.stopped,
            first_only=self.first_only,
        )


def _score_for_cards(before: GameState, last: Action, seat: int, tricks: int) -> int:
    """``seat``'s score for cards in the hand that ``last`` ended in ``before``: his trick
    points of the hand (``tricks``) without the last trick's 10, which is scored apart
    from "cards" (classic rules, Play after the stock: "The winner of the last trick
    scores ten points for it; and the players then … count their score for 'cards'";
    three-handed rules, Scoring)."""
    winner = _last_trick_winner(before, last)
    return tricks - LAST_TRICK if winner == seat else tricks


def _last_trick_winner(before: GameState, last: Action) -> int | None:
    """The seat that won the last trick of the hand that ``last`` ended in ``before``;
    None where the hand ended before its last trick (a claim), or in a profile without
    card piles.  In the two-handed game after a three-handed retirement the hand is the
    game inside (``sub``, its seats the ``pair``)."""
    s: Any = before
    pair: tuple[int, ...] | None = None
    sub: Any = getattr(before, "sub", None)
    if sub is not None and getattr(before, "pair", None) is not None:
        s, pair = sub, before.pair  # type: ignore[attr-defined]
    piles = getattr(s, "piles", None)
    taken = getattr(s, "taken", None)
    if piles is None or taken is None:
        return None
    winner: int | None = None
    if not any(s.hands) and not s.trick:
        # Past the last trick (the moment to knock): its 10 is in its winner's points.
        winner = next(
            (
                i
                for i, (pile, points) in enumerate(zip(piles, taken, strict=True))
                if points - card_points(pile, BINOCLE_POINTS) == LAST_TRICK
            ),
            None,
        )
    elif (
        last.kind is Kind.PLAY
        and last.card is not None
        and s.current_player is not None
        and sum(len(h) for h in s.hands) == 1
    ):
        # The last card: the trick it completes is the last one.
        full = (*s.trick, (s.current_player, last.card))
        won = s.profile.current_winner(s.replace(trick=full))
        winner = None if won is None else won[0]
    if winner is None or pair is None:
        return winner
    return pair[winner]


def _lead_that_stands(
    state: GameState, seat: int | None, text: str, following: tuple[tuple[int | None, str], ...]
) -> tuple[GameState, Action] | None:
    """A lead out of turn that stands (classic rules, Out of turn: "If either player
    leads out of turn, and his adversary plays to the lead, whether intentionally or
    otherwise, the trick stands good"): in the two-handed game, ``seat`` leads a card
    of his, where his adversary was to lead, and the record's next entry is that
    adversary playing to it.  The state after the lead, as if it had been his turn,
    and the lead; None for any other entry.

    ``following`` are the record's next two entries.  The adversary's card may also
    be his own lead once the card out of turn is taken back ("If the adversary calls
    attention to the error, the card may be taken back without penalty"); the entry
    after it tells them apart: the trick stands unless only the card taken back lets
    the record go on.
    """
    p = state.current_player
    if (
        state.profile.players != 2
        or state.phase is not Phase.PLAY
        or state.trick
        or p is None
        or seat is None
        or seat == p
        or not following
        or following[0][0] != p
        or not following[0][1].lower().startswith("play ")
    ):
        return None
    turned = state.replace(current_player=seat)
    try:
        action = parse_action(turned, text)
        if action.kind is not Kind.PLAY:
            return None
        after = apply(turned, action)
    except BinocleError:
        return None
    if len(following) > 1 and not _goes_on(after, following) and _goes_on(state, following):
        return None  # the card out of turn was taken back, and the adversary led
    return after, action


def _goes_on(state: GameState, entries: tuple[tuple[int | None, str], ...]) -> bool:
    """Whether the record's ``entries`` are legal in turn from ``state``."""
    for k, (seat, text) in enumerate(entries):
        after, _, found = _check_step(state, k, seat, text, [])
        if found is not None or after is None:
            return False
        state = after
    return True


#: A seat in a text, not followed by its name already.
_SEAT: Final = re.compile(r"\bseat ([0-9])\b(?! \()")


def _view(state: GameState, seat: int | None) -> View | None:
    """What ``seat`` saw in ``state`` (None for an entry without a seat)."""
    if seat is None or not 0 <= seat < state.profile.players:
        return None
    return observe(state, seat)


def _unfinished(hand: int) -> str:
    return (
        f"hand {hand} is not played out in the record: it is scored on the tricks the"
        " record plays, without the last trick, and no score is given for the hand"
        " played out"
    )


def _adjusted(before: GameState, after: GameState, change: tuple[int, ...]) -> GameState:
    """``after``, the state at the end of a hand, with ``change`` added to the game scores
    and to the hand's result (``delta``): the penalties the record's state does not hold.

    In the two-handed game after a three-handed retirement the two-handed state inside
    (``sub``, its seats the ``pair``) is changed too, so the next hand starts from the
    scores with the penalty (three-handed rules, Revoke).
    """
    scores = tuple(a + b for a, b in zip(after.scores, change, strict=True))
    last = after.results[-1]
    last = attrs.evolve(last, delta=tuple(a + b for a, b in zip(last.delta, change, strict=True)))
    changes: dict[str, Any] = {"scores": scores, "results": (*after.results[:-1], last)}
    sub: Any = getattr(after, "sub", None)
    pair: Any = getattr(after, "pair", None)
    if sub is not None and pair is not None:
        inner = tuple(change[i] for i in pair)
        moved: dict[str, Any] = {
            "scores": tuple(a + b for a, b in zip(sub.scores, inner, strict=True))
        }
        if getattr(before, "sub", None) is not None and sub.results:
            r = sub.results[-1]
            moved["results"] = (
                *sub.results[:-1],
                attrs.evolve(r, delta=tuple(a + b for a, b in zip(r.delta, inner, strict=True))),
            )
        changes["sub"] = sub.replace(**moved)
    return after.replace(**changes)


def _with_meld(state: GameState, p: int | None, meld: MeldResult) -> GameState:
    """``state`` with seat ``p``'s meld set to ``meld``, where the meld is laid down
    whole and an irregular one is taken down to the cards shown
    (cutthroat rules, Irregular melds); the state as it is in a profile that keeps no
    such meld."""
    auction: Any = getattr(state, "auction", None)
    if p is None or auction is None or not hasattr(auction, "melds"):
        return state
    return state.replace(auction=auction.replace(melds=replace_at(auction.melds, p, meld)))


_NOT_STANDING: Final = (
    "the entry does not stand: it is taken back, and the record must go on from the"
    " position before it"
)


def _unread(code: RuleCode, rule: str, kind: ViolationKind = ILLEGAL) -> _Step:
    """An entry that cannot stand where it is (the turn, or a text that does not read
    there): a broken rule whose entry is taken back."""
    return None, None, _Finding(kind, code, rule, _NOT_STANDING)


def _deal_text(state: GameState, text: str) -> Action | None:
    """The deal an entry's text is (read whatever the phase), or None."""
    try:
        action = parse_action_text(text)
    except InvalidNotationError:
        return None
    return action if action.kind is Kind.DEAL else None


def _check_step(state: GameState, i: int, seat: int | None, text: str, notes: list[str]) -> _Step:
    """One record entry: the state after it and its action, or the rule it breaks (with
    the action the entry means, where it reads as one).

    Never raises for an entry of a record whose form is right: an entry that cannot
    be read where it stands (a text that does not parse in this position, a deal that
    is not a pack or comes while a player is to act, a player's action given no seat)
    is an illegal action, taken back.  A deal given a seat when the deal is due is
    read as the deal, with a note (a deal is nobody's action).
    """
    current = state.current_player
    over = current is None and (state.profile.winner(state) is not None or not legal_actions(state))
    if seat is not None and current is None and not over and _deal_text(state, text) is not None:
        notes.append(
            f"action {i}: a deal is nobody's action (seat null), not seat {seat}'s:"
            " read as the deal"
        )
        seat = None
    knock = entry_knock(state, seat, text)
    problem = None if knock is not None else turn_problem(state, seat)
    if problem is not None:
        if over:
            return _unread(RuleCode.GAME_OVER, problem)
        if current is None:
            return _unread(
                RuleCode.NOT_YOUR_TURN,
                f"out of turn: {problem}",
                OUT_OF_TURN,
            )
        if seat is None:
            if _deal_text(state, text) is not None:
                return _unread(
                    RuleCode.WRONG_PHASE,
                    f"a deal while seat {current} is to act: hand {state.hand_number} is not over",
                )
            return _unread(RuleCode.NOT_YOUR_TURN, problem)
        return (
            None,
            None,
            _Finding(
                OUT_OF_TURN,
                RuleCode.NOT_YOUR_TURN,
                f"out of turn: {problem}",
                "no penalty: the card or call is taken back and the right player acts"
                f" ({_rules(state)}, Out of turn)",
            ),
        )
    total = claimed_meld(text)
    try:
        action = knock or parse_action(state, "meld" if total is not None else text)
    except InvalidNotationError as exc:
        return _unread(RuleCode.NOT_LEGAL, f"the text does not read here: {exc}")
    mismatch = knock_mismatch(action, seat)
    if mismatch is not None:
        return _unread(RuleCode.NOT_LEGAL, mismatch)
    p = state.current_player if knock is None else seat
    if total is not None and p is not None and action in legal_actions(state):
        worth = meld_value(state, action)
        if total > worth:
            return (
                None,
                action,
                _Finding(
                    OVER_SCORED_MELD,
                    RuleCode.WRONG_VALUE,
                    f"announces a meld of {total}, but the cards make {worth}",
                    _over_scored(state, p, total, worth),
                    total,
                    worth,
                    act=action,
                    stands=action,
                ),
            )
        if total < worth:
            notes.append(
                f"action {i}: seat {p} announced {total}, less than the {worth} the cards"
                f" make; {_announcing_less(state)}"
            )
    try:
        return apply(state, action), action, None
    except IllegalActionError as exc:
        if action.kind is Kind.DEAL or p is None:
            return _unread(exc.rule, str(exc))
        return None, action, _broken(state, p, action, exc)


def _announcing_less(state: GameState) -> str:
    """What the profile's rules let a player do who announced less than his meld."""
    legal = legal_actions(state)
    if any(a.kind is Kind.MELD and a.name is not None for a in legal):
        if state.profile.players == 2:
            # Classic rules, Announcements: one combination per announcement.
            return (
                "``meld`` is the most valuable announcement, which the engine scores; to"
                " announce a less valuable one, record it by name (meld <kind> <cards>), or"
                f" pass to announce none ({_rules(state)}, Announcements)"
            )
        return (
            "the engine scores the meld in full; to announce less, record the combinations"
            " announced one by one (meld <kind> <cards>), then pass"
            f" ({_rules(state)}, Melds)"
        )
    return (
        "the meld is laid down whole and the engine scores it in full: a player cannot"
        f" announce less ({_rules(state)}, Melds)"
    )


def _broken(state: GameState, p: int, action: Action, exc: IllegalActionError) -> _Finding:
    """What an action the engine refused is: a revoke, an irregular meld, or illegal."""
    rule = str(exc)
    if _is_revoke(state, p, action, exc.rule):
        return _Finding(REVOKE, exc.rule, rule, state.profile.revoke_penalty(state, p), act=action)
    if action.kind is Kind.MELD and action.name is not None:
        claimed = KIND_VALUES.get(action.name)
        worth, best, stands, meld = _taken_down(state, p, action)
        shown = f" ({best})" if best else ""
        taken = f"the {claimed} points" if claimed is not None else "the score"
        penalty = (
            f"{taken} announced for {action.name} are taken down: the cards shown may score"
            f" {worth} now{shown}; the adversary may make him lead or play one of the cards"
            f" shown ({_rules(state)}, Irregular melds)"
        )
        return _Finding(
            IRREGULAR_MELD,
            exc.rule,
            rule,
            penalty,
            claimed,
            worth,
            act=action,
            stands=stands,
            meld=meld,
        )
    return _Finding(
        ILLEGAL,
        exc.rule,
        rule,
        "the action does not stand: it is taken back and a legal one made instead",
        act=action,
    )


def _play_out(
    state: GameState,
    index: int,
    revoke: Action,
    moves: tuple[tuple[int | None, str], ...],
    notes: list[str],
) -> _Figures:
    """The hand past a revoke, as the record plays it, scored by the profile's revoke rule
    (``first_only``: the report stops at the revoke).

    The revoking card is played anyway (the profile's own transition, which
    does not check it), then the record's further entries of that hand go
    through the usual checks, to the end of the hand or of the record; a
    further broken rule, or an entry that can't be read, stops the play-out.
    """
    p = state.current_player
    assert p is not None
    number = state.hand_number
    # A revoke is never the last card of a hand: each seat then holds one card.
    hand = state.profile.apply(state, revoke)
    last: Action | None = None
    checked = index
    stopped = ""
    for j in range(index + 1, len(moves)):
        seat, text = moves[j]
        try:
            after, action, found = _check_step(hand, j, seat, text, notes)
        except InvalidStateError as exc:
            stopped = str(exc)
            break
        if found is not None:
            stopped = (
                f"action {j} ({short_text(text)!r}) by seat {seat}, {found.kind}: {found.rule}"
            )
            break
        assert after is not None and action is not None
        checked = j
        if after.phase is not Phase.PLAY:
            last = action
            break
        hand = after
    went = ""
    if checked > index:
        to_end = ", to the end of the hand" if last is not None else ""
        went = (
            f" and hand {number} goes on as the record plays it (actions {index + 1} to"
            f" {checked} checked{to_end})"
        )
    notes.append(
        f"action {index}: the revoking card is played anyway{went}, and the hand is scored"
        f" by the revoke rule ({_rules(state)}, Revoke)"
    )
    if stopped:
        notes.append(f"{stopped}; the play-out of hand {number} past the revoke stops there")
    if last is None:
        notes.append(_unfinished(number))
    return state.profile.revoke_scores(hand, p, last)


def _is_revoke(state: GameState, p: int, action: Action, code: RuleCode) -> bool:
    """A card the player holds, refused for the obligation to follow suit, win the
    trick or trump (the rule codes of the trick obligations)."""
    return (
        code in _OBLIGATIONS
        and action.kind is Kind.PLAY
        and action.source != "table"
        and action.card is not None
        and action.card in state.hands[p]
        and bool(state.trick)
    )


def _over_scored(state: GameState, p: int, total: int, worth: int) -> str:
    """Over-scored melds, as the profile's rules page gives them."""
    text = (
        f"the meld is worth {worth}: the {total - worth} points over can be taken down"
        f" ({_rules(state)}, Over-scored melds)"
    )
    if state.profile.players == 2:
        text += f"; his adversary, seat {1 - p}, may add them to his own score"
    return text


def _cards_of(action: Action) -> Counter[Card]:
    """Every card a meld declaration names: the fresh ones and those after ``+``."""
    cards: Counter[Card] = Counter(action.cards)
    for word in (action.source or "").split():
        cards[parse_card(word.partition("#")[0])] += 1
    return cards


def _taken_down(
    state: GameState, p: int, action: Action
) -> tuple[int, str, Action | None, MeldResult | None]:
    """What the cards of a refused declaration may legally score now (classic rules,
    Irregular melds): the value, the meld in words, the action that stands instead
    (None: nothing does) and, where the meld is laid down whole, the meld itself.

    Where combinations are announced one by one, the best legal announcement
    among the cards shown; where the meld is laid down whole (cutthroat), the
    meld of the cards shown that the player holds, laid down as his meld.
    """
    declared = _cards_of(action)
    legal = legal_actions(state)
    named = [a for a in legal if a.kind is Kind.MELD and a.name is not None]
    best: Action | None = None
    value = 0
    for a in named:
        worth = KIND_VALUES.get(a.name or "", 0)
        if not _cards_of(a) - declared and worth > value:
            best, value = a, worth
    if best is not None:
        return value, str(best), best, None
    plain = [a for a in legal if a.kind is Kind.MELD and a.name is None]
    if plain and not named:
        held = Counter(state.hands[p]) & declared
        result = state.profile.meld(tuple(sorted(held.elements())), state.trump)
        return result.total, str(result) if result.melds else "", plain[0], result
    return 0, "", None, None


def _wrong_claim(before: GameState, after: GameState, i: int, p: int) -> str:
    """A wrong claim: the claimant loses (two-handed) or retires (three-handed)."""
    view = observe(before, p)
    targets = view.get("targets")
    target = targets[p] if targets else getattr(before.profile, "target", None)
    totals = view.get("claim_totals")
    short = f" of {target}" if target is not None else ""
    if totals:
        short += f" (he had {totals[p]})"
    how = (
        "" if p == before.current_player else f" out of turn (seat {before.current_player} to act)"
    )
    w = after.profile.winner(after)
    if after.phase is Phase.OVER and w is not None:
        follows = (
            f"seat {p} loses the game and seat {w} wins (a wrong claim loses:"
            f" {_rules(after)}, Claiming (knocking))"
        )
    elif after.phase is Phase.OVER:
        follows = f"seat {p} retires and the game ends ({_rules(after)}, Claiming (knocking))"
    else:
        follows = (
            f"seat {p} retires: his cards are dead and the others play on"
            f" ({_rules(after)}, Claiming (knocking))"
        )
    return (
        f"action {i}: seat {p} knocked{how}, claiming the game without having reached"
        f" the target{short}: {follows}"
    )
