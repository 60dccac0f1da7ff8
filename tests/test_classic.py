"""The classic profile, driven through the public API: RULES.md §2 (two-handed Binocle, seed 002).

Scenario positions are dealt from decks built by hand (:func:`deck_for`) and played
with :func:`binocle.apply`; random play-outs check the rules that hold at every step.
Seat 0 deals in every scenario, so seat 1 is the pone and leads the first trick.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Card, GameState, IllegalActionError, InvalidStateError, Kind, Phase, Suit
from binocle.actions import Action, deal
from binocle.cards import pack, parse_card, parse_cards
from binocle.profiles.classic import ClassicState
from binocle.rules.classic_melds import MeldTable, announce, legal_announcements
from binocle.testing import check_consistency, check_state, perft
from helpers import last_trick_bonus, texts

DEALER, PONE = 0, 1

# --- independent reference of the rules of RULES.md §1-§2 ---------------------------------------

ORDER = "ATKQJ987"  # RULES.md §1: rank, high to low (8 and 7 in the 64-card pack)
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}  # RULES.md §1, classic


def points(cards: Iterable[Card]) -> int:
    return sum(POINTS.get(str(c)[0], 0) for c in cards)


def strength(c: Card) -> int:
    return -ORDER.index(str(c)[0])


def follower_wins(lead: Card, follow: Card, trump: Suit) -> bool:
    """RULES.md §2: same suit, the higher (identical: the leader); trump beats plain; else the lead."""
    if follow.suit == lead.suit:
        return strength(follow) > strength(lead)
    return follow.suit == trump


def strict_allowed(hand: Iterable[Card], lead: Card, trump: Suit) -> set[Card]:
    """RULES.md §2 after the stock: follow suit and win if able; void, trump; else anything."""
    hand = set(hand)
    follow = {c for c in hand if c.suit == lead.suit}
    if follow:
        higher = {c for c in follow if strength(c) > strength(lead)}
        return higher or follow
    return {c for c in hand if c.suit == trump} or hand


# --- building and driving positions ----------------------------------------------------------------


def classic(s: GameState) -> ClassicState:
    assert isinstance(s, ClassicState)
    return s


def apply(s: ClassicState, action: Action | str) -> ClassicState:
    """:func:`binocle.apply`, typed for the classic profile."""
    return classic(binocle.apply(s, action))


def new_game(profile: object, **kwargs: object) -> ClassicState:
    """:func:`binocle.new_game`, typed for the classic profile."""
    return classic(binocle.new_game(profile, **kwargs))  # type: ignore[arg-type]


def _junk_first(c: Card) -> tuple[int, int]:
    """Filler order: Nines (Eights, Sevens), then Tens, Aces, Jacks, Queens, Kings; clubs first."""
    return ("987TAJQK".index(str(c)[0]), -int(c.suit))


def deck_for(
    pone: str, dealer: str, turn_up: str, stock: str = "", *, size: int = 48
) -> tuple[Card, ...]:
    """A deck that deals ``pone`` and ``dealer``, turns up ``turn_up`` and stacks ``stock`` on top.

    Hands of fewer than 12 cards are filled, pone first, and the stock is completed, with
    the pack's remaining cards in :func:`_junk_first` order.  The deal follows RULES.md §2:
    four at a time for three rounds, pone first; the 25th card turned up; the rest the stock.
    """
    rest = sorted(pack(size), key=_junk_first)

    def take(text: str) -> list[Card]:
        out = []
        for c in parse_cards(text):
            rest.remove(c)
            out.append(c)
        return out

    p, d, t, top = take(pone), take(dealer), take(turn_up), take(stock)
    assert len(p) <= 12 and len(d) <= 12 and len(t) == 1
    while len(p) < 12:
        p.append(rest.pop(0))
    while len(d) < 12:
        d.append(rest.pop(0))
    deck = [*p[0:4], *d[0:4], *p[4:8], *d[4:8], *p[8:12], *d[8:12], *t, *top, *rest]
    assert sorted(deck) == sorted(pack(size))
    return tuple(deck)


def game(
    pone: str, dealer: str, turn_up: str, stock: str = "", *, profile: str = "classic"
) -> ClassicState:
    """A new game, seat 0 dealing, from :func:`deck_for`."""
    size = binocle.profile(profile).pack_size
    return new_game(profile, deck=deck_for(pone, dealer, turn_up, stock, size=size))


def offered_melds(s: GameState) -> list[str]:
    return [t for t in texts(s) if t.startswith("meld")]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def with_cards(hand: Iterable[Card], extra: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted((*hand, *extra)))


def without(hand: Iterable[Card], text: str) -> tuple[Card, ...]:
    """``hand`` less one copy of each card of ``text``."""
    out = list(hand)
    for c in parse_cards(text):
        out.remove(c)
    return tuple(out)


def take_trick(
    s: ClassicState, lead: str | None = None, follow: str | None = None, keep: str = ""
) -> ClassicState:
    """The player to act leads and wins a stock-phase trick; the state where he announces.

    ``lead`` (``"9S"`` or ``"KS table"``) defaults to the first concealed card not in
    ``keep`` after which the other player has a losing card; ``follow`` defaults to the
    first card (never one of ``keep``) of the other player that loses.  With an explicit
    ``follow`` the trick may go either way.
    """
    leader = s.current_player
    assert s.phase is Phase.PLAY and leader is not None
    protected = set(parse_cards(keep))
    leads = [lead] if lead else [str(c) for c in dict.fromkeys(s.concealed[leader])]
    for text in leads:
        if lead is None and parse_card(text) in protected:
            continue
        t = apply(s, f"play {text}")
        if follow is not None:
            return apply(t, f"play {follow}")
        for a in binocle.legal_actions(t):
            if a.kind is Kind.PLAY and a.card not in protected:
                u = apply(t, a)
                if u.current_player == leader:
                    assert u.phase is Phase.ANNOUNCE
                    return u
    raise AssertionError(f"seat {leader} cannot win a trick here")


def advance(s: ClassicState, tricks: int, keep: str = "") -> ClassicState:
    """The player to act wins ``tricks`` stock-phase tricks, passing after each but the last."""
    for i in range(tricks):
        s = take_trick(s, keep=keep)
        if i < tricks - 1:
            s = apply(s, "pass")
    return s


def random_policy(s: ClassicState, rng: random.Random) -> Action:
    """A uniformly random legal action, never a claim."""
    return rng.choice([a for a in binocle.legal_actions(s) if a.kind is not Kind.CLAIM])


def play_hand(
    s: ClassicState, rng: random.Random
) -> Iterator[tuple[ClassicState, Action, ClassicState]]:
    """Play the hand of ``s`` at random to its end, yielding (before, action, after)."""
    hand = s.hand_number
    while s.phase in (Phase.PLAY, Phase.ANNOUNCE) and s.hand_number == hand:
        a = random_policy(s, rng)
        t = apply(s, a)
        yield s, a, t
        s = t


def last_state(steps: Iterable[tuple[ClassicState, Action, ClassicState]]) -> ClassicState:
    *_, (_, _, end) = steps
    return end


# --- deal and stock ----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.permutations(pack()), st.integers(0, 1))
def test_deal_pone_first_in_fours_and_the_turn_up(deck: list[Card], dealer: int) -> None:
    """RULES.md §2 Deal: four at a time for three rounds, pone first, 12 each; the 25th card is
    turned up and its suit is trump; the other 23 cards are the stock; the pone leads."""
    s = new_game("classic", deck=deck, dealer=dealer)
    pone = 1 - dealer
    assert s.hands[pone] == with_cards(deck[0:4] + deck[8:12] + deck[16:20], ())
    assert s.hands[dealer] == with_cards(deck[4:8] + deck[12:16] + deck[20:24], ())
    assert s.concealed == s.hands
    assert s.turn_up == deck[24] and s.trump == deck[24].suit
    assert s.stock == tuple(deck[25:]) and len(s.stock) == 23
    assert (s.phase, s.current_player, s.dealer, s.trick) == (Phase.PLAY, pone, dealer, ())
    dix = 10 if str(deck[24])[0] == "9" else 0
    assert s.meld_points[dealer] == dix and s.meld_points[pone] == 0
    assert s.dixes == (1 if dix else 0)
    assert s.tables == (MeldTable(), MeldTable())


@pytest.mark.parametrize("dealer", [0, 1])
def test_dix_of_the_turned_up_nine_scores_at_once(dealer: int) -> None:
    """RULES.md §2 Deal: if the turn-up is a Nine the dealer scores dix, 10, at once (and it
    counts in the hand's meld)."""
    deck = deck_for("AS", "AH", "9D")
    s = new_game("classic", deck=deck, dealer=dealer)
    assert s.trump is Suit.DIAMONDS and s.turn_up == parse_card("9D")
    assert s.meld_points[dealer] == 10 and s.meld_points[1 - dealer] == 0
    over = apply(s, "claim")  # the pone's wrong claim ends the hand at once
    assert over.results[-1].meld[dealer] == 10
    assert new_game("classic", deck=deck_for("AS", "AH", "TD")).meld_points == (0, 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_stock_drawn_top_first_winner_first_turn_up_last(seed: int) -> None:
    """RULES.md §2 Announcements: after the announcement the winner draws the top card of the
    stock and the loser the next; at the last draw the loser takes the turn-up, whatever card
    lies there by then (dix exchanges included).  Twelve draws empty the stock."""
    rng = random.Random(seed)
    s = new_game("classic", seed=seed, dealer=seed % 2)
    draws = 0
    for before, action, after in play_hand(s, rng):
        if before.phase is not Phase.ANNOUNCE:
            continue
        draws += 1
        w = before.current_player
        assert w is not None
        turn_up = before.turn_up
        assert turn_up is not None
        gained_w, gained_l = [before.stock[0]], before.stock[1:2]
        lost: list[Card] = []
        if action.kind is Kind.DIX:
            nine = parse_card("9" + str(before.trump))
            gained_w.append(turn_up)
            lost.append(nine)
            turn_up = nine
        if len(before.stock) == 1:
            gained_l = (turn_up,)
            assert after.stock == () and after.turn_up is None
        else:
            assert after.stock == before.stock[2:] and after.turn_up == turn_up
        expect_w = list(with_cards(before.hands[w], gained_w))
        for c in lost:
            expect_w.remove(c)
        assert after.hands[w] == tuple(expect_w)
        assert after.hands[1 - w] == with_cards(before.hands[1 - w], gained_l)
        assert after.current_player == w and after.phase is Phase.PLAY
    assert draws == 12


def test_deal_alternates_hand_to_hand() -> None:
    """RULES.md §1 Seats and §2 End of hand: after every hand the deal passes to the other
    player, who then is the dealer; the new pone leads.  A deal may be any deck order."""
    rng = random.Random(4)
    s = new_game("classic", seed=4, dealer=1)
    dealers = []
    for _ in range(4):
        dealers.append(s.dealer)
        assert s.current_player == 1 - s.dealer
        s = last_state(play_hand(s, rng))
        assert s.phase is Phase.DEAL and s.current_player is None
        assert binocle.legal_actions(s) == (binocle.legal_actions(s)[0],)
        assert s.dealer == 1 - dealers[-1]
        if len(dealers) == 2:  # an explicit deck order deals too
            deck = deck_for("KH QH", "AS", "JC")
            s = apply(s, deal(deck))
            assert s.hands[1 - s.dealer] == cards(
                " ".join(map(str, deck[0:4] + deck[8:12] + deck[16:20]))
            )
        else:
            s = apply(s, binocle.legal_actions(s)[0])
    assert dealers == [1, 0, 1, 0]
    assert s.hand_number == 5


# --- play while the stock lasts ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_stock_phase_play_is_free_and_strict_play_after(seed: int) -> None:
    """RULES.md §2: while the stock lasts any card may be played (concealed or from the
    table; no need to follow suit or trump); after the stock the second player must follow
    suit and win if able, void must trump, else any card; the leader plays anything."""
    rng = random.Random(seed)
    s = new_game("classic", seed=seed, dealer=seed % 2)
    strict_steps = 0
    for before, _, _ in play_hand(s, rng):
        if before.phase is not Phase.PLAY:
            continue
        p = before.current_player
        assert p is not None
        plays = [a for a in binocle.legal_actions(before) if a.kind is Kind.PLAY]
        hand_plays = {a.card for a in plays if a.source is None}
        table_plays = {a.card for a in plays if a.source == "table"}
        if before.stock or before.turn_up is not None:
            assert hand_plays == set(before.concealed[p])
            assert table_plays == set(before.tables[p].cards)
        else:
            strict_steps += 1
            assert table_plays == set() and before.concealed[p] == before.hands[p]
            if before.trick:
                lead = before.trick[0][1]
                assert before.trump is not None
                assert hand_plays == strict_allowed(before.hands[p], lead, before.trump)
            else:
                assert hand_plays == set(before.hands[p])
    assert strict_steps == 24


@pytest.mark.parametrize(
    ("lead", "follow", "turn_up", "follower_takes"),
    [
        ("AH", "TH", "JC", False),  # same suit: the higher wins
        ("TH", "AH", "JC", True),
        ("KH", "KH", "JC", False),  # identical: the leader
        ("AH", "9C", "JC", True),  # a trump beats a plain card
        ("9C", "AH", "JC", False),
        ("9C", "TC", "JC", True),  # two trumps: the higher
        ("AH", "AS", "JC", False),  # another plain suit loses to the lead
        ("9S", "AD", "JC", False),
    ],
)
def test_stock_phase_trick_winner(
    lead: str, follow: str, turn_up: str, follower_takes: bool
) -> None:
    """RULES.md §2 (and §1 Trick winner): both of one suit, the higher wins, identical cards
    the leader; a trump beats a plain card; a card of another plain suit loses to the lead.
    The winner takes the card points and announces next."""
    s = game(lead, follow, turn_up)
    s = apply(apply(s, f"play {lead}"), f"play {follow}")
    w = DEALER if follower_takes else PONE
    assert follower_wins(parse_card(lead), parse_card(follow), Suit.CLUBS) == follower_takes
    assert (s.phase, s.current_player, s.trick) == (Phase.ANNOUNCE, w, ())
    assert s.taken[w] == points(cards(f"{lead} {follow}")) and s.taken[1 - w] == 0
    assert s.last_trick == ((PONE, parse_card(lead)), (DEALER, parse_card(follow)))
    assert s.piles[w] == (parse_card(lead), parse_card(follow))


def test_second_player_need_not_follow_or_trump_while_the_stock_lasts() -> None:
    """RULES.md §2: the second player may play any card while the stock lasts."""
    s = game("AH 9S", "TH KH 9C AS QD JD 9D", "JC")
    s = apply(s, "play AH")
    plays = [t for t in texts(s) if t.startswith("play")]
    assert sorted(plays) == sorted(f"play {c}" for c in dict.fromkeys(s.concealed[DEALER]))
    for t in plays:  # a losing heart, a winning trump, a discard of another suit: all legal
        apply(s, t)


# --- the announcement step ----------------------------------------------------------------------


def test_only_the_winner_announces_once_then_both_draw() -> None:
    """RULES.md §2 Announcements: after winning a trick and before drawing, the winner (only
    he) may make ONE announcement; then the winner draws the top card and the loser the next."""
    s = game("KH QH 9S 9S", "KD QD 9D 9D", "JC", "AS TS")
    s = take_trick(s, "9S", "9D")
    assert (s.phase, s.current_player) == (Phase.ANNOUNCE, PONE)
    assert offered_melds(s) == ["meld marriage KH QH"]  # not the loser's KD QD
    before = s
    s = apply(s, "meld marriage KH QH")
    assert s.meld_points == (0, 20)
    assert s.hands[PONE] == with_cards(before.hands[PONE], cards("AS"))
    assert s.hands[DEALER] == with_cards(before.hands[DEALER], cards("TS"))
    assert s.tables[PONE].cards == cards("KH QH") and s.stock == before.stock[2:]
    assert (s.phase, s.current_player) == (Phase.PLAY, PONE)
    for again in ("meld marriage KH QH", "meld", "dix", "pass"):
        with pytest.raises(IllegalActionError, match="only after winning a trick"):
            apply(s, again)
    # The dealer wins the next trick: now he, and only he, may announce his marriage.
    s = take_trick(s, "9S", "AC")
    assert s.current_player == DEALER
    assert offered_melds(s) == ["meld marriage KD QD"]


def _twelfth_trick(pone: str, turn_up: str, keep: str) -> ClassicState:
    """The pone wins eleven tricks passing, then the twelfth: he is to announce before the last draw."""
    s = advance(game(pone, "", turn_up), 12, keep=keep)
    assert s.phase is Phase.ANNOUNCE and len(s.stock) == 1 and s.turn_up == parse_card(turn_up)
    return s


def test_the_loser_takes_the_turn_up_at_the_last_draw() -> None:
    """RULES.md §2: at the last draw the winner takes the last stock card and the loser the
    turn-up; then the stock is exhausted and play becomes strict."""
    s = _twelfth_trick("9H", "AH", keep="9H")
    last = s.stock[0]
    t = apply(s, "pass")
    assert t.hands[PONE] == with_cards(s.hands[PONE], [last])
    assert t.hands[DEALER] == with_cards(s.hands[DEALER], cards("AH"))
    assert (t.stock, t.turn_up, t.phase, t.current_player) == ((), None, Phase.PLAY, PONE)


def test_dix_at_the_twelfth_trick_gives_the_loser_the_nine() -> None:
    """RULES.md §2: the winner of trick 12 may still announce (here dix) before the last
    draw, and the loser then takes the turn-up whatever card lies there: the Nine."""
    s = _twelfth_trick("9H", "AH", keep="9H")
    assert "dix" in texts(s)
    t = apply(s, "dix")
    assert t.meld_points[PONE] == 10
    assert t.hands[PONE] == with_cards(without(s.hands[PONE], "9H"), [parse_card("AH"), s.stock[0]])
    assert t.hands[DEALER] == with_cards(s.hands[DEALER], cards("9H"))


def test_meld_at_the_twelfth_trick_then_no_more_announcements() -> None:
    """RULES.md §2: the winner of trick 12 may meld before the last draw; then the table
    cards go back to the hands and announcements end (no meld, dix or pass after the stock,
    and no dix after the last draw even for the holder of the Nine of trumps)."""
    s = _twelfth_trick("KH QH 9H", "AH", keep="KH QH 9H")
    assert "meld royal marriage KH QH" in texts(s) and "dix" in texts(s)
    t = apply(s, "meld royal marriage KH QH")
    assert t.meld_points[PONE] == 40
    assert t.tables == (MeldTable(), MeldTable()) and t.concealed == t.hands
    assert set(cards("KH QH 9H")) <= set(t.hands[PONE])
    assert (t.phase, t.current_player) == (Phase.PLAY, PONE)
    for late in ("dix", "meld", "meld royal marriage KH QH", "pass"):
        with pytest.raises(
            IllegalActionError, match="announcements end when the stock is exhausted"
        ):
            apply(t, late)
    with pytest.raises(IllegalActionError, match="table cards went back to the hands"):
        apply(t, "play KH table")
    # After trick 13 its winner is simply to lead again: no announcement phase.
    u = apply(t, binocle.legal_actions(t)[0])
    u = apply(u, binocle.legal_actions(u)[0])
    assert u.phase is Phase.PLAY and len(u.hands[0]) == len(u.hands[1]) == 11


# --- melds on the table -------------------------------------------------------------------------


def test_melded_cards_stay_the_players_visible_and_playable() -> None:
    """RULES.md §2: melded cards lie face up on the table; they are still the player's cards
    (in ``hands``), the opponent sees them, and they may be led or played from the table.  The
    same card in hand and on the table gives two legal plays with distinct texts; playing the
    table copy breaks its combination, and a broken marriage is not re-formed by a new King."""
    s = game("KH KH QH 9S 9S", "9D 9D 9C", "JC")
    s = apply(take_trick(s, "9S"), "meld marriage KH QH")
    assert s.tables[PONE].cards == cards("KH QH")
    assert s.concealed[PONE].count(parse_card("KH")) == 1
    assert s.hands[PONE].count(parse_card("KH")) == 2 and parse_card("QH") in s.hands[PONE]
    view = binocle.observe(s, DEALER)
    assert view.get("tables")[PONE] == cards("KH QH")
    assert view.get("table_melds")[PONE] == (("marriage", cards("KH QH"), True),)
    assert view.hand_sizes == (12, 12)
    plays = texts(s)
    assert "play KH" in plays and "play KH table" in plays and "play QH table" in plays
    assert "play QH" not in plays
    assert len(set(plays)) == len(plays)
    # The concealed King: the marriage on the table stays intact.
    hand = take_trick(s, "KH")
    assert hand.tables[PONE].melds[0].intact and hand.tables[PONE].cards == cards("KH QH")
    # The table King: it leaves the table, the marriage is broken.
    table = take_trick(s, "KH table")
    assert table.tables[PONE].cards == cards("QH")
    assert not table.tables[PONE].melds[0].intact
    assert table.hands[PONE].count(parse_card("KH")) == 1
    assert offered_melds(table) == []
    with pytest.raises(IllegalActionError, match="same class rule"):
        apply(table, "meld marriage KH + QH")


def _two_kings_of_hearts_on_the_table() -> ClassicState:
    """Four Kings, then a royal marriage with a new K♥: two K♥ on the table, different histories."""
    s = game("KS KH KH KD KC QH 9S 9S", "", "AH")
    s = apply(take_trick(s, "9S"), "meld four kings KC KD KH KS")
    s = take_trick(s, "9S")
    assert offered_melds(s) == ["meld royal marriage KH QH", "meld royal marriage QH + KH"]
    return apply(s, "meld royal marriage KH QH")


def test_table_copies_with_different_histories_are_distinct_plays() -> None:
    """RULES.md §2 items 2-3: which copy of a table card is played matters, since each breaks
    only the combinations it served in; so the two K♥ are two distinct legal plays."""
    s = _two_kings_of_hearts_on_the_table()
    kh = [a for a in binocle.legal_actions(s) if a.kind is Kind.PLAY and str(a.card) == "KH"]
    assert len(kh) == 2 and all(a.source == "table" for a in kh)
    broken = []
    for a in kh:
        t = apply(s, a)
        broken.append(tuple(m.combination.kind for m in t.tables[PONE].melds if not m.intact))
    assert sorted(broken) == [("four kings",), ("royal marriage",)]


def test_table_copies_with_different_histories_have_distinct_texts() -> None:
    """RULES.md §5 / DESIGN.md: every legal action has its own text that reads back
    (``play KH table N`` names the slot); the JSON record of such a game replays."""
    s = _two_kings_of_hearts_on_the_table()
    legal = binocle.legal_actions(s)
    assert len({str(a) for a in legal}) == len(legal)
    assert {"play KH table 1", "play KH table 4", "play KS table"} <= set(texts(s))
    check_state(s)
    for a in legal:
        assert binocle.parse_action(s, str(a)) == a
    for vague in ("play KH", "play KH table"):  # which copy? refused, saying so
        with pytest.raises(IllegalActionError, match=r"say which copy.*table 1.*table 4"):
            apply(s, vague)
    t = apply(s, [a for a in legal if a.kind is Kind.PLAY and a.number is not None][-1])
    assert binocle.loads(binocle.dumps(t)) == t


# --- the worked examples of seed 002 ------------------------------------------------------------------

EIGHT_COURTS = "KS KH KD KC QS QH QD QC"


def _best_total_by_announcements(s: ClassicState, keep: str) -> tuple[int, list[str]]:
    """The best meld total the announcing player reaches from ``s`` (in ANNOUNCE) and a line.

    Every legal meld announcement is tried, each after another trick won with a junk lead;
    positions are memoised on the combinations announced (the courts are single copies).
    """
    memo: dict[object, tuple[int, list[str]]] = {}

    def best(s: ClassicState) -> tuple[int, list[str]]:
        p = s.current_player
        assert p is not None
        key = tuple(sorted((m.combination.kind, m.combination.cards) for m in s.tables[p].melds))
        if key not in memo:
            out: tuple[int, list[str]] = (0, [])
            for a in binocle.legal_actions(s):
                if a.kind is Kind.MELD:
                    t = apply(s, a)
                    gain = t.meld_points[p] - s.meld_points[p]
                    sub, line = best(take_trick(t, keep=keep))
                    if gain + sub > out[0]:
                        out = (gain + sub, [str(a), *line])
            memo[key] = out
        return memo[key]

    return best(s)


# Pone: the eight courts and junk; his draws (every other stock card) are junk too.
_COURTS_STOCK = "9S 9H 9D 9H TS TS TD TD TC TC AS AS AD AD"


def _courts_game() -> ClassicState:
    s = game(f"{EIGHT_COURTS} 9C 9C 9S 9D", "AC AC JS JS JH JD JD JC JC", "AH", _COURTS_STOCK)
    return take_trick(s, keep=EIGHT_COURTS)


def test_four_kings_and_four_queens_are_worth_220_not_240() -> None:
    """RULES.md §2 Worked consequence (seed 002): four Kings and four Queens are worth at most
    220, not 240: every announcement needs a fresh card, so with 80 Kings and the marriages
    made, the fourth Queen scores either its marriage or the 60 Queens.  The best total over
    every sequence of real announcements is 220, as ``binocle.meld`` says."""
    total, line = _best_total_by_announcements(_courts_game(), keep=EIGHT_COURTS)
    assert total == 220 == binocle.meld(EIGHT_COURTS, "H", "classic").total
    assert len(line) == 5


def test_four_kings_then_four_marriages_leaves_four_queens_without_a_fresh_card() -> None:
    """RULES.md §2 item 1 (seed 002's 220 example): four Kings, then a marriage with each
    Queen; four Queens then has no fresh card and is refused, and the total is 80 + 100 = 180.
    Stopping at three marriages, the fourth Queen makes the 60 Queens: 80 + 80 + 60 = 220."""
    s = _courts_game()
    steps = [
        "meld four kings KC KD KH KS",
        "meld royal marriage QH + KH",
        "meld marriage QS + KS",
        "meld marriage QD + KD",
    ]
    for step in steps:
        s = take_trick(apply(s, step), keep=EIGHT_COURTS)
    assert s.meld_points[PONE] == 80 + 40 + 20 + 20
    fourth = offered_melds(s)
    assert fourth == ["meld marriage QC + KC", "meld four queens QC + QD QH QS"]
    queens = apply(s, "meld four queens QC + QD QH QS")
    assert queens.meld_points[PONE] == 220
    assert offered_melds(take_trick(queens, keep=EIGHT_COURTS)) == []
    married = take_trick(apply(s, "meld marriage QC + KC"), keep=EIGHT_COURTS)
    assert married.meld_points[PONE] == 180 and offered_melds(married) == []
    with pytest.raises(IllegalActionError, match="fresh card rule"):
        apply(married, "meld four queens + QC QD QH QS")


def test_royal_marriage_then_sequence() -> None:
    """RULES.md §2 item 2 (seed 002): a royal marriage (40) may grow into the sequence (150)
    by adding the fresh Ace, Ten and Jack of trumps: 190 in all."""
    s = game("AH TH KH QH JH 9S 9S 9C", "", "AH")
    s = apply(take_trick(s, "9S"), "meld royal marriage KH QH")
    s = take_trick(s, "9S")
    assert "meld sequence AH TH JH + KH QH" in offered_melds(s)
    s = apply(s, "meld sequence AH TH JH + KH QH")
    assert s.meld_points[PONE] == 190
    assert [m.combination.kind for m in s.tables[PONE].melds] == ["royal marriage", "sequence"]


def test_a_sequence_must_hold_the_whole_royal_marriage() -> None:
    """RULES.md §2 item 2: a melded royal marriage grows into the sequence only if it lies
    wholly inside it: its King with a new Queen (the marriage's Queen left out) is refused."""
    s = game("AH TH KH QH QH JH 9S 9S 9C", "", "AH")
    s = take_trick(apply(take_trick(s, "9S"), "meld royal marriage KH QH"), "9S")
    assert offered_melds(s) == ["meld sequence AH TH JH + KH QH"]
    with pytest.raises(IllegalActionError, match="same class rule"):
        apply(s, "meld sequence AH TH QH JH + KH")


def test_fresh_card_even_across_classes() -> None:
    """RULES.md §2 item 1: every announcement lays down a card from the concealed hand, even
    one whose cards lie on the table from combinations of another class (here Q♠ and J♦ from
    four Queens and four Jacks, with a second J♦ in hand)."""
    s = game("JS JH JD JD JC QS QH QD QC 9S 9S 9C", "", "AH")
    s = apply(take_trick(s, "9S"), "meld four jacks JS JH JD JC")
    s = apply(take_trick(s, "9S"), "meld four queens QS QH QD QC")
    s = take_trick(s, "9C")
    assert offered_melds(s) == ["meld binocle JD + QS"]
    with pytest.raises(IllegalActionError, match="fresh card rule"):
        apply(s, "meld binocle + JD QS")
    assert apply(s, "meld").meld_points[PONE] == 40 + 60 + 40


def test_no_marriage_out_of_a_melded_sequence() -> None:
    """RULES.md §2 item 2 (seed 002): once the sequence is melded, its King and Queen make no
    royal marriage (no fresh card), and a new Queen added to its King makes none either
    (same class); the new Queen may still serve in another class."""
    s = game("AH TH KH QH QH JH 9S 9S 9D", "", "AH")
    s = apply(take_trick(s, "9S"), "meld sequence AH JH KH QH TH")
    assert s.meld_points[PONE] == 150
    s = take_trick(s, "9S")
    assert "meld royal marriage QH + KH" not in offered_melds(s)
    with pytest.raises(IllegalActionError, match="same class rule"):
        apply(s, "meld royal marriage QH + KH")
    with pytest.raises(IllegalActionError, match="fresh card rule"):
        apply(s, "meld royal marriage + KH QH")


def test_broken_four_kings_is_not_re_formed() -> None:
    """RULES.md §2 item 2 (seed 002): four Kings melded, one of them played: a new King does
    not make four Kings again with the three left (nor eight Kings later)."""
    s = game("KS KS KH KD KC 9S 9S 9D", "", "AH")
    s = apply(take_trick(s, "9S"), "meld four kings KC KD KH KS")
    s = take_trick(s, "KS table")
    assert s.tables[PONE].cards == cards("KH KD KC") and not s.tables[PONE].melds[0].intact
    assert offered_melds(s) == []
    with pytest.raises(IllegalActionError, match=r"same class rule.*broken up"):
        apply(s, "meld four kings KS + KC KD KH")


def test_broken_binocle_is_not_re_formed() -> None:
    """RULES.md §2 item 2 (seed 002): binocle melded, its Jack played: another Jack does not
    make a new binocle with the old Queen."""
    s = game("QS JD JD 9S 9S 9C", "", "AH")
    s = apply(take_trick(s, "9S"), "meld binocle JD QS")
    s = take_trick(s, "JD table")
    assert offered_melds(s) == []
    with pytest.raises(IllegalActionError, match="same class rule"):
        apply(s, "meld binocle JD + QS")


def test_four_jacks_then_the_jack_of_diamonds_in_a_binocle() -> None:
    """RULES.md §2 item 3 (seed 002): after four Jacks the J♦ may be taken to form a binocle
    with a fresh Q♠, another class: 40 + 40."""
    s = game("JS JH JD JC QS 9S 9S 9C", "", "AH")
    s = apply(take_trick(s, "9S"), "meld four jacks JC JD JH JS")
    s = take_trick(s, "9S")
    assert "meld binocle QS + JD" in offered_melds(s)
    s = apply(s, "meld binocle QS + JD")
    assert s.meld_points[PONE] == 80


def test_queen_of_a_spade_sequence_serves_in_binocle_not_in_a_marriage() -> None:
    """RULES.md §2 items 2-3 (seed 002): spades trumps and the sequence melded, its Queen may
    be taken to form a binocle (another class) but not a royal marriage (the same class)."""
    s = game("AS TS KS KS QS JS JD 9D 9D 9C", "", "AS")
    s = apply(take_trick(s, "9D"), "meld sequence AS TS KS QS JS")
    s = take_trick(s, "9D")
    assert offered_melds(s) == ["meld binocle JD + QS"]
    with pytest.raises(IllegalActionError, match="same class rule"):
        apply(s, "meld royal marriage KS + QS")
    assert apply(s, "meld binocle JD + QS").meld_points[PONE] == 190


def test_double_declaration_scores_one_combination() -> None:
    """RULES.md §2 item 4 (seed 002 "Double declarations"): after four Kings, laying down the
    binocle scores the binocle only, and the spade marriage it completes on the table then has
    no fresh card; announced marriage first, then binocle, both score."""
    start = game("KS KH KD KC QS JD 9S 9S 9D 9D", "", "AC")
    start = take_trick(apply(take_trick(start, "9S"), "meld four kings KS KH KD KC"), "9S")
    assert offered_melds(start) == ["meld marriage QS + KS", "meld binocle QS JD"]
    binocle_first = apply(start, "meld binocle QS JD")
    assert binocle_first.meld_points[PONE] == 80 + 40
    assert offered_melds(take_trick(binocle_first, "9D")) == []
    marriage_first = take_trick(apply(start, "meld marriage QS + KS"), "9D")
    assert offered_melds(marriage_first) == ["meld binocle JD + QS"]
    assert apply(marriage_first, "meld binocle JD + QS").meld_points[PONE] == 80 + 20 + 40


@pytest.mark.parametrize(
    "order", list(itertools.permutations(["marriage", "binocle", "four queens"]))
)
def test_queen_of_spades_in_three_classes_in_any_order(order: tuple[str, ...]) -> None:
    """RULES.md §2 item 3 (seed 002): the Q♠ may serve in a marriage, in binocle and in four
    Queens, in any order: 20 + 40 + 60."""
    s = game("KS QS JD QH QD QC 9S 9S 9D 9D", "", "AC")
    for kind in order:
        s = take_trick(s, keep="KS QS JD QH QD QC")
        (text,) = [t for t in offered_melds(s) if t.startswith(f"meld {kind} ")]
        s = apply(s, text)
    assert s.meld_points[PONE] == 120
    (qs_slot,) = [slot for slot, c in s.tables[PONE].slots if str(c) == "QS"]
    assert len(s.tables[PONE].history(qs_slot)) == 3


def test_eight_kings_first_loses_the_four_kings() -> None:
    """RULES.md §2 item 2 (seed 002): four Kings then eight Kings score 80 + 160; eight Kings
    melded first, the four Kings are lost (no fresh King is left)."""
    start = take_trick(game("KS KS KH KH KD KD KC KC 9S 9S 9D 9D", "", "AH"), "9S")
    eight = apply(start, "meld eight kings KC KC KD KD KH KH KS KS")
    eight = take_trick(eight, "9S")
    assert eight.meld_points[PONE] == 160 and offered_melds(eight) == []
    with pytest.raises(IllegalActionError, match="fresh card rule"):
        apply(eight, "meld four kings + KC KD KH KS")
    four = take_trick(apply(start, "meld four kings KC KD KH KS"), "9S")
    # (a second four Kings of all fresh copies is legal too, but worth only 80)
    assert offered_melds(four) == [
        "meld four kings KS KH KD KC",
        "meld eight kings KS KH KD KC + KC KD KH KS",
    ]
    four = apply(four, "meld eight kings KC KD KH KS + KC KD KH KS")
    assert four.meld_points[PONE] == 240


def test_second_single_binocle_then_no_double() -> None:
    """RULES.md §2 items 1-2 (seed 002): binocle then double binocle is 40 + 80; but after two
    single binocles the double has no fresh card."""
    start = take_trick(game("QS QS JD JD 9S 9S 9C 9C", "", "AH"), "9S")
    s = take_trick(apply(start, "meld binocle JD QS"), "9S")
    assert offered_melds(s) == ["meld binocle QS JD", "meld double binocle QS JD + JD QS"]
    double = apply(s, "meld double binocle JD QS + JD QS")
    assert double.meld_points[PONE] == 120
    twice = take_trick(apply(s, "meld binocle JD QS"), "9C")
    assert twice.meld_points[PONE] == 80 and offered_melds(twice) == []


def test_dix_exchange_and_the_second_nine() -> None:
    """RULES.md §2 Dix: the holder of the Nine of trumps, after winning a trick, exchanges it
    for the turn-up and scores 10; then the second Nine may be exchanged for the first and
    scores 10 too."""
    s = game("9H 9S 9S", "9H AS", "AH")
    s = take_trick(s, "9S")
    assert "dix" in texts(s)
    s = apply(s, "dix")
    assert (s.meld_points, s.turn_up, s.dixes) == ((0, 10), parse_card("9H"), 1)
    assert parse_card("AH") in s.concealed[PONE] and parse_card("9H") not in s.concealed[PONE]
    s = take_trick(s, "9S", "AS")  # the dealer takes this one
    assert s.current_player == DEALER and "dix" in texts(s)
    s = apply(s, "dix")
    assert (s.meld_points, s.turn_up, s.dixes) == ((10, 10), parse_card("9H"), 2)
    assert parse_card("9H") in s.concealed[DEALER]  # the first Nine, taken back


def test_dix_at_most_twice() -> None:
    """RULES.md §2 Dix: both Nines of trumps may score (one player may hold both), but no
    more than two dix are scored in a hand."""
    s = game("9H 9H 9S 9S 9C", "", "AH")
    s = apply(take_trick(s, "9S"), "dix")
    s = apply(take_trick(s, "9S"), "dix")
    assert s.meld_points[PONE] == 20 and s.dixes == 2 and parse_card("9H") in s.concealed[PONE]
    s = take_trick(s, "9C")
    assert "dix" not in texts(s)
    with pytest.raises(IllegalActionError, match="both Nines of trumps have already scored dix"):
        apply(s, "dix")


def test_dix_for_the_turned_up_nine() -> None:
    """RULES.md §2 Dix: if the turn-up is a Nine (the dealer scored 10), the second Nine may
    still be exchanged for it and scores 10; that is the last dix."""
    s = game("9H 9S", "", "9H")
    assert s.meld_points == (10, 0)
    s = apply(take_trick(s, "9S"), "dix")
    assert s.meld_points == (10, 10) and s.dixes == 2 and s.turn_up == parse_card("9H")
    assert parse_card("9H") in s.concealed[PONE]  # the turned-up Nine, not to score again
    assert "dix" not in texts(take_trick(s))


def test_dix_and_meld_not_after_the_same_trick() -> None:
    """RULES.md §2 Dix: dix and a meld cannot both be announced after the same trick."""
    start = take_trick(game("9H KH QH 9S 9S", "", "AH"), "9S")
    assert {"dix", "meld royal marriage KH QH"} <= set(texts(start))
    after_dix = apply(start, "dix")
    with pytest.raises(IllegalActionError, match="only after winning a trick"):
        apply(after_dix, "meld royal marriage KH QH")
    after_meld = apply(start, "meld royal marriage KH QH")
    with pytest.raises(IllegalActionError, match="only after winning a trick"):
        apply(after_meld, "dix")


def test_meld_alone_is_the_most_valuable_announcement() -> None:
    """RULES.md §2 Meld table: ``meld`` alone announces the most valuable legal combination;
    the table cards of an explicit announcement may be written in any order."""
    start = take_trick(game("AH TH KH QH JH 9S 9S", "", "AH"), "9S")
    assert apply(start, "meld").meld_points[PONE] == 150
    s = take_trick(apply(start, "meld royal marriage QH KH"), "9S")
    for text in ("meld sequence JH AH TH + QH KH", "meld sequence AH TH JH + KH QH"):
        assert apply(s, text).meld_points[PONE] == 190


# --- play after the stock --------------------------------------------------------------------------


def _strict_positions(seeds: Iterable[int]) -> Iterator[ClassicState]:
    for seed in seeds:
        rng = random.Random(seed)
        for before, _, _ in play_hand(new_game("classic", seed=seed), rng):
            if (
                before.phase is Phase.PLAY
                and before.trick
                and not before.stock
                and before.turn_up is None
            ):
                yield before


@pytest.mark.parametrize(
    ("kind", "message"),
    [("off-suit", "must follow suit"), ("lower", "must beat"), ("no-trump", "must trump")],
)
def test_strict_play_refusals_name_the_rule(kind: str, message: str) -> None:
    """RULES.md §2 Play after the stock and §5: a card that breaks the obligation (follow suit,
    win if able, trump when void) is refused with an error naming the rule, state unchanged."""
    for s in _strict_positions(range(40)):
        p = s.current_player
        assert p is not None and s.trump is not None
        lead = s.trick[0][1]
        hand = set(s.hands[p])
        follow = {c for c in hand if c.suit == lead.suit}
        higher = {c for c in follow if strength(c) > strength(lead)}
        trumps = {c for c in hand if c.suit == s.trump}
        if kind == "off-suit" and follow:
            bad = hand - follow
        elif kind == "lower" and higher:
            bad = follow - higher
        elif kind == "no-trump" and not follow and trumps:
            bad = hand - trumps
        else:
            continue
        if not bad:
            continue
        before = binocle.dumps(s)
        with pytest.raises(IllegalActionError, match=message):
            apply(s, f"play {min(bad)}")
        assert binocle.dumps(s) == before
        return
    raise AssertionError(f"no position found for {kind}")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_card_points_and_last_trick_make_250(seed: int) -> None:
    """RULES.md §1-§2: the cards count 11/10/4/3/2, 240 in all, and the last trick 10 more:
    every played hand distributes 250; ``HandResult.tricks`` is each seat's card points plus
    the last trick, ``meld`` its dix and melds, ``delta`` their sum."""
    rng = random.Random(seed)
    s = new_game("classic", seed=seed, dealer=seed % 2)
    *_, (before, action, end) = play_hand(s, rng)
    r = end.results[-1]
    assert r.outcome == "played" and sum(r.tricks) == 250
    ((lead_seat, lead),) = before.trick
    assert before.trump is not None and action.card is not None
    w = 1 - lead_seat if follower_wins(lead, action.card, before.trump) else lead_seat
    piles = [list(before.piles[0]), list(before.piles[1])]
    piles[w] += [lead, action.card]
    assert r.tricks[w] == points(piles[w]) + 10 and r.tricks[1 - w] == points(piles[1 - w])
    assert r.meld == before.meld_points
    assert r.delta == tuple(m + t for m, t in zip(r.meld, r.tricks, strict=True))
    assert end.scores == r.delta


# --- knocking and the end of the hand ---------------------------------------------------------------


def test_correct_claim_wins_at_once() -> None:
    """RULES.md §2 Claiming: the player to act may claim; checked against his score, dix and
    melds and the card points he has taken this hand; correct, he wins the game at once."""
    s = game("KS KH KD KC 9S 9S", "", "AH", profile="classic(target=80)")
    s = apply(take_trick(s, "9S"), "meld four kings KC KD KH KS")
    assert s.meld_points[PONE] == 80
    over = apply(s, "claim")
    assert binocle.is_over(over) and binocle.winner(over) == PONE
    assert over.results[-1].outcome == "claimed"
    assert binocle.score(over)[PONE] == 80 + s.taken[PONE]
    assert binocle.legal_actions(over) == () and over.current_player is None
    with pytest.raises(IllegalActionError, match="game is over"):
        apply(over, "claim")


@pytest.mark.parametrize(("target", "wins"), [(21, True), (22, False)])
def test_claim_counts_taken_cards_in_the_announce_phase(target: int, wins: bool) -> None:
    """RULES.md §2 Claiming: the claim may be made in the announcement step and counts the card
    points taken so far (A + T = 21 here); exactly the target suffices, one short loses."""
    s = game("AS", "TD", "JC", profile=f"classic(target={target})")
    s = take_trick(s, "AS", "TD")
    assert s.taken[PONE] == 21 and "claim" in texts(s)
    over = apply(s, "claim")
    assert binocle.winner(over) == (PONE if wins else DEALER)


def test_wrong_claim_loses_at_once() -> None:
    """RULES.md §2 Claiming: a wrong claim loses the game at once, whatever the scores."""
    s = new_game("classic", seed=3)
    over = apply(s, "claim")
    assert binocle.is_over(over) and binocle.winner(over) == DEALER
    assert over.phase is Phase.OVER and over.results[-1].outcome == "claimed"


def _hand_one(seed: int, target: int) -> tuple[ClassicState, list[Action]]:
    """Hand 1 of a game from ``seed`` played at random (the same actions for any target)."""
    rng = random.Random(seed)
    s = new_game(f"classic(target={target})", seed=seed)
    moves = []
    for _, a, t in play_hand(s, rng):
        moves.append(a)
        s = t
    return s, moves


def _replay(seed: int, target: int, moves: list[Action]) -> ClassicState:
    """``moves`` again under another target; after the last trick nobody knocks (a player
    who reached the target is asked, classic rules, Claiming (knocking), and passes)."""
    s = new_game(f"classic(target={target})", seed=seed)
    for a in moves:
        s = apply(s, a)
    while s.phase is Phase.PLAY and not any(s.hands):
        assert texts(s) == ["pass", "claim"]
        s = apply(s, "pass")
    return s


def test_end_of_hand_on_its_merits_or_the_target_rises() -> None:
    """RULES.md §2 End of hand: with no claim, if exactly one player has reached his target he
    wins on its merits; if both have, nobody wins and the target rises by 250; otherwise the
    other player deals.  The recorded score counts in a later claim."""
    seed = 5
    ended, moves = _hand_one(seed, 10**6)
    a, b = ended.scores
    assert a != b and ended.phase is Phase.DEAL
    high, low = max(a, b), min(a, b)
    merits = _replay(seed, high, moves)
    assert merits.phase is Phase.OVER and binocle.winner(merits) == ended.scores.index(high)
    assert merits.results[-1].outcome == "played"
    both = _replay(seed, low, moves)
    assert both.phase is Phase.DEAL and binocle.winner(both) is None
    assert both.targets == (low + 250, low + 250)
    assert both.dealer == 1 - ended.results[-1].dealer
    neither = _replay(seed, high + 5, moves)
    assert neither.phase is Phase.DEAL and neither.targets == (high + 5, high + 5)
    # Hand 2: the leader of the score needs 5 more points, counted with his recorded score.
    leader = ended.scores.index(high)
    rng = random.Random(seed)
    outcomes = set()
    for s, _, _ in play_hand(apply(neither, binocle.legal_actions(neither)[0]), rng):
        if s.current_player == leader:
            reached = s.scores[leader] + s.meld_points[leader] + points(s.piles[leader]) >= high + 5
            over = apply(s, "claim")
            assert binocle.winner(over) == (leader if reached else 1 - leader)
            outcomes.add(reached)
    assert outcomes == {True, False}


def test_both_out_at_1000_plays_on_to_1250() -> None:
    """RULES.md §2 End of hand (seed 002): both at 1000 without a knock, neither wins and the
    game goes on to 1250 for both; then, without a knock, one alone at his target wins on its
    merits (or both again: 1500)."""
    for seed in range(60):
        rng = random.Random(seed)
        s = new_game("classic", seed=seed)
        raised = False
        while not binocle.is_over(s) and s.hand_number < 25:
            if s.phase is Phase.DEAL:
                s = apply(s, binocle.legal_actions(s)[0])
                continue
            before = s
            s = last_state(play_hand(s, rng))
            reached = [i for i in (0, 1) if s.scores[i] >= before.targets[i]]
            if len(reached) == 2:
                assert binocle.winner(s) is None and s.phase is Phase.DEAL
                assert s.targets == (before.targets[0] + 250, before.targets[1] + 250)
                raised = raised or before.targets == (1000, 1000)
            elif len(reached) == 1:
                assert s.phase is Phase.OVER and binocle.winner(s) == reached[0]
            else:
                assert s.phase is Phase.DEAL and s.targets == before.targets
        w = binocle.winner(s)
        if raised and w is not None:
            assert s.targets[0] >= 1250
            assert s.scores[w] >= s.targets[0] > s.scores[1 - w]
            return
    raise AssertionError("no game in which both reach 1000 together")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_claims_are_checked_against_score_meld_and_cards(seed: int) -> None:
    """RULES.md §2 Claiming: at any point the player to act may claim; the claim is right if
    his score + dix and meld points + card points of the tricks he took this hand reach the
    target, and it ends the game at once either way."""
    rng = random.Random(seed)
    s = new_game("classic(target=120)", seed=seed)
    for before, _, _ in play_hand(s, rng):
        p = before.current_player
        assert p is not None and "claim" in texts(before)
        # After the last trick (no card left) its 10 count too (classic rules, Play after
        # the stock): the claim may then be made before the hand is counted.
        last = last_trick_bonus(before, p)
        total = before.scores[p] + before.meld_points[p] + points(before.piles[p]) + last
        reached = total >= 120
        over = apply(before, "claim")
        assert over.phase is Phase.OVER and binocle.winner(over) == (p if reached else 1 - p)
        assert over.results[-1].outcome == "claimed"


# --- options ---------------------------------------------------------------------------------------


def test_grand_binocle_is_off_by_default() -> None:
    """RULES.md §2 Meld table: grand binocle (K♠ Q♠ J♦, 80) is an option, off by default."""
    s = take_trick(game("KS QS JD 9S 9S", "", "AH"), "9S")
    assert offered_melds(s) == ["meld marriage KS QS", "meld binocle QS JD"]
    with pytest.raises(IllegalActionError, match="grand binocle is not played"):
        apply(s, "meld grand binocle KS QS JD")


def test_grand_binocle_option() -> None:
    """RULES.md §2 Meld table: with grand_binocle, K♠ Q♠ J♦ scores 80, and a melded binocle
    may grow into the grand binocle (same class, more valuable): 40 + 80."""
    s = take_trick(game("KS QS JD 9S 9S", "", "AH", profile="classic(grand_binocle=true)"), "9S")
    assert "meld grand binocle KS QS JD" in offered_melds(s)
    assert apply(s, "meld grand binocle KS QS JD").meld_points[PONE] == 80
    s = take_trick(apply(s, "meld binocle JD QS"), "9S")
    assert "meld grand binocle KS + JD QS" in offered_melds(s)
    assert apply(s, "meld grand binocle KS + JD QS").meld_points[PONE] == 120


def test_sixty_four_card_pack() -> None:
    """RULES.md §1-§2 (seed 002 "Sixty-four-card Binocle"): Eights and Sevens added, twelve
    cards dealt, a 39-card stock, and the Seven of trumps takes the place of the Nine for dix."""
    p = binocle.profile("classic", pack=64)
    s = new_game(p, seed=9)
    assert len(s.hands[0]) == len(s.hands[1]) == 12 and len(s.stock) == 39
    assert s.turn_up is not None
    assert sorted((*s.hands[0], *s.hands[1], *s.stock, s.turn_up)) == list(pack(64))
    assert {str(c)[0] for c in pack(64)} == set("ATKQJ987")
    with pytest.raises(IllegalActionError, match="64-card pack"):
        new_game(p, deck=pack(48))
    assert game("AS", "AH", "7D", profile="classic(pack=64)").meld_points == (10, 0)
    assert game("AS", "AH", "9D", profile="classic(pack=64)").meld_points == (0, 0)
    s = take_trick(game("7H 9H 8S", "", "AH", profile="classic(pack=64)"), "8S")
    assert "dix" in texts(s)
    s = apply(s, "dix")
    assert parse_card("7H") not in s.concealed[PONE] and s.turn_up == parse_card("7H")
    rng = random.Random(2)
    steps = list(play_hand(new_game(p, seed=2), rng))
    assert sum(1 for b, _, _ in steps if b.phase is Phase.ANNOUNCE) == 20
    assert sum(steps[-1][2].results[-1].tricks) == 250


def test_target_option() -> None:
    """RULES.md §2: the target (1000 by default) is an option."""
    assert new_game("classic", seed=1).targets == (1000, 1000)
    p = binocle.profile("classic", target=1500)
    assert p.spec() == "classic(target=1500)" and new_game(p, seed=1).targets == (
        1500,
        1500,
    )


# --- binocle.meld ------------------------------------------------------------------------------------

MELD_CASES = [
    (EIGHT_COURTS, "H", 220),  # seed 002: never 240
    ("AH TH KH QH JH", "H", 190),  # royal marriage, then the sequence
    ("QS QS JD JD", "H", 120),  # binocle, then double binocle
    ("KS KS KH KH KD KD KC KC QS QH QD QC", "H", 400),
    ("KS QS JD", "H", 60),  # marriage and binocle (no grand binocle by default)
    ("AS AH AD AC JS JH JD JC QS", "C", 100 + 40 + 40),
]


@pytest.mark.parametrize(("hand", "trump", "total"), MELD_CASES)
def test_meld_totals(hand: str, trump: str, total: int) -> None:
    """RULES.md §2 Meld table and items 1-4: the best total a sequence of announcements
    reaches; its breakdown adds up to it and can be announced in that order."""
    r = binocle.meld(hand, trump, "classic")
    assert r.total == total == sum(m.value for m in r.melds)
    t = binocle.parse_suit(trump)
    hand_cards = cards(hand)

    def replays(h: tuple[Card, ...], table: MeldTable, i: int) -> bool:
        if i == len(r.melds):
            return True
        want = r.melds[i]
        return any(
            replays(*announce(h, table, a), i + 1)
            for a in legal_announcements(h, table, t)
            if a.combination.kind == want.name and a.combination.cards == want.cards
        )

    assert replays(hand_cards, MeldTable(), 0)


@pytest.mark.parametrize(
    ("hand", "trump", "total"), [c for c in MELD_CASES if len(cards(c[0])) <= 9]
)
def test_meld_breakdown_replays_in_a_game(hand: str, trump: str, total: int) -> None:
    """RULES.md §2 Announcements: the breakdown of ``binocle.meld`` can be announced trick by
    trick in a real game (the pone holding the cards, leading junk)."""
    r = binocle.meld(hand, trump, "classic")
    junk = {"H": "AH", "C": "AC"}[trump]
    start = game(f"{hand} 9S 9S 9D", "", junk)

    def go(s: ClassicState, i: int) -> ClassicState | None:
        if i == len(r.melds):
            return s
        s = take_trick(s, keep=hand)
        want = r.melds[i]
        for a in binocle.legal_actions(s):
            if a.kind is Kind.MELD and a.name == want.name:
                t = apply(s, a)
                if t.tables[PONE].melds[-1].combination.cards == want.cards:
                    found = go(t, i + 1)
                    if found is not None:
                        return found
        return None

    end = go(start, 0)
    assert end is not None and end.meld_points[PONE] == total


# --- views -------------------------------------------------------------------------------------------


def test_views_show_tables_and_turn_up() -> None:
    """RULES.md §2 and DESIGN.md observe: the opponent's table cards and the turn-up are
    public; the opponent's concealed cards and the stock are not."""
    s = _two_kings_of_hearts_on_the_table()
    v = binocle.observe(s, DEALER)
    assert v.get("tables") == (s.tables[DEALER].cards, s.tables[PONE].cards)
    assert v.get("turn_up") == s.turn_up and v.get("stock_size") == len(s.stock)
    assert v.get("concealed") == s.concealed[DEALER] and v.hand == s.hands[DEALER]
    assert v.hand_sizes == (len(s.hands[0]), len(s.hands[1]))
    assert {k for k, _ in v.public} == {
        "claim_totals", "concealed", "dixes", "last_trick", "meld_points", "stock_size",
        "table_melds", "tables", "taken", "targets", "turn_up",
    }  # fmt: skip
    assert binocle.observe(s, PONE).get("concealed") == s.concealed[PONE]


@settings(max_examples=60, deadline=None)
@given(st.permutations(pack()), st.integers(0, 11), st.integers(2, 22), st.integers(2, 22))
def test_hidden_cards_do_not_change_a_view(deck: list[Card], i: int, j: int, k: int) -> None:
    """DESIGN.md observe and RULES.md §2: two states that differ only in the opponent's
    concealed cards or in the order of the stock below the cards drawn give equal views
    (here seat 0, the dealer, before and after the first trick)."""
    pone_pos = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19][i]
    other = list(deck)
    other[pone_pos], other[25 + j] = other[25 + j], other[pone_pos]  # a pone card <-> the stock
    other[25 + j], other[25 + k] = other[25 + k], other[25 + j]  # the stock reordered
    a = new_game("classic", deck=deck)
    b = new_game("classic", deck=other)
    assert binocle.observe(a, DEALER) == binocle.observe(b, DEALER)
    lead = next(c for c in a.hands[PONE] if c in b.hands[PONE])
    a, b = apply(a, f"play {lead}"), apply(b, f"play {lead}")
    follow = binocle.legal_actions(a)[0]
    a, b = apply(a, follow), apply(b, follow)
    a, b = apply(a, "pass"), apply(b, "pass")
    assert binocle.observe(a, DEALER) == binocle.observe(b, DEALER)
    if sorted(deck[0:4] + deck[8:12] + deck[16:20]) != sorted(
        other[0:4] + other[8:12] + other[16:20]
    ):
        assert binocle.observe(a, PONE) != binocle.observe(b, PONE)


# --- JSON ---------------------------------------------------------------------------------------------


def test_json_round_trip_with_table_melds() -> None:
    """DESIGN.md dumps/loads: a mid-hand state with melds on the table reads back equal."""
    s = _two_kings_of_hearts_on_the_table()
    s = apply(s, "play QH table")
    s = apply(s, binocle.legal_actions(s)[0])
    back = classic(binocle.loads(binocle.dumps(s)))
    assert back == s and hash(back) == hash(s) and back.tables == s.tables
    assert binocle.legal_actions(back) == binocle.legal_actions(s)
    check_state(back)


@pytest.mark.parametrize("field", ["tables", "meld_points", "concealed", "actions"])
def test_loads_refuses_a_tampered_state(field: str) -> None:
    """RULES.md §5: a state read from outside is checked: table cards, scores and hands must
    agree with the actions that led to them."""
    s = _two_kings_of_hearts_on_the_table()
    doc = json.loads(binocle.dumps(s))
    st_ = doc["state"]
    if field == "tables":
        st_["tables"][PONE]["slots"][0][1] = "AS"
    elif field == "meld_points":
        st_["meld_points"][PONE] += 20
    elif field == "concealed":
        st_["concealed"][PONE][0], st_["concealed"][DEALER][0] = (
            st_["concealed"][DEALER][0],
            st_["concealed"][PONE][0],
        )
    else:
        doc["actions"][-1]["action"] = "meld four queens QH + QS QD QC"
    with pytest.raises(InvalidStateError):
        binocle.loads(json.dumps(doc))


# --- consistency and perft -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["classic", "classic(target=300)", "classic(pack=64,grand_binocle=true)"]
)
def test_consistency_checker(name: str) -> None:
    """RULES.md §5 and DESIGN.md Quality bar: random classic games keep every invariant."""
    report = check_consistency(name, games=5, seed=23, max_hands=3, claim_rate=0.003)
    assert report.actions > 100 and report.illegal_tried > 100


