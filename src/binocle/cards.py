"""Cards: suits, ranks, cards, packs and their notation (layer 1).

A card is a small int, ``suit * 8 + rank``, wrapped in an interned
:class:`Card` object (an ``int`` subclass), so the engine can index tables
with it and compare it as fast as an int while users see ``"TS"``.

Ranks are numbered from the strongest: ``ACE = 0`` … ``SEVEN = 7``.  So within
one suit, the *lower* card number is the *stronger* card, and sorting a hand
gives spades, hearts, diamonds, clubs, each from the Ace down.  A program that
compares strength reads :attr:`Rank.strength` (higher is stronger),
:meth:`Card.beats`, :func:`highest` and :func:`winning_card` instead, which
follow the common rule of the trick winner: the highest trump, else the
highest card of the suit led; of two identical cards the first played.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from binocle.errors import InvalidArgumentError, InvalidNotationError, excerpt

__all__ = [
    "CARDS",
    "Card",
    "Rank",
    "Suit",
    "card",
    "format_cards",
    "highest",
    "pack",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "set_picture",
    "winning_card",
]


class _Lookup(enum.EnumMeta):
    """The enum machinery, refusing huge numbers before it tries to print them.

    ``Suit(10**5000)`` or ``Suit([10**5000])`` would otherwise fail inside
    :mod:`enum` with a bare ValueError while writing its own message; only
    numbers and text are looked up (``Suit(True)`` is refused, not HEARTS).
    """

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs:
            big = isinstance(value, int) and value.bit_length() > 64
            if big or not isinstance(value, (int, str)) or isinstance(value, bool):
                raise InvalidNotationError(
                    f"not a {cls.__name__.lower()}: {excerpt(value)}"
                    " (a number, or its letter such as 'S' or 'A')"
                )
        return super().__call__(value, *args, **kwargs)


class Suit(enum.IntEnum, metaclass=_Lookup):
    """The four suits, in the order a sorted hand shows them."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """``"S"``, ``"H"``, ``"D"`` or ``"C"``."""
        return _SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """``"♠"``, ``"♥"``, ``"♦"`` or ``"♣"``."""
        return _SUIT_SYMBOLS[self]

    def __str__(self) -> str:
        return _SUIT_LETTERS[self]

    @classmethod
    def _missing_(cls, value: object) -> Suit:
        # Suit("C") reads the letter (or symbol, or word) as parse_suit does.
        if isinstance(value, str):
            return parse_suit(value)
        raise InvalidNotationError(f"not a suit: {excerpt(value)} (0..3, or S H D C)")


class Rank(enum.IntEnum, metaclass=_Lookup):
    """Ranks from the strongest; EIGHT and SEVEN exist only in the 64-card pack."""

    ACE = 0
    TEN = 1
    KING = 2
    QUEEN = 3
    JACK = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7

    @property
    def letter(self) -> str:
        """``"A"``, ``"T"``, ``"K"``, ``"Q"``, ``"J"``, ``"9"``, ``"8"`` or ``"7"``."""
        return _RANK_LETTERS[self]

    @property
    def strength(self) -> int:
        """How strong the rank is in a trick: higher is stronger (ACE 7 … SEVEN 0).

        The rank's number counts the other way (``Rank.ACE == 0``); compare
        strengths, never the numbers, where "higher" is meant.

        >>> Rank.ACE.strength > Rank.TEN.strength > Rank.KING.strength
        True
        """
        return 7 - self

    def __str__(self) -> str:
        return _RANK_LETTERS[self]

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        # Rank("Q") reads the letter as a card's text does.
        if isinstance(value, str):
            found = _RANK_TEXT.get(value.strip().upper())
            if found is not None:
                return found
        raise InvalidNotationError(f"not a rank: {excerpt(value)} (0..7, or A T K Q J 9 8 7 or 10)")


_SUIT_LETTERS: Final = "SHDC"
_SUIT_SYMBOLS: Final = "♠♥♦♣"
_RANK_LETTERS: Final = "ATKQJ987"


class Card(int):
    """One card: an interned ``int`` (``suit * 8 + rank``) with a suit and a rank.

    ``Card("TS")`` reads a card's text (as :func:`parse_card`) and ``Card(1)``
    takes its number (0..31); anything else raises
    :class:`~binocle.errors.InvalidNotationError`.  Equal cards are the same
    object, so the repr is the call that gives the card back.

    >>> c = parse_card("10♠")
    >>> c, c.suit, c.rank, int(c)
    (Card('TS'), <Suit.SPADES: 0>, <Rank.TEN: 1>, 1)
    >>> str(c), Card("TS") is c, Card(1) is c
    ('TS', True, True)
    """

    __slots__ = ()

    def __new__(cls, value: object = None) -> Card:
        if type(value) is Card:
            return value
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 32:
            return CARDS[value]
        raise InvalidNotationError(
            f"not a card: {excerpt(value)} (text such as 'TS', or a card number 0..31)"
        )

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return _SUITS[self >> 3]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return _RANKS[self & 7]

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``"T♠"``."""
        return _RANK_LETTERS[self & 7] + _SUIT_SYMBOLS[self >> 3]

    def beats(self, other: Card, trump: Suit | None = None) -> bool:
        """Whether this card, played after ``other``, takes the trick from it.

        Common rules, Trick winner: a card of the same suit beats it when its rank
        is stronger (of two identical cards the first played wins); a trump beats
        any card of another suit; a card of another suit that is not trump never
        does.  So with ``other`` the card now winning a trick, this card would win
        it.

        >>> Card("TS").beats(Card("KS")), Card("KS").beats(Card("TS"))
        (True, False)
        >>> Card("9H").beats(Card("AS"), trump=Suit.HEARTS), Card("9H").beats(Card("AS"))
        (True, False)
        >>> Card("AS").beats(Card("AS"))
        False
        """
        other = other if type(other) is Card else Card(other)
        if self >> 3 == other >> 3:
            return int(self) < int(other)
        return trump is not None and self >> 3 == trump

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card('{_NAMES[self]}')"

    def _repr_svg_(self) -> str | None:
        """The card as a picture, for a notebook (:func:`binocle.svg.card_svg`)."""
        return show_picture(self)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card, (int(self),))


