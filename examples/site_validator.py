"""Check a pinochle site's own game files with binocle: bids, melds, tricks and scores.

The site keeps cutthroat games in a JSON format of its own (``site_game.json``
next to this file is one, made by ``site_game_maker.py``): player names, and per
hand the dealer, the cards dealt (``"10H"``, ``"QS"`` …) and the kitty, the
bids, the bidder's discards and trump, each player's melds as shown (name,
cards, points), the tricks as ``[player, card]`` in play order, and the score
sheet after the hand.  This program turns a file into a binocle record, has
binocle validate it (every broken rule, with its rule code and the penalty),
rules on each declared meld with :func:`binocle.rulings.check_meld`, and
compares the score sheet with the scores binocle keeps, hand by hand.

    python examples/site_validator.py [GAME.json]    # exit 1 when anything is wrong
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import binocle
from binocle.rulings import check_meld

PROFILE = "cutthroat"


def card(text: str) -> str:
    """A site card (``"10H"``) as binocle writes it (``"TH"``)."""
    return str(binocle.parse_card(text))


def to_record(game: dict[str, Any]) -> dict[str, Any]:
    """The binocle record of a site game."""
    names: list[str] = game["players"]
    seat = {name: i for i, name in enumerate(names)}
    actions: list[dict[str, Any]] = []

    def act(who: str, text: str) -> None:
        actions.append({"seat": seat[who], "action": text})

    for hand in game["hands"]:
        dealt = [" ".join(map(card, hand["deal"][name])) for name in names]
        kitty = " ".join(map(card, hand["kitty"]))
        deck = binocle.stack_deck(PROFILE, dealt, seat[hand["dealer"]], widow=kitty)
        actions.append({"action": "deal " + " ".join(map(str, deck))})
        for who, bid in hand["bids"]:
            act(who, "pass" if bid == "pass" else f"bid {bid}")
        bidder = _top_bidder(hand)
        for c in hand["discards"]:
            act(bidder, f"discard {card(c)}")
        act(bidder, f"trump {hand['trump']}")
        for shown in hand["melds"]:
            act(shown["player"], f"meld {sum(m['points'] for m in shown['melds'])}")
        for trick in hand["tricks"]:
            for who, c in trick:
                act(who, f"play {card(c)}")
    first = seat[game["hands"][0]["dealer"]] if game["hands"] else 0
    return {"format": "binocle-record", "version": 1, "profile": PROFILE,
            "first_dealer": first, "seats": names, "actions": actions}  # fmt: skip


def _top_bidder(hand: dict[str, Any]) -> str:
    """The player of the last bid (not a pass)."""
    return next(who for who, bid in reversed(hand["bids"]) if bid != "pass")


def meld_findings(game: dict[str, Any]) -> list[str]:
    """Each declared meld that binocle's meld rules refuse, with what it is worth."""
    out = []
    for number, hand in enumerate(game["hands"], 1):
        bidder = _top_bidder(hand)
        for shown in hand["melds"]:
            name = shown["player"]
            held = [*hand["deal"][name], *(hand["kitty"] if name == bidder else [])]
            for c in hand["discards"] if name == bidder else []:
                if c in held:
                    held.remove(c)
            declared = [(m["meld"], [card(c) for c in m["cards"]], m["points"])
                        for m in shown["melds"]]  # fmt: skip
            for r in check_meld(PROFILE, [card(c) for c in held], hand["trump"], declared).rulings:
                if not r.ok:
                    out.append(f"hand {number}: {name}'s {r.name} for {r.claimed}:"
                               f" {r.reason} [{r.rule.value if r.rule else ''}]")  # fmt: skip
    return out


def check(game: dict[str, Any]) -> list[str]:
    """Every finding about a site game, as lines of text (none for a clean game)."""
    names: list[str] = game["players"]
    report = binocle.validate(to_record(game))
    out = []
    for v in report.violations:
        who = names[v.seat] if v.seat is not None else "nobody"
        out.append(f"hand {v.hand + 1}: {v.kind.value} by {who} at record entry {v.index}"
                   f" ({v.action}) [{v.code.value if v.code else ''}]: {v.rule}")  # fmt: skip
        out.append(f"  what follows: {v.penalty}")
    out += meld_findings(game)
    for number, (hand, scores) in enumerate(
        zip(game["hands"], report.hand_end_scores, strict=False), 1
    ):
        sheet = [hand["score"][name] for name in names]
        if sheet != list(scores):
            wrong = ", ".join(f"{n} {s} (binocle: {b})"
                              for n, s, b in zip(names, sheet, scores, strict=False) if s != b)  # fmt: skip
            out.append(f"hand {number}: wrong score on the sheet: {wrong}")
    return out


def main(argv: list[str]) -> int:
    path = argv[0] if argv else os.path.join(os.path.dirname(__file__), "site_game.json")
    with open(path, encoding="utf-8") as f:
        game = json.load(f)
    try:
        findings = check(game)
    except binocle.BinocleError as exc:  # cards or a record binocle cannot read at all
        print(f"{path}: not a game binocle can read: {exc}")
        return 2
    print("\n".join(findings) if findings else f"{path}: no rule broken, every score right")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
