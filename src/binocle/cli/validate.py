"""``binocle validate``: check a recorded game against the rules."""

from __future__ import annotations

import argparse
import json

from binocle.cli._common import Subparsers, add_command, fail, read_input
from binocle.errors import BinocleError
from binocle.validation import validate

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle validate``."""
    val = add_command(sub, "validate", "check a recorded game against the rules")
    val.add_argument("file", help="a game record (JSON); - reads standard input")
    val.add_argument(
        "--json",
        action="store_true",
        help="print the report as JSON, ValidationReport.to_dict() (default: as text)",
    )
    val.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Validate the record: 0 for a legal game, 1 for a broken rule, 2 for an unreadable file."""
    name = args.file
    text = read_input("validate", name)
    if isinstance(text, int):
        return text
    try:
        report = validate(text)
    except BinocleError as exc:
        return fail("validate", f"{name} is not a readable game record: {exc}")
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(f"{name}: {report}")
    return 0 if report.ok else 1
