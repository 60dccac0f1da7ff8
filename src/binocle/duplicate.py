"""Duplicate deals: bots compared over duplicate deals, on any executor (layer 4, a leaf).

:func:`arena` (also :func:`binocle.arena`) plays ``deals`` deals of one hand each.  Every deal is played
once per seat rotation (the bots moved one seat on each time, so with
``["ismcts", "baseline", "baseline"]`` the search bot sits in every seat once
with the same cards dealt), which takes most of the luck of the cards out of
the comparison.  The work runs on any :class:`concurrent.futures.Executor`: in
this process by default, a process pool with ``jobs``, or a Dask cluster with
``distributed.Client(...).get_executor()``.  Every deal's cards and every bot's
seed follow from ``seed`` and the deal's number alone, so the report never
depends on how the work was split.

The report gives, per bot: hands played, mean points per hand and its 95%
interval; the mean advantage per hand over the other seats of the same hands
(its points less their mean) and its interval; the win rate (hands in
which it scored more than every other seat) with its Wilson 95% interval; and
the duplicate result of every deal: the deals in which the bot's points over
all the deal's rotations (it held every seat's cards once) beat those of every
other place in the line-up, with their Wilson 95% interval.  The intervals for
points and for deals won are over deals, which are independent (the rotations
of one deal are not), so they are honest for duplicate play; the interval for
hands won treats the hands as independent, which they are only across deals.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import pickle
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypedDict

import attrs

from binocle._json import finite_json
from binocle.bots import Bot, BotError, BotSpec, _check_limit, bot_label, play_game, resolve_bot
from binocle.errors import BinocleError, InvalidArgumentError, excerpt, is_finite, is_whole
from binocle.profiles import get_profile

__all__ = [
    "ArenaReport",
    "ArenaReportDict",
    "BotStats",
    "BotStatsDict",
    "arena",
    "build_bot",
    "wilson",
]

#: The z value of a two-sided 95% interval.
Z95 = 1.959963984540054


class BotStatsDict(TypedDict):
    """One bot's statistics in :meth:`ArenaReport.as_dict`."""

    bot: str
    hands: int
    mean_points: float
    points_ci95: list[float]
    advantage: float
    advantage_ci95: list[float]
    wins: int
    win_rate: float
    win_ci95_wilson: list[float]
    deals: int
    deal_wins: int
    deal_win_rate: float
    deal_win_ci95_wilson: list[float]


class ArenaReportDict(TypedDict):
    """:meth:`ArenaReport.as_dict`: the report as plain JSON-ready data."""

    profile: str
    bots: list[str]
    deals: int
    seed: int
    hands: int
    stats: list[BotStatsDict]


def build_bot(spec: str, seed: int | None) -> Bot:
    """Deprecated: :func:`binocle.bots.resolve_bot` reads every bot spec."""
    warnings.warn(
        "binocle.duplicate.build_bot is deprecated: use binocle.bots.resolve_bot",
        DeprecationWarning,
        stacklevel=2,
    )
    return resolve_bot(spec, seed)


