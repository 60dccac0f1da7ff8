"""The observation tensor and the legal ids read from the state itself, for batched steps.

:func:`binocle.encoding.observation_tensor` reads a :class:`~binocle.View`, which
:func:`binocle.observe` builds from the whole history (its log, its masked history,
its deck).  A batched environment needs only the tensor, so :class:`FastEncoder`
reads the few fields the tensor shows straight from the state, as entries of a flat
batch (a column and a value each), which the caller sums into its array.  It gives
exactly the values :func:`~binocle.encoding.observation_tensor` gives of the seat's
view; a position it has no shortcut for (a custom profile, the two-handed end of a
three-handed game) goes through the view.
"""

from __future__ import annotations

from typing import Any, Final

from binocle.actions import Action
from binocle.core import GameState, Phase, Profile
from binocle.encoding._actions import _space
from binocle.encoding._common import kinds
from binocle.encoding._tensors import _layout_cached, _offsets, observation_tensor

_PHASES: Final = tuple(Phase)
_PHASE_INDEX: Final = {p: i for i, p in enumerate(_PHASES)}
_BIDDING: Final = Phase.BIDDING
_DEAL: Final = Phase.DEAL


class FastEncoder:
    """Writes one seat's observation tensor and the legal ids of a state into a batch.

    ``size`` is the tensor's length (:func:`~binocle.encoding.tensor_layout` of kind
    ``"observation"``); ``num_actions`` the action space's.  Both writers append to
    caller's lists: ``ones`` takes the flat indices that count one each (a card
    twice counts twice), ``at``/``values`` the flat indices with another value.
    """

    __slots__ = (
        "_by_id",
        "_card",
        "_fixed",
        "_ident",
        "_memo",
        "_one",
        "_space",
        "_trick",
        "_width",
        "name",
        "num_actions",
        "players",
        "profile",
        "size",
    )

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.name = profile.name
        self.players = profile.players
        layout = _layout_cached(profile, False)
        self.size = layout.size
        offsets = _offsets(layout)
        cards = kinds(profile.pack_size)
        # For each card part, the column of each card (by its int, up to 32).
        self._card: dict[str, list[int]] = {}
        for part, (start, shape) in offsets.items():
            if shape and shape[-1] == len(cards):
                row = [-1] * 32
                for i, c in enumerate(cards):
                    row[int(c)] = start + i
                self._card[part] = row
        # The first column of each part.
        self._one = {part: start for part, (start, _) in offsets.items()}
        p = profile.players
        width = self._width = len(cards)
        start = offsets["trick"][0]
        # Trick row r: the column of each seat, and of each card (by its int).
        self._trick: list[tuple[list[int], list[int]]] = []
        for r in range(p - 1):
            first = start + r * (p + width)
            by_card = [-1] * 32
            for i, c in enumerate(cards):
                by_card[int(c)] = first + p + i
            self._trick.append(([first + s for s in range(p)], by_card))
        self._space = _space(profile)
        self.num_actions = self._space.size
        self._fixed = self._space._fixed
        self._by_id = self._space._by_id
        # The interned actions by identity: while the space keeps them alive, no other
        # object has their id, and id() costs less than an action's hash.
        self._ident = {id(a): i for a, i in self._fixed.items()}
        # Card columns of tuples seen lately, by part and by the tuple's identity (a
        # hand is the same object from one state to the next until it changes).
        self._memo: dict[str, dict[int, tuple[object, list[int]]]] = {
            part: {} for part in (*self._card, "passed")
        }

    # -- legal ids ---------------------------------------------------------------

    def legal(self, state: GameState, legal: tuple[Action, ...]) -> dict[int, Action]:
        """Each legal id with its action (``legal``: the legal actions of ``state``)."""
        ident = self._ident.get
        out: dict[int, Action] = {}
        for a in legal:
            i = ident(id(a))
            if i is None:
                i = self._space.id(state, a)
            out[i] = a
        return out

    def card_column(self, part: str, card: int) -> int:
        """The column of ``card`` in the tensor's card part ``part`` (e.g. ``"gone"``)."""
        return self._card[part][card]

    def _cols(self, part: str, cards: tuple[int, ...]) -> list[int]:
        """The columns of ``cards`` in card part ``part``, remembered by the tuple."""
        memo = self._memo[part]
        hit = memo.get(id(cards))
        if hit is not None and hit[0] is cards:
            return hit[1]
        table = self._card[part]
        cols = [table[c] for c in cards]
        if len(memo) > 20_000:
            memo.clear()
        memo[id(cards)] = (cards, cols)
        return cols

    # -- the observation tensor -----------------------------------------------------

    def observe(
        self,
        state: Any,
        seat: int,
        ones: list[int],
        at: list[int],
        values: list[float],
        gone: bool = True,
    ) -> bool:
        """Append ``seat``'s observation tensor of ``state`` (columns from 0).

        ``gone=False`` leaves out the cards played this hand (the caller keeps
        them), except where the tensor is read from the view: the return value
        says so (True: the whole tensor was written).
        """
        name = self.name
        if name == "cutthroat":
            self._common(state, seat, ones, at, values)
            if gone:
                table = self._card["gone"]
                ones += [table[c] for t in state.played for _, c in t]
                ones += [table[c] for _, c in state.trick]
            self._cutthroat(state, seat, ones, at, values)
        elif name == "classic" or (name == "three-handed" and state.sub is None):
            self._common(state, seat, ones, at, values)
            if gone:
                table = self._card["gone"]
                ones += [table[c] for pile in state.piles for c in pile]
                ones += [table[c] for _, c in state.trick]
            if name == "classic":
                self._classic(state, seat, ones, at, values)
            else:
                self._three_handed(state, seat, ones, at, values)
        else:
            self._from_view(state, seat, at, values)
            return True
        return False

    def _from_view(self, state: GameState, seat: int, at: list[int], values: list[float]) -> None:
        from binocle.game import observe

        for k, v in enumerate(observation_tensor(observe(state, seat))):
            if v:
                at.append(k)
                values.append(v)

    def _common(
        self, s: Any, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        one = self._one
        ones.append(one["seat"] + seat)
        p = s.current_player
        if p is not None:
            ones.append(one["to_act"] + p)
        ones.append(one["dealer"] + s.dealer)
        ones.append(one["phase"] + _PHASE_INDEX[s.phase])
        if s.trump is not None:
            ones.append(one["trump"] + int(s.trump))
        ones += self._cols("hand", s.hands[seat])
        k = one["hand_sizes"]
        for h in s.hands:
            if h:
                at.append(k)
                values.append(len(h))
            k += 1
        trick = self._trick
        for r, (sc, cc) in enumerate(s.trick[: self.players - 1]):
            seats, cols = trick[r]
            ones.append(seats[sc])
            ones.append(cols[cc])
        k = one["scores"]
        for v in s.scores:
            if v:
                at.append(k)
                values.append(v)
            k += 1

    def _cutthroat(
        self, s: Any, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        one = self._one
        card = self._card
        calls = s.calls
        memo = self._memo["passed"]
        hit = memo.get(id(calls))
        if hit is None or hit[0] is not calls:
            passed = one["passed"]
            hit = (calls, [passed + who for who, amount in calls if not amount])
            if len(memo) > 20_000:
                memo.clear()
            memo[id(calls)] = hit
        ones += hit[1]
        shown = s.bidder is not None and s.phase is not _BIDDING and s.phase is not _DEAL
        if shown:
            ones.append(one["bidder"] + s.bidder)
            widow = card["widow"]
            ones += [widow[c] for c in s.widow]
        if s.bid:
            at.append(one["bid"])
            values.append(s.bid)
        if seat == s.bidder and s.discards:
            discards = card["discards"]
            ones += [discards[c] for c in s.discards]
        if s.discards:
            at.append(one["discard_count"])
            values.append(len(s.discards))
        k = one["meld_points"]
        for m in s.melds:
            if m is not None and m.total:
                at.append(k)
                values.append(m.total)
            k += 1

    def _classic(
        self, s: Any, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        one = self._one
        card = self._card
        if s.turn_up is not None:
            ones.append(card["turn_up"][s.turn_up])
        if s.stock:
            at.append(one["stock_size"])
            values.append(len(s.stock))
        ones += self._cols("concealed", s.concealed[seat])
        tcol = card["tables"]
        width = self._width
        for i, t in enumerate(s.tables):
            row = i * width
            ones += [row + tcol[c] for c in t.cards]
        _values(one["meld_points"], s.meld_points, at, values)
        _values(one["taken"], s.taken, at, values)
        if s.dixes:
            at.append(one["dixes"])
            values.append(s.dixes)
        _values(one["targets"], s.targets, at, values)

    def _three_handed(
        self, s: Any, seat: int, ones: list[int], at: list[int], values: list[float]
    ) -> None:
        one = self._one
        card = self._card
        if s.turn_up is not None:
            ones.append(card["turn_up"][s.turn_up])
        if s.exchanged:
            ones.append(one["exchanged"])
        _values(one["dix_shown"], s.nines_shown, at, values)
        _values(one["announced"], s.announced, at, values)
        scored = one["scored"]
        for i, x in enumerate(s.scored):
            if x:
                ones.append(scored + i)
        _values(one["recorded"], s.recorded, at, values)
        _values(one["taken"], s.taken, at, values)
        _values(one["targets"], s.targets, at, values)
        if s.retired is not None:
            ones.append(one["retired"] + s.retired)
        offer = s.offer
        if offer is not None:
            ones.append(one["overlooked"] + offer.seat)
            at.append(one["overlooked"] + self.players)
            values.append(offer.points)


def _values(start: int, numbers: Any, at: list[int], values: list[float]) -> None:
    for v in numbers:
        if v:
            at.append(start)
            values.append(v)
        start += 1
