"""What the cutthroat rules say of a position without changing it.

The legal actions, why an action is refused, the revoke penalty, the melds,
the views and the state checks of :class:`~binocle.profiles.cutthroat.Cutthroat`,
which inherits them from :class:`CutthroatRules`; the transitions stay with the
profile in :mod:`binocle.profiles.cutthroat`.
"""

from __future__ import annotations

from typing import Any, Final

from binocle import actions as A
from binocle._mypyc import mypyc_attr
from binocle.actions import (
    _KIND_BID,
    _KIND_BUNCH,
    _KIND_CLAIM,
    _KIND_CONCEDE,
    _KIND_DISCARD,
    _KIND_MELD,
    _KIND_PASS,
    _KIND_PLAY,
    _KIND_TRUMP,
    Action,
    Kind,
)
from binocle.cards import Card, Suit, format_cards, pack
from binocle.core import (
    _PHASE_BIDDING,
    _PHASE_DEAL,
    _PHASE_DISCARD,
    _PHASE_MELD,
    _PHASE_OVER,
    _PHASE_PLAY,
    _PHASE_TRUMP,
    GameState,
    Meld,
    MeldResult,
    Phase,
    Profile,
    View,
    _whole_number,
)
from binocle.errors import InvalidArgumentError, InvalidStateError, RuleCode
from binocle.profiles._common import (
    plays_then,
    public_log,
)
from binocle.profiles._cutthroat_state import CutthroatState
from binocle.rules.cutthroat_melds import (
    ENTRIES,
    check_declaration,
    codes_of_counts,
    meld_codes,
    meld_total,
)
from binocle.rules.points import LAST_TRICK
from binocle.rules.tricks import (
    _OBLIGATION_EASIER,
    _OBLIGATION_FOLLOW_WIN_TRUMP_UNDERTRUMP,
    Obligation,
    _obligation_refusal,
    allowed_slice,
)

_NINE: Final = 5
#: The phase in which each kind of cutthroat action is taken (a pass: the bidding).
_PHASES_OF: Final[dict[Kind, Phase]] = {
    _KIND_BID: _PHASE_BIDDING,
    _KIND_PASS: _PHASE_BIDDING,
    _KIND_BUNCH: _PHASE_BIDDING,
    _KIND_DISCARD: _PHASE_DISCARD,
    _KIND_TRUMP: _PHASE_TRUMP,
    _KIND_MELD: _PHASE_MELD,
    _KIND_PLAY: _PHASE_PLAY,
    _KIND_CONCEDE: _PHASE_PLAY,
}
#: The Meld object of every meld code, built once.
_MELDS: Final = tuple(Meld(*entry) for entry in ENTRIES)
#: Results by their meld codes: hands that score the same melds share one MeldResult
#: (a frozen value), so the breakdown builds none for a combination already seen.
_RESULTS: Final[dict[tuple[int, ...], MeldResult]] = {}
_NO_MELD: Final = MeldResult(0, ())
#: Card counts before counting a hand: 0, but 2 for the Eights and Sevens, which are
#: not in the pack, so that one of them, like a third copy of a card, counts past 2.
_COUNT_START: Final = [2 if c & 7 >= 6 else 0 for c in range(32)]
#: The card points of a hand played to its last trick (common rules, Card points).
_TRICK_POINTS: Final = 250
#: The highest cutthroat meld of 15 cards (the bidder's after his discards): spades
#: trump, a double run, A♥ A♦ A♣ and J♦ J♦ (1500 + double pinochle 300 + Aces
#: around 100).  Found exactly by ``tools/meld_bounds.py``.
_CUTTHROAT_MELD: Final = 1900
#: The highest cutthroat meld of two 15-card hands together (one pack, one trump), also
#: exact (``tools/meld_bounds.py``).
_CUTTHROAT_PAIR: Final = 2320


