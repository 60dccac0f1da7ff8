"""The arena: duplicate deals, statistics, any executor, the same answer however split.

Docs: the bots page ("The arena").  Every deal is played with the bots rotated
through every seat; the report's numbers follow from the seed alone.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import os
import threading
from typing import Any

import pytest

import binocle
from binocle import InvalidArgumentError
from binocle import encoding as E
from binocle.bots import BotError, BotTimeoutError, play_game
from binocle.cli import main
from binocle.duplicate import _report, play_deal, wilson
from binocle.encoding import PolicyBot


def test_every_bot_sits_in_every_seat_of_every_deal() -> None:
    """Duplicate play: with two baseline seats and one random, each deal is played
    three times, the random bot once in each seat."""
    r = binocle.arena("cutthroat", ["random", "baseline", "baseline"], deals=3, seed=2)
    assert r.lineups == (
        ("random", "baseline", "baseline"),
        ("baseline", "random", "baseline"),
        ("baseline", "baseline", "random"),
    )
    assert r.get("random").hands == 9 and r.get("baseline").hands == 18
    assert len(r.points) == 3 and all(len(d) == 3 for d in r.points)
    # Each hand distributes its points: the advantages of the seats cancel out.
    adv = r.get("random").advantage * 1 + r.get("baseline").advantage * 2
    assert abs(adv) < 1e-6


def test_the_same_cards_are_dealt_in_every_rotation() -> None:
    """A deal's cards do not depend on where the bots sit: identical bots score the
    same seat the same in every rotation."""
    rows = play_deal("classic", ("baseline", "baseline"), 5, 0)
    assert rows[0] == rows[1]


def test_a_stronger_bot_shows_an_advantage_with_honest_intervals() -> None:
    """Baseline against random in the classic game: more points per hand; every
    interval contains its estimate."""
    r = binocle.arena("classic", ["baseline", "random"], deals=6, seed=3)
    b = r.get("baseline")
    assert b.advantage > 0 and b.mean_points > r.get("random").mean_points
    for st in r.stats:
        assert st.points_ci[0] <= st.mean_points <= st.points_ci[1]
        assert st.advantage_ci[0] <= st.advantage <= st.advantage_ci[1]
        assert st.win_ci[0] <= st.win_rate <= st.win_ci[1]
    doc = json.loads(r.to_json())
    assert doc["deals"] == 6 and doc["stats"][0]["bot"] == "baseline"
    assert "points/hand" in r.table()


def test_a_deal_is_won_by_the_place_with_the_most_points_over_its_rotations() -> None:
    """Duplicate result: each rotation moves every place of the line-up one seat on;
    its points over the rotations are compared with every other place's, a tie wins
    nothing.  Here ``a`` takes 100 + 20 + 0 against ``b``'s 50 + 30 + 0 and ``c``'s
    0 + 10 + 0 in the first deal, though ``b`` won the second rotation's hand, and
    the second deal is all ties."""
    deal1 = ((100, 50, 0), (10, 20, 30), (0, 0, 0))
    deal2 = ((5, 5, 5), (5, 5, 5), (5, 5, 5))
    r = _report("cutthroat", ("a", "b", "c"), 2, 0, [deal1, deal2])
    a, b, c = r.get("a"), r.get("b"), r.get("c")
    assert (a.deals, a.deal_wins, b.deal_wins, c.deal_wins) == (2, 1, 0, 0)
    assert a.deal_win_rate == 0.5 and a.deal_win_ci == wilson(1, 2)
    # Hands: a won only the first rotation's hand, b the second's.
    assert (a.wins, b.wins, c.wins) == (1, 1, 0)
    # A bot named twice holds two places, each compared with every other place.
    r2 = _report("cutthroat", ("a", "b", "b"), 2, 0, [deal1, deal2])
    assert r2.get("b").deals == 4 and r2.get("b").deal_wins == 0
    assert r2.get("a").deal_wins == 1
    doc = r2.as_dict()["stats"][0]
    assert doc["deal_wins"] == 1 and doc["deal_win_ci95_wilson"] == list(wilson(1, 2))


def test_deals_won_by_the_stronger_bot() -> None:
    """Baseline against random, classic: the baseline wins most deals in duplicate,
    and the two places' deal wins never exceed the deals (ties win nothing)."""
    r = binocle.arena("classic", ["baseline", "random"], deals=6, seed=3)
    b, x = r.get("baseline"), r.get("random")
    assert b.deal_wins > x.deal_wins and b.deal_wins + x.deal_wins <= 6
    assert b.deal_win_ci[0] <= b.deal_win_rate <= b.deal_win_ci[1]


