"""Three-handed games held as plain numbers and stepped in place, for the vectorized
environment.

As :mod:`binocle.encoding._cutthroat_batch` does for cutthroat,
:class:`ThreeHandedBatch` holds each three-handed game as one small object changed
in place: the hands and the trick as the engine holds them, the hand's figures
and the scores.  It plays by the rules of
:class:`~binocle.profiles.three_handed.ThreeHanded` (three-handed rules: Deal; Dix;
Melds; Overlooked melds; Play; Claiming (knocking), with retirement and its dead
cards; Scoring; End of a hand; every option).  The meld tables are the engine's
own (:class:`~binocle.rules.classic_melds.MeldTable`), and so are the rules that
read them and the cards (the legal announcements, laying one down, the best
meld), the trick obligations and the winner of a trick that holds a retired
player's card.

After a retirement in a hand that nobody wins, the two players left go on with
the classic two-handed game, which the engine runs inside its three-handed state:
from then until the episode ends, the game is stepped through the engine (its
state rebuilt by replaying the game's action ids), as a custom profile is.

It deals the same decks from the same seeds and writes the same observation
tensor and legal ids as :class:`~binocle.encoding._fast.FastEncoder` reads from
the engine's states; ``tests/test_vector.py`` steps both side by side and
compares every array at every step.

The compiled build compiles this module; it is written with typed locals and no
closures.
"""

from __future__ import annotations

from typing import Any, Final, cast

from librt.strings import BytesWriter
from librt.vecs import vec
from mypy_extensions import i64

from binocle._mypyc import mypyc_attr
from binocle._step import apply, legal_actions
from binocle.actions import CLAIM, CLAIM_OVERLOOKED, DIX, DIX2, MELD, PASS, Action, Kind
from binocle.cards import Card, Suit
from binocle.core import GameState, Phase
from binocle.encoding._batch import (
    DEAL,
    OVER,
    PHASES,
    Batch,
    BatchGame,
    add_announcements,
    clear_all,
    count_one,
    fill,
    hand_columns,
    numbers,
    replay,
    set_all,
    take,
    value_at,
    values_to,
    with_card,
)
from binocle.encoding._fast import FastEncoder
from binocle.encoding._shuffle import shuffled_deck
from binocle.profiles._three_handed_rules import _obligation_trick, _trick_done, live_winner
from binocle.rules.classic_melds import (
    Announcement,
    MeldTable,
    best_meld_of,
)
from binocle.rules.points import BINOCLE_POINTS, LAST_TRICK
from binocle.rules.tricks import Obligation, _trick_winner, allowed_slice

__all__ = ["ThreeHandedBatch"]

# The phases, as the observation tensor numbers them (their order in Phase).
DIX_PHASE: Final = PHASES.index(Phase.DIX)
MELD_PHASE: Final = PHASES.index(Phase.MELD)
PLAY_PHASE: Final = PHASES.index(Phase.PLAY)

_EMPTY: Final = MeldTable.EMPTY
_RULE: Final = Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP
_PLAY_KIND: Final = Kind.PLAY
_NINE: Final = 5
_DIX_POINTS: Final = 10
_TARGET_STEP: Final = 250


@mypyc_attr(serializable=True)
class _Game(BatchGame):
    """One three-handed game in numbers (-1 for "none")."""

    def __init__(self) -> None:
        BatchGame.__init__(self, 3)
        # The hands (sorted card numbers, the cards laid down on the table among
        # them; lists changed in place, a card played taken out with no new object)
        # and the trick's ``(seat, card)`` pairs, as the engine's state holds them;
        # the meld tables are the engine's.
        self.hands: list[list[int]] = [[], [], []]
        self.tables: list[MeldTable] = [_EMPTY, _EMPTY, _EMPTY]
        self.trick: tuple[tuple[int, int], ...] = ()
        self.turn_up = -1
        self.exchanged = False
        # The figures by seat (those the observation shows and those the legal ids
        # read), as machine integers.
        self.nines_shown = numbers(3)
        self.announced = numbers(3)
        self.shown = numbers(3)  # the value of the combinations shown
        self.scored: list[bool] = [False, False, False]
        self.meld_scored = numbers(3)
        self.recorded = numbers(3)
        self.taken = numbers(3)
        self.tricks = 0
        self.retired = -1
        self.best = numbers(3)
        self.targets = numbers(3)
        self.declined: list[bool] = [False, False, False]  # passed on knocking
        # An overlooked meld offered (option claim_overlooked): its seat (-1: none),
        # points, the seats still to be asked and the seat that plays on.
        self.offer_seat = -1
        self.offer_points = 0
        self.offer_asked: list[int] = []
        self.offer_resume = -1
        # The announcements legal now, by id.
        self.meld_ids: list[int] = []
        self.anns: list[Announcement] = []
        # The engine's state, once the game is stepped through the engine (the
        # two-handed game after a retirement), with its legal actions and their ids.
        self.engine: GameState | None = None
        self.legal: tuple[Action, ...] = ()
        self.legal_ids: tuple[int, ...] = ()


