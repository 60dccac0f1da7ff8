"""The OpenSpiel games pass OpenSpiel's own checks (docs: "Binocle for AI research").

Needs the ``openspiel`` extra; without it the module is skipped (never in CI).
"""

from __future__ import annotations

import copy
import json
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
    "python_binocle_cutthroat(dealer=2,reward=normalised,max_bid=500)",
    "python_binocle_classic(hands=2,dealer_choice=random,reward=win)",
    "python_binocle_three_handed(dealer_choice=rotate,reward=win)",
    "python_binocle_cutthroat(normalised=true,hands=2)",
    "python_binocle_partnership(hands=2,passing=3,double_set=true,max_bid=500,reward=win)",
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
        recall = E.tensor_layout(profile, "perfect_recall")
        assert game.information_state_tensor_size() == recall.size
        assert game.observation_tensor_size() == E.tensor_layout(profile, "observation").size
        assert game.max_chance_outcomes() == 24
        assert (game.min_utility(), game.max_utility()) == E.utility_bounds(profile)
        t = game.get_type()
        # One hand pays only at its end: the reward model is terminal (MCTSBot needs it).
        assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        two = pyspiel.load_game(f"{short}(hands=2)").get_type()
        assert two.reward_model == pyspiel.GameType.RewardModel.REWARDS
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    game = pyspiel.load_game("python_binocle_cutthroat(hands=3,max_bid=500)")
    assert game.num_distinct_actions() == E.num_distinct_actions("cutthroat(max_bid=500)")
    assert game.max_game_length() == 3 * E.max_decisions_per_hand("cutthroat(max_bid=500)")
    recall = E.tensor_layout("cutthroat(max_bid=500)", "perfect_recall", hands=3)
    assert game.information_state_tensor_size() == recall.size


def test_bad_parameters_are_refused() -> None:
    """A profile option out of range is an error naming the option."""
    with pytest.raises(binocle.UnknownProfileError, match="min_bid"):
        pyspiel.load_game("python_binocle_cutthroat(min_bid=255)")
    with pytest.raises(binocle.InvalidArgumentError, match="hands"):
        pyspiel.load_game("python_binocle_classic(hands=0)")
    # The episode's length must fit max_game_length (a 32-bit number): hands is capped.
    with pytest.raises(binocle.InvalidArgumentError, match="hands is 1 to 100000"):
        pyspiel.load_game("python_binocle_cutthroat(hands=100000000)")
    game = pyspiel.load_game(f"python_binocle_cutthroat(hands={bos.MAX_HANDS})")
    assert game.max_game_length() == bos.MAX_HANDS * E.max_decisions_per_hand("cutthroat")
    with pytest.raises(binocle.InvalidArgumentError, match="dealer"):
        pyspiel.load_game("python_binocle_classic(dealer=2)")
    with pytest.raises(binocle.InvalidArgumentError, match="dealer_choice"):
        pyspiel.load_game("python_binocle_classic(dealer_choice=left)")
    with pytest.raises(binocle.InvalidArgumentError, match="reward"):
        pyspiel.load_game("python_binocle_classic(reward=points)")


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


@pytest.mark.parametrize(
    "name", [*bos.GAMES.values(), "python_binocle_classic(hands=2,dealer_choice=random)"]
)
def test_clone_serialize_and_pickle(name: str) -> None:
    """States clone (OpenSpiel's clone, ``copy.deepcopy``), serialize with the game and
    pickle, and carry on identically, each on its own: where they stand, the legal ids
    and the chance outcomes agree step by step, and the original does not move."""
    for steps in (0, 1, 30, 70, 120):
        state = _random_state(name, steps, steps)
        game = state.get_game()
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        state3 = pickle.loads(pickle.dumps(state))
        state4 = state.clone()
        state5 = copy.deepcopy(state)
        for other in (state2, state3, state4, state5):
            assert str(other) == str(state)
            assert other.history() == state.history()
            assert other.current_player() == state.current_player()
            if not state.is_terminal():
                assert other.legal_actions() == state.legal_actions()
            for p in range(game.num_players()):
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
        assert str(game2) == str(game)
        assert str(pickle.loads(pickle.dumps(game))) == str(game)
        history = state.history()
        for other in (state2, state3, state4, state5):
            rng = random.Random(steps)  # the same steps for each
            for _ in range(12):
                if other.is_terminal():
                    break
                if other.is_chance_node():
                    other.apply_action(rng.choice(other.chance_outcomes())[0])
                else:
                    other.apply_action(rng.choice(other.legal_actions()))
            assert state.history() == history
        for a, b in zip((state2, state3, state4), (state3, state4, state5), strict=True):
            assert a.history() == b.history()
            assert a.current_player() == b.current_player()
            if not a.is_terminal():
                assert (a.legal_actions(), a.chance_outcomes()) == (
                    b.legal_actions(), b.chance_outcomes(),
                )  # fmt: skip


