"""The rule codes of refusals: every IllegalActionError names its rule as a
:class:`binocle.RuleCode`, with the action refused and the seat that tried it.

Each test builds a real position (a stacked deck, or a game played to it) and
reaches the code through :func:`binocle.apply` or the API that raises it.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

import binocle
from binocle import Action, GameState, IllegalActionError, Kind, Phase, RuleCode
from binocle.actions import claim
from binocle.bots import RandomBot, play_game
from binocle.encoding import Episode, action_from_id, action_space, legal_ids
from binocle.rules.classic_melds import Announcement, MeldTable, announce, fresh_announcement
from binocle.rules.tricks import Obligation, allowed_cards, obligation_broken
from helpers import kings_and_queens_laid_down, run, two_handed_continuation


def refused(
    s: GameState, action: Action | str, rule: RuleCode, seat: int | None, match: str | None = None
) -> IllegalActionError:
    """``action`` is refused in ``s`` with ``rule``, naming the action (parsed in ``s``)
    and ``seat``; ``s`` is unchanged (equal, same hash, same JSON)."""
    before, digest, text = s, hash(s), binocle.dumps(s)
    expected = action if isinstance(action, Action) else binocle.parse_action(s, action)
    with pytest.raises(IllegalActionError, match=match) as info:
        binocle.apply(s, action)
    e = info.value
    assert e.rule is rule, (str(e), e.rule)
    assert e.action == expected
    assert e.seat == seat
    assert s == before and hash(s) == digest and binocle.dumps(s) == text
    return e


# --- positions --------------------------------------------------------------------------------

#: Classic, trump hearts (the turn-up AH), seat 0 dealing: the pone (seat 1) holds the
#: four Kings and a royal marriage; the dealer holds Nines and Jacks only.
CLASSIC_PONE = "AS AS KS KH KH KD KC QH TS TS AC AC"
CLASSIC_DEALER = "9S 9S JS JS 9D 9D JD JD 9C 9C JC JC"


def classic_start(profile: str = "classic") -> GameState:
    deck = binocle.stack_deck("classic", [CLASSIC_DEALER, CLASSIC_PONE], dealer=0, turn_up="AH")
    s = binocle.new_game(profile, seed=1, deck=deck, dealer=0)
    assert (s.phase, s.current_player, s.trump) == (Phase.PLAY, 1, binocle.Suit.HEARTS)
    return s


def classic_kings_laid() -> GameState:
    """The pone wins the first trick (AS over 9S) and lays down four Kings; then he wins
    the second trick and is to announce again (classic rules, Announcements)."""
    s = run(classic_start(), "play AS", "play 9S", "meld four kings KS KH KD KC")
    s = run(s, "play AS", "play 9S")
    assert (s.phase, s.current_player) == (Phase.ANNOUNCE, 1)
    return s


def classic_after_stock(profile: str = "classic") -> GameState:
    """The classic hand of :func:`classic_start` played on (always the first legal action,
    passing each announcement) until the stock is exhausted and the next card is due."""
    s = classic_start(profile)
    while s.stock or s.turn_up is not None or s.phase is not Phase.PLAY:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    return s


def classic_last_trick_taken() -> GameState:
    """The same hand, to a target of 50, played to its last trick: a player who has
    reached it is asked to knock or pass (classic rules, Claiming (knocking))."""
    s = classic_after_stock("classic(target=50)")
    while any(s.hands):
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    assert s.phase is Phase.PLAY and binocle.legal_actions(s) == (
        binocle.actions.PASS,
        binocle.actions.CLAIM,
    )
    return s


#: Cutthroat, seat 2 dealing, trump hearts once named: seat 0 (the bidder) holds every
#: diamond; seats 1 and 2 are void in diamonds.  Seat 1 holds spades, AH and JH; seat 2
#: hearts (no AH) and clubs.
CUT_HANDS = [
    "AD AD TD TD KD KD QD QD JD JD 9D 9D KS KS QS",
    "AS AS TS TS JS JS 9S 9S QS AH JH TC TC KC KC",
    "TH TH KH KH QH QH JH 9H 9H QC QC JC JC 9C 9C",
]
CUT_WIDOW = "AH AC AC"


def cutthroat_start(profile: str = "cutthroat") -> GameState:
    deck = binocle.stack_deck("cutthroat", CUT_HANDS, dealer=2, widow=CUT_WIDOW)
    s = binocle.new_game(profile, seed=1, deck=deck, dealer=2)
    assert (s.phase, s.current_player) == (Phase.BIDDING, 0)
    return s


def cutthroat_play(profile: str = "cutthroat") -> GameState:
    """Seat 0 bids 250 alone, takes the widow, discards the two Aces of clubs and a
    Nine of diamonds, names hearts; after the melds he is to lead."""
    s = run(cutthroat_start(profile), "bid 250", "pass", "pass")
    s = run(s, "discard AC", "discard AC", "discard 9D", "trump H", "meld", "meld", "meld")
    assert (s.phase, s.current_player, s.trump) == (Phase.PLAY, 0, binocle.Suit.HEARTS)
    return s


# --- one test per code the engine raises ------------------------------------------------------


def test_game_over() -> None:
    """Once the game is over no action is possible (GAME_OVER): a card (nobody to act)
    and a knock (the seat that knocks)."""
    s = play_game("classic(max_hands=1)", [RandomBot(0), RandomBot(1)], seed=3)
    assert binocle.is_over(s)
    refused(s, "pass", RuleCode.GAME_OVER, None, "the game is over")
    refused(s, "claim 0", RuleCode.GAME_OVER, 0, "the game is over: seat 0 cannot claim it")


def test_wrong_phase() -> None:
    """An action of another phase (WRONG_PHASE): a card while bidding (cutthroat), a
    deal during a hand (no seat deals), an announcement while the stock lasts before a
    trick is won (classic rules, Announcements), a card when the next action is a deal."""
    refused(cutthroat_start(), "play KD", RuleCode.WRONG_PHASE, 0, "must act in the bidding")
    s = classic_start()
    refused(s, s.profile.deal_for(s), RuleCode.WRONG_PHASE, None, "no deal now")
    refused(s, "pass", RuleCode.WRONG_PHASE, 1, "only after winning a trick")
    before = binocle.start("classic", seed=1)
    refused(before, "play AS", RuleCode.WRONG_PHASE, None, "the next action is a deal")
    refused(before, "claim 1", RuleCode.WRONG_PHASE, 1, "cannot claim before the next deal")


def test_bad_deck() -> None:
    """A deal that is not an order of the profile's pack (BAD_DECK); no seat deals."""
    s = binocle.start("classic", seed=1)
    short = binocle.actions.deal(binocle.pack(48)[:47])
    refused(s, short, RuleCode.BAD_DECK, None, "exactly the 48-card pack")


