"""The vectorized environment (docs: "Binocle for AI research", Many games at once).

Needs numpy and librt (the ``pettingzoo`` extra brings both); without it the module is skipped
(never in CI).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters import need

np = need("numpy", "pettingzoo")
need("librt", "pettingzoo")

import binocle  # noqa: E402
from binocle import encoding as E  # noqa: E402
from binocle.vector import VectorEnv  # noqa: E402

SETTINGS = [
    ("cutthroat", {}),
    ("cutthroat", {"hands": 2, "single_set": True}),
    ("classic", {}),
    ("classic", {"hands": 2, "pack": 64}),
    ("three-handed", {}),
    ("three-handed", {"hands": 2, "claim_overlooked": True}),
]


def _random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask])


def _honest(mask: np.ndarray, rng: np.random.Generator, profile: object) -> np.ndarray:
    """Uniform among the legal ids but claims and concessions (while another is legal),
    so that hands are played to their end: table plays, the stock's end, retirements."""
    calm = np.array([label not in ("claim", "concede") for label in E.action_labels(profile)])
    allowed = mask & calm
    allowed = np.where(allowed.any(axis=1, keepdims=True), allowed, mask)
    return _random(allowed, rng)


@pytest.mark.parametrize(("profile", "options"), SETTINGS)
def test_arrays_are_the_seats_observation_and_legal_ids(
    profile: str, options: dict[str, object]
) -> None:
    """At every step each game's row is exactly the observation tensor of its seat to act
    (read from that seat's view), its mask that seat's legal ids."""
    env = VectorEnv(profile, num_envs=6, seed=3, **options)  # type: ignore[arg-type]
    obs, mask = env.reset()
    rng = np.random.default_rng(1)
    for step in range(500):
        for i in range(env.num_envs):
            s = env.state(i)
            seat = s.current_player
            assert seat is not None
            assert env.current_player[i] == seat
            view = binocle.observe(s, seat)
            assert obs[i].tolist() == E.observation_tensor(view)
            assert np.flatnonzero(mask[i]).tolist() == list(E.legal_ids(s))
        # The sparse form holds the same ids, game by game.
        ids, starts = env.legal_ids()
        assert starts[0] == 0 and starts[-1] == len(ids) == mask.sum()
        for i in range(env.num_envs):
            assert ids[starts[i] : starts[i + 1]].tolist() == np.flatnonzero(mask[i]).tolist()
        # Every other stretch of steps plays honestly, the rest uniformly.
        honest = step // 50 % 2 == 1
        actions = _honest(mask, rng, env.profile) if honest else _random(mask, rng)
        obs, mask, _, _ = env.step(actions)


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_rewards_add_up_to_each_finished_episodes_returns(profile: str) -> None:
    """Each seat's rewards over an episode sum to its score change, which
    ``final_returns`` holds at the step that ends it; the next episode starts at once."""
    env = VectorEnv(profile, num_envs=4, seed=7, hands=2)
    _, mask = env.reset()
    rng = np.random.default_rng(2)
    running = np.zeros((4, env.num_players))
    finished = 0
    for _ in range(400):
        scores = [env.state(i).scores for i in range(4)]
        _, mask, rewards, dones = env.step(_random(mask, rng))
        running += rewards
        for i in np.flatnonzero(dones):
            np.testing.assert_array_equal(running[i], env.final_returns[i])
            running[i] = 0
            assert env.state(i).results == ()  # a new game, its first hand dealt
            finished += 1
        for i in np.flatnonzero(~dones):
            assert list(rewards[i]) == [
                a - b for a, b in zip(env.state(i).scores, scores[i], strict=True)
            ]
        np.testing.assert_array_equal(env.returns, running)
    assert finished > 0


