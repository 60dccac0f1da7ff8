"""Text a person reads: cards in one style, and the readable form of states and views.

``str(state)`` and ``str(view)`` are :func:`state_text` and :func:`view_text` with
suit symbols, laid out as a card table is seen: the game and phase, the public
facts of the hand (trump, bid, widow, turn-up, stock, trick), then one block per
seat with its score, hand (in a view, only a count for the others' hands),
melds and trick points, and who acts with what::

    cutthroat · hand 1 · play phase · trump ♥ · seat 1 to act
    bid 250 by seat 1 · widow T♥ 9♥ A♣
    trick: seat 1 A♦
    seat 0 (dealer)   score 0
      hand: ♠ A T K  ♥ Q 9  ♦ –  ♣ A
    ...

Every function takes ``suits``: ``"symbols"`` (``T♠``) or ``"letters"`` (``TS``,
plain ASCII throughout).  ``repr`` stays the full field-by-field form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from binocle.actions import Action, Kind
from binocle.cards import Card, Suit
from binocle.core import GameState, Phase, View, set_text
from binocle.errors import InvalidArgumentError, excerpt, expect

__all__ = [
    "SUIT_STYLES",
    "card_text",
    "cards_text",
    "hand_by_suit",
    "state_text",
    "view_text",
]

SUIT_STYLES = ("symbols", "letters")

_LEGAL_SHOWN = 12


def check_style(suits: str) -> None:
    """Refuse a style other than ``"symbols"`` or ``"letters"``."""
    if suits not in SUIT_STYLES:
        raise InvalidArgumentError(f"suits is 'symbols' or 'letters', not {excerpt(suits)}")


def _cards(cards: object) -> tuple[Card, ...]:
    """``cards`` as a tuple, each a :class:`~binocle.Card`, or InvalidArgumentError."""
    if isinstance(cards, (str, bytes)):  # text is parsed by parse_cards, not here
        raise InvalidArgumentError(f"cards are Card objects, not the text {excerpt(cards)}")
    if not isinstance(cards, Iterable):
        raise InvalidArgumentError(f"cards are a collection of cards, not {excerpt(cards)}")
    held = tuple(cards)
    for c in held:
        expect(c, Card, "a card is a Card")
    return held


def card_text(c: Card, suits: str = "symbols") -> str:
    """One card in the style: ``"T♠"`` or ``"TS"``."""
    check_style(suits)
    expect(c, Card, "a card is a Card")
    return c.symbol if suits == "symbols" else str(c)


def cards_text(cards: Iterable[Card], suits: str = "symbols") -> str:
    """Cards separated by spaces, in the style; ``"–"`` (``"-"``) for none."""
    check_style(suits)
    symbols = suits == "symbols"
    text = " ".join(c.symbol if symbols else str(c) for c in _cards(cards))
    return text or ("–" if suits == "symbols" else "-")


def suit_text(s: Suit, suits: str = "symbols") -> str:
    """A suit in the style: ``"♠"`` or ``"S"``."""
    check_style(suits)
    expect(s, Suit, "a suit is a Suit")
    return s.symbol if suits == "symbols" else s.letter


def _hand(cards: tuple[Card, ...], suits: str) -> str:
    return hand_by_suit(cards, suits) if cards else "no cards"


def hand_by_suit(cards: Iterable[Card], suits: str = "symbols") -> str:
    """A hand grouped by suit: ``"♠ A T K  ♥ Q 9  ♦ –  ♣ A"`` (``"S A T K  H Q 9  D -  C A"``)."""
    check_style(suits)
    held = _cards(cards)
    parts = []
    for s in Suit:
        ranks = [c.rank.letter for c in held if c.suit is s]
        empty = "–" if suits == "symbols" else "-"
        parts.append(f"{suit_text(s, suits)} {' '.join(ranks) if ranks else empty}")
    return "  ".join(parts)


def _dot(suits: str) -> str:
    return " · " if suits == "symbols" else " | "


def _melds(result: Any, suits: str) -> str | None:
    """A seat's declared melds (a MeldResult), or None when there is nothing to show."""
    melds = getattr(result, "melds", None)
    if not melds:
        return None
    parts = [f"{m.name} {cards_text(m.cards, suits)} ({m.value})" for m in melds]
    return ", ".join(parts) + f" = {result.total}"


_CARD_TOKEN = re.compile(r"\b([AKQJT987])([SHDC])\b")


def action_text(action: Action, suits: str = "symbols") -> str:
    """An action's notation with its cards (and trump suit) in the style.

    ``parse_action`` reads both styles, so the text can be typed back.
    """
    check_style(suits)
    expect(action, Action, "an action is an Action")
    text = str(action)
    if suits == "letters":
        return text
    if action.kind is Kind.TRUMP and action.suit is not None:
        return f"trump {action.suit.symbol}"
    if action.kind is Kind.DEAL:
        return text
    return _CARD_TOKEN.sub(lambda m: m.group(1) + "♠♥♦♣"["SHDC".index(m.group(2))], text)


