"""Chance and episodes: deals dealt card by card as chance outcomes, steps by id, returns."""

from __future__ import annotations

import operator
from collections import Counter
from typing import Any, Final

import attrs

from binocle import actions as A
from binocle.actions import Kind
from binocle.cards import Card
from binocle.core import GameState, Phase, Profile, View
from binocle.encoding._actions import _space
from binocle.encoding._common import _check_id, _check_state, _profile_of, kinds
from binocle.errors import (
    BinocleError,
    IllegalActionError,
    InvalidArgumentError,
    RuleCode,
    excerpt,
)
from binocle.game import apply as _apply
from binocle.game import observe as _observe

# Where an episode stands (besides a seat to decide), with OpenSpiel's player ids for
# the same: the episode is over, a chance outcome is next, or nobody acts.
_END: Final = -4
_CHANCE: Final = -1
_NOBODY: Final = -3

_sub = operator.sub


def _classic_part(state: GameState) -> Any:
    """The classic (two-handed, with a stock) state inside ``state``, or None."""
    if state.profile.name == "classic":
        return state
    return getattr(state, "sub", None)


def _with_stock(state: GameState, stock: tuple[Card, ...]) -> GameState:
    """``state`` with the classic stock (top first) replaced by ``stock``, the same cards.

    The hand's ``deal`` is rewritten with that stock order and the game replayed
    from its start, so the state's history replays to the state itself (records,
    saved states and determinization read it).
    """
    if state.profile.name == "classic":
        return _restocked(state, stock)
    from binocle.game import apply, start

    moves = state.moves()
    last = max(i for i, (a, _) in enumerate(moves) if a.kind is Kind.DEAL)
    cards = moves[last][0].cards
    keep = len(cards) - len(stock)
    deck = (*cards[:keep], *stock)
    s = start(state.profile, state.seed, state.first_dealer)
    for i, (action, _) in enumerate(moves):
        s = apply(s, A.deal(deck) if i == last else action)
    return s


def _restocked(state: Any, stock: tuple[Card, ...]) -> GameState:
    """The classic ``state`` with its stock replaced, with no replay: the actions since
    the hand's deal are linked again behind the deal with the new stock order (the
    stock is the end of the deck; nothing else in a classic position depends on its
    order), so the history still replays to the state."""
    after: list[tuple[Any, A.Action, int | None]] = []
    node = state.history
    while node[1].kind is not Kind.DEAL:
        after.append(node)
        node = node[0]
    prev, deal, actor = node
    cards = deal.cards
    relinked: tuple[Any, A.Action, int | None] = (
        prev, A.deal((*cards[: len(cards) - len(stock)], *stock)), actor,
    )  # fmt: skip
    for _, action, seat in reversed(after):
        relinked = (relinked, action, seat)
    restocked: GameState = state.replace(stock=stock, history=relinked)
    return restocked


def _dealt_by_chance(state: GameState) -> int:
    """How many deck cards the pending deal reveals as chance: all but the classic stock."""
    classic = _classic_part(state)
    if classic is not None or state.profile.name == "classic":
        return 25
    return state.profile.pack_size


