"""Classic Binocle melds: the "plenty of time" optimum (the best total a hand can
announce, with unlimited tricks and nothing played, as the three-handed rules, Melds,
ask) and the check of announcements declared after the fact (layer 2, pure functions).

Offered by :mod:`binocle.rules.classic_melds`.  The optimum (:func:`best_meld`) works
on card counts; see its docstring for the method.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from typing import Final

from binocle.cards import CARDS, Card, format_cards
from binocle.errors import RuleCode
from binocle.rules.classic_melds._announcements import (
    _BIN,
    _BY_KEY,
    _DBL,
    _EIGHT,
    _FOUR,
    _GRD,
    _MAR,
    _ROY,
    _SEQ,
    ACE,
    BINOCLE,
    DOUBLE,
    EIGHT_K,
    EIGHT_Q,
    FOUR_K,
    FOUR_Q,
    GRAND,
    JACK,
    JD,
    KING,
    KS,
    MARRIAGE,
    QS,
    QUEEN,
    ROYAL,
    TEN,
    Combination,
    MeldTable,
    _counts,
    _trump_arg,
    lay_down,
    legal_announcements,
)

__all__ = ["best_meld", "best_meld_of", "check_announcements"]


# --- the "plenty of time" optimum ------------------------------------------------------------
#
# With nothing played every combination stays intact, and a set of combinations
# can be announced in some order iff (a) two combinations of one class are
# disjoint or nested, the inner one worth less, and (b) the set can be "peeled":
# some member has a card in no other member; drop it and repeat (the member
# dropped last is announced first; its private card is its fresh card).  An
# inner combination has no private card while its outer one remains, so it is
# announced first, as the same class rule wants.
#
# Aces, Tens and Jacks never constrain anything: every four or eight of Aces or
# Jacks holds a plain-suit Ace / non-diamond Jack that nothing else uses, and a
# sequence holds the Ten of trumps; so they are announced last, all of them.
# Class B without grand binocle always has a Jack of diamonds of its own.  The
# Kings and Queens can only conflict when both four Kings and four Queens are
# possible (or grand binocle is played, whose Queen and Jack hold a King of
# spades that may be wanted elsewhere): only then is the small "core" searched,
# exactly, by branch and bound over the combinations' copies, and memoised on
# its counts.  Everything else adds up.


def _peel(masks: list[int]) -> list[int] | None:
    """Indices of the card-bit sets in an order they can be announced, each with a fresh card, or None.

    Peels, again and again, every set holding a card no other set left holds;
    reversed, that is an announcement order (classic rules, Announcements: fresh card).
    """
    rem = list(range(len(masks)))
    peeled: list[int] = []
    while rem:
        ones = twos = 0
        for i in rem:
            twos |= ones & masks[i]
            ones |= masks[i]
        single = ones & ~twos
        out = [i for i in rem if masks[i] & single]
        if not out:
            return None
        peeled += out
        rem = [i for i in rem if not masks[i] & single]
    peeled.reverse()
    return peeled


def _bits_or(bits: Iterable[int]) -> int:
    out = 0
    for b in bits:
        out |= b
    return out


_Option = tuple[int, tuple[tuple[int, int, int], ...]]


def _class_b_options(ks: list[int], qs: list[int], js: list[int]) -> list[_Option]:
    """Every valid set of class B combinations on these copies of K♠, Q♠ and J♦ (grand binocle on)."""
    cands = [(q | j, BINOCLE, 40) for q in qs for j in js]
    if len(qs) == 2 and len(js) == 2:
        cands.append((_bits_or(qs + js), DOUBLE, 80))
    cands += [(k | q | j, GRAND, 80) for k in ks for q in qs for j in js]
    out: list[_Option] = []

    def extend(i: int, chosen: list[tuple[int, int, int]]) -> None:
        if i == len(cands):
            out.append(
                (sum(v for _, _, v in chosen), tuple((m, code, -1) for m, code, _ in chosen))
            )
            return
        extend(i + 1, chosen)
        m, _, v = cands[i]
        for o, _, ov in chosen:
            if o & m and not (o & m == o and ov < v) and not (o & m == m and v < ov):
                return
        if _peel([o for o, _, _ in chosen] + [m]) is not None:
            extend(i + 1, [*chosen, cands[i]])

    extend(0, [])
    return out


@functools.cache
def _solve_core(
    suits: tuple[tuple[int, int, int, bool], ...], groups: bool, jacks: int
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The best Kings-and-Queens core: its value and ``(kind code, suit position)`` in announcement order.

    ``suits``: (Kings, Queens, marriage value, is spades) of each suit taking part;
    ``groups``: four/eight Kings and Queens take part; ``jacks``: copies of J♦
    when class B (with grand binocle) takes part, else 0.  One decision per
    group of combinations, branch and bound, each partial family kept
    peelable.  The first four Kings (Queens) uses copy 0 of each suit: copies
    are interchangeable and every other decision tries every copy.
    """
    nbit = 0
    kb: list[list[int]] = []
    qb: list[list[int]] = []
    for k, q, _, _ in suits:
        kb.append([1 << (nbit + i) for i in range(k)])
        nbit += k
        qb.append([1 << (nbit + i) for i in range(q)])
        nbit += q
    jb = [1 << (nbit + i) for i in range(jacks)]
    decisions: list[list[_Option]] = []
    if groups:
        for bits, four, value in ((kb, FOUR_K, 80), (qb, FOUR_Q, 60)):
            first = _bits_or(b[0] for b in bits)
            f = (first, four, -1)
            opts: list[_Option] = [(0, ()), (value, (f,))]
            if all(len(b) == 2 for b in bits):
                second = _bits_or(b[1] for b in bits)
                eight = (first | second, four + 4, -1)
                opts += [
                    (3 * value, (f, eight)),
                    (2 * value, (eight,)),
                    (2 * value, (f, (second, four, -1))),
                ]
            decisions.append(opts)
    if jacks:
        sp = next(i for i, s in enumerate(suits) if s[3])
        decisions.append(_class_b_options(kb[sp], qb[sp], jb))
    for pos, (_, _, w, _) in enumerate(suits):
        code = ROYAL if w == 40 else MARRIAGE
        pairs = [kk | qq for kk in kb[pos] for qq in qb[pos]]
        opts = []
        for n in range(len(pairs) + 1):
            for sub in itertools.combinations(pairs, n):
                if _bits_or(sub).bit_count() == 2 * n:
                    opts.append((w * n, tuple((m, code, pos) for m in sub)))
        decisions.append(opts)
    for opts in decisions:
        opts.sort(key=lambda o: -o[0])
    bound = [0] * (len(decisions) + 1)
    for i in range(len(decisions) - 1, -1, -1):
        bound[i] = bound[i + 1] + decisions[i][0][0]
    best: list[tuple[int, tuple[tuple[int, int, int], ...]]] = [(-1, ())]

    def search(
        i: int, value: int, masks: list[int], chosen: tuple[tuple[int, int, int], ...]
    ) -> None:
        if i == len(decisions):
            if value > best[0][0]:
                best[0] = (value, chosen)
            return
        for v, combos in decisions[i]:
            if value + v + bound[i + 1] <= best[0][0]:
                break
            more = masks + [m for m, _, _ in combos] if combos else masks
            if combos and _peel(more) is None:
                continue
            search(i + 1, value + v, more, chosen + combos)

    search(0, 0, [], ())
    value, family = best[0]
    order = _peel([m for m, _, _ in family]) or []
    return value, tuple(family[i][1:] for i in order)


