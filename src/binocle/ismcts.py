"""Search bots: information-set Monte Carlo tree search and determinized sampling.

:class:`ISMCTSBot` is single-observer information-set MCTS (Cowling, Powley and
Whitehouse, 2012).  One tree is grown over the bot's information set: each
iteration draws a state consistent with the bot's view
(:func:`binocle.determinize`), walks the tree choosing among the actions legal
in that state (UCB1, each child's exploration term counted over the iterations
in which it was available), adds one node, plays the hand out at random and
credits every node with the result for the player who chose it.  The action
played is the root child visited most.  The bot sees only its view, so it
cannot peek; for a given seed its choices are reproducible.

:class:`PIMCBot` (perfect-information Monte Carlo) is the simpler relative:
for each of a few sampled states it scores every candidate action by random
playouts and plays the best on average.  :class:`DoubleDummyBot` (double-dummy
PIMC) samples states the same way and, in the play of a hand, scores each card
by its exact value in each sample (:func:`binocle.solve.solve`) instead of by
playouts.

In the classic game, once the stock is exhausted, each player can tell the
other's hand (every other card has been seen), so the position is an endgame
with every card known: the three bots then play the card
:func:`binocle.solve.solve` finds best when it proves it within
``ENDGAME_NODES`` search nodes, unless built with ``endgame=False``.

Both evaluate a hand, not a game: a playout ends with the hand, and a player's
result is his score for the hand less the mean of the others', scaled.  The
playouts are random but for a little sense: a player following to a trick
usually wins it as cheaply as he can, or else throws his cheapest card; in
the cutthroat auction each raises while his hand's rough worth covers the bid,
and the bidder names the suit of his best meld and length.  Some
choices are made by rule rather than searched: a claim (knock) exactly when it
is correct, which the public score decides; three-handed dix and melds always
shown in full (they can only score); in the cutthroat auction, by default
(``auction="estimate"``), the baseline bot's estimate of the hand decides the
bid, while ``auction="search"`` searches a pass against the next step up.  In
the two-handed game that follows a three-handed retirement, a player's result
is his score less his one opponent's.  A view no state fits (one that
:func:`binocle.observe` did not give) is refused with
:class:`~binocle.errors.InvalidArgumentError`, as :func:`binocle.determinize`
refuses it.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Literal

from binocle.actions import Action, Kind, claim
from binocle.bots import BaselineBot
from binocle.cards import Suit
from binocle.core import GameState, Phase, View
from binocle.determinize import Determinizer
from binocle.errors import BinocleError, InvalidArgumentError, excerpt
from binocle.game import apply, legal_actions, winner
from binocle.rules.tricks import _trick_winner
from binocle.solve._position import Solution, read_position, solve

__all__ = ["DoubleDummyBot", "ISMCTSBot", "PIMCBot"]

#: Default iterations per move where the profile has no default of its own
#: (``PROFILE_ITERATIONS``).
DEFAULT_ITERATIONS = 150
#: Default iterations per move by profile name.  A three-handed move is cheap to
#: search (the cards are all dealt and many plays are forced), so it searches
#: sixteen times as long, still about a third of a second a move on one core,
#: and wins more hands against random players by it (docs: Bots).
PROFILE_ITERATIONS: dict[str, int] = {"three-handed": 2400}
#: Default exploration constant of UCB1 (results are scaled to about [-1, 1]).
DEFAULT_EXPLORATION = 0.7
#: Determinizations drawn per move; the iterations cycle through them.
DEFAULT_SAMPLES = 30
#: The exact classic endgame's search budget a move (nodes): past it, the bot
#: searches as it does elsewhere (the first moves after the stock may need more
#: in pure Python; the compiled build searches this many in about a second or less).
ENDGAME_NODES = 100_000


def _check_settings(iterations: Any, time_limit: Any, exploration: Any, samples: Any) -> None:
    if iterations is None or (isinstance(iterations, str) and iterations == "default"):
        pass
    elif isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise InvalidArgumentError(
            f"iterations is a whole number from 1, 'default' or None, not {iterations!r}"
        )
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not time_limit > 0
    ):
        raise InvalidArgumentError(
            f"time_limit is a positive number of seconds, not {time_limit!r}"
        )
    if (
        isinstance(exploration, bool)
        or not isinstance(exploration, (int, float))
        or exploration < 0
    ):
        raise InvalidArgumentError(f"exploration is a number from 0, not {excerpt(exploration)}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise InvalidArgumentError(f"samples is a whole number from 1, not {excerpt(samples)}")


def _scale(view: View) -> float:
    """Points that make a result of 1: about a good hand's worth in the profile (500
    where there is bidding, else 250)."""
    min_bid = getattr(view.profile, "min_bid", None)
    return 500.0 if isinstance(min_bid, int) else 250.0


def candidates(legal: tuple[Action, ...], phase: Phase) -> tuple[Action, ...]:
    """The actions the search considers among ``legal`` (see the module).

    Claims are left to the rule; a bid is only the next step up; three-handed
    dix and melds are shown in full.
    """
    out: list[Action] = []
    bid_seen = False
    for a in legal:
        k = a.kind
        if k is Kind.CLAIM or k is Kind.CLAIM_OVERLOOKED or k is Kind.BUNCH:
            continue
        if k is Kind.BID:
            if bid_seen:
                continue
            bid_seen = True
        out.append(a)
    if phase is Phase.DIX and len(out) > 1:
        out = [max(out, key=lambda a: 0 if a.kind is Kind.PASS else (a.number or 1))]
    elif phase is Phase.MELD and any(a.kind is Kind.MELD and a.name is None for a in out):
        out = [a for a in out if a.kind is Kind.MELD and a.name is None]
    if not out:
        out = [a for a in legal if a.kind is not Kind.CLAIM] or list(legal)
    return tuple(out)


def _claim_wins(state: GameState, seat: int) -> bool:
    """Whether ``seat``'s knock now would be correct (decided by public scores alone)."""
    try:
        after = apply(state, claim(seat))
    except BinocleError:
        return False
    return winner(after) == seat


