"""Episode bounds: the most decisions one hand takes, and the bounds on a seat's return."""

from __future__ import annotations

from typing import Any

from binocle.encoding._common import _check_hands, _profile_of

# The meld figures the profiles' bounds are made of, found by ``tools/meld_bounds.py``
# (whose test reads them here).
from binocle.profiles._classic_rules import _CLASSIC_PAIR as _CLASSIC_PAIR
from binocle.profiles._classic_rules import _CLASSIC_SEAT as _CLASSIC_SEAT
from binocle.profiles._cutthroat_rules import _CUTTHROAT_MELD as _CUTTHROAT_MELD
from binocle.profiles._cutthroat_rules import _CUTTHROAT_PAIR as _CUTTHROAT_PAIR
from binocle.profiles._three_handed_rules import _THREE_ALL as _THREE_ALL
from binocle.profiles._three_handed_rules import _THREE_SEAT as _THREE_SEAT


def max_decisions_per_hand(profile: Any) -> int:
    """An upper bound on the decisions (not chance outcomes) one hand can take.

    Cutthroat: every bid level once, two passes, three discards, trump, three
    melds and 45 cards.  Classic: every card played, and one announcement (or
    pass) per draw.  Three-handed: three dix turns; per seat at most sixteen
    announcements (each lays down a fresh card) and the end of his melds; 48
    cards; two wrong claims; two answers per seat to an overlooked meld.  (After
    a retirement each classic hand of the two left counts as a hand of its own.)
    The profile gives it: :meth:`binocle.core.Profile.max_decisions_per_hand`.
    """
    return _profile_of(profile).max_decisions_per_hand()


def hand_bounds(profile: Any) -> tuple[int, int, int]:
    """Per hand: the lowest and highest change of one seat's score, and the highest
    change of two seats' scores added together (what :func:`utility_bounds` builds on),
    as the profile gives them (:meth:`binocle.core.Profile.hand_bounds`).
    """
    return _profile_of(profile).hand_bounds()


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
    p = _profile_of(profile)
    hands = _check_hands(hands)
    low, high, pair = hand_bounds(p)
    # max_hands counts the game's hands; after a retirement each hand of the game the
    # others go on with counts as a hand of its own, beyond that count.
    if p.retirement_game is None and p.max_hands is not None:
        hands = min(hands, p.max_hands)
    if hands == 1:
        return low, high
    before = (hands - 1) * high
    cap = p.highest_before_last_hand((hands - 1) * pair)
    return low * hands, high + min(before, cap)
