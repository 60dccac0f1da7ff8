"""The engine's public contract (DESIGN.md "The public contract", RULES.md §5).

Errors and bad input, immutable states, views that hide every card a seat may
not see, and JSON that refuses inconsistent states; random playouts check the
invariants at every step.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import (
    Action,
    BinocleError,
    Card,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    Kind,
    Phase,
    UnknownProfileError,
)
from binocle.core import frozen_state
from binocle.profiles.cutthroat import CutthroatState
from binocle.testing import check_state
from helpers import cs, run

# ---------------------------------------------------------------------------
# Helpers


def deck_text(deck: list[Card]) -> str:
    return "deal " + " ".join(map(str, deck))


def random_playout(s: GameState, rng: random.Random, steps: int) -> list[GameState]:
    """The states met on up to ``steps`` random legal actions from ``s``."""
    out = [s]
    for _ in range(steps):
        if binocle.is_over(s):
            break
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
        out.append(s)
    return out


def play_hand(s: GameState, rng: random.Random, bid: int = 250) -> GameState:
    """Play the current hand to its end: the eldest bids, the others pass, random play."""
    s = run(s, f"bid {bid}", "pass", "pass")
    while s.current_player is not None:
        legal = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CONCEDE]
        s = binocle.apply(s, rng.choice(legal))
    return s


def assert_refused(s: GameState, action: Any, error: type[Exception], words: str) -> None:
    """The action is refused with ``error`` whose message contains ``words``; ``s`` is unchanged."""
    before, h = binocle.dumps(s), hash(s)
    with pytest.raises(error) as info:
        binocle.apply(s, action)
    assert words in str(info.value), str(info.value)
    assert isinstance(info.value, BinocleError) and isinstance(info.value, ValueError)
    assert binocle.dumps(s) == before and hash(s) == h


@pytest.fixture(scope="module")
def midgame() -> GameState:
    """A state in the PLAY phase of the second hand, a few cards into a trick."""
    rng = random.Random(5)
    s = play_hand(binocle.new_game("cutthroat", seed=11), rng)
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    s = run(s, "bid 250", "pass", "pass")
    for _ in range(20):
        legal = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CONCEDE]
        s = binocle.apply(s, rng.choice(legal))
    assert s.phase is Phase.PLAY and s.hand_number == 2
    return s


# ---------------------------------------------------------------------------
# Legal actions and apply (DESIGN.md "The public contract")


@given(seed=st.integers(0, 10**9))
@settings(max_examples=6, deadline=None)
def test_legal_actions_deterministic_unique_never_empty(seed: int) -> None:
    """DESIGN.md: legal_actions is deterministic, has no repeats, and is never empty until the
    game is over; every action's text reads back through parse_action."""
    rng = random.Random(seed)
    s = binocle.new_game("cutthroat", seed=seed)
    for state in random_playout(s, rng, 120):
        legal = binocle.legal_actions(state)
        assert legal or binocle.is_over(state)
        assert len(set(legal)) == len(legal)
        twin = binocle.loads(binocle.dumps(state))  # an equal state computed afresh
        assert binocle.legal_actions(twin) == legal
        for a in legal:
            if a.kind is not Kind.DEAL:
                assert binocle.parse_action(state, str(a)) == a
                assert binocle.parse_action(state, str(a).upper()) == a


def test_deal_between_hands() -> None:
    """DESIGN.md "Dealing is an action": between hands nobody acts, legal_actions holds the one
    deal drawn from the seed, and apply accepts any valid deck order instead."""
    s = run(binocle.new_game("cutthroat", seed=8, dealer=0), "pass", "pass", "pass")
    assert s.phase is Phase.DEAL and s.current_player is None
    (seeded,) = binocle.legal_actions(s)
    assert seeded.kind is Kind.DEAL and sorted(seeded.cards) == sorted(binocle.pack())
    # The same deal again from a fresh game: drawn from the seed, not from chance.
    again = run(binocle.new_game("cutthroat", seed=8, dealer=0), "pass", "pass", "pass")
    assert binocle.legal_actions(again) == (seeded,)
    # Any other order of the pack is accepted, as an action or as text.
    deck = list(binocle.pack())
    random.Random(1).shuffle(deck)
    by_text = binocle.apply(s, deck_text(deck))
    by_action = binocle.apply(s, binocle.parse_action(s, deck_text(deck)))
    assert by_text == by_action
    assert by_text.phase is Phase.BIDDING and by_text.dealer == 1
    assert sorted(by_text.hands[2]) == sorted(
        deck[0:3] + deck[12:15] + deck[21:24] + deck[30:33] + deck[39:42]
    )
    sorted_deal = binocle.apply(s, deck_text(sorted(binocle.pack())))
    assert sorted([x for h in sorted_deal.hands for x in h] + list(sorted_deal.widow)) == sorted(
        binocle.pack()
    )


