"""Write ``site_game.json``: two cutthroat hands in the site's own format, with three faults.

The hands are dealt from a fixed seed and played by a fixed, simple rule, with
binocle's stateless rules (:mod:`binocle.rulings`) as the referee: the eldest
bids 250 and the others pass; the bidder takes the kitty, discards his three
lowest cards and names the suit he holds most of; everyone shows his melds;
each card played is the strongest the trick rule allows, and the winner of a
trick leads the next.  Three faults are put in, as a site's players and its
score keeper make them:

- in hand 1, the first opponent who shows a meld announces his first
  combination 20 points above its value (an over-claimed meld);
- in hand 2, from the fourth trick on, the first opponent of the bidder who
  could follow suit plays another card instead (a revoke), and the hand is
  played on;
- the score sheet of hand 2 gives the third player 10 points too many (a wrong
  score); every other score is the one binocle keeps.

    python examples/site_game_maker.py     # write site_game.json again
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any

import binocle
from binocle.rulings import allowed_plays, trick_winner

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from site_validator import PROFILE, to_record

HERE = os.path.dirname(os.path.abspath(__file__))
GAME = os.path.join(HERE, "site_game.json")
PLAYERS = ["ann", "bob", "cy"]
SEED = 11
RANKS = ["A", "10", "K", "Q", "J", "9"]


def site(c: binocle.Card) -> str:
    """A binocle card as the site writes it (``"10H"``)."""
    return RANKS[c.rank.value] + c.suit.name[0]


def play_hand(rng: random.Random, number: int) -> dict[str, Any]:
    """One hand in the site's format (the score sheet is filled in later)."""
    pack = list(binocle.pack(48))
    rng.shuffle(pack)
    dealer = (number - 1) % 3
    held = {PLAYERS[(dealer + 1 + i) % 3]: sorted(pack[15 * i : 15 * i + 15]) for i in range(3)}
    kitty = pack[45:]
    eldest = PLAYERS[(dealer + 1) % 3]
    order = [PLAYERS[(dealer + 1 + i) % 3] for i in range(3)]
    hand: dict[str, Any] = {
        "dealer": PLAYERS[dealer],
        "deal": {p: [site(c) for c in held[p]] for p in PLAYERS},
        "kitty": [site(c) for c in kitty],
        "bids": [[eldest, 250], [order[1], "pass"], [order[2], "pass"]],
    }
    cards = sorted([*held[eldest], *kitty], key=lambda c: (-c.rank.value, c))
    hand["discards"] = [site(c) for c in cards[:3]]
    held[eldest] = sorted(cards[3:])
    trump = max("SHDC", key=lambda s: sum(c.suit.name[0] == s for c in held[eldest]))
    hand["trump"] = trump
    hand["melds"] = []
    for p in order:
        melds = [{"meld": m.name, "cards": [site(c) for c in m.cards], "points": m.value}
                 for m in binocle.meld(held[p], trump, PROFILE).melds]  # fmt: skip
        hand["melds"].append({"player": p, "melds": melds})
    if number == 1:
        cheat = next(m for m in hand["melds"] if m["player"] != eldest and m["melds"])
        cheat["melds"][0]["points"] += 20
    hand["tricks"] = []
    leader, revoked = eldest, number != 2
    while held[leader]:
        trick: list[list[str]] = []
        on: list[binocle.Card] = []
        for i in range(3):
            p = PLAYERS[(PLAYERS.index(leader) + i) % 3]
            check = allowed_plays(PROFILE, held[p], on, trump)
            c = check.allowed[0]
            follow = [r.card for r in check.refused if r.rule and r.rule.value == "must-follow"]
            if not revoked and p != eldest and follow and len(hand["tricks"]) >= 3:
                c, revoked = follow[0], True
            held[p].remove(c)
            on.append(c)
            trick.append([p, site(c)])
        hand["tricks"].append(trick)
        leader = trick[trick_winner(PROFILE, on, trump)][0]
    return hand


def make_game() -> dict[str, Any]:
    """The site game, score sheet included."""
    rng = random.Random(SEED)
    game: dict[str, Any] = {"site": "pinochle-site/1", "players": PLAYERS}
    game["hands"] = [play_hand(rng, n) for n in (1, 2)]
    report = binocle.validate(to_record(game))
    for hand, scores in zip(game["hands"], report.hand_end_scores, strict=False):
        hand["score"] = dict(zip(PLAYERS, scores, strict=False))
    game["hands"][1]["score"][PLAYERS[2]] += 10
    return game


def dump(game: dict[str, Any]) -> str:
    """The file's text: one hand's part per line where it fits."""
    return json.dumps(game, indent=1) + "\n"


if __name__ == "__main__":
    with open(GAME, "w", encoding="utf-8") as f:
        f.write(dump(make_game()))
    print(f"wrote {GAME}")
