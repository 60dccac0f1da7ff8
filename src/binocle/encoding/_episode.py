"""Chance and episodes: deals dealt card by card as chance outcomes, steps by id, returns."""

from __future__ import annotations

import functools
import operator
from collections import Counter
from typing import Any, Final

import attrs

from binocle import actions as A
from binocle.actions import Kind
from binocle.cards import Card
from binocle.core import GameState, Phase, Profile, View
from binocle.encoding._actions import ActionSpace, _space
from binocle.encoding._common import _check_id, _check_state, _profile_of, kinds
from binocle.errors import (
    BinocleError,
    IllegalActionError,
    InvalidArgumentError,
    RuleCode,
    excerpt,
)
from binocle.game import apply as _apply
from binocle.game import legal_actions as _legal_actions
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
        prev, A.new_action(Kind.DEAL, cards=(*cards[: len(cards) - len(stock)], *stock)), actor,
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


@functools.lru_cache(maxsize=64)
def _by_identity(space: ActionSpace) -> dict[int, int]:
    """The fixed ids of ``space`` by the ``id()`` of their interned actions (the space
    keeps them alive): a legal action is mostly one of them, found without hashing."""
    return {id(a): i for a, i in space._fixed.items()}


#: Each profile's action space by the profile's ``id()`` (a profile hashes its options
#: each time: this is a read by identity), with the profile kept alive beside it.
_SPACES: dict[int, tuple[Profile, ActionSpace]] = {}


def _space_of(profile: Profile) -> ActionSpace:
    found = _SPACES.get(id(profile))
    if found is None or found[0] is not profile:
        if len(_SPACES) >= 64:
            _SPACES.clear()
        found = _SPACES[id(profile)] = (profile, _space(profile))
    return found[1]


#: The ids of melds that name no table copy, by the meld (they do not depend on the
#: state), per action space.
_MELD_IDS: dict[ActionSpace, dict[A.Action, int]] = {}


def _id_of(space: ActionSpace, state: GameState, action: A.Action) -> int:
    """``space.id(state, action)``, a meld that names no table copy read from a memo."""
    if action.kind is not Kind.MELD or "#" in (action.source or ""):
        return space.id(state, action)
    memo = _MELD_IDS.get(space)
    if memo is None:
        if len(_MELD_IDS) >= 64:
            _MELD_IDS.clear()
        memo = _MELD_IDS[space] = {}
    i = memo.get(action)
    if i is None:
        i = memo[action] = space.id(state, action)
    return i


def _legal_of(state: GameState) -> tuple[tuple[int, ...], list[int], tuple[A.Action, ...]]:
    """The legal ids ascending (``ActionSpace.legal_ids``), and each legal action's id
    beside the legal actions (the interned ones found by identity)."""
    space = _space_of(state.profile)
    legal = _legal_actions(state)
    ids: list[Any] = list(map(_by_identity(space).get, map(id, legal)))
    if None in ids:
        ids = [
            _id_of(space, state, a) if i is None else i for i, a in zip(ids, legal, strict=True)
        ]  # fmt: skip
    return tuple(sorted(ids)), ids, legal


def _action(ep: Episode, action_id: int) -> A.Action:
    """``ActionSpace.action``: the legal action with that id (interned ones found by
    identity among the legal actions, others among the legal ids when they are known;
    anything else asked of the space, which raises its errors)."""
    state = ep.state
    space = _space_of(state.profile)
    by_id = space._by_id
    if 0 <= action_id < len(by_id) and state.current_player is not None:
        fixed = by_id[action_id]
        known = ep._legal
        if known is not None:
            ids = known[1]
            if action_id in ids:
                return known[2][ids.index(action_id)]
        elif fixed is not None:
            for a in _legal_actions(state):
                if a is fixed:
                    return a
    return space.action(state, action_id)


#: ``_outcome_rows(n, total)[i][k]``: the chance outcome ``(i, k / total)``, made once.
_ROWS: dict[tuple[int, int], list[tuple[tuple[int, float], ...]]] = {}


def _outcome_rows(n: int, total: int) -> list[tuple[tuple[int, float], ...]]:
    """For each of ``n`` card kinds, its outcome with 0, 1 and 2 copies of ``total`` left."""
    rows = _ROWS.get((n, total))
    if rows is None:
        rows = _ROWS[n, total] = [tuple([(i, k / total) for k in range(3)]) for i in range(n)]
    return rows


