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

import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import GameState, InvalidArgumentError, Kind, Phase
from binocle.cards import CARDS
from binocle.profiles.classic import ClassicState
from binocle.rules.points import COUNTER_POINTS, LAST_TRICK
from binocle.rules.tricks import Obligation, allowed_slice, trick_winner
from binocle.solve import Analysis, analysis_section, analyze, can_reach, makes_bid, solve
from binocle.solve._position import Position, read_position
from binocle.solve._search import Search, legal_mask

PROFILES = [
    "cutthroat",
    "cutthroat(easier_tricks=true)",
    "classic",
    "classic(pack=64)",
    "three-handed",
]
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


EXAMPLE = Path(__file__).parent.parent / "examples" / "analysis_game.json"


@functools.cache
def example_analysis() -> Analysis:
    """The example's analysis on a small budget (the first tricks are left unsolved)."""
    return analyze(EXAMPLE.read_text(), nodes=1000)


def test_the_analysis_judges_every_card_of_the_example() -> None:
    """Every card of the example's hand is judged; a card costs nothing exactly when it
    is among the best cards; no card costs less than nothing; the sentences name the
    cards; the JSON form carries the same cards."""
    result = example_analysis()
    assert len(result.cards) == 45
    assert [c.trick for c in result.cards[:3]] == [1, 1, 1] and result.cards[-1].trick == 15
    for c in result.cards:
        if c.cost is None:
            continue
        assert c.cost >= 0
        assert (c.cost == 0) == (c.played in c.best) or not c.best
        assert c.best_value is not None and c.played_value is not None
    assert any(c.cost == 0 for c in result.cards)
    data = result.to_dict()
    assert len(data["cards"]) == 45 and data["profile"] == "cutthroat(max_hands=1)"
    assert data["mistakes"] == [c.sentence() for c in result.mistakes]
    assert analysis_section(EXAMPLE.read_text(), nodes=1000) == data


def test_the_analysis_of_the_last_tricks_matches_brute_force() -> None:
    """The value of the card played in each of the last two tricks is what plain minimax
    over the engine gives after it (plus what the card's trick brought)."""
    states = binocle.replay(EXAMPLE.read_text(), every=True)
    result = example_analysis()
    s = states[-7]
    assert s.phase is Phase.PLAY and len(s.hands[s.current_player]) == 2  # type: ignore[index]
    for c in result.cards[-6:]:
        assert c.cost is not None and c.best_value is not None
        t = states[c.index]
        _discards[0] = tuple(t.discards)  # type: ignore[attr-defined]
        side = solve(t, c.seat).side
        assert brute(t, side, 0) == c.best_value


def test_binocle_analyze_prints_the_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle analyze FILE --json`` prints the analysis; an unreadable file exits 2."""
    from binocle.cli import main

    assert main(["analyze", str(EXAMPLE), "--nodes", "300", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["cards"]) == 45
    assert main(["analyze", str(EXAMPLE) + ".missing"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_search_bots_play_the_exact_classic_endgame() -> None:
    """Once the classic stock is exhausted every card is known: the search bots play a
    card of the best value (the solver's)."""
    from binocle.ismcts import DoubleDummyBot, ISMCTSBot

    s = endgame("classic", 8, 4)
    p = s.current_player
    assert p is not None
    answer = solve(s)
    values = dict(answer.cards)
    for bot in (ISMCTSBot(1, iterations=5), DoubleDummyBot(1, samples=2)):
        a = bot.choose(binocle.observe(s, p))
        assert a.card is not None and values[a.card] == answer.value


def test_the_double_dummy_bot_plays_the_best_card_when_all_is_known() -> None:
    """In the last trick of a cutthroat hand every sample is the real position (the
    cards left are known): the bot plays a card of the best value."""
    from binocle.ismcts import DoubleDummyBot

    s = endgame("cutthroat", 3, 1)
    p = s.current_player
    assert p is not None
    a = DoubleDummyBot(2, samples=3).choose(binocle.observe(s, p))
    assert a.kind is Kind.PLAY


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    rule=st.sampled_from(list(Obligation)),
    trump=st.integers(-1, 3),
    ranks=st.sampled_from([6, 8]),
)
def test_the_search_reads_the_engines_legal_cards(
    seed: int, rule: Obligation, trump: int, ranks: int
) -> None:
    """The search reads the legal cards off bit masks: the same cards as the engine's
    ``allowed_slice`` for any hand and trick, under every trick rule, with a trump or
    none (a card held twice is one bit)."""
    rng = random.Random(seed)
    pack = [c for c in range(32) if c & 7 < ranks] * 2
    rng.shuffle(pack)
    hand = tuple(sorted(pack[: rng.randint(1, 12)]))
    trick_cards = pack[20 : 20 + rng.randint(0, 3)]
    trick = tuple((i, c) for i, c in enumerate(trick_cards))
    once = 0
    for c in hand:
        once |= 1 << c
    best = trick[0][1] if trick else 0
    for _, c in trick[1:]:
        if (c >> 3 == best >> 3 and c < best) or (c >> 3 == trump and best >> 3 != trump):
            best = c
    led = trick[0][1] >> 3 if trick else 0
    got = legal_mask(once, len(trick), led, best, trump, rule)
    want = set(allowed_slice(hand, trick, None if trump < 0 else trump, rule))
    assert {c for c in range(32) if got >> c & 1} == want


