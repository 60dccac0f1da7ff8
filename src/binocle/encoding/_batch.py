"""What the games held in place for the vectorized environment share.

:class:`binocle.vector.VectorEnv` holds cutthroat, classic and three-handed games
(:mod:`binocle.encoding._cutthroat_batch`, :mod:`binocle.encoding._classic_batch`,
:mod:`binocle.encoding._three_handed_batch`) as plain numbers changed in place.
Each such game is a :class:`BatchGame`: the fields every profile has, its legal
ids as ranges, and the log of its action ids, from which :func:`replay` rebuilds
the engine's :class:`~binocle.GameState` on request.  Each profile's batch is a
:class:`Batch`, which steps and writes every game and leaves to the profile's
class what one action does (``_act``), the legal ids (``_legal``) and the
observation's own part (``_observe``).

The compiled build compiles this module; it is written with typed locals and no
closures.
"""

from __future__ import annotations

from typing import Any, Final, cast

from librt.strings import BytesWriter, read_f64_le, read_i64_le, write_f32_le, write_i64_le
from librt.vecs import append, vec
from mypy_extensions import i64

from binocle._mypyc import mypyc_attr
from binocle._step import apply, legal_actions
from binocle.actions import PLAY, Action
from binocle.cards import Card
from binocle.core import GameState, Phase
from binocle.encoding._actions import _space
from binocle.encoding._fast import WAIT, FastEncoder, out_of_range
from binocle.errors import IllegalActionError, RuleCode
from binocle.profiles._classic_rules import announcement_action
from binocle.rules.classic_melds import Announcement, MeldTable, play_from_table, table_after
from binocle.rules.classic_melds._announcements import (
    announcements_held,
    announcements_with,
    new_table_facts,
)

__all__ = [
    "Batch",
    "BatchGame",
    "CardOffsets",
    "Ranges",
    "add_announcements",
    "clear_all",
    "count_one",
    "fill",
    "first",
    "hand_columns",
    "numbers",
    "replay",
    "sample",
    "set_all",
    "take",
    "value_at",
    "values_to",
    "with_card",
]

#: How many meld tables a batch keeps what it found of, shared by its games: the first
#: ones its games hold, which are the tables most games reach (those of the first
#: announcements), kept for good.  A table met once the batch keeps that many is kept
#: by its game alone, while the game holds it: a kept table is never dropped, so that
#: the garbage collector does not come to walk over what is kept.
_TABLES_KEPT: Final = 1024

#: The phases, as the observation tensor numbers them (their order in Phase).
PHASES: Final = list(Phase)
DEAL: Final = PHASES.index(Phase.DEAL)
OVER: Final = PHASES.index(Phase.OVER)


