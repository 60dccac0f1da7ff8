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
One exception: a cutthroat meld shown, and a three-handed meld announced with
``meld`` (the best declaration), is the whole meld of its hand, and where the
melds shown pin the hidden hands so tightly that 200 uniform proposals all
fail, the sampler mends proposals by exchanging hidden cards until every meld
fits (a hill climb): the sample is then consistent but no longer exactly
uniform.

After a wrong claim in the three-handed game, the two players left go on with
the classic game (see three-handed rules, The two-handed game after a retirement).
The three-handed hands are then sampled as earlier hands, and the two-handed
game as the classic game is, seen from the seat's place in it.  The retired
player takes no part in it and knows none of its hidden cards: his view of it
is sampled as a spectator's, both players' hidden cards drawn alike.

A finished game's view, and a view of the two-handed game after a retirement,
still show the public facts of the hand before (in the three-handed game its
turn-up and the melds shown): that hand is sampled so as to show them as they
were.

**Views that no game gives.**  determinize samples from views as
:func:`binocle.observe` gave them.  A view edited by hand (its profile, seat,
cards, history or results changed, with ``attrs.evolve`` for instance) so that its
parts contradict each other is refused with
:class:`~binocle.errors.InvalidArgumentError`: at once when a part is not of the
kind or size ``observe`` gives (a seat out of range, a deal of the wrong length,
a history that is not actions), or when a deal that replays its history shows
that the view's dealer, hand or deal cannot be; otherwise once a hand has had
``STRIKES`` deals that miss the view in what no hidden card decides (its phase,
scores, trick …), ``FAILURES`` deals that cannot be completed or replayed,
``REPAIR_FAILURES`` deals mended in vain, or ``MISSES`` (``CURRENT_MISSES`` for
the hand in progress, ``EXACT_ATTEMPTS`` more where whole melds are shown)
deals that replay but show otherwise than the view.  A view that ``observe`` gave needs far
fewer, so the refusal comes within about a second on one core.

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
from typing import Any, Final

from binocle.actions import Action, Kind, claim, deal
from binocle.cards import Card, Suit
from binocle.core import HIDDEN_DEAL, GameState, HandResult, Phase, Profile, View
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
#: Proposals that replay but miss the view in what no hidden card decides (its
#: phase, scores, trick, …) before the view is declared impossible.
STRIKES = 40
#: Proposals of one hand that cannot be completed or whose actions do not replay under
#: the rules before the view is declared impossible (a view that observe() gave rarely
#: sees a fifth of that).
FAILURES = 300
#: Proposals of one hand mended (see the module) in vain before the view is declared
#: impossible: a view that observe() gave needs a mended proposal or two.
REPAIR_FAILURES = 30
#: Proposals of an earlier hand that replay but end otherwise than the view's results
#: (or the public facts it left on show) before the view is declared impossible: a
#: view that observe() gave is met within the first hundred or so.
MISSES = 100
#: The same for the hand in progress; a hand whose whole melds are shown (cutthroat,
#: three-handed ``meld``) may need ``EXACT_ATTEMPTS`` more before its proposals are mended.
CURRENT_MISSES = 200

#: The fields of a view that its history and its seat's cards fix, whatever the others
#: hold: a proposal that replays and misses one of them shows the view is impossible.
_FIXED = ("seat", "dealer", "hand", "history", "deck")


def _hidden_public(profile: Profile) -> frozenset[str]:
    """Public facts that the hidden cards decide (a meld shown is a hand's whole meld, an
    overlooked meld is claimed against a hand): a proposal may miss them and the next fit
    (:attr:`~binocle.core.Profile.hidden_facts`)."""
    return profile.hidden_facts


#: The public facts of the hand a retirement ended that change in the two-handed game.
_TWO_HANDED_PUBLIC = frozenset({"two_handed", "claim_totals", "taken", "targets", "payers"})

#: What ``accept`` says of a replayed proposal: the state to keep (or None), and the
#: field in which it missed the view when no hidden card could have decided it.
Verdict = tuple[GameState | None, str | None]


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


def _miss(got: View, want: View) -> str | None:
    """Where ``got`` (a proposal's view) misses ``want`` in what no hidden card decides:
    the field's name, or None when they differ only in hidden-decided facts."""
    if got == want:
        return None
    for name in _FIXED:
        if getattr(got, name) != getattr(want, name):
            return name
    for name in (
        "phase", "current_player", "trump", "trick", "hand_sizes", "scores", "results",
        "legal_actions", "claimants", "log", "winner",
    ):  # fmt: skip
        if getattr(got, name) != getattr(want, name):
            return name
    hidden = _hidden_public(want.profile)
    mine, theirs = dict(got.public), dict(want.public)
    for key in sorted(set(mine) | set(theirs)):
        if key not in hidden and mine.get(key) != theirs.get(key):
            return f"public fact {key!r}"
    return None


