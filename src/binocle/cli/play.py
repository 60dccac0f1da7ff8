"""``binocle play``: a person plays a game at the terminal against bots (baseline bots
unless ``--bots`` names others)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

from binocle._io import write_text_atomic, write_text_new
from binocle.actions import Action, Kind, claim
from binocle.bots import BaselineBot, Bot, bot_label, knocker, resolve_bot
from binocle.cards import Card, Rank, Suit
from binocle.cli._common import (
    DEFAULT_PROFILE,
    Painter,
    Subparsers,
    add_color_option,
    add_command,
    add_profile_option,
    add_suits_option,
    bot_help,
    bot_specs,
    fail,
    new_seed,
    partner_names,
    suit_style,
    use_color,
    who,
    whole_number,
)
from binocle.core import GameState, View
from binocle.determinize import determinize
from binocle.display import suit_text
from binocle.errors import (
    BinocleError,
    IllegalActionError,
    InvalidNotationError,
    NothingToUndoError,
)
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
from binocle.narrate import card_text, cards_text, label, narrate, plural
from binocle.notation import from_position, view_from_position
from binocle.profiles import get_profile
from binocle.records import record_json, replay
from binocle.timeline import history, undo

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle play``."""
    play = add_command(sub, "play", "play a game in the terminal against baseline bots")
    add_profile_option(play)
    play.add_argument(
        "--seat",
        type=whole_number,
        default=None,
        metavar="N",
        help="your seat (default: 0; with --load, the seat the record names 'you', or the"
        " seat of a view's position)",
    )
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
        help="seed of the deals (default: a random seed, printed so the game can be replayed;"
        " with --load, the game's own)",
    )
    play.add_argument(
        "--save",
        metavar="FILE",
        help="write the game record to FILE when the game ends or you leave it (quit, Ctrl-D,"
        " Ctrl-C, or the signals SIGTERM and SIGHUP); the path is checked before the game"
        " starts (default: the record is not saved)",
    )
    play.add_argument(
        "--load",
        metavar="FILE",
        help="play on from a saved game: a game record (what --save writes) or a position"
        " (one line, binocle.position); the game's profile and seed are the file's"
        " (default: a new game)",
    )
    add_suits_option(play)
    add_color_option(play)
    play.set_defaults(run=run)


_PLAY_HELP = """\
Type the number of an action, or its text: pass, bid 260, discard TS, trump H,
meld, dix, play TS (play TS table for a card on the table), claim, concede.
Cards: rank A T K Q J 9 (or 10) then suit S H D C, e.g. TS, 10H, qd.
Commands: help (this text), hint (what the baseline bot would do),
show (the table again), undo (take back your last decision and the bots'
moves since), knock (claim the game at your turn, as claim does),
quit (leave the game; Ctrl-D and Ctrl-C quit too).
A knock out of turn is offered after a trick you lost, only when it would win:
type knock to knock, or press Enter to go on."""

_MAX_BIDS_SHOWN = 6
_KNOCK_WORDS = ("knock", "claim", "k", "y", "yes")
_GO_ON_WORDS = ("", "n", "no", "go on", "on")
_QUIT_WORDS = ("quit", "exit", "q")


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


def _knock_figures(view: View) -> tuple[int, int] | None:
    """What a knock by the view's seat counts now: its total (score, points recorded
    this hand and cards won, as the rules count a claim) and its target; None where
    the profile has no knock.  The knock is correct when the total reaches the target."""
    totals, targets = view.get("claim_totals"), view.get("targets")
    if not totals or not targets:
        return None
    return int(totals[view.seat]), int(targets[view.seat])


def _turn_up(view: View, suits: str) -> str | None:
    """The card turned up now: in three-handed, once a Nine of trumps was exchanged
    for the turn-up (three-handed rules, Dix), the Nine lies in its place."""
    card = view.get("turn_up")
    if not isinstance(card, Card):
        return None
    if view.get("exchanged") and view.trump is not None:
        nine = Card(view.trump * 8 + Rank.NINE)
        return f"turn-up {card_text(nine, suits)} (exchanged for {card_text(card, suits)})"
    return f"turn-up {card_text(card, suits)}"


