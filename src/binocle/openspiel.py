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

Game parameters: ``hands`` (how many hands an episode plays, 1 to
:data:`MAX_HANDS`, default 1; the episode also ends when the game does),
``dealer`` (the seat that deals the first hand, default 0) and ``dealer_choice``
(``"seat"``, the default, for that seat; ``"random"`` or ``"rotate"``; see
:class:`BinocleGame`), ``reward``
(``"score"``, ``"normalised"`` or ``"win"``; see
:func:`binocle.encoding.reward_bounds`), ``normalised`` (false, the default,
or true: the observation and information-state tensors with each entry divided
by :func:`binocle.encoding.tensor_scale`'s, points and counts brought near
[-1, 1]) and every whole-number or true/false option of the profile, with the
profile's defaults.  Each step's reward is the
change of the episode's return since the previous decision; a one-hand episode
pays only at its end, and its games declare the ``TERMINAL`` reward model
(``REWARDS`` with more hands).

State texts (``state.serialize()``, ``pyspiel.serialize_game_and_state``) hold
the episode's action ids and binocle's JSON of the state; reading one
(``game.deserialize_state``, ``pyspiel.deserialize_game_and_state``) replays the
ids under the rules and checks the JSON against them.  Nothing is unpickled: a
text that is not such a text is refused with :class:`binocle.InvalidStateError`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import pyspiel

from binocle import encoding as E
from binocle._json import DuplicateKeyError, parse_json
from binocle.actions import Kind
from binocle.cards import kinds
from binocle.core import GameState, Phase, Profile, View
from binocle.determinize import determinize
from binocle.encoding._episode import WalkedEpisode
from binocle.encoding._rewards import returns_of, walk_returns
from binocle.encoding._walk import Walk
from binocle.errors import BinocleError, InvalidArgumentError, InvalidStateError, excerpt
from binocle.profiles import get_profile, profile_names

__all__ = [
    "GAMES",
    "GAME_CLASSES",
    "MAX_HANDS",
    "BinocleGame",
    "BinocleObserver",
    "BinocleState",
    "ClassicGame",
    "CutthroatGame",
    "ThreeHandedGame",
    "deserialize_game_and_state",
    "resampler",
    "serialize_game_and_state",
]

#: The registered short names, by profile.
GAMES = {
    "cutthroat": "python_binocle_cutthroat",
    "classic": "python_binocle_classic",
    "three-handed": "python_binocle_three_handed",
}

#: The most hands an episode may play: the episode's length must fit OpenSpiel's
#: ``max_game_length`` (a 32-bit whole number).
MAX_HANDS: Final = 100_000

_LONG = {
    "cutthroat": "Python Binocle: cutthroat (three-hand auction Pinochle)",
    "classic": "Python Binocle: classic two-handed Binocle",
    "three-handed": "Python Binocle: three-handed Binocle",
}
# Every other profile of the registry: its names from the profile itself.
for _name in profile_names():
    GAMES.setdefault(_name, "python_binocle_" + _name.replace("-", "_"))
    _LONG.setdefault(_name, f"Python Binocle: {_name} ({get_profile(_name).description})")

#: What a state text starts with (the rest is JSON).
_TEXT_FORMAT: Final = "binocle-openspiel-state"


def _options(profile: Profile) -> dict[str, Any]:
    """The profile options OpenSpiel can carry (whole numbers and true/false)."""
    return {
        k: v for k, v in get_profile(profile.name).options().items() if isinstance(v, (bool, int))
    }


def _game_type(name: str, reward_model: Any = None) -> pyspiel.GameType:
    default = get_profile(name)
    return pyspiel.GameType(
        short_name=GAMES[name],
        long_name=_LONG[name],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=reward_model or pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=default.players,
        min_num_players=default.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=True,
        parameter_specification={
            "hands": 1, "dealer": 0, "dealer_choice": "seat", "reward": "score",
            "normalised": False, **_options(default),
        },
    )  # fmt: skip


