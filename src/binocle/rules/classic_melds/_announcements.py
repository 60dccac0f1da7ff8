"""Classic Binocle melds: the three classes of combinations, the table of melded
cards and the announcements (the classic rules, Announcements; layer 2, pure functions).

Offered by :mod:`binocle.rules.classic_melds`.  Which physical copy of a card lies on
the table matters, so the table (:class:`MeldTable`) names each table card by a
small-int *slot*.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import ClassVar, Final

import attrs

from binocle.cards import CARDS, Card, format_cards
from binocle.errors import IllegalActionError, InvalidArgumentError, RuleCode, excerpt

__all__ = [
    "KINDS",
    "Announcement",
    "Combination",
    "MeldTable",
    "TableMeld",
    "announce",
    "announcements_of",
    "combinations_in",
    "fresh_announcement",
    "lay_down",
    "legal_announcements",
    "play_from_table",
    "table_after",
    "table_copies",
]

ACE, TEN, KING, QUEEN, JACK = 0, 1, 2, 3, 4
KS: Final = 0 * 8 + KING
QS: Final = 0 * 8 + QUEEN
JD: Final = 2 * 8 + JACK

# Kind codes, used on the hot path instead of the names.
MARRIAGE, ROYAL, SEQUENCE, BINOCLE, DOUBLE, GRAND = 0, 1, 2, 3, 4, 5
FOUR_A, FOUR_K, FOUR_Q, FOUR_J, EIGHT_A, EIGHT_K, EIGHT_Q, EIGHT_J = 6, 7, 8, 9, 10, 11, 12, 13

#: (name, class, value) of each kind code (classic rules, Announcements).
KINDS: Final = (
    ("marriage", "A", 20),
    ("royal marriage", "A", 40),
    ("sequence", "A", 150),
    ("binocle", "B", 40),
    ("double binocle", "B", 80),
    ("grand binocle", "B", 80),
    ("four aces", "C", 100),
    ("four kings", "C", 80),
    ("four queens", "C", 60),
    ("four jacks", "C", 40),
    ("eight aces", "C", 200),
    ("eight kings", "C", 160),
    ("eight queens", "C", 120),
    ("eight jacks", "C", 80),
)
_FOUR_OF: Final = {ACE: FOUR_A, KING: FOUR_K, QUEEN: FOUR_Q, JACK: FOUR_J}


@attrs.frozen(slots=True, cache_hash=True)
class Combination:
    """One combination of the classic meld table (classic rules, Announcements): its kind, class, value and cards.

    ``cards`` is sorted.  Build none yourself: :func:`combinations_in`,
    :func:`legal_announcements` and :func:`best_meld` hand out the interned ones.
    """

    kind: str
    meld_class: str
    value: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.kind} {format_cards(self.cards)} ({self.value})"


def _make(code: int, cards: Iterable[int]) -> Combination:
    name, klass, value = KINDS[code]
    return Combination(name, klass, value, tuple(CARDS[c] for c in sorted(cards)))


def _suit_cards(suit: int, ranks: Iterable[int]) -> list[int]:
    return [suit * 8 + r for r in ranks]


_MAR: Final = tuple(_make(MARRIAGE, _suit_cards(s, (KING, QUEEN))) for s in range(4))
_ROY: Final = tuple(_make(ROYAL, _suit_cards(s, (KING, QUEEN))) for s in range(4))
_SEQ: Final = tuple(
    _make(SEQUENCE, _suit_cards(s, (ACE, TEN, KING, QUEEN, JACK))) for s in range(4)
)
_BIN: Final = _make(BINOCLE, (QS, JD))
_DBL: Final = _make(DOUBLE, (QS, QS, JD, JD))
_GRD: Final = _make(GRAND, (KS, QS, JD))
#: Four and eight of a kind, indexed by rank (only A K Q J are filled).
_FOUR: Final = {r: _make(_FOUR_OF[r], range(r, 32, 8)) for r in (ACE, KING, QUEEN, JACK)}
_EIGHT: Final = {
    r: _make(_FOUR_OF[r] + 4, list(range(r, 32, 8)) * 2) for r in (ACE, KING, QUEEN, JACK)
}
#: Every combination by (kind, card numbers), to recognise one handed back by a caller.
_BY_KEY: Final[Mapping[tuple[str, tuple[int, ...]], Combination]] = {
    (m.kind, tuple(int(c) for c in m.cards)): m
    for m in (*_MAR, *_ROY, *_SEQ, _BIN, _DBL, _GRD, *_FOUR.values(), *_EIGHT.values())
}


def _candidates(
    trump: int, grand: bool
) -> tuple[tuple[Combination, tuple[tuple[int, int], ...]], ...]:
    """The combinations possible with ``trump``, in display order, each with its needs.

    A need is (card number, how many).  Royal marriage and sequence are in
    trumps, marriages in plain suits; grand binocle only as an option.
    """
    combos: list[Combination] = []
    for s in range(4):
        if s == trump:
            combos += (_ROY[s], _SEQ[s])
        else:
            combos.append(_MAR[s])
    combos += (_BIN, _DBL, _GRD) if grand else (_BIN, _DBL)
    for r in (ACE, KING, QUEEN, JACK):
        combos += (_FOUR[r], _EIGHT[r])
    out = []
    for m in combos:
        need: dict[int, int] = {}
        for c in m.cards:
            need[c] = need.get(c, 0) + 1
        out.append((m, tuple(sorted(need.items()))))
    return tuple(out)


_CANDIDATES: Final = tuple(_candidates(t, g) for t in range(4) for g in (False, True))


@attrs.frozen(slots=True)
class TableMeld:
    """A combination announced this hand: the table slots it used and whether it is intact.

    ``slots[i]`` holds ``combination.cards[i]``.  It stops being intact as soon
    as one of its cards is played (classic rules, Announcements: same class).
    """

    combination: Combination
    slots: tuple[int, ...]
    intact: bool = True


@attrs.frozen(slots=True)
class MeldTable:
    """One player's melded cards face up on the table during the stock phase (classic rules, Announcements).

    ``slots`` pairs each table card with a slot id (by increasing id); a slot
    id names one physical copy for the whole hand and is never reused.
    ``melds`` lists every combination announced this hand, oldest first,
    including those whose cards have been played since.
    """

    slots: tuple[tuple[int, Card], ...] = ()
    melds: tuple[TableMeld, ...] = ()

    EMPTY: "ClassVar[MeldTable]"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards on the table, sorted."""
        return tuple(sorted(c for _, c in self.slots))

    @property
    def slot_ids(self) -> tuple[int, ...]:
        """The slot ids of the cards on the table."""
        return tuple(s for s, _ in self.slots)

    @property
    def next_slot(self) -> int:
        """The id the next card laid down gets: one more than any id used this hand."""
        return _next_slot(self)

    @property
    def score(self) -> int:
        """The meld points announced this hand."""
        return sum(m.combination.value for m in self.melds)

    def card_at(self, slot: int) -> Card:
        """The card lying in ``slot``."""
        for s, c in self.slots:
            if s == slot:
                return c
        raise IllegalActionError(f"not on the table: slot {slot}", RuleCode.MELD_NOT_HELD)

    def history(self, slot: int) -> tuple[TableMeld, ...]:
        """The combinations ``slot`` has served in this hand, oldest first."""
        return tuple(m for m in self.melds if slot in m.slots)

    def __str__(self) -> str:
        cards = " ".join(f"{c}#{s}" for s, c in self.slots)
        melds = "; ".join(f"{m.combination}{'' if m.intact else ' broken'}" for m in self.melds)
        return f"table [{cards}] melds [{melds}]"


