"""A play-phase state read as the search's numbers, and the answers built from a search."""

from __future__ import annotations

import time
from typing import Any

import attrs

from binocle.cards import CARDS, Card
from binocle.core import GameState, Phase
from binocle.errors import InvalidArgumentError, excerpt, is_finite, is_whole
from binocle.profiles.classic import ClassicState
from binocle.profiles.cutthroat import CutthroatState
from binocle.profiles.three_handed import ThreeHandedState
from binocle.rules.points import BINOCLE_POINTS, COUNTER_POINTS, LAST_TRICK
from binocle.solve._search import Search, Stop

__all__ = [
    "Position", "Solution", "answer", "can_reach", "make_search", "makes_bid", "reach_search",
    "read_position", "solve",
]  # fmt: skip

#: The node budget when none is given: far above any hand's need.
DEFAULT_NODES = 10**12


@attrs.frozen(slots=True)
class Position:
    """A state read for the search: the seats' cards, the trick, who plays, the
    side measured (``side``: 0 for the seats of the measured side, 1 for the
    others), the points table and the rule; ``won``: the points that side has
    already won this hand; ``needed``: for a cutthroat bidder's side, what it
    still needs from the tricks to make the bid (else None)."""

    seat: int
    sides: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    trick: tuple[tuple[int, int], ...]
    player: int
    points: tuple[int, ...]
    trump: int
    rule: Any
    won: int
    needed: int | None

    @property
    def remaining(self) -> int:
        """The card points still to win, the last trick's bonus included."""
        cards = sum(self.points[c] for h in self.hands for c in h)
        return cards + sum(self.points[c] for _, c in self.trick) + LAST_TRICK

    @property
    def side(self) -> tuple[int, ...]:
        """The seats of the measured side."""
        return tuple(i for i, s in enumerate(self.sides) if s == 0)


@attrs.frozen(slots=True)
class Solution:
    """What :func:`solve` found for the side of ``seat`` (``side``: its seats).

    ``value``: the card points that side wins from this moment to the end of
    the hand, with best play by every seat (the cards of the trick in progress,
    every later trick, and the last trick's 10); ``remaining``: all the points
    still to win, so the other side's value is ``remaining - value``.
    ``exact`` is False when the budget ran out before the value was proven: the
    value then lies between ``lower`` and ``upper`` (``value`` is ``lower`` for a
    seat of the side to play, else ``upper``); a search stopped once the bounds
    meet is exact.  ``cards``: each distinct legal card of the seat to
    play with the value after it (exact; with ``cards=False``, or past the
    budget, only those searched in full), best first for the player; ``best``:
    the best card found (None when the budget ran out before one was proven).  ``nodes``, ``probes`` and ``hits``: the search's
    nodes and the position cache's look-ups and hits.
    """

    seat: int
    side: tuple[int, ...]
    value: int
    lower: int
    upper: int
    exact: bool
    remaining: int
    cards: tuple[tuple[Card, int], ...]
    best: Card | None
    nodes: int
    probes: int
    hits: int

    @property
    def hit_rate(self) -> float:
        """The position cache's hits per look-up (0.0 with no look-up)."""
        return self.hits / self.probes if self.probes else 0.0


def _check_seat(seat: object, seats: int) -> int:
    if not is_whole(seat) or not 0 <= int(seat) < seats:
        raise InvalidArgumentError(f"seat is a whole number 0..{seats - 1}, not {excerpt(seat)}")
    return int(seat)


def _check_budget(nodes: object, seconds: object) -> tuple[int, float]:
    if nodes is None:
        limit = DEFAULT_NODES
    elif is_whole(nodes) and int(nodes) > 0:
        limit = int(nodes)
    else:
        raise InvalidArgumentError(f"nodes is a whole number from 1, or None, not {excerpt(nodes)}")
    if seconds is None:
        return limit, 0.0
    if not is_finite(seconds) or not seconds > 0:
        raise InvalidArgumentError(f"seconds is a positive number, or None, not {excerpt(seconds)}")
    return limit, time.perf_counter() + float(seconds)


