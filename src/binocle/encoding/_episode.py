"""Chance and episodes: deals dealt card by card as chance outcomes, steps by id, returns."""

from __future__ import annotations

import operator
from typing import Any, Final, overload

import attrs

from binocle import actions as A
from binocle.cards import Card
from binocle.core import GameState, Phase, Profile, View
from binocle.encoding._actions import _space
from binocle.encoding._common import _check_id, _check_state, _profile_of, kinds
from binocle.encoding._walk import (
    CHANCE,
    END,
    UNKNOWN,
    Legal,
    Unseen,
    Walk,
    legal_of,
    locate,
    outcomes_of,
    remaining,
)
from binocle.errors import (
    BinocleError,
    InvalidArgumentError,
    excerpt,
)
from binocle.game import observe as _observe

_sub = operator.sub


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
    # ``ended``: its views are made when first read (a hand's end keeps the state they
    # are read from), so a step that ends a hand does not pay for them.
    _ended: tuple[tuple[int, tuple[View, ...]], ...] = attrs.field(default=(), alias="ended")
    # Worked out once, on first need (a step that knows them sets them): where the
    # episode stands (a seat, CHANCE, END or NOBODY), and at chance how many copies
    # of each card kind the next outcome is drawn from.
    _at: int | None = attrs.field(default=None, init=False, repr=False)
    _left: tuple[int, ...] | None = attrs.field(default=None, init=False, repr=False)
    # At a decision, once asked for: the legal ids ascending, and each legal action's id
    # beside the legal actions.
    _legal: tuple[tuple[int, ...], list[int], tuple[A.Action, ...]] | None = attrs.field(
        default=None, init=False, repr=False
    )

    @classmethod
    def new(cls, profile: Any = "cutthroat", *, hands: int = 1, dealer: int = 0) -> Episode:
        """A new game at its first deal, played for ``hands`` hands at most."""
        from binocle.game import start

        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidArgumentError(
                f"hands must be a positive whole number, not {excerpt(hands)}"
            )
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

    @property
    def ended(self) -> tuple[tuple[int, tuple[View, ...]], ...]:
        """For each hand the episode finished: the length of ``history`` when it ended
        and every seat's view just before its last action."""
        ended: tuple[tuple[int, Any], ...] = self._ended
        if any(isinstance(v, Unseen) for _, v in ended):
            ended = tuple([(n, v.views() if isinstance(v, Unseen) else v) for n, v in ended])
            object.__setattr__(self, "_ended", ended)
        return ended

    # -- where the episode stands ------------------------------------------------

    @property
    def profile(self) -> Profile:
        """The profile played."""
        return self.state.profile

    def _where(self) -> int:
        """Where the episode stands: the seat to decide, ``CHANCE``, ``END`` or ``NOBODY``."""
        at = self._at
        if at is None:
            at = locate(self.state, self.first_results, self.hands, self.ready)
            object.__setattr__(self, "_at", at)
        return at

    def is_terminal(self) -> bool:
        """Whether the episode is over: the game ended, or its hands are played."""
        at = self._at
        return (self._where() if at is None else at) == END

    def is_chance(self) -> bool:
        """Whether the next step is a chance outcome (a card dealt or drawn)."""
        at = self._at
        return (self._where() if at is None else at) == CHANCE

    @property
    def current_player(self) -> int | None:
        """The seat to decide, or None at chance and at the end."""
        at = self._where()
        return at if at >= 0 else None

    # -- chance ----------------------------------------------------------------

    def _counts(self) -> tuple[int, ...]:
        """How many copies of each card kind the next chance outcome is drawn from (kept:
        each chance step passes the next its counts)."""
        left = self._left
        if left is None:
            left = tuple(remaining(self.state, self.deck))
            object.__setattr__(self, "_left", left)
        return left

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The possible outcomes (card indices) with their probabilities, ascending."""
        if self._where() != CHANCE:
            return []
        return outcomes_of(list(self._counts()))

    # -- steps -----------------------------------------------------------------

    def legal_ids(self) -> tuple[int, ...]:
        """The legal ids of the player to decide (chance outcomes at chance)."""
        at = self._where()
        if at == CHANCE:
            return tuple([i for i, k in enumerate(self._counts()) if k])
        if at < 0:
            return ()
        known = self._legal
        if known is None:
            known = legal_of(self.state)
            object.__setattr__(self, "_legal", known)
        return known[0]

    def apply(self, action_id: int) -> Episode:
        """The episode after a decision or a chance outcome, by id.

        An id is a whole number (an int or an integer scalar such as numpy's);
        a bool, a float or text raises :class:`~binocle.InvalidArgumentError`.
        """
        w = self._walk()
        w.apply(action_id)
        return Episode._of_walk(w)

    def _walk(self) -> Walk:
        """A :class:`~binocle.encoding._walk.Walk` at this episode's position."""
        at = self._at
        left = self._left
        return Walk(
            self.state, self.hands, self.first_results, self.start_scores, list(self.deck),
            self.ready, list(self.history), self.base, list(self.actors), list(self._ended),
            UNKNOWN if at is None else at, None if left is None else list(left), self._legal,
        )  # fmt: skip

    @staticmethod
    def _of_walk(w: Walk) -> Episode:
        """The episode at ``w``'s position."""
        at = w.at
        left = w.left
        return _made(
            w.state, w.hands, w.first_results, w.start_scores, tuple(w.deck), w.ready,
            tuple(w.history), w.base, tuple(w.actors), tuple(w.ended),
            None if at == UNKNOWN else at, None if left is None else tuple(left), w.legal,
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


class WalkedEpisode(property):
    """The ``episode`` property of an object that steps an episode in place: its
    :class:`~binocle.encoding._walk.Walk` is ``_walk``, and the episode is made from it
    when read, then kept (in ``_snap``, which each step empties) until the walk moves.
    Setting it plays on from the episode set (and calls the object's ``_moved()``, if
    it has one).  ``doc`` is the property's docstring."""

    def __init__(self, doc: str) -> None:
        super().__init__()
        self.__doc__ = doc

    @overload
    def __get__(self, obj: None, owner: type) -> WalkedEpisode: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> Episode: ...

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        ep = obj._snap
        if ep is None:
            ep = obj._snap = Episode._of_walk(obj._walk)
        return ep

    def __set__(self, obj: Any, episode: Episode) -> None:
        obj._walk = episode._walk()
        obj._snap = episode
        moved = getattr(obj, "_moved", None)
        if moved is not None:
            moved()


# An episode's slots, written directly: a step makes its next episode this way, without
# the checks and the defaults of ``__init__`` (every field is given).
_FIELDS: Final = (
    "state", "hands", "first_results", "start_scores", "deck", "ready", "history", "base",
    "actors", "_ended", "_at", "_left", "_legal",
)  # fmt: skip
assert tuple(f.name for f in attrs.fields(Episode)) == _FIELDS
(
    _set_state, _set_hands, _set_first, _set_start, _set_deck, _set_ready, _set_history,
    _set_base, _set_actors, _set_ended, _set_at, _set_left, _set_legal,
) = [getattr(Episode, name).__set__ for name in _FIELDS]  # fmt: skip
_bare = object.__new__


def _made(
    state: GameState,
    hands: int,
    first_results: int,
    start_scores: tuple[int, ...],
    deck: tuple[Card, ...],
    ready: bool,
    history: tuple[int, ...],
    base: tuple[int, ...],
    actors: tuple[int, ...],
    ended: tuple[tuple[int, tuple[View, ...]], ...],
    at: int | None,
    left: tuple[int, ...] | None,
    legal: Legal | None = None,
) -> Episode:
    """``Episode(...)`` with every field given (and where it stands, when known)."""
    ep: Episode = _bare(Episode)
    _set_state(ep, state)
    _set_hands(ep, hands)
    _set_first(ep, first_results)
    _set_start(ep, start_scores)
    _set_deck(ep, deck)
    _set_ready(ep, ready)
    _set_history(ep, history)
    _set_base(ep, base)
    _set_actors(ep, actors)
    _set_ended(ep, ended)
    _set_at(ep, at)
    _set_left(ep, left)
    _set_legal(ep, legal)
    return ep
