"""Proposals: placements of one hand's hidden cards, drawn uniformly and mended to fit melds."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from binocle.actions import GIVE, Action, discard
from binocle.cards import Card, Suit, pack
from binocle.core import GameState, View
from binocle.determinize._ledger import _Ledger
from binocle.errors import InvalidArgumentError

#: Exchanges tried to mend one proposal.
REPAIR_STEPS = 2000


class _Model(_Ledger):
    """Where the hidden cards of one hand may be (the ledger), and placements of them
    drawn uniformly among those it allows."""

    def __init__(
        self,
        view: View,
        s: GameState,
        entries: list[tuple[Action, int | None]],
        index: int,
        current: bool,
        up_dix: bool = False,
        final: bool = False,
        spectator: bool = False,
    ) -> None:
        super().__init__(view, s, entries, index, current, up_dix, final, spectator)
        self._finish(view.profile.players)

    def _finish(self, n_seats: int) -> None:
        """The pool of hidden cards, the locations and what each card may be."""
        pool = Counter(pack(self.size))
        for c in self.known:
            if c is not None:
                pool[c] -= 1
        for c in self.assigned.values():
            pool[c] -= 1
        seats = [j for j in range(n_seats) if j != self.observer]
        for j in seats:
            pool.update(self.kh[j])
        if any(v < 0 for v in pool.values()):
            self.bad = True
        # Locations: each seat's hidden hand, its face-down discards, the piles.
        locs: list[tuple[str, int]] = []
        caps: list[int] = []
        hand_loc: dict[int, int] = {}
        disc_loc: dict[int, int] = {}
        for j in seats:
            n = sum(self.kh[j].values()) + len(self.queue[j]) - len(self.hidden[j])
            hand_loc[j] = len(locs)
            locs.append(("hand", j))
            caps.append(n)
            if self.hidden[j]:
                disc_loc[j] = len(locs)
                locs.append(("discards", j))
                caps.append(len(self.hidden[j]))
        pile_loc: dict[str, int] = {}
        for name, qs in self.piles.items():
            pile_loc[name] = len(locs)
            locs.append(("pile", 0))
            caps.append(len(qs))
        if any(c < 0 for c in caps) or sum(caps) != sum(max(v, 0) for v in pool.values()):
            self.bad = True
        everywhere = frozenset(range(len(locs)))
        tokens: list[tuple[Card, frozenset[int]]] = []
        left = Counter({c: v for c, v in pool.items() if v > 0})
        for j in seats:
            home = {hand_loc[j]} | ({disc_loc[j]} if j in disc_loc else set())
            for c in set(self.kh[j]) | set(self.required[j]):
                req = max(self.required[j][c], 0)
                kh = max(self.kh[j][c], 0)
                for _ in range(min(req, left[c])):
                    tokens.append((c, frozenset({hand_loc[j]})))
                    left[c] -= 1
                for _ in range(min(max(kh - req, 0), left[c])):
                    tokens.append((c, frozenset(home)))
                    left[c] -= 1
                if left[c] < 0 or req + max(kh - req, 0) > pool[c]:
                    self.bad = True
        for c, v in left.items():
            tokens.extend((c, everywhere) for _ in range(max(v, 0)))
        classes: dict[frozenset[int], list[Card]] = {}
        for c, allowed in tokens:
            banned = {hand_loc[j] for j in seats if c in self.forbid[j]}
            classes.setdefault(allowed - banned, []).append(c)
        # The most constrained classes first: the last one is then forced.
        self.classes = sorted(classes.items(), key=lambda kv: (len(kv[0]), len(kv[1])))
        self.caps = tuple(caps)
        self.locs = locs
        self.hand_loc = hand_loc
        self.disc_loc = disc_loc
        self.pile_loc = pile_loc
        self.seats = seats
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._option_cache: dict[
            tuple[int, tuple[int, ...]],
            tuple[list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]], int],
        ] = {}
        if not self.bad and self._count(0, self.caps) == 0:
            self.bad = True

    def _count(self, i: int, caps: tuple[int, ...]) -> int:
        """How many placements of the cards of classes ``i``… fill ``caps`` exactly."""
        if i == len(self.classes):
            return 1 if not any(caps) else 0
        key = (i, caps)
        got = self._ways.get(key)
        if got is not None:
            return got
        allowed, cards = self.classes[i]
        total = 0
        for split, weight in _splits(len(cards), sorted(allowed), caps):
            rest = list(caps)
            for loc, x in split:
                rest[loc] -= x
            sub = self._count(i + 1, tuple(rest))
            if sub:
                total += weight * sub
        self._ways[key] = total
        return total

    def _options(
        self, i: int, caps: tuple[int, ...]
    ) -> tuple[list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]], int]:
        """The ways to place the cards of class ``i`` within ``caps``, each with its
        weight (the placements of the later classes it leaves) and what it leaves;
        and their total weight.  Kept: every proposal of the hand asks again."""
        key = (i, caps)
        got = self._option_cache.get(key)
        if got is None:
            allowed, cards = self.classes[i]
            options = []
            for split, weight in _splits(len(cards), sorted(allowed), caps):
                rest = list(caps)
                for loc, x in split:
                    rest[loc] -= x
                w = weight * self._count(i + 1, tuple(rest))
                if w:
                    options.append((w, split, tuple(rest)))
            got = (options, sum(w for w, _, _ in options))
            self._option_cache[key] = got
        return got

    def propose(
        self, rng: random.Random, repair: bool = False
    ) -> tuple[tuple[Card, ...], list[Action]] | None:
        """A deck and the hand's actions (hidden parts filled in), or None.

        With ``repair``, a placement whose melds do not match those shown is
        mended by exchanges of hidden cards before it is used."""
        if self.bad:
            raise InvalidArgumentError(
                "the view is not consistent with any deal (its cards, voids or melds"
                " contradict each other): is it one that observe() gave?"
            )
        caps = self.caps
        placed: list[list[Card]] = [[] for _ in caps]
        allowed_of: list[list[frozenset[int]]] = [[] for _ in caps]
        for i, (allowed, cards) in enumerate(self.classes):
            options, total = self._options(i, caps)
            pick = rng.randrange(total)
            chosen = options[-1]
            for option in options:
                if pick < option[0]:
                    chosen = option
                    break
                pick -= option[0]
            _, split, caps = chosen
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for loc, x in split:
                placed[loc].extend(shuffled[at : at + x])
                allowed_of[loc].extend([allowed] * x)
                at += x
        if self.meld_targets and repair and not self._repair(placed, allowed_of, rng):
            return None
        deck: list[Card | None] = list(self.known)
        for q, c in self.assigned.items():
            deck[q] = c
        actions = [a for a, _ in self.entries]
        for j in self.seats:
            have = Counter(placed[self.hand_loc[j]])
            gone = placed[self.disc_loc[j]] if j in self.disc_loc else []
            have.update(gone)
            have.subtract(self.kh[j])
            if any(v < 0 for v in have.values()):
                return None
            if not self._fill(deck, list(self.queue[j]), list(have.elements()), rng):
                return None
            order = list(gone)
            rng.shuffle(order)
            for idx, c in zip(self.hidden[j], order, strict=True):
                actions[idx] = discard(c)
        for name, qs in self.piles.items():
            if not self._fill(deck, qs, placed[self.pile_loc[name]], rng):
                return None
        if any(c is None for c in deck):
            return None
        if self.hidden_gives:
            # Passed between two hidden partners: the hands placed are those after the
            # passing, dealt as they are; the first partner passes cards of his deal and
            # the other passes the same cards back, a history that leaves them so.
            first = self.hidden_gives[0][1]
            mine = [idx for idx, actor in self.hidden_gives if actor == first]
            back = [idx for idx, actor in self.hidden_gives if actor != first]
            dealt = [c for c in (deck[q] for q in self.positions.get(first, ())) if c is not None]
            sent = rng.sample(dealt, len(mine))
            for idx, c in zip([*mine, *back], [*sent, *sent[: len(back)]], strict=True):
                actions[idx] = GIVE[c]
        return tuple(deck), actions  # type: ignore[arg-type]

    def _meld_misses(self, placed: list[list[Card]]) -> int:
        """How many seats' hands would not meld exactly what they showed."""
        trump = self.trump
        assert trump is not None
        misses = 0
        for seat, shown in self.meld_targets.items():
            if isinstance(shown, tuple):  # a side's meld: its seats' melds together
                side, points = shown
                total = 0
                for j in side:
                    hand = tuple(sorted(placed[self.hand_loc[j]] + self.played_by[j]))
                    total += self.meld_of(hand, Suit(trump)).total
                misses += total != points
                continue
            hand = tuple(sorted(placed[self.hand_loc[seat]] + self.played_by[seat]))
            got = self.meld_of(hand, Suit(trump))
            if (got.total if isinstance(shown, int) else got) != shown:
                misses += 1
        return misses

    def _repair(
        self, placed: list[list[Card]], allowed_of: list[list[frozenset[int]]], rng: random.Random
    ) -> bool:
        """Exchange hidden cards between places (each card staying where it may be)
        until every seat's meld is the one it showed; False if that fails."""
        misses = self._meld_misses(placed)
        targets = [
            self.hand_loc[j]
            for seat, shown in self.meld_targets.items()
            for j in (shown[0] if isinstance(shown, tuple) else (seat,))
        ]
        others = [i for i in range(len(placed)) if placed[i]]
        for _ in range(REPAIR_STEPS):
            if misses == 0:
                return True
            a = rng.choice(targets)
            b = rng.choice(others)
            if a == b or not placed[a] or not placed[b]:
                continue
            i = rng.randrange(len(placed[a]))
            k = rng.randrange(len(placed[b]))
            if b not in allowed_of[a][i] or a not in allowed_of[b][k]:
                continue
            placed[a][i], placed[b][k] = placed[b][k], placed[a][i]
            allowed_of[a][i], allowed_of[b][k] = allowed_of[b][k], allowed_of[a][i]
            after = self._meld_misses(placed)
            if after <= misses:
                misses = after
            else:
                placed[a][i], placed[b][k] = placed[b][k], placed[a][i]
                allowed_of[a][i], allowed_of[b][k] = allowed_of[b][k], allowed_of[a][i]
        return misses == 0

    def _fill(
        self, deck: list[Card | None], qs: list[int], cards: list[Card], rng: random.Random
    ) -> bool:
        """Put ``cards`` at the positions ``qs`` in random order (a turn-up of the trump suit)."""
        if len(qs) != len(cards):
            return False
        cards = list(cards)
        rng.shuffle(cards)
        for q in qs:
            if q in self.suit_at:
                k = next((i for i, c in enumerate(cards) if self._fits(q, c)), None)
                if k is None:
                    return False
                deck[q] = cards.pop(k)
        rest = iter(cards)
        for q in qs:
            if q not in self.suit_at:
                deck[q] = next(rest)
        return True


def _splits(
    n: int, allowed: Sequence[int], caps: Sequence[int]
) -> Iterable[tuple[tuple[tuple[int, int], ...], int]]:
    """Every way to put ``n`` cards into the ``allowed`` locations within ``caps``,
    with the number of ways to choose which cards go where (n! / Π x!)."""
    if not allowed:
        if n == 0:
            yield (), 1
        return
    fact = math.factorial

    def rec(k: int, left: int) -> Iterable[tuple[tuple[int, int], ...]]:
        loc = allowed[k]
        if k == len(allowed) - 1:
            if left <= caps[loc]:
                yield ((loc, left),)
            return
        for x in range(min(left, caps[loc]) + 1):
            for rest in rec(k + 1, left - x):
                yield ((loc, x), *rest)

    for split in rec(0, n):
        w = fact(n)
        for _, x in split:
            w //= fact(x)
        yield split, w