def test_dealers_rotate_and_a_seed_fixes_the_run() -> None:
    """With ``dealer="rotate"`` game i's k-th episode is dealt by seat (i + k) % players;
    a seed gives the same games, a ``"random"`` dealer is some seat."""
    env = VectorEnv("cutthroat", num_envs=3, seed=1)
    env.reset()
    assert env.dealers.tolist() == [0, 1, 2]
    assert [env.state(i).dealer for i in range(3)] == [0, 1, 2]
    rng = np.random.default_rng(0)
    seen: set[int] = set()
    mask = env.action_masks
    while len(seen) < 3:
        _, mask, _, dones = env.step(_random(mask, rng))
        if dones[0]:
            seen.add(int(env.dealers[0]))
            assert env.state(0).dealer == env.dealers[0]
    a, b = VectorEnv("classic", num_envs=2, seed=9), VectorEnv("classic", num_envs=2, seed=9)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    assert a.state(1) == b.state(1)
    r = VectorEnv("three-handed", num_envs=5, dealer="random", seed=2)
    r.reset()
    assert set(r.dealers.tolist()) <= {0, 1, 2}
    fixed = VectorEnv("three-handed", num_envs=2, dealer=1)
    fixed.reset()
    assert fixed.dealers.tolist() == [1, 1]


def test_a_seeded_reset_is_a_new_environments_first() -> None:
    """AI page, "Seeds": a reset with a seed gives the games, dealers included, that a
    new environment built with that seed gives, whatever was played before."""
    env = VectorEnv("cutthroat", num_envs=3, seed=1)
    env.reset()
    rng = np.random.default_rng(0)
    mask = env.action_masks
    for _ in range(400):
        _, mask, _, _ = env.step(_random(mask, rng))
    assert env.dealers.tolist() != [0, 1, 2]  # the rotation moved on
    fresh = VectorEnv("cutthroat", num_envs=3, seed=9)
    np.testing.assert_array_equal(env.reset(seed=9)[0], fresh.reset()[0])
    assert env.dealers.tolist() == fresh.dealers.tolist() == [0, 1, 2]
    assert all(env.state(i) == fresh.state(i) for i in range(3))


def test_each_episode_is_dealt_from_the_generators_next_draw() -> None:
    """AI page, "Seeds": each episode's game seed is the next draw (``integers(2**62)``)
    of the generator that ``seed`` seeds, in the order the episodes begin (game by game
    within a step); a ``"random"`` dealer is drawn just before its episode's seed, the
    other dealer rules draw nothing."""
    for dealer in ("rotate", "random", 1):
        env = VectorEnv("cutthroat", num_envs=3, seed=4, dealer=dealer)
        env.reset()
        rng = np.random.default_rng(4)
        begun = [0, 1, 2]  # the games whose episode began, in order
        picks = np.random.default_rng(0)
        episodes = 0
        while episodes < 8:
            for i in begun:
                if dealer == "random":
                    assert env.dealers[i] == rng.integers(3)
                assert env.state(i).seed == rng.integers(1 << 62)
            episodes += len(begun)
            dones = env.step(_random(env.action_masks, picks))[3]
            begun = [int(i) for i in np.flatnonzero(dones)]


def test_a_deal_shuffles_the_pack_as_random_shuffle_does() -> None:
    """Deal: the deck the games held in place deal from is the sorted pack shuffled by
    ``random.Random(seed).shuffle``, as the engine's is."""
    import random

    from binocle.cards import pack
    from binocle.rules.deal import shuffled_pack

    for size in (48, 64):
        for k in range(300):
            seed = f"binocle:{k * 7919}:{k % 3}"
            deck = list(pack(size))
            random.Random(seed).shuffle(deck)
            assert shuffled_pack(size, seed) == tuple(deck)


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([48, 64]),
    seed=st.one_of(
        st.integers(0, (1 << 62) - 1).map(lambda n: f"binocle:{n}:{n % 7}"),
        st.text(max_size=300),
    ),
)
def test_the_batches_own_generator_shuffles_as_pythons_does(size: int, seed: str) -> None:
    """Deal: the games held in place shuffle the pack with a Mersenne Twister of their
    own (compiled, on machine integers), which draws exactly what
    ``random.Random(seed)`` draws for the engine's shuffle, for any seed text (long
    texts give keys of many words; a text of no bytes, a key of one)."""
    from binocle.encoding._shuffle import shuffled_deck, twister_deck
    from binocle.rules.deal import shuffled_pack

    engine = shuffled_pack(size, seed)
    assert twister_deck(size, seed) == engine
    assert shuffled_deck(size, seed) == engine


