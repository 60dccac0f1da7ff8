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
a tensor of the seat (float32), and ``action_mask``, one int8 per action id, 1
where legal for the agent to act (``obs["action_mask"].view(bool).nonzero()[0]``
lists those ids: numpy scans a bool view several times as fast as int8).
``observation`` picks the tensor:
``"information_state"`` (the default: the view of the hand in play,
:func:`binocle.encoding.information_state_tensor`), ``"observation"`` (the
compact view of the present) or ``"perfect_recall"`` (everything the seat saw
and did this episode, :func:`binocle.encoding.perfect_recall_tensor`).  With
``normalised=True`` points and counts are scaled
(:func:`binocle.encoding.tensor_scale`).  The Box bounds are finite except for
points (:func:`binocle.encoding.tensor_bounds`).  Chance (the deals, the classic stock draws) is drawn from the
generator that ``reset(seed=...)`` seeds, so a seed fixes the episode.  An
episode plays ``hands`` hands (default 1) or ends with the game.

``dealer`` is the seat that deals the episode's first hand (default 0), or
``"rotate"`` (each reset the next seat, starting at 0; a seeded reset starts
again at 0) or ``"random"`` (drawn at each reset from the seeded generator).
A reset with a seed is a new environment's first reset: the same seed gives
the same episode, dealer included, whatever came before.  ``reward`` is ``"score"`` (the default:
score changes, paid at the step that ends a hand), ``"normalised"`` (the same
scaled into [-1, 1]) or ``"win"`` (+1 to the winner, -1 to the others, at the
end; see :func:`binocle.encoding.episode_returns`).

An action is an id: a Python int or a numpy integer.  Anything else (a float,
a bool, text) raises :class:`binocle.InvalidArgumentError`; an illegal id raises
:class:`binocle.IllegalActionError`.  A refused step changes nothing, not even
the rewards an agent has not yet collected.  A seed is None or a whole number
from 0, and an agent one of ``possible_agents``: another seed given to
``reset``, or another agent given to ``observe``, ``action_space`` or
``observation_space``, raises :class:`binocle.InvalidArgumentError`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from binocle import encoding as E
from binocle.encoding._arrays import dense_mask, dense_observation, generator_seed
from binocle.encoding._dense import DenseWriter
from binocle.encoding._episode import WalkedEpisode
from binocle.encoding._fast import FastEncoder
from binocle.encoding._rewards import walk_returns
from binocle.encoding._walk import CHANCE, END, Walk
from binocle.errors import InvalidArgumentError, excerpt
from binocle.profiles import get_profile

__all__ = ["env", "raw_env"]

#: The tensors an observation can be.
_OBSERVATIONS = ("information_state", "observation", "perfect_recall")


def env(profile: Any = "cutthroat", **kwargs: Any) -> AECEnv:
    """The environment for ``profile`` (name or profile) with options by keyword,
    wrapped in PettingZoo's order-enforcing wrapper.

    Keywords besides the profile's options: ``hands`` (default 1), ``dealer``
    (a seat, ``"rotate"`` or ``"random"``; default 0), ``reward`` (``"score"``,
    ``"normalised"`` or ``"win"``), ``observation`` (``"information_state"``,
    ``"observation"`` or ``"perfect_recall"``), ``normalised`` (False or True)
    and ``render_mode`` (None, ``"ansi"``: :meth:`~raw_env.render` returns the text,
    or ``"human"``: it prints it).
    """
    return _Ordered(raw_env(profile, **kwargs))