def test_not_held() -> None:
    """A card played or discarded that the player does not hold (NOT_HELD): cutthroat
    play and discard, a classic table card that is not on the table."""
    s = cutthroat_play()
    refused(s, "play AS", RuleCode.NOT_HELD, 0, "play AS: seat 0 does not hold it")
    s = run(cutthroat_start(), "bid 250", "pass", "pass")
    refused(s, "discard AS", RuleCode.NOT_HELD, 0, "discard AS: seat 0 does not hold it")
    refused(classic_start(), "play KS table", RuleCode.NOT_HELD, 1, "has no KS on the table")


def test_which_copy() -> None:
    """Two K♥ on the table that served in different combinations: ``play KH`` must say
    which copy (WHICH_COPY; classic rules, Announcements)."""
    s = run(classic_kings_laid(), "meld royal marriage KH QH")
    assert s.current_player == 1 and s.phase is Phase.PLAY
    refused(s, "play KH", RuleCode.WHICH_COPY, 1, "say which copy")
    refused(s, "play KH table", RuleCode.WHICH_COPY, 1, "say which copy")


def test_trick_obligations() -> None:
    """Cutthroat rules, Play: follow suit (MUST_FOLLOW), beating the best card if able
    (MUST_BEAT); void, trump (MUST_TRUMP), overtrumping if able (MUST_OVERTRUMP), else
    still under-trump (MUST_UNDERTRUMP).  The texts are those of binocle.rules.tricks."""
    s = cutthroat_play()
    spade = run(s, "play KS")
    refused(spade, "play TC", RuleCode.MUST_FOLLOW, 1, "must follow suit S")
    refused(spade, "play 9S", RuleCode.MUST_BEAT, 1, "must beat KS: holds AS TS")
    diamond = run(s, "play KD")
    refused(diamond, "play AS", RuleCode.MUST_TRUMP, 1, "void in D, must trump: holds AH JH")
    over = run(diamond, "play JH")
    refused(over, "play 9H", RuleCode.MUST_OVERTRUMP, 2, "must overtrump JH: holds TH KH QH")
    under = run(diamond, "play AH")
    refused(under, "play 9C", RuleCode.MUST_UNDERTRUMP, 2, r"must trump \(under-trump")


