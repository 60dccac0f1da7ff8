"""Actions: the immutable moves of every profile, and their text (layer 1).

An action is a small frozen value.  The common ones are interned (built once),
so the engine can hand out the same object every time and test membership by
identity first.  ``str(action)`` is the notation that :func:`parse_action_text`
reads back.

========================  ==========================================
text                      meaning
========================  ==========================================
``deal <cards…>``         deal the next hand from this deck order
``pass``                  pass in the bidding (or decline to announce)
``bid 260``               bid
``bunch``                 throw in a bunched hand (cutthroat option)
``discard TS``            the bidder discards one card
``give TS``               pass one card face down to the partner
                          (partnership option ``passing``)
``trump H``               the bidder names trump
``dix`` / ``dix 2``       show (and exchange) the Nine of trumps
``meld``                  declare the best meld
``meld <kind> <cards>``   declare one explicit combination
``play TS``               play a card (``play TS table`` from the table,
                          ``play TS table 3`` naming the table copy)
``claim``                 claim to have reached the target (knock)
``claim 2``               seat 2 knocks, whoever is to act
``claim overlooked``      claim the meld another player overlooked
                          (three-handed option ``claim_overlooked``)
``concede``               the bidder gives up the hand
========================  ==========================================
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from itertools import islice
from typing import TYPE_CHECKING, Any, Final, TypeGuard

import attrs

from binocle.cards import CARDS, Card, Suit, format_cards, parse_card, parse_cards, parse_suit
from binocle.errors import InvalidNotationError, excerpt

__all__ = [
    "Action",
    "BidAction",
    "DiscardAction",
    "Kind",
    "PlayAction",
    "TrumpAction",
    "bid",
    "claim",
    "deal",
    "declare",
    "discard",
    "is_bid",
    "is_discard",
    "is_play",
    "is_trump",
    "parse_action_text",
    "play",
    "trump",
]


class Kind(enum.Enum):
    """What an action does."""

    DEAL = "deal"
    PASS = "pass"
    BID = "bid"
    BUNCH = "bunch"
    DISCARD = "discard"
    TRUMP = "trump"
    DIX = "dix"
    MELD = "meld"
    PLAY = "play"
    CLAIM = "claim"
    CLAIM_OVERLOOKED = "claim overlooked"
    CONCEDE = "concede"
    GIVE = "give"

    # Members are unique objects compared by identity: hashing the object itself is
    # as right as the enum's hash of the member's name (itself different in every
    # process, as text hashes are) and several times cheaper, for the
    # ``kind in {...}`` tests of every game loop.
    __hash__ = object.__hash__


# The members as module constants, for the engine's hot paths (the profiles import
# them): a global read costs a fraction of reading a member off its enum class
# (Python 3.11).  Private to binocle, out of __all__ and the docs.
_KIND_DEAL: Final = Kind.DEAL
_KIND_PASS: Final = Kind.PASS
_KIND_BID: Final = Kind.BID
_KIND_BUNCH: Final = Kind.BUNCH
_KIND_DISCARD: Final = Kind.DISCARD
_KIND_TRUMP: Final = Kind.TRUMP
_KIND_DIX: Final = Kind.DIX
_KIND_MELD: Final = Kind.MELD
_KIND_PLAY: Final = Kind.PLAY
_KIND_CLAIM: Final = Kind.CLAIM
_KIND_CLAIM_OVERLOOKED: Final = Kind.CLAIM_OVERLOOKED
_KIND_CONCEDE: Final = Kind.CONCEDE
_KIND_GIVE: Final = Kind.GIVE


@attrs.frozen(slots=True, cache_hash=True)
class Action:
    """One move.  Build it with the helpers (:func:`play`, :func:`bid`, …) or parse it.

    ``kind`` says what it does; ``card`` (discard, give, play), ``number`` (bid; dix: how
    many Nines; play: the table slot where two table copies differ; claim: the
    seat that knocks, when it is not the player to act), ``suit`` (trump), ``cards`` (deal: the deck; meld: the cards),
    ``name`` (meld: the combination) and ``source`` (play: ``"table"`` for a card
    played from the table in the classic game) carry the rest.
    """

    kind: Kind
    card: Card | None = None
    number: int | None = None
    suit: Suit | None = None
    cards: tuple[Card, ...] = ()
    name: str | None = None
    source: str | None = None

    def __str__(self) -> str:
        k = self.kind
        if k is Kind.PLAY:
            text = f"play {self.card}"
            if self.source != "table":
                return text
            return f"{text} table" if self.number is None else f"{text} table {self.number}"
        if k is Kind.BID:
            return f"bid {self.number}"
        if k is Kind.DISCARD:
            # A face-down discard as the others see it (View.history) shows no card.
            return "discard" if self.card is None else f"discard {self.card}"
        if k is Kind.GIVE:
            # A card passed face down, as the other side sees it, shows no card.
            return "give" if self.card is None else f"give {self.card}"
        if k is Kind.TRUMP:
            return f"trump {self.suit}"
        if k is Kind.DEAL:
            # A deal as the players see it (View.history) shows no cards.
            return "deal " + format_cards(self.cards) if self.cards else "deal"
        if k is Kind.MELD and self.name is not None:
            text = f"meld {self.name} {format_cards(self.cards)}"
            return f"{text} + {self.source}" if self.source else text
        if k is Kind.DIX and self.number not in (None, 1):
            return f"dix {self.number}"
        if k is Kind.CLAIM and self.number is not None:
            return f"claim {self.number}"
        return str(k.value)

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self


if TYPE_CHECKING:
    # What a type checker knows of an action once its kind is checked (is_play and the
    # others): the same class, with the field that kind always carries typed without
    # None.  At run time they are Action itself.

    class PlayAction(Action):
        card: Card

    class DiscardAction(Action):
        card: Card

    class BidAction(Action):
        number: int

    class TrumpAction(Action):
        suit: Suit

else:
    PlayAction = DiscardAction = BidAction = TrumpAction = Action


def is_play(action: Action) -> TypeGuard[PlayAction]:
    """Whether ``action`` plays a card; a type checker then knows ``action.card`` is a
    :class:`~binocle.cards.Card` (:data:`PlayAction`).

    >>> a = parse_action_text("play TS")
    >>> is_play(a) and a.card.rank
    <Rank.TEN: 1>
    """
    return action.kind is _KIND_PLAY and action.card is not None


def is_discard(action: Action) -> TypeGuard[DiscardAction]:
    """Whether ``action`` is a discard whose card is shown (``action.card`` is a
    :class:`~binocle.cards.Card`, :data:`DiscardAction`).  Another seat's
    face-down discard, as a view's history shows it, carries no card: False."""
    return action.kind is _KIND_DISCARD and action.card is not None


