"""What the three-handed rules say of a position without changing it.

The legal actions, who may knock, why an action is refused, the views, the
revoke penalty and the state checks of :class:`~binocle.profiles.three_handed.ThreeHanded`,
which inherits them from :class:`ThreeHandedRules`; the transitions stay with the profile
in :mod:`binocle.profiles.three_handed`.
"""

from __future__ import annotations

from typing import Any, Final

from binocle import actions as A
from binocle._mypyc import mypyc_attr
from binocle.actions import (
    _KIND_CLAIM,
    _KIND_CLAIM_OVERLOOKED,
    _KIND_DIX,
    _KIND_MELD,
    _KIND_PASS,
    _KIND_PLAY,
    Action,
    Kind,
)
from binocle.cards import CARDS, Card, Suit, format_cards, pack
from binocle.core import (
    _PHASE_DEAL,
    _PHASE_DIX,
    _PHASE_MELD,
    _PHASE_OVER,
    _PHASE_PLAY,
    GameState,
    Meld,
    MeldResult,
    Phase,
    Profile,
    View,
    _own_state,
)
from binocle.errors import InvalidStateError, RuleCode
from binocle.profiles._classic_rules import announcement_refusal
from binocle.profiles._common import (
    plays_then,
    public_log,
    suit_plays_and_claim,
)
from binocle.profiles._three_handed_state import ThreeHandedState
from binocle.profiles.classic import (
    Classic,
    announcement_action,
    classic_revoke_penalty,
)
from binocle.rules.classic_melds import announcements_of, best_meld_of
from binocle.rules.tricks import Obligation, _obligation_refusal, _trick_winner, allowed_slice

_NINE: Final = 5
_RULE: Final = Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP
_DIX2: Final = A.DIX2
_OFFER_ACTIONS: Final = (A.CLAIM_OVERLOOKED, A.PASS)
#: The card points of a hand played to its last trick (common rules, Card points).
_TRICK_POINTS: Final = 250
#: Bounds on meld from ``tools/meld_bounds.py``, by grand_binocle: one seat's meld
#: ("plenty of time", 16 cards; reached: a double sequence and six Aces make 680), and
#: the three seats' melds together (what a seat can add by claiming the others'
#: overlooked meld).
_THREE_SEAT: Final = {False: 680, True: 770}
_THREE_ALL: Final = {False: 1460, True: 1580}
#: The most dix one seat shows in a hand: both Nines of trumps.
_THREE_DIX: Final = 20
_KNOCK_OR_PASS: Final = (A.PASS, A.CLAIM)


#: What begins the words of a refusal in the two-handed game after a retirement.
TWO_HANDED_PREFIX: Final = "two-handed game after a retirement: "