def test_wilson_interval() -> None:
    """The Wilson score interval: 9 of 10 gives about [0.596, 0.982]."""
    lo, hi = wilson(9, 10)
    assert abs(lo - 0.5958) < 1e-3 and abs(hi - 0.9821) < 1e-3
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("args"),
    [(1, 0), (-1, 5), (5, 3), (1.5, 2), ("1", 2), (True, 2), (1, 2**53 + 1),
     (10**400, 10**401), (1, 2, math.nan), (1, 2, -1), (1, 2, "2"), (1, 2, 1e300)],
)  # fmt: skip
def test_wilson_refuses_what_is_not_a_rate(args: tuple[object, ...]) -> None:
    """wilson takes whole numbers 0 <= successes <= n <= 2**53 and a z from 0 to
    2**53; anything else raises InvalidArgumentError (never a math error)."""
    with pytest.raises(binocle.InvalidArgumentError):
        wilson(*args)  # type: ignore[arg-type]


def test_play_deal_refuses_a_seed_or_deal_that_is_not_whole() -> None:
    """play_deal's seed and deal are whole numbers; another value raises
    InvalidArgumentError before any bot is made."""
    bots = ("random", "random", "random")
    for seed, deal in (("1", 1), (1, 1.5), (True, 1), (1, None)):
        with pytest.raises(binocle.InvalidArgumentError, match="whole number"):
            play_deal("cutthroat", bots, seed, deal)  # type: ignore[arg-type]


def test_results_do_not_depend_on_how_the_work_is_split() -> None:
    """Serial, a thread pool and a process pool give the same report."""
    bots = ["ismcts(iterations=8,samples=2)", "random", "baseline"]
    serial = binocle.arena("three-handed", bots, deals=2, seed=4)
    with cf.ThreadPoolExecutor(3) as ex:
        threads = binocle.arena("three-handed", bots, deals=2, seed=4, executor=ex)
    procs = binocle.arena("three-handed", bots, deals=2, seed=4, jobs=2)
    assert serial == threads == procs


class CountingExecutor(cf.ThreadPoolExecutor):
    """A thread pool that counts the tasks it is given."""

    submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def test_cheap_deals_travel_in_batches() -> None:
    """Arena docs: deals go to an executor in batches sized to the bots' cost (the first
    deal timed by CPU), at least 16 batches; the report is the serial one."""
    bots = ["baseline", "random"]
    serial = binocle.arena("classic", bots, deals=64, seed=2)
    with CountingExecutor(2) as ex:
        batched = binocle.arena("classic", bots, deals=64, seed=2, executor=ex)
    assert batched == serial
    assert 16 <= ex.submitted <= 32  # baseline deals cost milliseconds: 2 to 4 a task


def test_a_dask_cluster_gives_the_serial_results() -> None:
    """On a Dask LocalCluster (extra binocle[distributed]) the report equals the serial one."""
    if os.environ.get("CI"):
        import distributed  # CI installs the extra: this test must run there
    else:
        distributed = pytest.importorskip("distributed")
    bots = ["ismcts(iterations=8,samples=2)", "random"]
    serial = binocle.arena("classic", bots, deals=3, seed=6)
    import dask

    # Generous bounds (a loaded machine starts a worker process slowly), never a timing.
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "600s"}),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            death_timeout=600,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = binocle.arena("classic", bots, deals=3, seed=6, executor=client.get_executor())
    assert on_dask == serial


