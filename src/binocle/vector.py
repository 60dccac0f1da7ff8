"""Many games stepped at once into numpy arrays, for learning at speed (needs numpy and
librt: the ``pettingzoo`` extra).

>>> import numpy as np
>>> from binocle.vector import VectorEnv
>>> env = VectorEnv("cutthroat", num_envs=4, seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape, env.current_player.tolist()
((4, 189), (4, 332), [1, 2, 0, 1])
>>> rng = np.random.default_rng(0)
>>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
>>> obs, mask, rewards, dones = env.step(actions)
>>> rewards.shape, dones.tolist()
((4, 3), [False, False, False, False])

:class:`VectorEnv` holds ``num_envs`` games of one profile.  In each game one
seat is to decide (chance is dealt from the game's seed, as
:func:`binocle.new_game` deals): the arrays show, for each game, that seat
(``current_player``), its observation (the observation tensor of
:func:`binocle.encoding.observation_tensor`, laid out as
:func:`binocle.encoding.tensor_layout` says) and its legal ids (the action
space of :func:`binocle.encoding.action_space`).  :meth:`VectorEnv.step`
takes one id per game, plays it in every game and writes the arrays again in
place.  Rewards are every seat's score change at the step, so a learner may
hold any seat; an episode ends after ``hands`` hands (or with the game), and
that game starts its next episode at once (its ``dones`` entry is True, its
``final_returns`` row holds the episode's returns).  The dealer moves on every
episode (``dealer="rotate"``), so every seat sees every position at the table.
"""

from __future__ import annotations

import gc
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np
from librt.strings import BytesWriter

from binocle.actions import Action
from binocle.core import GameState, Phase
from binocle.encoding._arrays import generator_seed
from binocle.encoding._batch import sample
from binocle.encoding._classic_batch import ClassicBatch
from binocle.encoding._cutthroat_batch import CutthroatBatch
from binocle.encoding._fast import WAIT, FastEncoder, out_of_range
from binocle.encoding._three_handed_batch import ThreeHandedBatch
from binocle.errors import InvalidArgumentError, excerpt
from binocle.game import apply, legal_actions, start
from binocle.profiles import get_profile
from binocle.profiles.classic import Classic
from binocle.profiles.cutthroat import Cutthroat
from binocle.profiles.three_handed import ThreeHanded

__all__ = ["MAX_ENVS", "VectorEnv"]

#: The most games one :class:`VectorEnv` holds: its arrays grow with ``num_envs``
#: (about 14 kB a game), so a larger count is refused with
#: :class:`~binocle.errors.InvalidArgumentError` before anything is allocated;
#: run several environments for more.
MAX_ENVS = 16384

_DEAL = Phase.DEAL
_OVER = Phase.OVER


