"""The observation tensor and the legal ids read from the state itself, for batched steps.

:func:`binocle.encoding.observation_tensor` reads a :class:`~binocle.View`, which
:func:`binocle.observe` builds from the whole history (its log, its masked history,
its deck).  A batched environment needs only the tensor, so :class:`FastEncoder`
reads the few fields the tensor shows straight from the state, as entries of a flat
batch (a column and a value each), which the caller sums into its array.  It gives
exactly the values :func:`~binocle.encoding.observation_tensor` gives of the seat's
view, at every position of the cutthroat, classic and three-handed profiles (between
hands and at the game's end, where the view shows the last hand's cards played, and
in the two-handed game after a three-handed retirement, its seats mapped to the
table's); a profile it has no writer for (partnership, a profile of one's own) goes
through the view.

The compiled build compiles this module (its loops over many games are the
vectorized environment's hot path), so it is written with typed locals and no
closures.
"""

from __future__ import annotations

from typing import Any, Final

from binocle._step import apply, legal_actions
from binocle.actions import Action, Kind
from binocle.cards import Suit
from binocle.core import GameState, Phase, Profile
from binocle.encoding._actions import _meld_table, _space
from binocle.encoding._common import kinds
from binocle.encoding._identity import IdentityTable
from binocle.encoding._tensors import (
    _COMBO_KINDS,
    _layout_cached,
    _meld_cards,
    _offsets,
    information_state_tensor,
    observation_tensor,
)
from binocle.errors import IllegalActionError, RuleCode, excerpt
from binocle.profiles import ClassicState, CutthroatState, ThreeHandedState
from binocle.profiles.classic import Classic
from binocle.profiles.cutthroat import Cutthroat
from binocle.profiles.three_handed import ThreeHanded
from binocle.rules.classic_melds import MeldTable

# By the member's identity: an enum member's own hash is a Python function.
_PHASE_INDEX: Final = {id(p): i for i, p in enumerate(Phase)}
_SUIT_INDEX: Final = {id(s): int(s) for s in Suit}
_BIDDING: Final = Phase.BIDDING
_DEAL: Final = Phase.DEAL
_OVER: Final = Phase.OVER
_PLAY: Final = Kind.PLAY
_DEAL_KIND: Final = Kind.DEAL
_MELD_KIND: Final = Kind.MELD
_MEMO_SIZE: Final = 4_096
# How many tuples a memo of columns keeps (of the last steps: a hand or a history
# node is looked up again while it lasts, a few steps).  Kept small, its entries are
# freed together often, and a training loop's garbage collector, which counts the
# containers made and not yet freed, seldom runs: with 4,096 it took a fifth of a
# PettingZoo classic loop's time, with 1,024 a fiftieth.
_KEPT_TUPLES: Final = 1_024
_CUTTHROAT: Final = 1
_CLASSIC: Final = 2
_THREE_HANDED: Final = 3
#: The profiles whose tensor is written from the state's own fields, by the profile's
#: class, with the writer that does it (:meth:`FastEncoder.observe`): a profile not
#: here (partnership, a profile of one's own) has its tensor read from its view, the
#: same tensor, slower.  A state writer is written for the fields of one state class.
_STATE_WRITERS: Final[dict[type, int]] = {
    Cutthroat: _CUTTHROAT,
    Classic: _CLASSIC,
    ThreeHanded: _THREE_HANDED,
}
#: The id that leaves a game where it is in a step of many games (its seat waits).
WAIT: Final = -1


