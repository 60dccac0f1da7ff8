"""What the classic rules say of a position without changing it.

The legal actions, who may knock, why an action is refused, the views, the
revoke penalty, the meld total and the state checks of
:class:`~binocle.profiles.classic.Classic`, which inherits them from
:class:`ClassicRules`; the transitions stay with the profile in
:mod:`binocle.profiles.classic`.
"""

from __future__ import annotations

from typing import Any, Final

from binocle import actions as A
from binocle._mypyc import mypyc_attr
from binocle.actions import (
    _KIND_DEAL,
    _KIND_DIX,
    _KIND_MELD,
    _KIND_PASS,
    _KIND_PLAY,
    Action,
)
from binocle.cards import CARDS, Card, Suit, format_cards, pack, parse_card
from binocle.core import (
    _PHASE_ANNOUNCE,
    _PHASE_DEAL,
    _PHASE_OVER,
    _PHASE_PLAY,
    GameState,
    Meld,
    MeldResult,
    Profile,
    View,
    _own_state,
    current_deal,
)
from binocle.errors import InvalidArgumentError, InvalidStateError, RuleCode
from binocle.profiles._classic_state import ClassicState
from binocle.profiles._common import (
    plays_then,
    public_log,
    suit_plays_and_claim,
)
from binocle.rules.classic_melds import (
    Announcement,
    Combination,
    MeldTable,
    announcements_of,
    best_meld,
    check_announcements,
    combinations_in,
    table_copies,
)
from binocle.rules.classic_melds._announcements import lowest_slots
from binocle.rules.tricks import (
    _OBLIGATION_FOLLOW_WIN_TRUMP,
    _OBLIGATION_FREE,
    Obligation,
    _obligation_refusal,
    bisect_cards,
)

_NINE, _SEVEN = 5, 7
# The actions the legal actions name most, as this module's own constants: compiled,
# an attribute of a module that is not compiled (binocle.actions) is looked up at each
# use.
_PASS: Final = A.PASS
_DIX: Final = A.DIX
_CLAIM: Final = A.CLAIM
#: After the last trick: the player asked declines (``pass``) or knocks (``claim``).
_KNOCK_OR_PASS: Final = (_PASS, _CLAIM)
#: The card points of a hand played to its last trick (common rules, Card points).
_TRICK_POINTS: Final = 250
#: Upper bounds on announced meld (dix included) from ``tools/meld_bounds.py``, by
#: (pack, grand_binocle): one seat in one hand, and the two seats together.
_CLASSIC_SEAT: Final = {(48, False): 1010, (48, True): 1070, (64, False): 1390, (64, True): 1490}
_CLASSIC_PAIR: Final = {(48, False): 1270, (48, True): 1310, (64, False): 1470, (64, True): 1550}


