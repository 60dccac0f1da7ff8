"""Bots (layer 4): programs that choose an action from what one seat may know.

A bot sees only a :class:`~binocle.core.View` (never the whole state), so it
cannot cheat.  :func:`play_game` runs a whole game between bots.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from binocle.actions import CLAIM_OVERLOOKED, Action, Kind
from binocle.cards import Card, Suit
from binocle.core import GameState, Phase, View
from binocle.errors import InvalidArgumentError
from binocle.game import apply, legal_actions, observe, start
from binocle.rules.classic_melds import KINDS
from binocle.rules.tricks import trick_winner

__all__ = ["BaselineBot", "Bot", "RandomBot", "make_bot", "play_game"]


class Bot(Protocol):
    """Anything with ``choose(view) -> Action`` picking one of ``view.legal_actions``."""

    def choose(self, view: View) -> Action:
        """The action to take."""
        ...


class RandomBot:
    """Chooses uniformly at random among the legal actions.

    Claims (knocking) and giving up end a hand or the game at once, so by
    default the bot makes them only when nothing else is legal; with
    ``sudden=True`` every legal action is equally likely.
    """

    def __init__(self, seed: int | None = None, *, sudden: bool = False) -> None:
        self.rng = random.Random(seed)
        self.sudden = sudden

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if not self.sudden:
            calm = [a for a in legal if a.kind is not Kind.CLAIM and a.kind is not Kind.CONCEDE]
            if calm:
                return self.rng.choice(calm)
        return self.rng.choice(legal)


class BaselineBot:
    """A simple, sensible player: a yardstick for other bots, not a strong one.

    Cutthroat: bids up to its best meld plus a fair estimate of its tricks,
    discards cards that neither meld nor win, names the suit that gives the
    most, gives up a hopeless contract, leads winners and wins tricks cheaply.
    Three-handed: declares its best meld and claims any overlooked meld offered.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if CLAIM_OVERLOOKED in legal:
            return CLAIM_OVERLOOKED  # another player's overlooked meld: free points
        phase = view.phase
        if phase is Phase.BIDDING:
            return self._bid(view, legal)
        if phase is Phase.DISCARD:
            return self._discard(view, legal)
        if phase is Phase.TRUMP:
            best = max(Suit, key=lambda t: self._suit_value(view, view.hand, t))
            return next(a for a in legal if a.suit is best)
        if phase is Phase.PLAY:
            return self._play(view, legal)
        if phase is Phase.ANNOUNCE:
            return self._announce(view, legal)
        if phase is Phase.DIX:
            return max(legal, key=lambda a: a.number or (1 if a.kind is Kind.DIX else 0))
        for a in legal:
            if a.kind is Kind.MELD:
                return a
        return next((a for a in legal if a.kind is not Kind.CLAIM), legal[0])

    def _announce(self, view: View, legal: tuple[Action, ...]) -> Action:
        """Classic: the most valuable announcement, else dix, else nothing."""
        if self._sure_claim(view, legal):
            return next(a for a in legal if a.kind is Kind.CLAIM)
        melds = [a for a in legal if a.kind is Kind.MELD and a.name in _KIND_VALUES]
        if melds:
            return max(melds, key=lambda a: _KIND_VALUES[a.name or ""])
        return next((a for a in legal if a.kind is Kind.DIX), legal[0])

    def _sure_claim(self, view: View, legal: tuple[Action, ...]) -> bool:
        """Claim only what the recorded score already proves (no counting of cards)."""
        if not any(a.kind is Kind.CLAIM for a in legal):
            return False
        points = view.get("meld_points")
        targets = view.get("targets")
        if points is None or targets is None:
            return False
        return bool(view.scores[view.seat] + points[view.seat] >= targets[view.seat])

    # -- bidding -----------------------------------------------------------

    def _estimate(self, view: View, hand: Sequence[Card]) -> int:
        """Best meld over the four trumps plus an estimate of trick points."""
        return max(self._suit_value(view, hand, t) for t in Suit)

    def _suit_value(self, view: View, hand: Sequence[Card], t: Suit) -> int:
        meld = view.profile.meld(tuple(sorted(hand)), t).total
        trumps = sum(1 for c in hand if c >> 3 == t)
        aces = sum(1 for c in hand if c & 7 == 0)
        tens = sum(1 for c in hand if c & 7 == 1)
        return meld + 15 * aces + 8 * tens + 10 * max(trumps - 3, 0) + 70

    def _bid(self, view: View, legal: tuple[Action, ...]) -> Action:
        limit = self._estimate(view, view.hand)
        bids = [a for a in legal if a.kind is Kind.BID and (a.number or 0) <= limit]
        if bids:
            return bids[0]
        return next(a for a in legal if a.kind is Kind.PASS)

    # -- widow and discards ----------------------------------------------------

    def _discard(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = list(view.hand)
        t = max(Suit, key=lambda s: self._suit_value(view, hand, s))

        def keep_value(a: Action) -> int:
            c = a.card
            assert c is not None
            rest = list(hand)
            rest.remove(c)
            loss = (
                view.profile.meld(tuple(sorted(hand)), t).total
                - view.profile.meld(tuple(sorted(rest)), t).total
            )
            power = 30 if c >> 3 == t else (15 if c & 7 == 0 else 0)
            counter = 5 if c & 7 in (1, 2) else 0  # a discarded counter still counts
            return loss * 4 + power - counter

        return min(legal, key=keep_value)

    # -- play ----------------------------------------------------------------

    def _play(self, view: View, legal: tuple[Action, ...]) -> Action:
        if self._sure_claim(view, legal):
            return next(a for a in legal if a.kind is Kind.CLAIM)
        plays = [a for a in legal if a.kind is Kind.PLAY]
        if any(a.kind is Kind.CONCEDE for a in legal):
            bid = view.get("bid") or 0
            melds = view.get("melds") or ()
            mine = melds[view.seat].total if melds and melds[view.seat] else 0
            if mine + 120 < bid:
                return next(a for a in legal if a.kind is Kind.CONCEDE)
        trump = view.trump
        if not view.trick:
            # Lead: an Ace if any, else the lowest card of the longest plain suit.
            aces = [a for a in plays if a.card is not None and a.card & 7 == 0]
            if aces:
                return aces[0]
            return max(plays, key=lambda a: (a.card or 0) & 7)
        played = [c for _, c in view.trick]
        winners = []
        for a in plays:
            c = a.card
            assert c is not None
            if trick_winner([*played, c], trump) == len(played):
                winners.append(a)
        if winners:
            return max(winners, key=lambda a: (a.card or 0) & 7)  # cheapest winner
        return max(plays, key=lambda a: ((a.card or 0) & 7, (a.card or 0) >> 3 != trump))


_KIND_VALUES: dict[str, int] = {name: value for name, _, value in KINDS}

_BOTS: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot, "baseline": BaselineBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name: ``"random"`` or ``"baseline"``."""
    if name not in _BOTS:
        raise InvalidArgumentError(f"unknown bot {name!r} (known: {', '.join(_BOTS)})")
    return _BOTS[name](seed)


def play_game(
    profile: object = "cutthroat",
    bots: Sequence[Bot] | None = None,
    seed: int | None = None,
    *,
    max_hands: int | None = None,
    on_step: Callable[[GameState, Action, GameState], None] | None = None,
) -> GameState:
    """Play a game between ``bots`` (baseline bots by default) from ``seed``.

    ``max_hands`` stops after that many hands (the state is then mid-game);
    ``on_step(before, action, after)`` is called for every action.
    """
    s = start(profile, seed=seed)
    n = s.profile.players
    if bots is None:
        bots = [BaselineBot(None if seed is None else seed * 7 + i) for i in range(n)]
    if len(bots) != n:
        raise InvalidArgumentError(f"{s.profile.name} needs {n} bots, not {len(bots)}")
    while s.phase is not Phase.OVER:
        p = s.current_player
        if p is None:
            if max_hands is not None and s.hand_number >= max_hands:
                break
            action = legal_actions(s)[0]
        else:
            action = bots[p].choose(observe(s, p))
        after = apply(s, action)
        if on_step is not None:
            on_step(s, action, after)
        s = after
    return s
