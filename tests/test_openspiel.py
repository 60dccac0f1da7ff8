"""The OpenSpiel games pass OpenSpiel's own checks (docs: "Binocle for AI research").

Needs the ``openspiel`` extra; without it the module is skipped (never in CI).
"""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import pytest

from adapters import need

pyspiel = need("pyspiel", "openspiel")
np = need("numpy", "openspiel")

import binocle  # noqa: E402
import binocle.openspiel as bos  # noqa: E402
from binocle import encoding as E  # noqa: E402

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
#: Each game with its defaults and with a non-default option set (and two hands).
GAMES = [
    "python_binocle_cutthroat",
    "python_binocle_cutthroat(hands=2,single_set=true,min_bid=300,max_bid=1000,easier_tricks=true)",
    "python_binocle_classic",
    "python_binocle_classic(hands=2,pack=64,grand_binocle=true)",
    "python_binocle_three_handed",
    "python_binocle_three_handed(hands=2,claim_overlooked=true,lowest_pays=true)",
]
#: The committed playthroughs: cutthroat with a low bid ceiling keeps its file small.
PLAYTHROUGH_GAMES = {
    "cutthroat": "python_binocle_cutthroat(max_bid=400)",
    "classic": "python_binocle_classic",
    "three-handed": "python_binocle_three_handed",
}


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    """OpenSpiel's random simulation test, with serialization, 50 games each."""
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=50, serialize=True, verbose=False)


def test_game_facts() -> None:
    """Action counts, chance outcomes, bounds and shapes come from binocle.encoding."""
    for profile, short in bos.GAMES.items():
        game = pyspiel.load_game(short)
        assert game.num_distinct_actions() == E.num_distinct_actions(profile)
        assert game.max_game_length() == E.max_decisions_per_hand(profile)
        assert game.information_state_tensor_size() == E.tensor_layout(profile).size
        assert game.observation_tensor_size() == E.tensor_layout(profile, "observation").size
        assert game.max_chance_outcomes() == 24
        assert (game.min_utility(), game.max_utility()) == E.utility_bounds(profile)
        t = game.get_type()
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    game = pyspiel.load_game("python_binocle_cutthroat(hands=3,max_bid=500)")
    assert game.num_distinct_actions() == E.num_distinct_actions("cutthroat(max_bid=500)")
    assert game.max_game_length() == 3 * E.max_decisions_per_hand("cutthroat(max_bid=500)")


def test_bad_parameters_are_refused() -> None:
    """A profile option out of range is an error naming the option."""
    with pytest.raises(binocle.UnknownProfileError, match="min_bid"):
        pyspiel.load_game("python_binocle_cutthroat(min_bid=255)")
    with pytest.raises(binocle.InvalidArgumentError, match="hands"):
        pyspiel.load_game("python_binocle_classic(hands=0)")


def _random_state(name: str, seed: int, steps: int) -> object:
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", list(bos.GAMES.values()))
def test_clone_serialize_and_pickle(name: str) -> None:
    """States clone, serialize with the game and pickle, and carry on identically."""
    for steps in (0, 30, 70, 120):
        state = _random_state(name, steps, steps)
        game = state.get_game()
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        state3 = pickle.loads(pickle.dumps(state))
        state4 = state.clone()
        for other in (state2, state3, state4):
            assert str(other) == str(state)
            assert other.history() == state.history()
            if not state.is_terminal():
                assert other.legal_actions() == state.legal_actions()
            for p in range(game.num_players()):
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
        assert str(game2) == str(game)
        assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_observations_come_from_the_view() -> None:
    """The adapter's strings and tensors are binocle.encoding's, from the seat's view."""
    state = _random_state("python_binocle_cutthroat", 4, 80)
    for p in range(3):
        view = binocle.observe(state.episode.state, p)
        assert state.information_state_string(p) == E.information_state_string(view)
        assert state.observation_string(p) == E.observation_string(view)
        assert state.information_state_tensor(p) == pytest.approx(E.information_state_tensor(view))


@pytest.mark.parametrize("profile", list(PLAYTHROUGH_GAMES))
def test_playthrough_replays_identically(profile: str) -> None:
    """The committed playthrough replays to the same text, so any change of the adapter's
    behaviour (ids, strings, tensors, chance, returns) shows as a diff.

    Regenerate with ``python tests/test_openspiel.py`` after a deliberate change.
    """
    from open_spiel.python.algorithms import generate_playthrough

    path = PLAYTHROUGHS / f"{bos.GAMES[profile]}.txt"
    original = path.read_text()
    game_string = re.search(r"^game: (.*)$", original, re.M).group(1)  # type: ignore[union-attr]
    actions = [int(a) for a in re.findall(r"^action: (\d+)$", original, re.M)]
    assert game_string == PLAYTHROUGH_GAMES[profile]
    assert len(actions) > 50
    again = generate_playthrough.playthrough(game_string, actions, seed=0)
    assert again == original


def _play_hand(game: object, bots: list[object], seed: int) -> list[float]:
    """One episode: chance from ``seed`` (so every run sees the same deals), bots decide."""
    chance = np.random.RandomState(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choice(actions, p=probs))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def test_ismcts_beats_random_through_the_adapter() -> None:
    """OpenSpiel's Python ISMCTS, resampling with binocle.determinize, plays full hands
    against random bots and scores more than a random player in its seat on the same deals."""
    from open_spiel.python.algorithms import ismcts, mcts

    if not hasattr(binocle, "determinize"):
        pytest.skip("binocle.determinize is not in this build")
    game = pyspiel.load_game("python_binocle_cutthroat(max_bid=400)")
    rng = random.Random(3)
    hands = 4
    search_total = random_total = 0.0
    for seed in range(hands):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c=300.0, max_simulations=25,
            random_state=np.random.RandomState(seed),
        )  # fmt: skip
        bot.set_resampler(lambda state, player: bos.resampler(state, player, rng))
        randoms = [pyspiel.make_uniform_random_bot(p, seed * 10 + p) for p in range(3)]
        search_total += _play_hand(game, [bot, randoms[1], randoms[2]], seed)[0]
        random_total += _play_hand(game, randoms, seed)[0]
    assert search_total > random_total


def regenerate() -> None:
    """Write the playthrough files again (after a deliberate change)."""
    from open_spiel.python.algorithms import generate_playthrough

    for profile, game_string in PLAYTHROUGH_GAMES.items():
        text = generate_playthrough.playthrough(game_string, None, seed=1)
        (PLAYTHROUGHS / f"{bos.GAMES[profile]}.txt").write_text(text)


if __name__ == "__main__":
    regenerate()