def test_illegal_ids_and_bad_arguments_are_refused() -> None:
    """An illegal id raises IllegalActionError naming its game and changes no game;
    wrong settings and actions of the wrong shape raise InvalidArgumentError."""
    env = VectorEnv("cutthroat", num_envs=2, seed=4)
    with pytest.raises(binocle.InvalidArgumentError):
        env.step([0, 0])  # before reset
    with pytest.raises(binocle.InvalidArgumentError):
        env.legal_ids()
    _, mask = env.reset()
    states = [env.state(0), env.state(1)]
    good = int(np.flatnonzero(mask[0])[0])
    bad = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(binocle.IllegalActionError, match="game 1"):
        env.step(np.array([good, bad]))
    assert [env.state(0), env.state(1)] == states
    assert env.state(0) is states[0]
    for far in (-1, env.num_actions, 10**5000):  # outside the space: named shortly
        with pytest.raises(binocle.IllegalActionError, match="game 0: action id"):
            env.step([far, good])
    assert [env.state(0), env.state(1)] == states
    for wrong in ([good], np.array([0.5, 1.0]), [good, True], "ab"):
        with pytest.raises(binocle.InvalidArgumentError):
            env.step(wrong)
    for kwargs in (
        {"num_envs": 0},
        {"hands": 0},
        {"dealer": 3},
        {"dealer": "left"},
        {"seed": -1},
        {"seed": "x"},
        {"seed": 1.5},
    ):
        with pytest.raises(binocle.InvalidArgumentError):
            VectorEnv("cutthroat", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(binocle.InvalidArgumentError):
        env.state(2)
    with pytest.raises(binocle.InvalidArgumentError):
        env.reset(seed=-3)
    assert env.state(1) == states[1]  # the refused reseed changed nothing


def _enders(profile: object) -> np.ndarray:
    """The ids of claims and concessions (which end a hand at once)."""
    return np.array([label in ("claim", "concede") for label in E.action_labels(profile)])


def _drawn(env: VectorEnv, avoid: np.ndarray | None, draws: np.ndarray) -> list[int]:
    """sample_legal's rule, written plainly: game i takes the floor(u * count)-th of
    its legal ids not avoided (all of them where each is avoided), ascending."""
    out = []
    for i in range(env.num_envs):
        legal = np.flatnonzero(env.action_masks[i]).tolist()
        calm = [a for a in legal if avoid is None or not avoid[a]] or legal
        out.append(calm[min(int(draws[i] * len(calm)), len(calm) - 1)])
    return out


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed", "partnership"])
def test_sample_legal_draws_each_games_legal_ids_uniformly(profile: str) -> None:
    """AI page, "VectorEnv": sample_legal gives one legal id per game, the
    floor(u * count)-th of those ``avoid`` leaves (all where it leaves none), u drawn
    from the generator once per game; the same ids in games held in place and in
    games stepped through the engine (the partnership game)."""
    env = VectorEnv(profile, num_envs=16, seed=2)
    env.reset()
    enders = _enders(env.profile)
    everything = np.ones(env.num_actions, bool)  # each game falls back to all its ids
    avoided = 0
    for step in range(300):
        drawn = {}
        for key, avoid in (("none", None), ("everything", everything), ("enders", enders)):
            draws = np.random.default_rng(step).random(env.num_envs)
            got = env.sample_legal(avoid, np.random.default_rng(step))
            assert got.dtype == np.int64 and got.shape == (env.num_envs,)
            assert got.tolist() == _drawn(env, avoid, draws)
            assert env.action_masks[np.arange(env.num_envs), got].all()
            drawn[key] = got.tolist()
        assert drawn["everything"] == drawn["none"]
        for i in range(env.num_envs):
            legal = np.flatnonzero(env.action_masks[i])
            if enders[legal].any() and not enders[legal].all():
                assert not enders[got[i]]
                avoided += 1
        env.step(got)
    assert avoided > 0  # claims were legal and left alone
    # Uniform: one game's ids drawn 12,000 times, each within 5 sigma of its share.
    game = 0
    legal = np.flatnonzero(env.action_masks[game])
    counts = {int(a): 0 for a in legal}
    gen = np.random.default_rng(9)
    for _ in range(12_000):
        counts[int(env.sample_legal(None, gen)[game])] += 1
    share = 12_000 / len(legal)
    sigma = (share * (1 - 1 / len(legal))) ** 0.5
    assert all(abs(c - share) < 5 * sigma for c in counts.values()), counts


def test_sample_legal_draws_from_the_environments_seed_and_refuses_bad_arguments() -> None:
    """AI page, "VectorEnv": without ``rng`` sample_legal draws from the environment's
    own generator, which the environment's seed (and a seeded reset) fixes; a wrong
    ``avoid`` or ``rng``, or a call before reset, raises InvalidArgumentError and draws
    nothing."""
    first = VectorEnv("classic", num_envs=8, seed=5)
    second = VectorEnv("classic", num_envs=8, seed=5)
    with pytest.raises(binocle.InvalidArgumentError):
        first.sample_legal()
    first.reset()
    second.reset()
    runs = []
    for env in (first, second):
        run = []
        for _ in range(40):
            ids = env.sample_legal()
            run.append(ids.tolist())
            env.step(ids)
        runs.append(run)
    assert runs[0] == runs[1]
    first.reset(seed=5)
    assert first.sample_legal().tolist() == runs[0][0]
    size = first.num_actions
    kept = first._sampler.bit_generator.state
    for avoid in (
        np.zeros(size + 1, bool),
        np.zeros(size, np.uint8),
        [False] * size,
        np.zeros((1, size), bool),
        "x",
    ):
        with pytest.raises(binocle.InvalidArgumentError, match="avoid"):
            first.sample_legal(avoid)  # type: ignore[arg-type]
    for rng in (7, "rng", np.random.RandomState(1)):
        with pytest.raises(binocle.InvalidArgumentError, match="rng"):
            first.sample_legal(None, rng)  # type: ignore[arg-type]
    assert first._sampler.bit_generator.state == kept


def test_the_number_of_games_is_bounded() -> None:
    """AI page, "VectorEnv": num_envs is 1 to MAX_ENVS; a larger count is refused with
    InvalidArgumentError naming the bound, before anything is allocated."""
    from binocle.vector import MAX_ENVS

    for n in (MAX_ENVS + 1, 10**6, 10**30):
        with pytest.raises(binocle.InvalidArgumentError, match=f"1 to {MAX_ENVS}"):
            VectorEnv("cutthroat", num_envs=n)


def test_hands_played_out_are_counted_apart_from_hands_ended_early() -> None:
    """``hands_played_out`` counts only hands played to their last trick."""
    env = VectorEnv("classic", num_envs=4, seed=5)
    _, mask = env.reset()
    rng = np.random.default_rng(3)
    labels = E.action_labels("classic")
    enders = np.array([label in ("claim", "concede") for label in labels])
    while env.hands_played_out < 2:
        honest = mask & ~enders
        pick = np.where(honest.any(axis=1, keepdims=True), honest, mask)
        _, mask, _, _ = env.step(_random(pick, rng))
    assert env.hands_finished >= env.hands_played_out >= 2


class _ThroughTheEngine(VectorEnv):
    """The environment with every game stepped through the engine's states."""

    _in_place = ()


_IN_PLACE = [
    {"seed": 3},
    {"seed": 5, "hands": 3, "dealer": "random"},
    {"seed": 7, "dealer": 1, "target": 300, "single_set": True},
    {"seed": 9, "hands": 2, "max_hands": 2, "easier_tricks": True, "widow_after_round": 0},
    {"seed": 11, "min_bid": 100, "max_bid": 300, "bunched_hands": True},
]


def _by_turns(step: int) -> bool:
    return step // 40 % 2 == 1


def _lockstep(
    options: dict[str, object],
    steps: int,
    games: int = 12,
    profile: str = "cutthroat",
    calm: Callable[[int], bool] = _by_turns,
    tables_kept: int | None = None,
) -> tuple[VectorEnv, list[binocle.GameState]]:
    """Step games in place and through the engine side by side, with the same ids,
    comparing every array and count at every step, and the states every 25 steps
    (returned with the environment).  Play is uniform, but at the steps where
    ``calm(step)`` is true: uniform but for claims and concessions then (by turns
    of 40 steps unless told).  ``tables_kept``: how many meld tables the batch's
    games share (its own number unless told)."""
    fast = VectorEnv(profile, num_envs=games, **options)  # type: ignore[arg-type]
    slow = _ThroughTheEngine(profile, num_envs=games, **options)  # type: ignore[arg-type]
    assert fast._batch is not None and slow._batch is None
    if tables_kept is not None:
        fast._batch.tables_kept = tables_kept
    fast.reset()
    slow.reset()
    rng = np.random.default_rng(1)
    seen: list[binocle.GameState] = []
    names = ["observations", "action_masks", "current_player", "rewards", "dones"]
    names += ["returns", "final_returns", "dealers"]
    for step in range(steps):
        for name in names:
            np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), name)
        for a, b in zip(fast.legal_ids(), slow.legal_ids(), strict=True):
            np.testing.assert_array_equal(a, b)
        assert fast.hands_finished == slow.hands_finished
        assert fast.hands_played_out == slow.hands_played_out
        if step % 25 == 0:
            states = [fast.state(i) for i in range(games)]
            assert states == [slow.state(i) for i in range(games)]
            seen += states
        # The same draws pick the same ids, held in place or through the engine.
        avoid = None if step % 2 else _enders(fast.profile)
        drawn = fast.sample_legal(avoid, np.random.default_rng(step))
        np.testing.assert_array_equal(drawn, slow.sample_legal(avoid, np.random.default_rng(step)))
        mask = fast.action_masks
        pick = _honest(mask, rng, fast.profile) if calm(step) else _random(mask, rng)
        fast.step(pick)
        slow.step(pick)
    return fast, seen


