"""OpenSpiel games: ``python_binocle_cutthroat``, ``python_binocle_classic``, ``python_binocle_three_handed``.

Importing this module registers the three games with ``pyspiel`` (extra
``binocle[openspiel]``).  The adapter decides no rule: :mod:`binocle.encoding`
gives the action ids, the chance outcomes, the tensors and the returns, and
the engine decides what is legal.

>>> import pyspiel
>>> import binocle.openspiel
>>> game = pyspiel.load_game("python_binocle_cutthroat(hands=1,single_set=true)")
>>> game.num_distinct_actions(), game.num_players(), game.max_game_length()
(332, 3, 330)

Game parameters: ``hands`` (how many hands an episode plays, default 1; the
episode also ends when the game does) and every whole-number or true/false
option of the profile, with the profile's defaults.  Returns are the score
changes over the episode; each step's reward is the change since the previous
decision (the reward model is ``REWARDS``).
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np
import pyspiel

from binocle import encoding as E
from binocle.cards import kinds
from binocle.core import Profile
from binocle.determinize import determinize
from binocle.errors import InvalidArgumentError
from binocle.profiles import get_profile

__all__ = [
    "GAMES",
    "BinocleGame",
    "BinocleObserver",
    "BinocleState",
    "ClassicGame",
    "CutthroatGame",
    "ThreeHandedGame",
    "resampler",
]

#: The registered short names, by profile.
GAMES = {
    "cutthroat": "python_binocle_cutthroat",
    "classic": "python_binocle_classic",
    "three-handed": "python_binocle_three_handed",
}

_LONG = {
    "cutthroat": "Python Binocle: cutthroat (three-hand auction Pinochle)",
    "classic": "Python Binocle: classic two-handed Binocle",
    "three-handed": "Python Binocle: three-handed Binocle",
}


def _options(profile: Profile) -> dict[str, Any]:
    """The profile options OpenSpiel can carry (whole numbers and true/false)."""
    return {
        k: v for k, v in get_profile(profile.name).options().items() if isinstance(v, (bool, int))
    }


def _game_type(name: str) -> pyspiel.GameType:
    default = get_profile(name)
    return pyspiel.GameType(
        short_name=GAMES[name],
        long_name=_LONG[name],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=default.players,
        min_num_players=default.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=True,
        parameter_specification={"hands": 1, **_options(default)},
    )


class BinocleGame(pyspiel.Game):  # type: ignore[misc]
    """A binocle profile as an OpenSpiel game (one subclass per profile)."""

    profile_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _GAME_TYPES[self.profile_name]
        merged = {**game_type.parameter_specification, **params}
        hands = int(merged.pop("hands"))
        self.profile = get_profile(self.profile_name, **merged)
        if hands < 1:
            raise InvalidArgumentError(f"hands must be at least 1, not {hands}")
        self.hands = hands
        low, high = E.utility_bounds(self.profile, hands)
        info = pyspiel.GameInfo(
            num_distinct_actions=E.num_distinct_actions(self.profile),
            max_chance_outcomes=len(kinds(self.profile.pack_size)),
            num_players=self.profile.players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            max_game_length=E.max_decisions_per_hand(self.profile) * hands,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> BinocleState:
        """The start of an episode: the first card of the first deal is chance."""
        return BinocleState(self, E.Episode.new(self.profile, hands=self.hands))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BinocleObserver:
        """The observer of an observation type (default: the observation)."""
        return BinocleObserver(
            self.profile, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class BinocleState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a :class:`binocle.encoding.Episode`.

    What OpenSpiel asks many times a step (who acts, whether the episode is over,
    the legal ids, the chance outcomes) is worked out once per step and kept until
    the next action.
    """

    def __init__(self, game: BinocleGame, episode: E.Episode) -> None:
        super().__init__(game)
        self.episode = episode

    @property
    def episode(self) -> E.Episode:
        """The episode this state stands for; setting it starts the state afresh."""
        return self._episode

    @episode.setter
    def episode(self, episode: E.Episode) -> None:
        self._episode = episode
        if episode.is_terminal():
            self._player = _TERMINAL
        elif episode.is_chance():
            self._player = _CHANCE
        else:
            p = episode.state.current_player
            assert p is not None
            self._player = p
        self._legal: list[int] | None = None
        self._outcomes: list[tuple[int, float]] | None = None

    # -- the pyspiel API -----------------------------------------------------------

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player:
            return []
        legal = self._legal
        if legal is None:
            if player == _CHANCE:
                legal = [i for i, _ in self.chance_outcomes()]
            else:
                legal = list(self._episode.legal_ids())
            self._legal = legal
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._outcomes
        if outcomes is None:
            outcomes = self._outcomes = self._episode.chance_outcomes()
        return outcomes

    def _apply_action(self, action: int) -> None:
        self.episode = self._episode.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        action = int(action)
        if player == pyspiel.PlayerId.CHANCE:
            return self.episode.action_label(action)
        labels = E.action_labels(self.episode.profile)
        return labels[action] if 0 <= action < len(labels) else f"?{action}"

    def returns(self) -> list[float]:
        return [float(x) for x in self.episode.returns()]

    def rewards(self) -> list[float]:
        return [float(x) for x in self.episode.rewards()]

    def __str__(self) -> str:
        ep = self.episode
        s = ep.state
        lines = [f"{s.profile.spec()} hand {s.hand_number} phase {s.phase.value}"]
        for i, hand in enumerate(s.hands):
            lines.append(f"seat {i}: {' '.join(map(str, hand))}")
        lines.append("trick " + " ".join(f"{p}:{c}" for p, c in s.trick))
        lines.append("scores " + " ".join(map(str, s.scores)))
        if ep.deck:
            lines.append("chance so far " + " ".join(map(str, ep.deck)))
        return "\n".join(lines)


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


