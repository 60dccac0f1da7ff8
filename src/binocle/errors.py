"""The errors binocle raises.

Every public function either returns a correct result or raises one of these.
All of them are :class:`BinocleError`, and every subclass is also a
:class:`ValueError`, so ``except ValueError`` catches them as well.
"""

from __future__ import annotations

import enum
import sys
from typing import Any, TypeGuard

__all__ = [
    "BinocleError",
    "EngineCrashError",
    "EngineError",
    "EngineIllegalActionError",
    "EngineOutputError",
    "EngineProtocolError",
    "EngineTimeoutError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidStateError",
    "NothingToUndoError",
    "RuleCode",
    "UnknownProfileError",
]


class RuleCode(str, enum.Enum):
    """The rule an action breaks, as a program reads it: one code per rule the engine
    enforces.

    Every :class:`IllegalActionError` carries one (``error.rule``), and the
    stateless checks of :mod:`binocle.rulings` give one for each card or
    combination they refuse.  A member is also its text (``RuleCode.MUST_FOLLOW
    == "must-follow"``), which is what JSON holds.  Codes are stable: new rules
    get new codes, and a code is never reused for another rule.
    """

    #: The game is over: no action is possible.
    GAME_OVER = "game-over"
    #: The action belongs to another phase (e.g. a card played while bidding, a deal
    #: before the hand is over).
    WRONG_PHASE = "wrong-phase"
    #: A seat acts when another seat is to act.
    NOT_YOUR_TURN = "not-your-turn"
    #: A deal that is not an order of this profile's pack.
    BAD_DECK = "bad-deck"
    #: A card played or discarded that the player does not hold.
    NOT_HELD = "not-held"
    #: A card whose copy must be named (classic: the concealed hand or the table).
    WHICH_COPY = "which-copy"
    #: A card of another suit while holding a card of the suit led.
    MUST_FOLLOW = "must-follow"
    #: A card of the suit led that does not beat the best card while holding one that does.
    MUST_BEAT = "must-beat"
    #: A plain card while void in the suit led and holding a trump.
    MUST_TRUMP = "must-trump"
    #: A trump that does not beat the best trump while holding one that does.
    MUST_OVERTRUMP = "must-overtrump"
    #: A plain card while void in the suit led, unable to overtrump, holding a trump
    #: (the rules that ask for an under-trump).
    MUST_UNDERTRUMP = "must-undertrump"
    #: The winner of a trick leads before announcing and drawing (classic).
    ANNOUNCE_FIRST = "announce-first"
    #: An announcement after announcements ended (the stock exhausted; the player's
    #: first card played).
    ANNOUNCEMENTS_OVER = "announcements-over"
    #: A bid below the lowest bid or not above the last bid.
    BID_TOO_LOW = "bid-too-low"
    #: A bid above the profile's ceiling.
    BID_TOO_HIGH = "bid-too-high"
    #: A bid off the steps of 10.
    BID_STEP = "bid-step"
    #: A bid other than the lowest by the last player after two passes.
    BID_FORCED = "bid-forced"
    #: An action of a rule the profile's options leave out (bunched hands, grand
    #: binocle, claiming an overlooked meld, melding until the first card).
    OPTION_OFF = "option-off"
    #: A bunched hand asked without the hand or the moment for it.
    NOT_BUNCHED = "not-bunched"
    #: An action only the bidder may take (giving up the hand).
    BIDDER_ONLY = "bidder-only"
    #: Giving up the hand after the first lead.
    TOO_LATE = "too-late"
    #: Dix without the Nine of trumps, or when dix can no longer be scored.
    NO_DIX = "no-dix"
    #: A meld of cards the player does not hold (or that are not on his table).
    MELD_NOT_HELD = "meld-not-held"
    #: Cards that make no combination of the meld table, or not the one named.
    NOT_A_COMBINATION = "not-a-combination"
    #: A card serving twice where the rules allow it once (the same card named twice,
    #: two combinations of one class sharing a card, a table slot used twice).
    CARDS_REUSED = "cards-reused"
    #: An announcement with no card from the concealed hand (classic: fresh card rule).
    FRESH_CARD = "fresh-card"
    #: Table cards serving again in the same class other than in a more valuable
    #: combination that contains the first (classic: same class rule).
    SAME_CLASS = "same-class"
    #: A combination in the wrong suit (a marriage in trumps, a sequence in a plain suit).
    MELD_SUIT = "meld-suit"
    #: A value announced other than what the combination is worth.
    WRONG_VALUE = "wrong-value"
    #: A meld announced where the player has none left to announce.
    NO_MELD = "no-meld"
    #: A claim where none is open (no knocking in the profile or the phase, nothing
    #: overlooked to claim, a seat that may not knock).
    NO_CLAIM_OPEN = "no-claim-open"
    #: After the last trick: only a knock or a pass.
    CLAIM_OR_PASS = "claim-or-pass"
    #: An overlooked meld is offered: it is answered first.
    OFFER_PENDING = "offer-pending"
    #: A seat that retired after a wrong claim acts again.
    RETIRED = "retired"
    #: Any other refusal: the action is not among the legal ones (e.g. an action id
    #: that is not legal now).
    NOT_LEGAL = "not-legal"