def best_meld(
    cards: Iterable[Card], trump: int, *, grand_binocle: bool = False
) -> tuple[int, tuple[Combination, ...]]:
    """The "plenty of time" meld (three-handed rules, Melds): the best total and an order that reaches it.

    Starting with every card concealed and an empty table, the maximum total of
    a sequence of legal announcements (classic rules, Announcements) with nothing
    played.

    >>> from binocle.cards import Suit, parse_cards
    >>> total, order = best_meld(parse_cards("KS KH KD KC QS QH QD QC"), Suit.HEARTS)
    >>> total, [m.kind for m in order]
    (220, ['royal marriage', 'marriage', 'marriage', 'four queens', 'four kings'])
    >>> best_meld(parse_cards("AH TH KH QH JH"), Suit.HEARTS)[0]
    190
    """
    return _best_of_counts(_counts(cards), _trump_arg(trump), grand_binocle)


def best_meld_of(
    hand: tuple[Card, ...], trump: int, grand_binocle: bool
) -> tuple[int, tuple[Combination, ...]]:
    """:func:`best_meld` of a state's own cards (the engine's hot path: the cards were
    checked when they were dealt)."""
    c = [0] * 32
    for x in hand:
        k: int = x  # compiled: the card as a machine integer, a native list index
        c[k] += 1
    return _best_of_counts(c, trump, grand_binocle)


