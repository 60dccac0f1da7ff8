"""``binocle arena``: bots compared over duplicate deals, on this machine or a Dask cluster."""

from __future__ import annotations

import argparse
from typing import Any

from binocle.cli._common import (
    Subparsers,
    add_command,
    add_profile_option,
    at_least_one,
    bot_help,
    fail,
    new_seed,
    search_here,
    split_bots,
    whole_number,
)

__all__ = ["add_parser", "run", "split_bots"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle arena``."""
    cmd = add_command(
        sub, "arena", "bots compared over duplicate deals: points per hand and win rates"
    )
    add_profile_option(cmd)
    cmd.add_argument(
        "--bots",
        required=True,
        metavar="B,...",
        help="one bot per seat, separated by commas, e.g. 'ismcts(iterations=400),baseline,baseline'; "
        + bot_help(),
    )
    cmd.add_argument(
        "--deals", type=at_least_one, default=100, metavar="N", help="how many duplicate deals"
    )
    cmd.add_argument(
        "--jobs", type=at_least_one, default=1, metavar="J", help="worker processes on this machine"
    )
    cmd.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run the deals on a Dask cluster, e.g. tcp://10.0.0.5:8786 (extra binocle[distributed];"
        " default: this machine)",
    )
    cmd.add_argument(
        "--seed",
        type=whole_number,
        default=None,
        metavar="S",
        help="the seed every deal follows from (default: a random seed, printed)",
    )
    cmd.add_argument(
        "--json", action="store_true", help="print the report as JSON (default: as a table)"
    )
    cmd.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (default: a bar on a terminal, with tqdm installed)",
    )
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the arena and print the report."""
    from binocle.duplicate import arena

    seed = args.seed if args.seed is not None else new_seed()
    search_here()
    bots = split_bots(args.bots)
    client: Any = None
    executor: Any = None
    if args.scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            return fail("arena", "--scheduler needs Dask: pip install 'binocle[distributed]'")
        try:
            client = Client(args.scheduler, timeout="20s")  # type: ignore[no-untyped-call,unused-ignore]
        except (OSError, TimeoutError) as exc:
            return fail("arena", f"cannot reach the scheduler {args.scheduler}: {exc}")
        executor = client.get_executor()
    try:
        report = arena(
            args.profile,
            bots,
            args.deals,
            seed=seed,
            executor=executor,
            jobs=args.jobs,
            progress=not args.no_progress,
        )
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(report.to_json())
    else:
        print(report.table())
        if args.seed is None:
            print(f"(seed {seed}: --seed {seed} repeats this run)")
    return 0