def test_observations_come_from_the_view() -> None:
    """The adapter's strings and tensors are binocle.encoding's: the information state
    the episode's perfect-recall one, the observation the seat's view of the present."""
    state = _random_state("python_binocle_cutthroat", 4, 80)
    for p in range(3):
        view = binocle.observe(state.episode.state, p)
        assert state.information_state_string(p) == E.perfect_recall_string(state.episode, p)
        assert state.observation_string(p) == E.observation_string(view)
        assert state.information_state_tensor(p) == pytest.approx(
            E.perfect_recall_tensor(state.episode, p)
        )
        assert state.observation_tensor(p) == pytest.approx(E.observation_tensor(view))


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


def _marker_pickle(marker: Path) -> str:
    """A pickle that creates ``marker`` when unpickled, base64 as OpenSpiel writes it."""
    import base64

    class Payload:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (Path.touch, (str(marker),))  # type: ignore[return-value]

    return base64.b64encode(pickle.dumps({"episode": Payload()})).decode()


def test_a_pickled_state_text_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    """AI page, "OpenSpiel": a state text is data; reading one never unpickles.  A text
    in OpenSpiel's pickled form (one that would create a file) is refused with
    InvalidStateError, through pyspiel and through the game, and creates nothing."""
    marker = tmp_path / "ran"
    payload = _marker_pickle(marker)
    # The payload is live: unpickled, it would create the file.
    import base64

    probe = tmp_path / "probe"
    pickle.loads(base64.b64decode(_marker_pickle(probe)))
    assert probe.exists()
    state_text = f"history=-1:0\nmove_number=1\n__dict__={payload}"
    text = (
        "# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n"
        f"[Game]\npython_binocle_classic()\n[State]\n{state_text}\n"
    )
    with pytest.raises(binocle.InvalidStateError, match="never read"):
        pyspiel.deserialize_game_and_state(text)
    game = pyspiel.load_game("python_binocle_classic")
    with pytest.raises(binocle.InvalidStateError):
        game.deserialize_state(state_text)
    # Wrapped in another game, or with its sections bent, it is refused all the same.
    for bent in (
        text.replace("python_binocle_classic()", "misere(game=python_binocle_classic())"),
        text.replace("[State]", "[state]"),
        text.replace("[Game]\n", "[Game]\n\n# note\n"),
    ):
        with pytest.raises(binocle.InvalidStateError):
            pyspiel.deserialize_game_and_state(bent)
    assert not marker.exists()


def test_state_texts_are_checked_json() -> None:
    """AI page, "OpenSpiel": a state text holds the action ids and binocle's JSON of the
    state; reading it replays the ids under the rules and checks the JSON against them."""
    state = _random_state("python_binocle_cutthroat(max_bid=400)", 2, 60)
    game = state.get_game()
    text = state.serialize()
    doc = json.loads(text)
    assert doc["format"] == "binocle-openspiel-state" and doc["history"] == state.history()
    again = game.deserialize_state(text)
    assert again.history() == state.history() and str(again) == str(state)
    assert binocle.loads(json.dumps(doc["state"])) == state.episode.state
    edited = dict(doc, history=doc["history"][:-1])
    with pytest.raises(binocle.InvalidStateError, match="not the one its history reaches"):
        game.deserialize_state(json.dumps(edited))
    other_dealer = pyspiel.load_game("python_binocle_cutthroat(max_bid=400,dealer=1)")
    with pytest.raises(binocle.InvalidStateError, match="first dealer"):
        other_dealer.deserialize_state(text)
    illegal = dict(doc, history=[*doc["history"], 10**6])
    with pytest.raises(binocle.InvalidStateError, match="not legal"):
        game.deserialize_state(json.dumps(illegal))
    for junk in ("", "{", "[]", '{"format": "x"}', json.dumps(dict(doc, history="1,2"))):
        with pytest.raises(binocle.InvalidStateError):
            game.deserialize_state(junk)
    # A key twice is ambiguous (readers differ on which value counts): refused.
    twice = text.replace('"history":', '"history": [], "history":', 1)
    assert twice != text
    with pytest.raises(
        binocle.InvalidStateError, match="ambiguous: the key 'history' appears twice"
    ):
        game.deserialize_state(twice)
    # Other games' texts still go to OpenSpiel.
    kuhn = pyspiel.load_game("kuhn_poker")
    k = kuhn.new_initial_state()
    k.apply_action(0)
    g2, k2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(kuhn, k))
    assert k2.history() == [0] and str(g2) == str(kuhn)


