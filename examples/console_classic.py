"""Play the classic game in a console against a bot, with save, load and undo.

Written only against binocle's public API: the seat's view
(``binocle.observe``, printed as ``str(view)``), its legal actions named by
``binocle.narrate.label``, the game told to your seat by
``binocle.narrate.narrate``, records to save and load a game
(``binocle.record_json``, ``binocle.replay``), ``binocle.undo`` to take a move
back, and ``binocle.position`` for a bug report.  You play seat 0; a bot plays
the other seat and may knock out of turn.

    python examples/console_classic.py [--seed 7] [--seat 1] [--bot baseline]

At your turn, type an action's number or its text (``play TS``, ``meld``,
``claim`` ...), or a command:

    save FILE   write the game's record to FILE (replacing it whole, or not at all)
    load FILE   play on from the game a record file holds
    undo        back to your previous decision (the bot's moves since are undone too)
    position    the position of your seat as one line, for a bug report
    help        this list
    quit        leave the game
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import TextIO

import binocle
from binocle.actions import claim
from binocle.bots import Bot, knocker, resolve_bot
from binocle.narrate import label, narrate

COMMANDS = "commands: an action's number or text, save FILE, load FILE, undo, position, help, quit"


def save(state: binocle.GameState, path: str) -> None:
    """Write the record of ``state``'s game to ``path``: a temporary file in the same
    directory, then renamed over ``path``, so the file is the new record or the old."""
    text = binocle.record_json(state)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".save-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def load(path: str) -> binocle.GameState:
    """The state a record file's game of classic reaches, replayed under the rules."""
    with open(path, encoding="utf-8") as f:
        state = binocle.replay(f.read())
    if state.profile.name != "classic":
        raise binocle.InvalidArgumentError(f"not a game of classic: {state.profile.spec()}")
    return state


def back(state: binocle.GameState, seat: int) -> binocle.GameState:
    """The state of ``seat``'s previous decision: every action since it undone.

    Raises :class:`binocle.NothingToUndoError` when ``seat`` has had no decision yet.
    """
    try:
        earlier = binocle.undo(state)
        while earlier.current_player != seat:
            earlier = binocle.undo(earlier)
    except binocle.NothingToUndoError:
        raise binocle.NothingToUndoError("nothing to undo: no earlier decision of yours") from None
    return earlier


class Console:
    """One game of classic between a person at ``seat`` and a bot, over two text streams."""

    def __init__(self, state: binocle.GameState, seat: int, bot: Bot, out: TextIO) -> None:
        self.state = state
        self.seat = seat
        self.bot = bot
        self.out = out
        self.told = binocle.observe(state, seat)  # the last view the story reached

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def restart(self, state: binocle.GameState, why: str) -> None:
        """Go on from ``state`` (undone or loaded): the story starts again there."""
        self.state = state
        self.told = binocle.observe(state, self.seat)
        self.say(why)

    def step(self, action: binocle.Action) -> None:
        """Apply ``action`` and tell the person's seat what happened."""
        self.state = binocle.apply(self.state, action)
        seen = binocle.observe(self.state, self.seat)
        self.say(*narrate(self.told, seen))
        self.told = seen

    def run_table(self) -> None:
        """Deal, let the bot play and knock, until it is the person's turn or the end."""
        while not binocle.is_over(self.state):
            to_act = self.state.current_player
            bots: list[Bot | None] = [
                None if i == self.seat else self.bot for i in range(self.state.profile.players)
            ]
            out_of_turn = knocker(self.state, bots)
            if out_of_turn is not None:
                self.step(claim(out_of_turn))
            elif to_act is None:  # between hands: the deal the game's seed draws
                self.step(binocle.legal_actions(self.state)[0])
            elif to_act != self.seat:
                self.step(self.bot.choose(binocle.observe(self.state, to_act)))
            else:
                return

    def prompt(self) -> None:
        view = binocle.observe(self.state, self.seat)
        self.say("", str(view))
        for number, action in enumerate(view.legal_actions, 1):
            self.say(f"  {number:>2}. {label(action, view)}  [{action}]")

    def command(self, text: str) -> bool:
        """Carry out one line the person typed; False to leave the game."""
        word, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        legal = binocle.legal_actions(self.state)
        try:
            if word in ("quit", "q"):
                return False
            if word == "help":
                self.say(COMMANDS)
            elif word == "position":
                self.say(binocle.position(self.state, seat=self.seat))
            elif word == "undo":
                self.restart(back(self.state, self.seat), "undone: back to your previous turn")
            elif word in ("save", "load") and not rest:
                self.say(f"  {word} needs a file name")
            elif word == "save":
                save(self.state, rest)
                self.say(f"saved to {rest}")
            elif word == "load":
                self.restart(load(rest), f"loaded {rest}")
            elif text.strip().isdigit() and 1 <= int(text) <= len(legal):
                self.step(legal[int(text) - 1])
            else:
                self.step(binocle.parse_action(self.state, text.strip()))
        except binocle.BinocleError as exc:  # an illegal action, a bad record, no undo
            self.say(f"  {exc}")
        except OSError as exc:  # a file that cannot be read or written
            self.say(f"  cannot {word} {rest}: {exc.strerror or exc}")
        return True

    def finish(self) -> None:
        won = binocle.winner(self.state)
        who = "you win" if won == self.seat else "nobody wins" if won is None else "the bot wins"
        self.say("", f"game over: {who}; scores {list(binocle.score(self.state))}")


def main(
    argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (default: 7)")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat")
    parser.add_argument("--bot", default="baseline", help="the bot's spec (default: baseline)")
    args = parser.parse_args(argv)
    read = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    try:
        bot = resolve_bot(args.bot, seed=args.seed)
    except binocle.BinocleError as exc:  # an unknown bot, or bad settings
        parser.error(str(exc))
    console = Console(binocle.new_game("classic", seed=args.seed), args.seat, bot, out)
    console.say(COMMANDS)
    shown = None  # the state whose view was printed last: printed again once it changes
    while True:
        console.run_table()
        if binocle.is_over(console.state):
            console.finish()
            return 0
        if console.state is not shown:
            console.prompt()
            shown = console.state
        print("> ", end="", file=out, flush=True)
        line = read.readline()
        if not line or not console.command(line):
            console.say("bye")
            return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # Ctrl-C while the bot plays
        print("\nbye")
        raise SystemExit(130) from None
