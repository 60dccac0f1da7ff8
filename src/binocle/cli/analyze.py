"""``binocle analyze``: each card of a recorded game against the best card, every hand known."""

from __future__ import annotations

import argparse
import json

from binocle.cli._common import Subparsers, add_command, at_least_one, fail, read_input
from binocle.errors import BinocleError
from binocle.solve import analyze

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle analyze``."""
    cmd = add_command(
        sub,
        "analyze",
        "judge each card of a recorded game against the best card (every hand known)",
    )
    cmd.add_argument("file", help="a game record (JSON); - reads standard input")
    cmd.add_argument(
        "--nodes",
        type=at_least_one,
        default=200_000,
        help="the search budget per position; a card past it is reported unsolved",
    )
    cmd.add_argument(
        "--json",
        action="store_true",
        help="print the analysis as JSON, Analysis.to_dict() (default: as text)",
    )
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Analyse the record: 0 when done, 2 for an unreadable file or record."""
    name = args.file
    text = read_input("analyze", name)
    if isinstance(text, int):
        return text
    try:
        result = analyze(text, nodes=args.nodes)
    except BinocleError as exc:
        return fail("analyze", f"{name} is not a readable game record: {exc}")
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(f"{name}: {result}")
    return 0