class _Unseen:
    """Every seat's views of a state, made when first asked for (then kept)."""

    __slots__ = ("_state", "_views")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._views: tuple[View, ...] | None = None

    def views(self) -> tuple[View, ...]:
        views = self._views
        if views is None:
            s = self._state
            views = self._views = tuple([_observe(s, i) for i in range(len(s.scores))])
        return views


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
    # episode stands (a seat, _CHANCE, _END or _NOBODY), and at chance how many copies
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

    @property
    def ended(self) -> tuple[tuple[int, tuple[View, ...]], ...]:
        """For each hand the episode finished: the length of ``history`` when it ended
        and every seat's view just before its last action."""
        ended: tuple[tuple[int, Any], ...] = self._ended
        if any(isinstance(v, _Unseen) for _, v in ended):
            ended = tuple([(n, v.views() if isinstance(v, _Unseen) else v) for n, v in ended])
            object.__setattr__(self, "_ended", ended)
        return ended

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
        return self._outcomes_of(self._counts())

    @staticmethod
    def _outcomes_of(counts: tuple[int, ...] | list[int]) -> list[tuple[int, float]]:
        """The chance outcomes with ``counts`` copies of each card kind left."""
        rows = _outcome_rows(len(counts), sum(counts))
        return [row[k] for row, k in zip(rows, counts, strict=True) if k]

    def _chance_left(self) -> int:
        """At chance: how many outcomes the deal or the draw under way still takes."""
        s = self.state
        if s.phase is Phase.DEAL:
            return _dealt_by_chance(s) - len(self.deck)
        return min(2, len(_classic_part(s).stock)) - len(self.deck)

    def _chance_run(self, outcomes: list[int]) -> Episode:
        """The episode after ``outcomes``, chance outcomes each legal in turn that end no
        deal or draw (as many ``apply`` calls give), made at once."""
        counts = list(self._counts())
        for o in outcomes:
            counts[o] -= 1
        cards = kinds(self.state.profile.pack_size)
        return _made(
            self.state, self.hands, self.first_results, self.start_scores,
            (*self.deck, *[cards[o] for o in outcomes]), self.ready, (*self.history, *outcomes),
            self.base, (*self.actors, *[-1] * len(outcomes)), self._ended, _CHANCE,
            tuple(counts),
        )  # fmt: skip

    # -- steps -----------------------------------------------------------------

    def legal_ids(self) -> tuple[int, ...]:
        """The legal ids of the player to decide (chance outcomes at chance)."""
        at = self._where()
        if at == _CHANCE:
            return tuple([i for i, k in enumerate(self._counts()) if k])
        if at < 0:
            return ()
        known = self._legal
        if known is None:
            known = _legal_of(self.state)
            object.__setattr__(self, "_legal", known)
        return known[0]

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
        return self._decide(_action(self, action_id), action_id)

    def _decision(self, action_id: int) -> Episode:
        """``apply`` at a decision, for a caller that knows it is one and gives an int."""
        return self._decide(_action(self, action_id), action_id)

    def _decide(self, action: A.Action, action_id: int) -> Episode:
        """The episode after the decision ``action`` (legal here, with id ``action_id``)."""
        before = self.state
        s = _apply(before, action)
        seat = before.current_player
        assert seat is not None
        ended = self._ended
        history = (*self.history, action_id)
        if len(s.results) > len(before.results):
            # A hand ended: keep what each seat saw of it, for the perfect-recall encodings
            # (the views made when ``ended`` is first read).
            unseen: Any = _Unseen(before)
            ended = (*ended, (len(history), unseen))
        return _made(
            s, self.hands, self.first_results, self.start_scores, (), False, history,
            tuple(map(_sub, before.scores, self.start_scores)), (*self.actors, seat), ended,
            None, None,
        )  # fmt: skip

    def _chance(self, outcome: int) -> Episode:
        counts = self._left
        if counts is None:
            counts = self._counts()
        if not 0 <= outcome < len(counts):
            raise IllegalActionError(
                f"chance outcome {excerpt(outcome)} is not a card index", RuleCode.BAD_DECK
            )
        s = self.state
        cards = kinds(s.profile.pack_size)
        card = cards[outcome]
        k = counts[outcome]
        if not k:
            raise IllegalActionError(
                f"chance outcome {card}: no copy of it is left to deal", RuleCode.BAD_DECK
            )
        left = (*counts[:outcome], k - 1, *counts[outcome + 1 :])
        deck = (*self.deck, card)
        history = (*self.history, outcome)
        actors = (*self.actors, -1)
        if s.phase is Phase.DEAL:
            if len(deck) < _dealt_by_chance(s):
                return _made(
                    s, self.hands, self.first_results, self.start_scores, deck, self.ready,
                    history, self.base, actors, self._ended, _CHANCE, left,
                )  # fmt: skip
            rest = [c for c, n in zip(cards, left, strict=True) for _ in range(n)]
            # The pack's own cards, in a deck order: built without the hand-made checks.
            s = _apply(s, A.new_action(Kind.DEAL, cards=(*deck, *sorted(rest))))
            ready = False
        else:
            stock = _classic_part(s).stock
            if len(deck) < min(2, len(stock)):
                return _made(
                    s, self.hands, self.first_results, self.start_scores, deck, self.ready,
                    history, self.base, actors, self._ended, _CHANCE, left,
                )  # fmt: skip
            rest = [c for c, n in zip(cards, left, strict=True) for _ in range(n)]
            s = _with_stock(s, (*deck, *sorted(rest)))
            ready = True
        return _made(
            s, self.hands, self.first_results, self.start_scores, (), ready, history, self.base,
            actors, self._ended, None, None,
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
    _set_legal(ep, None)
    return ep
