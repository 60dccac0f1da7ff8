"""Bots (layer 4): programs that choose an action from what one seat may know.

A bot sees only a :class:`~binocle.core.View` (never the whole state), so it
cannot cheat.  :func:`play_game` runs a whole game between bots.

Knocking.  A bot is offered the knock two ways: at its own turn ``claim`` is
among ``view.legal_actions`` wherever it may claim; at every other moment it
may knock out of turn, a runner asking its optional ``knock(view) -> bool``
after every applied action, for each seat in :func:`binocle.claimants` but
the player to act (:func:`knocker` does the asking).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from binocle.actions import CLAIM_OVERLOOKED, Action, Kind, claim
from binocle.cards import Card, Suit
from binocle.core import GameState, Phase, View
from binocle.errors import InvalidArgumentError
from binocle.game import apply, claimants, legal_actions, observe, start
from binocle.ismcts import ISMCTSBot, PIMCBot
from binocle.profiles import get_profile
from binocle.rules.classic_melds import KINDS
from binocle.rules.tricks import _trick_winner

__all__ = [
    "BaselineBot",
    "Bot",
    "ISMCTSBot",
    "PIMCBot",
    "RandomBot",
    "bot_names",
    "knocker",
    "make_bot",
    "play_game",
]


class Bot(Protocol):
    """Anything with ``choose(view) -> Action`` picking one of ``view.legal_actions``.

    A bot may also have ``knock(view) -> bool``: asked when its seat may knock
    (claim the game) while another seat is to act, it says whether it knocks.
    Without it, a bot knocks only at its own turn, through ``choose``.
    """

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
        """Claim at its turn exactly when the claim is correct."""
        return any(a.kind is Kind.CLAIM for a in legal) and self.knock(view)

    def knock(self, view: View) -> bool:
        """Knock (out of turn too) exactly when the claim is correct: its score, the
        points recorded this hand and the cards it has won reach its target."""
        totals = view.get("claim_totals")
        targets = view.get("targets")
        if not totals or not targets:
            return False
        return bool(totals[view.seat] >= targets[view.seat])

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
            if _trick_winner([*played, c], trump) == len(played):
                winners.append(a)
        if winners:
            return max(winners, key=lambda a: (a.card or 0) & 7)  # cheapest winner
        return max(plays, key=lambda a: ((a.card or 0) & 7, (a.card or 0) >> 3 != trump))


_KIND_VALUES: dict[str, int] = {name: value for name, _, value in KINDS}

_BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "ismcts": ISMCTSBot,
    "pimc": PIMCBot,
}


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` knows."""
    return tuple(_BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name: ``"random"``, ``"baseline"``, ``"ismcts"`` (:class:`ISMCTSBot`
    at its default settings) or ``"pimc"`` (:class:`PIMCBot`)."""
    if name not in _BOTS:
        raise InvalidArgumentError(f"unknown bot {name!r} (known: {', '.join(_BOTS)})")
    return _BOTS[name](seed)


def knocker(state: GameState, bots: Sequence[object]) -> int | None:
    """The first seat whose bot knocks out of turn now, or None.

    Each seat in :func:`binocle.claimants` but the player to act is asked, in
    turn from the left of the player to act, through its bot's optional
    ``knock(view)``; bots without one are not asked (and no view is built).
    """
    hooks: dict[int, Callable[[View], object]] = {}
    for i, bot in enumerate(bots):
        hook = getattr(bot, "knock", None)
        if callable(hook):
            hooks[i] = hook
    seats = claimants(state) if hooks else ()
    if not seats:
        return None
    p = state.current_player
    n = len(bots)
    start_at = 0 if p is None else p + 1
    for k in range(n):
        seat = (start_at + k) % n
        if seat != p and seat in seats and seat in hooks and hooks[seat](observe(state, seat)):
            return seat
    return None


def play_game(
    profile: object = "cutthroat",
    bots: Sequence[Bot] | None = None,
    seed: int | None = None,
    *,
    max_hands: int | None = None,
    on_step: Callable[[GameState, Action, GameState], None] | None = None,
) -> GameState:
    """Play a game between ``bots`` (baseline bots by default) from ``seed``, to its end.

    ``max_hands`` bounds the game: it is played under the profile option
    ``max_hands`` (the lower of the two when the profile has one), so a game
    the rules have not ended by then is over at the end of that hand, and
    :func:`binocle.end_reason` of the final state says ``"limit"``.  After
    every action, the bots of the seats that may knock out of turn are asked
    (:func:`knocker`).  ``on_step(before, action, after)`` is called for every
    action.
    """
    p = get_profile(profile)
    if max_hands is not None:
        if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
            raise InvalidArgumentError(f"max_hands is a whole number from 1, not {max_hands!r}")
        if p.max_hands is None or p.max_hands > max_hands:
            p = get_profile(p, max_hands=max_hands)
    s = start(p, seed=seed)
    n = p.players
    if bots is None:
        bots = [BaselineBot(None if seed is None else seed * 7 + i) for i in range(n)]
    if len(bots) != n:
        raise InvalidArgumentError(f"{p.name} needs {n} bots, not {len(bots)}")
    knocks = any(callable(getattr(bot, "knock", None)) for bot in bots)
    while s.phase is not Phase.OVER:
        cur = s.current_player
        if cur is None:
            action = legal_actions(s)[0]
        else:
            seat = knocker(s, bots) if knocks else None
            action = claim(seat) if seat is not None else bots[cur].choose(observe(s, cur))
        after = apply(s, action)
        if on_step is not None:
            on_step(s, action, after)
        s = after
    return s
