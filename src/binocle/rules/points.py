"""Card points for cards won in tricks (common rules, Card points)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

__all__ = ["BINOCLE_POINTS", "COUNTER_POINTS", "LAST_TRICK", "card_points"]

# Indexed by rank number: A T K Q J 9 8 7.
_BINOCLE_BY_RANK: Final = (11, 10, 4, 3, 2, 0, 0, 0)
_COUNTER_BY_RANK: Final = (10, 10, 10, 0, 0, 0, 0, 0)

#: Classic and three-handed Binocle: A 11, 10 10, K 4, Q 3, J 2, by card number.
BINOCLE_POINTS: Final[tuple[int, ...]] = tuple(_BINOCLE_BY_RANK[i & 7] for i in range(32))
#: Cutthroat: Aces, Tens and Kings ("counters") 10 each, by card number.
COUNTER_POINTS: Final[tuple[int, ...]] = tuple(_COUNTER_BY_RANK[i & 7] for i in range(32))
#: The winner of the last trick scores this much more.
LAST_TRICK: Final = 10


def card_points(cards: Iterable[int], table: tuple[int, ...]) -> int:
    """The points of ``cards`` by a points ``table``."""
    return sum(table[c] for c in cards)