@mypyc_attr(serializable=True)
class Ranges:
    """A game's legal ids as ranges ``[lo[k], hi[k])`` for ``k`` below ``n``, ascending.

    The bounds are machine integers in vectors (``librt.vecs``): compiled, storing one
    makes no int object.  The vectors only grow: emptied (``n = 0``) at every step and
    filled again in place, they keep their room, where clearing them would give it back
    and appending would ask for it again."""

    def __init__(self) -> None:
        self.lo: vec[i64] = vec[i64]()
        self.hi: vec[i64] = vec[i64]()
        self.n: i64 = 0

    def __reduce__(self) -> tuple[Any, ...]:
        n = self.n
        return (_ranges, ([int(x) for x in self.lo[:n]], [int(x) for x in self.hi[:n]]))

    def __setstate__(self, held: dict[str, Any]) -> None:
        # Ranges pickled before their bounds were vectors: the lists and the count.
        self.lo = vec[i64]()
        self.hi = vec[i64]()
        self.n = 0
        lo = held["lo"]
        hi = held["hi"]
        for k in range(held["n"]):
            self._put(k, lo[k], hi[k])

    def add(self, a: i64) -> None:
        """Id ``a`` (above every id so far) into the ranges."""
        n = self.n
        if n:
            last = self.hi[n - 1]
            if last == a:
                self.hi[n - 1] = a + 1
                return
            if last > a:
                return
        self._put(n, a, a + 1)

    def add_run(self, a: i64, b: i64) -> None:
        """Ids ``a`` to ``b - 1`` (``a`` above every id so far) into the ranges."""
        n = self.n
        if n and self.hi[n - 1] == a:
            self.hi[n - 1] = b
        else:
            self._put(n, a, b)

    def _put(self, n: i64, a: i64, b: i64) -> None:
        """A new range ``[a, b)`` after the ``n`` ranges."""
        if n < len(self.lo):
            self.lo[n] = a
            self.hi[n] = b
        else:
            self.lo = append(self.lo, a)
            self.hi = append(self.hi, b)
        self.n = n + 1

    def add_cards(self, cards: tuple[int, ...], ids: CardOffsets) -> None:
        """The ids of the distinct ``cards`` (sorted; ``ids`` gives each card's, ascending
        with the cards), their ids ascending: :meth:`add` of each, the range being built
        held in locals (and :meth:`_put` written out)."""
        lo = self.lo
        hi = self.hi
        last = self.n  # the ranges before these cards'
        n = last
        room = len(lo)
        grown = False
        stop: i64 = hi[last - 1] if last else -1  # the range being built ends before ``stop``
        start: i64 = -1  # and starts at ``start``; -1: it is the last range (or none)
        prev = -1
        offsets = ids.offsets
        base: i64 = ids.base
        count = len(cards)
        # One pass more than the cards, to close the range being built after the last.
        for j in range(count + 1):
            a: i64 = -1
            if j < count:
                c = cards[j]
                if c == prev:
                    continue
                prev = c
                a = base + offsets[c]
                if a == stop:
                    stop = a + 1
                    continue
                if stop > a:
                    continue
            # Close the range being built; ``a`` starts the next.
            if start >= 0:
                if n < room:
                    lo[n] = start
                    hi[n] = stop
                else:
                    lo = append(lo, start)
                    hi = append(hi, stop)
                    room += 1
                    grown = True
                n += 1
            elif last:
                hi[last - 1] = stop
            start = a
            stop = a + 1
        if grown:
            self.lo = lo
            self.hi = hi
        self.n = n


def _ranges(lo: list[int], hi: list[int]) -> Ranges:
    """The ranges ``[lo[k], hi[k])`` (unpickling)."""
    r = Ranges()
    for k in range(len(lo)):
        r._put(k, lo[k], hi[k])
    return r


class CardOffsets:
    """A number for each card (an action's id, a column of the observation), by the
    card's number (-1: not in the pack), as ``base`` plus the card's byte in ``offsets``:
    a pack's numbers of one kind (the play ids, the hand's columns) lie within 256 of
    each other, ascending with the cards' numbers.  Read as bytes, compiled, a card's
    number costs no list read."""

    def __init__(self, numbers: list[int]) -> None:
        held = [k for k in numbers if k >= 0]
        base = min(held)
        if max(held) - base > 255 or held != sorted(held):
            raise AssertionError("the cards' numbers are spread out")  # pragma: no cover
        self.base: int = base
        self.offsets: bytes = bytes(k - base if k >= 0 else 0 for k in numbers)


#: A pickled game's key for the names of its fields that are vectors of numbers.
_VECTORS: Final = "__vectors__"
_VECTOR: Final[object] = type(vec[i64]())