def test_the_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle arena`` prints the table, or the report as JSON."""
    assert main(["arena", "--profile", "classic", "--bots", "baseline,random", "--deals", "2",
                 "--seed", "1", "--json"]) == 0  # fmt: skip
    doc = json.loads(capsys.readouterr().out)
    assert doc["bots"] == ["baseline", "random"] and doc["hands"] == 4
    assert main(["arena", "--profile", "classic", "--bots", "baseline,random", "--deals", "1",
                 "--seed", "1"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "hands won (Wilson 95%)" in out and "deals won (Wilson 95%)" in out
    assert main(["arena", "--bots", "baseline,random", "--deals", "1"]) == 2
    assert "needs 3 bots" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: binocle.arena("classic", ["baseline"], 2), "needs 2 bots"),
        (lambda: binocle.arena("classic", ["baseline", "nobody"], 2), "unknown bot"),
        (lambda: binocle.arena("classic", ["baseline", "random"], 0), "deals"),
        (lambda: binocle.arena("classic", ["random", "baseline(x=1)"], 1), "no settings"),
        (lambda: binocle.arena("classic", ["baseline", "ismcts(speed=1)"], 1), "not a setting"),
        (lambda: binocle.arena("classic", ["baseline", "random"], 1, executor=3), "Executor"),
    ],
)
def test_bad_arguments_raise_documented_errors(call: object, message: str) -> None:
    """Wrong line-ups and settings are refused with InvalidArgumentError."""
    with pytest.raises(InvalidArgumentError, match=message):
        call()  # type: ignore[operator]


# -- bots held to a contract ---------------------------------------------------------------

#: Set by the test that blocks a bot on it, to let the bot's thread end.
RELEASE = threading.Event()


class FailingBot:
    """Plays the first legal action, and raises at its ``fail_at``-th move."""

    def __init__(self, seed: int | None = None, fail_at: int = 5) -> None:
        self.moves = 0
        self.fail_at = fail_at

    def choose(self, view: binocle.View) -> binocle.Action:
        self.moves += 1
        if self.moves == self.fail_at:
            raise ZeroDivisionError("the bot's own bug")
        return view.legal_actions[0]


class BlockingBot:
    """Never answers until ``RELEASE`` is set."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: binocle.View) -> binocle.Action:
        RELEASE.wait()
        return view.legal_actions[0]


class FailsAtDeal:
    """Plays first legal actions; raises once ``_DEALS_DONE`` (set by the arena's
    progress) reaches 2, so in the third deal, the two before it played."""

    name = "fails-at-deal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: binocle.View) -> binocle.Action:
        if _DEALS_DONE[0] >= 2:
            raise RuntimeError("boom")
        return view.legal_actions[0]


_DEALS_DONE = [0]


def test_a_bots_exception_names_the_bot_seat_and_deal() -> None:
    """Bots page, "Bots held to a contract": a bot that raises stops play_game and the
    arena with BotError naming the bot, its seat, the hand and the deal (its exception
    the cause); in the arena the report of the deals before it is kept."""
    with pytest.raises(BotError, match=r"'FailingBot' \(seat 1, hand 1") as info:
        play_game("classic", ["baseline", FailingBot], seed=4)
    assert info.value.seat == 1 and isinstance(info.value.__cause__, ZeroDivisionError)
    assert info.value.seed == 4 and info.value.deal is None
    with pytest.raises(BotError, match="deal 0") as info:
        binocle.arena("classic", ["baseline", FailingBot], deals=3, seed=1)
    assert info.value.deal == 0 and info.value.report is None
    _DEALS_DONE[0] = 0

    def progress(done: int, total: int) -> None:
        _DEALS_DONE[0] = done

    with pytest.raises(BotError) as info:
        binocle.arena("classic", ["baseline", FailsAtDeal], deals=5, seed=1, progress=progress)
    assert info.value.deal == 2 and info.value.bot == "fails-at-deal"
    assert info.value.report is not None and info.value.report.deals == 2


