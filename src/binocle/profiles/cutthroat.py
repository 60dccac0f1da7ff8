"""Profile ``cutthroat``: three-hand auction Pinochle to 1500 (cutthroat rules).

Phases: DEAL → BIDDING → DISCARD (three single cards) → TRUMP → MELD (bidder
first, then clockwise) → PLAY (15 tricks; the bidder may concede before the
first lead) → DEAL again, or OVER.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import attrs

from binocle import actions as A
from binocle.actions import (
    _KIND_BID,
    _KIND_BUNCH,
    _KIND_CONCEDE,
    _KIND_DEAL,
    _KIND_DISCARD,
    _KIND_MELD,
    _KIND_PASS,
    _KIND_PLAY,
    _KIND_TRUMP,
    Action,
)
from binocle.cards import Card, Suit
from binocle.core import (
    _PHASE_BIDDING,
    _PHASE_DEAL,
    _PHASE_DISCARD,
    _PHASE_MELD,
    _PHASE_OVER,
    _PHASE_PLAY,
    _PHASE_TRUMP,
    GameState,
    HandResult,
    MeldResult,
)
from binocle.errors import InvalidArgumentError, excerpt
from binocle.profiles._common import (
    flag_option,
    played_from,
    positive_option,
    profile_option,
    remove_card,
    replace_at,
    top_scorer,
)
from binocle.profiles._cutthroat_rules import CutthroatRules
from binocle.profiles._cutthroat_rules import plays_of_suit as plays_of_suit
from binocle.profiles._cutthroat_state import (
    Auction,
    CutthroatState,
    _change_auction,
    _change_play,
    _change_trick,
)
from binocle.rules.points import COUNTER_POINTS, LAST_TRICK

__all__ = ["SETTLEMENTS", "Auction", "Cutthroat", "CutthroatState", "chip_value"]


def _bid_option(instance: Any, attribute: Any, value: Any) -> None:
    # At most 10,000 (A.INTERNED_BIDS): a thousand bids, every one interned.
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 0 < value <= A.INTERNED_BIDS
        or value % 10
    ):
        raise ValueError(
            f"{attribute.name} must be a multiple of 10 from 10 to {A.INTERNED_BIDS},"
            f" not {excerpt(value)}"
        )


def _widow_round(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:
        raise ValueError(
            f"widow_after_round must be 0..4 (the widow is never the last card),"
            f" not {excerpt(value)}"
        )


#: The ways a hand may be settled (option ``settlement``).
SETTLEMENTS: Final = ("points", "chips")


def _settlement_option(instance: Any, attribute: Any, value: Any) -> None:
    if value not in SETTLEMENTS:
        raise ValueError(
            f"settlement must be points (a running score to the target) or chips (each"
            f" hand settled in chips), not {excerpt(value)}"
        )


def chip_value(bid: Any, trump: Any = None) -> int:  # Any: checked here, compiled or not
    """What a hand bid at ``bid`` is worth in chips (cutthroat rules, Settlement): 250 to
    290: 2, 300 to 340: 3, 350 to 390: 5, 400 to 440: 10, then 5 more for every further
    50; doubled when spades are trump (``trump`` a :class:`~binocle.cards.Suit`, or
    None before it is named).

    >>> from binocle.cards import Suit
    >>> chip_value(250), chip_value(350), chip_value(480), chip_value(600, Suit.SPADES)
    (2, 5, 15, 60)
    """
    if isinstance(bid, bool) or not isinstance(bid, int) or not 250 <= bid <= A.INTERNED_BIDS:
        raise InvalidArgumentError(
            f"a bid settled in chips is a whole number from 250 to {A.INTERNED_BIDS},"
            f" not {excerpt(bid)}"
        )
    if trump is not None and not isinstance(trump, Suit):
        raise InvalidArgumentError(f"trump is a Suit or None, not {excerpt(trump)}")
    if bid < 300:
        value = 2
    elif bid < 350:
        value = 3
    elif bid < 400:
        value = 5
    else:
        value = 10 + 5 * ((bid - 400) // 50)
    return 2 * value if trump is Suit.SPADES else value


@attrs.frozen(slots=True)
class Cutthroat(CutthroatRules):
    """Three-hand auction (cutthroat) Pinochle.

    Options (cutthroat rules, Options):

    - ``min_bid`` (250): the lowest bid; bids rise in steps of 10.
    - ``max_bid`` (3000): the bid ceiling, above any real hand, so the set of
      legal actions is finite.
    - ``single_set`` (false): a bidder who fails loses the bid once, not twice.
    - ``easier_tricks`` (false): beat the highest card so far only when trump
      was led.
    - ``bunched_hands`` (false): a player with five or more Nines and no meld
      but dix may have the hand thrown in and redealt by the same dealer.
    - ``widow_after_round`` (1): the widow takes the three cards dealt after
      this round of packets (0..4: never the last card).
    - ``target`` (1500): the score that wins the game.
    - ``settlement`` (``points``): ``chips`` settles each hand in chips instead
      of a running score to the target (the Auction Pinochle variant): the
      bidder collects the hand's value (:func:`chip_value`) from each other
      player, or pays it; the game then ends after ``max_hands`` hands, which
      it needs.
    """

    name: "ClassVar[str]" = "cutthroat"
    aliases: "ClassVar[tuple[str, ...]]" = ("auction", "three-hand-auction", "cut-throat")
    players: "ClassVar[int]" = 3
    description: "ClassVar[str]" = "three-hand auction Pinochle to 1500 with a widow"
    revokes_played_out: "ClassVar[bool]" = True

    min_bid: int = profile_option(250, _bid_option)
    max_bid: int = profile_option(3000, _bid_option)
    single_set: bool = profile_option(False, flag_option)
    easier_tricks: bool = profile_option(False, flag_option)
    bunched_hands: bool = profile_option(False, flag_option)
    widow_after_round: int = profile_option(1, _widow_round)
    target: int = profile_option(1500, positive_option)
    settlement: str = profile_option("points", _settlement_option)

    def __attrs_post_init__(self) -> None:
        if self.max_bid < self.min_bid:
            raise ValueError(f"max_bid ({self.max_bid}) is below min_bid ({self.min_bid})")
        if self.settlement == "chips":
            if self.max_hands is None:
                raise ValueError(
                    "settlement=chips has no target score: give max_hands, the number of"
                    " hands the game lasts"
                )
            if self.min_bid < 250:
                raise ValueError(
                    f"settlement=chips values bids from 250 (the chip schedule), so min_bid"
                    f" is at least 250, not {self.min_bid}"
                )

    def _chip_delta(
        self, bidder: int, bid: int, trump: Suit | None, made: bool, conceded: bool = False
    ) -> tuple[int, ...]:
        """The chips each seat gains in a hand bid by ``bidder`` at ``bid`` (cutthroat
        rules, Settlement): where he made his bid he collects the hand's value
        (:func:`chip_value`) from each other player; where he gave up he pays it to
        each; where he played and was set he pays each twice the value (once with
        ``single_set``)."""
        value = chip_value(bid, trump)
        if made:
            each = -value
        elif conceded or self.single_set:
            each = value
        else:
            each = 2 * value
        return tuple(-2 * each if i == bidder else each for i in range(3))

    # -- states ----------------------------------------------------------------

    def initial(self, seed: int, dealer: int) -> CutthroatState:
        return CutthroatState(
            self, seed, dealer, 0, _PHASE_DEAL, dealer, None, None,
            _EMPTY3, (), (0, 0, 0), (), None,
            _NO_AUCTION, (0, 0, 0), (0, 0, 0), (), None,
        )  # fmt: skip

    # -- transitions -----------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> GameState:
        s: CutthroatState = state  # type: ignore[assignment]
        kind = action.kind
        if kind is _KIND_PLAY:
            return _play(self, s, action)
        if kind is _KIND_DEAL:
            return self._deal(s, action)
        if kind is _KIND_BID or kind is _KIND_PASS:
            return self._call(s, action)
        if kind is _KIND_DISCARD:
            return self._discard(s, action)
        if kind is _KIND_TRUMP:
            return self._trump(s, action)
        if kind is _KIND_MELD:
            return self._meld(s, action)
        if kind is _KIND_CONCEDE:
            return self._concede(s, action)
        if kind is _KIND_BUNCH:
            return self._end_hand(s, action, _zero_result(s, "redeal"), redeal=True)
        raise AssertionError(f"unhandled action {action}")  # pragma: no cover

    def deal_schedule(self, dealer: int) -> tuple[tuple[int | str, int], ...]:
        """Three at a time clockwise from the dealer's left, 15 each; the widow
        takes the three cards after round ``widow_after_round`` (cutthroat rules, Deal)."""
        out: list[tuple[int | str, int]] = []
        for rnd in range(5):
            if rnd == self.widow_after_round:
                out.append(("widow", 3))
            out.extend(((dealer + k) % 3, 3) for k in (1, 2, 3))
        return tuple(out)

    def _deal(self, s: CutthroatState, action: Action) -> CutthroatState:
        d = s.dealer
        hands, piles = self.split_deck(action.cards, d)
        widow = tuple(sorted(piles["widow"]))
        return CutthroatState(
            self, s.seed, s.first_dealer, s.hand_number + 1, _PHASE_BIDDING, d, (d + 1) % 3,
            None, tuple(tuple(sorted(h)) for h in hands), (), s.scores, s.results,
            (s.history, action, None),
            Auction(widow, (), None, None, _NOBODY3, (), _NONE3), (0, 0, 0), (0, 0, 0), (),
            None,
        )  # fmt: skip

    def _call(self, s: CutthroatState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None
        passed = s.passed
        if action.kind is _KIND_PASS:
            passed = replace_at(passed, p, True)
            calls = (*s.calls, (p, 0))
            bidder, bid = s.bidder, s.bid
        else:
            calls = (*s.calls, (p, action.number or 0))
            bidder, bid = p, action.number
        history = (s.history, action, p)
        if all(passed):
            done = _zero_result(s, "thrown-in")
            mid = _rebuild(s, history=history, calls=calls, passed=passed)
            return self._end_hand(mid, None, done, redeal=False, logged=True)
        if sum(passed) == 2 and bidder is not None:
            hands = replace_at(s.hands, bidder, tuple(sorted(s.hands[bidder] + s.widow)))
            return _rebuild(
                s, phase=_PHASE_DISCARD, current=bidder, hands=hands, history=history,
                calls=calls, bidder=bidder, bid=bid, passed=passed,
            )  # fmt: skip
        nxt = (p + 1) % 3
        while passed[nxt]:
            nxt = (nxt + 1) % 3
        return _rebuild(
            s, current=nxt, history=history, calls=calls, bidder=bidder, bid=bid, passed=passed
        )

    def _discard(self, s: CutthroatState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None and action.card is not None
        hand = remove_card(s.hands[p], action.card)
        discards = (*s.discards, action.card)
        phase = _PHASE_TRUMP if len(discards) == 3 else _PHASE_DISCARD
        return _rebuild(
            s, phase=phase, hands=replace_at(s.hands, p, hand), history=(s.history, action, p),
            discards=discards,
        )  # fmt: skip

    def _trump(self, s: CutthroatState, action: Action) -> GameState:
        return _rebuild(
            s, phase=_PHASE_MELD, trump=action.suit, history=(s.history, action, s.current_player)
        )

    def _meld(self, s: CutthroatState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None and s.trump is not None
        melds = replace_at(s.melds, p, self.meld(s.hands[p], s.trump))
        nxt = (p + 1) % 3
        phase = _PHASE_PLAY if nxt == s.bidder else _PHASE_MELD
        return _rebuild(s, phase=phase, current=nxt, history=(s.history, action, p), melds=melds)

    def _concede(self, s: CutthroatState, action: Action) -> GameState:
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        meld = tuple(0 if i == bidder else _total(s.melds[i]) for i in range(3))
        delta = tuple(-bid if i == bidder else meld[i] for i in range(3))
        chips = None
        if self.chips:
            chips = chip_value(bid, s.trump)
            delta = self._chip_delta(bidder, bid, s.trump, False, conceded=True)
        result = HandResult(
            s.dealer, s.trump, meld, (0, 0, 0), delta, bidder, bid, False, "conceded", chips=chips
        )
        return self._end_hand(s, action, result, redeal=False)

    def _score_hand(self, s: CutthroatState, last: int) -> GameState:
        """Hand scoring (cutthroat rules, Scoring a hand)."""
        return self._end_hand(s, None, self._hand_result(s, last), redeal=False, logged=True)

    def _hand_result(
        self, s: CutthroatState, last: int | None, revoke: int | None = None
    ) -> HandResult:
        """The hand scored from the tricks taken in ``s`` (cutthroat rules, Scoring a hand).

        ``last``: the seat that won the last trick, None where the hand stops
        before its end (no last-trick bonus).  ``revoke``: the seat whose card
        points count 0 for it (cutthroat rules, Revoke): its counters, and the
        bidder's discards if he revoked; the last trick is not card points.
        """
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        tricks = [s.taken[i] + (LAST_TRICK if i == last else 0) for i in range(3)]
        tricks[bidder] += sum(COUNTER_POINTS[c] for c in s.discards)
        if revoke is not None:
            tricks[revoke] = LAST_TRICK if revoke == last else 0
        meld = [0, 0, 0]
        delta = [0, 0, 0]
        made = False
        for i in range(3):
            declared = _total(s.melds[i])
            if i == bidder:
                made = declared + tricks[i] >= bid
                if made:
                    meld[i] = declared
                    delta[i] = declared + tricks[i]
                else:
                    delta[i] = -bid if self.single_set else -2 * bid
            else:
                meld[i] = declared if s.counters[i] > 0 else 0
                delta[i] = meld[i] + tricks[i]
        if self.chips:
            return HandResult(
                s.dealer, s.trump, tuple(meld), tuple(tricks),
                self._chip_delta(bidder, bid, s.trump, made), bidder, bid, made, "played",
                chips=chip_value(bid, s.trump),
            )  # fmt: skip
        return HandResult(
            s.dealer, s.trump, tuple(meld), tuple(tricks), tuple(delta), bidder, bid, made, "played"
        )

    def revoke_scores(
        self, state: GameState, seat: int, last: Action | None = None
    ) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """The hand in which ``seat`` revoked, scored by the cutthroat rules, Revoke.

        ``state`` is the hand past the revoke, in its play (the revoking card
        played, then the record's further cards of the hand); ``last`` is the
        card that ended the hand after it, None where the record stops before.
        The offender's card points count 0 for him (his meld stands if he won a
        counter).  A revoking bidder is then scored as usual, on his meld and
        the last trick if he took it: the first figure, and None.  If an
        opponent revoked, the bidder cannot be set: the first figure gives him
        his bid; the second, where the hand is played to its end, the hand
        played out, scored as usual but never below his bid (None where the
        record stops before the end).  With ``settlement=chips`` the figures are
        chips: the bidder who is not set collects the hand's value from each
        opponent, and a set bidder pays (cutthroat rules, Settlement).
        """
        s: CutthroatState = state  # type: ignore[assignment]
        if last is not None:
            s = _play(self, s, last, scored=False)  # type: ignore[assignment]
        done = len(s.played) == 15
        result = self._hand_result(s, s.current_player if done else None, revoke=seat)
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        if self.chips:
            # An opponent's revoke: the bidder cannot be set, so he collects.
            not_set = bool(result.made) if seat == bidder else True
            chips = self._chip_delta(bidder, bid, s.trump, not_set)
            return chips, (chips if seat != bidder and done else None)
        if seat == bidder:
            return result.delta, None
        at_bid = replace_at(result.delta, bidder, bid)
        if not done:
            return at_bid, None
        made = _total(s.melds[bidder]) + result.tricks[bidder]
        return at_bid, replace_at(result.delta, bidder, max(bid, made))

    def _end_hand(
        self,
        s: CutthroatState,
        action: Action | None,
        result: HandResult,
        *,
        redeal: bool,
        logged: bool = False,
    ) -> GameState:
        """Record the hand, then wait for the next deal or end the game (cutthroat rules, Winning)."""
        scores = tuple(a + b for a, b in zip(s.scores, result.delta, strict=True))
        history: Any = s.history if logged else (s.history, action, s.current_player)
        chips = self.chips
        winner = None if chips else _game_winner(scores, result.bidder, self.target)
        end = None if winner is None else "target"
        if end is None and self.limit_reached(s.hand_number):
            # The hand limit (max_hands): the highest score wins; of tied top
            # scores, the bidder's (the tie rule of "Winning"), else nobody.  In
            # chips (cutthroat rules, Settlement) a tie for the top wins nothing.
            winner = top_scorer(scores) if chips else _limit_winner(scores, result.bidder)
            end = "limit"
        if end is not None:
            result = attrs.evolve(result, game_end=end)
        results = (*s.results, result)
        if end is not None:
            phase, dealer = _PHASE_OVER, s.dealer
        else:
            phase, dealer = _PHASE_DEAL, s.dealer if redeal else (s.dealer + 1) % 3
        return CutthroatState(
            self, s.seed, s.first_dealer, s.hand_number, phase, dealer, None, None,
            _EMPTY3, (), scores, results, history,
            _NO_AUCTION, (0, 0, 0), (0, 0, 0), (), winner,
        )  # fmt: skip


def _play(profile: Cutthroat, s: CutthroatState, action: Action, scored: bool = True) -> GameState:
    """A card played (the hot path of playouts): a module function, which compiled
    code calls directly, where a method of the profile is looked up on each call.
    With ``scored`` false, the hand's last card leaves its tricks taken, not yet
    scored (the validator scores a hand past a revoke so).

    Tuples are built in place, and the card numbers are read into variables typed
    ``int``, which compiled code compares and shifts as machine integers (the
    cards themselves, :class:`Card` objects, are what the state keeps).
    """
    p = s.current_player
    card = action.card
    assert p is not None and card is not None
    c: int = card
    hands = played_from(s.hands, p, c)
    trick = s.trick
    if len(trick) < 2:
        # Concatenated, not rebuilt: compiled code would box anew a pair it read.
        return _change_play(s, (p + 1) % 3, hands, trick + ((p, card),), (s.history, action, p))
    # The trick is complete: its winner (common rules, Trick winner) and points.
    trump = s.trump
    t: int = -1 if trump is None else trump
    c0: int = trick[0][1]
    c1: int = trick[1][1]
    w = trick[0][0]
    b = c0
    if c1 >> 3 == c0 >> 3:
        if c1 < c0:
            w, b = trick[1][0], c1
    elif c1 >> 3 == t:
        w, b = trick[1][0], c1
    if c >> 3 == b >> 3:
        if c < b:
            w = p
    elif c >> 3 == t:
        w = p
    pts = COUNTER_POINTS[c0] + COUNTER_POINTS[c1] + COUNTER_POINTS[c]
    taken = s.taken
    counters = s.counters
    if pts:
        taken = taken[:w] + (taken[w] + pts,) + taken[w + 1 :]
        counters = counters[:w] + (counters[w] + pts // 10,) + counters[w + 1 :]
    played = s.played + (trick + ((p, card),),)
    nxt = _change_trick(s, w, hands, (), (s.history, action, p), taken, counters, played)
    if len(played) < 15 or not scored:
        return nxt
    return profile._score_hand(nxt, w)


_EMPTY3: Final[tuple[tuple[Card, ...], ...]] = ((), (), ())
_NOBODY3: Final = (False, False, False)
_NONE3: Final[tuple[MeldResult | None, ...]] = (None, None, None)
_NO_AUCTION: Final = Auction((), (), None, None, _NOBODY3, (), _NONE3)


def _total(m: MeldResult | None) -> int:
    return 0 if m is None else m.total


def _zero_result(s: CutthroatState, outcome: str) -> HandResult:
    return HandResult(s.dealer, None, (0, 0, 0), (0, 0, 0), (0, 0, 0), None, None, None, outcome)


def _game_winner(scores: tuple[int, ...], bidder: int | None, target: int) -> int | None:
    """Winning (cutthroat rules, Winning): the bidder among those at the target, else the higher score.

    An exact tie between two non-bidders decides nothing (cutthroat rules, Winning).
    """
    reached = [i for i, v in enumerate(scores) if v >= target]
    if not reached:
        return None
    if bidder in reached:
        return bidder
    top = max(scores[i] for i in reached)
    best = [i for i in reached if scores[i] == top]
    return best[0] if len(best) == 1 else None


def _limit_winner(scores: tuple[int, ...], bidder: int | None) -> int | None:
    """The winner when the hand limit ends the game: the highest score; of tied
    top scores the last bidder's, else nobody (as :func:`_game_winner`)."""
    top = max(scores)
    best = [i for i, v in enumerate(scores) if v == top]
    if len(best) == 1:
        return best[0]
    return bidder if bidder in best else None


