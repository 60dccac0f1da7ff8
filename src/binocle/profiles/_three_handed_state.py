"""The three-handed position: the state classes that both halves of the three-handed
profile read (:mod:`binocle.profiles._three_handed_rules`, what the rules say of a
position) and build (:mod:`binocle.profiles.three_handed`, the transitions), which
offers them as :class:`binocle.profiles.three_handed.Overlooked` and
:class:`binocle.profiles.three_handed.ThreeHandedState`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import attrs

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
from binocle.profiles._classic_state import ClassicState
from binocle.rules.classic_melds import (
    Combination,
    MeldTable,
)

__all__ = ["Overlooked", "ThreeHandedState"]


@attrs.frozen(slots=True)
class Overlooked:
    """A meld a player overlooked, offered to the others in turn (option
    ``claim_overlooked``; three-handed rules, Overlooked melds).

    ``seat`` played his first card with ``points`` of his best meld not
    announced; ``asked`` are the seats still to be offered it, in turn (the
    first is the player to act, who may ``claim overlooked`` or ``pass``);
    ``resume`` is the seat that plays on once it is claimed or let go.
    """

    seat: int
    points: int
    asked: tuple[int, ...]
    resume: int


@mypyc_attr(allow_interpreted_subclasses=True)
class ThreeHandedState(GameState):
    """A three-handed position (see :class:`binocle.core.GameState` for the common fields).

    ``turn_up``: the card turned for trump; ``exchanged``: whether a Nine was
    exchanged for it; ``nines_shown``, ``announced`` (dix and melds announced),
    ``tables`` (combinations announced one by one), ``shown`` (every seat's
    combinations shown), ``scored`` (whether the announcements have scored,
    with the first trick won), ``meld_scored``, ``recorded`` (points scored this
    hand: melds and the last trick), ``taken`` (card points), ``piles``,
    ``tricks`` (played), ``retired``, ``dead`` (the retired player's cards),
    ``best`` (each seat's best meld), ``targets``; after a retirement ``sub``
    is the two-handed game of the seats ``pair``; ``game_winner``, ``payers``;
    ``offer``: the :class:`Overlooked` meld offered to the others right now
    (option ``claim_overlooked``), else None.
    """

    _FIELDS: ClassVar[tuple[str, ...]] = (
        *GameState._FIELDS,
        "turn_up", "exchanged", "nines_shown", "announced", "tables", "shown",
        "scored", "meld_scored", "recorded", "taken", "piles", "tricks",
        "retired", "dead", "targets", "sub", "pair", "game_winner",
        "payers", "best", "offer",
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
        turn_up: Card | None,
        exchanged: bool,
        nines_shown: tuple[int, ...],
        announced: tuple[int, ...],
        tables: tuple[MeldTable, ...],
        shown: tuple[tuple[Combination, ...], ...],
        scored: tuple[bool, ...],
        meld_scored: tuple[int, ...],
        recorded: tuple[int, ...],
        taken: tuple[int, ...],
        piles: tuple[tuple[Card, ...], ...],
        tricks: int,
        retired: int | None,
        dead: tuple[Card, ...],
        targets: tuple[int, ...],
        sub: ClassicState | None,
        pair: tuple[int, ...] | None,
        game_winner: int | None,
        payers: tuple[int, ...],
        best: tuple[int, ...],
        offer: Overlooked | None,
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
        self.turn_up: Final = turn_up
        self.exchanged: Final = exchanged
        self.nines_shown: Final = nines_shown
        self.announced: Final = announced
        self.tables: Final = tables
        self.shown: Final = shown
        self.scored: Final = scored
        self.meld_scored: Final = meld_scored
        self.recorded: Final = recorded
        self.taken: Final = taken
        self.piles: Final = piles
        self.tricks: Final = tricks
        self.retired: Final = retired
        self.dead: Final = dead
        self.targets: Final = targets
        self.sub: Final = sub
        self.pair: Final = pair
        self.game_winner: Final = game_winner
        self.payers: Final = payers
        self.best: Final = best
        self.offer: Final = offer


frozen_state(ThreeHandedState)