def test_apply_accepts_text_and_actions_alike() -> None:
    """DESIGN.md: apply takes an action or its text; str(action) is text parse_action reads."""
    s = binocle.new_game("cutthroat", seed=9)
    a = binocle.parse_action(s, "bid 260")
    assert a.kind is Kind.BID and a.number == 260 and str(a) == "bid 260"
    assert binocle.apply(s, a) == binocle.apply(s, "bid 260") == binocle.apply(s, "  BID 260 ")
    assert str(binocle.parse_action(s, "play 10♠")) == "play TS"
    assert str(binocle.parse_action(s, "discard qh")) == "discard QH"
    assert str(binocle.parse_action(s, "trump hearts")) == "trump H"
    assert str(binocle.parse_action(s, "give up")) == "concede"


def test_states_are_immutable_values() -> None:
    """DESIGN.md: states are frozen values, equal by value and hashable; apply never changes
    the state it is given; copy and deepcopy return the state itself."""
    s = binocle.new_game("cutthroat", seed=10)
    t = binocle.new_game("cutthroat", seed=10)
    assert s == t and hash(s) == hash(t) and s is not t
    assert len({s, t}) == 1
    with pytest.raises(AttributeError):
        s.scores = (1, 2, 3)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        s.hands = ()  # type: ignore[misc]
    before = binocle.dumps(s)
    after = binocle.apply(s, "bid 250")
    assert binocle.dumps(s) == before and s.current_player == 1 and after.current_player == 2
    assert s != after
    assert copy.copy(s) is s and copy.deepcopy(s) is s
    assert copy.deepcopy({"x": s})["x"] is s
    assert pickle.loads(pickle.dumps(after)) == after
    assert isinstance(s.hands, tuple) and all(isinstance(h, tuple) for h in s.hands)


def test_public_attributes() -> None:
    """DESIGN.md: current_player, dealer, trump, hands (sorted), trick, results, score."""
    s = binocle.new_game("cutthroat", seed=12, dealer=1)
    assert s.current_player == 2 and s.dealer == 1 and s.trump is None
    assert all(list(h) == sorted(h) for h in s.hands)
    assert s.trick == () and s.results == ()
    assert binocle.score(s) == (0, 0, 0)
    assert binocle.is_over(s) is False and binocle.winner(s) is None
    s = run(
        s,
        "bid 250",
        "pass",
        "pass",
        *[f"discard {x}" for x in binocle.new_game("cutthroat", seed=12, dealer=1).widow],
    )
    s = run(s, "trump D", "meld", "meld", "meld")
    assert s.trump is binocle.Suit.DIAMONDS
    lead = next(a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY)
    t = binocle.apply(s, lead)
    assert t.trick == ((2, lead.card),)


# ---------------------------------------------------------------------------
# Bad input (DESIGN.md "Errors"; RULES.md §5)


@pytest.mark.parametrize(
    ("action", "error", "words"),
    [
        ("", InvalidNotationError, "empty"),
        ("fly", InvalidNotationError, "not an action"),
        ("bid", InvalidNotationError, "not an action"),
        ("bid two", InvalidNotationError, "not a bid"),
        ("play", InvalidNotationError, "not an action"),
        ("play XX", InvalidNotationError, "not a card"),
        ("discard 1S", InvalidNotationError, "not a card"),
        ("trump X", InvalidNotationError, "not a suit"),
        (42, InvalidNotationError, "not int"),
        (None, InvalidNotationError, "not NoneType"),
        (b"pass", InvalidNotationError, "not bytes"),
        ("bid 240", IllegalActionError, "lowest bid is 250"),
        ("bid 255", IllegalActionError, "steps of 10"),
        ("bid 5000", IllegalActionError, "ceiling"),
        ("discard AS", IllegalActionError, "bidding phase"),
        ("play AS", IllegalActionError, "bidding phase"),
        ("trump S", IllegalActionError, "bidding phase"),
        ("meld", IllegalActionError, "bidding phase"),
        ("concede", IllegalActionError, "bidding phase"),
        ("deal " + " ".join(["AS"] * 48), IllegalActionError, "no deal now"),
    ],
)
def test_bad_actions_in_the_bidding(action: Any, error: type[Exception], words: str) -> None:
    """DESIGN.md "Errors", RULES.md §5: malformed text, wrong types and actions of the wrong
    phase are refused with the documented error naming the problem; the state is unchanged."""
    assert_refused(binocle.new_game("cutthroat", seed=13), action, error, words)


def test_bad_actions_in_play(midgame: GameState) -> None:
    """RULES.md §5: in play, a card not held, a card breaking the trick rule, a bid or a
    concede out of turn are refused with a reason; the state is unchanged."""
    s = midgame
    p = s.current_player
    assert p is not None
    held = set(s.hands[p])
    missing = next(x for x in binocle.pack() if x not in held)
    assert_refused(s, f"play {missing}", IllegalActionError, "does not hold it")
    allowed = {a.card for a in binocle.legal_actions(s) if a.kind is Kind.PLAY}
    for x in held - allowed:
        assert_refused(s, f"play {x}", IllegalActionError, "must")
    assert_refused(s, "bid 300", IllegalActionError, "play phase")
    assert_refused(s, "play AS table", IllegalActionError, "no table cards")
    assert_refused(s, "play 8S", IllegalActionError, "does not hold it")
    assert_refused(s, "dix", IllegalActionError, "play phase")


