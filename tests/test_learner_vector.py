"""One learning seat in many games at once: ``binocle.gym.BinocleVectorEnv`` and its
Stable-Baselines3 form ``binocle.sb3.BinocleVecEnv`` (docs: "Binocle for AI research",
"One seat in many games").

Needs the ``pettingzoo`` extra (Gymnasium, numpy); the Stable-Baselines3 tests need the
``sb3`` extra as well.  Without them the tests skip (never in CI).
"""

from __future__ import annotations

from typing import Any

import pytest

from adapters import need

gymnasium = need("gymnasium", "pettingzoo")
np = need("numpy", "pettingzoo")

import binocle  # noqa: E402
from binocle import encoding as E  # noqa: E402
from binocle.errors import IllegalActionError, InvalidArgumentError  # noqa: E402
from binocle.gym import BinocleVectorEnv  # noqa: E402

PROFILES = ["cutthroat", "classic", "three-handed", "partnership"]


def _uniform(env: BinocleVectorEnv, rng: Any) -> Any:
    ids, starts = env.legal_ids()
    counts = np.diff(starts)
    return ids[starts[:-1] + (rng.random(env.num_envs) * counts).astype(np.intp)]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_learner_sees_its_own_seat_and_rewards_add_up_to_the_episode(profile: str) -> None:
    """Rule: every row is the learner's seat to decide, its observation tensor and legal ids
    (as the engine's view gives them); the rewards of an episode add up to the learner's
    score change over it, reported in ``final_info`` and equal to the games' own returns."""
    n = 6
    env = BinocleVectorEnv(profile, num_envs=n, seat=1, seed=11)
    obs, info = env.reset()
    rng = np.random.default_rng(2)
    total = np.zeros(n)
    finished = 0
    for step in range(160):
        assert (env.games.current_player == 1).all()
        assert (info["seat"] == 1).all()
        if step % 23 == 0:
            for i in range(n):
                view = binocle.observe(env.games.state(i), 1)
                assert obs[i].tolist() == E.observation_tensor(view)
                assert np.flatnonzero(info["action_mask"][i]).tolist() == list(E.legal_ids(view))
        obs, rewards, terminated, truncated, info = env.step(_uniform(env, rng))
        assert not truncated.any()
        total += rewards
        for i in np.flatnonzero(terminated).tolist():
            assert info["final_info"]["return"][i] == pytest.approx(total[i])
            assert info["_final_obs"][i] and info["final_obs"][i].shape == obs[i].shape
            total[i] = 0
            finished += 1
    assert finished > 0


def test_refused_ids_change_nothing_and_bad_arguments_are_refused() -> None:
    """Rule: an illegal id raises IllegalActionError naming the game, and no game moves;
    anything but ``num_envs`` whole numbers, bad seats, rewards, policies and opponents
    raise InvalidArgumentError."""
    env = BinocleVectorEnv("classic", num_envs=3, seed=5)
    with pytest.raises(InvalidArgumentError, match="reset"):
        env.step([0, 0, 0])
    obs, info = env.reset()
    before = obs.copy(), info["action_mask"].copy()
    illegal = np.flatnonzero(~info["action_mask"][1])[0]
    ids = _uniform(env, np.random.default_rng(0))
    ids[1] = illegal
    with pytest.raises(IllegalActionError, match="game 1"):
        env.step(ids)
    with pytest.raises(IllegalActionError, match="game 2"):
        env.step([int(ids[0]), int(ids[0]), -1])
    for bad in ([0, 0], [0.5, 0, 0], "abc", [True, 0, 0], np.zeros(3)):
        with pytest.raises(InvalidArgumentError):
            env.step(bad)
    assert (env.games.observations == before[0]).all()
    assert (env.action_masks() == before[1]).all()
    env.step(_uniform(env, np.random.default_rng(0)))  # and it goes on
    for kwargs in (
        {"seat": 3},
        {"seat": True},
        {"reward": "win"},
        {"normalised": 1},
        {"copy": "no"},
        {"opponent_policy": 3},
        {"opponents": ["random"] * 3},
        {"opponents": "no-such-bot"},
        {"num_envs": 0},
    ):
        with pytest.raises(InvalidArgumentError):
            BinocleVectorEnv("classic", **{"num_envs": 2, **kwargs})
    with pytest.raises(InvalidArgumentError):
        env.reset(seed=-1)