def _dealer_setting(seat: Any, choice: Any, players: int) -> int | str:
    """The dealer of each episode: a seat, ``"random"`` or ``"rotate"``."""
    if choice in ("random", "rotate"):
        return str(choice)
    if choice != "seat":
        raise InvalidArgumentError(
            f"dealer_choice is 'seat', 'random' or 'rotate', not {excerpt(choice)}"
        )
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InvalidArgumentError(f"dealer is a seat 0..{players - 1}, not {excerpt(seat)}")
    return seat


class BinocleGame(pyspiel.Game):  # type: ignore[misc]
    """A binocle profile as an OpenSpiel game (one subclass per profile).

    ``dealer_choice="seat"`` (the default): seat ``dealer`` deals the first hand
    of every episode.  ``"random"``: the first step of an episode is a chance
    outcome, the dealer's seat, each seat with the same probability.
    ``"rotate"``: each new initial state the game makes takes the next seat
    (OpenSpiel makes one for every clone too, so a strict rotation is best kept
    by the driver, e.g. with one game per ``dealer`` seat).
    """

    profile_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _GAME_TYPES[self.profile_name]
        merged = {**game_type.parameter_specification, **params}
        hands = merged.pop("hands")
        dealer = merged.pop("dealer")
        choice = merged.pop("dealer_choice")
        reward = E.check_reward(merged.pop("reward"))
        normalised = merged.pop("normalised")
        if not isinstance(normalised, bool):
            raise InvalidArgumentError(f"normalised is true or false, not {excerpt(normalised)}")
        self.profile = get_profile(self.profile_name, **merged)
        if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS:
            raise InvalidArgumentError(f"hands is 1 to {MAX_HANDS}, not {excerpt(hands)}")
        self.hands = hands
        self.dealer = _dealer_setting(dealer, choice, self.profile.players)
        self.reward = reward
        #: Whether the observation and information-state tensors are normalised.
        self.normalised = normalised
        self._episodes = 0
        low, high = E.reward_bounds(self.profile, hands, reward)
        chance = max(len(kinds(self.profile.pack_size)), self.profile.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=E.num_distinct_actions(self.profile),
            max_chance_outcomes=chance,
            num_players=self.profile.players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            max_game_length=E.max_decisions_per_hand(self.profile) * hands,
        )
        if hands == 1:
            # One hand pays only at its end: the reward model is terminal.
            game_type = _game_type(self.profile_name, pyspiel.GameType.RewardModel.TERMINAL)
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> BinocleState:
        """The start of an episode: the dealer's seat (``dealer="random"``) or the
        first card of the first deal is chance."""
        if self.dealer == "random":
            return BinocleState(self, E.Episode.new(self.profile, hands=self.hands), True)
        if self.dealer == "rotate":
            seat = self._episodes % self.profile.players
            self._episodes += 1
        else:
            seat = int(self.dealer)
        return BinocleState(self, E.Episode.new(self.profile, hands=self.hands, dealer=seat))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BinocleObserver:
        """The observer of an observation type (default: the observation)."""
        return BinocleObserver(
            self.profile,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
            self.hands,
            normalised=self.normalised,
        )

    def deserialize_state(self, text: str) -> BinocleState:
        """The state a text from :meth:`BinocleState.serialize` describes.

        The text's action ids are replayed under the rules from a new episode
        and binocle's JSON of the state must agree with them; nothing is
        unpickled.  Anything else raises :class:`~binocle.InvalidStateError`.
        """
        return _read_state(self, text)


#: The instance dictionary a state keeps beside its slots, where its base has none
#: (pyspiel's ``State``; a stand-in base, as when the docs are built without the
#: extra, may have one already).
_OWN_DICT: tuple[str, ...] = (
    ("__dict__",) if isinstance(pyspiel.State, type) and not pyspiel.State.__dictoffset__ else ()
)