@mypyc_attr(native_class=False)
class ThreeHandedRules(Profile):
    """The reading half of the three-handed profile (its options are the profile's)."""

    __slots__ = ()

    # Each seat's meld is laid on the table (three-handed rules, Melds); the turn-up, dealt
    # last, stays on show (Deal).  What the hidden cards decide: the melds and what they
    # score, the overlooked meld, the cards won, and the two-handed game after a
    # retirement.
    melds_shown = True
    turn_up_stays = True
    hidden_facts = frozenset(
        {
            "announced", "claim_totals", "melds", "overlooked", "recorded", "scored",
            "taken", "tricks", "two_handed", "payers",
        }
    )  # fmt: skip

    target: int
    claim_overlooked: bool
    grand_binocle: bool
    meld_until_first_card: bool

    @property
    def classic(self) -> Classic:
        """The two-handed game the last two players go on with after a retirement."""
        return Classic(
            target=self.target, grand_binocle=self.grand_binocle, max_hands=self.max_hands
        )

    @property
    def retirement_game(self) -> Profile | None:
        """The classic game of the two left (:attr:`classic`)."""
        return self.classic

    def stock_game(self, state: Any) -> GameState | None:
        """The two-handed game after a retirement (``state.sub``), None before one."""
        s: ThreeHandedState = _own_state(self, state)  # type: ignore[assignment]
        return s.sub

    def max_decisions_per_hand(self) -> int:
        """Three dix turns; per seat at most sixteen announcements (each lays down a
        fresh card) and the end of his melds; 48 cards; two wrong claims; two answers
        per seat to an overlooked meld.  (After a retirement each classic hand of the
        two left counts as a hand of its own.)"""
        return 3 + 3 * 17 + 48 + 2 + 6

    def hand_bounds(self) -> tuple[int, int, int]:
        """From 0 to the larger of a three-handed hand (the best meld of 16 cards, 680
        or 770 with ``grand_binocle``; with ``claim_overlooked`` every seat's meld, 1460
        or 1580; plus dix 20 and 250 trick points) and a classic hand of the two left
        after a retirement.  The lowest is exact; the highest a bound, not reached."""
        g = self.grand_binocle
        _, classic_seat, classic_pair = self.classic.hand_bounds()
        meld = _THREE_ALL[g] if self.claim_overlooked else _THREE_SEAT[g]
        seat = meld + _THREE_DIX + _TRICK_POINTS
        pair = _THREE_ALL[g] + _THREE_DIX + _TRICK_POINTS
        return 0, max(seat, classic_seat), max(pair, classic_pair)

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.sub is not None:
            return self.classic.legal_actions(s.sub)
        phase = s.phase
        p = s.current_player
        if phase is _PHASE_PLAY:
            assert p is not None
            if s.offer is not None:
                return _OFFER_ACTIONS
            hand = s.hands[p]
            trick: tuple[tuple[int, int], ...] = s.trick
            if s.retired is not None and trick:
                trick = _obligation_trick(trick, s.retired)  # a dead card wins nothing
            cards = allowed_slice(hand, trick, s.trump, _RULE) if trick else hand
            plays: tuple[Action, ...]
            if cards is hand:
                # No card left: the last trick is taken; knock or not (_after_last_trick).
                plays = plays_then(hand, A.CLAIM) if hand else _KNOCK_OR_PASS
            else:  # cards of one suit: shared tuples
                plays = suit_plays_and_claim(cards)
            if not s.tricks and self.meld_until_first_card and _before_first_card(s, p):
                # Three-handed rules, Melds: more announcements until his first card.
                return (*plays[:-1], *self._announcements(s, p), A.CLAIM)
            return plays
        if phase is _PHASE_DIX:
            assert p is not None
            n = self._nines_to_show(s, p)
            return (A.PASS, A.DIX, _DIX2) if n == 2 else (A.PASS, A.DIX) if n else (A.PASS,)
        if phase is _PHASE_MELD:
            assert p is not None
            found = self._announcements(s, p)
            if found and found[0] is A.MELD:
                return (A.MELD, A.PASS, *found[1:])
            return (A.PASS, *found)
        if phase is _PHASE_DEAL:
            return (self.deal_for(s),)
        return ()

    def _announcements(self, s: ThreeHandedState, p: int) -> tuple[Action, ...]:
        """What ``p`` may still announce: ``meld`` (the best declaration) while he has
        announced nothing, and every legal single combination; nothing once his
        announcements reach his best meld (no legal announcement can then remain)."""
        assert s.trump is not None
        shown = s.shown[p]
        if sum(m.value for m in shown) >= s.best[p]:
            return ()
        table = s.tables[p]
        singles = tuple(
            [
                announcement_action(a, table)
                for a in announcements_of(_concealed(s, p), table, s.trump, self.grand_binocle)
            ]
        )
        return singles if shown else (A.MELD, *singles)

    def _nines_to_show(self, s: ThreeHandedState, p: int) -> int:
        """Nines of trumps ``p`` holds and has not shown, less one the dealer was given."""
        assert s.trump is not None
        nine = s.trump * 8 + _NINE
        n = s.hands[p].count(CARDS[nine])
        if p == s.dealer and s.exchanged:
            n -= 1
        return max(n - s.nines_shown[p], 0)

    # -- knocking ------------------------------------------------------------------

    def claimants(self, state: GameState) -> tuple[int, ...]:
        """Every player still in the hand, whoever is to act, from the end of the
        melds to the last card (three-handed rules, Claiming (knocking); nothing
        scores before the first trick), but while an overlooked meld is offered;
        after a retirement, the two players of the two-handed game as its rules
        say."""
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.sub is not None:
            pair = s.pair
            assert pair is not None
            return tuple(pair[i] for i in self.classic.claimants(s.sub))
        if s.phase is not _PHASE_PLAY or s.offer is not None:
            return ()
        out = s.retired
        return (0, 1, 2) if out is None else tuple(i for i in range(3) if i != out)

    def current_winner(self, state: GameState) -> tuple[int, Card] | None:
        """A retired player's card left in the trick wins nothing (three-handed
        rules, Claiming (knocking)): the better live card wins; None while only
        that card is on the table."""
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.retired is None or all(i != s.retired for i, _ in s.trick):
            return Profile.current_winner(self, s)
        return live_winner(s.trick, s.retired, s.trump)

    def knock_refusal(self, state: GameState, seat: int) -> tuple[RuleCode, str]:
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.retired == seat:
            return (
                RuleCode.RETIRED,
                f"seat {seat} has retired after a wrong claim: he cannot claim again",
            )
        if s.phase is _PHASE_DIX or s.phase is _PHASE_MELD:
            return (
                RuleCode.NO_CLAIM_OPEN,
                f"seat {seat} cannot claim during the {s.phase.value} phase: claims are made"
                " once the melds are announced (nothing scores before the first trick)",
            )
        if s.offer is not None:
            return (
                RuleCode.OFFER_PENDING,
                f"seat {seat} cannot claim while the meld seat {s.offer.seat} overlooked is"
                " offered: it is answered first (claim overlooked or pass)",
            )
        return super().knock_refusal(s, seat)

    def claim_total(self, s: ThreeHandedState, seat: int) -> int:
        """What a claim of ``seat`` is checked against: his game score, the melds and
        dix he has scored this hand (with his first trick) and the card points of
        the tricks he has taken (the last trick's 10 among them)."""
        if s.phase is _PHASE_OVER or s.phase is _PHASE_DEAL:
            return s.scores[seat]  # between hands, and once the game is over: the score
        return s.scores[seat] + s.meld_scored[seat] + s.taken[seat]

    def overlooked_points(self, s: ThreeHandedState, seat: int) -> int:
        """What the others may claim as overlooked by ``seat`` (option ``claim_overlooked``;
        three-handed rules, Overlooked melds): the best meld the cards he laid down
        make, less the melds he announced; never the cards he kept concealed, and
        nothing where he laid down nothing (then 0)."""
        assert s.trump is not None
        laid = s.tables[seat].cards
        if not laid:
            return 0
        best = best_meld_of(tuple(sorted(laid)), s.trump, self.grand_binocle)[0]
        return max(best - sum(m.value for m in s.shown[seat]), 0)

    # -- text ----------------------------------------------------------------------

    def resolve(self, state: GameState, action: Action) -> Action:
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.sub is not None:
            return self.classic.resolve(s.sub, action)
        if action.kind is _KIND_DIX and action.number == 1:
            return A.DIX
        return action

    def refusal(self, state: GameState, action: Action) -> tuple[RuleCode, str]:
        self.refuse_legal(state, action)
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.sub is not None:
            rule, text = self.classic.refusal(s.sub, action)
            return rule, TWO_HANDED_PREFIX + text
        phase, kind, p = s.phase, action.kind, s.current_player
        out = self.explain_out_of_hand(s, action)
        if out is not None:
            return out
        assert p is not None
        if phase is _PHASE_DIX:
            if kind is _KIND_DIX:
                return (
                    RuleCode.NO_DIX,
                    f"dix: seat {p} holds {self._nines_to_show(s, p)} Nine(s) of trumps to show",
                )
            if self._nines_to_show(s, p):
                return (
                    _turn_code(kind, phase),
                    f"seat {p} may show the Nine of trumps (dix) or pass, not {action}",
                )
            return (
                _turn_code(kind, phase),
                f"seat {p} holds no Nine of trumps to show: the only action is pass, not {action}",
            )
        if phase is _PHASE_MELD:
            if kind is _KIND_MELD:
                return self._meld_refusal(s, p, action)
            return (
                _turn_code(kind, phase),
                f"seat {p} announces melds now (meld, a combination, or pass), not {action}",
            )
        if not any(s.hands) and not s.trick:
            return (
                RuleCode.CLAIM_OR_PASS,
                f"the last trick is taken: seat {p} may knock (claim) or pass before the hand"
                f" is counted, not {action} (three-handed rules, Claiming (knocking))",
            )
        offer = s.offer
        if offer is not None:
            return (
                RuleCode.OFFER_PENDING,
                f"seat {p} may claim the {offer.points} points of meld seat {offer.seat}"
                f" overlooked (claim overlooked) or let them go (pass), not {action}",
            )
        if kind is _KIND_CLAIM_OVERLOOKED:
            if not self.claim_overlooked:
                return (
                    RuleCode.OPTION_OFF,
                    "an overlooked meld cannot be claimed (option claim_overlooked is off)",
                )
            return (
                RuleCode.NO_CLAIM_OPEN,
                "nothing to claim: an overlooked meld is offered to the others when a player"
                " plays his first card without having announced all his meld"
                " (three-handed rules, Overlooked melds)",
            )
        if kind is _KIND_MELD:
            if not self.meld_until_first_card:
                return (
                    RuleCode.OPTION_OFF,
                    "melds are announced in the meld turns only, before the first lead"
                    " (option meld_until_first_card is off)",
                )
            if not _before_first_card(s, p):
                return (
                    RuleCode.ANNOUNCEMENTS_OVER,
                    f"seat {p} has played his first card: he may announce no more, and what"
                    " he did not announce is lost (three-handed rules, Melds)",
                )
            return self._meld_refusal(s, p, action)
        if kind is _KIND_PLAY and action.card is not None:
            c = action.card
            if c not in s.hands[p]:
                return (
                    RuleCode.NOT_HELD,
                    f"play {c}: seat {p} does not hold it (holds {format_cards(s.hands[p])})",
                )
            played = [x for _, x in _obligation_trick(s.trick, s.retired)]
            broken = _obligation_refusal(c, s.hands[p], played, s.trump, _RULE)
            return broken or (RuleCode.NOT_LEGAL, f"{action} is not legal now")
        return _turn_code(kind, phase), f"seat {p} must play a card or claim, not {action}"

    def _meld_refusal(self, s: ThreeHandedState, p: int, action: Action) -> tuple[RuleCode, str]:
        """Why the meld ``action`` is not a legal announcement of ``p`` now (three-handed
        rules, Melds)."""
        announced = sum(m.value for m in s.shown[p])
        if s.best[p] == 0:
            return RuleCode.NO_MELD, f"seat {p} holds no meld to announce"
        if announced >= s.best[p]:
            return (
                RuleCode.NO_MELD,
                f"seat {p} has announced his whole meld ({announced}): nothing more to announce",
            )
        if action.name is None:
            return (
                RuleCode.NOT_LEGAL,
                "meld (the best declaration) only before any single combination is announced",
            )
        return (
            self._announcement_code(s, p, action),
            f"{action} is not a legal announcement with the cards not yet laid down",
        )

    def _announcement_code(self, s: ThreeHandedState, p: int, action: Action) -> RuleCode:
        """The rule a single announcement of ``p`` breaks, by the checks of the classic
        game on the cards he has not laid down and his table (three-handed rules,
        Melds): no combination, its suit, the option, a card not held, the fresh card
        or the same class rule."""
        assert s.trump is not None
        return announcement_refusal(
            _concealed(s, p), s.tables[p], s.trump, self.grand_binocle, p, action
        )[0]

    def revoke_penalty(self, state: GameState, seat: int) -> str:
        """Three-handed rules, Revoke: the player in error loses his entire score for
        cards for the hand (the classic rule in the two-handed game after a retirement)."""
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.pair is not None and s.sub is not None:
            other = next(i for i in s.pair if i != seat)
            return classic_revoke_penalty(s.hand_number, seat, other)
        return (
            f"seat {seat} loses his entire score for cards (the card points of his tricks; the"
            f" last trick's 10 still counts) for hand"
            f" {s.hand_number} (three-handed rules, Revoke)"
        )

    # -- meld, views, checks ---------------------------------------------------------

    def play_obligation(self, stock_exhausted: bool | None = None) -> Obligation:
        """Follow suit and win if able; void, trump, over-trumping if able, else
        under-trump (three-handed rules, Play); there is no stock before a retirement."""
        return _RULE

    def check_melds(
        self,
        hand: tuple[Card, ...],
        trump: int,
        declared: tuple[tuple[str, tuple[Card, ...], int | None], ...],
        table: object = None,
    ) -> list[tuple[RuleCode | None, str, int]]:
        """Announcements one by one, as in the classic game (three-handed rules, Melds)."""
        return self.classic.check_melds(hand, trump, declared, table)

    def meld(self, cards: tuple[Card, ...], trump: Suit | None) -> MeldResult:
        """The "plenty of time" meld (three-handed rules, Melds): the best reachable total and its order,
        as the classic game's :meth:`Classic.meld` computes it."""
        return self.classic.meld(cards, trump)

    def observe(self, state: GameState, seat: int) -> View:
        s: ThreeHandedState = state  # type: ignore[assignment]
        public: dict[str, Any] = {
            "turn_up": s.turn_up,
            "exchanged": s.exchanged,
            "dix_shown": s.nines_shown,
            "announced": s.announced,
            "melds": tuple(
                MeldResult(
                    sum(m.value for m in shown),
                    tuple(Meld(m.kind, m.cards, m.value) for m in shown),
                )
                for shown in s.shown
            ),
            "scored": s.scored,
            "recorded": s.recorded,
            "overlooked": s.offer,
            "targets": s.targets,
            "retired": s.retired,
            "payers": s.payers,
            "tricks": s.tricks,
            "pair": s.pair,
            "taken": self._by_seat(s, "taken"),
            "claim_totals": self._claim_totals(s),
        }
        log = public_log(s, seat)
        if s.sub is not None and s.pair is not None:
            inner = self.classic.observe(s.sub, s.pair.index(seat) if seat in s.pair else 0)
            extra = dict(inner.public)
            if seat not in s.pair:
                extra.pop("concealed", None)
            public["two_handed"] = tuple(sorted(extra.items()))
            # The draws of the two-handed game: a player out of it sees none of their cards.
            log = inner.log if seat in s.pair else self.classic.drawn_log(s.sub, None)
            # What a player of the two-handed game knows of its deal (determinize reads it).
            deck = inner.deck if seat in s.pair else ()
            return self.view(s, seat, public, log, deck=deck)
        # The turn-up is the dealer's last card, the 48th dealt (three-handed rules, Deal).
        return self.view(s, seat, public, log, deck=self.seen_deck(s, seat, (47,)))

    def _by_seat(self, s: ThreeHandedState, name: str) -> tuple[int, ...]:
        """A per-seat field of this hand, from the two-handed game after a retirement."""
        if s.sub is not None and s.pair is not None:
            inner, pair = getattr(s.sub, name), s.pair
            return tuple(inner[pair.index(i)] if i in pair else 0 for i in range(3))
        values: tuple[int, ...] = getattr(s, name)
        return values

    def _claim_totals(self, s: ThreeHandedState) -> tuple[int, ...]:
        """Each seat's claim total (:meth:`claim_total`; in the two-handed game, its own)."""
        if s.sub is not None and s.pair is not None:
            sub, pair = s.sub, s.pair
            return tuple(
                self.classic.claim_total(sub, pair.index(i)) if i in pair else s.scores[i]
                for i in range(3)
            )
        return tuple(self.claim_total(s, i) for i in range(3))

    def check(self, state: GameState) -> None:
        s: ThreeHandedState = state  # type: ignore[assignment]
        if s.sub is not None:
            self.classic.check(s.sub)
            return
        if s.phase in (_PHASE_DEAL, _PHASE_OVER):
            if any(s.hands) or s.trick:
                raise InvalidStateError("cards left out between hands")
            return
        cards = [c for h in s.hands for c in h]
        cards += [c for _, c in s.trick]
        cards += [c for pile in s.piles for c in pile]
        cards += s.dead
        if sorted(cards) != list(pack(48)):
            raise InvalidStateError("the cards in hands, tricks and dead cards are not the pack")


