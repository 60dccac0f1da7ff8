"""``binocle validate`` catches a revoke in a recorded game, with the rules' penalty.

``revoke_game.json`` (next to this file) is the record of a real cutthroat game
between baseline bots, cut short: in it one play was replaced by a card of
another suit while the player held the suit led, and the record stops after
that play.  The validator finds it, names the rule ("must follow suit ...")
and the penalty of the cutthroat rules ("Revoke"): the hand is scored as if the
offender's side failed, so the player in error, an opponent of the bidder,
scores nothing for the hand and the bidder is not set.

    python examples/validate_revoke.py           # validate the record, as the CLI does
    python examples/validate_revoke.py --make    # write revoke_game.json again
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import binocle

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "revoke_game.json")
SEED = 7


def make_revoke_record(seed: int = SEED) -> dict[str, object]:
    """A real game's record with its first possible follow-suit revoke after trick 3.

    The game is played by baseline bots from ``seed``; the first play (after
    three tricks, by a player who is not the bidder) where the player holds
    the suit led and also another suit is replaced by a card of that other
    suit, and the record is cut after it.
    """
    from binocle.bots import play_game

    final = play_game("cutthroat", seed=seed)
    doc = binocle.record(final, seats=["Anna", "Ben", "Carla"])
    states = binocle.replay(doc, every=True)
    actions = doc["actions"]
    assert isinstance(actions, list)
    for i, entry in enumerate(actions):
        state = states[i]
        seat = state.current_player
        if seat is None or not state.trick or not entry["action"].startswith("play "):
            continue
        tricks_done = 15 - len(state.hands[seat])  # cutthroat: 15 cards, one per trick
        bidder = binocle.observe(state, seat).get("bidder")
        if tricks_done < 3 or seat == bidder:
            continue
        led = state.trick[0][1].suit
        hand = state.hands[seat]
        other = [c for c in hand if c.suit is not led and c.suit is not state.trump]
        if any(c.suit is led for c in hand) and other:
            played = entry["action"]
            entry["action"] = f"play {other[-1]}"
            entry["comment"] = f"revoke: the real game had {played}"
            doc["actions"] = actions[: i + 1]
            return doc
    raise SystemExit("no place for a revoke in this game: try another seed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--make", action="store_true", help="write revoke_game.json again")
    args = parser.parse_args(argv)
    if args.make:
        from binocle.record import dump_record

        with open(RECORD, "w", encoding="utf-8") as f:
            f.write(dump_record(make_revoke_record()))
        print(f"wrote {RECORD}")

    # The library call ...
    with open(RECORD, encoding="utf-8") as f:
        report = binocle.validate(f.read())
    assert not report.ok and report.kind == "revoke", report
    print(f"binocle.validate: {report.kind} by seat {report.seat} at action {report.index}")
    print(f"  penalty: {report.penalty}\n")

    # ... and the command line, whose exit status is 1 for a game that breaks a rule.
    done = subprocess.run(
        [sys.executable, "-m", "binocle", "validate", RECORD],
        capture_output=True,
        text=True,
        check=False,
    )
    print(f"$ binocle validate {os.path.basename(RECORD)}")
    print(done.stdout, end="")
    print(f"(exit status {done.returncode})")
    return 0 if done.returncode == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
