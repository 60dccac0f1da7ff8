"""Determinization: a full state sampled among those consistent with a view (layer 4).

:func:`determinize` answers "what could the others hold?": given what one seat
may know (:func:`binocle.observe`) and a random generator, it returns a
complete :class:`~binocle.core.GameState` that agrees with everything that seat
knows and that the rules reveal, chosen at random among such states.  It is
the basis of search bots (:class:`binocle.bots.ISMCTSBot`) and of queries such
as "how often does the bidder hold the other Ace of trumps?".

What the sampled state keeps (its ``observe(state, seat)`` equals the view):

- the seat's own cards, every card played and who played it, the widow once
  shown, the turn-up, dix shown, melds shown (cards that went back into a hand
  stay with that player), the stock's size, the seat's own discards and draws;
- what the rules reveal: a player who did not follow suit holds none of it; a
  player who did not beat, trump or overtrump when the trick rule made him
  holds no card that could have (cutthroat, three-handed, and the classic
  game once the stock is exhausted); a cutthroat bidder's discards are known
  only to him.

The sampled state is a real game: its history (every earlier hand included,
each with a deal consistent with what was seen of it) replays under the rules,
and :func:`binocle.dumps` / :func:`binocle.loads` accept it.

**The distribution.**  The hidden cards' present whereabouts (each other
seat's hidden cards, the bidder's face-down discards, the widow before it is
shown, the stock and its order) are drawn uniformly among all placements
consistent with the view, counting the two copies of a card as two cards, as a
shuffle does.  The sampler proposes placements uniformly among those that
respect card counts, voids, cards known to be held and cards shown, and keeps
a proposal only if the whole history replays to exactly the view; rejection
from a uniform proposal keeps the result uniform.  In the cutthroat and
three-handed games this is the uniform distribution over consistent deals.
One exception: a cutthroat meld shown is the whole meld of its hand, and
where the melds shown pin the hidden hands so tightly that 200 uniform
proposals all fail, the sampler mends proposals by exchanging hidden cards
until every meld fits (a hill climb): the sample is then consistent but no
longer exactly uniform.

After a wrong claim in the three-handed game, the two players left go on with
the classic game (see three-handed rules, The two-handed game after a retirement).
The three-handed hands are then sampled as earlier hands, and the two-handed
game as the classic game is, seen from the seat's place in it.  The retired
player takes no part in it and knows none of its cards: his view of it is
refused (:class:`~binocle.errors.InvalidArgumentError`).

In the classic game, which cards the opponent drew from the stock *and has
since played* is filled in by one fixed rule (earliest draw first); this
never changes what he holds or what the stock holds, but deals are then not
weighted by how many past orders of the stock lead to the same present.  The
hidden cards of earlier hands (which no longer bear on the play) are filled
in the same way, from what anyone saw of them.  No inference is drawn from a
player's choices (a bid, a lead): only from the rules.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from binocle.actions import Action, Kind, claim, deal, discard
from binocle.cards import CARDS, Card, Suit, pack
from binocle.core import HIDDEN_DEAL, GameState, HandResult, Phase, View
from binocle.errors import BinocleError, InvalidArgumentError
from binocle.game import apply, observe, start
from binocle.notation import set_sampler
from binocle.rules.tricks import Obligation, _allowed_cards

__all__ = ["Determinizer", "determinize"]

#: Proposals tried for one hand before the view is declared impossible.
MAX_ATTEMPTS = 2000
#: Proposals tried by exact rejection before proposals are mended (see the module).
EXACT_ATTEMPTS = 200
#: Exchanges tried to mend one proposal.
REPAIR_STEPS = 2000


def determinize(view: View, rng: random.Random | int | None = None) -> GameState:
    """A complete state consistent with ``view``, sampled at random (see the module).

    ``rng`` is a :class:`random.Random` or an int seed (None: a fresh seed);
    the same view and seed give the same state.

    >>> import binocle
    >>> s = binocle.new_game("cutthroat", seed=7)
    >>> v = binocle.observe(s, 0)
    >>> t = binocle.determinize(v, 1)
    >>> binocle.observe(t, 0) == v, t.hands[0] == s.hands[0]
    (True, True)
    """
    return Determinizer(view).sample(_as_rng(rng))


def _as_rng(rng: random.Random | int | None) -> random.Random:
    if rng is None:
        return random.Random()
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return random.Random(rng)
    raise InvalidArgumentError(f"rng is a random.Random or an int seed, not {type(rng).__name__}")


class Determinizer:
    """The work of :func:`determinize` for one view, kept for many samples.

    Building it reads the view once; :meth:`sample` then draws states.  A
    search that samples the same view many times builds one and may pass the
    state at the start of the current hand (:meth:`hand_start`) to
    :meth:`sample` to skip re-sampling earlier hands.
    """

    def __init__(self, view: View) -> None:
        if not isinstance(view, View):
            raise InvalidArgumentError(f"not a view: {type(view).__name__}")
        self.view = view
        self.profile = view.profile
        hands: list[list[tuple[Action, int | None]]] = []
        for action, actor in view.history:
            if action.kind is Kind.DEAL:
                hands.append([])
            elif not hands:
                raise InvalidArgumentError("the view's history does not begin with a deal")
            else:
                hands[-1].append((action, actor))
        #: The two-handed game after a three-handed retirement, sampled by a
        #: determinizer of its own (None outside it).
        self.two_handed: _TwoHanded | None = None
        if (
            view.profile.name == "three-handed"
            and view.get("two_handed") is not None
            and view.get("pair") is not None
        ):
            self.two_handed = _TwoHanded(view, hands)
            hands = hands[: self.two_handed.kept]
        self.hands = hands
        self.current = (
            self.two_handed is None and bool(hands) and view.phase not in (Phase.DEAL, Phase.OVER)
        )
        if self.current and not view.deck:
            raise InvalidArgumentError(
                "the view shows a hand in progress but nothing of its deal (view.deck):"
                " is it a view that observe() gave?"
            )
        self.first_dealer = view.results[0].dealer if view.results else view.dealer
        self._models: dict[tuple[int, bool], _Model] = {}

    def hand_start(self, rng: random.Random) -> GameState:
        """A state at the start of the current hand (earlier hands sampled), or the
        whole sampled game when the view is between hands."""
        s = start(self.profile, seed=rng.randrange(2**31), dealer=self.first_dealer)
        for i in range(len(self.hands) - (1 if self.current else 0)):
            s = self._sample_hand(s, i, rng)
        if self.two_handed is not None:
            s = self.two_handed.hand_start(s, rng)
        return s

    def sample(self, rng: random.Random, start_state: GameState | None = None) -> GameState:
        """A state consistent with the view; ``start_state`` from :meth:`hand_start`."""
        s = self.hand_start(rng) if start_state is None else start_state
        if self.two_handed is not None and self.two_handed.inner.current:
            return self.two_handed.sample(s, rng)
        if not self.current:
            if observe(s, self.view.seat) != self.view:
                raise InvalidArgumentError("the view is not consistent with its own history")
            return s
        return self._sample_hand(s, len(self.hands) - 1, rng)

    # -- one hand ----------------------------------------------------------------------

    def _model(self, s: GameState, i: int, up_dix: bool = False) -> _Model:
        m = self._models.get((i, up_dix))
        if m is None:
            current = self.current and i == len(self.hands) - 1
            m = _Model(self, s, self.hands[i], i, current, up_dix)
            self._models[i, up_dix] = m
        return m

    def _sample_hand(
        self,
        s: GameState,
        i: int,
        rng: random.Random,
        accept: Callable[[GameState], GameState | None] | None = None,
    ) -> GameState:
        """Hand ``i`` sampled from ``s``, its start.  The current hand is kept when
        the seat's view of it is the view (or ``accept`` gives the state to keep)."""
        view = self.view
        if accept is None:

            def accept(t: GameState) -> GameState | None:
                return t if observe(t, view.seat) == view else None

        current = self.current and i == len(self.hands) - 1
        # An earlier hand's turn-up is unknown but for its suit: it was the dix card
        # or not, which changes what followed; each guess gets its turn.
        models = [self._model(s, i)] if current else [self._model(s, i), self._model(s, i, True)]
        for attempt in range(MAX_ATTEMPTS):
            model = models[attempt % len(models)]
            if model.bad:
                if all(m.bad for m in models):
                    model.propose(rng)  # raises: no deal fits
                continue
            planned = model.propose(rng, repair=attempt >= EXACT_ATTEMPTS)
            if planned is None:
                continue
            deck, actions = planned
            try:
                t = apply(s, deal(deck))
                for a in actions:
                    t = apply(t, a)
            except BinocleError:
                continue
            if model.current:
                kept = accept(t)
                if kept is not None:
                    return kept
            elif t.results == view.results[: len(t.results)] and len(t.results) > len(s.results):
                return t
        raise InvalidArgumentError(
            f"no deal found consistent with the view for hand {i + 1}"
            f" after {MAX_ATTEMPTS} attempts: is the view one that observe() gave?"
        )