def _is_card(c: object) -> bool:
    return isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 32


def _is_seat(i: object, players: int) -> bool:
    return isinstance(i, int) and not isinstance(i, bool) and 0 <= i < players


def _check_view(view: View) -> None:
    """Refuse a view whose fields are not of the kinds and sizes ``observe`` gives
    (an edited view), before anything is sampled from it."""
    p: Any = view.profile
    if not isinstance(p, Profile):
        raise InvalidArgumentError(f"the view's profile is not a profile: {type(p).__name__}")
    n = p.players

    def bad(what: str) -> InvalidArgumentError:
        return InvalidArgumentError(
            f"the view's {what} is not one that observe() gives for {p.name}:"
            " determinize samples from views as observe() gave them"
        )

    if not _is_seat(view.seat, n):
        raise bad("seat")
    if not isinstance(view.phase, Phase):
        raise bad("phase")
    if not _is_seat(view.dealer, n):
        raise bad("dealer")
    if view.current_player is not None and not _is_seat(view.current_player, n):
        raise bad("player to act")
    if view.trump is not None and not isinstance(view.trump, Suit):
        raise bad("trump")
    if not isinstance(view.hand, tuple) or not all(_is_card(c) for c in view.hand):
        raise bad("hand")
    sizes = view.hand_sizes
    if (
        not isinstance(sizes, tuple)
        or len(sizes) != n
        or not all(isinstance(k, int) and not isinstance(k, bool) and k >= 0 for k in sizes)
        or sizes[view.seat] != len(view.hand)
    ):
        raise bad("hand sizes")
    if not isinstance(view.trick, tuple) or not all(
        isinstance(e, tuple) and len(e) == 2 and _is_seat(e[0], n) and _is_card(e[1])
        for e in view.trick
    ):
        raise bad("trick")
    if (
        not isinstance(view.scores, tuple)
        or len(view.scores) != n
        or not all(isinstance(k, int) and not isinstance(k, bool) for k in view.scores)
    ):
        raise bad("scores")
    if not isinstance(view.results, tuple) or not all(
        isinstance(r, HandResult) and _is_seat(r.dealer, n) for r in view.results
    ):
        raise bad("results")
    if not isinstance(view.public, tuple) or not all(
        isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], str) for e in view.public
    ):
        raise bad("public facts")
    if not isinstance(view.history, tuple) or not all(
        isinstance(e, tuple)
        and len(e) == 2
        and isinstance(e[0], Action)
        and (e[1] is None or _is_seat(e[1], n))
        for e in view.history
    ):
        raise bad("history")
    deck = view.deck
    if (
        not isinstance(deck, tuple)
        or len(deck) not in (0, p.pack_size)
        or not all(c is None or _is_card(c) for c in deck)
    ):
        raise bad("deck")


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

    #: Whether the view's seat watches the hand in progress without holding a card of
    #: it (a retired player watching the two-handed game).
    spectator = False

    def __init__(self, view: View) -> None:
        if not isinstance(view, View):
            raise InvalidArgumentError(f"not a view: {type(view).__name__}")
        _check_view(view)
        try:
            self._read(view)
        except BinocleError:
            raise
        except (IndexError, KeyError, ValueError, TypeError, AttributeError) as e:
            raise _impossible() from e

    #: Whether the view is the retired player's of the two-handed game after a
    #: retirement, which he watches with no hand of his own (see :class:`_TwoHanded`).
    spectator = False

    def _read(self, view: View) -> None:
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
            view.profile.retirement_game is not None
            and view.get("two_handed") is not None
            and view.get("pair") is not None
        ):
            self.two_handed = _TwoHanded(view, hands)
            hands = hands[: self.two_handed.kept]
        self.hands = hands
        self.current = (
            self.two_handed is None and bool(hands) and view.phase not in (Phase.DEAL, Phase.OVER)
        )
        if self.current and not view.deck and not self.spectator:
            raise InvalidArgumentError(
                "the view shows a hand in progress but nothing of its deal (view.deck):"
                " is it a view that observe() gave?"
            )
        self.first_dealer = view.results[0].dealer if view.results else view.dealer
        #: The hand before the present whose public facts the view still shows (the
        #: last hand of a finished game, the hand a retirement ended), or None.
        self.final: int | None = None
        if self.two_handed is not None or (hands and view.phase is Phase.OVER and not self.current):
            self.final = len(hands) - 1
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
        try:
            return self._sample(rng, start_state)
        except BinocleError:
            raise
        except (IndexError, KeyError, ValueError, TypeError, AttributeError) as e:
            raise _impossible() from e

    def _sample(self, rng: random.Random, start_state: GameState | None) -> GameState:
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
            m = _Model(
                self.view, s, self.hands[i], i, current, up_dix, i == self.final, self.spectator
            )
            self._models[i, up_dix] = m
        return m

    def _sample_hand(
        self,
        s: GameState,
        i: int,
        rng: random.Random,
        accept: Callable[[GameState], Verdict] | None = None,
    ) -> GameState:
        """Hand ``i`` sampled from ``s``, its start.  The current hand is kept when
        the seat's view of it is the view (or ``accept`` gives the state to keep);
        an earlier hand when it ends as the view's results say, and the final hand
        (:attr:`final`) also when the public facts it left on show are the view's.

        A proposal that replays but misses the view in what no hidden card decides,
        :data:`STRIKES` times (or at once in a field the seat's own cards
        and the history fix), shows that no deal fits: the view is refused."""
        view = self.view
        if accept is None:
            accept = self._accept_final if self.two_handed is None else self._accept_retired
        current = self.current and i == len(self.hands) - 1
        final = i == self.final
        # An earlier hand's turn-up is unknown but for its suit: it was the dix card
        # or not, which changes what followed; each guess gets its turn.  So is the
        # current hand's to a spectator once it has left the table.
        guess = not current or self.spectator
        models = [self._model(s, i), self._model(s, i, True)] if guess else [self._model(s, i)]
        strikes = failures = repairs = misses = 0
        t: GameState | None
        for attempt in range(MAX_ATTEMPTS):
            model = models[attempt % len(models)]
            limit = CURRENT_MISSES if model.current else MISSES
            if model.meld_targets:
                limit += EXACT_ATTEMPTS
            if model.bad:
                if all(m.bad for m in models):
                    model.propose(rng)  # raises: no deal fits
                continue
            planned = model.propose(rng, repair=attempt >= EXACT_ATTEMPTS)
            t = None
            if planned is not None:
                deck, actions = planned
                try:
                    t = apply(s, deal(deck))
                    for a in actions:
                        t = apply(t, a)
                except BinocleError:
                    t = None
            if t is None:
                failures += 1
                mended = planned is None and attempt >= EXACT_ATTEMPTS and model.meld_targets
                repairs += bool(mended)
                if repairs >= REPAIR_FAILURES:
                    raise InvalidArgumentError(
                        f"no deal fits the view: no placement of the hidden cards of hand"
                        f" {i + 1} gives the melds shown ({REPAIR_FAILURES} mended in vain;"
                        " is it a view that observe() gave?)"
                    )
                if failures >= FAILURES:
                    raise InvalidArgumentError(
                        f"no deal fits the view: hand {i + 1} cannot be dealt so that its"
                        f" actions replay under the rules ({FAILURES} deals tried; is it a"
                        " view that observe() gave?)"
                    )
                continue
            kept: GameState | None = None
            if model.current:
                kept, miss = accept(t)
            else:
                miss = _result_miss(t.results, view.results, len(s.results))
                if miss is None and _results_agree(t.results, view.results, len(s.results)):
                    kept, miss = accept(t) if final else (t, None)
            if kept is not None:
                return kept
            if miss in _FIXED:
                raise InvalidArgumentError(
                    f"no deal fits the view: its {miss} is not what its own history gives"
                    " (is it a view that observe() gave?)"
                )
            strikes += miss is not None
            misses += miss is None
            if misses >= limit:
                raise InvalidArgumentError(
                    f"no deal found consistent with the view for hand {i + 1}: {misses} deals"
                    " replay its actions but none shows what the view shows (is it a view that"
                    " observe() gave?)"
                )
            if strikes >= STRIKES:
                raise InvalidArgumentError(
                    f"no deal fits the view: its {miss} is not what its own history gives"
                    f" in {STRIKES} deals (is it a view that observe() gave?)"
                )
        raise InvalidArgumentError(
            f"no deal found consistent with the view for hand {i + 1}"
            f" after {MAX_ATTEMPTS} attempts: is the view one that observe() gave?"
        )

    def _accept_final(self, t: GameState) -> Verdict:
        """``t`` if the seat's view of it is the view; else where it missed."""
        got = observe(t, self.view.seat)
        return (t, None) if got == self.view else (None, _miss(got, self.view))

    def _accept_retired(self, t: GameState) -> Verdict:
        """``t``, the three-handed game sampled to a retirement, if the public facts
        that hand left on show are the view's (the two-handed game's come later)."""
        view = self.view
        got = observe(t, view.seat)
        mine = {k: v for k, v in got.public if k not in _TWO_HANDED_PUBLIC}
        theirs = {k: v for k, v in view.public if k not in _TWO_HANDED_PUBLIC}
        if mine == theirs:
            return t, None
        hidden = _hidden_public(view.profile)
        for key in sorted(set(mine) | set(theirs)):
            if key not in hidden and mine.get(key) != theirs.get(key):
                return None, f"public fact {key!r}"
        return None, None


