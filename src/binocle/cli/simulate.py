"""``binocle simulate``: bots play many games; a summary of the results."""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from binocle.bots import play_game, resolve_bot
from binocle.cli._common import (
    Subparsers,
    add_command,
    add_profile_option,
    at_least_one,
    bot_help,
    bot_specs,
    new_seed,
    whole_number,
)
from binocle.game import end_reason
from binocle.narrate import plural
from binocle.profiles import get_profile

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle simulate``."""
    sim = add_command(sub, "simulate", "bots play many games; a summary of the results")
    add_profile_option(sim)
    sim.add_argument("--games", type=at_least_one, default=100, metavar="N", help="how many games")
    sim.add_argument(
        "--bots",
        default="baseline",
        metavar="B",
        help="a bot for every seat, or one per seat separated by commas; " + bot_help(),
    )
    sim.add_argument("--jobs", type=at_least_one, default=1, metavar="J", help="worker processes")
    sim.add_argument(
        "--seed",
        type=whole_number,
        default=None,
        metavar="S",
        help="seed of game 0; game g uses S+g (default: a random seed, printed)",
    )
    sim.add_argument(
        "--json", action="store_true", help="print the summary as JSON (default: as text)"
    )
    sim.add_argument(
        "--max-hands",
        type=at_least_one,
        default=200,
        metavar="H",
        help="end a game after H hands, the highest score winning",
    )
    sim.set_defaults(run=run)


def _ignore_ctrl_c() -> None:
    """Worker initializer: Ctrl-C is for the main process, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_games(
    jobs: Iterator[tuple[str, tuple[str, ...], int, int]],
    total: int,
    workers: int,
    show: bool,
    games: list[dict[str, Any]],
) -> None:
    """Play the games into ``games`` (in the order they finish), over ``workers`` processes.

    Ctrl-C (KeyboardInterrupt) propagates from here, the games finished so far staying
    in ``games``; the workers ignore it and the pool is ended with the ``with`` block.
    """

    def done(g: dict[str, Any]) -> None:
        games.append(g)
        if show:
            _progress(len(games), total)

    if workers <= 1:
        for job in jobs:
            done(_sim_game(job))
        return
    chunk = max(1, min(16, total // (workers * 8)))
    batch = chunk * workers * 16  # games handed to the pool at a time: memory stays bounded
    if threading.current_thread() is threading.main_thread():
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)  # no Ctrl-C while forking
        try:
            pool = multiprocessing.Pool(workers, initializer=_ignore_ctrl_c)
        finally:
            signal.signal(signal.SIGINT, handler)
    else:
        pool = multiprocessing.Pool(workers, initializer=_ignore_ctrl_c)
    with pool:
        while True:
            part = list(itertools.islice(jobs, batch))
            if not part:
                break
            for g in pool.imap_unordered(_sim_game, part, chunksize=chunk):
                done(g)


def run(args: argparse.Namespace) -> int:
    """Play the games and print the summary; Ctrl-C stops early and summarises the games
    finished (exit status 130)."""
    profile = get_profile(args.profile)
    n = profile.players
    names = tuple(bot_specs(args.bots, n))  # a bad bot fails here, before any work
    base = args.seed if args.seed is not None else new_seed()
    spec = profile.spec()
    jobs = ((spec, names, base + g, args.max_hands) for g in range(args.games))
    show = sys.stderr.isatty() and args.games > 1
    t0 = time.perf_counter()
    games: list[dict[str, Any]] = []
    interrupted = False
    try:
        _play_games(jobs, args.games, min(args.jobs, args.games), show, games)
    except KeyboardInterrupt:
        interrupted = True
        if show:
            sys.stderr.write("\n")
    games.sort(key=lambda g: int(g["seed"]))
    elapsed = time.perf_counter() - t0
    summary = _summary(games, n)
    head = {
        "profile": spec,
        "bots": list(names),
        "seed": base,
        "jobs": args.jobs,
        "max_hands": args.max_hands,
        "seconds": round(elapsed, 3),
        "games_asked": args.games,
        "interrupted": interrupted,
    }
    if args.json:
        print(json.dumps({**head, **summary}, indent=2))
    else:
        _print_summary(head, summary, n)
    if interrupted:
        print(
            f"interrupted: {plural(len(games), 'game')} of {args.games} finished",
            file=sys.stderr,
        )
        return 130
    return 0


def _sim_game(job: tuple[str, tuple[str, ...], int, int]) -> dict[str, Any]:
    """One simulated game (run in a worker process): what the summary needs of it."""
    spec, names, seed, max_hands = job
    bots = [resolve_bot(name, seed * 10 + i) for i, name in enumerate(names)]
    s = play_game(spec, bots, seed=seed, max_hands=max_hands)
    n = len(names)
    played = [r for r in s.results if r.trump is not None]
    bid = [r for r in s.results if r.bidder is not None]
    return {
        "seed": seed,
        "end": end_reason(s),
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
        "finished": sum(1 for g in games if g["end"] not in (None, "limit")),
        "ended": {
            reason: sum(1 for g in games if g["end"] == reason)
            for reason in ("target", "claim", "limit")
        },
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
    games = plural(summary["games"], "game")
    if head["interrupted"]:
        games += f" (interrupted: {head['games_asked']} asked)"
    print(
        f"simulate: {head['profile']}, {games}, bots {' '.join(head['bots'])},"
        f" seed {head['seed']}, {plural(head['jobs'], 'job')}, {head['seconds']:.2f} s"
    )
    ended = summary["ended"]
    stopped = ended["limit"]
    print(
        f"  finished games: {summary['finished']}"
        f" ({ended['target']} on the target, {ended['claim']} by a claim)"
        + (
            f"; {stopped} stopped by the hand limit (--max-hands {head['max_hands']}),"
            " the highest score winning"
            if stopped
            else ""
        )
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
            f"  the bidder made the contract in {c['made']} of {plural(c['hands'], 'hand')}"
            f" ({100 * c['made_rate']:.1f}%); {c['conceded']} conceded"
        )
    else:
        print("  no bidding in this profile")