class BinocleState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a :class:`binocle.encoding.Episode`.

    What OpenSpiel asks many times a step (who acts, whether the episode is over,
    the legal ids, the chance outcomes) is worked out once per step and kept until
    the next action.  ``legal_actions`` and ``legal_actions_mask`` answer Python
    callers directly, as OpenSpiel's own would through the state's C++ side.
    """

    # What a step reads and writes is held in slots: an attribute in the instance's
    # dictionary costs a dictionary lookup at each read.  OpenSpiel's clone of a Python
    # state (in C++) makes a new initial state and sets on it each entry of the
    # instance's dictionary; so the walk and the dealer flag are entered there too, by
    # the properties ``_walk`` and ``_dealer_next``, whose setters keep them in their
    # slots and work out the rest afresh.  The rest is kept in slots alone.
    __slots__ = ("_dn", "_legal", "_outcomes", "_player", "_snap", "_w", *_OWN_DICT)

    _w: Walk
    _dn: bool
    _snap: E.Episode | None
    _player: int
    _legal: Sequence[int] | None
    _outcomes: list[tuple[int, float]] | None

    def __init__(self, game: BinocleGame, episode: E.Episode, choose_dealer: bool = False) -> None:
        super().__init__(game)
        self._dn = self.__dict__["_dealer_next"] = False
        self.episode = episode
        #: Whether the next step is the chance outcome that picks the dealer.
        self.choose_dealer = choose_dealer
        self.reward_option = game.reward

    episode = WalkedEpisode(
        """The episode this state stands for; setting it starts the state afresh."""
    )

    @property
    def choose_dealer(self) -> bool:
        """Whether the next step is the chance outcome that picks the dealer."""
        return self._dn

    @choose_dealer.setter
    def choose_dealer(self, value: bool) -> None:
        self._dealer_next = bool(value)

    def __setstate__(self, text: str) -> None:
        # Unpickling and ``copy.deepcopy`` (OpenSpiel's own: the state rebuilt from its
        # text, its dictionary copied over): the slots filled from the dictionary.
        super().__setstate__(text)
        held = self.__dict__
        self._dn = held["_dealer_next"]
        self._walk = held["_walk"]

    @property
    def _walk(self) -> Walk:
        """The episode's walk, stepped in place."""
        return self._w

    @_walk.setter
    def _walk(self, walk: Walk) -> None:
        self.__dict__["_walk"] = walk
        self._w = walk
        self._snap = None
        self._moved()

    @property
    def _dealer_next(self) -> bool:
        return self._dn

    @_dealer_next.setter
    def _dealer_next(self, value: bool) -> None:
        self.__dict__["_dealer_next"] = value
        self._dn = value
        self._moved()

    def _moved(self) -> None:
        """Forget what the last position answered: the walk moved (or was replaced)."""
        # The walk's own record of where it stands: a seat, or OpenSpiel's id of chance
        # or of the end (or of nobody, which no reachable episode gives).
        self._player = _CHANCE if self._dn else self._w.where()
        self._legal = None
        self._outcomes = None

    # -- the pyspiel API -----------------------------------------------------------

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of ``player`` (default: the player to act), ascending, as
        OpenSpiel's C++ side gives them: none at the end, the chance outcomes at
        chance, none for another seat; another negative id is an error."""
        at = self._player
        if at >= 0 and (player is None or player == at):
            # A seat to decide (the common call): its legal ids, kept until the next step.
            legal = self._legal
            if legal is None:
                legal = self._legal = self._w.legal_ids()
            return list(legal)
        if at == _TERMINAL:
            return []
        if at == _CHANCE or player is None or player == at:
            return list(self._ids())
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal id of ``player`` (default: the player to act), else 0, over
        every id (every chance outcome at chance)."""
        at = self._player
        if player is None:
            player = at
        game = self.get_game()
        size = game.max_chance_outcomes() if player == _CHANCE else game.num_distinct_actions()
        mask = [0] * size
        for i in self.legal_actions(player):
            mask[i] = 1
        return mask

    def _ids(self) -> Sequence[int]:
        """The legal ids (the chance outcomes at chance), kept until the next action."""
        legal = self._legal
        if legal is None:
            legal = list(range(self._w.raw.profile.players)) if self._dn else self._w.legal_ids()
            self._legal = legal
        return legal

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player:
            return []
        return list(self._ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._outcomes
        if outcomes is None:
            if self._dn:
                n = self._w.raw.profile.players
                outcomes = [(seat, 1.0 / n) for seat in range(n)]
            else:
                outcomes = self._w.outcomes()
            self._outcomes = outcomes
        return outcomes

    def _apply_action(self, action: int) -> None:
        if self._dn:
            ep = self.episode
            n = ep.profile.players
            seat = int(action)
            if not 0 <= seat < n:
                raise InvalidArgumentError(f"the dealer is a seat 0..{n - 1}, not {seat}")
            self._dealer_next = False
            self.episode = E.Episode.new(ep.profile, hands=ep.hands, dealer=seat)
            return
        # The walk's own step (OpenSpiel gives an int), which says where it then stands
        # (as ``_moved`` would read it); a refused one changes nothing.
        self._player = self._w.step(action)
        self._snap = None
        self._legal = None
        self._outcomes = None

    def _action_to_string(self, player: int, action: int) -> str:
        action = int(action)
        if player == pyspiel.PlayerId.CHANCE:
            if self.choose_dealer:
                return f"dealer {action}"
            return self.episode.action_label(action)
        labels = E.action_labels(self.episode.profile)
        return labels[action] if 0 <= action < len(labels) else f"?{action}"

    def returns(self) -> list[float]:
        return list(walk_returns(self._walk, self.reward_option))

    def rewards(self) -> list[float]:
        w = self._walk
        now = walk_returns(w, self.reward_option)
        if self._player == _CHANCE:
            return [0.0] * len(now)
        paid = w.paid
        if paid is None:
            return list(now)
        # The returns as they stood before the last decision (a decision point: not over).
        was = returns_of(paid, w.start_scores, w.hands, False, self.reward_option)
        return [a - b for a, b in zip(now, was, strict=True)]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any = None
    ) -> BinocleState:
        """A state ``player_id`` cannot tell from this one, its hidden cards drawn by
        :func:`binocle.determinize`; its history replays like any other state's.

        ``probability_sampler`` (OpenSpiel's, a callable giving numbers in [0, 1))
        seeds the draw; without one it is drawn from fresh randomness.
        """
        seed: Any = None
        if callable(probability_sampler):
            seed = float(probability_sampler())
        return _resample(self, int(player_id), random.Random(seed))

    def serialize(self) -> str:
        """The state as text: its action ids and binocle's JSON of the game state
        (:func:`binocle.dumps`), read back by :meth:`BinocleGame.deserialize_state`."""
        from binocle.serial import dumps

        doc = {
            "format": _TEXT_FORMAT,
            "version": 1,
            "history": [int(a) for a in self.history()],
            "state": json.loads(dumps(self.episode.state)),
        }
        return json.dumps(doc, separators=(",", ":"))

    def __str__(self) -> str:
        ep = self.episode
        s = ep.state
        if self.choose_dealer:
            return f"{s.profile.spec()} dealer to be drawn"
        lines = [f"{s.profile.spec()} hand {s.hand_number} phase {s.phase.value}"]
        for i, hand in enumerate(s.hands):
            lines.append(f"seat {i}: {' '.join(map(str, hand))}")
        lines.append("trick " + " ".join(f"{p}:{c}" for p, c in s.trick))
        lines.append("scores " + " ".join(map(str, s.scores)))
        if ep.deck:
            lines.append("chance so far " + " ".join(map(str, ep.deck)))
        return "\n".join(lines)


