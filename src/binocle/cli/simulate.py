"""``binocle simulate``: bots play many games; a summary of the results."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from typing import Any

from binocle.bots import make_bot, play_game
from binocle.cli._common import Subparsers, add_profile_option, fail, new_seed
from binocle.core import Phase
from binocle.profiles import get_profile

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle simulate``."""
    sim = sub.add_parser("simulate", help="bots play many games; a summary of the results")
    add_profile_option(sim)
    sim.add_argument("--games", type=int, default=100, help="how many games (100)")
    sim.add_argument(
        "--bots",
        default="baseline",
        help="a bot for every seat, or one per seat separated by commas: random, baseline",
    )
    sim.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    sim.add_argument("--seed", type=int, default=None, help="seed of game 0; game g uses seed+g")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--max-hands", type=int, default=200, help="stop a game after H hands (200)")
    sim.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the games and print the summary."""
    profile = get_profile(args.profile)
    n = profile.players
    names = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        return fail(
            "simulate",
            f"--bots names one bot for every seat or {n} bots"
            f" ({profile.name} has {n} seats), not {len(names)}",
        )
    for name in names:
        make_bot(name)  # an unknown bot name fails here, before any work
    if args.games < 1 or args.jobs < 1 or args.max_hands < 1:
        return fail("simulate", "--games, --jobs and --max-hands are at least 1")
    base = args.seed if args.seed is not None else new_seed()
    jobs = [(profile.spec(), names, base + g, args.max_hands) for g in range(args.games)]
    show = sys.stderr.isatty() and args.games > 1
    t0 = time.perf_counter()
    games: list[dict[str, Any]] = []
    if args.jobs > 1 and args.games > 1:
        with multiprocessing.Pool(min(args.jobs, args.games)) as pool:
            chunk = max(1, args.games // (args.jobs * 8))
            for g in pool.imap_unordered(_sim_game, jobs, chunksize=chunk):
                games.append(g)
                if show:
                    _progress(len(games), args.games)
    else:
        for job in jobs:
            games.append(_sim_game(job))
            if show:
                _progress(len(games), args.games)
    games.sort(key=lambda g: int(g["seed"]))
    elapsed = time.perf_counter() - t0
    summary = _summary(games, n)
    head = {
        "profile": profile.spec(),
        "bots": list(names),
        "seed": base,
        "jobs": args.jobs,
        "max_hands": args.max_hands,
        "seconds": round(elapsed, 3),
    }
    if args.json:
        print(json.dumps({**head, **summary}, indent=2))
        return 0
    _print_summary(head, summary, n)
    return 0


def _sim_game(job: tuple[str, tuple[str, ...], int, int]) -> dict[str, Any]:
    """One simulated game (run in a worker process): what the summary needs of it."""
    spec, names, seed, max_hands = job
    bots = [make_bot(name, seed * 10 + i) for i, name in enumerate(names)]
    s = play_game(spec, bots, seed=seed, max_hands=max_hands)
    n = len(names)
    played = [r for r in s.results if r.trump is not None]
    bid = [r for r in s.results if r.bidder is not None]
    return {
        "seed": seed,
        "over": s.phase is Phase.OVER,
        "winner": s.profile.winner(s),
        "scores": list(s.scores),
        "hands": len(s.results),
        "played": len(played),
        "meld": [sum(r.meld[i] for r in played) for i in range(n)],
        "tricks": [sum(r.tricks[i] for r in played) for i in range(n)],
        "points": [sum(r.delta[i] for r in s.results) for i in range(n)],
        "contracts": len(bid),
        "made": sum(1 for r in bid if r.made),
        "conceded": sum(1 for r in bid if r.outcome == "conceded"),
        "actions": len(s.moves()),
    }


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _summary(games: list[dict[str, Any]], n: int) -> dict[str, Any]:
    played = sum(g["played"] for g in games)
    hands = sum(g["hands"] for g in games)

    def per_hand(key: str) -> list[float]:
        return [
            round(sum(g[key][i] for g in games) / played, 2) if played else 0.0 for i in range(n)
        ]

    contracts = sum(g["contracts"] for g in games)
    made = sum(g["made"] for g in games)
    return {
        "games": len(games),
        "finished": sum(1 for g in games if g["over"]),
        "wins": [sum(1 for g in games if g["winner"] == i) for i in range(n)],
        "no_winner": sum(1 for g in games if g["winner"] is None),
        "hands": hands,
        "hands_played": played,
        "hands_per_game": round(hands / len(games), 2) if games else 0.0,
        "meld_per_hand": per_hand("meld"),
        "tricks_per_hand": per_hand("tricks"),
        "points_per_hand": [
            round(sum(g["points"][i] for g in games) / hands, 2) if hands else 0.0 for i in range(n)
        ],
        "contracts": (
            {
                "hands": contracts,
                "made": made,
                "set": contracts - made,
                "conceded": sum(g["conceded"] for g in games),
                "made_rate": round(made / contracts, 4),
            }
            if contracts
            else None
        ),
        "actions": sum(g["actions"] for g in games),
    }


def _print_summary(head: dict[str, Any], summary: dict[str, Any], n: int) -> None:
    print(
        f"simulate: {head['profile']}, {summary['games']} games, bots {' '.join(head['bots'])},"
        f" seed {head['seed']}, {head['jobs']} job(s), {head['seconds']:.2f} s"
    )
    unfinished = summary["games"] - summary["finished"]
    print(
        f"  finished games: {summary['finished']}"
        + (f" ({unfinished} stopped after {head['max_hands']} hands)" if unfinished else "")
        + f"; hands per game {summary['hands_per_game']}"
    )
    print("  " + " " * 18 + "".join(f"{'seat ' + str(i):>10}" for i in range(n)))
    rows = (
        ("wins", summary["wins"], "{:>10d}"),
        ("meld per hand", summary["meld_per_hand"], "{:>10.1f}"),
        ("tricks per hand", summary["tricks_per_hand"], "{:>10.1f}"),
        ("points per hand", summary["points_per_hand"], "{:>10.1f}"),
    )
    for label, values, fmt in rows:
        print(f"  {label:<18}" + "".join(fmt.format(v) for v in values))
    if summary["no_winner"]:
        print(f"  games without a winner: {summary['no_winner']}")
    c = summary["contracts"]
    if c is not None:
        print(
            f"  the bidder made the contract in {c['made']} of {c['hands']} hands"
            f" ({100 * c['made_rate']:.1f}%); {c['conceded']} conceded"
        )
    else:
        print("  no bidding in this profile")
