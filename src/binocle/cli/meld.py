"""``binocle meld``: the meld of some cards with a trump suit, with its breakdown."""

from __future__ import annotations

import argparse

from binocle.cards import parse_cards, parse_suit
from binocle.cli._common import (
    Subparsers,
    add_command,
    add_profile_option,
    add_suits_option,
    add_svg_option,
    fail,
    suit_style,
    write_svg,
)
from binocle.core import MeldResult
from binocle.errors import InvalidNotationError
from binocle.game import meld
from binocle.narrate import cards_text, hand_by_suit
from binocle.profiles import get_profile
from binocle.svg import melds_svg

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle meld``."""
    m = add_command(sub, "meld", "the meld of some cards, with its breakdown")
    m.add_argument("cards", nargs="+", help="cards such as AC TC KC QC JC (or one quoted text)")
    m.add_argument("--trump", required=True, help="trump suit: S H D C (or spades, ♠ ...)")
    add_profile_option(m)
    add_suits_option(m)
    add_svg_option(m, "the combinations scored")
    m.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Count and print the meld."""
    profile = get_profile(args.profile)
    text = " ".join(args.cards)
    try:
        cards = parse_cards(text)
        trump = parse_suit(args.trump)
        result: MeldResult = meld(cards, trump, profile)
    except InvalidNotationError as exc:
        return fail("meld", str(exc))
    if args.svg is not None:
        return write_svg("meld", args.svg, melds_svg(result, trump=trump))
    suits = suit_style(args)
    mark = trump.symbol if suits == "symbols" else trump.letter
    print(f"{hand_by_suit(tuple(sorted(cards)), suits)}   trump {mark}  ({profile.spec()})")
    if not result.melds:
        print("  no meld")
    for m in result.melds:
        print(f"  {m.name:<16} {cards_text(m.cards, suits):<26} {m.value:>5}")
    print(f"  {'total':<16} {'':<26} {result.total:>5}")
    return 0
