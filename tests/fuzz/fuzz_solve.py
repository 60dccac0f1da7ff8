"""Fuzz target ``solve``: the double-dummy solver's functions on any state and any arguments.

A pool state (any profile, any moment, often not the play of a hand) is given
to :func:`binocle.solve.solve`, :func:`~binocle.solve.can_reach` or
:func:`~binocle.solve.makes_bid` with a seat, a target and a budget that may be
junk.  The contract: a documented refusal (a BinocleError), or an answer whose
bounds hold (``0 <= lower <= value <= upper <= remaining``, an exact answer's
bounds equal, each card's value within what is left), and an exact value the
same whether the cards' values are asked for or not.

Registered in ``fuzzlib.TARGETS`` by this module's ``TARGETS``.
"""

from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Any

from binocle.solve import can_reach, makes_bid, solve

if TYPE_CHECKING:
    import fuzzlib


def _lib() -> Any:
    return importlib.import_module("fuzzlib")


def _arg(rng: random.Random, good: tuple[Any, ...]) -> Any:
    return rng.choice(good) if rng.random() < 0.8 else _lib().junk_value(rng)


def check_solve(rng: random.Random, pool: fuzzlib.Pool, tally: fuzzlib.Tally) -> None:
    """solve, can_reach and makes_bid: a BinocleError or an answer whose bounds hold."""
    _, state = pool.pick(rng)
    seat = _arg(rng, (None, 0, 1, 2, 3, -1))
    nodes = _arg(rng, (1, 50, 300)) if rng.random() < 0.5 else 300
    if nodes is None or (isinstance(nodes, int) and not isinstance(nodes, bool) and nodes > 300):
        nodes = 300  # a larger budget is a long search, not a fault
    seconds = _arg(rng, (None, 0.5, 0, -1.0))
    which = rng.randrange(3)
    lib = _lib()
    if which == 0:
        cards = _arg(rng, (True, False))
        ok, got = lib.timed(
            tally,
            lambda: f"solve(state, {seat!r:.20}, cards={cards!r:.20}, nodes={nodes!r:.20})",
            lambda: solve(state, seat, cards=cards, nodes=nodes, seconds=seconds),
        )
        if ok and not (
            0 <= got.lower <= got.value <= got.upper <= got.remaining
            and got.exact == (got.lower == got.upper)
            and all(0 <= v <= got.remaining for _, v in got.cards)
        ):
            tally.note("wrong", f"solve gave {got!r:.200}")
        elif ok and got.exact and isinstance(cards, bool):
            # The other way to the value (per-card windows, or null windows closing in)
            # proves the same value when it too finishes within the budget.
            other = solve(state, seat, cards=not cards, nodes=nodes, seconds=seconds)
            if other.exact and other.value != got.value:
                tally.note("wrong", f"solve gave {got.value} and {other.value} by the two ways")
    elif which == 1:
        points = _arg(rng, (0, 10, 50, 250, -5))
        ok, got = lib.timed(
            tally,
            lambda: f"can_reach(state, {points!r:.20}, {seat!r:.20})",
            lambda: can_reach(state, points, seat, nodes=nodes, seconds=seconds),
        )
        if ok and got not in (True, False, None):
            tally.note("wrong", f"can_reach gave {got!r:.50}")
    else:
        ok, got = lib.timed(
            tally,
            lambda: "makes_bid(state)",
            lambda: makes_bid(state, nodes=nodes, seconds=seconds),
        )
        if ok and got not in (True, False, None):
            tally.note("wrong", f"makes_bid gave {got!r:.50}")


TARGETS = {"solve": (check_solve, 1.0)}
