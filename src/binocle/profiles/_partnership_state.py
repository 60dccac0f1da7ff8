"""The partnership position: the cutthroat position (auction, tricks taken, counters)
with the cards passed between the partners, for
:mod:`binocle.profiles.partnership`, which offers it as
:class:`binocle.profiles.partnership.PartnershipState`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from binocle._mypyc import mypyc_attr
from binocle.actions import Action
from binocle.cards import Card, Suit
from binocle.core import (
    HandResult,
    Phase,
    Profile,
    frozen_state,
)
from binocle.profiles._cutthroat_state import Auction, CutthroatState

__all__ = ["PartnershipState"]


@mypyc_attr(allow_interpreted_subclasses=True)
class PartnershipState(CutthroatState):
    """A partnership position (see :class:`binocle.core.GameState` for the common
    fields, :class:`binocle.profiles.cutthroat.CutthroatState` for the auction,
    ``taken``, ``counters``, ``played`` and ``game_winner``, all by seat).

    There is no widow and there are no discards (both stay empty).  ``given``:
    the cards passed in the hand, in the order passed: first the bidder's
    partner's to the bidder, then the bidder's back (partnership rules,
    Trump and passing); known to the two partners only.
    """

    _FIELDS: ClassVar[tuple[str, ...]] = (*CutthroatState._FIELDS, "given")
    __slots__ = ("given",)

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
        given: tuple[Card, ...],
    ) -> None:
        CutthroatState.__init__(
            self, profile, seed, first_dealer, hand_number, phase, dealer, current_player,
            trump, hands, trick, scores, results, history, auction, taken, counters, played,
            game_winner,
        )  # fmt: skip
        self.given: Final = given


frozen_state(PartnershipState)


def change_play(
    s: PartnershipState,
    current_player: int | None,
    hands: tuple[tuple[Card, ...], ...],
    trick: tuple[tuple[int, Card], ...],
    history: tuple[Any, Action, int | None] | None,
) -> PartnershipState:
    """The state after a card played to a trick not complete."""
    return PartnershipState(
        s.profile, s.seed, s.first_dealer, s.hand_number, s.phase, s.dealer, current_player,
        s.trump, hands, trick, s.scores, s.results, history, s.auction, s.taken, s.counters,
        s.played, s.game_winner, s.given,
    )  # fmt: skip


def change_trick(
    s: PartnershipState,
    current_player: int | None,
    hands: tuple[tuple[Card, ...], ...],
    history: tuple[Any, Action, int | None] | None,
    taken: tuple[int, ...],
    counters: tuple[int, ...],
    played: tuple[tuple[tuple[int, Card], ...], ...],
) -> PartnershipState:
    """The state after a trick taken (the trick empty again)."""
    return PartnershipState(
        s.profile, s.seed, s.first_dealer, s.hand_number, s.phase, s.dealer, current_player,
        s.trump, hands, (), s.scores, s.results, history, s.auction, taken, counters, played,
        s.game_winner, s.given,
    )  # fmt: skip


def change_auction(
    s: PartnershipState,
    phase: Phase,
    current_player: int | None,
    trump: Suit | None,
    hands: tuple[tuple[Card, ...], ...],
    history: tuple[Any, Action, int | None] | None,
    auction: Auction,
    given: tuple[Card, ...],
) -> PartnershipState:
    """The state after a bid, a pass, the trump, a card passed or a meld."""
    return PartnershipState(
        s.profile, s.seed, s.first_dealer, s.hand_number, phase, s.dealer, current_player, trump,
        hands, s.trick, s.scores, s.results, history, auction, s.taken, s.counters, s.played,
        s.game_winner, given,
    )  # fmt: skip
