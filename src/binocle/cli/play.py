"""``binocle play``: a person plays a game at the terminal against baseline bots."""

from __future__ import annotations

import argparse
import re

from binocle.actions import Action, Kind
from binocle.bots import BaselineBot, Bot
from binocle.cli._common import Subparsers, add_profile_option, fail, new_seed, who
from binocle.core import GameState, Phase, View
from binocle.errors import BinocleError, IllegalActionError, InvalidNotationError
from binocle.game import apply, is_over, legal_actions, observe, parse_action, start, winner
from binocle.narrate import describe, hand_by_suit
from binocle.profiles import get_profile
from binocle.record import record_json

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle play``."""
    play = sub.add_parser("play", help="play a game in the terminal against baseline bots")
    add_profile_option(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (0 by default)")
    play.add_argument("--seed", type=int, default=None, help="seed of the deals (random)")
    play.add_argument("--save", metavar="FILE", help="write the game record to FILE at the end")
    play.set_defaults(run=run)


_PLAY_HELP = """\
Type the number of an action, or its text: pass, bid 260, discard TS, trump H,
meld, dix, play TS (play TS table for a card on the table), claim, concede.
Cards: rank A T K Q J 9 (or 10) then suit S H D C, e.g. TS, 10H, qd.
Commands: help (this text), hint (what the baseline bot would do),
show (the table again), quit (leave the game; Ctrl-D and Ctrl-C quit too)."""

_MAX_BIDS_SHOWN = 6
_DRAW_LINE = re.compile(r"^\s*seat \d+ draws ")


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
        f"— your turn, {who(me, me)} · {view.phase.value} · dealer seat {view.dealer}"
        f" · trump {trump}",
        "  scores: " + ", ".join(f"{who(i, me)} {v}" for i, v in enumerate(view.scores)),
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
            + ", ".join(f"{who(i, me)} {v}" for i, v in enumerate(points))
        )
    tables = view.get("tables")
    if tables and any(tables):
        lines.append(
            "  on the table: "
            + ", ".join(
                f"{who(i, me)} {' '.join(str(c) for c in t)}" for i, t in enumerate(tables) if t
            )
        )
    if view.trick:
        lines.append("  trick: " + ", ".join(f"{who(s, me)} {c}" for s, c in view.trick))
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


def run(args: argparse.Namespace) -> int:
    """Play the game with the person at his seat."""
    profile = get_profile(args.profile)
    n = profile.players
    if not 0 <= args.seat < n:
        return fail("play", f"--seat is 0..{n - 1} in {profile.name}")
    seed = args.seed if args.seed is not None else new_seed()
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
    scores = ", ".join(f"{who(i, me)} {v}" for i, v in enumerate(s.scores))
    print(f"Scores: {scores}")
    w = winner(s)
    if w is not None:
        print("You win!" if w == me else f"Seat {w} wins.")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write(record_json(s, seats=["you" if i == me else "baseline bot" for i in range(n)]))
        print(f"Game record written to {args.save} (binocle validate {args.save} checks it).")
    return 0