@mypyc_attr(serializable=True)
class BatchGame:
    """One game in numbers (-1 for "none"): the fields every profile has."""

    def __init__(self, players: int) -> None:
        self.seed = 0
        self.first_dealer = 0
        self.dealer = 0
        self.hand_number = 0
        self.phase = 0  # its index in Phase, as the observation tensor numbers it
        self.current = -1
        self.trump = -1
        self.trick: tuple[tuple[int, int], ...] = ()  # its (seat, card) pairs
        # The scores, and those its episode began with: machine integers, which the
        # observations' writes read at every step with no int object to reach.
        self.scores = numbers(players)
        self.start = numbers(players)
        self.results = 0  # hands ended in the game
        self.outcome = ""  # the last hand's ("played", "claimed", ...)
        self.log: list[int] = []  # the action ids since the game began
        # The engine's state of the game as last asked for, and how much of the log
        # it had played.
        self.seen: GameState | None = None
        self.seen_at = 0
        # The legal ids now, as ranges of ids.
        self.ranges = Ranges()
        self.index = 0  # its place in the batch

    def __getstate__(self) -> dict[str, Any]:
        # Pickled (and deep-copied) as its fields, the vectors of numbers as lists.
        names = getattr(type(self), "__mypyc_attrs__", None)
        held: dict[str, Any] = {}
        if names is None:  # interpreted
            held.update(self.__dict__)
        else:
            for name in names:
                if hasattr(self, name):
                    held[name] = getattr(self, name)
        vectors: list[str] = []
        for name, value in held.items():
            if type(value) is _VECTOR:
                held[name] = [int(x) for x in value]
                vectors.append(name)
        held[_VECTORS] = vectors
        return held

    def __setstate__(self, held: dict[str, Any]) -> None:
        vectors = held.get(_VECTORS, ())
        for name, value in held.items():
            if name in vectors:
                setattr(self, name, vec[i64](value))
            elif name != _VECTORS:
                try:
                    setattr(self, name, value)
                except TypeError:  # pickled before the field's numbers were a vector
                    setattr(self, name, vec[i64](value))

    def restart(self, seed: int, dealer: int) -> None:
        """The game starts anew, to be dealt by ``dealer`` from ``seed``."""
        self.seed = seed
        self.first_dealer = dealer
        self.dealer = dealer
        self.hand_number = 0
        set_all(self.scores, 0)
        self.results = 0
        self.outcome = ""
        self.log.clear()
        self.seen = None
        self.seen_at = 0