@pytest.mark.parametrize("options", _IN_PLACE)
def test_cutthroat_in_place_steps_as_the_engine_does(options: dict[str, object]) -> None:
    """Cutthroat games held as numbers (the rules of the cutthroat profile, every option)
    give, step by step, exactly the arrays, counts and states of the same games stepped
    through the engine: same seeds, same ids."""
    fast, _ = _lockstep(options, 400)
    assert fast.hands_finished > 12 and fast.hands_played_out > 0


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    hands=st.integers(1, 3),
    dealer=st.sampled_from(["rotate", "random", 0, 1, 2]),
    low=st.integers(1, 40),
    span=st.integers(0, 40),
    target=st.integers(1, 300),
    flags=st.lists(st.booleans(), min_size=3, max_size=3),
    widow=st.integers(0, 4),
    max_hands=st.none() | st.integers(1, 3),
)
def test_cutthroat_in_place_under_any_options(
    seed: int,
    hands: int,
    dealer: object,
    low: int,
    span: int,
    target: int,
    flags: list[bool],
    widow: int,
    max_hands: int | None,
) -> None:
    """Property: for any cutthroat options, episode length, dealer rule and seed, the
    games held in place step exactly as the engine's (cutthroat rules, every option)."""
    options = {
        "seed": seed,
        "hands": hands,
        "dealer": dealer,
        "min_bid": low * 10,
        "max_bid": (low + span) * 10,
        "target": target * 10,
        "single_set": flags[0],
        "easier_tricks": flags[1],
        "bunched_hands": flags[2],
        "widow_after_round": widow,
        "max_hands": max_hands,
    }
    _lockstep(options, 120, games=6)