class _Node:
    __slots__ = ("actor", "avail", "children", "total", "visits")

    def __init__(self, actor: int | None) -> None:
        self.actor = actor
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class _SearchBase:
    """What the search bots share: settings, determinizations, playouts, knocks."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | Literal["default"] | None = "default",
        time_limit: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        samples: int = DEFAULT_SAMPLES,
        auction: str = "estimate",
        endgame: bool = True,
    ) -> None:
        _check_settings(iterations, time_limit, exploration, samples)
        if not isinstance(endgame, bool):
            raise InvalidArgumentError(f"endgame is True or False, not {excerpt(endgame)}")
        self.endgame = endgame
        if auction not in ("estimate", "search"):
            raise InvalidArgumentError(f"auction is 'estimate' or 'search', not {excerpt(auction)}")
        self.auction = auction
        if iterations is None and time_limit is None:
            raise InvalidArgumentError("give iterations, a time_limit, or both")
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = float(exploration)
        self.samples = samples

    def budget(self, view: View) -> int | None:
        """The iterations a move of ``view``'s game gets: ``iterations`` as given, or the
        profile's default (``PROFILE_ITERATIONS``, else ``DEFAULT_ITERATIONS``);
        None for a time limit alone."""
        if self.iterations == "default":
            return PROFILE_ITERATIONS.get(view.profile.name, DEFAULT_ITERATIONS)
        return self.iterations

    def knock(self, view: View) -> bool:
        """Knock (out of turn too) exactly when the claim is correct."""
        totals = view.get("claim_totals")
        targets = view.get("targets")
        if not totals or not targets:
            return False
        return bool(totals[view.seat] >= targets[view.seat])

    def _ruled(self, view: View) -> Action | None:
        """The choice made by rule, without search, or None."""
        legal = view.legal_actions
        if not legal:
            raise InvalidArgumentError("the view's seat has no action to choose (not its turn)")
        if len(legal) == 1:
            return legal[0]
        if any(a.kind is Kind.CLAIM for a in legal) and self.knock(view):
            return next(a for a in legal if a.kind is Kind.CLAIM and a.number is None)
        if view.phase is Phase.BIDDING and self.auction == "estimate":
            return BaselineBot(0).choose(view)
        cands = candidates(legal, view.phase)
        if len(cands) == 1:
            return cands[0]
        if self.endgame and view.phase is Phase.PLAY and view.get("stock_size", 1) == 0:
            return _exact_endgame(view, legal)
        return None

    def _worlds(self, view: View, rng: random.Random, n: int) -> list[GameState]:
        """``n`` states sampled from ``view`` (:func:`binocle.determinize`)."""
        det = Determinizer(view)
        start = det.hand_start(rng)
        return [det.sample(rng, start) for _ in range(n)]

    def _playout(self, s: GameState, hand: int, rng: random.Random) -> GameState:
        """Random play to the end of the hand (calm actions only: no claim, no concession)."""
        while s.current_player is not None and len(s.results) == hand:
            legal = legal_actions(s)
            if s.phase is Phase.BIDDING:
                a = _rollout_call(s, legal, rng)
            elif s.phase is Phase.TRUMP:
                a = _rollout_trump(s, legal)
            elif s.phase is Phase.PLAY and s.trick and rng.random() < 0.75:
                a = _rollout_follow(s, legal)
            else:
                calm = [
                    a
                    for a in legal
                    if a.kind is not Kind.CLAIM
                    and a.kind is not Kind.CONCEDE
                    and a.kind is not Kind.BUNCH
                    and a.kind is not Kind.CLAIM_OVERLOOKED
                ]
                a = rng.choice(calm or legal)
            s = apply(s, a)
        return s

    def _rewards(self, s: GameState, hand: int, n: int, scale: float) -> list[float]:
        if len(s.results) <= hand:
            return [0.0] * n
        delta = s.results[hand].delta
        sub: GameState | None = getattr(s, "sub", None)
        if sub is not None and hand >= len(s.results) - len(sub.results):
            # The two-handed game after a three-handed retirement: the two players alone.
            a, b = s.pair  # type: ignore[attr-defined]
            out = [0.0] * n
            out[a] = (delta[a] - delta[b]) / scale
            out[b] = -out[a]
            return out
        total = sum(delta)
        return [(d - (total - d) / (n - 1)) / scale for d in delta]


def _rollout_call(s: GameState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Playout bidding: raise by one step while the hand's rough worth covers it."""
    p = s.current_player
    assert p is not None
    bid = next((a for a in legal if a.kind is Kind.BID), None)
    if bid is None:
        return legal[0]
    hand = s.hands[p]
    prof = s.profile
    worth = max(prof.meld(hand, t).total for t in Suit)
    worth += 15 * sum(1 for c in hand if c & 7 == 0) + 70
    if (bid.number or 0) <= worth + rng.randrange(-20, 21):
        return bid
    return next((a for a in legal if a.kind is Kind.PASS), legal[0])


