"""``binocle meld``: the meld of some cards with a trump suit, with its breakdown."""

from __future__ import annotations

import argparse

from binocle.cards import parse_cards, parse_suit
from binocle.cli._common import Subparsers, add_profile_option, fail
from binocle.core import MeldResult
from binocle.errors import InvalidNotationError
from binocle.game import meld
from binocle.narrate import hand_by_suit
from binocle.profiles import get_profile

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle meld``."""
    m = sub.add_parser("meld", help="the meld of some cards, with its breakdown")
    m.add_argument("cards", nargs="+", help="cards such as AC TC KC QC JC (or one quoted text)")
    m.add_argument("--trump", required=True, help="trump suit: S H D C")
    add_profile_option(m)
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
    print(f"{hand_by_suit(tuple(sorted(cards)))}   trump {trump.symbol}  ({profile.spec()})")
    if not result.melds:
        print("  no meld")
    for m in result.melds:
        cards_text = " ".join(str(c) for c in m.cards)
        print(f"  {m.name:<16} {cards_text:<26} {m.value:>5}")
    print(f"  {'total':<16} {'':<26} {result.total:>5}")
    return 0
