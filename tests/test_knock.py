"""Knocking out of turn: any player may claim the game at any moment his claim can be
checked, whoever is to act, and the first knock applied wins (classic rules, Claiming
(knocking); three-handed rules, Game: "claims as in the classic game").

Positions are dealt from decks built with :func:`binocle.stack_deck` and driven through
the public API: ``claimants``, ``claim <seat>``, views, records, JSON and the validator.
"""

from __future__ import annotations

import json

import pytest

import binocle
from binocle import Action, IllegalActionError, InvalidNotationError, InvalidStateError, Kind, Phase
from binocle.actions import claim
from binocle.bots import BaselineBot, RandomBot, knocker, play_game
from binocle.narrate import narrate_all
from binocle.testing import check_consistency, check_state
from helpers import kings_and_queens_laid_down, run, texts, two_handed_continuation

DEALER, PONE = 0, 1


def classic_game(target: int = 1000, turn_up: str = "9C") -> binocle.GameState:
    """Seat 0 deals; the pone holds both Aces of spades, the dealer the Nines of spades;
    the turn-up (a Nine of clubs by default: dix, 10, for the dealer at once)."""
    deck = binocle.stack_deck(
        "classic",
        ["9S 9S 9H 9H 9D 9D JC JC QC QC KC KC", "AS AS KH KH QH QH JH JH TD TD KD KD"],
        dealer=DEALER,
        turn_up=turn_up,
    )
    return binocle.new_game(f"classic(target={target})", deck=deck, dealer=DEALER)


def to_play(s: binocle.GameState) -> binocle.GameState:
    """A three-handed hand driven to the first lead: every seat passes its dix and melds."""
    while s.phase is Phase.DIX or s.phase is Phase.MELD:
        s = binocle.apply(s, "pass")
    assert s.phase is Phase.PLAY
    return s


def unchanged_by(s: binocle.GameState, action: Action | str, match: str) -> None:
    """``action`` is refused with IllegalActionError (message matching) and ``s`` is intact."""
    before = binocle.dumps(s)
    with pytest.raises(IllegalActionError, match=match):
        binocle.apply(s, action)
    assert binocle.dumps(s) == before


# --- the notation ---------------------------------------------------------------------------


def test_a_knock_names_its_seat() -> None:
    """Classic rules, Claiming (knocking): ``claim 2`` (or ``knock 2``) is seat 2's knock;
    plain ``claim`` stays the player to act's.  The text reads back."""
    a = binocle.actions.parse_action_text("claim 2")
    assert a == claim(2) == Action(Kind.CLAIM, number=2) and str(a) == "claim 2"
    assert binocle.actions.parse_action_text("KNOCK 1") == claim(1)
    assert binocle.actions.parse_action_text("claim") == claim() == Action(Kind.CLAIM)
    with pytest.raises(InvalidNotationError, match="not a knock"):
        binocle.actions.parse_action_text("claim 12")


# --- classic ----------------------------------------------------------------------------------


def test_either_player_may_knock_at_every_moment_of_the_hand() -> None:
    """Classic rules, Claiming (knocking): "when either player knows" — both seats are
    claimants after the deal, after a card is played, after a trick is taken and after an
    announcement and the draw; nobody between hands or once the game is over."""
    s = classic_game()
    assert s.current_player == PONE and binocle.claimants(s) == (0, 1)
    led = binocle.apply(s, "play AS")
    assert led.current_player == DEALER and binocle.claimants(led) == (0, 1)
    taken = binocle.apply(led, "play 9S")
    assert taken.phase is Phase.ANNOUNCE and binocle.claimants(taken) == (0, 1)
    drawn = binocle.apply(taken, "pass")
    assert drawn.phase is Phase.PLAY and binocle.claimants(drawn) == (0, 1)
    over = binocle.apply(drawn, "claim 0")
    assert binocle.claimants(over) == ()
    # The player to act is offered the knock among his legal actions, and only he is.
    for state in (s, led, taken, drawn):
        assert "claim" in texts(state)
        for seat in (0, 1):
            view = binocle.observe(state, seat)
            assert view.claimants == (0, 1)
            assert (view.legal_actions != ()) == (seat == state.current_player)


