"""What the games held in place for the vectorized environment share.

:class:`binocle.vector.VectorEnv` holds cutthroat games
(:mod:`binocle.encoding._cutthroat_batch`) and classic games
(:mod:`binocle.encoding._classic_batch`) as plain numbers changed in place.  Each
such game is a :class:`BatchGame`: the fields every profile has, its legal ids as
ranges, and the log of its action ids, from which :func:`replay` rebuilds the
engine's :class:`~binocle.GameState` on request.

The compiled build compiles this module; it is written with typed locals and no
closures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from binocle._mypyc import mypyc_attr
from binocle._step import apply, legal_actions
from binocle.actions import Action
from binocle.core import GameState
from binocle.encoding._actions import ActionSpace
from binocle.errors import IllegalActionError, RuleCode
from binocle.rules.tricks import bisect_cards

__all__ = ["BatchGame", "add", "add_cards", "check", "replay", "take", "write_ids"]


@mypyc_attr(serializable=True)
class BatchGame:
    """One game in numbers (-1 for "none"): the fields every profile has."""

    def __init__(self, players: int) -> None:
        self.seed = 0
        self.first_dealer = 0
        self.dealer = 0
        self.hand_number = 0
        self.phase = 0  # its index in Phase, as the observation tensor numbers it
        self.current = -1
        self.trump = -1
        self.scores: list[int] = [0] * players
        self.results = 0  # hands ended in the game
        self.outcome = ""  # the last hand's ("played", "claimed", ...)
        self.log: list[int] = []  # the action ids since the game began
        # The engine's state of the game as last asked for, and how much of the log
        # it had played.
        self.seen: GameState | None = None
        self.seen_at = 0
        # The legal ids now: ranges [lo, hi) of ids, ascending.
        self.lo: list[int] = []
        self.hi: list[int] = []

    def restart(self, seed: int, dealer: int) -> None:
        """The game starts anew, to be dealt by ``dealer`` from ``seed``."""
        self.seed = seed
        self.first_dealer = dealer
        self.dealer = dealer
        self.hand_number = 0
        self.scores = [0] * len(self.scores)
        self.results = 0
        self.outcome = ""
        self.log = []
        self.seen = None
        self.seen_at = 0


def add(lo: list[int], hi: list[int], a: int) -> None:
    """Id ``a`` (above every id so far) into the ranges."""
    if hi and hi[-1] == a:
        hi[-1] = a + 1
    elif not hi or hi[-1] < a:
        lo.append(a)
        hi.append(a + 1)


def add_cards(cards: tuple[int, ...], ids: list[int], lo: list[int], hi: list[int]) -> None:
    """The ids of the distinct ``cards`` (sorted), as ranges: their ids ascend."""
    prev = -1
    for c in cards:
        if c != prev:
            add(lo, hi, ids[c])
            prev = c


def take(hands: list[tuple[int, ...]], p: int, c: int) -> None:
    """One copy of card ``c`` out of seat ``p``'s sorted hand."""
    hand = hands[p]
    i = bisect_cards(hand, c, 0, len(hand))
    hands[p] = hand[:i] + hand[i + 1 :]


def check(games: Sequence[BatchGame], ids: list[int]) -> None:
    """Raise :class:`~binocle.IllegalActionError` (naming the game) unless every
    game's id is legal in it; nothing changes."""
    for i in range(len(ids)):
        g = games[i]
        a = ids[i]
        lo = g.lo
        hi = g.hi
        ok = False
        for k in range(len(lo)):
            if lo[k] <= a < hi[k]:
                ok = True
                break
        if not ok:
            raise IllegalActionError(
                f"game {i}: action id {a} is not legal now",
                RuleCode.NOT_LEGAL,
                None,
                g.current if g.current >= 0 else None,
            )


def replay(
    g: BatchGame, profile: Any, space: ActionSpace, action_of: list[Action | None]
) -> GameState:
    """Game ``g``'s state, replayed through the engine from where it was last asked
    for (else from the game's start); ``action_of[id]`` is the action of a fixed id
    (None where the action depends on the state)."""
    s = g.seen
    if s is None:
        s = profile.initial(g.seed, g.first_dealer)
    log = g.log
    for k in range(g.seen_at, len(log)):
        while s.current_player is None:
            s = apply(s, legal_actions(s)[0])
        a = log[k]
        action = action_of[a]
        s = apply(s, space.action(s, a) if action is None else action)
    while s.current_player is None and g.current >= 0:
        s = apply(s, legal_actions(s)[0])
    g.seen = s
    g.seen_at = len(log)
    return s


def write_ids(g: BatchGame, base: int, lo: list[int], lens: list[int], totals: list[int]) -> None:
    """Game ``g``'s legal ids as ranges of flat positions (from ``base``): each
    range's start into ``lo`` and its length into ``lens``; their total into
    ``totals``."""
    glo = g.lo
    ghi = g.hi
    total = 0
    for k in range(len(glo)):
        n = ghi[k] - glo[k]
        lo.append(base + glo[k])
        lens.append(n)
        total += n
    totals.append(total)