def _hand(cards: tuple[Card, ...], suits: str, trump: int | None, paint: Painter) -> str:
    """The hand grouped by suit (:func:`binocle.narrate.hand_by_suit`), each suit in its
    colours."""
    empty = "–" if suits == "symbols" else "-"
    parts = []
    for s in Suit:
        ranks = " ".join(c.rank.letter for c in cards if c.suit is s) or empty
        parts.append(paint.suit(f"{suit_text(s, suits)} {ranks}", s, trump))
    return "  ".join(parts)


def _table(view: View, me: int, suits: str, paint: Painter) -> list[str]:
    """What the person sees at his turn: phase, scores, public facts, trick and hand."""
    t = None if view.trump is None else int(view.trump)
    trump = "-" if view.trump is None else suit_text(view.trump, suits)
    heading = paint.bold(
        f"— your turn, {who(me, me)} · {view.phase.value} · dealer seat {view.dealer} · trump"
    )
    lines = [
        "  scores: "
        + ", ".join(f"{who(i, me, view.profile)} {v}" for i, v in enumerate(view.scores)),
    ]
    facts = []
    for name, title in (("bid", "high bid"), ("bidder", "bidder: seat")):
        value = view.get(name)
        if value is not None:
            facts.append(f"{title} {value}")
    turn_up = _turn_up(view, suits)
    if turn_up is not None:
        facts.append(turn_up)
    if view.get("stock_size") is not None:
        facts.append(f"stock {view.get('stock_size')}")
    widow = view.get("widow")
    if widow:
        facts.append("widow " + cards_text(widow, suits))
    if facts:
        lines.append("  " + " · ".join(facts))
    points = view.get("meld_points")
    if points and any(points):
        lines.append(
            "  meld scored this hand: "
            + ", ".join(f"{who(i, me, view.profile)} {v}" for i, v in enumerate(points))
        )
    tables = view.get("tables")
    if tables and any(tables):
        lines.append(
            "  on the table: "
            + ", ".join(
                f"{who(i, me, view.profile)} {cards_text(t, suits)}"
                for i, t in enumerate(tables)
                if t
            )
        )
    if view.trick:
        lines.append(
            "  trick: "
            + ", ".join(f"{who(s, me, view.profile)} {card_text(c, suits)}" for s, c in view.trick)
        )
    figures = _knock_figures(view)
    if figures is not None and any(a.kind is Kind.CLAIM for a in view.legal_actions):
        total, target = figures
        verdict = "wins the game" if total >= target else "is wrong"
        lines.append(f"  knock: you have {total} of {target}: a knock now {verdict}")
    lines = ["", f"{heading} {paint.cards(trump, t)}", *(paint.cards(line, t) for line in lines)]
    lines.append(f"  your hand: {_hand(view.hand, suits, t, paint)}")
    lines.extend(paint.cards(line, t) for line in _menu(view, suits))
    return lines


def _back(state: GameState, me: int) -> GameState:
    """The state before the person's last decision: it and every move since undone
    (:func:`binocle.undo`).  Raises NothingToUndoError when he has made none."""
    t = state
    try:
        while True:
            seat = history(t)[-1][0]
            t = undo(t)
            if seat == me:
                return t
    except (NothingToUndoError, IndexError):
        raise NothingToUndoError("nothing to undo: no earlier decision of yours") from None


def _knock_at_turn(state: GameState, me: int) -> Action | str:
    """``knock`` typed at the person's turn: the claim when it is legal, else why not."""
    claims = [a for a in legal_actions(state) if a.kind is Kind.CLAIM]
    if claims:
        return claims[0]
    try:
        apply(state, claim(me))
    except BinocleError as exc:
        return f"no knock now: {exc}"
    return claim(me)