def test_announce_first() -> None:
    """The winner of a trick announces (or passes) and draws before leading
    (ANNOUNCE_FIRST; classic rules, Announcements)."""
    s = run(classic_start(), "play AS", "play 9S")
    refused(s, "play TS", RuleCode.ANNOUNCE_FIRST, 1, "must first announce")


def test_announcements_over() -> None:
    """Announcements end with the stock (classic) and with a player's first card
    (three-handed rules, Melds): ANNOUNCEMENTS_OVER."""
    s = classic_after_stock()
    p = s.current_player
    for late in ("pass", "dix", "meld marriage KC QC"):
        refused(s, late, RuleCode.ANNOUNCEMENTS_OVER, p, "announcements end")
    t = to_three_handed_play(binocle.new_game("three-handed", seed=5))
    for _ in range(3):  # the first trick
        t = binocle.apply(t, next(a for a in binocle.legal_actions(t) if a.kind is Kind.PLAY))
    first = t.current_player
    assert t.tricks == 1 and first is not None
    refused(t, "meld marriage KC QC", RuleCode.ANNOUNCEMENTS_OVER, first, "his first card")


def to_three_handed_play(s: GameState) -> GameState:
    """Every dix and meld turn passed: the first lead is due."""
    while s.phase is not Phase.PLAY:
        s = binocle.apply(s, "pass")
    return s


def test_bids() -> None:
    """Cutthroat rules, Bidding: the lowest bid (BID_TOO_LOW), higher than the last
    (BID_TOO_LOW), steps of 10 (BID_STEP), the ceiling (BID_TOO_HIGH), and after two
    passes the last player takes the hand at the lowest bid or passes (BID_FORCED)."""
    s = cutthroat_start()
    refused(s, "bid 240", RuleCode.BID_TOO_LOW, 0, "the lowest bid is 250")
    refused(s, "bid 255", RuleCode.BID_STEP, 0, "steps of 10")
    refused(s, "bid 3010", RuleCode.BID_TOO_HIGH, 0, "above the ceiling 3000")
    t = run(s, "bid 260")
    refused(t, "bid 260", RuleCode.BID_TOO_LOW, 1, "higher than the last bid, 260")
    u = run(s, "pass", "pass")
    refused(u, "bid 260", RuleCode.BID_FORCED, 2, "may take the hand only at 250")


def test_option_off() -> None:
    """An action of a rule the profile's options leave out (OPTION_OFF): bunched hands
    (cutthroat), grand binocle (classic), claiming an overlooked meld and melding until
    the first card (three-handed)."""
    refused(cutthroat_start(), "bunch", RuleCode.OPTION_OFF, 0, "option bunched_hands is off")
    s = run(classic_start(), "play AS", "play 9S")
    refused(s, "meld grand binocle KS QS JD", RuleCode.OPTION_OFF, 1, "option grand_binocle")
    t = to_three_handed_play(binocle.new_game("three-handed", seed=5))
    p = t.current_player
    refused(t, "claim overlooked", RuleCode.OPTION_OFF, p, "option claim_overlooked is off")
    u = to_three_handed_play(binocle.new_game("three-handed(meld_until_first_card=false)", seed=5))
    q = u.current_player
    refused(u, "meld marriage KC QC", RuleCode.OPTION_OFF, q, "meld_until_first_card is off")