def test_wrong_seat_has_no_way_to_act() -> None:
    """RULES.md §5: only the seat to act may act; an action recorded for another seat in a
    game record is refused when loaded."""
    s = binocle.new_game("cutthroat", seed=14)
    doc = json.loads(binocle.dumps(s))
    doc["actions"].append({"seat": 2, "action": "bid 250"})  # seat 1 is to act
    with pytest.raises(InvalidStateError, match="player to act is seat 1"):
        binocle.loads(json.dumps(doc))


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: binocle.apply(None, "pass"), InvalidArgumentError, "not a game state"),  # type: ignore[arg-type]
        (lambda: binocle.legal_actions("state"), InvalidArgumentError, "not a game state"),  # type: ignore[arg-type]
        (lambda: binocle.observe(binocle.new_game(seed=1), 7), InvalidArgumentError, "not 7"),
        (lambda: binocle.observe(binocle.new_game(seed=1), -1), InvalidArgumentError, "not -1"),
        (lambda: binocle.observe(binocle.new_game(seed=1), "0"), InvalidArgumentError, "a seat"),  # type: ignore[arg-type]
        (lambda: binocle.observe(binocle.new_game(seed=1), True), InvalidArgumentError, "a seat"),
        (lambda: binocle.score(None), InvalidArgumentError, "not a game state"),  # type: ignore[arg-type]
        (lambda: binocle.winner(3), InvalidArgumentError, "not a game state"),  # type: ignore[arg-type]
        (lambda: binocle.is_over([]), InvalidArgumentError, "not a game state"),  # type: ignore[arg-type]
        (
            lambda: binocle.parse_action(binocle.new_game(seed=1), 42),
            InvalidNotationError,
            "not int",
        ),  # type: ignore[arg-type]
        (lambda: binocle.dumps("x"), InvalidArgumentError, "not a game state"),  # type: ignore[arg-type]
        (lambda: binocle.new_game("nope"), UnknownProfileError, "unknown profile 'nope'"),
        (lambda: binocle.new_game(17), UnknownProfileError, "not int"),
        (lambda: binocle.new_game("cutthroat", seed="x"), InvalidArgumentError, "seed"),  # type: ignore[arg-type]
        (lambda: binocle.new_game("cutthroat", seed=1, dealer=3), InvalidArgumentError, "dealer"),
        (
            lambda: binocle.new_game("cutthroat", seed=1, dealer=True),
            InvalidArgumentError,
            "dealer",
        ),
        (lambda: binocle.profile("cutthroat(foo=1)"), UnknownProfileError, "unknown option 'foo'"),
        (lambda: binocle.profile("cutthroat(min_bid=255)"), UnknownProfileError, "multiple of 10"),
        (lambda: binocle.profile("cutthroat", min_bid=0), UnknownProfileError, "min_bid"),
        (lambda: binocle.profile("cutthroat", min_bid=True), UnknownProfileError, "min_bid"),
        (lambda: binocle.profile("cutthroat", single_set="yes"), UnknownProfileError, "single_set"),
        (lambda: binocle.profile("cutthroat(max_bid=200)"), UnknownProfileError, "below min_bid"),
        (lambda: binocle.profile("cutthroat(min_bid)"), UnknownProfileError, "name=value"),
        (lambda: binocle.profile("cut throat"), UnknownProfileError, "not a profile"),
        (lambda: binocle.profile(None), UnknownProfileError, "not NoneType"),
    ],
)
def test_bad_arguments(call: Any, error: type[Exception], words: str) -> None:
    """DESIGN.md "Errors": wrong types and values raise the documented error with a message
    naming the problem (all BinocleError and ValueError)."""
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value), str(info.value)
    assert isinstance(info.value, BinocleError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("deck", "error", "words"),
    [
        (list(binocle.pack())[:-1], IllegalActionError, "got 47 cards"),
        ([*binocle.pack(), binocle.parse_card("AS")], IllegalActionError, "got 49 cards"),
        (
            [*list(binocle.pack())[:-1], binocle.parse_card("AS")],
            IllegalActionError,
            "every card twice",
        ),
        (list(binocle.pack(64))[:48], IllegalActionError, "48-card pack"),
        ([*list(binocle.pack())[:-1], "XX"], InvalidNotationError, "not a card"),
        ("AS " * 48, IllegalActionError, "every card twice"),
        (42, InvalidNotationError, "not int"),
        ([0] * 48, InvalidNotationError, "not int"),
    ],
)
def test_bad_decks(deck: Any, error: type[Exception], words: str) -> None:
    """RULES.md §1 "Dealing", §5: a deck with a missing, extra or foreign card is refused."""
    with pytest.raises(error) as info:
        binocle.new_game("cutthroat", deck=deck)
    assert words in str(info.value), str(info.value)
    between = run(binocle.new_game("cutthroat", seed=3), "pass", "pass", "pass")
    if isinstance(deck, list) and all(isinstance(x, Card) for x in deck):
        assert_refused(between, Action(Kind.DEAL, cards=tuple(deck)), error, words)