@mypyc_attr(native_class=False)
class ClassicRules(Profile):
    """The reading half of the classic profile (its options are the profile's)."""

    __slots__ = ()

    # A wrong claim loses the game at once (classic rules, Claiming (knocking)).
    wrong_claim_loses = True

    target: int
    grand_binocle: bool
    pack: int

    @property
    def pack_size(self) -> int:
        return self.pack

    @property
    def dix_rank(self) -> int:
        """The rank that makes dix: the Nine, or the Seven in the 64-card pack."""
        return _SEVEN if self.pack == 64 else _NINE

    def stock_phase(self, s: ClassicState) -> bool:
        """Whether the stock lasts (free play, announcements)."""
        return bool(s.stock) or s.turn_up is not None

    def stock_game(self, state: Any) -> GameState | None:
        """The classic game itself draws from its stock."""
        return _own_state(self, state)

    def max_decisions_per_hand(self) -> int:
        """Every card played, and one announcement (or pass) per draw."""
        return self.pack_size + (self.pack_size - 24) // 2

    def hand_bounds(self) -> tuple[int, int, int]:
        """From 0 (no seat loses points) to 250 trick points plus a bound on what the
        announcements and dix can score (1010; 1070 with ``grand_binocle``; 1390 and
        1490 with the 64-card pack); two seats: 1270, 1310, 1470 and 1550 with the
        trick points.  The lowest is exact; the highest a bound, not reached."""
        key = (self.pack_size, self.grand_binocle)
        return 0, _CLASSIC_SEAT[key] + _TRICK_POINTS, _CLASSIC_PAIR[key] + _TRICK_POINTS

    # -- legal actions -----------------------------------------------------------

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        s: ClassicState = state  # type: ignore[assignment]
        phase = s.phase
        if phase is _PHASE_PLAY:
            return _play_actions(s)
        if phase is _PHASE_ANNOUNCE:
            p = s.current_player
            trump = s.trump
            assert p is not None and trump is not None
            concealed, table = s.concealed[p], s.tables[p]
            out: list[Action] = [_PASS]
            # Dix (_may_dix): a Nine of trumps held, a turn-up to take, two dix at most.
            if s.dixes < 2 and s.turn_up is not None and trump * 8 + self.dix_rank in concealed:
                out.append(_DIX)
            out += [
                announcement_action(a, table)
                for a in announcements_of(concealed, table, trump, self.grand_binocle)
            ]
            out.append(_CLAIM)
            return tuple(out)
        if phase is _PHASE_DEAL:
            return (self.deal_for(s),)
        return ()

    def _announcements(self, s: ClassicState, p: int) -> tuple[Announcement, ...]:
        assert s.trump is not None
        return announcements_of(s.concealed[p], s.tables[p], s.trump, self.grand_binocle)

    def _may_dix(self, s: ClassicState, p: int) -> bool:
        """Dix (classic rules, Dix): a Nine of trumps held, a turn-up to take, two dix at most."""
        assert s.trump is not None
        return s.dixes < 2 and s.turn_up is not None and self._dix_card(s) in s.concealed[p]

    def _dix_card(self, s: ClassicState) -> Card:
        assert s.trump is not None
        return CARDS[s.trump * 8 + self.dix_rank]

    # -- knocking ------------------------------------------------------------------

    def claimants(self, state: GameState) -> tuple[int, ...]:
        """Either player, whoever is to act, at every moment a claim can be checked:
        after the deal, after any card played, trick taken, announcement or draw
        (classic rules, Claiming (knocking): "the player wins who knocks first")."""
        phase = state.phase
        return (0, 1) if phase is _PHASE_PLAY or phase is _PHASE_ANNOUNCE else ()

    def claim_total(self, s: ClassicState, seat: int) -> int:
        """What a claim of ``seat`` is checked against: his game score, the dix and
        melds recorded this hand and the card points of the tricks he has taken."""
        return s.scores[seat] + s.meld_points[seat] + s.taken[seat]

    # -- text ----------------------------------------------------------------------

    def resolve(self, state: GameState, action: Action) -> Action:
        """``play TS`` of a card that lies only on the table means the table copy; ``meld``
        alone means the most valuable legal announcement."""
        s: ClassicState = state  # type: ignore[assignment]
        p = s.current_player
        if p is None or s.phase is _PHASE_DEAL or s.phase is _PHASE_OVER:
            return action
        if action.kind is _KIND_PLAY and action.card is not None:
            c = action.card
            if action.source == "hand":
                return A.PLAY[c]
            if action.source is None and c not in s.concealed[p]:
                options = [a for a in _table_plays(s.tables[p]) if a.card == c]
                if len(options) == 1:
                    return options[0]
            if action.source == "table" and action.number is None:
                options = [a for a in _table_plays(s.tables[p]) if a.card == c]
                if len(options) == 1:
                    return options[0]
        if action.kind is _KIND_MELD and action.name is not None and action.source:
            # The table cards may be written in any order; announcement_action sorts them.
            words = " ".join(sorted(action.source.split()))
            if words != action.source:
                return A.new_action(_KIND_MELD, cards=action.cards, name=action.name, source=words)
        if action.kind is _KIND_MELD and action.name is None and s.phase is _PHASE_ANNOUNCE:
            anns = self._announcements(s, p)
            if anns:
                best = max(anns, key=lambda a: a.combination.value)
                return announcement_action(best, s.tables[p])
        return action

    def refusal(self, state: GameState, action: Action) -> tuple[RuleCode, str]:
        self.refuse_legal(state, action)
        s: ClassicState = state  # type: ignore[assignment]
        phase, kind, p = s.phase, action.kind, s.current_player
        out = self.explain_out_of_hand(s, action)
        if out is not None:
            return out
        assert p is not None
        if phase is _PHASE_PLAY and not any(s.hands):
            return (
                RuleCode.CLAIM_OR_PASS,
                f"the last trick is taken: seat {p} may knock (claim) or pass before the hand"
                f" is counted, not {action} (classic rules, Claiming (knocking))",
            )
        if kind is _KIND_PLAY:
            if phase is _PHASE_ANNOUNCE:
                return (
                    RuleCode.ANNOUNCE_FIRST,
                    f"seat {p} won the trick and must first announce (a meld, dix, or pass)"
                    f" and draw before leading",
                )
            c = action.card
            assert c is not None
            if action.source == "table":
                cards = s.tables[p].cards
                if not self.stock_phase(s):
                    return (
                        RuleCode.NOT_HELD,
                        "the table cards went back to the hands when the stock ran out",
                    )
                if c not in cards:
                    return (
                        RuleCode.NOT_HELD,
                        f"play {c} table: seat {p} has no {c} on the table (table: {format_cards(cards)})",
                    )
                return (
                    RuleCode.WHICH_COPY,
                    f"play {c} table: say which copy, e.g. one of {', '.join(str(a) for a in _table_plays(s.tables[p]) if a.card == c)}",
                )
            if c not in s.concealed[p]:
                if c in s.tables[p].cards:
                    copies = ", ".join(str(a) for a in _table_plays(s.tables[p]) if a.card == c)
                    return (
                        RuleCode.WHICH_COPY,
                        f"play {c}: seat {p}'s {c} lies on the table; say which copy: {copies}",
                    )
                return (
                    RuleCode.NOT_HELD,
                    f"play {c}: seat {p} does not hold it (holds {format_cards(s.hands[p])})",
                )
            broken = _obligation_refusal(
                c, s.concealed[p], [x for _, x in s.trick], s.trump, _OBLIGATION_FOLLOW_WIN_TRUMP
            )
            return broken or (RuleCode.NOT_LEGAL, f"{action} is not legal now")
        if phase is _PHASE_PLAY and kind in (_KIND_MELD, _KIND_DIX, _KIND_PASS):
            if self.stock_phase(s):
                return (
                    RuleCode.WRONG_PHASE,
                    f"{action}: announcements are made only after winning a trick, before drawing",
                )
            return (
                RuleCode.ANNOUNCEMENTS_OVER,
                f"{action}: announcements end when the stock is exhausted",
            )
        if kind is _KIND_DIX:
            assert s.trump is not None
            if s.turn_up is None:
                return RuleCode.NO_DIX, "no dix after the last draw"
            if s.dixes >= 2:
                return RuleCode.NO_DIX, "both Nines of trumps have already scored dix"
            return (
                RuleCode.NO_DIX,
                f"dix: seat {p} holds no {self._dix_card(s)} in the concealed hand",
            )
        if kind is _KIND_MELD:
            return self._meld_refusal(s, p, action)
        # An action of another profile (a bid, a discard …): classic has no such action.
        return RuleCode.NOT_LEGAL, f"seat {p} cannot {action} in the {phase.value} phase"

    def _meld_refusal(self, s: ClassicState, p: int, action: Action) -> tuple[RuleCode, str]:
        """Why an announcement is illegal: the rule it breaks (classic rules, Announcements)."""
        assert s.trump is not None
        return announcement_refusal(
            s.concealed[p], s.tables[p], s.trump, self.grand_binocle, p, action
        )

    def play_obligation(self, stock_exhausted: bool | None = None) -> Obligation:
        """Any card while the stock lasts (classic rules, Play while the stock lasts);
        after, follow suit and win if able, void trump
        (classic rules, Play after the stock)."""
        if stock_exhausted is None:
            raise InvalidArgumentError(
                "in the classic game the trick rule changes when the stock is exhausted:"
                " say stock_exhausted=True or False"
            )
        return _OBLIGATION_FOLLOW_WIN_TRUMP if stock_exhausted else _OBLIGATION_FREE

    def check_melds(
        self,
        hand: tuple[Card, ...],
        trump: int,
        declared: tuple[tuple[str, tuple[Card, ...], int | None], ...],
        table: object = None,
    ) -> list[tuple[RuleCode | None, str, int]]:
        """Announcements one by one, on the player's table (classic rules, Announcements)."""
        return check_announcements(
            hand, meld_table(table), trump, declared, grand_binocle=self.grand_binocle
        )

    def revoke_penalty(self, state: GameState, seat: int) -> str:
        """Classic rules, Revoke: the revoking player loses his entire count for cards
        for the hand, or the adversary may have the hand replayed from the error."""
        return classic_revoke_penalty(state.hand_number, seat, 1 - seat)

    # -- meld, views, checks ---------------------------------------------------------

    def meld(self, cards: tuple[Card, ...], trump: Suit | None) -> MeldResult:
        """The best total a sequence of announcements could reach with plenty of time."""
        if trump is None:
            return MeldResult(0, ())
        total, order = best_meld(cards, trump, grand_binocle=self.grand_binocle)
        return MeldResult(total, tuple(Meld(m.kind, m.cards, m.value) for m in order))

    def observe(self, state: GameState, seat: int) -> View:
        s: ClassicState = state  # type: ignore[assignment]
        public = {
            "turn_up": s.turn_up,
            "stock_size": len(s.stock),
            "tables": tuple(t.cards for t in s.tables),
            "table_melds": tuple(
                tuple((m.combination.kind, m.combination.cards, m.intact) for m in t.melds)
                for t in s.tables
            ),
            "concealed": s.concealed[seat],
            "meld_points": s.meld_points,
            "dixes": s.dixes,
            "last_trick": s.last_trick,
            "targets": s.targets,
            "taken": s.taken,
            "claim_totals": tuple(self.claim_total(s, i) for i in (0, 1)),
        }
        return self.view(s, seat, public, self.drawn_log(s, seat), deck=self._seen_deck(s, seat))

    def drawn_log(self, state: GameState, seat: int | None) -> tuple[str, ...]:
        """The hand's log as ``seat`` saw it, each announcement followed by the two
        draws (classic rules, Announcements): the winner's, then the loser's, shown as
        ``"0: draw TS"`` where the seat's view of the deal shows the card (it drew the
        card, or it was the turn-up), else as ``"0: draw"``; between hands, as the
        view's deck, no drawn card is shown.  ``seat`` None: a player out of this game
        sees no drawn card."""
        s: ClassicState = state  # type: ignore[assignment]
        deck = current_deal(s)
        if deck is None:
            return public_log(s, seat if seat is not None else 0)
        known = self._seen_deck(s, seat) if seat is not None else ()
        draws = _DrawLines(len(deck), known)
        return public_log(s, seat if seat is not None else 0, then=draws)

    def _seen_deck(self, s: ClassicState, seat: int) -> tuple[Card | None, ...]:
        """Own cards, the turn-up (the 25th card) and the stock cards ``seat`` drew."""
        known = [24]
        if s.phase is not _PHASE_DEAL and s.phase is not _PHASE_OVER:
            node = s.history
            draws: list[int | None] = []
            while node is not None and node[1].kind is not _KIND_DEAL:
                if node[1].kind in _DRAWING:
                    draws.append(node[2])
                node = node[0]
            for k, winner in enumerate(reversed(draws)):
                known.append(25 + 2 * k + (0 if winner == seat else 1))
        return self.seen_deck(s, seat, tuple(i for i in known if i < self.pack))

    def check(self, state: GameState) -> None:
        s: ClassicState = state  # type: ignore[assignment]
        if s.phase in (_PHASE_DEAL, _PHASE_OVER):
            if any(s.hands) or s.stock or s.trick or any(s.piles):
                raise InvalidStateError("cards left out between hands")
            return
        cards = [c for h in s.concealed for c in h]
        cards += [c for t in s.tables for c in t.cards]
        cards += [c for _, c in s.trick]
        cards += [c for pile in s.piles for c in pile]
        cards += s.stock
        if s.turn_up is not None:
            cards.append(s.turn_up)
        if sorted(cards) != list(pack(self.pack_size)):
            raise InvalidStateError("the cards in hands, tables, stock and tricks are not the pack")
        for i in (0, 1):
            if list(s.concealed[i]) != sorted(s.concealed[i]):
                # The engine finds a card among them by bisection.
                raise InvalidStateError(f"seat {i}'s concealed cards are not sorted")
            if tuple(sorted((*s.concealed[i], *s.tables[i].cards))) != s.hands[i]:
                raise InvalidStateError(f"seat {i}'s hand is not its concealed and table cards")