def test_not_bunched() -> None:
    """Cutthroat rules, Bidding: a bunched hand needs five or more Nines (NOT_BUNCHED)."""
    s = cutthroat_start("cutthroat(bunched_hands=true)")
    refused(s, "bunch", RuleCode.NOT_BUNCHED, 0, "five or more Nines")


def test_giving_up() -> None:
    """Cutthroat rules, Play: only the bidder may give up (BIDDER_ONLY), and only before
    the first lead (TOO_LATE)."""
    s = run(cutthroat_play(), "play KD")
    refused(s, "concede", RuleCode.BIDDER_ONLY, 1, r"only the bidder \(seat 0\)")
    s = run(s, "play JH", "play KH", "play QC")  # seat 2 wins with KH and leads
    assert s.current_player == 0
    refused(s, "concede", RuleCode.TOO_LATE, 0, "only before the first lead")


def test_no_dix() -> None:
    """Classic rules, Dix: dix needs the Nine of trumps in the concealed hand (NO_DIX)."""
    s = run(classic_start(), "play AS", "play 9S")
    refused(s, "dix", RuleCode.NO_DIX, 1, "holds no 9H in the concealed hand")


def test_meld_refusals() -> None:
    """Classic rules, Announcements: cards that make no combination (NOT_A_COMBINATION),
    a marriage in trumps (MELD_SUIT), cards not held (MELD_NOT_HELD), a card named more
    often than the pack holds it (CARDS_REUSED), no fresh card (FRESH_CARD), table cards
    serving again in their class (SAME_CLASS), no announcement left (NO_MELD)."""
    s = run(classic_start(), "play AS", "play 9S")
    refused(s, "meld marriage KC QD", RuleCode.NOT_A_COMBINATION, 1, "not a combination")
    refused(s, "meld marriage KH QH", RuleCode.MELD_SUIT, 1, "not a combination")
    refused(s, "meld marriage KS QS", RuleCode.MELD_NOT_HELD, 1, "QS is not in seat 1's")
    refused(s, "meld marriage KC + KC KC QC", RuleCode.CARDS_REUSED, 1, "names KC 3 times")
    refused(s, "meld marriage + KC QC", RuleCode.FRESH_CARD, 1, "fresh card rule")
    t = classic_kings_laid()
    refused(t, "meld four kings KH + KS KD KC", RuleCode.SAME_CLASS, 1, "same class rule")
    deck = binocle.stack_deck("classic", [CLASSIC_PONE, CLASSIC_DEALER], dealer=0, turn_up="AH")
    bare = run(binocle.new_game("classic", seed=1, deck=deck), "play 9S", "play KD")
    assert (bare.phase, bare.current_player) == (Phase.ANNOUNCE, 1)
    refused(bare, "meld", RuleCode.NO_MELD, 1, r"no announcement is possible now \(say pass\)")


def test_no_claim_open() -> None:
    """A claim where none is open (NO_CLAIM_OPEN): cutthroat has no claiming (a knock
    of any seat, the player to act's plain claim); three-handed claims are made once
    the melds are announced (three-handed rules, Claiming (knocking)); an overlooked
    meld claimed when none is offered (three-handed rules, Overlooked melds)."""
    s = cutthroat_play()
    refused(s, "claim 1", RuleCode.NO_CLAIM_OPEN, 1, "no claiming")
    refused(s, "claim", RuleCode.NO_CLAIM_OPEN, 0, "must act in the play phase")
    t = binocle.new_game("three-handed", seed=5)
    assert t.phase is Phase.DIX
    p = t.current_player
    refused(t, "claim 2", RuleCode.NO_CLAIM_OPEN, 2, "cannot claim during the dix phase")
    refused(t, "claim", RuleCode.NO_CLAIM_OPEN, p)
    u = to_three_handed_play(binocle.new_game("three-handed(claim_overlooked=true)", seed=5))
    refused(u, "claim overlooked", RuleCode.NO_CLAIM_OPEN, u.current_player, "nothing to claim")


