"""Profile ``classic``: two-handed Binocle to 1000 with a stock (classic rules).

Phases: DEAL → PLAY (free play while the stock lasts) ⇄ ANNOUNCE (the trick's
winner: one meld, the dix exchange, or nothing; then both draw) … → PLAY
(strict, once the stock is exhausted and the table cards are taken back) →
DEAL again, or OVER.  Either player may knock (``claim``) in PLAY and
ANNOUNCE, whoever is to act: the player to act with ``claim``, the other with
``claim <seat>`` (:meth:`Classic.claimants`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import attrs

from binocle.actions import (
    _KIND_CLAIM,
    _KIND_DEAL,
    _KIND_DIX,
    _KIND_MELD,
    _KIND_PASS,
    _KIND_PLAY,
    Action,
)
from binocle.cards import Card
from binocle.core import (
    _PHASE_ANNOUNCE,
    _PHASE_DEAL,
    _PHASE_OVER,
    _PHASE_PLAY,
    GameState,
    HandResult,
    state_updater,
)
from binocle.errors import excerpt
from binocle.profiles._classic_rules import (
    ClassicRules,
    _table_groups,
    announcement_action,
    classic_revoke_penalty,
)
from binocle.profiles._classic_state import (
    ClassicState,
    _change_draw,
    _change_lead,
    _change_trick,
)
from binocle.profiles._common import (
    flag_option,
    positive_option,
    profile_option,
    remove_card,
    replace_at,
    top_scorer,
)
from binocle.rules.classic_melds import (
    MeldTable,
    fresh_announcement,
    lay_down,
    play_from_table,
)
from binocle.rules.points import BINOCLE_POINTS, LAST_TRICK
from binocle.rules.tricks import bisect_cards

__all__ = ["Classic", "ClassicState", "announcement_action", "classic_revoke_penalty"]

DIX_POINTS: Final = 10
TARGET_STEP: Final = 250
# The action kinds as this module's own constants: compiled, a name imported from a
# module that is not compiled (binocle.actions) is looked up in this module's
# dictionary at each use.
_PLAY: Final = _KIND_PLAY
_DEAL: Final = _KIND_DEAL
_CLAIM: Final = _KIND_CLAIM
_PASS: Final = _KIND_PASS
_DIX: Final = _KIND_DIX
_MELD: Final = _KIND_MELD


def _pack(instance: Any, attribute: Any, value: Any) -> None:
    if value not in (48, 64):
        raise ValueError(f"pack must be 48 or 64, not {excerpt(value)}")


@attrs.frozen(slots=True)
class Classic(ClassicRules):
    """Two-handed Binocle with a stock, sequential melding, dix and knocking.

    Options: ``target`` (1000), ``grand_binocle`` (false: K♠ Q♠ J♦ for 80,
    "not often played in America"), ``pack`` (48, or 64 with Eights and Sevens:
    twelve cards dealt, a longer stock, the Seven of trumps takes the place of
    the Nine for dix).
    """

    name: "ClassVar[str]" = "classic"
    aliases: "ClassVar[tuple[str, ...]]" = ("two-handed", "binocle", "two-hand")
    players: "ClassVar[int]" = 2
    description: "ClassVar[str]" = "two-handed Binocle to 1000 with a stock"

    target: int = profile_option(1000, positive_option)
    grand_binocle: bool = profile_option(False, flag_option)
    pack: int = profile_option(48, _pack)

    # -- states ----------------------------------------------------------------

    def initial(self, seed: int, dealer: int) -> ClassicState:
        return ClassicState(
            self, seed, dealer, 0, _PHASE_DEAL, dealer, None, None, ((), ()), (), (0, 0), (),
            None, ((), ()), (_EMPTY_TABLE, _EMPTY_TABLE), (), None, 0, (0, 0), (0, 0),
            ((), ()), (), (self.target, self.target), None,
        )  # fmt: skip

    # -- transitions -----------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> GameState:
        s: ClassicState = state  # type: ignore[assignment]
        kind = action.kind
        if kind is _PLAY:
            return _play_card(self, s, action)
        if kind is _DEAL:
            return self._deal(s, action)
        if kind is _CLAIM:
            return self._claim(s, action)
        if kind is _PASS:
            if s.phase is _PHASE_PLAY:  # after the last trick: no knock
                return self._decline(s, action)
            return self._draw(
                s, action, s.concealed, s.tables, s.meld_points, s.turn_up, s.dixes, s.hands
            )
        if kind is _DIX:
            return self._dix(s, action)
        if kind is _MELD:
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
        return ClassicState(
            self, s.seed, s.first_dealer, s.hand_number + 1, _PHASE_PLAY, d, pone, trump,
            concealed, (), s.scores, s.results, (s.history, action, None),
            concealed, (_EMPTY_TABLE, _EMPTY_TABLE), stock, turn_up, dixes,
            tuple(meld_points), (0, 0), ((), ()), (), s.targets, None,
        )  # fmt: skip

    def _play(self, s: ClassicState, action: Action) -> GameState:
        return _play_card(self, s, action)

    def _after_last_trick(self, s: ClassicState, order: tuple[int, ...]) -> GameState:
        """The moment after the last trick (classic rules, Claiming (knocking)): the first
        of ``order`` (the winner of the last trick, then the other) whose claim would be
        correct is asked to knock (``claim``) or not (``pass``); with nobody to ask, the
        hand is counted."""
        seat = _first_to_ask(self, s, order)
        if seat is None:
            return self._end_hand(s, "played")
        return _replace(s, current_player=seat)

    def _decline(self, s: ClassicState, action: Action) -> GameState:
        """``pass`` after the last trick: the other player is asked if his claim would be
        correct and he has not declined already; else the hand is counted."""
        p = s.current_player
        assert p is not None
        return self._after_last_trick(_replace(s, history=(s.history, action, p)), (1 - p,))

    def _meld(self, s: ClassicState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None
        # A legal announcement of fresh cards alone is read off the action itself.
        fresh = None
        if action.source is None and action.name is not None:
            fresh = fresh_announcement(action.name, action.cards)
        table = s.tables[p]
        for ann in (fresh,) if fresh is not None else self._announcements(s, p):
            if fresh is not None or (
                ann.fresh == action.cards
                and ann.combination.kind == action.name
                and announcement_action(ann, table) == action
            ):
                # One of the legal announcements: laid down without checking it again.
                concealed, table = lay_down(s.concealed[p], table, ann)
                points = replace_at(s.meld_points, p, s.meld_points[p] + ann.combination.value)
                # The hand (concealed and table cards) stays as it was.
                return self._draw(
                    s, action, replace_at(s.concealed, p, concealed), replace_at(s.tables, p, table),
                    points, s.turn_up, s.dixes, s.hands,
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
        hands = s.hands
        if hands is not s.concealed:  # cards on the table: the hand changes as well
            hands = replace_at(hands, p, tuple(sorted((*remove_card(hands[p], nine), s.turn_up))))
        return self._draw(s, action, concealed, s.tables, points, nine, s.dixes + 1, hands)

    def _draw(
        self,
        s: ClassicState,
        action: Action,
        concealed: tuple[tuple[Card, ...], ...],
        tables: tuple[MeldTable, ...],
        meld_points: tuple[int, ...],
        turn_up: Card | None,
        dixes: int,
        hands: tuple[tuple[Card, ...], ...],
    ) -> GameState:
        """After the announcement: the winner draws, then the loser (classic rules, Announcements).

        ``concealed``, ``tables`` and ``hands`` are those after the announcement."""
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
        i = bisect_cards(a, first, 0, len(a))
        a = (*a[:i], first, *a[i:])
        b = concealed[1 - w]
        i = bisect_cards(b, second, 0, len(b))
        b = (*b[:i], second, *b[i:])
        # Declared as a tuple of any length, as in _play: hands may share it.
        new_concealed: tuple[tuple[Card, ...], ...] = (a, b) if w == 0 else (b, a)
        if stock or turn_up is not None:
            t0, t1 = tables
            if t0.slots or t1.slots:
                # A hand is its concealed and table cards: the drawn card joins it.
                a = hands[w]
                i = bisect_cards(a, first, 0, len(a))
                a = (*a[:i], first, *a[i:])
                b = hands[1 - w]
                i = bisect_cards(b, second, 0, len(b))
                b = (*b[:i], second, *b[i:])
                hands = (a, b) if w == 0 else (b, a)
            else:
                hands = new_concealed  # nothing on the table: one tuple serves both
            phase_tables = tables
        else:
            # The stock is exhausted: the table cards go back to the hands.
            new_concealed = tuple(
                tuple(sorted((*new_concealed[i], *tables[i].cards))) for i in (0, 1)
            )
            hands = new_concealed
            phase_tables = (_EMPTY_TABLE, _EMPTY_TABLE)
        return _change_draw(
            s, _PHASE_PLAY, hands, (s.history, action, w), new_concealed, phase_tables, stock,
            turn_up, dixes, meld_points,
        )  # fmt: skip

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
        phase = _PHASE_OVER if end is not None else _PHASE_DEAL
        dealer = s.dealer if end is not None else 1 - s.dealer
        return ClassicState(
            self, s.seed, s.first_dealer, s.hand_number, phase, dealer, None, None,
            ((), ()), (), scores, (*s.results, result), s.history,
            ((), ()), (_EMPTY_TABLE, _EMPTY_TABLE), (), None, 0, (0, 0), (0, 0),
            ((), ()), (), targets, winner,
        )  # fmt: skip


_EMPTY_TABLE: Final = MeldTable()


#: A copy of a state with some fields changed.
_replace: Final = state_updater(ClassicState)


def _hands_of(
    concealed: tuple[tuple[Card, ...], ...], tables: tuple[MeldTable, ...]
) -> tuple[tuple[Card, ...], ...]:
    """Each seat's hand: its concealed and table cards, sorted."""
    return tuple(tuple(sorted((*c, *t.cards))) for c, t in zip(concealed, tables, strict=True))