#: The announcements after a trick (classic rules, Announcements): each is followed by the draw.
_DRAWING: Final = frozenset({_KIND_PASS, _KIND_MELD, _KIND_DIX})


class _DrawLines:
    """The two draw lines after each announcement of a hand's log, in order (a plain
    class, not a closure: the compiled build makes it native)."""

    def __init__(self, size: int, known: tuple[Card | None, ...]) -> None:
        self.size = size
        self.known = known
        self.drawn = 0

    def __call__(self, action: Action, actor: int | None) -> tuple[str, ...]:
        if action.kind not in _DRAWING or actor is None:
            return ()
        k = self.drawn
        self.drawn = k + 1
        first, second = 25 + 2 * k, 26 + 2 * k
        if first >= self.size:
            return ()
        lines = []
        for who, at in ((actor, first), (1 - actor, second if second < self.size else 24)):
            card = self.known[at] if at < len(self.known) else None
            lines.append(f"{who}: draw {card}" if card is not None else f"{who}: draw")
        return tuple(lines)


def _table_groups(table: MeldTable) -> dict[Card, list[int]]:
    """Table slots by card, keeping one slot per distinct combination history (the
    lowest), in increasing order."""
    return {CARDS[c]: slots for c, slots in lowest_slots(table_copies(table)).items()}