def _rollout_follow(s: GameState, legal: tuple[Action, ...]) -> Action:
    """Playout play to a trick: the cheapest card that wins it, else the cheapest card."""
    played = [c for _, c in s.trick]
    trump = s.trump
    best: Action | None = None
    low: Action | None = None
    for a in legal:
        c = a.card
        if a.kind is not Kind.PLAY or c is None:
            continue
        if low is None or (c & 7, c >> 3 != trump) > (
            (low.card or 0) & 7,
            (low.card or 0) >> 3 != trump,
        ):
            low = a
        if _trick_winner([*played, c], trump) == len(played) and (
            best is None or c & 7 > (best.card or 0) & 7
        ):
            best = a
    return best or low or legal[0]


def _rollout_trump(s: GameState, legal: tuple[Action, ...]) -> Action:
    """Playout trump: the suit with the best meld plus length."""
    p = s.current_player
    assert p is not None
    hand = s.hands[p]
    prof = s.profile

    def value(a: Action) -> int:
        t = a.suit
        assert t is not None
        return prof.meld(hand, t).total + 10 * sum(1 for c in hand if c >> 3 == t)

    return max(legal, key=value)


class ISMCTSBot(_SearchBase):
    """Information-set MCTS (single observer), as the module describes.

    ``iterations`` per move and/or ``time_limit`` in seconds per move (the
    search stops at whichever comes first).  By default (``"default"``) the
    iterations are the profile's: 2400 a move in the three-handed game, 150 in
    the others (``PROFILE_ITERATIONS``; ``budget(view)`` tells); None leaves the
    time limit alone.  ``exploration``: the UCB1 constant (default 0.7,
    results scaled to about [-1, 1]); ``samples``:
    determinizations drawn per move, cycled by the iterations (default 30);
    ``seed``: the same seed and views give the same choices.  With a time
    limit the number of iterations depends on the machine, so choices are
    reproducible only with ``iterations`` alone.

    >>> from binocle.bots import ISMCTSBot, play_game, RandomBot
    >>> s = play_game("classic(max_hands=1)", [ISMCTSBot(1, iterations=20), RandomBot(2)], seed=3)
    >>> len(s.results)
    1
    """

    def choose(self, view: View) -> Action:
        ruled = self._ruled(view)
        if ruled is not None:
            return ruled
        rng = random.Random(self.rng.randrange(2**62))
        me = view.seat
        n = len(view.hand_sizes)
        hand = len(view.results)
        scale = _scale(view)
        worlds = self._worlds(view, rng, self.samples)
        root = _Node(None)
        c = self.exploration
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        budget = self.budget(view)
        it = 0
        while True:
            if budget is not None and it >= budget:
                break
            if deadline is not None and it > 0 and time.perf_counter() >= deadline:
                break
            s = worlds[it % len(worlds)]
            it += 1
            node = root
            path: list[_Node] = [root]
            # Selection and expansion.
            while s.current_player is not None and len(s.results) == hand:
                p = s.current_player
                legal = legal_actions(s) if p != me or node is not root else view.legal_actions
                acts = candidates(legal, s.phase)
                untried = [a for a in acts if a not in node.children]
                if untried:
                    a = rng.choice(untried)
                    child = _Node(p)
                    node.children[a] = child
                    for b in acts:
                        ch = node.children.get(b)
                        if ch is not None:
                            ch.avail += 1
                    s = apply(s, a)
                    path.append(child)
                    break
                best = None
                best_score = -math.inf
                for b in acts:
                    ch = node.children[b]
                    ch.avail += 1
                    score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if score > best_score:
                        best, best_score = b, score
                assert best is not None
                node = node.children[best]
                s = apply(s, best)
                path.append(node)
            s = self._playout(s, hand, rng)
            rewards = self._rewards(s, hand, n, scale)
            for nd in path:
                nd.visits += 1
                if nd.actor is not None:
                    nd.total += rewards[nd.actor]
        legal = view.legal_actions
        best_action = max(
            (a for a in candidates(legal, view.phase) if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].total),
        )
        return best_action


