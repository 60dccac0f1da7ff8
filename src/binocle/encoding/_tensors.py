"""Information-state and observation tensors, read from a view alone, and their layouts."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs

from binocle.cards import CARDS, Card
from binocle.core import MeldResult, Phase, Profile, View, _rules_entry
from binocle.encoding._common import _check_view, _kind_index, kinds
from binocle.errors import InvalidArgumentError
from binocle.profiles._classic_rules import ClassicRules
from binocle.profiles._cutthroat_rules import CutthroatRules
from binocle.profiles._three_handed_rules import ThreeHandedRules
from binocle.profiles.three_handed import Overlooked
from binocle.rules.classic_melds import KINDS


@attrs.frozen(slots=True)
class TensorLayout:
    """The named parts of a tensor, in order: ``(name, shape)`` pairs."""

    parts: tuple[tuple[str, tuple[int, ...]], ...]

    @property
    def size(self) -> int:
        """The tensor's length."""
        total = 0
        for _, shape in self.parts:
            n = 1
            for d in shape:
                n *= d
            total += n
        return total

    def offsets(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Each part's start in the flat tensor, with its shape."""
        return dict(_offsets(self))


@functools.lru_cache(maxsize=128)
def _offsets(layout: TensorLayout) -> dict[str, tuple[int, tuple[int, ...]]]:
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    at = 0
    for name, shape in layout.parts:
        out[name] = (at, shape)
        n = 1
        for d in shape:
            n *= d
        at += n
    return out


_PHASES: Final = tuple(Phase)
_COMBO_KINDS: Final = tuple(k for k, _, _ in KINDS)


def _layout(profile: Profile, full: bool) -> TensorLayout:
    n = len(kinds(profile.pack_size))
    p = profile.players
    parts: list[tuple[str, tuple[int, ...]]] = [
        ("seat", (p,)),
        ("to_act", (p,)),
        ("dealer", (p,)),
        ("phase", (len(_PHASES),)),
        ("trump", (4,)),
        ("hand", (n,)),
        ("hand_sizes", (p,)),
        ("trick", (p - 1, p + n)),
        ("scores", (p,)),
    ]
    parts.append(("played", (p, n)) if full else ("gone", (n,)))
    extend = _rules_entry(profile, _FAMILIES)
    if extend is None:
        raise InvalidArgumentError(f"no tensor layout is defined for the {profile.name} profile")
    parts += extend[0](profile, full, n, p)
    return TensorLayout(tuple(parts))


_Parts = list[tuple[str, tuple[int, ...]]]


def _auction_layout(profile: Any, full: bool, n: int, p: int) -> _Parts:
    """The parts of the profiles on the cutthroat rules: the auction, the widow, the
    discards, the melds shown (and the cards passed between partners, where passed)."""
    bids = (profile.max_bid - profile.min_bid) // 10 + 1
    parts: _Parts = [("bids", (bids, p))] if full else []
    parts += [
        ("passed", (p,)),
        ("bidder", (p,)),
        ("bid", (1,)),
        ("widow", (n,)),
        ("discards", (n,)),
        ("discard_count", (1,)),
        ("meld_points", (p,)),
    ]
    if "passing" in profile.options():
        # The cards passed between partners: those this seat knows, and how many.
        parts += [("given", (n,)), ("given_count", (1,))]
    if full:
        parts.append(("melds", (p, n)))
    return parts


def _classic_layout(profile: Any, full: bool, n: int, p: int) -> _Parts:
    """The parts of the classic rules: the stock, the announcements on the table."""
    parts: _Parts = [
        ("turn_up", (n,)),
        ("stock_size", (1,)),
        ("concealed", (n,)),
        ("tables", (p, n)),
        ("meld_points", (p,)),
        ("taken", (p,)),
        ("dixes", (1,)),
        ("targets", (p,)),
    ]
    if full:
        parts.append(("table_melds", (p, len(_COMBO_KINDS), 2)))
    return parts


def _three_handed_layout(profile: Any, full: bool, n: int, p: int) -> _Parts:
    """The parts of the three-handed rules: dix, the melds, the claims and retirement,
    the two-handed game after it."""
    parts: _Parts = [
        ("turn_up", (n,)),
        ("exchanged", (1,)),
        ("dix_shown", (p,)),
        ("announced", (p,)),
        ("scored", (p,)),
        ("recorded", (p,)),
        ("taken", (p,)),
        ("targets", (p,)),
        ("retired", (p,)),
        ("overlooked", (p + 1,)),
        ("stock_size", (1,)),
        ("tables", (p, n)),
    ]
    if full:
        parts.append(("melds", (p, n)))
    return parts


@functools.lru_cache(maxsize=128)
def _layout_cached(profile: Profile, full: bool) -> TensorLayout:
    return _layout(profile, full)


class _Writer:
    """Fills a flat tensor part by part, following a layout."""

    __slots__ = ("at", "index", "out")

    def __init__(self, layout: TensorLayout, cards: Sequence[Card]) -> None:
        self.out = [0.0] * layout.size
        self.at = _offsets(layout)
        self.index = _kind_index(len(cards) * 2)

    def one_hot(self, part: str, i: int | None, row: int = 0) -> None:
        if i is None:
            return
        start, shape = self.at[part]
        self.out[start + row * shape[-1] + i] = 1.0

    def value(self, part: str, values: Iterable[float], row: int = 0) -> None:
        start, shape = self.at[part]
        base = start + row * shape[-1]
        for k, v in enumerate(values):
            self.out[base + k] = float(v)

    def cards(self, part: str, cards: Iterable[int] | None, row: int = 0) -> None:
        if not cards:
            return
        start, shape = self.at[part]
        base = start + row * shape[-1]
        for c in cards:
            self.out[base + self.index[c]] += 1.0


_CARD_NAMED: Final = {str(c): c for c in CARDS}


def _plays(view: View) -> list[tuple[int, Card]]:
    """The cards played this hand, with their seats: the completed tricks where the
    view lists them, else read from the view's log (``"1: play TS"``)."""
    played = view.get("played")
    if played is not None:
        out = [pc for trick in played for pc in trick]
        out.extend(view.trick)
        return out
    out = []
    pair = view.get("pair") if view.get("two_handed") is not None else None
    named = _CARD_NAMED
    for line in view.log:
        seat, sep, text = line.partition(": ")
        if sep and text.startswith("play "):
            s = int(seat)
            out.append((pair[s] if pair is not None else s, named[text[5:7]]))
    return out


def _tensor(view: View, full: bool) -> list[float]:
    profile = view.profile
    layout = _layout_cached(profile, full)
    cards = kinds(profile.pack_size)
    w = _Writer(layout, cards)
    n = len(cards)
    w.one_hot("seat", view.seat)
    w.one_hot("to_act", view.current_player)
    w.one_hot("dealer", view.dealer)
    w.one_hot("phase", _PHASES.index(view.phase))
    w.one_hot("trump", None if view.trump is None else int(view.trump))
    w.cards("hand", view.hand)
    w.value("hand_sizes", view.hand_sizes)
    for row, (seat, card) in enumerate(view.trick[: profile.players - 1]):
        w.one_hot("trick", seat, row)
        start, _ = w.at["trick"]
        w.out[start + row * (profile.players + n) + profile.players + w.index[card]] = 1.0
    w.value("scores", view.scores)
    plays = _plays(view)
    if full:
        for seat, card in plays:
            w.cards("played", (card,), seat)
    else:
        w.cards("gone", [c for _, c in plays])
    write = _rules_entry(profile, _FAMILIES)
    if write is not None:
        write[1](w, view, profile, full)
    return w.out


def _classic_parts(w: _Writer, public: dict[str, Any], full: bool) -> None:
    up = public.get("turn_up")
    w.cards("turn_up", [up] if up is not None else None)
    w.value("stock_size", [public.get("stock_size", 0)])
    w.cards("concealed", public.get("concealed"))
    for seat, table in enumerate(public.get("tables", ())):
        w.cards("tables", table, seat)
    w.value("meld_points", public.get("meld_points", ()))
    w.value("taken", public.get("taken", ()))
    w.value("dixes", [public.get("dixes", 0)])
    w.value("targets", public.get("targets", ()))
    if full:
        start, shape = w.at["table_melds"]
        for seat, melds in enumerate(public.get("table_melds", ())):
            for kind, _, intact in melds:
                k = _COMBO_KINDS.index(kind)
                w.out[start + (seat * shape[1] + k) * 2 + (0 if intact else 1)] += 1.0


def _auction_write(w: _Writer, view: View, profile: Any, full: bool) -> None:
    """The parts of :func:`_auction_layout`, from the view."""
    g = view.get
    calls: tuple[tuple[int, int], ...] = g("calls", ())
    passed = [0] * profile.players
    for seat, amount in calls:
        if amount:
            if full:
                w.one_hot("bids", seat, (amount - profile.min_bid) // 10)
        else:
            passed[seat] = 1
    w.value("passed", passed)
    w.one_hot("bidder", g("bidder"))
    w.value("bid", [g("bid") or 0])
    w.cards("widow", g("widow"))
    w.cards("discards", g("discards"))
    w.value("discard_count", [g("discard_count", 0)])
    if "given" in w.at:
        given, count = g("given"), g("given_count", 0)
        w.cards("given", given if isinstance(given, tuple) else None)
        w.value("given_count", [count if isinstance(count, int) else 0])
    melds: tuple[MeldResult | None, ...] = g("melds", ())
    w.value("meld_points", [0 if m is None else m.total for m in melds])
    if full:
        for seat, m in enumerate(melds):
            if m is not None:
                w.cards("melds", _meld_cards(m), seat)


def _classic_write(w: _Writer, view: View, profile: Any, full: bool) -> None:
    """The parts of :func:`_classic_layout`, from the view."""
    _classic_parts(w, dict(view.public), full)


def _three_handed_write(w: _Writer, view: View, profile: Any, full: bool) -> None:
    """The parts of :func:`_three_handed_layout`, from the view."""
    g = view.get
    turn_up = g("turn_up")
    w.cards("turn_up", [turn_up] if turn_up is not None else None)
    w.value("exchanged", [1.0 if g("exchanged") else 0.0])
    w.value("dix_shown", g("dix_shown", ()))
    w.value("announced", g("announced", ()))
    w.value("scored", [1.0 if x else 0.0 for x in g("scored", ())])
    w.value("recorded", g("recorded", ()))
    w.value("taken", g("taken", ()))
    w.value("targets", g("targets", ()))
    w.one_hot("retired", g("retired"))
    offer = g("overlooked")
    if isinstance(offer, Overlooked):
        # Who overlooked a meld, and its points, while it is offered to the others.
        w.one_hot("overlooked", offer.seat)
        start, _ = w.at["overlooked"]
        w.out[start + profile.players] = float(offer.points)
    two: dict[str, Any] = dict(g("two_handed", ()) or ())
    pair = g("pair")
    if two and pair is not None:
        w.value("stock_size", [two.get("stock_size", 0)])
        for i, table in enumerate(two.get("tables", ())):
            w.cards("tables", table, pair[i])
    if full:
        for seat, m in enumerate(g("melds", ())):
            w.cards("melds", _meld_cards(m), seat)


#: The parts and the writer of each rules family's tensor, by the rules class a profile
#: is built on (a profile takes its nearest base's: partnership cutthroat's, its parts
#: read from its options and view).  New rules add their entry.
_FAMILIES: dict[
    type,
    tuple[
        Callable[[Any, bool, int, int], _Parts],
        Callable[[_Writer, View, Any, bool], None],
    ],
] = {
    CutthroatRules: (_auction_layout, _auction_write),
    ClassicRules: (_classic_layout, _classic_write),
    ThreeHandedRules: (_three_handed_layout, _three_handed_write),
}


@functools.lru_cache(maxsize=4096)
def _meld_cards(m: MeldResult) -> tuple[Card, ...]:
    """The cards a seat laid down: every card its combinations use, each copy once."""
    most: dict[Card, int] = {}
    for combo in m.melds:
        counts: dict[Card, int] = {}
        for c in combo.cards:
            counts[c] = counts.get(c, 0) + 1
        for c, k in counts.items():
            most[c] = max(most.get(c, 0), k)
    return tuple(c for c, k in sorted(most.items()) for _ in range(k))


def information_state_tensor(view: View) -> list[float]:
    """The seat's information state as a flat list of floats (see :func:`tensor_layout`).

    Cards are counts (0, 1 or 2) over the pack's card kinds in card order;
    seats, phases and suits are one-hot; points are plain numbers.
    """
    return _tensor(_check_view(view), True)


def observation_tensor(view: View) -> list[float]:
    """A smaller tensor: the present position, without the bidding history,
    who played which card, or the melds' cards (see :func:`tensor_layout`)."""
    return _tensor(_check_view(view), False)