def _play_actions(s: ClassicState) -> tuple[Action, ...]:
    """The legal plays of the classic game's player to act (a module function: the
    compiled build calls it directly, where a method is looked up by name)."""
    p = s.current_player
    assert p is not None
    concealed = s.concealed[p]
    if not concealed:  # every card on the table, or none left
        table = s.tables[p]
        stock_phase = s.stock or s.turn_up is not None
        if stock_phase and table.slots:
            return (*_table_plays(table), _CLAIM)
        # The last trick is taken: knock or not, before the hand is counted.
        return _KNOCK_OR_PASS
    if s.stock or s.turn_up is not None:
        # Free play while the stock lasts: any card, from the hand or the table.
        table = s.tables[p]
        if table.slots:
            return (*plays_then(concealed), *_table_plays(table), _CLAIM)
        return plays_then(concealed, _CLAIM)
    trick = s.trick
    if not trick:
        return plays_then(concealed, _CLAIM)
    # After the stock (classic rules, Play after the stock): follow suit and win if
    # able; void, trump (any trump wins a plain card); else any card.  The sorted
    # hand holds each suit together, the stronger cards first.
    # The card numbers are read into variables typed int (machine integers, compiled).
    led: int = trick[0][1]
    suit = led >> 3
    n = len(concealed)
    lo = bisect_cards(concealed, suit << 3, 0, n)
    hi = bisect_cards(concealed, (suit + 1) << 3, lo, n)
    if lo < hi:
        top = bisect_cards(concealed, led, lo, hi)
        return suit_plays_and_claim(concealed[lo : top if top > lo else hi])
    trump = s.trump
    if trump is not None:
        t: int = trump
        lo = bisect_cards(concealed, t << 3, 0, n)
        hi = bisect_cards(concealed, (t + 1) << 3, lo, n)
        if lo < hi:
            return suit_plays_and_claim(concealed[lo:hi])
    return plays_then(concealed, _CLAIM)


