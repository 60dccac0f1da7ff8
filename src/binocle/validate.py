"""Checking games recorded elsewhere (layer 4): :func:`validate` and its report.

:func:`validate` replays a game record (:mod:`binocle.record`) under the rules
and reports the first action that breaks one: where (index, action text,
player), which rule in words (the engine's own explanation), and what the
rules say follows:

- **revoke** — a card that breaks the obligation to follow suit, win the trick
  or trump, with the penalty the profile's rules page gives under "Revoke":
  in the classic and three-handed games the player in error loses his entire
  score for cards for that hand ("classic rules, Revoke" adds the adversary's
  right to have the hand replayed from the error); in cutthroat the offender's
  card points count 0 for him, a revoking bidder is scored as usual on what is
  left, and the bidder cannot be set by an opponent's revoke ("cutthroat rules,
  Revoke").  There the validator plays the revoking card anyway, replays the
  record's further cards of that hand through the usual checks, and gives each
  seat's score for the hand: ``hand_scores``, and ``played_out_scores`` where
  the bidder may choose to have the hand played out;
- **over-scored meld** — ``meld <total>`` announcing more than the meld is
  worth: the excess can be taken down, and in the two-handed game the
  adversary may add it to his own score ("classic rules, Over-scored melds");
- **irregular meld** — ``meld <kind> <cards>`` declaring a combination the
  cards do not make, or one the meld rules do not allow now (fresh card, same
  class): the score is taken down to what those cards may really score, and
  the adversary may have one of the cards led or played ("classic rules,
  Irregular melds");
- **out of turn** — a seat acting when another is to act: the card is taken
  back without penalty ("classic rules, Out of turn");
- **illegal action** — anything else the rules forbid (a bid too low, a card
  not held …): the action does not stand.

Record forms for melds.  Where a player announces his whole meld at once
(cutthroat, three-handed) write ``meld`` or, with the total he announced,
``meld 290``; where combinations are announced one by one (classic, and
three-handed if played so) write each as ``meld <kind> <cards>``, e.g.
``meld four kings KS KH KD KC``, with ``+ <table cards>`` for cards already on
the table.  A total lower than the meld is worth is noted, not an error.

A wrong claim (knocking without having reached the target) is not a broken
rule: claims are legal actions whose result the rules fix — the claimant loses
the game ("classic rules, Claiming (knocking)") or retires ("three-handed
rules, Claiming (knocking)").  Any player may knock, not only the player to
act: the entry's seat is the knocker (``{"seat": 0, "action": "claim"}`` while
seat 1 is to act).  The report lists a wrong claim in ``wrong_claims`` (with
the knocker's seat) and ``notes`` and goes on; a knock where none is possible
(cutthroat, or before the three-handed melds are over) is an illegal action.

A record that cannot be read at all (not a record, wrong version, unknown
fields, a text that does not parse, an impossible deck, a deal given a seat)
raises :class:`~binocle.errors.InvalidStateError` instead of giving a report.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

import attrs

from binocle.actions import Action, Kind
from binocle.cards import Card, parse_card
from binocle.core import GameState, Phase
from binocle.errors import IllegalActionError, InvalidNotationError, InvalidStateError
from binocle.game import apply, legal_actions, observe, parse_action, start
from binocle.record import (
    KIND_VALUES,
    claimed_meld,
    entry_knock,
    knock_mismatch,
    meld_value,
    read_header,
    read_json,
    short_text,
    turn_problem,
)

__all__ = [
    "ILLEGAL",
    "IRREGULAR_MELD",
    "LEGAL",
    "OUT_OF_TURN",
    "OVER_SCORED_MELD",
    "REVOKE",
    "ValidationReport",
    "validate",
]

LEGAL: Final = "legal"
REVOKE: Final = "revoke"
OVER_SCORED_MELD: Final = "over-scored meld"
IRREGULAR_MELD: Final = "irregular meld"
OUT_OF_TURN: Final = "out of turn"
ILLEGAL: Final = "illegal action"

#: Words of the trick obligations (binocle.rules.tricks) that make a refused card a revoke.
_OBLIGATIONS: Final = ("must follow suit", "must beat", "must trump", "must overtrump")


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


@attrs.frozen
class ValidationReport:
    """What :func:`validate` found: a frozen value; ``str(report)`` reads as text.

    ``ok``: no rule was broken.  Otherwise ``kind`` names what went wrong
    (``"revoke"``, ``"over-scored meld"``, ``"irregular meld"``, ``"out of
    turn"``, ``"illegal action"``), ``index`` and ``action`` are the entry of
    the record and its text, ``seat`` the player, ``rule`` the rule broken in
    words, ``penalty`` what the rules say follows; ``claimed_value`` and
    ``correct_value`` are the announced and the correct value of a meld.
    ``scores`` and ``winner`` are those of the last state replayed (the final
    one when ``ok``); ``hand`` its hand number and ``over`` whether the game
    ended; ``states_checked`` counts the states built by the replay (the
    start and one per accepted action, up to the broken rule).
    ``wrong_claims`` holds ``(index, seat)`` of every wrong claim and
    ``notes`` a line for each remark.

    After a revoke in a profile whose rules score the hand past it
    (cutthroat rules, Revoke), the hand is played out as the record plays it,
    to its end or to the record's (a further broken rule stops it: a note
    says so), and ``hand_scores`` is each seat's score for that hand (the
    change of its game score) under the revoke rule, the bidder at his bid
    where an opponent revoked; ``played_out_scores`` is the same with the
    bidder's score for the hand played out, given only where an opponent
    revoked and the record plays the hand to its end.  Both are None
    otherwise (a note says when the record stops before the hand's end).
    ``scores`` stay those before the revoke.
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
    kind: str = LEGAL
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

    def __str__(self) -> str:
        name = self.seats
        lines: list[str] = []
        if self.ok:
            lines.append(f"legal game ({self.profile}): no rule broken")
        else:
            text = self.action if self.action is None or len(self.action) <= 60 else "deal ..."
            lines.append(
                f"{self.kind} at action {self.index} ({text!r}) by"
                f" {_seat_name(self.seat, name)}, hand {self.hand} ({self.profile})"
            )
            lines.append(f"  rule broken: {self.rule}")
            if self.claimed_value is not None or self.correct_value is not None:
                claimed = "?" if self.claimed_value is None else str(self.claimed_value)
                lines.append(f"  meld announced: {claimed}; correct value: {self.correct_value}")
            lines.append(f"  what follows: {self.penalty}")
            if self.hand_scores is not None:
                lines.append(
                    f"  hand {self.hand} scored by the revoke rule: "
                    + _by_seat(self.hand_scores, name)
                )
            if self.played_out_scores is not None:
                lines.append(
                    f"  hand {self.hand} played out, at the bidder's choice: "
                    + _by_seat(self.played_out_scores, name)
                )
        for note in self.notes:
            lines.append(f"  note: {note}")
        where = "before it" if not self.ok else "final" if self.over else "so far"
        lines.append(f"  scores ({where}): " + _by_seat(self.scores, name))
        if self.over:
            won = (
                f"{_seat_name(self.winner, name)} wins"
                if self.winner is not None
                else "nobody wins"
            )
            lines.append(f"  game over after hand {self.hand}: {won}")
        elif self.ok:
            lines.append(f"  the game goes on (hand {self.hand}); no winner yet")
        lines.append(f"  {self.states_checked} states replayed and checked")
        return "\n".join(lines)


def validate(record: dict[str, Any] | str | bytes) -> ValidationReport:
    """Replay a game record and report the first broken rule, or the result.

    ``record`` is a record dict or its JSON text (``str`` or ``bytes``; see
    :mod:`binocle.record`).
    Raises InvalidStateError for a record that cannot be read.

    >>> import binocle
    >>> s = binocle.new_game("cutthroat", seed=7)
    >>> r = binocle.record(s)
    >>> r["actions"].append({"seat": 1, "action": "bid 200"})
    >>> report = binocle.validate(r)
    >>> report.ok, report.kind, report.index, report.rule
    (False, 'illegal action', 1, 'the lowest bid is 250 (bid 200)')
    """
    head = read_header(read_json(record, "a record"))
    state = start(head.profile, head.seed, head.first_dealer)
    checked = 1
    notes: list[str] = []
    wrong: list[tuple[int, int]] = []
    found: _Finding | None = None
    index, text, seat = 0, "", None
    for index, (seat, text) in enumerate(head.moves):
        after, action, found = _check_step(state, index, seat, text, notes)
        if after is None or action is None:
            break
        p = action.number if action.kind is Kind.CLAIM and action.number is not None else None
        p = state.current_player if p is None else p
        if action.kind is Kind.CLAIM and p is not None and after.profile.winner(after) != p:
            wrong.append((index, p))
            notes.append(_wrong_claim(state, after, index, p))
        state = after
        checked += 1
    if found is None:
        head.profile.check(state)
    figures: _Figures = (None, None)
    if found is not None and found.play is not None and state.profile.revokes_played_out:
        figures = _play_out(state, index, found.play, head.moves, notes)
    return ValidationReport(
        found is None,
        None if found is None else index,
        None if found is None else text,
        None if found is None else seat,
        None if found is None else found.rule,
        None if found is None else found.penalty,
        state.scores,
        state.profile.winner(state) if found is None else None,
        checked,
        kind=LEGAL if found is None else found.kind,
        profile=head.profile.spec(),
        hand=state.hand_number,
        over=found is None and state.phase is Phase.OVER,
        claimed_value=None if found is None else found.claimed_value,
        correct_value=None if found is None else found.correct_value,
        wrong_claims=tuple(wrong),
        notes=tuple(notes),
        seats=head.seats,
        hand_scores=figures[0],
        played_out_scores=figures[1],
    )


@attrs.frozen
class _Finding:
    """A broken rule found at one entry, before it is put in a report."""

    kind: str
    rule: str
    penalty: str
    claimed_value: int | None = None
    correct_value: int | None = None
    #: The revoking card (a revoke only).
    play: Action | None = None


_Step = tuple[GameState, Action, None] | tuple[None, None, _Finding]
#: A revoke's figures: the hand under the revoke rule, and the hand played out.
_Figures = tuple[tuple[int, ...] | None, tuple[int, ...] | None]


def _check_step(state: GameState, i: int, seat: int | None, text: str, notes: list[str]) -> _Step:
    """One record entry: the state after it and its action, or the rule it breaks.

    Raises InvalidStateError where the record cannot be read (text that does
    not parse, a deal that is not a pack, a deal given a seat or a player's
    action given none).
    """
    where = f"action {i} ({short_text(text)!r})"
    knock = entry_knock(state, seat, text)
    problem = None if knock is not None else turn_problem(state, seat)
    if problem is not None:
        if seat is None or state.current_player is None:
            raise InvalidStateError(f"{where}: {problem}")
        return (
            None,
            None,
            _Finding(
                OUT_OF_TURN,
                f"out of turn: {problem}",
                "no penalty: the card or call is taken back and the right player acts"
                f" ({_rules(state)}, Out of turn)",
            ),
        )
    total = claimed_meld(text)
    try:
        action = knock or parse_action(state, "meld" if total is not None else text)
    except InvalidNotationError as exc:
        raise InvalidStateError(f"{where}: {exc}") from None
    mismatch = knock_mismatch(action, seat)
    if mismatch is not None:
        raise InvalidStateError(f"{where}: {mismatch}")
    p = state.current_player if knock is None else seat
    if total is not None and p is not None and action in legal_actions(state):
        worth = meld_value(state, action)
        if total > worth:
            return (
                None,
                None,
                _Finding(
                    OVER_SCORED_MELD,
                    f"announces a meld of {total}, but the cards make {worth}",
                    _over_scored(state, p, total, worth),
                    total,
                    worth,
                ),
            )
        if total < worth:
            notes.append(
                f"action {i}: seat {p} announced {total}, less than the {worth} the cards"
                " make; the engine scores the meld in full (record the combinations one by"
                " one to announce less)"
            )
    try:
        return apply(state, action), action, None
    except IllegalActionError as exc:
        if action.kind is Kind.DEAL or p is None:
            raise InvalidStateError(f"{where}: {exc}") from None
        return None, None, _broken(state, p, action, str(exc))


def _broken(state: GameState, p: int, action: Action, rule: str) -> _Finding:
    """What an action the engine refused is: a revoke, an irregular meld, or illegal."""
    if _is_revoke(state, p, action, rule):
        return _Finding(REVOKE, rule, state.profile.revoke_penalty(state, p), play=action)
    if action.kind is Kind.MELD and action.name is not None:
        claimed = KIND_VALUES.get(action.name)
        worth, best = _declared_worth(state, p, action)
        shown = f" ({best})" if best else ""
        taken = f"the {claimed} points" if claimed is not None else "the score"
        penalty = (
            f"{taken} announced for {action.name} are taken down: the cards shown may score"
            f" {worth} now{shown}; the adversary may make him lead or play one of the cards"
            f" shown ({_rules(state)}, Irregular melds)"
        )
        return _Finding(IRREGULAR_MELD, rule, penalty, claimed, worth)
    return _Finding(
        ILLEGAL, rule, "the action does not stand: it is taken back and a legal one made instead"
    )


def _play_out(
    state: GameState,
    index: int,
    revoke: Action,
    moves: tuple[tuple[int | None, str], ...],
    notes: list[str],
) -> _Figures:
    """The hand past a revoke, as the record plays it, scored by the profile's revoke rule.

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
        if after is None or action is None:
            assert found is not None
            stopped = (
                f"action {j} ({short_text(text)!r}) by seat {seat}, {found.kind}: {found.rule}"
            )
            break
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
        notes.append(
            f"hand {number} is not played out in the record: it is scored on the tricks the"
            " record plays, without the last trick, and no score is given for the hand"
            " played out"
        )
    return state.profile.revoke_scores(hand, p, last)


def _is_revoke(state: GameState, p: int, action: Action, rule: str) -> bool:
    """A card the player holds, refused for the follow / win / trump obligation."""
    return (
        action.kind is Kind.PLAY
        and action.source != "table"
        and action.card is not None
        and action.card in state.hands[p]
        and bool(state.trick)
        and any(words in rule for words in _OBLIGATIONS)
    )


def _over_scored(state: GameState, p: int, total: int, worth: int) -> str:
    """Over-scored melds, as the profile's rules page gives them."""
    # Seed 002, "Should a player score more than he is entitled to".
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


def _declared_worth(state: GameState, p: int, action: Action) -> tuple[int, str]:
    """What the cards of a refused declaration may legally score now, and that meld."""
    declared = _cards_of(action)
    legal = legal_actions(state)
    best, value = "", 0
    for a in legal:
        if (
            a.kind is Kind.MELD
            and a.name is not None
            and not _cards_of(a) - declared
            and KIND_VALUES.get(a.name, 0) > value
        ):
            best, value = str(a), KIND_VALUES.get(a.name, 0)
    if best:
        return value, best
    plain = [a for a in legal if a.kind is Kind.MELD and a.name is None]
    if plain:
        held = Counter(state.hands[p]) & declared
        result = state.profile.meld(tuple(sorted(held.elements())), state.trump)
        return result.total, str(result) if result.melds else ""
    return 0, ""


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
