"""The Gymnasium environment passes Gymnasium's own checker (docs: "Binocle for AI research").

Needs the ``pettingzoo`` extra (it brings Gymnasium); without it the module is skipped
(never in CI).
"""

from __future__ import annotations

import warnings

import pytest

from adapters import need

gymnasium = need("gymnasium", "pettingzoo")
np = need("numpy", "pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import binocle  # noqa: E402
from binocle import encoding as E  # noqa: E402
from binocle.bots import BaselineBot  # noqa: E402
from binocle.gym import IDS, BinocleEnv  # noqa: E402


@pytest.mark.parametrize("profile", sorted(IDS))
def test_check_env(profile: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Gymnasium's check_env passes with no warning, its render modes included
    (check_env steps ids it samples at random, so an illegal one ends the episode)."""
    env = gymnasium.make(IDS[profile], illegal=-1.0, opponents="baseline")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    assert "phase " in capsys.readouterr().out  # the "human" mode printed the view


def test_observation_mask_and_rewards_follow_the_game() -> None:
    """The observation is the learner's observation tensor, the mask its legal ids; the
    rewards over an episode sum to its score change; the bots play the other seats."""
    env = BinocleEnv("cutthroat", opponents=["baseline", BaselineBot(seed=3)], seat=1, hands=2)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    total = 0.0
    assert env.state is not None
    start = env.state.scores[1]
    done = False
    while not done:
        s = env.state
        assert s is not None and s.current_player == 1
        assert obs.tolist() == E.observation_tensor(binocle.observe(s, 1))
        assert np.flatnonzero(info["action_mask"]).tolist() == list(E.legal_ids(s))
        assert (env.action_masks() == info["action_mask"].astype(bool)).all()
        obs, reward, done, truncated, info = env.step(
            rng.choice(np.flatnonzero(info["action_mask"]))
        )
        assert not truncated
        total += reward
    assert env.state is not None
    assert total == env.state.scores[1] - start
    assert not info["action_mask"].any()
    with pytest.raises(binocle.IllegalActionError):
        env.step(0)


def test_a_seed_fixes_the_episode_and_seats_and_dealers_vary() -> None:
    """Two resets with one seed give the same episode; the dealer rotates and a random
    seat changes from episode to episode."""
    env = BinocleEnv("three-handed", seat="random")
    first = env.reset(seed=8)[0]
    np.testing.assert_array_equal(first, env.reset(seed=8)[0])
    dealers, seats = set(), set()
    for _ in range(12):
        env.reset()
        assert env.state is not None
        dealers.add(env.state.dealer)
        seats.add(env.seat)
    assert dealers == {0, 1, 2} and seats == {0, 1, 2}


def test_a_seeded_reset_is_a_new_environments_first() -> None:
    """AI page, "Seeds": a reset with a seed gives the episode that a new environment's
    first reset with that seed gives (dealer, seat and deal), whatever came before."""
    env = BinocleEnv("cutthroat", seat="random")
    env.reset(seed=4)
    for _ in range(5):
        env.reset()
    fresh = BinocleEnv("cutthroat", seat="random")
    np.testing.assert_array_equal(env.reset(seed=7)[0], fresh.reset(seed=7)[0])
    assert env.state == fresh.state and env.seat == fresh.seat


def test_illegal_ids_and_bad_settings() -> None:
    """By default an illegal id raises IllegalActionError and changes nothing; with a
    reward it ends the episode; bad settings raise InvalidArgumentError."""
    env = BinocleEnv("classic")
    with pytest.raises(binocle.InvalidArgumentError):
        env.step(0)  # before reset
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state
    with pytest.raises(binocle.IllegalActionError):
        env.step(bad)
    assert env.state is before
    with pytest.raises(binocle.IllegalActionError, match="bit number"):
        env.step(10**5000)  # its message quotes its size, not its 5,001 digits
    assert env.state is before
    for wrong in (0.5, True, "1"):
        with pytest.raises(binocle.InvalidArgumentError):
            env.step(wrong)
    ending = BinocleEnv("classic", illegal=-5)
    ending.reset(seed=1)
    _, reward, done, _, info = ending.step(bad)
    assert (reward, done, info["illegal"]) == (-5.0, True, True)
    for kwargs in (
        {"seat": 2}, {"dealer": "left"}, {"hands": 0}, {"illegal": "ignore"},
        {"render_mode": "rgb_array"}, {"opponents": ["random", "random"]},
        {"opponents": "no-such-bot"}, {"illegal": float("nan")}, {"illegal": float("inf")},
        {"illegal": 10**400},
    ):  # fmt: skip
        with pytest.raises(binocle.InvalidArgumentError):
            BinocleEnv("classic", **kwargs)  # type: ignore[arg-type]


def test_reset_takes_none_or_a_whole_number_from_zero() -> None:
    """Class docs: ``reset(seed=...)`` takes None or a whole number from 0; anything
    else raises InvalidArgumentError and changes nothing (the state and the
    generator are those before)."""
    env = BinocleEnv("cutthroat")
    env.reset(seed=4)
    before = (env.state, env.np_random.bit_generator.state)
    for seed in ("4", -1, 2.0, True, [4]):
        with pytest.raises(binocle.InvalidArgumentError, match="seed"):
            env.reset(seed=seed)  # type: ignore[arg-type]
        assert (env.state, env.np_random.bit_generator.state) == before
    obs, _ = env.reset(seed=np.int64(4))  # type: ignore[arg-type]
    again, _ = BinocleEnv("cutthroat").reset(seed=4)
    assert (obs == again).all()


@pytest.mark.parametrize("profile", sorted(IDS))
def test_normalised_observations(profile: str) -> None:
    """AI page, "Gymnasium": normalised=True divides the observation by tensor_scale, as
    PettingZoo's does; the Box has tensor_bounds' normalised bounds and holds every
    observation; check_env passes with it (and illegal= a reward)."""
    raw = BinocleEnv(profile, opponents="baseline")
    scaled = BinocleEnv(profile, opponents="baseline", normalised=True, illegal=-1.0)
    scale = np.asarray(E.tensor_scale(profile, "observation"), np.float32)
    a, info = raw.reset(seed=3)
    b, _ = scaled.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        np.testing.assert_allclose(b, a / scale, rtol=1e-6)
        assert scaled.observation_space.contains(b)
        ids = np.flatnonzero(info["action_mask"])
        if len(ids) == 0:
            break
        pick = int(rng.choice(ids))
        a, _, done, _, info = raw.step(pick)
        b, _, _, _, _ = scaled.step(pick)
        if done:
            break
    made = gymnasium.make(IDS[profile], illegal=-1.0, opponents="baseline", normalised=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(made.unwrapped)
    with pytest.raises(binocle.InvalidArgumentError, match="normalised"):
        BinocleEnv(profile, normalised=1)
