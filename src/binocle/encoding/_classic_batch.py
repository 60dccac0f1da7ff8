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

from typing import Any, Final, cast

from binocle._mypyc import mypyc_attr
from binocle.actions import CLAIM, DIX, PASS, PLAY, Action
from binocle.cards import Card
from binocle.core import GameState, Phase
from binocle.encoding._actions import _space
from binocle.encoding._batch import BatchGame, add, add_cards, check, replay, take, write_ids
from binocle.encoding._fast import FastEncoder
from binocle.profiles._classic_rules import _table_groups, _table_plays, announcement_action
from binocle.rules.classic_melds import (
    Announcement,
    MeldTable,
    announcements_of,
    lay_down,
    play_from_table,
)
from binocle.rules.deal import shuffled_pack
from binocle.rules.points import BINOCLE_POINTS, LAST_TRICK
from binocle.rules.tricks import _OBLIGATION_FOLLOW_WIN_TRUMP, _trick_winner, allowed_slice

__all__ = ["ClassicBatch"]

# The phases, as the observation tensor numbers them (their order in Phase).
_PHASES: Final = list(Phase)
DEAL: Final = _PHASES.index(Phase.DEAL)
PLAY_PHASE: Final = _PHASES.index(Phase.PLAY)
ANNOUNCE: Final = _PHASES.index(Phase.ANNOUNCE)
OVER: Final = _PHASES.index(Phase.OVER)

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
        self.concealed: list[tuple[int, ...]] = [(), ()]
        self.tables: list[MeldTable] = [_EMPTY, _EMPTY]
        self.trick: tuple[tuple[int, int], ...] = ()
        self.stock: tuple[int, ...] = ()  # top first, from ``drawn`` on
        self.drawn = 0
        self.turn_up = -1
        self.dixes = 0
        self.meld_points: list[int] = [0, 0]
        self.taken: list[int] = [0, 0]
        self.targets: list[int] = [0, 0]
        self.declined: list[bool] = [False, False]  # passed on knocking since the last trick
        # The ids whose action depends on the tables now: a table copy's slot, or
        # an announcement.
        self.slot_ids: list[int] = []
        self.slots: list[int] = []
        self.meld_ids: list[int] = []
        self.anns: list[Announcement] = []
        # Each seat's table plays (id, slot), for the table they were read from.
        self.plays_of: list[MeldTable | None] = [None, None]
        self.plays: list[list[tuple[int, int]]] = [[], []]