def test_check_state_in_scenario_positions() -> None:
    """RULES.md §5: positions with melds, broken combinations and dix pass ``check_state``."""
    s = game("KH KH QH 9S 9S 9H", "", "AH")
    for text in ("meld royal marriage KH QH", "dix"):
        s = take_trick(s, "9S")
        check_state(s)
        s = apply(s, text)
        check_state(s)
    s = take_trick(s, "QH table")
    check_state(s)


def test_perft_from_the_deal() -> None:
    """Golden perft counts (RULES.md §2 legality) from a fixed seed, dealer 0.

    Depth 1 is the pone's distinct cards plus ``claim``; depth 2 each lead times the
    dealer's distinct cards plus ``claim``, plus the pone's claim (a claim ends the game
    and counts once); depth 3 adds the winner's announcements (pass, claim, dix, melds)."""
    s = new_game("classic", seed=1)
    pone, dealer = len(set(s.hands[PONE])), len(set(s.hands[DEALER]))
    assert perft(s, 1) == pone + 1 == 13
    assert perft(s, 2) == pone * (dealer + 1) + 1 == 145
    # Depth 3 by hand: trumps are diamonds (A♦ turned up).  The dealer holds no meld and no
    # 9♦, so when he wins he has pass and claim; the pone holds the 9♦ (dix) and four Kings,
    # so when he wins he has pass, claim, dix unless he led the 9♦, four Kings unless he led
    # a King.
    assert s.trump is Suit.DIAMONDS
    assert offered_melds(take_trick(s, "9C")) == ["meld four kings KS KH KD KC"]
    depth3 = 1
    for lead in dict.fromkeys(s.hands[PONE]):
        depth3 += 1  # the dealer's claim
        for follow in dict.fromkeys(s.hands[DEALER]):
            if follower_wins(lead, follow, Suit.DIAMONDS):
                depth3 += 2
            else:
                depth3 += 2 + (str(lead) != "9D") + (lead.rank != binocle.Rank.KING)
    assert perft(s, 3) == depth3 == 442
    assert perft(s, 4) == 3979


def test_perft_from_an_announcement() -> None:
    """Golden perft counts from the ANNOUNCE position after a fixed first trick (seed 1)."""
    s = new_game("classic", seed=1)
    s = apply(apply(s, "play 9C"), "play 9C")
    assert (s.phase, s.current_player) == (Phase.ANNOUNCE, PONE)
    assert texts(s) == ["pass", "dix", "meld four kings KS KH KD KC", "claim"]
    # pass, dix and four Kings each leave seat 1 to lead 12 distinct cards (a draw, a
    # dix exchange, four Kings moved to the table) or claim; the claim ends the game.
    for text in ("pass", "dix", "meld four kings KS KH KD KC"):
        t = apply(s, text)
        lead = len(set(t.concealed[PONE])) + len(set(t.tables[PONE].cards))
        assert perft(t, 1) == lead + 1 == 13
        assert perft(t, 2) == lead * (len(set(t.hands[DEALER])) + 1) + 1 == 145
    assert [perft(s, d) for d in (1, 2, 3)] == [4, 3 * 13 + 1, 3 * 145 + 1] == [4, 40, 436]