class VectorEnv:
    """``num_envs`` games of ``profile`` (a name or a profile; options by keyword).

    ``num_envs``: 1 to :data:`MAX_ENVS`; anything else raises
    :class:`~binocle.errors.InvalidArgumentError`.
    ``hands``: hands an episode plays (default 1; it also ends with the game).
    ``dealer``: ``"rotate"`` (game ``i``'s ``k``-th episode is dealt by seat
    ``(i + k) % players``), ``"random"`` (drawn each episode) or a seat.
    ``seed`` seeds the generator that draws each episode's game seed.

    The arrays are the environment's own, written again by each :meth:`reset`
    and :meth:`step` (copy them to keep them):

    - ``observations`` (``num_envs`` × ``observation_size``, float32): the
      observation tensor of the seat to decide;
    - ``action_masks`` (``num_envs`` × ``num_actions``, bool): its legal ids;
    - ``current_player`` (``num_envs``, int64): that seat;
    - ``rewards`` (``num_envs`` × ``num_players``, float32): each seat's score
      change at the last step;
    - ``dones`` (``num_envs``, bool): the last step ended the game's episode
      (the other arrays already show the next one);
    - ``returns`` (``num_envs`` × ``num_players``, float32): each seat's score
      change so far in the running episode; ``final_returns``: the finished
      episode's, in the rows where ``dones`` is True;
    - ``dealers`` (``num_envs``, int64): the running episode's dealer.

    ``hands_finished`` and ``hands_played_out`` count the hands ended so far and
    those played to their last trick (not ended by a claim or a concession).

    Games of the cutthroat, classic and three-handed profiles are held as plain
    numbers changed in place (the same rules, deals and arrays as the engine's, at
    several times the speed); :meth:`state` then rebuilds a game's
    :class:`~binocle.GameState` by replaying it.  Games of any other profile (a
    subclass of these included, which may change the rules) step through the
    engine's states, as does the two-handed game that three-handed players go on
    with after a retirement.
    """

    #: The profile classes whose games are stepped in place, not through the engine.
    _in_place: tuple[type, ...] = (Cutthroat, Classic, ThreeHanded)

    def __init__(
        self,
        profile: Any = "cutthroat",
        num_envs: int = 256,
        *,
        hands: int = 1,
        dealer: int | str = "rotate",
        seed: int | None = None,
        **options: Any,
    ) -> None:
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, int)
            or not 1 <= num_envs <= MAX_ENVS
        ):
            raise InvalidArgumentError(
                f"num_envs is a whole number from 1 to {MAX_ENVS} (MAX_ENVS), not"
                f" {excerpt(num_envs)}"
            )
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidArgumentError(
                f"hands must be a positive whole number, not {excerpt(hands)}"
            )
        self.profile = get_profile(profile, **options)
        players = self.profile.players
        if dealer not in ("rotate", "random") and (
            isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players
        ):
            raise InvalidArgumentError(
                f"dealer is 'rotate', 'random' or a seat 0..{players - 1}, not {excerpt(dealer)}"
            )
        self.num_envs = num_envs
        self.hands = hands
        self.dealer = dealer
        self._encoder = FastEncoder(self.profile)
        self.num_players = players
        self.num_actions = self._encoder.num_actions
        self.observation_size = self._encoder.size
        n = num_envs
        self.observations = np.zeros((n, self.observation_size), np.float32)
        self.action_masks = np.zeros((n, self.num_actions), np.bool_)
        self.current_player = np.zeros(n, np.int64)
        self.rewards = np.zeros((n, players), np.float32)
        self.dones = np.zeros(n, np.bool_)
        self.returns = np.zeros((n, players), np.float32)
        self.final_returns = np.zeros((n, players), np.float32)
        self.dealers = np.zeros(n, np.int64)
        self.hands_finished = 0
        self.hands_played_out = 0
        self._rng = np.random.default_rng(generator_seed(seed))
        self._sampler = _sampler(seed)  # sample_legal's by default
        # Game seeds drawn ahead from the generator, the next last, where the dealer
        # rule draws nothing (the generator gives the same numbers drawn in a block).
        self._seeds: list[int] = []
        self._states: list[GameState] = []
        self._legal: list[tuple[tuple[Action, ...], tuple[int, ...]]] = []
        self._first: list[int] = []  # results already in the game when the episode began
        self._start_scores: list[tuple[int, ...]] = []
        self._episodes = [0] * n
        # The cards played in each game's hand, by kind: the tensor's "gone" part.
        width = self._encoder.width
        self._gone = np.zeros((n, width), np.float32)
        gone = self._encoder.one["gone"]
        self._gone_part = slice(gone, gone + width)
        self._bases = np.arange(0, n * self.observation_size, self.observation_size)
        self._mask_bases = np.arange(0, n * self.num_actions, self.num_actions)
        # The flat positions of the legal ids in ``action_masks``, and their sparse form
        # (made when first asked for).
        self._legal_at = np.zeros(0, np.intp)
        self._legal_counts: np.ndarray | None = None  # per game, where known
        self._sparse: tuple[np.ndarray, np.ndarray] | None = None
        # The legal ids as the batch wrote them (flat positions, counts), if it did.
        self._written: tuple[bytes, bytes] | None = None
        self._batch: _Batch | None = None
        self._dense_cols = np.zeros(0, np.intp)  # the batch's columns written whole
        kind = type(self.profile)
        if kind in self._in_place:
            self._batch = _BATCHES[kind](self.profile, self._encoder, n)
            self._dense_cols = np.array(self._batch.dense_cols, np.intp)
        self._started = False

    # -- episodes ------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a new episode in every game; return ``(observations, action_masks)``.

        ``seed`` reseeds the generator of the game seeds (and the random dealers):
        a reset with a seed gives the games, dealers included, that a new
        environment built with that seed gives.  Every reset starts the
        ``"rotate"`` rotation again (game ``i``'s first episode dealt by seat ``i``).
        """
        if seed is not None:
            self._rng = np.random.default_rng(generator_seed(seed))
            self._sampler = _sampler(seed)
            self._seeds = []
        n = self.num_envs
        self._episodes = [0] * n
        batch = self._batch
        if batch is None:
            self._states = [self._new_game(i) for i in range(n)]
            self._start_scores = [s.scores for s in self._states]
        else:
            games = list(range(n))
            batch.begin_episodes(games, *self._draw(games), BytesWriter())
        self._started = True
        self._first = [0] * n
        self._legal = [((), ()) for _ in range(n)]
        self._gone[:] = 0
        self.rewards[:] = 0
        self.dones[:] = False
        self.returns[:] = 0
        self.final_returns[:] = 0
        self._write()
        return self.observations, self.action_masks

    def _new_game(self, i: int) -> GameState:
        seeds, dealers = self._draw([i])
        s = start(self.profile, seeds[0], dealers[0])
        return apply(s, legal_actions(s)[0])

    def _draw(self, games: list[int]) -> tuple[list[int], list[int]]:
        """The next episode of each of ``games``, in order: its game seed and dealer."""
        players = self.num_players
        rule = self.dealer
        episodes = self._episodes
        rng = self._rng
        pool = self._seeds
        seeds: list[int] = []
        dealers: list[int] = []
        for i in games:
            episodes[i] += 1
            if rule == "random":  # the dealer drawn before the seed
                dealers.append(int(rng.integers(players)))
                seeds.append(int(rng.integers(1 << 62)))
                continue
            if rule == "rotate":
                dealers.append((i + episodes[i] - 1) % players)
            else:
                assert isinstance(rule, int)
                dealers.append(rule)
            if not pool:
                block = rng.integers(1 << 62, size=self.num_envs).tolist()
                block.reverse()
                pool.extend(block)
            seeds.append(pool.pop())
        self.dealers[games] = dealers
        return seeds, dealers

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one id per game (``actions``, length ``num_envs``): each game's seat to
        decide takes it.  Return ``(observations, action_masks, rewards, dones)``.

        Raises :class:`~binocle.IllegalActionError` (naming the game) when an id is
        not legal in its game, and changes nothing then.

        The cyclic garbage collector is paused while the step runs: the step makes
        many short-lived objects and no reference cycle, and the collector's passes
        over the games' states would otherwise take about a third of its time.
        """
        if not self._started:
            raise InvalidArgumentError("reset() the environment before its first step")
        return self._paused_gc(_ids(actions, self.num_envs), False)

    def _paused_gc(
        self, ids: list[int], waits: bool, observe: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        running = gc.isenabled()
        if running:
            gc.disable()
        try:
            return self._step(ids, waits, observe)
        finally:
            if running:
                gc.enable()

    def _step_some(
        self, ids: list[int], observe: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`step` where a game whose id is ``WAIT`` (-1) does not move: its
        reward row is 0, its ``dones`` entry False.  Unless ``observe``, games held
        in place write their masks and seats to decide but not their observations
        (:meth:`_write` writes them later)."""
        return self._paused_gc(ids, True, observe)

    def _step(
        self, ids: list[int], waits: bool, observe: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        low = WAIT if waits else 0
        batch = self._batch
        if batch is None:
            size = self.num_actions
            if ids and (min(ids) < low or max(ids) >= size):
                i = next(i for i, a in enumerate(ids) if not low <= a < size)
                raise out_of_range(i, ids[i], size, int(self.current_player[i]))
            encoder = self._encoder
            chosen = encoder.resolve(self._states, self._legal, ids)  # refused: nothing moves
            played_at: list[int] = []
            changes: list[int] = []
            idle = encoder.advance(self._states, chosen, played_at, changes)
            played = _ints(played_at)
            rewards = _ints(changes)
        else:
            batch.check(ids, low)  # refused (an id out of range first): nothing moves
            written = BytesWriter()
            scored = BytesWriter()
            idle = batch.step(ids, written, scored)
            played = _read(written)
            rewards = _read(scored)
        gone = self._gone
        if len(played):
            gone.reshape(-1)[played] += 1  # one card at most a game: no index twice
        dones = self.dones
        dones[:] = False
        ended = False  # some episode
        if batch is not None:
            if idle:
                gone[idle] = 0
                ended = self._between_in_place(batch, idle)
        else:
            for i in idle:
                gone[i] = 0
                end = self._between(i)
                if end is not None:
                    self.final_returns[i] = [
                        a - b for a, b in zip(end, self._start_scores[i], strict=True)
                    ]
                    dones[i] = True
                    ended = True
        self.rewards.reshape(-1)[:] = rewards
        self.returns += self.rewards
        if ended:
            self.returns[dones] = 0
        self._write(observe)
        return self.observations, self.action_masks, self.rewards, self.dones

    def _ended(self, results: int, outcome: str) -> None:
        """Count a hand ended (``results``: the game's hands ended so far, 0 for none)."""
        if results:
            self.hands_finished += 1
            if outcome == "played":
                self.hands_played_out += 1

    def _between_in_place(self, batch: _Batch, idle: list[int]) -> bool:
        """:meth:`_between` for the games held in place where nobody decides (``idle``, in
        order): the next hands dealt (by the batch), and the episodes that ended
        written and begun anew.  Returns whether any episode ended."""
        ended = batch.settle(idle, self.hands)  # in place, ``_first`` is always 0
        self.hands_finished += batch.finished
        self.hands_played_out += batch.played_out
        batch.finished = batch.played_out = 0
        if not ended:
            return False
        returns = BytesWriter()
        batch.begin_episodes(ended, *self._draw(ended), returns)
        self.final_returns[ended] = _read(returns).reshape(len(ended), self.num_players)
        self.dones[ended] = True
        return True

    def _between(self, i: int) -> tuple[int, ...] | None:
        """Game ``i``, where nobody decides: deal its next hand, or end its episode and
        start the next one.  Returns the scores the episode ended with (None while it
        goes on)."""
        s = self._states[i]
        while s.current_player is None:
            if s.phase is _DEAL or s.phase is _OVER:
                results = s.results
                self._ended(len(results), results[-1].outcome if results else "")
                if s.phase is _OVER or len(results) - self._first[i] >= self.hands:
                    end = s.scores
                    s = self._states[i] = self._new_game(i)
                    self._first[i] = len(s.results)
                    self._start_scores[i] = s.scores
                    return end
            s = apply(s, legal_actions(s)[0])
        self._states[i] = s
        return None

    # -- the arrays ----------------------------------------------------------------

    def _write(self, observe: bool = True) -> None:
        """Write the arrays for the games as they stand; unless ``observe``, games held
        in place write their masks and seats to decide alone (their observations stay
        as they were until a write that observes)."""
        batch = self._batch
        if batch is not None:
            if observe:
                self._write_in_place(batch)
            else:
                self._write_legal_in_place(batch)
            return
        ones: list[int] = []
        ones_n: list[int] = []
        at: list[int] = []
        at_n: list[int] = []
        values: list[float] = []
        legal_at: list[int] = []
        whole: list[int] = []
        seats = self._encoder.write(
            self._states, self._legal, ones, ones_n, at, at_n, values, legal_at, whole
        )
        obs = self.observations
        flat = obs.reshape(-1)
        total = flat.shape[0]
        bases = self._bases
        flat[:] = np.bincount(_ints(ones) + np.repeat(bases, ones_n), minlength=total)
        # Each column with another value is written once in its game: set, not added.
        flat[_ints(at) + np.repeat(bases, at_n)] = np.frombuffer(
            struct.pack(f"{len(values)}d", *values), np.float64
        )
        part = self._gone_part
        obs[:, part] += self._gone
        if whole:  # those games' tensors were read whole from the view
            obs[whole, part] -= self._gone[whole]
        self._legal_written(_ints(legal_at), None, _ints(seats))

    def _write_in_place(self, batch: _Batch) -> None:
        counts = BytesWriter()
        at = BytesWriter()
        values = BytesWriter()
        dense = BytesWriter()
        legal_at = BytesWriter()
        totals = BytesWriter()
        seats = BytesWriter()
        whole: list[int] = []
        batch.write(counts, at, values, dense, legal_at, totals, seats, whole)
        obs = self.observations
        obs.reshape(-1)[:] = np.frombuffer(counts.getvalue(), np.uint8)
        # The columns every game writes, then the others written (one entry a
        # column in its game): set over the counts.
        obs[:, self._dense_cols] = np.frombuffer(dense.getvalue(), _FLOAT32).reshape(
            self.num_envs, -1
        )
        obs.reshape(-1)[_read(at)] = np.frombuffer(values.getvalue(), _FLOAT32)
        part = self._gone_part
        obs[:, part] += self._gone
        if whole:  # those games' tensors were read whole from the view
            obs[whole, part] -= self._gone[whole]
        self._legal_bytes(legal_at.getvalue(), totals.getvalue(), seats)

    def _write_legal_in_place(self, batch: _Batch) -> None:
        """The masks and seats to decide of games held in place, not their observations."""
        legal_at = BytesWriter()
        totals = BytesWriter()
        seats = BytesWriter()
        batch.write_legal(legal_at, totals, seats)
        self._legal_bytes(legal_at.getvalue(), totals.getvalue(), seats)

    def _legal_bytes(self, legal: bytes, totals: bytes, seats: BytesWriter) -> None:
        """:meth:`_legal_written` from what a batch wrote, kept as written for
        :meth:`sample_legal`."""
        self._legal_written(
            np.frombuffer(legal, _INT64), np.frombuffer(totals, _INT64), _read(seats)
        )
        self._written = (legal, totals)

    def _legal_written(
        self, legal: np.ndarray, counts: np.ndarray | None, seats: np.ndarray
    ) -> None:
        """The masks from ``legal`` (flat positions in them; ascending game by game
        where ``counts``, each game's number of ids, is given) and the seats to act."""
        masks = self.action_masks
        masks[:] = False
        masks.reshape(-1)[legal] = True
        self._legal_at = legal
        self._legal_counts = counts
        self._sparse = None
        self.current_player[:] = seats

    def legal_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """Every game's legal ids at once, in sparse form: ``(ids, starts)``, both
        int arrays, where game ``i``'s legal ids (ascending) are
        ``ids[starts[i]:starts[i + 1]]``.

        They are the ids ``action_masks`` allows, for a caller that samples among
        them without scanning the masks' ``num_envs`` × ``num_actions`` entries (a
        uniform or a softmax policy over the legal ids).  Like the other arrays they
        are the environment's own until the next :meth:`step` or :meth:`reset`.
        """
        if not self._started:
            raise InvalidArgumentError("reset() the environment first")
        found = self._sparse
        if found is None:
            starts = np.zeros(self.num_envs + 1, np.intp)
            counts = self._legal_counts
            if counts is None:
                rows, ids = np.divmod(np.sort(self._legal_at), self.num_actions)
                counts = np.bincount(rows, minlength=self.num_envs)
            else:  # in order already
                ids = self._legal_at - np.repeat(self._mask_bases, counts)
            np.cumsum(counts, out=starts[1:])
            found = self._sparse = (ids, starts)
        return found

    def sample_legal(
        self, avoid: np.ndarray | None = None, rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """One legal id per game, drawn uniformly among the game's legal ids (a random
        policy's actions, for :meth:`step`), as an int64 array of ``num_envs`` ids.

        ``avoid`` (a bool array of ``num_actions`` entries, or None) marks ids to
        leave out: a game draws among its legal ids that ``avoid`` leaves, or among
        all of them where it leaves none (a random policy that never claims while it
        may play, say).  ``rng`` (a :class:`numpy.random.Generator`) draws one
        number per game; by default the environment's own generator, seeded by
        the environment's seed (and a :meth:`reset` with a seed).  Game ``i`` takes
        the ``floor(u * count)``-th of the ids it draws among, ascending, ``u``
        being its number.

        Raises :class:`~binocle.InvalidArgumentError` for an ``avoid`` of another
        shape or type, an ``rng`` that is not a generator, or before the first
        :meth:`reset`.
        """
        if not self._started:
            raise InvalidArgumentError("reset() the environment first")
        marks = b""
        if avoid is not None:
            if (
                not isinstance(avoid, np.ndarray)
                or avoid.dtype != np.bool_
                or avoid.shape != (self.num_actions,)
            ):
                raise InvalidArgumentError(
                    f"avoid is None or a bool array of {self.num_actions} entries (one per"
                    f" action id), not {excerpt(avoid)}"
                )
            marks = avoid.tobytes()
        if rng is None:
            rng = self._sampler
        elif not isinstance(rng, np.random.Generator):
            raise InvalidArgumentError(f"rng is a numpy Generator or None, not {excerpt(rng)}")
        draws = rng.random(self.num_envs)
        written = self._written
        out = BytesWriter()
        if written is None:  # the games stepped through the engine: their sparse ids
            ids, starts = self.legal_ids()
            counts = np.diff(starts).astype(_INT64)
            sample(ids.astype(_INT64).tobytes(), counts.tobytes(), 0, draws.tobytes(), marks, out)
        else:
            sample(written[0], written[1], self.num_actions, draws.tobytes(), marks, out)
        chosen: np.ndarray = np.frombuffer(out.getvalue(), _INT64).copy()
        return chosen

    # -- reading the games -----------------------------------------------------------

    def state(self, i: int | np.integer[Any]) -> GameState:
        """Game ``i``'s state now (a :class:`binocle.GameState`, to observe or show).

        A game held in place is replayed through the engine for this, from where
        it stood when last asked for (else from its start): a new state after each
        step, equal to the one the engine steps to.
        """
        if not self._started:
            raise InvalidArgumentError("reset() the environment first")
        if (
            isinstance(i, bool)
            or not isinstance(i, (int, np.integer))
            or not 0 <= i < self.num_envs
        ):
            raise InvalidArgumentError(f"a game is 0..{self.num_envs - 1}, not {excerpt(i)}")
        if self._batch is not None:
            return self._batch.state(int(i))
        return self._states[int(i)]


_Batch = CutthroatBatch | ClassicBatch | ThreeHandedBatch

#: The games held in place, by their profile's class.
_BATCHES: dict[type, type[_Batch]] = {
    Cutthroat: CutthroatBatch,
    Classic: ClassicBatch,
    ThreeHanded: ThreeHandedBatch,
}


#: The flat positions the games held in place write: int64, little endian; the values
#: they write there: float32, little endian.
_INT64 = np.dtype("<i8")
_FLOAT32 = np.dtype("<f4")


def _sampler(seed: Any) -> np.random.Generator:
    """The generator :meth:`VectorEnv.sample_legal` draws with by default: seeded by
    the environment's seed, apart from the one that draws the game seeds."""
    checked = generator_seed(seed)
    return np.random.default_rng(None if checked is None else (checked, 1))


def _read(numbers: BytesWriter) -> np.ndarray:
    """The whole numbers a batch wrote (int64, little endian), as an array."""
    return np.frombuffer(numbers.getvalue(), _INT64)


def _ints(numbers: list[int]) -> np.ndarray:
    """Whole numbers as an int64 array: packed as machine integers first, which
    costs well under half of numpy's reading of each list item."""
    return np.frombuffer(struct.pack(f"{len(numbers)}q", *numbers), np.int64)


def _ids(actions: Any, n: int) -> list[int]:
    """The ids as whole numbers, one per game; anything else refused."""
    if isinstance(actions, np.ndarray):
        if actions.shape != (n,) or actions.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"actions must be {n} whole numbers, not an array of shape {actions.shape}"
                f" and type {actions.dtype}"
            )
        out: list[int] = actions.tolist()
        return out
    if not isinstance(actions, Sequence) or len(actions) != n:
        raise InvalidArgumentError(f"actions must be {n} whole numbers, one per game")
    ids = []
    for a in actions:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise InvalidArgumentError(f"an action id is a whole number, not {excerpt(a)}")
        ids.append(int(a))
    return ids