def test_cutthroat_in_place_bunched_hand_is_thrown_in() -> None:
    """Bunched hands (cutthroat rules, Bidding): a seat with five or more Nines and no meld
    but dix may throw the hand in before it bids; the same dealer deals again."""
    p = binocle.profile("cutthroat", bunched_hands=True)
    env = VectorEnv(p, num_envs=1, seed=0, hands=2)
    env.reset()
    batch = env._batch
    assert batch is not None
    batch.begin(0, 58, 0)  # game seed 58: seat 1, first to bid, holds a bunched hand
    env._write()
    s = binocle.new_game(p, seed=58)
    assert np.flatnonzero(env.action_masks[0]).tolist() == list(E.legal_ids(s))
    bunch = E.action_space(p).id(s, "bunch")
    assert env.action_masks[0, bunch]
    _, _, _, dones = env.step([bunch])
    assert not dones[0] and env.hands_finished == 1 and env.hands_played_out == 0
    thrown = binocle.apply(s, "bunch")
    assert thrown.results[-1].outcome == "redeal" and thrown.dealer == 0
    assert env.state(0) == binocle.apply(thrown, binocle.legal_actions(thrown)[0])


def _mostly_calm(step: int) -> bool:
    """Uniform play at 10 steps of 100 (claims most likely there), else no claims."""
    return step % 100 >= 10