try:
    _TERMINAL = int(pyspiel.PlayerId.TERMINAL)
    _CHANCE = int(pyspiel.PlayerId.CHANCE)
except TypeError:  # pyspiel stood in for by a mock (the docs built without the extra)
    _TERMINAL, _CHANCE = -4, -1  # OpenSpiel's kTerminalPlayerId and kChancePlayerId


class BinocleObserver:
    """Observation strings and tensors, from what the seat saw alone.

    ``perfect_recall=True`` gives the information state: the perfect-recall
    tensor and string of the episode (:func:`binocle.encoding.perfect_recall_tensor`),
    which tell apart every two histories of what the seat saw and did.
    Otherwise the observation: the compact view of the present
    (:func:`binocle.encoding.observation_tensor`).  A public-only or
    private-only observation type gives strings only: the public or the
    private lines of the observation.  With ``normalised`` (the game parameter)
    each tensor entry is divided by :func:`binocle.encoding.tensor_scale`'s.
    """

    def __init__(
        self,
        profile: Profile,
        iig_obs_type: Any,
        params: Any,
        hands: int = 1,
        *,
        normalised: bool = False,
    ) -> None:
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
        self.scale: np.ndarray | None = None
        if self.part == "all":
            kind = "perfect_recall" if self.full else "observation"
            layout = E.tensor_layout(profile, kind, hands)
            if normalised:
                self.scale = np.asarray(E.tensor_scale(profile, kind, hands), np.float32)
            self.tensor = np.zeros(layout.size, np.float32)
            for name, (start, shape) in layout.offsets().items():
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[start : start + size].reshape(shape)

    def set_from(self, state: BinocleState, player: int) -> None:
        if self.tensor is None:
            return
        if self.full:
            self.tensor[:] = E.perfect_recall_tensor(state.episode, player)
        else:
            self.tensor[:] = E.observation_tensor(state.episode.view(player))
        if self.scale is not None:
            self.tensor /= self.scale

    def string_from(self, state: BinocleState, player: int) -> str:
        if self.full:
            return E.perfect_recall_string(state.episode, player)
        text = E.observation_string(state.episode.view(player))
        if self.part == "all":
            return text
        lines = text.split("\n")
        private = [ln for ln in lines if _is_private(ln)]
        if self.part == "private":
            return "\n".join(private)
        return "\n".join(ln for ln in lines if not _is_private(ln) and not ln.startswith("seat "))


