"""An episode's steps made in place: :class:`Walk`, and what it and
:class:`~binocle.encoding.Episode` share (where an episode stands, its legal ids, its
chance counts).

An :class:`~binocle.encoding.Episode` is a value: each step makes a new one.  A
:class:`Walk` holds the same fields with its sequences as lists and takes each step
in place, so a caller that owns one position and moves it along (the OpenSpiel
state, which OpenSpiel mutates) pays no copy per step; ``Episode`` takes its own
steps through a walk too, so the two cannot step differently.

The compiled build compiles this module (the OpenSpiel adapter's step is its hot
path), so it is written with typed locals and no closures.
"""

from __future__ import annotations

from typing import Any, Final, cast

from binocle import actions as A
from binocle._step import _rules_apply as _apply_legal
from binocle._step import apply as _apply
from binocle._step import apply_pack_deal as _apply_pack_deal
from binocle._step import legal_actions as _legal_actions
from binocle.actions import _KIND_DEAL, _KIND_MELD, _KIND_PLAY, Action
from binocle.cards import Card
from binocle.core import _PHASE_ANNOUNCE, _PHASE_DEAL, _PHASE_OVER, GameState, Profile, View
from binocle.encoding._actions import ActionSpace, _meld_table, _space
from binocle.encoding._common import _check_id, _kind_index, kinds
from binocle.encoding._identity import IdentityTable
from binocle.errors import IllegalActionError, RuleCode, excerpt
from binocle.profiles._classic_rules import ClassicRules
from binocle.profiles._classic_state import ClassicState, _change_history, _change_stock
from binocle.profiles._three_handed_rules import ThreeHandedRules

# Where an episode stands (besides a seat to decide), with OpenSpiel's player ids for
# the same: the episode is over, a chance outcome is next, or nobody acts; and not yet
# worked out.
END: Final = -4
CHANCE: Final = -1
NOBODY: Final = -3
UNKNOWN: Final = -9

_DEAL: Final = _PHASE_DEAL
_OVER: Final = _PHASE_OVER
_ANNOUNCE: Final = _PHASE_ANNOUNCE
# The action kinds as this module's own constants: compiled, a name imported from a
# module that is not compiled (binocle.actions) is looked up in this module's
# dictionary at each use.
_DEAL_KIND: Final = _KIND_DEAL
_MELD_KIND: Final = _KIND_MELD
_PLAY_KIND: Final = _KIND_PLAY


def classic_part(state: GameState) -> Any:
    """The classic (two-handed, with a stock) state inside ``state``, or None: the part
    that draws from a stock (:meth:`~binocle.core.Profile.stock_game`)."""
    profile = state.profile
    cls = type(profile)
    last = _LAST_HOOK
    if last.cls is cls:
        hook = last.hook
    else:
        hook = _STOCK_GAME.get(cls)
        if hook is None:
            hook = _STOCK_GAME[cls] = cls.stock_game
        last.cls = cls
        last.hook = hook
    # The engine's own hooks read directly (the state is the profile's: a walk
    # holds no other); another profile's hook is called.
    if hook is _NO_STOCK:
        return None
    if hook is _OWN_STOCK:
        return state
    if hook is _SUB_STOCK:
        game: Any = state
        return game.sub
    return hook(profile, state)


#: Each profile class's ``stock_game``, read off the class once: a walk asks at every
#: step, and a bound method looked up on the profile each time costs several times
#: the call.
_STOCK_GAME: Final[dict[type, Any]] = {}
#: The engine's hooks: no stock (the default), the classic game's (the state itself)
#: and the three-handed game's (the two-handed game after a retirement, ``sub``).
_NO_STOCK: Final[Any] = Profile.stock_game
_OWN_STOCK: Final[Any] = ClassicRules.stock_game
_SUB_STOCK: Final[Any] = ThreeHandedRules.stock_game


class _LastHook:
    """The profile class whose ``stock_game`` was read last, and that hook: a walk
    asks for one profile's at every step, and two reads of an object's attributes
    cost a fraction of the dictionary's lookup by the class."""

    def __init__(self) -> None:
        self.cls: type | None = None
        self.hook: Any = None


_LAST_HOOK: Final = _LastHook()