def _best_of_counts(
    c: list[int], t: int, grand_binocle: bool
) -> tuple[int, tuple[Combination, ...]]:
    """:func:`best_meld` of the card counts ``c`` (at least 32 of them), trump ``t``."""
    out: list[Combination] = []
    total = 0
    nk = _fewest(c, KING)
    nq = _fewest(c, QUEEN)
    both = nk > 0 and nq > 0
    jacks_b = c[JD] if grand_binocle and c[KS] and c[QS] else 0
    core_suits: tuple[int, ...] = ()
    if both or jacks_b:
        core_suits = (0, 1, 2, 3) if both else (0,)
        entries = [
            (c[s * 8 + KING], c[s * 8 + QUEEN], 40 if s == t else 20, s == 0 and jacks_b > 0)
            for s in core_suits
        ]
        perm = sorted(range(len(entries)), key=entries.__getitem__)
        value, order = _solve_core(tuple(entries[p] for p in perm), both, jacks_b)
        total += value
        for code, pos in order:
            if code == MARRIAGE:
                out.append(_MAR[core_suits[perm[pos]]])
            elif code == ROYAL:
                out.append(_ROY[core_suits[perm[pos]]])
            else:
                out.append(_COMBO_OF_CODE[code])
    if not both:
        # No conflict: the groups first (all fresh), then each marriage with a fresh card.
        for rank, n in ((KING, nk), (QUEEN, nq)):
            if n:
                out.append(_FOUR[rank])
                total += _FOUR[rank].value
                if n == 2:
                    out.append(_EIGHT[rank])
                    total += _EIGHT[rank].value
        for s in range(4):
            if s in core_suits:
                continue
            n = _less(c[s * 8 + KING], c[s * 8 + QUEEN])
            if n:
                m = _ROY[s] if s == t else _MAR[s]
                out += (m,) * n
                total += m.value * n
    if not jacks_b:
        n = _less(c[QS], c[JD])
        if n:
            out.append(_BIN)
            total += 40
            if n == 2:
                out.append(_DBL)
                total += 80
    b = t * 8
    n = _less(_less(c[b], c[b + TEN]), _less(_less(c[b + KING], c[b + QUEEN]), c[b + JACK]))
    if n:
        out += (_SEQ[t],) * n
        total += 150 * n
    for r, value in ((ACE, 100), (JACK, 40)):
        n = _fewest(c, r)
        if n:
            out.append(_FOUR[r])
            total += value
            if n == 2:
                out.append(_EIGHT[r])
                total += 2 * value
    return total, tuple(out)


def _less(a: int, b: int) -> int:
    """``min(a, b)``, which compiled code would call as a builtin."""
    return a if a < b else b


def _fewest(c: list[int], rank: int) -> int:
    """The fewest copies of ``rank`` in a suit, by the card counts ``c``: how many
    times four of that rank are held."""
    return _less(_less(c[rank], c[8 + rank]), _less(c[16 + rank], c[24 + rank]))


_COMBO_OF_CODE: Final = {
    BINOCLE: _BIN,
    DOUBLE: _DBL,
    GRAND: _GRD,
    FOUR_K: _FOUR[KING],
    EIGHT_K: _EIGHT[KING],
    FOUR_Q: _FOUR[QUEEN],
    EIGHT_Q: _EIGHT[QUEEN],
}


# --- checking declared announcements -------------------------------------------------------

