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

import random
from collections.abc import Callable

from binocle.actions import Action, Kind, claim, deal
from binocle.core import HIDDEN_DEAL, GameState, HandResult, Phase, View
from binocle.determinize._proposal import REPAIR_STEPS as REPAIR_STEPS
from binocle.determinize._proposal import _Model
from binocle.errors import BinocleError, InvalidArgumentError
from binocle.game import apply, observe, start
from binocle.notation import set_sampler

__all__ = ["Determinizer", "determinize"]

#: Proposals tried for one hand before the view is declared impossible.
MAX_ATTEMPTS = 2000
#: Proposals tried by exact rejection before proposals are mended (see the module).
EXACT_ATTEMPTS = 200


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
            m = _Model(self.view, s, self.hands[i], i, current, up_dix)
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
            two(view.scores), results, (), view.log, view.get("two_handed", ()), (),
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


set_sampler(determinize)
