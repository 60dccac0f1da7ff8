"""The ``binocle`` command line (layer 4).

Subcommands::

    binocle play [--profile P] [--seat N] [--seed S] [--save FILE]
    binocle meld CARDS... --trump S [--profile P]
    binocle simulate --profile P --games N [--bots random,baseline,...] [--jobs J]
                     [--seed S] [--json] [--max-hands H]
    binocle validate FILE [--json]
    binocle demo [--profile P] [--seed S] [--bot B] [--max-hands H]

Exit status: 0 on success; ``validate`` gives 1 for a game that breaks a rule;
2 for bad input (an unknown profile, a malformed card, an unreadable file).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

import attrs

from binocle.actions import Action, Kind
from binocle.bots import BaselineBot, Bot, make_bot, play_game
from binocle.cards import parse_cards, parse_suit
from binocle.core import GameState, MeldResult, Phase, View
from binocle.errors import BinocleError, IllegalActionError, InvalidNotationError
from binocle.game import apply, is_over, legal_actions, meld, observe, parse_action, start, winner
from binocle.narrate import describe, hand_by_suit
from binocle.profiles import get_profile, profile_names
from binocle.record import record_json
from binocle.validate import validate

__all__ = ["build_parser", "main"]


# -- demo ------------------------------------------------------------------------------------


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


# -- play ------------------------------------------------------------------------------------

_PLAY_HELP = """\
Type the number of an action, or its text: pass, bid 260, discard TS, trump H,
meld, dix, play TS (play TS table for a card on the table), claim, concede.
Cards: rank A T K Q J 9 (or 10) then suit S H D C, e.g. TS, 10H, qd.
Commands: help (this text), hint (what the baseline bot would do),
show (the table again), quit (leave the game; Ctrl-D and Ctrl-C quit too)."""

_MAX_BIDS_SHOWN = 6
_DRAW_LINE = re.compile(r"^\s*seat \d+ draws ")


def _who(seat: int, me: int) -> str:
    return f"seat {seat} (you)" if seat == me else f"seat {seat}"


def _menu(legal: tuple[Action, ...], width: int = 78) -> list[str]:
    """The numbered legal actions, several to a line; long runs of bids are cut short."""
    items: list[str] = []
    bids = [a for a in legal if a.kind is Kind.BID]
    for i, a in enumerate(legal, 1):
        if a.kind is Kind.BID and bids.index(a) >= _MAX_BIDS_SHOWN:
            continue
        items.append(f"{i:>2}) {a}")
    if len(bids) > _MAX_BIDS_SHOWN:
        items.append(f"… up to {bids[-1]} (type e.g. 'bid {bids[_MAX_BIDS_SHOWN].number}')")
    lines: list[str] = []
    line = ""
    for item in items:
        cell = "  " + item.ljust(14)
        if line and len(line) + len(cell) > width:
            lines.append(line.rstrip())
            line = ""
        line += cell
    if line:
        lines.append(line.rstrip())
    return lines


def _table(view: View, me: int) -> list[str]:
    """What the person sees at his turn: phase, scores, public facts, trick and hand."""
    trump = view.trump.symbol if view.trump is not None else "–"
    lines = [
        "",
        f"— your turn, {_who(me, me)} · {view.phase.value} · dealer seat {view.dealer}"
        f" · trump {trump}",
        "  scores: " + ", ".join(f"{_who(i, me)} {v}" for i, v in enumerate(view.scores)),
    ]
    facts = []
    for name, label in (
        ("bid", "high bid"),
        ("bidder", "bidder: seat"),
        ("turn_up", "turn-up"),
        ("stock_size", "stock"),
    ):
        value = view.get(name)
        if value is not None:
            facts.append(f"{label} {value}")
    widow = view.get("widow")
    if widow:
        facts.append("widow " + " ".join(str(c) for c in widow))
    if facts:
        lines.append("  " + " · ".join(facts))
    points = view.get("meld_points")
    if points and any(points):
        lines.append(
            "  meld scored this hand: "
            + ", ".join(f"{_who(i, me)} {v}" for i, v in enumerate(points))
        )
    tables = view.get("tables")
    if tables and any(tables):
        lines.append(
            "  on the table: "
            + ", ".join(
                f"{_who(i, me)} {' '.join(str(c) for c in t)}" for i, t in enumerate(tables) if t
            )
        )
    if view.trick:
        lines.append("  trick: " + ", ".join(f"{_who(s, me)} {c}" for s, c in view.trick))
    lines.append(f"  your hand: {hand_by_suit(view.hand)}")
    lines.extend(_menu(view.legal_actions))
    return lines


def _narrate(before: GameState, action: Action, after: GameState, me: int) -> list[str]:
    """:func:`describe`, without the cards the person may not see (others' deals, draws, discards)."""
    if action.kind is Kind.DEAL:
        view = observe(after, me)
        lines = ["", f"Hand {after.hand_number}: seat {after.dealer} deals"]
        lines.append(f"  your hand: {hand_by_suit(view.hand)}")
        turn_up = view.get("turn_up")
        if turn_up is not None:
            lines.append(f"  turn-up {turn_up}: trump is {turn_up.suit.name.lower()}")
        return lines
    actor = before.current_player
    if action.kind is Kind.DISCARD and actor != me:
        return [f"  seat {actor} discards a card"]
    lines = describe(before, action, after)
    kept = [line for line in lines if not _DRAW_LINE.match(line)]
    if len(kept) < len(lines) and after.phase is not Phase.OVER:
        old = list(before.hands[me])
        new = [c for c in after.hands[me]]
        for c in old:
            if c in new:
                new.remove(c)
        if new:
            kept.append(f"  you draw {' '.join(str(c) for c in new)}")
    return kept


def _ask(state: GameState, me: int, hint: Bot) -> Action | None:
    """The person's action, asked until it is legal; None when he quits."""
    view = observe(state, me)
    legal = view.legal_actions
    for line in _table(view, me):
        print(line)
    while True:
        try:
            text = input("your move> ")
        except (EOFError, KeyboardInterrupt):
            print()
            return None
        t = text.strip()
        low = t.lower()
        if not t:
            print("  type a number or an action (help lists them)")
            continue
        if low in ("quit", "exit", "q"):
            return None
        if low in ("help", "?", "h"):
            print(_PLAY_HELP)
            continue
        if low == "hint":
            print(f"  hint: {hint.choose(view)} (what the baseline bot would do)")
            continue
        if low in ("show", "look"):
            for line in _table(view, me):
                print(line)
            continue
        if t.isdigit():
            n = int(t)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            print(f"  there is no action {n}: choose 1 to {len(legal)}")
            continue
        try:
            action = parse_action(state, t)
            apply(state, action)
        except InvalidNotationError as exc:
            print(f"  not understood: {exc}; type a number, an action such as 'play TS', or help")
            continue
        except IllegalActionError as exc:
            print(f"  not allowed: {exc}")
            continue
        except BinocleError as exc:
            print(f"  {exc}")
            continue
        return action


def _play(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    n = profile.players
    if not 0 <= args.seat < n:
        print(f"binocle play: --seat is 0..{n - 1} in {profile.name}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    me = args.seat
    print(f"binocle play: {profile.name} — {profile.description}")
    print(
        f"You are seat {me} against {n - 1} baseline bots; seed {seed}"
        f" (binocle play --seed {seed} deals the same cards). Type help for help."
    )
    bots: dict[int, Bot] = {i: BaselineBot(seed * 10 + i) for i in range(n) if i != me}
    hint = BaselineBot(seed * 10 + me)
    s = start(profile, seed)
    quit_ = False
    while not is_over(s):
        p = s.current_player
        if p is None:
            action: Action | None = legal_actions(s)[0]
        elif p != me:
            action = bots[p].choose(observe(s, p))
        else:
            action = _ask(s, me, hint)
        if action is None:
            quit_ = True
            break
        after = apply(s, action)
        for line in _narrate(s, action, after, me):
            print(line)
        s = after
    if quit_:
        print("You left the game.")
    scores = ", ".join(f"{_who(i, me)} {v}" for i, v in enumerate(s.scores))
    print(f"Scores: {scores}")
    w = winner(s)
    if w is not None:
        print("You win!" if w == me else f"Seat {w} wins.")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write(record_json(s, seats=["you" if i == me else "baseline bot" for i in range(n)]))
        print(f"Game record written to {args.save} (binocle validate {args.save} checks it).")
    return 0


# -- meld ------------------------------------------------------------------------------------


def _meld(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    text = " ".join(args.cards)
    try:
        cards = parse_cards(text)
        trump = parse_suit(args.trump)
        result: MeldResult = meld(cards, trump, profile)
    except InvalidNotationError as exc:
        print(f"binocle meld: {exc}", file=sys.stderr)
        return 2
    print(f"{hand_by_suit(tuple(sorted(cards)))}   trump {trump.symbol}  ({profile.spec()})")
    if not result.melds:
        print("  no meld")
    for m in result.melds:
        cards_text = " ".join(str(c) for c in m.cards)
        print(f"  {m.name:<16} {cards_text:<26} {m.value:>5}")
    print(f"  {'total':<16} {'':<26} {result.total:>5}")
    return 0


# -- simulate --------------------------------------------------------------------------------


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


def _simulate(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    n = profile.players
    names = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        print(
            f"binocle simulate: --bots names one bot for every seat or {n} bots"
            f" ({profile.name} has {n} seats), not {len(names)}",
            file=sys.stderr,
        )
        return 2
    for name in names:
        make_bot(name)  # an unknown bot name fails here, before any work
    if args.games < 1 or args.jobs < 1 or args.max_hands < 1:
        print("binocle simulate: --games, --jobs and --max-hands are at least 1", file=sys.stderr)
        return 2
    base = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
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


# -- validate --------------------------------------------------------------------------------


def _validate(args: argparse.Namespace) -> int:
    name = args.file
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"binocle validate: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"binocle validate: {name} is not UTF-8 text: {exc}", file=sys.stderr)
        return 2
    try:
        report = validate(text)
    except BinocleError as exc:
        print(f"binocle validate: {name} is not a readable game record: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(attrs.asdict(report), indent=2, ensure_ascii=False))
    else:
        print(f"{name}: {report}")
    return 0 if report.ok else 1


# -- the parser ------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``binocle`` command."""
    parser = argparse.ArgumentParser(
        prog="binocle", description="The rules of Binocle and Pinochle: play, check, simulate."
    )
    names = ", ".join(profile_names())
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a game in the terminal against baseline bots")
    play.add_argument("--profile", default="cutthroat", help=f"one of {names}")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 by default)")
    play.add_argument("--seed", type=int, default=None, help="seed of the deals (random)")
    play.add_argument("--save", metavar="FILE", help="write the game record to FILE at the end")
    play.set_defaults(run=_play)

    m = sub.add_parser("meld", help="the meld of some cards, with its breakdown")
    m.add_argument("cards", nargs="+", help="cards such as AC TC KC QC JC (or one quoted text)")
    m.add_argument("--trump", required=True, help="trump suit: S H D C")
    m.add_argument("--profile", default="cutthroat", help=f"one of {names}")
    m.set_defaults(run=_meld)

    sim = sub.add_parser("simulate", help="bots play many games; a summary of the results")
    sim.add_argument("--profile", default="cutthroat", help=f"one of {names}")
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
    sim.set_defaults(run=_simulate)

    val = sub.add_parser("validate", help="check a recorded game against the rules")
    val.add_argument("file", help="a game record (JSON); - reads standard input")
    val.add_argument("--json", action="store_true", help="print the report as JSON")
    val.set_defaults(run=_validate)

    demo = sub.add_parser("demo", help="bots play a whole game, printed so you can follow it")
    demo.add_argument("--profile", default="cutthroat", help=f"one of {names}")
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
        print(f"binocle {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