def with_stock(state: GameState, stock: tuple[Card, ...]) -> GameState:
    """``state`` (whose classic part is the three-handed game's two-handed
    continuation) with that stock (top first) replaced by ``stock``, the same cards.

    The hand's ``deal`` is rewritten with that stock order and the game replayed
    from its start, so the state's history replays to the state itself (records,
    saved states and determinization read it).  A classic game's own stock is
    rewritten without a replay (:meth:`Walk.settle`).
    """
    from binocle.game import start

    moves = state.moves()
    last = max(i for i, (a, _) in enumerate(moves) if a.kind is _KIND_DEAL)
    cards = moves[last][0].cards
    keep = len(cards) - len(stock)
    deck = (*cards[:keep], *stock)
    s = start(state.profile, state.seed, state.first_dealer)
    for i, (action, _) in enumerate(moves):
        s = _apply(s, A.deal(deck) if i == last else action)
    return s


def redealt(state: Any, tail: tuple[Card, ...]) -> GameState:
    """The classic ``state`` with the last ``len(tail)`` cards of its hand's deal
    replaced by ``tail``, with no replay: the actions since the deal are linked again
    behind the new deal (the stock is the end of the deck; nothing else in a classic
    position depends on its order), so the history replays to the state once its
    stock was drawn in ``tail``'s order."""
    after: list[tuple[Any, Action, int | None]] = []
    node: tuple[Any, Action, int | None] = state.history
    deal_kind = _DEAL_KIND
    while node[1].kind is not deal_kind:
        after.append(node)
        node = node[0]
    prev, deal, actor = node
    cards = deal.cards
    relinked: tuple[Any, Action, int | None] = (
        prev, A.new_action(deal_kind, cards=(*cards[: len(cards) - len(tail)], *tail)), actor,
    )  # fmt: skip
    for j in range(len(after) - 1, -1, -1):
        link = after[j]
        relinked = (relinked, link[1], link[2])
    return _change_history(state, relinked)


def dealt_by_chance(state: GameState) -> int:
    """How many deck cards the pending deal reveals as chance: all but the classic stock."""
    if classic_part(state) is not None:
        return 25
    return state.profile.pack_size


