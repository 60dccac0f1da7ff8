"""Episode bounds: the most decisions one hand takes, and the bounds on a seat's return."""

from __future__ import annotations

from typing import Any, Final

from binocle.encoding._common import _check_hands, _profile_of
from binocle.errors import InvalidArgumentError

#: The largest number of points one seat can gain or lose in one hand, by profile
#: (bounds, not the exact extremes; see :meth:`Episode.utility_bounds`).
_TRICK_POINTS: Final = 250


def max_decisions_per_hand(profile: Any) -> int:
    """An upper bound on the decisions (not chance outcomes) one hand can take.

    Cutthroat: every bid level once, two passes, three discards, trump, three
    melds and 45 cards.  Classic: every card played, and one announcement (or
    pass) per draw.  Three-handed: three dix turns; per seat at most sixteen
    announcements (each lays down a fresh card) and the end of his melds; 48
    cards; two wrong claims; two answers per seat to an overlooked meld.  (After
    a retirement each classic hand of the two left counts as a hand of its own.)
    """
    p = _profile_of(profile)
    if p.name == "cutthroat":
        bids = (p.max_bid - p.min_bid) // 10 + 1  # type: ignore[attr-defined]
        return int(bids) + 2 + 3 + 1 + 3 + 45
    if p.name == "classic":
        return p.pack_size + (p.pack_size - 24) // 2
    if p.name == "three-handed":
        return 3 + 3 * 17 + 48 + 2 + 6
    raise InvalidArgumentError(f"no episode bounds are defined for the {p.name} profile")


def utility_bounds(profile: Any, hands: int = 1) -> tuple[int, int]:
    """Bounds on one seat's return over ``hands`` hands: ``(lowest, highest)``.

    They hold for every episode but are not reached: cutthroat loses at most
    twice the highest bid a hand and gains at most every meld group's best
    (4740) plus the 250 trick points; classic and three-handed never lose
    points and gain at most 250 trick points plus 200 per announcement.
    """
    p = _profile_of(profile)
    hands = _check_hands(hands)
    if p.name == "cutthroat":
        worst = -(p.max_bid if p.single_set else 2 * p.max_bid)  # type: ignore[attr-defined]
        return worst * hands, (4740 + _TRICK_POINTS) * hands
    if p.name == "classic":
        announcements = (p.pack_size - 24) // 2
        return 0, (_TRICK_POINTS + 10 + 200 * announcements) * hands
    if p.name == "three-handed":
        # Own announcements (16 at most, and two dix) plus what the others overlooked.
        per_seat = 16 * 200 + 20
        return 0, (_TRICK_POINTS + 3 * per_seat) * hands
    raise InvalidArgumentError(f"no episode bounds are defined for the {p.name} profile")