def test_hand_built_actions_are_checked() -> None:
    """DESIGN.md "Errors": nothing but the documented errors escapes, even for actions built
    by hand with missing or wrong fields, and they can never corrupt a state."""
    s = run(binocle.new_game("cutthroat", seed=15), "bid 250", "pass", "pass")
    s = run(
        s,
        *[f"discard {x}" for x in s.hands[s.current_player or 0][:3]],
        "trump S",
        "meld",
        "meld",
        "meld",
    )
    assert s.phase is Phase.PLAY
    # Missing or ill-typed fields are refused where the action is made.
    for fields in (
        {"kind": Kind.PLAY},
        {"kind": Kind.PLAY, "card": 99},
        {"kind": Kind.BID},
        {"kind": Kind.TRUMP},
        {"kind": Kind.DISCARD},
        {"kind": Kind.DEAL},
    ):
        with pytest.raises(InvalidNotationError):
            Action(**fields)
    for bad in (
        Action(Kind.MELD, name="run", cards=cs("AS TS KS QS JS")),
        Action(Kind.DEAL, cards=cs("AS TS")),
        Action(Kind.BID, number=7),
    ):
        before = binocle.dumps(s)
        with pytest.raises(IllegalActionError):
            binocle.apply(s, bad)
        assert binocle.dumps(s) == before
    # An action equal to a legal one but holding a plain int for its card plays that card
    # and leaves a state that still writes and reads back.
    lead = next(a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY)
    assert lead.card is not None
    t = binocle.apply(s, Action(Kind.PLAY, card=int(lead.card)))  # type: ignore[arg-type]
    assert t == binocle.apply(s, lead)
    assert all(type(x) is Card for _, x in t.trick)
    assert binocle.loads(binocle.dumps(t)) == t
    # In the bidding: a bid that is not a whole number (even 300.0) is refused where it is
    # made; a bid of 300 built by hand is the legal bid.
    b = binocle.new_game("cutthroat", seed=15)
    for number in ("300", [3], 2.5, 300.0, True, -10, 10**9):
        with pytest.raises(InvalidNotationError, match="whole number"):
            Action(Kind.BID, number=number)
    b300 = binocle.apply(b, Action(Kind.BID, number=300))
    assert b300 == binocle.apply(b, "bid 300") and binocle.loads(binocle.dumps(b300)) == b300
    # A deal of card numbers deals those cards (as Card(n) does); a deal of None is refused.
    between = run(binocle.new_game("cutthroat", seed=3), "pass", "pass", "pass")
    numbers = tuple(int(x) for x in binocle.pack())
    dealt = binocle.apply(between, Action(Kind.DEAL, cards=numbers))  # type: ignore[arg-type]
    assert dealt == binocle.apply(between, Action(Kind.DEAL, cards=binocle.pack()))
    assert all(type(x) is Card for h in dealt.hands for x in h)
    with pytest.raises(InvalidNotationError):
        Action(Kind.DEAL, cards=(None,) * 48)


# ---------------------------------------------------------------------------
# Views (DESIGN.md "observe"; boardgame.io's playerView)


def test_observe_shows_own_hand_and_public_facts_only() -> None:
    """DESIGN.md: observe(state, seat) shows that seat's hand, the others' hand sizes and
    everything public, and the legal actions only to the seat to act."""
    s = binocle.new_game("cutthroat", seed=16, dealer=0)
    for seat in range(3):
        v = binocle.observe(s, seat)
        assert v.seat == seat and v.hand == s.hands[seat]
        assert v.hand_sizes == (15, 15, 15)
        assert v.legal_actions == (binocle.legal_actions(s) if seat == 1 else ())
        others = [x for i in range(3) if i != seat for x in s.hands[i]]
        text = repr(v)
        assert all(repr(x) not in text for x in set(others) - set(v.hand))
        assert v.get("widow") is None


def positions(seat: int, dealer: int) -> list[int]:
    """The deck indices dealt to ``seat`` (RULES.md §4 "Deal", widow after the first round)."""
    k = [(dealer + j) % 3 for j in (1, 2, 3)].index(seat)
    return [9 * r + 3 * k + (3 if r >= 1 else 0) + j for r in range(5) for j in range(3)]


def swap_between(
    deck: list[Card], dealer: int, a: int, b: int, pairs: list[tuple[int, int]]
) -> list[Card]:
    """A copy of ``deck`` with cards of seat ``a``'s and seat ``b``'s hands exchanged."""
    out = list(deck)
    pa, pb = positions(a, dealer), positions(b, dealer)
    for i, j in pairs:
        out[pa[i]], out[pb[j]] = out[pb[j]], out[pa[i]]
    return out