class _Space:
    """A profile's action space, with what a step reads of it kept beside it: the
    fixed ids by their interned actions themselves (a legal action is mostly one of
    them, found by identity without hashing it), and the ids of
    melds that name no table copy (they do not depend on the state) by the meld."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.space: ActionSpace = _space(profile)
        self.by_identity = IdentityTable(self.space._fixed.items())
        #: Each id's fixed action (None for the ids of table-dependent actions).
        self.by_id: tuple[Action | None, ...] = self.space._by_id
        #: The card kinds (a chance outcome is an index among them) and the chance
        #: outcomes' rows (``outcomes_of``).
        self.cards: tuple[Card, ...] = kinds(profile.pack_size)
        self.rows: list[list[Any] | None] = _outcome_rows(len(self.cards))
        self.melds: dict[Action, int] = {}
        #: The same ids by the ``id()`` of the action objects met, each with its object.
        self.meld_objects: dict[int, tuple[Action, int]] = {}
        #: The ids of actions that depend on the player's meld table, by the ``id()`` of
        #: the action object, each with that object and the table it was worked out with.
        self.by_table: dict[int, tuple[Action, object, int]] = {}


#: Each profile's action space by the profile's ``id()`` (a profile hashes its options
#: each time: this is a read by identity), the profile kept alive beside it.
_SPACES: dict[int, _Space] = {}


def _space_of(profile: Profile) -> _Space:
    found = _SPACES.get(id(profile))
    if found is None or found.profile is not profile:
        if len(_SPACES) >= 64:
            _SPACES.clear()
        found = _SPACES[id(profile)] = _Space(profile)
    return found


def _id_of(found: _Space, state: GameState, action: Action) -> int:
    """``space.id(state, action)``: a meld that names no table copy read from a memo,
    a meld that names one or a play of one of two table copies from a memo of the
    table it was worked out with (the table is a value: the same object, the same
    copies)."""
    space = found.space
    kind = action.kind
    if kind is _MELD_KIND and "#" not in (action.source or ""):
        # The rules build each such meld once (one object for all states): it is found
        # by its identity first, without hashing its fields.
        seen = found.meld_objects
        held = seen.get(id(action))
        if held is not None and held[0] is action:
            k: int = held[1]
            return k
        memo = found.melds
        known = memo.get(action)
        if known is None:
            known = memo[action] = space.id(state, action)
        if len(seen) >= 4096:
            seen.clear()
        seen[id(action)] = (action, known)  # the action kept: its id stays its own
        return known
    if kind is not _MELD_KIND and kind is not _PLAY_KIND:
        i: int = space.id(state, action)
        return i
    table = _meld_table(state)
    by_table = found.by_table
    kept = by_table.get(id(action))
    if kept is not None and kept[0] is action and kept[1] is table:
        j: int = kept[2]
        return j
    j = space.id(state, action)
    if len(by_table) >= 4096:
        by_table.clear()
    by_table[id(action)] = (action, table, j)  # the action kept: its id stays its own
    return j


#: At a decision: the legal ids ascending, and each legal action's id beside the legal
#: actions.
Legal = tuple[tuple[int, ...], list[int], tuple[Action, ...]]


def legal_of(state: GameState, found: _Space | None = None) -> Legal:
    """The legal ids ascending (``ActionSpace.legal_ids``), and each legal action's id
    beside the legal actions (the interned ones found by identity); ``found`` is the
    profile's space where the caller keeps it."""
    if found is None:
        found = _space_of(state.profile)
    legal: tuple[Action, ...] = tuple(_legal_actions(state))
    # The ids handled as objects: the compiled build then neither unboxes nor boxes
    # them again on their way into the lists.  The interned actions' ids first, into a
    # list made at its length (None where an action is not interned).
    by_identity = found.by_identity
    ids: list[Any] = [by_identity.get(a) for a in legal]
    descents = 0  # how many ids are lower than the one before them
    last = -1
    for j in range(len(ids)):
        i = ids[j]
        if i is None:
            i = ids[j] = _id_of(found, state, legal[j])
        k: int = i
        if k < last:
            descents += 1
        last = k
    return _ascending(ids, descents), ids, legal


def _ascending(ids: list[Any], descents: int) -> tuple[int, ...]:
    """``ids`` (with ``descents`` ids lower than the one before them) ascending.

    Mostly they ascend already, or all but the last do: a claim or a concession
    comes after the plays, its id before theirs; it is put in its place without a
    sort."""
    if not descents:
        return tuple(ids)
    n = len(ids)
    x: int = ids[n - 1]
    before: int = ids[n - 2]
    if descents == 1 and x < before:
        p = 0
        while True:
            y: int = ids[p]
            if y > x:
                break
            p += 1
        # The ids read in the order that puts the last at place p: compiled, a tuple
        # made at its length and filled in place.
        return tuple(ids[k] for k in _moved_last(n, p))
    return tuple(sorted(ids))


def _moved_last(n: int, p: int) -> list[int]:
    """The indices ``0 .. n - 1`` with the last moved to place ``p``: ``0 .. p - 1``,
    ``n - 1``, ``p .. n - 2`` (each made once)."""
    key = n * _ORDER_WIDTH + p
    if n < _ORDER_WIDTH:
        if key < len(_ORDERS):
            kept = _ORDERS[key]
            if kept is not None:
                return kept
        else:
            _ORDERS.extend([None] * (key + 1 - len(_ORDERS)))
        order = _ORDERS[key] = [*range(p), n - 1, *range(p, n - 1)]
        return order
    return [*range(p), n - 1, *range(p, n - 1)]


#: The orders of ``_moved_last`` by ``n * _ORDER_WIDTH + p``, for ``n`` below the width.
_ORDER_WIDTH: Final = 64
_ORDERS: Final[list[list[int] | None]] = []