class ThreeHandedBatch(Batch):
    """``n`` three-handed games of ``profile`` (a
    :class:`~binocle.profiles.three_handed.ThreeHanded`), with the observation
    columns of ``encoder`` (a :class:`FastEncoder` of it)."""

    def __init__(self, profile: Any, encoder: FastEncoder, n: int) -> None:
        games: list[BatchGame] = [_Game() for _ in range(n)]
        Batch.__init__(self, profile, encoder, games)
        self.grand_binocle: bool = profile.grand_binocle
        self.claim_overlooked: bool = profile.claim_overlooked
        self.lowest_pays: bool = profile.lowest_pays
        self.meld_until_first_card: bool = profile.meld_until_first_card
        space = self.space
        fixed = space._fixed
        for action, i in fixed.items():
            self.action_of[i] = action
        self.pass_id: int = fixed[PASS]
        self.dix_id: int = fixed[DIX]
        self.dix2_id: int = fixed[DIX2]
        self.meld_id: int = fixed[MELD]
        self.claim_id: int = fixed[CLAIM]
        self.overlooked_id: int = fixed[CLAIM_OVERLOOKED]
        self.melds: int = space._melds
        # Where each card of the deck goes, by dealer (the profile's deal schedule).
        self.dealt_to: list[list[int]] = []
        for d in range(3):
            to: list[int] = []
            for target, count in profile.deal_schedule(d):
                to.extend([int(target)] * count)
            self.dealt_to.append(to)
        one = encoder.one
        self.turn_up_col: list[int] = encoder.card["turn_up"]
        self.at_exchanged: int = one["exchanged"]
        self.at_scored: int = one["scored"]
        self.at_retired: int = one["retired"]
        self.at_overlooked: int = one["overlooked"]
        self.dense(("hand_sizes", "dix_shown", "announced", "recorded", "taken", "targets"))

    # -- games ------------------------------------------------------------------------

    def begin(self, i: int, seed: int, dealer: int) -> None:
        """Game ``i`` starts anew, dealt by ``dealer`` from ``seed``: its first hand dealt."""
        g = self._game(i)
        g.restart(seed, dealer)
        g.engine = None
        set_all(g.targets, self.target)
        self.deal(i)

    def _game(self, i: int) -> _Game:
        return cast(_Game, self.games[i])

    def deal(self, i: int) -> None:
        """Deal game ``i``'s next hand from its seed (three-handed rules, Deal: the
        engine's deck and deal; the dealer's last card turned for trump)."""
        g = self._game(i)
        if g.engine is not None:
            self._engine_step(g, legal_actions(g.engine)[0])
            return
        deck = shuffled_deck(self.pack_size, f"binocle:{g.seed}:{g.hand_number}")
        d = g.dealer
        hands = g.hands
        clear_all(hands)
        to = self.dealt_to[d]
        for k in range(len(deck)):
            c: int = deck[k]
            hands[to[k]].append(c)
        turn_up = hands[d][-1]
        g.hand_number += 1
        g.phase = DIX_PHASE
        g.current = (d + 1) % 3  # the dix turns begin from the dealer's left
        g.trump = turn_up >> 3
        for k in range(3):
            hands[k].sort()
        fill(g.tables, _EMPTY)
        g.trick = ()
        g.turn_up = turn_up
        g.exchanged = False
        set_all(g.nines_shown, 0)
        set_all(g.announced, 0)
        set_all(g.shown, 0)
        fill(g.scored, False)
        set_all(g.meld_scored, 0)
        set_all(g.recorded, 0)
        set_all(g.taken, 0)
        g.tricks = 0
        g.retired = -1
        set_all(g.best, 0)  # worked out when the melds begin, after the dix turns
        fill(g.declined, False)
        g.offer_seat = -1
        self._legal(g)

    def _best(self, cards: tuple[int, ...], trump: int) -> int:
        """The best meld of ``cards`` (the engine's function: numbers serve as cards)."""
        return best_meld_of(cast(tuple[Card, ...], cards), trump, self.grand_binocle)[0]

    def state(self, i: int) -> GameState:
        """Game ``i``'s state: the engine's own where it steps through the engine,
        else replayed through the engine from where it was last asked for (else from
        the game's start)."""
        engine = self._game(i).engine
        return engine if engine is not None else Batch.state(self, i)

    # -- legal ids --------------------------------------------------------------------

    def _legal(self, game: BatchGame) -> None:
        """The legal ids of the seat to act (three-handed rules, Dix, Melds, Overlooked
        melds, Play, Claiming (knocking))."""
        g = cast(_Game, game)
        ranges = g.ranges
        ranges.n = 0
        if g.meld_ids:  # filled in pairs: empty together
            g.meld_ids.clear()
            g.anns.clear()
        p = g.current
        if p < 0:
            return
        engine = g.engine
        if engine is not None:
            legal = legal_actions(engine)
            ids = self.encoder.legal_ids(engine, legal)
            g.legal = legal
            g.legal_ids = ids
            for k in sorted(ids):
                ranges.add(k)
            return
        phase = g.phase
        if phase == PLAY_PHASE:
            if g.offer_seat >= 0:
                ranges.add(self.pass_id)
                ranges.add(self.overlooked_id)
                return
            hand = g.hands[p]
            if not hand:  # the last trick is taken: knock or not
                ranges.add(self.pass_id)
                ranges.add(self.claim_id)
                return
            cards = tuple(hand)  # as the rules' functions take a hand
            if self.meld_until_first_card and _before_first_card(g, p) and g.shown[p] < g.best[p]:
                # Three-handed rules, Melds: more announcements until his first card.
                if g.shown[p] == 0:
                    ranges.add(self.meld_id)
                ranges.add(self.claim_id)
                ranges.add_cards(self._allowed(g, cards), self.play_ids)
                self._announcements(g, p, cards)
                return
            ranges.add(self.claim_id)
            ranges.add_cards(self._allowed(g, cards), self.play_ids)
            return
        if phase == DIX_PHASE:
            ranges.add(self.pass_id)
            n = self._nines_to_show(g, p)
            if n:
                ranges.add(self.dix_id)
            if n == 2:
                ranges.add(self.dix2_id)
            return
        # MELD_PHASE
        ranges.add(self.pass_id)
        if g.shown[p] < g.best[p]:
            if g.shown[p] == 0:
                ranges.add(self.meld_id)
            self._announcements(g, p, tuple(g.hands[p]))

    def _allowed(self, g: _Game, hand: tuple[int, ...]) -> tuple[int, ...]:
        """The cards ``hand`` may play to the trick (a retired player's card wins nothing)."""
        trick = g.trick
        if not trick:
            return hand
        if g.retired >= 0:
            trick = _obligation_trick(trick, g.retired)
        return allowed_slice(hand, trick, g.trump, _RULE)

    def _announcements(self, g: _Game, p: int, cards: tuple[int, ...]) -> None:
        """Each single combination ``p`` may announce with the cards he has not laid
        down (``cards``: his hand), into the ranges by id."""
        add_announcements(
            self.encoder, cards, self.memo(g, p, g.tables[p]), g.trump,
            self.grand_binocle, g.ranges, g.meld_ids, g.anns, self.fresh_ids,
            self.plain_ids, True,
        )  # fmt: skip

    def _nines_to_show(self, g: _Game, p: int) -> int:
        """Nines of trumps ``p`` holds and has not shown, less one the dealer was given."""
        nine = g.trump * 8 + _NINE
        n = 0
        for c in g.hands[p]:
            if c == nine:
                n += 1
        if p == g.dealer and g.exchanged:
            n -= 1
        n -= g.nines_shown[p]
        return n if n > 0 else 0

    # -- steps ------------------------------------------------------------------------

    def _act(self, game: BatchGame, a: int, i: int, played: BytesWriter) -> None:
        g = cast(_Game, game)
        if g.engine is not None:
            action = g.legal[g.legal_ids.index(a)]
            card = action.card
            if action.kind is _PLAY_KIND and card is not None:
                self._played(i, card, played)
            self._engine_step(g, action)
            return
        c = self.card_of[a]
        if c >= 0:
            self._played(i, c, played)
            self._play(g, c)
        elif a >= self.melds:
            self._announce(g, g.anns[g.meld_ids.index(a)])
        elif a == self.meld_id:
            self._declare(g)
        elif a == self.pass_id:
            self._pass(g)
        elif a == self.dix_id:
            self._dix(g, 1)
        elif a == self.dix2_id:
            self._dix(g, 2)
        elif a == self.overlooked_id:
            self._claim_overlooked(g)
        else:
            self._claim(g)

    def _engine_step(self, g: _Game, action: Action) -> None:
        """One step of a game held by the engine, its numbers read back from its state."""
        engine = g.engine
        assert engine is not None
        s = apply(engine, action)
        g.engine = s
        g.seen = s
        g.seen_at = len(g.log)
        p = s.current_player
        g.current = -1 if p is None else p
        g.phase = PHASES.index(s.phase)
        g.scores = vec[i64](s.scores)
        results = s.results
        g.results = len(results)
        g.outcome = results[-1].outcome if results else ""
        if p is not None:
            self._legal(g)

    def _pass(self, g: _Game) -> None:
        p = g.current
        phase = g.phase
        if g.offer_seat >= 0:  # the overlooked meld let go
            self._offer_passed(g)
        elif phase == PLAY_PHASE:  # after the last trick: no knock
            g.declined[p] = True
            self._after_last_trick(g, (p + 1) % 3, (p + 2) % 3, -1)
        elif phase == DIX_PHASE:
            self._next_dix(g, p)
        else:
            self._next_melder(g, p)

    def _next_dix(self, g: _Game, p: int) -> None:
        """After ``p``'s dix turn: the next player's, the dealer last; then the melds
        from the dealer's left."""
        d = g.dealer
        if p != d:
            g.current = (p + 1) % 3
        else:
            g.phase = MELD_PHASE
            g.current = (d + 1) % 3
            # Each hand's best meld, as the dix turns left the hands.
            for k in range(3):
                g.best[k] = self._best(tuple(g.hands[k]), g.trump)

    def _next_melder(self, g: _Game, p: int) -> None:
        """After ``p``'s meld turn: the next player's, or the play once all have had theirs."""
        nxt = (p + 1) % 3
        if nxt == (g.dealer + 1) % 3:
            g.phase = PLAY_PHASE
        g.current = nxt

    def _dix(self, g: _Game, n: int) -> None:
        """Dix (three-handed rules, Dix): shown and announced; the first non-dealer to
        show one exchanges it for the turn-up."""
        p = g.current
        nine = g.trump * 8 + _NINE
        d = g.dealer
        if p != d and not g.exchanged and g.turn_up != nine:
            # His Nine for the turn-up, which the dealer holds.
            take(g.hands[p], nine)
            with_card(g.hands[p], g.turn_up)
            take(g.hands[d], g.turn_up)
            with_card(g.hands[d], nine)
            g.exchanged = True
        g.announced[p] += _DIX_POINTS * n
        g.nines_shown[p] += n
        self._next_dix(g, p)

    def _declare(self, g: _Game) -> None:
        """``meld``: the best declaration (three-handed rules, Melds); in the meld turn it
        ends the turn, in the play the player still plays a card."""
        p = g.current
        g.announced[p] += g.best[p]
        g.shown[p] = g.best[p]
        if g.phase == MELD_PHASE:
            self._next_melder(g, p)

    def _announce(self, g: _Game, ann: Announcement) -> None:
        """One combination laid down (three-handed rules, Melds); the turn goes on."""
        p = g.current
        g.tables[p] = self.after(g, p, g.tables[p], ann)
        value = ann.combination.value
        g.shown[p] += value
        g.announced[p] += value

    def _play(self, g: _Game, c: int) -> None:
        p = g.current
        first = self.claim_overlooked and _before_first_card(g, p)
        take(g.hands[p], c)
        trick = g.trick + self.one_play[p * 32 + c]
        g.trick = trick
        out = g.retired
        if len(trick) < 3 if out < 0 else not _trick_done(trick, out):
            seat = (p + 1) % 3
            if seat == out:
                seat = (seat + 1) % 3
            g.current = seat
        else:
            self._finish_trick(g)
        if first:
            self._offer_overlooked(g, p)

    def _finish_trick(self, g: _Game) -> None:
        """The trick's winner takes it and scores his announcements with his first trick;
        a retired player's card in it wins nothing and counts for nobody."""
        trick = g.trick
        out = g.retired
        points = 0
        if out >= 0 and _holds(trick, out):
            winning = live_winner(cast(tuple[tuple[int, Card], ...], trick), out, Suit(g.trump))
            assert winning is not None
            w: int = winning[0]
            for seat, c in trick:
                if seat != out:
                    points += BINOCLE_POINTS[c]
        else:
            cards: list[int] = []
            for _, c in trick:
                cards.append(c)
                points += BINOCLE_POINTS[c]
            w = trick[_trick_winner(cards, g.trump)][0]
        g.taken[w] += points
        if not g.scored[w]:
            g.meld_scored[w] = g.announced[w]
            g.recorded[w] += g.announced[w]
            g.scored[w] = True
        g.trick = ()
        g.tricks += 1
        g.current = w
        hands = g.hands
        if hands[0] or hands[1] or hands[2]:
            return
        # The last trick scores 10 at once (three-handed rules, Scoring); then a player
        # who has reached his target may knock before the hand is counted.
        g.recorded[w] += LAST_TRICK
        g.taken[w] += LAST_TRICK
        fill(g.declined, False)
        self._after_last_trick(g, w, (w + 1) % 3, (w + 2) % 3)

    def _after_last_trick(self, g: _Game, a: int, b: int, c: int) -> None:
        """After the last trick (three-handed rules, Claiming (knocking)): the first of
        ``a``, ``b``, ``c`` (-1: nobody) still in the hand whose claim would be correct,
        and who has not declined, is asked to knock; with nobody, the hand is counted."""
        for seat in (a, b, c):
            if (
                seat >= 0
                and seat != g.retired
                and not g.declined[seat]
                and self._claim_total(g, seat) >= g.targets[seat]
            ):
                g.current = seat
                return
        self._end_hand(g, -1, -1, False)

    def _claim_total(self, g: _Game, seat: int) -> int:
        """The profile's ``claim_total``: the game score, the melds scored this hand and
        the card points taken."""
        return g.scores[seat] + g.meld_scored[seat] + g.taken[seat]

    def _claim(self, g: _Game) -> None:
        """A correct claim wins; a wrong one retires the claimant (three-handed rules,
        Claiming (knocking)); with lowest_pays it ends the game, and a second wrong
        claim leaves the last player the winner."""
        p = g.current
        if self._claim_total(g, p) >= g.targets[p]:
            self._end_hand(g, p, -1, False)
            return
        if self.lowest_pays:
            self._end_hand(g, -1, p, True)
            return
        if g.retired >= 0:
            self._end_hand(g, 3 - p - g.retired, -1, False)
            return
        # His cards are dead; a card he played to the trick in progress stays there.
        g.retired = p
        g.hands[p].clear()
        g.current = (p + 1) % 3
        trick = g.trick
        if trick and _trick_done(trick, p):
            self._finish_trick(g)
        elif not (g.hands[0] or g.hands[1] or g.hands[2]):
            self._end_hand(g, -1, -1, False)

    def _offer_overlooked(self, g: _Game, p: int) -> None:
        """Option claim_overlooked: ``p`` has just played his first card; the best meld
        of the cards he laid down, less what he announced, is offered to the others
        in turn from his left (three-handed rules, Overlooked melds)."""
        if g.current < 0:
            return
        table = g.tables[p]
        if not table.slots:
            return
        cards: list[int] = []
        for _, c in table.slots:
            cards.append(c)
        cards.sort()
        points = self._best(tuple(cards), g.trump) - g.shown[p]
        if points <= 0:
            return
        asked: list[int] = []
        for seat in ((p + 1) % 3, (p + 2) % 3):
            if seat != g.retired:
                asked.append(seat)
        g.offer_seat = p
        g.offer_points = points
        g.offer_asked = asked
        g.offer_resume = g.current
        g.current = asked[0]

    def _claim_overlooked(self, g: _Game) -> None:
        """The overlooked meld claimed: announced by the claimant (scored at once if he
        has won a trick)."""
        p = g.current
        points = g.offer_points
        g.announced[p] += points
        if g.scored[p]:
            g.meld_scored[p] += points
            g.recorded[p] += points
        g.current = g.offer_resume
        g.offer_seat = -1

    def _offer_passed(self, g: _Game) -> None:
        rest: list[int] = []
        for seat in g.offer_asked[1:]:
            if seat != g.retired:
                rest.append(seat)
        if rest:
            g.offer_asked = rest
            g.current = rest[0]
        else:
            g.current = g.offer_resume
            g.offer_seat = -1

    def _end_hand(self, g: _Game, winner: int, retiring: int, over: bool) -> None:
        """Cards are added; the targets and the game (three-handed rules, End of a hand).
        A retirement in a hand nobody wins leaves the two-handed game, which the
        engine steps from then on."""
        out = g.retired if g.retired >= 0 else retiring
        scores = g.scores
        for k in range(3):
            scores[k] += g.meld_scored[k] + g.taken[k]
        g.results += 1
        g.outcome = "retired" if out >= 0 else "claimed" if winner >= 0 else "played"
        end = winner >= 0 or over
        if not end:
            reached: list[int] = []
            for k in range(3):
                if k != out and scores[k] >= g.targets[k]:
                    reached.append(k)
            if len(reached) == 1:
                end = True
            elif len(reached) > 1:
                for k in reached:
                    g.targets[k] += _TARGET_STEP
            if not end and 0 <= self.max_hands <= g.hand_number:
                end = True
        g.current = -1
        g.trump = -1
        clear_all(g.hands)
        g.trick = ()
        g.offer_seat = -1
        if end:
            g.phase = OVER
            return
        g.phase = DEAL
        g.dealer = (g.dealer + 1) % 3
        if out >= 0:
            # The two-handed game: stepped through the engine from its state now.
            g.engine = replay(g, self.profile, self.space, self.action_of)

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
        engine = g.engine
        if engine is not None:
            return self._write_engine(engine, seat, base, counts, at, values, dense)
        hand_columns(g.hands, seat, base, self.hand_cols, counts, dense)
        count_one(counts, base + self.turn_up_col[g.turn_up])
        if g.exchanged:
            count_one(counts, base + self.at_exchanged)
        values_to(g.nines_shown, dense)
        values_to(g.announced, dense)
        for k in range(3):
            if g.scored[k]:
                count_one(counts, base + self.at_scored + k)
        values_to(g.recorded, dense)
        values_to(g.taken, dense)
        values_to(g.targets, dense)
        if g.retired >= 0:
            count_one(counts, base + self.at_retired + g.retired)
        if g.offer_seat >= 0:
            count_one(counts, base + self.at_overlooked + g.offer_seat)
            value_at(base + self.at_overlooked + 3, g.offer_points, at, values)
        return False

    def _write_engine(
        self,
        engine: GameState,
        seat: int,
        base: i64,
        counts: BytesWriter,
        at: BytesWriter,
        values: BytesWriter,
        dense: BytesWriter,
    ) -> bool:
        """The observation of a game stepped through the engine, as the encoder writes it
        (True where whole, read from the view); the ``dense`` columns among it to
        ``dense``, as :meth:`Batch._observe` says."""
        own_ones: list[int] = []
        own_at: list[int] = []
        own_values: list[float] = []
        read_whole = self.encoder.observe(engine, seat, own_ones, own_at, own_values, False)
        dense_at = self.dense_at
        found = [0] * len(self.dense_cols)
        for k in own_ones:
            d = dense_at[k]
            if d >= 0:
                found[d] += 1
            else:
                count_one(counts, base + k)
        for k in range(len(own_at)):
            v = own_values[k]
            n = int(v)
            if n != v:  # pragma: no cover - the observation tensor holds whole numbers
                raise AssertionError(f"observation value {v} is not a whole number")
            d = dense_at[own_at[k]]
            if d >= 0:
                found[d] = n
            else:
                value_at(base + own_at[k], n, at, values)
        if not read_whole:  # the scores follow, from the batch
            del found[len(found) - self.players :]
        values_to(vec[i64](found), dense)
        return read_whole


def _before_first_card(g: _Game, p: int) -> bool:
    """Whether ``p`` has not yet played his first card of the hand (trick 1)."""
    if g.tricks:
        return False
    return not _holds(g.trick, p)


def _holds(trick: tuple[tuple[int, int], ...], seat: int) -> bool:
    """Whether ``seat`` has a card in ``trick``."""
    return any(who == seat for who, _ in trick)
