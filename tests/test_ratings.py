"""Ratings of bots over duplicate deals (docs: the bots page, "Bots and their strength").

The model is Bradley-Terry on the Elo scale: bot i beats bot j in a comparison with
probability p_i / (p_i + p_j), a rating is 400 log10(p_i / p_anchor); a comparison is
one duplicate deal seen from two places of a line-up, won by the place with more
points over the deal's seatings.  Checked on win tables and arena reports whose
outcome is known, then on real arena play.
"""

from __future__ import annotations

import contextlib
import io
import json
import math

import pytest

from binocle import InvalidArgumentError
from binocle.duplicate import ArenaReport, _report, arena
from binocle.ratings import (
    DEFAULT_BOTS,
    bradley_terry,
    fit_ratings,
    lineups,
    ratings_table,
)


def test_two_bots_rate_by_their_odds() -> None:
    """With two bots and no prior the fit is exact: 3 wins to 1 is odds of 3, so
    400 log10(3) points apart; the anchor is 0."""
    a, b = bradley_terry([[0, 3], [1, 0]], prior=0)
    assert a == 0.0
    assert b == pytest.approx(-400 * math.log10(3), abs=1e-6)
    # the anchor moves the scale, not the differences
    a2, b2 = bradley_terry([[0, 3], [1, 0]], prior=0, anchor=1)
    assert (a2, b2) == (pytest.approx(400 * math.log10(3), abs=1e-6), 0.0)


def test_a_known_win_table_gives_its_order() -> None:
    """A beats B beats C (and A beats C most of all): the ratings keep that order;
    an even table rates everyone alike."""
    wins = [[0, 7, 9], [3, 0, 7], [1, 3, 0]]
    ra, rb, rc = bradley_terry(wins)
    assert ra > rb > rc
    even = bradley_terry([[0, 5, 5], [5, 0, 5], [5, 5, 0]])
    assert all(abs(x) < 1e-6 for x in even)


def test_a_bot_that_never_lost_has_a_finite_rating_through_the_prior() -> None:
    """Without a prior a bot that won every comparison has no finite rating and is
    refused; the prior (drawn comparisons) gives it one, above the others."""
    with pytest.raises(InvalidArgumentError, match="never"):
        bradley_terry([[0, 4], [0, 0]], prior=0)
    top, low = bradley_terry([[0, 4], [0, 0]], prior=1, anchor=1)
    assert low == 0.0 and math.isfinite(top) and top > 0
    # 4.5 to 0.5 is odds of 9
    assert top == pytest.approx(400 * math.log10(9), abs=1e-6)


@pytest.mark.parametrize(
    ("wins", "kwargs"),
    [
        ([[0, 1]], {}),
        ([[0]], {}),
        ([[0, 1], [1, 0]], {"anchor": 2}),
        ([[0, 1], [1, 0]], {"prior": -1}),
        ([[0, -1], [1, 0]], {}),
        ([[0, "1"], [1, 0]], {}),
        ([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], {"prior": 0}),
        (None, {}),
        ([[0, 1], [1, 0]], {"anchor": "0"}),
        ([[0, 1], [1, 0]], {"anchor": True}),
        ([[0, math.inf], [1, 0]], {}),
        ([[0, math.nan], [1, 0]], {}),
        ([[0, 10**400], [1, 0]], {}),
        ([[0, 1e308], [1e308, 0]], {}),
        ([[0, 1e300], [5e-324, 0]], {"prior": 0}),
        ([[0, 1], [1, 0]], {"prior": 10**400}),
        ([[0, 1], [1, 0]], {"prior": True}),
    ],
)
def test_bad_win_tables_are_refused(wins: list[list[object]], kwargs: dict[str, object]) -> None:
    """A table not square (or not a table), an anchor that is not an index in range,
    a negative prior or count, a count that is not a finite float, counts that add
    up past the largest float, ratings too far apart for a float, and bots in two
    groups that never meet are refused with InvalidArgumentError."""
    with pytest.raises(InvalidArgumentError):
        bradley_terry(wins, **kwargs)  # type: ignore[arg-type]