def _reference(
    pos: Position,
    hands: tuple[tuple[int, ...], ...],
    trick: tuple[tuple[int, int], ...],
    p: int,
    memo: dict[object, int],
    seen: dict[int, int],
) -> int:
    """The points side 0 wins from here by plain minimax over ``allowed_slice`` (every
    legal card, a position remembered only when it recurs exactly).  At each trick
    boundary it checks the search's bounds and keys there: the value lies within the
    bounds, and two positions with one key have one value (``seen``)."""
    here = (hands, trick, p)
    if here in memo:
        return memo[here]
    if not any(hands):
        return 0
    trump = None if pos.trump < 0 else pos.trump
    values = []
    for c in sorted(set(allowed_slice(hands[p], trick, trump, pos.rule))):
        i = hands[p].index(c)
        after = tuple(h[:i] + h[i + 1 :] if q == p else h for q, h in enumerate(hands))
        played = (*trick, (p, c))
        if len(played) < len(hands):
            values.append(_reference(pos, after, played, (p + 1) % len(hands), memo, seen))
            continue
        w = played[trick_winner([CARDS[x] for _, x in played], trump)][0]
        gained = sum(pos.points[x] for _, x in played) + (0 if any(after) else LAST_TRICK)
        later = _reference(pos, after, (), w, memo, seen)
        values.append((gained if pos.sides[w] == 0 else 0) + later)
    v = max(values) if pos.sides[p] == 0 else min(values)
    memo[here] = v
    if not trick and sum(map(len, hands)) > len(hands):
        search = Search(
            list(hands), list(pos.sides), pos.points, LAST_TRICK, pos.trump, pos.rule, 1, 0.0
        )
        lo, hi = search.bounds(p)
        assert lo <= v <= hi, (hands, p, lo, v, hi)
        assert seen.setdefault(search.key(p), v) == v, (hands, p)
    return v


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), tricks=st.integers(4, 6), seat=st.integers(0, 2))
def test_the_pruning_agrees_with_plain_minimax(
    profile: str, seed: int, tricks: int, seat: int
) -> None:
    """On the last four to six tricks, where the search's table, bounds and merged
    cards all come into play, for any seat's side: its value is plain minimax's; at
    every trick boundary of the play the bounds (sure trumps, the leader's sure
    tricks) hold the exact value, and positions sharing a table key (ranks
    renumbered among those in play, one seat's runs as one group) have the same
    value."""
    s = endgame(profile, seed, tricks)
    seat %= len(s.hands)
    pos = read_position(s, seat)
    seen: dict[int, int] = {}
    want = _reference(pos, pos.hands, pos.trick, pos.player, {}, seen)
    assert solve(s, seat, cards=False).value == want
    assert can_reach(s, want, seat) is True and can_reach(s, want + 1, seat) is False
