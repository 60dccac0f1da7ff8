"""Derive the meld figures behind :func:`binocle.encoding.utility_bounds`.

    python tools/meld_bounds.py     # print them (the classic figures need scipy)

Cutthroat: the highest meld of 15 cards (the bidder's after his discards), found
exactly by a dynamic programme over the four suits (the meld of cutthroat
Pinochle is a sum over suits, arounds and pinochle, of card counts); and the
highest meld of two 15-card hands together, exactly, by an integer programme
whose items are the meld table's (scipy).

Classic and three-handed: an upper bound on what one seat's announcements can
score, as the optimum of an integer programme that relaxes the announcement
rules (classic rules, Announcements and Dix): every announcement is one
combination of the meld table, a card serves again in its class only inside a
larger combination that it completes (four Aces then eight Aces, binocle then
double binocle, royal marriage then sequence), at most ``announcements``
announcements, and the cards they use number at most ``cards`` (the cards the
seat holds at some announcement).  Timing, the hand's size and the play are
left out, so the optimum bounds every real hand from above; it is not claimed
to be reached.  The three-handed meld ("plenty of time") has no announcement
limit; the classic one has one announcement per trick won while the stock lasts.
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

ACE, TEN, KING, QUEEN, JACK, NINE = range(6)
_AROUNDS = {ACE: (100, 1000), KING: (80, 800), QUEEN: (60, 600), JACK: (40, 400)}


def cutthroat_best_meld(size: int = 15) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """The highest cutthroat meld of ``size`` cards: ``(value, trump, counts)``, where
    ``counts[suit]`` gives the copies of A 10 K Q J 9 of that suit (suits S H D C)."""
    best: tuple[int, int, tuple[tuple[int, ...], ...]] = (-1, 0, ())
    for trump in range(4):
        # State: the fewest copies so far of A, K, Q, J (arounds), the Queens of
        # spades (pinochle, with the Jacks of diamonds), the cards used.
        states: dict[tuple[int, ...], tuple[int, tuple[tuple[int, ...], ...]]] = {
            (2, 2, 2, 2, 0, 0): (0, ())
        }
        for suit in range(4):
            new: dict[tuple[int, ...], tuple[int, tuple[tuple[int, ...], ...]]] = {}
            for (ma, mk, mq, mj, qs, used), (value, picked) in states.items():
                for cnt in itertools.product(range(3), repeat=6):
                    u = used + sum(cnt)
                    if u > size:
                        continue
                    a, t, k, q, j, n = cnt
                    v = value
                    if suit == trump:
                        runs = min(a, t, k, q, j)
                        if runs == 2:
                            v += 1500
                        elif runs == 1:
                            v += 150 + (40 if k == 2 or q == 2 else 0)
                        else:
                            v += 40 * min(k, q)
                        v += 10 * n
                    else:
                        v += 20 * min(k, q)
                    nqs = q if suit == 0 else qs
                    if suit == 2:
                        m = min(qs, j)
                        v += (0, 40, 300)[m]
                        nqs = 0
                    key = (min(ma, a), min(mk, k), min(mq, q), min(mj, j), nqs, u)
                    if key not in new or new[key][0] < v:
                        new[key] = (v, (*picked, cnt))
            states = new
        for (ma, mk, mq, mj, _, _), (value, picked) in states.items():
            for rank, m in ((ACE, ma), (KING, mk), (QUEEN, mq), (JACK, mj)):
                if m:
                    value += _AROUNDS[rank][m - 1]
            if value > best[0]:
                best = (value, trump, picked)
    return best


def classic_meld_bound(
    announcements: int, cards: int, *, grand: bool, dix: bool, turn_up: bool
) -> int:
    """The optimum of the relaxation described above, over the four trump suits.

    ``dix``: announcements may be dix exchanges (10 each; the first brings the
    turn-up into the hand, one card more); ``turn_up``: the seat is the dealer
    and a turned-up Nine scores him 10 (then one Nine of trumps is left to exchange).
    """
    return max(
        _classic_for_trump(t, announcements, cards, grand=grand, dix=dix, turn_up=turn_up)
        for t in range(4)
    )


def _classic_for_trump(
    trump: int, announcements: int, cards: int, *, grand: bool, dix: bool, turn_up: bool
) -> int:
    """:func:`classic_meld_bound` with ``trump`` trumps."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp

    names: dict[str, int] = {}
    upper: list[int] = []
    value: list[int] = []

    def var(name: str, ub: int, worth: int = 0) -> None:
        names[name] = len(upper)
        upper.append(ub)
        value.append(worth)

    suits = range(4)
    for s in suits:
        for r in range(6):
            var(f"x{r}{s}", 2)
    for r, (v4, v8) in _AROUNDS.items():
        four, eight = v4, v8 // 5  # 100/200, 80/160, 60/120, 40/80
        var(f"f1{r}", 1, four)
        var(f"f2{r}", 1, four)
        var(f"e{r}", 1, eight)
    for i in (1, 2):
        var(f"b{i}", 1, 40)
        var(f"g{i}", 1 if grand else 0, 80)
        var(f"u{i}", 1)
        var(f"r{i}", 1, 40)
        var(f"q{i}", 1, 150)
        var(f"v{i}", 1)
    var("d", 1, 80)
    for s in suits:
        var(f"m{s}", 0 if s == trump else 2, 20)
    var("dx", 2 if dix else 0, 10)
    var("dxa", 1 if dix else 0)
    var("tu", 1 if turn_up else 0, 10)
    rows: list[Any] = []
    lo: list[float] = []
    hi: list[float] = []

    def at_most(coefs: dict[str, int], h: float) -> None:
        row = np.zeros(len(upper))
        for k, c in coefs.items():
            row[names[k]] += c
        rows.append(row)
        lo.append(-np.inf)
        hi.append(h)

    def x(r: int, s: int) -> str:
        return f"x{r}{s}"

    for r in _AROUNDS:
        for s in suits:
            at_most({f"f1{r}": 1, f"f2{r}": 1, x(r, s): -1}, 0)
            at_most({f"e{r}": 2, x(r, s): -1}, 0)
        at_most({f"f2{r}": 1, f"f1{r}": -1}, 0)
        at_most({f"f2{r}": 1, f"e{r}": 1}, 1)  # no fresh card for the third
    qs, jd, ks = x(QUEEN, 0), x(JACK, 2), x(KING, 0)
    for i in (1, 2):
        at_most({f"b{i}": 1, f"u{i}": -1}, 0)
        at_most({f"g{i}": 1, f"u{i}": -1}, 0)
        at_most({"d": 1, f"u{i}": -1}, 0)
        at_most({"d": 1, f"g{i}": 1}, 1)
        at_most({f"r{i}": 1, f"v{i}": -1}, 0)
        at_most({f"q{i}": 1, f"v{i}": -1}, 0)
    for c in (qs, jd):
        at_most({"u1": 1, "u2": 1, c: -1}, 0)
    at_most({"g1": 1, "g2": 1, ks: -1}, 0)
    at_most({"b1": 1, "b2": 1, "d": 1}, 2)
    for r in (KING, QUEEN):
        at_most({"v1": 1, "v2": 1, x(r, trump): -1}, 0)
    for r in (ACE, TEN, JACK):
        at_most({"q1": 1, "q2": 1, x(r, trump): -1}, 0)
    for s in suits:
        at_most({f"m{s}": 1, x(KING, s): -1}, 0)
        at_most({f"m{s}": 1, x(QUEEN, s): -1}, 0)
    at_most({"dx": 1, x(NINE, trump): -1}, 0)
    at_most({"dx": 1, "tu": 1}, 2)
    at_most({"dxa": 1, "dx": -1}, 0)
    at_most({"dxa": 1, "tu": 1}, 1)
    said = [k for k in names if k[0] in "fegbrqm" or k in ("d", "dx")]
    at_most(dict.fromkeys(said, 1), announcements)
    held = {x(r, s): 1 for r in range(6) for s in suits}
    held["dxa"] = -1
    at_most(held, cards)
    res = milp(
        -np.array(value, dtype=float),
        constraints=LinearConstraint(np.array(rows), lo, hi),
        integrality=np.ones(len(upper)),
        bounds=Bounds(np.zeros(len(upper)), np.array(upper, dtype=float)),
    )
    assert res.success, res.message
    return round(float(-res.fun))


