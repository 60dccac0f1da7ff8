"""The double-dummy search on plain numbers: alpha-beta over the card points still to win.

A position is each seat's cards (sorted card numbers, ``suit * 8 + rank``, the
stronger rank first), the trick in progress as ``(seat, card)`` pairs and the
seat to play.  Two sides: side 0 (the side measured, which maximises) and side 1
(which minimises).  The value of a position is the card points side 0 wins
from it on: the cards of the trick in progress and of every trick after it,
and the last trick's bonus.

The legal cards are the engine's own (:func:`binocle.rules.tricks.allowed_slice`,
the same trick rule), so the search plays exactly the engine's game.  What
makes it fast:

- a transposition table at trick boundaries, keyed by what every seat still
  holds (two 32-bit masks a seat: a card held once, held twice) and the leader,
  storing a lower and an upper bound and the best card;
- equivalent cards merged: two cards of one suit held by the seat to play,
  worth the same points, with no card between them in rank (nor a copy of
  either) held by another seat or lying in the trick, win and lose the same
  tricks, so only one is searched;
- bounds from the points left: the value lies between 0 and what is left;
- move ordering: the table's best card first, then high cards to lead, the
  cheapest winning card or the most valuable card to a partner's trick when
  following.

A node budget (and an optional deadline) stops the search with :class:`Stop`.
"""

from __future__ import annotations

import time
from typing import Final

from binocle.rules.tricks import Obligation, allowed_slice

__all__ = ["Search", "Stop"]

_INF: Final = 1 << 20


class Stop(Exception):
    """The node budget or the deadline ran out."""