MeldTable.EMPTY = MeldTable()


@attrs.frozen(slots=True)
class Announcement:
    """One announcement (classic rules, Announcements: one score each): a combination, the table slots it reuses, its fresh cards.

    ``table_slots`` and ``fresh`` (the cards taken from the concealed hand) are
    sorted; together they are exactly ``combination.cards``.
    """

    combination: Combination
    table_slots: tuple[int, ...] = ()
    fresh: tuple[Card, ...] = ()

    def __str__(self) -> str:
        parts = [f"hand {format_cards(self.fresh)}"] if self.fresh else []
        if self.table_slots:
            parts.append("table " + " ".join(f"#{s}" for s in self.table_slots))
        return f"{self.combination} [{'; '.join(parts)}]"


def _trump_arg(trump: int) -> int:
    if isinstance(trump, bool) or not isinstance(trump, int) or not 0 <= trump < 4:
        raise InvalidArgumentError(f"trump must be a Suit (0..3), not {excerpt(trump)}")
    return int(trump)


def _counts(cards: Iterable[int]) -> list[int]:
    """How many of each card kind; refuses what is not a card or more than two copies."""
    c = [0] * 64
    try:
        for x in cards:
            c[x] += 1
    except (TypeError, IndexError):
        raise InvalidArgumentError(f"not a sequence of cards: {excerpt(cards)}") from None
    if any(c[32:]) or max(c) > 2:
        raise InvalidArgumentError(f"not cards of a double pack: {excerpt(cards)}")
    return c