def test_claim_or_pass() -> None:
    """After the last trick the player asked may only knock or pass before the hand is
    counted (CLAIM_OR_PASS; classic rules, Claiming (knocking))."""
    s = classic_last_trick_taken()
    p = s.current_player
    e = refused(s, "meld marriage KC QC", RuleCode.CLAIM_OR_PASS, p, "the last trick is taken")
    assert str(e).endswith("(classic rules, Claiming (knocking))")


def test_offer_pending() -> None:
    """While an overlooked meld is offered it is answered first (OFFER_PENDING;
    three-handed rules, Overlooked melds): no card, no knock."""
    s = run(kings_and_queens_laid_down(2), "pass", "pass", "play 9C")
    assert s.offer is not None
    p = s.current_player
    refused(s, "play AH", RuleCode.OFFER_PENDING, p, "overlooked")
    refused(s, "claim 0", RuleCode.OFFER_PENDING, 0, "overlooked is offered")


def test_retired() -> None:
    """A seat retired by a wrong claim cannot claim again (RETIRED; three-handed rules,
    Claiming (knocking)), in the hand and in the two-handed game that follows; there the
    classic rules refuse, with their codes."""
    s = to_three_handed_play(binocle.new_game("three-handed", seed=4))
    p = s.current_player
    assert p is not None
    out = binocle.apply(s, "claim")  # the player to act knocks, wrongly, and retires
    assert out.retired == p
    refused(out, f"claim {p}", RuleCode.RETIRED, p, "has retired after a wrong claim")
    sub = two_handed_continuation(4, "claim 1")
    sub = binocle.apply(sub, binocle.legal_actions(sub)[0])
    assert sub.sub is not None
    refused(sub, "claim 1", RuleCode.RETIRED, 1, "has retired")
    q = sub.current_player
    e = refused(sub, "bid 250", RuleCode.NOT_LEGAL, q)
    assert str(e).startswith("two-handed game after a retirement: ")


def test_not_legal() -> None:
    """Any other refusal (NOT_LEGAL): an action of another profile (a bid in the classic
    game), a knock naming no seat of the table, an action id that is not legal now."""
    s = classic_start()
    refused(s, "bid 250", RuleCode.NOT_LEGAL, 1, "seat 1 cannot bid 250 in the play phase")
    refused(s, claim(5), RuleCode.NOT_LEGAL, None, "a knock names a seat 0..1")
    c = cutthroat_play()
    space = action_space(c.profile)
    bid = space.id(c, "bid 250")
    assert bid not in legal_ids(c)
    with pytest.raises(IllegalActionError, match="is not legal now") as info:
        action_from_id(c, bid)
    assert info.value.rule is RuleCode.NOT_LEGAL
    assert info.value.action == binocle.actions.bid(250) and info.value.seat == 0


def test_encoding_codes() -> None:
    """binocle.encoding: an id in a finished game (GAME_OVER), a step past the end of an
    episode (GAME_OVER), a chance outcome that deals no card of the pack (BAD_DECK)."""
    over = play_game("cutthroat(max_hands=1,max_bid=300)", [RandomBot(i) for i in range(3)], seed=2)
    with pytest.raises(IllegalActionError) as info:
        action_from_id(over, 0)
    assert info.value.rule is RuleCode.GAME_OVER and info.value.seat is None
    ep = Episode.new("classic")
    assert ep.is_chance()
    with pytest.raises(IllegalActionError, match="not a card index") as info:
        ep.apply(10_000)
    assert info.value.rule is RuleCode.BAD_DECK and info.value.seat is None
    while not ep.is_terminal():
        ep = ep.apply(ep.legal_ids()[0])
    with pytest.raises(IllegalActionError, match="the episode is over") as info:
        ep.apply(0)
    assert info.value.rule is RuleCode.GAME_OVER