class PIMCBot(_SearchBase):
    """Perfect-information Monte Carlo: ``samples`` determinizations (default 30),
    each candidate action scored by random playouts in each, about ``iterations``
    playouts in all (by default the profile's, as for :class:`ISMCTSBot`); the
    best mean wins."""

    def choose(self, view: View) -> Action:
        ruled = self._ruled(view)
        if ruled is not None:
            return ruled
        rng = random.Random(self.rng.randrange(2**62))
        me = view.seat
        n = len(view.hand_sizes)
        hand = len(view.results)
        scale = _scale(view)
        acts = candidates(view.legal_actions, view.phase)
        budget = self.budget(view) or 10**9
        worlds = self._worlds(view, rng, min(self.samples, max(1, budget // len(acts))))
        totals = dict.fromkeys(acts, 0.0)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while done < budget:
            for a in acts:
                s = self._playout(apply(worlds[done % len(worlds)], a), hand, rng)
                totals[a] += self._rewards(s, hand, n, scale)[me]
            done += len(acts)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return max(acts, key=lambda a: totals[a])


def _play_of(legal: tuple[Action, ...], card: object) -> Action:
    """The play action of ``card`` among ``legal``."""
    return next(a for a in legal if a.kind is Kind.PLAY and a.card == card)


def _exact_endgame(view: View, legal: tuple[Action, ...]) -> Action | None:
    """The best card where the view shows every card (the classic game once the stock
    is exhausted: the other hand is the cards not seen), else None."""
    world = Determinizer(view).sample(random.Random(0))
    try:
        read_position(world, view.seat)
    except BinocleError:
        return None
    if not _every_card_known(view, world):
        return None
    answer = solve(world, view.seat, cards=False, nodes=ENDGAME_NODES)
    if not answer.exact or answer.best is None:
        return None  # too long a search: the bot's own search decides
    return _play_of(legal, answer.best)


def _every_card_known(view: View, world: GameState) -> bool:
    """Whether the hidden cards of the view's world are forced: two seats, the other's
    cards the only ones unseen (no stock, no turn-up left)."""
    return (
        len(view.hand_sizes) == 2
        and not getattr(world, "stock", True)
        and (getattr(world, "turn_up", True) is None)
    )


class DoubleDummyBot(PIMCBot):
    """Double-dummy perfect-information Monte Carlo: in the play of a hand, ``samples``
    states drawn from the view (default 10, :func:`binocle.determinize`), each solved
    exactly with every card known (:func:`binocle.solve.solve`, for the bot's side:
    a cutthroat bidder alone, a defender with the other defender, a
    three-handed player against the other two); the card with the best mean value
    is played.  ``nodes``: the search budget per sample (default 5000 nodes; past it a
    sample counts the cards it solved in full; when no card was solved in every
    sample that solved any, the move is chosen by :class:`PIMCBot`'s playouts).  ``time_limit`` bounds a move's
    samples in seconds.  Outside the play (bidding, melds, announcements), and in the
    classic game while the stock lasts, the bot chooses as :class:`PIMCBot` does.

    >>> from binocle.bots import make_bot
    >>> bot = make_bot("ddpimc", 1, samples=4)
    >>> bot.samples, bot.nodes
    (4, 5000)
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = 10,
        nodes: int = 5000,
        iterations: int | Literal["default"] | None = "default",
        time_limit: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        auction: str = "estimate",
        endgame: bool = True,
    ) -> None:
        super().__init__(
            seed,
            iterations=iterations,
            time_limit=time_limit,
            exploration=exploration,
            samples=samples,
            auction=auction,
            endgame=endgame,
        )
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
            raise InvalidArgumentError(f"nodes is a whole number from 1, not {excerpt(nodes)}")
        self.nodes = nodes

    def choose(self, view: View) -> Action:
        ruled = self._ruled(view)
        if ruled is not None:
            return ruled
        legal = view.legal_actions
        if view.phase is not Phase.PLAY or not any(a.kind is Kind.PLAY for a in legal):
            return PIMCBot.choose(self, view)
        rng = random.Random(self.rng.randrange(2**62))
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        totals: dict[object, float] = {}
        counts: dict[object, int] = {}
        for world in self._worlds(view, rng, self.samples):
            try:
                answer: Solution = solve(world, view.seat, nodes=self.nodes)
            except BinocleError:
                return PIMCBot.choose(self, view)
            for card, value in answer.cards:
                totals[card] = totals.get(card, 0.0) + value
                counts[card] = counts.get(card, 0) + 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if not totals:
            return PIMCBot.choose(self, view)
        most = max(counts.values())
        # Cards solved in every sample that reached them, by their mean value.
        best = max((c for c in totals if counts[c] == most), key=lambda c: totals[c] / counts[c])
        return _play_of(legal, best)
