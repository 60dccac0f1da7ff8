"""The partnership profile (RULES.md §4b): four hands in two sides, partners opposite,
built on the cutthroat rules; golden counts (perft) of its move generator, its options,
scoring by side, the passed cards known to the partners only."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import GameState, IllegalActionError, Kind, Phase, RuleCode, Suit
from binocle.rules.points import COUNTER_POINTS
from binocle.rules.tricks import trick_winner
from binocle.testing import perft
from helpers import run

P = "partnership"


def to_trump(profile: object = P, seed: int = 1, dealer: int = 0) -> GameState:
    """The eldest bids 250, the three others pass: the eldest names trump."""
    s = binocle.new_game(profile, seed=seed, dealer=dealer)
    return run(s, "bid 250", "pass", "pass", "pass")


def random_hand(s: GameState, rng: random.Random) -> GameState:
    """``s`` played on with random legal actions (never giving up) to the hand's end."""
    n = len(s.results)
    while len(s.results) == n and not binocle.is_over(s):
        legal = [a for a in binocle.legal_actions(s) if a.kind is not Kind.CONCEDE]
        bids = [a for a in legal if a.kind is Kind.BID]
        # Low bids keep random hands realistic: now and then a bid of 250..300.
        if bids and rng.random() < 0.7 and Kind.PASS in {a.kind for a in legal}:
            legal = [a for a in legal if a.kind is Kind.PASS]
        elif bids:
            legal = bids[:6]
        s = binocle.apply(s, rng.choice(legal))
    return s


# -- deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_twelve_cards_each_three_at_a_time_from_the_dealers_left(dealer: int) -> None:
    """§4b Deal: 12 each, three at a time clockwise from the dealer's left, no widow; the
    eldest (dealer's left) speaks first."""
    deck = list(binocle.pack())
    random.Random(dealer).shuffle(deck)
    s = binocle.new_game(P, deck=deck, dealer=dealer)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        mine = [deck[12 * r + 3 * k + j] for r in range(4) for j in range(3)]
        assert s.hands[seat] == tuple(sorted(mine))
    assert s.current_player == (dealer + 1) % 4 and s.widow == () and s.phase is Phase.BIDDING
    assert binocle.profile(P).sides == ((0, 2), (1, 3))


# -- golden counts --------------------------------------------------------------------------


def ref_bidding_sequences(depth: int, min_bid: int, max_bid: int, dealer_bids: bool) -> int:
    """Sequences of calls of length ``depth`` under §4b Bidding, counted from the rule
    text: eldest first, a pass is final, bids rise by 10 (jumps allowed), the bidding ends
    when three have passed; with ``dealer_bids`` (all_pass=dealer) the dealer may not pass
    after three passes."""

    def count(d: int, seat: int, passed: frozenset[int], high: int | None) -> int:
        if d == 0:
            return 1
        start = min_bid if high is None else high + 10
        options = [(passed, b) for b in range(start, max_bid + 1, 10)]
        if not (dealer_bids and high is None and len(passed) == 3):
            options.append((passed | {seat}, high))
        total = 0
        for new_passed, new_high in options:
            if len(new_passed) == 4 or (len(new_passed) == 3 and new_high is not None):
                assert d == 1, "this model stops at the end of the bidding"
                total += 1
                continue
            nxt = (seat + 1) % 4
            while nxt in new_passed:
                nxt = (nxt + 1) % 4
            total += count(d - 1, nxt, new_passed, new_high)
        return total

    return count(depth, 1, frozenset(), None)


def test_perft_opening() -> None:
    """§4b Bidding: pass or one of 276 bids (250..3000); after bid number i the next player
    has pass and 275 - i higher bids (no forced bid at two passes, unlike cutthroat)."""
    s = binocle.new_game(P, seed=1)
    n = (3000 - 250) // 10 + 1
    assert perft(s, 1) == 1 + n == 277
    assert perft(s, 2) == (1 + n) + n * (n + 1) // 2 == 38503


@pytest.mark.parametrize(("all_pass", "golden"), [
    ("redeal", [7, 28, 84, 210, 468]),
    ("dealer", [7, 28, 84, 209, 467]),
])  # fmt: skip
def test_perft_bidding_with_a_low_ceiling(all_pass: str, golden: list[int]) -> None:
    """§4b Bidding with max_bid 300: the counts follow the rule text to depth 4 (the
    bidding's end); depth 5 reaches trump (4 suits) and thrown-in deals."""
    p = binocle.profile(P, max_bid=300, all_pass=all_pass)
    s = binocle.new_game(p, seed=1)
    got = [perft(s, d) for d in (1, 2, 3, 4, 5)]
    assert got[:4] == [
        ref_bidding_sequences(d, 250, 300, all_pass == "dealer") for d in (1, 2, 3, 4)
    ]
    assert got == golden