@given(
    seed=st.integers(0, 10**9),
    seat=st.integers(0, 2),
    dealer=st.integers(0, 2),
    pairs=st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)), min_size=1, max_size=6),
    bidder_offset=st.integers(0, 2),
)
@settings(max_examples=40, deadline=None)
def test_views_do_not_depend_on_hidden_cards(
    seed: int, seat: int, dealer: int, pairs: list[tuple[int, int]], bidder_offset: int
) -> None:
    """DESIGN.md, STYLE.md: two states that differ only in cards hidden from a seat (cards
    exchanged between the two other hands; the bidder's discards) give equal views, through
    the bidding, the widow, the discards and the naming of trump."""
    deck = list(binocle.pack())
    random.Random(seed).shuffle(deck)
    a, b = [x for x in range(3) if x != seat]
    other = swap_between(deck, dealer, a, b, pairs)
    s1 = binocle.new_game("cutthroat", deck=deck, dealer=dealer)
    s2 = binocle.new_game("cutthroat", deck=other, dealer=dealer)
    views = lambda: (binocle.observe(s1, seat), binocle.observe(s2, seat))  # noqa: E731
    v1, v2 = views()
    assert v1 == v2
    # Bidding: the seat at bidder_offset from the eldest bids, the others pass.
    eldest = (dealer + 1) % 3
    bidder = (eldest + bidder_offset) % 3
    for k in range(3):
        call = "bid 250" if (eldest + k) % 3 == bidder else "pass"
        s1, s2 = binocle.apply(s1, call), binocle.apply(s2, call)
        v1, v2 = views()
        assert v1 == v2
    assert s1.phase is Phase.DISCARD and s1.bidder == bidder
    # Discards: the bidder discards cards that both versions of his hand hold.
    h1, h2 = Counter(s1.hands[bidder]), Counter(s2.hands[bidder])
    common = sorted((h1 & h2).elements())
    if bidder == seat:
        common = list(s1.hands[bidder])
    rng = random.Random(seed)
    for x in rng.sample(common, 3):
        s1, s2 = binocle.apply(s1, f"discard {x}"), binocle.apply(s2, f"discard {x}")
        v1, v2 = views()
        assert v1 == v2
    s1, s2 = binocle.apply(s1, "trump H"), binocle.apply(s2, "trump H")
    v1, v2 = views()
    assert v1 == v2
    assert v1.hand == s1.hands[seat]


@given(seed=st.integers(0, 10**9), pairs=st.integers(1, 3))
@settings(max_examples=25, deadline=None)
def test_views_hide_the_bidders_discards(seed: int, pairs: int) -> None:
    """RULES.md §4: the discards lie face down: states whose bidders discarded different
    cards (exchanged with a defender's hand) look the same to the third seat."""
    rng = random.Random(seed)
    deck = list(binocle.pack())
    rng.shuffle(deck)
    bidder, defender, watcher = 0, 1, 2
    dealt = binocle.new_game("cutthroat", deck=deck, dealer=2)
    mine = [i for i in positions(bidder, 2) if deck[i] not in dealt.hands[defender]]
    theirs = [j for j in positions(defender, 2) if deck[j] not in dealt.hands[bidder]]
    k = min(pairs, len(mine), len(theirs))
    if k == 0:
        return
    chosen = list(zip(rng.sample(mine, k), rng.sample(theirs, k), strict=True))
    other = list(deck)
    for i, j in chosen:
        other[i], other[j] = other[j], other[i]
    give = [deck[i] for i, _ in chosen]
    take = [deck[j] for _, j in chosen]
    s = run(dealt, "bid 250", "pass", "pass")
    t = run(binocle.new_game("cutthroat", deck=other, dealer=2), "bid 250", "pass", "pass")
    keep = list((Counter(s.hands[bidder]) - Counter(give) - Counter(take)).elements())[: 3 - k]
    s = run(s, *[f"discard {x}" for x in give + keep])
    t = run(t, *[f"discard {x}" for x in take + keep])
    assert s.hands[bidder] == t.hands[bidder] and s.discards != t.discards
    assert s.hands[defender] != t.hands[defender]
    assert binocle.observe(s, watcher) == binocle.observe(t, watcher)
    s, t = run(s, "trump S", "meld"), run(t, "trump S", "meld")
    assert binocle.observe(s, watcher) == binocle.observe(t, watcher)
    assert binocle.observe(s, bidder) != binocle.observe(t, bidder)  # he knows his discards


# ---------------------------------------------------------------------------
# JSON (DESIGN.md dumps/loads; RULES.md §5)