def test_a_bot_that_does_not_answer_in_time_stops_the_game() -> None:
    """Bots page, "Bots held to a contract": with a time limit per move, a bot that has
    not answered by then stops play_game and the arena with BotTimeoutError naming it
    (here a bot blocked on an event, under a generous limit); a limit that is not a
    positive number is refused."""
    RELEASE.clear()
    try:
        with pytest.raises(BotTimeoutError, match=r"seat 0, hand 1.*did not answer choose"):
            play_game("classic", [BlockingBot, "baseline"], seed=1, time_limit=1.0)
        with pytest.raises(BotTimeoutError) as info:
            binocle.arena("classic", ["baseline", BlockingBot], deals=2, seed=2, time_limit=1.0)
        assert info.value.deal == 0 and info.value.seat in (0, 1)
    finally:
        RELEASE.set()
    s = play_game("classic", ["baseline", "random"], seed=3, time_limit=60.0)
    assert binocle.is_over(s)
    for bad in (0, -1.0, float("nan"), "1", True):
        with pytest.raises(InvalidArgumentError, match="time_limit"):
            play_game("classic", None, seed=1, time_limit=bad)


# -- a policy as a bot -----------------------------------------------------------------------


def lowest_legal_id(observation: object, mask: object) -> int:
    """A policy: the lowest legal id."""
    import numpy as np

    assert isinstance(observation, np.ndarray) and observation.dtype == np.float32
    assert isinstance(mask, np.ndarray) and mask.dtype == np.int8
    return int(np.flatnonzero(mask)[0])


class LowestPolicyBot(PolicyBot):
    """The policy above as a bot class, as spec text and ``binocle serve`` name one."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(lowest_legal_id, normalised=True, name="lowest-id")


def test_a_policy_plays_as_a_bot_in_the_arena() -> None:
    """AI page, "A policy as a bot": PolicyBot wraps a function of (observation, mask)
    returning an id; the arena takes it as an object and, by its class's path, as spec
    text; its moves are the legal actions its ids stand for."""
    pytest.importorskip("numpy")
    r = binocle.arena("classic", [PolicyBot(lowest_legal_id, name="lowest"), "random"], deals=2)
    assert r.get("lowest").hands == 4
    r = binocle.arena("cutthroat", [f"{__name__}:LowestPolicyBot", "baseline", "random"], deals=1)
    assert r.get(f"{__name__}:LowestPolicyBot").hands == 3
    s = binocle.new_game("classic", seed=2)
    v = binocle.observe(s, s.current_player)
    assert LowestPolicyBot().choose(v) == E.action_from_id(s, E.legal_ids(s)[0])
    with pytest.raises(binocle.InvalidArgumentError, match="not an action id"):
        PolicyBot(lambda o, m: "pass").choose(v)
    np = pytest.importorskip("numpy")
    with pytest.raises(binocle.IllegalActionError):
        PolicyBot(lambda o, m: int(np.flatnonzero(m == 0)[0])).choose(v)


def test_partnership_deals_are_played_with_the_sides_swapped() -> None:
    """Partnership rules, Players: two bots as partners meet the other two; each deal is
    played with the sides swapped (every seating), and a seat is compared with the other
    side, never with its partner, who scores the same."""
    from binocle.duplicate import arena

    r = arena("partnership(passing=3)", ["baseline", "random", "baseline", "random"], deals=2)
    assert {line[0] for line in r.lineups} == {"baseline", "random"}
    for deal in r.points:
        for delta in deal:
            assert delta[0] == delta[2] and delta[1] == delta[3]
    base = r.get("baseline")
    assert base.hands == 16 and base.wins == 16


def test_the_reports_json_is_strict_json() -> None:
    """An arena report's and a ratings table's ``to_json`` are strict JSON (RFC 8259): the
    interval of a single deal, which is undefined, is written null, never NaN."""
    import math

    from binocle.duplicate import arena

    def refuse(name: str) -> None:
        raise AssertionError(f"not JSON: {name}")

    report = arena("cutthroat", ["random", "random", "random"], deals=1, seed=3)
    assert any(
        isinstance(x, float) and math.isnan(x)
        for st in report.as_dict()["stats"]
        for x in st["points_ci95"]
    )
    doc = json.loads(report.to_json(), parse_constant=refuse)
    assert doc["stats"][0]["points_ci95"] == [None, None]