class Batch:
    """``games`` of ``profile`` held in place, with the observation columns of
    ``encoder`` (a :class:`FastEncoder` of the profile).

    A profile's batch fills ``action_of`` (the action of each fixed id, None where
    it depends on the game) and gives what one action does (:meth:`_act`), the
    legal ids of the seat to act (:meth:`_legal`) and the observation's part
    that is the profile's own (:meth:`_observe`).
    """

    def __init__(self, profile: Any, encoder: FastEncoder, games: list[BatchGame]) -> None:
        self.profile = profile
        self.encoder = encoder
        self.games = games
        self.players: int = profile.players
        self.target: int = profile.target
        limit = profile.max_hands
        self.max_hands: int = -1 if limit is None else limit
        self.pack_size: int = profile.pack_size
        space = self.space = _space(profile)
        size: int = space.size
        self.action_of: list[Action | None] = [None] * size
        # Each card's play id (by the card's number), and each play id's card (-1:
        # the id is no play from the hand).
        self.play_id: list[int] = [-1] * 32
        self.card_of: list[int] = [-1] * size
        for c in space.cards:
            k: int = c
            i = space._fixed[PLAY[k]]
            self.play_id[k] = i
            self.card_of[i] = k
        self.play_ids = CardOffsets(self.play_id)
        # Each seat's play of each card as a trick of its own, ``((seat, card),)`` (at
        # ``seat * 32 + card``): made once, added to the trick without a tuple made.
        self.one_play: list[tuple[tuple[int, int], ...]] = [
            ((p, c),) for p in range(self.players) for c in range(32)
        ]
        self.hand_cols = CardOffsets(encoder.hand)  # each card's column in the hand part
        self.gone_kind: list[int] = encoder.kind
        self.width: int = encoder.width
        self.size: int = encoder.size  # the observation tensor's
        self.blank: bytes = bytes(self.size * len(games))  # every count zero
        # The columns every game writes a value to at every step, in the order it
        # writes them (:meth:`write`): the profile's own (:meth:`dense`), then the
        # scores; ``dense_at`` gives each column's place among them (-1: none).
        self.dense_cols: list[int] = []
        self.dense_at: list[int] = []
        # The id of each combination announced with fresh cards alone, by the
        # combination's identity (they are interned), and of each announcement that
        # reuses cards of a table holding no card twice, by its combination, the
        # cards it reuses and its fresh cards (classic melds): neither depends on
        # anything else.
        self.fresh_ids: dict[int, int] = {}
        self.plain_ids: dict[tuple[int, tuple[int, ...], tuple[Card, ...]], int] = {}
        for k in range(len(games)):
            games[k].index = k
        # What is kept of each seat's meld table (classic melds), by game and seat,
        # and of every table the games hold, by the table's identity: a table laid
        # down from another by the same announcement is the same object in every
        # game (:meth:`after`), so games whose players lay down the same
        # combinations share what is found of their tables.
        self.memos: list[TableMemo | None] = [None] * (len(games) * self.players)
        self.tables: dict[int, TableMemo] = {}
        self.tables_kept: int = _TABLES_KEPT  # how many tables ``tables`` may hold
        # The hands ended, and those played to their last trick, that :meth:`settle`
        # has seen since the caller last took them (and set them to 0).
        self.finished = 0
        self.played_out = 0

    def dense(self, parts: tuple[str, ...]) -> None:
        """The parts of the tensor (one column a seat each) the profile's
        :meth:`_observe` writes a value to at every step, in its order (the scores
        follow them)."""
        cols: list[int] = []
        for part in (*parts, "scores"):
            start = self.encoder.one[part]
            cols.extend(range(start, start + self.players))
        self.dense_cols = cols
        self.dense_at = [-1] * self.size
        for k in range(len(cols)):
            self.dense_at[cols[k]] = k

    def memo(self, g: BatchGame, p: int, table: MeldTable) -> TableMemo:
        """What is kept of ``table``, seat ``p``'s meld table in game ``g``: kept while
        the table lasts."""
        at = g.index * self.players + p
        memo = self.memos[at]
        if memo is None or memo.table is not table:
            tables = self.tables
            memo = tables.get(id(table))  # held there with its table: the id is its own
            if memo is None:
                memo = TableMemo(table)
                if len(tables) < self.tables_kept:
                    tables[id(table)] = memo
            self.memos[at] = memo
        return memo

    def after(self, g: BatchGame, p: int, table: MeldTable, ann: Announcement) -> MeldTable:
        """Seat ``p``'s meld table ``table`` in game ``g`` once ``ann`` (one of its
        legal announcements) is laid down:
        :func:`~binocle.rules.classic_melds.table_after`, kept with the table it is
        laid down on."""
        memo = self.memo(g, p, table)
        found = memo.after.get(id(ann))
        if found is None:
            found = memo.after[id(ann)] = (ann, table_after(memo.table, ann))
        return found[1]

    def played_from(self, g: BatchGame, p: int, table: MeldTable, slot: int) -> MeldTable:
        """Seat ``p``'s meld table ``table`` in game ``g`` once the card in ``slot`` is
        played from it: :func:`~binocle.rules.classic_melds.play_from_table`, kept
        with the table it is played from."""
        memo = self.memo(g, p, table)
        found = memo.played.get(slot)
        if found is None:
            found = memo.played[slot] = play_from_table(memo.table, slot)
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and deep-copied) as its arguments and its games: the compiled
        # class has no other way.
        return (_restored, (type(self), self.profile, self.encoder, self.games))

    # -- games ------------------------------------------------------------------------

    def begin_episodes(
        self, games: list[int], seeds: list[int], dealers: list[int], returns: BytesWriter
    ) -> None:
        """Begin an episode in each of ``games`` (game ``games[k]`` anew from
        ``seeds[k]``, dealt by ``dealers[k]``), writing first the returns of the
        episode it ends: its scores less those the episode began with (int64, little
        endian, a seat each, game by game)."""
        for k in range(len(games)):
            i = games[k]
            g = self.games[i]
            start = g.start
            scores = g.scores
            for s in range(len(scores)):
                write_i64_le(returns, scores[s] - start[s])
            self.begin(i, seeds[k], dealers[k])
            scores = g.scores
            for s in range(len(scores)):
                start[s] = scores[s]

    def begin(self, i: int, seed: int, dealer: int) -> None:
        """Game ``i`` starts anew, dealt by ``dealer`` from ``seed``: its first hand dealt."""
        raise NotImplementedError  # pragma: no cover

    def state(self, i: int) -> GameState:
        """Game ``i``'s state, replayed through the engine from where it was last asked
        for (else from the game's start)."""
        return replay(self.games[i], self.profile, self.space, self.action_of)

    def deal(self, i: int) -> None:
        """Deal game ``i``'s next hand."""
        raise NotImplementedError  # pragma: no cover

    def settle(self, idle: list[int], hands: int) -> list[int]:
        """The games of ``idle``, where nobody decides: each one's next hands dealt while
        its episode goes on (until ``hands`` hands have ended, or the game), until
        someone decides; return those whose episode has ended, in order (left as they
        are, for the caller to begin anew).  Each hand ended is counted in ``finished``,
        and in ``played_out`` if it was played to its last trick."""
        ended: list[int] = []
        games = self.games
        for i in idle:
            g = games[i]
            while g.current < 0:
                done = g.results
                if done:
                    self.finished += 1
                    if g.outcome == "played":
                        self.played_out += 1
                if g.phase == OVER or done >= hands:
                    ended.append(i)
                    break
                self.deal(i)
        return ended

    # -- steps ------------------------------------------------------------------------

    def check(self, ids: list[int], low: int) -> None:
        """Raise :class:`~binocle.IllegalActionError` (naming the game) unless every
        game's id is legal in it; nothing changes.  An id below ``low`` (:data:`WAIT`
        where a game may wait, else 0) or above the last id is refused first, as out
        of range (the first such game named)."""
        games = self.games
        size = self.space.size
        for i in range(len(ids)):
            a = ids[i]
            if a < low or a >= size:
                raise out_of_range(i, a, size, games[i].current)
        for i in range(len(ids)):
            g = games[i]
            a = ids[i]
            if a == WAIT:
                continue
            r = g.ranges
            lo = r.lo
            hi = r.hi
            ok = False
            for k in range(r.n):
                if lo[k] <= a < hi[k]:
                    ok = True
                    break
            if not ok:
                raise IllegalActionError(
                    f"game {i}: action id {a} is not legal now",
                    RuleCode.NOT_LEGAL,
                    None,
                    g.current if g.current >= 0 else None,
                )

    def step(self, ids: list[int], played: BytesWriter, rewards: BytesWriter) -> list[int]:
        """Play ``ids[i]`` in game ``i`` (checked by :meth:`check`); write, for a card
        played, ``i * width + kind`` to ``played``, and every seat's score change to
        ``rewards`` (int64, little endian).  A game whose id is :data:`WAIT` does not
        move (its score changes are 0).  Return the games where nobody decides now."""
        idle: list[int] = []
        games = self.games
        three = self.players == 3
        for i in range(len(ids)):
            g = games[i]
            a = ids[i]
            if a == WAIT:
                write_i64_le(rewards, 0)
                write_i64_le(rewards, 0)
                if three:
                    write_i64_le(rewards, 0)
                continue
            g.log.append(a)
            scores = g.scores
            s0 = scores[0]
            s1 = scores[1]
            s2 = scores[2] if three else 0
            self._act(g, a, i, played)
            scores = g.scores
            write_i64_le(rewards, scores[0] - s0)
            write_i64_le(rewards, scores[1] - s1)
            if three:
                write_i64_le(rewards, scores[2] - s2)
            self._legal(g)
            if g.current < 0:
                idle.append(i)
        return idle

    def _played(self, i: int, c: int, played: BytesWriter) -> None:
        """Card ``c`` played in game ``i``: into ``played``, as :meth:`step` says."""
        write_i64_le(played, i * self.width + self.gone_kind[c])

    def _act(self, g: BatchGame, a: int, i: int, played: BytesWriter) -> None:
        """Game ``g`` (game ``i``) takes action id ``a``, a legal one."""
        raise NotImplementedError  # pragma: no cover

    def _legal(self, g: BatchGame) -> None:
        """Game ``g``'s legal ids now, into its ranges."""
        raise NotImplementedError  # pragma: no cover

    # -- the arrays -------------------------------------------------------------------

    def write_legal(self, legal: BytesWriter, totals: BytesWriter, seats: BytesWriter) -> None:
        """What :meth:`write` writes of the legal ids and the seats to decide, without
        the observations (for steps whose observations nobody reads)."""
        actions: i64 = self.space.size
        games = self.games
        mask_base: i64 = 0
        for i in range(len(games)):
            g = games[i]
            write_i64_le(seats, g.current)
            write_i64_le(totals, _write_legal(g, mask_base, legal))
            mask_base += actions

    def write(
        self,
        counts: BytesWriter,
        at: BytesWriter,
        values: BytesWriter,
        dense: BytesWriter,
        legal: BytesWriter,
        totals: BytesWriter,
        seats: BytesWriter,
        whole: list[int],
    ) -> None:
        """Every game's observation tensor of its seat to decide, without the cards
        played this hand, its legal ids and its seat to decide (``seats``, int64, little
        endian, as the other numbers), written as bytes that NumPy reads whole.

        ``counts`` gets one byte for each entry of every game's tensor, game by game
        (``size`` of them a game): the count of the columns that count one each, a
        card held twice there twice.  ``at`` gets the flat positions (int64, little
        endian) of the columns with another value and ``values`` their values
        (float32, little endian, the tensor's type): one entry a column, to be set
        over the counts; ``dense`` gets the values of the columns every game writes at
        every step (``dense_cols``, in their order; float32, little endian), whatever
        they are: they are set over the counts before ``at``.  ``legal`` gets the
        flat positions of the legal ids in the games' masks (``num_actions`` a game;
        int64, ascending), and ``totals`` each game's number of them (int64).  ``whole``
        lists the games whose tensor is written whole, the cards played this hand
        included."""
        enc = self.encoder
        at_seat: i64 = enc.at_seat
        at_to_act: i64 = enc.at_to_act
        at_dealer: i64 = enc.at_dealer
        at_phase: i64 = enc.at_phase
        at_trump = enc.at_trump
        trick_seat = enc.trick_seat
        trick_card = enc.trick_card
        size: i64 = self.size
        actions: i64 = self.space.size
        games = self.games
        counts.write(self.blank)
        base: i64 = 0  # the game's first entry in the flat tensors
        mask_base: i64 = 0  # its first entry in the flat masks
        for i in range(len(games)):
            g = games[i]
            seat = g.current
            write_i64_le(seats, seat)
            if self._observe(g, seat, base, counts, at, values, dense):
                whole.append(i)
            else:
                count_one(counts, base + at_seat + seat)
                count_one(counts, base + at_to_act + seat)
                count_one(counts, base + at_dealer + g.dealer)
                count_one(counts, base + at_phase + g.phase)
                if g.trump >= 0:
                    count_one(counts, base + at_trump + g.trump)
                for r, (who, c) in enumerate(g.trick):  # the trick's last card ends it
                    count_one(counts, base + trick_seat[r][who])
                    count_one(counts, base + trick_card[r][c])
                values_to(g.scores, dense)
            write_i64_le(totals, _write_legal(g, mask_base, legal))
            base += size
            mask_base += actions

    def _observe(
        self,
        g: BatchGame,
        seat: int,
        base: i64,
        counts: BytesWriter,
        at: BytesWriter,
        values: BytesWriter,
        dense: BytesWriter,
    ) -> bool:
        """The part of ``seat``'s observation tensor that is the profile's own (from
        flat position ``base``, as :meth:`write` writes it; its own ``dense``
        columns, in order, to ``dense``); True where it wrote the whole tensor
        instead (every ``dense`` column), the cards played this hand included."""
        raise NotImplementedError  # pragma: no cover


