"""The PettingZoo environments pass PettingZoo's own tests (docs: "Binocle for AI research").

Needs the ``pettingzoo`` extra; without it the module is skipped (never in CI).
"""

from __future__ import annotations

import gc
import pickle
import random
import sys
from typing import Any

import pytest

from adapters import need

need("pettingzoo", "pettingzoo")
np = need("numpy", "pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import binocle  # noqa: E402
from binocle import encoding as E  # noqa: E402
from binocle.pettingzoo import env, raw_env  # noqa: E402

SETTINGS = [
    ("cutthroat", {}),
    ("cutthroat", {"hands": 2, "single_set": True, "min_bid": 300}),
    ("classic", {}),
    ("classic", {"hands": 2, "pack": 64}),
    ("three-handed", {}),
    ("three-handed", {"hands": 2, "claim_overlooked": True}),
    ("classic", {"dealer": "random", "reward": "win"}),
    ("cutthroat", {"hands": 2, "dealer": "rotate", "reward": "normalised", "max_bid": 500}),
    ("three-handed", {"dealer": 2, "reward": "win"}),
    ("cutthroat", {"observation": "perfect_recall", "normalised": True, "max_bid": 400}),
    ("classic", {"hands": 2, "observation": "observation", "normalised": True}),
    ("three-handed", {"hands": 2, "observation": "perfect_recall"}),
    ("partnership", {"hands": 2, "passing": 3, "max_bid": 400}),
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("profile", "options"), SETTINGS)
def test_api_test(profile: str, options: dict[str, object]) -> None:
    """PettingZoo's API test, 1000 cycles."""
    api_test(env(profile=profile, **options), num_cycles=1000)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("profile", "options"), SETTINGS)
