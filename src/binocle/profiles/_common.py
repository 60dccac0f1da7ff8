"""What the profile modules share: the public log of a hand, the top scorer, the
plays of a hand as actions, small tuple edits and the profile option fields.

Private to the profiles (layer 3, over :mod:`binocle.core`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from binocle import actions as _actions
from binocle.actions import Action, Kind
from binocle.cards import Card
from binocle.core import MAX_OPTION, GameState
from binocle.errors import excerpt
from binocle.rules.tricks import bisect_cards

# The actions as this module's own constants: compiled, a name imported from a module
# that is not compiled (binocle.actions) is looked up in this module's dictionary at
# each use.
_PLAY_ACTIONS: Final = _actions.PLAY
_CLAIM: Final = _actions.CLAIM

__all__ = [
    "flag_option",
    "plays_then",
    "positive_option",
    "profile_option",
    "public_log",
    "remove_card",
    "replace_at",
    "suit_plays_and_claim",
    "top_scorer",
]


def public_log(
    state: GameState,
    seat: int,
    hide: Callable[[Action, int | None], str | None] | None = None,
    then: Callable[[Action, int | None], tuple[str, ...]] | None = None,
) -> tuple[str, ...]:
    """The current hand's actions as ``seat`` saw them, oldest first.

    The deal's cards are never shown; ``hide(action, actor)`` may give the text
    that replaces an action hidden from ``seat`` (None: shown as it is), and
    ``then(action, actor)``, called in the order of play, the entries of what the
    rules make follow the action without a choice (classic: the draws,
    ``"0: draw TS"``, or ``"1: draw"`` where the card is hidden from ``seat``).
    """
    taken: list[tuple[Action, int | None]] = []
    node = state.history
    while node is not None:
        prev, action, actor = node
        if action.kind is Kind.DEAL:
            break
        taken.append((action, actor))
        node = prev
    out = ["deal"]
    for action, actor in reversed(taken):
        masked = hide(action, actor) if hide is not None else None
        out.append(f"{actor}: {masked if masked is not None else action}")
        if then is not None:
            out.extend(then(action, actor))
    return tuple(out)


def top_scorer(scores: tuple[int, ...], seats: Any = None) -> int | None:
    """The one seat (of ``seats``, default all) with the highest score; None on a tie."""
    among = range(len(scores)) if seats is None else seats
    best = max(scores[i] for i in among)
    top = [i for i in among if scores[i] == best]
    return top[0] if len(top) == 1 else None


def plays_then(
    cards: tuple[Card, ...], last: Action | None = None, table: tuple[Action, ...] = _PLAY_ACTIONS
) -> tuple[Action, ...]:
    """The interned ``play`` of each distinct card of the sorted ``cards``, in their
    order, then ``last`` when given (``claim``, ``concede``): the plays of a hand.
    ``table`` gives another action by card instead (``binocle.actions.DISCARD``).

    A loop of one comparison and one table read a card: compiled, about a third of
    the cost of the item getter it replaced, and faster interpreted too.
    """
    out: list[Action] = []
    prev = -1
    for card in cards:
        c: int = card  # compiled: the card number as a machine integer
        if c != prev:
            out.append(table[c])
            prev = c
    if last is not None:
        out.append(last)
    return tuple(out)


def suit_plays_and_claim(cards: tuple[Card, ...]) -> tuple[Action, ...]:
    """:func:`plays_then` of sorted cards of one suit, then ``claim``: shared tuples,
    built once each (the plays that follow suit or trump, classic and three-handed)."""
    out = _SUIT_PLAYS_AND_CLAIM.get(cards)
    if out is None:
        out = _SUIT_PLAYS_AND_CLAIM[cards] = plays_then(cards, _CLAIM)
    return out


#: ``play`` actions then ``claim``, by the sorted cards of one suit.
_SUIT_PLAYS_AND_CLAIM: Final[dict[tuple[Card, ...], tuple[Action, ...]]] = {}


def replace_at(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced by ``value``."""
    return t[:i] + (value,) + t[i + 1 :]


def played_from(
    hands: tuple[tuple[Card, ...], ...], p: int, c: int
) -> tuple[tuple[Card, ...], ...]:
    """Three seats' sorted hands with one copy of card ``c`` (a card number) gone from
    seat ``p``'s: the hands after a play, built in place (a play's hot path)."""
    h = hands[p]
    i = bisect_cards(h, c, 0, len(h))  # the hand is sorted: its first copy
    h = h[:i] + h[i + 1 :]
    if p == 0:
        return (h, hands[1], hands[2])
    if p == 1:
        return (hands[0], h, hands[2])
    return (hands[0], hands[1], h)


def remove_card(hand: tuple[Card, ...], c: Card) -> tuple[Card, ...]:
    """A sorted hand without one copy of ``c``."""
    i = hand.index(c)
    return hand[:i] + hand[i + 1 :]


def profile_option(default: Any, validator: Callable[[Any, Any, Any], None]) -> Any:
    """A profile's option field: its default and its validator (an attrs field).

    Typed ``Any``: the compiled build's mypyc would otherwise check, as it builds the
    class, the field specification against the option's own type (an ``int``).
    """
    return attrs.field(default=default, validator=validator)


def flag_option(instance: Any, attribute: Any, value: Any) -> None:
    """attrs validator of a true/false profile option."""
    if not isinstance(value, bool):
        raise ValueError(f"{attribute.name} must be true or false, not {excerpt(value)}")


def positive_option(instance: Any, attribute: Any, value: Any) -> None:
    """attrs validator of a positive whole-number profile option (at most ``MAX_OPTION``)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_OPTION:
        raise ValueError(
            f"{attribute.name} must be a whole number 1..{MAX_OPTION}, not {excerpt(value)}"
        )
