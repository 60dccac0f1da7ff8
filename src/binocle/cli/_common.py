"""What the ``binocle`` commands share: the profile option, seeds, error output."""

from __future__ import annotations

import argparse
import random
import sys

from binocle.profiles import profile_names

__all__ = ["Subparsers", "add_profile_option", "fail", "new_seed", "who"]

Subparsers = argparse._SubParsersAction  # the type of ``parser.add_subparsers()``


def add_profile_option(parser: argparse.ArgumentParser) -> None:
    """``--profile P``: a profile by name or spec, cutthroat when not given."""
    names = ", ".join(profile_names())
    parser.add_argument("--profile", default="cutthroat", help=f"one of {names}")


def new_seed() -> int:
    """A fresh seed for a command run without ``--seed`` (printed so the run can be repeated)."""
    return random.SystemRandom().randrange(10**6)


def fail(command: str, message: str) -> int:
    """Print ``binocle COMMAND: message`` on standard error; return the bad-input status 2."""
    print(f"binocle {command}: {message}", file=sys.stderr)
    return 2


def who(seat: int, me: int | None) -> str:
    """A seat's name as a person at seat ``me`` reads it: ``seat 1 (you)`` for his own."""
    return f"seat {seat} (you)" if seat == me else f"seat {seat}"
