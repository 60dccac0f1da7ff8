"""The double-dummy solver: the exact value of the play with every hand known (a leaf).

With every card known (a real state, or a :func:`binocle.determinize` sample),
:func:`solve` gives the card points a side wins from the current moment to the
end of the hand with best play by everyone, and the value of each legal card;
:func:`can_reach` and :func:`makes_bid` answer "can this side still win so
many points" by a much faster null-window search.  The search plays the
engine's own trick rules (the profile's obligation), so its answers hold for
the game as the engine plays it; see the solver page of the docs for the
sides, what the value counts and leaves out, and the figures.

:func:`analyze` goes through a recorded game and gives, for each card played
where the hands were known, the best card, the card played and what it cost.
"""

from __future__ import annotations

from binocle.solve._analysis import Analysis, CardAnalysis, analysis_section, analyze
from binocle.solve._position import Solution, can_reach, makes_bid, solve

__all__ = [
    "Analysis",
    "CardAnalysis",
    "Solution",
    "analysis_section",
    "analyze",
    "can_reach",
    "makes_bid",
    "solve",
]
