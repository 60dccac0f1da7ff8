"""Episode bounds: the most decisions one hand takes, and the bounds on a seat's return."""

from __future__ import annotations

from typing import Any, Final

from binocle.encoding._common import _check_hands, _profile_of
from binocle.errors import InvalidArgumentError

#: The trick points of a hand played to its last trick (common rules, Card points).
_TRICK_POINTS: Final = 250

#: The highest cutthroat meld of 15 cards (the bidder's after his discards): spades
#: trump, a double run, A♥ A♦ A♣ and J♦ J♦ (1500 + double pinochle 300 + Aces
#: around 100).  Found exactly by ``tools/meld_bounds.py``.
_CUTTHROAT_MELD: Final = 1900
#: The highest cutthroat meld of two 15-card hands together (one pack, one trump), also
#: exact (``tools/meld_bounds.py``).
_CUTTHROAT_PAIR: Final = 2320

#: Upper bounds on announced meld (dix included) from ``tools/meld_bounds.py``, by
#: (pack, grand_binocle): one classic seat in one hand, and the two seats together.
_CLASSIC_SEAT: Final = {(48, False): 1010, (48, True): 1070, (64, False): 1390, (64, True): 1490}
_CLASSIC_PAIR: Final = {(48, False): 1270, (48, True): 1310, (64, False): 1470, (64, True): 1550}
#: The same for three-handed Binocle, by grand_binocle: one seat's meld ("plenty of
#: time", 16 cards; reached: a double sequence and six Aces make 680), and the three
#: seats' melds together (what a seat can add by claiming the others' overlooked meld).
_THREE_SEAT: Final = {False: 680, True: 770}
_THREE_ALL: Final = {False: 1460, True: 1580}
#: The most dix one seat shows in a three-handed hand: both Nines of trumps.
_THREE_DIX: Final = 20


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
    own = getattr(p, "max_decisions_per_hand", None)
    if own is not None:  # a profile that gives its own bound
        return int(own())
    if p.name == "cutthroat":
        bids = (p.max_bid - p.min_bid) // 10 + 1  # type: ignore[attr-defined]
        return int(bids) + 2 + 3 + 1 + 3 + 45
    if p.name == "classic":
        return p.pack_size + (p.pack_size - 24) // 2
    if p.name == "three-handed":
        return 3 + 3 * 17 + 48 + 2 + 6
    raise InvalidArgumentError(f"no episode bounds are defined for the {p.name} profile")


def hand_bounds(profile: Any) -> tuple[int, int, int]:
    """Per hand: the lowest and highest change of one seat's score, and the highest
    change of two seats' scores added together (what :func:`utility_bounds` builds on).
    """
    p: Any = _profile_of(profile)
    own = getattr(p, "hand_bounds", None)
    if own is not None:  # a profile that gives its own bounds
        low, high, pair = own()
        return int(low), int(high), int(pair)
    if p.name == "cutthroat":
        low = -(p.max_bid if p.single_set else 2 * p.max_bid)
        high = _CUTTHROAT_MELD + _TRICK_POINTS
        return low, high, _CUTTHROAT_PAIR + _TRICK_POINTS
    if p.name == "classic":
        key = (p.pack_size, p.grand_binocle)
        return 0, _CLASSIC_SEAT[key] + _TRICK_POINTS, _CLASSIC_PAIR[key] + _TRICK_POINTS
    if p.name == "three-handed":
        g = p.grand_binocle
        # After a retirement the two left play classic hands (48 cards).
        classic_seat = _CLASSIC_SEAT[48, g] + _TRICK_POINTS
        classic_pair = _CLASSIC_PAIR[48, g] + _TRICK_POINTS
        meld = _THREE_ALL[g] if p.claim_overlooked else _THREE_SEAT[g]
        seat = meld + _THREE_DIX + _TRICK_POINTS
        pair = _THREE_ALL[g] + _THREE_DIX + _TRICK_POINTS
        return 0, max(seat, classic_seat), max(pair, classic_pair)
    raise InvalidArgumentError(f"no episode bounds are defined for the {p.name} profile")


def utility_bounds(profile: Any, hands: int = 1) -> tuple[int, int]:
    """Bounds on one seat's return (its change of game score) over ``hands`` hands of
    an episode that begins with a new game: ``(lowest, highest)``.

    Per hand (the rules pages' sections named):

    - cutthroat: from minus twice ``max_bid`` (once with ``single_set``: a
      bidder set, cutthroat rules, Scoring a hand) to 2150, the highest meld
      of 15 cards (1900: a double run in spades, J♦ J♦ and A♥ A♦ A♣) with every
      trick (250).  Both are exact: reached by legal hands (the highest when
      ``min_bid`` is at most 2150).
    - classic: from 0 (no seat loses points) to 250 trick points plus a bound
      on what twelve announcements and dix can score (1010; 1070 with
      ``grand_binocle``; 1390 and 1490 with the 64-card pack, twenty
      announcements).  The lowest is exact; the highest is a bound, not reached
      (the meld bound relaxes the rules of classic rules, Announcements).
    - three-handed: from 0 to the larger of a three-handed hand (the best meld of
      16 cards, 680 or 770 with ``grand_binocle``, plus dix 20 and 250 trick
      points; with ``claim_overlooked`` every seat's meld, 1460 or 1580) and a
      classic hand of the two left after a retirement (as above).  The lowest is
      exact; the highest a bound, not reached.

    Over several hands the lowest is ``hands`` times the lowest of one hand
    (exact: in cutthroat when the bidder who bids ``max_bid`` cannot make it,
    ``max_bid`` above 2150, as by default; in classic and three-handed always).
    The highest is capped by the target: before its last hand a seat's score is
    below the target, unless another seat's is at the target too (cutthroat: an
    exact tie of two non-bidders, cutthroat rules, Winning; classic and
    three-handed: both reached it, raising the targets: classic rules and
    three-handed rules, End of a hand),
    and then the two scores added are at most the hands played times the most
    two seats gain together in a hand (cutthroat: 2570, two hands' highest meld
    together, 2320, and 250; classic: 1520, 1560 with ``grand_binocle``, 1720 and
    1800 with 64 cards; three-handed: 1730, 1850 with ``grand_binocle``).  So over
    ``n`` hands the highest is the highest of one hand plus the smaller of
    ``n - 1`` times it and the larger of the highest score below the target and
    that cap; ``max_hands`` caps ``n`` (cutthroat and classic).  Over two
    cutthroat hands with the default options this is 1490 + 2150 = 3640,
    reached (no two seats can tie at 1500 in one hand); otherwise, over more
    than one hand, the highest is a bound, not reached.  These bounds assume the episode
    begins at a new game, as the adapters' do; from a position in progress
    (:meth:`Episode.from_state`) ``hands`` times the bounds of one hand hold.
    """
    p: Any = _profile_of(profile)
    hands = _check_hands(hands)
    low, high, pair = hand_bounds(p)
    if p.name != "three-handed" and p.max_hands is not None:
        hands = min(hands, p.max_hands)
    if hands == 1:
        return low, high
    before = (hands - 1) * high
    if p.name == "cutthroat":
        # Scores move in tens; a tie of two non-bidders at the target shares the pair's gains.
        below = (p.target - 1) // 10 * 10
        tie = (hands - 1) * pair // 2 // 10 * 10
        cap = max(below, tie) if tie >= p.target else below
    else:
        below = p.target - 1
        both = (hands - 1) * pair - p.target
        cap = max(below, both) if both >= p.target else below
    return low * hands, high + min(before, cap)