def test_announce_codes() -> None:
    """binocle.rules.classic_melds.announce refuses with the codes of the classic rules,
    Announcements: a combination in the wrong suit (MELD_SUIT), the grand binocle
    option (OPTION_OFF), no fresh card (FRESH_CARD), a fresh card not held
    (MELD_NOT_HELD), cards that do not make the combination (NOT_A_COMBINATION), a table
    slot used twice (CARDS_REUSED) and the same class rule (SAME_CLASS).  No action and
    no seat: it is given cards, not a state."""
    hand = tuple(sorted(binocle.parse_cards("KS KH KD KC KH KD KC QS QH JD")))
    empty = MeldTable()

    def fresh(kind: str, text: str) -> Announcement:
        found = fresh_announcement(kind, binocle.parse_cards(text))
        assert found is not None
        return found

    def code(
        cards: tuple[binocle.Card, ...], table: MeldTable, ann: Announcement, **kw: Any
    ) -> RuleCode:
        with pytest.raises(IllegalActionError) as info:
            announce(cards, table, ann, **kw)
        assert info.value.action is None and info.value.seat is None
        rule: RuleCode = info.value.rule
        return rule

    marriage = fresh("marriage", "KS QS")
    assert code(hand, empty, marriage, trump=0) is RuleCode.MELD_SUIT
    assert code(hand, empty, fresh("royal marriage", "KH QH"), trump=0) is RuleCode.MELD_SUIT
    grand = fresh("grand binocle", "KS QS JD")
    assert code(hand, empty, grand, trump=1, grand_binocle=False) is RuleCode.OPTION_OFF
    no_fresh = Announcement(marriage.combination, (), ())
    assert code(hand, empty, no_fresh) is RuleCode.FRESH_CARD
    assert code(binocle.parse_cards("KS"), empty, marriage) is RuleCode.MELD_NOT_HELD
    short = Announcement(marriage.combination, (), (binocle.parse_card("KS"),))
    assert code(hand, empty, short) is RuleCode.NOT_A_COMBINATION
    rest, laid = announce(hand, empty, fresh("four kings", "KS KH KD KC"), trump=1)
    slot = {str(c): s for s, c in laid.slots}
    qh = (binocle.parse_card("QH"),)
    royal = fresh("royal marriage", "KH QH").combination
    twice = Announcement(royal, (slot["KH"], slot["KH"]), qh)
    assert code(rest, laid, twice, trump=1) is RuleCode.CARDS_REUSED
    kings = fresh("four kings", "KS KH KD KC").combination
    again = Announcement(kings, (slot["KS"],), tuple(binocle.parse_cards("KH KD KC")))
    assert code(rest, laid, again, trump=1) is RuleCode.SAME_CLASS


def test_pickling_keeps_rule_action_and_seat() -> None:
    """A refusal pickles (a process pool's worker raising it) with its rule, action and
    seat."""
    s = run(cutthroat_play(), "play KS")
    with pytest.raises(IllegalActionError) as info:
        binocle.apply(s, "play TC")
    back = pickle.loads(pickle.dumps(info.value))
    assert type(back) is IllegalActionError and str(back) == str(info.value)
    assert (back.rule, back.action, back.seat) == (RuleCode.MUST_FOLLOW, info.value.action, 1)
    assert back.action == binocle.actions.play(binocle.parse_card("TC"))


# --- which codes the engine raises --------------------------------------------------------------