@pytest.mark.parametrize("passing", [3, 4])
def test_perft_trump_then_passing(passing: int) -> None:
    """§4b Trump and passing: after trump (4 choices) the bidder's partner passes one card
    of each distinct kind he holds; the bidder then has his 12 cards plus the one given."""
    s = to_trump(binocle.profile(P, passing=passing), seed=5)
    partner = (s.bidder + 2) % 4
    kinds = len(set(s.hands[partner]))
    assert perft(s, 1) == 4
    assert perft(s, 2) == 4 * kinds
    assert perft(s, 3) == 4 * sum(
        len(set(s.hands[partner]) - ({c} if s.hands[partner].count(c) == 1 else set()))
        for c in set(s.hands[partner])
    )
    assert [perft(s, d) for d in (1, 2, 3)] == [4, 48, 528]


def test_perft_first_lead() -> None:
    """§4b Play: the bidder leads any of his distinct cards or gives up; each follower's
    count is fixed by the cutthroat trick rules (pinned)."""
    s = run(to_trump(seed=2), "trump H", "meld", "meld", "meld", "meld")
    assert s.phase is Phase.PLAY and s.current_player == s.bidder
    assert perft(s, 1) == len(set(s.hands[s.bidder])) + 1
    assert [perft(s, d) for d in (1, 2, 3)] == [12, 23, 325]


# -- bidding --------------------------------------------------------------------------------


def test_three_passes_end_the_bidding_and_jump_bids_are_allowed() -> None:
    """§4b Bidding and Resolutions: a jump bid is legal; a pass is final; the bidding ends
    when three have passed and the bidder names trump."""
    s = run(binocle.new_game(P, seed=3), "bid 250", "bid 400", "pass")
    assert s.current_player == 0 and s.bid == 400 and s.bidder == 2
    s = run(s, "pass", "pass")
    assert s.phase is Phase.TRUMP and s.current_player == 2 and s.bidder == 2
    with pytest.raises(IllegalActionError) as err:
        binocle.apply(run(binocle.new_game(P, seed=3), "bid 300"), "bid 300")
    assert err.value.rule is RuleCode.BID_TOO_LOW


@pytest.mark.parametrize("dealer", [0, 3])
def test_all_pass_throws_the_hand_in(dealer: int) -> None:
    """§4b Bidding, Resolutions: four passes throw the hand in; no score changes and the
    deal passes to the left."""
    s = run(binocle.new_game(P, seed=4, dealer=dealer), "pass", "pass", "pass", "pass")
    assert s.phase is Phase.DEAL and s.dealer == (dealer + 1) % 4
    assert s.results[-1].outcome == "thrown-in" and s.scores == (0, 0, 0, 0)


def test_all_pass_dealer_makes_the_dealer_bid() -> None:
    """§4b option all_pass=dealer: after three passes the dealer may not pass; he bids at
    least min_bid (any legal bid); his pass is refused and changes nothing."""
    s = run(binocle.new_game(binocle.profile(P, all_pass="dealer"), seed=4), "pass", "pass", "pass")
    assert s.current_player == 0 == s.dealer
    legal = binocle.legal_actions(s)
    assert all(a.kind is Kind.BID for a in legal) and str(legal[0]) == "bid 250"
    with pytest.raises(IllegalActionError) as err:
        binocle.apply(s, "pass")
    assert err.value.rule is RuleCode.BID_FORCED and "dealer" in str(err.value)
    s = run(s, "bid 320")
    assert s.phase is Phase.TRUMP and s.bidder == 0 and s.bid == 320


# -- passing --------------------------------------------------------------------------------


@pytest.mark.parametrize("passing", [3, 4])
def test_partner_passes_then_bidder_passes_back(passing: int) -> None:
    """§4b Trump and passing: after trump the partner passes ``passing`` cards to the
    bidder, then the bidder passes as many back (he may pass a card just received); the
    melds are those of the hands after passing."""
    s = to_trump(binocle.profile(P, passing=passing), seed=6)
    bidder, partner = s.bidder, (s.bidder + 2) % 4
    s = run(s, "trump S")
    assert s.phase is Phase.DISCARD and s.current_player == partner
    sent = list(s.hands[partner][:passing])
    s = run(s, *(f"give {c}" for c in sent))
    assert s.current_player == bidder and len(s.hands[bidder]) == 12 + passing
    back = [sent[0], *[c for c in s.hands[bidder] if c not in sent][: passing - 1]]
    before = Counter(s.hands[partner])
    s = run(s, *(f"give {c}" for c in back))
    assert s.phase is Phase.MELD and s.current_player == bidder
    assert [len(h) for h in s.hands] == [12, 12, 12, 12]
    assert Counter(s.hands[partner]) == before + Counter(back)
    assert s.given == (*sent, *back)
    s = run(s, "meld")
    assert s.melds[bidder] == binocle.meld(s.hands[bidder], Suit.SPADES, P)