#: The kinds of three-handed action (a pass and a meld serve in more than one phase).
_KINDS: Final = frozenset(
    {_KIND_DIX, _KIND_MELD, _KIND_PASS, _KIND_PLAY, _KIND_CLAIM, _KIND_CLAIM_OVERLOOKED}
)


def _turn_code(kind: Kind, phase: Phase) -> RuleCode:
    """The code of an action not taken in ``phase`` (not a refused play, announcement or
    dix): a claim before the play (three-handed rules, Claiming (knocking)), an action
    of another phase, or one this profile does not have."""
    if kind is _KIND_CLAIM and phase is not _PHASE_PLAY:
        return RuleCode.NO_CLAIM_OPEN
    return RuleCode.WRONG_PHASE if kind in _KINDS else RuleCode.NOT_LEGAL


def _before_first_card(s: ThreeHandedState, p: int) -> bool:
    """Whether ``p`` has not yet played his first card of the hand (trick 1)."""
    if s.tricks:
        return False
    return all(seat != p for seat, _ in s.trick)


def _concealed(s: ThreeHandedState, p: int) -> tuple[Card, ...]:
    """The cards of ``p`` not yet laid down in this meld phase."""
    table = s.tables[p]
    if not table.slots:
        return s.hands[p]
    rest = list(s.hands[p])
    for _, c in table.slots:
        rest.remove(c)
    return tuple(rest)