def test_dealer_parameters() -> None:
    """AI page, "OpenSpiel": dealer picks the first dealer; dealer_choice=random makes it
    the episode's first chance outcome, rotate moves it one seat per initial state."""
    assert (
        pyspiel.load_game("python_binocle_classic(dealer=1)")
        .new_initial_state()
        .episode.state.dealer
        == 1
    )
    game = pyspiel.load_game("python_binocle_cutthroat(dealer_choice=random)")
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(s, 1 / 3) for s in range(3)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "dealer 2"
    state.apply_action(2)
    assert state.episode.state.dealer == 2 and state.is_chance_node()
    assert len(state.chance_outcomes()) == 24
    again = game.deserialize_state(state.serialize())
    assert again.history() == [2] and again.episode.state.dealer == 2
    game = pyspiel.load_game("python_binocle_three_handed(dealer_choice=rotate)")
    seats = [game.new_initial_state().episode.state.dealer for _ in range(4)]
    assert seats == [0, 1, 2, 0]


def _play(game: object, seed: int, choose: object = None) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            state.apply_action(choose(state, legal, rng) if choose else rng.choice(legal))  # type: ignore[operator]
    return state


def test_reward_options() -> None:
    """AI page, "Rewards": score (score change), normalised (scaled into [-1, 1] by the
    bounds) and win (+1 winner, -1 the others); a wrong claim loses the game, so under
    win it costs the claimant -1.  Rewards add up to the returns; returns stay in the
    declared bounds."""
    score = pyspiel.load_game("python_binocle_classic")
    norm = pyspiel.load_game("python_binocle_classic(reward=normalised)")
    win = pyspiel.load_game("python_binocle_classic(reward=win)")
    scale = max(-score.min_utility(), score.max_utility())
    assert (norm.min_utility(), norm.max_utility()) == (0.0, 1.0)
    assert (win.min_utility(), win.max_utility()) == (-1.0, 1.0)
    claimed = 0
    for seed in range(12):
        a, b, c = (_play(g, seed) for g in (score, norm, win))
        assert b.returns() == pytest.approx([x / scale for x in a.returns()])
        assert all(x in (-1.0, 0.0, 1.0) for x in c.returns())
        s = c.episode.state
        if binocle.is_over(s):
            w = binocle.winner(s)
            assert c.returns() == [1.0 if i == w else -1.0 for i in range(2)]
            if s.results and s.results[-1].outcome == "claimed" and w is not None:
                claimed += 1
    assert claimed > 0
    # The rewards of a two-hand episode add up to its returns, step by step.
    name = "python_binocle_cutthroat(hands=2,reward=normalised,max_bid=400)"
    game = pyspiel.load_game(name)
    states = _walk(name, 4)
    total = [0.0, 0.0, 0.0]
    for state in states[1:]:
        total = [t + r for t, r in zip(total, state.rewards(), strict=True)]  # type: ignore[attr-defined]
    assert total == pytest.approx(states[-1].returns())  # type: ignore[attr-defined]
    assert all(game.min_utility() <= r <= game.max_utility() for r in states[-1].returns())  # type: ignore[attr-defined]