#: The most positions (concealed hand, table) a check of declared announcements follows:
#: the ways to lay the same combinations down differ only in which copies were reused.
_FRONTIER: Final = 64


def check_announcements(
    hand: Iterable[Card],
    table: MeldTable,
    trump: int,
    declared: Iterable[tuple[str, tuple[Card, ...], int | None]],
    *,
    grand_binocle: bool,
) -> list[tuple[RuleCode | None, str, int]]:
    """A ruling on each declared announcement, in the order announced (classic rules,
    Announcements): ``(None, "", value)`` where it stands, else ``(code, why, worth)``.

    ``hand`` is the concealed hand and ``table`` what the player has laid down
    before.  Each announcement is ``(kind, cards, value announced or None)``,
    ``cards`` all the cards it shows, from the hand and the table alike.  It
    stands when some choice of the copies shown (concealed or on the table)
    makes it a legal announcement after those before it that stood: the fresh
    card and same class rules, the combination in its suit, the option for
    grand binocle.  A value announced other than the combination's is refused
    (:attr:`RuleCode.WRONG_VALUE`) though the combination still scores its
    value; an announcement that does not stand scores 0 and leaves the cards
    where they were.
    """
    t = _trump_arg(trump)
    positions: list[tuple[tuple[Card, ...], MeldTable]] = [(tuple(sorted(hand)), table)]
    out: list[tuple[RuleCode | None, str, int]] = []
    for kind, cards, claimed in declared:
        key = (kind, tuple(sorted(int(c) for c in cards)))
        combo = _BY_KEY.get(key)
        shown = f"{kind} {format_cards(key[1])}"
        if combo is None:
            out.append(
                (RuleCode.NOT_A_COMBINATION, f"{shown} is not a combination of the meld table", 0)
            )
            continue
        suit = combo.cards[0] >> 3
        if (kind == "marriage" and suit == t) or (
            kind in ("royal marriage", "sequence") and suit != t
        ):
            where = "a plain suit" if kind == "marriage" else "trumps"
            out.append((RuleCode.MELD_SUIT, f"{shown}: a {kind} is in {where}", 0))
            continue
        if kind == "grand binocle" and not grand_binocle:
            out.append(
                (
                    RuleCode.OPTION_OFF,
                    "grand binocle is not played (option grand_binocle is off)",
                    0,
                )
            )
            continue
        after: dict[tuple[tuple[Card, ...], MeldTable], None] = {}
        for h, tab in positions:
            for ann in legal_announcements(h, tab, t, grand_binocle=grand_binocle):
                if ann.combination == combo and len(after) < _FRONTIER:
                    after[lay_down(h, tab, ann)] = None
        if not after:
            out.append((*_why_not(combo, *positions[0]), 0))
            continue
        positions = list(after)
        if claimed is not None and claimed != combo.value:
            out.append(
                (
                    RuleCode.WRONG_VALUE,
                    f"{shown} is worth {combo.value}, not {claimed}",
                    combo.value,
                )
            )
            continue
        out.append((None, "", combo.value))
    return out


def _why_not(combo: Combination, hand: tuple[Card, ...], table: MeldTable) -> tuple[RuleCode, str]:
    """Why ``combo`` can't be announced from ``hand`` and ``table``: the cards are not
    there, none of them is concealed, or the same class rule forbids reusing them."""
    have = _counts([*hand, *table.cards])
    need = _counts(combo.cards)
    missing = [CARDS[k] for k in range(32) if need[k] > have[k]]
    if missing:
        return (
            RuleCode.MELD_NOT_HELD,
            f"{combo}: neither the concealed hand nor the table holds {format_cards(missing)}",
        )
    concealed = _counts(hand)
    if not any(need[k] and concealed[k] for k in range(32)):
        return (
            RuleCode.FRESH_CARD,
            f"{combo}: fresh card rule: an announcement must use at least one card from the"
            " concealed hand",
        )
    return (
        RuleCode.SAME_CLASS,
        f"{combo}: same class rule: the table cards it needs may serve again in class"
        f" {combo.meld_class} only in a more valuable combination that contains an intact one",
    )