def test_seed_test(profile: str, options: dict[str, object]) -> None:
    """PettingZoo's seed test: a seed fixes the episode."""
    seed_test(lambda: env(profile=profile, **options), num_cycles=200)


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_render_test(profile: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render test: ``"ansi"`` returns the view's text, ``"human"`` prints it."""
    render_test(lambda render_mode: env(profile=profile, render_mode=render_mode))
    assert "phase " in capsys.readouterr().out


def _act(e: object, rng: np.random.Generator) -> int:
    mask = e.observe(e.agent_selection)["action_mask"]  # type: ignore[attr-defined]
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_pickle_round_trip_continues_identically(profile: str) -> None:
    """A pickled environment, mid-hand, gives the same observations and rewards afterwards."""
    e = env(profile=profile, hands=2)
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(12):
        if e.terminations[e.agent_selection]:
            break
        e.step(_act(e, rng))
    copy = pickle.loads(pickle.dumps(e))
    steps = 0
    while e.agents and steps < 400:
        agent = e.agent_selection
        assert copy.agent_selection == agent
        for a in e.agents:
            np.testing.assert_array_equal(
                e.observe(a)["observation"], copy.observe(a)["observation"]
            )
            np.testing.assert_array_equal(
                e.observe(a)["action_mask"], copy.observe(a)["action_mask"]
            )
        assert e.rewards == copy.rewards
        assert e._cumulative_rewards == copy._cumulative_rewards
        done = e.terminations[agent] or e.truncations[agent]
        action = None if done else _act(e, rng)
        e.step(action)
        copy.step(action)
        steps += 1


def test_rewards_add_up_to_the_score_changes() -> None:
    """Over a two-hand episode each agent's rewards sum to its score change."""
    e = raw_env("cutthroat", hands=2, single_set=True)
    e.reset(seed=11)
    rng = np.random.default_rng(1)
    total = dict.fromkeys(e.agents, 0.0)
    while not all(e.terminations.values()):
        e.step(_act(e, rng))
        for a, r in e.rewards.items():
            total[a] += r
    assert [total[a] for a in e.possible_agents] == list(e.episode.returns())
    assert len(e.episode.state.results) == 2 or binocle.is_over(e.episode.state)


def test_observation_is_the_information_state_tensor() -> None:
    """The observation is the seat's information-state tensor; the mask its legal ids."""
    e = raw_env("classic", render_mode="ansi")
    e.reset(seed=3)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    obs = e.observe(agent)
    view = binocle.observe(e.episode.state, seat)
    assert obs["observation"].tolist() == E.information_state_tensor(view)
    assert np.flatnonzero(obs["action_mask"]).tolist() == list(E.legal_ids(e.episode.state))
    other = e.possible_agents[1 - seat]
    assert not e.observe(other)["action_mask"].any()
    assert e.render() == E.observation_string(view)


@pytest.mark.parametrize(
    ("profile", "options"),
    [
        ("cutthroat", {}),
        ("classic", {}),
        ("classic", {"pack": 64}),
        ("three-handed", {"claim_overlooked": True}),
    ],
)
@pytest.mark.parametrize("observation", ["information_state", "observation"])
def test_every_observation_is_the_views_tensor(
    profile: str, options: dict[str, object], observation: str
) -> None:
    """At every step of random two-hand episodes (the classic stock draws and the
    second hand's deal among them), every agent's observation is the tensor of its
    seat's view of the game, and its mask the legal ids when its seat is to act
    (none otherwise); two reads give equal arrays that are not the same memory, and
    the tensor and the mask are writable, aligned and apart (a write to one leaves
    the other as it was)."""
    tensor = E.information_state_tensor if observation == "information_state" else None
    rng = np.random.default_rng(7)
    e = raw_env(profile, hands=2, observation=observation, **options)
    for seed in range(2):
        e.reset(seed=seed)
        steps = 0
        while e.agents:
            state = e.episode.state
            for seat, agent in enumerate(e.possible_agents):
                obs = e.observe(agent)
                view = binocle.observe(state, seat)
                want = tensor(view) if tensor else E.observation_tensor(view)
                assert obs["observation"].dtype == np.float32
                assert obs["observation"].tolist() == want, (steps, seat)
                legal = list(E.legal_ids(state)) if state.current_player == seat else []
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal, (steps, seat)
                again = e.observe(agent)
                assert np.array_equal(again["observation"], obs["observation"])
                assert not np.shares_memory(again["observation"], obs["observation"])
                assert not np.shares_memory(again["action_mask"], obs["action_mask"])
                assert not np.shares_memory(obs["observation"], obs["action_mask"])
                for array in (obs["observation"], obs["action_mask"]):
                    assert array.flags.writeable and array.flags.aligned
            agent = e.agent_selection
            if e.terminations[agent]:
                e.step(None)
                continue
            legal_ids = np.flatnonzero(e.observe(agent)["action_mask"])
            calm = [
                a for a in legal_ids if E.action_labels(e.profile)[a] not in ("claim", "concede")
            ]
            e.step(int(rng.choice(calm or legal_ids)))
            steps += 1
        assert steps > 40


def test_bad_arguments_and_illegal_actions() -> None:
    """Bad settings and illegal ids raise binocle errors; a refused step changes nothing."""
    with pytest.raises(binocle.InvalidArgumentError):
        raw_env("cutthroat", hands=0)
    with pytest.raises(binocle.InvalidArgumentError):
        raw_env("cutthroat", render_mode="rgb_array")
    with pytest.raises(binocle.UnknownProfileError):
        raw_env("cutthroat", min_bid=7)
    e = raw_env("cutthroat")
    e.reset(seed=1)
    before = e.episode
    with pytest.raises(binocle.IllegalActionError):
        e.step(E.action_labels("cutthroat").index("play AS"))
    assert e.episode is before


def test_dealer_option() -> None:
    """AI page, "PettingZoo" and "Seeds": dealer is a seat, "rotate" (the next seat at
    each reset, a seeded reset starting again at 0) or "random" (drawn from the seeded
    generator at each reset).  A seeded reset is a new environment's first: the same
    seed gives the same episode, dealer and hands included, whatever came before."""
    e = raw_env("classic", dealer=1)
    e.reset(seed=0)
    assert e.episode.state.dealer == 1
    e = raw_env("cutthroat", dealer="rotate")
    seats, hands = [], []
    for _ in range(3):
        e.reset(seed=7)
        seats.append(e.episode.state.dealer)
        hands.append(e.episode.state.hands[0])
    assert seats == [0, 0, 0] and hands[0] == hands[1] == hands[2]
    for _ in range(3):
        e.reset()
        seats.append(e.episode.state.dealer)
    assert seats[3:] == [1, 2, 0]

    def random_seats(seed: int) -> list[int]:
        e = raw_env("three-handed", dealer="random")
        out = []
        for k in range(12):
            e.reset(seed=seed + k)
            out.append(e.episode.state.dealer)
        return out

    assert random_seats(5) == random_seats(5) and set(random_seats(5)) == {0, 1, 2}
    for bad in (3, -1, "left", True, 1.0):
        with pytest.raises(binocle.InvalidArgumentError, match="dealer"):
            raw_env("three-handed", dealer=bad)


def _episode(e: object, seed: int) -> dict[str, float]:
    e.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)  # type: ignore[attr-defined]
    while not all(e.terminations.values()):  # type: ignore[attr-defined]
        e.step(_act(e, rng))  # type: ignore[attr-defined]
        for a, r in e.rewards.items():  # type: ignore[attr-defined]
            total[a] += r
    return total