def test_dumps_loads_round_trip_through_a_game(midgame: GameState) -> None:
    """DESIGN.md: loads(dumps(s)) == s, at the start, mid-hand, between hands and at the end."""
    rng = random.Random(3)
    s = binocle.new_game("cutthroat(min_bid=300,single_set=true)", seed=21)
    samples = [s, midgame, binocle.start("cutthroat", seed=2)]
    for state in random_playout(s, rng, 200)[::17]:
        samples.append(state)
    from binocle.bots import play_game

    samples.append(play_game("cutthroat", seed=4))
    # A hand dealt from an explicit deck order, in the middle of the play.
    deck = list(binocle.pack())
    random.Random(9).shuffle(deck)
    dealt = run(binocle.new_game("cutthroat", deck=deck, dealer=1), "pass", "bid 300", "pass")
    samples.insert(0, random_playout(dealt, rng, 30)[-1])
    assert binocle.is_over(samples[-1])
    for state in samples:
        text = binocle.dumps(state)
        back = binocle.loads(text)
        assert back == state and hash(back) == hash(state)
        assert back.profile == state.profile
        assert binocle.dumps(back) == text
        assert binocle.legal_actions(back) == binocle.legal_actions(state)
        assert binocle.loads(text.encode()) == state
    assert json.loads(binocle.dumps(midgame, indent=2)) == json.loads(binocle.dumps(midgame))


def tamper(state: GameState, edit: Any) -> str:
    doc = json.loads(binocle.dumps(state))
    edit(doc)
    return json.dumps(doc)


def move_card(doc: dict[str, Any]) -> None:
    hands = doc["state"]["hands"]
    hands[1].append(hands[0].pop())


def swap_cards(doc: dict[str, Any]) -> None:
    hands = doc["state"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda d: d.update(format="chess"), "not a binocle state"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(extra=1), "unknown field 'extra'"),
        (lambda d: d.pop("actions"), "field 'actions' is missing"),
        (lambda d: d.update(profile="nope"), "profile"),
        (lambda d: d.update(profile="cutthroat(min_bid=300)"), "action"),
        (lambda d: d.update(seed="1"), "seed"),
        (lambda d: d.update(first_dealer=5), "first_dealer"),
        (lambda d: d.update(actions="all"), "actions is a list"),
        (lambda d: d["actions"].append({"seat": 2, "action": "fly away"}), "not an action"),
        (lambda d: d["actions"].append({"seat": 2, "action": "bid 100"}), "lowest bid"),
        (lambda d: d["actions"].append({"seat": 2, "action": "bid 250"}), "higher than the last"),
        (lambda d: d["actions"].append({"seat": "1", "action": "bid 300"}), "seat is 0..2"),
        (lambda d: d["actions"].append([1]), "an entry is an object"),
        (lambda d: d["actions"].pop(), "disagrees"),
        (lambda d: d["state"].update(scores=[0, 10, 0]), "'scores' disagrees"),
        (lambda d: d["state"].update(current_player=0), "'current_player' disagrees"),
        (lambda d: d["state"].update(phase="play"), "'phase' disagrees"),
        (lambda d: d["state"].update(hand_number=True), "hand_number"),
        (lambda d: d["state"].update(dealer=0.0), "dealer"),
        (lambda d: d["state"].update(secret=1), "unknown state field 'secret'"),
        (lambda d: d["state"].pop("hands"), "'hands' is missing"),
        (lambda d: d.update(state=[]), "object of fields"),
        (move_card, "'hands' disagrees"),
        (swap_cards, "'hands' disagrees"),
    ],
)
def test_loads_refuses_inconsistent_states(edit: Any, words: str) -> None:
    """RULES.md §5, DESIGN.md: loads checks a state read from outside and refuses an
    inconsistent one (format, version, fields, actions, a tampered snapshot) with
    InvalidStateError."""
    s = run(binocle.new_game("cutthroat", seed=22, dealer=0), "bid 250")
    text = tamper(s, edit)
    with pytest.raises(InvalidStateError) as info:
        binocle.loads(text)
    assert words in str(info.value), str(info.value)


@pytest.mark.parametrize(
    "text", ["", "{", "[1, 2]", "null", "42", '"state"', "NaN", "[" * 5000 + "]" * 5000]
)
def test_loads_refuses_non_states(text: str) -> None:
    """DESIGN.md: loads refuses text that is not a JSON state object with InvalidStateError."""
    with pytest.raises(InvalidStateError):
        binocle.loads(text)


@pytest.mark.parametrize("value", [None, 42, ["x"], {"format": "binocle-state"}])
def test_loads_refuses_non_text(value: Any) -> None:
    """DESIGN.md "Errors": loads of something that is not text raises InvalidStateError."""
    with pytest.raises(InvalidStateError):
        binocle.loads(value)


def test_loads_refuses_a_tampered_finished_hand() -> None:
    """RULES.md §5: a changed hand result or score after a played hand is refused."""
    rng = random.Random(7)
    s = play_hand(binocle.new_game("cutthroat", seed=23), rng)
    assert s.results and s.phase is Phase.DEAL
    doc = json.loads(binocle.dumps(s))
    doc["state"]["results"][0]["delta"][1] += 10
    with pytest.raises(InvalidStateError, match="results"):
        binocle.loads(json.dumps(doc))
    doc = json.loads(binocle.dumps(s))
    doc["state"]["scores"][0] -= 10
    with pytest.raises(InvalidStateError, match="scores"):
        binocle.loads(json.dumps(doc))


