"""A PettingZoo AEC environment for every profile (extra ``binocle[pettingzoo]``).

>>> from binocle.pettingzoo import env
>>> e = env(profile="cutthroat", single_set=True)
>>> e.reset(seed=42)
>>> e.agents, int(e.action_space("player_0").n)
(['player_0', 'player_1', 'player_2'], 332)
>>> obs = e.observe(e.agent_selection)
>>> obs["observation"].shape, obs["action_mask"].dtype, int(obs["action_mask"].sum()) > 1
((1137,), dtype('int8'), True)

Agents are ``player_0`` … one per seat.  An observation is a dict: ``observation``,
the seat's information-state tensor (:func:`binocle.encoding.information_state_tensor`,
float32), and ``action_mask``, one int8 per action id, 1 where legal for the
agent to act.  Chance (the deals, the classic stock draws) is drawn from the
generator that ``reset(seed=...)`` seeds, so a seed fixes the episode.  An
episode plays ``hands`` hands (default 1) or ends with the game.  Rewards are
score changes, paid at the step that ends a hand; an illegal action raises
:class:`binocle.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from binocle import encoding as E
from binocle.errors import InvalidArgumentError
from binocle.profiles import get_profile

__all__ = ["env", "raw_env"]


def env(profile: Any = "cutthroat", **kwargs: Any) -> AECEnv:
    """The environment for ``profile`` (name or profile) with options by keyword,
    wrapped in PettingZoo's order-enforcing wrapper.

    Keywords besides the profile's options: ``hands`` (default 1) and
    ``render_mode`` (None, ``"ansi"``: :meth:`~raw_env.render` returns the text,
    or ``"human"``: it prints it).
    """
    return wrappers.OrderEnforcingWrapper(raw_env(profile, **kwargs))


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped environment (see :func:`env`)."""

    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "binocle_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        profile: Any = "cutthroat",
        hands: int = 1,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise InvalidArgumentError(
                f"render_mode is None, 'ansi' or 'human', not {render_mode!r}"
            )
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidArgumentError(f"hands must be a positive whole number, not {hands!r}")
        self.profile = get_profile(profile, **options)
        self.hands = hands
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"binocle_{self.profile.name}_v0"}
        n = self.profile.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        size = E.num_distinct_actions(self.profile)
        obs_size = E.tensor_layout(self.profile).size
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (obs_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.episode = E.Episode.new(self.profile, hands=hands)
        self._rng = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.episode = self._chance(E.Episode.new(self.profile, hands=self.hands))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._selected()

    def _chance(self, ep: E.Episode) -> E.Episode:
        """Draw chance outcomes from the seeded generator until someone decides."""
        while ep.is_chance():
            outcomes = ep.chance_outcomes()
            r = self._rng.random()
            pick = outcomes[-1][0]
            for outcome, p in outcomes:
                r -= p
                if r < 0:
                    pick = outcome
                    break
            ep = ep.apply(pick)
        return ep

    def _selected(self) -> str:
        p = self.episode.current_player
        return self.possible_agents[0 if p is None else p]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.episode = self._chance(self.episode.apply(int(action)))
        rewards = self.episode.rewards()
        self.rewards = {a: float(rewards[i]) for i, a in enumerate(self.possible_agents)}
        if self.episode.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._selected()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        view = self.episode.view(seat)
        mask = np.zeros(self.action_spaces[agent].n, np.int8)
        if self.episode.current_player == seat:
            mask[list(self.episode.legal_ids())] = 1
        return {
            "observation": np.asarray(E.information_state_tensor(view), np.float32),
            "action_mask": mask,
        }

    def render(self) -> str | None:
        """The agent to act's view as text: returned (render_mode ``"ansi"``) or
        printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        seat = self.possible_agents.index(self.agent_selection)
        text = E.observation_string(self.episode.view(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
