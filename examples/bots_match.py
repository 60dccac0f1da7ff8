"""Bot against bot: the baseline bot plays random bots with ``play_game``.

Every game is dealt from its own seed, and the baseline bot changes seat from
game to game, so no seat's advantage decides the match.  Every profile the
installation offers is played.

    python examples/bots_match.py [--games 6]

(``binocle simulate`` does this at scale, in parallel, with statistics.)
"""

from __future__ import annotations

import argparse

import binocle
from binocle.bots import BaselineBot, Bot, RandomBot, play_game


def match(profile: str, games: int) -> tuple[int, int, int]:
    """Baseline wins, random wins and undecided games over ``games`` games."""
    players = binocle.profile(profile).players
    baseline_wins = random_wins = undecided = 0
    for g in range(games):
        seat = g % players  # the baseline bot's seat in this game
        bots: list[Bot] = [
            BaselineBot(g * 10 + i) if i == seat else RandomBot(g * 10 + i) for i in range(players)
        ]
        final = play_game(profile, bots, seed=g, max_hands=100)
        won = binocle.winner(final)
        if won is None:
            undecided += 1
        elif won == seat:
            baseline_wins += 1
        else:
            random_wins += 1
    return baseline_wins, random_wins, undecided


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=6, help="games per profile, at least 1 (default: 6)"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    for name in binocle.profile_names():
        base, rand, none = match(name, args.games)
        print(
            f"{name:>13}: baseline bot won {base} of {args.games}"
            f" game{'s' if args.games != 1 else ''} against random bots"
            f" (random bots {rand}, undecided {none})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
