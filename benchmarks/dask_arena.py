"""The arena on two local Dask workers against the same deals played in this process.

Needs the ``distributed`` extra.  Plays ``--deals`` duplicate deals of the baseline
bots serially, then on a ``LocalCluster`` of ``--workers`` single-threaded workers
(the deals sent in batches sized to the bots' cost), and prints both wall-clock
times, their ratio and whether the two reports are equal (they must be: every
deal's cards and seeds follow from the seed and the deal's number).  Run it on an
idle machine with as many cores as workers: the ratio is wall clock.

    python benchmarks/dask_arena.py [--deals 2000] [--profile cutthroat] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import time

from distributed import Client, LocalCluster

import binocle


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--profile", default="cutthroat")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    players = binocle.profile(args.profile).players
    bots = ["baseline"] * players
    started = time.perf_counter()
    serial = binocle.arena(args.profile, bots, deals=args.deals, seed=args.seed)
    serial_seconds = time.perf_counter() - started
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=args.workers, threads_per_worker=1, processes=True
    )
    with cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
        client.wait_for_workers(args.workers)
        started = time.perf_counter()
        spread = binocle.arena(
            args.profile, bots, deals=args.deals, seed=args.seed, executor=client.get_executor()
        )
        dask_seconds = time.perf_counter() - started
    result = {
        "profile": args.profile,
        "deals": args.deals,
        "workers": args.workers,
        "serial seconds": round(serial_seconds, 2),
        "dask seconds": round(dask_seconds, 2),
        "speedup": round(serial_seconds / dask_seconds, 2),
        "same report": serial.as_dict() == spread.as_dict(),
    }
    print(json.dumps(result, indent=2))
    return 0 if result["same report"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
