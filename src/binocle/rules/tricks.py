"""Trick winner and trick obligations (layer 2), on card numbers.

Cards are ints ``suit * 8 + rank`` with the strongest rank 0, so within a suit
the lower number wins, and ``card >> 3`` is the suit (see :mod:`binocle.cards`).
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections.abc import Sequence
from types import FunctionType
from typing import Any, Final, TypeVar

from binocle.cards import CARDS, Card, Suit, format_cards, parse_card, parse_cards, parse_suit
from binocle.errors import InvalidNotationError, RuleCode, excerpt

__all__ = [
    "CardLike",
    "CardsLike",
    "Obligation",
    "TrumpLike",
    "allowed_cards",
    "allowed_slice",
    "beats",
    "distinct",
    "obligation_broken",
    "read_card",
    "read_cards",
    "read_rule",
    "read_trump",
    "trick_winner",
]

C = TypeVar("C", bound=int)


class Obligation(enum.Enum):
    """What a player must play to a trick (the Play sections of the rules pages).

    - ``FREE``: any card (classic, while the stock lasts).
    - ``FOLLOW_WIN_TRUMP``: follow suit and win if able; void, trump (winning
      if able); otherwise any card (classic, after the stock).
    - ``FOLLOW_WIN_TRUMP_UNDERTRUMP``: as above, but a player void in the suit
      led who cannot overtrump must still under-trump (three-handed; cutthroat).
    - ``EASIER``: follow suit, beating the highest card so far only when trump
      was led; void, any trump; otherwise any card (cutthroat option).
    """

    FREE = "free"
    FOLLOW_WIN_TRUMP = "follow-win-trump"
    FOLLOW_WIN_TRUMP_UNDERTRUMP = "follow-win-trump-undertrump"
    EASIER = "easier"


# The members as module constants, for the engine's hot paths (here and in the
# profiles, which import them): a global read costs a fraction of reading a member
# off its enum class (Python 3.11).  Private to binocle, out of __all__ and the docs.
_OBLIGATION_FREE: Final = Obligation.FREE
_OBLIGATION_FOLLOW_WIN_TRUMP: Final = Obligation.FOLLOW_WIN_TRUMP
_OBLIGATION_FOLLOW_WIN_TRUMP_UNDERTRUMP: Final = Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP
_OBLIGATION_EASIER: Final = Obligation.EASIER


# The public functions take their arguments typed Any and read them themselves: a
# compiled function would refuse an argument of another type with a bare TypeError
# before its first line.  The aliases below say what they accept.

#: A card as the public functions read it: a :class:`~binocle.cards.Card`, its
#: number (0..31), or its text (``"TS"``, ``"10♠"``).
CardLike = Card | int | str
#: Cards: a text of cards (``"AS TS KS"``) or a sequence of :data:`CardLike`.
CardsLike = str | Sequence[CardLike]
#: A trump: a :class:`~binocle.cards.Suit`, its number (0..3), its text (``"H"``,
#: ``"hearts"``, ``"♥"``), or None for no trump.
TrumpLike = Suit | int | str | None


def read_card(card: object) -> Card:
    """A card given as a :class:`~binocle.cards.Card`, its number or its text.

    Raises InvalidNotationError for anything else: never a silent wrong answer.
    """
    if type(card) is Card:
        return card
    if isinstance(card, bool):
        raise InvalidNotationError(f"a card is a Card, its number or its text, not {excerpt(card)}")
    if isinstance(card, int):
        if 0 <= card < len(CARDS):
            return CARDS[card]
        raise InvalidNotationError(f"not a card number 0..{len(CARDS) - 1}: {excerpt(card)}")
    if isinstance(card, str):
        return parse_card(card)
    raise InvalidNotationError(
        f"a card is a Card, its number or its text, not {type(card).__name__}"
    )


def read_cards(cards: object) -> tuple[Card, ...]:
    """Cards given as a text (``"AS TS"``) or a sequence of cards as :func:`read_card` reads
    them."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Sequence):
        raise InvalidNotationError(
            f"cards are a text such as 'AS TS' or a sequence of cards, not {type(cards).__name__}"
        )
    return tuple(read_card(c) for c in cards)


def read_trump(trump: object) -> int | None:
    """The trump suit's number, given as a :class:`~binocle.cards.Suit`, its number
    (0..3), its text or None (no trump).  A text is never read as a number: ``"H"``
    is hearts, and anything unreadable raises InvalidNotationError."""
    if trump is None:
        return None
    if isinstance(trump, Suit):
        return int(trump)
    if isinstance(trump, bool):
        raise InvalidNotationError(
            f"a trump is a Suit, its number or its text, not {excerpt(trump)}"
        )
    if isinstance(trump, int):
        if 0 <= trump < 4:
            return trump
        raise InvalidNotationError(f"not a suit number 0..3: {excerpt(trump)}")
    if isinstance(trump, str):
        return int(parse_suit(trump))
    raise InvalidNotationError(
        f"a trump is a Suit, its number, its text or None, not {type(trump).__name__}"
    )


