"""Perfect recall (AI page, "Perfect recall"): a seat's perfect-recall information
state, tensor and string, tells apart every two different histories of what the seat
saw and did, and is the same for two histories the seat cannot tell apart.

A seat's history here is the sequence of its views (binocle.observe) after every step
of the episode: everything it saw, its own actions included.  Games are grown as trees
from shared deals, so many histories share a deal and differ by the order of a few
decisions (discards, melds and passes, plays, earlier hands); at some chance steps a
different card is dealt, often one the seat never sees.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from binocle import encoding as E

SETTINGS = [
    ("cutthroat(max_bid=400)", 1),
    ("cutthroat(max_bid=400,single_set=true)", 2),
    ("classic", 1),
    ("classic", 2),
    ("three-handed", 1),
    ("three-handed(claim_overlooked=true)", 2),
]


def _walk(ep: E.Episode, ids: list[int]) -> list[tuple[E.Episode, tuple[Any, ...]]]:
    """The nodes along ``ids`` from ``ep`` (as far as they stay legal), each with every
    seat's views after every step so far."""
    players = ep.profile.players
    seen = tuple((ep.view(s),) for s in range(players))
    nodes = [(ep, seen)]
    for i in ids:
        if ep.is_terminal() or i not in ep.legal_ids():
            break
        ep = ep.apply(i)
        seen = tuple(v + (ep.view(s),) for s, v in enumerate(seen))
        nodes.append((ep, seen))
    return nodes


def _grow(spec: str, hands: int, seed: int, paths: int) -> list[tuple[E.Episode, tuple[Any, ...]]]:
    """Random games from one shared deck order, and variants of each in which two
    neighbouring decisions swap places (discards or melds in another order, a pass
    before a meld, a trick of an earlier hand played otherwise) while the rest of the
    game is played as before, as far as it stays legal."""
    rng = random.Random(seed)
    start = E.Episode.new(spec, hands=hands)
    labels = E.action_labels(start.profile)
    n = len(E.kinds(start.profile.pack_size))
    canonical = [i for i in range(n) for _ in range(2)]
    rng.shuffle(canonical)
    nodes: list[tuple[E.Episode, tuple[Any, ...]]] = []
    for _ in range(paths):
        ep = start
        while not ep.is_terminal() and len(ep.history) < 260:
            if ep.is_chance():
                outcomes = [i for i, _ in ep.chance_outcomes()]
                want = canonical[len(ep.deck) % len(canonical)]
                pick = want if want in outcomes and rng.random() < 0.95 else rng.choice(outcomes)
            else:
                legal = ep.legal_ids()
                calm = [i for i in legal if not labels[i].startswith(("claim", "concede"))]
                pick = rng.choice(calm if calm and rng.random() < 0.98 else legal)
            ep = ep.apply(pick)
        ids = list(ep.history)
        nodes += _walk(start, ids)[:: rng.choice((3, 4, 5))]
        decisions = [i for i in range(len(ids) - 1) if ep.actors[i] >= 0 and ep.actors[i + 1] >= 0]
        for _ in range(4):
            if not decisions:
                break
            i = rng.choice(decisions)
            swapped = [*ids[:i], ids[i + 1], ids[i], *ids[i + 2 :]]
            nodes += _walk(start, swapped)[i :: rng.choice((2, 3))]
    return nodes


