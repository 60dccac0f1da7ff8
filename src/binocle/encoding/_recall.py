"""Perfect-recall information states of an episode: everything a seat saw and did.

The view's own tensor and string (:func:`information_state_tensor`) describe the
hand in progress; these add, for every hand of the episode, every decision in
order (its seat and id; the card of another seat's face-down discard left out),
every card the seat saw of the deal, the melds shown and the hand's result, so
two different histories of what a seat saw and did never share them.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Final

from binocle.cards import CARDS
from binocle.core import HandResult, Profile, View
from binocle.encoding._actions import action_labels, num_distinct_actions
from binocle.encoding._bounds import max_decisions_per_hand, utility_bounds
from binocle.encoding._common import _check_hands, _kind_index, _profile_of, kinds
from binocle.encoding._episode import Episode
from binocle.encoding._strings import _text, information_state_string
from binocle.encoding._tensors import (
    TensorLayout,
    _layout_cached,
    _meld_cards,
    _offsets,
    information_state_tensor,
)
from binocle.errors import InvalidArgumentError, excerpt

#: The kinds of tensor :func:`tensor_layout` describes.
_KINDS: Final = ("information_state", "observation", "perfect_recall")


def _id_bits(profile: Profile) -> int:
    """How many bits write an action id in a step row."""
    return max(1, (num_distinct_actions(profile) - 1).bit_length())


def _shows_melds(profile: Profile) -> bool:
    """Melds laid down for all to see (:attr:`~binocle.core.Profile.melds_shown`)."""
    return profile.melds_shown


def _hand_parts(profile: Profile, k: int) -> list[tuple[str, tuple[int, ...]]]:
    """The parts of hand ``k`` of an episode in the perfect-recall tensor."""
    n = len(kinds(profile.pack_size))
    p = profile.players
    parts: list[tuple[str, tuple[int, ...]]] = [
        (f"hand{k}.steps", (max_decisions_per_hand(profile), p + 2 + _id_bits(profile))),
        (f"hand{k}.seen", (profile.pack_size, n)),
    ]
    if _shows_melds(profile):
        parts.append((f"hand{k}.melds", (p, n)))
    parts.append((f"hand{k}.result", (3, p)))
    return parts


@functools.lru_cache(maxsize=128)
def _recall_layout(profile: Profile, hands: int) -> TensorLayout:
    parts = [*_layout_cached(profile, True).parts, ("steps", (1,))]
    for k in range(hands):
        parts += _hand_parts(profile, k)
    return TensorLayout(tuple(parts))


def tensor_layout(profile: Any, kind: str = "information_state", hands: int = 1) -> TensorLayout:
    """The layout of the ``"information_state"``, ``"observation"`` or
    ``"perfect_recall"`` tensor (the last for an episode of ``hands`` hands).

    >>> tensor_layout("cutthroat").size, tensor_layout("cutthroat", "observation").size
    (1137, 189)
    >>> tensor_layout("cutthroat", "perfect_recall").size
    6991
    """
    if kind not in _KINDS:
        raise InvalidArgumentError(
            f"kind is 'information_state', 'observation' or 'perfect_recall', not {kind!r}"
        )
    hands = _check_hands(hands)
    p = _profile_of(profile)
    if kind == "perfect_recall":
        return _recall_layout(p, hands)
    return _layout_cached(p, kind == "information_state")


def _check(episode: Any, seat: Any) -> tuple[Episode, int]:
    if not isinstance(episode, Episode):
        raise InvalidArgumentError(f"not an episode: {type(episode).__name__}")
    n = episode.profile.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise InvalidArgumentError(f"a seat is 0..{n - 1}, not {excerpt(seat)}")
    return episode, seat


def _hands(episode: Episode, seat: int, now: View) -> list[tuple[int, int, View | None]]:
    """Each hand of the episode so far: (first step, end step, the seat's view of it),
    the view taken just before the hand's last action, or ``now`` for the hand in play."""
    out: list[tuple[int, int, View | None]] = []
    start = 0
    for end, views in episode.ended:
        out.append((start, end, views[seat]))
        start = end
    if len(episode.ended) < episode.hands and start < len(episode.history):
        out.append((start, len(episode.history), now))
    return out


def _hidden(label: str, actor: int, seat: int) -> bool:
    """Whether a step's id is hidden from ``seat``: another seat's face-down discard."""
    return actor != seat and label.startswith("discard ")


def perfect_recall_tensor(episode: Episode, seat: int) -> list[float]:
    """The seat's perfect-recall information state as a flat list of floats.

    The view's information-state tensor (:func:`information_state_tensor`), the
    number of steps (decisions and chance outcomes) of the episode so far, then
    for each hand of the episode (``tensor_layout(profile, "perfect_recall",
    hands)`` names the parts): every decision in order, a row each (the seat
    that took it one-hot, 1 for a step, 1 where its id is hidden from the seat,
    then the id in binary, lowest bit last); the cards the seat saw of the deal,
    one-hot by place in the deal; each seat's meld shown (cutthroat and
    three-handed, card counts); and the hand's meld, trick points and score
    change by seat once it is over.
    """
    episode, seat = _check(episode, seat)
    profile = episode.profile
    layout = _recall_layout(profile, episode.hands)
    at = _offsets(layout)
    out = [0.0] * layout.size
    now = episode.view(seat)
    present = information_state_tensor(now)
    out[: len(present)] = present
    out[at["steps"][0]] = float(len(episode.history))
    labels = action_labels(profile)
    p = profile.players
    bits = _id_bits(profile)
    width = p + 2 + bits
    index = _kind_index(profile.pack_size)
    results = now.results[episode.first_results :]
    for k, (start, end, view) in enumerate(_hands(episode, seat, now)):
        base, _ = at[f"hand{k}.steps"]
        row = 0
        for i in range(start, end):
            actor = episode.actors[i]
            if actor < 0:
                continue
            r = base + row * width
            out[r + actor] = 1.0
            out[r + p] = 1.0
            action = episode.history[i]
            if _hidden(labels[action], actor, seat):
                out[r + p + 1] = 1.0
            else:
                for b in range(bits):
                    if action >> (bits - 1 - b) & 1:
                        out[r + p + 2 + b] = 1.0
            row += 1
        if view is None:
            continue
        n = len(index)
        base, _ = at[f"hand{k}.seen"]
        for place, card in enumerate(view.deck):
            if card is not None:
                out[base + place * n + index[card]] = 1.0
        if _shows_melds(profile):
            base, _ = at[f"hand{k}.melds"]
            for who, m in enumerate(view.get("melds", ()) or ()):
                if m is not None:
                    for c in _meld_cards(m):
                        out[base + who * n + index[c]] += 1.0
        if k < len(results):
            result: HandResult = results[k]
            base, _ = at[f"hand{k}.result"]
            for j, values in enumerate((result.meld, result.tricks, result.delta)):
                for who, v in enumerate(values):
                    out[base + j * p + who] = float(v)
    return out


def perfect_recall_string(episode: Episode, seat: int) -> str:
    """The seat's perfect-recall information state as text.

    The view's information-state string (:func:`information_state_string`),
    then for each hand of the episode the cards the seat saw of the deal (by
    place, ``?`` where hidden) and the melds shown, and every decision of the
    episode in order: ``step <i> <seat> <action>`` (``discard ?`` for another
    seat's face-down discard).
    """
    episode, seat = _check(episode, seat)
    labels = action_labels(episode.profile)
    now = episode.view(seat)
    lines = [information_state_string(now)]
    lines.append(
        f"episode hands {episode.hands} ended {len(episode.ended)} steps {len(episode.history)}"
    )
    for k, (start, end, view) in enumerate(_hands(episode, seat, now)):
        if view is None:
            continue
        seen = " ".join("?" if c is None else str(CARDS[c]) for c in view.deck)
        lines.append(f"episode hand {k} steps {start}-{end} seen {seen}")
        if _shows_melds(episode.profile):
            lines.append(f"episode hand {k} melds {_text(view.get('melds', ()))}")
    for i, (action, actor) in enumerate(zip(episode.history, episode.actors, strict=True)):
        if actor >= 0:
            label = labels[action]
            if _hidden(label, actor, seat):
                label = "discard ?"
            lines.append(f"step {i} {actor} {label}")
    return "\n".join(lines)


#: Parts whose entries are points (scores, bids, meld and trick points, targets).
_POINTS: Final = frozenset(
    {"scores", "bid", "meld_points", "taken", "targets", "announced", "recorded", "overlooked"}
)
#: Parts whose entries count something other than cards, with their largest value.
_COUNTS: Final = ("hand_sizes", "discard_count", "given_count", "stock_size", "dixes", "dix_shown",
                  "table_melds", "steps")  # fmt: skip


def _part_kind(name: str) -> str:
    base = name.rpartition(".")[2]
    if base in _POINTS or base == "result":
        return "points"
    if base in _COUNTS:
        return "count"
    return "flag"


def _points_scale(profile: Profile) -> float:
    low, high = utility_bounds(profile, 1)
    return float(max(-low, high, 1))


def _count_top(profile: Profile, name: str, hands: int) -> float:
    if name == "steps":
        per_hand = max_decisions_per_hand(profile) + profile.pack_size
        return float(per_hand * hands)
    return float(profile.pack_size)


def tensor_scale(profile: Any, kind: str = "information_state", hands: int = 1) -> list[float]:
    """What to divide each entry of a tensor by to normalise it (one number per entry).

    Points (scores, bids, meld and trick points, targets, hand results) are
    divided by the largest score change one hand can bring
    (:func:`utility_bounds`), so they stay near [-1, 1] (a game score can go
    beyond); counts (hand sizes, the stock, steps) by their largest value, so
    within [0, 1]; cards and one-hot entries (0 to 2) are left as they are.
    """
    p = _profile_of(profile)
    layout = tensor_layout(p, kind, hands)
    out: list[float] = []
    points = _points_scale(p)
    for name, shape in layout.parts:
        size = 1
        for d in shape:
            size *= d
        what = _part_kind(name)
        scale = (
            points if what == "points" else _count_top(p, name, hands) if what == "count" else 1.0
        )
        out += [scale] * size
    return out


def tensor_bounds(
    profile: Any, kind: str = "information_state", hands: int = 1, normalised: bool = False
) -> tuple[list[float], list[float]]:
    """The lowest and highest value of each entry of a tensor (raw, or divided by
    :func:`tensor_scale` with ``normalised``): 0 to 2 for cards and one-hot
    entries, 0 to the largest value for counts, unbounded (``-inf``, ``inf``)
    for points, which a game's length does not bound."""
    p = _profile_of(profile)
    layout = tensor_layout(p, kind, hands)
    low: list[float] = []
    high: list[float] = []
    for name, shape in layout.parts:
        size = 1
        for d in shape:
            size *= d
        what = _part_kind(name)
        if what == "points":
            lo, hi = -math.inf, math.inf
        elif what == "count":
            lo, hi = 0.0, 1.0 if normalised else _count_top(p, name, hands)
        else:
            lo, hi = 0.0, 2.0
        low += [lo] * size
        high += [hi] * size
    return low, high
