"""The double-dummy solver (docs: the solver page) against brute force over the engine.

Rules checked: with every hand known, the solver's value of the rest of a hand
(card points of the trick in progress and of every later trick, the last
trick's 10, for the side measured) is exactly the minimax value of the play as
the engine's own ``legal_actions`` and ``apply`` play it, in every profile and
under every trick rule (cutthroat's full and easier rules, the classic game
after the stock, three-handed); the value of each legal card is the value
after that card; the null-window questions agree with the value; a search cut
short by its budget brackets the exact value.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import GameState, InvalidArgumentError, Kind, Phase
from binocle.profiles.classic import ClassicState
from binocle.rules.points import COUNTER_POINTS
from binocle.solve import can_reach, makes_bid, solve

PROFILES = ["cutthroat", "cutthroat(easier_tricks=true)", "classic", "classic(pack=64)", "three-handed"]
CALM = (Kind.CLAIM, Kind.CONCEDE, Kind.BUNCH, Kind.CLAIM_OVERLOOKED)


def endgame(profile: str, seed: int, tricks: int) -> GameState:
    """A position at a trick boundary with at most ``tricks`` tricks left (the classic
    stock exhausted), reached by random calm play from a seeded game; a few cards of
    the next trick played too when ``seed`` is odd."""
    rng = random.Random(seed)
    s = binocle.new_game(profile, seed=seed)
    while True:
        p = s.current_player
        if (
            s.phase is Phase.PLAY
            and p is not None
            and not s.trick
            and 0 < len(s.hands[p]) <= tricks
            and (not isinstance(s, ClassicState) or (not s.stock and s.turn_up is None))
        ):
            break
        legal = binocle.legal_actions(s)
        calm = [a for a in legal if a.kind not in CALM] or list(legal)
        s = binocle.apply(s, rng.choice(calm))
    for _ in range(min(seed % 3, len(s.hands) - 1) if seed % 2 else 0):
        plays = [a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY]
        s = binocle.apply(s, rng.choice(plays))
        if not s.trick:
            break
    return s


def _won(s: GameState, hand: int, seat: int) -> int:
    """Card points ``seat`` has won in hand number ``hand`` so far (last trick included,
    a cutthroat bidder's discards not)."""
    if len(s.results) == hand:
        return int(s.taken[seat])  # type: ignore[attr-defined]
    r = s.results[hand]
    won = r.tricks[seat]
    if r.bidder == seat:
        won -= sum(COUNTER_POINTS[c] for c in _discards[0])
    return won


_discards: list[tuple[binocle.Card, ...]] = [()]


def brute(s: GameState, side: tuple[int, ...], hand: int) -> int:
    """The side's points from ``s`` to the end of the hand by plain minimax over the
    engine's play actions."""
    p = s.current_player
    if len(s.results) > hand or p is None or not any(s.hands):
        return 0
    plays = [a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY]
    values = []
    for a in plays:
        t = binocle.apply(s, a)
        gained = sum(_won(t, hand, i) - _won(s, hand, i) for i in side)
        values.append(gained + brute(t, side, hand))
    return max(values) if p in side else min(values)


def check(s: GameState, seat: int | None = None) -> None:
    answer = solve(s, seat)
    _discards[0] = tuple(getattr(s, "discards", ()))
    hand = len(s.results)
    assert answer.exact
    assert brute(s, answer.side, hand) == answer.value
    p = s.current_player
    for card, value in answer.cards:
        t = binocle.apply(s, f"play {card}")
        gained = sum(_won(t, hand, i) - _won(s, hand, i) for i in answer.side)
        assert gained + brute(t, answer.side, hand) == value, card
    legal = {a.card for a in binocle.legal_actions(s) if a.kind is Kind.PLAY}
    assert {c for c, _ in answer.cards} == legal
    assert answer.best is not None
    assert dict(answer.cards)[answer.best] == answer.value
    assert p is not None
    fast = solve(s, seat, cards=False)
    assert fast.value == answer.value and dict(answer.cards)[fast.best] == answer.value
    assert can_reach(s, answer.value, seat) is True
    assert can_reach(s, answer.value + 1, seat) is False


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), tricks=st.integers(1, 3))
def test_the_solver_agrees_with_brute_force(profile: str, seed: int, tricks: int) -> None:
    """The value, each card's value and the null-window answers equal plain minimax
    over the engine's own legal actions, on the last one to three tricks."""
    check(endgame(profile, seed, tricks))


@pytest.mark.parametrize("profile", ["cutthroat", "three-handed", "classic"])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), seat=st.integers(0, 2))
def test_every_seat_side_agrees_with_brute_force(profile: str, seed: int, seat: int) -> None:
    """The value for any seat's side (a cutthroat defender: both defenders; three-handed:
    the seat against the other two) is the minimax value for that side."""
    s = endgame(profile, seed, 2)
    check(s, seat % len(s.hands))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_makes_bid_is_the_bidder_reaching_his_bid(seed: int) -> None:
    """The cutthroat bidder can make the bid exactly when his meld, the trick points he
    has (discards included) and the value still to win reach it."""
    s = endgame("cutthroat", seed, 3)
    answer = solve(s)
    meld = s.melds[s.bidder].total  # type: ignore[attr-defined,index]
    won = s.taken[s.bidder] + sum(COUNTER_POINTS[c] for c in s.discards)  # type: ignore[attr-defined]
    assert makes_bid(s) is (meld + won + answer.value >= s.bid)  # type: ignore[attr-defined,operator]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), nodes=st.integers(1, 200))
def test_a_budget_brackets_the_value(seed: int, nodes: int) -> None:
    """Cut short by a node budget, the search returns bounds around the exact value
    (a null-window question: None, or the true answer)."""
    s = endgame("cutthroat", seed, 4)
    exact = solve(s)
    cut = solve(s, nodes=nodes)
    assert cut.nodes <= nodes + 1
    assert cut.lower <= exact.value <= cut.upper
    assert cut.exact is False or cut.value == exact.value
    assert can_reach(s, exact.value, nodes=nodes) in (True, None)


def test_the_solver_is_deterministic() -> None:
    """The same position gives the same answer and the same node count."""
    s = endgame("cutthroat", 5, 5)
    assert solve(s) == solve(s)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: solve(binocle.new_game("cutthroat", seed=1)),
        lambda: solve("not a state"),  # type: ignore[arg-type]
        lambda: solve(endgame("cutthroat", 2, 2), seat=3),
        lambda: solve(endgame("cutthroat", 2, 2), nodes=0),
        lambda: solve(endgame("cutthroat", 2, 2), seconds=float("nan")),
        lambda: can_reach(endgame("cutthroat", 2, 2), 1.5),  # type: ignore[arg-type]
        lambda: makes_bid(endgame("classic", 2, 2)),
    ],
)
def test_what_the_solver_refuses(bad: object) -> None:
    """A state outside the play, a seat not at the table, a budget or a target that is
    not a number of the right kind, a bid asked of another game: InvalidArgumentError."""
    with pytest.raises(InvalidArgumentError):
        bad()  # type: ignore[operator]


def test_the_classic_game_is_solved_after_the_stock_only() -> None:
    """While the classic stock lasts the hands are not a perfect-information endgame."""
    s = binocle.new_game("classic", seed=4)
    with pytest.raises(InvalidArgumentError, match="stock"):
        solve(s)