def test_no_passing_goes_straight_to_the_melds_and_give_is_refused() -> None:
    """§4b option passing=0 (the default): trump, then the melds; a give is refused."""
    s = run(to_trump(), "trump D")
    assert s.phase is Phase.MELD and s.current_player == s.bidder
    with pytest.raises(IllegalActionError) as err:
        binocle.apply(s, f"give {s.hands[s.bidder][0]}")
    assert err.value.rule is RuleCode.OPTION_OFF


def test_passed_cards_are_known_to_the_partners_only() -> None:
    """§4b Trump and passing: a card passed is known to the two partners only: the other
    side sees that cards were passed (how many), never which, in the view, its log and
    its history."""
    s = run(to_trump(binocle.profile(P, passing=3), seed=7), "trump C")
    partner = (s.bidder + 2) % 4
    sent = s.hands[partner][-3:]
    s = run(s, *(f"give {c}" for c in sent))
    s = run(s, *(f"give {c}" for c in s.hands[s.bidder][:3]))
    for seat in range(4):
        view = binocle.observe(s, seat)
        assert view.get("given_count") == 6
        if seat % 2 == s.bidder % 2:
            assert view.get("given") == s.given
        else:
            assert view.get("given") is None
            gives = [a for a, _ in view.history if a.kind is Kind.GIVE]
            assert len(gives) == 6 and all(a.card is None for a in gives)
            assert [line.split(": ")[1] for line in view.log if "give" in line] == ["give"] * 6
            hidden = set(s.given) - set(view.hand)
            assert not any(str(c) in str(view).split("hand:")[0] for c in hidden)


def swap_between(deck: list, dealer: int, a: int, b: int, pairs: list[tuple[int, int]]) -> list:
    """``deck`` with cards exchanged between the deals of seats ``a`` and ``b``."""
    p = binocle.profile(P)
    pos: dict[int, list[int]] = {}
    at = 0
    for target, n in p.deal_schedule(dealer):
        pos.setdefault(int(target), []).extend(range(at, at + n))
        at += n
    out = list(deck)
    for i, j in pairs:
        x, y = pos[a][i], pos[b][j]
        out[x], out[y] = out[y], out[x]
    return out


@given(
    seed=st.integers(0, 10**9),
    seat=st.integers(0, 3),
    dealer=st.integers(0, 3),
    pairs=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), min_size=1, max_size=6),
    bidder_offset=st.integers(0, 3),
)
@settings(max_examples=30, deadline=None)
def test_views_do_not_depend_on_hidden_cards(
    seed: int, seat: int, dealer: int, pairs: list[tuple[int, int]], bidder_offset: int
) -> None:
    """Two deals that differ only in cards exchanged between the two opponents of a seat
    give that seat equal views through the bidding, trump and the passing (the other
    side's passed cards are face down), four seats and passing=3."""
    p = binocle.profile(P, passing=3)
    deck = list(binocle.pack())
    random.Random(seed).shuffle(deck)
    other = swap_between(deck, dealer, (seat + 1) % 4, (seat + 3) % 4, pairs)
    s1 = binocle.new_game(p, deck=deck, dealer=dealer)
    s2 = binocle.new_game(p, deck=other, dealer=dealer)
    assert binocle.observe(s1, seat) == binocle.observe(s2, seat)
    eldest = (dealer + 1) % 4
    bidder = (eldest + bidder_offset) % 4
    for k in range(4):
        call = "bid 250" if (eldest + k) % 4 == bidder else "pass"
        s1, s2 = binocle.apply(s1, call), binocle.apply(s2, call)
        assert binocle.observe(s1, seat) == binocle.observe(s2, seat)
    s1, s2 = binocle.apply(s1, "trump H"), binocle.apply(s2, "trump H")
    rng = random.Random(seed)
    for _ in range(6):
        giver = s1.current_player
        assert giver is not None
        common = sorted((Counter(s1.hands[giver]) & Counter(s2.hands[giver])).elements())
        c = rng.choice(common)
        s1, s2 = binocle.apply(s1, f"give {c}"), binocle.apply(s2, f"give {c}")
        assert binocle.observe(s1, seat) == binocle.observe(s2, seat)
    assert s1.phase is Phase.MELD


# -- scoring and the end of the game --------------------------------------------------------


