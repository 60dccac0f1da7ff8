"""Profile ``three-handed``: three-handed Binocle, no stock (three-handed rules).

Phases: DEAL → DIX (each player in turn from the dealer's left shows the Nine
of trumps or passes) → MELD (each player in turn announces his melds) → PLAY (16 tricks) →
DEAL again, or OVER.  Until he plays his first card a player may announce more
at his turn in the play; when he plays it, what he overlooked may be offered to
the others in turn (option ``claim_overlooked``).  A wrong claim retires the
claimant; if nobody wins that deal, the two others go on with the classic
two-handed game, which this profile then runs inside its own state (``sub``),
seats mapped by ``pair``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import attrs

from binocle import actions as A
from binocle.actions import (
    _KIND_CLAIM,
    _KIND_CLAIM_OVERLOOKED,
    _KIND_DEAL,
    _KIND_PASS,
    _KIND_PLAY,
    Action,
)
from binocle.cards import CARDS, Card, parse_card, parse_cards
from binocle.core import (
    _PHASE_DEAL,
    _PHASE_DIX,
    _PHASE_MELD,
    _PHASE_OVER,
    _PHASE_PLAY,
    GameState,
    HandResult,
    Phase,
    Profile,
    state_updater,
)
from binocle.errors import InvalidNotationError
from binocle.profiles._common import (
    flag_option,
    played_from,
    positive_option,
    profile_option,
    remove_card,
    replace_at,
    top_scorer,
)
from binocle.profiles._three_handed_rules import (
    _NINE,
    ThreeHandedRules,
    _before_first_card,
    _concealed,
    _trick_done,
    live_winner,
)
from binocle.profiles._three_handed_state import (
    Overlooked,
    ThreeHandedState,
    _change_announced,
    _change_declared,
    _change_dix,
    _change_play,
    _change_trick,
    _change_turn,
)
from binocle.profiles.classic import (
    ClassicState,
    _first_to_ask,
    announcement_action,
)
from binocle.rules.classic_melds import (
    Combination,
    MeldTable,
    announcements_of,
    best_meld_of,
    fresh_announcement,
    table_after,
)
from binocle.rules.points import BINOCLE_POINTS, LAST_TRICK

__all__ = ["Overlooked", "ThreeHanded", "ThreeHandedState"]

DIX_POINTS: Final = 10
TARGET_STEP: Final = 250


@attrs.frozen(slots=True)
class ThreeHanded(ThreeHandedRules):
    """Three-handed Binocle: sixteen cards each, dix exchange, melds before play.

    Options: ``target`` (1000); ``claim_overlooked`` (false: when on, once a
    player has played his first card, the meld he overlooked is offered to
    the others in turn, ``claim overlooked`` or ``pass``); ``lowest_pays``
    (false: when on, the game ends as soon as one player retires, and he
    pays, or when a player goes out, and the lowest score pays);
    ``grand_binocle`` (false, as in the classic game); ``meld_until_first_card``
    (true: a player may announce more at his turn until he plays his first
    card; false: only in his meld turn).
    """

    name: "ClassVar[str]" = "three-handed"
    aliases: "ClassVar[tuple[str, ...]]" = ("three", "three-handed-binocle", "three-hand")
    players: "ClassVar[int]" = 3
    description: "ClassVar[str]" = "three-handed Binocle: no stock, melds before play"

    target: int = profile_option(1000, positive_option)
    claim_overlooked: bool = profile_option(False, flag_option)
    lowest_pays: bool = profile_option(False, flag_option)
    grand_binocle: bool = profile_option(False, flag_option)
    meld_until_first_card: bool = profile_option(True, flag_option)

    # -- states ----------------------------------------------------------------

    def initial(self, seed: int, dealer: int) -> ThreeHandedState:
        t = self.target
        return ThreeHandedState(
            self, seed, dealer, 0, _PHASE_DEAL, dealer, None, None, _E3, (), (0, 0, 0), (),
            None, None, False, _Z3, _Z3, _T3, _S3, _F3, _Z3, _Z3, _Z3, _E3, 0, None, (),
            (t, t, t), None, None, None, (), _Z3, None,
        )  # fmt: skip

    # -- transitions -----------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> GameState:
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.sub is not None:
            return self._apply_sub(s, action)
        kind = action.kind
        if kind is _KIND_PLAY:
            return _play_card(self, s, action)
        if kind is _KIND_DEAL:
            return self._deal(s, action)
        if kind is _KIND_CLAIM:
            return self._claim(s, action)
        if s.offer is not None:
            return self._overlooked(s, action)
        if kind is _KIND_PASS and s.phase is _PHASE_PLAY:  # after the last trick: no knock
            return self._decline(s, action)
        if s.phase is _PHASE_DIX:
            return self._dix(s, action)
        return self._meld(s, action)

    def deal_schedule(self, dealer: int) -> tuple[tuple[int | str, int], ...]:
        """Sixteen each, four at a time from the dealer's left; the last card (the
        dealer's sixteenth) is turned up for trump (three-handed rules, Deal)."""
        return tuple(((dealer + k) % 3, 4) for _ in range(4) for k in (1, 2, 3))

    def stack_deck(self, hands: Any, dealer: int = 0, **piles: Any) -> tuple[Card, ...]:
        """As :meth:`Profile.stack_deck`; ``turn_up`` names the dealer's card to turn."""
        turn_up = piles.pop("turn_up", None)
        if turn_up is not None and isinstance(hands, (list, tuple)) and len(hands) == 3:
            up = parse_card(turn_up) if isinstance(turn_up, str) else turn_up
            own = list(parse_cards(hands[dealer] or ()))
            if up not in own:
                raise InvalidNotationError(f"the turn-up {up} must be in the dealer's hand")
            del own[len(own) - 1 - own[::-1].index(up)]
            hands = [*hands]
            hands[dealer] = [*own, up]
        return Profile.stack_deck(self, hands, dealer, **piles)

    def _deal(self, s: ThreeHandedState, action: Action) -> ThreeHandedState:
        """Sixteen each, four at a time from the dealer's left; the last card is trump."""
        d = s.dealer
        hands, _ = self.split_deck(action.cards, d)
        turn_up = hands[d][-1]
        trump = turn_up.suit
        h = tuple(tuple(sorted(x)) for x in hands)
        grand = self.grand_binocle
        best = (
            best_meld_of(h[0], trump, grand)[0],
            best_meld_of(h[1], trump, grand)[0],
            best_meld_of(h[2], trump, grand)[0],
        )
        # The dix turns begin from the dealer's left (_next_dix).
        return _rebuild(
            s, hand_number=s.hand_number + 1, phase=_PHASE_DIX, current=(d + 1) % 3, trump=trump,
            hands=h, history=(s.history, action, None), turn_up=turn_up, exchanged=False,
            nines_shown=_Z3, announced=_Z3, tables=_T3, shown=_S3, scored=_F3, meld_scored=_Z3,
            recorded=_Z3, taken=_Z3, piles=_E3, tricks=0, retired=None, dead=(), best=best,
        )  # fmt: skip

    def _next_dix(self, s: ThreeHandedState, after: int) -> tuple[Phase, int]:
        """The phase and the player to act after ``after``'s dix turn: the next player in
        turn from the dealer's left to show dix or pass, or the melds.

        Every player gets the turn, holding a Nine of trumps or not (then he
        can only pass), so the turn order tells nobody who holds one.
        """
        d = s.dealer
        if after != d:  # the dealer is the last of the three
            return _PHASE_DIX, (after + 1) % 3
        return _PHASE_MELD, (d + 1) % 3

    def _dix(self, s: ThreeHandedState, action: Action) -> ThreeHandedState:
        """Dix (three-handed rules, Dix): shown and announced; the first non-dealer exchanges."""
        p = s.current_player
        assert p is not None and s.trump is not None
        history = (s.history, action, p)
        phase, nxt = self._next_dix(s, p)
        if action.kind is _KIND_PASS:
            return _change_turn(s, phase, nxt, history)
        n = action.number or 1
        hands, exchanged, best = s.hands, s.exchanged, s.best
        nine = CARDS[s.trump * 8 + _NINE]
        if p != s.dealer and not exchanged and s.turn_up is not None and s.turn_up != nine:
            d = s.dealer
            hands = replace_at(hands, p, tuple(sorted((*remove_card(hands[p], nine), s.turn_up))))
            hands = replace_at(hands, d, tuple(sorted((*remove_card(hands[d], s.turn_up), nine))))
            exchanged = True
            # The exchange changes two hands: their best melds (``meld``, claim_overlooked).
            best = tuple(
                best_meld_of(h, s.trump, self.grand_binocle)[0] if i in (p, d) else b
                for i, (h, b) in enumerate(zip(hands, best, strict=True))
            )
        return _change_dix(
            s, phase, nxt, hands, history, replace_at(s.announced, p, s.announced[p] + DIX_POINTS * n),
            replace_at(s.nines_shown, p, s.nines_shown[p] + n), exchanged, best,
        )  # fmt: skip

    def _meld(self, s: ThreeHandedState, action: Action) -> ThreeHandedState:
        """Melds (three-handed rules, Melds): the best declaration, one combination, or
        done (``pass``).  In the play, before his first card, an announcement does not
        end the player's turn: he still plays a card (or claims)."""
        # Three-handed rules, Melds: announcements until the first card.
        p = s.current_player
        assert p is not None and s.trump is not None
        history = (s.history, action, p)
        if action.kind is _KIND_PASS:
            return _change_turn(s, *self._next_melder(s, p), history)
        shown, announced = s.shown[p], s.announced
        if action.name is None:
            # The best declaration, offered only while nothing is announced.
            total, order = best_meld_of(s.hands[p], s.trump, self.grand_binocle)
            announced = replace_at(announced, p, announced[p] + total)
            shown_now = replace_at(s.shown, p, order)
            if s.phase is _PHASE_MELD:
                phase, nxt = self._next_melder(s, p)
            else:
                phase, nxt = s.phase, p  # in the play, before his first card
            return _change_declared(s, phase, nxt, history, announced, shown_now)
        table = s.tables[p]
        fresh = None
        if action.source is None:  # fresh cards alone: read off the (legal) action
            fresh = fresh_announcement(action.name, action.cards)
        found = (
            (fresh,)
            if fresh is not None
            else announcements_of(_concealed(s, p), table, s.trump, self.grand_binocle)
        )
        for ann in found:
            if fresh is not None or (
                ann.fresh == action.cards
                and ann.combination.kind == action.name
                and announcement_action(ann, table) == action
            ):
                # One of the legal announcements: laid down without checking it again.
                new_table = table_after(table, ann)
                combo = ann.combination
                return _change_announced(
                    s, history, replace_at(s.tables, p, new_table),
                    replace_at(s.shown, p, (*shown, combo)),
                    replace_at(announced, p, announced[p] + combo.value),
                )  # fmt: skip
        raise AssertionError(f"announcement not found: {action}")  # pragma: no cover

    def _next_melder(self, s: ThreeHandedState, p: int) -> tuple[Phase, int]:
        """The phase and the player to act after ``p``'s meld turn: the next player's
        meld turn, or the play once every player has had his."""
        nxt = (p + 1) % 3
        return (_PHASE_PLAY if nxt == (s.dealer + 1) % 3 else _PHASE_MELD), nxt

    def _offer_overlooked(self, s: ThreeHandedState, p: int) -> ThreeHandedState:
        """Option ``claim_overlooked``: ``p`` has just played his first card; what he
        overlooked (:meth:`overlooked_points`) is offered to the others in turn from
        his left, if anything was overlooked."""
        # Three-handed rules, Overlooked melds: what the table saw, never concealed cards.
        points = self.overlooked_points(s, p)
        if points <= 0 or s.current_player is None:
            return s
        asked = tuple(i for i in ((p + 1) % 3, (p + 2) % 3) if i != s.retired)
        if not asked:  # pragma: no cover - two players are always left
            return s
        offer = Overlooked(p, points, asked, s.current_player)
        return _rebuild(s, offer=offer, current=asked[0])

    def _overlooked(self, s: ThreeHandedState, action: Action) -> ThreeHandedState:
        """``claim overlooked`` or ``pass`` while the overlooked meld is offered: the first
        to claim it has it announced (scored with his first trick, or at once if he has
        won one); when every other player has let it go, it is lost."""
        p = s.current_player
        offer = s.offer
        assert p is not None and offer is not None
        history = (s.history, action, p)
        if action.kind is _KIND_CLAIM_OVERLOOKED:
            points = offer.points
            announced = replace_at(s.announced, p, s.announced[p] + points)
            meld_scored, recorded = s.meld_scored, s.recorded
            if s.scored[p]:
                meld_scored = replace_at(meld_scored, p, meld_scored[p] + points)
                recorded = replace_at(recorded, p, recorded[p] + points)
            return _rebuild(
                s, history=history, offer=None, current=offer.resume, announced=announced,
                meld_scored=meld_scored, recorded=recorded,
            )  # fmt: skip
        rest = tuple(i for i in offer.asked[1:] if i != s.retired)
        if rest:
            return _rebuild(
                s, history=history, offer=attrs.evolve(offer, asked=rest), current=rest[0]
            )
        return _rebuild(s, history=history, offer=None, current=offer.resume)

    def _active(self, s: ThreeHandedState) -> int:
        return 3 if s.retired is None else 2

    def _next_seat(self, s: ThreeHandedState, p: int) -> int:
        nxt = (p + 1) % 3
        return (nxt + 1) % 3 if nxt == s.retired else nxt

    def _play(self, s: ThreeHandedState, action: Action) -> GameState:
        return _play_card(self, s, action)

    def _finish_trick(
        self,
        s: ThreeHandedState,
        hands: tuple[tuple[Card, ...], ...] | None = None,
        trick: tuple[tuple[int, Card], ...] | None = None,
        history: Any = None,
    ) -> GameState:
        """The trick's winner takes it and scores his announcements with his first trick.

        ``hands``, ``trick`` and ``history`` are those after the trick's last card,
        when ``s`` is the state before it."""
        if hands is None or trick is None:
            hands, trick, history = s.hands, s.trick, s.history
        if s.retired is not None and any(i == s.retired for i, _ in trick):
            return self._finish_dead_trick(s, hands, trick, history)
        # The card numbers are read into variables typed int (machine integers, compiled).
        trump = s.trump
        t: int = -1 if trump is None else trump
        w = trick[0][0]
        b: int = trick[0][1]
        points = BINOCLE_POINTS[b]
        for k in range(1, len(trick)):
            seat = trick[k][0]
            c: int = trick[k][1]
            points += BINOCLE_POINTS[c]
            if c >> 3 == b >> 3:
                if c < b:
                    w, b = seat, c
            elif c >> 3 == t:
                w, b = seat, c
        piles = s.piles
        if len(trick) == 3:
            won = (*piles[w], trick[0][1], trick[1][1], trick[2][1])
        else:
            won = (*piles[w], *[c for _, c in trick])
        return self._trick_taken(s, w, points, won, hands, history)

    def _finish_dead_trick(
        self,
        s: ThreeHandedState,
        hands: tuple[tuple[Card, ...], ...],
        trick: tuple[tuple[int, Card], ...],
        history: Any,
    ) -> GameState:
        """A trick holding the card of a player who retired after playing it (three-handed
        rules, Claiming (knocking)): the card keeps the suit it led but wins nothing and
        counts for nobody (it joins the dead cards); the better of the two live cards
        takes the trick, and where neither follows that suit nor trumps, the first of
        them."""
        out = s.retired
        assert out is not None
        live = tuple((i, c) for i, c in trick if i != out)
        winning = live_winner(trick, out, s.trump)
        assert winning is not None
        w = winning[0]
        points = sum(BINOCLE_POINTS[c] for _, c in live)
        won = (*s.piles[w], *[c for _, c in live])
        s = _rebuild(s, dead=(*s.dead, *[c for i, c in trick if i == out]))
        return self._trick_taken(s, w, points, won, hands, history)

    def _trick_taken(
        self,
        s: ThreeHandedState,
        w: int,
        points: int,
        won: tuple[Card, ...],
        hands: tuple[tuple[Card, ...], ...],
        history: Any,
    ) -> GameState:
        """``w`` takes the trick (``points``; ``won`` his pile with it) and scores his
        announcements with his first trick; the last trick scores 10 at once."""
        taken, piles = s.taken, s.piles
        # Three seats: the winner's entries replaced in place (as replace_at does).
        if w == 0:
            taken = (taken[0] + points, taken[1], taken[2])
            piles = (won, piles[1], piles[2])
        elif w == 1:
            taken = (taken[0], taken[1] + points, taken[2])
            piles = (piles[0], won, piles[2])
        else:
            taken = (taken[0], taken[1], taken[2] + points)
            piles = (piles[0], piles[1], won)
        meld_scored, recorded, scored = s.meld_scored, s.recorded, s.scored
        if not scored[w]:
            meld_scored = replace_at(meld_scored, w, s.announced[w])
            recorded = replace_at(recorded, w, recorded[w] + s.announced[w])
            scored = replace_at(scored, w, True)
        nxt = _change_trick(
            s, w, hands, (), history, taken, piles, meld_scored, recorded, scored, s.tricks + 1
        )
        if hands[0] or hands[1] or hands[2]:
            return nxt
        # The last trick scores 10 at once (three-handed rules, Scoring); then a player who
        # has reached his target may knock before the hand is counted.
        nxt = _rebuild(
            nxt, recorded=replace_at(recorded, w, recorded[w] + LAST_TRICK),
            taken=replace_at(taken, w, taken[w] + LAST_TRICK),
        )  # fmt: skip
        return self._after_last_trick(nxt, self._in_turn(nxt, w))

    def _in_turn(self, s: ThreeHandedState, first: int) -> tuple[int, ...]:
        """The players still in the hand in turn from ``first``."""
        return tuple(i for i in (first, (first + 1) % 3, (first + 2) % 3) if i != s.retired)

    def _after_last_trick(self, s: ThreeHandedState, order: tuple[int, ...]) -> GameState:
        """The moment after the last trick (three-handed rules, Claiming (knocking)): the
        first of ``order`` (in turn from the winner of the last trick) whose claim would
        be correct is asked to knock (``claim``) or not (``pass``); with nobody to ask,
        the hand is counted."""
        seat = _first_to_ask(self, s, order)
        if seat is None:
            return self._end_hand(s)
        return _rebuild(s, current=seat)

    def _decline(self, s: ThreeHandedState, action: Action) -> GameState:
        """``pass`` after the last trick: the next player in turn who has not declined
        already and whose claim would be correct is asked; else the hand is counted."""
        p = s.current_player
        assert p is not None
        order = self._in_turn(s, p)[1:]
        return self._after_last_trick(_rebuild(s, history=(s.history, action, p)), order)

    def _claim(self, s: ThreeHandedState, action: Action) -> GameState:
        """A correct claim wins; a wrong one retires the claimant (three-handed rules,
        Claiming (knocking)).  ``claim`` is the player to act's knock, ``claim <seat>``
        that of ``seat``."""
        p = s.current_player if action.number is None else action.number
        assert p is not None
        history = (s.history, action, p)
        total = self.claim_total(s, p)
        if total >= s.targets[p]:
            # Option lowest_pays: the lowest by the count a claim uses, at the claim.
            payers = _lowest(self._claim_totals(s), exclude=p) if self.lowest_pays else ()
            return self._end_hand(_rebuild(s, history=history), winner=p, payers=payers)
        if self.lowest_pays:
            return self._end_hand(_rebuild(s, history=history), retired=p, payers=(p,), over=True)
        if s.retired is not None:
            # A second wrong claim: he retires too, and the last player left wins.
            last = next(i for i in range(3) if i not in (p, s.retired))
            return self._end_hand(_rebuild(s, history=history), winner=last)
        current = s.current_player
        if current == p:
            current = self._next_seat(_rebuild(s, retired=p), p)
        # Three-handed rules, Claiming (knocking): his cards are dead; a card he already
        # played to the trick in progress stays on the table, keeps the suit it led and
        # wins nothing (it joins the dead cards when the trick is taken).
        s2 = _rebuild(
            s, hands=replace_at(s.hands, p, ()), history=history, retired=p,
            dead=(*s.dead, *s.hands[p]), current=current,
        )  # fmt: skip
        if s2.trick and _trick_done(s2.trick, p):
            return self._finish_trick(s2)
        if not any(s2.hands):  # a knock after the last trick: the hand is counted
            return self._end_hand(s2)
        return s2

    def _end_hand(
        self,
        s: ThreeHandedState,
        *,
        winner: int | None = None,
        retired: int | None = None,
        payers: tuple[int, ...] = (),
        over: bool = False,
    ) -> GameState:
        """Cards are added; the targets and the game (three-handed rules, End of a hand)."""
        out = s.retired if s.retired is not None else retired
        # A retired player keeps what he scored before retiring: his melds and the card
        # points of the tricks he had won (three-handed rules, Claiming (knocking)); his other cards are dead.
        tricks = s.taken
        delta = tuple(s.meld_scored[i] + tricks[i] for i in range(3))
        if s.retired is not None or retired is not None:
            outcome = "retired"
        elif winner is not None:
            outcome = "claimed"
        else:
            outcome = "played"
        scores = tuple(a + b for a, b in zip(s.scores, delta, strict=True))
        targets = s.targets
        end: str | None = "claim" if winner is not None or over else None
        if winner is None and not over:
            reached = [i for i in range(3) if i != out and scores[i] >= targets[i]]
            if len(reached) == 1:
                winner, end = reached[0], "target"
                if self.lowest_pays:
                    payers = _lowest(scores, exclude=winner)
            elif len(reached) > 1:
                targets = tuple(
                    t + TARGET_STEP if i in reached else t for i, t in enumerate(targets)
                )
            if end is None and self.limit_reached(s.hand_number):
                # The hand limit (max_hands): the highest score of the players still
                # in the game wins; a tie, nobody.
                winner, end = top_scorer(scores, [i for i in range(3) if i != out]), "limit"
                if winner is not None and self.lowest_pays:
                    payers = _lowest(scores, exclude=winner)
        result = HandResult(
            s.dealer, s.trump, s.meld_scored, tricks, delta, outcome=outcome, game_end=end
        )
        results = (*s.results, result)
        if end is not None:
            return _finished(s, scores, results, targets, winner, payers)
        dealer = (s.dealer + 1) % 3
        if out is None:
            return _rebuild(
                s, phase=_PHASE_DEAL, dealer=dealer, current=None, trump=None, hands=_E3,
                trick=(), scores=scores, results=results, turn_up=None, exchanged=False,
                nines_shown=_Z3, announced=_Z3, tables=_T3, shown=_S3, scored=_F3,
                meld_scored=_Z3, recorded=_Z3, taken=_Z3, piles=_E3, tricks=0, retired=None,
                dead=(), targets=targets, best=_Z3, offer=None,
            )  # fmt: skip
        # Nobody won that deal: the other two go on with the two-handed game.
        pair = tuple(i for i in range(3) if i != out)
        if dealer == out:
            dealer = (dealer + 1) % 3
        sub = _rebuild_classic(
            self.classic.initial(s.seed, pair.index(dealer)),
            hand_number=s.hand_number,
            scores=tuple(scores[i] for i in pair),
            targets=tuple(targets[i] for i in pair),
        )
        base = _rebuild(
            s, scores=scores, results=results, targets=targets, retired=out, dead=(),
            sub=sub, pair=pair, hands=_E3, trick=(), piles=_E3, offer=None,
        )  # fmt: skip
        return self._mirror(base, sub, len(results))

    # -- the two-handed game after a retirement ------------------------------------

    def _apply_sub(self, s: ThreeHandedState, action: Action) -> GameState:
        assert s.sub is not None and s.pair is not None
        actor = None if s.current_player is None else s.current_player
        inner = action
        if action.kind is _KIND_CLAIM and action.number is not None:
            # A knock names its seat at the three-handed table: the two-handed seat inside.
            actor = action.number
            inner = A.claim(s.pair.index(actor))
        new_sub: ClassicState = self.classic.apply(s.sub, inner)  # type: ignore[assignment]
        kept = len(s.results) - len(s.sub.results)
        return self._mirror(_rebuild(s, history=(s.history, action, actor)), new_sub, kept)

    def _mirror(self, s: ThreeHandedState, sub: ClassicState, kept: int) -> ThreeHandedState:
        """The three-seat picture of the two-handed game ``sub`` (seats mapped by ``pair``)."""
        pair = s.pair
        assert pair is not None
        out = s.retired
        assert out is not None

        results = s.results[:kept] + tuple(
            HandResult(
                pair[r.dealer],
                r.trump,
                _spread(pair, out, r.meld, 0),
                _spread(pair, out, r.tricks, 0),
                _spread(pair, out, r.delta, 0),
                outcome=r.outcome,
                game_end=r.game_end,
            )
            for r in sub.results
        )
        scores = _spread(pair, out, sub.scores, s.scores[out])
        winner = None if sub.game_winner is None else pair[sub.game_winner]
        payers: tuple[int, ...] = ()
        if winner is not None and self.lowest_pays:  # pragma: no cover - ended at retirement
            payers = _lowest(scores, exclude=winner)
        return _rebuild(
            s, hand_number=sub.hand_number, phase=sub.phase, dealer=pair[sub.dealer],
            current=None if sub.current_player is None else pair[sub.current_player],
            trump=sub.trump, hands=_spread(pair, out, sub.hands, ()),
            trick=tuple((pair[i], c) for i, c in sub.trick), scores=scores, results=results,
            targets=_spread(pair, out, sub.targets, s.targets[out]), sub=sub, game_winner=winner,
            payers=payers,
        )  # fmt: skip


