"""The search bots: ISMCTS and PIMC play every phase, never peek, and repeat for a seed.

Docs: the bots page ("Search bots").  A bot sees only its seat's view, so two
states that look the same to it must get the same choice.
"""

from __future__ import annotations

import random
import time

import pytest

import binocle
from binocle import InvalidArgumentError, Phase
from binocle.bots import BaselineBot, ISMCTSBot, PIMCBot, make_bot, play_game
from binocle.ismcts import candidates
from helpers import two_handed_continuation


class Recording:
    """A bot wrapper that notes the phases it was asked to choose in."""

    def __init__(self, bot: ISMCTSBot | PIMCBot) -> None:
        self.bot = bot
        self.phases: set[Phase] = set()

    def choose(self, view: binocle.View) -> binocle.Action:
        self.phases.add(view.phase)
        a = self.bot.choose(view)
        assert a in view.legal_actions
        return a

    def knock(self, view: binocle.View) -> bool:
        return self.bot.knock(view)


PHASES = {
    "cutthroat": {Phase.BIDDING, Phase.DISCARD, Phase.TRUMP, Phase.MELD, Phase.PLAY},
    "classic": {Phase.PLAY, Phase.ANNOUNCE},
    "three-handed": {Phase.DIX, Phase.MELD, Phase.PLAY},
}


@pytest.mark.parametrize("profile", sorted(PHASES))
@pytest.mark.parametrize("kind", [ISMCTSBot, PIMCBot])
def test_search_bots_play_every_phase_of_every_profile(profile: str, kind: type) -> None:
    """A whole hand with a search bot in every seat: each legal choice, every phase."""
    n = binocle.profile(profile).players
    seen: set[Phase] = set()
    for seed in range(6):
        bots = [Recording(kind(i, iterations=12, samples=4)) for i in range(n)]
        s = play_game(f"{profile}(max_hands=1)", bots, seed=seed)
        assert len(s.results) == 1 and binocle.is_over(s)
        seen = seen.union(*(b.phases for b in bots))
        if PHASES[profile] <= seen:
            break
    assert PHASES[profile] <= seen


def test_make_bot_knows_the_search_bots() -> None:
    """make_bot("ismcts") and make_bot("pimc") give the bots at their defaults."""
    assert isinstance(make_bot("ismcts", 1), ISMCTSBot)
    assert isinstance(make_bot("pimc", 1), PIMCBot)


def test_same_seed_same_choices() -> None:
    """Deterministic for a seed: two bots built alike choose alike, view after view."""
    s = binocle.new_game("cutthroat", seed=9)
    a, b = ISMCTSBot(4, iterations=40), ISMCTSBot(4, iterations=40)
    for _ in range(12):
        p = s.current_player
        if p is None:
            s = binocle.apply(s, binocle.legal_actions(s)[0])
            continue
        v = binocle.observe(s, p)
        x, y = a.choose(v), b.choose(v)
        assert x == y
        s = binocle.apply(s, x)


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed"])
def test_no_peeking(profile: str) -> None:
    """For a fixed seed, the choice is the same whatever the cards hidden from the bot,
    when they are reshuffled consistently with its view."""
    s = binocle.new_game(profile, seed=13)
    base = [BaselineBot(i) for i in range(s.profile.players)]
    for _ in range(14):
        p = s.current_player
        assert p is not None
        s = binocle.apply(s, base[p].choose(binocle.observe(s, p)))
    seat = s.current_player
    assert seat is not None
    view = binocle.observe(s, seat)
    worlds = [binocle.determinize(view, k) for k in range(4)]
    others = {tuple(w.hands[i] for i in range(len(w.hands)) if i != seat) for w in worlds}
    assert len(others) > 1  # the hidden cards really differ
    choices = {ISMCTSBot(7, iterations=60).choose(binocle.observe(w, seat)) for w in worlds}
    assert len(choices) == 1


def _first_view(profile: str, seed: int) -> binocle.View:
    """The view of the first seat with a choice to make, the baseline bot playing until then."""
    s = binocle.new_game(profile, seed=seed)
    base = [BaselineBot(i) for i in range(s.profile.players)]
    while True:
        p = s.current_player
        assert p is not None
        v = binocle.observe(s, p)
        if len(candidates(v.legal_actions, v.phase)) > 1:
            return v
        s = binocle.apply(s, base[p].choose(v))