@mypyc_attr(native_class=False)
class CutthroatRules(Profile):
    """The reading half of the cutthroat profile (its options are the profile's)."""

    __slots__ = ()

    # Each seat's whole meld is laid down in the meld phase (cutthroat rules, Melds); what
    # it scores depends on the cards a viewer does not see.
    melds_shown = True
    hidden_facts = frozenset({"melds"})

    min_bid: int
    max_bid: int
    single_set: bool
    easier_tricks: bool
    bunched_hands: bool
    widow_after_round: int
    target: int
    settlement: str

    @property
    def chips(self) -> bool:
        """Whether hands are settled in chips (option ``settlement``: cutthroat rules,
        Settlement)."""
        return self.settlement == "chips"

    @property
    def obligation(self) -> Obligation:
        """The trick rule in force."""
        return _OBLIGATION_EASIER if self.easier_tricks else _OBLIGATION_FOLLOW_WIN_TRUMP_UNDERTRUMP

    def fixed_actions(self) -> tuple[Action, ...]:
        """Every action of the game but deals, in a fixed order: the fixed action space
        of :mod:`binocle.encoding` (one id each)."""
        cards = pack(self.pack_size)[::2]
        return (
            A.PASS,
            *(A.bid(b) for b in range(self.min_bid, self.max_bid + 1, 10)),
            A.BUNCH,
            *(A.DISCARD[c] for c in cards),
            *A.TRUMP,
            A.MELD,
            A.CONCEDE,
            *(A.PLAY[c] for c in cards),
        )

    def max_decisions_per_hand(self) -> int:
        """Every bid level once, two passes, three discards, trump, three melds and 45
        cards."""
        bids = (self.max_bid - self.min_bid) // 10 + 1
        return bids + 2 + 3 + 1 + 3 + 45

    def hand_bounds(self) -> tuple[int, int, int]:
        """The lowest: a bidder set, minus twice ``max_bid`` (once with
        ``single_set``; cutthroat rules, Scoring a hand).  The highest: the highest
        meld of 15 cards (1900) with every trick (250); two seats: two hands' highest
        meld together (2320) and every trick.  All exact."""
        low = -(self.max_bid if self.single_set else 2 * self.max_bid)
        high = _CUTTHROAT_MELD + _TRICK_POINTS
        return low, high, _CUTTHROAT_PAIR + _TRICK_POINTS

    def highest_before_last_hand(self, gained: Any) -> int:
        """Below the target, unless two non-bidders tie at the target (cutthroat rules,
        Winning: they play on), sharing what the two gained; scores move in tens."""
        gained = _whole_number(gained, "gained")
        below = (self.target - 1) // 10 * 10
        tie = gained // 2 // 10 * 10
        return max(below, tie) if tie >= self.target else below

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        s: CutthroatState = state  # type: ignore[assignment]
        phase = s.phase
        if phase is _PHASE_PLAY:
            p = s.current_player
            assert p is not None
            trick = s.trick
            if trick:
                return _follow(s.hands[p], trick, s.trump, self.easier_tricks)
            plays = plays_then(s.hands[p])
            if p == s.auction.bidder and not s.played:
                return (*plays, A.CONCEDE)
            return plays
        if phase is _PHASE_BIDDING:
            return self._bidding_actions(s)
        if phase is _PHASE_DISCARD:
            p = s.current_player
            assert p is not None
            return plays_then(s.hands[p], None, A.DISCARD)
        if phase is _PHASE_TRUMP:
            return A.TRUMP
        if phase is _PHASE_MELD:
            return (A.MELD,)
        if phase is _PHASE_DEAL:
            return (self.deal_for(s),)
        return ()

    def _bidding_actions(self, s: CutthroatState) -> tuple[Action, ...]:
        p = s.current_player
        assert p is not None
        bid = s.auction.bid
        if bid is None and sum(s.auction.passed) == 2:
            out = _pass_or_bid(self.min_bid, self.min_bid)
        else:
            out = _pass_or_bid(self.min_bid if bid is None else bid + 10, self.max_bid)
        if self.bunched_hands and _may_bunch(s, p):
            return (*out, A.BUNCH)
        return out

    # -- explanations ------------------------------------------------------------

    def refusal(self, state: GameState, action: Action) -> tuple[RuleCode, str]:
        self.refuse_legal(state, action)
        s: CutthroatState = state  # type: ignore[assignment]
        phase = s.phase
        kind = action.kind
        p = s.current_player
        out = self.explain_out_of_hand(s, action)
        if out is not None:
            return out
        assert p is not None
        expected = {
            _PHASE_BIDDING: "a bid or a pass",
            _PHASE_DISCARD: "a discard",
            _PHASE_TRUMP: "naming trump",
            _PHASE_MELD: "meld",
            _PHASE_PLAY: "playing a card",
        }[phase]
        if kind is _KIND_BUNCH and phase is _PHASE_BIDDING:
            if not self.bunched_hands:
                return (
                    RuleCode.OPTION_OFF,
                    "bunched hands are not played (option bunched_hands is off)",
                )
            return (
                RuleCode.NOT_BUNCHED,
                f"bunched hand: seat {p} needs five or more Nines and no meld but dix,"
                " and must not have bid yet",
            )
        if kind is _KIND_BID and phase is _PHASE_BIDDING:
            n = action.number or 0
            if isinstance(n, bool) or not isinstance(n, int):
                return RuleCode.NOT_LEGAL, f"a bid is a whole number, not {n!r}"
            if s.bid is None and sum(s.passed) == 2:
                return (
                    RuleCode.BID_FORCED,
                    f"the first two passed: seat {p} may take the hand only at"
                    f" {self.min_bid} or pass (not bid {n})",
                )
            if n < self.min_bid:
                return RuleCode.BID_TOO_LOW, f"the lowest bid is {self.min_bid} (bid {n})"
            if s.bid is not None and n <= s.bid:
                return (
                    RuleCode.BID_TOO_LOW,
                    f"a bid must be higher than the last bid, {s.bid} (bid {n})",
                )
            if n % 10:
                return RuleCode.BID_STEP, f"bids rise in steps of 10 (bid {n})"
            return RuleCode.BID_TOO_HIGH, f"bid {n} is above the ceiling {self.max_bid}"
        if kind is _KIND_DISCARD and phase is _PHASE_DISCARD:
            return (
                RuleCode.NOT_HELD,
                f"discard {action.card}: seat {p} does not hold it (holds {format_cards(s.hands[p])})",
            )
        if kind is _KIND_CONCEDE and phase is _PHASE_PLAY:
            if p != s.bidder:
                return RuleCode.BIDDER_ONLY, f"only the bidder (seat {s.bidder}) may give up"
            return RuleCode.TOO_LATE, "the bidder may give up only before the first lead"
        if kind is _KIND_PLAY and phase is _PHASE_PLAY:
            c = action.card
            if c is None:
                return RuleCode.NOT_LEGAL, "a play names a card, e.g. 'play TS'"
            if action.source == "table":
                return RuleCode.NOT_HELD, "there are no table cards in this profile"
            if c not in s.hands[p]:
                return (
                    RuleCode.NOT_HELD,
                    f"play {c}: seat {p} does not hold it (holds {format_cards(s.hands[p])})",
                )
            broken = _obligation_refusal(
                c, s.hands[p], [x for _, x in s.trick], s.trump, self.obligation
            )
            return broken or (RuleCode.NOT_LEGAL, f"{action} is not legal now")
        text = f"seat {p} must act in the {phase.value} phase ({expected}), not {action}"
        if kind is _KIND_CLAIM:
            return RuleCode.NO_CLAIM_OPEN, text  # cutthroat rules: no claiming
        belongs = _PHASES_OF.get(kind)
        if belongs is not None and belongs is not phase:
            return RuleCode.WRONG_PHASE, text
        return RuleCode.NOT_LEGAL, text

    def revoke_penalty(self, state: GameState, seat: int) -> str:
        """Cutthroat rules, Revoke: the offender's card points count 0 for him (the
        figures in points); with ``settlement=chips`` the hand is then settled in
        chips on those figures (cutthroat rules, Settlement)."""
        text = self._revoke_points(state, seat)
        if not self.chips:
            return text
        return (
            f"{text}; the hand is settled in chips on these figures: a bidder not set"
            " collects the hand's value from each opponent, a set one pays it"
            " (cutthroat rules, Settlement)"
        )

    def _revoke_points(self, state: GameState, seat: int) -> str:
        """Cutthroat rules, Revoke: the offender's card points count 0 for him.

        His meld stands as usual (an opponent's, if he wins a counter).  A
        revoking bidder is then scored as usual, on his meld and the last trick
        if he takes it: set (twice his bid, or once with ``single_set``) if
        that falls short of his bid.  If an opponent revoked, the bidder cannot
        be set: he scores his bid, or at his choice the hand played out, never
        below his bid.  This text has the position at the revoke; the figures
        of the whole hand are the validator's (``hand_scores``,
        ``played_out_scores``).
        """
        # Cutthroat rules, Revoke: the last trick is not "cards" (the three-handed rules
        # score it with the melds), so it still counts for the offender.
        s: CutthroatState = state  # type: ignore[assignment]
        bidder, bid = s.bidder, s.bid
        where = f"hand {s.hand_number}"
        if bidder is None or bid is None:  # pragma: no cover - a revoke needs a trick
            return f"the card does not stand (cutthroat rules, Revoke; {where})"
        m = s.melds[seat]
        meld = 0 if m is None else m.total
        if seat == bidder:
            head = (
                f"seat {seat}, the bidder, scores no card points for {where} (neither his"
                " counters nor his discards; the last trick still counts)"
            )
            if meld >= bid:
                return (
                    f"{head}: his meld of {meld} reaches his bid of {bid}, so he is not set: he"
                    f" scores {meld}, and {LAST_TRICK} more if he takes the last trick; the"
                    " opponents score as usual (cutthroat rules, Revoke)"
                )
            loss = bid if self.single_set else 2 * bid
            how = "his bid, set single" if self.single_set else "twice his bid"
            unless = " unless the last trick makes it up" if meld + LAST_TRICK >= bid else ""
            return (
                f"{head}: his meld of {meld} falls short of his bid of {bid}, so{unless} he"
                f" is set: he loses {loss} ({how}); the opponents score as usual"
                " (cutthroat rules, Revoke)"
            )
        if not meld:
            stands = "he has no meld"
        elif s.counters[seat]:
            stands = f"his meld of {meld} stands (he has won a counter)"
        else:
            stands = f"his meld of {meld} stands only if he wins a counter"
        return (
            f"seat {seat}, an opponent, scores no card points for {where} (the last trick"
            f" still counts): {stands}; the bidder, seat {bidder}, cannot be set: he scores"
            f" his bid of {bid}, or at his choice the hand played out, scored as usual but"
            f" never below {bid} (cutthroat rules, Revoke)"
        )

    # -- meld, views, checks ---------------------------------------------------------

    def play_obligation(self, stock_exhausted: bool | None = None) -> Obligation:
        """The option ``obligation`` (cutthroat rules, Play); there is no stock."""
        return self.obligation

    def check_melds(
        self,
        hand: tuple[Card, ...],
        trump: int,
        declared: tuple[tuple[str, tuple[Card, ...], int | None], ...],
        table: object = None,
    ) -> list[tuple[RuleCode | None, str, int]]:
        """Melds counted by group, no order and no fresh card (cutthroat rules, Melds)."""
        if table is not None:
            raise InvalidArgumentError("cutthroat melds are shown at once: there is no table")
        return check_declaration(hand, trump, declared)

    def meld(self, cards: tuple[Card, ...], trump: Suit | None) -> MeldResult:
        if trump is None:
            return _NO_MELD
        return _result(tuple(meld_codes(cards, trump)))

    def meld_of(self, cards: tuple[Card, ...], trump: Suit) -> MeldResult:
        # The public binocle.meld: one count serves the pack check and the melds.
        c = _COUNT_START[:]
        for x in cards:
            c[x] += 1
        if max(c) > 2:
            return Profile.meld_of(self, cards, trump)  # says which card is wrong
        codes = tuple(codes_of_counts(c, trump))
        result = _RESULTS.get(codes)
        return _result(codes) if result is None else result

    def observe(self, state: GameState, seat: int) -> View:
        s: CutthroatState = state  # type: ignore[assignment]
        widow_shown = s.bidder is not None and s.phase not in (_PHASE_BIDDING, _PHASE_DEAL)
        public = {
            "calls": s.calls,
            "bidder": s.bidder if widow_shown else None,
            "bid": s.bid,
            "widow": s.widow if widow_shown else None,
            "discards": s.discards if seat == s.bidder else None,
            "discard_count": len(s.discards),
            "melds": s.melds,
            "played": s.played,
        }
        widow_at: tuple[int, ...] = ()
        if widow_shown:
            widow_at = _pile_positions(self.deal_schedule(s.dealer), "widow")
        return self.view(
            s, seat, public, public_log(s, seat, _hide_discards(seat)),
            deck=self.seen_deck(s, seat, widow_at),
        )  # fmt: skip

    def mask(self, action: Action, actor: int | None, seat: int) -> Action:
        """The bidder's discards are face down: others see that he discarded, not what."""
        if action.kind is _KIND_DISCARD and actor != seat:
            return _HIDDEN_DISCARD
        return Profile.mask(self, action, actor, seat)

    def check(self, state: GameState) -> None:
        s: CutthroatState = state  # type: ignore[assignment]
        if s.phase in (_PHASE_DEAL, _PHASE_OVER):
            held: list[Card] = [c for h in s.hands for c in h]
            if held or s.trick or s.played or s.discards:
                raise InvalidStateError(f"cards left out between hands: {format_cards(held)}")
            return
        cards = [c for h in s.hands for c in h]
        cards += [c for _, c in s.trick]
        cards += [c for t in s.played for _, c in t]
        cards += s.discards
        if s.phase is _PHASE_BIDDING:
            cards += s.widow
        if sorted(cards) != list(pack(self.pack_size)):
            raise InvalidStateError(
                "the cards in hands, widow, discards and tricks are not exactly the pack"
            )


