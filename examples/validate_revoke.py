"""``binocle validate`` catches a revoke in a recorded game, with the rules' penalty.

``revoke_game.json`` (next to this file) is the record of a cutthroat hand
dealt from seed 7 and played by a fixed, simple rule (:func:`scripted_action`),
cut short at a revoke: after three tricks, the first player who is not the
bidder, holds the suit led and also a card of another plain suit plays that
other card instead, and the record stops after that play (its comment keeps
the card the rule would have played).  The validator finds it, names the rule
broken ("must follow suit ...") and what follows under the cutthroat rules,
Revoke: the player in error, an opponent of the bidder, scores no card points
for the hand (his meld stands only if he has won a counter), and the bidder
cannot be set: he scores his bid, or at his choice the hand played out.  The
validator plays the revoking card anyway and scores the hand as far as the
record goes (``hand_scores``); as this record stops at the revoke, there is no
score for the hand played out (``played_out_scores`` is None).

The record is made, not kept by hand: no bot plays it, so it does not change
when the bots do; ``--regenerate`` writes it again, and the test suite checks
that the file is exactly what :func:`make_revoke_record` makes.

    python examples/validate_revoke.py                # validate the record, as the CLI does
    python examples/validate_revoke.py --regenerate   # write revoke_game.json again
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import binocle
from binocle.records import dump_record

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "revoke_game.json")
SEED = 7
SEATS = ["Anna", "Ben", "Carla"]
#: Tricks played before the revoke may come.
TRICKS_BEFORE = 3


def scripted_action(state: binocle.GameState) -> binocle.Action:
    """The fixed rule every seat plays by: the eldest bids the minimum and the others
    pass; the bidder discards his three lowest cards (Nines first) and names the
    suit he holds most of; everyone melds; every card played is the first one
    ``legal_actions`` offers.  The deal is the one the game's seed proposes."""
    legal = binocle.legal_actions(state)
    phase = state.phase.value
    seat = state.current_player
    if phase == "bidding" and seat is not None:
        bids = [a for a in legal if str(a).startswith("bid ")]
        calls = binocle.observe(state, seat).get("calls")
        return bids[0] if not calls and bids else binocle.parse_action(state, "pass")
    if phase == "discard" and seat is not None:
        ranks = list(binocle.Rank)
        low = max(
            state.hands[seat],
            key=lambda c: (ranks.index(c.rank), -list(binocle.Suit).index(c.suit)),
        )
        return binocle.parse_action(state, f"discard {low}")
    if phase == "trump" and seat is not None:
        suits = list(binocle.Suit)
        most = max(
            suits, key=lambda s: (sum(c.suit is s for c in state.hands[seat]), -suits.index(s))
        )
        return binocle.parse_action(state, f"trump {most.letter}")
    return next(a for a in legal if str(a) != "concede")


def make_revoke_record(seed: int = SEED) -> binocle.Record:
    """The record of the scripted hand from ``seed``, cut at its first revoke.

    Raises SystemExit if the hand gives no place for the revoke described above.
    """
    state = binocle.new_game("cutthroat", seed=seed)
    while not binocle.is_over(state) and not state.results:
        action = scripted_action(state)
        seat = state.current_player
        if action.card is not None and state.trick and seat is not None:
            # The public facts of the hand, as the seat to act sees them.
            view = binocle.observe(state, seat)
            done = len(view.get("played", ()))
            led = state.trick[0][1].suit
            hand = state.hands[seat]
            other = [c for c in hand if c.suit is not led and c.suit is not state.trump]
            if (
                done >= TRICKS_BEFORE
                and seat != view.get("bidder")
                and other
                and any(c.suit is led for c in hand)
            ):
                doc = binocle.record(state, seats=SEATS)
                doc["actions"].append(
                    {
                        "seat": seat,
                        "action": f"play {other[-1]}",
                        "comment": f"revoke: the scripted game had {action}",
                    }
                )
                return doc
        state = binocle.apply(state, action)
    raise SystemExit(f"no place for a revoke in the hand of seed {seed}: try another seed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--regenerate", action="store_true", help="write revoke_game.json again from the seed"
    )
    args = parser.parse_args(argv)
    if args.regenerate:
        with open(RECORD, "w", encoding="utf-8") as f:
            f.write(dump_record(make_revoke_record()))
        print(f"wrote {RECORD}")

    # The library call ...
    with open(RECORD, encoding="utf-8") as f:
        report = binocle.validate(f.read())
    if report.ok or report.kind != "revoke":
        print(f"expected a revoke, got:\n{report}", file=sys.stderr)
        return 1
    print(f"binocle.validate: {report.kind} by seat {report.seat} at action {report.index}")
    print(f"  rule broken: {report.rule}")
    print(f"  penalty: {report.penalty}")
    print(f"  hand scores: {report.hand_scores}; played out: {report.played_out_scores}\n")

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
