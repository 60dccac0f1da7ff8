"""``binocle engine``: a built-in bot behind the engine protocol, on standard input and output."""

from __future__ import annotations

import argparse

from binocle.cli._common import Subparsers, add_command, bot_help, search_here

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle engine``."""
    cmd = add_command(
        sub,
        "engine",
        "run a bot as an engine: the binocle engine protocol on standard input and output",
    )
    cmd.add_argument(
        "--bot",
        default="baseline",
        metavar="B",
        help="the bot that plays (default: baseline); " + bot_help(),
    )
    cmd.add_argument(
        "--name",
        default=None,
        metavar="TEXT",
        help="the name the engine gives in its handshake (default: the bot's spec)",
    )
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Answer the host's messages until it says ``quit`` or closes the input."""
    from binocle.engine import run_engine

    search_here()
    return run_engine(args.bot, name=args.name)
