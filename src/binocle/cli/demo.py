"""``binocle demo``: bots play a whole game, printed so a person can follow it."""

from __future__ import annotations

import argparse

from binocle.actions import Action
from binocle.bots import make_bot, play_game
from binocle.cli._common import Subparsers, add_profile_option
from binocle.core import GameState
from binocle.narrate import describe
from binocle.profiles import get_profile

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle demo``."""
    demo = sub.add_parser("demo", help="bots play a whole game, printed so you can follow it")
    add_profile_option(demo)
    demo.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    demo.add_argument("--bot", default="baseline", choices=["baseline", "random"])
    demo.add_argument("--max-hands", type=int, default=200, help="stop after this many hands")
    demo.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and print the game."""
    profile = get_profile(args.profile)
    print(f"binocle demo: {profile.name} — {profile.description}")
    print(
        f"seed {args.seed}; {profile.players} {args.bot} bots; target {getattr(profile, 'target', '')}"
    )

    def show(before: GameState, action: Action, after: GameState) -> None:
        for line in describe(before, action, after):
            print(line)

    bots = [make_bot(args.bot, args.seed * 10 + i) for i in range(profile.players)]
    s = play_game(profile, bots, seed=args.seed, max_hands=args.max_hands, on_step=show)
    print(f"Final scores: {', '.join(f'seat {i} {v}' for i, v in enumerate(s.scores))}")
    return 0