_E3: Final[tuple[tuple[Card, ...], ...]] = ((), (), ())
_Z3: Final = (0, 0, 0)
_F3: Final = (False, False, False)
_T3: Final = (MeldTable(), MeldTable(), MeldTable())
_S3: Final[tuple[tuple[Combination, ...], ...]] = ((), (), ())


#: A copy of a state with some fields changed (``current`` for ``current_player``).
_rebuild: Final = state_updater(ThreeHandedState)


_rebuild_classic: Final = state_updater(ClassicState)


def _finished(
    s: ThreeHandedState,
    scores: tuple[int, ...],
    results: tuple[HandResult, ...],
    targets: tuple[int, ...],
    winner: int | None,
    payers: tuple[int, ...],
) -> ThreeHandedState:
    return _rebuild(
        s, phase=_PHASE_OVER, current=None, trump=None, hands=_E3, trick=(), scores=scores,
        results=results, targets=targets, game_winner=winner, payers=payers, piles=_E3,
        dead=(), sub=None, offer=None,
    )  # fmt: skip


def _spread(pair: tuple[int, ...], out: int, values: tuple[Any, ...], fill: Any) -> tuple[Any, ...]:
    """Values by two-handed seat ``values`` as three seats: ``fill`` for the retired ``out``.

    A module function, not a closure in :meth:`ThreeHanded._mirror`: mypyc does not
    compile closures in the methods of attrs classes (the compiled build).
    """
    return tuple(fill if i == out else values[pair.index(i)] for i in range(3))


