"""Profile ``classic``: two-handed Binocle to 1000 with a stock (classic rules).

Phases: DEAL → PLAY (free play while the stock lasts) ⇄ ANNOUNCE (the trick's
winner: one meld, the dix exchange, or nothing; then both draw) … → PLAY
(strict, once the stock is exhausted and the table cards are taken back) →
DEAL again, or OVER.  Either player may knock (``claim``) in PLAY and
ANNOUNCE, whoever is to act: the player to act with ``claim``, the other with
``claim <seat>`` (:meth:`Classic.claimants`).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, ClassVar, Final

import attrs

from binocle import actions as A
from binocle.actions import Action, Kind
from binocle.cards import CARDS, Card, Suit, format_cards, pack, parse_card
from binocle.core import (
    GameState,
    HandResult,
    Meld,
    MeldResult,
    Phase,
    Profile,
    View,
    flag_option,
    positive_option,
    public_log,
    remove_card,
    replace_at,
    state_builder,
    state_updater,
    top_scorer,
)
from binocle.errors import InvalidStateError
from binocle.rules.classic_melds import (
    Announcement,
    Combination,
    MeldTable,
    announce,
    announcements_of,
    best_meld,
    fresh_announcement,
    play_from_table,
)
from binocle.rules.points import BINOCLE_POINTS, LAST_TRICK
from binocle.rules.tricks import Obligation, obligation_broken

__all__ = ["Classic", "ClassicState", "announcement_action", "classic_revoke_penalty"]

_NINE, _SEVEN = 5, 7
DIX_POINTS = 10
TARGET_STEP = 250


def _pack(instance: Any, attribute: Any, value: int) -> None:
    if value not in (48, 64):
        raise ValueError(f"pack must be 48 or 64, not {value!r}")


@attrs.frozen(slots=True)
class Classic(Profile):
    """Two-handed Binocle with a stock, sequential melding, dix and knocking.

    Options: ``target`` (1000), ``grand_binocle`` (false: K♠ Q♠ J♦ for 80,
    "not often played in America"), ``pack`` (48, or 64 with Eights and Sevens:
    twelve cards dealt, a longer stock, the Seven of trumps takes the place of
    the Nine for dix).
    """

    name: ClassVar[str] = "classic"
    aliases: ClassVar[tuple[str, ...]] = ("two-handed", "binocle", "two-hand")
    players: ClassVar[int] = 2
    description: ClassVar[str] = "two-handed Binocle to 1000 with a stock"

    target: int = attrs.field(default=1000, validator=positive_option)
    grand_binocle: bool = attrs.field(default=False, validator=flag_option)
    pack: int = attrs.field(default=48, validator=_pack)

    @property
    def pack_size(self) -> int:
        return self.pack

    @property
    def dix_rank(self) -> int:
        """The rank that makes dix: the Nine, or the Seven in the 64-card pack."""
        return _SEVEN if self.pack == 64 else _NINE

    # -- states ----------------------------------------------------------------

    def initial(self, seed: int, dealer: int) -> ClassicState:
        return _new_state(
            self, seed, dealer, 0, Phase.DEAL, dealer, None, None, ((), ()), (), (0, 0), (),
            None, ((), ()), (_EMPTY_TABLE, _EMPTY_TABLE), (), None, 0, (0, 0), (0, 0),
            ((), ()), (), (self.target, self.target), None,
        )  # fmt: skip

    def stock_phase(self, s: ClassicState) -> bool:
        """Whether the stock lasts (free play, announcements)."""
        return bool(s.stock) or s.turn_up is not None

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        s: ClassicState = state  # type: ignore[assignment]
        phase = s.phase
        if phase is Phase.PLAY:
            return self._play_actions(s)
        if phase is Phase.ANNOUNCE:
            p = s.current_player
            assert p is not None
            out: list[Action] = [A.PASS]
            if self._may_dix(s, p):
                out.append(A.DIX)
            out.extend(announcement_action(a, s.tables[p]) for a in self._announcements(s, p))
            out.append(A.CLAIM)
            return tuple(out)
        if phase is Phase.DEAL:
            return (self.deal_for(s),)
        return ()

    def _play_actions(self, s: ClassicState) -> tuple[Action, ...]:
        p = s.current_player
        assert p is not None
        concealed = s.concealed[p]
        if s.stock or s.turn_up is not None:
            # Free play while the stock lasts: any card, from the hand or the table.
            table = s.tables[p]
            if table.slots:
                return (*map(_PLAY_OF, dict.fromkeys(concealed)), *_table_plays(table), A.CLAIM)
            return (*map(_PLAY_OF, dict.fromkeys(concealed)), A.CLAIM)
        trick = s.trick
        if not trick:
            return (*map(_PLAY_OF, dict.fromkeys(concealed)), A.CLAIM)
        # After the stock (classic rules, Play after the stock): follow suit and win if
        # able; void, trump (any trump wins a plain card); else any card.  The sorted
        # hand holds each suit together, the stronger cards first.
        led = trick[0][1]
        suit = led >> 3
        lo = bisect_left(concealed, suit << 3)
        hi = bisect_left(concealed, (suit + 1) << 3, lo)
        if lo < hi:
            top = bisect_left(concealed, led, lo, hi)
            return _plays_and_claim(concealed[lo : top if top > lo else hi])
        trump = s.trump
        if trump is not None:
            lo = bisect_left(concealed, trump << 3)
            hi = bisect_left(concealed, (trump + 1) << 3, lo)
            if lo < hi:
                return _plays_and_claim(concealed[lo:hi])
        return (*map(_PLAY_OF, dict.fromkeys(concealed)), A.CLAIM)

    def _announcements(self, s: ClassicState, p: int) -> tuple[Announcement, ...]:
        assert s.trump is not None
        return announcements_of(s.concealed[p], s.tables[p], s.trump, self.grand_binocle)

    def _may_dix(self, s: ClassicState, p: int) -> bool:
        """Dix (classic rules, Dix): a Nine of trumps held, a turn-up to take, two dix at most."""
        assert s.trump is not None
        return s.dixes < 2 and s.turn_up is not None and self._dix_card(s) in s.concealed[p]

    def _dix_card(self, s: ClassicState) -> Card:
        assert s.trump is not None
        return CARDS[s.trump * 8 + self.dix_rank]

    # -- transitions -----------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> GameState:
        s: ClassicState = state  # type: ignore[assignment]
        kind = action.kind
        if kind is Kind.PLAY:
            return self._play(s, action)
        if kind is Kind.DEAL:
            return self._deal(s, action)
        if kind is Kind.CLAIM:
            return self._claim(s, action)
        if kind is Kind.PASS:
            return self._draw(s, action, s.concealed, s.tables, s.meld_points, s.turn_up, s.dixes)
        if kind is Kind.DIX:
            return self._dix(s, action)
        if kind is Kind.MELD:
            return self._meld(s, action)
        raise AssertionError(f"unhandled action {action}")  # pragma: no cover

    def deal_schedule(self, dealer: int) -> tuple[tuple[int | str, int], ...]:
        """Four at a time for three rounds, pone first; the 25th card turned up;
        the rest the stock, top first (classic rules, Deal)."""
        pone = 1 - dealer
        return ((pone, 4), (dealer, 4)) * 3 + (("turn_up", 1), ("stock", self.pack - 25))

    def _deal(self, s: ClassicState, action: Action) -> ClassicState:
        """The deal (classic rules, Deal): four at a time for three rounds, pone first; the turn-up."""
        d = s.dealer
        pone = 1 - d
        hands, piles = self.split_deck(action.cards, d)
        turn_up = piles["turn_up"][0]
        stock = tuple(piles["stock"])
        trump = turn_up.suit
        meld_points = [0, 0]
        dixes = 0
        if turn_up & 7 == self.dix_rank:
            meld_points[d] += DIX_POINTS
            dixes = 1
        concealed = tuple(tuple(sorted(h)) for h in hands)
        return _new_state(
            self, s.seed, s.first_dealer, s.hand_number + 1, Phase.PLAY, d, pone, trump,
            concealed, (), s.scores, s.results, (s.history, action, None),
            concealed, (_EMPTY_TABLE, _EMPTY_TABLE), stock, turn_up, dixes,
            tuple(meld_points), (0, 0), ((), ()), (), s.targets, None,
        )  # fmt: skip

    def _play(self, s: ClassicState, action: Action) -> GameState:
        # The hot path of playouts: two seats, so pairs are built in place.
        p = s.current_player
        assert p is not None and action.card is not None
        c = action.card
        concealed, tables, hands = s.concealed, s.tables, s.hands
        if action.source == "table":
            slot = action.number if action.number is not None else _table_slot(tables[p], c)
            table = play_from_table(tables[p], slot)
            tables = (table, tables[1]) if p == 0 else (tables[0], table)
        else:
            shared = hands is concealed  # after the stock: no table, one tuple
            h = concealed[p]
            i = h.index(c)
            h = h[:i] + h[i + 1 :]
            concealed = (h, concealed[1]) if p == 0 else (concealed[0], h)
            if shared:
                hands = concealed
        if hands is not concealed:
            h = hands[p]
            i = h.index(c)
            h = h[:i] + h[i + 1 :]
            hands = (h, hands[1]) if p == 0 else (hands[0], h)
        history = (s.history, action, p)
        trick = s.trick
        if not trick:
            return _new_state(
                self, s.seed, s.first_dealer, s.hand_number, Phase.PLAY, s.dealer, 1 - p,
                s.trump, hands, ((p, c),), s.scores, s.results, history,
                concealed, tables, s.stock, s.turn_up, s.dixes, s.meld_points, s.taken,
                s.piles, s.last_trick, s.targets, None,
            )  # fmt: skip
        # The trick is complete: its winner (classic rules, Play while the stock lasts) and points.
        lead = trick[0]
        c0 = lead[1]
        beats = c < c0 if c >> 3 == c0 >> 3 else c >> 3 == s.trump
        w = p if beats else lead[0]
        points = BINOCLE_POINTS[c0] + BINOCLE_POINTS[c]
        taken, piles = s.taken, s.piles
        if w == 0:
            taken = (taken[0] + points, taken[1])
            piles = ((*piles[0], c0, c), piles[1])
        else:
            taken = (taken[0], taken[1] + points)
            piles = (piles[0], (*piles[1], c0, c))
        stock_phase = bool(s.stock) or s.turn_up is not None
        nxt = _new_state(
            self, s.seed, s.first_dealer, s.hand_number,
            Phase.ANNOUNCE if stock_phase else Phase.PLAY, s.dealer, w,
            s.trump, hands, (), s.scores, s.results, history,
            concealed, tables, s.stock, s.turn_up, s.dixes, s.meld_points, taken,
            piles, (lead, (p, c)), s.targets, None,
        )  # fmt: skip
        if stock_phase or hands[0] or hands[1]:
            return nxt
        # The last trick scores 10 (RULES.md §2 "Play after the stock").
        taken = replace_at(taken, w, taken[w] + LAST_TRICK)
        return self._end_hand(_replace(nxt, taken=taken), "played")

    def _meld(self, s: ClassicState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None
        # A legal announcement of fresh cards alone is read off the action itself.
        fresh = None
        if action.source is None and action.name is not None:
            fresh = fresh_announcement(action.name, action.cards)
        for ann in (fresh,) if fresh is not None else self._announcements(s, p):
            if fresh is not None or (
                ann.fresh == action.cards
                and ann.combination.kind == action.name
                and announcement_action(ann, s.tables[p]) == action
            ):
                concealed, table = announce(s.concealed[p], s.tables[p], ann)
                points = replace_at(s.meld_points, p, s.meld_points[p] + ann.combination.value)
                return self._draw(
                    s, action, replace_at(s.concealed, p, concealed), replace_at(s.tables, p, table),
                    points, s.turn_up, s.dixes,
                )  # fmt: skip
        raise AssertionError(f"announcement not found: {action}")  # pragma: no cover

    def _dix(self, s: ClassicState, action: Action) -> GameState:
        """Dix (classic rules, Dix): the Nine of trumps for the turn-up, 10 points."""
        p = s.current_player
        assert p is not None and s.turn_up is not None
        nine = self._dix_card(s)
        concealed = replace_at(
            s.concealed, p, tuple(sorted((*remove_card(s.concealed[p], nine), s.turn_up)))
        )
        points = replace_at(s.meld_points, p, s.meld_points[p] + DIX_POINTS)
        return self._draw(s, action, concealed, s.tables, points, nine, s.dixes + 1)

    def _draw(
        self,
        s: ClassicState,
        action: Action,
        concealed: tuple[tuple[Card, ...], ...],
        tables: tuple[MeldTable, ...],
        meld_points: tuple[int, ...],
        turn_up: Card | None,
        dixes: int,
    ) -> GameState:
        """After the announcement: the winner draws, then the loser (classic rules, Announcements)."""
        w = s.current_player
        assert w is not None
        stock = s.stock
        first = stock[0]
        if len(stock) > 1:
            second: Card = stock[1]
            stock = stock[2:]
        else:
            assert turn_up is not None
            second, stock, turn_up = turn_up, (), None
        a = concealed[w]
        i = bisect_left(a, first)
        a = (*a[:i], first, *a[i:])
        b = concealed[1 - w]
        i = bisect_left(b, second)
        b = (*b[:i], second, *b[i:])
        new_concealed = (a, b) if w == 0 else (b, a)
        if stock or turn_up is not None:
            t0, t1 = tables
            if t0.slots or t1.slots:
                # A hand is its concealed and table cards: the drawn card joins it.
                hands = s.hands
                if concealed[w] is not s.concealed[w]:  # dix: the Nine went for the turn-up
                    hands = _hands_of(concealed, tables)
                a = hands[w]
                i = bisect_left(a, first)
                a = (*a[:i], first, *a[i:])
                b = hands[1 - w]
                i = bisect_left(b, second)
                b = (*b[:i], second, *b[i:])
                hands = (a, b) if w == 0 else (b, a)
            else:
                hands = new_concealed  # nothing on the table: one tuple serves both
            phase_tables = tables
        else:
            # The stock is exhausted: the table cards go back to the hands.
            new_concealed = tuple(  # type: ignore[assignment]
                tuple(sorted((*new_concealed[i], *tables[i].cards))) for i in (0, 1)
            )
            hands = new_concealed
            phase_tables = (_EMPTY_TABLE, _EMPTY_TABLE)
        return _new_state(
            self, s.seed, s.first_dealer, s.hand_number, Phase.PLAY, s.dealer, w, s.trump,
            hands, (), s.scores, s.results, (s.history, action, w),
            new_concealed, phase_tables, stock, turn_up, dixes, meld_points, s.taken,
            s.piles, s.last_trick, s.targets, None,
        )  # fmt: skip

    # -- knocking ------------------------------------------------------------------

    def claimants(self, state: GameState) -> tuple[int, ...]:
        """Either player, whoever is to act, at every moment a claim can be checked:
        after the deal, after any card played, trick taken, announcement or draw
        (classic rules, Claiming (knocking): "the player wins who knocks first")."""
        phase = state.phase
        return (0, 1) if phase is Phase.PLAY or phase is Phase.ANNOUNCE else ()

    def claim_total(self, s: ClassicState, seat: int) -> int:
        """What a claim of ``seat`` is checked against: his game score, the dix and
        melds recorded this hand and the card points of the tricks he has taken."""
        return s.scores[seat] + s.meld_points[seat] + s.taken[seat]

    def _claim(self, s: ClassicState, action: Action) -> GameState:
        """Knocking (classic rules, Claiming (knocking)): a correct claim wins at once, a
        wrong one loses.  ``claim`` is the player to act's knock; ``claim <seat>`` that of
        ``seat``."""
        p = s.current_player if action.number is None else action.number
        assert p is not None
        reached = self.claim_total(s, p) >= s.targets[p]
        ended = self._end_hand(
            _replace(s, history=(s.history, action, p)), "claimed", claimant=p, correct=reached
        )
        return ended

    def _end_hand(
        self,
        s: ClassicState,
        outcome: str,
        *,
        claimant: int | None = None,
        correct: bool = False,
    ) -> GameState:
        """Cards are added; a claim decides the game, else the merits (classic rules, End of a hand)."""
        delta = tuple(s.meld_points[i] + s.taken[i] for i in (0, 1))
        scores = tuple(a + b for a, b in zip(s.scores, delta, strict=True))
        targets = s.targets
        winner: int | None
        end: str | None = None
        if claimant is not None:
            winner = claimant if correct else 1 - claimant
            end = "claim"
        else:
            reached = [i for i in (0, 1) if scores[i] >= targets[i]]
            winner = reached[0] if len(reached) == 1 else None
            if len(reached) == 2:
                targets = tuple(t + TARGET_STEP for t in targets)
            if winner is not None:
                end = "target"
            elif self.limit_reached(s.hand_number):
                # The hand limit (max_hands): the higher score wins; a tie, nobody.
                winner, end = top_scorer(scores), "limit"
        result = HandResult(
            s.dealer, s.trump, s.meld_points, s.taken, delta, outcome=outcome, game_end=end
        )
        phase = Phase.OVER if end is not None else Phase.DEAL
        dealer = s.dealer if end is not None else 1 - s.dealer
        return _new_state(
            self, s.seed, s.first_dealer, s.hand_number, phase, dealer, None, None,
            ((), ()), (), scores, (*s.results, result), s.history,
            ((), ()), (_EMPTY_TABLE, _EMPTY_TABLE), (), None, 0, (0, 0), (0, 0),
            ((), ()), (), targets, winner,
        )  # fmt: skip

    # -- text ----------------------------------------------------------------------

    def resolve(self, state: GameState, action: Action) -> Action:
        """``play TS`` of a card that lies only on the table means the table copy; ``meld``
        alone means the most valuable legal announcement."""
        s: ClassicState = state  # type: ignore[assignment]
        p = s.current_player
        if p is None or s.phase is Phase.DEAL or s.phase is Phase.OVER:
            return action
        if action.kind is Kind.PLAY and action.card is not None:
            c = action.card
            if action.source == "hand":
                return A.PLAY[c]
            if action.source is None and c not in s.concealed[p]:
                options = [a for a in _table_plays(s.tables[p]) if a.card == c]
                if len(options) == 1:
                    return options[0]
            if action.source == "table" and action.number is None:
                options = [a for a in _table_plays(s.tables[p]) if a.card == c]
                if len(options) == 1:
                    return options[0]
        if action.kind is Kind.MELD and action.name is not None and action.source:
            # The table cards may be written in any order; announcement_action sorts them.
            words = " ".join(sorted(action.source.split()))
            if words != action.source:
                return A.new_action(Kind.MELD, cards=action.cards, name=action.name, source=words)
        if action.kind is Kind.MELD and action.name is None and s.phase is Phase.ANNOUNCE:
            anns = self._announcements(s, p)
            if anns:
                best = max(anns, key=lambda a: a.combination.value)
                return announcement_action(best, s.tables[p])
        return action

    def explain(self, state: GameState, action: Action) -> str:
        s: ClassicState = state  # type: ignore[assignment]
        phase, kind, p = s.phase, action.kind, s.current_player
        why = self.explain_out_of_hand(s, action)
        if why is not None:
            return why
        assert p is not None
        if kind is Kind.PLAY:
            if phase is Phase.ANNOUNCE:
                return (
                    f"seat {p} won the trick and must first announce (a meld, dix, or pass)"
                    f" and draw before leading"
                )
            c = action.card
            assert c is not None
            if action.source == "table":
                cards = s.tables[p].cards
                if not self.stock_phase(s):
                    return "the table cards went back to the hands when the stock ran out"
                if c not in cards:
                    return f"play {c} table: seat {p} has no {c} on the table (table: {format_cards(cards)})"
                return f"play {c} table: say which copy, e.g. one of {', '.join(str(a) for a in _table_plays(s.tables[p]) if a.card == c)}"
            if c not in s.concealed[p]:
                if c in s.tables[p].cards:
                    copies = ", ".join(str(a) for a in _table_plays(s.tables[p]) if a.card == c)
                    return f"play {c}: seat {p}'s {c} lies on the table; say which copy: {copies}"
                return f"play {c}: seat {p} does not hold it (holds {format_cards(s.hands[p])})"
            why = obligation_broken(
                c, s.concealed[p], [x for _, x in s.trick], s.trump, Obligation.FOLLOW_WIN_TRUMP
            )
            return why or f"{action} is not legal now"
        if phase is Phase.PLAY and kind in (Kind.MELD, Kind.DIX, Kind.PASS):
            if self.stock_phase(s):
                return (
                    f"{action}: announcements are made only after winning a trick, before drawing"
                )
            return f"{action}: announcements end when the stock is exhausted"
        if kind is Kind.DIX:
            assert s.trump is not None
            if s.turn_up is None:
                return "no dix after the last draw"
            if s.dixes >= 2:
                return "both Nines of trumps have already scored dix"
            return f"dix: seat {p} holds no {self._dix_card(s)} in the concealed hand"
        if kind is Kind.MELD:
            return self._explain_meld(s, p, action)
        return f"seat {p} cannot {action} in the {phase.value} phase"

    def _explain_meld(self, s: ClassicState, p: int, action: Action) -> str:
        """Why an announcement is illegal: the rule it breaks (classic rules, Announcements)."""
        from collections import Counter

        from binocle.rules.classic_melds import combinations_in

        assert s.trump is not None
        name = action.name
        if name is None:
            return "no announcement is possible now (say pass)"
        fresh = action.cards
        table_cards: list[Card] = []
        for word in (action.source or "").split():
            try:
                table_cards.append(parse_card(word.split("#")[0]))
            except ValueError:
                return f"not a table card: {word!r}"
        everything = tuple(sorted((*fresh, *table_cards)))
        for c in set(everything):
            if everything.count(c) > 2:
                return (
                    f"{name} names {c} {everything.count(c)} times: the pack holds two,"
                    " and a combination uses each card once"
                )
        known = [
            m
            for m in combinations_in(everything, s.trump, grand_binocle=True)
            if m.kind == name and tuple(m.cards) == everything
        ]
        if not known:
            return f"{name} {format_cards(everything)} is not a combination of the meld table"
        if name == "grand binocle" and not self.grand_binocle:
            return "grand binocle is not played (option grand_binocle is off)"
        if not fresh:
            return "fresh card rule: an announcement must use at least one card from the concealed hand"
        rest = list(s.concealed[p])
        for c in fresh:
            if c not in rest:
                return f"{c} is not in seat {p}'s concealed hand"
            rest.remove(c)
        on_table = list(s.tables[p].cards)
        for c in table_cards:
            if c not in on_table:
                return f"{c} is not on seat {p}'s table"
            on_table.remove(c)
        # The cards exist: the same class rule (item 2) is what forbids it.
        combo = known[0]
        for m in s.tables[p].melds:
            old = m.combination
            if old.meld_class != combo.meld_class:
                continue
            if any(c in old.cards for c in table_cards):
                if not m.intact:
                    return f"same class rule: {old} was broken up and cannot be re-formed"
                # wholly inside the new one: every card of it among the table cards reused
                if Counter(old.cards) - Counter(table_cards) or old.value >= combo.value:
                    return (
                        f"same class rule: cards of {old} may serve again in class"
                        f" {old.meld_class} only in a more valuable combination that contains it"
                    )
        return f"{action} is not a legal announcement now"

    def revoke_penalty(self, state: GameState, seat: int) -> str:
        """Classic rules, Revoke: the revoking player loses his entire count for cards
        for the hand, or the adversary may have the hand replayed from the error."""
        # RULES.md §2; seed 002, "Playing the hand".
        return classic_revoke_penalty(state.hand_number, seat, 1 - seat)

    # -- meld, views, checks ---------------------------------------------------------

    def meld(self, cards: tuple[Card, ...], trump: Suit | None) -> MeldResult:
        """The best total a sequence of announcements could reach with plenty of time."""
        if trump is None:
            return MeldResult(0, ())
        total, order = best_meld(cards, trump, grand_binocle=self.grand_binocle)
        return MeldResult(total, tuple(Meld(m.kind, m.cards, m.value) for m in order))

    def observe(self, state: GameState, seat: int) -> View:
        s: ClassicState = state  # type: ignore[assignment]
        public = {
            "turn_up": s.turn_up,
            "stock_size": len(s.stock),
            "tables": tuple(t.cards for t in s.tables),
            "table_melds": tuple(
                tuple((m.combination.kind, m.combination.cards, m.intact) for m in t.melds)
                for t in s.tables
            ),
            "concealed": s.concealed[seat],
            "meld_points": s.meld_points,
            "dixes": s.dixes,
            "last_trick": s.last_trick,
            "targets": s.targets,
            "taken": s.taken,
            "claim_totals": tuple(self.claim_total(s, i) for i in (0, 1)),
        }
        return self.view(s, seat, public, public_log(s, seat), deck=self._seen_deck(s, seat))

    def _seen_deck(self, s: ClassicState, seat: int) -> tuple[Card | None, ...]:
        """Own cards, the turn-up (the 25th card) and the stock cards ``seat`` drew."""
        known = [24]
        if s.phase is not Phase.DEAL and s.phase is not Phase.OVER:
            node = s.history
            draws: list[int | None] = []
            while node is not None and node[1].kind is not Kind.DEAL:
                if node[1].kind in _DRAWING:
                    draws.append(node[2])
                node = node[0]
            for k, winner in enumerate(reversed(draws)):
                known.append(25 + 2 * k + (0 if winner == seat else 1))
        return self.seen_deck(s, seat, tuple(i for i in known if i < self.pack))

    def check(self, state: GameState) -> None:
        s: ClassicState = state  # type: ignore[assignment]
        if s.phase in (Phase.DEAL, Phase.OVER):
            if any(s.hands) or s.stock or s.trick or any(s.piles):
                raise InvalidStateError("cards left out between hands")
            return
        cards = [c for h in s.concealed for c in h]
        cards += [c for t in s.tables for c in t.cards]
        cards += [c for _, c in s.trick]
        cards += [c for pile in s.piles for c in pile]
        cards += s.stock
        if s.turn_up is not None:
            cards.append(s.turn_up)
        if sorted(cards) != list(pack(self.pack_size)):
            raise InvalidStateError("the cards in hands, tables, stock and tricks are not the pack")
        for i in (0, 1):
            if tuple(sorted((*s.concealed[i], *s.tables[i].cards))) != s.hands[i]:
                raise InvalidStateError(f"seat {i}'s hand is not its concealed and table cards")


@attrs.frozen(slots=True, weakref_slot=False)
class ClassicState(GameState):
    """A classic position (see :class:`binocle.core.GameState` for the common fields).

    ``hands`` holds each seat's concealed and table cards; ``concealed`` the
    concealed ones; ``tables`` each seat's melded cards and combinations
    (:class:`binocle.rules.classic_melds.MeldTable`); ``stock`` the cards to
    draw, top first; ``turn_up`` the card under the stock (None once drawn);
    ``dixes`` how many Nines of trumps have scored; ``meld_points`` the dix and
    meld points recorded this hand; ``taken`` card points won this hand (and
    the last trick); ``piles`` the cards won; ``last_trick``; ``targets`` each
    seat's target (1000, then 1250 … when both reach it); ``game_winner``.
    """

    concealed: tuple[tuple[Card, ...], ...]
    tables: tuple[MeldTable, ...]
    stock: tuple[Card, ...]
    turn_up: Card | None
    dixes: int
    meld_points: tuple[int, ...]
    taken: tuple[int, ...]
    piles: tuple[tuple[Card, ...], ...]
    last_trick: tuple[tuple[int, Card], ...]
    targets: tuple[int, ...]
    game_winner: int | None


_EMPTY_TABLE = MeldTable()
#: The announcements after a trick (RULES.md §2): each is followed by the draw.
_DRAWING = frozenset({Kind.PASS, Kind.MELD, Kind.DIX})


#: A copy of a state with some fields changed.
_replace = state_updater(ClassicState)
#: ClassicState(...) for the transitions (see binocle.core.state_builder).
_new_state: Final = state_builder(ClassicState)


_PLAY_OF: Final = A.PLAY.__getitem__
#: ``play`` actions then ``claim``, by the sorted cards of one suit (shared tuples).
_PLAYS_AND_CLAIM: dict[tuple[Card, ...], tuple[Action, ...]] = {}


def _plays_and_claim(cards: tuple[Card, ...]) -> tuple[Action, ...]:
    out = _PLAYS_AND_CLAIM.get(cards)
    if out is None:
        out = _PLAYS_AND_CLAIM[cards] = (*map(_PLAY_OF, dict.fromkeys(cards)), A.CLAIM)
    return out


def _hands_of(
    concealed: tuple[tuple[Card, ...], ...], tables: tuple[MeldTable, ...]
) -> tuple[tuple[Card, ...], ...]:
    """Each seat's hand: its concealed and table cards, sorted."""
    return tuple(tuple(sorted((*c, *t.cards))) for c, t in zip(concealed, tables, strict=True))


