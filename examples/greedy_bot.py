"""A greedy cutthroat bot written against binocle's public API alone.

It bids while its best meld plus ``margin`` covers the bid, keeps its trump
suit and its Aces when it discards, names the suit that melds most, and in
play takes every trick it can with its strongest card (else throws its
weakest).  It never knocks or gives up on its own.

Against the baseline bot, from the repository's root::

    binocle arena --profile cutthroat --deals 20 \\
        --bots examples.greedy_bot:GreedyBot,baseline,baseline
    binocle arena --profile cutthroat --deals 20 \\
        --bots 'examples.greedy_bot:GreedyBot(margin=60),baseline,baseline'

or from Python, by object (``python examples/greedy_bot.py``).
"""

from __future__ import annotations

import binocle
from binocle import Action, Card, Kind, Phase, Suit, View
from binocle.rules.tricks import trick_winner


class GreedyBot:
    """Takes what it can, as soon as it can (cutthroat)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, *, margin: int = 100) -> None:
        self.seed = seed  # the bot is deterministic: the seed changes nothing
        self.margin = margin

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        calm = [a for a in legal if a.kind not in (Kind.CLAIM, Kind.CONCEDE)] or list(legal)
        if view.phase is Phase.BIDDING:
            return self._bid(view, calm)
        if view.phase is Phase.TRUMP:
            best = self._trump(view.hand)
            return next((a for a in calm if a.suit is best), calm[0])
        if view.phase is Phase.DISCARD:
            trump = self._trump(view.hand)
            return min(calm, key=lambda a: self._keep(a.card, trump))
        plays = [a for a in calm if a.kind is Kind.PLAY and a.card is not None]
        if plays:
            return self._play(view, plays)
        return calm[0]

    def _trump(self, hand: tuple[Card, ...]) -> Suit:
        """The suit that melds most, its length breaking ties."""
        return max(
            Suit,
            key=lambda t: (binocle.meld(hand, t).total, sum(c.suit is t for c in hand)),
        )

    def _bid(self, view: View, calm: list[Action]) -> Action:
        worth = binocle.meld(view.hand, self._trump(view.hand)).total + self.margin
        bids = [a for a in calm if a.kind is Kind.BID and (a.number or 0) <= worth]
        passes = [a for a in calm if a.kind is Kind.PASS]
        return bids[0] if bids else (passes or calm)[0]

    @staticmethod
    def _keep(card: Card | None, trump: Suit) -> int:
        """How much a card is worth keeping: trumps most, then Aces, then rank."""
        if card is None:
            return 0
        return 20 * (card.suit is trump) + 10 * (card.rank == 0) + (7 - card.rank)

    def _play(self, view: View, plays: list[Action]) -> Action:
        played = [card for _, card in view.trick]

        def strength(a: Action) -> tuple[bool, int]:
            assert a.card is not None
            return (a.card.suit is view.trump, 7 - a.card.rank)

        winners = [
            a
            for a in plays
            if a.card is not None and trick_winner([*played, a.card], view.trump) == len(played)
        ]
        if winners:
            return max(winners, key=strength)
        return min(plays, key=strength)


def main() -> int:
    """The greedy bot against two baseline bots over a few duplicate deals."""
    report = binocle.arena("cutthroat", [GreedyBot(), "baseline", "baseline"], deals=4, seed=1)
    print(report.table())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