class ClassicBatch:
    """``n`` classic games of ``profile`` (a :class:`~binocle.profiles.classic.Classic`),
    with the observation columns of ``encoder`` (a :class:`FastEncoder` of it)."""

    def __init__(self, profile: Any, encoder: FastEncoder, n: int) -> None:
        self.profile = profile
        self.encoder = encoder
        self.grand_binocle: bool = profile.grand_binocle
        self.dix_rank: int = profile.dix_rank
        self.target: int = profile.target
        limit = profile.max_hands
        self.max_hands: int = -1 if limit is None else limit
        self.pack_size: int = profile.pack_size
        self.games: list[_Game] = [_Game() for _ in range(n)]
        space = self.space = _space(profile)
        fixed = space._fixed
        size: int = space.size
        self.table_play: int = space._table_play
        self.melds: int = space._melds
        # The action of each fixed id (None: it depends on the table, as a play from
        # the table does where two copies lie there), and each card's play id.
        self.action_of: list[Action | None] = [None] * size
        for action, i in fixed.items():
            if i < self.table_play:
                self.action_of[i] = action
        self.pass_id: int = fixed[PASS]
        self.dix_id: int = fixed[DIX]
        self.claim_id: int = fixed[CLAIM]
        self.play_id: list[int] = [-1] * 32
        self.card_of: list[int] = [-1] * size  # the card of a play from the hand
        for c in space.cards:
            k: int = c
            self.play_id[k] = fixed[PLAY[k]]
            self.card_of[self.play_id[k]] = k
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
        self.turn_up_col: list[int] = card["turn_up"]
        self.at_stock_size: int = one["stock_size"]
        self.at_meld_points: int = one["meld_points"]
        self.at_taken: int = one["taken"]
        self.at_dixes: int = one["dixes"]
        self.at_targets: int = one["targets"]
        self.gone_kind: list[int] = encoder.kind
        self.width: int = encoder.width

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and deep-copied) as its arguments and its games: the compiled
        # class has no other way.
        return (_restored, (self.profile, self.encoder, self.games))

    # -- games ------------------------------------------------------------------------

    def begin(self, i: int, seed: int, dealer: int) -> None:
        """Game ``i`` starts anew, dealt by ``dealer`` from ``seed``: its first hand dealt."""
        g = self.games[i]
        g.restart(seed, dealer)
        g.targets = [self.target, self.target]
        self.deal(i)

    def deal(self, i: int) -> None:
        """Deal game ``i``'s next hand from its seed (classic rules, Deal: the engine's
        deck and deal; a Nine of trumps turned up scores dix for the dealer)."""
        g = self.games[i]
        deck = shuffled_pack(self.pack_size, f"binocle:{g.seed}:{g.hand_number}")
        d = g.dealer
        hands: list[list[int]] = [[], [], [], []]  # the turn-up, then the stock
        to = self.dealt_to[d]
        for k in range(len(deck)):
            c: int = deck[k]
            hands[to[k]].append(c)
        turn_up = hands[2][0]
        g.hand_number += 1
        g.phase = PLAY_PHASE
        g.current = 1 - d
        g.trump = turn_up >> 3
        g.concealed = [tuple(sorted(hands[0])), tuple(sorted(hands[1]))]
        g.tables = [_EMPTY, _EMPTY]
        g.trick = ()
        g.stock = tuple(hands[3])
        g.drawn = 0
        g.turn_up = turn_up
        g.meld_points = [0, 0]
        g.dixes = 0
        if turn_up & 7 == self.dix_rank:
            g.meld_points[d] = _DIX_POINTS
            g.dixes = 1
        g.taken = [0, 0]
        g.declined = [False, False]
        self._legal(g)

    def waiting(self, i: int) -> bool:
        """Whether nobody decides in game ``i`` (between hands, or the game over)."""
        return self.games[i].current < 0

    def over(self, i: int) -> bool:
        return self.games[i].phase == OVER

    def results(self, i: int) -> int:
        """The hands ended so far in game ``i``."""
        return self.games[i].results

    def outcome(self, i: int) -> str:
        """How game ``i``'s last hand ended (a :class:`~binocle.HandResult` outcome)."""
        return self.games[i].outcome

    def scores(self, i: int) -> list[int]:
        return self.games[i].scores

    def state(self, i: int) -> GameState:
        """Game ``i``'s state, replayed through the engine: from where it was last
        asked for, else from the game's start."""
        return replay(self.games[i], self.profile, self.space, self.action_of)

    # -- legal ids --------------------------------------------------------------------

    def _legal(self, g: _Game) -> None:
        """The legal ids of the seat to act (classic rules, Play while the stock lasts,
        Announcements, Play after the stock, Claiming (knocking))."""
        lo = g.lo
        hi = g.hi
        lo.clear()
        hi.clear()
        g.slot_ids.clear()
        g.slots.clear()
        g.meld_ids.clear()
        g.anns.clear()
        p = g.current
        if p < 0:
            return
        concealed = g.concealed[p]
        stock_phase = g.drawn < len(g.stock) or g.turn_up >= 0
        if g.phase == ANNOUNCE:
            add(lo, hi, self.pass_id)
            if g.dixes < 2 and g.turn_up >= 0 and g.trump * 8 + self.dix_rank in concealed:
                add(lo, hi, self.dix_id)
            add(lo, hi, self.claim_id)
            table = g.tables[p]
            found: list[tuple[int, Announcement]] = []
            # The engine's functions take cards; card numbers serve as well (Card is an int).
            hand = cast(tuple[Card, ...], concealed)
            for ann in announcements_of(hand, table, g.trump, self.grand_binocle):
                found.append((self.encoder.meld_id(table, announcement_action(ann, table)), ann))
            found.sort(key=_first)
            for k, ann in found:
                add(lo, hi, k)
                g.meld_ids.append(k)
                g.anns.append(ann)
            return
        if not concealed and not (stock_phase and g.tables[p].slots):
            # The last trick is taken: knock or not, before the hand is counted.
            add(lo, hi, self.pass_id)
            add(lo, hi, self.claim_id)
            return
        add(lo, hi, self.claim_id)
        if stock_phase:  # any card, from the hand or the table
            add_cards(concealed, self.play_id, lo, hi)
            if g.tables[p].slots:
                for k, slot in self._table_plays(g, p):
                    add(lo, hi, k)
                    g.slot_ids.append(k)
                    g.slots.append(slot)
            return
        # Follow suit and win if able; void, trump; else any card.
        add_cards(
            allowed_slice(concealed, g.trick, g.trump, _OBLIGATION_FOLLOW_WIN_TRUMP),
            self.play_id,
            lo,
            hi,
        )

    def _table_plays(self, g: _Game, p: int) -> list[tuple[int, int]]:
        """Seat ``p``'s plays from its table, as (id, slot), by id: the engine's plays
        of the table, each copy's id as the action space gives it."""
        table = g.tables[p]
        if g.plays_of[p] is table:
            return g.plays[p]
        out: list[tuple[int, int]] = []
        space = self.space
        groups = _table_groups(table)
        for action in _table_plays(table):
            number = action.number
            card = action.card
            assert card is not None
            out.append(
                (
                    space._table_play_id(table, action),
                    groups[card][0] if number is None else number,
                )
            )
        out.sort(key=_first)
        g.plays_of[p] = table
        g.plays[p] = out
        return out

    # -- steps ------------------------------------------------------------------------

    def check(self, ids: list[int]) -> None:
        """Raise :class:`~binocle.IllegalActionError` (naming the game) unless every
        game's id is legal in it; nothing changes."""
        check(self.games, ids)

    def step(self, ids: list[int], played: list[int], rewards: list[int]) -> list[int]:
        """Play ``ids[i]`` in game ``i`` (checked by :meth:`check`); append, for a card
        played, ``i * width + kind`` to ``played``, and every seat's score change to
        ``rewards``.  Return the games where nobody decides now."""
        idle: list[int] = []
        width = self.width
        kind = self.gone_kind
        games = self.games
        for i in range(len(ids)):
            g = games[i]
            a = ids[i]
            g.log.append(a)
            s0 = g.scores[0]
            s1 = g.scores[1]
            c = self.card_of[a]
            if c >= 0:
                played.append(i * width + kind[c])
                take(g.concealed, g.current, c)
                self._play(g, c)
            elif a >= self.melds:
                self._meld(g, g.anns[g.meld_ids.index(a)])
            elif a >= self.table_play:
                slot = g.slots[g.slot_ids.index(a)]
                p = g.current
                table = g.tables[p]
                c = table.card_at(slot)
                played.append(i * width + kind[c])
                g.tables[p] = play_from_table(table, slot)
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
            scores = g.scores
            rewards.append(scores[0] - s0)
            rewards.append(scores[1] - s1)
            self._legal(g)
            if g.current < 0:
                idle.append(i)
        return idle

    def _play(self, g: _Game, c: int) -> None:
        """Card ``c`` (already out of the hand or off the table) to the trick."""
        p = g.current
        trick = g.trick
        if not trick:
            g.trick = ((p, c),)
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
        g.declined = [False, False]
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
        concealed, table = lay_down(cast(tuple[Card, ...], g.concealed[p]), g.tables[p], ann)
        g.concealed[p] = concealed
        g.tables[p] = table
        g.meld_points[p] += ann.combination.value
        self._draw(g)

    def _dix(self, g: _Game) -> None:
        """Dix (classic rules, Dix): the Nine of trumps for the turn-up, 10 points; then
        the draw."""
        p = g.current
        nine = g.trump * 8 + self.dix_rank
        take(g.concealed, p, nine)
        g.concealed[p] = tuple(sorted(g.concealed[p] + (g.turn_up,)))
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
        g.concealed[w] = _with(g.concealed[w], first)
        g.concealed[1 - w] = _with(g.concealed[1 - w], second)
        if g.drawn == len(stock) and g.turn_up < 0:
            for k in range(2):
                cards: list[int] = list(g.concealed[k])
                for c in g.tables[k].cards:
                    cards.append(c)
                g.concealed[k] = tuple(sorted(cards))
            g.tables = [_EMPTY, _EMPTY]
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
                g.targets = [g.targets[0] + _TARGET_STEP, g.targets[1] + _TARGET_STEP]
            end = r0 != r1 or 0 <= self.max_hands <= g.hand_number
        g.current = -1
        g.trump = -1
        g.concealed = [(), ()]
        g.tables = [_EMPTY, _EMPTY]
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

    def write(
        self,
        ones: list[int],
        at: list[int],
        values: list[int],
        lo: list[int],
        lens: list[int],
        totals: list[int],
        seats: list[int],
        whole: list[int],
    ) -> None:
        """Every game's observation tensor of its seat to decide, without the cards
        played this hand, its legal ids and its seat, as
        :meth:`binocle.encoding._cutthroat_batch.CutthroatBatch.write` writes them
        (none whole)."""
        enc = self.encoder
        size: int = enc.size
        num_actions: int = enc.num_actions
        width = self.width
        at_seat = enc.at_seat
        at_to_act = enc.at_to_act
        at_dealer = enc.at_dealer
        at_phase = enc.at_phase
        at_trump = enc.at_trump
        at_sizes = enc.at_hand_sizes
        at_scores = enc.at_scores
        hand_col = self.hand_col
        concealed_col = self.concealed_col
        tables_col = self.tables_col
        trick_seat = enc.trick_seat[0]
        trick_card = enc.trick_card[0]
        games = self.games
        for i in range(len(games)):
            g = games[i]
            base = i * size
            seat = g.current
            seats.append(seat)
            ones.append(base + at_seat + seat)
            ones.append(base + at_to_act + seat)
            ones.append(base + at_dealer + g.dealer)
            ones.append(base + at_phase + g.phase)
            ones.append(base + at_trump + g.trump)
            # A hand is its concealed and table cards.
            for c in g.concealed[seat]:
                ones.append(base + hand_col[c])
                ones.append(base + concealed_col[c])
            for k in range(2):
                slots = g.tables[k].slots  # (slot, card) pairs
                n = len(g.concealed[k]) + len(slots)
                if n:
                    at.append(base + at_sizes + k)
                    values.append(n)
                row = base + k * width
                for _, c in slots:
                    ones.append(row + tables_col[c])
                    if k == seat:
                        ones.append(base + hand_col[c])
            for who, c in g.trick:  # one card at most: the second ends it
                ones.append(base + trick_seat[who])
                ones.append(base + trick_card[c])
            _values(base + at_scores, g.scores, at, values)
            if g.turn_up >= 0:
                ones.append(base + self.turn_up_col[g.turn_up])
            left = len(g.stock) - g.drawn
            if left:
                at.append(base + self.at_stock_size)
                values.append(left)
            _values(base + self.at_meld_points, g.meld_points, at, values)
            _values(base + self.at_taken, g.taken, at, values)
            if g.dixes:
                at.append(base + self.at_dixes)
                values.append(g.dixes)
            _values(base + self.at_targets, g.targets, at, values)
            write_ids(g, i * num_actions, lo, lens, totals)


def _restored(profile: Any, encoder: FastEncoder, games: list[_Game]) -> ClassicBatch:
    """A pickled batch, read back."""
    batch = ClassicBatch(profile, encoder, len(games))
    batch.games = games
    return batch


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def _with(hand: tuple[int, ...], c: int) -> tuple[int, ...]:
    """The sorted ``hand`` with card ``c`` in its place."""
    cards = list(hand)
    cards.append(c)
    cards.sort()
    return tuple(cards)


def _values(start: int, numbers: list[int], at: list[int], values: list[int]) -> None:
    """Each nonzero number at its column, from ``start``."""
    for v in numbers:
        if v:
            at.append(start)
            values.append(v)
        start += 1
