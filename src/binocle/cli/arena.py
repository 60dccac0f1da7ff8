"""``binocle arena``: bots compared over duplicate deals, on this machine or a Dask cluster."""

from __future__ import annotations

import argparse

from binocle.cli._common import (
    DealsUnavailable,
    Subparsers,
    add_command,
    add_deal_run_options,
    add_profile_option,
    at_least_one,
    bot_help,
    deal_executor,
    fail,
    new_seed,
    print_deal_report,
    search_here,
    split_bots,
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
    add_deal_run_options(
        cmd,
        what="the report",
        seed="every deal follows",
        output="as a table",
        bar="a bar on a terminal, with tqdm installed",
    )
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the arena and print the report."""
    from binocle.duplicate import arena

    seed = args.seed if args.seed is not None else new_seed()
    search_here()
    bots = split_bots(args.bots)
    try:
        with deal_executor(args.scheduler) as executor:
            report = arena(
                args.profile,
                bots,
                args.deals,
                seed=seed,
                executor=executor,
                jobs=args.jobs,
                progress=not args.no_progress,
            )
    except DealsUnavailable as exc:
        return fail("arena", str(exc))
    return print_deal_report(report, args, seed)