def test_the_loser_of_a_trick_knocks_before_the_winner_acts() -> None:
    """Classic rules, Claiming (knocking): the player who has just lost a trick may knock
    before the winner announces; his claim counts his dix (10 here, target 10)."""
    s = classic_game(target=10)
    s = run(s, "play AS", "play 9S")  # the pone wins; the dealer lost the trick
    assert s.phase is Phase.ANNOUNCE and s.current_player == PONE
    over = binocle.apply(s, f"claim {DEALER}")
    assert binocle.winner(over) == DEALER and binocle.end_reason(over) == "claim"
    assert over.results[-1].outcome == "claimed"
    assert over.moves()[-1] == (claim(DEALER), DEALER)  # the knocker is the actor


def test_when_both_could_knock_the_first_knock_applied_wins() -> None:
    """Classic rules, Claiming (knocking): "Even if both have enough to go out, the player
    wins who knocks first": after the trick both reach 10 (the dealer's dix, the pone's
    Ace); whichever knock is applied first wins, whoever is to act."""
    s = run(classic_game(target=10), "play AS", "play 9S")
    totals = binocle.observe(s, PONE).get("claim_totals")
    assert totals[DEALER] >= 10 and totals[PONE] >= 10
    assert binocle.winner(binocle.apply(s, "claim 0")) == DEALER
    assert binocle.winner(binocle.apply(s, "claim")) == PONE
    assert binocle.winner(binocle.apply(s, "claim 1")) == PONE
    with pytest.raises(IllegalActionError, match="game is over"):
        binocle.apply(binocle.apply(s, "claim 0"), "claim 1")


def test_a_knock_out_of_turn_in_the_middle_of_a_trick() -> None:
    """Classic rules, Claiming (knocking): after a card is played the leader, who is not to
    act, may knock; the claim counts only the tricks he has taken (none yet: wrong)."""
    s = binocle.apply(classic_game(target=11), "play AS")
    assert s.current_player == DEALER
    wrong = binocle.apply(s, "claim 1")
    assert binocle.winner(wrong) == DEALER and binocle.end_reason(wrong) == "claim"
    # With the trick taken he has 11 and the same knock is correct.
    s = binocle.apply(s, "play 9S")
    right = binocle.apply(s, "claim 1")
    assert binocle.winner(right) == PONE


def test_the_player_to_act_may_name_himself() -> None:
    """``claim <seat>`` of the player to act is his plain ``claim``: the same state, and
    the history keeps the plain text."""
    s = classic_game()
    a, b = binocle.apply(s, "claim 1"), binocle.apply(s, "claim")
    assert a == b and a.moves()[-1] == (claim(), PONE) == b.moves()[-1]


def test_refused_knocks_change_nothing() -> None:
    """A knock by a seat not among the claimants, of a seat that does not exist, or one that
    is not a knock, is refused with IllegalActionError and leaves the state unchanged."""
    s = classic_game()
    unchanged_by(s, "claim 2", "seat 0..1")
    with pytest.raises(binocle.InvalidNotationError):  # refused where it is made
        Action(Kind.CLAIM, number=-1)
    unchanged_by(s, Action(Kind.CLAIM, number=5), "seat 0..1")
    game_over = binocle.apply(binocle.new_game("classic", seed=2), "claim")
    unchanged_by(game_over, "claim 0", "game is over")
    for spec in ("cutthroat", "cutthroat(max_hands=1)"):
        c = binocle.new_game(spec, seed=7)
        assert binocle.claimants(c) == ()
        unchanged_by(c, "claim 1", "no claiming")
        unchanged_by(c, "claim 2", "no claiming")
    with pytest.raises(binocle.BinocleError):
        binocle.apply(s, Action(Kind.CLAIM, number="1"))  # type: ignore[arg-type]
    with pytest.raises(binocle.BinocleError):
        binocle.apply(s, Action(Kind.CLAIM, number=True))
    with pytest.raises(binocle.BinocleError):
        binocle.apply(s, Action(Kind.CLAIM, number=0, name="x"))


def test_no_knock_between_hands() -> None:
    """Classic rules, Claiming (knocking): a claim is checked during a hand; between hands
    (the next action is the deal) nobody may knock."""
    s = binocle.new_game("classic", seed=5)
    rng_bot = RandomBot(1)
    while s.phase is not Phase.DEAL:
        p = s.current_player
        assert p is not None
        s = binocle.apply(s, rng_bot.choose(binocle.observe(s, p)))
    assert binocle.claimants(s) == ()
    unchanged_by(s, "claim 0", "hand is over")


