"""Ratings of bots from duplicate deals: a Bradley-Terry fit on the Elo scale (a leaf).

:func:`ratings_table` plays every line-up of the bots that fills the table once
(every pair of them in a two-handed game, every three of them in a three-seat
game) in the arena (:func:`binocle.duplicate.arena`), all line-ups over the same
duplicate deals, and fits ratings to who beat whom.  :func:`fit_ratings` does the
fitting alone, from arena reports already played; :func:`bradley_terry` fits a
win matrix.

A *comparison* is one deal seen from two places of one line-up: the place whose
points summed over the deal's seatings (it played every seat's cards once) are
higher wins it, equal points are a draw, counted half a win each.  A line-up of
three gives three comparisons a deal (each pair of its places).

The model is Bradley-Terry: bot ``i`` beats bot ``j`` with probability
``p_i / (p_i + p_j)``, fitted by maximum likelihood (Hunter's MM iteration) with
``prior`` drawn comparisons added between every two bots, so that a bot that
won every comparison still gets a finite rating.  A rating is
``400 * log10(p_i / p_anchor)``, the Elo scale: 400 points more is ten to one
odds of winning a comparison.  The anchor (the first bot, by default) is rated 0.

The intervals are percentile bootstrap intervals over deals: the deals are drawn
again with replacement ``resamples`` times (a drawn deal brings its comparisons
from every line-up, the line-ups having played the same cards) and the ratings
fitted again; deals are independent, the seatings of one deal are not, so this
is the honest unit to resample.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from binocle._json import finite_json
from binocle.bots import BotSpec, bot_label
from binocle.duplicate import ArenaReport, arena
from binocle.errors import InvalidArgumentError, excerpt, is_finite, is_whole
from binocle.profiles import get_profile

__all__ = [
    "DEFAULT_BOTS",
    "BotRating",
    "RatingsTable",
    "bradley_terry",
    "fit_ratings",
    "lineups",
    "ratings_table",
]

#: The bots :func:`ratings_table` rates unless told otherwise, weakest first.
DEFAULT_BOTS: tuple[str, ...] = ("random", "baseline", "pimc", "ismcts")
#: Drawn comparisons added between every two bots before fitting (see the module).
DEFAULT_PRIOR = 1.0
#: Bootstrap resamples of the deals for the intervals.
DEFAULT_RESAMPLES = 1000

_ELO = 400.0 / math.log(10.0)


@attrs.frozen
class BotRating:
    """One bot's rating: ``rating`` on the Elo scale (the anchor bot is 0), its 95%
    bootstrap interval ``ci``, and the comparisons it won (draws counted half) of
    those it took part in."""

    bot: str
    rating: float
    ci: tuple[float, float]
    won: float
    comparisons: int


@attrs.frozen
class RatingsTable:
    """What :func:`ratings_table` and :func:`fit_ratings` return.

    ``bots`` in the order given; ``ratings`` one :class:`BotRating` per bot, the
    strongest first; ``wins[i][j]`` the comparisons bot ``bots[i]`` won against
    ``bots[j]`` (draws half) and ``games[i][j]`` how many they had; ``lineups``
    the line-ups played, each over the same ``deals`` deals of ``seed``.
    """

    profile: str
    bots: tuple[str, ...]
    anchor: str
    deals: int
    seed: int
    resamples: int
    prior: float
    lineups: tuple[tuple[str, ...], ...]
    wins: tuple[tuple[float, ...], ...]
    games: tuple[tuple[int, ...], ...]
    ratings: tuple[BotRating, ...]

    def get(self, bot: str) -> BotRating:
        """The rating of one bot by its label (:func:`binocle.bots.bot_label`)."""
        for r in self.ratings:
            if r.bot == bot:
                return r
        raise InvalidArgumentError(f"no bot {excerpt(bot)} in this table ({', '.join(self.bots)})")

    def as_dict(self) -> dict[str, Any]:
        """The table as plain JSON-ready data."""
        return {
            "profile": self.profile,
            "bots": list(self.bots),
            "anchor": self.anchor,
            "deals": self.deals,
            "seed": self.seed,
            "resamples": self.resamples,
            "prior": self.prior,
            "lineups": [list(x) for x in self.lineups],
            "wins": [list(x) for x in self.wins],
            "games": [list(x) for x in self.games],
            "ratings": [
                {
                    "bot": r.bot,
                    "rating": r.rating,
                    "ci95_bootstrap": list(r.ci),
                    "won": r.won,
                    "comparisons": r.comparisons,
                }
                for r in self.ratings
            ],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The table as JSON text: strict JSON, a figure that
        is undefined (NaN: an interval over a single deal) or infinite written ``null``."""
        return finite_json(self.as_dict(), indent=indent)

    def table(self) -> str:
        """The ratings, then who beat whom, as text."""
        head = (
            f"{self.profile}: {len(self.lineups)} line-ups x {self.deals} duplicate deals,"
            f" seed {self.seed}; Bradley-Terry on the Elo scale, {self.anchor} = 0,"
            f" 95% bootstrap intervals over deals ({self.resamples} resamples)"
        )
        rows = [("bot", "rating (95%)", "comparisons won")]
        for r in self.ratings:
            rows.append(
                (
                    r.bot,
                    f"{r.rating:+.0f} [{r.ci[0]:+.0f}, {r.ci[1]:+.0f}]",
                    f"{_half(r.won)} of {r.comparisons}",
                )
            )
        lines = [head, *_columns(rows), "", "comparisons won by the row's bot against the column's"]
        grid = [("", *self.bots)]
        for i, b in enumerate(self.bots):
            grid.append(
                (
                    b,
                    *(
                        "-" if i == j else f"{_half(self.wins[i][j])}/{self.games[i][j]}"
                        for j in range(len(self.bots))
                    ),
                )
            )
        lines += _columns(grid)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def _half(x: float) -> str:
    return f"{x:.0f}" if x == int(x) else f"{x:.1f}"