class BinocleError(Exception):
    """Base class of every error binocle raises on purpose."""


class IllegalActionError(BinocleError, ValueError):
    """A well-formed action that breaks a rule in the given state.

    The message names the rule and what in the state forbids the action, for
    example ``"must follow suit: holds QH"``; a program reads the same from the
    attributes:

    - ``rule``: the :class:`RuleCode` broken (``RuleCode.MUST_FOLLOW``);
    - ``action``: the action refused (an :class:`~binocle.actions.Action`), or
      None where there is none (an action id of :mod:`binocle.encoding` that
      names no action);
    - ``seat``: the seat that tried it, or None where no seat acts (a deal).

    A refused action changes nothing: the state it was tried on is unchanged.
    """

    rule: RuleCode
    action: Any
    seat: int | None

    def __init__(
        self,
        message: str,
        rule: RuleCode = RuleCode.NOT_LEGAL,
        action: Any = None,
        seat: int | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.action = action
        self.seat = seat

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a process pool's worker raising it) with its rule, action and seat.
        return (type(self), (str(self), self.rule, self.action, self.seat))


class InvalidNotationError(BinocleError, ValueError):
    """Text (a card, an action, a profile spec) that does not parse."""


class InvalidStateError(BinocleError, ValueError):
    """A state or record read from outside that is inconsistent.

    ``index`` is the position, in the record's ``actions``, of the entry that
    cannot be read (a card that does not parse, a deal given a seat …), or None
    where the fault is not in one entry (the header, the JSON itself, a state).
    """

    index: int | None

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.index))


class UnknownProfileError(BinocleError, ValueError):
    """An unknown profile name, or an unknown or invalid profile option."""


class InvalidArgumentError(BinocleError, ValueError):
    """An argument of the wrong type or out of range (a seat, a dealer, a seed)."""


class EngineError(BinocleError):
    """An external engine (a program speaking the binocle engine protocol,
    :mod:`binocle.engine`) failed: the message names the engine and quotes what it
    sent.

    - ``engine``: the engine's name (its command, or the name it gave);
    - ``sent``: what it sent last (a line cut to a few hundred characters), or None;
    - ``state``: the game up to the failure (the state in which the engine was to
      act), filled in by the runner that plays the game (:func:`binocle.bots.play_game`),
      else None; ``binocle.record(error.state)`` is the game recorded up to there.

    The engine's process is stopped before the error is raised.
    """

    engine: str
    sent: str | None
    state: Any

    def __init__(self, message: str, engine: str = "", sent: str | None = None) -> None:
        super().__init__(message)
        self.engine = engine
        self.sent = sent
        self.state = None

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a process pool's worker raising it) with what it knows.
        return (_rebuild_engine_error, (type(self), str(self), self.engine, self.sent, self.state))


def _rebuild_engine_error(
    kind: type[EngineError], message: str, engine: str, sent: str | None, state: Any
) -> EngineError:
    error = kind(message, engine, sent)
    error.state = state
    return error


class EngineCrashError(EngineError):
    """The engine's process ended, or closed its output, before it answered."""


class EngineTimeoutError(EngineError):
    """The engine did not answer within its time (per move, per game, or to start)."""


class EngineProtocolError(EngineError):
    """The engine sent what the protocol does not allow: a line that is not a JSON
    object, an unknown message, a message missing a field."""


class EngineIllegalActionError(EngineError):
    """The engine answered with an action that is not among the legal ones."""


class EngineOutputError(EngineError):
    """The engine wrote more than its limits allow (one line, or a whole game)."""


class NothingToUndoError(InvalidArgumentError):
    """:func:`binocle.undo` of a state with no action to undo: a new game (its
    first deal is not undone), or a state whose history is not known."""


#: How many characters of a caller's input an error message quotes at most.
EXCERPT: int = 80


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, ending in ``…`` when cut.

    Messages quote what they were given through this, so a 10 MB text gives a
    short message, never a 10 MB one.
    """
    if isinstance(value, str):
        text = repr(value[: limit + 1])
        return text if len(value) <= limit else text[: limit + 1] + "…"
    if isinstance(value, int) and not isinstance(value, bool):
        # repr of a huge int is slow (and above 4,300 digits refused): count its bits instead.
        if value.bit_length() > 200:
            return f"<a {value.bit_length()}-bit number>"
        return repr(value)
    if isinstance(value, (bytes, bytearray)):
        text = repr(bytes(value[: limit + 1]))
        return text if len(value) <= limit else text[: limit + 1] + "…"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"
    return shorten(text, limit)


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an int, not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_finite(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is a number a float holds: an int or a float (not a bool),
    neither NaN nor an infinity nor past the largest float."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and abs(value) <= sys.float_info.max  # False for NaN
    )


def expect(value: object, kind: type | tuple[type, ...], what: str) -> None:
    """Refuse ``value`` unless it is a ``kind``: :class:`InvalidArgumentError` saying
    ``what`` it should be ("card is a Card") and quoting what it is."""
    if not isinstance(value, kind):
        raise InvalidArgumentError(f"{what}, not {excerpt(value)}")


def shorten(text: str, limit: int = EXCERPT) -> str:
    """``text`` cut to ``limit`` characters, ending in ``…`` when cut."""
    return text if len(text) <= limit else text[:limit] + "…"
