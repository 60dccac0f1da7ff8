"""Profile ``cutthroat``: three-hand auction Pinochle to 1500 (cutthroat rules).

Phases: DEAL → BIDDING → DISCARD (three single cards) → TRUMP → MELD (bidder
first, then clockwise) → PLAY (15 tricks; the bidder may concede before the
first lead) → DEAL again, or OVER.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, ClassVar, Final

import attrs

from binocle import actions as A
from binocle.actions import Action, Kind
from binocle.cards import Card, Suit, format_cards, pack
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
)
from binocle.errors import InvalidStateError, excerpt
from binocle.rules.cutthroat_melds import ENTRIES, codes_of_counts, meld_codes, meld_total
from binocle.rules.points import COUNTER_POINTS, LAST_TRICK
from binocle.rules.tricks import Obligation, obligation_broken

__all__ = ["Auction", "Cutthroat", "CutthroatState"]

_NINE = 5


def _bid_option(instance: Any, attribute: Any, value: int) -> None:
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


def _widow_round(instance: Any, attribute: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:
        raise ValueError(
            f"widow_after_round must be 0..4 (the widow is never the last card),"
            f" not {excerpt(value)}"
        )


@attrs.frozen(slots=True)
class Cutthroat(Profile):
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
    """

    name: ClassVar[str] = "cutthroat"
    aliases: ClassVar[tuple[str, ...]] = ("auction", "three-hand-auction", "cut-throat")
    players: ClassVar[int] = 3
    description: ClassVar[str] = "three-hand auction Pinochle to 1500 with a widow"

    min_bid: int = attrs.field(default=250, validator=_bid_option)
    max_bid: int = attrs.field(default=3000, validator=_bid_option)
    single_set: bool = attrs.field(default=False, validator=flag_option)
    easier_tricks: bool = attrs.field(default=False, validator=flag_option)
    bunched_hands: bool = attrs.field(default=False, validator=flag_option)
    widow_after_round: int = attrs.field(default=1, validator=_widow_round)
    target: int = attrs.field(default=1500, validator=positive_option)

    def __attrs_post_init__(self) -> None:
        if self.max_bid < self.min_bid:
            raise ValueError(f"max_bid ({self.max_bid}) is below min_bid ({self.min_bid})")

    @property
    def obligation(self) -> Obligation:
        """The trick rule in force."""
        return Obligation.EASIER if self.easier_tricks else Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP

    # -- states ----------------------------------------------------------------

    def initial(self, seed: int, dealer: int) -> CutthroatState:
        return CutthroatState(
            self, seed, dealer, 0, Phase.DEAL, dealer, None, None,
            _EMPTY3, (), (0, 0, 0), (), None,
            _NO_AUCTION, (0, 0, 0), (0, 0, 0), (), None,
        )  # fmt: skip

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        s: CutthroatState = state  # type: ignore[assignment]
        phase = s.phase
        if phase is Phase.PLAY:
            p = s.current_player
            assert p is not None
            trick = s.trick
            if trick:
                return _follow(s.hands[p], trick, s.trump, self.easier_tricks)
            plays = tuple(map(_PLAY_OF, dict.fromkeys(s.hands[p])))
            if p == s.auction.bidder and not s.played:
                return (*plays, A.CONCEDE)
            return plays
        if phase is Phase.BIDDING:
            return self._bidding_actions(s)
        if phase is Phase.DISCARD:
            p = s.current_player
            assert p is not None
            return tuple(map(A.DISCARD.__getitem__, dict.fromkeys(s.hands[p])))
        if phase is Phase.TRUMP:
            return A.TRUMP
        if phase is Phase.MELD:
            return (A.MELD,)
        if phase is Phase.DEAL:
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

    # -- transitions -----------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> GameState:
        s: CutthroatState = state  # type: ignore[assignment]
        kind = action.kind
        if kind is Kind.PLAY:
            return self._play(s, action)
        if kind is Kind.DEAL:
            return self._deal(s, action)
        if kind is Kind.BID or kind is Kind.PASS:
            return self._call(s, action)
        if kind is Kind.DISCARD:
            return self._discard(s, action)
        if kind is Kind.TRUMP:
            return self._trump(s, action)
        if kind is Kind.MELD:
            return self._meld(s, action)
        if kind is Kind.CONCEDE:
            return self._concede(s, action)
        if kind is Kind.BUNCH:
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
            self, s.seed, s.first_dealer, s.hand_number + 1, Phase.BIDDING, d, (d + 1) % 3,
            None, tuple(tuple(sorted(h)) for h in hands), (), s.scores, s.results,
            (s.history, action, None),
            _new_auction(widow, (), None, None, _NOBODY3, (), _NONE3), (0, 0, 0), (0, 0, 0), (),
            None,
        )  # fmt: skip

    def _call(self, s: CutthroatState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None
        passed = s.passed
        if action.kind is Kind.PASS:
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
                s, phase=Phase.DISCARD, current=bidder, hands=hands, history=history,
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
        phase = Phase.TRUMP if len(discards) == 3 else Phase.DISCARD
        return _rebuild(
            s, phase=phase, hands=replace_at(s.hands, p, hand), history=(s.history, action, p),
            discards=discards,
        )  # fmt: skip

    def _trump(self, s: CutthroatState, action: Action) -> GameState:
        return _rebuild(
            s, phase=Phase.MELD, trump=action.suit, history=(s.history, action, s.current_player)
        )

    def _meld(self, s: CutthroatState, action: Action) -> GameState:
        p = s.current_player
        assert p is not None and s.trump is not None
        melds = replace_at(s.melds, p, self.meld(s.hands[p], s.trump))
        nxt = (p + 1) % 3
        phase = Phase.PLAY if nxt == s.bidder else Phase.MELD
        return _rebuild(s, phase=phase, current=nxt, history=(s.history, action, p), melds=melds)

    def _concede(self, s: CutthroatState, action: Action) -> GameState:
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        meld = tuple(0 if i == bidder else _total(s.melds[i]) for i in range(3))
        delta = tuple(-bid if i == bidder else meld[i] for i in range(3))
        result = HandResult(
            s.dealer, s.trump, meld, (0, 0, 0), delta, bidder, bid, False, "conceded"
        )
        return self._end_hand(s, action, result, redeal=False)

    def _play(self, s: CutthroatState, action: Action) -> GameState:
        # The hot path of random playouts: tuples built in place, no comprehensions.
        p = s.current_player
        c = action.card
        assert p is not None and c is not None
        hands = s.hands
        hand = hands[p]
        i = hand.index(c)
        hand = hand[:i] + hand[i + 1 :]
        if p == 0:
            hands = (hand, hands[1], hands[2])
        elif p == 1:
            hands = (hands[0], hand, hands[2])
        else:
            hands = (hands[0], hands[1], hand)
        trick = s.trick
        if len(trick) < 2:
            return _new_state(
                self, s.seed, s.first_dealer, s.hand_number, Phase.PLAY, s.dealer, (p + 1) % 3,
                s.trump, hands, (*trick, (p, c)), s.scores, s.results, (s.history, action, p),
                s.auction, s.taken, s.counters, s.played, None,
            )  # fmt: skip
        # The trick is complete: its winner (RULES.md §1, as trick_winner) and points.
        trump = s.trump
        (p0, c0), (p1, c1) = trick
        w, b = p0, c0
        if c1 >> 3 == c0 >> 3:
            if c1 < c0:
                w, b = p1, c1
        elif c1 >> 3 == trump:
            w, b = p1, c1
        if c >> 3 == b >> 3:
            if c < b:
                w = p
        elif c >> 3 == trump:
            w = p
        pts = COUNTER_POINTS[c0] + COUNTER_POINTS[c1] + COUNTER_POINTS[c]
        taken = s.taken
        counters = s.counters
        if pts:
            taken = taken[:w] + (taken[w] + pts,) + taken[w + 1 :]
            counters = counters[:w] + (counters[w] + pts // 10,) + counters[w + 1 :]
        played = (*s.played, (*trick, (p, c)))
        nxt = _new_state(
            self, s.seed, s.first_dealer, s.hand_number, Phase.PLAY, s.dealer, w,
            trump, hands, (), s.scores, s.results, (s.history, action, p),
            s.auction, taken, counters, played, None,
        )  # fmt: skip
        if len(played) < 15:
            return nxt
        return self._score_hand(nxt, w)

    def _score_hand(self, s: CutthroatState, last: int) -> GameState:
        """Hand scoring (cutthroat rules, Scoring a hand)."""
        bidder, bid = s.bidder, s.bid
        assert bidder is not None and bid is not None
        tricks = [s.taken[i] + (LAST_TRICK if i == last else 0) for i in range(3)]
        tricks[bidder] += sum(COUNTER_POINTS[c] for c in s.discards)
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
        result = HandResult(
            s.dealer, s.trump, tuple(meld), tuple(tricks), tuple(delta), bidder, bid, made, "played"
        )
        return self._end_hand(s, None, result, redeal=False, logged=True)

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
        winner = _game_winner(scores, result.bidder, self.target)
        end = None if winner is None else "target"
        if end is None and self.limit_reached(s.hand_number):
            # The hand limit (max_hands): the highest score wins; of tied top
            # scores, the bidder's (the tie rule of "Winning"), else nobody.
            winner, end = _limit_winner(scores, result.bidder), "limit"
        if end is not None:
            result = attrs.evolve(result, game_end=end)
        results = (*s.results, result)
        if end is not None:
            phase, dealer = Phase.OVER, s.dealer
        else:
            phase, dealer = Phase.DEAL, s.dealer if redeal else (s.dealer + 1) % 3
        return CutthroatState(
            self, s.seed, s.first_dealer, s.hand_number, phase, dealer, None, None,
            _EMPTY3, (), scores, results, history,
            _NO_AUCTION, (0, 0, 0), (0, 0, 0), (), winner,
        )  # fmt: skip

    # -- explanations ------------------------------------------------------------

    def explain(self, state: GameState, action: Action) -> str:
        s: CutthroatState = state  # type: ignore[assignment]
        phase = s.phase
        kind = action.kind
        p = s.current_player
        why = self.explain_out_of_hand(s, action)
        if why is not None:
            return why
        assert p is not None
        expected = {
            Phase.BIDDING: "a bid or a pass",
            Phase.DISCARD: "a discard",
            Phase.TRUMP: "naming trump",
            Phase.MELD: "meld",
            Phase.PLAY: "playing a card",
        }[phase]
        if kind is Kind.BUNCH and phase is Phase.BIDDING:
            if not self.bunched_hands:
                return "bunched hands are not played (option bunched_hands is off)"
            return (
                f"bunched hand: seat {p} needs five or more Nines and no meld but dix,"
                " and must not have bid yet"
            )
        if kind is Kind.BID and phase is Phase.BIDDING:
            n = action.number or 0
            if isinstance(n, bool) or not isinstance(n, int):
                return f"a bid is a whole number, not {n!r}"
            if s.bid is None and sum(s.passed) == 2:
                return (
                    f"the first two passed: seat {p} may take the hand only at"
                    f" {self.min_bid} or pass (not bid {n})"
                )
            if n < self.min_bid:
                return f"the lowest bid is {self.min_bid} (bid {n})"
            if s.bid is not None and n <= s.bid:
                return f"a bid must be higher than the last bid, {s.bid} (bid {n})"
            if n % 10:
                return f"bids rise in steps of 10 (bid {n})"
            return f"bid {n} is above the ceiling {self.max_bid}"
        if kind is Kind.DISCARD and phase is Phase.DISCARD:
            return f"discard {action.card}: seat {p} does not hold it (holds {format_cards(s.hands[p])})"
        if kind is Kind.CONCEDE and phase is Phase.PLAY:
            if p != s.bidder:
                return f"only the bidder (seat {s.bidder}) may give up"
            return "the bidder may give up only before the first lead"
        if kind is Kind.PLAY and phase is Phase.PLAY:
            c = action.card
            if c is None:
                return "a play names a card, e.g. 'play TS'"
            if action.source == "table":
                return "there are no table cards in this profile"
            if c not in s.hands[p]:
                return f"play {c}: seat {p} does not hold it (holds {format_cards(s.hands[p])})"
            why = obligation_broken(
                c, s.hands[p], [x for _, x in s.trick], s.trump, self.obligation
            )
            return why or f"{action} is not legal now"
        return f"seat {p} must act in the {phase.value} phase ({expected}), not {action}"

    def revoke_penalty(self, state: GameState, seat: int) -> str:
        """Cutthroat rules, Revoke: the hand is scored as if the offender's side failed.

        A revoking bidder is set (twice his bid, or once with ``single_set``); a
        revoking opponent scores nothing for the hand and the bidder is not set.
        """
        # RULES.md §4 "Revoke (for the validator)": seed 003 gives no penalty.
        s: CutthroatState = state  # type: ignore[assignment]
        bidder, bid = s.bidder, s.bid
        where = f"hand {s.hand_number}"
        if bidder is None or bid is None:  # pragma: no cover - a revoke needs a trick
            return f"the card does not stand (cutthroat rules, Revoke; {where})"
        if seat == bidder:
            loss = bid if self.single_set else 2 * bid
            how = f"his bid of {bid}, set single" if self.single_set else f"twice his bid of {bid}"
            return (
                f"seat {seat}, the bidder, is set for {where} as if he had failed: he loses"
                f" {loss} ({how}); the opponents score as when a bidder is set"
                " (cutthroat rules, Revoke)"
            )
        return (
            f"seat {seat}, an opponent, scores nothing for {where} (neither meld nor tricks),"
            f" and the bidder, seat {bidder}, is not set: he cannot be set back by an"
            " opponent's revoke (cutthroat rules, Revoke)"
        )

    # -- meld, views, checks ---------------------------------------------------------

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
        widow_shown = s.bidder is not None and s.phase not in (Phase.BIDDING, Phase.DEAL)
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
        if action.kind is Kind.DISCARD and actor != seat:
            return _HIDDEN_DISCARD
        return Profile.mask(self, action, actor, seat)

    def check(self, state: GameState) -> None:
        s: CutthroatState = state  # type: ignore[assignment]
        if s.phase in (Phase.DEAL, Phase.OVER):
            held: list[Card] = [c for h in s.hands for c in h]
            if held or s.trick or s.played or s.discards:
                raise InvalidStateError(f"cards left out between hands: {format_cards(held)}")
            return
        cards = [c for h in s.hands for c in h]
        cards += [c for _, c in s.trick]
        cards += [c for t in s.played for _, c in t]
        cards += s.discards
        if s.phase is Phase.BIDDING:
            cards += s.widow
        if sorted(cards) != list(pack(self.pack_size)):
            raise InvalidStateError(
                "the cards in hands, widow, discards and tricks are not exactly the pack"
            )


@attrs.frozen(slots=True, weakref_slot=False)
class Auction:
    """The part of a cutthroat hand settled before the first lead.

    ``widow``: the three widow cards (public once the bidding is over);
    ``calls``: the bidding as ``(seat, bid)`` pairs, 0 for a pass; ``bidder``
    and ``bid``: the high bidder and bid; ``passed``: by seat; ``discards``:
    the bidder's; ``melds``: each seat's :class:`MeldResult` once declared.
    The play of the hand passes it along unchanged (one field to copy, not seven).
    """

    widow: tuple[Card, ...]
    calls: tuple[tuple[int, int], ...]
    bidder: int | None
    bid: int | None
    passed: tuple[bool, ...]
    discards: tuple[Card, ...]
    melds: tuple[MeldResult | None, ...]


@attrs.frozen(slots=True, weakref_slot=False)
class CutthroatState(GameState):
    """A cutthroat position (see :class:`binocle.core.GameState` for the common fields).

    ``auction``: the :class:`Auction` (widow, calls, bidder, bid, passed,
    discards, melds), each of its fields also readable on the state itself
    (``s.bidder``); ``taken`` and ``counters``: trick points and counters won
    so far by seat; ``played``: the completed tricks of the hand;
    ``game_winner``.
    """

    auction: Auction
    taken: tuple[int, ...]
    counters: tuple[int, ...]
    played: tuple[tuple[tuple[int, Card], ...], ...]
    game_winner: int | None

    @property
    def widow(self) -> tuple[Card, ...]:
        """The three widow cards (public once the bidding is over)."""
        return self.auction.widow

    @property
    def calls(self) -> tuple[tuple[int, int], ...]:
        """The bidding as ``(seat, bid)`` pairs, 0 for a pass."""
        return self.auction.calls

    @property
    def bidder(self) -> int | None:
        """The high bidder, None while nobody has bid."""
        return self.auction.bidder

    @property
    def bid(self) -> int | None:
        """The high bid, None while nobody has bid."""
        return self.auction.bid

    @property
    def passed(self) -> tuple[bool, ...]:
        """Whether each seat has passed."""
        return self.auction.passed

    @property
    def discards(self) -> tuple[Card, ...]:
        """The bidder's discards."""
        return self.auction.discards

    @property
    def melds(self) -> tuple[MeldResult | None, ...]:
        """Each seat's :class:`MeldResult` once declared."""
        return self.auction.melds


_EMPTY3: tuple[tuple[Card, ...], ...] = ((), (), ())
_NOBODY3 = (False, False, False)
_NONE3: tuple[MeldResult | None, ...] = (None, None, None)
_NO_AUCTION = Auction((), (), None, None, _NOBODY3, (), _NONE3)
_new_state: Final = state_builder(CutthroatState)
_new_auction: Final = state_builder(Auction)
_PLAY_OF: Final = A.PLAY.__getitem__
#: The Meld object of every meld code, built once.
_MELDS: Final = tuple(Meld(*entry) for entry in ENTRIES)
#: Results by their meld codes: hands that score the same melds share one MeldResult
#: (a frozen value), so the breakdown builds none for a combination already seen.
_RESULTS: dict[tuple[int, ...], MeldResult] = {}
_NO_MELD: Final = MeldResult(0, ())
#: Card counts before counting a hand: 0, but 2 for the Eights and Sevens, which are
#: not in the pack, so that one of them, like a third copy of a card, counts past 2.
_COUNT_START: Final = [2 if c & 7 >= 6 else 0 for c in range(32)]


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
    """The plays allowed to a trick in progress, under the profile's trick rule.

    The same as :func:`binocle.rules.tricks.allowed_cards` with the profile's
    obligation, but on slices of the sorted hand, where the cards of one suit
    lie together and those below a card number are the stronger ones.
    """
    best = trick[0][1]
    led = best >> 3
    if len(trick) > 1:
        c = trick[1][1]
        if c >> 3 == led:
            if c < best:
                best = c
        elif c >> 3 == trump:
            best = c
    lo = bisect_left(hand, led << 3)
    hi = bisect_left(hand, (led + 1) << 3, lo)
    if lo < hi:
        # Follow suit, beating the best card if able (with easier_tricks: if trump was led).
        if best >> 3 == led and (not easier or led == trump):
            top = bisect_left(hand, best, lo, hi)
            if top > lo:
                hi = top
        return plays_of_suit(hand[lo:hi])
    if trump is not None:
        lo = bisect_left(hand, trump << 3)
        hi = bisect_left(hand, (trump + 1) << 3, lo)
        if lo < hi:
            # Void: trump, overtrumping if able, else under-trump (easier_tricks: any trump).
            if best >> 3 == trump and not easier:
                top = bisect_left(hand, best, lo, hi)
                if top > lo:
                    hi = top
            return plays_of_suit(hand[lo:hi])
    return tuple(map(_PLAY_OF, dict.fromkeys(hand)))


#: The plays of cards of one suit, by the (sorted) cards: at most 3**8 keys a suit.
_SUIT_PLAYS: dict[tuple[Card, ...], tuple[Action, ...]] = {}


def plays_of_suit(cards: tuple[Card, ...]) -> tuple[Action, ...]:
    """The ``play`` actions of sorted cards of one suit, one per kind (shared tuples)."""
    plays = _SUIT_PLAYS.get(cards)
    if plays is None:
        plays = _SUIT_PLAYS[cards] = tuple(map(_PLAY_OF, dict.fromkeys(cards)))
    return plays


_BID_RANGES: dict[tuple[int, int], tuple[Action, ...]] = {}
_PASS_OR_BID: dict[tuple[int, int], tuple[Action, ...]] = {}
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


def _total(m: MeldResult | None) -> int:
    return 0 if m is None else m.total


def _zero_result(s: CutthroatState, outcome: str) -> HandResult:
    return HandResult(s.dealer, None, (0, 0, 0), (0, 0, 0), (0, 0, 0), None, None, None, outcome)


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


def _game_winner(scores: tuple[int, ...], bidder: int | None, target: int) -> int | None:
    """Winning (cutthroat rules, Winning): the bidder among those at the target, else the higher score.

    Resolution: an exact tie between two non-bidders decides nothing.
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


_KEEP: Any = object()
_HIDDEN_DISCARD: Final = A.new_action(Kind.DISCARD)


def _pile_positions(schedule: tuple[tuple[int | str, int], ...], name: str) -> tuple[int, ...]:
    """The deck positions a deal schedule gives to the pile ``name``."""
    out: list[int] = []
    pos = 0
    for target, n in schedule:
        if target == name:
            out.extend(range(pos, pos + n))
        pos += n
    return tuple(out)


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
        a = _new_auction(
            a.widow,
            a.calls if calls is k else calls,
            a.bidder if bidder is k else bidder,
            a.bid if bid is k else bid,
            a.passed if passed is k else passed,
            a.discards if discards is k else discards,
            a.melds if melds is k else melds,
        )
    return _new_state(
        s.profile, s.seed, s.first_dealer, s.hand_number,
        s.phase if phase is k else phase,
        s.dealer,
        s.current_player if current is k else current,
        s.trump if trump is k else trump,
        s.hands if hands is k else hands,
        s.trick, s.scores, s.results,
        s.history if history is k else history,
        a, s.taken, s.counters, s.played, s.game_winner,
    )  # fmt: skip


def _hide_discards(seat: int) -> Any:
    """The bidder's discards are face down: others see that he discarded, not what."""

    def hide(action: Action, actor: int | None) -> str | None:
        return "discard" if action.kind is Kind.DISCARD and actor != seat else None

    return hide