def _table_slot(table: MeldTable, c: Card) -> int:
    """The slot a play of ``c`` from the table takes that names no copy: the lowest of
    its copies' groups (:func:`_table_groups`), which is its slot when one copy of
    it lies there."""
    card: int = c
    found = -1
    for slot, on in table.slots:
        x: int = on
        if x == card:
            if found >= 0:
                return _table_groups(table)[c][0]  # two copies
            found = slot
    if found >= 0:
        return found
    return _table_groups(table)[c][0]


def _first_to_ask(profile: Any, s: Any, order: tuple[int, ...]) -> int | None:
    """After the last trick (classic and three-handed rules, Claiming (knocking)): the
    first seat of ``order`` whose claim would be correct now (``profile.claim_total``
    against his target) and who has not declined to knock since the last trick, or
    None when nobody is left to ask."""
    declined = set()
    history = s.history  # the passes since the last trick stand last, newest first
    while history is not None and history[1].kind is _PASS:
        declined.add(history[2])
        history = history[0]
    for seat in order:  # ``s`` is a classic or a three-handed state
        if seat not in declined and profile.claim_total(s, seat) >= s.targets[seat]:
            return seat
    return None


def _play_card(rules: Classic, s: ClassicState, action: Action) -> GameState:
    """``Classic._play``: a module function, which the compiled build calls directly
    (a method of the profile's class is looked up by name at each call)."""
    # The hot path of playouts: two seats, so pairs are built in place.
    p = s.current_player
    card = action.card
    assert p is not None and card is not None
    c: int = card  # the card number as a machine integer (compiled)
    concealed, tables, hands = s.concealed, s.tables, s.hands
    shared = hands is concealed  # after the stock: no table, one tuple
    if action.source == "table":
        slot = action.number if action.number is not None else _table_slot(tables[p], card)
        table = play_from_table(tables[p], slot)
        tables = (table, tables[1]) if p == 0 else (tables[0], table)
    else:
        h = concealed[p]
        i = bisect_cards(h, c, 0, len(h))  # the hand is sorted: its first copy
        h = h[:i] + h[i + 1 :]
        # Declared as a tuple of any length: the compiled build then makes one tuple
        # object of the pair, which hands shares after the stock (a local narrowed to
        # a pair would be boxed anew at each use).
        kept: tuple[tuple[Card, ...], ...] = (h, concealed[1]) if p == 0 else (concealed[0], h)
        concealed = kept
        if shared:
            hands = concealed
    if not shared:
        h = hands[p]
        i = bisect_cards(h, c, 0, len(h))
        h = h[:i] + h[i + 1 :]
        hands = (h, hands[1]) if p == 0 else (hands[0], h)
    history = (s.history, action, p)
    trick = s.trick
    if not trick:
        return _change_lead(s, 1 - p, hands, ((p, card),), history, concealed, tables)
    # The trick is complete: its winner (classic rules, Play while the stock lasts) and points.
    lead = trick[0]  # read as a pair (compiled: unboxed); the state keeps ``trick``'s own
    led = lead[1]
    c0: int = led
    trump = s.trump
    t: int = -1 if trump is None else trump
    beats = c < c0 if c >> 3 == c0 >> 3 else c >> 3 == t
    w = p if beats else lead[0]
    points = BINOCLE_POINTS[c0] + BINOCLE_POINTS[c]
    stock_phase = bool(s.stock) or s.turn_up is not None
    last = not stock_phase and not hands[0] and not hands[1]
    if last:
        points += LAST_TRICK  # the last trick scores 10 (classic rules, Play after the stock)
    taken, piles = s.taken, s.piles
    if w == 0:
        taken = (taken[0] + points, taken[1])
        piles = (piles[0] + (led, card), piles[1])
    else:
        taken = (taken[0], taken[1] + points)
        piles = (piles[0], piles[1] + (led, card))
    nxt = _change_trick(
        s, _PHASE_ANNOUNCE if stock_phase else _PHASE_PLAY, w, hands, (), history,
        concealed, tables, taken, piles, trick + ((p, card),),
    )  # fmt: skip
    if not last:
        return nxt
    # After the last trick a player who has reached his target may knock before the
    # hand is counted.
    return rules._after_last_trick(nxt, (w, 1 - w))
