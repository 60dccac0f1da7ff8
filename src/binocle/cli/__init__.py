"""The ``binocle`` command line (layer 4): one module per command.

Commands::

    binocle play [--profile P] [--seat N] [--bots B,...] [--seed S] [--save FILE]
                 [--load FILE] [--suits STYLE] [--color WHEN]
    binocle meld CARDS... --trump S [--profile P] [--suits STYLE]
    binocle simulate [--profile P] [--games N] [--bots B,...] [--jobs J]
                     [--seed S] [--json] [--max-hands H]
    binocle arena --bots B,... [--profile P] [--deals N] [--jobs J]
                  [--scheduler ADDRESS] [--seed S] [--json] [--no-progress]
    binocle ratings [--profile P] [--bots B,...] [--deals N] [--resamples R] [--jobs J]
                    [--scheduler ADDRESS] [--seed S] [--json] [--no-progress]
    binocle validate FILE [--json]
    binocle demo [--profile P] [--seed S] [--bot B] [--max-hands H] [--suits STYLE]
    binocle serve [--host H] [--port P]
    binocle site DIR [--pyodide PATH]
    binocle engine [--bot B] [--name TEXT]
    binocle --version

Exit status: 0 on success; 1 when ``validate`` finds a game that breaks a rule, or
``play`` could not write its record where ``--save`` asked (it then writes it
elsewhere and says where); 2 for bad input (an unknown profile, a malformed card,
an unreadable file, a bad option); 130 when interrupted (Ctrl-C); 143 and 129
when ``play`` is stopped by SIGTERM or SIGHUP (after saving the game where
``--save`` asks); 70 for an internal error (a bug: please report it); 3 when an
external engine failed (:class:`~binocle.errors.EngineError`: the message names the
engine and what it sent, and the game up to there is written to a file the message
names).  No
command ends in a traceback.

Each command is a module of this package with two functions: ``add_parser(sub)``
registers the command's parser (with ``run`` as its ``run`` default) and
``run(args)`` carries it out and returns the exit status.  A new command is a new
module imported here and listed in ``_COMMANDS``; ``_common`` holds what commands
share.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

from binocle import __version__
from binocle.cli import (
    arena,
    demo,
    engine,
    meld,
    play,
    ratings,
    serve,
    show,
    simulate,
    site,
    validate,
)
from binocle.cli._common import HelpFormatter
from binocle.errors import BinocleError, EngineError

__all__ = ["build_parser", "main"]

# The commands in the order ``binocle --help`` lists them: modules of this package.
_COMMANDS = (play, meld, show, simulate, arena, ratings, validate, demo, serve, site, engine)

INTERNAL_ERROR = 70  # EX_SOFTWARE of sysexits.h
ENGINE_FAILED = 3


def _failed_game(exc: EngineError) -> str:
    """Where the game an engine failed in is written (its record up to there), or ""."""
    if exc.state is None:
        return ""
    import tempfile

    from binocle.records import dump_record, record

    try:
        with tempfile.NamedTemporaryFile(
            "w", prefix="binocle-engine-failure-", suffix=".json", delete=False, encoding="utf-8"
        ) as f:
            f.write(dump_record(record(exc.state)))
    except (OSError, BinocleError):
        return ""
    return f" (the game up to there: {f.name})"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``binocle`` command."""
    parser = argparse.ArgumentParser(
        prog="binocle",
        description="The rules of Binocle and Pinochle: play, check, simulate.",
        epilog="binocle COMMAND --help describes a command and its defaults.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _COMMANDS:
        command.add_parser(sub)
    return parser


def _quiet_stdout() -> None:
    """After a broken pipe (``binocle demo | head``): send the rest of the output nowhere,
    so that the interpreter's last flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    for stream in (sys.stdout, sys.stderr):  # a terminal without ♠: '?', not a crash
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except EngineError as exc:
        print(f"binocle {args.command}: {exc}{_failed_game(exc)}", file=sys.stderr)
        return ENGINE_FAILED
    except BinocleError as exc:
        print(f"binocle {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as exc:
        print(f"binocle {args.command}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line instead of a traceback, unless asked
        if os.environ.get("BINOCLE_TRACEBACK"):
            raise
        print(
            f"binocle {args.command}: internal error: {type(exc).__name__}: {str(exc)[:200]}"
            " (please report it; BINOCLE_TRACEBACK=1 shows the traceback)",
            file=sys.stderr,
        )
        return INTERNAL_ERROR
