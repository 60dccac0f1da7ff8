"""Speed benchmark of the engine, side by side with OpenSpiel's skat and hearts.

Run ``python benchmarks/bench.py [--seconds N] [--json]``; benchmarks/README.md
says what each line means.  Every rate is the best of three timed runs of
``--seconds`` each, after a short warm-up.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import binocle
from binocle.cards import Card, Suit, pack

HANDS_PER_GAME = 6
RUNS = 3
WARMUP = 0.3
PLAYOUT_TARGET = 0.5  # of OpenSpiel skat
MELD_COUNT_TARGET = 200_000
CLASSIC_MELD_TARGET = 20_000
STATE_BYTES_TARGET = 2048
MELD_HANDS = 20_000

Row = dict[str, Any]


def best_rate(work: Callable[[float], tuple[int, float]], seconds: float) -> float:
    """The best of ``RUNS`` rates; ``work(seconds)`` returns (count, elapsed)."""
    work(min(WARMUP, seconds))
    best = 0.0
    for _ in range(RUNS):
        gc.collect()
        n, elapsed = work(seconds)
        best = max(best, n / elapsed)
    return best


# -- binocle random playouts -----------------------------------------------------


def timed(batch: Callable[[], int]) -> Callable[[float], tuple[int, float]]:
    """Run ``batch`` (which returns how much it did) again and again for the time given;
    return the total done and the seconds it took."""

    def work(seconds: float) -> tuple[int, float]:
        clock = time.perf_counter
        n = 0
        start = clock()
        stop = start + seconds
        while True:
            n += batch()
            now = clock()
            if now >= stop:
                return n, now - start

    return work


def binocle_playouts(name: str) -> Callable[[float], tuple[int, float]]:
    """Uniform-random playouts of profile ``name``, counting every action (deals too)."""
    legal_actions, apply, new_game = binocle.legal_actions, binocle.apply, binocle.new_game
    over, between = binocle.Phase.OVER, binocle.Phase.DEAL
    rng = random.Random(1)
    seed = [0]

    def game() -> int:
        seed[0] += 1
        s = new_game(name, seed=seed[0])
        n = 1  # the first deal
        while True:
            phase = s.phase
            if phase is over or (phase is between and s.hand_number >= HANDS_PER_GAME):
                return n
            s = apply(s, rng.choice(legal_actions(s)))
            n += 1

    return timed(game)


# -- OpenSpiel ------------------------------------------------------------------------


def openspiel_playouts(pyspiel: Any, name: str) -> Callable[[float], tuple[int, float]]:
    """Uniform-random playouts of an OpenSpiel game, chance outcomes counted as actions."""
    game = pyspiel.load_game(name)
    rng = random.Random(1)

    choice = rng.choice

    def play() -> int:
        n = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                a = choice(state.chance_outcomes())[0]
            else:
                a = choice(state.legal_actions())
            state.apply_action(a)
            n += 1
        return n

    return timed(play)


# -- melds ------------------------------------------------------------------------------


def random_hands(size: int, count: int, seed: int) -> list[tuple[tuple[Card, ...], Suit]]:
    """``count`` distinct random (sorted hand, trump) pairs from the 48-card pack."""
    rng = random.Random(seed)
    deck = list(pack(48))
    seen: set[tuple[tuple[Card, ...], Suit]] = set()
    out: list[tuple[tuple[Card, ...], Suit]] = []
    while len(out) < count:
        item = (tuple(sorted(rng.sample(deck, size))), rng.choice(list(Suit)))
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def over_hands(
    hands: list[tuple[tuple[Card, ...], Any]], fn: Callable[[tuple[Card, ...], Any], object]
) -> Callable[[float], tuple[int, float]]:
    """Call ``fn(hand, trump)`` over the hands, again and again, for the time given."""

    def one_pass() -> int:
        for hand, trump in hands:
            fn(hand, trump)
        return len(hands)

    return timed(one_pass)


def cold_rate(
    hands: list[tuple[tuple[Card, ...], Any]], fn: Callable[[tuple[Card, ...], Any], object]
) -> float:
    """One pass over hands never seen before (memo caches empty for them)."""
    start = time.perf_counter()
    for hand, trump in hands:
        fn(hand, trump)
    return len(hands) / (time.perf_counter() - start)


# -- memory ------------------------------------------------------------------------------


def state_bytes(name: str = "cutthroat", seed: int = 5) -> tuple[float, int]:
    """Traced bytes per state over one played hand, every state kept alive."""
    rng = random.Random(seed)
    ends = (binocle.Phase.DEAL, binocle.Phase.OVER)

    def one_hand(s: binocle.GameState, keep: list[binocle.GameState]) -> None:
        while s.phase not in ends:
            s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
            keep.append(s)

    one_hand(binocle.new_game(name, seed=seed + 1), [])  # warm every cache
    s0 = binocle.new_game(name, seed=seed)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        keep: list[binocle.GameState] = []
        binocle.legal_actions(s0)
        one_hand(s0, keep)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / len(keep), len(keep)


# -- the report ---------------------------------------------------------------------------


def fmt_rate(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:,.0f}/s"


def run(seconds: float) -> dict[str, Any]:
    rows: list[Row] = []
    notes: list[str] = []

    def row(
        label: str,
        value: float | None,
        unit: str,
        reference: str,
        target: str,
        ok: bool | None = None,
    ) -> Row:
        r = {
            "line": label,
            "value": value,
            "unit": unit,
            "reference": reference,
            "target": target,
            "ok": ok,
        }
        rows.append(r)
        return r

    # c. OpenSpiel first, so the reference is known for a. and b.
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        pyspiel = None
        notes.append(
            "OpenSpiel is missing: skat and hearts not measured (install: pip install open_spiel)"
        )
    spiel: dict[str, float | None] = {"skat": None, "hearts": None}
    if pyspiel is not None:
        for game in spiel:
            spiel[game] = best_rate(openspiel_playouts(pyspiel, game), seconds)
    skat = spiel["skat"]
    skat_ref = f"skat {fmt_rate(skat)}" if skat else "skat: not measured"

    # a. and b. binocle random playouts, every profile this installation offers.
    names = list(binocle.profile_names())
    names.sort(key=lambda n: n != "cutthroat")
    cut: float | None = None
    for name in names:
        try:
            rate = best_rate(binocle_playouts(name), seconds)
        except Exception as exc:  # a profile under construction must not stop the report
            notes.append(f"profile {name}: playouts failed: {type(exc).__name__}: {exc}")
            continue
        if name == "cutthroat":
            cut = rate
        row(
            f"{'a' if name == 'cutthroat' else 'b'}. {name} random playout",
            rate,
            "actions/s",
            skat_ref,
            f">= {PLAYOUT_TARGET} x skat" if name == "cutthroat" else "-",
            rate / skat >= PLAYOUT_TARGET if name == "cutthroat" and skat else None,
        )
    for game in ("skat", "hearts"):
        row(
            f"c. OpenSpiel {game} random playout",
            spiel[game],
            "actions/s",
            "C++ engine, driven from Python",
            "reference",
        )

    # d. the ratio.
    ratio = cut / skat if cut and skat else None
    row(
        "d. cutthroat / skat",
        ratio,
        "ratio",
        "1.0 = as fast as skat",
        f">= {PLAYOUT_TARGET}",
        None if ratio is None else ratio >= PLAYOUT_TARGET,
    )

    # e. cutthroat melds.
    from binocle.rules.cutthroat_melds import meld_total

    cutthroat = binocle.profile("cutthroat")
    hands15 = random_hands(15, MELD_HANDS, 15)
    hands15_int = [(h, int(t)) for h, t in hands15]
    count_rate = best_rate(over_hands(hands15_int, meld_total), seconds)
    row(
        "e. cutthroat meld_total (count)",
        count_rate,
        "hands/s",
        "15-card hands",
        f">= {MELD_COUNT_TARGET:,}/s",
        count_rate >= MELD_COUNT_TARGET,
    )
    row(
        "e. cutthroat profile.meld (breakdown)",
        best_rate(over_hands(hands15, cutthroat.meld), seconds),
        "hands/s",
        "15-card hands, MeldResult",
        "-",
    )

    # f. classic meld optimum.
    try:
        classic = importlib.import_module("binocle.rules.classic_melds")
    except ImportError:
        classic = None
        notes.append("binocle.rules.classic_melds is not importable: line f not measured")
    if classic is not None:
        for size in (12, 16):
            hands = random_hands(size, MELD_HANDS, size)
            cold = cold_rate(hands, classic.best_meld)
            rate = best_rate(over_hands(hands, classic.best_meld), seconds)
            r = row(
                f"f. classic best_meld, {size} cards",
                rate,
                "hands/s",
                f"first pass (cold memo) {fmt_rate(cold)}",
                f">= {CLASSIC_MELD_TARGET:,}/s",
                rate >= CLASSIC_MELD_TARGET,
            )
            r["cold"] = cold

    # g. memory per state.
    per_state, states = state_bytes()
    row(
        "g. bytes a cutthroat state adds",
        per_state,
        "bytes",
        f"mean over {states} states of one hand",
        f"<= {STATE_BYTES_TARGET:,} B",
        per_state <= STATE_BYTES_TARGET,
    )
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.platform(),
        "processor": platform.machine(),
        "seconds": seconds,
        "runs": RUNS,
        "rows": rows,
        "notes": notes,
    }


def show(report: dict[str, Any]) -> str:
    def value(r: Row) -> str:
        v = r["value"]
        if v is None:
            return "not measured"
        if r["unit"] == "ratio":
            return f"{v:.3f}"
        if r["unit"] == "bytes":
            return f"{v:,.0f} B"
        return f"{v:,.0f} {r['unit']}"

    table = [("line", "measured", "reference", "target", "met")]
    for r in report["rows"]:
        met = {True: "yes", False: "NO", None: ""}[r["ok"]]
        table.append((r["line"], value(r), r["reference"], r["target"], met))
    widths = [max(len(t[i]) for t in table) for i in range(5)]
    lines = [
        f"binocle {binocle.__version__} benchmark: Python {report['python']}"
        f" ({report['implementation']}) on {report['machine']} [{report['processor']}]",
        f"best of {report['runs']} runs of {report['seconds']:g} s each",
        "",
    ]
    for i, t in enumerate(table):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(t, widths, strict=True)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.extend(f"note: {n}" for n in report["notes"])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed run")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    report = run(args.seconds)
    print(json.dumps(report, indent=2) if args.json else show(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