_CLASSIC_IN_PLACE = [
    {"seed": 3},
    {"seed": 5, "hands": 3, "dealer": "random", "pack": 64, "grand_binocle": True},
    {"seed": 7, "hands": 4, "dealer": 1, "target": 150, "max_hands": 3},
]


@pytest.mark.parametrize("options", _CLASSIC_IN_PLACE)
def test_classic_in_place_steps_as_the_engine_does(options: dict[str, object]) -> None:
    """Classic games held as numbers (the rules of the classic profile: the stock, the
    meld tables and their copies, dix, the play after the stock, knocking, every
    option) give, step by step, exactly the arrays, counts and states of the same
    games stepped through the engine: same seeds, same ids.  Long turns of play
    without claims take hands to their last trick and past the stock."""
    fast, _ = _lockstep(options, 900, profile="classic", calm=_mostly_calm)
    assert fast.hands_finished > 24 and fast.hands_played_out > 12


_THREE_HANDED_IN_PLACE = [
    {"seed": 3},
    {"seed": 5, "hands": 3, "claim_overlooked": True},
    {"seed": 7, "hands": 3, "claim_overlooked": True, "grand_binocle": True, "dealer": "random"},
    {"seed": 9, "hands": 2, "lowest_pays": True, "meld_until_first_card": False, "target": 300},
    {"seed": 11, "hands": 4, "target": 200, "max_hands": 3, "dealer": 2},
]


@pytest.mark.parametrize("options", _THREE_HANDED_IN_PLACE)
def test_three_handed_in_place_steps_as_the_engine_does(options: dict[str, object]) -> None:
    """Three-handed games held as numbers (the rules of the three-handed profile: dix and
    the exchange, the melds and announcements until the first card, overlooked melds,
    knocking, retirement and its dead cards, every option; the two-handed game after
    a retirement through the engine) give, step by step, exactly the arrays, counts
    and states of the same games stepped through the engine: same seeds, same ids."""
    fast, seen = _lockstep(options, 900, profile="three-handed", calm=_mostly_calm)
    assert fast.hands_finished > 24 and fast.hands_played_out > 6
    if not options.get("lowest_pays"):  # with lowest_pays a wrong claim ends the game
        assert any(s.retired is not None for s in seen)  # type: ignore[attr-defined]
    if options.get("hands") and not options.get("lowest_pays"):
        # The two-handed game after a retirement was reached and stepped.
        assert any(s.sub is not None for s in seen)  # type: ignore[attr-defined]