def is_bid(action: Action) -> TypeGuard[BidAction]:
    """Whether ``action`` is a bid; ``action.number`` is then its amount, an ``int``
    (:data:`BidAction`)."""
    return action.kind is _KIND_BID and action.number is not None


def is_trump(action: Action) -> TypeGuard[TrumpAction]:
    """Whether ``action`` names trump; ``action.suit`` is then a
    :class:`~binocle.cards.Suit` (:data:`TrumpAction`)."""
    return action.kind is _KIND_TRUMP and action.suit is not None


#: The largest ``number`` an action may carry (a bid, a table slot, a seat): nine digits.
MAX_NUMBER: Final = 999_999_999
#: The longest ``name`` (a meld's combination) and ``source`` an action may carry.
MAX_NAME: Final = 64
MAX_SOURCE: Final = 512
#: The longest action text read (a deal of 64 cards takes about 200 characters).
MAX_TEXT: Final = 4096
#: The most cards an action may carry (a deal of the 64-card pack).
MAX_CARDS: Final = 64
_NEEDS: Final = {
    Kind.PLAY: "card",
    Kind.DISCARD: "card",
    Kind.GIVE: "card",
    Kind.TRUMP: "suit",
    Kind.BID: "number",
    Kind.DEAL: "cards",
}
_KINDS: Final = ", ".join(k.value for k in Kind)
#: attrs' own constructor: no checks, for actions the engine builds itself.
_attrs_init: Final = Action.__init__