#: Every code :func:`binocle.apply` (or another engine call) raises, with the test above
#: that reaches it on a real position.
RAISED_BY_THE_ENGINE: dict[RuleCode, str] = {
    RuleCode.GAME_OVER: "test_game_over",
    RuleCode.WRONG_PHASE: "test_wrong_phase",
    RuleCode.BAD_DECK: "test_bad_deck",
    RuleCode.NOT_HELD: "test_not_held",
    RuleCode.WHICH_COPY: "test_which_copy",
    RuleCode.MUST_FOLLOW: "test_trick_obligations",
    RuleCode.MUST_BEAT: "test_trick_obligations",
    RuleCode.MUST_TRUMP: "test_trick_obligations",
    RuleCode.MUST_OVERTRUMP: "test_trick_obligations",
    RuleCode.MUST_UNDERTRUMP: "test_trick_obligations",
    RuleCode.ANNOUNCE_FIRST: "test_announce_first",
    RuleCode.ANNOUNCEMENTS_OVER: "test_announcements_over",
    RuleCode.BID_TOO_LOW: "test_bids",
    RuleCode.BID_TOO_HIGH: "test_bids",
    RuleCode.BID_STEP: "test_bids",
    RuleCode.BID_FORCED: "test_bids",
    RuleCode.OPTION_OFF: "test_option_off",
    RuleCode.NOT_BUNCHED: "test_not_bunched",
    RuleCode.BIDDER_ONLY: "test_giving_up",
    RuleCode.TOO_LATE: "test_giving_up",
    RuleCode.NO_DIX: "test_no_dix",
    RuleCode.MELD_NOT_HELD: "test_meld_refusals",
    RuleCode.NOT_A_COMBINATION: "test_meld_refusals",
    RuleCode.CARDS_REUSED: "test_meld_refusals",
    RuleCode.FRESH_CARD: "test_meld_refusals",
    RuleCode.SAME_CLASS: "test_meld_refusals",
    RuleCode.MELD_SUIT: "test_meld_refusals",
    RuleCode.NO_MELD: "test_meld_refusals",
    RuleCode.NO_CLAIM_OPEN: "test_no_claim_open",
    RuleCode.CLAIM_OR_PASS: "test_claim_or_pass",
    RuleCode.OFFER_PENDING: "test_offer_pending",
    RuleCode.RETIRED: "test_retired",
    RuleCode.NOT_LEGAL: "test_not_legal",
}

#: The codes only the validator and the stateless checks give: apply takes no seat (the
#: player to act acts) and no announced value.
PRODUCED_ELSEWHERE: frozenset[RuleCode] = frozenset({RuleCode.NOT_YOUR_TURN, RuleCode.WRONG_VALUE})


def test_every_code_is_raised_by_the_engine_or_produced_elsewhere() -> None:
    """Every RuleCode member is in exactly one list: raised by the engine (and then
    reached by its test in this module) or produced elsewhere; a new member needs a
    test.  Codes are their own text, unique."""
    raised = set(RAISED_BY_THE_ENGINE)
    assert raised.isdisjoint(PRODUCED_ELSEWHERE)
    assert raised | PRODUCED_ELSEWHERE == set(RuleCode)
    for test in RAISED_BY_THE_ENGINE.values():
        assert callable(globals().get(test)), test
    assert len({m.value for m in RuleCode}) == len(RuleCode)
    assert all(m == m.value and isinstance(m, str) for m in RuleCode)
    assert binocle.RuleCode is RuleCode and "RuleCode" in binocle.__all__


# --- refusals at random positions ---------------------------------------------------------------

_MUST = frozenset(
    {
        RuleCode.MUST_FOLLOW,
        RuleCode.MUST_BEAT,
        RuleCode.MUST_TRUMP,
        RuleCode.MUST_OVERTRUMP,
        RuleCode.MUST_UNDERTRUMP,
    }
)


def _obligation(s: GameState) -> Obligation:
    """The trick rule of the profile once the stock is gone (the Play sections)."""
    name = s.profile.name
    if name == "cutthroat":
        rule: Obligation = s.profile.obligation  # type: ignore[attr-defined]
        return rule
    if name == "classic":
        return Obligation.FOLLOW_WIN_TRUMP
    return Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP


def _expected_obligation(
    s: GameState, card: binocle.Card, hand: tuple[binocle.Card, ...]
) -> RuleCode:
    """The obligation a held card breaks, told from the rules: follow suit, else beat the
    best card of the suit led; void, trump, else overtrump, and unable to overtrump a
    trump already played, still under-trump."""
    played = [c for _, c in s.trick]
    led = played[0].suit
    trump = s.trump
    if any(c.suit == led for c in hand):
        return RuleCode.MUST_FOLLOW if card.suit != led else RuleCode.MUST_BEAT
    if card.suit != trump:
        best = played[binocle.rules.tricks.trick_winner(played, trump)]
        beats = [c for c in hand if c.suit == trump and binocle.rules.tricks.beats(c, best, trump)]
        return RuleCode.MUST_UNDERTRUMP if best.suit == trump and not beats else RuleCode.MUST_TRUMP
    return RuleCode.MUST_OVERTRUMP


