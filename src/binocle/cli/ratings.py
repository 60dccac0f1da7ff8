"""``binocle ratings``: the bots rated against each other over duplicate deals."""

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
    add_deal_run_options(
        cmd,
        what="the table",
        seed="every deal and the bootstrap follow",
        output="as text",
        bar="a bar per line-up on a terminal, with tqdm installed",
    )
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the line-ups, fit the ratings and print the table."""
    from binocle.ratings import ratings_table

    seed = args.seed if args.seed is not None else new_seed()
    search_here()
    bots = [b for b in split_bots(args.bots) if b]
    try:
        with deal_executor(args.scheduler) as executor:
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
    except DealsUnavailable as exc:
        return fail("ratings", str(exc))
    return print_deal_report(table, args, seed)