def _same_class_violation(
    combo: Combination, used: tuple[int, ...], table: MeldTable
) -> str | None:
    """Why reusing the table slots ``used`` in ``combo`` breaks the same class rule (classic rules, Announcements), or None."""
    used_set = set(used)
    for m in table.melds:
        old = m.combination
        if old.meld_class != combo.meld_class or used_set.isdisjoint(m.slots):
            continue
        why = None
        if not m.intact:
            why = "is no longer intact"
        elif not used_set.issuperset(m.slots):
            why = f"does not lie wholly inside the new {combo.kind}"
        elif old.value >= combo.value:
            why = f"is not worth less than the new {combo.kind}"
        if why is not None:
            shared = [c for c, s in zip(old.cards, m.slots, strict=True) if s in used_set]
            return (
                f"same class rule: {format_cards(shared)} already served in class "
                f"{old.meld_class} {old}, which {why}"
            )
    return None


def legal_announcements(
    hand: Iterable[Card], table: MeldTable, trump: int, *, grand_binocle: bool = False
) -> tuple[Announcement, ...]:
    """Every distinct legal announcement (classic rules, Announcements), in display order.

    Copies that can't be told apart (both in the hand, or both on the table
    with the same combinations behind them) count once; a table copy and a
    hand copy are different announcements.
    """
    t = _trump_arg(trump)
    h = _counts(hand)
    fresh = twice = 0
    for k in range(32):
        if h[k]:
            fresh |= 1 << k
            if h[k] == 2:
                twice |= 1 << k
    return _announcements(fresh, twice, table, _MASKED[t * 2 + bool(grand_binocle)])


def announcements_of(
    hand: tuple[Card, ...], table: MeldTable, trump: int, grand_binocle: bool
) -> tuple[Announcement, ...]:
    """:func:`legal_announcements` of a state's own cards (the engine's hot path: the
    cards were checked when they were dealt).

    The last answer is kept: applying an announcement asks again what the legal
    actions just asked, for the same cards and table.
    """
    global _LAST
    last = _LAST
    if last[0] is table and last[1] == hand and last[2] == trump and last[3] is grand_binocle:
        return last[4]
    found = _fresh_announcements(hand, table, trump, grand_binocle)
    _LAST = (table, hand, trump, grand_binocle, found)
    return found


def announcements_with(
    hand: tuple[Card, ...], facts: _TableFacts, trump: int, grand_binocle: bool
) -> tuple[Announcement, ...]:
    """:func:`announcements_of` with the table's facts kept by the caller
    (:func:`new_table_facts` of the table): for a caller that holds many tables at
    once, as the vectorized environment does, which the few tables this module keeps
    would not serve.  While the caller keeps the facts, the announcements found with
    the same cards are the same objects."""
    fresh, twice = _held(hand)
    return _announcements(fresh, twice, facts.table, _MASKED[trump * 2 + grand_binocle], facts)


def announcements_held(
    hand: tuple[Card, ...], facts: _TableFacts, trump: int, grand_binocle: bool
) -> tuple[Announcement, ...]:
    """:func:`announcements_with` for a ``hand`` that still holds the cards laid down
    on the table (as the three-handed game's hands do): the cards not laid down are
    worked out as bit masks, the table's copies taken from the hand's."""
    fresh, twice = _held(hand)
    on_table = facts.on_table
    # A kind held h times, t of them on the table: h - t concealed (t <= h <= 2).
    concealed = fresh & ~on_table | twice & on_table & ~facts.twice
    return _announcements(
        concealed, twice & ~on_table, facts.table, _MASKED[trump * 2 + grand_binocle], facts
    )


