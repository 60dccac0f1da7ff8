"""Profile ``partnership``: four-hand partnership auction Pinochle to 1500.

Built on the cutthroat profile's reading half (``CutthroatRules``: the
bids, melds, trick obligations and their explanations), for four seats in two
sides, partners opposite (0 and 2 against 1 and 3).

Phases: DEAL (12 cards each, no widow) → BIDDING → TRUMP → DISCARD (with the
option ``passing``: the cards passed face down between the partners, one
``give`` action each) → MELD (bidder first, then clockwise) → PLAY (12 tricks;
the bidder may give up for his side before the first lead) → DEAL again, or OVER.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import attrs

from binocle import actions as A
from binocle.actions import (
    _KIND_BID,
    _KIND_CLAIM,
    _KIND_CONCEDE,
    _KIND_DEAL,
    _KIND_GIVE,
    _KIND_MELD,
    _KIND_PASS,
    _KIND_PLAY,
    _KIND_TRUMP,
    Action,
)
from binocle.cards import Card, format_cards, pack
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
    Profile,
    View,
)
from binocle.errors import InvalidStateError, RuleCode, excerpt
from binocle.profiles._common import (
    flag_option,
    plays_then,
    positive_option,
    profile_option,
    public_log,
    remove_card,
    replace_at,
)
from binocle.profiles._cutthroat_rules import CutthroatRules, _pass_or_bid
from binocle.profiles._cutthroat_state import Auction
from binocle.profiles._partnership_state import (
    PartnershipState,
    change_auction,
    change_play,
    change_trick,
)
from binocle.rules.points import COUNTER_POINTS, LAST_TRICK
from binocle.rules.tricks import _trick_winner, bisect_cards

__all__ = ["Partnership", "PartnershipState"]

#: The two sides, partners opposite (partnership rules, Players and pack).
SIDES: Final = ((0, 2), (1, 3))
#: The highest meld of two 12-card hands together (one pack, one trump), found exactly
#: by ``tools/meld_bounds.py`` (``cutthroat_pair_meld((12, 12))``).
_SIDE_MELD: Final = 2220


def _bid_option(instance: Any, attribute: Any, value: Any) -> None:
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


def _passing_option(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or value not in (0, 3, 4):
        raise ValueError(f"passing must be 0, 3 or 4 (cards each way), not {excerpt(value)}")


def _all_pass_option(instance: Any, attribute: Any, value: Any) -> None:
    if value not in ("redeal", "dealer"):
        raise ValueError(f"all_pass must be 'redeal' or 'dealer', not {excerpt(value)}")


@attrs.frozen(slots=True)
class Partnership(CutthroatRules):
    """Four-hand partnership auction Pinochle.

    Options (partnership rules, Options):

    - ``min_bid`` (250): the lowest bid; bids rise in steps of 10 (jumps allowed).
    - ``max_bid`` (3000): the bid ceiling, above any real hand.
    - ``passing`` (0): how many cards the bidder's partner passes to the bidder
      after trump is named, and the bidder passes back (0, 3 or 4).
    - ``all_pass`` (``redeal``): when all four pass, the hand is thrown in
      (``redeal``), or the dealer may not pass after three passes (``dealer``).
    - ``double_set`` (false): a bidding side that fails loses twice its bid.
    - ``easier_tricks`` (false): beat the highest card so far only when trump
      was led.
    - ``target`` (1500): the score that wins the game.
    """

    name: "ClassVar[str]" = "partnership"
    aliases: "ClassVar[tuple[str, ...]]" = ("four-hand", "partnership-auction", "double-deck-four")
    players: "ClassVar[int]" = 4
    description: "ClassVar[str]" = "four-hand partnership auction Pinochle to 1500"
    revokes_played_out: "ClassVar[bool]" = True

    min_bid: int = profile_option(250, _bid_option)
    max_bid: int = profile_option(3000, _bid_option)
    passing: int = profile_option(0, _passing_option)
    all_pass: str = profile_option("redeal", _all_pass_option)
    double_set: bool = profile_option(False, flag_option)
    easier_tricks: bool = profile_option(False, flag_option)
    target: int = profile_option(1500, positive_option)

    def __attrs_post_init__(self) -> None:
        if self.max_bid < self.min_bid:
            raise ValueError(f"max_bid ({self.max_bid}) is below min_bid ({self.min_bid})")

    # The cutthroat options this game does not have (read by the shared rules).
    @property
    def single_set(self) -> bool:  # type: ignore[override]
        """A set costs the bid once unless ``double_set``."""
        return not self.double_set

    @property
    def bunched_hands(self) -> bool:  # type: ignore[override]
        """No bunched hands in the partnership game."""
        return False

    @property
    def widow_after_round(self) -> int:  # type: ignore[override]
        """No widow in the partnership game."""
        return 0

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Seats 0 and 2 against 1 and 3."""
        return SIDES

    # -- states ----------------------------------------------------------------

    def initial(self, seed: int, dealer: int) -> PartnershipState:
        return PartnershipState(
            self, seed, dealer, 0, _PHASE_DEAL, dealer, None, None,
            _EMPTY4, (), _ZERO4, (), None,
            _NO_AUCTION, _ZERO4, _ZERO4, (), None, (),
        )  # fmt: skip

    def deal_schedule(self, dealer: int) -> tuple[tuple[int | str, int], ...]:
        """Three at a time clockwise from the dealer's left, 12 each; no widow
        (partnership rules, Deal)."""
        return tuple(((dealer + k) % 4, 3) for _ in range(4) for k in (1, 2, 3, 4))

    def fixed_actions(self) -> tuple[Action, ...]:
        """Every action of the game but deals, in a fixed order (the fixed action space
        of :mod:`binocle.encoding`): pass, the bids, give each card, trump, meld,
        concede, play each card."""
        cards = pack(self.pack_size)[::2]
        return (
            A.PASS,
            *(A.bid(b) for b in range(self.min_bid, self.max_bid + 1, 10)),
            *(A.GIVE[c] for c in cards),
            *A.TRUMP,
            A.MELD,
            A.CONCEDE,
            *(A.PLAY[c] for c in cards),
        )

    def max_decisions_per_hand(self) -> int:
        """An upper bound on the decisions of one hand: every bid level once, four
        passes, trump, the cards passed both ways, four melds and 48 cards."""
        bids = (self.max_bid - self.min_bid) // 10 + 1
        return bids + 4 + 1 + 2 * self.passing + 4 + 48

    def hand_bounds(self) -> tuple[int, int, int]:
        """Per hand: the lowest and highest change of one seat's score (its side's), and
        the highest change of two seats' scores added together.  The lowest: a set
        bidding side (twice ``max_bid`` with ``double_set``); the highest: the highest
        meld of two 12-card hands together (2220, exact, ``tools/meld_bounds.py``) and
        every trick (250); two partners move together."""
        low = -(2 * self.max_bid if self.double_set else self.max_bid)
        high = _SIDE_MELD + 250
        return low, high, 2 * high

    def highest_before_last_hand(self, gained: Any) -> int:
        """The bound of :meth:`binocle.core.Profile.highest_before_last_hand` (below the target,
        unless two seats stand at it together), not cutthroat's tie of two non-bidders:
        partners share one score."""
        return Profile.highest_before_last_hand(self, gained)

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        s: PartnershipState = state  # type: ignore[assignment]
        if s.phase is _PHASE_DISCARD:
            p = s.current_player
            assert p is not None
            return plays_then(s.hands[p], None, A.GIVE)
        return CutthroatRules.legal_actions(self, s)

    def _bidding_actions(self, s: Any) -> tuple[Action, ...]:
        bid = s.auction.bid
        start = self.min_bid if bid is None else bid + 10
        out = _pass_or_bid(start, self.max_bid)
        if bid is None and sum(s.auction.passed) == 3 and self.all_pass == "dealer":
            return out[1:]  # the dealer may not pass (partnership rules, Bidding)
        return out

    # -- transitions -----------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> GameState:
        s: PartnershipState = state  # type: ignore[assignment]
        kind = action.kind
        if kind is _KIND_PLAY:
            return self._play(s, action)
        if kind is _KIND_DEAL:
            return self._deal(s, action)
        if kind is _KIND_BID or kind is _KIND_PASS:
            return self._call(s, action)
        if kind is _KIND_TRUMP:
            return self._trump(s, action)
        if kind is _KIND_GIVE:
            return self._give(s, action)
        if kind is _KIND_MELD:
            return self._meld(s, action)
        if kind is _KIND_CONCEDE:
            return self._concede(s, action)
        raise AssertionError(f"unhandled action {action}")  # pragma: no cover

    def _deal(self, s: PartnershipState, action: Action) -> PartnershipState:
        d = s.dealer
        hands, _ = self.split_deck(action.cards, d)
        return PartnershipState(
            self, s.seed, s.first_dealer, s.hand_number + 1, _PHASE_BIDDING, d, (d + 1) % 4,
            None, tuple(tuple(sorted(h)) for h in hands), (), s.scores, s.results,
            (s.history, action, None),
            Auction((), (), None, None, _NOBODY4, (), _NONE4), _ZERO4, _ZERO4, (), None, (),
        )  # fmt: skip

    def _call(self, s: PartnershipState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None
        a = s.auction
        passed = a.passed
        if action.kind is _KIND_PASS:
            passed = replace_at(passed, p, True)
            calls = (*a.calls, (p, 0))
            bidder, bid = a.bidder, a.bid
        else:
            calls = (*a.calls, (p, action.number or 0))
            bidder, bid = p, action.number
        history = (s.history, action, p)
        auction = Auction((), calls, bidder, bid, passed, (), a.melds)
        if all(passed):
            mid = change_auction(s, s.phase, p, None, s.hands, history, auction, ())
            return self._end_hand(mid, _zero_result(s, "thrown-in"))
        if sum(passed) == 3 and bidder is not None:
            return change_auction(s, _PHASE_TRUMP, bidder, None, s.hands, history, auction, ())
        nxt = (p + 1) % 4
        while passed[nxt]:
            nxt = (nxt + 1) % 4
        return change_auction(s, _PHASE_BIDDING, nxt, None, s.hands, history, auction, ())

    def _trump(self, s: PartnershipState, action: Action) -> GameState:
        bidder = s.auction.bidder
        assert bidder is not None
        history = (s.history, action, s.current_player)
        if self.passing:
            return change_auction(
                s, _PHASE_DISCARD, (bidder + 2) % 4, action.suit, s.hands, history, s.auction, ()
            )
        return change_auction(s, _PHASE_MELD, bidder, action.suit, s.hands, history, s.auction, ())

    def _give(self, s: PartnershipState, action: Action) -> GameState:
        """One card passed face down to the partner (partnership rules, Trump and passing)."""
        p = s.current_player
        assert p is not None and action.card is not None
        to = (p + 2) % 4
        hands = replace_at(s.hands, p, remove_card(s.hands[p], action.card))
        hands = replace_at(hands, to, tuple(sorted((*hands[to], action.card))))
        given = (*s.given, action.card)
        history = (s.history, action, p)
        n = self.passing
        if len(given) == 2 * n:
            bidder = s.auction.bidder
            return change_auction(s, _PHASE_MELD, bidder, s.trump, hands, history, s.auction, given)
        nxt = p if len(given) != n else to
        return change_auction(s, _PHASE_DISCARD, nxt, s.trump, hands, history, s.auction, given)

    def _meld(self, s: PartnershipState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None and s.trump is not None
        a = s.auction
        melds = replace_at(a.melds, p, self.meld(s.hands[p], s.trump))
        nxt = (p + 1) % 4
        phase = _PHASE_PLAY if nxt == a.bidder else _PHASE_MELD
        auction = Auction((), a.calls, a.bidder, a.bid, a.passed, (), melds)
        return change_auction(
            s, phase, nxt, s.trump, s.hands, (s.history, action, p), auction, s.given
        )

    def _concede(self, s: PartnershipState, action: Action) -> GameState:
        """Giving up (partnership rules, Giving up): the bidding side loses its bid
        (once), the other side scores its meld."""
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        side_meld = _side_melds(s)
        meld = [0, 0, 0, 0]
        delta = [0, 0, 0, 0]
        for seat in range(4):
            if seat % 2 == bidder % 2:
                delta[seat] = -bid
            else:
                meld[seat] = delta[seat] = side_meld[seat % 2]
        result = HandResult(
            s.dealer, s.trump, tuple(meld), _ZERO4, tuple(delta), bidder, bid, False, "conceded"
        )
        p = s.current_player
        mid = change_auction(
            s, s.phase, p, s.trump, s.hands, (s.history, action, p), s.auction, s.given
        )
        return self._end_hand(mid, result)

    def _play(self, s: PartnershipState, action: Action, scored: bool = True) -> GameState:
        """A card played; the fourth card of a trick takes it (common rules, Trick winner)."""
        p = s.current_player
        card = action.card
        assert p is not None and card is not None
        c: int = card
        hand = s.hands[p]
        i = bisect_cards(hand, c, 0, len(hand))
        hands = replace_at(s.hands, p, hand[:i] + hand[i + 1 :])
        trick = (*s.trick, (p, card))
        history = (s.history, action, p)
        if len(trick) < 4:
            return change_play(s, (p + 1) % 4, hands, trick, history)
        w = trick[_trick_winner([x for _, x in trick], s.trump)][0]
        pts = sum(COUNTER_POINTS[x] for _, x in trick)
        taken, counters = s.taken, s.counters
        if pts:
            taken = replace_at(taken, w, taken[w] + pts)
            counters = replace_at(counters, w, counters[w] + pts // 10)
        played = (*s.played, trick)
        nxt = change_trick(s, w, hands, history, taken, counters, played)
        if len(played) < 12 or not scored:
            return nxt
        return self._end_hand(nxt, self._hand_result(nxt, w))

    # -- scoring -----------------------------------------------------------------

    def _hand_result(
        self, s: PartnershipState, last: int | None, revoke: int | None = None
    ) -> HandResult:
        """The hand scored by side from the tricks taken (partnership rules, Scoring a
        hand); every figure is the side's, shown for both partners.

        ``last``: the seat that won the last trick (None: the hand stopped before
        it).  ``revoke``: a seat whose side's card points count 0 (its counters;
        the last trick still counts), as the cutthroat Revoke rule has it.
        """
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        side_meld = _side_melds(s)
        tricks = [0, 0]
        counters = [0, 0]
        for seat in range(4):
            tricks[seat % 2] += s.taken[seat]
            counters[seat % 2] += s.counters[seat]
        if last is not None:
            tricks[last % 2] += LAST_TRICK
        if revoke is not None:
            tricks[revoke % 2] = LAST_TRICK if last is not None and last % 2 == revoke % 2 else 0
        meld = [side_meld[k] if counters[k] > 0 else 0 for k in (0, 1)]
        delta = [meld[k] + tricks[k] for k in (0, 1)]
        b = bidder % 2
        made = delta[b] >= bid
        if not made:
            meld[b] = 0
            delta[b] = -2 * bid if self.double_set else -bid
        return HandResult(
            s.dealer, s.trump, _by_seat(meld), _by_seat(tricks), _by_seat(delta), bidder, bid,
            made, "played",
        )  # fmt: skip

    def revoke_scores(
        self, state: GameState, seat: int, last: Action | None = None
    ) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """The hand in which ``seat`` revoked, scored by side (partnership rules,
        Revoke): the offending side's card points count 0 (the last trick still
        counts); a revoking bidding side is then scored as usual; if the other side
        revoked, the bidding side cannot be set: the first figure gives it its bid,
        the second (where the record plays the hand to its end) the hand played
        out, never below the bid."""
        s: PartnershipState = state  # type: ignore[assignment]
        if last is not None:
            s = self._play(s, last, scored=False)  # type: ignore[assignment]
        done = len(s.played) == 12
        result = self._hand_result(s, s.current_player if done else None, revoke=seat)
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        if seat % 2 == bidder % 2:
            return result.delta, None
        b = bidder % 2
        at_bid = tuple(bid if i % 2 == b else v for i, v in enumerate(result.delta))
        if not done:
            return at_bid, None
        made = _side_melds(s)[b] + result.tricks[bidder]
        out = tuple(max(bid, made) if i % 2 == b else v for i, v in enumerate(result.delta))
        return at_bid, out

    def _end_hand(self, s: PartnershipState, result: HandResult) -> GameState:
        """Record the hand, then wait for the next deal or end the game
        (partnership rules, Winning); ``s`` has the hand's last action logged."""
        scores = tuple(a + b for a, b in zip(s.scores, result.delta, strict=True))
        winner = _game_winner(scores, result.bidder, self.target)
        end = None if winner is None else "target"
        if end is None and self.limit_reached(s.hand_number):
            winner, end = _limit_winner(scores, result.bidder), "limit"
        if end is not None:
            result = attrs.evolve(result, game_end=end)
        results = (*s.results, result)
        phase, dealer = (
            (_PHASE_OVER, s.dealer) if end is not None else (_PHASE_DEAL, (s.dealer + 1) % 4)
        )
        return PartnershipState(
            self, s.seed, s.first_dealer, s.hand_number, phase, dealer, None, None,
            _EMPTY4, (), scores, results, s.history,
            _NO_AUCTION, _ZERO4, _ZERO4, (), winner, (),
        )  # fmt: skip

    # -- what the rules say of a position ------------------------------------------

    def refusal(self, state: GameState, action: Action) -> tuple[RuleCode, str]:
        self.refuse_legal(state, action)
        s: PartnershipState = state  # type: ignore[assignment]
        out = self.explain_out_of_hand(s, action)
        if out is not None:
            return out
        p = s.current_player
        assert p is not None
        phase, kind = s.phase, action.kind
        if phase is _PHASE_BIDDING and kind is _KIND_PASS:
            return (
                RuleCode.BID_FORCED,
                f"the other three passed: the dealer, seat {p}, may not pass; he bids at"
                f" least {self.min_bid} (option all_pass=dealer)",
            )
        if phase is _PHASE_BIDDING and kind is _KIND_BID:
            n = action.number or 0
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
        if kind is _KIND_GIVE:
            if phase is not _PHASE_DISCARD:
                if not self.passing:
                    return (
                        RuleCode.OPTION_OFF,
                        "no cards are passed (option passing is 0)",
                    )
                return (
                    RuleCode.WRONG_PHASE,
                    f"cards are passed after trump is named, before the melds;"
                    f" the hand is in the {phase.value} phase",
                )
            return (
                RuleCode.NOT_HELD,
                f"give {action.card}: seat {p} does not hold it (holds {format_cards(s.hands[p])})",
            )
        if phase is _PHASE_DISCARD:
            bidder = s.bidder
            who = "the bidder's partner" if p != bidder else "the bidder"
            return (
                RuleCode.WRONG_PHASE,
                f"seat {p}, {who}, must pass a card face down (give <card>), not {action}",
            )
        if kind is _KIND_CONCEDE and phase is _PHASE_PLAY and p != s.bidder:
            return (
                RuleCode.BIDDER_ONLY,
                f"only the bidder (seat {s.bidder}) may give up for the bidding side",
            )
        if kind is _KIND_CLAIM:
            return RuleCode.NO_CLAIM_OPEN, f"there is no claiming in the {self.name} game"
        return CutthroatRules.refusal(self, s, action)

    def revoke_penalty(self, state: GameState, seat: int) -> str:
        """Partnership rules, Revoke: the offending side's card points count 0."""
        s: PartnershipState = state  # type: ignore[assignment]
        bidder, bid = s.bidder, s.bid
        where = f"hand {s.hand_number}"
        if bidder is None or bid is None:  # pragma: no cover - a revoke needs a trick
            return f"the card does not stand (partnership rules, Revoke; {where})"
        side = f"seats {seat % 2} and {seat % 2 + 2}"
        if seat % 2 == bidder % 2:
            loss = 2 * bid if self.double_set else bid
            return (
                f"seat {seat} revoked: the bidding side ({side}) scores no card points for"
                f" {where} (the last trick still counts); it is scored as usual on its meld,"
                f" set (losing {loss}) if that falls short of the bid of {bid}; the other side"
                " scores as usual (partnership rules, Revoke)"
            )
        return (
            f"seat {seat} revoked: his side ({side}) scores no card points for {where} (the"
            f" last trick still counts; its meld stands only if it wins a counter); the bidding"
            f" side cannot be set: it scores its bid of {bid}, or at its choice the hand played"
            f" out, never below {bid} (partnership rules, Revoke)"
        )

    def observe(self, state: GameState, seat: int) -> View:
        s: PartnershipState = state  # type: ignore[assignment]
        named = s.phase not in (_PHASE_BIDDING, _PHASE_DEAL, _PHASE_OVER)
        bidder = s.bidder if named else None
        partners = bidder is not None and seat % 2 == bidder % 2
        public = {
            "calls": s.calls,
            "bidder": bidder,
            "bid": s.bid,
            "widow": None,
            "discards": None,
            "discard_count": 0,
            "given": s.given if partners else None,
            "given_count": len(s.given),
            "melds": s.melds,
            "played": s.played,
            "sides": SIDES,
        }
        return self.view(
            s, seat, public, public_log(s, seat, _hide_given(seat)), deck=self.seen_deck(s, seat)
        )

    def mask(self, action: Action, actor: int | None, seat: int) -> Action:
        """A card passed is face down: the other side sees that it was passed, not what."""
        if action.kind is _KIND_GIVE and actor is not None and actor % 2 != seat % 2:
            return _HIDDEN_GIVE
        return CutthroatRules.mask(self, action, actor, seat)

    def check(self, state: GameState) -> None:
        s: PartnershipState = state  # type: ignore[assignment]
        if s.phase in (_PHASE_DEAL, _PHASE_OVER):
            held: list[Card] = [c for h in s.hands for c in h]
            if held or s.trick or s.played or s.given:
                raise InvalidStateError(f"cards left out between hands: {format_cards(held)}")
            return
        cards = [c for h in s.hands for c in h]
        cards += [c for _, c in s.trick]
        cards += [c for t in s.played for _, c in t]
        if sorted(cards) != list(pack(self.pack_size)):
            raise InvalidStateError("the cards in hands and tricks are not exactly the pack")


_EMPTY4: Final[tuple[tuple[Card, ...], ...]] = ((), (), (), ())
_ZERO4: Final = (0, 0, 0, 0)
_NOBODY4: Final = (False, False, False, False)
_NONE4: Final[tuple[MeldResult | None, ...]] = (None, None, None, None)
_NO_AUCTION: Final = Auction((), (), None, None, _NOBODY4, (), _NONE4)
_HIDDEN_GIVE: Final = A.new_action(_KIND_GIVE)


def _by_seat(side: list[int]) -> tuple[int, ...]:
    """Side figures (seats 0+2, 1+3) shown for each seat."""
    return (side[0], side[1], side[0], side[1])


def _side_melds(s: PartnershipState) -> tuple[int, int]:
    """Each side's declared meld: the sum of its two players' (partnership rules, Melds)."""
    m = [0 if x is None else x.total for x in s.melds]
    return m[0] + m[2], m[1] + m[3]


def _zero_result(s: PartnershipState, outcome: str) -> HandResult:
    return HandResult(s.dealer, None, _ZERO4, _ZERO4, _ZERO4, None, None, None, outcome)


def _game_winner(scores: tuple[int, ...], bidder: int | None, target: int) -> int | None:
    """Winning (partnership rules, Winning): the side at the target; if both are,
    the bidding side.  The side is named by its first seat (0 or 1)."""
    reached = [k for k in (0, 1) if scores[k] >= target]
    if not reached:
        return None
    if len(reached) == 2:
        return None if bidder is None else bidder % 2
    return reached[0]


def _limit_winner(scores: tuple[int, ...], bidder: int | None) -> int | None:
    """The winning side when the hand limit ends the game: the higher score; a tie
    goes to the last bidding side, else nobody."""
    if scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return None if bidder is None else bidder % 2


def _hide_given(seat: int) -> Any:
    def hide(action: Action, actor: int | None) -> str | None:
        if action.kind is _KIND_GIVE and actor is not None and actor % 2 != seat % 2:
            return "give"
        return None

    return hide