def _result(codes: tuple[int, ...]) -> MeldResult:
    """The MeldResult of these meld codes (built once per combination of melds)."""
    result = _RESULTS.get(codes)
    if result is None:
        result = MeldResult(sum(_MELDS[i].value for i in codes), tuple(_MELDS[i] for i in codes))
        if len(_RESULTS) < 65536:
            _RESULTS[codes] = result
    return result


def _follow(
    hand: tuple[Card, ...], trick: tuple[tuple[int, Card], ...], trump: Suit | None, easier: bool
) -> tuple[Action, ...]:
    """The plays allowed to a trick in progress, under the profile's trick rule
    (:func:`binocle.rules.tricks.allowed_slice` of the sorted hand)."""
    rule = _OBLIGATION_EASIER if easier else _OBLIGATION_FOLLOW_WIN_TRUMP_UNDERTRUMP
    cards = allowed_slice(hand, trick, trump, rule)
    if cards is hand:
        return plays_then(hand)  # any card: a hand is seldom seen twice
    return plays_of_suit(cards)  # the cards of one suit: kept


#: The plays of cards of one suit, by the (sorted) cards: at most 3**8 keys a suit.
_SUIT_PLAYS: Final[dict[tuple[Card, ...], tuple[Action, ...]]] = {}


def plays_of_suit(cards: tuple[Card, ...]) -> tuple[Action, ...]:
    """The ``play`` actions of sorted cards of one suit, one per kind (shared tuples)."""
    plays = _SUIT_PLAYS.get(cards)
    if plays is None:
        plays = _SUIT_PLAYS[cards] = plays_then(cards)
    return plays


