"""Meld counting by groups, for three-hand auction Pinochle (cutthroat rules, Melds).

Melds are simply counted, no order and no fresh card: a card may serve in
melds of different groups (1: runs, marriages, dix; 2: pinochle; 3: arounds)
but not twice in one group.  Everything is computed from card counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from binocle.cards import CARDS, Card, format_cards
from binocle.errors import RuleCode

__all__ = [
    "ENTRIES",
    "check_declaration",
    "codes_of_counts",
    "meld_breakdown",
    "meld_codes",
    "meld_total",
]

ACE, TEN, KING, QUEEN, JACK, NINE = 0, 1, 2, 3, 4, 5
QS: Final = 0 * 8 + QUEEN
JD: Final = 2 * 8 + JACK
_SUITS: Final = "SHDC"

#: (rank, name, single value, doubled value) of the arounds.
AROUNDS: Final = (
    (ACE, "aces", 100, 1000),
    (KING, "kings", 80, 800),
    (QUEEN, "queens", 60, 600),
    (JACK, "jacks", 40, 400),
)
RUN, DOUBLE_RUN, ROYAL_MARRIAGE, MARRIAGE, DIX = 150, 1500, 40, 20, 10
PINOCHLE, DOUBLE_PINOCHLE = 40, 300


def meld_total(cards: Sequence[int], trump: int) -> int:
    """The meld of ``cards`` with ``trump`` (a suit number), as one number."""
    c = [0] * 32
    for x in cards:
        c[x] += 1
    total = 0
    for r, _, single, double in AROUNDS:
        m = min(c[r], c[8 + r], c[16 + r], c[24 + r])
        if m:
            total += single if m == 1 else double
    m = min(c[QS], c[JD])
    if m:
        total += PINOCHLE if m == 1 else DOUBLE_PINOCHLE
    for s in (0, 8, 16, 24):
        k = c[s + KING]
        q = c[s + QUEEN]
        if s == trump * 8:
            runs = min(c[s], c[s + TEN], k, q, c[s + JACK])
            if runs == 2:
                total += DOUBLE_RUN
            elif runs == 1:
                total += RUN + (ROYAL_MARRIAGE if k == 2 or q == 2 else 0)
            else:
                total += ROYAL_MARRIAGE * (k if k < q else q)
            total += DIX * c[s + NINE]
        else:
            total += MARRIAGE * (k if k < q else q)
    return total


_Scored = tuple[str, tuple[Card, ...], int]

#: Every meld a hand can score, as ``(name, cards, value)``, built once: a meld's code
#: (:func:`meld_codes`) is its index here.
ENTRIES: Final[list[_Scored]] = []


def _entry(name: str, cards: tuple[int, ...], value: int) -> int:
    ENTRIES.append((name, tuple(CARDS[c] for c in sorted(cards)), value))
    return len(ENTRIES) - 1


def _suit(t: int, ranks: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(t * 8 + r for r in ranks)


_RUN5: Final = (ACE, TEN, KING, QUEEN, JACK)
#: Codes by trump suit: (run, double run), (marriage, royal marriage), dix.
_RUN_CODES: Final = tuple(
    (_entry("run", _suit(t, _RUN5), RUN), _entry("double run", _suit(t, _RUN5) * 2, DOUBLE_RUN))
    for t in range(4)
)
_PAIR_CODES: Final = tuple(
    (
        _entry("marriage", _suit(s, (KING, QUEEN)), MARRIAGE),
        _entry("royal marriage", _suit(s, (KING, QUEEN)), ROYAL_MARRIAGE),
    )
    for s in range(4)
)
_DIX_CODES: Final = tuple(_entry("dix", _suit(s, (NINE,)), DIX) for s in range(4))
_PINOCHLE_CODES: Final = (
    _entry("pinochle", (QS, JD), PINOCHLE),
    _entry("double pinochle", (QS, QS, JD, JD), DOUBLE_PINOCHLE),
)
_AROUND_CODES: Final = tuple(
    (
        r,
        _entry(f"{name} around", tuple(s * 8 + r for s in range(4)), single),
        _entry(f"double {name} around", tuple(s * 8 + r for s in range(4)) * 2, double),
    )
    for r, name, single, double in AROUNDS
)


def meld_codes(cards: Sequence[int], trump: int) -> list[int]:
    """Every meld scored, as codes (indices into :data:`ENTRIES`), in group order.

    As the cutthroat rules, Melds, settle it: with one run, extra trump Kings and Queens add
    exactly one royal marriage; a double run takes every trump King and Queen.
    """
    c = [0] * 32
    for x in cards:
        c[x] += 1
    return codes_of_counts(c, trump)


def codes_of_counts(c: list[int], trump: int) -> list[int]:
    """:func:`meld_codes` of a hand given as its 32 card counts (``c[card]``)."""
    out: list[int] = []
    a, ten, k, q, j, nine, run, double_run, royal, pairs = _BY_TRUMP[trump]
    # Group 1: runs, marriages, dix.  (Cheap tests first: most hands hold no run.)
    runs = 0
    if c[a] and c[ten] and c[j] and c[k] and c[q]:
        runs = min(c[a], c[ten], c[k], c[q], c[j])
        if runs == 2:
            out.append(double_run)
        else:
            out.append(run)
            if c[k] == 2 or c[q] == 2:
                out.append(royal)
    for ki, qi, code, in_trump in pairs:
        n = c[ki]
        if n and c[qi] and not (in_trump and runs):
            out.append(code)
            if n == 2 and c[qi] == 2:
                out.append(code)
    n = c[nine]
    if n:
        out.append(_DIX_CODES[trump])
        if n == 2:
            out.append(_DIX_CODES[trump])
    # Group 2: pinochle.
    n = c[QS]
    if n and c[JD]:
        out.append(_PINOCHLE_CODES[0 if n == 1 or c[JD] == 1 else 1])
    # Group 3: arounds.
    for s, h, d, cl, one, two in _AROUND_AT:
        if c[s] and c[h] and c[d] and c[cl]:
            out.append(two if c[s] == c[h] == c[d] == c[cl] == 2 else one)
    return out


#: By trump suit: the card numbers of its Ace, Ten, King, Queen, Jack and Nine, the
#: codes of its run, double run and royal marriage, and each suit's (King, Queen,
#: marriage code, is trump).
_BY_TRUMP: Final = tuple(
    (
        t * 8 + ACE, t * 8 + TEN, t * 8 + KING, t * 8 + QUEEN, t * 8 + JACK, t * 8 + NINE,
        _RUN_CODES[t][0], _RUN_CODES[t][1], _PAIR_CODES[t][1],
        tuple(
            (s * 8 + KING, s * 8 + QUEEN, _PAIR_CODES[s][1 if s == t else 0], s == t)
            for s in range(4)
        ),
    )
    for t in range(4)
)  # fmt: skip
#: The arounds: the four card numbers of the rank, the single and double codes.
_AROUND_AT: Final = tuple((r, 8 + r, 16 + r, 24 + r, one, two) for r, one, two in _AROUND_CODES)


def meld_breakdown(cards: Sequence[int], trump: int) -> list[tuple[str, tuple[Card, ...], int]]:
    """Every meld scored, as ``(name, cards, value)``, in group order (the same
    tuples every time: :data:`ENTRIES` by :func:`meld_codes`)."""
    return [ENTRIES[i] for i in meld_codes(cards, trump)]


# -- checking a declared meld ------------------------------------------------------------

#: The group of each meld name: a card may count in melds of different groups but not
#: twice in one group (cutthroat rules, Melds).
_GROUPS: Final[dict[str, int]] = {
    name: 1 if name in ("run", "double run", "royal marriage", "marriage", "dix") else
    2 if name.endswith("pinochle") else 3
    for name, _, _ in ENTRIES
}  # fmt: skip
#: ``(name, sorted card numbers)`` → the suit the meld is in (None: pinochle, arounds).
_KEYS: Final[dict[tuple[str, tuple[int, ...]], int | None]] = {
    (name, tuple(int(c) for c in cards)): (
        cards[0] >> 3
        if name in ("run", "double run", "royal marriage", "marriage", "dix")
        else None
    )
    for name, cards, _ in ENTRIES
}
_VALUES: Final[dict[tuple[str, tuple[int, ...]], int]] = {
    (name, tuple(int(c) for c in cards)): value for name, cards, value in ENTRIES
}
#: Declared: a meld's name, its cards and the value announced for it (None: not said).
Declared = tuple[str, tuple[int, ...], int | None]
#: A ruling on one declared meld: the rule it breaks (None: it stands), why, and what
#: it scores.
Ruling = tuple[RuleCode | None, str, int]


def check_declaration(
    hand: Sequence[int], trump: int, declared: Sequence[Declared]
) -> list[Ruling]:
    """A ruling on each declared meld, in order (cutthroat rules, Melds).

    A meld stands when its cards make it in this trump, the player holds them,
    and no card of it already counts in a meld of the same group declared
    before it (the K and Q of a single run may be shared with one royal
    marriage when an extra trump King or Queen is held: cutthroat rules,
    Melds).  It then scores its value from the meld table; a different
    value announced is refused (:attr:`RuleCode.WRONG_VALUE`) but the meld
    still scores its real value.  A meld that does not stand scores 0.
    """
    held = [0] * 32
    for c in hand:
        held[c] += 1
    accepted: dict[int, list[tuple[str, tuple[int, ...]]]] = {1: [], 2: [], 3: []}
    out: list[Ruling] = []
    for name, cards, claimed in declared:
        key = (name, tuple(sorted(cards)))
        shown = f"{name} {format_cards(key[1])}"
        if key not in _KEYS:
            out.append((_NOT_A_COMBINATION, f"{shown} is not a meld of the meld table", 0))
            continue
        suit = _KEYS[key]
        if suit is not None and (suit == trump) != (name != "marriage"):
            where = "a plain suit" if name == "marriage" else "trumps"
            out.append((_MELD_SUIT, f"{shown}: a {name} is in {where}", 0))
            continue
        value = _VALUES[key]
        need = [0] * 32
        for c in key[1]:
            need[c] += 1
        if any(need[c] > held[c] for c in key[1]):
            missing = format_cards(sorted({c for c in key[1] if need[c] > held[c]}))
            out.append((_MELD_NOT_HELD, f"{shown}: the hand does not hold {missing}", 0))
            continue
        group = _GROUPS[name]
        trial = [*accepted[group], key]
        if not _fits(trial, held, trump):
            before = "; ".join(
                f"{n} {format_cards(c)}" for n, c in accepted[group] if set(c) & set(key[1])
            )
            out.append(
                (
                    _CARDS_REUSED,
                    f"{shown}: its cards already count in {before} (group {group}: a card"
                    " counts once in a group)",
                    0,
                )
            )
            continue
        accepted[group] = trial
        if claimed is not None and claimed != value:
            out.append((_WRONG_VALUE, f"{shown} is worth {value}, not {claimed}", value))
            continue
        out.append((None, "", value))
    return out


def _fits(melds: list[tuple[str, tuple[int, ...]]], held: list[int], trump: int) -> bool:
    """Whether the hand holds every card of ``melds`` (of one group) once per meld."""
    need = [0] * 32
    for _, cards in melds:
        for c in cards:
            need[c] += 1
    names = [n for n, _ in melds]
    if names.count("run") == 1 and "double run" not in names and "royal marriage" in names:
        # A run's K and Q with one royal marriage: an extra trump King or Queen makes it
        # (cutthroat rules, Melds); never two royal marriages with one run.
        if names.count("royal marriage") > 1:
            return False
        k, q = trump * 8 + KING, trump * 8 + QUEEN
        need[k] -= 1
        need[q] -= 1
        if held[k] + held[q] < 3:
            return False
    return all(need[c] <= held[c] for c in range(32))


_NOT_A_COMBINATION: Final = RuleCode.NOT_A_COMBINATION
_MELD_SUIT: Final = RuleCode.MELD_SUIT
_MELD_NOT_HELD: Final = RuleCode.MELD_NOT_HELD
_CARDS_REUSED: Final = RuleCode.CARDS_REUSED
_WRONG_VALUE: Final = RuleCode.WRONG_VALUE