class _Ordered(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, its checks unchanged, with the calls of a
    training loop (``agent_iter``, ``last``, ``step`` and the attributes they read)
    going straight to the environment instead of through the wrapper's attribute
    lookup, which costs a loop a fifth of its time."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        out: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return out

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _Agents(self.env, max_iter)


class _Agents:
    """The agents to act, one per step, while any is left (``agent_iter``)."""

    def __init__(self, env: raw_env, max_iter: int) -> None:
        self.env = env
        self.left = max_iter

    def __iter__(self) -> _Agents:
        return self

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        agent: str = env.agent_selection
        return agent


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
        dealer: int | str = 0,
        reward: str = "score",
        observation: str = "information_state",
        normalised: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise InvalidArgumentError(
                f"render_mode is None, 'ansi' or 'human', not {excerpt(render_mode)}"
            )
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidArgumentError(
                f"hands must be a positive whole number, not {excerpt(hands)}"
            )
        self.profile = get_profile(profile, **options)
        n = self.profile.players
        if dealer not in ("rotate", "random") and (
            isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n
        ):
            raise InvalidArgumentError(
                f"dealer is a seat 0..{n - 1}, 'rotate' or 'random', not {excerpt(dealer)}"
            )
        self.dealer = dealer
        self.reward = E.check_reward(reward)
        if observation not in _OBSERVATIONS:
            raise InvalidArgumentError(
                f"observation is one of {', '.join(_OBSERVATIONS)}, not {excerpt(observation)}"
            )
        if not isinstance(normalised, bool):
            raise InvalidArgumentError(f"normalised is True or False, not {excerpt(normalised)}")
        self.observation_kind = observation
        self.normalised = normalised
        self._resets = 0
        self.hands = hands
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"binocle_{self.profile.name}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(n)]
        size = E.num_distinct_actions(self.profile)
        low, high = E.tensor_bounds(self.profile, observation, hands, normalised)
        self._scale = np.asarray(E.tensor_scale(self.profile, observation, hands), np.float32)
        box_low, box_high = np.asarray(low, np.float32), np.asarray(high, np.float32)
        self._action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(size) for a in self.possible_agents
        }
        self._space_seed: int | None = None  # a reset's seed, not yet given to them
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(box_low, box_high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        # The episode, stepped in place (``_walk``); ``episode`` is made from it when read.
        self._snap: E.Episode | None
        self._walk: Walk
        self.episode = E.Episode.new(self.profile, hands=hands)
        # The tensors read from the state (the information state or the observation).
        self._writer = DenseWriter(
            FastEncoder(self.profile, full=observation == "information_state")
        )
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        # The walk the returns were last paid on (another is an episode set from
        # outside), those returns, and the scores they were read from.
        self._paid: tuple[Walk, tuple[float, ...], object] = (self._walk, (), None)
        self._rng = np.random.default_rng()
        self.agents: list[str] = []

    episode = WalkedEpisode(
        """The episode played (a :class:`binocle.encoding.Episode`); setting it plays on
        from the one set."""
    )

    @property
    def action_spaces(self) -> dict[str, spaces.Space[Any]]:
        """Each agent's action space; after ``reset(seed=s)``, agent ``i``'s is seeded
        with ``s + i`` (when first read: a seed costs more than most steps)."""
        seed = self._space_seed
        if seed is not None:
            self._space_seed = None
            for i, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + i)
        return self._action_spaces

    @action_spaces.setter
    def action_spaces(self, spaces_: dict[str, spaces.Space[Any]]) -> None:
        self._action_spaces = spaces_
        self._space_seed = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observation space (an agent not of this game raises
        :class:`~binocle.InvalidArgumentError`)."""
        self._seat(agent)  # an agent of this game, or refused
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s action space (an agent not of this game raises
        :class:`~binocle.InvalidArgumentError`)."""
        self._seat(agent)  # an agent of this game, or refused
        return self.action_spaces[agent]

    def _seat(self, agent: Any) -> int:
        """The seat of ``agent``, one of :attr:`possible_agents`."""
        try:
            return self._seats[agent]
        except (KeyError, TypeError):  # not an agent's name, or not hashable
            raise InvalidArgumentError(
                f"an agent is one of {', '.join(self.possible_agents)}, not {excerpt(agent)}"
            ) from None

    # -- episode ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode: the dealer's deal, then the first agent to act is
        selected.  ``seed`` (None, or a whole number from 0) seeds the generator of
        its chance and of the random dealers, and the action spaces, and starts the
        ``"rotate"`` rotation again: a seeded reset is a new environment's first,
        so a seed fixes the episode, dealer included.  Anything else raises
        :class:`~binocle.InvalidArgumentError` and changes nothing."""
        seed = generator_seed(seed)
        if seed is not None:
            # A seeded reset is a new environment's first: the rotation starts again.
            self._rng = np.random.default_rng(seed)
            self._space_seed = seed
            self._resets = 0
        if self.dealer == "random":
            seat = int(self._rng.integers(self.profile.players))
        elif self.dealer == "rotate":
            seat = self._resets % self.profile.players
        else:
            seat = int(self.dealer)
        self._resets += 1
        walk = self._walk = E.Episode.new(self.profile, hands=self.hands, dealer=seat)._walk()
        self._chance(walk)
        self._snap = None
        self._paid = (walk, walk_returns(walk, self.reward), walk.raw.scores)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_at(walk.where())

    def _chance(self, walk: Walk) -> None:
        """Draw chance outcomes from the seeded generator until someone decides.

        Each outcome is drawn as :meth:`~binocle.encoding.Episode.chance_outcomes`
        weighs them (one uniform number a card, walked down the outcomes in
        order), a deal or a draw at a time."""
        while walk.is_chance():
            walk.draw(self._rng.random(walk.to_draw()).tolist())

    def _agent_at(self, at: int) -> str:
        """The agent selected where the walk stands at ``at`` (a seat, or the first
        agent where nobody acts: the episode is over)."""
        return self.possible_agents[0 if at < 0 else at]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation (None unless ``observe``), its reward since
        it last acted, whether its episode ended or was cut short, and its info."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        walk, before, scores = self._paid
        if walk is not self._walk:  # the episode was set from outside
            walk = self._walk
            before = walk_returns(walk, self.reward)
            scores = None
        # Refused (a bad or illegal id): nothing changes, uncollected rewards stay.
        at = walk.apply(action)
        self._snap = None
        if at == CHANCE:
            self._chance(walk)
            at = walk.where()
        self._cumulative_rewards[agent] = 0.0
        over = at == END
        if walk.raw.scores is scores and not over:
            # Nothing a return reads has moved (the scores are the same tuple; a
            # win or a loss is paid at the end): nobody is paid, nothing accumulates.
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
        else:
            after = walk_returns(walk, self.reward)
            self._paid = (walk, after, walk.raw.scores)
            self.rewards = {a: after[i] - before[i] for i, a in enumerate(self.possible_agents)}
            if over:
                self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = self._agent_at(at)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation now: its tensor and its action mask (an agent not
        of this game raises :class:`~binocle.InvalidArgumentError`)."""
        seat = self._seat(agent)
        if self.observation_kind == "perfect_recall":
            tensor = np.asarray(E.perfect_recall_tensor(self.episode, seat), np.float32)
            writer = self._writer
            walk = self._walk
            ours = walk.where() == seat
            mask = dense_mask(writer.mask(walk.legal_ids()) if ours else writer.no_ids)
        else:
            # The state's tensor and the mask (from the walk's own ids, kept until it
            # moves) are written as bytes in compiled code, one after the other, and
            # handed to numpy as two arrays over one new buffer.
            writer = self._writer
            tensor, mask = dense_observation(
                writer.observation(self._walk, seat), writer.encoder.size
            )
        if self.normalised:
            tensor /= self._scale
        return {"observation": tensor, "action_mask": mask}

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