def read_position(state: object, seat: object = None) -> Position:
    """``state`` read for the search, the side of ``seat`` measured (default: a
    cutthroat bidder, else the seat to play).

    Raises InvalidArgumentError for anything but a state in the play of a hand
    with a card to play: a cutthroat or three-handed hand, or a classic hand
    once the stock is exhausted; a three-handed hand after a retirement is
    refused too.
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"a game state is needed, not {type(state).__name__}")
    p = state.current_player
    if state.phase is not Phase.PLAY or p is None or not state.hands[p]:
        raise InvalidArgumentError("the solver needs a state in the play, with a card to play")
    seats = len(state.hands)
    won_by = list(state.taken) if hasattr(state, "taken") else [0] * seats
    needed: int | None = None
    if isinstance(state, CutthroatState):
        points = COUNTER_POINTS
        bidder = state.bidder
        assert bidder is not None and state.bid is not None
        who = bidder if seat is None else _check_seat(seat, seats)
        sides = tuple(0 if (i == bidder) == (who == bidder) else 1 for i in range(seats))
        discards = sum(COUNTER_POINTS[c] for c in state.discards)
        won_by[bidder] += discards
        if who == bidder:
            meld = state.melds[bidder]
            needed = state.bid - (meld.total if meld is not None else 0) - won_by[bidder]
        rule = state.profile.play_obligation()
    elif isinstance(state, ClassicState):
        if state.stock or state.turn_up is not None:
            raise InvalidArgumentError(
                "the classic game is solved once the stock is exhausted (the last twelve tricks)"
            )
        points = BINOCLE_POINTS
        who = p if seat is None else _check_seat(seat, seats)
        sides = tuple(0 if i == who else 1 for i in range(seats))
        rule = state.profile.play_obligation(True)
    elif isinstance(state, ThreeHandedState):
        if state.retired is not None or state.sub is not None:
            raise InvalidArgumentError(
                "the solver plays a full three-handed table, not a retirement"
            )
        points = BINOCLE_POINTS
        who = p if seat is None else _check_seat(seat, seats)
        sides = tuple(0 if i == who else 1 for i in range(seats))
        rule = state.profile.play_obligation()
    else:
        raise InvalidArgumentError(f"no solver for the {state.profile.name} game")
    trump = state.trump
    return Position(
        who,
        sides,
        tuple(tuple(int(c) for c in h) for h in state.hands),
        tuple((int(s), int(c)) for s, c in state.trick),
        p,
        points,
        -1 if trump is None else int(trump),
        rule,
        sum(won_by[i] for i in range(seats) if sides[i] == 0),
        needed,
    )


def make_search(pos: Position, nodes: int, deadline: float) -> Search:
    """A search set to ``pos``."""
    return Search(
        list(pos.hands),
        list(pos.sides),
        pos.points,
        LAST_TRICK,
        pos.trump,
        pos.rule,
        nodes,
        deadline,
    )


def solve(
    state: GameState,
    seat: int | None = None,
    *,
    cards: bool = True,
    nodes: int | None = None,
    seconds: float | None = None,
) -> Solution:
    """The exact value of the rest of the hand for the side of ``seat``, with every
    hand known (a real state, or a :func:`binocle.determinize` sample), and the
    value of each legal card of the seat to play.

    The sides: in the cutthroat game the bidder against the two others as one
    side (``seat`` default: the bidder); in the classic game (once the stock is
    exhausted) the two players; in the three-handed game ``seat`` against the
    other two as one side (paranoid: the others are assumed to play together
    against it; default: the seat to play).  The value is card points (the
    profile's count) and the last trick's 10; melds, knocks and the score do
    not enter it (see the solver page).  With ``cards=False`` only the best card
    is searched in full (faster).  ``nodes`` and ``seconds`` bound the search:
    past them the answer is the best bound so far (``exact`` False).

    >>> import binocle
    >>> from binocle.bots import BaselineBot
    >>> from binocle.solve import solve
    >>> s, bot = binocle.new_game("cutthroat", seed=3), BaselineBot(1)
    >>> while s.phase is not binocle.Phase.PLAY or s.trick or len(s.hands[s.current_player]) > 3:
    ...     p = s.current_player
    ...     a = binocle.legal_actions(s)[0] if p is None else bot.choose(binocle.observe(s, p))
    ...     s = binocle.apply(s, a)
    >>> answer = solve(s)
    >>> answer.exact, answer.value, answer.remaining, str(answer.best)
    (True, 90, 90, 'TS')
    """
    pos = read_position(state, seat)
    if not isinstance(cards, bool):
        raise InvalidArgumentError(f"cards is True or False, not {excerpt(cards)}")
    limit, deadline = _check_budget(nodes, seconds)
    return answer(pos, make_search(pos, limit, deadline), cards)


def answer(pos: Position, search: Search, cards: bool) -> Solution:
    """:func:`solve` of a position read, by ``search`` (set to that position)."""
    total = pos.remaining
    p = pos.player
    maximise = pos.sides[p] == 0
    moves = search.moves(pos.trick, p, -1)
    found: list[tuple[int, int]] = []
    exact = True
    if not cards:
        lower, upper = _converge(pos, search, moves, maximise, total, found)
        value = lower if maximise else upper
    else:
        try:
            for c in moves:
                found.append((c, search.card_value(pos.trick, p, c, -1, total + 1)))
        except Stop:
            exact = False
        values = [v for _, v in found]
        if exact:
            value = max(values) if maximise else min(values)
            lower = upper = value
        elif maximise:
            lower = max(values, default=0)
            upper = total
            value = lower
        else:
            lower = 0
            upper = min(values, default=total)
            value = upper
    exact = lower == upper
    # Every legal card with the value of the card it is equivalent to.
    legal = pos.hands[p]
    by_card = dict(found)
    listed: list[tuple[Card, int]] = []
    last = -1
    for c in legal:
        if c in by_card:
            last = c
            listed.append((CARDS[c], by_card[c]))
        elif last >= 0 and c != last and c in _equivalents(search, pos, last):
            listed.append((CARDS[c], by_card[last]))
    listed = list(dict(listed).items())
    listed.sort(key=lambda cv: -cv[1] if maximise else cv[1])
    best = listed[0][0] if listed else None
    return Solution(
        pos.seat,
        pos.side,
        value,
        lower,
        upper,
        exact,
        total,
        tuple(listed),
        best,
        search.nodes,
        search.probes,
        search.hits,
    )


def _converge(
    pos: Position,
    search: Search,
    moves: list[int],
    maximise: bool,
    total: int,
    found: list[tuple[int, int]],
) -> tuple[int, int]:
    """The value by null-window searches closing in on it (MTD(f): each answers "at
    least ``g``?" and its bound moves ``g``; the table keeps what each proved for the
    next), then a best card: the first card that reaches the value, again by a
    null-window search.  The bounds proven (equal when exact); the best card and its
    value go to ``found``.  Past the budget, the bounds proven so far."""
    lower, upper = 0, total
    g = total // 2
    try:
        while lower < upper:
            beta = g if g > lower else lower + 1
            g = search.value(pos.trick, pos.player, beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        for c in moves:
            if maximise:
                v = search.card_value(pos.trick, pos.player, c, lower - 1, lower)
                if v >= lower:
                    found.append((c, lower))
                    break
            else:
                v = search.card_value(pos.trick, pos.player, c, lower, lower + 1)
                if v <= lower:
                    found.append((c, lower))
                    break
    except Stop:
        pass
    return lower, upper


def _equivalents(search: Search, pos: Position, c: int) -> set[int]:
    """The cards the search merged with ``c`` (a card it searched)."""
    from binocle.rules.tricks import allowed_slice

    p = pos.player
    allowed = allowed_slice(pos.hands[p], pos.trick, None if pos.trump < 0 else pos.trump, pos.rule)
    outside = 0
    for q in range(len(pos.hands)):
        if q != p:
            for x in pos.hands[q]:
                outside |= 1 << x
    for _, x in pos.trick:
        outside |= 1 << x
    out = {c}
    prev = c
    for x in allowed:
        if x <= c:
            continue
        if (
            x >> 3 == prev >> 3
            and pos.points[x] == pos.points[prev]
            and outside & ((2 << x) - (1 << prev)) == 0
        ):
            out.add(x)
            prev = x
        else:
            break
    return out


def can_reach(
    state: GameState,
    points: int,
    seat: int | None = None,
    *,
    nodes: int | None = None,
    seconds: float | None = None,
) -> bool | None:
    """Whether the side of ``seat`` (as :func:`solve` reads it) can win at least
    ``points`` more card points from here whatever the others do: a null-window
    search, much faster than the exact value.  None when the budget ran out first.
    """
    pos = read_position(state, seat)
    if not is_whole(points):
        raise InvalidArgumentError(f"points is a whole number, not {excerpt(points)}")
    target = int(points)
    limit, deadline = _check_budget(nodes, seconds)
    return _reach(pos, target, limit, deadline)


def _reach(pos: Position, target: int, limit: int, deadline: float) -> bool | None:
    return reach_search(pos, target, limit, deadline)[0]


def reach_search(
    pos: Position, target: int, limit: int, deadline: float
) -> tuple[bool | None, Search | None]:
    """Whether the side measured in ``pos`` can win ``target`` more points (None past
    the budget), and the search that found it (None when no search was needed: the
    benchmark reads its counters)."""
    if target <= 0:
        return True, None
    if target > pos.remaining:
        return False, None
    search = make_search(pos, limit, deadline)
    try:
        return search.value(pos.trick, pos.player, target - 1, target) >= target, search
    except Stop:
        return None, search


def makes_bid(
    state: GameState, *, nodes: int | None = None, seconds: float | None = None
) -> bool | None:
    """Whether the cutthroat bidder can still make the bid (meld and trick points,
    his discards and the last trick included, at least the bid) whatever the
    other two do; None when the budget ran out first.

    Raises InvalidArgumentError for a state of another game or outside the play.
    """
    if not isinstance(state, CutthroatState):
        raise InvalidArgumentError("makes_bid asks of a cutthroat hand in its play")
    pos = read_position(state)
    assert pos.needed is not None
    limit, deadline = _check_budget(nodes, seconds)
    return _reach(pos, pos.needed, limit, deadline)