def test_mcts_bot_plays_a_one_hand_game() -> None:
    """AI page, "OpenSpiel": a one-hand game declares terminal rewards, so OpenSpiel's
    MCTSBot plays it (through the whole hand, against random)."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_binocle_classic")
    bot = mcts.MCTSBot(
        game, 2.0, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(0),
    )  # fmt: skip
    moves = []

    def choose(state: object, legal: list[int], rng: random.Random) -> int:
        if state.current_player() == 0:  # type: ignore[attr-defined]
            action = bot.step(state)
            moves.append(action)
            return int(action)
        return rng.choice(legal)

    state = _play(game, 1, choose)
    assert moves and len(state.returns()) == 2


def test_resample_from_infostate() -> None:
    """AI page, "OpenSpiel": resample_from_infostate draws the hidden cards with
    binocle.determinize; the player sees the same information state, the other hands
    vary, and the new state's history replays like any other (it serializes)."""
    state = _random_state("python_binocle_cutthroat(max_bid=400)", 3, 70)
    assert not state.is_chance_node() and not state.is_terminal()
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(6):
        new = state.resample_from_infostate(player, sampler)
        assert new.information_state_string(player) == state.information_state_string(player)
        assert new.legal_actions() == state.legal_actions()
        assert len(new.history()) == len(state.history())
        again = new.get_game().deserialize_state(new.serialize())
        assert str(again) == str(new)
        others.add(tuple(new.episode.state.hands[(player + 1) % 3]))
    assert len(others) > 1


@pytest.mark.parametrize("seed", [1, 2])
def test_the_resampler_answers_every_decision_of_multi_hand_episodes(seed: int) -> None:
    """AI page, "OpenSpiel": the resampler answers at every decision of a two-hand
    cutthroat episode played by random ids (hands conceded after the melds among
    them), and the player cannot tell the state it gives from the one it was
    given: the same information state (his own cards of the earlier hand included)."""
    game = pyspiel.load_game("python_binocle_cutthroat(hands=2)")
    rng = random.Random(seed)
    state = game.new_initial_state()
    asked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        player = state.current_player()
        if state.episode.state.results:
            new = bos.resampler(state, player, random.Random(asked))
            assert new.information_state_string(player) == state.information_state_string(player)
            asked += 1
        legal = state.legal_actions()
        concede = [a for a in legal if state.action_to_string(player, a) == "concede"]
        state.apply_action(rng.choice(concede if concede and rng.random() < 0.3 else legal))
    assert asked > 5 and any(r.outcome == "conceded" for r in state.episode.state.results)


def test_factored_observation_strings() -> None:
    """AI page, "OpenSpiel": the public observation string holds the public lines, hand
    sizes among them; the private string holds the seat's own cards only."""
    state = _random_state("python_binocle_cutthroat", 5, 60)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    private = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    game = state.get_game()
    pub = game.make_py_observer(public).string_from(state, 0)
    priv = game.make_py_observer(private).string_from(state, 0)
    assert "\nhand sizes " in f"\n{pub}" and "hand sizes" not in priv
    assert priv.startswith("hand ")
    assert [ln for ln in pub.split("\n") if ln.startswith("hand")] == [
        ln for ln in pub.split("\n") if ln.startswith("hand sizes ")
    ]


def _walk(name: str, seed: int) -> list[object]:
    """Every state of one random episode of game ``name`` (chance drawn by its odds)."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize(
    "name",
    [
        *bos.GAMES.values(),
        "python_binocle_classic(hands=2,dealer_choice=random)",
        "python_binocle_three_handed(hands=2,claim_overlooked=true)",
    ],
)
def test_python_legal_actions_agree_with_openspiel(name: str) -> None:
    """A Python caller's ``legal_actions`` and ``legal_actions_mask`` (answered by the
    state itself) give what OpenSpiel's C++ side gives (through ``_legal_actions`` and
    ``chance_outcomes``): at chance, decision and terminal states, for the player to act
    and for every other id, a pseudo-player's refusal included."""

    def outcome(call: object, *args: int) -> object:
        try:
            return call(*args)  # type: ignore[operator]
        except pyspiel.SpielError as exc:
            return ("SpielError", str(exc))

    kinds = set()
    for seed in range(4):
        for state in _walk(name, seed):
            kinds.add(
                "end" if state.is_terminal() else "chance" if state.is_chance_node() else "seat"
            )
            players = [None, -5, -4, -3, -2, -1, *range(state.get_game().num_players() + 1)]
            for p in players:
                args = () if p is None else (p,)
                for mine, theirs in (
                    (state.legal_actions, pyspiel.State.legal_actions),
                    (state.legal_actions_mask, pyspiel.State.legal_actions_mask),
                ):
                    expected = outcome(lambda *a, f=theirs, s=state: f(s, *a), *args)
                    assert outcome(mine, *args) == expected, (mine.__name__, p, str(state))
            # A caller that changes the list it was given changes nothing.
            got = state.legal_actions()
            got.append(-7)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
    assert kinds == {"end", "chance", "seat"}