def _table_groups(table: MeldTable) -> dict[Card, list[int]]:
    """Table slots by card, keeping one slot per distinct combination history."""
    hist: dict[int, tuple[int, ...]] = {}
    for i, m in enumerate(table.melds):
        for slot in m.slots:
            hist[slot] = (*hist.get(slot, ()), i)
    groups: dict[Card, dict[tuple[int, ...], int]] = {}
    for slot, c in table.slots:
        groups.setdefault(c, {}).setdefault(hist.get(slot, ()), slot)
    return {c: sorted(g.values()) for c, g in groups.items()}


def _table_plays(table: MeldTable) -> tuple[Action, ...]:
    """The distinct plays from the table: one per card, or per copy where histories differ.

    A table lasts over several tricks (it changes only when a card is laid down
    or played from it): its plays are kept for the last tables seen.
    """
    kept = _TABLE_PLAYS.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1]
    out: list[Action] = []
    for c, slots in sorted(_table_groups(table).items()):
        if len(slots) == 1:
            out.append(A.PLAY_TABLE[c])
        else:
            out.extend(
                A.new_action(Kind.PLAY, card=c, number=slot, source="table") for slot in slots
            )
    plays = tuple(out)
    if len(_TABLE_PLAYS) >= 256:
        _TABLE_PLAYS.clear()
    _TABLE_PLAYS[id(table)] = (table, plays)  # the table itself is kept: its id stays its own
    return plays