#: The lines of the observation string only its seat sees, by their key.
_PRIVATE: Final = ("hand", "concealed", "discards")


def _is_private(line: str) -> bool:
    """Whether an observation line is private: its key (the words before the value) is
    one of ``_PRIVATE`` (``hand sizes`` is public; ``hand`` is not)."""
    if line.startswith("hand sizes"):
        return False
    return line.split(" ")[0] in _PRIVATE


# -- state texts --------------------------------------------------------------------


def _refuse(why: str) -> InvalidStateError:
    return InvalidStateError(f"not a binocle OpenSpiel state text: {why}")


def _read_state(game: BinocleGame, text: Any) -> BinocleState:
    """Replay a state text's ids from a new episode; check its JSON against them."""
    from binocle.serial import loads

    if not isinstance(text, str):
        raise _refuse(f"a text is a str, not {type(text).__name__}")
    try:
        doc = parse_json(text)
    except DuplicateKeyError as exc:
        raise _refuse(f"its JSON is ambiguous: {exc}") from None
    except (ValueError, RecursionError):
        raise _refuse("it is not JSON (pickled texts are never read)") from None
    if not isinstance(doc, dict) or doc.get("format") != _TEXT_FORMAT or doc.get("version") != 1:
        raise _refuse(f"its format is not {_TEXT_FORMAT} version 1")
    history = doc.get("history")
    if not isinstance(history, list) or any(
        isinstance(a, bool) or not isinstance(a, int) for a in history
    ):
        raise _refuse("its history is not a list of action ids")
    if not isinstance(doc.get("state"), dict):
        raise _refuse("it has no game state")
    try:
        saved = loads(json.dumps(doc["state"]))
    except BinocleError as exc:
        raise _refuse(f"its game state does not load: {exc}") from None
    dealer_seat = saved.first_dealer
    if isinstance(game.dealer, int) and dealer_seat != game.dealer:
        raise _refuse(f"its first dealer is seat {dealer_seat}; this game's is {game.dealer}")
    if game.dealer == "random":
        state = BinocleState(game, E.Episode.new(game.profile, hands=game.hands), True)
    else:
        state = BinocleState(
            game, E.Episode.new(game.profile, hands=game.hands, dealer=dealer_seat)
        )
    for i, action in enumerate(history):
        if state.is_terminal() or action not in state.legal_actions():
            raise _refuse(f"history entry {i} (id {excerpt(action)}) is not legal there")
        state.apply_action(action)
    if saved != state.episode.state or saved.actions() != state.episode.state.actions():
        raise _refuse("its game state is not the one its history reaches")
    return state


