"""``binocle demo``: bots play a whole game, printed so a person can follow it."""

from __future__ import annotations

import argparse

from binocle.actions import Action
from binocle.bots import play_game, resolve_bot
from binocle.cli._common import (
    Subparsers,
    add_command,
    add_profile_option,
    add_suits_option,
    at_least_one,
    bot_help,
    bot_specs,
    suit_style,
    whole_number,
)
from binocle.core import GameState
from binocle.game import end_reason
from binocle.narrate import narrate_all, plural
from binocle.profiles import get_profile

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle demo``."""
    demo = add_command(sub, "demo", "bots play a whole game, printed so you can follow it")
    add_profile_option(demo)
    demo.add_argument(
        "--seed", type=whole_number, default=1, metavar="S", help="seed of the deals and the bots"
    )
    demo.add_argument(
        "--bot",
        default="baseline",
        metavar="B",
        help="the bot at every seat, or one per seat separated by commas; " + bot_help(),
    )
    demo.add_argument(
        "--max-hands",
        type=at_least_one,
        default=200,
        metavar="H",
        help="end the game after H hands, the highest score winning (at least 1)",
    )
    add_suits_option(demo)
    demo.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and print the game."""
    profile = get_profile(args.profile)
    specs = bot_specs(args.bot, profile.players, "--bot")
    suits = suit_style(args)
    print(f"binocle demo: {profile.name} ({profile.description})")
    target = getattr(profile, "target", None)
    aim = f" to {target}" if target is not None else ""
    print(
        f"{plural(profile.players, args.bot + ' bot')} play{aim};"
        f" deals from seed {args.seed} (binocle demo --seed {args.seed} replays this game)"
    )

    def show(before: GameState, action: Action, after: GameState) -> None:
        for line in narrate_all(before, action, after, suits):
            print(line)

    bots = [resolve_bot(b, args.seed * 10 + i, fresh=True) for i, b in enumerate(specs)]
    s = play_game(profile, bots, seed=args.seed, max_hands=args.max_hands, on_step=show)
    if end_reason(s) == "limit":
        print(
            f"The game was stopped at the end of hand {len(s.results)} (--max-hands"
            f" {args.max_hands}), before the rules ended it."
        )
    print(f"Final scores: {', '.join(f'seat {i} {v}' for i, v in enumerate(s.scores))}")
    return 0