def action_of(
    state: GameState, known: Legal | None, action_id: int, found: _Space | None = None
) -> Action:
    """``ActionSpace.action``: the legal action with that id, one of the state's legal
    actions themselves (found among them by their ids when they are known, else the
    interned ones by identity; anything else asked of the space, which raises its
    errors); ``found`` is the profile's space where the caller keeps it."""
    if found is None:
        found = _space_of(state.profile)
    by_id = found.by_id
    if 0 <= action_id < len(by_id) and state.current_player is not None:
        fixed = by_id[action_id]
        if known is not None:
            ids = known[1]
            for j in range(len(ids)):
                if ids[j] == action_id:
                    return known[2][j]
        elif fixed is not None:
            for a in _legal_actions(state):
                if a is fixed:
                    return a
    action: Action = found.space.action(state, action_id)
    legal = _legal_actions(state)
    for a in legal:
        if a is action:
            return a
    # An action equal to a legal one, built by the space: the rules' own object.
    return legal[legal.index(action)]


def locate(state: GameState, first_results: int, hands: int, ready: bool) -> int:
    """Where an episode stands: the seat to decide, ``CHANCE``, ``END`` or ``NOBODY``."""
    phase = state.phase
    if phase is _OVER:
        return END
    if phase is _DEAL:
        return END if len(state.results) - first_results >= hands else CHANCE
    if not ready:
        classic = classic_part(state)
        if classic is not None:
            # The stock game is mostly the state itself, whose phase is read already.
            stock_phase = phase if classic is state else classic.phase
            if stock_phase is _ANNOUNCE:
                return CHANCE
    seat = state.current_player
    return NOBODY if seat is None else seat


def remaining(
    state: GameState, deck: tuple[Card, ...] | list[Card], pool: list[int] | None = None
) -> list[int]:
    """How many copies of each card kind the next chance outcome is drawn from, with
    ``deck`` drawn so far; ``pool``: the stock's counts where the caller keeps them
    (a classic walk), read instead of the stock."""
    size = state.profile.pack_size
    index = _kind_index(size)
    if state.phase is _DEAL:
        left = [2] * len(index)
    elif pool is not None:
        left = list(pool)  # a list of its own: the pool is shared with copies of the walk
    else:
        left = [0] * len(index)
        for c in classic_part(state).stock:
            left[index[int(c)]] += 1
    for c in deck:
        left[index[int(c)]] -= 1
    return left


def chance_left(state: GameState, drawn: int) -> int:
    """At chance, with ``drawn`` outcomes taken: how many the deal or the draw under way
    still takes."""
    if state.phase is _DEAL:
        return dealt_by_chance(state) - drawn
    return min(2, len(classic_part(state).stock)) - drawn


#: ``_ROWS[n][total][3 * i + k]``: the chance outcome ``(i, k / total)`` of ``n`` card
#: kinds, made once.  Typed as objects: the compiled build then hands out the tuples
#: themselves, where a ``tuple[int, float]`` would be unpacked and packed again (a new
#: tuple and float).
_ROWS: dict[int, list[list[Any] | None]] = {}


def _outcome_rows(n: int) -> list[list[Any] | None]:
    """For ``n`` card kinds: by the copies left in all, each kind's outcome with 0, 1
    and 2 copies of it left (each total's row made when first asked for)."""
    rows = _ROWS.get(n)
    if rows is None:
        rows = _ROWS[n] = [None] * (2 * n + 1)
    return rows


def outcomes_of(counts: list[int], rows: list[list[Any] | None] | None = None) -> list[Any]:
    """The chance outcomes ``(card index, probability)`` with ``counts`` copies of each
    card kind left (``rows``: ``_outcome_rows(len(counts))``, where the caller keeps it)."""
    n = len(counts)
    # A typed loop: compiled, ``sum()`` would be a call through the builtins module.
    total = 0
    for k in counts:
        total += k
    if not total:
        return []
    row = _outcome_row(_outcome_rows(n) if rows is None else rows, n, total)
    out: list[Any] = []
    j = 0  # kind i's row entries start at 3 * i
    for k in counts:
        if k:
            out.append(row[j + k])
        j += 3
    return out


def _outcome_row(rows: list[list[Any] | None], n: int, total: int) -> list[Any]:
    """``rows[total]``: each of ``n`` card kinds' outcome with 0, 1 and 2 copies of it
    left, of ``total`` copies in all (made when first asked for)."""
    row = rows[total]
    if row is None:
        row = rows[total] = [(i, k / total) for i in range(n) for k in range(3)]
    return row