def _sure(view: View) -> bool:
    """Whether the person knocks after all when ``knock`` typed at his turn would be a
    wrong claim (his total short of his target): asked, anything but yes keeps playing."""
    figures = _knock_figures(view)
    if figures is None or figures[0] >= figures[1]:
        return True
    total, target = figures
    loses = " and loses the game" if view.profile.wrong_claim_loses else ""
    try:
        text = input(
            f"you have {total} of {target}: a knock now is wrong{loses}."
            " Knock anyway? (yes; anything else goes back)> "
        )
    except (EOFError, KeyboardInterrupt):
        print()
        return False
    return text.strip().lower() in ("yes", "y")


def _ask(
    state: GameState, me: int, hint: Bot, suits: str, paint: Painter
) -> Action | GameState | None:
    """The person's decision, asked until it is legal: an action, or the state an
    ``undo`` goes back to; None when he quits."""
    view = observe(state, me)
    legal = view.legal_actions
    for line in _table(view, me, suits, paint):
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
        if low in _QUIT_WORDS:
            return None
        if low in ("help", "?", "h"):
            print(_PLAY_HELP)
            continue
        if low == "hint":
            advice = label(hint.choose(view), view, suits)
            print(f"  hint: {advice} (what the baseline bot would do)")
            continue
        if low in ("show", "look"):
            for line in _table(view, me, suits, paint):
                print(line)
            continue
        if low == "undo":
            try:
                earlier = _back(state, me)
            except NothingToUndoError as exc:
                print(f"  {exc}")
                continue
            print("  undone: back to your previous decision")
            return earlier
        if low in ("knock", "k"):
            knock = _knock_at_turn(state, me)
            if isinstance(knock, str):
                print(f"  {knock}")
                continue
            if _sure(view):
                return knock
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