@attrs.frozen(slots=True, eq=False)
class Episode:
    """One episode for learning or search: a game state with chance made explicit.

    Each deal is a sequence of chance outcomes, one card at a time in deck
    order (an outcome is a card's index among the pack's card kinds,
    weighted by how many copies remain).  In the classic game only the
    hands and the turn-up are dealt so; each stock card is a chance outcome
    when it is drawn, just before the trick's winner announces.  The episode
    ends when the game is over or after ``hands`` hands.

    Returns are the change of each game score since the episode began; the
    reward of a step is the change since the previous decision, so it is
    paid at the first decision after a hand is scored, or at the end.

    ``history`` holds every id applied since the episode began (chance outcomes
    and decisions) and ``actors`` the seat that took each (-1 for chance).
    ``ended`` holds, for each hand the episode finished, the length of
    ``history`` when it ended and every seat's view just before its last
    action: what the perfect-recall encodings
    (:func:`binocle.encoding.perfect_recall_tensor`) read of earlier hands.
    """

    state: GameState
    hands: int = 1
    first_results: int = 0
    start_scores: tuple[int, ...] = ()
    deck: tuple[Card, ...] = ()
    ready: bool = False
    history: tuple[int, ...] = ()
    base: tuple[int, ...] = ()
    actors: tuple[int, ...] = ()
    ended: tuple[tuple[int, tuple[View, ...]], ...] = ()
    # Worked out once, on first need (a step that knows them sets them): where the
    # episode stands (a seat, _CHANCE, _END or _NOBODY), and at chance how many copies
    # of each card kind the next outcome is drawn from.
    _at: int | None = attrs.field(default=None, init=False, repr=False)
    _left: tuple[int, ...] | None = attrs.field(default=None, init=False, repr=False)

    @classmethod
    def new(cls, profile: Any = "cutthroat", *, hands: int = 1, dealer: int = 0) -> Episode:
        """A new game at its first deal, played for ``hands`` hands at most."""
        from binocle.game import start

        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidArgumentError(f"hands must be a positive whole number, not {hands!r}")
        s = start(_profile_of(profile), 0, dealer)
        return cls(s, hands, 0, s.scores, (), False, (), s.scores, (), ())

    @classmethod
    def from_state(
        cls, state: GameState, *, hands: int = 1, like: Episode | None = None
    ) -> Episode:
        """An episode continuing from ``state`` (e.g. one sampled by :func:`binocle.determinize`).

        With ``like``, the hand count and returns continue ``like``'s.  A pending
        classic draw counts as already drawn (its cards lie on top of the stock).
        The new episode's history (and so its perfect-recall encodings) begins here.
        """
        s = _check_state(state)
        if like is not None:
            return cls(
                s, like.hands, like.first_results, like.start_scores, (), True, (), like.base,
                (), (),
            )  # fmt: skip
        return cls(s, hands, len(s.results), s.scores, (), True, (), s.scores, (), ())

    def __copy__(self) -> Episode:
        return self

    def __deepcopy__(self, memo: object) -> Episode:
        return self

    # -- where the episode stands ------------------------------------------------

    @property
    def profile(self) -> Profile:
        """The profile played."""
        return self.state.profile

    def _where(self) -> int:
        """Where the episode stands: the seat to decide, ``_CHANCE``, ``_END`` or ``_NOBODY``."""
        at = self._at
        if at is None:
            at = self._locate()
            object.__setattr__(self, "_at", at)
        return at

    def _locate(self) -> int:
        s = self.state
        phase = s.phase
        if phase is Phase.OVER:
            return _END
        if phase is Phase.DEAL:
            return _END if len(s.results) - self.first_results >= self.hands else _CHANCE
        classic = _classic_part(s)
        if classic is not None and classic.phase is Phase.ANNOUNCE and not self.ready:
            return _CHANCE
        seat = s.current_player
        return _NOBODY if seat is None else seat

    def is_terminal(self) -> bool:
        """Whether the episode is over: the game ended, or its hands are played."""
        at = self._at
        return (self._where() if at is None else at) == _END

    def is_chance(self) -> bool:
        """Whether the next step is a chance outcome (a card dealt or drawn)."""
        at = self._at
        return (self._where() if at is None else at) == _CHANCE

    @property
    def current_player(self) -> int | None:
        """The seat to decide, or None at chance and at the end."""
        at = self._where()
        return at if at >= 0 else None

    # -- chance ----------------------------------------------------------------

    def _remaining(self) -> list[int]:
        """How many copies of each card kind the next chance outcome is drawn from."""
        s = self.state
        cards = kinds(s.profile.pack_size)
        dealt = Counter(self.deck)
        if s.phase is Phase.DEAL:
            return [2 - dealt[c] for c in cards]
        left = Counter(_classic_part(s).stock)
        return [left[c] - dealt[c] for c in cards]

    def _counts(self) -> tuple[int, ...]:
        """``_remaining()``, kept: each chance step passes the next its counts."""
        left = self._left
        if left is None:
            left = tuple(self._remaining())
            object.__setattr__(self, "_left", left)
        return left

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The possible outcomes (card indices) with their probabilities, ascending."""
        if self._where() != _CHANCE:
            return []
        counts = self._counts()
        total = sum(counts)
        return [(i, k / total) for i, k in enumerate(counts) if k]

    # -- steps -----------------------------------------------------------------

    def legal_ids(self) -> tuple[int, ...]:
        """The legal ids of the player to decide (chance outcomes at chance)."""
        at = self._where()
        if at == _CHANCE:
            return tuple([i for i, k in enumerate(self._counts()) if k])
        if at == _END:
            return ()
        return _space(self.state.profile).legal_ids(self.state)

    def apply(self, action_id: int) -> Episode:
        """The episode after a decision or a chance outcome, by id.

        An id is a whole number (an int or an integer scalar such as numpy's);
        a bool, a float or text raises :class:`~binocle.InvalidArgumentError`.
        """
        action_id = _check_id(action_id)
        at = self._where()
        if at == _END:
            raise IllegalActionError("the episode is over", RuleCode.GAME_OVER)
        if at == _CHANCE:
            return self._chance(action_id)
        return self._decide(_space(self.state.profile).action(self.state, action_id), action_id)

    def _decide(self, action: A.Action, action_id: int) -> Episode:
        """The episode after the decision ``action`` (legal here, with id ``action_id``)."""
        before = self.state
        s = _apply(before, action)
        seat = before.current_player
        assert seat is not None
        ended = self.ended
        history = (*self.history, action_id)
        if len(s.results) > len(before.results):
            # A hand ended: keep what each seat saw of it, for the perfect-recall encodings.
            views = tuple([_observe(before, i) for i in range(len(s.scores))])
            ended = (*ended, (len(history), views))
        return Episode(
            s, self.hands, self.first_results, self.start_scores, (), False, history,
            tuple(map(_sub, before.scores, self.start_scores)), (*self.actors, seat), ended,
        )  # fmt: skip

    def _chance(self, outcome: int) -> Episode:
        counts = self._counts()
        if not 0 <= outcome < len(counts):
            raise IllegalActionError(
                f"chance outcome {excerpt(outcome)} is not a card index", RuleCode.BAD_DECK
            )
        cards = kinds(self.state.profile.pack_size)
        card = cards[outcome]
        if not counts[outcome]:
            raise IllegalActionError(
                f"chance outcome {card}: no copy of it is left to deal", RuleCode.BAD_DECK
            )
        left = list(counts)
        left[outcome] -= 1
        deck = (*self.deck, card)
        history = (*self.history, outcome)
        actors = (*self.actors, -1)
        s = self.state
        if s.phase is Phase.DEAL:
            if len(deck) < _dealt_by_chance(s):
                more = Episode(
                    s, self.hands, self.first_results, self.start_scores, deck, self.ready,
                    history, self.base, actors, self.ended,
                )  # fmt: skip
                object.__setattr__(more, "_at", _CHANCE)
                object.__setattr__(more, "_left", tuple(left))
                return more
            rest = [c for c, k in zip(cards, left, strict=True) for _ in range(k)]
            return Episode(
                _apply(s, A.deal((*deck, *sorted(rest)))), self.hands, self.first_results,
                self.start_scores, (), False, history, self.base, actors, self.ended,
            )  # fmt: skip
        stock = _classic_part(s).stock
        if len(deck) < min(2, len(stock)):
            more = Episode(
                s, self.hands, self.first_results, self.start_scores, deck, self.ready, history,
                self.base, actors, self.ended,
            )  # fmt: skip
            object.__setattr__(more, "_at", _CHANCE)
            object.__setattr__(more, "_left", tuple(left))
            return more
        rest = [c for c, k in zip(cards, left, strict=True) for _ in range(k)]
        return Episode(
            _with_stock(s, (*deck, *sorted(rest))), self.hands, self.first_results,
            self.start_scores, (), True, history, self.base, actors, self.ended,
        )  # fmt: skip

    def action_label(self, action_id: int) -> str:
        """What an id means here: the action's text, or the card a chance outcome deals.

        An id that is not a whole number raises :class:`~binocle.InvalidArgumentError`.
        """
        action_id = _check_id(action_id)
        if self.is_chance():
            cards = kinds(self.profile.pack_size)
            what = "deal" if self.state.phase is Phase.DEAL else "draw"
            if 0 <= action_id < len(cards):
                return f"{what} {cards[action_id]}"
            return f"{what} ?{excerpt(action_id)}"
        space = _space(self.profile)
        try:
            return str(space.action(self.state, action_id))
        except BinocleError:
            return (
                space.labels[action_id] if 0 <= action_id < space.size else f"?{excerpt(action_id)}"
            )

    # -- returns -----------------------------------------------------------------

    def returns(self) -> tuple[int, ...]:
        """Each seat's score change since the episode began."""
        return tuple(map(_sub, self.state.scores, self.start_scores))

    def rewards(self) -> tuple[int, ...]:
        """Each seat's score change since the previous decision."""
        return tuple(map(_sub, self.returns(), self.base))

    def view(self, seat: int) -> View:
        """What ``seat`` may know now (:func:`binocle.observe`)."""
        return _observe(self.state, seat)