def _table_plays(table: MeldTable) -> tuple[Action, ...]:
    """The distinct plays from the table: one per card, or per copy where histories differ.

    A table lasts over several tricks (it changes only when a card is laid down
    or played from it): its plays are kept for the last tables seen.
    """
    kept = _TABLE_PLAYS.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1]
    cards = sorted([c for _, c in table.slots])
    if len(set(cards)) == len(cards):
        # One copy of each card: one play each, and no copies to tell apart.
        plays: tuple[Action, ...] = tuple([A.PLAY_TABLE[c] for c in cards])
        _keep_plays(table, plays)
        return plays
    out: list[Action] = []
    for c, slots in sorted(_table_groups(table).items()):
        if len(slots) == 1:
            out.append(A.PLAY_TABLE[c])
        else:
            out.extend(
                A.new_action(_KIND_PLAY, card=c, number=slot, source="table") for slot in slots
            )
    plays = tuple(out)
    _keep_plays(table, plays)
    return plays


def _keep_plays(table: MeldTable, plays: tuple[Action, ...]) -> None:
    # A game has two tables at a time: a few kept serve it, and hold little memory.
    if len(_TABLE_PLAYS) >= 8:
        _TABLE_PLAYS.clear()
    _TABLE_PLAYS[id(table)] = (table, plays)  # the table itself is kept: its id stays its own