def _split_text(text: str) -> tuple[str, str]:
    """The game string and the state text of a ``serialize_game_and_state`` text."""
    lines = text.split("\n")
    try:
        g = next(i for i, ln in enumerate(lines) if ln.strip() == "[Game]")
        s = next(i for i, ln in enumerate(lines) if ln.strip() == "[State]" and i > g)
    except StopIteration:
        raise _refuse("it has no [Game] and [State] sections") from None
    game = "".join(ln.strip() for ln in lines[g + 1 : s] if ln.strip())
    return game, "\n".join(lines[s + 1 :]).strip()


_ORIGINAL_SERIALIZE: Callable[..., str] = pyspiel.serialize_game_and_state
_ORIGINAL_DESERIALIZE: Callable[..., Any] = pyspiel.deserialize_game_and_state


def serialize_game_and_state(game: Any, state: Any) -> str:
    """``pyspiel.serialize_game_and_state`` with binocle's state text for binocle games.

    Importing :mod:`binocle.openspiel` puts this function (and
    :func:`deserialize_game_and_state`) in ``pyspiel`` under the same name;
    other games' texts are OpenSpiel's own, unchanged.
    """
    if not isinstance(state, BinocleState):
        return _ORIGINAL_SERIALIZE(game, state)
    return (
        "# Automatically generated by OpenSpiel SerializeGameAndState\n"
        f"[Meta]\nVersion: 1\n\n[Game]\n{game}\n[State]\n{state.serialize()}\n"
    )


def deserialize_game_and_state(text: str) -> tuple[Any, Any]:
    """``pyspiel.deserialize_game_and_state``, reading binocle games' texts safely.

    A text that names a binocle game (``python_binocle_...``) is read by
    :meth:`BinocleGame.deserialize_state` and never unpickled; a pickled
    OpenSpiel text of a binocle game is refused with
    :class:`~binocle.InvalidStateError`.  Other games' texts go to OpenSpiel.
    """
    if not isinstance(text, str) or "python_binocle_" not in text:
        return tuple(_ORIGINAL_DESERIALIZE(text))
    game_string, state_text = _split_text(text)
    try:
        game = pyspiel.load_game(game_string)
    except Exception as exc:  # a binocle error, or pyspiel's SpielError for a bad game string
        raise _refuse(f"its game {excerpt(game_string)} does not load: {exc}") from None
    if not isinstance(game, BinocleGame):
        raise _refuse(f"binocle games are read directly, not inside {excerpt(game_string)}")
    return game, game.deserialize_state(state_text)


# -- resampling -----------------------------------------------------------------------