def read_rule(rule: object) -> Obligation:
    """An :class:`Obligation`, given as a member or its value (``"follow-win-trump"``)."""
    if isinstance(rule, Obligation):
        return rule
    if isinstance(rule, str):
        for member in Obligation:
            if member.value == rule.strip().lower():
                return member
        names = ", ".join(m.value for m in Obligation)
        raise InvalidNotationError(f"not a trick rule: {excerpt(rule)} (one of {names})")
    raise InvalidNotationError(f"a trick rule is an Obligation, not {type(rule).__name__}")


def beats(card: Any, best: Any, trump: Any) -> bool:
    """Whether ``card``, played after ``best`` (the card winning so far), wins instead.

    Same suit: the stronger wins, and of identical cards the first played.
    A trump beats any plain card; any other card loses (common rules, Trick winner).
    Cards and the trump are read as :func:`read_card` and :func:`read_trump` say.
    """
    return _beats(read_card(card), read_card(best), read_trump(trump))


def _beats(card: int, best: int, trump: int | None) -> bool:
    """:func:`beats` of card numbers and a trump number (the engine's own calls)."""
    if card >> 3 == best >> 3:
        return card < best
    return card >> 3 == trump


def trick_winner(cards: Any, trump: Any) -> int:
    """The index, in play order, of the card that wins the trick (common rules, Trick winner).

    The cards and the trump are read as :func:`read_cards` and :func:`read_trump` say.

    >>> trick_winner(["KH", "AH", "9S"], "S"), trick_winner(["KH", "AH", "9S"], None)
    (2, 1)
    """
    played = read_cards(cards)
    if not played:
        raise InvalidNotationError("a trick holds at least one card")
    return _trick_winner(played, read_trump(trump))


def _trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """:func:`trick_winner` of card numbers and a trump number (the engine's own calls)."""
    best = 0
    b = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        s = c >> 3
        if s == b >> 3:
            if c < b:
                best, b = i, c
        elif s == trump:
            best, b = i, c
    return best


def distinct(hand: Sequence[C]) -> tuple[C, ...]:
    """The distinct cards of a sorted hand, in order."""
    return tuple(dict.fromkeys(hand))


def allowed_cards(hand: Any, played: Any, trump: Any, rule: Any) -> tuple[Card, ...]:
    """The distinct cards of ``hand`` that may be played to the trick, in hand order.

    ``played`` are the cards already in the trick, in play order.  Cards, the
    trump and the rule are read as :func:`read_cards`, :func:`read_trump` and
    :func:`read_rule` say; what cannot be read raises InvalidNotationError.

    >>> allowed_cards("AS KS QH TH 9C", ["TD"], "H", "follow-win-trump")
    (Card('QH'), Card('TH'))
    """
    return _allowed_cards(read_cards(hand), read_cards(played), read_trump(trump), read_rule(rule))


def _allowed_cards(
    hand: Sequence[C], played: Sequence[int], trump: int | None, rule: Obligation
) -> tuple[C, ...]:
    """:func:`allowed_cards` of card numbers, a trump number and an :class:`Obligation`
    (the engine's own calls)."""
    if not played or rule is _OBLIGATION_FREE:
        return tuple(dict.fromkeys(hand))
    led = played[0] >> 3
    best = played[_trick_winner(played, trump)]
    follow = [c for c in hand if c >> 3 == led]
    if follow:
        must_beat = rule is not _OBLIGATION_EASIER or led == trump
        if must_beat and best >> 3 == led:
            higher = [c for c in follow if c < best]
            if higher:
                return tuple(dict.fromkeys(higher))
        return tuple(dict.fromkeys(follow))
    if trump is not None:
        trumps = [c for c in hand if c >> 3 == trump]
        if trumps:
            if best >> 3 == trump and rule is not _OBLIGATION_EASIER:
                over = [c for c in trumps if c < best]
                if over:
                    return tuple(dict.fromkeys(over))
                if rule is _OBLIGATION_FOLLOW_WIN_TRUMP:
                    return tuple(dict.fromkeys(hand))
            return tuple(dict.fromkeys(trumps))
    return tuple(dict.fromkeys(hand))