def new_table_facts(table: MeldTable) -> _TableFacts:
    """What :func:`announcements_with` needs to know of ``table``, for the caller to
    keep while the table lasts."""
    return _TableFacts(table)


def copies_in(facts: _TableFacts) -> dict[int, list[tuple[int, ...]]]:
    """:func:`table_copies` of the table of ``facts`` (kept in them: read the answer,
    never change it)."""
    kinds = facts.kinds
    if kinds is None:
        kinds = facts.kinds = _copies_on(facts.table)
    return kinds


def lowest_slots(copies: dict[int, list[tuple[int, ...]]]) -> dict[int, list[int]]:
    """Of :func:`table_copies`' answer, each card's groups of copies as their lowest
    slots, in increasing order: one slot per distinct combination history."""
    out: dict[int, list[int]] = {}
    for card, groups in copies.items():
        slots: list[int] = []
        for group in groups:
            slots.append(group[0])
        slots.sort()
        out[card] = slots
    return out


_LAST: tuple[MeldTable | None, tuple[Card, ...], int, bool, tuple[Announcement, ...]] = (
    None,
    (),
    -1,
    False,
    (),
)


def _fresh_announcements(
    hand: tuple[Card, ...], table: MeldTable, trump: int, grand_binocle: bool
) -> tuple[Announcement, ...]:
    fresh, twice = _held(hand)
    return _announcements(fresh, twice, table, _MASKED[trump * 2 + grand_binocle])


def _held(hand: tuple[Card, ...]) -> tuple[int, int]:
    """The card kinds held, and those held twice, as bit masks (no card is held three
    times)."""
    fresh = twice = 0
    for card in hand:
        k: int = card
        bit = 1 << k
        if fresh & bit:
            twice |= bit
        fresh |= bit
    return fresh, twice


def _announcements(
    fresh: int,
    twice: int,
    table: MeldTable,
    candidates: tuple[_Candidate, ...],
    kept: _TableFacts | None = None,
) -> tuple[Announcement, ...]:
    """The announcements of a hand, among ``candidates``.

    ``fresh`` and ``twice`` are the bit masks of the kinds in the hand, and held
    twice.  A candidate needs all its kinds (in the hand or on the table), one
    of them from the hand.  ``kept``: the table's facts where the caller keeps them
    (else those this module keeps for the last tables seen).
    """
    slots = table.slots
    if not slots:
        # Nothing on the table: every announcement is of fresh cards alone.
        out: list[Announcement] = []
        lacking, single = ~fresh, ~twice
        for _combo, _need, needs, doubles, whole in candidates:
            if not (needs & lacking or doubles & single):
                out.append(whole)
        return tuple(out)
    facts = kept
    if facts is None:
        facts = _TABLE_FACTS.get(id(table))
        if facts is None or facts.table is not table:
            facts = _table_facts(table)
    on_table = facts.on_table
    once = fresh | on_table
    both = twice | facts.twice | (fresh & on_table)
    known = facts.known
    found: list[Announcement] = []
    lacking, single = ~once, ~both
    for combo, need, needs, doubles, whole in candidates:
        # Cheap tests first: enough copies in hand and on the table, and a fresh card.
        if needs & lacking or doubles & single or not needs & fresh:
            continue
        if not needs & on_table:
            # None of its cards on the table: from the hand alone, as without a table.
            if not (needs & ~fresh or doubles & ~twice):
                found.append(whole)
            continue
        # What the table allows this combination depends only on the table and on how
        # many of each card it needs the hand holds: kept per table.
        key = (id(combo), fresh & needs, twice & needs)
        anns = known.get(key)
        if anns is None:
            kinds = facts.kinds
            if kinds is None:
                kinds = facts.kinds = _copies_on(table)
            anns = known[key] = _with_table(combo, need, fresh, twice, kinds, table)
        found += anns
    return tuple(found)