def _expected_seat(s: GameState, action: Action) -> int | None:
    if action.kind is Kind.CLAIM and action.number is not None:
        return action.number if 0 <= action.number < len(s.hands) else None
    return None if action.kind is Kind.DEAL else s.current_player


def _check_refusals(
    s: GameState, pool: list[Action], rng: random.Random, seen: set[RuleCode]
) -> None:
    legal = set(binocle.legal_actions(s))
    knockers = binocle.claimants(s)
    tries = [
        a for a in pool if a not in legal and not (a.kind is Kind.CLAIM and a.number in knockers)
    ]
    sample = rng.sample(tries, min(12, len(tries)))
    if s.phase is Phase.PLAY and s.trick and s.current_player is not None:
        # Every held card the trick obligation may refuse, besides the sample.
        held = s.hands[s.current_player]
        sample += [a for a in map(binocle.actions.play, dict.fromkeys(held)) if a not in legal]
    copy = binocle.loads(binocle.dumps(s))
    for a in sample:
        with pytest.raises(IllegalActionError) as info:
            binocle.apply(s, a)
        e = info.value
        assert isinstance(e.rule, RuleCode) and e.rule not in PRODUCED_ELSEWHERE, (a, e)
        assert e.action == a and type(e.action) is Action
        assert e.seat == _expected_seat(s, a), (a, str(e))
        seen.add(e.rule)
        p = s.current_player
        if (
            a.kind is Kind.PLAY
            and a.source is None
            and s.phase is Phase.PLAY
            and s.trick
            and p is not None
            and getattr(s, "offer", None) is None
            and getattr(s, "sub", None) is None
            and getattr(s, "retired", None) is None
        ):
            hand = getattr(s, "concealed", s.hands)[p]
            if a.card in hand:
                played = [c for _, c in s.trick]
                rule = _obligation(s)
                assert a.card not in allowed_cards(hand, played, s.trump, rule)
                assert e.rule in _MUST and e.rule is _expected_obligation(s, a.card, hand)
                assert str(e) == obligation_broken(a.card, hand, played, s.trump, rule)
    assert s == copy and hash(s) == hash(copy)


@pytest.mark.parametrize(
    "spec",
    [
        "classic(max_hands=2)",
        "cutthroat(max_hands=2)",
        "cutthroat(max_hands=2,easier_tricks=true)",
        "cutthroat(max_hands=2,bunched_hands=true)",
        "three-handed(max_hands=2)",
        "three-handed(max_hands=2,claim_overlooked=true,meld_until_first_card=false)",
    ],
)
def test_refusals_at_random_positions(spec: str) -> None:
    """Seeded random playouts: at each position, actions legal at other positions of the
    profile (and knocks of every seat) but not here are refused with an
    IllegalActionError whose rule is a RuleCode, whose action is the action tried and
    whose seat is the player to act (the knocker; none for a deal), the state unchanged;
    a held card refused by the trick obligation gets the MUST_* code of the obligation
    it breaks (the Play sections of the rules pages), as binocle.rules.tricks says."""
    rng = random.Random(spec)
    pool: dict[Action, None] = {}
    states: list[GameState] = []
    for game in range(3):
        s = binocle.new_game(spec, seed=game, dealer=game % binocle.profile(spec).players)
        while not binocle.is_over(s):
            states.append(s)
            legal = binocle.legal_actions(s)
            pool.update((a, None) for a in legal if a.kind is not Kind.DEAL or len(pool) < 3)
            ordinary = [a for a in legal if a.kind not in (Kind.CLAIM, Kind.CONCEDE)]
            s = binocle.apply(
                s, rng.choice(ordinary if ordinary and rng.random() > 0.02 else legal)
            )
    players = binocle.profile(spec).players
    actions = [*pool, *(claim(i) for i in range(players + 1))]
    seen: set[RuleCode] = set()
    for s in rng.sample(states, min(250, len(states))):
        _check_refusals(s, actions, rng, seen)
    assert {RuleCode.NOT_HELD, RuleCode.MUST_FOLLOW, RuleCode.WRONG_PHASE} <= seen