@pytest.mark.parametrize(("spec", "hands"), SETTINGS)
def test_distinct_histories_never_share_an_information_state(spec: str, hands: int) -> None:
    """AI page, "Perfect recall": over trees of random games, two nodes give a seat the
    same perfect-recall tensor, and the same string, exactly when the seat's histories
    (its views after every step) are equal."""
    checked = 0
    for seed in range(2):
        tree = _grow(spec, hands, seed, 10)
        players = tree[0][0].profile.players
        for seat in range(players):
            by_string: dict[str, tuple[Any, ...]] = {}
            by_tensor: dict[tuple[float, ...], tuple[Any, ...]] = {}
            by_history: dict[tuple[Any, ...], tuple[str, tuple[float, ...]]] = {}
            for ep, seen in tree:
                history = seen[seat]
                text = E.perfect_recall_string(ep, seat)
                tensor = tuple(E.perfect_recall_tensor(ep, seat))
                assert by_string.setdefault(text, history) == history, text
                assert by_tensor.setdefault(tensor, history) == history, text
                assert by_history.setdefault(history, (text, tensor)) == (text, tensor), text
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("spec", ["cutthroat(max_bid=400)"])
def test_the_view_tensor_is_not_perfect_recall(spec: str) -> None:
    """AI page, "Perfect recall": the view's own information-state tensor describes the
    hand in play and forgets the order of some decisions, so the same trees hold
    different histories it confuses at a seat's own decisions (and the test above
    would catch an encoding that did so)."""
    confused = 0
    for seed in range(2):
        tree = _grow(spec, 1, seed, 10)
        for seat in range(tree[0][0].profile.players):
            seen_by: dict[tuple[float, ...], tuple[Any, ...]] = {}
            for ep, seen in tree:
                if ep.current_player == seat:
                    key = tuple(E.information_state_tensor(ep.view(seat)))
                    confused += seen_by.setdefault(key, seen[seat]) != seen[seat]
    assert confused > 0


def test_orders_the_view_forgets_are_told_apart() -> None:
    """AI page, "Perfect recall": the bidder's discards in two orders leave the same
    view tensor but different perfect-recall tensors and strings for the bidder, and
    the same for the others, who never see the discards."""
    labels = E.action_labels("cutthroat")
    for seed in range(40):
        rng = random.Random(seed)
        ep = E.Episode.new("cutthroat")
        while not ep.is_terminal() and not any(
            labels[i].startswith("discard") for i in ep.legal_ids()
        ):
            if ep.is_chance():
                ep = ep.apply(rng.choice([i for i, _ in ep.chance_outcomes()]))
            else:
                calm = [i for i in ep.legal_ids() if labels[i] != "concede"]
                ep = ep.apply(rng.choice(calm))
        if ep.is_terminal():
            continue
        a, b, c = [i for i in ep.legal_ids() if labels[i].startswith("discard")][:3]
        if labels[a] == labels[b]:
            continue
        one, two = ep.apply(a).apply(b).apply(c), ep.apply(b).apply(a).apply(c)
        seat = ep.current_player
        assert one.state.hands == two.state.hands
        assert E.information_state_tensor(one.view(seat)) == E.information_state_tensor(
            two.view(seat)
        )
        assert E.perfect_recall_tensor(one, seat) != E.perfect_recall_tensor(two, seat)
        assert E.perfect_recall_string(one, seat) != E.perfect_recall_string(two, seat)
        for other in range(3):  # the others saw neither card: they cannot tell
            if other != seat:
                assert E.perfect_recall_string(one, other) == E.perfect_recall_string(two, other)
                assert E.perfect_recall_tensor(one, other) == E.perfect_recall_tensor(two, other)
        return
    raise AssertionError("no game reached the discards")


def count_collisions(seeds: int = 3, paths: int = 10) -> None:
    """Print, per setting, how many nodes share an information state with a node of a
    different history (a seat's), for the view's encodings and the perfect-recall ones,
    over all nodes and over the seat's own decisions
    (``python tests/test_perfect_recall.py``)."""
    for spec, hands in SETTINGS:
        counts = dict.fromkeys(("view string", "view tensor", "recall string", "recall tensor"), 0)
        own = dict.fromkeys(counts, 0)
        nodes = 0
        for seed in range(seeds):
            tree = _grow(spec, hands, seed, paths)
            for seat in range(tree[0][0].profile.players):
                first: dict[tuple[str, Any], tuple[Any, ...]] = {}
                for ep, seen in tree:
                    nodes += 1
                    view = ep.view(seat)
                    keys = {
                        "view string": E.information_state_string(view),
                        "view tensor": tuple(E.information_state_tensor(view)),
                        "recall string": E.perfect_recall_string(ep, seat),
                        "recall tensor": tuple(E.perfect_recall_tensor(ep, seat)),
                    }
                    for what, key in keys.items():
                        clash = first.setdefault((what, key), seen[seat]) != seen[seat]
                        counts[what] += clash
                        if ep.current_player == seat:
                            own[what] += clash
        print(
            f"{spec} hands={hands}: {nodes} seat-nodes, collisions {counts};"
            f" at the seat's own decisions {own}"
        )


if __name__ == "__main__":
    count_collisions()