#: (profile text, announcements, cards, dix, turn_up) of each classic figure: one seat
#: in a classic hand (12 announcements and 23 cards with the 48-card pack; 20 and 31
#: with 64), two seats together (every announcement, 46 or 62 cards), a three-handed
#: seat (no announcement limit, 16 cards) and the three seats together (48 cards).
FIGURES: dict[str, tuple[int, int, bool, bool]] = {
    "classic seat": (12, 23, True, True),
    "classic seats": (12, 46, True, True),
    "classic-64 seat": (20, 31, True, True),
    "classic-64 seats": (20, 62, True, True),
    "three-handed seat": (99, 16, False, False),
    "three-handed seats": (99, 48, False, False),
}


def main() -> int:
    value, trump, counts = cutthroat_best_meld()
    print(f"cutthroat best meld of 15 cards: {value} (trump {'SHDC'[trump]}, {counts})")
    print(f"cutthroat best meld of two 15-card hands: {cutthroat_pair_meld()}")
    for grand in (False, True):
        for name, (ann, cards, dix, turn_up) in FIGURES.items():
            v = classic_meld_bound(ann, cards, grand=grand, dix=dix, turn_up=turn_up)
            print(f"{name} (grand_binocle={grand}): {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


def cutthroat_pair_meld(sizes: tuple[int, int] = (15, 15)) -> int:
    """The highest cutthroat meld of two hands of ``sizes`` cards together, dealt from
    one pack (each card twice) with one trump: an integer programme whose items are
    the meld table's, so its optimum is the exact highest (scipy)."""
    return max(_cutthroat_pair_for_trump(t, sizes) for t in range(4))


def _cutthroat_pair_for_trump(trump: int, sizes: tuple[int, int]) -> int:
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp

    names: dict[str, int] = {}
    upper: list[int] = []
    value: list[int] = []
    rows: list[Any] = []
    lo: list[float] = []
    hi: list[float] = []

    def var(name: str, ub: int, worth: int = 0) -> None:
        names[name] = len(upper)
        upper.append(ub)
        value.append(worth)

    def at_most(coefs: dict[str, int], h: float) -> None:
        rows.append(coefs)
        lo.append(-np.inf)
        hi.append(h)

    for h in (0, 1):
        for s in range(4):
            for r in range(6):
                var(f"x{h}{r}{s}", 2)
        for r, (single, double) in _AROUNDS.items():
            var(f"a{h}{r}", 1, single)
            var(f"A{h}{r}", 1, double)
        var(f"p{h}", 1, 40)
        var(f"P{h}", 1, 300)
        var(f"r{h}", 1, 150)
        var(f"R{h}", 1, 1500)
        var(f"re{h}", 1, 40)
        var(f"rm{h}", 2, 40)
        for s in range(4):
            var(f"m{h}{s}", 0 if s == trump else 2, 20)
        var(f"d{h}", 2, 10)
    for h in (0, 1):

        def x(r: int, s: int, h: int = h) -> str:
            return f"x{h}{r}{s}"

        at_most({x(r, s): 1 for r in range(6) for s in range(4)}, sizes[h])
        for r in _AROUNDS:
            at_most({f"a{h}{r}": 1, f"A{h}{r}": 1}, 1)
            for s in range(4):
                at_most({f"a{h}{r}": 1, x(r, s): -1}, 0)
                at_most({f"A{h}{r}": 2, x(r, s): -1}, 0)
        at_most({f"p{h}": 1, f"P{h}": 1}, 1)
        for c in ((QUEEN, 0), (JACK, 2)):
            at_most({f"p{h}": 1, x(*c): -1}, 0)
            at_most({f"P{h}": 2, x(*c): -1}, 0)
        at_most({f"r{h}": 1, f"R{h}": 1}, 1)
        for r in (ACE, TEN, KING, QUEEN, JACK):
            at_most({f"r{h}": 1, x(r, trump): -1}, 0)
            at_most({f"R{h}": 2, x(r, trump): -1}, 0)
        # With one run, one royal marriage more if a second King or Queen is held.
        at_most({f"re{h}": 1, f"r{h}": -1}, 0)
        at_most({f"re{h}": 1, f"r{h}": 2, x(KING, trump): -1, x(QUEEN, trump): -1}, 0)
        # Without a run, a royal marriage per King and Queen of trumps.
        at_most({f"rm{h}": 1, x(KING, trump): -1}, 0)
        at_most({f"rm{h}": 1, x(QUEEN, trump): -1}, 0)
        at_most({f"rm{h}": 1, f"r{h}": 2, f"R{h}": 2}, 2)
        for s in range(4):
            at_most({f"m{h}{s}": 1, x(KING, s): -1}, 0)
            at_most({f"m{h}{s}": 1, x(QUEEN, s): -1}, 0)
        at_most({f"d{h}": 1, x(NINE, trump): -1}, 0)
    for s in range(4):
        for r in range(6):
            at_most({f"x0{r}{s}": 1, f"x1{r}{s}": 1}, 2)
    matrix = np.zeros((len(rows), len(upper)))
    for i, coefs in enumerate(rows):
        for k, c in coefs.items():
            matrix[i, names[k]] += c
    res = milp(
        -np.array(value, dtype=float),
        constraints=LinearConstraint(matrix, lo, hi),
        integrality=np.ones(len(upper)),
        bounds=Bounds(np.zeros(len(upper)), np.array(upper, dtype=float)),
    )
    assert res.success, res.message
    return round(float(-res.fun))