_BID_RANGES: Final[dict[tuple[int, int], tuple[Action, ...]]] = {}
_PASS_OR_BID: Final[dict[tuple[int, int], tuple[Action, ...]]] = {}
# Profile options come from outside: past this many ranges the caches start again.
_RANGES_KEPT: Final = 1024


def _bid_range(start: int, stop: int) -> tuple[Action, ...]:
    key = (start, stop)
    r = _BID_RANGES.get(key)
    if r is None:
        if len(_BID_RANGES) >= _RANGES_KEPT:
            _BID_RANGES.clear()
        r = _BID_RANGES[key] = tuple(A.bid(b) for b in range(start, stop + 1, 10))
    return r


def _pass_or_bid(start: int, stop: int) -> tuple[Action, ...]:
    """``pass`` then the bids from ``start`` to ``stop`` (built once per range)."""
    key = (start, stop)
    r = _PASS_OR_BID.get(key)
    if r is None:
        if len(_PASS_OR_BID) >= _RANGES_KEPT:
            _PASS_OR_BID.clear()
        r = _PASS_OR_BID[key] = (A.PASS, *_bid_range(start, stop))
    return r


def _may_bunch(s: CutthroatState, p: int) -> bool:
    """Bunched hands (cutthroat rules, Bidding): five or more Nines, no meld but dix, no bid yet."""
    if any(seat == p and amount for seat, amount in s.calls):
        return False
    hand = s.hands[p]
    if sum(1 for c in hand if c & 7 == _NINE) < 5:
        return False
    for t in Suit:
        nines = sum(1 for c in hand if c == t * 8 + _NINE)
        if meld_total(hand, t) != 10 * nines:
            return False
    return True


_HIDDEN_DISCARD: Final = A.new_action(_KIND_DISCARD)


def _pile_positions(schedule: tuple[tuple[int | str, int], ...], name: str) -> tuple[int, ...]:
    """The deck positions a deal schedule gives to the pile ``name``."""
    out: list[int] = []
    pos = 0
    for target, n in schedule:
        if target == name:
            out.extend(range(pos, pos + n))
        pos += n
    return tuple(out)


def _hide_discards(seat: int) -> Any:
    """The bidder's discards are face down: others see that he discarded, not what."""

    def hide(action: Action, actor: int | None) -> str | None:
        return "discard" if action.kind is _KIND_DISCARD and actor != seat else None

    return hide
