"""The cutthroat position: the state classes that both halves of the cutthroat profile
read (:mod:`binocle.profiles._cutthroat_rules`, what the rules say of a position) and
build (:mod:`binocle.profiles.cutthroat`, the transitions), which offers them as
:class:`binocle.profiles.cutthroat.Auction` and
:class:`binocle.profiles.cutthroat.CutthroatState`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from binocle._mypyc import mypyc_attr
from binocle.actions import (
    Action,
)
from binocle.cards import Card, Suit
from binocle.core import (
    FrozenValue,
    GameState,
    HandResult,
    MeldResult,
    Phase,
    Profile,
    frozen_state,
)

__all__ = ["Auction", "CutthroatState"]


@mypyc_attr(allow_interpreted_subclasses=True)
class Auction(FrozenValue):
    """The part of a cutthroat hand settled before the first lead.

    ``widow``: the three widow cards (public once the bidding is over);
    ``calls``: the bidding as ``(seat, bid)`` pairs, 0 for a pass; ``bidder``
    and ``bid``: the high bidder and bid; ``passed``: by seat; ``discards``:
    the bidder's; ``melds``: each seat's :class:`MeldResult` once declared.
    The play of the hand passes it along unchanged (one field to copy, not seven).
    """

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "widow", "calls", "bidder", "bid", "passed", "discards", "melds",
    )  # fmt: skip
    __slots__ = _FIELDS

    def __init__(
        self,
        widow: tuple[Card, ...],
        calls: tuple[tuple[int, int], ...],
        bidder: int | None,
        bid: int | None,
        passed: tuple[bool, ...],
        discards: tuple[Card, ...],
        melds: tuple[MeldResult | None, ...],
    ) -> None:
        self.widow: Final = widow
        self.calls: Final = calls
        self.bidder: Final = bidder
        self.bid: Final = bid
        self.passed: Final = passed
        self.discards: Final = discards
        self.melds: Final = melds


frozen_state(Auction)


@mypyc_attr(allow_interpreted_subclasses=True)
class CutthroatState(GameState):
    """A cutthroat position (see :class:`binocle.core.GameState` for the common fields).

    ``auction``: the :class:`Auction` (widow, calls, bidder, bid, passed,
    discards, melds), each of its fields also readable on the state itself
    (``s.bidder``); ``taken`` and ``counters``: trick points and counters won
    so far by seat; ``played``: the completed tricks of the hand;
    ``game_winner``.
    """

    _FIELDS: ClassVar[tuple[str, ...]] = (
        *GameState._FIELDS,
        "auction", "taken", "counters", "played", "game_winner",
    )  # fmt: skip
    __slots__ = _FIELDS[len(GameState._FIELDS) :]  # the fields of its own

    def __init__(
        self,
        profile: "Profile",
        seed: int,
        first_dealer: int,
        hand_number: int,
        phase: Phase,
        dealer: int,
        current_player: int | None,
        trump: Suit | None,
        hands: tuple[tuple[Card, ...], ...],
        trick: tuple[tuple[int, Card], ...],
        scores: tuple[int, ...],
        results: tuple[HandResult, ...],
        history: tuple[Any, Action, int | None] | None,
        auction: Auction,
        taken: tuple[int, ...],
        counters: tuple[int, ...],
        played: tuple[tuple[tuple[int, Card], ...], ...],
        game_winner: int | None,
    ) -> None:
        GameState.__init__(
            self,
            profile,
            seed,
            first_dealer,
            hand_number,
            phase,
            dealer,
            current_player,
            trump,
            hands,
            trick,
            scores,
            results,
            history,
        )
        self.auction: Final = auction
        self.taken: Final = taken
        self.counters: Final = counters
        self.played: Final = played
        self.game_winner: Final = game_winner

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


frozen_state(CutthroatState)