def test_a_seed_fixes_every_games_episodes() -> None:
    """Rule (the docs' Seeds): a reset with a seed is a new environment's first reset."""

    def run(env: BinocleVectorEnv, seed: int) -> list[Any]:
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs.copy(), env.seats.copy()]
        for _ in range(40):
            obs, rewards, terminated, _, _ = env.step(_uniform(env, rng))
            out += [obs.copy(), rewards.copy(), terminated.copy(), env.seats.copy()]
        return out

    kwargs: dict[str, Any] = {"num_envs": 4, "seat": "random", "opponents": "baseline"}
    a = BinocleVectorEnv("cutthroat", seed=9, **kwargs)
    first = run(a, 9)
    again = run(a, 9)
    fresh = run(BinocleVectorEnv("cutthroat", seed=1, **kwargs), 9)
    other = run(BinocleVectorEnv("cutthroat", **kwargs), 10)
    assert all((x == y).all() for x, y in zip(first, again, strict=True))
    assert all((x == y).all() for x, y in zip(first, fresh, strict=True))
    assert not all((x == y).all() for x, y in zip(first, other, strict=True))


@pytest.mark.parametrize("profile", ["cutthroat", "three-handed"])
def test_sample_legal_draws_the_learners_legal_ids(profile: str) -> None:
    """AI page, "One seat in many games": sample_legal draws one of the learner's legal
    ids in every game, uniformly (game i the floor(u * count)-th, u the generator's
    i-th number), from the environment's own generator where none is given, which a
    seeded reset fixes; before the first reset it is refused."""
    env = BinocleVectorEnv(profile, num_envs=6, seed=4)
    with pytest.raises(InvalidArgumentError):
        env.sample_legal()
    env.reset(seed=4)
    drawn = []
    for step in range(60):
        masks = env.action_masks()
        got = env.sample_legal(rng=np.random.default_rng(step))
        draws = np.random.default_rng(step).random(6)
        for i in range(6):
            legal = np.flatnonzero(masks[i])
            assert got[i] == legal[min(int(draws[i] * len(legal)), len(legal) - 1)]
        own = env.sample_legal()
        assert masks[np.arange(6), own].all()
        drawn.append(own.tolist())
        env.step(own)
    env.reset(seed=4)
    assert env.sample_legal().tolist() == drawn[0]


def test_opponents_bots_and_policies_play_the_other_seats() -> None:
    """Rule: ``opponent_policy`` gets, for each game where another seat decides, that seat's
    observation and legal ids, and its ids are played; an illegal one is refused and the
    environment must be reset.  Bots decide from their seat's view."""
    seen: list[int] = []

    def lowest(observations: Any, masks: Any) -> Any:
        env = holder[0]
        rows = np.flatnonzero(env.games.current_player != env.seats)
        assert len(rows) == len(observations) == len(masks)
        for k, i in enumerate(rows.tolist()):
            seat = int(env.games.current_player[i])
            view = binocle.observe(env.games.state(i), seat)
            assert observations[k].tolist() == E.observation_tensor(view)
            assert np.flatnonzero(masks[k]).tolist() == list(E.legal_ids(view))
        seen.append(len(rows))
        return np.array([np.flatnonzero(m)[0] for m in masks], np.int64)

    env = BinocleVectorEnv("three-handed", num_envs=3, opponent_policy=lowest, seed=3)
    holder = [env]
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(20):
        env.step(_uniform(env, rng))
    assert sum(seen) > 0

    env.opponent_policy = lambda o, m: np.full(len(m), 10**6, np.int64)
    with pytest.raises(InvalidArgumentError, match="not legal"):
        env.step(_uniform(env, rng))
    with pytest.raises(InvalidArgumentError, match="reset"):
        env.step([0, 0, 0])
    env.opponent_policy = None
    env.reset()  # the bots ("random") again
    env.step(_uniform(env, rng))

    bots = BinocleVectorEnv("cutthroat", num_envs=2, opponents=["baseline", "random"], seed=4)
    bots.reset()
    for _ in range(30):
        bots.step(_uniform(bots, rng))
    assert bots.games.hands_finished >= 0