_SUITS: Final = tuple(Suit)
_RANKS: Final = tuple(Rank)
_NAMES: Final = tuple(_RANK_LETTERS[i & 7] + _SUIT_LETTERS[i >> 3] for i in range(32))

#: Every card kind of the 64-card pack, indexed by its number (0..31).
CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(32))


def card(value: int | Suit | str, rank: Rank | None = None) -> Card:
    """The interned card with number ``value``, or of suit ``value`` and ``rank``.

    >>> card(Suit.HEARTS, Rank.QUEEN)
    Card('QH')
    >>> card(11)
    Card('QH')
    """
    if rank is not None:
        if not isinstance(value, Suit) or not isinstance(rank, Rank):
            raise InvalidNotationError(f"not a suit and a rank: {excerpt(value)}, {excerpt(rank)}")
        return CARDS[value * 8 + rank]
    if isinstance(value, str):
        return parse_card(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 32:
        raise InvalidNotationError(f"not a card number (0..31): {excerpt(value)}")
    return CARDS[value]


_RANK_TEXT: Final = {
    "A": Rank.ACE,
    "T": Rank.TEN,
    "10": Rank.TEN,
    "K": Rank.KING,
    "Q": Rank.QUEEN,
    "J": Rank.JACK,
    "9": Rank.NINE,
    "8": Rank.EIGHT,
    "7": Rank.SEVEN,
}
_SUIT_TEXT: Final = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_SUIT_WORDS: Final = {
    "SPADES": Suit.SPADES,
    "HEARTS": Suit.HEARTS,
    "DIAMONDS": Suit.DIAMONDS,
    "CLUBS": Suit.CLUBS,
}
_PARSED: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Read one card: rank then suit, as ``TS``, ``10S``, ``10♠``, ``A♠`` or ``qh``.

    >>> parse_card("qh"), parse_card("A♠"), parse_card("10D")
    (Card('QH'), Card('AS'), Card('TD'))
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"a card is text such as 'TS', not {type(text).__name__}")
    found = _PARSED.get(text)
    if found is not None:
        return found
    t = text.strip().upper()
    if len(t) < 2 or t[:-1] not in _RANK_TEXT or t[-1] not in _SUIT_TEXT:
        raise InvalidNotationError(
            f"not a card: {excerpt(text)} (a rank A T K Q J 9 8 7 or 10, then a suit S H D C)"
        )
    result = CARDS[_SUIT_TEXT[t[-1]] * 8 + _RANK_TEXT[t[:-1]]]
    if len(_PARSED) < 4096 and len(text) <= 8:
        _PARSED[text] = result
    return result


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas, or an iterable of cards and texts.

    >>> parse_cards("AS TS, KS")
    (Card('AS'), Card('TS'), Card('KS'))
    """
    if isinstance(text, str):
        return tuple(parse_card(t) for t in text.replace(",", " ").split())
    try:
        items = list(text)
    except TypeError:
        raise InvalidNotationError(
            f"cards are text such as 'AS TS' or a list of cards, not {type(text).__name__}"
        ) from None
    return tuple(c if type(c) is Card else parse_card(c) for c in items)  # type: ignore[arg-type]


def parse_suit(text: str) -> Suit:
    """Read a suit: ``S``, ``spades``, ``♠`` or the like, any case."""
    if isinstance(text, Suit):
        return text
    if not isinstance(text, str):
        raise InvalidNotationError(f"a suit is text such as 'H', not {type(text).__name__}")
    t = text.strip().upper()
    if t in _SUIT_TEXT:
        return _SUIT_TEXT[t]
    if t in _SUIT_WORDS:
        return _SUIT_WORDS[t]
    raise InvalidNotationError(
        f"not a suit: {excerpt(text)} (S H D C or spades hearts diamonds clubs)"
    )


def format_cards(cards: Iterable[int]) -> str:
    """Cards as text separated by spaces, e.g. ``"AS TS KS"``."""
    return " ".join(_NAMES[c] for c in cards)


def highest(
    cards: Iterable[Card], trump: Suit | None = None, led: Suit | None = None
) -> Card | None:
    """The card of ``cards`` that wins a trick led in ``led`` with ``trump``: the
    strongest trump, else the strongest card of the suit led; of identical cards
    the first.  None when no card is a trump or of the suit led.

    ``led`` is the suit of the first card when not given, so ``cards`` in play
    order give the card winning that trick (:func:`winning_card`).  With ``led``
    given, a player asks which of his cards would be strongest on a trick led in
    that suit.

    >>> highest(parse_cards("KH AH 9S")), highest(parse_cards("KH AH 9S"), Suit.SPADES)
    (Card('AH'), Card('9S'))
    >>> highest(parse_cards("KH AH 9S"), led=Suit.SPADES), highest(parse_cards("KH"), led=Suit.CLUBS)
    (Card('9S'), None)
    """
    best: Card | None = None
    for c in cards:
        c = c if type(c) is Card else Card(c)
        if best is None:
            if led is None:
                led = _SUITS[c >> 3]
            if c >> 3 == led or (trump is not None and c >> 3 == trump):
                best = c
        elif c.beats(best, trump):
            best = c
    return best


def winning_card(trick: Iterable[Card], trump: Suit | None = None) -> Card:
    """The card now winning a trick whose cards are ``trick``, in play order (common
    rules, Trick winner; :func:`binocle.rulings.trick_winner` gives its index).

    Raises :class:`~binocle.errors.InvalidArgumentError` for a trick with no card.

    >>> winning_card(parse_cards("KH AH 9S"), Suit.SPADES), winning_card(parse_cards("TH TH AS"))
    (Card('9S'), Card('TH'))
    """
    best = highest(trick, trump)
    if best is None:
        raise InvalidArgumentError("a trick holds at least one card")
    return best


_PACK_RANKS: Final = {
    48: (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE),
    64: tuple(Rank),
}


def pack(size: int = 48) -> tuple[Card, ...]:
    """The double pack, sorted: every card of the 24- or 32-card set twice.

    >>> len(pack()), len(pack(64)), pack()[:3]
    (48, 64, (Card('AS'), Card('AS'), Card('TS')))
    """
    try:
        ranks = _PACK_RANKS[size]
    except (KeyError, TypeError):  # another size, or a value that is not hashable
        raise InvalidNotationError(f"a pack has 48 or 64 cards, not {excerpt(size)}") from None
    return tuple(CARDS[s * 8 + r] for s in Suit for r in ranks for _ in (0, 1))


def kinds(size: int = 48) -> tuple[Card, ...]:
    """The distinct card kinds of a pack, sorted (24 or 32)."""
    return pack(size)[::2]


def count_vector(cards: Sequence[int]) -> list[int]:
    """How many of each of the 32 card kinds ``cards`` holds."""
    counts = [0] * 32
    for c in cards:
        counts[c] += 1
    return counts


#: The surface's picture maker (:func:`set_picture`); the cards draw nothing themselves.
_PICTURE: Final[list[Callable[[object], str | None]]] = []


def set_picture(picture: Callable[[object], str | None]) -> None:
    """Make the ``_repr_svg_`` of cards, meld results, states and views call ``picture``.

    :mod:`binocle.svg` installs :func:`~binocle.svg.picture` when it is imported
    (``import binocle`` does); until then they have no picture (``_repr_svg_`` gives None,
    and a notebook shows their text).
    """
    _PICTURE[:] = [picture]


def show_picture(value: object) -> str | None:
    """The picture :func:`set_picture` installed for ``value``, or None."""
    return _PICTURE[0](value) if _PICTURE else None