#: The largest count :func:`wilson` takes: every whole number up to it is a float.
_MAX_COUNT = 2**53


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default); (0, 1) when ``n`` is 0.

    ``successes`` and ``n`` are whole numbers with 0 <= successes <= n <= 2**53,
    ``z`` a number from 0 to 2**53; anything else raises
    :class:`~binocle.InvalidArgumentError`."""
    for what, count in (("successes", successes), ("n", n)):
        _check_whole(what, count)
    if not 0 <= successes <= n <= _MAX_COUNT:
        raise InvalidArgumentError(
            f"wilson takes 0 <= successes <= n <= 2**53, not {excerpt(successes)} of {excerpt(n)}"
        )
    if not is_finite(z) or not 0 <= z <= _MAX_COUNT:
        raise InvalidArgumentError(f"z is a number from 0 to 2**53, not {excerpt(z)}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # The interval holds the rate itself (rounding may leave 0 of n a hair above 0).
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    if n == 0:
        return (0.0, math.nan, math.nan)
    mean = sum(values) / n
    if n < 2:
        return (mean, math.nan, math.nan)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@attrs.frozen
class BotStats:
    """One bot's results (a bot named twice in the line-up counts as one).

    ``hands``, ``wins``, ``win_rate`` and ``win_ci`` count hands: a hand is won
    when the bot scores more in it than every other seat.  ``deals``,
    ``deal_wins``, ``deal_win_rate`` and ``deal_win_ci`` count duplicate deals
    (once for each place the bot holds in the line-up): a deal is won when the
    place's points summed over the deal's rotations exceed those of every other
    place, the same cards having been played from every seat by each.
    """

    bot: str
    hands: int
    mean_points: float
    points_ci: tuple[float, float]
    advantage: float
    advantage_ci: tuple[float, float]
    wins: int
    win_rate: float
    win_ci: tuple[float, float]
    deals: int
    deal_wins: int
    deal_win_rate: float
    deal_win_ci: tuple[float, float]


@attrs.frozen
class ArenaReport:
    """What :func:`arena` returns: the settings, per-bot statistics and every hand's points.

    ``points[d][r]`` are the points of each seat in rotation ``r`` of deal ``d``;
    ``lineups[r]`` names the bot at each seat in rotation ``r``.
    """

    profile: str
    bots: tuple[str, ...]
    deals: int
    seed: int
    lineups: tuple[tuple[str, ...], ...]
    points: tuple[tuple[tuple[int, ...], ...], ...]
    stats: tuple[BotStats, ...]

    def get(self, bot: str) -> BotStats:
        """The statistics of one bot by its label (:func:`binocle.bots.bot_label`)."""
        for st in self.stats:
            if st.bot == bot:
                return st
        raise InvalidArgumentError(f"no bot {excerpt(bot)} in this arena ({', '.join(self.bots)})")

    def as_dict(self) -> ArenaReportDict:
        """The report as plain JSON-ready data."""
        return {
            "profile": self.profile,
            "bots": list(self.bots),
            "deals": self.deals,
            "seed": self.seed,
            "hands": self.deals * len(self.lineups),
            "stats": [
                {
                    "bot": st.bot,
                    "hands": st.hands,
                    "mean_points": st.mean_points,
                    "points_ci95": list(st.points_ci),
                    "advantage": st.advantage,
                    "advantage_ci95": list(st.advantage_ci),
                    "wins": st.wins,
                    "win_rate": st.win_rate,
                    "win_ci95_wilson": list(st.win_ci),
                    "deals": st.deals,
                    "deal_wins": st.deal_wins,
                    "deal_win_rate": st.deal_win_rate,
                    "deal_win_ci95_wilson": list(st.deal_win_ci),
                }
                for st in self.stats
            ],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The report as JSON text (the statistics; not every hand's points): strict JSON,
        a figure that is undefined (NaN: an interval over a single deal) or infinite
        written ``null``."""
        return finite_json(self.as_dict(), indent=indent)

    def table(self) -> str:
        """The statistics as a text table."""
        head = (
            f"{self.profile}: {self.deals} duplicate deals x {len(self.lineups)} seatings,"
            f" seed {self.seed}"
        )
        rows = [
            (
                "bot",
                "hands",
                "points/hand (95%)",
                "advantage (95%)",
                "hands won (Wilson 95%)",
                "deals won (Wilson 95%)",
            )
        ]
        for st in self.stats:
            rows.append(
                (
                    st.bot,
                    str(st.hands),
                    f"{st.mean_points:.1f} [{st.points_ci[0]:.1f}, {st.points_ci[1]:.1f}]",
                    f"{st.advantage:+.1f} [{st.advantage_ci[0]:+.1f}, {st.advantage_ci[1]:+.1f}]",
                    f"{st.win_rate:.1%} [{st.win_ci[0]:.1%}, {st.win_ci[1]:.1%}]",
                    f"{st.deal_win_rate:.1%} [{st.deal_win_ci[0]:.1%}, {st.deal_win_ci[1]:.1%}]",
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [head]
        for k, r in enumerate(rows):
            lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
            if k == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def _place_at(seat: int, rotation: int, n: int) -> int:
    """The place in the line-up that holds ``seat`` in ``rotation``: each rotation moves
    every bot one seat on."""
    return (seat - rotation) % n


def _lineups(bots: Sequence[Any]) -> tuple[tuple[Any, ...], ...]:
    """Every rotation of the bots round the table, the bot at each seat."""
    n = len(bots)
    return tuple(tuple(bots[_place_at(i, r, n)] for i in range(n)) for r in range(n))


def _check_whole(what: str, value: object) -> None:
    """Refuse ``value`` unless it is a whole number (a bool is not)."""
    if not is_whole(value):
        raise InvalidArgumentError(f"{what} is a whole number, not {excerpt(value)}")


def _deal_seed(seed: int, deal: int) -> int:
    return (seed * 1_000_003 + deal * 7919 + 17) % 2**62


def play_deal(
    profile: str,
    bots: tuple[BotSpec, ...],
    seed: int,
    deal: int,
    time_limit: float | None = None,
) -> tuple[tuple[int, ...], ...]:
    """One duplicate deal: the points of every seat in every rotation (a pure function
    of its arguments, so any worker anywhere gives the same answer).

    Every seat of every rotation gets a new bot: a spec text or a factory is made
    with a seed that follows from ``seed``, the deal, the rotation and the seat; a
    bot object is deep-copied, so each hand starts from the bot as it was given.
    ``time_limit`` is the time limit per move (:func:`binocle.bots.play_game`); a
    bot that fails raises :class:`binocle.bots.BotError` naming this deal."""
    for what, value in (("a seed", seed), ("a deal", deal)):
        _check_whole(what, value)
    p = get_profile(profile)
    s_seed = _deal_seed(seed, deal)
    out = []
    for r, lineup in enumerate(_lineups(bots)):
        players = [
            resolve_bot(spec, (s_seed * 31 + r * 7 + i) % 2**62, fresh=True)
            for i, spec in enumerate(lineup)
        ]
        try:
            s = play_game(
                p, players, seed=s_seed, max_hands=1, time_limit=time_limit,
            )  # fmt: skip
        except BotError as exc:
            exc.deal = deal
            exc.args = (f"deal {deal}: {exc}",)
            raise
        out.append(tuple(s.results[0].delta) if s.results else (0,) * p.players)
    return tuple(out)


def _play_deal_args(
    args: tuple[str, tuple[BotSpec, ...], int, int, float | None],
) -> tuple[tuple[int, ...], ...]:
    return play_deal(*args)


def arena(
    profile: Any,
    bots: Sequence[BotSpec],
    deals: int,
    *,
    seed: int = 0,
    executor: cf.Executor | None = None,
    jobs: int = 1,
    progress: bool | Callable[[int, int], None] = False,
    time_limit: float | None = None,
) -> ArenaReport:
    """Play ``deals`` duplicate deals between ``bots`` (one spec per seat) and report.

    ``bots``: one bot spec per seat (:func:`binocle.bots.resolve_bot`): a name or
    spec text, a bot object or a factory.  Every hand starts from new bots (a bot
    object is deep-copied), so the report never depends on the order the deals
    are played in.  The report names each bot by :func:`binocle.bots.bot_label`
    (the spec text, a bot's ``name``, or its class's qualified name); two
    different bots with one label are refused.  Work sent to other processes (a
    process pool, Dask) carries the specs, pickled: a bot object or factory that
    cannot be pickled (a lambda, a class defined inside a function) is refused
    before any deal is played.

    ``executor``: any :class:`concurrent.futures.Executor` to run the deals on
    (for a Dask cluster: ``distributed.Client(address).get_executor()``);
    without one, ``jobs`` > 1 starts a process pool of that size, and 1 plays
    in this process.  Deals travel to an executor in batches sized to the bots'
    cost: the first deal is played here and timed (CPU), and the others go in
    batches of about half a second of CPU each (one deal at least, and at
    least 16 batches where there are that many deals), so cheap bots do not
    pay a task's overhead for every deal.  The report is the same however the
    deals are cut.  ``progress``: True shows a progress bar (tqdm, extra
    ``binocle[arena]``, on a terminal), or a function called with
    ``(done, total)`` after each deal.

    Bots are held to a contract (:func:`binocle.bots.play_game`): a bot that
    raises, or takes longer than ``time_limit`` seconds (wall clock) for one
    move, stops the arena with :class:`binocle.bots.BotError`
    (:class:`~binocle.bots.BotTimeoutError`) naming the bot, its seat, the hand
    and the deal; its ``report`` is the report of the deals before that one
    (None when there are none).

    >>> import binocle
    >>> r = binocle.arena("classic", ["baseline", "random"], deals=2, seed=1)
    >>> r.get("baseline").hands, r.deals, len(r.points[0])
    (4, 2, 2)
    """
    p = get_profile(profile)
    spec = p.spec()
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidArgumentError("bots is a list of bot specs, one per seat")
    line = tuple(bots)
    if len(line) != p.players:
        raise InvalidArgumentError(f"{p.name} needs {p.players} bots, not {len(line)}")
    for b in line:
        resolve_bot(b, 0, fresh=True)
    labels = _labels(line)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise InvalidArgumentError(f"deals is a whole number from 1, not {excerpt(deals)}")
    _check_whole("a seed", seed)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InvalidArgumentError(f"jobs is a whole number from 1, not {excerpt(jobs)}")
    if executor is not None and not isinstance(executor, cf.Executor):
        raise InvalidArgumentError(
            f"executor is a concurrent.futures.Executor, not {type(executor).__name__}"
        )
    if (executor is None and jobs > 1) or (
        executor is not None and not isinstance(executor, cf.ThreadPoolExecutor)
    ):
        for b, label in zip(line, labels, strict=True):
            _check_picklable(b, label)
    limit = _check_limit(time_limit)
    tasks = [(spec, line, seed, d, limit) for d in range(deals)]
    tick = _progress(progress, deals)
    done: list[Any] = [None] * deals
    try:
        if executor is None and jobs == 1:
            for d, t in enumerate(tasks):
                done[d] = _play_deal_args(t)
                tick()
        else:
            own = executor is None
            ex = cf.ProcessPoolExecutor(jobs) if executor is None else executor
            try:
                _run(ex, tasks, tick, done)
            finally:
                if own:
                    ex.shutdown(cancel_futures=True)
    except BotError as exc:
        # The record kept to the failure: the deals before the one that failed.
        upto = exc.deal if exc.deal is not None else done.index(None)
        kept = next((i for i in range(upto) if done[i] is None), upto)
        if kept:
            exc.report = _report(spec, labels, kept, seed, done[:kept])
        raise
    finally:
        tick.close()
    return _report(spec, labels, deals, seed, done)


def _labels(line: tuple[BotSpec, ...]) -> tuple[str, ...]:
    """The report's name of each place; one name for two different bots is refused."""
    labels = tuple(bot_label(b) for b in line)
    first: dict[str, BotSpec] = {}
    for b, label in zip(line, labels, strict=True):
        seen = first.setdefault(label, b)
        if seen is b or (isinstance(seen, str) and isinstance(b, str)) or _same(seen, b):
            continue
        raise InvalidArgumentError(
            f"two different bots are both named {label!r}: give one a name attribute"
        )
    return labels


def _same(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


def _check_picklable(spec: BotSpec, label: str) -> None:
    """Refuse a bot that other processes could not receive."""
    if isinstance(spec, str):
        return
    try:
        pickle.dumps(spec)
    except Exception as exc:
        raise InvalidArgumentError(
            f"the bot {label!r} cannot be sent to worker processes (it cannot be pickled:"
            f" {type(exc).__name__}: {exc}); give a module-level class or function, or its"
            " importable path 'module:Name'"
        ) from exc


class _Tick:
    def __init__(self, fn: Callable[[], None], close: Callable[[], None]) -> None:
        self._fn = fn
        self.close = close

    def __call__(self) -> None:
        self._fn()


def _progress(progress: bool | Callable[[int, int], None], total: int) -> _Tick:
    if callable(progress):
        done = [0]

        def call() -> None:
            done[0] += 1
            progress(done[0], total)

        return _Tick(call, lambda: None)
    if progress and sys.stderr.isatty():
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            bar = tqdm(total=total, unit="deal", file=sys.stderr)
            return _Tick(lambda: bar.update(1), bar.close)
    return _Tick(lambda: None, lambda: None)


#: CPU seconds of deals one task of an executor carries (at least one deal): a task
#: costs the executor some milliseconds, so cheap bots' deals travel in batches.
_BATCH_SECONDS = 0.5
#: The fewest tasks a run is cut into (when it has that many deals), so that every
#: worker of a cluster gets some and a slow one does not hold the end back long.
_MIN_TASKS = 16


def _play_deals(batch: list[tuple[str, tuple[BotSpec, ...], int, int, float | None]]) -> list[Any]:
    """The deals of one task, in order."""
    return [play_deal(*args) for args in batch]


def _batches(tasks: list[Any], first_cost: float) -> list[list[Any]]:
    """``tasks`` cut into consecutive batches of about :data:`_BATCH_SECONDS` of CPU
    each (``first_cost``: the CPU seconds one deal took), at least
    :data:`_MIN_TASKS` batches where there are that many deals."""
    per = max(1, int(_BATCH_SECONDS / max(first_cost, 1e-4)))
    per = min(per, max(1, len(tasks) // _MIN_TASKS))
    return [tasks[i : i + per] for i in range(0, len(tasks), per)]


def _run(ex: cf.Executor, tasks: list[Any], tick: _Tick, out: list[Any]) -> None:
    """Play ``tasks`` on ``ex``, each result into ``out`` at its deal; a failure that
    leaves the earlier deals unplayed waits for them (the record kept to there).

    The first deal is played here, timed by CPU, and the others sent in batches
    sized by that cost (:func:`_batches`)."""
    if not tasks:
        return
    started = time.process_time()
    out[0] = _play_deal_args(tasks[0])
    tick()
    batches = _batches(tasks[1:], time.process_time() - started)
    futures: dict[cf.Future[list[Any]], tuple[int, int]] = {}
    at = 1
    for batch in batches:
        futures[ex.submit(_play_deals, batch)] = (at, len(batch))
        at += len(batch)
    for fut in cf.as_completed(futures):
        first, n = futures[fut]
        try:
            got = fut.result()
        except BotError as exc:
            deal = exc.deal if exc.deal is not None else first
            for other, (i, _) in futures.items():
                if i > deal:
                    other.cancel()
            for other, (i, k) in futures.items():
                if i < deal and out[i] is None and other is not fut:
                    try:
                        out[i : i + k] = other.result()
                    except BinocleError:
                        break
            exc.deal = deal
            raise
        out[first : first + n] = got
        for _ in range(n):
            tick()


def _report(
    spec: str,
    bots: tuple[str, ...],
    deals: int,
    seed: int,
    results: Iterable[tuple[tuple[int, ...], ...]],
) -> ArenaReport:
    points = tuple(results)
    lineups = _lineups(bots)
    n = len(bots)
    # Partners score together: a seat (a place) is compared with the other side's.
    profile = get_profile(spec)
    mates = {i: profile.side_of(i) for i in range(n)}
    # Each place's points over a deal's rotations (its duplicate result).
    totals = []
    for deal in points:
        total = [0] * n
        for r, delta in enumerate(deal):
            for seat, got in enumerate(delta):
                total[_place_at(seat, r, n)] += got
        totals.append(total)
    stats = []
    for name in dict.fromkeys(bots):
        places = [k for k, b in enumerate(bots) if b == name]
        deal_wins = sum(
            all(t[k] > t[j] for j in range(n) if j not in mates[k]) for t in totals for k in places
        )
        played = len(points) * len(places)
        per_deal_points: list[float] = []
        per_deal_adv: list[float] = []
        hands = wins = 0
        for deal in points:
            pts: list[float] = []
            adv: list[float] = []
            for lineup, delta in zip(lineups, deal, strict=True):
                for seat, who in enumerate(lineup):
                    if who != name:
                        continue
                    others = [delta[j] for j in range(len(delta)) if j not in mates[seat]]
                    pts.append(delta[seat])
                    adv.append(delta[seat] - sum(others) / len(others))
                    hands += 1
                    wins += delta[seat] > max(others)
            per_deal_points.append(sum(pts) / len(pts))
            per_deal_adv.append(sum(adv) / len(adv))
        mean, lo, hi = _mean_ci(per_deal_points)
        amean, alo, ahi = _mean_ci(per_deal_adv)
        stats.append(
            BotStats(
                name,
                hands,
                mean,
                (lo, hi),
                amean,
                (alo, ahi),
                wins,
                wins / hands if hands else 0.0,
                wilson(wins, hands),
                played,
                deal_wins,
                deal_wins / played if played else 0.0,
                wilson(deal_wins, played),
            )
        )
    return ArenaReport(spec, bots, deals, seed, lineups, points, tuple(stats))
