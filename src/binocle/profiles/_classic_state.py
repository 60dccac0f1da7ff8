"""The classic position: the state class that both halves of the classic profile
read (:mod:`binocle.profiles._classic_rules`, what the rules say of a position) and
build (:mod:`binocle.profiles.classic`, the transitions), which offers it as
:class:`binocle.profiles.classic.ClassicState`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from binocle._mypyc import mypyc_attr
from binocle.actions import (
    Action,
)
from binocle.cards import Card, Suit
from binocle.core import (
    GameState,
    HandResult,
    Phase,
    Profile,
    frozen_state,
)
from binocle.rules.classic_melds import (
    MeldTable,
)

__all__ = ["ClassicState"]


@mypyc_attr(allow_interpreted_subclasses=True)
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

    _FIELDS: ClassVar[tuple[str, ...]] = (
        *GameState._FIELDS,
        "concealed", "tables", "stock", "turn_up", "dixes", "meld_points",
        "taken", "piles", "last_trick", "targets", "game_winner",
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
        concealed: tuple[tuple[Card, ...], ...],
        tables: tuple[MeldTable, ...],
        stock: tuple[Card, ...],
        turn_up: Card | None,
        dixes: int,
        meld_points: tuple[int, ...],
        taken: tuple[int, ...],
        piles: tuple[tuple[Card, ...], ...],
        last_trick: tuple[tuple[int, Card], ...],
        targets: tuple[int, ...],
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
        self.concealed: Final = concealed
        self.tables: Final = tables
        self.stock: Final = stock
        self.turn_up: Final = turn_up
        self.dixes: Final = dixes
        self.meld_points: Final = meld_points
        self.taken: Final = taken
        self.piles: Final = piles
        self.last_trick: Final = last_trick
        self.targets: Final = targets
        self.game_winner: Final = game_winner


frozen_state(ClassicState)
