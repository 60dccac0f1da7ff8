"""The ``binocle`` command line (layer 4): one module per command.

Commands::

    binocle play [--profile P] [--seat N] [--seed S] [--save FILE]
    binocle meld CARDS... --trump S [--profile P]
    binocle simulate --profile P --games N [--bots random,baseline,...] [--jobs J]
                     [--seed S] [--json] [--max-hands H]
    binocle validate FILE [--json]
    binocle demo [--profile P] [--seed S] [--bot B] [--max-hands H]

Exit status: 0 on success; ``validate`` gives 1 for a game that breaks a rule;
2 for bad input (an unknown profile, a malformed card, an unreadable file).

Each command is a module of this package with two functions: ``add_parser(sub)``
registers the command's parser (with ``run`` as its ``run`` default) and
``run(args)`` carries it out and returns the exit status. A new command is a new
module imported here and listed in ``_COMMANDS``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from binocle.cli import demo, meld, play, simulate, validate
from binocle.errors import BinocleError

__all__ = ["build_parser", "main"]

# The commands in the order ``binocle --help`` lists them: modules of this package.
_COMMANDS = (play, meld, simulate, validate, demo)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``binocle`` command."""
    parser = argparse.ArgumentParser(
        prog="binocle", description="The rules of Binocle and Pinochle: play, check, simulate."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in _COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except BinocleError as exc:
        print(f"binocle {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