class Search:
    """One search over one deal: the rules, the position (changed in place while
    searching, restored after), the transposition table and the counters."""

    def __init__(
        self,
        hands: list[tuple[int, ...]],
        side: list[int],
        points: tuple[int, ...],
        bonus: int,
        trump: int,
        rule: Obligation,
        node_limit: int,
        deadline: float,
    ) -> None:
        self.seats: int = len(hands)
        self.hands: list[tuple[int, ...]] = list(hands)
        self.side: list[int] = list(side)
        self.points: tuple[int, ...] = points
        self.bonus: int = bonus
        self.trump: int = trump
        self.trump_or_none: int | None = None if trump < 0 else trump
        self.rule: Obligation = rule
        self.node_limit: int = node_limit
        self.deadline: float = deadline
        self.nodes: int = 0
        self.probes: int = 0
        self.hits: int = 0
        self.table: dict[int, tuple[int, int, int]] = {}
        self.once: list[int] = [0] * self.seats
        self.twice: list[int] = [0] * self.seats
        self.left: int = 0  # card points in the hands
        self.cards_left: int = 0
        self.reset(hands, node_limit, deadline)

    def reset(self, hands: list[tuple[int, ...]], node_limit: int, deadline: float) -> None:
        """Search another position of the same deal (the same sides and rules): the
        table stays, as its entries hold for any position; the counters restart."""
        self.hands = list(hands)
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.probes = 0
        self.hits = 0
        self.left = 0
        self.cards_left = 0
        for p in range(self.seats):
            self.once[p] = 0
            self.twice[p] = 0
            for c in hands[p]:
                self._add_mask(p, c)
                self.left += self.points[c]
                self.cards_left += 1

    def _add_mask(self, p: int, c: int) -> None:
        bit = 1 << c
        if self.once[p] & bit:
            self.twice[p] |= bit
        else:
            self.once[p] |= bit

    def _remove(self, p: int, c: int) -> int:
        """Take card ``c`` from seat ``p``; its index in the hand (to put it back)."""
        hand = self.hands[p]
        i = 0
        while hand[i] != c:
            i += 1
        self.hands[p] = hand[:i] + hand[i + 1 :]
        bit = 1 << c
        if self.twice[p] & bit:
            self.twice[p] ^= bit
        else:
            self.once[p] ^= bit
        self.left -= self.points[c]
        self.cards_left -= 1
        return i

    def _restore(self, p: int, c: int, i: int) -> None:
        hand = self.hands[p]
        self.hands[p] = hand[:i] + (c,) + hand[i:]
        self._add_mask(p, c)
        self.left += self.points[c]
        self.cards_left += 1

    def key(self, leader: int) -> int:
        """The transposition table's key: every seat's masks and the leader."""
        k = leader
        for p in range(self.seats):
            k = (k << 64) | (self.twice[p] << 32) | self.once[p]
        return k

    def moves(self, trick: tuple[tuple[int, int], ...], p: int, first: int) -> list[int]:
        """The cards worth searching for seat ``p``: the legal cards, copies and
        equivalent cards merged, in the order to try them (``first`` before the
        others when it is among them)."""
        allowed = allowed_slice(self.hands[p], trick, self.trump_or_none, self.rule)
        outside = 0
        for q in range(self.seats):
            if q != p:
                outside |= self.once[q]
        for pair in trick:
            outside |= 1 << pair[1]
        pts = self.points
        out: list[int] = []
        prev = -1
        for c in allowed:
            if c == prev:
                continue
            if (
                prev >= 0
                and c >> 3 == prev >> 3
                and pts[c] == pts[prev]
                and outside & ((2 << c) - (1 << prev)) == 0
            ):
                prev = c  # equivalent to the card before it: not searched again
                continue
            prev = c
            out.append(c)
        if len(out) < 2:
            return out
        # Ordering: a key per card, the smallest first.
        keys: list[int] = []
        if not trick:
            for c in out:
                keys.append((c & 7) * 64 - pts[c])
        else:
            t = self.trump
            best = trick[0][1]
            wseat = trick[0][0]
            for pair in trick[1:]:
                x = pair[1]
                if (x >> 3 == best >> 3 and x < best) or (x >> 3 == t and best >> 3 != t):
                    best = x
                    wseat = pair[0]
            mine = self.side[wseat] == self.side[p]
            for c in out:
                wins = (c < best) if c >> 3 == best >> 3 else (c >> 3 == t)
                if mine:
                    keys.append(-pts[c] * 64 + (c & 7) + (32 if wins else 0))
                elif wins:
                    keys.append(-4096 - (c & 7) * 64 - pts[c])
                else:
                    keys.append(pts[c] * 64 - (c & 7))
        order = sorted(range(len(out)), key=keys.__getitem__)
        ordered = [out[i] for i in order]
        if first >= 0 and first in ordered and ordered[0] != first:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Stop
        if self.deadline > 0.0 and (self.nodes & 1023) == 0 and time.perf_counter() > self.deadline:
            raise Stop

    def value(self, trick: tuple[tuple[int, int], ...], p: int, alpha: int, beta: int) -> int:
        """The points side 0 wins from here (fail-soft alpha-beta): exact when it
        lies strictly inside ``(alpha, beta)``, else a bound on the side it fell."""
        self._tick()
        key = 0
        first = -1
        a0 = alpha
        b0 = beta
        if not trick:
            if self.cards_left == 0:
                return 0
            if len(self.hands[p]) == 1:
                return self._last_trick(p)
            most = self.left + self.bonus
            if most <= alpha:
                return most
            if beta <= 0:
                return 0
            key = self.key(p)
            self.probes += 1
            entry = self.table.get(key)
            if entry is not None:
                self.hits += 1
                lo = entry[0]
                hi = entry[1]
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                first = entry[2]
            a0 = alpha
            b0 = beta
        maximise = self.side[p] == 0
        best = -_INF if maximise else _INF
        best_card = -1
        n = len(trick) + 1
        seats = self.seats
        for c in self.moves(trick, p, first):
            i = self._remove(p, c)
            if n == seats:
                # The trick is complete: its winner leads the next.
                w, gained = self._complete(trick, p, c)
                v = gained + self.value((), w, alpha - gained, beta - gained)
            else:
                v = self.value((*trick, (p, c)), (p + 1) % seats, alpha, beta)
            self._restore(p, c, i)
            if maximise:
                if v > best:
                    best = v
                    best_card = c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best = v
                    best_card = c
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if not trick:
            entry = self.table.get(key)
            lo = 0
            hi = _INF
            if entry is not None:
                lo = entry[0]
                hi = entry[1]
            if best <= a0:
                if best < hi:
                    hi = best
            elif best >= b0:
                if best > lo:
                    lo = best
            else:
                lo = best
                hi = best
            self.table[key] = (lo, hi, best_card)
        return best

    def _last_trick(self, p: int) -> int:
        """The last trick, every seat holding one card (forced): its points and bonus
        to side 0 if a seat of side 0 wins it."""
        seats = self.seats
        w = p
        b = self.hands[p][0]
        t = self.trump
        total = self.bonus + self.points[b]
        for k in range(1, seats):
            q = (p + k) % seats
            x = self.hands[q][0]
            total += self.points[x]
            if x >> 3 == b >> 3:
                if x < b:
                    b = x
                    w = q
            elif x >> 3 == t:
                b = x
                w = q
        return total if self.side[w] == 0 else 0

    def _complete(self, trick: tuple[tuple[int, int], ...], p: int, c: int) -> tuple[int, int]:
        """Seat ``p`` plays ``c``, the last card of ``trick``: the trick's winner and
        the points it gains the searching side (its counters, and the last trick's
        bonus when no card is left; 0 when the other side wins it)."""
        w = trick[0][0]
        b = trick[0][1]
        gained = self.points[b]
        t = self.trump
        for pair in (*trick[1:], (p, c)):
            x = pair[1]
            gained += self.points[x]
            if x >> 3 == b >> 3:
                if x < b:
                    b = x
                    w = pair[0]
            elif x >> 3 == t:
                b = x
                w = pair[0]
        if self.cards_left == 0:
            gained += self.bonus
        if self.side[w] != 0:
            gained = 0
        return w, gained

    def card_value(
        self, trick: tuple[tuple[int, int], ...], p: int, c: int, alpha: int, beta: int
    ) -> int:
        """The value of the position after seat ``p`` plays ``c`` to ``trick``
        (searched with the window ``alpha``, ``beta``)."""
        i = self._remove(p, c)
        try:
            if len(trick) + 1 == self.seats:
                w, gained = self._complete(trick, p, c)
                return gained + self.value((), w, alpha - gained, beta - gained)
            return self.value((*trick, (p, c)), (p + 1) % self.seats, alpha, beta)
        finally:
            self._restore(p, c, i)

    def mtdf(self, trick: tuple[tuple[int, int], ...], p: int, guess: int, lo: int, hi: int) -> int:
        """The exact value by null-window searches converging on it (MTD(f)), from
        ``guess``, knowing it lies in ``lo..hi``."""
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.value(trick, p, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g
