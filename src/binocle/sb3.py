"""The learner's games as a Stable-Baselines3 vectorized environment (extra
``binocle[sb3]``, which brings Stable-Baselines3, sb3-contrib and PyTorch).

:class:`BinocleVecEnv` is a ``stable_baselines3.common.vec_env.VecEnv`` over a
:class:`binocle.gym.BinocleVectorEnv`: the same games, observations, rewards and
masks, in Stable-Baselines3's form (``reset()`` returns the observations alone,
``step`` gives ``(observations, rewards, dones, infos)`` with a list of dicts).
``env_method("action_masks")`` gives each game's legal ids, as sb3-contrib's
``MaskablePPO`` asks for them.

>>> from binocle.sb3 import BinocleVecEnv
>>> venv = BinocleVecEnv("classic", num_envs=4, opponents="baseline", seed=2)
>>> obs = venv.reset()
>>> obs.shape, venv.action_space.n
((4, 201), np.int64(2519))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from binocle.errors import InvalidArgumentError, excerpt
from binocle.gym import BinocleVectorEnv

__all__ = ["BinocleVecEnv"]


class BinocleVecEnv(VecEnv):
    """A Stable-Baselines3 ``VecEnv`` of ``env`` (a :class:`~binocle.gym.BinocleVectorEnv`),
    or of a new one made from a profile and the keywords
    :class:`~binocle.gym.BinocleVectorEnv` takes.

    Each row of ``infos`` holds ``"seat"`` and ``"action_mask"`` (the learner's seat
    and legal ids in that game); a row whose episode ended in the step also holds
    ``"terminal_observation"`` (a zero observation: episodes end by termination,
    never truncation, so nothing bootstraps from it), ``"TimeLimit.truncated"``
    (False) and ``"return"`` (the episode's return).  Wrap it in
    ``VecMonitor`` for Stable-Baselines3's episode statistics.

    ``seed(n)`` (Stable-Baselines3's) sets the seed of the next :meth:`reset` (the first game's seed
    Stable-Baselines3 computes is the environment's seed: see
    :class:`~binocle.gym.BinocleVectorEnv`).  :meth:`get_attr` and
    :meth:`set_attr` read and set an attribute of the underlying environment
    (``set_attr("opponent_policy", f)`` for self-play), the same for every game;
    :meth:`env_method` calls ``action_masks`` (or another method of the
    underlying environment that answers per game) and returns one answer per
    game asked for.
    """

    def __init__(self, env: Any = "cutthroat", **kwargs: Any) -> None:
        if isinstance(env, BinocleVectorEnv):
            if kwargs:
                raise InvalidArgumentError(
                    "give an environment or a profile with keywords, not both:"
                    f" {', '.join(sorted(kwargs))}"
                )
            self.env = env
        else:
            self.env = BinocleVectorEnv(env, **kwargs)
        self._actions: np.ndarray | None = None
        super().__init__(
            self.env.num_envs, self.env.single_observation_space, self.env.single_action_space
        )

    def reset(self) -> np.ndarray:
        """Start every game afresh (with the seed ``seed(n)`` gave, if any)."""
        seed = self._seeds[0]
        obs, info = self.env.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self._rows(info)
        self._actions = None
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the learner's ids for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Play the ids :meth:`step_async` kept."""
        actions = self._actions
        if actions is None:
            raise InvalidArgumentError("step_async(actions) comes before step_wait()")
        self._actions = None
        if actions.ndim == 2 and actions.shape[1] == 1:
            actions = actions[:, 0]  # a policy's (n, 1) ids
        obs, rewards, terminated, truncated, info = self.env.step(actions)
        dones = terminated | truncated
        infos = self._rows(info)
        if dones.any():
            returns = info["final_info"]["return"]
            blank = np.zeros(self.env.games.observation_size, np.float32)
            for i in np.flatnonzero(dones).tolist():
                infos[i]["terminal_observation"] = blank
                infos[i]["TimeLimit.truncated"] = bool(truncated[i])
                infos[i]["return"] = float(returns[i])
        return obs, rewards, dones, infos

    def _rows(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        masks = info["action_mask"]
        seats = info["seat"]
        return [{"seat": int(seats[i]), "action_mask": masks[i]} for i in range(self.env.num_envs)]

    def close(self) -> None:
        """Nothing to release."""
        self.env.close()

    def _indices(self, indices: Any) -> list[int]:
        n = self.num_envs
        if indices is None:
            return list(range(n))
        if isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
            chosen = [int(indices)]
        elif isinstance(indices, Iterable):
            chosen = [int(i) for i in indices]
        else:
            raise InvalidArgumentError(f"indices are None, a game or games, not {excerpt(indices)}")
        if any(not 0 <= i < n for i in chosen):
            raise InvalidArgumentError(f"a game is 0..{n - 1}, not one of {excerpt(chosen)}")
        return chosen

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The underlying environment's attribute, once per game asked for."""
        value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set the underlying environment's attribute: every game shares it, so
        ``indices`` must be all of them (or None)."""
        if sorted(self._indices(indices)) != list(range(self.num_envs)):
            raise InvalidArgumentError(
                f"{attr_name} is shared by every game: set it for all of them (indices=None)"
            )
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` (each game's legal ids as booleans), or another method of
        the underlying environment whose answer has one row per game."""
        rows = self._indices(indices)
        answer = getattr(self.env, method_name)(*method_args, **method_kwargs)
        if not isinstance(answer, (np.ndarray, Sequence)) or len(answer) != self.num_envs:
            raise InvalidArgumentError(
                f"{method_name} does not answer game by game: call it on .env"
            )
        return [answer[i] for i in rows]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        """No game is wrapped."""
        return [False for _ in self._indices(indices)]