# --- records, JSON, the validator, the narration ------------------------------------------


def _out_of_turn_wrong_knock() -> tuple[binocle.GameState, int]:
    """Classic, default target: the pone leads; then, the dealer to act, the pone knocks."""
    s = binocle.apply(classic_game(), "play AS")
    return s, len(s.moves())


def test_records_and_json_carry_a_knock_out_of_turn() -> None:
    """The seat of a knock in a record is the knocker: ``{"seat": 1, "action": "claim 1"}``
    while seat 0 is to act; the record replays it, and the saved state reads back."""
    s = binocle.apply(classic_game(target=11), "play AS")
    over = binocle.apply(s, "claim 1")
    r = binocle.record(over)
    assert r["actions"][-1] == {"seat": 1, "action": "claim 1"}
    assert binocle.replay(r) == over
    back = binocle.loads(binocle.dumps(over))
    assert back == over and back.moves() == over.moves()
    assert json.loads(binocle.dumps(over))["actions"][-1] == {"seat": 1, "action": "claim 1"}
    # Written by hand, "claim" with the knocker's seat means the same.
    r["actions"][-1] = {"seat": 1, "action": "claim"}
    assert binocle.replay(r) == over
    # A knock that names another seat than its entry is refused.
    r["actions"][-1] = {"seat": 0, "action": "claim 1"}
    with pytest.raises(InvalidStateError, match="names seat 1"):
        binocle.replay(r)


def test_the_validator_reports_a_wrong_knock_out_of_turn() -> None:
    """Classic rules, Claiming (knocking): a wrong knock is a legal action that loses the
    game; the validator lists it with the knocker's seat and says it came out of turn."""
    s, index = _out_of_turn_wrong_knock()
    over = binocle.apply(s, "claim 1")
    report = binocle.validate(binocle.record(over))
    assert report.ok and report.over and report.winner == DEALER
    assert report.wrong_claims == ((index, PONE),)
    assert "seat 1 knocked out of turn (seat 0 to act)" in report.notes[0]
    assert "Claiming (knocking)" in report.notes[0]


def test_the_validator_refuses_a_knock_where_none_is_possible() -> None:
    """Cutthroat has no claiming: a knock in a record is an illegal action by the knocker."""
    s = binocle.new_game("cutthroat", seed=7)
    r = binocle.record(s)
    r["actions"].append({"seat": 0, "action": "claim"})
    report = binocle.validate(r)
    assert not report.ok and report.kind == "illegal action"
    assert report.seat == 0 and report.index == 1 and "no claiming" in (report.rule or "")
    with pytest.raises(InvalidStateError, match="no claiming"):
        binocle.replay(r)


def test_the_narration_names_the_knocker_once() -> None:
    """The narration says who knocked, that it was out of turn, and the verdict, once."""
    s, _ = _out_of_turn_wrong_knock()
    lines = narrate_all(s, claim(1), binocle.apply(s, "claim 1"))
    knocks = [line for line in lines if "knocks" in line]
    assert knocks == [
        "  seat 1 knocks out of turn (seat 0 to act), claiming the game:"
        " the claim is wrong: he loses the game to seat 0"
    ]
    assert not any(line.strip().startswith("seat 1: claim") for line in lines)
    assert lines[-1] == "Game over (by a claim): seat 0 wins with 10"


# --- three-handed ------------------------------------------------------------------------------


def test_three_handed_claimants_are_the_players_in_the_play() -> None:
    """Three-handed rules, Game: claims as in the classic game, by any player, from the
    first lead on (nothing scores before the first trick); no knock in the dix and melds."""
    s = binocle.new_game("three-handed", seed=4)
    assert s.phase is Phase.DIX and binocle.claimants(s) == ()
    unchanged_by(s, "claim 0", "during the dix phase")
    s = to_play(s)
    assert binocle.claimants(s) == (0, 1, 2)
    for seat in range(3):
        assert binocle.observe(s, seat).claimants == (0, 1, 2)


