"""A Gymnasium environment: one seat learns, the library's bots hold the others
(extra ``binocle[pettingzoo]``, which brings Gymnasium).

>>> from binocle.gym import BinocleEnv
>>> env = BinocleEnv("cutthroat", opponents="baseline")
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].shape, env.action_space.n
((189,), (332,), np.int64(332))
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The observation is the seat's observation tensor
(:func:`binocle.encoding.observation_tensor`, float32), the action an id of
the profile's action space (:func:`binocle.encoding.action_space`);
``info["action_mask"]`` (int8, 1 where legal) says which ids are legal now.
The other seats are played by bots: a name for :func:`binocle.bots.make_bot`, a
bot spec as :func:`binocle.bots.resolve_bot` reads it, a :class:`~binocle.bots.Bot`
object or a factory, or one of these per other seat.  The reward is the
learner's score change since its previous decision; an episode plays
``hands`` hands (or ends with the game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from binocle.actions import Action
from binocle.bots import Bot, resolve_bot
from binocle.core import GameState, Phase
from binocle.encoding._actions import action_id, action_labels
from binocle.encoding._arrays import dense_mask, dense_tensor, generator_seed
from binocle.encoding._dense import DenseWriter
from binocle.encoding._fast import WAIT, FastEncoder
from binocle.encoding._recall import tensor_bounds, tensor_scale
from binocle.encoding._rewards import reward_bounds
from binocle.encoding._strings import observation_string
from binocle.errors import (
    IllegalActionError,
    InvalidArgumentError,
    RuleCode,
    excerpt,
    is_finite,
    is_whole,
)
from binocle.game import apply, legal_actions, observe, start
from binocle.profiles import get_profile, profile_names
from binocle.vector import VectorEnv, _ids

__all__ = ["IDS", "BinocleEnv", "BinocleVectorEnv"]

#: The ids this module registers with Gymnasium, by profile: ``gymnasium.make(id, **kwargs)``
#: makes a :class:`BinocleEnv` of that profile (the keywords as the class takes them).
IDS = {
    "cutthroat": "binocle/Cutthroat-v0",
    "classic": "binocle/Classic-v0",
    "three-handed": "binocle/ThreeHanded-v0",
}
# Every other profile of the registry: its id from its name.
for _name in profile_names():
    IDS.setdefault(_name, "binocle/" + "".join(w.capitalize() for w in _name.split("-")) + "-v0")

_DEAL = Phase.DEAL
_BOUND = 1e7
_OVER = Phase.OVER


class BinocleEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of ``profile`` (a name or a profile; its options by keyword) against bots.

    ``opponents``: the bots of the other seats (default ``"random"``), one spec for
    all or a sequence of one per other seat in seat order; each is made afresh,
    seeded from the environment's generator, at every reset.  ``seat``: the
    learner's seat, or ``"random"`` (drawn each episode).  ``dealer``:
    ``"rotate"`` (the dealer moves on every episode; a reset with a seed starts
    the rotation again, so a seed fixes the episode), ``"random"`` or a seat.
    ``hands``: hands an episode plays.  ``illegal``: what an id that is not
    legal does: ``"raise"`` (:class:`~binocle.IllegalActionError`, nothing
    changes) or a reward (a finite number): the episode ends at once with that reward
    and ``info["illegal"]`` True (tools that sample any id, as Gymnasium's
    ``check_env`` does, need this).  ``render_mode``: None, ``"ansi"`` (the
    seat's view as text) or ``"human"`` (that text printed).  ``normalised``:
    True divides points and counts by :func:`binocle.encoding.tensor_scale`
    (the observation Box then has the bounds
    :func:`binocle.encoding.tensor_bounds` gives, points within ±1e7), as
    PettingZoo's and OpenSpiel's ``normalised`` do.  ``reward``: ``"score"`` (the
    learner's score change since its previous decision) or ``"normalised"`` (the
    same divided by the larger magnitude of :func:`binocle.encoding.reward_bounds`,
    so an episode's return lies in [-1, 1]).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - Gymnasium reads it

    def __init__(
        self,
        profile: Any = "cutthroat",
        *,
        opponents: Any = "random",
        seat: int | str = 0,
        dealer: int | str = "rotate",
        hands: int = 1,
        illegal: str | float = "raise",
        render_mode: str | None = None,
        normalised: bool = False,
        reward: str = "score",
        **options: Any,
    ) -> None:
        self.profile = get_profile(profile, **options)
        players = self.profile.players
        if reward not in ("score", "normalised"):
            raise InvalidArgumentError(f"reward is 'score' or 'normalised', not {excerpt(reward)}")
        if render_mode not in (None, "ansi", "human"):
            raise InvalidArgumentError(
                f"render_mode is None, 'ansi' or 'human', not {excerpt(render_mode)}"
            )
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidArgumentError(
                f"hands must be a positive whole number, not {excerpt(hands)}"
            )
        checks = (("seat", seat, ("random",)), ("dealer", dealer, ("rotate", "random")))
        for what, value, words in checks:
            if value not in words and (
                isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players
            ):
                raise InvalidArgumentError(
                    f"{what} is {' or '.join(map(repr, words))} or a seat 0..{players - 1},"
                    f" not {excerpt(value)}"
                )
        if not isinstance(normalised, bool):
            raise InvalidArgumentError(f"normalised is True or False, not {excerpt(normalised)}")
        if illegal != "raise" and not is_finite(illegal):
            raise InvalidArgumentError(
                f"illegal is 'raise' or a finite reward, not {excerpt(illegal)}"
            )
        self._specs = _opponent_specs(opponents, players)
        self.seat_rule = seat
        self.dealer_rule = dealer
        self.hands = hands
        self.illegal = illegal
        self.reward = reward
        self._reward_scale = _reward_scale(self.profile, hands, reward)
        self.render_mode = render_mode
        self._encoder = FastEncoder(self.profile)
        self._writer = DenseWriter(self._encoder)
        size = self._encoder.size
        self.action_space = spaces.Discrete(self._encoder.num_actions)
        self.normalised = normalised
        self._scale: np.ndarray | None = None
        if normalised:
            self._scale = np.asarray(tensor_scale(self.profile, "observation"), np.float32)
        self.observation_space = _observation_box(self.profile, normalised, size)
        self._episodes = 0
        self.seat = 0 if seat == "random" else int(seat)
        self.state: GameState | None = None
        self._bots: dict[int, Bot] = {}
        self._legal: dict[int, Action] = {}
        self._mask = self._writer.no_ids  # the legal ids' mask as bytes, one an id
        self._first = 0
        self._ended = False

    # -- episodes ------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode: deal, let the bots act until the learner's turn.

        ``seed`` is None or a whole number from 0; anything else raises
        :class:`~binocle.InvalidArgumentError` and changes nothing."""
        super().reset(seed=generator_seed(seed))
        if seed is not None:
            self._episodes = 0  # a seed fixes the episodes from here, dealers too
        rng = self.np_random
        players = self.profile.players
        if self.seat_rule == "random":
            self.seat = int(rng.integers(players))
        if self.dealer_rule == "rotate":
            dealer = self._episodes % players
        elif self.dealer_rule == "random":
            dealer = int(rng.integers(players))
        else:
            dealer = int(self.dealer_rule)
        self._episodes += 1
        others = [p for p in range(players) if p != self.seat]
        self._bots = {
            p: resolve_bot(spec, seed=int(rng.integers(1 << 62)), fresh=True)
            for p, spec in zip(others, self._specs, strict=True)
        }
        s = start(self.profile, int(rng.integers(1 << 62)), dealer)
        s = apply(s, legal_actions(s)[0])
        self._first = 0
        self._ended = False
        self.state, _ = self._until_learner(s)
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def _over(self, s: GameState) -> bool:
        return (
            self._ended
            or s.phase is _OVER
            or (s.phase is _DEAL and len(s.results) - self._first >= self.hands)
        )

    def _until_learner(self, s: GameState) -> tuple[GameState, bool]:
        """Play the bots and the deals until the learner decides or the episode ends."""
        while not self._over(s):
            p = s.current_player
            if p == self.seat:
                return s, False
            if p is None:
                s = apply(s, legal_actions(s)[0])
            else:
                s = apply(s, self._bots[p].choose(observe(s, p)))
        return s, True

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's id; the bots answer until its next turn or the end."""
        s = self.state
        if s is None:
            raise InvalidArgumentError("reset() the environment before its first step")
        if self._over(s):
            raise IllegalActionError("the episode is over: reset() it", RuleCode.GAME_OVER)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidArgumentError(f"an action id is a whole number, not {excerpt(action)}")
        chosen = self._legal.get(int(action))
        if chosen is None:
            if self.illegal == "raise":
                raise IllegalActionError(
                    f"action id {excerpt(int(action))} is not legal now (for tools that step"
                    " any id, as Stable-Baselines3's check_env does, give illegal= a reward)",
                    RuleCode.NOT_LEGAL, None, self.seat,
                )  # fmt: skip
            assert not isinstance(self.illegal, str)
            self._ended = True
            self._legal = {}
            return self._observation(), float(self.illegal), True, False, self._info(True)
        before = s.scores[self.seat]
        s, over = self._until_learner(apply(s, chosen))
        self.state = s
        reward = (s.scores[self.seat] - before) / self._reward_scale
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    # -- what the learner sees -------------------------------------------------------

    def _observation(self) -> np.ndarray:
        s = self.state
        assert s is not None
        tensor = dense_tensor(self._writer.tensor(s, self.seat)[0])
        if self._scale is not None:
            tensor /= self._scale
        return tensor

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        s = self.state
        assert s is not None
        self._legal = {}
        if not illegal and not self._over(s) and s.current_player == self.seat:
            self._legal = self._encoder.legal(s, legal_actions(s))
        self._mask = self._writer.mask(tuple(self._legal))
        return {"action_mask": dense_mask(self._mask), "seat": self.seat, "illegal": illegal}

    def action_masks(self) -> np.ndarray:
        """The legal ids now, as booleans (the method masked-policy libraries call)."""
        return dense_mask(self._mask).view(np.bool_)

    def render(self) -> str | None:
        """The learner's view as text: returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.state is None:
            raise InvalidArgumentError("reset() the environment before rendering it")
        text = observation_string(observe(self.state, self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class BinocleVectorEnv(gymnasium.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``profile`` in which one seat learns, stepped together: a
    Gymnasium vector environment (and, through :class:`binocle.sb3.BinocleVecEnv`, a
    Stable-Baselines3 ``VecEnv``).

    The games are those of :class:`binocle.vector.VectorEnv` (the same deals and
    arrays); each :meth:`step` takes one id per game for the learner's seat, plays
    it, then plays the other seats until the learner is to decide again in every
    game.  The observation is the learner's observation tensor
    (:func:`binocle.encoding.observation_tensor`), the action an id of
    :func:`binocle.encoding.action_space`; ``info["action_mask"]`` (and
    :meth:`action_masks`) marks the legal ids, :meth:`legal_ids` gives them in
    sparse form.

    ``opponents``: the other seats' bots, as :class:`BinocleEnv` takes them (one
    spec for all, or one per other seat in seat order from the learner's next seat;
    made afresh at every reset, one per game and seat, seeded from the environment's
    generator).  The word
    ``"random"`` plays as :class:`~binocle.bots.RandomBot` does (uniform among the
    legal ids, claims and concessions only when nothing else is legal), drawn for
    all games at once; any other bot decides game by game from its seat's
    :class:`~binocle.View`, at the bot's own speed.  ``opponent_policy``: a
    function of ``(observations, masks)`` (the rows of the games where another
    seat is to decide: float32 observations of that seat, normalised as the
    learner's are, and bool masks) returning one id per row; when set, it plays
    every other seat instead of the bots: self-play with a copy of the learner's
    policy.  It may be set or replaced between steps
    (``env.opponent_policy = f``).  An id it returns that is not legal raises
    :class:`~binocle.InvalidArgumentError`, and the environment must then be
    reset.

    ``seat``: the learner's seat, or ``"random"`` (drawn for each game's each
    episode).  ``dealer``, ``hands`` and ``seed`` as for
    :class:`~binocle.vector.VectorEnv` (a seed fixes every game's episodes,
    dealers and seats included, and the bots' seeds).  ``reward``: ``"score"``
    (the learner's score change since its previous decision), ``"normalised"``
    (the same divided by the larger magnitude of
    :func:`binocle.encoding.reward_bounds`, so an episode's return lies in
    [-1, 1]) or ``"margin"`` (its score change less the mean of the other side's
    seats', in points: a zero-sum reward, winning by more counting more).  ``normalised``: observations divided by
    :func:`binocle.encoding.tensor_scale`, as :class:`BinocleEnv` does.
    ``copy``: return new arrays from :meth:`reset` and :meth:`step` (the default,
    as Gymnasium's vector environments do); False returns the environment's
    own, written again by the next step.

    Episodes reset themselves in the step that ends them (Gymnasium's
    ``SAME_STEP`` autoreset): that row's ``terminated`` is True, its
    observation is the next episode's first, ``info["final_info"]["return"]``
    holds the finished episode's return and ``info["final_obs"]`` a zero
    observation (the position after the last trick is not shown: an episode
    always ends by termination, never by truncation, so no learner bootstraps
    from it).  An episode that ends before the learner's first decision (the
    other seats conceded, say) is passed over.  ``truncated`` is always False.

    >>> env = BinocleVectorEnv("cutthroat", num_envs=8, seed=1)
    >>> obs, info = env.reset()
    >>> obs.shape, info["action_mask"].shape
    ((8, 189), (8, 332))
    >>> ids, starts = env.legal_ids()
    >>> obs, rewards, terminated, truncated, info = env.step(ids[starts[:-1]])
    >>> rewards.shape, bool(truncated.any())
    ((8,), False)
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012 - Gymnasium reads it

    def __init__(
        self,
        profile: Any = "cutthroat",
        num_envs: int = 256,
        *,
        opponents: Any = "random",
        opponent_policy: Any = None,
        seat: int | str = 0,
        dealer: int | str = "rotate",
        hands: int = 1,
        reward: str = "score",
        normalised: bool = False,
        copy: bool = True,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        games = VectorEnv(profile, num_envs, hands=hands, dealer=dealer, seed=seed, **options)
        self.games = games
        self.profile = games.profile
        players = games.num_players
        n = self.num_envs = games.num_envs
        if seat != "random" and not (is_whole(seat) and 0 <= seat < players):
            raise InvalidArgumentError(
                f"seat is 'random' or a seat 0..{players - 1}, not {excerpt(seat)}"
            )
        if reward not in ("score", "normalised", "margin"):
            raise InvalidArgumentError(
                f"reward is 'score', 'normalised' or 'margin', not {excerpt(reward)}"
            )
        for what, flag in (("normalised", normalised), ("copy", copy)):
            if not isinstance(flag, bool):
                raise InvalidArgumentError(f"{what} is True or False, not {excerpt(flag)}")
        if opponent_policy is not None and not callable(opponent_policy):
            raise InvalidArgumentError(
                "opponent_policy is None or a function of (observations, masks),"
                f" not {excerpt(opponent_policy)}"
            )
        self._specs = _opponent_specs(opponents, players)
        self._fast_random = all(spec == "random" for spec in self._specs)
        self.opponent_policy = opponent_policy
        self.seat_rule = seat
        self.reward = reward
        self.normalised = normalised
        self.copy = copy
        self._reward_scale = _reward_scale(self.profile, hands, reward)
        # Each seat's reward from every seat's score change: its own, less under
        # "margin" the mean of the other side's (the other seats where each plays alone).
        weights = np.eye(players)
        if reward == "margin":
            for seat in range(players):
                side = self.profile.side_of(seat)
                others = [p for p in range(players) if p not in side]
                weights[seat, others] -= 1.0 / len(others)
        self._weights = weights.T
        self._scale: np.ndarray | None = None
        single = _observation_box(self.profile, normalised, games.observation_size)
        if normalised:
            self._scale = np.asarray(tensor_scale(self.profile, "observation"), np.float32)
        self.single_observation_space = single
        self.observation_space = gymnasium.vector.utils.batch_space(single, n)
        self.single_action_space = spaces.Discrete(games.num_actions)
        self.action_space = spaces.MultiDiscrete(np.full(n, games.num_actions, np.int64))
        self._rng = _own_generator(seed)
        self.seats = np.zeros(n, np.int64)
        self._rows = np.arange(n)
        self._carry = np.zeros(n, np.float64)  # rewards of episodes not yet decided in
        self._returns = np.zeros(n, np.float64)
        self._bots: list[dict[int, Bot]] = []
        # The ids the random bot takes while any is legal: all but claims and concessions.
        enders = ("claim", "concede")
        self._calm = np.array(
            [not label.startswith(enders) for label in action_labels(self.profile)]
        )
        self._ready = False
        self._observed = True  # the games' observations are written for their state
        #: The decisions made in the games so far, every seat's (the learner's ids
        #: and the other seats' moves), for counting agent steps.
        self.agent_steps = 0

    # -- episodes ------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new episode in every game and play the other seats until the learner
        is to decide in each; return ``(observations, info)``.

        ``seed`` (None or a whole number from 0; anything else raises
        :class:`~binocle.InvalidArgumentError` and changes nothing) makes the reset
        a new environment's first, as :class:`~binocle.vector.VectorEnv` does."""
        if seed is not None:
            self._rng = _own_generator(seed)
        self._ready = False
        self.games.reset(seed)
        players = self.games.num_players
        if self.seat_rule == "random":
            self.seats[:] = self._rng.integers(players, size=self.num_envs)
        else:
            self.seats[:] = int(self.seat_rule)
        self._bots = []
        if not self._fast_random:
            for _ in range(self.num_envs):
                self._bots.append(self._make_bots())
        self._carry[:] = 0
        self._returns[:] = 0
        n = self.num_envs
        # Nobody has decided yet: what the other seats do goes to the first step's reward.
        self._observed = True  # the reset wrote them
        self._until_learner(np.zeros(n), np.ones(n, np.bool_), np.zeros(n))
        self._ready = True
        return self._observations(), self._info(None, None)

    def _make_bots(self) -> dict[int, Bot]:
        rng = self._rng
        return {
            p: resolve_bot(spec, seed=int(rng.integers(1 << 62)), fresh=True)
            for p, spec in zip(range(1, self.games.num_players), self._specs, strict=True)
        }

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play the learner's id in every game (``actions``: ``num_envs`` whole
        numbers), then the other seats until the learner decides again; return
        ``(observations, rewards, terminated, truncated, info)``.

        An id that is not legal in its game raises :class:`~binocle.IllegalActionError`
        naming the game, and no game moves."""
        if not self._ready:
            raise InvalidArgumentError("reset() the environment before its first step")
        games = self.games
        ids = _learner_ids(actions, self.num_envs)
        self._ready = False  # until the step is over: a refused opponent leaves it so
        try:
            self._observed = self.opponent_policy is not None
            games._step_some(ids, observe=self._observed)
        except BaseException:
            self._ready = True  # the learner's ids were refused: nothing moved
            raise
        self.agent_steps += self.num_envs
        rewards = self._carry.copy()
        self._carry[:] = 0
        ended = np.zeros(self.num_envs, np.bool_)
        finals = np.zeros(self.num_envs, np.float64)
        self._account(rewards, ended, finals)
        self._until_learner(rewards, ended, finals)
        self._ready = True
        rewards /= self._reward_scale
        return (
            self._observations(),
            rewards.astype(np.float32),
            ended,
            np.zeros(self.num_envs, np.bool_),
            self._info(ended, finals),
        )

    def _account(self, rewards: np.ndarray, ended: np.ndarray, finals: np.ndarray) -> None:
        """Add the games' last step to the learner's rewards: to ``rewards`` in the games
        whose learner's episode goes on, else (``ended``) to the next episode's first
        reward; an episode ending now puts its return in ``finals`` and joins ``ended``."""
        games = self.games
        step = (games.rewards.astype(np.float64) @ self._weights)[self._rows, self.seats]
        live = ~ended
        rewards[live] += step[live]
        self._carry[ended] += step[ended]
        self._returns += step  # the episode each game's step belongs to
        done = games.dones
        if done.any():
            newly = done & live
            finals[newly] = self._returns[newly] / self._reward_scale
            ended |= newly
            self._carry[done & ~live] = 0  # an episode the learner never decided in
            self._returns[done] = 0
            if self.seat_rule == "random":
                drawn = self._rng.integers(self.games.num_players, size=self.num_envs)
                self.seats[done] = drawn[done]

    def _until_learner(self, rewards: np.ndarray, ended: np.ndarray, finals: np.ndarray) -> None:
        """Play the other seats until the learner is to decide in every game."""
        games = self.games
        while True:
            others = games.current_player != self.seats
            if not others.any():
                if not self._observed:
                    games._write()
                return
            ids = self._opponent_ids(others)
            # The other seats' observations are written only for a policy that reads them.
            self._observed = self.opponent_policy is not None
            games._step_some(ids, observe=self._observed)
            self.agent_steps += int(others.sum())
            self._account(rewards, ended, finals)

    def _opponent_ids(self, others: np.ndarray) -> list[int]:
        """One id per game: the other seat's choice where ``others``, else WAIT."""
        games = self.games
        ids = np.full(self.num_envs, WAIT, np.int64)
        rows = np.flatnonzero(others)
        policy = self.opponent_policy
        if policy is not None:
            masks = games.action_masks[rows]
            answer = policy(self._scaled(games.observations[rows]), masks)
            try:
                chosen = np.asarray(answer)
            except (ValueError, TypeError, OverflowError):  # ragged or strange: refused below
                chosen = np.zeros(0, np.float64)
            if chosen.shape != (len(rows),) or chosen.dtype.kind not in "iu":
                raise InvalidArgumentError(
                    f"opponent_policy must return {len(rows)} whole numbers (one per row),"
                    f" not {excerpt(answer)}: reset() the environment"
                )
            legal = (chosen >= 0) & (chosen < games.num_actions)
            legal[legal] = masks[np.flatnonzero(legal), chosen[legal]]
            if not legal.all():
                k = int(np.flatnonzero(~legal)[0])
                raise InvalidArgumentError(
                    f"opponent_policy chose id {excerpt(int(chosen[k]))} in game {int(rows[k])},"
                    " where it is not legal: reset() the environment"
                )
            ids[rows] = chosen
        elif self._fast_random:
            ids[rows] = self._uniform_calm()[rows]
        else:
            for i in rows.tolist():
                seat = int(games.current_player[i])
                view = observe(games.state(i), seat)
                ids[i] = action_id(view, self._bots[i][self._other(seat, i)].choose(view))
        out: list[int] = ids.tolist()
        return out

    def _other(self, seat: int, i: int) -> int:
        """The key of ``seat``'s bot in game ``i`` (the other seats, 1 up, in seat order
        from the learner's)."""
        return (seat - int(self.seats[i])) % self.games.num_players

    def _uniform_calm(self) -> np.ndarray:
        """Every game's uniform choice among its legal ids but claims and concessions
        (taken only when nothing else is legal), as the random bot chooses."""
        n = self.num_envs
        ids, starts = self.games.legal_ids()
        counts = np.diff(starts)
        rows = np.repeat(self._rows, counts)
        allowed = self._calm[ids]
        stuck = np.bincount(rows, allowed, n) == 0
        if stuck.any():
            allowed |= stuck[rows]
        where = np.flatnonzero(allowed)
        counts = np.bincount(rows[where], minlength=n)
        firsts = np.cumsum(counts) - counts
        pick = (self._rng.random(n) * counts).astype(np.intp)
        chosen: np.ndarray = ids[where[np.minimum(firsts + pick, len(where) - 1)]]
        return chosen

    # -- what the learner sees -------------------------------------------------------

    def _scaled(self, observations: np.ndarray) -> np.ndarray:
        if self._scale is None:
            return observations
        out: np.ndarray = observations / self._scale
        return out

    def _observations(self) -> np.ndarray:
        obs = self.games.observations
        if self._scale is not None:
            return self._scaled(obs)
        return obs.copy() if self.copy else obs

    def _info(self, ended: np.ndarray | None, finals: np.ndarray | None) -> dict[str, Any]:
        masks = self.games.action_masks
        info: dict[str, Any] = {
            "action_mask": masks.copy() if self.copy else masks,
            "seat": self.seats.copy(),
        }
        if ended is not None and finals is not None and ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            blank = np.zeros(self.games.observation_size, np.float32)
            for i in np.flatnonzero(ended).tolist():
                final_obs[i] = blank
            info["final_obs"] = final_obs
            info["_final_obs"] = ended.copy()
            info["final_info"] = {"return": finals.astype(np.float32), "_return": ended.copy()}
            info["_final_info"] = ended.copy()
        return info

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids in every game, as booleans (``num_envs`` × ids)."""
        if not self._ready:
            raise InvalidArgumentError("reset() the environment first")
        out: np.ndarray = self.games.action_masks.copy()
        return out

    def legal_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """The learner's legal ids in every game in sparse form, ``(ids, starts)``, as
        :meth:`binocle.vector.VectorEnv.legal_ids` gives them."""
        if not self._ready:
            raise InvalidArgumentError("reset() the environment first")
        return self.games.legal_ids()

    def sample_legal(
        self, avoid: np.ndarray | None = None, rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """One of the learner's legal ids in every game, drawn uniformly (a random
        policy's actions), as :meth:`binocle.vector.VectorEnv.sample_legal` draws them
        (``avoid``, ``rng`` and the errors are its own)."""
        if not self._ready:
            raise InvalidArgumentError("reset() the environment first")
        return self.games.sample_legal(avoid, rng)

    def close(self, **kwargs: Any) -> None:
        """Nothing to release."""


def _opponent_specs(opponents: Any, players: int) -> list[Any]:
    """One bot spec per other seat, each checked now (not at the first reset)."""
    specs: list[Any]
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        specs = [opponents] * (players - 1)
    else:
        specs = list(opponents)
        if len(specs) != players - 1:
            raise InvalidArgumentError(
                f"opponents: one bot for all or {players - 1} (one per other seat),"
                f" not {len(specs)}"
            )
    for spec in specs:
        resolve_bot(spec, seed=0, fresh=True)
    return specs


def _own_generator(seed: Any) -> np.random.Generator:
    """The learner's environment's generator (the seats it draws, the bots' seeds, the
    random bots' choices): a child of ``seed``'s, so that it draws apart from the
    games' own generator seeded alike; ``seed`` checked by ``generator_seed``."""
    return np.random.default_rng(np.random.SeedSequence(generator_seed(seed)).spawn(1)[0])


def _reward_scale(profile: Any, hands: int, reward: str) -> float:
    """What a reward is divided by: the larger magnitude of the score change's bounds
    under ``"normalised"``, else 1."""
    if reward != "normalised":
        return 1.0
    low, high = reward_bounds(profile, hands, "score")
    return float(max(-low, high, 1))


def _observation_box(profile: Any, normalised: bool, size: int) -> spaces.Box:
    """The observation tensor's Box: the normalised bounds, else ±1e7."""
    if normalised:
        low, high = tensor_bounds(profile, "observation", normalised=True)
        box_low = np.clip(np.asarray(low, np.float32), -_BOUND, _BOUND)
        box_high = np.clip(np.asarray(high, np.float32), -_BOUND, _BOUND)
        return spaces.Box(box_low, box_high, dtype=np.float32)
    # Counts and flags lie in 0..2; points and scores far within a million.
    return spaces.Box(-_BOUND, _BOUND, (size,), np.float32)


def _learner_ids(actions: Any, n: int) -> list[int]:
    """The learner's ids, one per game, as whole numbers from 0; anything else refused."""
    ids = _ids(actions, n)
    bad = next((i for i, a in enumerate(ids) if a < 0), None)
    if bad is not None:
        raise IllegalActionError(
            f"game {bad}: action id {excerpt(ids[bad])} is not legal now", RuleCode.NOT_LEGAL
        )
    return ids


for _profile, _id in IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point=BinocleEnv, kwargs={"profile": _profile})