def _say(*lines: str) -> None:
    """Print at the end of a game: a terminal that hung up (SIGHUP) or a closed pipe
    loses the text, never the saved game."""
    for line in lines:
        try:
            print(line, flush=True)
        except OSError:
            return


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
        with suppress(OSError):
            print(f"binocle play: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
    else:
        _say(f"Game record written to {path} (binocle validate {path} checks it).")
        return 0
    for directory in (os.getcwd(), tempfile.gettempdir()):
        try:
            other = write_text_new(directory, f"binocle-game-{seed}-", ".json", text)
        except OSError:
            continue
        _say(f"Game record written to {other} instead (binocle validate {other} checks it).")
        return 1
    _say("Nowhere to write the game record; here it is:", text)
    return 1


def _ask_knock(figures: tuple[int, int]) -> bool | None:
    """Whether the person knocks out of turn now (his knock would win); None when he
    quits.  Other input is explained and asked again."""
    total, target = figures
    prompt = (
        f"knock now? you have {total} of {target}: a knock wins the game"
        " (knock; Enter goes on; quit leaves)> "
    )
    while True:
        try:
            text = input(prompt)
        except (EOFError, KeyboardInterrupt):
            print()
            return None
        low = text.strip().lower()
        if low in _QUIT_WORDS:
            return None
        if low in _KNOCK_WORDS:
            return True
        if low in _GO_ON_WORDS:
            return False
        print("  type knock to knock now, or press Enter to go on (quit leaves the game)")


def _knock_offer(action: Action, after: GameState, me: int) -> tuple[int, int] | None:
    """The person is offered a knock out of turn at a natural pause (a trick he did not
    win) when his knock would win (its figures), else None: a wrong knock loses."""
    if not (
        action.kind is Kind.PLAY
        and not after.trick
        and after.current_player not in (None, me)
        and me in claimants(after)
    ):
        return None
    figures = _knock_figures(observe(after, me))
    if figures is None or figures[0] < figures[1]:
        return None
    return figures


class _Signalled(BaseException):
    """SIGTERM or SIGHUP arrived during the game: it ends as ``quit`` does."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def _stop_signals(received: list[int]) -> Iterator[list[bool]]:
    """While inside, SIGTERM and SIGHUP are caught: the first is added to ``received``;
    while the flag yielded is true it also raises :class:`_Signalled` (the game stops),
    once false the game is being saved and only the signal is kept.  The previous
    handlers are restored on the way out (outside the main thread nothing is caught)."""
    raising = [True]

    def handler(signum: int, frame: FrameType | None) -> None:
        if not received:
            received.append(signum)
        if raising[0]:
            raising[0] = False
            raise _Signalled(signum)

    previous: dict[int, Any] = {}
    try:
        for sig in _STOP_SIGNALS:
            try:
                previous[sig] = signal.signal(sig, handler)
            except ValueError:  # not the main thread: leave the signals alone
                break
        yield raising
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class _Unloadable(Exception):
    """A ``--load`` file that holds no game to play on: the message says why."""


_MAX_LOAD = 10_000_000  # characters: a record of the longest game is far shorter


def _load(path: str) -> tuple[GameState, int | None, str]:
    """The game a file holds, whichever it is: a game record (JSON, :doc:`record-format`)
    or a position (one line, :func:`binocle.position`).  Returns the state, the seat the
    file names for the person (the record's seat ``"you"``, a view's seat) or None, and
    what the file was.  Raises _Unloadable."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(_MAX_LOAD + 1)
    except OSError as exc:
        raise _Unloadable(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise _Unloadable(f"{path} is not text: neither a game record nor a position") from None
    body = text.strip()
    if not body:
        raise _Unloadable(f"{path} is empty: neither a game record nor a position")
    if len(text) > _MAX_LOAD:
        raise _Unloadable(f"{path} is too long for a game record or a position")
    if body.startswith("{"):
        try:
            state = replay(body)
        except BinocleError as exc:
            raise _Unloadable(f"{path} is not a game record the rules accept: {exc}") from None
        seats = json.loads(body).get("seats")
        seat = seats.index("you") if isinstance(seats, list) and "you" in seats else None
        return state, seat, "a game record"
    if "\n" in body:
        raise _Unloadable(
            f"{path} is neither a game record (JSON) nor a position (one line of text)"
        )
    try:
        return from_position(body), None, "a position"
    except InvalidNotationError as exc:
        first = exc
    except BinocleError as exc:
        raise _Unloadable(f"{path} holds a position the rules refuse: {exc}") from None
    try:
        view = view_from_position(body)
    except BinocleError:
        raise _Unloadable(f"{path} is neither a game record nor a position: {first}") from None
    try:
        state = determinize(view, 0)
    except BinocleError as exc:
        raise _Unloadable(
            f"{path}: no game can be drawn from this view's position: {exc}"
        ) from None
    return state, view.seat, "a view's position (the cards hidden from you made up)"


def _start(args: argparse.Namespace) -> tuple[GameState, int, str] | str:
    """The game to play, the person's seat and how it began (printed); or why not."""
    if args.load is None:
        profile = get_profile(args.profile)
        seat = 0 if args.seat is None else args.seat
        seed = args.seed if args.seed is not None else new_seed()
        return (
            start(profile, seed),
            seat,
            f"seed {seed} (binocle play --seed {seed} deals the same cards)",
        )
    if args.seed is not None:
        return "--seed and --load do not go together: the file holds its game's seed"
    try:
        state, named, what = _load(args.load)
    except _Unloadable as exc:
        return str(exc)
    asked = get_profile(args.profile)
    # --profile left at its default does not ask for a profile: the file's is played.
    if args.profile != DEFAULT_PROFILE and asked.spec() != state.profile.spec():
        return (
            f"{args.load} holds a game of {state.profile.spec()}, not of --profile {args.profile}"
        )
    if is_over(state):
        return f"the game in {args.load} is over: nothing to play on"
    seat = args.seat if args.seat is not None else named if named is not None else 0
    moves = plural(len(history(state)), "move")
    return state, seat, f"resumed from {args.load}, {what} ({moves}; seed {state.seed})"


def run(args: argparse.Namespace) -> int:
    """Play the game with the person at his seat."""
    begun = _start(args)
    if isinstance(begun, str):
        return fail("play", begun)
    s, me, how = begun
    profile = s.profile
    n = profile.players
    if not 0 <= me < n:
        return fail("play", f"--seat is 0..{n - 1} in {profile.name}")
    if args.save is not None:
        problem = _save_problem(args.save)
        if problem is not None:
            return fail("play", problem)
    specs = bot_specs(args.bots, n - 1)
    suits = suit_style(args)
    paint = Painter(use_color(args.color))
    seed = s.seed
    others = [i for i in range(n) if i != me]
    labels = {i: bot_label(spec) for i, spec in zip(others, specs, strict=True)}
    print(f"binocle play: {profile.name} ({profile.description})")
    if len(set(labels.values())) == 1:
        against = plural(n - 1, f"{labels[others[0]]} bot")
    else:
        against = ", ".join(f"{labels[i]} (seat {i})" for i in others)
    print(f"You are seat {me} against {against}; {how}. Type help for help.")
    bots: dict[int, Bot] = {
        i: resolve_bot(spec, seed * 10 + i, fresh=True)
        for i, spec in zip(others, specs, strict=True)
    }
    hint = BaselineBot(seed * 10 + me)
    names = partner_names(profile, me)  # the narration says "your partner bids 250"
    seated: list[object] = [bots.get(i) for i in range(n)]
    quit_ = False
    knock = False
    received: list[int] = []
    with _stop_signals(received) as raising:
        try:
            try:
                while not is_over(s):
                    p = s.current_player
                    if p is None:
                        action: Action | None = legal_actions(s)[0]
                    elif knock:
                        action, knock = claim(me), False
                    elif p != me:
                        other = knocker(s, seated)  # the bots may knock out of turn too
                        action = (
                            claim(other) if other is not None else bots[p].choose(observe(s, p))
                        )
                    else:
                        decision = _ask(s, me, hint, suits, paint)
                        if isinstance(decision, GameState):
                            s = decision
                            continue
                        action = decision
                    if action is None:
                        quit_ = True
                        break
                    before, s = s, apply(s, action)
                    trump = None if s.trump is None else int(s.trump)
                    for line in narrate(before, s, me, suits, names=names):
                        print(paint.cards(line, trump))
                    offer = _knock_offer(action, s, me)
                    if offer is not None:
                        answer = _ask_knock(offer)
                        if answer is None:
                            quit_ = True
                            break
                        knock = answer
            finally:
                raising[0] = False  # a signal from now on waits for the record to be saved
        except KeyboardInterrupt:  # while a bot thinks: leave, keeping the game so far
            print()
            quit_ = True
        except _Signalled:
            quit_ = True
        status = _finish(args, s, me, labels, quit_, received)
    if received:
        return 128 + received[0]
    return status


def _finish(
    args: argparse.Namespace,
    s: GameState,
    me: int,
    labels: dict[int, str],
    quit_: bool,
    received: list[int],
) -> int:
    """Say how the game ended and save it where ``--save`` asks; the exit status."""
    if received:
        _say("", f"Stopped by {signal.Signals(received[0]).name}: you left the game.")
    elif quit_:
        _say("You left the game.")
    elif end_reason(s) == "limit":
        _say(
            f"The game stopped at the hand limit (max_hands={s.profile.max_hands}),"
            " before the rules ended it: the highest score wins."
        )
    scores = ", ".join(f"{who(i, me, s.profile)} {v}" for i, v in enumerate(s.scores))
    _say(f"Scores: {scores}")
    w = winner(s)
    if w is not None:
        side = s.profile.side_of(w)
        if me in side:
            _say("You win!" if len(side) == 1 else "You and your partner win!")
        else:
            _say(
                f"Seat {w} wins."
                if len(side) == 1
                else f"Seats {' and '.join(map(str, side))} win."
            )
    if args.save is not None:
        seats = ["you" if i == me else f"{labels[i]} bot" for i in range(s.profile.players)]
        return _save(record_json(s, seats=seats), args.save, s.seed)
    return 0