def _with_table(
    combo: Combination,
    need: tuple[tuple[int, int], ...],
    fresh: int,
    twice: int,
    kinds: dict[int, list[tuple[int, ...]]],
    table: MeldTable,
) -> tuple[Announcement, ...]:
    """The legal announcements of ``combo`` from a hand (the kinds it holds, and holds
    twice, as bit masks) and the table."""
    choices = _choices(need, fresh, twice, kinds)
    if choices is None:
        return ()
    out: list[Announcement] = []
    for pick in itertools.product(*choices):
        fresh_cards: tuple[Card, ...] = ()
        slots: tuple[int, ...] = ()
        for cards, ss in pick:
            fresh_cards += cards
            slots += ss
        if not fresh_cards:
            continue  # the fresh card rule
        used = tuple(sorted(slots))
        if used and _breaks_same_class(combo, used, table):
            continue
        out.append(Announcement(combo, used, fresh_cards))
    return tuple(out)


class _TableFacts:
    """What the announcements need to know of one table: the kinds on it and twice on
    it as bit masks, its copies by card (groups of interchangeable copies, found
    when first needed) and the announcements found with it so far, by combination
    and the hand's counts of the combination's cards."""

    __slots__ = ("kinds", "known", "on_table", "table", "twice")

    def __init__(self, table: MeldTable) -> None:
        on_table = twice = 0
        for _, c in table.slots:
            bit = 1 << c
            if on_table & bit:
                twice |= bit
            on_table |= bit
        self.table = table
        self.on_table = on_table
        self.twice = twice
        self.kinds: dict[int, list[tuple[int, ...]]] | None = None
        self.known: dict[tuple[int, int, int], tuple[Announcement, ...]] = {}


#: The facts of the last tables seen, by id (the table kept with them, so its id stays
#: its own).  A table lasts over several tricks: it changes only when a card is laid
#: down or played from it.  A game in progress has two or three tables at a time: a
#: few kept are enough, and keep little memory.
_TABLE_FACTS: Final[dict[int, _TableFacts]] = {}
_TABLES_KEPT: Final = 4


def _table_facts(table: MeldTable) -> _TableFacts:
    if len(_TABLE_FACTS) >= _TABLES_KEPT:
        _TABLE_FACTS.clear()
    facts = _TABLE_FACTS[id(table)] = _TableFacts(table)
    return facts


def table_copies(table: MeldTable) -> dict[int, list[tuple[int, ...]]]:
    """The copies on the table by card number: its groups of interchangeable copies
    (the same combinations behind them), each as its first two slots (at most two
    copies of a card serve in one combination), the groups by their lowest slot.

    Kept for the last tables seen: read the answer, never change it.
    """
    facts = _TABLE_FACTS.get(id(table))
    if facts is None or facts.table is not table:
        facts = _table_facts(table)
    return copies_in(facts)


def _copies_on(table: MeldTable) -> dict[int, list[tuple[int, ...]]]:
    slots = table.slots
    if len({c for _, c in slots}) == len(slots):
        return {c: [(s,)] for s, c in slots}  # one copy of each card: nothing to group
    hist: dict[int, tuple[int, ...]] = {}
    for i, m in enumerate(table.melds):
        for s in m.slots:
            hist[s] = (*hist.get(s, ()), i)
    copies: dict[int, dict[tuple[int, ...], list[int]]] = {}
    for s, c in table.slots:
        copies.setdefault(c, {}).setdefault(hist.get(s, ()), []).append(s)
    return {c: [tuple(slots[:2]) for slots in g.values()] for c, g in copies.items()}


def _breaks_same_class(combo: Combination, used: tuple[int, ...], table: MeldTable) -> bool:
    """Whether reusing the table slots ``used`` in ``combo`` breaks the same class rule:
    :func:`_same_class_violation` without the message."""
    used_set = set(used)
    for m in table.melds:
        old = m.combination
        if old.meld_class != combo.meld_class or used_set.isdisjoint(m.slots):
            continue
        if not m.intact or not used_set.issuperset(m.slots) or old.value >= combo.value:
            return True
    return False


#: A candidate combination: the combination, the kinds it needs with how many of each,
#: the bit masks of the kinds it needs and needs twice, and its announcement with
#: every card from the hand.
_Candidate = tuple[Combination, tuple[tuple[int, int], ...], int, int, Announcement]