class Unseen:
    """Every seat's views of a state, made when first asked for (then kept)."""

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._views: tuple[View, ...] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Unseen, (self._state,))

    def views(self) -> tuple[View, ...]:
        views = self._views
        if views is None:
            from binocle.game import observe

            s = self._state
            views = self._views = tuple([observe(s, i) for i in range(len(s.scores))])
        return views


class Walk:
    """An episode's fields, its sequences as lists, stepped in place.

    The fields are :class:`~binocle.encoding.Episode`'s (``ended`` holds a hand's
    views still unmade as an :class:`Unseen`); ``at`` is where it stands (``UNKNOWN``
    until worked out), ``left`` the copies of each card kind left at chance and
    ``legal`` the legal ids and actions at a decision (None until worked out).  A
    refused step raises before it changes anything.
    """

    def __init__(
        self,
        state: GameState,
        hands: int,
        first_results: int,
        start_scores: tuple[int, ...],
        deck: list[Card],
        ready: bool,
        history: list[int],
        base: tuple[int, ...],
        actors: list[int],
        ended: list[tuple[int, Any]],
        at: int,
        left: list[int] | None,
        legal: Legal | None,
        paid: GameState | None = None,
        drawn: list[Card] | None = None,
        tail: int = -1,
        pool: list[int] | None = None,
    ) -> None:
        self.raw = state
        self.hands = hands
        self.first_results = first_results
        self.start_scores = start_scores
        self.deck = deck
        self.ready = ready
        self.history = history
        self.base = base
        self.actors = actors
        self.ended = ended
        self.at = at
        self.left = left
        self.legal = legal
        #: The game state before the last decision (None before the first; only its
        #: scores and where it stood are read).
        self.paid = paid
        # A classic stock draw writes its cards to the state's stock alone (relinking the
        # history behind the hand's deal costs a copy of every action since): ``drawn``
        # holds the cards drawn since the deal was last written, and ``tail`` how many
        # of the deal's last cards were still undrawn then (-1: none drawn since).
        self.drawn: list[Card] = [] if drawn is None else drawn
        self.tail = tail
        #: In a classic hand: how many copies of each card kind the stock holds (the
        #: cards the next draw comes from), kept from the last deal or draw; None
        #: where it was not kept (``remaining`` counts them).
        self.pool = pool
        # The profile's action space, read once (``found``).
        self._found: _Space | None = None
        # The scores ``base`` was last worked out from (``decide``).
        self._scored: tuple[int, ...] | None = None
        # At chance: how many outcomes the deal or the draw under way takes in all
        # (``chance_left`` before its first card; -1 until worked out).
        self._run = -1
        # At chance, once the outcomes were asked for: the card kinds with a copy left
        # (ascending) and how many copies are left in all, kept in step with ``left``
        # as cards are drawn (None: not worked out since ``left`` was last made).
        self._kinds: list[int] | None = None
        self._total = 0

    @property
    def state(self) -> GameState:
        """The game state, its history written out (the hand's deal in the order the
        stock was drawn)."""
        if self.tail < 0:
            return self.raw
        return self.settle()

    def settle(self) -> GameState:
        """Write the stock draws made since the deal was last written into its history."""
        s = self.raw
        tail = self.tail
        if tail >= 0:
            drawn = self.drawn
            stock: tuple[Card, ...] = s.stock  # type: ignore[attr-defined]
            left = tail - len(drawn)
            s = self.raw = redealt(s, (*drawn, *stock[len(stock) - left :]))
            self.drawn = []
            self.tail = -1
        return s

    def copy(self) -> Walk:
        """A walk of its own at the same position."""
        left = self.left
        return Walk(
            self.raw, self.hands, self.first_results, self.start_scores, list(self.deck),
            self.ready, list(self.history), self.base, list(self.actors), list(self.ended),
            self.at, None if left is None else list(left), self.legal, self.paid,
            list(self.drawn), self.tail, self.pool,
        )  # fmt: skip

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (the compiled class has no default reconstruction).
        return (Walk, (
            self.raw, self.hands, self.first_results, self.start_scores, self.deck,
            self.ready, self.history, self.base, self.actors, self.ended, self.at, self.left,
            self.legal, self.paid, self.drawn, self.tail, self.pool,
        ))  # fmt: skip

    def __copy__(self) -> Walk:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Walk:
        return self.copy()

    def found(self) -> _Space:
        """The profile's action space, with what a step reads of it."""
        found = self._found
        if found is None or found.profile is not self.raw.profile:
            found = self._found = _space_of(self.raw.profile)
        return found

    def where(self) -> int:
        """Where the walk stands: the seat to decide, ``CHANCE``, ``END`` or ``NOBODY``."""
        at = self.at
        if at == UNKNOWN:
            at = self.at = locate(self.raw, self.first_results, self.hands, self.ready)
        return at

    def is_chance(self) -> bool:
        """Whether the next step is a chance outcome."""
        return self.where() == CHANCE

    def to_draw(self) -> int:
        """At chance: how many outcomes the deal or the draw under way still takes."""
        return chance_left(self.raw, len(self.deck))

    def counts(self) -> list[int]:
        """At chance: how many copies of each card kind the next outcome is drawn from."""
        left = self.left
        if left is None:
            left = self.left = remaining(self.raw, self.deck, self.pool)
        return left

    def outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes (card indices) with their probabilities, ascending."""
        if self.where() != CHANCE:
            return []
        counts = self.counts()
        kinds = self._kinds
        if kinds is None:
            kinds = self._kinds = [i for i in range(len(counts)) if counts[i]]
            total = 0
            for k in counts:
                total += k
            self._total = total
        total = self._total
        if not total:
            return []
        # As outcomes_of gives them, read off the kinds left alone.
        row = _outcome_row(self.found().rows, len(counts), total)
        return [row[3 * i + counts[i]] for i in kinds]

    def legal_ids(self) -> tuple[int, ...]:
        """The legal ids of the player to decide (the chance outcomes at chance)."""
        at = self.where()
        if at == CHANCE:
            counts = self.counts()
            ids: list[int] = []
            for i in range(len(counts)):
                if counts[i]:
                    ids.append(i)
            return tuple(ids)
        if at < 0:
            return ()
        known = self.legal
        if known is None:
            known = self.legal = legal_of(self.raw, self.found())
        return known[0]

    def apply(self, action_id: Any) -> int:
        """:meth:`step` for an id from anywhere: a bool, a float or text raises
        :class:`~binocle.InvalidArgumentError`, as :meth:`Episode.apply
        <binocle.encoding.Episode.apply>` does.  A plain int goes straight to the
        step."""
        return self.step(action_id if type(action_id) is int else _check_id(action_id))

    def step(self, action_id: int) -> int:
        """Take a decision or a chance outcome by id, as :meth:`Episode.apply
        <binocle.encoding.Episode.apply>` does; return where the walk then stands."""
        at = self.where()
        if at == END:
            raise IllegalActionError("the episode is over", RuleCode.GAME_OVER)
        if at == CHANCE:
            self.chance(action_id)
        else:
            self.decide(action_of(self.raw, self.legal, action_id, self.found()), action_id)
        return self.where()

    def chance(self, outcome: int) -> None:
        """Take the chance outcome ``outcome`` (a card index); a deal or a stock draw is
        applied to the state when its last card is drawn."""
        counts = self.counts()
        state = self.raw
        cards = self.found().cards
        if not 0 <= outcome < len(counts):
            raise IllegalActionError(
                f"chance outcome {excerpt(outcome)} is not a card index", RuleCode.BAD_DECK
            )
        card = cards[outcome]
        if not counts[outcome]:
            raise IllegalActionError(
                f"chance outcome {card}: no copy of it is left to deal", RuleCode.BAD_DECK
            )
        deck = self.deck
        run = self._run
        if run < 0:
            run = self._run = chance_left(state, 0)
        if len(deck) + 1 < run:
            self._to_deck(counts, outcome, card)
            return
        # The last card of the deal or the draw: the rest of the pack (or the stock) in
        # its sorted order follows the cards drawn (the kinds are ascending: the rest is
        # sorted as it is read off the counts).
        counts = list(counts)
        counts[outcome] -= 1
        rest: list[Card] = []
        for i in range(len(counts)):
            for _ in range(counts[i]):
                rest.append(cards[i])
        dealt = (*deck, card, *rest)
        # The stock game is the state itself (classic), or inside it (after a retirement).
        classic = classic_part(state) is state
        if state.phase is _DEAL:
            # The pack's own cards, in a deck order: dealt without the checks of a
            # deck from elsewhere.
            after = _apply_pack_deal(state, A.new_action(_DEAL_KIND, cards=dealt))
            ready = False
        elif classic:
            # The draw written to the stock alone; the deal with the last one.
            if self.tail < 0:
                self.tail = len(dealt)
            self.drawn.extend(dealt[: len(deck) + 1])
            after = _change_stock(cast(ClassicState, state), dealt)
            if not rest:
                self.raw = after
                after = self.settle()
            ready = True
        else:
            after = with_stock(state, dealt)
            ready = True
        # What is left undealt or undrawn is the stock the next draw comes from.
        self.pool = counts if classic else None
        self.raw = after
        self.ready = ready
        self.deck = []
        self.history.append(outcome)
        self.actors.append(-1)
        self.at = UNKNOWN
        self.left = None
        self._kinds = None
        self.legal = None
        self._run = -1

    def draw(self, numbers: list[float]) -> None:
        """Take one chance outcome for each of ``numbers`` (uniform in [0, 1), no more
        than :meth:`to_draw`): each number is walked down the outcomes in order, less
        each one's probability as :meth:`outcomes` weighs it, and the outcome where it
        falls below 0 is taken."""
        counts = self.counts()  # kept in step with the cards taken, as chance() does
        cards = self.found().cards
        # Every card but the one that ends the deal or the draw only joins the deck.
        room = chance_left(self.raw, len(self.deck)) - 1
        total = 0
        for k in counts:
            total += k
        for j in range(len(numbers)):
            r = numbers[j]
            pick = -1
            for i in range(len(counts)):
                k = counts[i]
                if k:
                    pick = i
                    r -= k / total
                    if r < 0:
                        break
            if j < room and pick >= 0:
                self._to_deck(counts, pick, cards[pick])
                total -= 1
                continue
            # The last card (the deal or the draw is applied), or no card left: checked.
            self.chance(pick)
            if j + 1 < len(numbers):
                self.draw(numbers[j + 1 :])
            return

    def _to_deck(self, counts: list[int], outcome: int, card: Card) -> None:
        """Chance outcome ``outcome`` (``card``, a copy still in ``counts``), not the
        last of its deal or draw: it joins the deck drawn so far."""
        self.deck.append(card)
        counts[outcome] -= 1
        kinds = self._kinds
        if kinds is not None and counts is self.left:
            self._total -= 1
            if not counts[outcome]:
                kinds.remove(outcome)
        self.history.append(outcome)
        self.actors.append(-1)
        self.at = CHANCE

    def decide(self, action: Action, action_id: int) -> None:
        """Take the decision ``action`` (legal here, with id ``action_id``)."""
        # ``action`` is one of the legal actions themselves (:func:`action_of`): the
        # rules apply it without the search for it among them.
        before = self.raw
        s = _apply_legal(before, action)
        if len(s.results) > len(before.results) and self.tail >= 0:
            # A hand ended before its stock was drawn: its history written out first.
            before = self.settle()
            s = _apply_legal(before, action)
        seat = before.current_player
        assert seat is not None
        history = self.history
        history.append(action_id)
        self.actors.append(seat)
        if len(s.results) > len(before.results):
            # A hand ended: keep what each seat saw of it, for the perfect-recall encodings
            # (the views made when ``ended`` is first read).
            self.ended.append((len(history), Unseen(before)))
        scores = before.scores
        if scores is not self._scored:
            # The scores change between hands only: the base is kept until they do.
            start = self.start_scores
            self.base = tuple([x - start[i] for i, x in enumerate(scores)])
            self._scored = scores
        self.paid = before
        self.raw = s
        if self.deck:
            self.deck = []
        self.ready = False
        self.at = UNKNOWN
        self.left = None
        self._kinds = None
        self.legal = None
        self._run = -1
