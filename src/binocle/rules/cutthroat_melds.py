"""Meld counting by groups, for three-hand auction Pinochle (RULES.md §4 "Melds").

Melds are simply counted, no order and no fresh card: a card may serve in
melds of different groups (1: runs, marriages, dix; 2: pinochle; 3: arounds)
but not twice in one group.  Everything is computed from card counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from binocle.cards import CARDS, Card

__all__ = ["meld_breakdown", "meld_total"]

ACE, TEN, KING, QUEEN, JACK, NINE = 0, 1, 2, 3, 4, 5
QS: Final = 0 * 8 + QUEEN
JD: Final = 2 * 8 + JACK
_SUITS: Final = "SHDC"

#: (rank, name, single value, doubled value) of the arounds.
AROUNDS: Final = (
    (ACE, "aces", 100, 1000),
    (KING, "kings", 80, 800),
    (QUEEN, "queens", 60, 600),
    (JACK, "jacks", 40, 400),
)
RUN, DOUBLE_RUN, ROYAL_MARRIAGE, MARRIAGE, DIX = 150, 1500, 40, 20, 10
PINOCHLE, DOUBLE_PINOCHLE = 40, 300


def _counts(cards: Sequence[int]) -> list[int]:
    c = [0] * 32
    for x in cards:
        c[x] += 1
    return c


def meld_total(cards: Sequence[int], trump: int) -> int:
    """The meld of ``cards`` with ``trump`` (a suit number), as one number."""
    c = [0] * 32
    for x in cards:
        c[x] += 1
    total = 0
    for r, _, single, double in AROUNDS:
        m = min(c[r], c[8 + r], c[16 + r], c[24 + r])
        if m:
            total += single if m == 1 else double
    m = min(c[QS], c[JD])
    if m:
        total += PINOCHLE if m == 1 else DOUBLE_PINOCHLE
    for s in (0, 8, 16, 24):
        k = c[s + KING]
        q = c[s + QUEEN]
        if s == trump * 8:
            runs = min(c[s], c[s + TEN], k, q, c[s + JACK])
            if runs == 2:
                total += DOUBLE_RUN
            elif runs == 1:
                total += RUN + (ROYAL_MARRIAGE if k == 2 or q == 2 else 0)
            else:
                total += ROYAL_MARRIAGE * (k if k < q else q)
            total += DIX * c[s + NINE]
        else:
            total += MARRIAGE * (k if k < q else q)
    return total


def meld_breakdown(cards: Sequence[int], trump: int) -> list[tuple[str, tuple[Card, ...], int]]:
    """Every meld scored, as ``(name, cards, value)``, in group order.

    Resolution (RULES.md §4): with one run, extra trump Kings and Queens add
    exactly one royal marriage; a double run takes every trump King and Queen.
    """
    c = _counts(cards)
    out: list[tuple[str, tuple[Card, ...], int]] = []
    t = trump * 8
    # Group 1: runs, marriages, dix.
    runs = min(c[t], c[t + TEN], c[t + KING], c[t + QUEEN], c[t + JACK])
    run_cards = tuple(CARDS[t + r] for r in (ACE, TEN, KING, QUEEN, JACK))
    if runs == 2:
        out.append(("double run", tuple(sorted(run_cards * 2)), DOUBLE_RUN))
    elif runs == 1:
        out.append(("run", run_cards, RUN))
        if c[t + KING] == 2 or c[t + QUEEN] == 2:
            out.append(("royal marriage", (CARDS[t + KING], CARDS[t + QUEEN]), ROYAL_MARRIAGE))
    for s in (0, 1, 2, 3):
        b = s * 8
        pairs = min(c[b + KING], c[b + QUEEN])
        if b == t and runs:
            continue
        for _ in range(pairs):
            if b == t:
                out.append(("royal marriage", (CARDS[b + KING], CARDS[b + QUEEN]), ROYAL_MARRIAGE))
            else:
                out.append(("marriage", (CARDS[b + KING], CARDS[b + QUEEN]), MARRIAGE))
    for _ in range(c[t + NINE]):
        out.append(("dix", (CARDS[t + NINE],), DIX))
    # Group 2: pinochle.
    m = min(c[QS], c[JD])
    if m == 2:
        out.append(
            ("double pinochle", (CARDS[QS], CARDS[QS], CARDS[JD], CARDS[JD]), DOUBLE_PINOCHLE)
        )
    elif m == 1:
        out.append(("pinochle", (CARDS[QS], CARDS[JD]), PINOCHLE))
    # Group 3: arounds.
    for r, name, single, double in AROUNDS:
        m = min(c[r], c[8 + r], c[16 + r], c[24 + r])
        four = tuple(CARDS[s * 8 + r] for s in range(4))
        if m == 2:
            out.append((f"double {name} around", tuple(sorted(four * 2)), double))
        elif m == 1:
            out.append((f"{name} around", four, single))
    return out