def test_a_bad_prior_is_refused_before_any_deal_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ratings_table checks its prior (a finite number from 0) before it plays a deal."""

    def no_arena(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was played")

    monkeypatch.setattr("binocle.ratings.arena", no_arena)
    for prior in (math.nan, math.inf, 10**400, True, -1, "1"):
        with pytest.raises(InvalidArgumentError, match="prior"):
            ratings_table("classic", ["random", "baseline"], deals=5, prior=prior)  # type: ignore[arg-type]


def test_lopsided_but_finite_tables_are_rated() -> None:
    """With the prior, odds of 2e300 to 1 are a finite rating: 400 log10 of the odds."""
    top, low = bradley_terry([[0, 1e300], [5e-324, 0]], anchor=1)
    assert low == 0.0
    assert top == pytest.approx(400 * math.log10((1e300 + 0.5) / 0.5), rel=1e-9)


def report_of(a: str, b: str, a_wins: int, b_wins: int, draws: int = 0) -> ArenaReport:
    """A classic arena report of ``a`` against ``b`` in which ``a`` won ``a_wins``
    deals, ``b`` won ``b_wins`` and ``draws`` were even (the points of both seatings)."""
    points = []
    for k in range(a_wins + b_wins + draws):
        if k < a_wins:
            pa, pb = 300, 100
        elif k < a_wins + b_wins:
            pa, pb = 100, 300
        else:
            pa = pb = 200
        # seating 0: a at seat 0; seating 1: b at seat 0
        points.append(((pa, pb), (pb, pa)))
    return _report("classic", (a, b), len(points), 7, points)


def test_arena_reports_of_known_outcome_give_known_ratings() -> None:
    """Three bots, each pair over the same ten deals: strong beats mid 8-2 and weak
    10-0, mid beats weak 7-3.  The ratings follow that order, weak (the anchor) is 0,
    the win table counts the deals, and every rating lies inside its interval."""
    reports = [
        report_of("weak", "mid", 3, 7),
        report_of("weak", "strong", 0, 10),
        report_of("mid", "strong", 2, 8),
    ]
    t = fit_ratings(reports, resamples=300)
    assert [r.bot for r in t.ratings] == ["strong", "mid", "weak"]
    assert t.get("weak").rating == 0.0 and t.get("weak").ci == (0.0, 0.0)
    i = {b: k for k, b in enumerate(t.bots)}
    assert t.wins[i["strong"]][i["mid"]] == 8 and t.wins[i["mid"]][i["strong"]] == 2
    assert t.games[i["mid"]][i["weak"]] == 10
    assert t.get("mid").won == 7 + 2 and t.get("mid").comparisons == 20
    for r in t.ratings:
        assert r.ci[0] <= r.rating <= r.ci[1]
    assert t.get("strong").ci[0] > 0  # clearly above the anchor
    # the same reports and seed give the same table
    assert fit_ratings(reports, resamples=300) == t


def test_a_drawn_deal_counts_half_to_each() -> None:
    """Even points over a deal are a draw: half a comparison won by each place."""
    t = fit_ratings([report_of("a", "b", 2, 1, draws=2)], resamples=50)
    assert t.wins == ((0.0, 3.0), (2.0, 0.0))
    assert t.get("a").won == 3.0 and t.get("b").won == 2.0


def test_reports_of_other_deals_are_refused() -> None:
    """Reports must share profile, deal count and seed (the same deals); no reports,
    a report of no deals, a bad anchor or resample count are refused too."""
    a = report_of("a", "b", 2, 1)
    other = _report("classic", ("a", "c"), 3, 8, [((1, 0), (0, 1))] * 3)
    with pytest.raises(InvalidArgumentError, match="same deals"):
        fit_ratings([a, other])
    with pytest.raises(InvalidArgumentError):
        fit_ratings([])
    with pytest.raises(InvalidArgumentError):
        fit_ratings(a)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="anchor"):
        fit_ratings([a], anchor="zz")
    with pytest.raises(InvalidArgumentError, match="resamples"):
        fit_ratings([a], resamples=0)
    with pytest.raises(InvalidArgumentError, match="one deal or more"):
        fit_ratings([_report("classic", ("a", "b"), 0, 7, [])])


def test_the_line_ups_fill_the_table() -> None:
    """Every pair in a two-handed game, every three in a three-seat game; fewer bots
    than seats, or a bot named twice, are refused."""
    assert len(lineups("classic", DEFAULT_BOTS)) == 6
    assert lineups("cutthroat", DEFAULT_BOTS) == [
        ("random", "baseline", "pimc"),
        ("random", "baseline", "ismcts"),
        ("random", "pimc", "ismcts"),
        ("baseline", "pimc", "ismcts"),
    ]
    with pytest.raises(InvalidArgumentError, match="needs 3 bots"):
        lineups("three-handed", ["random", "baseline"])
    with pytest.raises(InvalidArgumentError, match="once"):
        lineups("classic", ["random", "random"])


def test_the_table_is_the_fit_of_the_arena() -> None:
    """ratings_table plays each line-up in the arena over the same deals and fits
    them: the same as fitting the arena's reports; the baseline bot rates above the
    random one (it outscores it on every deal here)."""
    t = ratings_table(
        "cutthroat", ["random", "baseline", "random(sudden=true)"], 3, seed=2, resamples=100
    )
    reports = [arena("cutthroat", list(line), 3, seed=2) for line in lineups("cutthroat", t.bots)]
    assert fit_ratings(reports, resamples=100, seed=2) == t
    assert t.ratings[0].bot == "baseline"
    assert t.get("random").rating == 0.0
    assert t.deals == 3 and t.lineups == (("random", "baseline", "random(sudden=true)"),)
    data = json.loads(t.to_json())
    assert [r["bot"] for r in data["ratings"]] == [r.bot for r in t.ratings]
    assert "baseline" in t.table() and str(t) == t.table()


def test_the_command_prints_the_table() -> None:
    """binocle ratings plays and prints the table (or JSON); a bad line-up is a
    one-line error with status 2."""
    from binocle.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            ["ratings", "--profile", "classic", "--bots", "random,baseline", "--deals", "2",
             "--seed", "3", "--resamples", "50", "--json", "--no-progress"]
        )  # fmt: skip
    assert code == 0
    data = json.loads(out.getvalue())
    assert data["deals"] == 2 and data["seed"] == 3
    assert data["ratings"][0]["bot"] == "baseline"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["ratings", "--profile", "classic", "--bots", "random", "--seed", "1"])
    assert code == 2 and "needs 2 bots" in err.getvalue()