class FastEncoder:
    """Writes one seat's observation tensor (or, ``full``, its information-state
    tensor) and the legal ids of a state into a batch.

    ``size`` is the tensor's length (:func:`~binocle.encoding.tensor_layout` of kind
    ``"observation"``, or ``"information_state"``); ``num_actions`` the action
    space's.  The writers append to
    the caller's lists: ``ones`` takes the columns that count one each (a card held
    twice is there twice), ``at``/``values`` the columns with another value.
    """

    def __init__(self, profile: Profile, full: bool = False) -> None:
        self.profile = profile
        # Which of the state writers below serves the profile (0: none, the view's).
        self.family: int = _STATE_WRITERS.get(type(profile), 0)
        self.players: int = profile.players
        self.full = full
        layout = _layout_cached(profile, full)
        self.size: int = layout.size
        offsets = _offsets(layout)
        cards = kinds(profile.pack_size)
        width = len(cards)
        self.width: int = width
        # Each card part's column of each card, by the card's int (up to 32).
        self.card: dict[str, list[int]] = {}
        for part, (start, shape) in offsets.items():
            if shape and shape[-1] == width:
                row = [-1] * 32
                for i, c in enumerate(cards):
                    row[int(c)] = start + i
                self.card[part] = row
        # The first column of each part (those of every profile as attributes too).
        self.one: dict[str, int] = {part: start for part, (start, _) in offsets.items()}
        self.at_seat: int = self.one["seat"]
        self.at_to_act: int = self.one["to_act"]
        self.at_dealer: int = self.one["dealer"]
        self.at_phase: int = self.one["phase"]
        self.at_trump: int = self.one["trump"]
        self.at_hand_sizes: int = self.one["hand_sizes"]
        self.at_scores: int = self.one["scores"]
        # The first column of each profile's own parts, and the columns of its card
        # parts (-1 and [] where the profile has none): attributes, not dictionary
        # lookups, in compiled code.
        self.at_announced: int = self.one.get("announced", -1)
        self.at_bid: int = self.one.get("bid", -1)
        self.at_bidder: int = self.one.get("bidder", -1)
        self.at_discard_count: int = self.one.get("discard_count", -1)
        self.at_dix_shown: int = self.one.get("dix_shown", -1)
        self.at_dixes: int = self.one.get("dixes", -1)
        self.at_exchanged: int = self.one.get("exchanged", -1)
        self.at_meld_points: int = self.one.get("meld_points", -1)
        self.at_overlooked: int = self.one.get("overlooked", -1)
        self.at_passed: int = self.one.get("passed", -1)
        self.at_recorded: int = self.one.get("recorded", -1)
        self.at_retired: int = self.one.get("retired", -1)
        self.at_scored: int = self.one.get("scored", -1)
        self.at_stock_size: int = self.one.get("stock_size", -1)
        self.at_taken: int = self.one.get("taken", -1)
        self.at_targets: int = self.one.get("targets", -1)
        self.cols_concealed: list[int] = self.card.get("concealed", [])
        self.cols_discards: list[int] = self.card.get("discards", [])
        self.cols_tables: list[int] = self.card.get("tables", [])
        self.cols_turn_up: list[int] = self.card.get("turn_up", [])
        self.cols_widow: list[int] = self.card.get("widow", [])
        p = profile.players
        start0 = offsets["trick"][0]
        # Trick row r: the column of each seat, and of each card (by its int).
        self.trick_seat: list[list[int]] = []
        self.trick_card: list[list[int]] = []
        for r in range(p - 1):
            first = start0 + r * (p + width)
            by_card = [-1] * 32
            for i, c in enumerate(cards):
                by_card[int(c)] = first + p + i
            self.trick_seat.append([first + s for s in range(p)])
            self.trick_card.append(by_card)
        # The observation's cards played this hand; the information state's, by seat.
        self.gone: list[int] = self.card.get("gone", [])
        self.played_at: int = self.one.get("played", -1)
        self.melds_at: int = self.one.get("melds", -1)
        self.bids_at: int = self.one.get("bids", -1)
        self.table_melds_at: int = self.one.get("table_melds", -1)
        self.combo_index: dict[str, int] = {k: i for i, k in enumerate(_COMBO_KINDS)}
        # Each card's kind (its place among the pack's card kinds), by the card's int.
        self.kind: list[int] = [-1] * 32
        for i, c in enumerate(cards):
            self.kind[int(c)] = i
        self.hand: list[int] = self.card["hand"]
        space = _space(profile)
        self.space = space
        self.num_actions: int = space.size
        # The interned actions' ids, found by identity (an action's hash is a Python
        # function).
        self.ident = IdentityTable(space._fixed.items())
        # Card columns of tuples seen lately, by the tuple's identity (a hand is the
        # same object from one state to the next until it changes).
        self.hand_memo: _Memo = _Memo()
        self.concealed_memo: _Memo = _Memo()
        self.passed_memo: _Memo = _Memo()
        self.legal_memo: _Memo = _Memo()
        self.meld_memo: _Memo = _Memo()
        self.played_memo: _Memo = _Memo()
        # The ids of meld actions that use no particular table copy, by the action's
        # fields: such an id does not depend on the state.
        self.meld_ids: dict[tuple[object, ...], int] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its arguments (the compiled class has no other way), its
        # memos left behind.
        return (FastEncoder, (self.profile, self.full))

    # -- legal ids ---------------------------------------------------------------

    def legal(self, state: GameState, legal: tuple[Action, ...]) -> dict[int, Action]:
        """Each legal id with its action (``legal``: the legal actions of ``state``)."""
        ident = self.ident
        out: dict[int, Action] = {}
        for a in legal:
            i = ident.get(a)
            if i is None:
                i = self._made_id(state, a)
            out[i] = a
        return out

    def legal_ids(self, state: GameState, legal: tuple[Action, ...]) -> tuple[int, ...]:
        """The ids of ``legal`` (the legal actions of ``state``), in their order;
        remembered by the tuple (the engine shares one between states) where every
        id is fixed."""
        kept = _kept(self.legal_memo, legal)
        if kept is not None:
            return kept
        ident = self.ident
        ids: list[int] = []
        fixed = True
        for a in legal:
            i = ident.get(a)
            if i is None:
                # An action made for the state (a card from the table, a meld): its id
                # worked out (or remembered), the list not remembered.
                i = self._made_id(state, a)
                fixed = False
            ids.append(i)
        out = tuple(ids)
        if fixed:
            _keep(self.legal_memo, legal, out)
        return out

    def _made_id(self, state: GameState, a: Action) -> int:
        """The id of an action that is not interned: a meld's through :meth:`meld_id`,
        any other worked out from the state."""
        if a.kind is _MELD_KIND and a.name is not None:
            source = a.source
            table = _meld_table(state) if source is not None and "#" in source else None
            return self.meld_id(table, a)
        return self.space.id(state, a)

    def meld_id(self, table: MeldTable | None, a: Action) -> int:
        """The id of ``a``, a named announcement by the player whose meld table is
        ``table``; remembered by the action's fields where it names no table copy
        (then it does not depend on the table)."""
        source = a.source
        if source is not None and "#" in source:
            return self.space._meld_id(table, a)
        key = (a.name, a.cards, source)
        got = self.meld_ids.get(key)
        if got is None:
            got = self.space._meld_id(None, a)
            if len(self.meld_ids) > _MEMO_SIZE:
                self.meld_ids.clear()
            self.meld_ids[key] = got
        return got

    def card_column(self, part: str, card: int) -> int:
        """The column of ``card`` in the tensor's card part ``part`` (e.g. ``"gone"``)."""
        return self.card[part][card]

    def _cols(
        self,
        table: list[int],
        memo: _Memo,
        cards: tuple[int, ...],
    ) -> tuple[int, ...]:
        """The columns of ``cards`` in a card part, remembered by the tuple (typed as
        whole numbers: compiled, each card is a machine integer, a native list index)."""
        cols = _kept(memo, cards)
        if cols is None:
            cols = _keep(memo, cards, tuple([table[c] for c in cards]))
        return cols

    # -- many games at once ------------------------------------------------------------

    def resolve(
        self,
        states: list[GameState],
        legal_maps: list[tuple[tuple[Action, ...], tuple[int, ...]]],
        ids: list[int],
    ) -> list[Action | None]:
        """The action each id stands for in its game (``legal_maps[i]``: the legal
        actions of ``states[i]`` with their ids).  An id not legal in its game raises
        :class:`~binocle.IllegalActionError` naming the game, before any game moves.
        A game whose id is :data:`WAIT` gets None: it does not move."""
        chosen: list[Action | None] = []
        for i in range(len(ids)):
            legal, legal_ids = legal_maps[i]
            a = ids[i]
            if a == WAIT:
                chosen.append(None)
                continue
            n = len(legal_ids)
            k = 0
            while k < n and legal_ids[k] != a:
                k += 1
            if k == n:
                raise IllegalActionError(
                    f"game {i}: action id {a} is not legal now",
                    RuleCode.NOT_LEGAL,
                    None,
                    states[i].current_player,
                )
            chosen.append(legal[k])
        return chosen

    def advance(
        self,
        states: list[GameState],
        chosen: list[Action | None],
        played: list[int],
        rewards: list[int],
    ) -> list[int]:
        """Apply ``chosen[i]`` to ``states[i]`` in place; for each card played, append
        ``i * width + k`` to ``played`` (``k``: the card's kind, ``width``: the
        number of kinds); append each seat's score change to ``rewards`` (flat, game
        by game; 0s for a game whose action is None, which does not move).  Return the
        games where nobody decides now."""
        idle: list[int] = []
        kind = self.kind
        width = self.width
        for i in range(len(states)):
            before = states[i]
            action = chosen[i]
            if action is None:  # the game waits
                for _ in before.scores:
                    rewards.append(0)
                continue
            s = apply(before, action)
            if action.kind is _PLAY:
                card = action.card
                assert card is not None
                played.append(i * width + kind[card])
            old = before.scores
            new = s.scores
            for k in range(len(new)):
                rewards.append(new[k] - old[k])
            states[i] = s
            if s.current_player is None:
                idle.append(i)
        return idle

    def write(
        self,
        states: list[GameState],
        legal_maps: list[tuple[tuple[Action, ...], tuple[int, ...]]],
        ones: list[int],
        ones_n: list[int],
        at: list[int],
        at_n: list[int],
        values: list[float],
        legal_at: list[int],
        whole: list[int],
    ) -> list[int]:
        """For each game ``i``: its legal actions with their ids (into
        ``legal_maps[i]``, and ``i * num_actions + id`` into ``legal_at``) and the
        observation tensor of its seat to act (``ones`` and ``at``/``values`` as
        :meth:`observe` writes them; ``ones_n``/``at_n``: how many entries each
        game added), without the cards played this hand except in the games listed
        in ``whole`` (read from the view).  Return the seats to act."""
        seats: list[int] = []
        width = self.num_actions
        for i in range(len(states)):
            s = states[i]
            seat = s.current_player
            assert seat is not None
            seats.append(seat)
            legal = legal_actions(s)
            ids = self.legal_ids(s, legal)
            legal_maps[i] = (legal, ids)
            base = i * width
            for k in ids:
                legal_at.append(base + k)
            n1 = len(ones)
            n2 = len(at)
            if self.observe(s, seat, ones, at, values, False):
                whole.append(i)
            ones_n.append(len(ones) - n1)
            at_n.append(len(at) - n2)
        return seats

    # -- the observation tensor -----------------------------------------------------

    def observe(
        self,
        state: GameState,
        seat: int,
        ones: list[int],
        at: list[int],
        values: list[float],
        with_gone: bool = True,
    ) -> bool:
        """Append ``seat``'s observation tensor of ``state`` (columns from 0).

        ``with_gone=False`` leaves out the cards played this hand (the caller keeps
        them) where the game is in a hand of its own seats: in a hand of the
        cutthroat, classic or three-handed profile (not the two-handed game after a
        retirement).

        The return value is True where the caller must take the tensor as written
        whole, the cards played this hand included: where it was read from the view
        (a profile without a state writer), or where ``with_gone`` is False and the
        position is one where the cards played are written anyway (between hands, at
        the game's end, in the two-handed game after a retirement).  With
        ``with_gone`` True, True says the view was read: the tensor came from the
        state's history as well as its fields, so a caller whose state's history is
        not yet written out (the PettingZoo walk's undrawn stock) reads its settled
        state again.
        """
        family = self.family
        full = self.full
        phase = state.phase
        # Between hands and at the game's end the view shows the last hand's plays,
        # read from its log (classic, three-handed) or nothing (cutthroat).
        between = phase is _DEAL or phase is _OVER
        if family == _CUTTHROAT and isinstance(state, CutthroatState):
            self._common(state, seat, ones, at, values)
            if between:
                pass  # the view's plays are ``played`` and the trick: both empty now
            elif full:
                self._plays(state.history, None, ones)
            elif with_gone:
                gone = self.gone
                k: int
                for t in state.played:
                    for _, c in t:
                        k = c  # compiled: a native list index
                        ones.append(gone[k])
                self._piles((), state.trick, ones)
            self._cutthroat(state, seat, ones, at, values)
            return between and not with_gone
        if family == _CLASSIC and isinstance(state, ClassicState):
            self._common(state, seat, ones, at, values)
            self._hand_plays(full or between, with_gone, state, ones, None)
            self._classic(state, seat, ones, at, values)
            return between and not with_gone
        if family == _THREE_HANDED and isinstance(state, ThreeHandedState):
            self._common(state, seat, ones, at, values)
            sub = state.sub
            if sub is None:
                self._hand_plays(full or between, with_gone, state, ones, None)
                self._three_handed(state, seat, ones, at, values)
                return between and not with_gone
            # The two-handed game after a retirement: its plays, seats mapped by
            # ``pair``, are written whatever ``with_gone`` says.
            pair = state.pair
            assert pair is not None
            self._hand_plays(full or between, True, sub, ones, pair)
            self._three_handed(state, seat, ones, at, values)
            self._two_handed(sub, pair, ones, at, values)
            return not with_gone
        self._from_view(state, seat, at, values)
        return True

    def _hand_plays(
        self,
        read: bool,
        with_gone: bool,
        state: ClassicState | ThreeHandedState,
        ones: list[int],
        pair: tuple[int, ...] | None,
    ) -> None:
        """The cards played this hand of a classic or three-handed ``state``: read back
        along its history where ``read`` (the information state, or between hands; its
        seats mapped by ``pair`` where given), else from its piles and trick where
        ``with_gone``."""
        if read:
            self._plays(state.history, pair, ones)
        elif with_gone:
            self._piles(state.piles, state.trick, ones)

    def _plays(self, top: Any, pair: tuple[int, ...] | None, ones: list[int]) -> None:
        """The cards played in the hand of history ``top``, read back along it to the
        hand's deal (or to a history node whose columns are known): in the information
        state's ``played`` part, each in the row of the seat that played it (mapped
        by ``pair``, the two-handed game's seats, where given); in the observation's
        ``gone`` part.  A position between hands reads the last hand's, as the view's
        log shows them.

        The columns are remembered by the node: a node is read through one game's
        history, so with one ``pair``, always."""
        full = self.full
        gone = self.gone
        start = self.played_at
        width = self.width
        kind = self.kind
        memo = self.played_memo
        node: Any = top
        known: tuple[int, ...] = ()
        new: list[int] = []
        while node:
            hit = _kept(memo, node)
            if hit is not None:
                known = hit
                break
            action = node[1]
            k = action.kind
            if k is _DEAL_KIND:
                break
            if k is _PLAY:
                card: int = action.card
                if not full:
                    new.append(gone[card])
                else:
                    who: int = node[2]
                    if pair is not None:
                        who = pair[who]
                    new.append(start + who * width + kind[card])
            node = node[0]
        if node is not top:  # the top node was not known: keep it
            if new:
                known = known + tuple(new)
            _keep(memo, top, known)
        ones.extend(known)

    def _from_view(self, state: GameState, seat: int, at: list[int], values: list[float]) -> None:
        from binocle.game import observe

        view = observe(state, seat)
        tensor = information_state_tensor(view) if self.full else observation_tensor(view)
        for k, v in enumerate(tensor):
            if v:
                at.append(k)
                values.append(v)

    def _piles(
        self,
        piles: tuple[tuple[Any, ...], ...],
        trick: tuple[tuple[int, Any], ...],
        ones: list[int],
    ) -> None:
        """The ``gone`` columns of the cards in ``piles`` and in the trick in progress."""
        gone = self.gone
        k: int  # compiled: the card as a machine integer, a native list index
        for pile in piles:
            for c in pile:
                k = c
                ones.append(gone[k])
        for _, c in trick:
            k = c
            ones.append(gone[k])

    def _common(
        self, s: GameState, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        ones.append(self.at_seat + seat)
        p = s.current_player
        if p is not None:
            ones.append(self.at_to_act + p)
        ones.append(self.at_dealer + s.dealer)
        ones.append(self.at_phase + _PHASE_INDEX[id(s.phase)])
        trump = s.trump
        if trump is not None:
            suit = _SUIT_INDEX.get(id(trump))  # a member by identity, without a call
            ones.append(self.at_trump + (int(trump) if suit is None else suit))
        ones.extend(self._cols(self.hand, self.hand_memo, s.hands[seat]))
        k = self.at_hand_sizes
        for h in s.hands:
            if h:
                at.append(k)
                values.append(len(h))
            k += 1
        last = self.players - 1
        for r, (sc, cc) in enumerate(s.trick):
            if r >= last:
                break
            ones.append(self.trick_seat[r][sc])
            ones.append(self.trick_card[r][cc])
        _values(self.at_scores, s.scores, at, values)

    def _cutthroat(
        self, s: CutthroatState, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        auction = s.auction
        calls = auction.calls
        # The columns of the calls (the passes; the information state's bids too),
        # remembered by the tuple: it changes only in the auction.
        cols = _kept(self.passed_memo, calls)
        if cols is None:
            cols = _keep(self.passed_memo, calls, self._calls(calls))
        ones.extend(cols)
        bidder = auction.bidder
        phase = s.phase
        if bidder is not None and phase is not _BIDDING and phase is not _DEAL:
            ones.append(self.at_bidder + bidder)
            widow = self.cols_widow
            for c in auction.widow:
                ones.append(widow[c])
        bid = auction.bid
        if bid:
            at.append(self.at_bid)
            values.append(bid)
        discards = auction.discards
        if discards:
            if seat == bidder:
                table = self.cols_discards
                for c in discards:
                    ones.append(table[c])
            at.append(self.at_discard_count)
            values.append(len(discards))
        k = self.at_meld_points
        for m in auction.melds:
            if m is not None and m.total:
                at.append(k)
                values.append(m.total)
            k += 1
        if self.full:
            width = self.width
            memo = self.meld_memo
            row = self.melds_at
            for m in auction.melds:
                if m is not None:
                    cols = _kept(memo, m)
                    if cols is None:
                        kind = self.kind
                        cols = _keep(memo, m, tuple([kind[c] for c in _meld_cards(m)]))
                    for k in cols:
                        ones.append(row + k)
                row += width

    def _calls(self, calls: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        """The columns of an auction's calls: each pass's seat in ``passed``; in the
        information state, each bid's amount and seat in ``bids`` as well."""
        passed = self.at_passed
        out: list[int] = []
        for who, amount in calls:
            if not amount:
                out.append(passed + who)
        if self.full:
            bids = self.bids_at
            low: int = self.profile.min_bid  # type: ignore[attr-defined]
            p = self.players
            for who, amount in calls:
                if amount:
                    out.append(bids + (amount - low) // 10 * p + who)
        return tuple(out)

    def _classic(
        self, s: ClassicState, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        turn_up = s.turn_up
        if turn_up is not None:
            ones.append(self.cols_turn_up[turn_up])
        if s.stock:
            at.append(self.at_stock_size)
            values.append(len(s.stock))
        ones.extend(self._cols(self.cols_concealed, self.concealed_memo, s.concealed[seat]))
        tables = self.cols_tables
        width = self.width
        for i, t in enumerate(s.tables):
            row = i * width
            for _, c in t.slots:  # its cards (``cards`` sorts them)
                ones.append(row + tables[c])
        _values(self.at_meld_points, s.meld_points, at, values)
        _values(self.at_taken, s.taken, at, values)
        if s.dixes:
            at.append(self.at_dixes)
            values.append(s.dixes)
        _values(self.at_targets, s.targets, at, values)
        if self.full:
            start = self.table_melds_at
            kinds_ = len(self.combo_index)
            index = self.combo_index
            for i, t in enumerate(s.tables):
                for m in t.melds:
                    k = index[m.combination.kind]
                    ones.append(start + (i * kinds_ + k) * 2 + (0 if m.intact else 1))

    def _three_handed(
        self, s: ThreeHandedState, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        turn_up = s.turn_up
        if turn_up is not None:
            ones.append(self.cols_turn_up[turn_up])
        if s.exchanged:
            ones.append(self.at_exchanged)
        _values(self.at_dix_shown, s.nines_shown, at, values)
        _values(self.at_announced, s.announced, at, values)
        scored = self.at_scored
        for i, x in enumerate(s.scored):
            if x:
                ones.append(scored + i)
        _values(self.at_recorded, s.recorded, at, values)
        if s.sub is None:  # else the two-handed game's (``_two_handed``)
            _values(self.at_taken, s.taken, at, values)
        _values(self.at_targets, s.targets, at, values)
        retired = s.retired
        if retired is not None:
            ones.append(self.at_retired + retired)
        offer = s.offer
        if offer is not None:
            ones.append(self.at_overlooked + offer.seat)
            at.append(self.at_overlooked + self.players)
            values.append(offer.points)
        if self.full:
            width = self.width
            row = self.melds_at
            memo = self.meld_memo
            for shown in s.shown:
                # A seat's shown combinations are the same tuple from one state to
                # the next until it shows more: their card kinds are remembered by it.
                kinds_ = _kept(memo, shown)
                if kinds_ is None:
                    kinds_ = _keep(memo, shown, self._shown_kinds(shown))
                for k in kinds_:
                    ones.append(row + k)
                row += width

    def _shown_kinds(self, shown: tuple[Any, ...]) -> tuple[int, ...]:
        """The card kinds of every card a seat's shown combinations use, each copy
        once (a card two combinations share counts once)."""
        kind = self.kind
        most: dict[int, int] = {}
        for m in shown:
            counts: dict[int, int] = {}
            for card in m.cards:
                counts[card] = counts.get(card, 0) + 1
            for c, n in counts.items():
                if n > most.get(c, 0):
                    most[c] = n
        out: list[int] = []
        for c, n in most.items():
            for _ in range(n):
                out.append(kind[c])
        return tuple(out)

    def _two_handed(
        self,
        sub: ClassicState,
        pair: tuple[int, ...],
        ones: list[int],
        at: list[int],
        values: list[float],
    ) -> None:
        """The parts of the three-handed tensor that show the two-handed game after a
        retirement: its card points taken, stock size and tables, by three-handed seat
        (``pair``: the three-handed seat of each two-handed one)."""
        taken = self.at_taken
        inner = sub.taken
        for j in range(len(pair)):
            v = inner[j]
            if v:
                at.append(taken + pair[j])
                values.append(v)
        n = len(sub.stock)
        if n:
            at.append(self.at_stock_size)
            values.append(n)
        tables = self.cols_tables
        width = self.width
        for j, t in enumerate(sub.tables):
            row = pair[j] * width
            for _, c in t.slots:  # its cards (``cards`` sorts them)
                ones.append(row + tables[c])


def out_of_range(game: int, action_id: int, size: int, seat: int | None) -> IllegalActionError:
    """The error for game ``game``'s id ``action_id`` outside the ``size`` ids, its
    seat to act ``seat`` (the vectorized environment's steps, in place or not)."""
    return IllegalActionError(
        f"game {game}: action id {excerpt(action_id)} is not legal now (ids are 0..{size - 1})",
        RuleCode.NOT_LEGAL,
        None,
        seat,
    )


def _values(start: int, numbers: tuple[int, ...], at: list[int], values: list[float]) -> None:
    for v in numbers:
        if v:
            at.append(start)
            values.append(v)
        start += 1


class _Memo:
    """Column tuples remembered by the identity of the tuple (or node) they were read
    from: ``ids`` maps ``id(key)`` to the value, and ``keys`` holds each key, so that
    no other object can take a remembered key's address while it is remembered.  No
    object is made for an entry (the garbage collector has nothing more to follow);
    both are emptied together when there are too many."""

    def __init__(self) -> None:
        self.ids: dict[int, tuple[int, ...]] = {}
        self.keys: list[Any] = []


def _kept(memo: _Memo, key: Any) -> tuple[int, ...] | None:
    """What ``memo`` remembers of ``key``, or None."""
    return memo.ids.get(id(key))


def _keep(memo: _Memo, key: Any, value: tuple[int, ...]) -> tuple[int, ...]:
    """Remember ``value`` of ``key`` in ``memo`` (emptied when it holds too many)."""
    keys = memo.keys
    if len(keys) > _KEPT_TUPLES:
        memo.ids.clear()
        keys.clear()
    memo.ids[id(key)] = value
    keys.append(key)
    return value