def _columns(rows: Sequence[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for k, r in enumerate(rows):
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def bradley_terry(
    wins: Sequence[Sequence[float]], *, prior: float = DEFAULT_PRIOR, anchor: int = 0
) -> tuple[float, ...]:
    """The Bradley-Terry ratings (Elo scale, bot ``anchor`` at 0) of a win matrix.

    ``wins[i][j]`` is how many comparisons ``i`` won against ``j`` (draws counted
    half to each); ``prior`` drawn comparisons are added between every two bots.
    With no prior, a bot that never lost (or never won) has no finite rating and
    is refused, as is a table whose bots do not all meet.  Counts and the prior
    are finite numbers from 0; a table too lopsided for finite ratings in floating
    point is refused too (:class:`~binocle.InvalidArgumentError`, every one).

    >>> [round(r) for r in bradley_terry([[0, 3], [1, 0]], prior=0)]
    [0, -191]
    """
    try:
        rows = [list(row) for row in wins]
    except TypeError:  # not a table
        rows = []
    n = len(rows)
    if n < 2 or any(len(row) != n for row in rows):
        raise InvalidArgumentError("wins is a square table of two bots or more")
    if not is_whole(anchor) or not 0 <= anchor < n:
        raise InvalidArgumentError(
            f"anchor is a bot's index from 0 to {n - 1}, not {excerpt(anchor)}"
        )
    _check_prior(prior)
    w = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            x = rows[i][j]
            if not is_finite(x) or x < 0:
                raise InvalidArgumentError(
                    f"wins[{i}][{j}] is a finite count from 0, not {excerpt(x)}"
                )
            if i != j:
                w[i][j] = float(x) + prior / 2
    total = [sum(w[i]) for i in range(n)]
    if not math.isfinite(sum(total)):
        raise InvalidArgumentError("the counts of wins add up past the largest float")
    if any(t <= 0 for t in total) or any(sum(w[j][i] for j in range(n)) <= 0 for i in range(n)):
        raise InvalidArgumentError(
            "a bot that never won or never lost has no finite rating: give a prior above 0"
        )
    if not _connected(w):
        raise InvalidArgumentError("every bot must be compared with the others, not apart")
    if not _strongly_connected(w):
        raise InvalidArgumentError(
            "a group of bots never lost to the others, so has no finite rating: give a"
            " prior above 0"
        )
    try:
        ratings = _fit(w, total, anchor)
    except (ArithmeticError, ValueError):  # a strength past what a float holds
        ratings = (math.nan,)
    if not all(math.isfinite(r) for r in ratings):
        raise InvalidArgumentError(
            "the wins are too lopsided for finite ratings in floating point: give a prior"
            " above 0 or counts nearer one another"
        )
    return ratings


def _check_prior(prior: object) -> None:
    """Refuse a prior that is not a finite number from 0."""
    if not is_finite(prior) or prior < 0:
        raise InvalidArgumentError(f"prior is a finite number from 0, not {excerpt(prior)}")


def _fit(w: list[list[float]], total: list[float], anchor: int) -> tuple[float, ...]:
    """The ratings that maximise the likelihood, by Newton's method on the log-strengths
    (the anchor's held at 0), each step halved until the likelihood does not fall; it
    converges in a few dozen steps however lopsided the counts (the wins strongly
    connected, so the maximum is finite).  A fit that does not converge gives NaN (the
    caller refuses it)."""
    n = len(w)
    free = [i for i in range(n) if i != anchor]
    # Start from half the log of each bot's wins over its losses (exact for two bots).
    start = [
        0.5 * (math.log(total[i]) - math.log(sum(w[j][i] for j in range(n)))) for i in range(n)
    ]
    theta = [x - start[anchor] for x in start]
    best = _log_likelihood(w, theta)
    for _ in range(400):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if j == i:
                    continue
                # won = i's chance against j, lost = 1 - won, each without cancellation
                won, lost = _logistic(theta[i] - theta[j]), _logistic(theta[j] - theta[i])
                grad[i] += w[i][j] * lost - w[j][i] * won
                c = (w[i][j] + w[j][i]) * won * lost
                hess[i][i] += c
                hess[i][j] -= c
        step = _solve([[hess[i][j] for j in free] for i in free], [grad[i] for i in free])
        if step is None:
            break
        size = 1.0
        while size > 1e-9:
            trial = list(theta)
            for k, i in enumerate(free):
                trial[i] += size * step[k]
            value = _log_likelihood(w, trial)
            if value >= best:
                break
            size /= 2
        else:
            # No step along Newton's direction raises the likelihood: the maximum, as
            # near as floating point tells (lopsided counts leave the last digits noise).
            return tuple(_ELO * (x - theta[anchor]) for x in theta)
        moved = max(abs(size * x) for x in step)
        theta, best = trial, value
        if moved < 1e-12:
            return tuple(_ELO * (x - theta[anchor]) for x in theta)
    return (math.nan,) * n


def _logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def _log_likelihood(w: list[list[float]], theta: list[float]) -> float:
    """The Bradley-Terry log-likelihood of the win counts ``w`` at log-strengths ``theta``."""
    out = 0.0
    for i, row in enumerate(w):
        for j, won in enumerate(row):
            if i != j and won:
                # log of i's chance against j: -log(1 + e^(b - a)), kept precise
                d = theta[j] - theta[i]
                out -= won * (math.log1p(math.exp(d)) if d <= 0 else d + math.log1p(math.exp(-d)))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float] | None:
    """x with a·x = b, by Gaussian elimination with partial pivoting; None when ``a`` is
    singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if not m[pivot][col] or not math.isfinite(m[pivot][col]):
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _strongly_connected(w: list[list[float]]) -> bool:
    """Whether every bot has beaten, through a chain of wins, every other (so no group
    of bots never lost to the rest, and the ratings are finite)."""
    n = len(w)
    for forward in (True, False):
        seen = {0}
        todo = [0]
        while todo:
            i = todo.pop()
            for j in range(n):
                won = w[i][j] if forward else w[j][i]
                if j not in seen and won > 0:
                    seen.add(j)
                    todo.append(j)
        if len(seen) != n:
            return False
    return True


def _connected(w: list[list[float]]) -> bool:
    n = len(w)
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in range(n):
            if j not in seen and (w[i][j] + w[j][i]) > 0:
                seen.add(j)
                todo.append(j)
    return len(seen) == n


def lineups(profile: Any, bots: Sequence[BotSpec] = DEFAULT_BOTS) -> list[tuple[BotSpec, ...]]:
    """The line-ups :func:`ratings_table` plays: every choice of as many of ``bots``
    as the game has seats, in the order given (a pair each in a two-handed game).

    >>> lineups("classic", ["random", "baseline", "pimc"])
    [('random', 'baseline'), ('random', 'pimc'), ('baseline', 'pimc')]
    """
    p = get_profile(profile)
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidArgumentError("bots is a list of bot specs")
    line = tuple(bots)
    if len(line) < p.players:
        raise InvalidArgumentError(
            f"rating {p.name} needs {p.players} bots or more (one per seat), not {len(line)}"
        )
    labels = [bot_label(b) for b in line]
    if len(set(labels)) != len(labels):
        raise InvalidArgumentError(f"each bot is rated once: {', '.join(labels)}")
    return list(itertools.combinations(line, p.players))


def _comparisons(report: ArenaReport) -> list[list[tuple[str, str, float]]]:
    """Per deal, each pair of places' comparison: (bot, other bot, bot's score)."""
    out = []
    for deal in report.points:
        total: dict[str, int] = {}
        for lineup, delta in zip(report.lineups, deal, strict=True):
            for seat, who in enumerate(lineup):
                total[who] = total.get(who, 0) + delta[seat]
        found = []
        for a, b in itertools.combinations(report.bots, 2):
            score = 1.0 if total[a] > total[b] else 0.0 if total[a] < total[b] else 0.5
            found.append((a, b, score))
        out.append(found)
    return out


def fit_ratings(
    reports: Sequence[ArenaReport],
    *,
    anchor: str | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    prior: float = DEFAULT_PRIOR,
    seed: int | None = None,
) -> RatingsTable:
    """The ratings fitted to arena reports of one profile over the same deals.

    ``reports``: :class:`~binocle.duplicate.ArenaReport` objects of one profile,
    deal count and seed, each a line-up of different bots (as :func:`ratings_table`
    plays them).  ``anchor``: the bot rated 0 (default: the first bot of the first
    report).  ``resamples``: bootstrap resamples of the deals for the intervals,
    drawn with ``seed`` (default: the reports' seed).  ``prior``: drawn comparisons
    added between every two bots (see the module).
    """
    if isinstance(reports, ArenaReport) or not isinstance(reports, Sequence) or not reports:
        raise InvalidArgumentError("reports is a non-empty list of arena reports")
    for r in reports:
        if not isinstance(r, ArenaReport):
            raise InvalidArgumentError(f"an arena report, not {type(r).__name__}")
    first = reports[0]
    for r in reports:
        if (r.profile, r.deals, r.seed) != (first.profile, first.deals, first.seed):
            raise InvalidArgumentError(
                "the reports must share one profile, deal count and seed (the same deals)"
            )
        if len(set(r.bots)) != len(r.bots):
            raise InvalidArgumentError(f"a line-up of different bots, not {', '.join(r.bots)}")
        if r.deals < 1 or len(r.points) != r.deals:
            raise InvalidArgumentError(
                "the reports must hold their deals' points, one deal or more"
            )
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise InvalidArgumentError(f"resamples is a whole number from 1, not {excerpt(resamples)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidArgumentError(f"a seed is a whole number, not {excerpt(seed)}")
    _check_prior(prior)
    bots = tuple(dict.fromkeys(b for r in reports for b in r.bots))
    if anchor is None:
        anchor = bots[0]
    if anchor not in bots:
        raise InvalidArgumentError(
            f"the anchor {excerpt(anchor)} is none of the bots ({', '.join(bots)})"
        )
    index = {b: k for k, b in enumerate(bots)}
    n = len(bots)
    # by_deal[d]: every comparison of deal d, over all line-ups, as index pairs.
    by_deal: list[list[tuple[int, int, float]]] = [[] for _ in range(first.deals)]
    for r in reports:
        for d, found in enumerate(_comparisons(r)):
            by_deal[d] += [(index[a], index[b], s) for a, b, s in found]

    def matrix(deals: Sequence[int]) -> tuple[list[list[float]], list[list[int]]]:
        w = [[0.0] * n for _ in range(n)]
        g = [[0] * n for _ in range(n)]
        for d in deals:
            for i, j, s in by_deal[d]:
                w[i][j] += s
                w[j][i] += 1.0 - s
                g[i][j] += 1
                g[j][i] += 1
        return w, g

    a = index[anchor]
    w, g = matrix(range(first.deals))
    point = bradley_terry(w, prior=prior, anchor=a)
    rng = random.Random(first.seed if seed is None else seed)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(resamples):
        pick = [rng.randrange(first.deals) for _ in range(first.deals)]
        for k, x in enumerate(bradley_terry(matrix(pick)[0], prior=prior, anchor=a)):
            draws[k].append(x)
    rated = [
        BotRating(b, point[k], _percentiles(draws[k]), sum(w[k]), sum(g[k]))
        for k, b in enumerate(bots)
    ]
    rated.sort(key=lambda x: -x.rating)
    return RatingsTable(
        first.profile,
        bots,
        anchor,
        first.deals,
        first.seed,
        resamples,
        float(prior),
        tuple(r.bots for r in reports),
        tuple(tuple(row) for row in w),
        tuple(tuple(row) for row in g),
        tuple(rated),
    )


def _percentiles(xs: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% points of ``xs`` (linear between order statistics)."""
    s = sorted(xs)

    def at(q: float) -> float:
        pos = q * (len(s) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(s) - 1)
        return s[lo] + (s[hi] - s[lo]) * (pos - lo)

    return (at(0.025), at(0.975))


def ratings_table(
    profile: Any,
    bots: Sequence[BotSpec] = DEFAULT_BOTS,
    deals: int = 20,
    *,
    seed: int = 0,
    anchor: str | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    prior: float = DEFAULT_PRIOR,
    executor: cf.Executor | None = None,
    jobs: int = 1,
    progress: bool | Callable[[int, int], None] = False,
) -> RatingsTable:
    """Rate ``bots`` (default: random, baseline, PIMC and ISMCTS at their defaults).

    Plays every line-up of :func:`lineups` over the same ``deals`` duplicate deals
    of ``seed`` in the arena (:func:`binocle.duplicate.arena`, which ``executor``,
    ``jobs`` and ``progress`` are passed to) and fits the ratings
    (:func:`fit_ratings`, given ``anchor``, ``resamples`` and ``prior``; the
    bootstrap draws with ``seed``).  The same arguments give the same table,
    however the work is split.

    >>> t = ratings_table("classic", ["random", "baseline"], deals=6, seed=1, resamples=50)
    >>> [r.bot for r in t.ratings], t.get("random").rating
    (['baseline', 'random'], 0.0)
    """
    plays = lineups(profile, bots)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise InvalidArgumentError(f"deals is a whole number from 1, not {excerpt(deals)}")
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise InvalidArgumentError(f"resamples is a whole number from 1, not {excerpt(resamples)}")
    _check_prior(prior)  # before any deal is played
    if anchor is None:
        anchor = bot_label(plays[0][0])
    reports = [
        arena(
            profile, list(line), deals, seed=seed, executor=executor, jobs=jobs, progress=progress
        )
        for line in plays
    ]
    return fit_ratings(reports, anchor=anchor, resamples=resamples, prior=prior, seed=seed)