# ---------------------------------------------------------------------------
# Random playouts: every invariant at every step (DESIGN.md "Quality bar")


@given(
    seed=st.integers(0, 2**31), dealer=st.integers(0, 2), min_bid=st.sampled_from([100, 250, 300])
)
@settings(max_examples=8, deadline=None)
def test_random_games_keep_every_invariant(seed: int, dealer: int, min_bid: int) -> None:
    """RULES.md §1, §5: along random games check_state holds at every step; every card is
    accounted for; each played hand distributes exactly 250 trick points; the scores are the
    sum of the hands' deltas; illegal candidates are refused with the state unchanged."""
    rng = random.Random(seed)
    p = binocle.profile("cutthroat", min_bid=min_bid, easier_tricks=bool(seed % 2))
    s = binocle.new_game(p, seed=seed, dealer=dealer)
    hands = 0
    while not binocle.is_over(s) and hands < 3:
        check_state(s)
        if s.phase is not Phase.DEAL:
            cards = [x for h in s.hands for x in h] + [x for _, x in s.trick]
            cards += [x for t in s.played for _, x in t] + list(s.discards)  # type: ignore[attr-defined]
            if s.phase is Phase.BIDDING:
                cards += list(s.widow)  # type: ignore[attr-defined]
            assert sorted(cards) == sorted(binocle.pack())
        legal = binocle.legal_actions(s)
        if s.phase is Phase.BIDDING and rng.random() < 0.7:
            # keep the bids low, so that the hands are mostly played to the end
            action = legal[0] if s.bid is not None else legal[1]  # type: ignore[attr-defined]
        else:
            action = rng.choice(legal)
        wrong = Action(Kind.PLAY, card=binocle.CARDS[rng.randrange(32)])
        if wrong not in legal:
            assert_refused(s, wrong, IllegalActionError, "")
        after = binocle.apply(s, action)
        if len(after.results) > len(s.results):
            hands += 1
            r = after.results[-1]
            if r.outcome == "played":
                assert sum(r.tricks) == 250
            total = tuple(sum(x.delta[i] for x in after.results) for i in range(3))
            assert after.scores == total == binocle.score(after)
        s = after
    check_state(s)


def test_state_builder_gives_the_constructors_frozen_state() -> None:
    """DESIGN.md "Speed": transitions build states with a positional builder; what it
    builds is the very value the class's constructor builds, frozen and hashable."""
    from binocle.core import state_builder

    s = binocle.new_game("cutthroat", seed=3)
    cls = type(s)
    args = [getattr(s, name) for name in cls.fields()]
    built = state_builder(cls)(*args)
    assert type(built) is cls and built == cls(*args) == s
    assert hash(built) == hash(s) and built._legal is None
    with pytest.raises(AttributeError):
        built.phase = binocle.Phase.OVER  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del built.hands  # type: ignore[misc]


class _Marked(CutthroatState):
    """A state class of one more field, written in Python over a profile's (compiled or
    not): the pattern every state class follows."""

    __slots__ = ("mark",)
    _FIELDS: ClassVar[tuple[str, ...]] = (*CutthroatState._FIELDS, "mark")

    def __init__(
        self, profile: Any, seed: Any, first_dealer: Any, hand_number: Any, phase: Any,
        dealer: Any, current_player: Any, trump: Any, hands: Any, trick: Any, scores: Any,
        results: Any, history: Any, auction: Any, taken: Any, counters: Any, played: Any,
        game_winner: Any, mark: int,
    ) -> None:  # fmt: skip
        raise AssertionError("frozen_state gives the class its constructor")


frozen_state(_Marked)


def test_a_state_class_written_over_another_is_a_frozen_value_in_either_build() -> None:
    """A state class names its fields once (``_FIELDS``) and :func:`frozen_state` makes it
    a frozen value: built by its constructor or by state_builder, equal by value (the
    history aside), hashable, refusing to set or delete a field, and read back by
    ``replace``."""
    from binocle.core import state_builder

    s = binocle.new_game("cutthroat", seed=3)
    args = [getattr(s, name) for name in CutthroatState.fields()]
    marked = _Marked(*args, 7)
    assert _Marked.fields()[-1] == "mark" and marked.mark == 7 and marked.hands == s.hands
    assert marked == state_builder(_Marked)(*args, 7) and marked != _Marked(*args, 8)
    other_history = list(args)
    other_history[CutthroatState.fields().index("history")] = (
        None,
        binocle.parse_action(s, "claim"),
        0,
    )
    assert marked != s and marked == _Marked(*other_history, 7)
    assert hash(marked) == hash(_Marked(*other_history, 7))
    with pytest.raises(AttributeError):
        marked.mark = 8  # type: ignore[misc]
    with pytest.raises(AttributeError):
        marked.scores = (1, 2, 3)  # type: ignore[misc]
    again = marked.replace(mark=9, scores=(1, 2, 3))
    assert type(again) is _Marked and (again.mark, again.scores) == (9, (1, 2, 3))
    assert again.hands is marked.hands and marked.mark == 7
    with pytest.raises(TypeError, match="no field 'marks'"):
        marked.replace(marks=1)