class BinocleObserver:
    """Observation strings and tensors, each from the seat's view alone.

    ``perfect_recall=True`` gives the information state; otherwise the
    observation.  A public-only or private-only observation type gives
    strings only: the public or the private lines of the observation.
    """

    def __init__(self, profile: Profile, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.profile = profile
        self.full = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        self.part = "all"
        if not iig_obs_type.public_info:
            self.part = "private"
        elif private == pyspiel.PrivateInfoType.NONE:
            self.part = "public"
        self.dict: dict[str, np.ndarray] = {}
        self.tensor: np.ndarray | None = None
        if self.part == "all":
            layout = E.tensor_layout(profile, "information_state" if self.full else "observation")
            self.tensor = np.zeros(layout.size, np.float32)
            for name, (start, shape) in layout.offsets().items():
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[start : start + size].reshape(shape)

    def set_from(self, state: BinocleState, player: int) -> None:
        if self.tensor is None:
            return
        view = state.episode.view(player)
        values = E.information_state_tensor(view) if self.full else E.observation_tensor(view)
        self.tensor[:] = values

    def string_from(self, state: BinocleState, player: int) -> str:
        view = state.episode.view(player)
        if self.full:
            return E.information_state_string(view)
        text = E.observation_string(view)
        if self.part == "all":
            return text
        lines = text.split("\n")
        private = [ln for ln in lines if ln.split(" ")[0] in _PRIVATE]
        if self.part == "private":
            return "\n".join(private)
        return "\n".join(ln for ln in lines if ln not in private and not ln.startswith("seat "))


_PRIVATE = ("hand", "concealed", "discards")


def resampler(state: BinocleState, player: int, rng: random.Random | None = None) -> BinocleState:
    """A state sampled among those ``player`` cannot tell from ``state``.

    Built on :func:`binocle.determinize`; hand it to OpenSpiel's ISMCTS bot
    with ``bot.set_resampler(resampler)``.
    """
    rng = rng or random.Random()
    ep = state.episode
    sampled = determinize(ep.view(player), rng)
    new = state.clone()
    new.episode = attrs.evolve(ep, state=sampled, ready=True)
    return new  # type: ignore[no-any-return]


class CutthroatGame(BinocleGame):
    """Cutthroat (three-hand auction Pinochle) as an OpenSpiel game."""

    profile_name = "cutthroat"


class ClassicGame(BinocleGame):
    """Classic two-handed Binocle as an OpenSpiel game."""

    profile_name = "classic"


class ThreeHandedGame(BinocleGame):
    """Three-handed Binocle as an OpenSpiel game."""

    profile_name = "three-handed"


_GAME_TYPES = {name: _game_type(name) for name in GAMES}
for _cls in (CutthroatGame, ClassicGame, ThreeHandedGame):
    pyspiel.register_game(_GAME_TYPES[_cls.profile_name], _cls)