#: The seat of a view of the two-handed game after a retirement as the retired player
#: watches it: no seat of that game, so every hand of it is hidden.
_SPECTATOR: Final = -1


def _spectator_deck(
    classic: Profile, public: Any, history: list[tuple[Action, int | None]]
) -> tuple[Card | None, ...]:
    """The deal of the current two-handed hand as a spectator has seen it: the turn-up
    (classic rules, Deal), while it lies face up where it was dealt; no other card."""
    deck: list[Card | None] = [None] * classic.pack_size
    facts = dict(public) if isinstance(public, tuple) else {}
    up = facts.get("turn_up")
    start = max((k for k, (a, _) in enumerate(history) if a.kind is Kind.DEAL), default=0)
    exchanged = any(a.kind is Kind.DIX for a, _ in history[start:])
    if isinstance(up, Card) and not exchanged:
        deck[24] = up
    return tuple(deck)


def _impossible() -> InvalidArgumentError:
    return InvalidArgumentError(
        "the view's parts do not agree with each other (its profile, history, deal,"
        " results …): determinize samples from views as observe() gave them"
    )


def _results_agree(got: tuple[HandResult, ...], want: tuple[HandResult, ...], before: int) -> bool:
    """Whether a hand sampled after ``before`` results ended as ``want`` says."""
    return len(got) > before and got == want[: len(got)]


