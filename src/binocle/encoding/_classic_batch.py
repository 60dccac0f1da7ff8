"""Classic games held as plain numbers and stepped in place, for the vectorized
environment.

As :mod:`binocle.encoding._cutthroat_batch` does for cutthroat, :class:`ClassicBatch`
holds each classic game as one small object changed in place, instead of a new
:class:`~binocle.GameState` (and its legal actions, their ids and a history node)
at every step: the concealed hands and the trick as the engine holds them, the
stock and the turn-up, the hand's figures and the scores.  It plays by the rules
of :class:`~binocle.profiles.classic.Classic` (classic rules: Deal; Play while the
stock lasts; Announcements; Dix; Play after the stock; Claiming (knocking); End
of a hand; every option).  The meld tables are the engine's own
(:class:`~binocle.rules.classic_melds.MeldTable`), and so are the rules that read
them: the legal announcements, laying a combination down, playing a card from the
table and telling its copies apart; the trick's winner and what may be played to
it are the engine's functions too.  It deals the same decks from the same seeds
and writes the same observation tensor and legal ids as
:class:`~binocle.encoding._fast.FastEncoder` reads from the engine's states;
``tests/test_vector.py`` steps both side by side and compares every array at
every step.

A game's :class:`~binocle.GameState` is rebuilt on request (:meth:`ClassicBatch.state`)
by replaying its action ids through the engine.

The compiled build compiles this module; it is written with typed locals and no
closures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from librt.strings import BytesWriter, write_f32_le

from binocle._mypyc import mypyc_attr
from binocle.actions import CLAIM, DIX, PASS, PLAY_TABLE
from binocle.core import Phase
from binocle.encoding._batch import (
    DEAL,
    OVER,
    PHASES,
    Batch,
    BatchGame,
    CardOffsets,
    add_announcements,
    clear_all,
    count_one,
    fill,
    first,
    numbers,
    set_all,
    take,
    value_at,
    values_to,
    with_card,
)
from binocle.encoding._fast import FastEncoder
from binocle.encoding._shuffle import shuffled_deck
from binocle.rules.classic_melds import (
    Announcement,
    MeldTable,
)
from binocle.rules.classic_melds._announcements import copies_in, lowest_slots
from binocle.rules.points import BINOCLE_POINTS, LAST_TRICK
from binocle.rules.tricks import _OBLIGATION_FOLLOW_WIN_TRUMP, _trick_winner, allowed_slice

if TYPE_CHECKING:
    # A 64-bit machine integer to mypyc (flat positions); a plain int at run time.
    from mypy_extensions import i64

__all__ = ["ClassicBatch"]

# The phases, as the observation tensor numbers them (their order in Phase).
PLAY_PHASE: Final = PHASES.index(Phase.PLAY)
ANNOUNCE: Final = PHASES.index(Phase.ANNOUNCE)

_EMPTY: Final = MeldTable.EMPTY
_DIX_POINTS: Final = 10
_TARGET_STEP: Final = 250


@mypyc_attr(serializable=True)
class _Game(BatchGame):
    """One classic game in numbers (-1 for "none")."""

    def __init__(self) -> None:
        BatchGame.__init__(self, 2)
        # The concealed hands (sorted card numbers) and the trick's ``(seat, card)``
        # pairs, as the engine's state holds them; the meld tables are the engine's.
        self.concealed: list[list[int]] = [[], []]
        self.tables: list[MeldTable] = [_EMPTY, _EMPTY]
        self.trick: tuple[tuple[int, int], ...] = ()
        self.stock: tuple[int, ...] = ()  # top first, from ``drawn`` on
        self.drawn = 0
        self.turn_up = -1
        self.dixes = 0
        # The figures the observation shows, by seat, as machine integers.
        self.meld_points = numbers(2)
        self.taken = numbers(2)
        self.targets = numbers(2)
        self.declined: list[bool] = [False, False]  # passed on knocking since the last trick
        # The ids whose action depends on the tables now: a table copy's slot, or
        # an announcement.
        self.slot_ids: list[int] = []
        self.slots: list[int] = []
        self.meld_ids: list[int] = []
        self.anns: list[Announcement] = []


class ClassicBatch(Batch):
    """``n`` classic games of ``profile`` (a :class:`~binocle.profiles.classic.Classic`),
    with the observation columns of ``encoder`` (a :class:`FastEncoder` of it)."""

    def __init__(self, profile: Any, encoder: FastEncoder, n: int) -> None:
        games: list[BatchGame] = [_Game() for _ in range(n)]
        Batch.__init__(self, profile, encoder, games)
        self.grand_binocle: bool = profile.grand_binocle
        self.dix_rank: int = profile.dix_rank
        space = self.space
        fixed = space._fixed
        self.table_play: int = space._table_play
        self.melds: int = space._melds
        # The action of each fixed id (None: it depends on the table, as a play from
        # the table does where two copies lie there), and each card's play id.
        for action, i in fixed.items():
            if i < self.table_play:
                self.action_of[i] = action
        # Each card's first id of a play from the table (by the card's number): its
        # copies that a table tells apart follow it (the action space's layout).
        self.table_play_id: list[int] = [-1] * 32
        for c in space.cards:
            k: int = c
            self.table_play_id[k] = space._table_play_id(None, PLAY_TABLE[k])
        self.pass_id: int = fixed[PASS]
        self.dix_id: int = fixed[DIX]
        self.claim_id: int = fixed[CLAIM]
        # Where each card of the deck goes, by dealer: a seat, 2 for the turn-up or 3
        # for the stock (the profile's deal schedule).
        self.dealt_to: list[list[int]] = []
        for d in range(2):
            to: list[int] = []
            for target, count in profile.deal_schedule(d):
                where = 2 if target == "turn_up" else 3 if target == "stock" else int(target)
                to.extend([where] * count)
            self.dealt_to.append(to)
        one = encoder.one
        card = encoder.card
        self.hand_col: list[int] = encoder.hand
        self.concealed_col: list[int] = card["concealed"]
        self.tables_col: list[int] = card["tables"]
        self.tables_cols = CardOffsets(self.tables_col)
        # The card parts are laid out alike: a card's concealed column is its hand
        # column moved by one distance for every card.
        self.to_concealed: int = self.concealed_col[0] - self.hand_col[0]
        for c in self.space.cards:
            k = c
            if self.concealed_col[k] - self.hand_col[k] != self.to_concealed:
                raise AssertionError("the card parts are laid out apart")  # pragma: no cover
        self.turn_up_col: list[int] = card["turn_up"]
        self.at_stock_size: int = one["stock_size"]
        self.at_dixes: int = one["dixes"]
        self.dense(("hand_sizes", "meld_points", "taken", "targets"))

    # -- games ------------------------------------------------------------------------

    def begin(self, i: int, seed: int, dealer: int) -> None:
        """Game ``i`` starts anew, dealt by ``dealer`` from ``seed``: its first hand dealt."""
        g = self._game(i)
        g.restart(seed, dealer)
        set_all(g.targets, self.target)
        self.deal(i)

    def _game(self, i: int) -> _Game:
        return cast(_Game, self.games[i])

    def deal(self, i: int) -> None:
        """Deal game ``i``'s next hand from its seed (classic rules, Deal: the engine's
        deck and deal; a Nine of trumps turned up scores dix for the dealer)."""
        g = self._game(i)
        deck = shuffled_deck(self.pack_size, f"binocle:{g.seed}:{g.hand_number}")
        d = g.dealer
        clear_all(g.concealed)
        rest: list[int] = []
        stock: list[int] = []
        hands = [g.concealed[0], g.concealed[1], rest, stock]  # the turn-up, then the stock
        to = self.dealt_to[d]
        for k in range(len(deck)):
            c: int = deck[k]
            hands[to[k]].append(c)
        turn_up = hands[2][0]
        g.hand_number += 1
        g.phase = PLAY_PHASE
        g.current = 1 - d
        g.trump = turn_up >> 3
        for k in range(2):
            g.concealed[k].sort()
        fill(g.tables, _EMPTY)
        g.trick = ()
        g.stock = tuple(stock)
        g.drawn = 0
        g.turn_up = turn_up
        set_all(g.meld_points, 0)
        g.dixes = 0
        if turn_up & 7 == self.dix_rank:
            g.meld_points[d] = _DIX_POINTS
            g.dixes = 1
        set_all(g.taken, 0)
        fill(g.declined, False)
        self._legal(g)

    # -- legal ids --------------------------------------------------------------------

    def _legal(self, game: BatchGame) -> None:
        """The legal ids of the seat to act (classic rules, Play while the stock lasts,
        Announcements, Play after the stock, Claiming (knocking))."""
        g = cast(_Game, game)
        ranges = g.ranges
        ranges.n = 0
        if g.slot_ids:  # filled in pairs: empty together
            g.slot_ids.clear()
            g.slots.clear()
        if g.meld_ids:
            g.meld_ids.clear()
            g.anns.clear()
        p = g.current
        if p < 0:
            return
        concealed = tuple(g.concealed[p])
        stock_phase = g.drawn < len(g.stock) or g.turn_up >= 0
        if g.phase == ANNOUNCE:
            ranges.add(self.pass_id)
            if g.dixes < 2 and g.turn_up >= 0 and g.trump * 8 + self.dix_rank in concealed:
                ranges.add(self.dix_id)
            ranges.add(self.claim_id)
            add_announcements(
                self.encoder, concealed, self.memo(g, p, g.tables[p]), g.trump,
                self.grand_binocle,
                ranges, g.meld_ids, g.anns, self.fresh_ids, self.plain_ids,
            )  # fmt: skip
            return
        if not concealed and not (stock_phase and g.tables[p].slots):
            # The last trick is taken: knock or not, before the hand is counted.
            ranges.add(self.pass_id)
            ranges.add(self.claim_id)
            return
        ranges.add(self.claim_id)
        if stock_phase:  # any card, from the hand or the table
            ranges.add_cards(concealed, self.play_ids)
            if g.tables[p].slots:
                for k, slot in self._table_plays(g, p):
                    ranges.add(k)
                    g.slot_ids.append(k)
                    g.slots.append(slot)
            return
        # Follow suit and win if able; void, trump; else any card.
        ranges.add_cards(
            allowed_slice(concealed, g.trick, g.trump, _OBLIGATION_FOLLOW_WIN_TRUMP), self.play_ids
        )

    def _table_plays(self, g: _Game, p: int) -> list[tuple[int, int]]:
        """Seat ``p``'s plays from its table, as (id, slot), by id: the engine's plays
        of the table (a card's copies told apart where their histories differ: the
        lowest slot of each), each copy's id as the action space gives it."""
        memo = self.memo(g, p, g.tables[p])
        found = memo.plays
        if found is not None:
            return found
        out: list[tuple[int, int]] = []
        first_id = self.table_play_id
        # The table's groups of copies by card: each group's lowest slot, in order.
        for card, slots in lowest_slots(copies_in(memo.facts)).items():
            base = first_id[card]
            for copy in range(len(slots)):
                out.append((base + copy, slots[copy]))
        out.sort(key=first)
        memo.plays = out
        return out

    # -- steps ------------------------------------------------------------------------

    def _act(self, game: BatchGame, a: int, i: int, played: BytesWriter) -> None:
        g = cast(_Game, game)
        c = self.card_of[a]
        if c >= 0:
            self._played(i, c, played)
            take(g.concealed[g.current], c)
            self._play(g, c)
        elif a >= self.melds:
            self._meld(g, g.anns[g.meld_ids.index(a)])
        elif a >= self.table_play:
            slot = g.slots[g.slot_ids.index(a)]
            p = g.current
            table = g.tables[p]
            c = table.card_at(slot)
            self._played(i, c, played)
            g.tables[p] = self.played_from(g, p, table, slot)
            self._play(g, c)
        elif a == self.pass_id:
            if g.phase == PLAY_PHASE:  # after the last trick: no knock
                g.declined[g.current] = True
                self._after_last_trick(g, 1 - g.current, -1)
            else:
                self._draw(g)
        elif a == self.dix_id:
            self._dix(g)
        else:
            self._claim(g)

    def _play(self, g: _Game, c: int) -> None:
        """Card ``c`` (already out of the hand or off the table) to the trick."""
        p = g.current
        trick = g.trick
        if not trick:
            g.trick = self.one_play[p * 32 + c]
            g.current = 1 - p
            return
        # The trick is complete: its winner (classic rules, Play while the stock lasts) and points.
        c0 = trick[0][1]
        w = p if _trick_winner([c0, c], g.trump) == 1 else trick[0][0]
        g.taken[w] += BINOCLE_POINTS[c0] + BINOCLE_POINTS[c]
        g.trick = ()
        g.current = w
        if g.drawn < len(g.stock) or g.turn_up >= 0:
            g.phase = ANNOUNCE
            return
        if g.concealed[0] or g.concealed[1]:
            return
        # The last trick scores 10 (classic rules, Play after the stock); then a player
        # who has reached his target may knock before the hand is counted.
        g.taken[w] += LAST_TRICK
        fill(g.declined, False)
        self._after_last_trick(g, w, 1 - w)

    def _after_last_trick(self, g: _Game, first: int, second: int) -> None:
        """After the last trick (classic rules, Claiming (knocking)): ``first``, then
        ``second`` (-1: nobody), is asked to knock when his claim would be correct and
        he has not declined already; with nobody to ask, the hand is counted."""
        for seat in (first, second):
            if seat >= 0 and not g.declined[seat] and self._claim_total(g, seat) >= g.targets[seat]:
                g.current = seat
                return
        self._end_hand(g, "played", -1, False)

    def _claim_total(self, g: _Game, seat: int) -> int:
        """What a claim is checked against: the game score, the dix and melds recorded
        this hand and the card points taken (the profile's ``claim_total``)."""
        return g.scores[seat] + g.meld_points[seat] + g.taken[seat]

    def _claim(self, g: _Game) -> None:
        """Knocking (classic rules, Claiming (knocking)): a correct claim wins at once, a
        wrong one loses."""
        p = g.current
        self._end_hand(g, "claimed", p, self._claim_total(g, p) >= g.targets[p])

    def _meld(self, g: _Game, ann: Announcement) -> None:
        """One announcement laid down (classic rules, Announcements), then the draw."""
        p = g.current
        for c in ann.fresh:
            take(g.concealed[p], c)
        g.tables[p] = self.after(g, p, g.tables[p], ann)
        g.meld_points[p] += ann.combination.value
        self._draw(g)

    def _dix(self, g: _Game) -> None:
        """Dix (classic rules, Dix): the Nine of trumps for the turn-up, 10 points; then
        the draw."""
        p = g.current
        nine = g.trump * 8 + self.dix_rank
        take(g.concealed[p], nine)
        with_card(g.concealed[p], g.turn_up)
        g.turn_up = nine
        g.meld_points[p] += _DIX_POINTS
        g.dixes += 1
        self._draw(g)

    def _draw(self, g: _Game) -> None:
        """After the announcement: the winner draws, then the loser, the turn-up last
        (classic rules, Announcements); the stock exhausted, the table cards go back
        to the hands."""
        w = g.current
        stock = g.stock
        first = stock[g.drawn]
        if g.drawn + 1 < len(stock):
            second = stock[g.drawn + 1]
            g.drawn += 2
        else:
            second = g.turn_up
            g.drawn += 1
            g.turn_up = -1
        with_card(g.concealed[w], first)
        with_card(g.concealed[1 - w], second)
        if g.drawn == len(stock) and g.turn_up < 0:
            for k in range(2):
                cards = g.concealed[k]
                for c in g.tables[k].cards:
                    cards.append(c)
                cards.sort()
            fill(g.tables, _EMPTY)
        g.phase = PLAY_PHASE

    def _end_hand(self, g: _Game, outcome: str, claimant: int, correct: bool) -> None:
        """Cards are added; a claim decides the game, else the merits: a seat alone at
        its target wins, both there play on to 250 more (classic rules, End of a hand);
        then the next deal, or the game's end."""
        scores = g.scores
        for k in range(2):
            scores[k] += g.meld_points[k] + g.taken[k]
        g.results += 1
        g.outcome = outcome
        end = claimant >= 0
        if not end:
            r0 = scores[0] >= g.targets[0]
            r1 = scores[1] >= g.targets[1]
            if r0 and r1:
                g.targets[0] += _TARGET_STEP
                g.targets[1] += _TARGET_STEP
            end = r0 != r1 or 0 <= self.max_hands <= g.hand_number
        g.current = -1
        g.trump = -1
        clear_all(g.concealed)
        fill(g.tables, _EMPTY)
        g.trick = ()
        g.stock = ()
        g.drawn = 0
        g.turn_up = -1
        if end:
            g.phase = OVER
        else:
            g.phase = DEAL
            g.dealer = 1 - g.dealer

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
        hand = self.hand_cols.offsets
        at_hand: i64 = base + self.hand_cols.base
        to_concealed: i64 = self.to_concealed
        tables = self.tables_cols.offsets
        at_tables: i64 = base + self.tables_cols.base
        width: i64 = self.width
        # A hand is its concealed and table cards.
        for c in g.concealed[seat]:  # count_one, written out: the hottest loop
            pos: i64 = at_hand + hand[c]
            counts[pos] = counts[pos] + 1
            pos += to_concealed
            counts[pos] = counts[pos] + 1
        for k in range(2):
            slots = g.tables[k].slots  # (slot, card) pairs
            write_f32_le(dense, float(len(g.concealed[k]) + len(slots)))
            row: i64 = at_tables + k * width
            for _, card in slots:
                c = card  # as an int
                count_one(counts, row + tables[c])
                if k == seat:
                    count_one(counts, at_hand + hand[c])
        if g.turn_up >= 0:
            count_one(counts, base + self.turn_up_col[g.turn_up])
        left = len(g.stock) - g.drawn
        if left:
            value_at(base + self.at_stock_size, left, at, values)
        values_to(g.meld_points, dense)
        values_to(g.taken, dense)
        if g.dixes:
            value_at(base + self.at_dixes, g.dixes, at, values)
        values_to(g.targets, dense)
        return False