_TABLE_PLAYS: Final[dict[int, tuple[MeldTable, tuple[Action, ...]]]] = {}


_FRESH_ACTIONS: Final[dict[Combination, Action]] = {}


def announcement_action(ann: Announcement, table: MeldTable) -> Action:
    """The action (and text) of an announcement: ``meld <kind> <fresh> [+ <table cards>]``.

    A table card is written with its slot (``KS#3``) only where two table copies
    of it have served in different combinations.
    """
    if not ann.table_slots:
        # Fresh cards alone: one action per combination, built once.
        act = _FRESH_ACTIONS.get(ann.combination)
        if act is None:
            act = _FRESH_ACTIONS[ann.combination] = A.new_action(
                _KIND_MELD, cards=tuple(ann.fresh), name=ann.combination.kind
            )
        return act
    # The engine finds the same announcements with one table again and again (they are
    # kept per table): their actions are kept too, by announcement and table.
    kept = _TABLE_ACTIONS.get(id(ann))
    if kept is not None and kept[0] is ann and kept[1] is table:
        return kept[2]
    act = _table_announcement_action(ann, table)
    if len(_TABLE_ACTIONS) >= 16:  # the announcements of the last table or two
        _TABLE_ACTIONS.clear()
    _TABLE_ACTIONS[id(ann)] = (ann, table, act)
    return act


_TABLE_ACTIONS: Final[dict[int, tuple[Announcement, MeldTable, Action]]] = {}


def _table_announcement_action(ann: Announcement, table: MeldTable) -> Action:
    on_table = dict(table.slots)
    cards = on_table.values()
    # A slot is named only where two copies of a card on the table differ.
    groups = _table_groups(table) if len(set(cards)) < len(cards) else {}
    words = []
    for slot in ann.table_slots:
        c = on_table[slot] if slot in on_table else table.card_at(slot)  # card_at refuses
        words.append(f"{c}#{slot}" if len(groups.get(c, ())) > 1 else str(c))
    return A.new_action(
        _KIND_MELD,
        cards=tuple(ann.fresh),
        name=ann.combination.kind,
        source=" ".join(sorted(words)) or None,
    )


def meld_table(table: object) -> MeldTable:
    """The table a check of announcements starts from: ``table`` itself, or an empty one
    for None."""
    if table is None:
        return MeldTable.EMPTY
    if not isinstance(table, MeldTable):
        raise InvalidArgumentError(
            f"a table is a MeldTable (binocle.rules.classic_melds) or None, not {type(table).__name__}"
        )
    return table