class TableMemo:
    """What a batch keeps of one seat's meld table while the table lasts: the rules'
    facts of it and the ids of the announcements found with it, by the announcement's
    combination (its identity: the combinations are interned), table slots and fresh
    cards, which are all its id depends on with the table.

    A table that holds no card twice names no copy in its announcements (``KS``, not
    ``KS#3``): their ids do not depend on the slots, only on the cards they reuse
    (``plain``; ``cards_at`` gives each slot's card)."""

    def __init__(self, table: MeldTable) -> None:
        self.table = table
        facts = self.facts = new_table_facts(table)
        self.ids: dict[tuple[int, tuple[int, ...], tuple[Card, ...]], int] = {}
        self.plain = facts.twice == 0
        self.cards_at: dict[int, int] = {}
        for s, c in table.slots:
            self.cards_at[s] = c
        # The id of each announcement found with the table, by the announcement's
        # identity: the rules' facts of the table (or their module, for one from
        # the hand alone) hold the announcements they found.
        self.by_ann: dict[int, int] = {}
        # The table after each announcement laid down on it, by the announcement's
        # identity (held with it).
        self.after: dict[int, tuple[Announcement, MeldTable]] = {}
        # The table after the card of each slot is played from it, by slot.
        self.played: dict[int, MeldTable] = {}
        # The plays from the table, as (id, slot), where a batch has found them.
        self.plays: list[tuple[int, int]] | None = None