@pytest.mark.parametrize("profile", ["classic", "three-handed"])
@pytest.mark.parametrize("kept", [0, 3, None])
def test_meld_tables_shared_or_not_step_as_the_engine_does(profile: str, kept: int | None) -> None:
    """The games of a batch share what is found of a meld table (a table laid down
    from another by the same announcement is one object in every game) while its
    store has room, and keep a table alone once it is full: games step exactly as
    through the engine with no table shared, with the store full after three, and
    with the batch's own number; the store never holds more than that number."""
    fast, _ = _lockstep({"seed": 13}, 400, profile=profile, calm=_mostly_calm, tables_kept=kept)
    batch = fast._batch
    assert batch is not None
    held = len(batch.tables)
    if kept is None:
        assert 3 < held <= batch.tables_kept  # tables were shared
    else:
        assert held == kept  # full: every later table kept by its game alone


@settings(max_examples=20, deadline=None, derandomize=True)
@given(
    profile=st.sampled_from(["classic", "three-handed"]),
    seed=st.integers(0, 2**32),
    hands=st.integers(1, 3),
    dealer=st.sampled_from(["rotate", "random", 0, 1]),
    target=st.integers(1, 120),
    flags=st.lists(st.booleans(), min_size=4, max_size=4),
    max_hands=st.none() | st.integers(1, 3),
)
def test_classic_and_three_handed_in_place_under_any_options(
    profile: str,
    seed: int,
    hands: int,
    dealer: object,
    target: int,
    flags: list[bool],
    max_hands: int | None,
) -> None:
    """Property: for any classic or three-handed options, episode length, dealer rule
    and seed, the games held in place step exactly as the engine's (classic and
    three-handed rules, every option)."""
    options: dict[str, object] = {
        "seed": seed,
        "hands": hands,
        "dealer": dealer,
        "target": target * 10,
        "grand_binocle": flags[0],
        "max_hands": max_hands,
    }
    if profile == "classic":
        options["pack"] = 64 if flags[1] else 48
    else:
        options.update(
            claim_overlooked=flags[1], lowest_pays=flags[2], meld_until_first_card=flags[3]
        )
    _lockstep(options, 240, games=6, profile=profile, calm=_mostly_calm)


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_an_environment_pickles_and_copies_with_its_games(profile: str) -> None:
    """A pickled (or deep-copied) environment holds the same games and goes on alone."""
    import copy
    import pickle

    env = VectorEnv(profile, num_envs=3, seed=2)
    _, mask = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        _, mask, _, _ = env.step(_random(mask, rng))
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert [twin.state(i) for i in range(3)] == [env.state(i) for i in range(3)]
        np.testing.assert_array_equal(twin.observations, env.observations)
        actions = _random(mask, np.random.default_rng(5))
        a = env.__class__.step(copy.deepcopy(env), actions)
        b = twin.step(actions)
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_games_pickled_with_lists_of_numbers_read_back(profile: str) -> None:
    """A game held in place that was pickled while its numbers (its scores, figures
    and legal-id ranges) were Python lists reads back as the game it was: its state
    with those fields as lists sets the same game, which steps on alike."""
    import copy

    env = VectorEnv(profile, num_envs=2, seed=4)
    _, mask = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(25):
        _, mask, _, _ = env.step(_random(mask, rng))
    batch = env._batch
    assert batch is not None
    twin = copy.deepcopy(env)
    twin_batch = twin._batch
    assert twin_batch is not None
    for k, game in enumerate(batch.games):
        held = copy.deepcopy(game.__getstate__())
        for name in held.pop("__vectors__"):
            held[name] = list(held[name])  # as they were pickled before
        ranges = game.ranges
        held["ranges"] = type(ranges).__new__(type(ranges))
        held["ranges"].__setstate__(
            {"lo": list(ranges.lo[: ranges.n]), "hi": list(ranges.hi[: ranges.n]), "n": ranges.n}
        )
        old = type(game).__new__(type(game))
        old.__setstate__(held)
        twin_batch.games[k] = old
    assert [twin.state(i) for i in range(2)] == [env.state(i) for i in range(2)]
    actions = _random(mask, np.random.default_rng(3))
    for x, y in zip(env.step(actions), twin.step(actions), strict=True):
        np.testing.assert_array_equal(x, y)
