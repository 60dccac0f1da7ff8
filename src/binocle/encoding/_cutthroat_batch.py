"""Cutthroat games held as plain numbers and stepped in place, for the vectorized
environment.

:class:`binocle.vector.VectorEnv` steps many games at once.  Through the engine,
each game's step builds a new :class:`~binocle.GameState` (a handful of tuples and
a history node), then its legal actions and their ids, then its observation from
the state's fields; at 256 games the new objects are most of the step's cost, the
cyclic garbage collector's passes over them included.  :class:`CutthroatBatch`
holds each cutthroat game instead as one small object of numbers and lists (the
hands and the trick as the engine holds them, the auction's figures, the scores)
and changes it in place: a step replaces at most a hand and the trick, and leaves
no new object behind for the collector.  It plays by the same rules as
:class:`~binocle.profiles.cutthroat.Cutthroat` (cutthroat rules: Bidding; Widow,
discards and trump; Melds; Giving up; Play; Scoring a hand; Winning; every
option), calling the engine's own functions for the trick rules, the trick's
winner, the game's winner, the melds and the deck; it deals the same decks from
the same seeds and writes the same observation tensor and legal ids as
:class:`~binocle.encoding._fast.FastEncoder` reads from the engine's states.
``tests/test_vector.py`` steps both side by side and compares every array at
every step.

A game's :class:`~binocle.GameState` is rebuilt on request (:meth:`state`) by
replaying its actions through the engine: the batch logs each game's action ids
since the game began.

The compiled build compiles this module; it is written with typed locals and no
closures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from librt.strings import BytesWriter, write_f32_le

from binocle._mypyc import mypyc_attr
from binocle.actions import BUNCH, CONCEDE, DISCARD, MELD, PASS, PLAY, TRUMP, Action, Kind, bid
from binocle.cards import Card, Suit, pack
from binocle.core import Phase
from binocle.encoding._batch import (
    DEAL,
    OVER,
    PHASES,
    Batch,
    BatchGame,
    CardOffsets,
    clear_all,
    count_one,
    fill,
    hand_columns,
    take,
    value_at,
)
from binocle.encoding._fast import FastEncoder
from binocle.encoding._shuffle import shuffled_deck
from binocle.profiles.cutthroat import _game_winner
from binocle.rules.cutthroat_melds import meld_total
from binocle.rules.points import COUNTER_POINTS, LAST_TRICK
from binocle.rules.tricks import _trick_winner, allowed_slice

if TYPE_CHECKING:
    # A 64-bit machine integer to mypyc (flat positions); a plain int at run time.
    from mypy_extensions import i64

__all__ = ["CutthroatBatch"]

# The phases, as the observation tensor numbers them (their order in Phase).
BIDDING: Final = PHASES.index(Phase.BIDDING)
DISCARD_PHASE: Final = PHASES.index(Phase.DISCARD)
TRUMP_PHASE: Final = PHASES.index(Phase.TRUMP)
MELD_PHASE: Final = PHASES.index(Phase.MELD)
PLAY_PHASE: Final = PHASES.index(Phase.PLAY)

# The kinds of action, by identity.
_PLAY: Final = Kind.PLAY
_BID: Final = Kind.BID
_PASS: Final = Kind.PASS
_DISCARD: Final = Kind.DISCARD
_TRUMP: Final = Kind.TRUMP
_MELD: Final = Kind.MELD
_CONCEDE: Final = Kind.CONCEDE
_NINE: Final = 5


@mypyc_attr(serializable=True)
class _Game(BatchGame):
    """One cutthroat game in numbers (-1 for "none")."""

    def __init__(self) -> None:
        BatchGame.__init__(self, 3)
        # The hands and the trick as the engine's state holds them (sorted card
        # numbers; ``(seat, card)`` pairs), for the trick rules' own functions.
        self.hands: list[list[int]] = [[], [], []]
        self.widow: tuple[int, ...] = ()
        self.trick: tuple[tuple[int, int], ...] = ()
        self.passes: list[int] = []  # the seats that passed, in order
        self.passed: list[bool] = [False, False, False]
        self.has_bid: list[bool] = [False, False, False]
        self.bunched: list[bool] = [False, False, False]  # may throw the hand in
        self.bidder = -1
        self.bid = 0
        self.discards: list[int] = []
        self.melds: list[int] = [-1, -1, -1]  # meld totals once declared
        self.taken: list[int] = [0, 0, 0]
        self.counters: list[int] = [0, 0, 0]
        self.tricks = 0


class CutthroatBatch(Batch):
    """``n`` cutthroat games of ``profile`` (a :class:`~binocle.profiles.cutthroat.Cutthroat`),
    with the observation columns of ``encoder`` (a :class:`FastEncoder` of it)."""

    def __init__(self, profile: Any, encoder: FastEncoder, n: int) -> None:
        games: list[BatchGame] = [_Game() for _ in range(n)]
        Batch.__init__(self, profile, encoder, games)
        self.min_bid: int = profile.min_bid
        self.max_bid: int = profile.max_bid
        self.single_set: bool = profile.single_set
        self.rule = profile.obligation
        self.bunched_hands: bool = profile.bunched_hands
        space = self.space
        fixed = space._fixed
        # Each id's meaning, and the ids of each kind of action.
        size: int = space.size
        self.what: list[Kind | None] = [None] * size
        self.arg: list[int] = [0] * size
        self.pass_id: int = fixed[PASS]
        self._mark(self.pass_id, 0, PASS)
        self.bid_base: int = fixed[bid(self.min_bid)]
        for b in range(self.min_bid, self.max_bid + 1, 10):
            i = fixed[bid(b)]
            if i != self.bid_base + (b - self.min_bid) // 10:
                raise AssertionError("the bids' ids are not consecutive")  # pragma: no cover
            self._mark(i, b, bid(b))
        self.discard_id: list[int] = [-1] * 32
        for c in pack(self.pack_size):
            k: int = c
            self._mark(self.play_id[k], k, PLAY[k])
            self.discard_id[k] = fixed[DISCARD[k]]
            self._mark(self.discard_id[k], k, DISCARD[k])
        self.discard_ids = CardOffsets(self.discard_id)
        self.trump_ids: list[int] = []
        for t in TRUMP:
            assert t.suit is not None
            self.trump_ids.append(fixed[t])
            self._mark(fixed[t], int(t.suit), t)
        self.meld_id: int = fixed[MELD]
        self._mark(self.meld_id, 0, MELD)
        self.concede_id: int = fixed[CONCEDE]
        self._mark(self.concede_id, 0, CONCEDE)
        self.bunch_id: int = fixed.get(BUNCH, -1)
        if self.bunch_id >= 0:
            self._mark(self.bunch_id, 0, BUNCH)
        self.cards: list[Card | None] = [None] * 32
        for c in pack(self.pack_size):
            self.cards[int(c)] = c
        # Where each card of the deck goes, by dealer: a seat, or 3 for the widow
        # (the profile's deal schedule).
        self.dealt_to: list[list[int]] = []
        for d in range(3):
            to: list[int] = []
            for target, count in profile.deal_schedule(d):
                to.extend([3 if target == "widow" else int(target)] * count)
            self.dealt_to.append(to)
        one = encoder.one
        self.at_passed: int = one["passed"]
        self.at_bidder: int = one["bidder"]
        self.at_bid: int = one["bid"]
        self.at_discard_count: int = one["discard_count"]
        self.widow_col: list[int] = encoder.card["widow"]
        self.discards_col: list[int] = encoder.card["discards"]
        self.dense(("hand_sizes", "meld_points"))

    def _mark(self, i: int, arg: int, action: Action) -> None:
        self.what[i] = action.kind
        self.arg[i] = arg
        self.action_of[i] = action

    # -- games ------------------------------------------------------------------------

    def begin(self, i: int, seed: int, dealer: int) -> None:
        """Game ``i`` starts anew, dealt by ``dealer`` from ``seed``: its first hand dealt."""
        self.games[i].restart(seed, dealer)
        self.deal(i)

    def _game(self, i: int) -> _Game:
        return cast(_Game, self.games[i])

    def deal(self, i: int) -> None:
        """Deal game ``i``'s next hand from its seed (the engine's deck and deal)."""
        g = self._game(i)
        deck = shuffled_deck(self.pack_size, f"binocle:{g.seed}:{g.hand_number}")
        d = g.dealer
        clear_all(g.hands)
        widow: list[int] = []
        hands = [g.hands[0], g.hands[1], g.hands[2], widow]  # the widow last
        to = self.dealt_to[d]
        for k in range(len(deck)):
            c: int = deck[k]
            hands[to[k]].append(c)
        g.hand_number += 1
        g.phase = BIDDING
        g.current = (d + 1) % 3
        g.trump = -1
        for k in range(3):
            g.hands[k].sort()
        widow.sort()
        g.widow = tuple(widow)
        g.trick = ()
        g.passes.clear()
        fill(g.passed, False)
        fill(g.has_bid, False)
        g.bidder = -1
        g.bid = 0
        g.discards.clear()
        fill(g.melds, -1)
        fill(g.taken, 0)
        fill(g.counters, 0)
        g.tricks = 0
        if self.bunched_hands:
            g.bunched = [self._bunched(g.hands[p]) for p in range(3)]
        self._legal(g)

    def _bunched(self, hand: list[int]) -> bool:
        """Five or more Nines and no meld but dix (cutthroat rules, Bidding)."""
        nines = 0
        for c in hand:
            if c & 7 == _NINE:
                nines += 1
        if nines < 5:
            return False
        for t in range(4):
            n = 0
            for c in hand:
                if c == t * 8 + _NINE:
                    n += 1
            if meld_total(hand, t) != 10 * n:
                return False
        return True

    # -- legal ids --------------------------------------------------------------------

    def _legal(self, game: BatchGame) -> None:
        g = cast(_Game, game)
        ranges = g.ranges
        ranges.n = 0
        phase = g.phase
        p = g.current
        if p < 0:
            return
        if phase == PLAY_PHASE:
            hand = tuple(g.hands[p])
            if g.trick:
                ranges.add_cards(allowed_slice(hand, g.trick, g.trump, self.rule), self.play_ids)
                return
            if p == g.bidder and g.tricks == 0:
                ranges.add(self.concede_id)  # its id is below the plays'
            ranges.add_cards(hand, self.play_ids)
            return
        if phase == BIDDING:
            ranges.add(self.pass_id)
            if g.bid == 0 and g.passed[0] + g.passed[1] + g.passed[2] == 2:
                start = stop = self.min_bid
            else:
                start = self.min_bid if g.bid == 0 else g.bid + 10
                stop = self.max_bid
            if start <= stop:
                a = self.bid_base + (start - self.min_bid) // 10
                b = self.bid_base + (stop - self.min_bid) // 10 + 1
                ranges.add_run(a, b)
            if self.bunched_hands and g.bunched[p] and not g.has_bid[p]:
                ranges.add(self.bunch_id)
            return
        if phase == DISCARD_PHASE:
            ranges.add_cards(tuple(g.hands[p]), self.discard_ids)
            return
        if phase == TRUMP_PHASE:
            for k in self.trump_ids:
                ranges.add(k)
            return
        if phase == MELD_PHASE:
            ranges.add(self.meld_id)

    # -- steps ------------------------------------------------------------------------

    def _act(self, game: BatchGame, a: int, i: int, played: BytesWriter) -> None:
        g = cast(_Game, game)
        what = self.what[a]
        if what is _PLAY:
            c = self.arg[a]
            self._played(i, c, played)
            self._play(g, c)
        elif what is _BID:
            self._call(g, self.arg[a])
        elif what is _PASS:
            self._call(g, 0)
        elif what is _DISCARD:
            self._discard(g, self.arg[a])
        elif what is _TRUMP:
            g.trump = self.arg[a]
            g.phase = MELD_PHASE
        elif what is _MELD:
            self._meld(g)
        elif what is _CONCEDE:
            self._concede(g)
        else:
            self._end_hand(g, [0, 0, 0], -1, "redeal", True)

    def _call(self, g: _Game, amount: int) -> None:
        p = g.current
        if amount == 0:
            g.passed[p] = True
            g.passes.append(p)
        else:
            g.has_bid[p] = True
            g.bidder = p
            g.bid = amount
        passed = g.passed
        n = passed[0] + passed[1] + passed[2]
        if n == 3:
            self._end_hand(g, [0, 0, 0], -1, "thrown-in", False)
            return
        if n == 2 and g.bidder >= 0:
            hand = g.hands[g.bidder]
            hand.extend(g.widow)
            hand.sort()
            g.phase = DISCARD_PHASE
            g.current = g.bidder
            return
        nxt = (p + 1) % 3
        while passed[nxt]:
            nxt = (nxt + 1) % 3
        g.current = nxt

    def _discard(self, g: _Game, c: int) -> None:
        take(g.hands[g.current], c)
        g.discards.append(c)
        if len(g.discards) == 3:
            g.phase = TRUMP_PHASE

    def _meld(self, g: _Game) -> None:
        p = g.current
        cards = self.cards
        hand = tuple([cards[c] for c in g.hands[p]])
        g.melds[p] = self.profile.meld(hand, Suit(g.trump)).total
        nxt = (p + 1) % 3
        if nxt == g.bidder:
            g.phase = PLAY_PHASE
        g.current = nxt

    def _play(self, g: _Game, c: int) -> None:
        p = g.current
        take(g.hands[p], c)
        trick = g.trick
        if len(trick) < 2:
            g.trick = trick + self.one_play[p * 32 + c]
            g.current = (p + 1) % 3
            return
        # The trick is complete: its winner (common rules, Trick winner) and points.
        c0 = trick[0][1]
        c1 = trick[1][1]
        k = _trick_winner([c0, c1, c], g.trump)
        w = p if k == 2 else trick[k][0]
        pts = COUNTER_POINTS[c0] + COUNTER_POINTS[c1] + COUNTER_POINTS[c]
        if pts:
            g.taken[w] += pts
            g.counters[w] += pts // 10
        g.trick = ()
        g.tricks += 1
        g.current = w
        if g.tricks == 15:
            self._score(g, w)

    def _score(self, g: _Game, last: int) -> None:
        """Hand scoring (cutthroat rules, Scoring a hand)."""
        bidder = g.bidder
        bid_ = g.bid
        tricks = [g.taken[k] + (LAST_TRICK if k == last else 0) for k in range(3)]
        for c in g.discards:
            tricks[bidder] += COUNTER_POINTS[c]
        delta = [0, 0, 0]
        for k in range(3):
            declared = max(g.melds[k], 0)
            if k == bidder:
                if declared + tricks[k] >= bid_:
                    delta[k] = declared + tricks[k]
                else:
                    delta[k] = -bid_ if self.single_set else -2 * bid_
            else:
                delta[k] = (declared if g.counters[k] > 0 else 0) + tricks[k]
        self._end_hand(g, delta, bidder, "played", False)

    def _concede(self, g: _Game) -> None:
        bidder = g.bidder
        delta = [-g.bid if k == bidder else max(g.melds[k], 0) for k in range(3)]
        self._end_hand(g, delta, bidder, "conceded", False)

    def _end_hand(
        self, g: _Game, delta: list[int], bidder: int, outcome: str, redeal: bool
    ) -> None:
        """Record the hand, then wait for the next deal or end the game (cutthroat rules,
        Winning)."""
        scores = g.scores
        for k in range(3):
            scores[k] += delta[k]
        g.results += 1
        g.outcome = outcome
        # The game ends when a seat wins it, or at the hand limit (max_hands).
        now = (scores[0], scores[1], scores[2])
        won = _game_winner(now, None if bidder < 0 else bidder, self.target) is not None
        end = won or 0 <= self.max_hands <= g.hand_number
        g.current = -1
        g.trump = -1
        clear_all(g.hands)
        g.trick = ()
        if end:
            g.phase = OVER
        else:
            g.phase = DEAL
            if not redeal:
                g.dealer = (g.dealer + 1) % 3

    # -- the arrays -------------------------------------------------------------------

    def _observe(
        self,
        game: BatchGame,
        seat: int,
        base: i64,
        counts: BytesWriter,
        at: BytesWriter,
        values: BytesWriter,
        dense: BytesWriter,
    ) -> bool:
        g = cast(_Game, game)
        hand_columns(g.hands, seat, base, self.hand_cols, counts, dense)
        for who in g.passes:
            count_one(counts, base + self.at_passed + who)
        bidder = g.bidder
        if bidder >= 0 and g.phase != BIDDING:
            count_one(counts, base + self.at_bidder + bidder)
            widow = self.widow_col
            for c in g.widow:
                count_one(counts, base + widow[c])
        if g.bid:
            value_at(base + self.at_bid, g.bid, at, values)
        discards = g.discards
        if discards:
            if seat == bidder:
                col = self.discards_col
                for c in discards:
                    count_one(counts, base + col[c])
            value_at(base + self.at_discard_count, len(discards), at, values)
        for m in g.melds:  # -1 until declared
            write_f32_le(dense, float(m) if m > 0 else 0.0)
        return False
