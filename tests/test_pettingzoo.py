"""The PettingZoo environments pass PettingZoo's own tests (docs: "Binocle for AI research").

Needs the ``pettingzoo`` extra; without it the module is skipped (never in CI).
"""

from __future__ import annotations

import pickle

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