def test_three_handed_wrong_knock_out_of_turn_after_playing_to_the_trick() -> None:
    """Three-handed rules, Claiming (knocking): a wrong claim retires the claimant and the
    two others finish alone.  Resolution: a card he already played to the trick in progress
    stays on the table, keeps the suit it led and wins nothing; when the trick is taken it
    counts for nobody (it joins his dead cards).  Before: his card left the trick."""
    s = to_play(binocle.new_game("three-handed", seed=4))
    leader = s.current_player
    assert leader is not None
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    second = s.current_player
    assert second is not None
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    third = s.current_player
    assert third is not None and len(s.trick) == 2
    out = binocle.apply(s, f"claim {second}")  # the second player knocks, wrongly
    check_state(out)
    assert out.retired == second and out.hands[second] == ()
    assert out.trick == s.trick and out.current_player == third
    assert binocle.claimants(out) == tuple(sorted((leader, third)))
    assert len(out.dead) == 15  # his hand; the card on the table is not dead yet
    unchanged_by(out, f"claim {second}", "has retired")
    done = binocle.apply(out, binocle.legal_actions(out)[0])  # the two live cards are in
    check_state(done)
    assert done.trick == () and done.tricks == 1 and len(done.dead) == 16
    assert done.dead[-1] == s.trick[1][1]
    last = done.moves()[-1][0].card
    assert done.piles[done.current_player] == (s.trick[0][1], last)


def test_three_handed_dead_card_keeps_the_suit_it_led() -> None:
    """Three-handed rules, Claiming (knocking): seat 1 leads AH, seat 2 (void in hearts)
    trumps with 9S, then seat 1 knocks wrongly and retires.  His AH stays on the table and
    keeps the suit it led: seat 0, who holds a heart, must follow with it (before, the
    trick became 9S alone and he had to play his only trump).  The AH wins nothing; the
    trump takes the trick, and the AH counts for nobody."""
    hands = [
        "9H KS 9D 9D AC AC TC TC KC KC QC QC JC JC 9C 9C",
        "AH AH TH TH KH KH QH QH JH JH 9H AS AS TS TS KS",
        "QS QS JS JS 9S 9S AD AD TD TD KD KD QD QD JD JD",
    ]
    deck = binocle.stack_deck("three-handed", hands, dealer=0, turn_up="KS")
    s = run(binocle.new_game("three-handed", deck=deck, dealer=0), *["pass"] * 6)
    s = run(s, "play AH", "play 9S")
    s = binocle.apply(s, "claim 1")  # 0 up, short of 1000: he retires
    check_state(s)
    assert s.retired == 1 and s.current_player == 0
    assert [(i, str(c)) for i, c in s.trick] == [(1, "AH"), (2, "9S")]
    assert [str(a) for a in binocle.legal_actions(s) if a.kind is Kind.PLAY] == ["play 9H"]
    unchanged_by(s, "play KS", "must follow suit H")
    s = binocle.apply(s, "play 9H")
    check_state(s)
    assert s.trick == () and s.current_player == 2 and s.taken == (0, 0, 0)
    assert [str(c) for c in s.piles[2]] == ["9S", "9H"]
    assert len(s.dead) == 16 and binocle.parse_card("AH") in s.dead


def test_three_handed_correct_knock_out_of_turn() -> None:
    """Three-handed rules, Game: a correct claim wins at once, made out of turn too: the
    winner of the first trick leads, then knocks before the next player plays."""
    s = to_play(binocle.new_game("three-handed(target=1)", seed=4))
    for _ in range(3):
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    w = s.current_player
    assert w is not None and binocle.observe(s, w).get("claim_totals")[w] >= 1
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    assert s.current_player != w
    over = binocle.apply(s, f"claim {w}")
    assert binocle.winner(over) == w and binocle.end_reason(over) == "claim"
    assert binocle.replay(binocle.record(over)) == over


def test_no_knock_while_an_overlooked_meld_is_offered() -> None:
    """Three-handed rules, Claiming (knocking) and the option ``claim_overlooked``: while
    the meld a player overlooked is offered to the others, it is answered first; then any
    player may knock again."""
    s = run(kings_and_queens_laid_down(2), "pass", "pass", "play 9C")
    assert s.offer is not None and binocle.claimants(s) == ()
    unchanged_by(s, "claim 0", "overlooked is offered")
    while s.offer is not None:
        s = binocle.apply(s, "pass")
    assert binocle.claimants(s) == (0, 1, 2)


def _two_handed_continuation() -> binocle.GameState:
    """A three-handed game in which a wrong claim retired seat 1 and nobody won the deal:
    the two others go on with the classic game."""
    s = two_handed_continuation(4, "claim 1")
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    assert s.sub is not None and s.pair == (0, 2)
    return s