def test_reward_options() -> None:
    """AI page, "Rewards": normalised is the score change scaled into [-1, 1]; win pays
    +1 to the winner and -1 to the others, a wrong claim included (never free)."""
    scale = max(-E.utility_bounds("classic")[0], E.utility_bounds("classic")[1])
    lost_by_claim = 0
    for seed in range(10):
        score = _episode(raw_env("classic"), seed)
        norm = _episode(raw_env("classic", reward="normalised"), seed)
        assert norm == pytest.approx({a: v / scale for a, v in score.items()})
        e = raw_env("classic", reward="win")
        win = _episode(e, seed)
        assert sorted(win.values()) in ([-1.0, 1.0], [0.0, 0.0])
        s = e.episode.state
        if binocle.is_over(s) and s.results[-1].outcome == "claimed":
            assert win[f"player_{binocle.winner(s)}"] == 1.0
            lost_by_claim += 1
    assert lost_by_claim > 0
    with pytest.raises(binocle.InvalidArgumentError, match="reward"):
        raw_env("classic", reward="points")


def test_actions_are_whole_numbers() -> None:
    """Error contract: an action is an int or a numpy integer; a float, a bool or text is
    refused with InvalidArgumentError and changes nothing."""
    e = raw_env("cutthroat")
    e.reset(seed=1)
    before = e.episode
    for bad in (0.9, 1.0, True, np.bool_(True), "3", np.float32(2.0), None):
        with pytest.raises(binocle.InvalidArgumentError, match="whole number"):
            e.step(bad)
        assert e.episode is before
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(np.int64(legal))
    assert e.episode is not before


def test_a_refused_step_keeps_the_uncollected_reward() -> None:
    """Error contract: a refused step changes nothing, so an agent's reward not yet
    collected (here: the score change of the hand that just ended) is still there."""
    for seed in range(40):
        e = raw_env("cutthroat", hands=2, single_set=True, max_bid=400)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not all(e.terminations.values()):
            e.step(_act(e, rng))
            agent = e.agent_selection
            pending = e._cumulative_rewards[agent]
            if pending and not e.terminations[agent]:
                illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
                with pytest.raises(binocle.IllegalActionError):
                    e.step(illegal)
                assert e._cumulative_rewards[agent] == pending
                assert e.last()[1] == pending
                return
    raise AssertionError("no hand ended with a reward pending")