def allowed_slice(
    hand: tuple[C, ...], trick: tuple[tuple[int, int], ...], trump: int | None, rule: Obligation
) -> tuple[C, ...]:
    """The cards of the sorted ``hand`` that may be played to ``trick`` (its ``(seat,
    card)`` pairs so far), copies included: :func:`allowed_cards` for the engine's
    hot path.

    Cards of one suit lie together in a sorted hand, the stronger first, so the
    answer is a slice found by bisection: ``hand`` itself where any card may be
    played, else the cards of one suit (those beating the best card so far,
    where the rule asks for them and the hand holds them).
    """
    if not trick or rule is _OBLIGATION_FREE:
        return hand
    best: int = trick[0][1]
    led = best >> 3
    t: int = -1 if trump is None else trump
    for i in range(1, len(trick)):
        c: int = trick[i][1]
        if c >> 3 == best >> 3:
            if c < best:
                best = c
        elif c >> 3 == t:
            best = c
    n = len(hand)
    lo = bisect_cards(hand, led << 3, 0, n)
    hi = bisect_cards(hand, (led + 1) << 3, lo, n)
    if lo < hi:
        # Follow suit, beating the best card if able (EASIER: only when trump was led).
        if best >> 3 == led and (rule is not _OBLIGATION_EASIER or led == t):
            top = bisect_cards(hand, best, lo, hi)
            if top > lo:
                hi = top
        return hand[lo:hi]
    if t >= 0:
        lo = bisect_cards(hand, t << 3, 0, n)
        hi = bisect_cards(hand, (t + 1) << 3, lo, n)
        if lo < hi:
            # Void: trump, overtrumping if able; else under-trump, or (FOLLOW_WIN_TRUMP)
            # any card; EASIER: any trump.
            if best >> 3 == t and rule is not _OBLIGATION_EASIER:
                top = bisect_cards(hand, best, lo, hi)
                if top > lo:
                    return hand[lo:top]
                if rule is _OBLIGATION_FOLLOW_WIN_TRUMP:
                    return hand
            return hand[lo:hi]
    return hand


def bisect_cards(cards: tuple[int, ...], c: int, lo: int, hi: int) -> int:
    """The first index of the sorted ``cards[lo:hi]`` whose card is not below ``c``:
    ``bisect.bisect_left(cards, c, lo, hi)``.

    Compiled, the cards compare as machine integers, with no call into the bisect
    module; in pure Python the C ``bisect_left`` itself takes this name (which is
    why it is not in ``__all__``: the engine's helper, not a rule).
    """
    while lo < hi:
        mid = (lo + hi) >> 1
        x: int = cards[mid]
        if x < c:
            lo = mid + 1
        else:
            hi = mid
    return lo


def obligation_broken(card: Any, hand: Any, played: Any, trump: Any, rule: Any) -> str | None:
    """Why playing ``card`` breaks ``rule`` (e.g. "must follow suit: holds QH"), or None.

    The arguments are read as in :func:`allowed_cards`.

    >>> obligation_broken("KS", "AS KS QH TH 9C", ["TD"], "H", "follow-win-trump")
    'void in D, must trump: holds QH TH'
    """
    return _obligation_broken(
        read_card(card), read_cards(hand), read_cards(played), read_trump(trump), read_rule(rule)
    )


def _obligation_broken(
    card: int, hand: Sequence[int], played: Sequence[int], trump: int | None, rule: Obligation
) -> str | None:
    """:func:`obligation_broken` of card numbers (the engine's own calls)."""
    found = _obligation_refusal(card, hand, played, trump, rule)
    return None if found is None else found[1]


def _obligation_refusal(
    card: int, hand: Sequence[int], played: Sequence[int], trump: int | None, rule: Obligation
) -> tuple[RuleCode, str] | None:
    """The rule code and text of the obligation ``card`` breaks, or None (the engine's
    own calls, and :mod:`binocle.rulings`)."""
    if card in _allowed_cards(hand, played, trump, rule):
        return None
    led = played[0] >> 3
    follow = [c for c in hand if c >> 3 == led]
    names = "SHDC"
    if follow and card >> 3 != led:
        return (
            _MUST_FOLLOW,
            f"must follow suit {names[led]}: holds {format_cards(dict.fromkeys(follow))}",
        )
    best = played[_trick_winner(played, trump)]
    if follow:
        higher = [c for c in follow if c < best]
        return (
            _MUST_BEAT,
            f"must beat {format_cards([best])}: holds {format_cards(dict.fromkeys(higher))}",
        )
    assert trump is not None
    trumps = [c for c in hand if c >> 3 == trump]
    over = [c for c in trumps if c < best]
    if card >> 3 != trump:
        if best >> 3 == trump and not over and rule is _OBLIGATION_FOLLOW_WIN_TRUMP_UNDERTRUMP:
            return (
                _MUST_UNDERTRUMP,
                f"void in {names[led]}, must trump (under-trump, unable to beat"
                f" {format_cards([best])}): holds {format_cards(dict.fromkeys(trumps))}",
            )
        return (
            _MUST_TRUMP,
            f"void in {names[led]}, must trump: holds {format_cards(dict.fromkeys(trumps))}",
        )
    return (
        _MUST_OVERTRUMP,
        f"must overtrump {format_cards([best])}: holds {format_cards(dict.fromkeys(over))}",
    )


_MUST_FOLLOW: Final = RuleCode.MUST_FOLLOW
_MUST_BEAT: Final = RuleCode.MUST_BEAT
_MUST_TRUMP: Final = RuleCode.MUST_TRUMP
_MUST_OVERTRUMP: Final = RuleCode.MUST_OVERTRUMP
_MUST_UNDERTRUMP: Final = RuleCode.MUST_UNDERTRUMP


if isinstance(bisect_cards, FunctionType):
    # Interpreted, the C bisect is faster than the loop; compiled calls are bound.
    globals()["bisect_cards"] = bisect_left