def _restored(kind: Any, profile: Any, encoder: FastEncoder, games: list[BatchGame]) -> Batch:
    """A pickled batch, read back."""
    batch: Batch = kind(profile, encoder, len(games))
    batch.games = games
    return batch


def place_of(hand: list[int], c: int) -> int:
    """Where card ``c`` belongs in the sorted ``hand``: the place of its first copy if
    held, else of the first higher card.  Found by a scan of the hand (cheaper,
    compiled, than a bisection for a dozen cards)."""
    i = 0
    for x in hand:
        if x >= c:
            break
        i += 1
    return i


def take(hand: list[int], c: int) -> None:
    """One copy of card ``c`` (held) out of the sorted ``hand``, in place."""
    del hand[place_of(hand, c)]


def sample(
    legal: bytes, totals: bytes, actions: i64, draws: bytes, avoid: bytes, out: BytesWriter
) -> None:
    """One legal id per game, to ``out`` (int64, little endian), from the legal ids as
    :meth:`Batch.write` writes them (``legal``: each game's in turn, ascending, as
    flat positions in masks of ``actions`` ids a game, or with ``actions`` 0 as the
    ids themselves; ``totals``: each game's number of them).  Game
    ``i``'s draw (the ``i``-th float64 of ``draws``, in [0, 1)) picks the
    ``floor(draw * count)``-th of its legal ids that ``avoid`` (one byte per id,
    nonzero where avoided; empty: none) leaves, ascending, or of all of them where
    it leaves none; :data:`WAIT` for a game with none."""
    checked = len(avoid) > 0
    at: i64 = 0  # the game's first legal id's place in ``legal``
    base: i64 = 0  # the game's first entry in the masks
    for i in range(len(totals) // 8):
        total: i64 = read_i64_le(totals, i * 8)
        allowed: i64 = 0
        if checked:
            for k in range(at, at + total):
                if not avoid[read_i64_le(legal, k * 8) - base]:
                    allowed += 1
        count: i64 = allowed if allowed > 0 else total
        if count == 0:
            write_i64_le(out, WAIT)
        else:
            j: i64 = int(read_f64_le(draws, i * 8) * float(count))
            if j >= count:  # a draw rounded up to the count
                j = count - 1
            if allowed == 0:
                write_i64_le(out, read_i64_le(legal, (at + j) * 8) - base)
            else:
                for k in range(at, at + total):
                    a = read_i64_le(legal, k * 8) - base
                    if not avoid[a]:
                        if j == 0:
                            write_i64_le(out, a)
                            break
                        j -= 1
        at += total
        base += actions


def _write_legal(g: BatchGame, mask_base: i64, legal: BytesWriter) -> int:
    """Write game ``g``'s legal ids, from their ranges, as flat positions in the masks
    (its mask starting at ``mask_base``) to ``legal``; return how many."""
    r = g.ranges
    glo = r.lo
    ghi = r.hi
    total = 0
    for k in range(r.n):
        hi: i64 = ghi[k]
        a: i64 = glo[k]
        total += hi - a
        while a < hi:
            write_i64_le(legal, mask_base + a)
            a += 1
    return total


def replay(g: BatchGame, profile: Any, space: Any, action_of: list[Action | None]) -> GameState:
    """Game ``g``'s state, replayed through the engine from where it was last asked
    for (else from the game's start); ``action_of[id]`` is the action of a fixed id
    (None where the action depends on the state: the action space finds it)."""
    s = g.seen
    if s is None:
        s = profile.initial(g.seed, g.first_dealer)
    log = g.log
    for k in range(g.seen_at, len(log)):
        while s.current_player is None:
            s = apply(s, legal_actions(s)[0])
        a = log[k]
        action = action_of[a]
        s = apply(s, space.action(s, a) if action is None else action)
    while s.current_player is None and g.current >= 0:
        s = apply(s, legal_actions(s)[0])
    g.seen = s
    g.seen_at = len(log)
    return s


def hand_columns(
    hands: list[list[int]],
    seat: int,
    base: i64,
    hand_cols: CardOffsets,
    counts: BytesWriter,
    dense: BytesWriter,
) -> None:
    """The tensor's ``hand`` part (``seat``'s cards), from flat position ``base``, and
    its ``hand_sizes`` part (every seat's count) to ``dense`` (as :meth:`Batch.write`
    writes them)."""
    start: i64 = base + hand_cols.base
    offsets = hand_cols.offsets
    for c in hands[seat]:
        pos: i64 = start + offsets[c]
        counts[pos] = counts[pos] + 1  # count_one, written out: the hottest loop
    for k in range(len(hands)):
        write_f32_le(dense, float(len(hands[k])))


def count_one(counts: BytesWriter, k: i64) -> None:
    """One more at flat position ``k`` of the counts."""
    counts[k] = counts[k] + 1


def value_at(k: i64, value: int, at: BytesWriter, values: BytesWriter) -> None:
    """``value`` at flat position ``k``."""
    write_i64_le(at, k)
    write_f32_le(values, float(value))


def add_announcements(
    encoder: FastEncoder,
    hand: tuple[int, ...],
    memo: TableMemo,
    trump: int,
    grand_binocle: bool,
    ranges: Ranges,
    ids: list[int],
    found: list[Announcement],
    fresh_ids: dict[int, int],
    plain_ids: dict[tuple[int, tuple[int, ...], tuple[Card, ...]], int],
    laid_held: bool = False,
) -> None:
    """Each single combination the player may announce with ``hand`` (his cards not
    laid down) and his meld table (kept in ``memo``): its id into the ranges
    (ascending) and into ``ids``, the announcement into ``found`` (the engine's own
    legal announcements; card numbers serve as cards).  ``fresh_ids`` and ``plain_ids``
    keep the ids that do not depend on the table (:class:`Batch` says which); ``memo``
    the others, while the table lasts.  Where ``laid_held``, ``hand`` also holds the
    cards laid down on the table (:func:`announcements_held`)."""
    pairs: list[tuple[int, Announcement]] = []
    ordered = True
    last = -1
    table = memo.table
    kept = memo.ids
    plain = memo.plain
    cards_at = memo.cards_at
    cards = cast(tuple[Card, ...], hand)
    facts = memo.facts
    anns = (
        announcements_held(cards, facts, trump, grand_binocle)
        if laid_held
        else announcements_with(cards, facts, trump, grand_binocle)
    )
    by_ann = memo.by_ann
    for ann in anns:
        k = by_ann.get(id(ann), -1)
        if k < 0:
            # Where the id is kept, and by what.
            slots = ann.table_slots
            known: dict[Any, int]
            key: Any
            if not slots:
                known = fresh_ids
                key = id(ann.combination)
            elif plain:
                reused: list[int] = []
                for s in slots:
                    reused.append(cards_at[s])
                known = plain_ids
                key = (id(ann.combination), tuple(reused), ann.fresh)
            else:
                known = kept
                key = (id(ann.combination), slots, ann.fresh)
            k = known.get(key, -1)
            if k < 0:
                k = known[key] = encoder.meld_id(table, announcement_action(ann, table))
            by_ann[id(ann)] = k
        if k < last:
            ordered = False
        last = k
        pairs.append((k, ann))
    if not ordered:
        pairs.sort(key=first)
    for k, ann in pairs:
        ranges.add(k)
        ids.append(k)
        found.append(ann)


def clear_all(lists: list[list[int]]) -> None:
    """Every list of ``lists`` emptied, in place (a game's hands)."""
    for items in lists:
        items.clear()


def numbers(n: int) -> vec[i64]:
    """``n`` zeros, as a vector of machine integers (a game's numbers by seat)."""
    return vec[i64]([0] * n)


def set_all(items: vec[i64], value: i64) -> None:
    """Every number of ``items`` set to ``value``, in place."""
    for k in range(len(items)):
        items[k] = value


def fill(items: list[Any], value: object) -> None:
    """Every item of ``items`` set to ``value``, in place: a game's lists last as long
    as the game (a new list at every deal would live through a hand, long enough for
    the garbage collector to walk over it)."""
    for k in range(len(items)):
        items[k] = value


def first(pair: tuple[int, Any]) -> int:
    """The first of a pair (a sort key)."""
    return pair[0]


def with_card(hand: list[int], c: int) -> None:
    """Card ``c`` into its place in the sorted ``hand`` (before its copy, if held), in
    place."""
    hand.insert(place_of(hand, c), c)


def values_to(items: vec[i64], dense: BytesWriter) -> None:
    """Each number, in order, to ``dense``."""
    for v in items:
        write_f32_le(dense, float(v))