class _TwoHanded:
    """The two-handed game that follows a wrong claim in the three-handed game.

    It runs inside the three-handed state (``sub``, its seats ``pair``); the view
    of a player in it is the three-handed view with the two-handed game's public
    facts (``two_handed``) and deal (``deck``).  Its hands are sampled by a
    :class:`Determinizer` of the two-handed view (seats renumbered as ``pair``
    has them), from the two-handed game the sampled three-handed hands lead to,
    and replayed into the three-handed state.
    """

    def __init__(self, view: View, hands: list[list[tuple[Action, int | None]]]) -> None:
        wrong_seats = "the view's two-handed game is not one that observe() gave (its seats)"
        pair = view.get("pair")
        if (
            not isinstance(pair, tuple)
            or len(pair) != 2
            or not all(isinstance(i, int) and 0 <= i < 3 for i in pair)
            or view.dealer not in pair
            or view.current_player not in (None, *pair)
            or any(i not in pair for i, _ in view.trick)
        ):
            raise InvalidArgumentError(wrong_seats)
        if view.seat not in pair:
            raise InvalidArgumentError(
                f"seat {view.seat} retired: determinize covers the two-handed game that"
                " follows only from the view of one of its two players"
            )
        retired = [i for i, r in enumerate(view.results) if r.outcome == "retired"]
        if not retired:
            raise InvalidArgumentError("the view shows a two-handed game but no retirement")
        self.kept = retired[0] + 1
        self.outer = view
        self.pair = pair
        at = pair.index
        history: list[tuple[Action, int | None]] = []

        def two(values: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(values[i] for i in pair)

        try:
            for entries in hands[self.kept :]:
                history.append((HIDDEN_DEAL, None))
                for a, actor in entries:
                    if a.kind is Kind.CLAIM and a.number is not None:
                        a = claim(at(a.number))
                    history.append((a, None if actor is None else at(actor)))
            results = tuple(
                HandResult(
                    at(r.dealer), r.trump, two(r.meld), two(r.tricks), two(r.delta),
                    outcome=r.outcome, game_end=r.game_end,
                )
                for r in view.results[self.kept :]
            )  # fmt: skip
        except (ValueError, IndexError, TypeError) as e:
            raise InvalidArgumentError(wrong_seats) from e
        current = view.current_player
        inner_view = View(
            view.profile.classic,  # type: ignore[attr-defined]
            at(view.seat), view.phase, at(view.dealer),
            None if current is None else at(current), view.trump, view.hand,
            two(view.hand_sizes), tuple((at(i), c) for i, c in view.trick),
            two(view.scores), results, (), view.log, view.get("two_handed"), (),
            tuple(history), view.deck,
        )  # fmt: skip
        self.inner = Determinizer(inner_view)

    def _replay(self, s: GameState, sub: GameState) -> GameState:
        """``s`` (three-handed) with the actions ``sub`` took after ``s.sub``."""
        pair = self.pair
        done = len(s.sub.moves())  # type: ignore[attr-defined]
        for a, _ in sub.moves()[done:]:
            if a.kind is Kind.CLAIM and a.number is not None:
                a = claim(pair[a.number])
            s = apply(s, a)
        return s

    def hand_start(self, s: GameState, rng: random.Random) -> GameState:
        """``s``, the three-handed game sampled to the retirement, with the
        two-handed game's earlier hands sampled."""
        if getattr(s, "sub", None) is None:
            raise InvalidArgumentError("the view's three-handed hands lead to no two-handed game")
        inner = self.inner
        sub: GameState = s.sub  # type: ignore[attr-defined]
        for i in range(len(inner.hands) - (1 if inner.current else 0)):
            sub = inner._sample_hand(sub, i, rng)
        return self._replay(s, sub)

    def sample(self, s: GameState, rng: random.Random) -> GameState:
        """The current two-handed hand sampled from ``s`` (from :meth:`hand_start`)."""
        outer = self.outer

        def accept(sub: GameState) -> GameState | None:
            try:
                t = self._replay(s, sub)
            except BinocleError:
                return None
            return t if observe(t, outer.seat) == outer else None

        inner = self.inner
        return inner._sample_hand(s.sub, len(inner.hands) - 1, rng, accept)  # type: ignore[attr-defined]


_CACHE: dict[tuple[Card, tuple[int, ...], int | None, Obligation], frozenset[int]] = {}


def _forbidden(
    card: Card, played: tuple[int, ...], trump: int | None, rule: Obligation
) -> frozenset[int]:
    """The cards whose presence in a hand would have made playing ``card`` illegal."""
    key = (card, played, trump, rule)
    got = _CACHE.get(key)
    if got is None:
        out = set()
        for x in range(32):
            if x == card:
                continue
            hand = tuple(sorted((card, x)))
            if card not in _allowed_cards(hand, played, trump, rule):
                out.add(x)
        got = frozenset(out)
        if len(_CACHE) < 50000:
            _CACHE[key] = got
    return got


class _Model:
    """Where the hidden cards of one hand may be: positions, seats, piles, constraints."""

    def __init__(
        self,
        det: Determinizer,
        s: GameState,
        entries: list[tuple[Action, int | None]],
        index: int,
        current: bool,
        up_dix: bool = False,
    ) -> None:
        view = det.view
        p = det.profile
        self.current = current
        self.entries = entries
        n_seats = p.players
        size = p.pack_size
        self.size = size
        known: tuple[Card | None, ...] = view.deck if current else (None,) * size
        self.known = known
        self.observer: int | None = view.seat if current else None
        dealer = s.dealer
        if current:
            trump: int | None = None if view.trump is None else int(view.trump)
        else:
            r = view.results[len(s.results)] if len(s.results) < len(view.results) else None
            trump = None if r is None or r.trump is None else int(r.trump)
        self.trump = trump
        self.kh: list[Counter[Card]] = [Counter() for _ in range(n_seats)]
        self.queue: list[deque[int]] = [deque() for _ in range(n_seats)]
        self.hidden: list[list[int]] = [[] for _ in range(n_seats)]
        self.required: list[Counter[Card]] = [Counter() for _ in range(n_seats)]
        self.forbid: list[set[int]] = [set() for _ in range(n_seats)]
        self.assigned: dict[int, Card] = {}
        self.suit_at: dict[int, tuple[int, int]] = {}
        self.up_dix = up_dix
        self.piles: dict[str, list[int]] = {}
        self.bad = False
        self.played_by: list[list[Card]] = [[] for _ in range(n_seats)]
        self.meld_targets: dict[int, Any] = {}
        self.meld_of = p.meld
        positions: dict[int | str, list[int]] = {}
        pos = 0
        for target, n in p.deal_schedule(dealer):
            positions.setdefault(target, []).extend(range(pos, pos + n))
            pos += n
        for seat in range(n_seats):
            for q in positions.get(seat, ()):
                self._acquire_pos(seat, q)
        name = p.name
        if name == "cutthroat":
            self._cutthroat(p, s, positions, view)
        elif name == "classic":
            self._classic(p, s, positions)
        elif name == "three-handed":
            self._three_handed(p, s, positions, view)
        else:  # pragma: no cover - every registered profile is handled above
            raise InvalidArgumentError(f"determinize does not know the profile {name!r}")
        self._finish(n_seats)

    # -- the ledger -------------------------------------------------------------------

    def _acquire_pos(self, seat: int, q: int) -> None:
        c = self.known[q]
        if c is not None:
            self.kh[seat][c] += 1
        else:
            self.queue[seat].append(q)

    def _use(self, seat: int, c: Card) -> None:
        req = self.required[seat]
        if req[c] > 0:
            req[c] -= 1
        if self.kh[seat][c] > 0:
            self.kh[seat][c] -= 1
            return
        queue = self.queue[seat]
        # A position that must hold a card of one suit (a turn-up) takes the first
        # such card used; the others take the cards in the order they were used.
        for k, q in enumerate(queue):
            if q in self.suit_at and self._fits(q, c):
                del queue[k]
                self.assigned[q] = c
                return
        for k, q in enumerate(queue):
            if q not in self.suit_at:
                del queue[k]
                self.assigned[q] = c
                return
        self.bad = True

    def _fits(self, q: int, c: Card) -> bool:
        """Whether ``c`` may lie at the turn-up position ``q``: of the trump suit, and
        the dix card exactly when this model says the turn-up was one."""
        suit, dix_card = self.suit_at[q]
        return bool(c >> 3 == suit and (c == dix_card) == self.up_dix)

    def _hold(self, seat: int, c: Card, n: int = 1) -> None:
        req = self.required[seat]
        if req[c] < n:
            req[c] = n

    def _no_card(self, seat: int, c: Card, played: Sequence[int], rule: Obligation) -> None:
        if played:
            self.forbid[seat].update(_forbidden(c, tuple(played), self.trump, rule))

    # -- the profiles -----------------------------------------------------------------

    def _cutthroat(
        self, p: Any, s: GameState, positions: dict[int | str, list[int]], view: View
    ) -> None:
        rule = p.obligation
        passed = [False, False, False]
        bidder: int | None = None
        widow = positions.get("widow", [])
        widow_out = True
        trick: list[int] = []
        melded = False
        for idx, (a, actor) in enumerate(self.entries):
            k = a.kind
            if k is Kind.PASS or k is Kind.BID:
                if actor is None:
                    continue
                if k is Kind.PASS:
                    passed[actor] = True
                else:
                    bidder = actor
                if sum(passed) == 2 and bidder is not None and widow_out:
                    for q in widow:
                        self._acquire_pos(bidder, q)
                    widow_out = False
            elif k is Kind.DISCARD and actor is not None:
                if a.card is None:
                    self.hidden[actor].append(idx)
                else:
                    self._use(actor, a.card)
            elif k is Kind.PLAY and actor is not None and a.card is not None:
                if not melded:
                    self._shown_melds(view)
                    melded = True
                self._no_card(actor, a.card, trick, rule)
                self._use(actor, a.card)
                self.played_by[actor].append(a.card)
                trick.append(a.card)
                if len(trick) == 3:
                    trick = []
        if not melded:
            self._shown_melds(view)
        if widow_out and widow:
            self.piles["widow"] = [q for q in widow if self.known[q] is None]
        if self.current and self.trump is not None:
            # Cutthroat rules, Melds: each meld shown is the whole meld of its hand.
            for seat, m in enumerate(view.get("melds") or ()):
                if m is not None and seat != self.observer:
                    self.meld_targets[seat] = m
        elif not self.current and self.trump is not None and len(s.results) < len(view.results):
            # An earlier hand: a meld scored is the total of that hand's meld.
            result = view.results[len(s.results)]
            for seat, points in enumerate(result.meld):
                if points > 0:
                    self.meld_targets[seat] = points

    def _shown_melds(self, view: View) -> None:
        """Cards shown in melds are held (three-handed and cutthroat rules, Melds): current hand."""
        if not self.current:
            return
        melds = view.get("melds") or ()
        for seat, m in enumerate(melds):
            if m is None or seat == self.observer:
                continue
            for one in m.melds:
                for c, n in Counter(one.cards).items():
                    self._hold(seat, c, n)

    def _three_handed(
        self, p: Any, s: GameState, positions: dict[int | str, list[int]], view: View
    ) -> None:
        dealer = s.dealer
        up_pos = 47
        trump = self.trump
        up_card = self.known[up_pos]
        if trump is not None and up_card is None:
            self.suit_at[up_pos] = (trump, trump * 8 + 5)
            if self.up_dix:
                up_card = CARDS[trump * 8 + 5]
        exchanged = False
        trick: list[int] = []
        active = 3
        melded = False
        rule = Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP
        entries = self.entries
        for idx, (a, actor) in enumerate(entries):
            k = a.kind
            if actor is None:
                continue
            if k is Kind.DIX and trump is not None:
                n = a.number or 1
                nine = CARDS[trump * 8 + 5]
                if actor != dealer and not exchanged and up_card != nine:
                    self._hold(actor, nine, n)
                    self._use(actor, nine)
                    # the turn-up goes to the shower, the Nine to the dealer
                    if up_card is not None:
                        self.kh[dealer][up_card] -= 1
                        self.kh[actor][up_card] += 1
                    elif up_pos in self.queue[dealer]:
                        self.queue[dealer].remove(up_pos)
                        self.queue[actor].append(up_pos)
                    self.kh[dealer][nine] += 1
                    exchanged = True
                else:
                    extra = 1 if actor == dealer and exchanged else 0
                    self._hold(actor, nine, n + extra)
            elif k is Kind.MELD and a.name is not None:
                for c, n in Counter(a.cards).items():
                    self._hold(actor, c, n)
            elif k is Kind.PLAY and a.card is not None:
                if not melded:
                    self._shown_melds(view)
                    melded = True
                self._no_card(actor, a.card, trick, rule)
                self._use(actor, a.card)
                trick.append(a.card)
                if len(trick) >= active:
                    trick = []
            elif k is Kind.CLAIM and any(b.kind is Kind.PLAY for b, _ in entries[idx + 1 :]):
                # A wrong claim: the claimant retires, his cards are dead.
                active = 2
                if len(trick) >= active:
                    trick = []
        if not melded:
            self._shown_melds(view)

    def _classic(self, p: Any, s: GameState, positions: dict[int | str, list[int]]) -> None:
        size = self.size
        up: tuple[str, Any] | None = ("pos", 24)
        dix_rank = 7 if size == 64 else 5
        if self.trump is not None and self.known[24] is None:
            self.suit_at[24] = (self.trump, self.trump * 8 + dix_rank)
        nxt = 25
        tables: list[Counter[Card]] = [Counter(), Counter()]
        strict = False
        trick: list[int] = []
        rule = Obligation.FOLLOW_WIN_TRUMP
        for a, actor in self.entries:
            k = a.kind
            if actor is None:
                continue
            if k is Kind.PLAY and a.card is not None:
                c = a.card
                if a.source == "table":
                    tables[actor][c] -= 1
                else:
                    if strict:
                        self._no_card(actor, c, trick, rule)
                    self._use(actor, c)
                trick.append(c)
                if len(trick) == 2:
                    trick = []
                continue
            if k not in (Kind.PASS, Kind.MELD, Kind.DIX):
                continue
            if k is Kind.MELD:
                for c in a.cards:
                    self._use(actor, c)
                    tables[actor][c] += 1
            elif k is Kind.DIX and self.trump is not None:
                nine = CARDS[self.trump * 8 + dix_rank]
                self._use(actor, nine)
                self._take_up(actor, up)
                up = ("card", nine)
            # the draw: the winner (who announced) first, then the other
            self._acquire_pos(actor, nxt)
            if nxt + 1 < size:
                self._acquire_pos(1 - actor, nxt + 1)
                nxt += 2
            else:
                self._take_up(1 - actor, up)
                up = None
                nxt = size
                for j in (0, 1):
                    for c, n in tables[j].items():
                        if n > 0:
                            self.kh[j][c] += n
                    tables[j] = Counter()
                strict = True
        stock = [q for q in range(nxt, size) if self.known[q] is None]
        if stock:
            self.piles["stock"] = stock
        if up is not None and up[0] == "pos" and self.known[24] is None:
            self.piles["turn-up"] = [24]

    def _take_up(self, seat: int, up: tuple[str, Any] | None) -> None:
        if up is None:
            self.bad = True
        elif up[0] == "pos":
            self._acquire_pos(seat, up[1])
        else:
            self.kh[seat][up[1]] += 1

    # -- the proposal -----------------------------------------------------------------

    def _finish(self, n_seats: int) -> None:
        """The pool of hidden cards, the locations and what each card may be."""
        pool = Counter(pack(self.size))
        for c in self.known:
            if c is not None:
                pool[c] -= 1
        for c in self.assigned.values():
            pool[c] -= 1
        seats = [j for j in range(n_seats) if j != self.observer]
        for j in seats:
            pool.update(self.kh[j])
        if any(v < 0 for v in pool.values()):
            self.bad = True
        # Locations: each seat's hidden hand, its face-down discards, the piles.
        locs: list[tuple[str, int]] = []
        caps: list[int] = []
        hand_loc: dict[int, int] = {}
        disc_loc: dict[int, int] = {}
        for j in seats:
            n = sum(self.kh[j].values()) + len(self.queue[j]) - len(self.hidden[j])
            hand_loc[j] = len(locs)
            locs.append(("hand", j))
            caps.append(n)
            if self.hidden[j]:
                disc_loc[j] = len(locs)
                locs.append(("discards", j))
                caps.append(len(self.hidden[j]))
        pile_loc: dict[str, int] = {}
        for name, qs in self.piles.items():
            pile_loc[name] = len(locs)
            locs.append(("pile", 0))
            caps.append(len(qs))
        if any(c < 0 for c in caps) or sum(caps) != sum(max(v, 0) for v in pool.values()):
            self.bad = True
        everywhere = frozenset(range(len(locs)))
        tokens: list[tuple[Card, frozenset[int]]] = []
        left = Counter({c: v for c, v in pool.items() if v > 0})
        for j in seats:
            home = {hand_loc[j]} | ({disc_loc[j]} if j in disc_loc else set())
            for c in set(self.kh[j]) | set(self.required[j]):
                req = max(self.required[j][c], 0)
                kh = max(self.kh[j][c], 0)
                for _ in range(min(req, left[c])):
                    tokens.append((c, frozenset({hand_loc[j]})))
                    left[c] -= 1
                for _ in range(min(max(kh - req, 0), left[c])):
                    tokens.append((c, frozenset(home)))
                    left[c] -= 1
                if left[c] < 0 or req + max(kh - req, 0) > pool[c]:
                    self.bad = True
        for c, v in left.items():
            tokens.extend((c, everywhere) for _ in range(max(v, 0)))
        classes: dict[frozenset[int], list[Card]] = {}
        for c, allowed in tokens:
            banned = {hand_loc[j] for j in seats if c in self.forbid[j]}
            classes.setdefault(allowed - banned, []).append(c)
        # The most constrained classes first: the last one is then forced.
        self.classes = sorted(classes.items(), key=lambda kv: (len(kv[0]), len(kv[1])))
        self.caps = tuple(caps)
        self.locs = locs
        self.hand_loc = hand_loc
        self.disc_loc = disc_loc
        self.pile_loc = pile_loc
        self.seats = seats
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        if not self.bad and self._count(0, self.caps) == 0:
            self.bad = True

    def _count(self, i: int, caps: tuple[int, ...]) -> int:
        """How many placements of the cards of classes ``i``… fill ``caps`` exactly."""
        if i == len(self.classes):
            return 1 if not any(caps) else 0
        key = (i, caps)
        got = self._ways.get(key)
        if got is not None:
            return got
        allowed, cards = self.classes[i]
        total = 0
        for split, weight in _splits(len(cards), sorted(allowed), caps):
            rest = list(caps)
            for loc, x in split:
                rest[loc] -= x
            sub = self._count(i + 1, tuple(rest))
            if sub:
                total += weight * sub
        self._ways[key] = total
        return total

    def propose(
        self, rng: random.Random, repair: bool = False
    ) -> tuple[tuple[Card, ...], list[Action]] | None:
        """A deck and the hand's actions (hidden parts filled in), or None.

        With ``repair``, a placement whose melds do not match those shown is
        mended by exchanges of hidden cards before it is used."""
        if self.bad:
            raise InvalidArgumentError(
                "the view is not consistent with any deal (its cards, voids or melds"
                " contradict each other): is it one that observe() gave?"
            )
        caps = self.caps
        placed: list[list[Card]] = [[] for _ in caps]
        allowed_of: list[list[frozenset[int]]] = [[] for _ in caps]
        for i, (allowed, cards) in enumerate(self.classes):
            options = []
            for split, weight in _splits(len(cards), sorted(allowed), caps):
                rest = list(caps)
                for loc, x in split:
                    rest[loc] -= x
                w = weight * self._count(i + 1, tuple(rest))
                if w:
                    options.append((w, split, tuple(rest)))
            pick = rng.randrange(sum(w for w, _, _ in options))
            chosen = options[-1]
            for option in options:
                if pick < option[0]:
                    chosen = option
                    break
                pick -= option[0]
            _, split, caps = chosen
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for loc, x in split:
                placed[loc].extend(shuffled[at : at + x])
                allowed_of[loc].extend([allowed] * x)
                at += x
        if self.meld_targets and repair and not self._repair(placed, allowed_of, rng):
            return None
        deck: list[Card | None] = list(self.known)
        for q, c in self.assigned.items():
            deck[q] = c
        actions = [a for a, _ in self.entries]
        for j in self.seats:
            have = Counter(placed[self.hand_loc[j]])
            gone = placed[self.disc_loc[j]] if j in self.disc_loc else []
            have.update(gone)
            have.subtract(self.kh[j])
            if any(v < 0 for v in have.values()):
                return None
            if not self._fill(deck, list(self.queue[j]), list(have.elements()), rng):
                return None
            order = list(gone)
            rng.shuffle(order)
            for idx, c in zip(self.hidden[j], order, strict=True):
                actions[idx] = discard(c)
        for name, qs in self.piles.items():
            if not self._fill(deck, qs, placed[self.pile_loc[name]], rng):
                return None
        if any(c is None for c in deck):
            return None
        return tuple(deck), actions  # type: ignore[arg-type]

    def _meld_misses(self, placed: list[list[Card]]) -> int:
        """How many seats' hands would not meld exactly what they showed."""
        trump = self.trump
        assert trump is not None
        misses = 0
        for seat, shown in self.meld_targets.items():
            hand = tuple(sorted(placed[self.hand_loc[seat]] + self.played_by[seat]))
            got = self.meld_of(hand, Suit(trump))
            if (got.total if isinstance(shown, int) else got) != shown:
                misses += 1
        return misses

    def _repair(
        self, placed: list[list[Card]], allowed_of: list[list[frozenset[int]]], rng: random.Random
    ) -> bool:
        """Exchange hidden cards between places (each card staying where it may be)
        until every seat's meld is the one it showed; False if that fails."""
        misses = self._meld_misses(placed)
        targets = [self.hand_loc[j] for j in self.meld_targets]
        others = [i for i in range(len(placed)) if placed[i]]
        for _ in range(REPAIR_STEPS):
            if misses == 0:
                return True
            a = rng.choice(targets)
            b = rng.choice(others)
            if a == b or not placed[a] or not placed[b]:
                continue
            i = rng.randrange(len(placed[a]))
            k = rng.randrange(len(placed[b]))
            if b not in allowed_of[a][i] or a not in allowed_of[b][k]:
                continue
            placed[a][i], placed[b][k] = placed[b][k], placed[a][i]
            allowed_of[a][i], allowed_of[b][k] = allowed_of[b][k], allowed_of[a][i]
            after = self._meld_misses(placed)
            if after <= misses:
                misses = after
            else:
                placed[a][i], placed[b][k] = placed[b][k], placed[a][i]
                allowed_of[a][i], allowed_of[b][k] = allowed_of[b][k], allowed_of[a][i]
        return misses == 0

    def _fill(
        self, deck: list[Card | None], qs: list[int], cards: list[Card], rng: random.Random
    ) -> bool:
        """Put ``cards`` at the positions ``qs`` in random order (a turn-up of the trump suit)."""
        if len(qs) != len(cards):
            return False
        cards = list(cards)
        rng.shuffle(cards)
        for q in qs:
            if q in self.suit_at:
                k = next((i for i, c in enumerate(cards) if self._fits(q, c)), None)
                if k is None:
                    return False
                deck[q] = cards.pop(k)
        rest = iter(cards)
        for q in qs:
            if q not in self.suit_at:
                deck[q] = next(rest)
        return True


def _splits(
    n: int, allowed: Sequence[int], caps: Sequence[int]
) -> Iterable[tuple[tuple[tuple[int, int], ...], int]]:
    """Every way to put ``n`` cards into the ``allowed`` locations within ``caps``,
    with the number of ways to choose which cards go where (n! / Π x!)."""
    if not allowed:
        if n == 0:
            yield (), 1
        return
    fact = math.factorial

    def rec(k: int, left: int) -> Iterable[tuple[tuple[int, int], ...]]:
        loc = allowed[k]
        if k == len(allowed) - 1:
            if left <= caps[loc]:
                yield ((loc, left),)
            return
        for x in range(min(left, caps[loc]) + 1):
            for rest in rec(k + 1, left - x):
                yield ((loc, x), *rest)

    for split in rec(0, n):
        w = fact(n)
        for _, x in split:
            w //= fact(x)
        yield split, w


set_sampler(determinize)