def _trick_done(trick: tuple[tuple[int, int], ...], out: int) -> bool:
    """Whether both players still in the hand have played to ``trick`` (``out`` retired;
    a card he played before retiring may lie in it)."""
    return sum(1 for i, _ in trick if i != out) == 2


def live_winner(
    trick: tuple[tuple[int, Card], ...], out: int, trump: Suit | None
) -> tuple[int, Card] | None:
    """The seat and card winning a trick that holds a card of the retired player ``out``
    (three-handed rules, Claiming (knocking)): his card keeps the suit it led but
    wins nothing; the better of the live cards wins, and where none follows that
    suit nor trumps, the first of them.  None while no live card is played."""
    live = tuple((i, c) for i, c in trick if i != out)
    if not live:
        return None
    measured = _obligation_trick(trick, out)
    w = measured[_trick_winner([c for _, c in measured], trump)][0]
    for entry in live:
        if entry[0] == w:
            return entry
    return live[0]  # the dead card would have won: the first live card takes the trick


def _obligation_trick(
    trick: tuple[tuple[int, int], ...], out: int | None
) -> tuple[tuple[int, int], ...]:
    """The trick the obligations and the winner are measured on (three-handed rules,
    Claiming (knocking)): a card of the retired player ``out`` wins nothing, so a
    card he led counts as the weakest card of its suit (it keeps the suit led, and
    any card of that suit beats it), and one he played later does not count."""
    if out is None or all(i != out for i, _ in trick):
        return trick
    lead_seat, lead = trick[0]
    first = ((lead_seat, (lead >> 3) * 8 + 7),) if lead_seat == out else (trick[0],)
    return first + tuple((i, c) for i, c in trick[1:] if i != out)