def _checked_init(
    self: Action,
    kind: Any,
    card: Any = None,
    number: Any = None,
    suit: Any = None,
    cards: Any = (),
    name: Any = None,
    source: Any = None,
) -> None:
    """Build an action by hand, checking every field (the engine's own skip this)."""
    _attrs_init(self, *_checked_fields(kind, card, number, suit, cards, name, source))


def _checked_fields(
    kind: Any, card: Any, number: Any, suit: Any, cards: Any, name: Any, source: Any
) -> tuple[Kind, Card | None, int | None, Suit | None, tuple[Card, ...], str | None, str | None]:
    """The fields of a hand-built action, checked and normalised.

    A card may be given as a :class:`Card`, its text or its number, a suit as a
    :class:`Suit` or its letter, the kind as a :class:`Kind` or its word.
    """
    if type(kind) is not Kind:
        if not isinstance(kind, str) or kind not in _KIND_WORDS:
            raise InvalidNotationError(
                f"not an action kind: {excerpt(kind)} (a binocle.Kind: {_KINDS})"
            )
        kind = _KIND_WORDS[kind]
    if card is not None and type(card) is not Card:
        try:
            card = Card(card)
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"{kind.value} action: card: {exc}") from None
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_NUMBER
    ):
        raise InvalidNotationError(
            f"{kind.value} action: number is a whole number 0..{MAX_NUMBER}, not {excerpt(number)}"
        )
    if suit is not None and type(suit) is not Suit:
        if isinstance(suit, bool) or not isinstance(suit, (int, str)):
            raise InvalidNotationError(
                f"{kind.value} action: suit is a binocle.Suit, not {excerpt(suit)}"
            )
        try:
            suit = Suit(suit)  # type: ignore[arg-type]  # Suit("H") reads the letter
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"{kind.value} action: suit: {exc}") from None
    if type(cards) is not tuple or any(type(c) is not Card for c in cards):
        if isinstance(cards, (str, bytes, bytearray)) or not isinstance(cards, Iterable):
            raise InvalidNotationError(
                f"{kind.value} action: cards is a tuple of cards, not {excerpt(cards)}"
            )
        items = list(islice(cards, MAX_CARDS + 1))  # an endless iterable is not read to its end
        try:
            cards = tuple(c if type(c) is Card else Card(c) for c in items)
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"{kind.value} action: cards: {exc}") from None
    if len(cards) > MAX_CARDS:
        raise InvalidNotationError(f"{kind.value} action: at most {MAX_CARDS} cards")
    for field, value, limit in (("name", name, MAX_NAME), ("source", source, MAX_SOURCE)):
        if value is not None and (not isinstance(value, str) or len(value) > limit):
            raise InvalidNotationError(
                f"{kind.value} action: {field} is text of at most {limit} characters,"
                f" not {excerpt(value)}"
            )
    needed = _NEEDS.get(kind)
    if needed is not None:
        given = {"card": card, "suit": suit, "number": number, "cards": cards or None}[needed]
        if given is None:
            raise InvalidNotationError(f"a {kind.value} action needs its {needed}")
    return kind, card, number, suit, cards, name, source


_KIND_WORDS: Final = {k.value: k for k in Kind}
Action.__init__ = _checked_init  # type: ignore[method-assign]


def new_action(
    kind: Kind,
    card: Card | None = None,
    number: int | None = None,
    suit: Suit | None = None,
    cards: tuple[Card, ...] = (),
    name: str | None = None,
    source: str | None = None,
) -> Action:
    """An action the engine builds from values it already knows to be right (no checks)."""
    a: Action = object.__new__(Action)
    _attrs_init(a, kind, card, number, suit, cards, name, source)
    return a


PASS: Final = Action(Kind.PASS)
BUNCH: Final = Action(Kind.BUNCH)
DIX: Final = Action(Kind.DIX)
MELD: Final = Action(Kind.MELD)
CLAIM: Final = Action(Kind.CLAIM)
CLAIM_OVERLOOKED: Final = Action(Kind.CLAIM_OVERLOOKED)
CONCEDE: Final = Action(Kind.CONCEDE)
DIX2: Final = Action(Kind.DIX, number=2)

