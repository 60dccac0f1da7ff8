"""The double-dummy search on plain numbers: alpha-beta over the card points still to win.

A position is what each seat still holds (card numbers, ``suit * 8 + rank``,
the stronger rank first), the trick in progress as ``(seat, card)`` pairs and
the seat to play.  Two sides: side 0 (the side measured, which maximises) and
side 1 (which minimises).  The value of a position is the card points side 0
wins from it on: the cards of the trick in progress and of every trick after
it, and the last trick's bonus.

Inside, a seat's cards are two bit masks (bit ``c``: card ``c`` held once,
held twice) and the trick in progress a few numbers (the suit led, the card
winning it and its seat, its points, the mask of its cards).  The legal cards
are read off the masks by the engine's trick rules (those of
:func:`binocle.rules.tricks.allowed_slice`, which the tests check them
against), so the search plays exactly the engine's game.  What makes it fast:

- a transposition table at trick boundaries, storing a lower and an upper
  bound and the best card, keyed by the leader and, for each suit, its groups
  of ranks still in play: a rank whose cards are all gone no longer separates
  the ranks around it, and a run of ranks worth the same points that one seat
  alone holds is one group (its cards win and lose the same tricks, whichever
  ranks they are), so positions that differ only in such ways share an entry;
- equivalent cards merged: two cards of one suit held by the seat to play,
  worth the same points, with no card between them in rank (nor a copy of
  either) held by another seat or lying in the trick, win and lose the same
  tricks, so only one is searched;
- bounds from what is left, at each trick boundary: the value lies between 0
  and the points left; a side's trumps stronger than every trump of the other
  side win the tricks they fall in, so their points are that side's whatever
  is played; the seat on lead wins its sure tricks (its trumps that no other
  seat can beat, then, in each other suit, its cards no other seat can beat,
  as long as every other seat that may still hold a trump must follow that
  suit), and all that is left when they are all its cards;
- move ordering: the table's best card first, then high cards to lead, the
  cheapest winning card or the most valuable card to a partner's trick when
  following.

A node budget (and an optional deadline) stops the search with :class:`Stop`.
"""

from __future__ import annotations

import time
from typing import Final

from binocle.rules.tricks import (
    _OBLIGATION_EASIER,
    _OBLIGATION_FOLLOW_WIN_TRUMP,
    _OBLIGATION_FREE,
    Obligation,
)

__all__ = ["Search", "Stop", "legal_mask"]

_INF: Final = 1 << 20
#: The bits a seat's count of a key group takes (a group: at most 8 ranks, 2 copies).
_COUNT_BITS: Final = 5


def _pop_table() -> list[int]:
    """The number of bits of each byte."""
    return [bin(b).count("1") for b in range(256)]


_POP: Final[list[int]] = _pop_table()

#: Per points table: the points of each suit's rank bytes (at ``suit * 256 + byte``),
#: each card's points as an id (the distinct points numbered) and that id's bits.
_DEALS: dict[tuple[int, ...], tuple[list[int], list[int], int]] = {}


def _deal_tables(points: tuple[int, ...]) -> tuple[list[int], list[int], int]:
    found = _DEALS.get(points)
    if found is None:
        suit_points = [0] * 1024
        for suit in range(4):
            for b in range(256):
                total = 0
                for i in range(8):
                    if b >> i & 1:
                        total += points[suit * 8 + i]
                suit_points[suit * 256 + b] = total
        values = sorted(set(points))
        worth = [values.index(x) for x in points]
        found = (suit_points, worth, max(1, (len(values) - 1).bit_length()))
        _DEALS[points] = found
    return found


