"""Fuzz target ``validate_edits``: :func:`binocle.validate` on real records with entries
swapped, removed and duplicated.

A record of a reachable state (the pool's, every profile) gets one to three edits:
two entries swapped (most often two plays, often of one seat), an entry removed, or
an entry duplicated.  Its form stays right, so :func:`binocle.load_record` reads it;
the contract (docs: Validating recorded games): ``validate`` then never raises, not
even a BinocleError, and gives a report, ``first_only`` too; ``str(report)`` and
``report.to_dict()`` work; a report that stopped says where (``stopped``) and why (a
note); every violation's index is an entry of the record, in the record's order.

Registered in ``fuzzlib.TARGETS`` by this module's ``TARGETS``.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import binocle
from binocle.validation import ValidationReport

if TYPE_CHECKING:
    import fuzzlib


def _lib() -> Any:
    """The fuzz library, looked up when first needed (it imports this module)."""
    return importlib.import_module("fuzzlib")


def _plays(actions: list[dict[str, Any]], seat: int | None = None) -> list[int]:
    return [
        i
        for i, e in enumerate(actions)
        if e["action"].startswith("play ") and (seat is None or e["seat"] == seat)
    ]


def edit(rng: random.Random, doc: dict[str, Any]) -> str:
    """One edit of ``doc``'s entries, in place; what was done."""
    actions: list[dict[str, Any]] = doc["actions"]
    if len(actions) < 2:
        return "nothing to edit"
    r = rng.random()
    if r < 0.5:
        seat = rng.choice([None, 0, 1, 2]) if rng.random() < 0.7 else None
        pool = _plays(actions, seat) if rng.random() < 0.8 else list(range(len(actions)))
        if len(pool) < 2:
            pool = list(range(len(actions)))
        a, b = rng.sample(pool, 2)
        actions[a], actions[b] = actions[b], actions[a]
        return f"swapped {a} and {b}"
    if r < 0.75:
        pool = _plays(actions) if rng.random() < 0.8 else list(range(len(actions)))
        i = rng.choice(pool or list(range(len(actions))))
        del actions[i]
        return f"removed {i}"
    pool = _plays(actions) if rng.random() < 0.8 else list(range(len(actions)))
    i = rng.choice(pool or list(range(len(actions))))
    where = i + 1 if rng.random() < 0.7 else rng.randrange(len(actions) + 1)
    actions.insert(where, dict(actions[i]))
    return f"duplicated {i} at {where}"


def check_validate_edits(rng: random.Random, pool: fuzzlib.Pool, tally: fuzzlib.Tally) -> None:
    """``validate`` on a real record with entries swapped, removed, duplicated."""
    lib = _lib()
    _, s = pool.pick(rng)
    doc: dict[str, Any] = dict(binocle.record(s))
    doc["actions"] = [dict(e) for e in doc["actions"]]
    done = [edit(rng, doc) for _ in range(rng.choice((1, 1, 2, 3)))]
    how = f"{s.profile.spec()} seed {s.seed}: {', '.join(done)}"
    text = json.dumps(doc)
    binocle.load_record(text)  # the form is right: the edits keep it
    first_only = rng.random() < 0.25

    def run() -> ValidationReport:
        return binocle.validate(text, first_only=first_only)

    ok, report = lib.timed(tally, lambda: how, run)
    if not ok:
        if report is not None:  # a BinocleError: validate must not raise on a readable record
            tally.refused -= 1
            tally.note("wrong", f"raised {type(report).__name__}: {report} <- {how}")
        return
    assert isinstance(report, ValidationReport)
    ok, _ = lib.timed(
        tally, lambda: f"str/to_dict <- {how}", lambda: (str(report), report.to_dict())
    )
    if not ok:
        return
    indices = [v.index for v in report.violations]
    if indices != sorted(indices) or any(not 0 <= k < len(doc["actions"]) for k in indices):
        tally.note("wrong", f"violation indices {indices} <- {how}")
    if report.stopped is not None and not report.notes:
        tally.note("wrong", f"stopped at {report.stopped} without a note <- {how}")
    if report.ok and (report.violations or report.stopped is not None):
        tally.note("wrong", f"ok with violations or a stop <- {how}")
    STATS["reports"] += 1
    STATS["violations"] += len(report.violations)
    STATS["stopped"] += report.stopped is not None
    STATS["ok"] += report.ok


#: What the reports held, over a run (``run.py`` prints it with ``--json`` absent).
STATS: dict[str, int] = {"reports": 0, "violations": 0, "stopped": 0, "ok": 0}

TARGETS: dict[str, tuple[Callable[[random.Random, fuzzlib.Pool, fuzzlib.Tally], None], float]] = {
    "validate_edits": (check_validate_edits, 2.0),
}
