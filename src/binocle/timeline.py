"""A game's past (layer 4): its moves in order, and the state before the last one.

A state carries the actions that led to it as a linked list (its ``history``
field: nodes ``(earlier node or None, action, seat)``, the newest first); it
does not keep the states it passed through, which would cost far more memory
than the actions (docs: Undo, history and positions).  :func:`history` reads
the list oldest first; :func:`undo` rebuilds the state before the last action
by replaying the game from its start under the rules, and remembers the states
it rebuilt, so that undoing again and again costs one replay in all.
"""

from __future__ import annotations

from typing import Any, Final

from binocle.actions import Action, Kind
from binocle.core import GameState
from binocle.errors import InvalidArgumentError, NothingToUndoError

__all__ = ["history", "undo"]


def _state(state: Any) -> GameState:
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    return state


def history(state: GameState) -> tuple[tuple[int | None, Action], ...]:
    """Every action of the game up to ``state`` as ``(seat, action)`` pairs, oldest first.

    ``seat`` is the seat that took the action: the player to act, or the knocker
    of a knock out of turn; None for a deal, which nobody takes.  Deals are
    included, each with its cards.

    >>> import binocle
    >>> s = binocle.apply(binocle.new_game("cutthroat", seed=7), "bid 250")
    >>> [(seat, str(action)[:7]) for seat, action in binocle.history(s)]
    [(None, 'deal 9D'), (1, 'bid 250')]
    """
    return tuple((seat, action) for action, seat in _state(state).moves())


def undo(state: GameState) -> GameState:
    """The state before the last action of ``state``: equal to it, with its history.

    A deal is undone as any action (the state before it is the end of the last
    hand), but for the game's first deal: a game as :func:`binocle.new_game`
    gives it, or as :func:`binocle.start` gives it, has nothing to undo, and
    :class:`~binocle.errors.NothingToUndoError` is raised.  Works on any state
    that carries its history: one from :func:`binocle.apply`,
    :func:`binocle.loads`, :func:`binocle.replay`, :func:`binocle.from_position`
    or unpickled.

    >>> import binocle
    >>> s = binocle.new_game("cutthroat", seed=7)
    >>> t = binocle.apply(s, "bid 250")
    >>> binocle.undo(t) == s
    True
    >>> binocle.undo(s)
    Traceback (most recent call last):
    ...
    binocle.errors.NothingToUndoError: nothing to undo: no action since the game's first deal
    """
    s = _state(state)
    node = s.history
    if node is None or (node[0] is None and node[1].kind is Kind.DEAL):
        raise NothingToUndoError("nothing to undo: no action since the game's first deal")
    return state_at(s, node[0])


def state_at(state: GameState, node: Any) -> GameState:
    """The state of ``state``'s game whose history is ``node`` (a node of
    ``state.history``, or None for the start), replayed under the rules.

    Every state replayed is remembered by the history node it stands for, so a
    state reached again (undo after undo, or a later state of the same game)
    costs no more than the actions not yet replayed.
    """
    from binocle.game import apply, start

    pending: list[Any] = []
    base: GameState | None = None
    walk = node
    while walk is not None:
        kept = _REPLAYED.get(id(walk))
        if kept is not None and kept[0] is walk:
            base = kept[1]
            break
        pending.append(walk)
        walk = walk[0]
    if base is None:
        base = start(state.profile, state.seed, state.first_dealer)
    if len(_REPLAYED) + len(pending) > MAX_REMEMBERED:
        _REPLAYED.clear()
    s = base
    for walk in reversed(pending):
        s = apply(s, walk[1])
        _REPLAYED[id(walk)] = (walk, s)  # the node kept too: its id stays its own
    return s


#: How many replayed states :func:`state_at` remembers (all are forgotten at once
#: when a replay would pass it): a few long games.
MAX_REMEMBERED: Final = 8192
_REPLAYED: Final[dict[int, tuple[Any, GameState]]] = {}
