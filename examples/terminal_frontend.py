"""A small terminal front end, written only against binocle's public API.

It shows what a front end needs and nothing more: a view per player
(``binocle.observe``), the legal actions with their labels
(``binocle.narrate.label``), ``binocle.apply`` with the player's text, the
documented errors, and the game told as your seat may know it
(``binocle.narrate.narrate``, from your views alone).  You play seat 0;
baseline bots play the rest.

    python examples/terminal_frontend.py [--profile cutthroat] [--seed 7]
    python examples/terminal_frontend.py --auto      # a bot plays your seat too

(``binocle play`` is the full version of this program.)
"""

from __future__ import annotations

import argparse

import binocle
from binocle.actions import claim
from binocle.bots import BaselineBot, knocker
from binocle.narrate import label, narrate


def show(view: binocle.View) -> None:
    """Print what the player to act may know: hand, trick, scores, legal actions."""
    hand = " ".join(c.symbol for c in view.hand)
    trick = " ".join(f"{seat}:{c.symbol}" for seat, c in view.trick) or "-"
    trump = view.trump.symbol if view.trump is not None else "-"
    print(f"\n[{view.phase.value}] trump {trump}  scores {list(view.scores)}  trick {trick}")
    print(f"your hand: {hand}")
    for action in view.legal_actions[:12]:
        print(f"  {action!s:<28} {label(action, view)}")
    if len(view.legal_actions) > 12:
        print(f"  ... ({len(view.legal_actions)} in all)")


def ask(state: binocle.GameState) -> binocle.Action | None:
    """Read an action text until the engine accepts it; None to quit."""
    while True:
        try:
            text = input("> ").strip()
        except (EOFError, KeyboardInterrupt):
            return None
        if text in ("quit", "q"):
            return None
        try:
            action = binocle.parse_action(state, text)
            binocle.apply(state, action)  # raises if illegal; the state is unchanged
        except binocle.BinocleError as exc:
            print(f"  {exc}")
            continue
        return action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="cutthroat", help="rule profile (default: cutthroat)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (default: 7)")
    parser.add_argument("--auto", action="store_true", help="let a bot play your seat")
    args = parser.parse_args(argv)

    try:
        state = binocle.new_game(args.profile, seed=args.seed)
    except binocle.BinocleError as exc:  # an unknown profile, a bad option or seed
        parser.error(str(exc))
    players = state.profile.players
    bots = [BaselineBot(args.seed * 10 + i) for i in range(players)]
    me = 0
    # The seats the bots play may knock out of turn (classic, three-handed): ask them.
    others = [None if i == me and not args.auto else bots[i] for i in range(players)]
    told = binocle.observe(state, me)  # the last view of your seat the story reached
    while not binocle.is_over(state):
        seat = state.current_player
        if seat is None:  # between hands: the next deal, drawn from the game's seed
            state = binocle.apply(state, binocle.legal_actions(state)[0])
        else:
            view = binocle.observe(state, seat)  # never more than that seat may know
            out_of_turn = knocker(state, others)  # a bot not to act that knocks now, if any
            if out_of_turn is not None:
                action: binocle.Action | None = claim(out_of_turn)
            elif seat == me and not args.auto:
                show(view)
                action = ask(state)
                if action is None:
                    print("bye")
                    return 0
            else:
                action = bots[seat].choose(view)
            assert action is not None
            state = binocle.apply(state, action)
        # What happened, as your seat may know it: told from your views alone.
        mine = binocle.observe(state, me)
        for line in narrate(told, mine):
            print(line)
        told = mine
    won = binocle.winner(state)
    how = binocle.end_reason(state)  # "target", "claim" or "limit" (the max_hands option)
    who = f"seat {won} wins" if won is not None else "nobody wins"
    print(f"\ngame over: {who} ({how}); scores {list(binocle.score(state))}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # Ctrl-C while the bots play
        print("\nbye")
        raise SystemExit(130) from None