def test_gymnasium_vector_wrappers_accept_it() -> None:
    """Gymnasium's vector API: spaces batched, same-step autoreset, its wrappers work."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = BinocleVectorEnv("classic", num_envs=4, seed=2, normalised=True, reward="normalised")
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    assert env.single_action_space.n == len(E.action_labels("classic"))
    assert env.observation_space.shape == (4, *env.single_observation_space.shape)
    stats = RecordEpisodeStatistics(env)
    obs, info = stats.reset(seed=2)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(120):
        assert env.single_observation_space.contains(obs[0])
        obs, rewards, _, _, info = stats.step(_uniform(env, rng))
        assert (np.abs(rewards) <= 1).all()
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0


def test_stable_baselines3_trains_on_it_with_masks_and_self_play() -> None:
    """Stable-Baselines3's VecEnv: MaskablePPO learns through it, and the learner's own
    policy can play the other seats."""
    need("stable_baselines3", "sb3")
    sb3_contrib = need("sb3_contrib", "sb3")
    from stable_baselines3.common.vec_env import VecMonitor

    from binocle.sb3 import BinocleVecEnv

    venv = BinocleVecEnv("classic", num_envs=8, seed=1, normalised=True, reward="normalised")
    assert venv.get_attr("render_mode") == [None] * 8
    masks = np.stack(venv.env_method("action_masks")) if venv.reset() is not None else None
    assert masks is not None and masks.shape == (8, venv.action_space.n)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", VecMonitor(venv), n_steps=32, batch_size=64, seed=1, verbose=0
    )
    model.learn(256)

    def policy(observations: Any, legal: Any) -> Any:
        return model.predict(observations, action_masks=legal)[0].astype(np.int64)

    venv.set_attr("opponent_policy", policy)
    obs = venv.reset()
    ended = 0
    for _ in range(60):
        action, _ = model.predict(obs, action_masks=np.stack(venv.env_method("action_masks")))
        obs, _, dones, infos = venv.step(action)
        for i in np.flatnonzero(dones).tolist():
            assert infos[i]["TimeLimit.truncated"] is False
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            ended += 1
    assert ended > 0
    with pytest.raises(InvalidArgumentError):
        venv.set_attr("opponent_policy", None, indices=[0])


@pytest.mark.parametrize("profile", PROFILES)
def test_stable_baselines3_check_env_passes_the_one_seat_environment(profile: str) -> None:
    """Stable-Baselines3's check_env passes BinocleEnv with ``illegal=`` a reward and
    normalised observations and rewards, with no warning; under the default
    ``illegal="raise"`` its first random id is refused with a message that says so."""
    need("stable_baselines3", "sb3")
    import warnings

    from stable_baselines3.common.env_checker import check_env

    from binocle.gym import BinocleEnv

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(BinocleEnv(profile, illegal=-1.0, normalised=True, reward="normalised"))
    with pytest.raises(IllegalActionError, match="illegal= a reward"):
        check_env(BinocleEnv(profile, opponents="baseline"))


@pytest.mark.parametrize("profile", PROFILES)
def test_the_margin_reward_is_the_score_change_less_the_other_sides(profile: str) -> None:
    """Rule: under ``reward="margin"`` an episode's return is the learner's score change
    less the mean of the other side's seats' (the games' own returns say what they were)."""
    n = 4
    env = BinocleVectorEnv(profile, num_envs=n, seat=0, seed=21, reward="margin")
    prof = env.profile
    others = [p for p in range(prof.players) if p not in prof.side_of(0)]
    env.reset()
    rng = np.random.default_rng(4)
    total = np.zeros(n)
    checked = 0
    for _ in range(150):
        _, rewards, terminated, _, info = env.step(_uniform(env, rng))
        total += rewards
        for i in np.flatnonzero(terminated).tolist():
            change = env.games.final_returns[i]
            margin = change[0] - np.mean([change[p] for p in others])
            assert info["final_info"]["return"][i] == pytest.approx(total[i])
            assert total[i] == pytest.approx(margin)
            total[i] = 0
            checked += 1
    assert checked > 0