def _masked(
    candidates: tuple[tuple[Combination, tuple[tuple[int, int], ...]], ...],
) -> tuple[_Candidate, ...]:
    """Each candidate with the bit masks of the kinds it needs, and needs twice, and
    its announcement from the hand alone."""
    out = []
    for combo, need in candidates:
        needs = doubles = 0
        for k, n in need:
            needs |= 1 << k
            if n == 2:
                doubles |= 1 << k
        out.append((combo, need, needs, doubles, _all_fresh(combo)))
    return tuple(out)


_ALL_FRESH: Final[dict[Combination, Announcement]] = {}


def fresh_announcement(kind: str, cards: tuple[Card, ...]) -> Announcement | None:
    """The announcement of the combination ``kind`` of ``cards`` (sorted), every card
    from the hand; None if they make no combination of the meld table."""
    combo = _BY_KEY.get((kind, cards))
    return None if combo is None else _all_fresh(combo)


def _all_fresh(combo: Combination) -> Announcement:
    """The announcement of ``combo`` with every card from the hand (built once)."""
    ann = _ALL_FRESH.get(combo)
    if ann is None:
        ann = _ALL_FRESH[combo] = Announcement(combo, (), combo.cards)
    return ann


_MASKED: Final = tuple(_masked(c) for c in _CANDIDATES)


def _choices(
    need: tuple[tuple[int, int], ...],
    fresh: int,
    twice: int,
    kinds: dict[int, list[tuple[int, ...]]],
) -> list[list[tuple[tuple[Card, ...], tuple[int, ...]]]] | None:
    """For each card a combination needs, the ways to supply it: ``(fresh cards, table
    slots)``; None where some card can't be supplied.  ``kinds`` gives each card on
    the table as its groups of interchangeable copies (the first two slots of each)."""
    choices: list[list[tuple[tuple[Card, ...], tuple[int, ...]]]] = []
    for k, n in need:
        groups = kinds.get(k, ())
        card = CARDS[k]
        held = fresh >> k & 1
        options: list[tuple[tuple[Card, ...], tuple[int, ...]]] = []
        if n == 1:
            if held:
                options.append(((card,), ()))
            options += [((), (g[0],)) for g in groups]
        else:
            if twice >> k & 1:
                options.append(((card, card), ()))
            if held:
                options += [((card,), (g[0],)) for g in groups]
            options += [((), g) for g in groups if len(g) == 2]
            options += [((), (a[0], b[0])) for a, b in itertools.combinations(groups, 2)]
        if not options:
            return None
        choices.append(options)
    return choices


def announce(
    hand: Iterable[Card],
    table: MeldTable,
    announcement: Announcement,
    *,
    trump: int | None = None,
    grand_binocle: bool | None = None,
) -> tuple[tuple[Card, ...], MeldTable]:
    """Lay ``announcement`` down: the new concealed hand and the new table (classic rules, Announcements).

    The fresh cards move to the table in new slots and the combination is
    recorded as intact.  Checks the fresh card and same class rules; give
    ``trump`` (and ``grand_binocle``) to check the suit and the option too.
    """
    combo = announcement.combination
    key = (combo.kind, tuple(int(c) for c in combo.cards))
    if _BY_KEY.get(key) != combo:
        raise IllegalActionError(
            f"not a combination of the meld table (classic rules, Announcements): {combo}",
            RuleCode.NOT_A_COMBINATION,
        )
    if trump is not None:
        t = _trump_arg(trump)
        suit = combo.cards[0] >> 3
        if combo.kind == "marriage" and suit == t:
            raise IllegalActionError(
                f"a marriage is in a plain suit; in trumps it is a royal marriage: {combo}",
                RuleCode.MELD_SUIT,
            )
        if combo.kind in ("royal marriage", "sequence") and suit != t:
            raise IllegalActionError(f"a {combo.kind} is in trumps: {combo}", RuleCode.MELD_SUIT)
    if grand_binocle is not None and not grand_binocle and combo.kind == "grand binocle":
        raise IllegalActionError(
            "grand binocle is not played (option grand_binocle is off)", RuleCode.OPTION_OFF
        )
    fresh = announcement.fresh
    if not fresh:
        raise IllegalActionError(
            "fresh card rule: an announcement must use at least one card from the concealed hand",
            RuleCode.FRESH_CARD,
        )
    held = list(hand)
    rest = list(held)
    for c in fresh:
        if c not in rest:
            raise IllegalActionError(f"not in the concealed hand: {c}", RuleCode.MELD_NOT_HELD)
        rest.remove(c)
    on_table = dict(table.slots)
    used = announcement.table_slots
    if len(set(used)) != len(used):
        raise IllegalActionError(f"a table slot used twice: {used}", RuleCode.CARDS_REUSED)
    for s in used:
        if s not in on_table:
            raise IllegalActionError(f"not on the table: slot {s}", RuleCode.MELD_NOT_HELD)
    if sorted([*fresh, *(on_table[s] for s in used)]) != list(combo.cards):
        raise IllegalActionError(
            f"these cards do not make {combo}: {announcement}", RuleCode.NOT_A_COMBINATION
        )
    why = _same_class_violation(combo, tuple(sorted(used)), table)
    if why is not None:
        raise IllegalActionError(why, RuleCode.SAME_CLASS)
    return lay_down(
        tuple(sorted(held)),
        table,
        Announcement(combo, tuple(sorted(used)), tuple(CARDS[c] for c in sorted(fresh))),
    )


