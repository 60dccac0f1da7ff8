"""How games end: uniform random play under ``max_hands``, and the baseline bots' knocks.

Run ``python benchmarks/game_ends.py [--games N] [--max-hands H]``.  For each
profile it plays ``N`` uniformly random games under ``max_hands=H`` (claims and
concessions only when nothing else is legal, then every legal action equally
likely) and checks that every one ends by hand ``H``, counting how they ended
(``binocle.end_reason``: target, claim, limit); then ``N`` games between
baseline bots, counting their knocks at their turn and out of turn, and the
wrong ones.  Exit status 1 if a game did not end or a baseline knock was wrong.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import binocle
from binocle.bots import play_game

PROFILES = ("cutthroat", "classic", "three-handed")


def uniform_game(spec: str, seed: int, sudden: bool) -> tuple[binocle.GameState, int]:
    """A uniformly random game from ``seed``; the final state and the actions taken."""
    rng = random.Random(seed)
    s = binocle.new_game(spec, seed=seed)
    steps = 0
    while not binocle.is_over(s):
        legal = binocle.legal_actions(s)
        if s.current_player is None:
            s = binocle.apply(s, legal[0])
            continue
        calm = [a for a in legal if a.kind not in (binocle.Kind.CLAIM, binocle.Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(legal if sudden or not calm else calm))
        steps += 1
    return s, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per line (1000)")
    parser.add_argument("--max-hands", type=int, default=10, help="the hand limit (10)")
    args = parser.parse_args(argv)
    ok = True
    print(f"uniform random play, max_hands={args.max_hands}, {args.games} games a line")
    for name in PROFILES:
        for sudden in (False, True):
            t0 = time.perf_counter()
            ends: Counter[str | None] = Counter()
            actions = longest = 0
            for g in range(args.games):
                s, n = uniform_game(f"{name}(max_hands={args.max_hands})", g, sudden)
                ends[binocle.end_reason(s)] += 1
                actions += n
                longest = max(longest, len(s.results))
                ok = ok and binocle.is_over(s) and len(s.results) <= args.max_hands
            how = ", ".join(f"{k} {v}" for k, v in sorted(ends.items(), key=str))
            label = "every action" if sudden else "calm"
            print(
                f"  {name:<13} {label:<12} ended {sum(ends.values())}/{args.games}"
                f" ({how}); at most {longest} hands; {actions} actions;"
                f" {time.perf_counter() - t0:.1f} s"
            )
    print(f"baseline bots, {args.games} games a profile (max_hands=200)")
    for name in PROFILES:
        ends = Counter()
        knocks: Counter[str] = Counter()

        def step(
            before: binocle.GameState,
            action: binocle.Action,
            after: binocle.GameState,
            knocks: Counter[str] = knocks,
        ) -> None:
            if action.kind is binocle.Kind.CLAIM:
                seat = after.moves()[-1][1]
                when = "out of turn" if seat != before.current_player else "at turn"
                verdict = "correct" if binocle.winner(after) == seat else "wrong"
                knocks[f"{when} {verdict}"] += 1

        for g in range(args.games):
            ends[binocle.end_reason(play_game(name, seed=g, max_hands=200, on_step=step))] += 1
        ok = ok and not any("wrong" in k for k in knocks)
        how = ", ".join(f"{k} {v}" for k, v in sorted(ends.items(), key=str))
        said = ", ".join(f"{k} {v}" for k, v in sorted(knocks.items())) or "none"
        print(f"  {name:<13} ended: {how}; knocks: {said}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