def _fixed_part(r: HandResult) -> tuple[Any, ...]:
    """What of a hand's result follows from its actions alone (not whether it ended
    the game: a meld can reach the target)."""
    return (r.dealer, r.trump, r.tricks, r.bidder, r.bid, r.outcome)


def _result_miss(
    got: tuple[HandResult, ...], want: tuple[HandResult, ...], before: int
) -> str | None:
    """Where a sampled hand's result misses the view's in what no hidden card decides,
    or None.  Of a hand's result only its meld (and so whether a bid was made, the
    score change and whether the game ended with it) may depend on how the hidden
    cards lie: its dealer, trump, bid, trick points and outcome follow from its
    actions."""
    if len(got) > len(want) or len(got) <= before:
        return "results"  # more hands than the view's, or a hand its actions leave unfinished
    for r, w in zip(got[before:], want[before:], strict=False):
        if _fixed_part(r) != _fixed_part(w) or (
            r.meld == w.meld and (r.delta, r.game_end) != (w.delta, w.game_end)
        ):
            return "results"
    return None


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
        # The retired player watches the two-handed game: every card of it that is not
        # shown is hidden from him, both players' hands alike (a spectator's view).
        spectator = view.seat not in pair
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
        classic: Profile = view.profile.classic  # type: ignore[attr-defined]
        public = view.get("two_handed", ())
        deck = view.deck
        if spectator and view.phase not in (Phase.DEAL, Phase.OVER):
            deck = _spectator_deck(classic, public, history)
        inner_view = View(
            classic,
            _SPECTATOR if spectator else at(view.seat), view.phase, at(view.dealer),
            None if current is None else at(current), view.trump, view.hand,
            two(view.hand_sizes), tuple((at(i), c) for i, c in view.trick),
            two(view.scores), results, (), view.log, public, (),
            tuple(history), deck,
        )  # fmt: skip
        if spectator:
            # A spectator has no hand of his own: the view is read as it is, without
            # the checks of a player's view (his hand, his seat).
            self.inner = Determinizer.__new__(Determinizer)
            self.inner.spectator = True
            self.inner._read(inner_view)
        else:
            self.inner = Determinizer(inner_view)
        # The public facts the two-handed game leaves on show are checked in the
        # three-handed view (its ``accept``), never in this made-up inner view.
        self.inner.final = None

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

        def accept(sub: GameState) -> Verdict:
            try:
                t = self._replay(s, sub)
            except BinocleError:
                return None, None
            got = observe(t, outer.seat)
            return (t, None) if got == outer else (None, _miss(got, outer))

        inner = self.inner
        return inner._sample_hand(s.sub, len(inner.hands) - 1, rng, accept)  # type: ignore[attr-defined]


set_sampler(determinize)
