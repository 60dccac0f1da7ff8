"""The analysis of a recorded game: each card played against the best card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from binocle.actions import Kind
from binocle.cards import Card
from binocle.core import GameState
from binocle.errors import BinocleError, InvalidArgumentError, excerpt
from binocle.profiles.cutthroat import CutthroatState
from binocle.records import replay
from binocle.rules.points import COUNTER_POINTS
from binocle.solve._position import Position, answer, make_search, read_position
from binocle.solve._search import Search, Stop

__all__ = ["Analysis", "CardAnalysis", "analysis_section", "analyze"]

#: The node budget of each position when none is given.
DEFAULT_NODES = 200_000


@attrs.frozen(slots=True)
class CardAnalysis:
    """One card played, judged with every hand known.

    ``index``: the record's action; ``hand`` (from 1), ``trick`` (from 1 in the
    hand), ``seat``, ``played``; ``best``: the cards of best value for the
    player's side (:func:`binocle.solve.solve`'s sides); ``best_value`` and
    ``played_value``: the points that side wins from here with the best card
    and with the card played; ``cost``: their difference (0 for a best card),
    None where the search ran past its budget; ``bid_before`` and
    ``bid_after`` (cutthroat): whether the bidder could still make the bid
    before and after the card, None elsewhere or past the budget.
    """

    index: int
    hand: int
    trick: int
    seat: int
    played: Card
    best: tuple[Card, ...]
    best_value: int | None
    played_value: int | None
    cost: int | None
    bid_before: bool | None = None
    bid_after: bool | None = None

    @property
    def lost_bid(self) -> bool:
        """Whether this card let the bid go: makeable before, not after."""
        return self.bid_before is True and self.bid_after is False

    @property
    def gave_bid(self) -> bool:
        """Whether this card let the bidder make a bid he could not force before."""
        return self.bid_before is False and self.bid_after is True

    def sentence(self) -> str:
        """The card in words, e.g. ``hand 1, trick 7: seat 2 played KS (best AS, cost 20)``."""
        where = f"hand {self.hand}, trick {self.trick}: seat {self.seat} played {self.played}"
        if self.cost is None:
            text = f"{where} (not solved within the budget)"
        elif self.cost == 0:
            text = f"{where} (best)"
        else:
            best = " ".join(str(c) for c in self.best) or "not found within the budget"
            text = f"{where} (best {best}, cost {self.cost})"
        if self.lost_bid and self.best:
            best = " or ".join(str(c) for c in self.best)
            text += f"; the bidder could have made the bid by playing {best} at trick {self.trick}"
        elif self.gave_bid:
            text += "; this let the bidder make the bid"
        return text

    def to_dict(self) -> dict[str, Any]:
        """The card as JSON values (cards as text)."""
        return {
            "index": self.index,
            "hand": self.hand,
            "trick": self.trick,
            "seat": self.seat,
            "played": str(self.played),
            "best": [str(c) for c in self.best],
            "best_value": self.best_value,
            "played_value": self.played_value,
            "cost": self.cost,
            "bid_before": self.bid_before,
            "bid_after": self.bid_after,
        }


@attrs.frozen(slots=True)
class Analysis:
    """Every card played that could be judged, in play order (:func:`analyze`)."""

    profile: str
    cards: tuple[CardAnalysis, ...]

    @property
    def mistakes(self) -> tuple[CardAnalysis, ...]:
        """The cards that cost points or let a bid go (or through)."""
        return tuple(c for c in self.cards if c.cost or c.lost_bid or c.gave_bid)

    def costs(self) -> dict[int, int]:
        """The points each seat's cards cost its side, by seat (cards solved in full)."""
        out: dict[int, int] = {}
        for c in self.cards:
            out[c.seat] = out.get(c.seat, 0) + (c.cost or 0)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON values: the profile, every card, the mistakes' sentences."""
        return {
            "profile": self.profile,
            "cards": [c.to_dict() for c in self.cards],
            "mistakes": [c.sentence() for c in self.mistakes],
            "costs": {str(k): v for k, v in sorted(self.costs().items())},
        }

    def __str__(self) -> str:
        unsolved = sum(1 for c in self.cards if c.cost is None)
        head = f"{len(self.cards)} cards judged, {len(self.mistakes)} that cost something"
        if unsolved:
            head += f", {unsolved} not solved within the budget"
        lines = [head]
        lines += [c.sentence() for c in self.mistakes]
        return "\n".join(lines)


def _solvable(s: GameState) -> bool:
    try:
        read_position(s)
    except BinocleError:
        return False
    return True


def _gain(s: GameState, t: GameState, side: tuple[int, ...]) -> int:
    """The card points ``side`` took between ``s`` and ``t`` (``t`` one card later)."""
    if len(t.results) > len(s.results):
        # The last trick ended the hand: all that was left went to its winner.
        r = t.results[len(s.results)]
        return (
            sum(r.tricks[i] for i in side)
            - sum(getattr(s, "taken", (0,) * len(r.tricks))[i] for i in side)
            - (_discard_points(s) if getattr(s, "bidder", None) in side else 0)
        )
    taken_t = getattr(t, "taken", None)
    taken_s = getattr(s, "taken", None)
    if taken_t is None or taken_s is None:
        return 0
    return sum(taken_t[i] - taken_s[i] for i in side)


