"""``binocle play``: a person plays a game at the terminal against bots (baseline bots
unless ``--bots`` names others)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from binocle._io import write_text_atomic, write_text_new
from binocle.actions import Action, Kind, claim
from binocle.bots import BaselineBot, Bot, bot_label, knocker, resolve_bot
from binocle.cards import Card
from binocle.cli._common import (
    Subparsers,
    add_command,
    add_profile_option,
    add_suits_option,
    bot_help,
    bot_specs,
    fail,
    new_seed,
    suit_style,
    who,
    whole_number,
)
from binocle.core import GameState, View
from binocle.errors import BinocleError, IllegalActionError, InvalidNotationError
from binocle.game import (
    apply,
    claimants,
    end_reason,
    is_over,
    legal_actions,
    observe,
    parse_action,
    start,
    winner,
)
from binocle.narrate import card_text, cards_text, hand_by_suit, label, narrate, plural
from binocle.profiles import get_profile
from binocle.records import record_json

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle play``."""
    play = add_command(sub, "play", "play a game in the terminal against baseline bots")
    add_profile_option(play)
    play.add_argument("--seat", type=whole_number, default=0, metavar="N", help="your seat")
    play.add_argument(
        "--bots",
        default="baseline",
        metavar="B,...",
        help="your opponents: a bot for every other seat, or one per other seat in seat order"
        " separated by commas; " + bot_help(),
    )
    play.add_argument(
        "--seed",
        type=whole_number,
        default=None,
        metavar="S",
        help="seed of the deals (default: a random seed, printed so the game can be replayed)",
    )
    play.add_argument(
        "--save",
        metavar="FILE",
        help="write the game record to FILE when the game ends or you leave it; the path is"
        " checked before the game starts (default: the record is not saved)",
    )
    add_suits_option(play)
    play.set_defaults(run=run)


_PLAY_HELP = """\
Type the number of an action, or its text: pass, bid 260, discard TS, trump H,
meld, dix, play TS (play TS table for a card on the table), claim, concede.
Claim (knock) at your turn; after a trick you lost, you are asked whether to
knock before the others go on (knock, or Enter to go on).
Cards: rank A T K Q J 9 (or 10) then suit S H D C, e.g. TS, 10H, qd.
Commands: help (this text), hint (what the baseline bot would do),
show (the table again), quit (leave the game; Ctrl-D and Ctrl-C quit too)."""

_MAX_BIDS_SHOWN = 6


def _menu(view: View, suits: str, width: int = 78) -> list[str]:
    """The numbered legal actions (:func:`binocle.narrate.label`), several to a line; long
    runs of bids are cut short."""
    legal = view.legal_actions
    items: list[str] = []
    bids = [a for a in legal if a.kind is Kind.BID]
    for i, a in enumerate(legal, 1):
        if a.kind is Kind.BID and bids.index(a) >= _MAX_BIDS_SHOWN:
            continue
        items.append(f"{i:>2}) {label(a, view, suits)}")
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


def _table(view: View, me: int, suits: str) -> list[str]:
    """What the person sees at his turn: phase, scores, public facts, trick and hand."""
    trump = (
        "-"
        if view.trump is None
        else view.trump.symbol
        if suits == "symbols"
        else view.trump.letter
    )
    lines = [
        "",
        f"— your turn, {who(me, me)} · {view.phase.value} · dealer seat {view.dealer}"
        f" · trump {trump}",
        "  scores: " + ", ".join(f"{who(i, me)} {v}" for i, v in enumerate(view.scores)),
    ]
    facts = []
    for name, title in (
        ("bid", "high bid"),
        ("bidder", "bidder: seat"),
        ("turn_up", "turn-up"),
        ("stock_size", "stock"),
    ):
        value = view.get(name)
        if value is not None:
            shown = card_text(value, suits) if isinstance(value, Card) else value
            facts.append(f"{title} {shown}")
    widow = view.get("widow")
    if widow:
        facts.append("widow " + cards_text(widow, suits))
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
            + ", ".join(f"{who(i, me)} {cards_text(t, suits)}" for i, t in enumerate(tables) if t)
        )
    if view.trick:
        lines.append(
            "  trick: " + ", ".join(f"{who(s, me)} {card_text(c, suits)}" for s, c in view.trick)
        )
    lines.append(f"  your hand: {hand_by_suit(view.hand, suits)}")
    lines.extend(_menu(view, suits))
    return lines


def _ask(state: GameState, me: int, hint: Bot, suits: str) -> Action | None:
    """The person's action, asked until it is legal; None when he quits."""
    view = observe(state, me)
    legal = view.legal_actions
    for line in _table(view, me, suits):
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
            advice = label(hint.choose(view), view, suits)
            print(f"  hint: {advice} (what the baseline bot would do)")
            continue
        if low in ("show", "look"):
            for line in _table(view, me, suits):
                print(line)
            continue
        if t.isascii() and t.isdigit():
            n = int(t) if len(t) <= 6 else 0
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


