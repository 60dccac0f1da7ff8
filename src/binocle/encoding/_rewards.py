"""Reward options: the score change, the score change scaled to [-1, 1], or win and loss."""

from __future__ import annotations

import operator
from typing import Any, Final

from binocle.core import GameState, Phase
from binocle.encoding._bounds import utility_bounds
from binocle.encoding._episode import Episode
from binocle.encoding._walk import END, Walk
from binocle.errors import InvalidArgumentError, excerpt

#: The reward options, in the order the docs list them.
REWARDS: Final = ("score", "normalised", "win")


def check_reward(reward: Any) -> str:
    """``reward`` if it is one of :data:`REWARDS`, else :class:`~binocle.InvalidArgumentError`."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise InvalidArgumentError(f"reward is one of {', '.join(REWARDS)}, not {excerpt(reward)}")
    return reward


def _scale(profile: Any, hands: int) -> int:
    low, high = utility_bounds(profile, hands)
    return max(-low, high, 1)


def reward_bounds(profile: Any, hands: int = 1, reward: str = "score") -> tuple[float, float]:
    """Bounds on one seat's return over ``hands`` hands under a reward option.

    ``"score"``: :func:`utility_bounds` (which says per profile which of them
    are reached); ``"normalised"``: those bounds divided by the larger of their
    magnitudes, so they lie within [-1, 1] and one of them is -1 or 1; ``"win"``:
    -1 and 1, both reached.  A ``hands`` that is not a whole number of at least 1
    raises :class:`~binocle.InvalidArgumentError`, as an unknown ``reward`` does.
    """
    check_reward(reward)
    if reward == "win":
        return -1.0, 1.0
    low, high = utility_bounds(profile, hands)
    if reward == "score":
        return float(low), float(high)
    scale = _scale(profile, hands)
    return low / scale, high / scale


def episode_returns(episode: Episode, reward: str = "score") -> tuple[float, ...]:
    """Each seat's return so far under a reward option.

    ``"score"``: the change of its game score since the episode began
    (:meth:`Episode.returns`).  ``"normalised"``: that change divided by the
    larger magnitude of :func:`utility_bounds`, so within [-1, 1].  ``"win"``:
    0 until the episode ends; then +1 for the winner and -1 for every other
    seat, where the winner is the game's winner if the game ended (a wrong
    claim loses the game, so it is never free), else the one seat with the
    highest score change; 0 for all when several share the highest.
    """
    check_reward(reward)
    if not isinstance(episode, Episode):
        raise InvalidArgumentError(f"not an episode: {type(episode).__name__}")
    return returns_of(
        episode.state, episode.start_scores, episode.hands, episode.is_terminal(), reward
    )


def walk_returns(walk: Walk, reward: str) -> tuple[float, ...]:
    """:func:`episode_returns` of the episode at ``walk``."""
    check_reward(reward)
    return returns_of(walk.raw, walk.start_scores, walk.hands, walk.where() == END, reward)


def returns_of(
    state: GameState, start_scores: tuple[int, ...], hands: int, over: bool, reward: str
) -> tuple[float, ...]:
    """:func:`episode_returns` of an episode at ``state`` that began with
    ``start_scores``, plays ``hands`` hands and is ``over`` or not (``reward`` checked)."""
    score = tuple(map(operator.sub, state.scores, start_scores))
    if reward == "score":
        return tuple(float(x) for x in score)
    if reward == "normalised":
        scale = _scale(state.profile, hands)
        return tuple(x / scale for x in score)
    if not over:
        return (0.0,) * len(score)
    if state.phase is Phase.OVER:
        from binocle.game import winner

        won = winner(state)
    else:
        top = max(score)
        leaders = [i for i, x in enumerate(score) if x == top]
        won = leaders[0] if len(leaders) == 1 else None
    if won is None:
        return (0.0,) * len(score)
    return tuple(1.0 if i == won else -1.0 for i in range(len(score)))