def lay_down(
    hand: tuple[Card, ...], table: MeldTable, announcement: Announcement
) -> tuple[tuple[Card, ...], MeldTable]:
    """:func:`announce` without its checks, for an announcement known to be legal (one
    that :func:`legal_announcements` found): the new sorted concealed hand and table.

    ``hand`` is sorted and holds the announcement's fresh cards (sorted too).
    """
    rest = list(hand)
    for c in announcement.fresh:
        rest.remove(c)
    return tuple(rest), table_after(table, announcement)


def _next_slot(table: MeldTable) -> int:
    """:attr:`MeldTable.next_slot`: one more than any slot used this hand (a function,
    so that compiled callers call it natively)."""
    first = 0
    for s, _ in table.slots:
        if s >= first:
            first = s + 1
    for m in table.melds:
        for s in m.slots:
            if s >= first:
                first = s + 1
    return first


def table_after(table: MeldTable, announcement: Announcement) -> MeldTable:
    """The table after :func:`lay_down`: the fresh cards in new slots, the combination
    recorded as intact (the same announcement known to be legal)."""
    fresh = announcement.fresh
    first = _next_slot(table)
    new = [(first + i, c) for i, c in enumerate(fresh)]
    used = announcement.table_slots
    if used:
        on_table = dict(table.slots)
        pool = sorted([(int(on_table[s]), s) for s in used] + [(int(c), s) for s, c in new])
        order = tuple(s for _, s in pool)
    else:
        # Fresh cards alone: already in card order, the new slots increasing.
        order = tuple(s for s, _ in new)
    meld = TableMeld(announcement.combination, order, True)
    return MeldTable((*table.slots, *new), (*table.melds, meld))


def play_from_table(table: MeldTable, slot: int) -> MeldTable:
    """The table after the card in ``slot`` is played: it leaves, and its combinations are broken.

    A broken combination can't be upgraded or re-formed (classic rules, Announcements: same class).
    """
    if slot not in dict(table.slots):
        raise IllegalActionError(f"not on the table: slot {slot}", RuleCode.NOT_HELD)
    melds = tuple(
        TableMeld(m.combination, m.slots, False) if m.intact and slot in m.slots else m
        for m in table.melds
    )
    return MeldTable(tuple(p for p in table.slots if p[0] != slot), melds)


def combinations_in(
    cards: Iterable[Card], trump: int, *, grand_binocle: bool = False
) -> tuple[Combination, ...]:
    """Every distinct combination whose cards all lie in ``cards`` (classic rules, Announcements), in display order."""
    t = _trump_arg(trump)
    c = _counts(cards)
    return tuple(
        m for m, need in _CANDIDATES[t * 2 + bool(grand_binocle)] if all(c[k] >= n for k, n in need)
    )