def legal_mask(hand: int, n: int, led: int, best: int, trump: int, rule: Obligation) -> int:
    """The cards of ``hand`` (a mask) that may be played to a trick of ``n`` cards
    whose suit led is ``led`` and whose winning card so far is ``best``: the rules of
    :func:`binocle.rules.tricks.allowed_slice` on masks."""
    if n == 0 or rule is _OBLIGATION_FREE:
        return hand
    follow = hand & (255 << (led * 8))
    if follow:
        # Follow suit, beating the best card if able (EASIER: only when trump was led).
        if best >> 3 == led and (rule is not _OBLIGATION_EASIER or led == trump):
            above = follow & ((1 << best) - 1)
            if above:
                return above
        return follow
    if trump >= 0:
        trumps = hand & (255 << (trump * 8))
        if trumps:
            # Void: trump, overtrumping if able; else under-trump, or (FOLLOW_WIN_TRUMP)
            # any card; EASIER: any trump.
            if best >> 3 == trump and rule is not _OBLIGATION_EASIER:
                above = trumps & ((1 << best) - 1)
                if above:
                    return above
                if rule is _OBLIGATION_FOLLOW_WIN_TRUMP:
                    return hand
            return trumps
    return hand


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
        self.side: list[int] = list(side)
        self.points: tuple[int, ...] = points
        self.bonus: int = bonus
        self.trump: int = trump
        self.rule: Obligation = rule
        self.free: bool = rule is _OBLIGATION_FREE
        tables = _deal_tables(points)
        self.suit_points: list[int] = tables[0]
        self.worth: list[int] = tables[1]
        self.worth_bits: int = tables[2]
        self.node_limit: int = node_limit
        self.deadline: float = deadline
        self.nodes: int = 0
        self.probes: int = 0
        self.hits: int = 0
        self.table: dict[int, tuple[int, int, int]] = {}
        # Each suit's part of a key by what the seats hold of it (see key).
        self.parts: dict[int, int] = {}
        self.once: list[int] = [0] * self.seats
        self.twice: list[int] = [0] * self.seats
        self.count: list[int] = [0] * self.seats
        self.left: int = 0  # card points in the hands
        self.cards_left: int = 0
        self.reset(hands, node_limit, deadline)

    def reset(self, hands: list[tuple[int, ...]], node_limit: int, deadline: float) -> None:
        """Search another position of the same deal (the same sides and rules): the
        table stays, as its entries hold for any position; the counters restart."""
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
            self.count[p] = len(hands[p])
            for c in hands[p]:
                bit = 1 << c
                if self.once[p] & bit:
                    self.twice[p] |= bit
                else:
                    self.once[p] |= bit
                self.left += self.points[c]
                self.cards_left += 1

    def key(self, leader: int) -> int:
        """The transposition table's key: the leader, then for each suit its groups of
        ranks in play, strongest first, each group's points and how many cards of it
        each seat holds.  A group is one rank, or a run of ranks (with only ranks no
        longer in play between them) worth the same points and held by one seat alone
        (no other seat holds a card of them): its cards win and lose the same tricks,
        so which ranks they are does not change the value."""
        once = self.once
        twice = self.twice
        seats = self.seats
        parts = self.parts
        k = leader
        for suit in range(4):
            sh = suit * 8
            raw = suit
            for p in range(seats):
                raw = (((raw << 8) | ((once[p] >> sh) & 255)) << 8) | ((twice[p] >> sh) & 255)
            part = parts.get(raw)
            if part is None:
                part = self._suit_part(suit)
                parts[raw] = part
            k = (k << (part & 255)) | (part >> 8)
        return k

    def _suit_part(self, suit: int) -> int:
        """One suit's part of the key (its groups, see :meth:`key`), shifted up by 8
        bits above its length in bits."""
        once = self.once
        twice = self.twice
        seats = self.seats
        worth = self.worth
        rest = 0
        for p in range(seats):
            rest |= once[p]
        group_bits = self.worth_bits + _COUNT_BITS * seats
        sh = suit * 8
        r = (rest >> sh) & 255
        groups = 0
        part = 0
        held = -1  # the seat holding the group being built alone, or -1
        kind = -1  # its points' id
        while r:
            bit = r & -r
            r ^= bit
            b = bit << sh
            w = worth[sh + _POP[bit - 1]]
            alone = -1
            code = 0
            for p in range(seats):
                n = (1 if once[p] & b else 0) + (1 if twice[p] & b else 0)
                if n:
                    alone = p if alone == -1 else -2
                code = (code << _COUNT_BITS) | n
            if alone >= 0 and alone == held and w == kind:
                part += code  # the same seat's run: its cards join the group
                continue
            held = alone
            kind = w
            part = (part << group_bits) | (w << (_COUNT_BITS * seats)) | code
            groups += 1
        return (((part << 4) | groups) << 8) | (groups * group_bits + 4)

    def _rest(self, suit: int) -> int:
        """The ranks of ``suit`` still in play (a byte)."""
        rest = 0
        for p in range(self.seats):
            rest |= self.once[p]
        return (rest >> (suit * 8)) & 255

    def _squeezed(self, c: int) -> int:
        """Card ``c`` numbered by its rank among the ranks still in play (the best card
        a table entry keeps: a hint for positions that share the entry)."""
        r = self._rest(c >> 3)
        return (c & ~7) | _POP[r & ((1 << (c & 7)) - 1)]

    def _unsqueezed(self, c: int) -> int:
        """The card of this position that the table's card ``c`` names."""
        r = self._rest(c >> 3)
        j = c & 7
        while r:
            bit = r & -r
            if j == 0:
                return (c & ~7) | _POP[bit - 1]
            r ^= bit
            j -= 1
        return -1

    def bounds(self, p: int) -> tuple[int, int]:
        """Bounds on the value at a trick boundary, seat ``p`` to lead: the points of
        the sure trumps of each side (a trump stronger than every trump of the other
        side wins the trick it falls in), and the leader's sure tricks."""
        seats = self.seats
        t = self.trump
        total = self.left + self.bonus
        once = self.once
        twice = self.twice
        pts = self.suit_points
        lo = 0
        hi = total
        others = 0
        for q in range(seats):
            if q != p:
                others |= once[q]
        # The sure trumps of each side.
        if t >= 0:
            sh = t * 8
            o0 = 0
            o1 = 0
            for q in range(seats):
                if self.side[q] == 0:
                    o0 |= once[q]
                else:
                    o1 |= once[q]
            a0 = (o0 >> sh) & 255
            a1 = (o1 >> sh) & 255
            m0 = a0 & ((a1 & -a1) - 1) if a1 else a0
            m1 = a1 & ((a0 & -a0) - 1) if a0 else a1
            if m0 or m1:
                sure0 = 0
                sure1 = 0
                base = t * 256
                for q in range(seats):
                    x = (once[q] >> sh) & 255
                    y = (twice[q] >> sh) & 255
                    if self.side[q] == 0:
                        sure0 += pts[base + (x & m0)] + pts[base + (y & m0)]
                    else:
                        sure1 += pts[base + (x & m1)] + pts[base + (y & m1)]
                lo = sure0
                hi = total - sure1
        # The leader's sure tricks: its trumps no other seat beats, then in each other
        # suit its cards no other seat beats while every other seat that may still hold
        # a trump has a card of that suit to follow with.
        n = self.count[p]
        mine = once[p]
        mine2 = twice[p]
        tricks = 0
        won = 0
        if t >= 0:
            sh = t * 8
            lt = (mine >> sh) & 255
            if lt:
                ot = (others >> sh) & 255
                m = lt & (((ot & -ot) << 1) - 1) if ot else lt
                m2 = (mine2 >> sh) & m
                tricks = _POP[m] + _POP[m2]
                won = pts[t * 256 + m] + pts[t * 256 + m2]
        drawn = tricks  # trump leads: a seat with trumps follows with one each time
        if tricks < n:
            for suit in range(4):
                if suit == t:
                    continue
                ss = suit * 8
                ls = (mine >> ss) & 255
                if not ls:
                    continue
                os = (others >> ss) & 255
                m = ls & (((os & -os) << 1) - 1) if os else ls
                if not m:
                    continue
                m2 = (mine2 >> ss) & m
                w = _POP[m] + _POP[m2]
                limit = w
                if t >= 0:
                    sh = t * 8
                    for q in range(seats):
                        if q == p:
                            continue
                        trumps = _POP[(once[q] >> sh) & 255] + _POP[(twice[q] >> sh) & 255]
                        if self.free:
                            if trumps:
                                limit = 0  # any card may be played: it may trump
                        elif trumps > drawn:
                            length = _POP[(once[q] >> ss) & 255] + _POP[(twice[q] >> ss) & 255]
                            if length < limit:
                                limit = length
                if limit <= 0:
                    continue
                tricks += limit
                base = suit * 256
                if limit == w:
                    won += pts[base + m] + pts[base + m2]
                else:
                    # The strongest ``limit`` of those cards (a rank held twice: two).
                    while limit > 0:
                        bit = m & -m
                        m ^= bit
                        take = 2 if m2 & bit else 1
                        if take > limit:
                            take = limit
                        won += take * pts[base + bit]
                        limit -= take
        if tricks >= n:
            won = total  # every trick left
        if self.side[p] == 0:
            if won > lo:
                lo = won
        elif total - won < hi:
            hi = total - won
        return lo, hi

    def _read(self, trick: tuple[tuple[int, int], ...]) -> tuple[int, int, int, int, int]:
        """The trick in progress as numbers: the suit led, the winning card and its
        seat, the points and the mask of its cards."""
        if not trick:
            return 0, 0, 0, 0, 0
        best = trick[0][1]
        w = trick[0][0]
        led = best >> 3
        total = self.points[best]
        mask = 1 << best
        t = self.trump
        for k in range(1, len(trick)):
            x = trick[k][1]
            total += self.points[x]
            mask |= 1 << x
            if (x >> 3 == best >> 3 and x < best) or (x >> 3 == t and best >> 3 != t):
                best = x
                w = trick[k][0]
        return led, best, w, total, mask

    def moves(self, trick: tuple[tuple[int, int], ...], p: int, first: int) -> list[int]:
        """The cards worth searching for seat ``p``: the legal cards, copies and
        equivalent cards merged, in the order to try them (``first`` before the
        others when it is among them)."""
        led, best, w, _, mask = self._read(trick)
        return self._moves(p, len(trick), led, best, w, mask, first)

    def _moves(
        self, p: int, n: int, led: int, best: int, w: int, tmask: int, first: int
    ) -> list[int]:
        allowed = legal_mask(self.once[p], n, led, best, self.trump, self.rule)
        outside = tmask
        for q in range(self.seats):
            if q != p:
                outside |= self.once[q]
        pts = self.points
        out: list[int] = []
        prev = -1
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            c = bit.bit_length() - 1
            if (
                prev >= 0
                and c >> 3 == prev >> 3
                and pts[c] == pts[prev]
                and outside & ((bit << 1) - (1 << prev)) == 0
            ):
                prev = c  # equivalent to the card before it: not searched again
                continue
            prev = c
            out.append(c)
        if len(out) < 2:
            return out
        # Ordering: a key per card, the smallest first (ties: the card's number), the
        # card ``first`` before all.
        keys: list[int] = []
        if n == 0:
            for c in out:
                k = -_INF if c == first else (c & 7) * 64 - pts[c]
                keys.append((k << 5) | c)
        else:
            t = self.trump
            mine = self.side[w] == self.side[p]
            for c in out:
                wins = (c < best) if c >> 3 == best >> 3 else (c >> 3 == t)
                if c == first:
                    k = -_INF
                elif mine:
                    k = -pts[c] * 64 + (c & 7) + (32 if wins else 0)
                elif wins:
                    k = -4096 - (c & 7) * 64 - pts[c]
                else:
                    k = pts[c] * 64 - (c & 7)
                keys.append((k << 5) | c)
        keys.sort()
        for i in range(len(keys)):
            keys[i] &= 31
        return keys

    def value(self, trick: tuple[tuple[int, int], ...], p: int, alpha: int, beta: int) -> int:
        """The points side 0 wins from here (fail-soft alpha-beta): exact when it
        lies strictly inside ``(alpha, beta)``, else a bound on the side it fell."""
        led, best, w, total, mask = self._read(trick)
        return self._value(p, len(trick), led, best, w, total, mask, alpha, beta)

    def card_value(
        self, trick: tuple[tuple[int, int], ...], p: int, c: int, alpha: int, beta: int
    ) -> int:
        """The value of the position after seat ``p`` plays ``c`` to ``trick``
        (searched with the window ``alpha``, ``beta``)."""
        led, best, w, total, mask = self._read(trick)
        return self._play(p, c, len(trick), led, best, w, total, mask, alpha, beta)

    def _play(
        self,
        p: int,
        c: int,
        n: int,
        led: int,
        best: int,
        w: int,
        total: int,
        tmask: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Seat ``p`` plays ``c`` as card ``n`` of the trick described by the rest:
        the value after it (the card taken back before returning)."""
        bit = 1 << c
        twice = self.twice[p] & bit
        if twice:
            self.twice[p] ^= bit
        else:
            self.once[p] ^= bit
        self.count[p] -= 1
        worth = self.points[c]
        self.left -= worth
        self.cards_left -= 1
        if n == 0:
            led = c >> 3
            best = c
            w = p
        elif (c >> 3 == best >> 3 and c < best) or (
            c >> 3 == self.trump and best >> 3 != self.trump
        ):
            best = c
            w = p
        if n + 1 == self.seats:
            # The trick is complete: its winner leads the next.
            gained = total + worth
            if self.cards_left == 0:
                gained += self.bonus
            if self.side[w] != 0:
                gained = 0
            v = gained + self._value(w, 0, 0, 0, 0, 0, 0, alpha - gained, beta - gained)
        else:
            v = self._value(
                (p + 1) % self.seats, n + 1, led, best, w, total + worth, tmask | bit, alpha, beta
            )
        # Taken back (a search stopped by its budget leaves the position as it was then:
        # it is set again before any other search).
        if twice:
            self.twice[p] |= bit
        else:
            self.once[p] |= bit
        self.count[p] += 1
        self.left += worth
        self.cards_left += 1
        return v

    def _value(
        self,
        p: int,
        n: int,
        led: int,
        best: int,
        w: int,
        total: int,
        tmask: int,
        alpha: int,
        beta: int,
    ) -> int:
        """:meth:`value` of the trick described by numbers (``n`` cards played)."""
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Stop
        if self.deadline > 0.0 and (self.nodes & 1023) == 0 and time.perf_counter() > self.deadline:
            raise Stop
        key = 0
        first = -1
        a0 = alpha
        b0 = beta
        lo = 0
        hi = _INF
        if n == 0:
            if self.cards_left == 0:
                return 0
            if self.count[p] == 1:
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
                if entry[2] >= 0:
                    first = self._unsqueezed(entry[2])
            else:
                lo, hi = self.bounds(p)
            if lo >= beta or lo == hi:
                if entry is None:
                    self.table[key] = (lo, hi, -1)
                return lo
            if hi <= alpha:
                if entry is None:
                    self.table[key] = (lo, hi, -1)
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            a0 = alpha
            b0 = beta
        maximise = self.side[p] == 0
        best_value = -_INF if maximise else _INF
        best_card = -1
        for c in self._moves(p, n, led, best, w, tmask, first):
            v = self._play(p, c, n, led, best, w, total, tmask, alpha, beta)
            if maximise:
                if v > best_value:
                    best_value = v
                    best_card = c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best_value:
                best_value = v
                best_card = c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if n == 0:
            if best_value <= a0:
                if best_value < hi:
                    hi = best_value
            elif best_value >= b0:
                if best_value > lo:
                    lo = best_value
            else:
                lo = best_value
                hi = best_value
            self.table[key] = (lo, hi, self._squeezed(best_card) if best_card >= 0 else -1)
        return best_value

    def _last_trick(self, p: int) -> int:
        """The last trick, every seat holding one card (forced): its points and bonus
        to side 0 if a seat of side 0 wins it."""
        seats = self.seats
        w = p
        b = (self.once[p] & -self.once[p]).bit_length() - 1
        t = self.trump
        total = self.bonus + self.points[b]
        for k in range(1, seats):
            q = (p + k) % seats
            x = (self.once[q] & -self.once[q]).bit_length() - 1
            total += self.points[x]
            if x >> 3 == b >> 3:
                if x < b:
                    b = x
                    w = q
            elif x >> 3 == t:
                b = x
                w = q
        return total if self.side[w] == 0 else 0