def test_deals_from_the_seed_are_pythons_shuffle() -> None:
    """Quickstart, dealing: the deal drawn for hand n of a game seeded s is the sorted
    pack shuffled by ``random.Random("binocle:s:n")``, so deals stay the same."""
    for name in ("cutthroat", "classic(pack=64)", "three-handed"):
        for seed in (0, 1, 7, 2**40):
            s = binocle.start(name, seed=seed)
            deck = list(binocle.pack(s.profile.pack_size))
            random.Random(f"binocle:{seed}:0").shuffle(deck)
            assert binocle.legal_actions(s)[0].cards == tuple(deck)


@pytest.mark.parametrize("size", [0, 1, 2, 5, 12])
def test_play_helpers_give_one_action_per_distinct_card_for_hands_of_any_size(
    size: int,
) -> None:
    """The plays offered for a hand are one ``play`` per distinct card, in the hand's
    order (common rules: a player plays one of his cards; the two copies of a card are
    the same play), then ``claim`` where the profile offers it: a tuple for an empty or
    one-card hand too."""
    from binocle.actions import CLAIM, PLAY, plays_and_claim, plays_of

    rng = random.Random(size)
    hand = tuple(sorted(rng.choice(binocle.CARDS[:24]) for _ in range(size)))
    distinct = tuple(dict.fromkeys(hand))
    assert plays_of(hand) == tuple(PLAY[c] for c in distinct)
    assert plays_and_claim(hand) == (*(PLAY[c] for c in distinct), CLAIM)
    assert plays_of(()) == () and plays_and_claim(()) == (CLAIM,)


@given(
    profile=st.sampled_from(["cutthroat", "classic", "three-handed"]),
    seeds=st.tuples(st.integers(0, 2**32), st.integers(0, 2**32)),
    steps=st.tuples(st.integers(0, 40), st.integers(0, 40)),
    data=st.data(),
)
@settings(max_examples=30, deadline=None)
def test_replace_changes_the_fields_named_and_nothing_else(
    profile: str, seeds: tuple[int, int], steps: tuple[int, int], data: st.DataObject
) -> None:
    """A state is a frozen value (docs: Speed, "States written out"): ``replace`` gives a
    copy whose fields named hold the values given (here another position's, of the
    types the fields take in either build) and whose other fields are the very objects
    of the state (ints equal), leaves the state as it was, and refuses a name that is no field;
    replacing fields by their own values gives an equal state."""

    def position(seed: int, count: int) -> binocle.GameState:
        s = binocle.new_game(profile, seed=seed)
        rng = random.Random(seed)
        for _ in range(count):
            if binocle.is_over(s):
                break
            s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
        return s

    s, other = position(seeds[0], steps[0]), position(seeds[1], steps[1])
    fields = type(s).fields()
    assert fields[: len(binocle.GameState.fields())] == binocle.GameState.fields()
    before = binocle.dumps(s)
    chosen = data.draw(st.lists(st.sampled_from(fields), unique=True, max_size=4))
    t = s.replace(**{name: getattr(other, name) for name in chosen})
    for name in fields:
        got, given = getattr(t, name), getattr(other if name in chosen else s, name)
        # Compiled, an int field is stored as a C integer: equal, not the same object.
        assert got == given and (type(given) is int or got is given)
    assert binocle.dumps(s) == before and type(t) is type(s)
    same = s.replace(**{n: getattr(s, n) for n in chosen})
    assert same == s and hash(same) == hash(s) and same is not s
    with pytest.raises(TypeError, match="no field 'not_a_field'"):
        s.replace(not_a_field=1)


@pytest.mark.parametrize("name", ["cutthroat", "classic", "three-handed"])
def test_check_state_refuses_a_hand_out_of_order(name: str) -> None:
    """Every profile keeps each hand sorted (the engine finds a card in a hand by
    bisection): check_state passes the engine's states and refuses one whose hand
    was put out of order by hand."""
    from binocle.testing import ConsistencyError, check_state

    s = binocle.new_game(name, seed=11)
    s = binocle.apply(s, binocle.legal_actions(s)[0])  # dealt
    check_state(s)
    hands = (tuple(reversed(s.hands[0])), *s.hands[1:])
    changes: dict[str, Any] = {"hands": hands}
    if getattr(s, "concealed", None) == s.hands:  # nothing on the table: the same cards
        changes["concealed"] = hands
    with pytest.raises(ConsistencyError, match="seat 0's hand is not sorted"):
        check_state(s.replace(**changes))
    if name == "classic":
        # The classic concealed cards alone out of order: the profile's check says so.
        with pytest.raises(ConsistencyError, match="seat 0's concealed cards are not sorted"):
            check_state(s.replace(concealed=hands))
