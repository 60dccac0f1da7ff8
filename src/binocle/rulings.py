"""The rules asked without a game state (layer 4), for programs that keep their own data.

A site that stores its own games, a front end that keeps its own table, or a
tool checking games played elsewhere asks here what a profile's rules say of
plain cards, with no :class:`~binocle.core.GameState` to build:

- :func:`allowed_plays` — which cards of a hand may be played to a trick, and
  for each card that may not, the rule it breaks (a :class:`~binocle.errors.RuleCode`
  and the reason in words); :func:`check_play` for one card;
- :func:`check_meld` — whether declared melds (combination by combination,
  with the cards shown and the value announced) stand for a hand and a trump,
  and what each is worth;
- :func:`trick_winner` — which card of a trick wins so far.

Every function takes the profile by name, text (``"cutthroat(easier_tricks=true)"``)
or object, cards as :class:`~binocle.cards.Card` objects, numbers or text in any
notation the parsers read (``"TS"``, ``"10♠"``, ``"AS TS KS"``), and the trump as a
:class:`~binocle.cards.Suit`, its number or its text (``"H"``, ``"hearts"``,
``"♥"``).  What cannot be read raises :class:`~binocle.errors.InvalidNotationError`;
a hand that no deal of the profile's pack can give (a card three times, a Seven
in the 48-card pack) raises :class:`~binocle.errors.InvalidArgumentError`.  Where
a rule needs more than the hand, the trick and the trump, the function asks for
it by name and raises InvalidArgumentError without it: the classic trick rule
changes when the stock is exhausted (``stock_exhausted``), and classic and
three-handed announcements look at what the player laid down before
(``table``).  Two positions of the three-handed game are asked with a word
more: a trick holding the card of a player who has since retired after a wrong
claim (``dead``: which of its cards are dead), and the two-handed game the last
two players go on with after a retirement (``two_handed=True``: the classic
rules, with its stock).

The answers are those of the engine itself: a state built with
:func:`binocle.stack_deck` and played to the same trick gives the same legal
cards, and refuses the others with an :class:`~binocle.errors.IllegalActionError`
carrying the same rule code.

>>> from binocle.rulings import allowed_plays, check_meld, trick_winner
>>> check = allowed_plays("cutthroat", "AS KS QH TH 9C", ["TD"], "H")
>>> check.allowed
(Card('QH'), Card('TH'))
>>> r = check.ruling("KS")
>>> r.rule, r.reason
(<RuleCode.MUST_TRUMP: 'must-trump'>, 'void in D, must trump: holds QH TH')
>>> trick_winner("cutthroat", ["KH", "AH", "9S"], "S")
2
>>> m = check_meld("cutthroat", "AS AH AD AC QS JD KC QC", "C",
...                [("aces around", "AS AH AD AC", 100), ("pinochle", "QS JD", 60)])
>>> [(x.name, x.ok, x.worth) for x in m.rulings], m.claimed, m.worth
([('aces around', True, 100), ('pinochle', False, 40)], 160, 140)
>>> m.rulings[1].reason
'pinochle QS JD is worth 40, not 60'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from binocle.cards import CARDS, Card, Suit, format_cards
from binocle.core import Profile
from binocle.errors import InvalidArgumentError, InvalidNotationError, RuleCode, excerpt
from binocle.profiles import get_profile
from binocle.profiles._three_handed_rules import (
    TWO_HANDED_PREFIX,
    _obligation_trick,
    live_winner,
)
from binocle.rules.tricks import (
    CardLike,
    CardsLike,
    Obligation,
    TrumpLike,
    _allowed_cards,
    _obligation_refusal,
    _trick_winner,
    read_card,
    read_cards,
    read_trump,
)

__all__ = [
    "CardRuling",
    "Declared",
    "MeldCheck",
    "MeldRuling",
    "PlayCheck",
    "allowed_plays",
    "check_meld",
    "check_play",
    "trick_winner",
]


@attrs.frozen
class CardRuling:
    """The ruling on one card played to a trick.

    ``allowed``: whether it may be played; otherwise ``rule`` is the rule it
    breaks and ``reason`` says why in words (the engine's own message).
    """

    card: Card
    allowed: bool
    rule: RuleCode | None = None
    reason: str | None = None


@attrs.frozen
class PlayCheck:
    """What :func:`allowed_plays` found: the trick rule, the cards that may be played,
    and a ruling on each card of the hand that may not.

    ``allowed`` and ``refused`` hold distinct cards, in hand order.
    """

    obligation: Obligation
    hand: tuple[Card, ...]
    allowed: tuple[Card, ...]
    refused: tuple[CardRuling, ...]

    def ruling(self, card: CardLike) -> CardRuling:
        """The ruling on ``card``: allowed, refused with its rule, or not held
        (:attr:`RuleCode.NOT_HELD`)."""
        c = read_card(card)
        if c in self.allowed:
            return CardRuling(c, True)
        for r in self.refused:
            if r.card == c:
                return r
        return CardRuling(
            c, False, RuleCode.NOT_HELD, f"{c} is not in the hand (holds {format_cards(self.hand)})"
        )


@attrs.frozen
class Declared:
    """One declared meld: its name (as the profile's meld table names it: ``"four
    kings"``, ``"aces around"``, ``"royal marriage"`` …), the cards shown, and the
    value announced for it (None where none was said)."""

    name: str
    cards: tuple[Card, ...]
    value: int | None = None


@attrs.frozen
class MeldRuling:
    """The ruling on one declared meld.

    ``ok``: it stands as declared.  ``worth`` is what it scores: its value from
    the meld table where it stands, also where only the value announced was
    wrong (:attr:`RuleCode.WRONG_VALUE`: it is taken down to its value); 0
    where it does not stand.  ``claimed`` is the value announced (None: not
    said).  Otherwise ``rule`` is the rule it breaks and ``reason`` says why.
    """

    name: str
    cards: tuple[Card, ...]
    claimed: int | None
    worth: int
    rule: RuleCode | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the meld stands as declared (at the value announced, if one was)."""
        return self.rule is None


@attrs.frozen
class MeldCheck:
    """What :func:`check_meld` found: a ruling per declared meld, in order.

    ``claimed``: the total announced (the values given; None where a meld was
    declared without one); ``worth``: what the declaration scores (the sum of
    the rulings' ``worth``); ``best``: the most the hand could meld, as the
    profile counts it (:func:`binocle.meld`).
    """

    rulings: tuple[MeldRuling, ...]
    claimed: int | None
    worth: int
    best: int

    @property
    def ok(self) -> bool:
        """Whether every declared meld stands as declared."""
        return all(r.ok for r in self.rulings)

    @property
    def over_claimed(self) -> int:
        """How many points the announced total exceeds what the melds score (0 where it
        does not, or where no total was announced)."""
        return 0 if self.claimed is None else max(self.claimed - self.worth, 0)


def _profile(profile: Any, two_handed: object = False) -> Profile:
    """The profile asked, or with ``two_handed`` the two-handed game that follows a
    three-handed retirement (three-handed rules, The two-handed game after a retirement)."""
    p = get_profile(profile)
    if two_handed is False:
        return p
    if two_handed is not True:
        raise InvalidArgumentError(f"two_handed is True or False, not {excerpt(two_handed)}")
    classic = p.retirement_game
    if classic is None:
        raise InvalidArgumentError(
            f"two_handed=True asks for the two-handed game after a three-handed retirement;"
            f" the {p.name} game has none"
        )
    return classic


def _dead(p: Profile, played: tuple[Card, ...], dead: object) -> frozenset[int]:
    """The positions, in play order, of the dead cards of ``played`` (three-handed rules,
    Claiming (knocking): the cards of a player who retired)."""
    if isinstance(dead, (str, bytes)) or not isinstance(dead, Iterable):
        raise InvalidArgumentError(
            f"dead is a collection of positions in the trick (0 for the lead), not {excerpt(dead)}"
        )
    found: set[int] = set()
    for i in dead:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(played):
            raise InvalidArgumentError(
                f"a dead card is given by its position in the trick, 0 to {len(played) - 1},"
                f" not {excerpt(i)}"
            )
        found.add(i)
    if found and p.retirement_game is None:
        raise InvalidArgumentError(
            f"the {p.name} game has no dead cards (only a three-handed player who retires"
            " after a wrong claim leaves one on the trick)"
        )
    return frozenset(found)


def _seated(played: tuple[Card, ...], dead: frozenset[int]) -> tuple[tuple[int, Card], ...]:
    """The trick as the engine holds it, seat by card: seat 0 is the retired player's,
    the live cards take seats of their own."""
    return tuple((0 if i in dead else i + 1, c) for i, c in enumerate(played))


def _measured(played: tuple[Card, ...], dead: frozenset[int]) -> tuple[int, ...]:
    """The cards the obligations are measured on: a dead lead as the weakest card of its
    suit, later dead cards left out (three-handed rules, Claiming (knocking))."""
    if not dead:
        return played
    return tuple(c for _, c in _obligation_trick(_seated(played, dead), 0))


def _pack_cards(
    p: Profile, what: str, cards: tuple[Card, ...], more: tuple[Card, ...] = ()
) -> None:
    """Refuse cards no deal of ``p``'s pack gives: a card three times, or not in the pack."""
    small = p.pack_size == 48
    for c in cards:
        if small and c & 7 >= 6:
            raise InvalidArgumentError(f"{what}: {c} is not in the {p.pack_size}-card pack")
    counts = Counter((*cards, *more))
    for c, n in counts.items():
        if n > 2:
            raise InvalidArgumentError(
                f"{what}: {c} {n} times, but the pack holds two of each card"
            )


def _trick_of(p: Profile, trick: Any) -> tuple[Card, ...]:
    played = read_cards(trick)
    if len(played) >= p.players:
        raise InvalidArgumentError(
            f"a trick of the {p.name} game holds at most {p.players - 1} cards before the"
            f" next is played, not {len(played)}"
        )
    return played


def _play_trump(trump: object) -> int:
    """The trump of a trick: every profile plays its tricks with one (the turn-up's suit,
    or the suit the bidder named)."""
    t = read_trump(trump)
    if t is None:
        raise InvalidArgumentError(
            "every trick is played with a trump (the turn-up's suit, or the suit the bidder"
            " named): name the trump suit"
        )
    return t


def allowed_plays(
    profile: Any,
    hand: CardsLike,
    trick: CardsLike,
    trump: TrumpLike,
    *,
    stock_exhausted: bool | None = None,
    dead: Iterable[int] = (),
    two_handed: bool = False,
) -> PlayCheck:
    """Which cards of ``hand`` may be played to ``trick`` (the cards already played to
    it, in play order; empty for a lead), with ``trump``, under ``profile``'s trick
    rule, and why each other card may not.

    ``trump`` is a suit: no profile plays a trick without one, and None raises
    InvalidArgumentError.  ``stock_exhausted`` is needed in the classic game (any
    card while the stock lasts) and ignored elsewhere.  In the classic game
    ``hand`` is every card the player holds, those on his table among them.

    ``dead`` (three-handed only) gives the positions in ``trick`` (0 for the
    lead) of the cards of a player who has retired since he played them
    (three-handed rules, Claiming (knocking)): a dead card wins nothing, so a
    dead lead still sets the suit to follow but any card of that suit beats
    it, and a dead card played later counts for no obligation.
    ``two_handed=True`` (three-handed only) asks for the two-handed game the
    last two players go on with after a retirement: the classic rules, with
    their stock (give ``stock_exhausted``).

    >>> c = allowed_plays("classic", "AS KS QH TH 9C", "TD", "H", stock_exhausted=False)
    >>> c.obligation.value, len(c.allowed)
    ('free', 5)
    >>> allowed_plays("three-handed", "JH 9H 9S", "QH 9H", "S", dead=[0]).allowed
    (Card('JH'),)
    """
    p = _profile(profile, two_handed)
    cards = read_cards(hand)
    played = _trick_of(p, trick)
    t = _play_trump(trump)
    if stock_exhausted is not None and not isinstance(stock_exhausted, bool):
        raise InvalidArgumentError(
            f"stock_exhausted is True, False or None, not {excerpt(stock_exhausted)}"
        )
    _pack_cards(p, "the hand", cards)
    _pack_cards(p, "the hand and the trick", played, cards)
    measured = _measured(played, _dead(p, played, dead))
    rule = p.play_obligation(stock_exhausted)
    # The compiled rules give card numbers: the answer holds the cards themselves.
    allowed = tuple(CARDS[c] for c in _allowed_cards(cards, measured, t, rule))
    refused: list[CardRuling] = []
    for c in dict.fromkeys(cards):
        if c in allowed:
            continue
        found = _obligation_refusal(c, cards, measured, t, rule)
        assert found is not None
        why = TWO_HANDED_PREFIX + found[1] if two_handed else found[1]
        refused.append(CardRuling(c, False, found[0], why))
    return PlayCheck(rule, cards, allowed, tuple(refused))


def check_play(
    profile: Any,
    card: CardLike,
    hand: CardsLike,
    trick: CardsLike,
    trump: TrumpLike,
    *,
    stock_exhausted: bool | None = None,
    dead: Iterable[int] = (),
    two_handed: bool = False,
) -> CardRuling:
    """The ruling on playing ``card`` from ``hand`` to ``trick``: :func:`allowed_plays`
    for one card (a card not in the hand is refused with :attr:`RuleCode.NOT_HELD`).

    >>> r = check_play("three-handed", "9S", "AS 9S TH", "KS", "H")
    >>> r.allowed, r.rule.value, r.reason
    (False, 'must-beat', 'must beat KS: holds AS')
    """
    c = read_card(card)
    check = allowed_plays(
        profile, hand, trick, trump,
        stock_exhausted=stock_exhausted, dead=dead, two_handed=two_handed,
    )  # fmt: skip
    return check.ruling(c)


def trick_winner(
    profile: Any,
    trick: CardsLike,
    trump: TrumpLike,
    *,
    dead: Iterable[int] = (),
    two_handed: bool = False,
) -> int:
    """The index, in play order, of the card of ``trick`` that wins it so far (common
    rules, Trick winner: the highest trump, else the highest card of the suit led;
    of two identical cards the first played).

    ``trump`` None counts no suit as trump: no profile plays a trick so, but
    the answer is then the highest card of the suit led.  ``dead`` and
    ``two_handed`` are as in :func:`allowed_plays`: a dead card wins nothing,
    and where it would have won, the first live card takes the trick
    (three-handed rules, Claiming (knocking)); a trick of dead cards alone has
    no winner and raises InvalidArgumentError.

    >>> trick_winner("three-handed", "TH AH TH", "S"), trick_winner("classic", "TH TH", "S")
    (1, 0)
    >>> trick_winner("three-handed", "AH 9H KH", "S", dead=[0])
    2
    """
    p = _profile(profile, two_handed)
    played = read_cards(trick)
    if not played:
        raise InvalidArgumentError("a trick holds at least one card")
    if len(played) > p.players:
        raise InvalidArgumentError(
            f"a trick of the {p.name} game holds at most {p.players} cards, not {len(played)}"
        )
    _pack_cards(p, "the trick", played)
    t = read_trump(trump)
    out = _dead(p, played, dead)
    if not out:
        return _trick_winner(played, t)
    if len(out) == len(played):
        raise InvalidArgumentError("a trick of dead cards alone has no winner")
    won = live_winner(_seated(played, out), 0, None if t is None else Suit(t))
    assert won is not None
    return won[0] - 1


def _declared(item: object) -> tuple[str, tuple[Card, ...], int | None]:
    """One declared meld: a :class:`Declared`, a ``(name, cards[, value])`` sequence or
    a mapping with ``name``, ``cards`` and ``value``."""
    if isinstance(item, Declared):
        name, cards, value = item.name, item.cards, item.value
    elif isinstance(item, Mapping):
        extra = set(item) - {"name", "cards", "value"}
        if extra or "name" not in item or "cards" not in item:
            raise InvalidNotationError(
                f"a declared meld maps name, cards and value, not {excerpt(dict(item))}"
            )
        name, cards, value = item["name"], item["cards"], item.get("value")
    elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) in (2, 3):
        name, cards = item[0], item[1]
        value = item[2] if len(item) == 3 else None
    else:
        raise InvalidNotationError(
            "a declared meld is a Declared, (name, cards[, value]) or a mapping,"
            f" not {excerpt(item)}"
        )
    if not isinstance(name, str):
        raise InvalidNotationError(f"a meld's name is text, not {excerpt(name)}")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise InvalidNotationError(
            f"a meld's value is a whole number or None, not {excerpt(value)}"
        )
    shown = read_cards(cards)
    if not shown:
        raise InvalidNotationError(f"a declared meld shows at least one card ({excerpt(name)})")
    return " ".join(name.lower().split()), tuple(sorted(shown)), value


def check_meld(
    profile: Any,
    hand: CardsLike,
    trump: TrumpLike,
    declared: Sequence[Any],
    *,
    table: object = None,
    two_handed: bool = False,
) -> MeldCheck:
    """Whether each of the ``declared`` melds stands for ``hand`` with ``trump``, in the
    order declared, and what each scores.

    Each declared meld is a :class:`Declared`, a ``(name, cards)`` or ``(name,
    cards, value)`` sequence, or a mapping with ``name``, ``cards`` and
    ``value``; the names are those of the profile's meld table, the cards all
    those the meld shows.

    - cutthroat: the melds are shown at once; a card counts in melds of
      different groups but not twice in one group (cutthroat rules, Melds).
      ``hand`` is the hand after the discard.
    - classic and three-handed: announcements, one combination each, checked
      in turn by the fresh card and same class rules (classic rules,
      Announcements).  ``hand`` is the concealed hand and ``table`` the
      player's :class:`~binocle.rules.classic_melds.MeldTable` (what he laid
      down before this declaration; None for nothing); a state's is
      ``state.tables[seat]``.  Whether a player may announce at all now (he
      won the trick; the stock lasts) is the state's to say, not asked here.
      ``two_handed=True`` (three-handed only) asks for the two-handed game
      after a retirement: the classic announcements and meld table.

    >>> m = check_meld("classic", "KS QS JD KH AS", "S", [("binocle", "QS JD", 40),
    ...                                                   ("royal marriage", "KS QS")])
    >>> [r.ok for r in m.rulings], m.worth
    ([True, True], 80)
    >>> m = check_meld("classic", "KS QS JD", "S", [("marriage", "KS QS")])
    >>> m.rulings[0].rule.value, m.rulings[0].reason
    ('meld-suit', 'marriage KS QS: a marriage is in a plain suit')
    """
    p = _profile(profile, two_handed)
    cards = read_cards(hand)
    t = read_trump(trump)
    if t is None:
        raise InvalidArgumentError("melds are counted with a trump: name the trump suit")
    if isinstance(declared, (str, bytes)) or not isinstance(declared, Sequence):
        raise InvalidNotationError(
            f"declared melds are a sequence of declared melds, not {type(declared).__name__}"
        )
    items = tuple(_declared(d) for d in declared)
    table_cards: tuple[Card, ...] = tuple(getattr(table, "cards", ())) if table is not None else ()
    _pack_cards(p, "the hand", cards, table_cards)
    for name, shown, _ in items:
        _pack_cards(p, f"the meld {name}", shown)
    found = p.check_melds(cards, t, items, table)
    rulings = tuple(
        MeldRuling(name, shown, value, worth, code, why or None)
        for (name, shown, value), (code, why, worth) in zip(items, found, strict=True)
    )
    claimed = None if any(v is None for _, _, v in items) else sum(v or 0 for _, _, v in items)
    best = p.meld(tuple(sorted((*cards, *table_cards))), Suit(t)).total
    return MeldCheck(rulings, claimed, sum(r.worth for r in rulings), best)
