"""The deal: a pack shuffled from a seed, a deck split by a deal schedule into hands
and piles, and the deck that deals given hands (layer 2).

A profile's deal schedule lists the packets it deals, in order, as ``(seat or pile
name, cards)`` pairs (:meth:`binocle.core.Profile.deal_schedule`); these functions
read it, and :class:`~binocle.core.Profile` offers them as its methods
:meth:`~binocle.core.Profile.deal_for`, :meth:`~binocle.core.Profile.split_deck`,
:meth:`~binocle.core.Profile.stack_deck` and :meth:`~binocle.core.Profile.check_deck`.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any, Final

from binocle.cards import Card, pack, parse_cards
from binocle.errors import InvalidNotationError, excerpt

__all__ = ["Schedule", "check_deck", "shuffled_pack", "split_deck", "stack_deck"]

#: A deal schedule: the packets dealt, in order, as ``(seat or pile name, cards)``.
Schedule = tuple[tuple[int | str, int], ...]

_PACKS: Final[dict[int, tuple[Card, ...]]] = {}
_BIT_LENGTH: Final[tuple[int, ...]] = tuple(n.bit_length() for n in range(65))
#: The shuffle's steps by pack size: each position from the last down, with the bits
#: its random draw takes.
_STEPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {}


def shuffled_pack(size: int, seed: str) -> tuple[Card, ...]:
    """The ``size``-card pack (48 or 64), sorted, then shuffled by
    ``random.Random(seed).shuffle``: the same draws and the same order, written out
    (shuffling is most of the cost of a deal)."""
    sorted_pack = _PACKS.get(size)
    if sorted_pack is None:
        sorted_pack = _PACKS[size] = pack(size)
    deck = list(sorted_pack)
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((i, _BIT_LENGTH[i + 1]) for i in range(size - 1, 0, -1))
    getrandbits = random.Random(seed).getrandbits
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


_Take = Callable[[tuple[Card, ...]], tuple[Card, ...]]
#: The deck positions of every hand and pile, as item getters, by schedule, number of
#: seats and deck size (a few schedules per profile: kept while there are few).
_SPLITS: Final[
    dict[tuple[Schedule, int, int], tuple[tuple[_Take, ...], tuple[tuple[str, _Take], ...]]]
] = {}


def _splitter(
    schedule: Schedule, players: int, size: int
) -> tuple[tuple[_Take, ...], tuple[tuple[str, _Take], ...]]:
    """Item getters of the deck positions each seat and each pile receives, in order."""
    where: dict[int | str, list[int]] = {i: [] for i in range(players)}
    pos = 0
    for target, n in schedule:
        where.setdefault(target, []).extend(range(pos, min(pos + n, size)))
        pos += n

    def take(positions: list[int]) -> _Take:
        if not positions:
            return lambda deck: ()
        if len(positions) == 1:
            i = positions[0]
            return lambda deck: (deck[i],)
        getter: _Take = operator.itemgetter(*positions)
        return getter

    seats = tuple(take(where[i]) for i in range(players))
    heaps = tuple((n, take(p)) for n, p in where.items() if isinstance(n, str))
    return seats, heaps


def split_deck(
    deck: tuple[Card, ...], schedule: Schedule, players: int
) -> tuple[list[list[Card]], dict[str, list[Card]]]:
    """The hands (one per seat, in deal order) and the piles (by name) that ``deck``
    deals by ``schedule``."""
    key = (schedule, players, len(deck))
    found = _SPLITS.get(key)
    if found is None:
        found = _splitter(schedule, players, len(deck))
        if len(_SPLITS) >= 64:
            _SPLITS.clear()
        _SPLITS[key] = found
    seats, heaps = found
    return [list(take(deck)) for take in seats], {n: list(take(deck)) for n, take in heaps}


def stack_deck(
    schedule: Schedule, players: int, size: int, hands: Any, piles: dict[str, Any]
) -> tuple[Card, ...]:
    """The order of a ``size``-card deck that deals exactly ``hands`` (one entry per
    seat) and ``piles`` (by name) by ``schedule``; parts left out (or None) take the
    rest of the pack, in pack order, in the order they are dealt
    (:meth:`binocle.core.Profile.stack_deck`).  Raises InvalidNotationError for parts
    that cannot be read or dealt.
    """
    needed: dict[int | str, int] = {}
    for target, n in schedule:
        needed[target] = needed.get(target, 0) + n
    if not isinstance(hands, (list, tuple)) or len(hands) != players:
        raise InvalidNotationError(f"stack_deck needs {players} hands, one per seat")
    given: dict[int | str, Any] = {i: h for i, h in enumerate(hands)}
    for name, pile in piles.items():
        if name not in needed:
            names = ", ".join(str(t) for t in needed if isinstance(t, str)) or "none"
            raise InvalidNotationError(f"no pile {excerpt(name)} in this deal (piles: {names})")
        given[name] = pile
    rest = list(pack(size))
    parts: dict[int | str, list[Card]] = {}
    missing = [t for t in needed if given.get(t) is None]
    for target in needed:
        if given.get(target) is None:
            continue
        part = given[target]
        cards = [part] if isinstance(part, Card) else list(parse_cards(part))
        if len(cards) != needed[target]:
            raise InvalidNotationError(
                f"{'seat ' if isinstance(target, int) else ''}{target} gets"
                f" {needed[target]} cards, not {len(cards)}"
            )
        for c in cards:
            if c not in rest:
                raise InvalidNotationError(f"{c} is given more often than the pack holds it")
            rest.remove(c)
        parts[target] = cards
    for target in missing:
        parts[target], rest = rest[: needed[target]], rest[needed[target] :]
    deck: list[Card] = []
    for target, n in schedule:
        deck.extend(parts[target][:n])
        del parts[target][:n]
    return tuple(deck)


def check_deck(cards: tuple[Card, ...], size: int) -> str | None:
    """Why ``cards`` are not the ``size``-card pack, every card twice, or None."""
    if sorted(cards) != list(pack(size)):
        return f"a deal must hold exactly the {size}-card pack, every card twice (got {len(cards)} cards)"
    return None