@given(seed=st.integers(0, 10**6), double_set=st.booleans())
@settings(max_examples=25, deadline=None)
def test_a_played_hand_is_scored_by_side(seed: int, double_set: bool) -> None:
    """§4b Scoring a hand: each side counts its counters and the last trick; a side's meld
    (its two players' together) counts only if it won a counter; the bidding side makes
    its bid with meld + tricks, else loses the bid (twice with double_set); both partners
    show the side's figures; 250 from tricks in every hand."""
    p = binocle.profile(P, double_set=double_set, max_hands=1)
    final = random_hand(binocle.new_game(p, seed=seed), random.Random(seed))
    r = final.results[-1]
    if r.outcome != "played":
        return
    s = binocle.undo(final)
    last = final.actions()[-1]
    assert binocle.apply(s, last).results[-1] == r
    trick = (*s.trick, (s.current_player, last.card))
    w = trick[trick_winner([c for _, c in trick], s.trump)][0]
    pts = sum(COUNTER_POINTS[c] for _, c in trick)
    taken = [s.taken[i] + (pts if i == w else 0) for i in range(4)]
    counters = [s.counters[i] + (pts // 10 if i == w else 0) for i in range(4)]
    tricks = [taken[k] + taken[k + 2] + (10 if w % 2 == k else 0) for k in (0, 1)]
    assert sum(tricks) == 250
    melds = [s.melds[k].total + s.melds[k + 2].total for k in (0, 1)]  # type: ignore[union-attr]
    meld = [melds[k] if counters[k] + counters[k + 2] else 0 for k in (0, 1)]
    b = r.bidder % 2  # type: ignore[operator]
    made = meld[b] + tricks[b] >= r.bid  # type: ignore[operator]
    delta = [meld[k] + tricks[k] for k in (0, 1)]
    if not made:
        delta[b] = -r.bid * (2 if double_set else 1)  # type: ignore[operator]
    assert r.made is made
    assert r.tricks == (tricks[0], tricks[1]) * 2
    assert r.delta == (delta[0], delta[1]) * 2


def test_giving_up_costs_the_bid_once_and_the_others_score_their_meld() -> None:
    """§4b Giving up and Resolutions: the bidding side loses its bid once, even with
    double_set; the other side scores its meld (no counter needed)."""
    p = binocle.profile(P, double_set=True)
    s = run(to_trump(p, seed=8), "trump S", "meld", "meld", "meld", "meld")
    s = run(s, "concede")
    r = s.results[-1]
    other = [s1 for s1 in range(4) if s1 % 2 != r.bidder % 2]  # type: ignore[operator]
    side_meld = sum(m.total for m in (binocle.undo(s).melds[i] for i in other))  # type: ignore[union-attr]
    assert r.outcome == "conceded" and r.made is False
    for seat in range(4):
        mine = seat % 2 == r.bidder % 2  # type: ignore[operator]
        assert r.delta[seat] == (-250 if mine else side_meld)
    assert s.scores == r.delta


def test_only_the_bidder_may_give_up() -> None:
    """§4b Giving up: the bidding side gives up through its bidder, before the first lead."""
    s = run(to_trump(seed=8), "trump S", "meld", "meld", "meld", "meld")
    assert binocle.legal_actions(s)[-1] == binocle.parse_action(s, "concede")
    s = run(s, f"play {s.hands[s.bidder][0]}")
    assert all(a.kind is not Kind.CONCEDE for a in binocle.legal_actions(s))


@given(seed=st.integers(0, 10**6))
@settings(max_examples=10, deadline=None)
def test_the_first_side_to_the_target_wins(seed: int) -> None:
    """§4b Winning: the game ends after a hand in which a side reaches the target; if both
    do, the bidding side wins; partners always show the same score."""
    p = binocle.profile(P, target=300, max_hands=40)
    rng = random.Random(seed)
    s = binocle.new_game(p, seed=seed)
    while not binocle.is_over(s):
        s = random_hand(s, rng)
        assert s.scores[0] == s.scores[2] and s.scores[1] == s.scores[3]
    r = s.results[-1]
    w = binocle.winner(s)
    if r.game_end == "target":
        reached = [k for k in (0, 1) if s.scores[k] >= 300]
        assert w in reached
        if len(reached) == 2:
            assert w == r.bidder % 2  # type: ignore[operator]


def test_options_are_checked() -> None:
    """§4b Options: passing is 0, 3 or 4; all_pass redeal or dealer; read from text."""
    p = binocle.profile("partnership(passing=4,all_pass=dealer,double_set=true)")
    assert (p.passing, p.all_pass, p.double_set) == (4, "dealer", True)  # type: ignore[attr-defined]
    assert binocle.profile(str(p)) == p
    for bad in ("passing=2", "all_pass=nobody", "double_set=3", "min_bid=255"):
        with pytest.raises(binocle.UnknownProfileError):
            binocle.profile(f"partnership({bad})")
