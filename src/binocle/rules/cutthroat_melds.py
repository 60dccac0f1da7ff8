"""Meld counting by groups, for three-hand auction Pinochle (cutthroat rules, Melds).

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


_Scored = tuple[str, tuple[Card, ...], int]


def _run_entries(t: int) -> tuple[_Scored, _Scored]:
    run = tuple(CARDS[t + r] for r in (ACE, TEN, KING, QUEEN, JACK))
    return ("run", run, RUN), ("double run", tuple(sorted(run * 2)), DOUBLE_RUN)


def _around_entries(r: int, name: str, single: int, double: int) -> tuple[_Scored, _Scored]:
    four = tuple(CARDS[s * 8 + r] for s in range(4))
    doubled = tuple(sorted(four * 2))
    return (f"{name} around", four, single), (f"double {name} around", doubled, double)


# Every meld is one of these entries, built once (by suit or around): meld_breakdown
# hands out the same tuples every time.
_RUNS: Final = tuple(_run_entries(s * 8) for s in range(4))
_PAIRS: Final = tuple(
    (
        ("marriage", (CARDS[s * 8 + KING], CARDS[s * 8 + QUEEN]), MARRIAGE),
        ("royal marriage", (CARDS[s * 8 + KING], CARDS[s * 8 + QUEEN]), ROYAL_MARRIAGE),
    )
    for s in range(4)
)
_DIXES: Final = tuple(("dix", (CARDS[s * 8 + NINE],), DIX) for s in range(4))
_PINOCHLES: Final = (
    ("pinochle", (CARDS[QS], CARDS[JD]), PINOCHLE),
    ("double pinochle", (CARDS[QS], CARDS[QS], CARDS[JD], CARDS[JD]), DOUBLE_PINOCHLE),
)
_AROUNDS: Final = tuple((r, _around_entries(r, name, one, two)) for r, name, one, two in AROUNDS)


def meld_breakdown(cards: Sequence[int], trump: int) -> list[tuple[str, tuple[Card, ...], int]]:
    """Every meld scored, as ``(name, cards, value)``, in group order.

    Resolution (cutthroat rules, Melds): with one run, extra trump Kings and Queens add
    exactly one royal marriage; a double run takes every trump King and Queen.
    """
    c = [0] * 32
    for x in cards:
        c[x] += 1
    out: list[tuple[str, tuple[Card, ...], int]] = []
    t = trump * 8
    # Group 1: runs, marriages, dix.
    runs = min(c[t], c[t + TEN], c[t + KING], c[t + QUEEN], c[t + JACK])
    if runs == 2:
        out.append(_RUNS[trump][1])
    elif runs == 1:
        out.append(_RUNS[trump][0])
        if c[t + KING] == 2 or c[t + QUEEN] == 2:
            out.append(_PAIRS[trump][1])
    for s in (0, 1, 2, 3):
        b = s * 8
        k = c[b + KING]
        q = c[b + QUEEN]
        pairs = k if k < q else q
        if not pairs or (b == t and runs):
            continue
        entry = _PAIRS[s][1 if b == t else 0]
        out.append(entry)
        if pairs == 2:
            out.append(entry)
    nines = c[t + NINE]
    if nines:
        out.append(_DIXES[trump])
        if nines == 2:
            out.append(_DIXES[trump])
    # Group 2: pinochle.
    m = min(c[QS], c[JD])
    if m:
        out.append(_PINOCHLES[m - 1])
    # Group 3: arounds.
    for r, entries in _AROUNDS:
        m = min(c[r], c[8 + r], c[16 + r], c[24 + r])
        if m:
            out.append(entries[m - 1])
    return out