def _save_problem(path: str) -> str | None:
    """Why a game record cannot be written to ``path``, or None: checked before the game."""
    if os.path.isdir(path):
        return f"{path} is a directory: give a file name, e.g. {os.path.join(path, 'game.json')}"
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        return f"cannot save to {path}: the directory {parent} does not exist"
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            return f"cannot save to {path}: the file is not writable"
    elif not os.access(parent, os.W_OK):
        return f"cannot save to {path}: no permission to create files in {parent}"
    return None


def _save(text: str, path: str, seed: int) -> int:
    """Write the record to ``path`` (whole, or not at all: a failed write leaves the
    earlier file as it was); if that fails, say so and write it where it can be
    written (the current directory, else the temporary directory), else print it: a
    played game is never lost.  Returns the exit status: 0 when written to ``path``."""
    try:
        write_text_atomic(path, text)
    except OSError as exc:
        print(f"binocle play: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
    else:
        print(f"Game record written to {path} (binocle validate {path} checks it).")
        return 0
    for directory in (os.getcwd(), tempfile.gettempdir()):
        try:
            other = write_text_new(directory, f"binocle-game-{seed}-", ".json", text)
        except OSError:
            continue
        print(f"Game record written to {other} instead (binocle validate {other} checks it).")
        return 1
    print("Nowhere to write the game record; here it is:")
    print(text)
    return 1


def _ask_knock(me: int) -> bool | None:
    """Whether the person knocks out of turn now; None when he quits."""
    try:
        text = input("knock now? (knock, or Enter to go on)> ")
    except (EOFError, KeyboardInterrupt):
        print()
        return None
    low = text.strip().lower()
    if low in ("quit", "exit", "q"):
        return None
    return low in ("knock", "claim", "k", "y", "yes")


def _may_knock_now(before: GameState, action: Action, after: GameState, me: int) -> bool:
    """The person may knock out of turn, at a natural pause: a trick he did not win."""
    return (
        action.kind is Kind.PLAY
        and not after.trick
        and after.current_player not in (None, me)
        and me in claimants(after)
    )


def run(args: argparse.Namespace) -> int:
    """Play the game with the person at his seat."""
    profile = get_profile(args.profile)
    n = profile.players
    if not 0 <= args.seat < n:
        return fail("play", f"--seat is 0..{n - 1} in {profile.name}")
    if args.save is not None:
        problem = _save_problem(args.save)
        if problem is not None:
            return fail("play", problem)
    specs = bot_specs(args.bots, n - 1)
    suits = suit_style(args)
    seed = args.seed if args.seed is not None else new_seed()
    me = args.seat
    others = [i for i in range(n) if i != me]
    labels = {i: bot_label(spec) for i, spec in zip(others, specs, strict=True)}
    print(f"binocle play: {profile.name} ({profile.description})")
    if len(set(labels.values())) == 1:
        against = plural(n - 1, f"{labels[others[0]]} bot")
    else:
        against = ", ".join(f"{labels[i]} (seat {i})" for i in others)
    print(
        f"You are seat {me} against {against}; seed {seed}"
        f" (binocle play --seed {seed} deals the same cards). Type help for help."
    )
    bots: dict[int, Bot] = {
        i: resolve_bot(spec, seed * 10 + i, fresh=True)
        for i, spec in zip(others, specs, strict=True)
    }
    hint = BaselineBot(seed * 10 + me)
    s = start(profile, seed)
    seated: list[object] = [bots.get(i) for i in range(n)]
    quit_ = False
    knock = False
    try:
        while not is_over(s):
            p = s.current_player
            if p is None:
                action: Action | None = legal_actions(s)[0]
            elif knock:
                action, knock = claim(me), False
            elif p != me:
                other = knocker(s, seated)  # the bots may knock out of turn too
                action = claim(other) if other is not None else bots[p].choose(observe(s, p))
            else:
                action = _ask(s, me, hint, suits)
            if action is None:
                quit_ = True
                break
            after = apply(s, action)
            for line in narrate(s, after, me, suits):
                print(line)
            if _may_knock_now(s, action, after, me):
                answer = _ask_knock(me)
                if answer is None:
                    s, quit_ = after, True
                    break
                knock = answer
            s = after
    except KeyboardInterrupt:  # while a bot thinks: leave, keeping the game so far
        print()
        quit_ = True
    if quit_:
        print("You left the game.")
    elif end_reason(s) == "limit":
        print(
            f"The game stopped at the hand limit (max_hands={s.profile.max_hands}),"
            " before the rules ended it: the highest score wins."
        )
    scores = ", ".join(f"{who(i, me)} {v}" for i, v in enumerate(s.scores))
    print(f"Scores: {scores}")
    w = winner(s)
    if w is not None:
        side = next((t for t in s.profile.sides if w in t), (w,))
        if me in side:
            print("You win!" if len(side) == 1 else "You and your partner win!")
        else:
            print(
                f"Seat {w} wins."
                if len(side) == 1
                else f"Seats {' and '.join(map(str, side))} win."
            )
    if args.save is not None:
        seats = ["you" if i == me else f"{labels[i]} bot" for i in range(n)]
        return _save(record_json(s, seats=seats), args.save, seed)
    return 0