def _discard_points(s: GameState) -> int:
    if not isinstance(s, CutthroatState):
        return 0
    return sum(COUNTER_POINTS[c] for c in s.discards)


def analyze(record: Mapping[str, object] | str | bytes, *, nodes: int | None = None) -> Analysis:
    """Each card played in ``record`` (a game record, its dict or JSON text) where every
    hand is known and the solver applies (cutthroat and three-handed play, classic
    once the stock is exhausted), against the best card for the player's side.

    ``nodes``: the search budget per position (default 200000); a card whose
    position needs more is listed with its cost None.  An unreadable or
    inconsistent record raises what :func:`binocle.replay` raises.
    """
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise InvalidArgumentError(f"nodes is a whole number from 1, or None, not {excerpt(nodes)}")
    budget = DEFAULT_NODES if nodes is None else nodes
    states = replay(record, every=True)
    judge = _Judge(states, budget)
    plays = [
        i
        for i in range(len(states) - 1)
        if (h := states[i + 1].history) is not None
        and h[1].kind is Kind.PLAY
        and _solvable(states[i])
    ]
    # From the end of each hand back: each search leaves its table to the next one.
    found = {i: judge.card(i) for i in reversed(plays)}
    return Analysis(states[0].profile.spec(), tuple(found[i] for i in plays))


class _Judge:
    """The values of a record's positions, one search (and its table) per hand and
    side measured: the cutthroat bidder's side, the classic seat 0, each
    three-handed seat against the others."""

    def __init__(self, states: list[GameState], budget: int) -> None:
        self.states = states
        self.budget = budget
        self.searches: dict[tuple[int, int], Search] = {}
        self.values: dict[tuple[int, int], int | None] = {}

    def measured(self, s: GameState, seat: int) -> int:
        """The seat whose side the values of ``s`` are measured for."""
        if isinstance(s, CutthroatState):
            assert s.bidder is not None
            return s.bidder
        return 0 if len(s.hands) == 2 else seat

    def search(self, i: int, m: int) -> tuple[Position, Search]:
        s = self.states[i]
        pos = read_position(s, m)
        key = (len(s.results), m)
        found = self.searches.get(key)
        if found is None:
            found = self.searches[key] = make_search(pos, self.budget, 0.0)
        else:
            found.reset(list(pos.hands), self.budget, 0.0)
        return pos, found

    def value(self, i: int, m: int) -> int | None:
        """The value of position ``i`` for ``m``'s side, None past the budget."""
        if (i, m) not in self.values:
            pos, search = self.search(i, m)
            try:
                v: int | None = search.value(pos.trick, pos.player, -1, pos.remaining + 1)
            except Stop:
                v = None
            self.values[(i, m)] = v
        return self.values[(i, m)]

    def card(self, i: int) -> CardAnalysis:
        s, t = self.states[i], self.states[i + 1]
        history = t.history
        assert history is not None
        action, seat = history[1], history[2]
        assert seat is not None and action.card is not None
        m = self.measured(s, seat)
        pos = read_position(s, m)
        side = pos.side
        here = self.value(i, m)
        gained = _gain(s, t, side)
        later: int | None = 0
        if len(t.results) == len(s.results) and _solvable(t):
            later = self.value(i + 1, m)
        played = None if later is None else gained + later
        mine = seat in side
        best_value = played_value = cost = None
        best: tuple[Card, ...] = ()
        if here is not None and played is not None:
            # The player's side's values: ``m``'s side's, or what the others leave it.
            best_value = here if mine else pos.remaining - here
            played_value = played if mine else pos.remaining - played
            cost = best_value - played_value
            if cost:
                _, search = self.search(i, m)
                try:
                    full = answer(pos, search, True)
                    best = tuple(c for c, v in full.cards if v == here)
                except Stop:  # pragma: no cover - answer catches it
                    best = ()
            else:
                best = (action.card,)
        bid_before = bid_after = None
        if isinstance(s, CutthroatState) and pos.needed is not None:
            bid_before = None if here is None else here >= pos.needed
            bid_after = None if played is None else played >= pos.needed
        return CardAnalysis(
            i, len(s.results) + 1, _trick_number(s), seat, action.card, best, best_value,
            played_value, cost, bid_before, bid_after,
        )  # fmt: skip


def _trick_number(s: GameState) -> int:
    """The trick a card of ``s`` is played to, from 1 in the hand."""
    seats = len(s.hands)
    left = (sum(len(h) for h in s.hands) + len(s.trick)) // seats
    tricks = s.profile.pack_size // seats - (1 if isinstance(s, CutthroatState) else 0)
    return tricks - left + 1


def analysis_section(
    record: Mapping[str, object] | str | bytes, *, nodes: int | None = None
) -> dict[str, Any]:
    """The analysis of ``record`` as a section of a report (JSON values): what
    :meth:`Analysis.to_dict` gives, for the validator's report or a site to show."""
    return analyze(record, nodes=nodes).to_dict()