def test_observation_options() -> None:
    """AI page, "PettingZoo": observation picks the tensor (the view of the hand in play,
    the compact view, or the perfect-recall one); normalised divides by tensor_scale;
    the Box bounds are finite except for points."""
    raw = raw_env("three-handed", hands=2, observation="perfect_recall")
    norm = raw_env("three-handed", hands=2, observation="perfect_recall", normalised=True)
    small = raw_env("three-handed", observation="observation")
    for e in (raw, norm, small):
        e.reset(seed=8)
    agent = raw.agent_selection
    seat = raw.possible_agents.index(agent)
    expected = E.perfect_recall_tensor(raw.episode, seat)
    assert raw.observe(agent)["observation"].tolist() == pytest.approx(expected)
    scale = E.tensor_scale("three-handed", "perfect_recall", 2)
    assert norm.observe(agent)["observation"].tolist() == pytest.approx(
        [x / k for x, k in zip(expected, scale, strict=True)]
    )
    view = binocle.observe(small.episode.state, seat)
    assert small.observe(agent)["observation"].tolist() == E.observation_tensor(view)
    box = norm.observation_space(agent)["observation"]
    finite = np.isfinite(box.high)
    assert finite.mean() > 0.99 and box.high[finite].max() <= 2.0
    for bad in ({"observation": "pixels"}, {"normalised": 1}):
        with pytest.raises(binocle.InvalidArgumentError):
            raw_env("classic", **bad)


class _CardByCard(raw_env):  # type: ignore[misc]
    """The environment drawing chance one outcome at a time, from the probabilities
    ``chance_outcomes`` lists: the sampling the environment's contract describes."""

    def _chance(self, walk: Any) -> None:
        # The environment's walk, stepped one outcome at a time as the episode there
        # lists them.
        while walk.is_chance():
            r = self._rng.random()
            outcomes = E.Episode._of_walk(walk).chance_outcomes()
            pick = outcomes[-1][0]
            for outcome, p in outcomes:
                r -= p
                if r < 0:
                    pick = outcome
                    break
            walk.step(pick)


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_a_deal_drawn_whole_is_the_deal_drawn_card_by_card(profile: str) -> None:
    """Chance drawn a deal or a draw at a time gives the same episode, outcome for
    outcome, as drawing each card from ``chance_outcomes`` with the seeded
    generator; the same seed, the same deals and stock draws."""
    for seed in range(4):
        fast, slow = raw_env(profile, hands=2), _CardByCard(profile, hands=2)
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while fast.agents:
            assert fast.episode.history == slow.episode.history
            assert fast.agent_selection == slow.agent_selection
            agent = fast.agent_selection
            if fast.terminations[agent]:
                fast.step(None)
                slow.step(None)
                continue
            legal = np.flatnonzero(fast.observe(agent)["action_mask"])
            calm = [a for a in legal if E.action_labels(profile)[a] not in ("claim", "concede")]
            a = int(rng.choice(calm or legal))
            fast.step(a)
            slow.step(a)
        assert fast.episode.history == slow.episode.history
        assert len(fast.episode.history) > 60


def test_reset_seeds_the_action_spaces() -> None:
    """``reset(seed=s)`` seeds agent ``i``'s action space with ``s + i``, through
    ``action_space`` and the ``action_spaces`` dict alike."""
    a, b = raw_env("cutthroat"), raw_env("cutthroat")
    a.reset(seed=5)
    b.reset(seed=5)
    drawn = [a.action_space(agent).sample() for agent in a.possible_agents for _ in range(4)]
    assert drawn == [b.action_spaces[x].sample() for x in b.possible_agents for _ in range(4)]
    ref = raw_env("cutthroat")
    for i, agent in enumerate(ref.possible_agents):
        ref.action_spaces[agent].seed(5 + i)
    assert drawn == [ref.action_space(x).sample() for x in ref.possible_agents for _ in range(4)]
    a.reset(seed=6)
    assert drawn != [a.action_space(x).sample() for x in a.possible_agents for _ in range(4)]


