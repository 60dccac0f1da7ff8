"""The ``binocle`` command line (layer 4)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from binocle.actions import Action
from binocle.bots import make_bot, play_game
from binocle.core import GameState
from binocle.errors import BinocleError
from binocle.narrate import describe
from binocle.profiles import get_profile, profile_names

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``binocle`` command."""
    parser = argparse.ArgumentParser(
        prog="binocle", description="The rules of Binocle and Pinochle: play, check, simulate."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="bots play a whole game, printed so you can follow it")
    demo.add_argument("--profile", default="cutthroat", help=f"one of {', '.join(profile_names())}")
    demo.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    demo.add_argument("--bot", default="baseline", choices=["baseline", "random"])
    demo.add_argument("--max-hands", type=int, default=200, help="stop after this many hands")
    demo.set_defaults(run=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except BinocleError as exc:
        print(f"binocle: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