def classic_revoke_penalty(hand: int, seat: int, adversary: int) -> str:
    """The classic revoke penalty (classic rules, Revoke), also played by the two
    players left of a three-handed game after a retirement."""
    return (
        f"seat {seat} loses his entire score for cards (the card points of his tricks; the"
        f" last trick's 10 still counts) for hand {hand};"
        f" or his adversary, seat {adversary}, may have the cards taken back to the error"
        " and the hand replayed from there (classic rules, Revoke)"
    )


def announcement_refusal(
    concealed: tuple[Card, ...],
    table: MeldTable,
    trump: int,
    grand_binocle: bool,
    p: int,
    action: Action,
) -> tuple[RuleCode, str]:
    """Why seat ``p``'s announcement ``action`` is illegal with these concealed cards
    and table: the rule it breaks and the text (classic rules, Announcements; the
    three-handed game announces in the same way)."""
    from collections import Counter

    name = action.name
    if name is None:
        return RuleCode.NO_MELD, "no announcement is possible now (say pass)"
    fresh = action.cards
    table_cards: list[Card] = []
    for word in (action.source or "").split():
        try:
            table_cards.append(parse_card(word.split("#")[0]))
        except ValueError:
            return RuleCode.MELD_NOT_HELD, f"not a table card: {word!r}"
    everything = tuple(sorted((*fresh, *table_cards)))
    for c in set(everything):
        if everything.count(c) > 2:
            return (
                RuleCode.CARDS_REUSED,
                f"{name} names {c} {everything.count(c)} times: the pack holds two,"
                " and a combination uses each card once",
            )
    known = [
        m
        for m in combinations_in(everything, trump, grand_binocle=True)
        if m.kind == name and tuple(m.cards) == everything
    ]
    if not known:
        return (
            _combination_code(everything, name, trump),
            f"{name} {format_cards(everything)} is not a combination of the meld table",
        )
    if name == "grand binocle" and not grand_binocle:
        return RuleCode.OPTION_OFF, "grand binocle is not played (option grand_binocle is off)"
    if not fresh:
        return (
            RuleCode.FRESH_CARD,
            "fresh card rule: an announcement must use at least one card from the concealed hand",
        )
    rest = list(concealed)
    for c in fresh:
        if c not in rest:
            return RuleCode.MELD_NOT_HELD, f"{c} is not in seat {p}'s concealed hand"
        rest.remove(c)
    on_table = list(table.cards)
    for c in table_cards:
        if c not in on_table:
            return RuleCode.MELD_NOT_HELD, f"{c} is not on seat {p}'s table"
        on_table.remove(c)
    # The cards exist: the same class rule (item 2) is what forbids it.
    combo = known[0]
    for m in table.melds:
        old = m.combination
        if old.meld_class != combo.meld_class:
            continue
        if any(c in old.cards for c in table_cards):
            if not m.intact:
                return (
                    RuleCode.SAME_CLASS,
                    f"same class rule: {old} was broken up and cannot be re-formed",
                )
            # wholly inside the new one: every card of it among the table cards reused
            if Counter(old.cards) - Counter(table_cards) or old.value >= combo.value:
                return (
                    RuleCode.SAME_CLASS,
                    f"same class rule: cards of {old} may serve again in class"
                    f" {old.meld_class} only in a more valuable combination that contains it",
                )
    return RuleCode.NOT_LEGAL, f"{action} is not a legal announcement now"


def _combination_code(cards: tuple[Card, ...], name: str, trump: int) -> RuleCode:
    """The code of cards named ``name`` that make no combination of the meld table with
    this trump: MELD_SUIT where they make one with another trump (a marriage in
    trumps, a sequence in a plain suit: classic rules, Announcements), else
    NOT_A_COMBINATION."""
    for other in range(4):
        if other != trump and any(
            m.kind == name and tuple(m.cards) == cards
            for m in combinations_in(cards, other, grand_binocle=True)
        ):
            return RuleCode.MELD_SUIT
    return RuleCode.NOT_A_COMBINATION