def _table(
    profile: Any,
    phase: Any,
    dealer: int,
    current: int | None,
    trump: Suit | None,
    hand_number: int,
    hands: list[str],
    scores: tuple[int, ...],
    trick: tuple[tuple[int, Card], ...],
    public: dict[str, Any],
    hidden: dict[str, Any],
    legal: tuple[Any, ...],
    me: int | None,
    over: str | None,
    suits: str,
) -> str:
    """The common layout of :func:`state_text` and :func:`view_text`."""
    check_style(suits)
    dot = _dot(suits)
    head = [profile.spec(), f"hand {hand_number}"]
    if over is not None:
        head.append(over)
    elif phase.value == "deal":
        head.append("between hands: the next deal is due")
    else:
        head.append(f"{phase.value} phase")
        head.append(f"trump {suit_text(trump, suits)}" if trump is not None else "no trump yet")
        if current is not None:
            head.append(f"seat {current} to act")
    lines = [dot.join(head)]
    facts = []
    if public.get("bid") is not None:
        by = f" by seat {public['bidder']}" if public.get("bidder") is not None else ""
        facts.append(f"bid {public['bid']}{by}")
    widow = public.get("widow")
    if widow:
        facts.append(f"widow {cards_text(widow, suits)}")
    elif hidden.get("widow"):
        facts.append(f"widow {cards_text(hidden['widow'], suits)} (face down)")
    if public.get("turn_up") is not None:
        facts.append(f"turn-up {card_text(public['turn_up'], suits)}")
    if hidden.get("stock"):
        facts.append(f"stock {cards_text(hidden['stock'], suits)}")
    elif public.get("stock_size"):
        facts.append(f"stock {public['stock_size']} cards")
    if public.get("discards"):
        facts.append(f"discarded {cards_text(public['discards'], suits)}")
    retired = public.get("retired")
    if retired is not None:
        facts.append(f"seat {retired} retired")
    offer = public.get("overlooked")
    if offer is not None and hasattr(offer, "points"):
        facts.append(f"seat {offer.seat} overlooked {offer.points} points of meld")
    if facts:
        lines.append(dot.join(facts))
    if trick:
        lines.append("trick: " + ", ".join(f"seat {s} {card_text(c, suits)}" for s, c in trick))
    melds = public.get("melds")
    tables = public.get("tables")
    points = public.get("meld_points") or public.get("announced")
    taken = public.get("taken")
    for seat, hand in enumerate(hands):
        marks = [
            word
            for word, yes in (
                ("you", seat == me),
                ("dealer", seat == dealer),
                ("bidder", public.get("bidder") == seat),
                ("to act", seat == current and over is None),
            )
            if yes
        ]
        name = f"seat {seat}" + (f" ({', '.join(marks)})" if marks else "")
        row = [f"score {scores[seat]}"]
        if points is not None and len(points) == len(hands):
            row.append(f"meld {points[seat]}")
        if taken is not None and len(taken) == len(hands):
            row.append(f"trick points {taken[seat]}")
        lines.append(f"{name:<22}  {dot.join(row)}")
        lines.append(f"  hand: {hand}")
        if tables is not None and len(tables) == len(hands) and tables[seat]:
            lines.append(f"  on the table: {cards_text(tables[seat], suits)}")
        if melds is not None and len(melds) == len(hands):
            shown = _melds(melds[seat], suits)
            if shown is not None:
                lines.append(f"  melds: {shown}")
    if legal and over is None:
        shown_legal = ", ".join(action_text(a, suits) for a in legal[:_LEGAL_SHOWN])
        more = f", … ({len(legal)} in all)" if len(legal) > _LEGAL_SHOWN else ""
        if suits == "letters":
            more = more.replace("…", "...")
        lines.append(f"legal: {shown_legal}{more}")
    return "\n".join(lines)


def state_text(state: GameState, suits: str = "symbols") -> str:
    """The whole state, every hand and hidden pile shown (``str(state)``)."""
    check_style(suits)
    expect(state, GameState, "a state is a GameState")
    profile = state.profile
    seat = state.current_player if state.current_player is not None else 0
    view = profile.observe(state, seat)
    public = dict(view.public)
    auction = getattr(state, "auction", None)
    hidden = {
        "widow": getattr(state, "widow", None) or getattr(auction, "widow", None),
        "stock": getattr(state, "stock", None),
    }
    over = None
    if state.phase is Phase.OVER:
        won = profile.winner(state)
        over = "game over: " + (f"seat {won} wins" if won is not None else "nobody wins")
    legal = () if state.phase is Phase.OVER else profile.legal_actions(state)
    legal = tuple(a for a in legal if a.kind is not Kind.DEAL)
    hands = [_hand(h, suits) for h in state.hands]
    return _table(
        profile, state.phase, state.dealer, state.current_player, state.trump,
        state.hand_number, hands, state.scores, state.trick, public, hidden, legal,
        None, over, suits,
    )  # fmt: skip


def view_text(view: View, suits: str = "symbols") -> str:
    """What one seat may know (``str(view)``): its own hand, the others' as counts."""
    check_style(suits)
    expect(view, View, "a view is a View")
    hands = [
        _hand(view.hand, suits) if i == view.seat else f"{n} cards" if n else "no cards"
        for i, n in enumerate(view.hand_sizes)
    ]
    over = "game over" if view.phase is Phase.OVER else None
    hand_number = len(view.results) + (0 if view.phase in (Phase.DEAL, Phase.OVER) else 1)
    return _table(
        view.profile, view.phase, view.dealer, view.current_player, view.trump,
        max(hand_number, 1), hands, view.scores, view.trick, dict(view.public), {},
        view.legal_actions, view.seat, over, suits,
    )  # fmt: skip


set_text(state_text, view_text)