def test_knocks_in_the_two_handed_continuation() -> None:
    """Three-handed rules, Game: after a retirement the two others play the classic game,
    with its knocking: both of them may knock whoever is to act, the retired player not."""
    s = _two_handed_continuation()
    assert binocle.claimants(s) == (0, 2)
    unchanged_by(s, "claim 1", "has retired")
    other = 2 if s.current_player == 0 else 0
    over = binocle.apply(s, f"claim {other}")
    assert binocle.is_over(over) and binocle.winner(over) == 2 - other
    assert binocle.end_reason(over) == "claim"
    assert over.moves()[-1] == (claim(other), other)
    assert binocle.replay(binocle.record(over)) == over
    assert binocle.loads(binocle.dumps(over)) == over


def test_cutthroat_has_no_claimants() -> None:
    """Cutthroat rules: the game is won at the end of a hand; nobody ever knocks."""
    seen = 0

    def step(before: binocle.GameState, action: Action, after: binocle.GameState) -> None:
        nonlocal seen
        assert binocle.claimants(after) == ()
        seen += 1

    play_game("cutthroat(max_hands=2)", seed=3, on_step=step)
    assert seen > 50


# --- bots -----------------------------------------------------------------------------------


class AlwaysKnocks(RandomBot):
    """Knocks out of turn at the first chance."""

    def knock(self, view: binocle.View) -> bool:
        return True


def test_runners_ask_the_other_seats_after_every_action() -> None:
    """Bots are offered the knock out of turn through ``knock(view)``: after the deal the
    dealer (not to act) is asked first, knocks, and loses (nobody has 1000)."""
    steps: list[tuple[Action, int | None]] = []
    end = play_game(
        "classic",
        [AlwaysKnocks(1), RandomBot(2)],
        seed=3,
        on_step=lambda before, action, after: steps.append(after.moves()[-1]),
    )
    assert steps[-1] == (claim(DEALER), DEALER) and len(steps) == 2
    assert binocle.winner(end) == PONE
    s = binocle.new_game("classic", seed=3)
    assert knocker(s, [AlwaysKnocks(1), RandomBot(2)]) == DEALER
    assert knocker(s, [RandomBot(1), RandomBot(2)]) is None  # no knock hook: never asked


@pytest.mark.parametrize("profile", ["classic", "three-handed"])
def test_baseline_bots_knock_exactly_when_the_claim_is_correct(profile: str) -> None:
    """Classic rules, Claiming (knocking): the baseline bot claims as soon as its claim is
    correct, and never wrongly.  (Its total rises when it takes a trick or announces, when
    it is the player to act, so its knocks come at its turn; see the next test for out of
    turn.)"""
    claims = 0
    for seed in range(8):

        def step(before: binocle.GameState, action: Action, after: binocle.GameState) -> None:
            nonlocal claims
            if action.kind is Kind.CLAIM:
                claims += 1
                assert binocle.winner(after) == after.moves()[-1][1]  # never a wrong claim

        end = play_game(profile, seed=seed, on_step=step)
        assert binocle.is_over(end)
    assert claims >= 4


def test_baseline_knock_reads_the_claim_totals() -> None:
    """The baseline bot's knock: its claim total (score, points recorded this hand, cards
    won) against its target, from its view alone."""
    s = run(classic_game(target=10), "play AS", "play 9S")
    bot = BaselineBot(0)
    assert bot.knock(binocle.observe(s, DEALER)) and bot.knock(binocle.observe(s, PONE))
    # The dealer lost the trick, yet his dix reaches 10: asked out of turn, he knocks first.
    assert s.current_player == PONE and knocker(s, [BaselineBot(1), BaselineBot(2)]) == DEALER
    s = run(classic_game(target=12), "play AS", "play 9S")
    assert not bot.knock(binocle.observe(s, DEALER)) and not bot.knock(binocle.observe(s, PONE))


@pytest.mark.parametrize("profile", ["classic", "three-handed", "three-handed(lowest_pays=true)"])
def test_consistency_with_knocks_from_every_seat(profile: str) -> None:
    """Random games in which any seat that may knock sometimes does, out of turn too: every
    invariant holds, refused knocks change nothing, records and JSON carry the knocks."""
    report = check_consistency(profile, games=5, seed=5, max_hands=3, claim_rate=0.03)
    assert report.knocks > 0 and report.games == 5