def _resample(state: BinocleState, player: int, rng: random.Random) -> BinocleState:
    """A state ``player`` cannot tell from ``state``: the game is sampled by
    :func:`binocle.determinize` and replayed id by id from a new episode, so the
    new state's history and texts are those of a state reached by play."""
    game = state.get_game()
    ep = state.episode
    n = ep.profile.players
    if isinstance(player, bool) or not 0 <= player < n:
        raise InvalidArgumentError(f"a player is a seat 0..{n - 1}, not {excerpt(player)}")
    if state.choose_dealer:
        return state.clone()  # type: ignore[no-any-return]
    view = ep.view(player)
    sampled = determinize(view, rng)
    new = BinocleState(game, E.Episode.new(ep.profile, hands=ep.hands, dealer=sampled.first_dealer))
    if game.dealer == "random":
        new = BinocleState(game, E.Episode.new(ep.profile, hands=ep.hands), True)
        new.apply_action(sampled.first_dealer)
    _replay(new, _kept_earlier_hands(ep.state.moves(), sampled.moves(), view), rng)
    # A chance step under way (a deal or a draw partly made): the rest drawn at random.
    while len(new.episode.deck) < len(ep.deck) and new.is_chance_node():
        outcomes = new.chance_outcomes()
        new.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    return new


def _kept_earlier_hands(true: Any, sampled: Any, view: View) -> Any:
    """The moves of a resampled state: the hands before the one in progress as they
    were played (they no longer bear on the play, and the player's own cards in them
    are part of his information state), the hand in progress as sampled."""
    if view.phase in (Phase.DEAL, Phase.OVER):
        return true  # between hands: nothing hidden bears on what follows
    last_true = max(i for i, (a, _) in enumerate(true) if a.kind is Kind.DEAL)
    last_sampled = max(i for i, (a, _) in enumerate(sampled) if a.kind is Kind.DEAL)
    return (*true[:last_true], *sampled[last_sampled:])


def _replay(new: BinocleState, moves: Any, rng: random.Random) -> None:
    """Apply a sampled game's moves to ``new`` as ids: each deal as its chance outcomes
    (card by card, in deck order), each classic stock card when it is drawn."""
    index = {int(c): i for i, c in enumerate(kinds(new.episode.profile.pack_size))}
    deck: tuple[Any, ...] = ()
    for action, _seat in moves:
        if new.is_terminal():
            return
        if action.kind is Kind.DEAL:
            deck = action.cards
            while new.is_chance_node():
                new.apply_action(index[int(deck[len(new.episode.deck)])])
            continue
        while new.is_chance_node():  # the classic stock's draws
            s = new.episode.state
            stock = _stock(s)
            at = len(deck) - len(stock) + len(new.episode.deck)
            new.apply_action(index[int(deck[at])])
        new.apply_action(E.action_id(new.episode.state, action))


def _stock(state: GameState) -> tuple[Any, ...]:
    part: Any = state.profile.stock_game(state)
    return () if part is None or part.phase is Phase.OVER else tuple(part.stock)


def resampler(state: BinocleState, player: int, rng: random.Random | None = None) -> BinocleState:
    """A state sampled among those ``player`` cannot tell from ``state``.

    Built on :func:`binocle.determinize`; hand it to OpenSpiel's ISMCTS bot
    with ``bot.set_resampler(resampler)``.  The same as
    :meth:`BinocleState.resample_from_infostate`, with a ``random.Random``.
    """
    return _resample(state, player, rng or random.Random())


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
#: The game class of each profile: those above, and one made for each other profile.
GAME_CLASSES: dict[str, type[BinocleGame]] = {
    c.profile_name: c for c in (CutthroatGame, ClassicGame, ThreeHandedGame)
}
for _name in GAMES:
    if _name not in GAME_CLASSES:
        _title = "".join(w.capitalize() for w in _name.replace("-", " ").split())
        GAME_CLASSES[_name] = type(
            f"{_title}Game",
            (BinocleGame,),
            {"profile_name": _name, "__doc__": f"The {_name} profile as an OpenSpiel game."},
        )
        # Importable by its name, as pickle finds a class.
        globals()[GAME_CLASSES[_name].__name__] = GAME_CLASSES[_name]
for _name, _cls in GAME_CLASSES.items():
    pyspiel.register_game(_GAME_TYPES[_name], _cls)
pyspiel.serialize_game_and_state = serialize_game_and_state
pyspiel.deserialize_game_and_state = deserialize_game_and_state
