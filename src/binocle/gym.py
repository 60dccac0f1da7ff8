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
from binocle.encoding._arrays import dense_mask, dense_tensor, generator_seed
from binocle.encoding._dense import DenseWriter
from binocle.encoding._fast import FastEncoder
from binocle.encoding._recall import tensor_bounds, tensor_scale
from binocle.encoding._strings import observation_string
from binocle.errors import IllegalActionError, InvalidArgumentError, RuleCode, excerpt, is_finite
from binocle.game import apply, legal_actions, observe, start
from binocle.profiles import get_profile, profile_names

__all__ = ["IDS", "BinocleEnv"]

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
    PettingZoo's and OpenSpiel's ``normalised`` do.
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
        **options: Any,
    ) -> None:
        self.profile = get_profile(profile, **options)
        players = self.profile.players
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
            resolve_bot(spec, seed=0, fresh=True)  # refused now, not at the first reset
        self._specs = specs
        self.seat_rule = seat
        self.dealer_rule = dealer
        self.hands = hands
        self.illegal = illegal
        self.render_mode = render_mode
        self._encoder = FastEncoder(self.profile)
        self._writer = DenseWriter(self._encoder)
        size = self._encoder.size
        self.action_space = spaces.Discrete(self._encoder.num_actions)
        self.normalised = normalised
        self._scale: np.ndarray | None = None
        if normalised:
            self._scale = np.asarray(tensor_scale(self.profile, "observation"), np.float32)
            low, high = tensor_bounds(self.profile, "observation", normalised=True)
            box_low = np.clip(np.asarray(low, np.float32), -_BOUND, _BOUND)
            box_high = np.clip(np.asarray(high, np.float32), -_BOUND, _BOUND)
            self.observation_space = spaces.Box(box_low, box_high, dtype=np.float32)
        else:
            # Counts and flags lie in 0..2; points and scores far within a million.
            self.observation_space = spaces.Box(-_BOUND, _BOUND, (size,), np.float32)
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
                    f"action id {excerpt(int(action))} is not legal now", RuleCode.NOT_LEGAL, None,
                    self.seat,
                )  # fmt: skip
            assert not isinstance(self.illegal, str)
            self._ended = True
            self._legal = {}
            return self._observation(), float(self.illegal), True, False, self._info(True)
        before = s.scores[self.seat]
        s, over = self._until_learner(apply(s, chosen))
        self.state = s
        reward = float(s.scores[self.seat] - before)
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


for _profile, _id in IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point=BinocleEnv, kwargs={"profile": _profile})