_TABLE_PLAYS: dict[int, tuple[MeldTable, tuple[Action, ...]]] = {}


def _table_slot(table: MeldTable, c: Card) -> int:
    return _table_groups(table)[c][0]


_FRESH_ACTIONS: dict[Combination, Action] = {}


def announcement_action(ann: Announcement, table: MeldTable) -> Action:
    """The action (and text) of an announcement: ``meld <kind> <fresh> [+ <table cards>]``.

    A table card is written with its slot (``KS#3``) only where two table copies
    of it have served in different combinations.
    """
    if not ann.table_slots:
        # Fresh cards alone: one action per combination, built once.
        act = _FRESH_ACTIONS.get(ann.combination)
        if act is None:
            act = _FRESH_ACTIONS[ann.combination] = A.new_action(
                Kind.MELD, cards=tuple(ann.fresh), name=ann.combination.kind
            )
        return act
    groups = _table_groups(table)
    words = []
    for slot in ann.table_slots:
        c = table.card_at(slot)
        words.append(f"{c}#{slot}" if len(groups.get(c, ())) > 1 else str(c))
    return A.new_action(
        Kind.MELD,
        cards=tuple(ann.fresh),
        name=ann.combination.kind,
        source=" ".join(sorted(words)) or None,
    )


def classic_revoke_penalty(hand: int, seat: int, adversary: int) -> str:
    """The classic revoke penalty (classic rules, Revoke), also played by the two
    players left of a three-handed game after a retirement."""
    return (
        f"seat {seat} loses his entire score for cards (his trick points) for hand {hand};"
        f" or his adversary, seat {adversary}, may have the cards taken back to the error"
        " and the hand replayed from there (classic rules, Revoke)"
    )
