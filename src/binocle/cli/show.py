"""``binocle show``: a position (one line of the position notation) as a person reads it,
as text or as an SVG picture."""

from __future__ import annotations

import argparse

from binocle.cli._common import (
    Subparsers,
    add_command,
    add_suits_option,
    add_svg_option,
    fail,
    suit_style,
    write_svg,
)
from binocle.core import GameState, View
from binocle.display import state_text, view_text
from binocle.errors import BinocleError
from binocle.game import observe
from binocle.notation import from_position, view_from_position
from binocle.svg import table_svg

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle show``."""
    m = add_command(sub, "show", "a position as a person reads it, as text or a picture")
    m.add_argument(
        "position",
        help="a state's or a seat's position (binocle.position writes one), quoted as one text",
    )
    m.add_argument(
        "--seat",
        type=int,
        default=None,
        help="show what this seat may know of a state's position (default: the whole table)",
    )
    m.add_argument(
        "--names",
        default=None,
        help="the seats' names, separated by commas (default: seat 0, seat 1, ...)",
    )
    add_suits_option(m)
    add_svg_option(m, "the table")
    m.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the position; print it, or write its picture."""
    subject: GameState | View
    try:
        if "view" in args.position.partition("|")[0].split():
            subject = view_from_position(args.position)
        else:
            subject = from_position(args.position)
        if args.seat is not None:
            if isinstance(subject, View):
                return fail("show", "--seat is for a state's position: this one is a view's")
            subject = observe(subject, args.seat)
        names = None if args.names is None else [n.strip() for n in args.names.split(",")]
        if args.svg is not None:
            return write_svg("show", args.svg, table_svg(subject, names=names))
    except BinocleError as exc:
        return fail("show", str(exc))
    suits = suit_style(args)
    print(view_text(subject, suits) if isinstance(subject, View) else state_text(subject, suits))
    return 0