PLAY: Final = tuple(Action(Kind.PLAY, card=c) for c in CARDS)
PLAY_TABLE: Final = tuple(Action(Kind.PLAY, card=c, source="table") for c in CARDS)
DISCARD: Final = tuple(Action(Kind.DISCARD, card=c) for c in CARDS)
GIVE: Final = tuple(Action(Kind.GIVE, card=c) for c in CARDS)
TRUMP: Final = tuple(Action(Kind.TRUMP, suit=s) for s in Suit)
_BIDS: dict[int, Action] = {}
#: ``claim <seat>`` for the seats a table may have (a knock named by its seat).
CLAIM_BY: Final = tuple(Action(Kind.CLAIM, number=seat) for seat in range(8))


def plays_and_claim(cards: Iterable[Card]) -> tuple[Action, ...]:
    """``play`` of each distinct card of ``cards`` (in their order), then ``claim``."""
    return (*plays_of(cards), CLAIM)


def plays_of(cards: Iterable[Card]) -> tuple[Action, ...]:
    """``play`` of each distinct card of ``cards``, in their order (the engine's
    profiles use :func:`binocle.core.plays_then`, its compiled loop, instead)."""
    return tuple([PLAY[c] for c in dict.fromkeys(cards)])


def play(c: Card, source: str | None = None) -> Action:
    """The interned ``play`` action for a card (``source="table"``: from the table)."""
    return PLAY_TABLE[c] if source == "table" else PLAY[c]


def discard(c: Card) -> Action:
    """The interned ``discard`` action for a card."""
    return DISCARD[c]


def trump(s: Suit) -> Action:
    """The interned ``trump`` action for a suit."""
    return TRUMP[s]


#: Bids interned by :func:`bid`: the multiples of 10 up to this (every bid a profile allows).
INTERNED_BIDS: Final = 10_000


def bid(amount: int) -> Action:
    """The ``bid`` action for an amount: interned for the multiples of 10 a profile may allow.

    Only those are kept, so reading any number of other bids (refused ones
    included) never grows memory.
    """
    if type(amount) is int and 0 <= amount <= INTERNED_BIDS and not amount % 10:
        a = _BIDS.get(amount)
        if a is None:
            a = _BIDS[amount] = new_action(Kind.BID, number=amount)
        return a
    return Action(Kind.BID, number=amount)


def claim(seat: int | None = None) -> Action:
    """The knock of ``seat`` (``claim 2``); with no seat, the player to act's ``claim``.

    Any seat in :func:`binocle.claimants` may knock, whoever is to act.
    """
    if seat is None:
        return CLAIM
    if type(seat) is int and 0 <= seat < len(CLAIM_BY):
        return CLAIM_BY[seat]
    return Action(Kind.CLAIM, number=seat)


def deal(cards: tuple[Card, ...]) -> Action:
    """A ``deal`` action for a deck order."""
    return Action(Kind.DEAL, cards=cards)


def declare(name: str, cards: tuple[Card, ...]) -> Action:
    """A ``meld`` action declaring one explicit combination."""
    return Action(Kind.MELD, cards=cards, name=name)


def parse_number(word: str, what: str, text: str) -> int:
    """A whole number written in ASCII digits, at most nine of them (``MAX_NUMBER``).

    ``str.isdigit`` and ``int`` also take digits such as ``²`` or ``٣``, and
    ``int`` refuses more than 4,300 digits with a bare ValueError: neither may
    reach a user, so numbers in action text, records and profile options are
    read here.
    """
    if not 0 < len(word) <= 9 or not word.isascii() or not word.isdigit():
        raise InvalidNotationError(
            f"not {what}: {excerpt(text)} (a whole number of at most 9 digits 0-9)"
        )
    return int(word)


_SIMPLE: Final = {
    "pass": PASS,
    "bunch": BUNCH,
    "dix": DIX,
    "meld": MELD,
    "claim": CLAIM,
    "knock": CLAIM,
    "claim overlooked": CLAIM_OVERLOOKED,
    "concede": CONCEDE,
    "give up": CONCEDE,
}
_TEXT_CACHE: dict[str, Action] = {}
_SEATS: Final = {str(seat): seat for seat in range(len(CLAIM_BY))}