@pytest.mark.parametrize("name", list(bos.GAMES.values()))
def test_a_deal_under_way_is_the_episode_of_its_ids(name: str) -> None:
    """Card by card through a deal (and the classic draws), the state's episode is the
    one its ids give applied one at a time, with the same chance outcomes; an outcome
    with no copy left is refused with IllegalActionError and changes nothing."""
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    state = game.new_initial_state()
    ep = E.Episode.new(game.profile)
    refused = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            gone = sorted(set(range(24)) - {a for a, _ in outcomes})
            if gone and refused < 5:
                with pytest.raises(binocle.IllegalActionError):
                    state.apply_action(gone[0])
                refused += 1
                assert state.chance_outcomes() == outcomes
            action = rng.choice(outcomes)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        ep = ep.apply(action)
        if rng.random() < 0.3 or state.is_terminal():
            assert state.chance_outcomes() == ep.chance_outcomes()
            assert state.legal_actions() == list(ep.legal_ids())
            assert state.episode.history == ep.history == tuple(state.history())
            assert (state.episode.deck, state.episode.actors) == (ep.deck, ep.actors)
            assert state.episode.state == ep.state
    assert refused == 5
    assert state.returns() == [float(x) for x in ep.returns()]


def test_normalised_observations() -> None:
    """``normalised=true`` divides every entry of the observation and information-state
    tensors by ``binocle.encoding.tensor_scale``'s (points and counts brought near
    [-1, 1]); the strings and everything else stay as they are."""
    for profile, short in bos.GAMES.items():
        for hands in (1, 2):
            plain = pyspiel.load_game(f"{short}(hands={hands})")
            scaled = pyspiel.load_game(f"{short}(hands={hands},normalised=true)")
            assert plain.get_parameters()["normalised"] is False
            assert scaled.observation_tensor_shape() == plain.observation_tensor_shape()
            obs = np.asarray(E.tensor_scale(profile, "observation", hands), np.float32)
            info = np.asarray(E.tensor_scale(profile, "perfect_recall", hands), np.float32)
            assert obs.max() > 1 and info.max() > 1  # the option changes something
            a, b = plain.new_initial_state(), scaled.new_initial_state()
            rng = random.Random(hands)
            big = 0.0
            while not a.is_terminal():
                if a.is_chance_node():
                    action = rng.choice(a.chance_outcomes())[0]
                else:
                    action = rng.choice(a.legal_actions())
                    for p in range(plain.num_players()):
                        raw_obs = np.asarray(a.observation_tensor(p), np.float32)
                        raw_info = np.asarray(a.information_state_tensor(p), np.float32)
                        big = max(big, float(np.abs(raw_obs).max()))
                        assert np.array_equal(b.observation_tensor(p), raw_obs / obs)
                        assert np.array_equal(b.information_state_tensor(p), raw_info / info)
                        assert b.observation_string(p) == a.observation_string(p)
                        assert b.information_state_string(p) == a.information_state_string(p)
                a.apply_action(action)
                b.apply_action(action)
            assert big > 100  # raw points seen, which the normalised tensors scale down
            assert b.returns() == a.returns()
    with pytest.raises(binocle.InvalidArgumentError, match="normalised"):
        bos.ClassicGame({"normalised": 1})


def regenerate() -> None:
    """Write the playthrough files again (after a deliberate change)."""
    from open_spiel.python.algorithms import generate_playthrough

    for profile, game_string in PLAYTHROUGH_GAMES.items():
        text = generate_playthrough.playthrough(game_string, None, seed=1)
        (PLAYTHROUGHS / f"{bos.GAMES[profile]}.txt").write_text(text)


if __name__ == "__main__":
    regenerate()
