"""``binocle ratings``: the bots rated against each other over duplicate deals."""

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

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle ratings``."""
    cmd = add_command(
        sub,
        "ratings",
        "bots rated against each other (Bradley-Terry on the Elo scale) over duplicate deals",
    )
    add_profile_option(cmd)
    cmd.add_argument(
        "--bots",
        default="random,baseline,pimc,ismcts",
        metavar="B,...",
        help="the bots to rate, separated by commas, at least one per seat (default:"
        " random,baseline,pimc,ismcts, each at its defaults; the first is rated 0); " + bot_help(),
    )
    cmd.add_argument(
        "--deals",
        type=at_least_one,
        default=20,
        metavar="N",
        help="duplicate deals each line-up plays (default 20)",
    )
    cmd.add_argument(
        "--resamples",
        type=at_least_one,
        default=1000,
        metavar="R",
        help="bootstrap resamples of the deals for the 95%% intervals (default 1000)",
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
        help="the seed every deal and the bootstrap follow from (default: a random seed, printed)",
    )
    cmd.add_argument(
        "--json", action="store_true", help="print the table as JSON (default: as text)"
    )
    cmd.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (default: a bar per line-up on a terminal, with tqdm installed)",
    )
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the line-ups, fit the ratings and print the table."""
    from binocle.ratings import ratings_table

    seed = args.seed if args.seed is not None else new_seed()
    search_here()
    bots = [b for b in split_bots(args.bots) if b]
    client: Any = None
    executor: Any = None
    if args.scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            return fail("ratings", "--scheduler needs Dask: pip install 'binocle[distributed]'")
        try:
            client = Client(args.scheduler, timeout="20s")  # type: ignore[no-untyped-call,unused-ignore]
        except (OSError, TimeoutError) as exc:
            return fail("ratings", f"cannot reach the scheduler {args.scheduler}: {exc}")
        executor = client.get_executor()
    try:
        table = ratings_table(
            args.profile,
            bots,
            args.deals,
            seed=seed,
            resamples=args.resamples,
            executor=executor,
            jobs=args.jobs,
            progress=not args.no_progress,
        )
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(table.to_json())
    else:
        print(table.table())
        if args.seed is None:
            print(f"(seed {seed}: --seed {seed} repeats this run)")
    return 0
