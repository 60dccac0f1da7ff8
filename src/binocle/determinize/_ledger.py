"""The ledger of one hand: where its hidden cards may be, read from the view's history."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Any

from binocle.actions import Action, Kind
from binocle.cards import CARDS, Card
from binocle.core import GameState, View, _rules_entry
from binocle.errors import InvalidArgumentError, excerpt
from binocle.profiles._classic_rules import ClassicRules
from binocle.profiles._cutthroat_rules import CutthroatRules
from binocle.profiles._three_handed_rules import ThreeHandedRules
from binocle.rules.tricks import Obligation, _allowed_cards

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


def _meld_counted(result: Any, side: tuple[int, ...]) -> bool:
    """Whether a side's meld in ``result`` is surely its whole meld, 0 included: the
    other side's after a concession, or a side that won a counter (more than the last
    trick) and was not set (partnership rules, Scoring a hand)."""
    bidding = result.bidder in side
    if result.outcome == "conceded":
        return not bidding
    if result.outcome != "played":
        return False
    return result.tricks[side[0]] > 10 and (not bidding or bool(result.made))


class _Ledger:
    """What the history of one hand tells of its hidden cards: positions, seats, piles,
    constraints (the placements are drawn by :class:`~binocle.determinize._proposal._Model`)."""

    def __init__(
        self,
        view: View,
        s: GameState,
        entries: list[tuple[Action, int | None]],
        index: int,
        current: bool,
        up_dix: bool = False,
        final: bool = False,
        spectator: bool = False,
    ) -> None:
        p = view.profile
        self.current = current
        #: The last hand before the view's present whose public facts the view still
        #: shows: the last hand of a finished game, the three-handed hand that ended
        #: in a retirement (its melds shown and its turn-up stay on show).
        self.final = final
        self.entries = entries
        n_seats = p.players
        size = p.pack_size
        self.size = size
        # A spectator (a retired player watching the two-handed game) holds no card
        # of the hand in progress and saw none of its deal.
        seen = current and not spectator
        known: tuple[Card | None, ...] = view.deck if seen else (None,) * size
        if final and p.turn_up_stays:
            up = view.get("turn_up")
            if isinstance(up, int) and 0 <= up < 32:
                known = (*known[:-1], CARDS[up])  # the turn-up, dealt last
        self.known = known
        self.observer: int | None = view.seat if seen else None
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
        #: Cards passed face down between two partners both hidden from the observer
        #: (partnership rules, Trump and passing): the entries, filled in by the proposal
        #: (see :meth:`_Model.propose`), and each seat's deal positions.
        self.hidden_gives: list[tuple[int, int]] = []
        positions: dict[int | str, list[int]] = {}
        pos = 0
        for target, n in p.deal_schedule(dealer):
            positions.setdefault(target, []).extend(range(pos, pos + n))
            pos += n
        for seat in range(n_seats):
            for q in positions.get(seat, ()):
                self._acquire_pos(seat, q)
        self.positions = positions
        fill = _rules_entry(p, _FILLS)
        if fill is None:  # pragma: no cover - every registered profile has its rules' entry
            raise InvalidArgumentError(f"determinize does not know the profile {excerpt(p.name)}")
        fill(self, p, s, positions, view)

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
        n_seats = p.players
        passed = [False] * n_seats
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
                if sum(passed) == n_seats - 1 and bidder is not None and widow_out:
                    for q in widow:
                        self._acquire_pos(bidder, q)
                    widow_out = False
            elif k is Kind.DISCARD and actor is not None:
                if a.card is None:
                    self.hidden[actor].append(idx)
                else:
                    self._use(actor, a.card)
            elif k is Kind.GIVE and actor is not None:
                # A card passed to the partner (opposite): known to both partners.
                if a.card is None:
                    self.hidden_gives.append((idx, actor))
                else:
                    self._use(actor, a.card)
                    self.kh[(actor + 2) % n_seats][a.card] += 1
            elif k is Kind.PLAY and actor is not None and a.card is not None:
                if not melded:
                    self._shown_melds(view)
                    melded = True
                self._no_card(actor, a.card, trick, rule)
                self._use(actor, a.card)
                self.played_by[actor].append(a.card)
                trick.append(a.card)
                if len(trick) == n_seats:
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
            for side in p.sides:
                # Partners show their side's meld: the two hands' melds together.
                points = result.meld[side[0]]
                if len(side) == 1:
                    if points > 0:
                        self.meld_targets[side[0]] = points
                elif points > 0 or _meld_counted(result, side):
                    self.meld_targets[side[0]] = (side, points)

    def _shown_melds(self, view: View) -> None:
        """Cards shown in melds are held (three-handed and cutthroat rules, Melds): the
        current hand, or the final hand whose melds are still on show."""
        if not (self.current or self.final):
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
        #: The seats that announced ``meld`` (the best declaration): what they show is
        #: the whole meld of the hand they held after the dix (three-handed rules, Melds).
        whole: set[int] = set()
        laid: list[Counter[Card]] = [Counter() for _ in range(p.players)]
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
                # The cards named before ``+`` are laid down fresh: held besides every
                # card the seat laid down before (three-handed rules, Melds).
                for c in a.cards:
                    laid[actor][c] += 1
                    self._hold(actor, c, laid[actor][c])
            elif k is Kind.MELD:
                whole.add(actor)
            elif k is Kind.PLAY and a.card is not None:
                if not melded:
                    self._shown_melds(view)
                    melded = True
                self._no_card(actor, a.card, trick, rule)
                self._use(actor, a.card)
                self.played_by[actor].append(a.card)
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
        if (self.current or self.final) and trump is not None:
            melds = view.get("melds") or ()
            for seat in sorted(whole):
                if seat != self.observer and seat < len(melds) and melds[seat] is not None:
                    self.meld_targets[seat] = melds[seat]

    def _classic(
        self, p: Any, s: GameState, positions: dict[int | str, list[int]], view: View
    ) -> None:
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
            if nxt >= size:
                # The stock is out (an announcement that ends the game draws nothing).
                continue
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


#: How the cards a view fixes are read into the ledger, by the rules class a profile is
#: built on (a profile takes its nearest base's): a profile on existing rules needs no
#: entry of its own; new rules add theirs.
_FILLS: dict[type, Callable[[_Ledger, Any, GameState, dict[int | str, list[int]], View], None]] = {
    CutthroatRules: _Ledger._cutthroat,
    ClassicRules: _Ledger._classic,
    ThreeHandedRules: _Ledger._three_handed,
}
