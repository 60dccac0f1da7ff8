"""Fuzz binocle's entry points and count every break of the error contract.

    python tests/fuzz/run.py --budget 60                 # about a minute in all (CI)
    python tests/fuzz/run.py --count 100000 --targets loads,apply_text,apply_action
    python tests/fuzz/run.py --count 20000 --json        # every target, figures as JSON

Per target it prints the inputs tried, how many were refused with a
BinocleError, and the failures, each of which must be 0: exceptions other than
BinocleError, inputs that took over 2 s, states ``loads`` accepted that no real
game reaches, states changed by a refused action, and results the rules do not
allow (an action accepted that was not legal, a text that does not read back).
The exit status is 1 when any failure count is not 0.  A run is deterministic
for its ``--seed``.  The targets and generators are in ``fuzzlib.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzlib


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--budget", type=float, help="seconds in all, shared by the targets by their weight"
    )
    how.add_argument("--count", type=int, help="inputs per target (default: --budget 60)")
    parser.add_argument(
        "--targets",
        default=",".join(fuzzlib.TARGETS),
        help=f"comma-separated targets (default: all of {', '.join(fuzzlib.TARGETS)})",
    )
    parser.add_argument("--states", type=int, default=6, help="pool states per profile (6)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    names = [t.strip() for t in args.targets.split(",") if t.strip()]
    unknown = [t for t in names if t not in fuzzlib.TARGETS]
    if unknown:
        parser.error(f"unknown target {unknown[0]!r} (targets: {', '.join(fuzzlib.TARGETS)})")
    if args.count is not None and args.count < 1:
        parser.error("--count must be at least 1")
    budget = 60.0 if args.budget is None and args.count is None else args.budget
    if budget is not None and budget <= 0:
        parser.error("--budget must be positive")

    rng = random.Random(args.seed)
    started = time.perf_counter()
    pool = fuzzlib.Pool(rng, per_spec=args.states)
    weights = sum(fuzzlib.TARGETS[n][1] for n in names)
    tallies = []
    for name in names:
        check, weight = fuzzlib.TARGETS[name]
        tally = fuzzlib.Tally(name)
        target_rng = random.Random(f"{args.seed}:{name}")
        t0 = time.perf_counter()
        if budget is not None:
            until = t0 + budget * weight / weights
            while time.perf_counter() < until:
                check(target_rng, pool, tally)
        else:
            while tally.tried < args.count:
                check(target_rng, pool, tally)
        tallies.append((tally, time.perf_counter() - t0))
        if not args.json:
            _print_line(tally, time.perf_counter() - t0)
    failures = sum(t.failures() for t, _ in tallies)
    if args.json:
        report = {
            "seed": args.seed,
            "seconds": round(time.perf_counter() - started, 1),
            "python": sys.version.split()[0],
            "targets": [{**t.as_dict(), "seconds": round(s, 1)} for t, s in tallies],
            "failures": failures,
        }
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        total = sum(t.tried for t, _ in tallies)
        spent = time.perf_counter() - started
        print(f"{total:,} inputs in {spent:.0f} s (seed {args.seed}): {failures} failures")
        for t, _ in tallies:
            for example in t.examples:
                print(f"  {t.name}: {example}")
    return 1 if failures else 0


def _print_line(t: fuzzlib.Tally, seconds: float) -> None:
    print(
        f"{t.name:13} {t.tried:>9,} tried {t.refused:>9,} refused | non-BinocleError"
        f" {t.foreign}  hangs>2s {t.hangs}  unreal loads {t.unreal}  changed on refusal"
        f" {t.changed}  wrong {t.wrong} | slowest {t.slowest:.2f}s CPU, {seconds:.0f}s",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