def parse_action_text(text: str) -> Action:
    """Read an action from its text, with no state to interpret it.

    >>> parse_action_text("bid 260"), str(parse_action_text("play 10♠"))
    (Action(kind=<Kind.BID: 'bid'>, card=None, number=260, suit=None, cards=(), name=None, source=None), 'play TS')
    """
    if not isinstance(text, str):
        raise InvalidNotationError(
            f"an action is text such as 'play TS' or an Action, not {type(text).__name__}"
        )
    cached = _TEXT_CACHE.get(text)
    if cached is not None:
        return cached
    if len(text) > MAX_TEXT:
        raise InvalidNotationError(
            f"not an action: {excerpt(text)} (an action's text has at most {MAX_TEXT} characters)"
        )
    words = text.strip().split()
    if not words:
        raise InvalidNotationError("empty action text")
    head = words[0].lower()
    rest = words[1:]
    joined = " ".join(w.lower() for w in words)
    action: Action
    if joined in _SIMPLE:
        action = _SIMPLE[joined]
    elif head == "play" and len(rest) in (1, 2, 3):
        c = parse_card(rest[0])
        source = rest[1].lower() if len(rest) >= 2 else None
        if source not in (None, "table", "hand"):
            raise InvalidNotationError(
                f"not a place to play from: {excerpt(rest[1])} (hand or table)"
            )
        if len(rest) == 3:
            if source != "table":
                raise InvalidNotationError(f"not a table copy: {excerpt(text)} (play KS table 3)")
            slot = parse_number(rest[2], "a table copy", text)
            action = new_action(Kind.PLAY, card=c, number=slot, source="table")
        else:
            action = play(c, source)
    elif head == "bid" and len(rest) == 1:
        action = bid(parse_number(rest[0], "a bid", text))
    elif head in ("claim", "knock") and len(rest) == 1 and rest[0] in _SEATS:
        action = CLAIM_BY[_SEATS[rest[0]]]
    elif head in ("claim", "knock") and len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
        raise InvalidNotationError(
            f"not a knock: {excerpt(text)} (claim, or claim then the seat that knocks, 0..7)"
        )
    elif head == "discard" and len(rest) == 1:
        action = discard(parse_card(rest[0]))
    elif head == "give" and len(rest) == 1:
        action = GIVE[parse_card(rest[0])]
    elif head == "trump" and len(rest) == 1:
        action = trump(parse_suit(rest[0]))
    elif head == "dix" and len(rest) == 1 and rest[0] in ("1", "2"):
        action = DIX if rest[0] == "1" else DIX2
    elif head == "deal" and rest:
        action = deal(parse_cards(" ".join(rest)))
    elif head == "meld" and len(rest) >= 2:
        action = _parse_declaration(text, rest)
    else:
        raise InvalidNotationError(f"not an action: {excerpt(text)}")
    # Bounded, and only short texts: no input grows it past a few hundred kilobytes.
    if len(_TEXT_CACHE) < 8192 and len(text) <= 64 and action.kind is not Kind.DEAL:
        _TEXT_CACHE[text] = action
    return action


def _parse_declaration(text: str, words: list[str]) -> Action:
    """``meld <kind> <cards>`` or, in the classic game, ``meld <kind> <fresh> + <table>``.

    A table card may carry its slot, ``KS#3``, where two table copies differ.
    """
    table: str | None = None
    if "+" in words:
        i = words.index("+")
        words, after = words[:i], words[i + 1 :]
        for w in after:
            name, _, slot = w.partition("#")
            parse_card(name)
            if slot:
                parse_number(slot, "a table card's slot", w)
        if not after:
            raise InvalidNotationError(f"no table cards after '+': {excerpt(text)}")
        table = " ".join(
            str(parse_card(w.partition("#")[0])) + (("#" + w.partition("#")[2]) if "#" in w else "")
            for w in after
        )
    # The combination's name may have several words; cards follow it.
    i = len(words)
    while i > 0 and _is_card(words[i - 1]):
        i -= 1
    if i == 0 or (i == len(words) and table is None):
        raise InvalidNotationError(f"not a meld declaration: {excerpt(text)} (meld <kind> <cards>)")
    cards = tuple(sorted(parse_card(w) for w in words[i:]))
    name = " ".join(w.lower() for w in words[:i])
    return Action(Kind.MELD, cards=cards, name=name, source=table)


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except InvalidNotationError:
        return False
    return True