@pytest.mark.parametrize("seed", ["7", 1.5, -1, True, [1, 2], None])
def test_reset_takes_none_or_a_whole_number_from_zero(seed: Any) -> None:
    """Module docs: ``reset(seed=...)`` takes None or a whole number from 0 (a Python
    or NumPy integer); anything else raises InvalidArgumentError and changes nothing:
    the episode, the agent to act and the generator are those before."""
    e = raw_env("classic")
    e.reset(seed=3)
    e.step(int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0]))
    before = (e.episode.history, e.agent_selection, e._rng.bit_generator.state)
    if seed is None:  # None is taken: a fresh generator
        e.reset(seed=None)
        assert e.episode.history != before[0]
        return
    with pytest.raises(binocle.InvalidArgumentError, match="seed"):
        e.reset(seed=seed)
    assert (e.episode.history, e.agent_selection, e._rng.bit_generator.state) == before
    e.reset(seed=np.int64(3))  # a NumPy integer is a whole number
    f = raw_env("classic")
    f.reset(seed=3)
    assert (e.episode.history, e.episode.state) == (f.episode.history, f.episode.state)


def test_an_agent_not_of_the_game_is_refused() -> None:
    """Module docs: ``observe``, ``action_space`` and ``observation_space`` take one
    of ``possible_agents``; another name, or a value that is not a name, raises
    InvalidArgumentError (not a KeyError)."""
    e = raw_env("three-handed")
    e.reset(seed=2)
    for agent in ("player_3", "player_0 ", None, ["player_0"], 0):
        for method in (e.observe, e.action_space, e.observation_space):
            with pytest.raises(binocle.InvalidArgumentError, match="agent"):
                method(agent)
    assert e.action_space("player_2") is e.action_spaces["player_2"]
    assert e.observation_space("player_1") is e.observation_spaces["player_1"]


def test_partners_share_their_sides_reward() -> None:
    """Partnership rules, Scoring a hand: the side's score change is each partner's
    reward; over a random game partners' returns are equal."""
    e = env(profile="partnership", hands=2, passing=3, max_bid=400)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(5000):
        _, reward, term, trunc, _ = e.last()
        returns[agent] += reward
        e.step(None if term or trunc else _act(e, rng))
    a = e.possible_agents
    assert returns[a[0]] == returns[a[2]] and returns[a[1]] == returns[a[3]]
    assert any(returns.values())


@pytest.mark.skipif(
    sys.implementation.name != "cpython" or sys.version_info >= (3, 14),
    reason="counts the young-generation collections of CPython's generational collector "
    "(3.14's is incremental)",
)
@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_a_training_loop_leaves_the_garbage_collector_little_to_do(profile: str) -> None:
    """The encoder's memos of column tuples keep only the last steps' tuples and free
    them together: a random PettingZoo loop of 5,000 steps (the loop the docs show)
    starts at most 6 young-generation collections a 1,000 steps at the default
    thresholds (it was 6.4 to 11.4 when the memos kept 4,096 tuples each, the
    collections a fifth of the loop's time)."""
    e = env(profile)
    rng = random.Random(1)
    before_threshold = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        gc.collect()
        start = gc.get_stats()[0]["collections"]
        steps = seed = 0
        while steps < 5_000:
            seed += 1
            e.reset(seed=seed)
            for _agent in e.agent_iter():
                obs, _reward, termination, truncation, _info = e.last()
                if termination or truncation:
                    e.step(None)
                    continue
                e.step(rng.choice(obs["action_mask"].view(bool).nonzero()[0].tolist()))
                steps += 1
        collections = gc.get_stats()[0]["collections"] - start
    finally:
        gc.set_threshold(*before_threshold)
    assert collections <= 6 * steps / 1_000, (collections, steps)
