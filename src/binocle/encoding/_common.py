"""What the encodings share: the card kinds in id order, and the checks of their arguments."""

from __future__ import annotations

import functools
import operator
from typing import Any

from binocle.cards import Card
from binocle.cards import kinds as _pack_kinds
from binocle.core import GameState, Profile, View
from binocle.errors import InvalidArgumentError, excerpt
from binocle.profiles import get_profile


def kinds(size: int) -> tuple[Card, ...]:
    """The card kinds of a pack in id order (24 or 32): a card's index among them is
    its place in every card part of the tensors and its chance outcome."""
    try:
        hash(size)
    except TypeError:  # not a size: the pack refuses it as it refuses any other
        return _pack_kinds(size)
    return _kinds(size)


@functools.lru_cache(maxsize=2)
def _kinds(size: int) -> tuple[Card, ...]:
    return _pack_kinds(size)


@functools.lru_cache(maxsize=2)
def _kind_index(size: int) -> dict[int, int]:
    return {int(c): i for i, c in enumerate(kinds(size))}


def _profile_of(profile_or_state: Any) -> Profile:
    if isinstance(profile_or_state, GameState):
        return profile_or_state.profile
    if isinstance(profile_or_state, View):
        return profile_or_state.profile
    return get_profile(profile_or_state)


def _check_state(state: Any) -> GameState:
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    return state


def _check_view(view: Any) -> View:
    if not isinstance(view, View):
        raise InvalidArgumentError(
            f"not a view: {type(view).__name__} (use binocle.observe(state, seat))"
        )
    return view


def _check_id(action_id: Any) -> int:
    """An action id or chance outcome as an int: a whole number (a Python int or any
    integer scalar such as numpy's), never a bool, a float or text."""
    if not isinstance(action_id, bool) and getattr(action_id, "ndim", 0) == 0:
        try:
            return operator.index(action_id)
        except TypeError:
            pass
    raise InvalidArgumentError(f"an id is a whole number, not {excerpt(action_id)}")


def _check_hands(hands: Any) -> int:
    """A hand count: a whole number of at least 1."""
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise InvalidArgumentError(f"hands must be a positive whole number, not {excerpt(hands)}")
    return hands