_KEEP: Final[Any] = object()


def _rebuild(
    s: CutthroatState,
    *,
    phase: Any = _KEEP,
    current: Any = _KEEP,
    trump: Any = _KEEP,
    hands: Any = _KEEP,
    history: Any = _KEEP,
    calls: Any = _KEEP,
    bidder: Any = _KEEP,
    bid: Any = _KEEP,
    passed: Any = _KEEP,
    discards: Any = _KEEP,
    melds: Any = _KEEP,
) -> CutthroatState:
    """A copy of ``s`` with some fields changed, the auction's too (bidding, discards,
    trump, melds).  Written out field by field: random playouts bid many times a
    hand, and this costs a good deal less than :func:`binocle.core.state_updater`."""
    k = _KEEP
    a = s.auction
    if not (
        calls is k and bidder is k and bid is k and passed is k and discards is k and melds is k
    ):
        a = Auction(
            a.widow,
            a.calls if calls is k else calls,
            a.bidder if bidder is k else bidder,
            a.bid if bid is k else bid,
            a.passed if passed is k else passed,
            a.discards if discards is k else discards,
            a.melds if melds is k else melds,
        )
    return _change_auction(
        s,
        s.phase if phase is k else phase,
        s.current_player if current is k else current,
        s.trump if trump is k else trump,
        s.hands if hands is k else hands,
        s.history if history is k else history,
        a,
    )