def _lowest(scores: tuple[int, ...], exclude: int) -> tuple[int, ...]:
    others = [i for i in range(len(scores)) if i != exclude]
    low = min(scores[i] for i in others)
    return tuple(i for i in others if scores[i] == low)


def _play_card(rules: ThreeHanded, s: ThreeHandedState, action: Action) -> GameState:
    """``ThreeHanded._play``: a module function, which the compiled build calls directly
    (a method of the profile's class is looked up by name at each call)."""
    # The hot path of playouts: tuples built in place, positional copies.
    p = s.current_player
    assert p is not None and action.card is not None
    c = action.card
    hands = played_from(s.hands, p, c)
    trick = s.trick + ((p, c),)
    history = (s.history, action, p)
    retired = s.retired
    if (len(trick) < 3) if retired is None else not _trick_done(trick, retired):
        seat = (p + 1) % 3  # the next seat in the hand (_next_seat)
        if seat == retired:
            seat = (seat + 1) % 3
        nxt: GameState = _change_play(s, seat, hands, trick, history)
    else:
        nxt = rules._finish_trick(s, hands, trick, history)
    if rules.claim_overlooked and _before_first_card(s, p):
        # The first trick never ends the hand: ``nxt`` is a three-handed state.
        assert isinstance(nxt, ThreeHandedState)
        return rules._offer_overlooked(nxt, p)
    return nxt