def test_the_default_iterations_are_the_profiles() -> None:
    """Bots page, Settings: 2400 iterations a move in the three-handed game, 150 in the
    others; given iterations override the default, None leaves the time limit alone."""
    views = {name: _first_view(name, 5) for name in ("cutthroat", "classic", "three-handed")}
    assert {n: ISMCTSBot(1).budget(v) for n, v in views.items()} == {
        "cutthroat": 150,
        "classic": 150,
        "three-handed": 2400,
    }
    assert PIMCBot(1).budget(views["three-handed"]) == 2400
    assert ISMCTSBot(1, iterations=40).budget(views["three-handed"]) == 40
    assert ISMCTSBot(1, iterations=None, time_limit=0.1).budget(views["classic"]) is None


def test_the_default_searches_as_the_same_iterations_given() -> None:
    """A three-handed move at the default is the move of a bot given 2400 iterations, and
    not always that of a bot given 600 (the default really is applied)."""
    views = [_first_view("three-handed", seed) for seed in range(6)]
    default = [ISMCTSBot(3).choose(v) for v in views]
    assert default == [ISMCTSBot(3, iterations=2400).choose(v) for v in views]
    assert default != [ISMCTSBot(3, iterations=600).choose(v) for v in views]


def test_a_time_budget_bounds_the_move() -> None:
    """time_limit stops the search (at least one iteration is always made)."""
    s = binocle.new_game("classic", seed=2)
    v = binocle.observe(s, s.current_player or 0)
    bot = ISMCTSBot(1, iterations=None, time_limit=0.05)
    t = time.process_time()
    assert bot.choose(v) in v.legal_actions
    # CPU seconds: a loaded machine stretches only the wall clock.
    assert time.process_time() - t < 2.0


def test_the_search_claims_exactly_when_the_claim_is_correct() -> None:
    """Classic rules, Claiming: a correct knock wins the game; the bot knocks then,
    and never on a claim the public score does not prove."""
    s = binocle.new_game("classic(target=50)", seed=4)
    bot = ISMCTSBot(1, iterations=10)
    rng = random.Random(1)
    knocked = False
    while not binocle.is_over(s):
        p = s.current_player
        if p is None:
            s = binocle.apply(s, binocle.legal_actions(s)[0])
            continue
        v = binocle.observe(s, p)
        a = (
            bot.choose(v)
            if p == 0
            else rng.choice([x for x in v.legal_actions if x.kind is not binocle.Kind.CLAIM])
        )
        s = binocle.apply(s, a)
        if a.kind is binocle.Kind.CLAIM:
            knocked = True
            assert binocle.winner(s) == 0
    assert knocked


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"iterations": 2.5},
        {"time_limit": -1},
        {"exploration": -0.1},
        {"samples": 0},
        {"iterations": None},
        {"iterations": "defaults"},
        {"iterations": "600"},
    ],
)
def test_bad_settings_raise_documented_errors(kwargs: dict[str, object]) -> None:
    """Settings outside their range are refused with InvalidArgumentError."""
    with pytest.raises(InvalidArgumentError):
        ISMCTSBot(1, **kwargs)  # type: ignore[arg-type]


def test_search_bots_play_the_two_handed_game_after_a_retirement() -> None:
    """Three-handed rules, The two-handed game after a retirement: after a wrong claim
    the two others play the classic game on; the search bots search it like any game
    (their choices legal, announcements and play both), and still do not peek."""
    s = two_handed_continuation(4)
    hand = len(s.results)
    bots = {seat: Recording(kind(seat, iterations=12, samples=4))
            for seat, kind in zip(s.pair, (ISMCTSBot, PIMCBot), strict=True)}  # fmt: skip
    moves = 0
    while len(s.results) <= hand:
        p = s.current_player
        s = binocle.apply(
            s, binocle.legal_actions(s)[0] if p is None else bots[p].choose(binocle.observe(s, p))
        )
        moves += p is not None
        if moves == 5:  # early in the hand, with most cards hidden
            seat = s.current_player
            assert seat is not None
            view = binocle.observe(s, seat)
            worlds = [binocle.determinize(view, k) for k in range(4)]
            other = s.pair[1 - s.pair.index(seat)]
            assert len({w.hands[other] for w in worlds}) > 1  # the hidden cards really differ
            choices = {ISMCTSBot(7, iterations=30).choose(binocle.observe(w, seat)) for w in worlds}
            assert len(choices) == 1
    assert {Phase.PLAY, Phase.ANNOUNCE} <= set().union(*(b.phases for b in bots.values()))
