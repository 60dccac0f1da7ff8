"""The narration of a game (``binocle demo``, ``binocle play``): every action told once,
in words, with one card style for the whole output."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import binocle
from binocle.actions import Kind, parse_action_text
from binocle.bots import BaselineBot, play_game
from binocle.narrate import (
    action_text,
    cards_text,
    describe,
    hand_by_suit,
    label,
    narrate,
    narrate_all,
    plural,
)
from binocle.records import meld_value

LETTER_CARD = re.compile(r"\b[AKQJT987][SHDC]\b")


def _told(
    profile: str, seed: int, suits: str = "symbols"
) -> tuple[list[str], list[binocle.Action]]:
    """The narration of a whole game between baseline bots, and its actions."""
    lines: list[str] = []
    actions: list[binocle.Action] = []

    def show(before: binocle.GameState, action: binocle.Action, after: binocle.GameState) -> None:
        actions.append(action)
        lines.extend(narrate_all(before, action, after, suits))

    n = binocle.profile(profile).players
    play_game(profile, [BaselineBot(seed * 10 + i) for i in range(n)], seed=seed, on_step=show)
    return lines, actions


def _game_with(profile: str, kind: Kind) -> tuple[list[str], list[binocle.Action]]:
    """The narration of the first game (seeds 1 to 12) with an action of ``kind``."""
    for seed in range(1, 13):
        lines, actions = _told(profile, seed)
        if any(a.kind is kind for a in actions):
            return lines, actions
    pytest.fail(f"no {kind.value} in seeds 1 to 12")  # pragma: no cover


def test_plural() -> None:
    assert plural(1, "game") == "1 game"
    assert plural(2, "game") == "2 games"
    assert plural(0, "baseline bot") == "0 baseline bots"
    assert plural(2, "Nine", "Nines") == "2 Nines"


def test_a_classic_knock_is_told_once() -> None:
    """Classic rules, Knocking: a claim is one line, the knock and its verdict, never the
    bare action text beside it."""
    lines, actions = _game_with("classic", Kind.CLAIM)
    claims = sum(1 for a in actions if a.kind is Kind.CLAIM)
    assert sum("knocks, claiming the game" in line for line in lines) == claims
    assert not any(line.strip().endswith(": claim") for line in lines)


def test_a_concession_is_told_in_words() -> None:
    """Cutthroat rules, Giving up: the bidder's concession reads as words, not ``seat 0:
    concede``."""
    lines, _ = _game_with("cutthroat", Kind.CONCEDE)
    assert any("concedes: the bidder gives up the hand" in line for line in lines)
    assert not any(re.search(r"seat \d: concede", line) for line in lines)


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_no_bare_plural_or_notation_in_the_narration(profile: str) -> None:
    """No "Nine(s)", no unexplained ``KS + QS``: a classic announcement that uses cards
    already on the table says so (classic rules, Melding)."""
    for seed in (1, 2, 3):
        lines, _ = _told(profile, seed)
        text = "\n".join(lines)
        assert "(s)" not in text
        assert " + " not in text


def test_an_announcement_with_table_cards_says_so() -> None:
    """Classic rules, Melding: a combination that reuses cards already on the table
    (notation ``meld marriage KS + QS``) says which cards were there already."""
    seen = 0
    for seed in (1, 2, 3):

        def check(before: binocle.GameState, a: binocle.Action, after: binocle.GameState) -> None:
            nonlocal seen
            if a.kind is Kind.MELD and a.source:
                (line,) = (x for x in narrate_all(before, a, after) if " announces " in x)
                assert "already on the table" in line or "all on the table" in line, line
                seen += 1

        bots = [BaselineBot(seed * 10 + i) for i in range(2)]
        play_game("classic", bots, seed=seed, on_step=check)
    assert seen >= 1


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_one_card_style_per_output(profile: str) -> None:
    """``symbols``: every card as ``T♠`` (no ``TS`` anywhere); ``letters``: every card as
    ``TS`` and plain ASCII throughout."""
    symbols, _ = _told(profile, 2, "symbols")
    assert not any(LETTER_CARD.search(line) for line in symbols), [
        line for line in symbols if LETTER_CARD.search(line)
    ][:3]
    letters, _ = _told(profile, 2, "letters")
    assert all(line.isascii() for line in letters), [
        line for line in letters if not line.isascii()
    ][:3]
    assert any(LETTER_CARD.search(line) for line in letters)


def test_card_helpers_in_both_styles() -> None:
    cards = binocle.parse_cards("AS TH 9C")
    assert cards_text(cards, "symbols") == "A♠ T♥ 9♣"
    assert cards_text(cards, "letters") == "AS TH 9C"
    assert cards_text((), "letters") == "-"
    assert hand_by_suit(cards, "letters") == "S A  H T  D -  C 9"
    assert hand_by_suit(cards, "symbols") == "♠ A  ♥ T  ♦ –  ♣ 9"
    with pytest.raises(binocle.InvalidArgumentError):
        hand_by_suit(cards, "fancy")


def test_action_text_reads_back() -> None:
    """An action printed with suit symbols is still text that ``parse_action`` reads."""
    s = binocle.new_game("classic", seed=3)
    for action in binocle.legal_actions(s):
        shown = action_text(action, "symbols")
        assert binocle.parse_action(s, shown) == action
        assert action_text(action, "letters") == str(action)


def test_overlooked_melds_and_late_announcements_are_told() -> None:
    """Three-handed rules, Melds and Overlooked melds: an announcement in the play (before
    the player's first card) is told with its value; the first card that leaves meld
    unannounced tells who overlooked how much and who is asked first; each answer is told
    in words, never as bare action text."""
    p = "three-handed(claim_overlooked=true)"
    deck = binocle.stack_deck(
        p,
        [
            "KS QS JS AH 9H 9H KD QD JD JD AC AC KC QC JC 9C",
            "AH TH KH QH JH AS TS TS AD TD TC JS 9S 9D 9C JC",
            "KS KH KD KC QS QH QD QC AS 9S TH JH AD TD 9D TC",
        ],
        dealer=0,
        turn_up="AH",
    )
    s = binocle.new_game(p, deck=deck, dealer=0)
    lines: list[str] = []
    for text in (
        *("pass", "pass", "pass", "meld royal marriage KH QH", "pass"),
        *("meld four kings KS KH KD KC", "meld four queens QS QH QD QC", "pass", "meld"),
        *("meld sequence AH TH JH + KH QH", "play AS", "play 9S", "pass", "claim overlooked"),
    ):
        after = binocle.apply(s, text)
        lines.extend(narrate_all(s, binocle.parse_action(s, text), after))
        s = after
    told = "\n".join(lines)
    assert "seat 1 announces sequence" in told and "(150)" in told
    assert "seat 2 overlooked 80 points of meld: seat 0 may claim them first" in told
    assert "seat 0 lets go the 80 points of meld seat 2 overlooked" in told
    assert "seat 1 claims the 80 points of meld seat 2 overlooked" in told
    assert "claim overlooked" not in told and ": pass" not in told


# -- one seat's narration -----------------------------------------------------------------

#: A hand grouped by suit in letters (``S A T K  H Q 9``): a suit, then its ranks.
SUIT_GROUP = re.compile(r"\b([SHDC])((?: [AKQJT987]\b)+)")


def _named_cards(lines: list[str]) -> set[str]:
    """Every card that lines in letters name, one by one (``TS``) or in a hand by suit."""
    text = " ".join(lines)
    cards = set(LETTER_CARD.findall(text))
    for suit, ranks in SUIT_GROUP.findall(text):
        cards.update(rank + suit for rank in ranks.split())
    return cards


#: Seeded games of every profile, with the options that add actions of their own.
SEAT_GAMES = (
    "classic",
    "three-handed",
    "three-handed(claim_overlooked=true)",
    "cutthroat",
    "cutthroat(bunched_hands=true)",
)


def _cards_in(value: object) -> set[str]:
    """Every card in a view's part (cards, tuples, melds, actions, log text), as ``TS``."""
    out: set[str] = set()
    if isinstance(value, binocle.Card):
        out.add(str(value))
    elif isinstance(value, str):
        out.update(LETTER_CARD.findall(value))
    elif isinstance(value, (tuple, list)):
        for item in value:
            out |= _cards_in(item)
    elif hasattr(value, "__attrs_attrs__") or hasattr(value, "__slots__"):
        for name in getattr(value, "__slots__", ()) or ():
            out |= _cards_in(getattr(value, name, None))
        for a in getattr(value, "__attrs_attrs__", ()):
            out |= _cards_in(getattr(value, a.name, None))
    return out


def _view_cards(view: binocle.View) -> set[str]:
    """The cards a seat's view shows: its hand, the trick, the public facts, its log and
    history (cards played or shown, its own draws, the turn-up)."""
    return (
        _cards_in(view.hand)
        | _cards_in(view.trick)
        | _cards_in(view.public)
        | _cards_in(view.log)
        | _cards_in(view.history)
    )


def _seat_story(profile: str, seed: int, hands: int = 2) -> Iterator[tuple[Any, ...]]:
    """Every step of a seeded game between baseline bots: ``(before, action, after)``."""
    steps: list[tuple[Any, ...]] = []
    n = binocle.profile(profile).players
    bots = [BaselineBot(seed * 10 + i) for i in range(n)]
    play_game(profile, bots, seed=seed, max_hands=hands, on_step=lambda *s: steps.append(s))
    return iter(steps)


@pytest.mark.parametrize("profile", SEAT_GAMES)
def test_a_seats_narration_shows_no_card_its_view_hides(profile: str) -> None:
    """Rule (every profile's views: no hidden card of anyone else): every card a line of
    ``narrate`` names for a seat is one the seat's view shows, before or after the
    action (its hand, the cards played or shown, its own draws); so none of the cards
    in another seat's hand, the stock or a face-down widow or discard that the seat has
    not seen."""
    checked = 0
    for seed in (1, 2, 3):
        for before, action, after in _seat_story(profile, seed):
            for seat in range(len(after.hands)):
                b, a = binocle.observe(before, seat), binocle.observe(after, seat)
                lines = narrate(b, a, suits="letters")
                assert lines == narrate(before, after, seat=seat, suits="letters")
                unseen = _named_cards(lines) - _view_cards(b) - _view_cards(a)
                assert not unseen, (seat, action, lines)
                checked += bool(lines)
    assert checked > 100


@pytest.mark.parametrize("profile", SEAT_GAMES)
def test_the_omniscient_narration_is_caught_by_the_same_check(profile: str) -> None:
    """The check above is not empty: ``narrate_all`` (every hand at a deal) names cards
    hidden from each seat."""
    for before, action, after in _seat_story(profile, 1, hands=1):
        if action.kind is Kind.DEAL:
            told = _named_cards(narrate_all(before, action, after, "letters"))
            for seat in range(len(after.hands)):
                unseen = told - _view_cards(binocle.observe(after, seat))
                others = {str(c) for p, h in enumerate(after.hands) if p != seat for c in h}
                assert unseen and unseen <= others
            return
    pytest.fail("no deal")  # pragma: no cover


def test_a_seat_is_told_its_own_draws_and_not_the_others() -> None:
    """Classic rules, Announcements: after each announcement both players draw; a seat's
    narration names its own card ("you draw ...") and tells the other's as "a card",
    except the turn-up, which was face up; the views' logs carry the same draws."""
    own = other = 0
    for before, action, after in _seat_story("classic", 4, hands=1):
        if before.phase is not binocle.Phase.ANNOUNCE or after.phase is binocle.Phase.OVER:
            continue
        for seat in (0, 1):
            view = binocle.observe(after, seat)
            (line,) = (x for x in narrate(before, after, seat=seat) if " draws " in x)
            drawn = _new(before.hands[seat], after.hands[seat])
            if drawn and action.kind is not Kind.DIX:
                assert f"you draw {drawn[0].symbol}" in line
                assert f"{seat}: draw {drawn[0]}" in view.log
                own += 1
            if f"seat {1 - seat} draws a card" in line:
                assert f"{1 - seat}: draw" in view.log
                other += 1
    assert own > 10 and other > 10


def _new(old: tuple[binocle.Card, ...], new: tuple[binocle.Card, ...]) -> list[binocle.Card]:
    gained = list(new)
    for c in old:
        if c in gained:
            gained.remove(c)
    return gained


def test_a_deal_shows_the_seat_its_own_hand_and_the_others_counts() -> None:
    """A seat's narration of a deal shows its own hand and only the number of cards of
    the others (cutthroat rules, Deal: fifteen cards each)."""
    s = binocle.new_game("cutthroat", seed=5)
    before = binocle.start("cutthroat", 5)
    lines = narrate(before, s, seat=2)
    assert f"  seat 2 (you): {hand_by_suit(s.hands[2])}" in lines
    assert "  seat 0: 15 cards" in lines and "  seat 1: 15 cards" in lines


def test_another_bidders_discards_are_told_as_a_card() -> None:
    """Cutthroat rules, Discard: the bidder's discards are face down; the others are
    told that he discards a card, the bidder ("you") which card."""
    for before, action, after in _seat_story("cutthroat", 1, hands=1):
        if action.kind is Kind.DISCARD:
            bidder = before.current_player
            other = (bidder + 1) % 3
            assert narrate(before, after, seat=other) == [f"  seat {bidder} discards a card"]
            mine = narrate(before, after, seat=bidder)
            assert mine == [f"  you discard {action.card.symbol}"]
            return
    pytest.fail("no discard")  # pragma: no cover


def test_narrate_refuses_views_that_do_not_follow() -> None:
    """Two views of different seats, a later view given first, a state without a seat:
    refused with InvalidArgumentError."""
    s = binocle.new_game("classic", seed=1)
    t = binocle.apply(s, binocle.legal_actions(s)[0])
    with pytest.raises(binocle.InvalidArgumentError):
        narrate(binocle.observe(s, 0), binocle.observe(t, 1))
    with pytest.raises(binocle.InvalidArgumentError):
        narrate(binocle.observe(t, 0), binocle.observe(s, 0))
    with pytest.raises(binocle.InvalidArgumentError):
        narrate(s, t)


def test_several_actions_between_two_views_are_each_told() -> None:
    """Views several actions apart: every action between them is told, the hand's
    summary once it ends."""
    steps = list(_seat_story("cutthroat", 2, hands=1))
    first, last = steps[1][0], steps[-1][2]
    lines = narrate(first, last, seat=0)
    assert len([x for x in lines if x.startswith(("  seat", "  you"))]) == len(steps) - 1
    assert any("hand over" in x for x in lines)


def test_describe_is_deprecated_for_narrate_all() -> None:
    """``describe`` still works, warning that it is now ``narrate_all``."""
    s = binocle.new_game("classic", seed=1)
    a = binocle.legal_actions(s)[0]
    t = binocle.apply(s, a)
    with pytest.warns(DeprecationWarning, match="narrate_all"):
        old = describe(s, a, t)
    assert old == narrate_all(s, a, t)


# -- labels -----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", SEAT_GAMES)
def test_every_legal_action_has_a_label(profile: str) -> None:
    """Every legal action of every state visited has a label, with the position and
    without, in both styles; in letters it is plain ASCII, and none is bare notation."""
    kinds = set()
    for seed in (1, 2):
        for before, _, _ in _seat_story(profile, seed):
            p = before.current_player
            view = binocle.observe(before, p) if p is not None else None
            for a in binocle.legal_actions(before):
                kinds.add(a.kind)
                for where in (view, before, None):
                    text = label(a, where)
                    assert text.strip() and text[0].isupper(), (a, text)
                    assert label(a, where, "letters").isascii()
                assert label(a, view) != str(a)
    assert {Kind.DEAL, Kind.PLAY} <= kinds


def test_labels_of_each_kind() -> None:
    """The label of every kind of action, meld values from the rules (classic rules,
    Announcements: royal marriage 40) and the hand's best meld where ``meld`` alone."""
    act = parse_action_text
    assert label(act("meld royal marriage KS QS")) == "Announce royal marriage K♠ Q♠ (40)"
    assert label(act("meld royal marriage KS QS"), suits="letters") == (
        "Announce royal marriage KS QS (40)"
    )
    assert label(act("meld marriage KS + QS")) == (
        "Announce marriage K♠, with Q♠ already on the table (20)"
    )
    assert label(act("play TS table")) == "Play T♠ from the table"
    assert label(act("play TS")) == "Play T♠"
    assert label(act("bid 260")) == "Bid 260"
    assert label(act("pass")) == "Pass"
    assert label(act("discard TS")) == "Discard T♠"
    assert label(act("trump H")) == "Name trump ♥ (hearts)"
    assert label(act("trump H"), suits="letters") == "Name trump H (hearts)"
    assert label(act("dix 2")) == "Show 2 Nines of trumps (dix, 20)"
    assert label(act("claim")) == "Knock: claim the game"
    assert label(act("claim 2")) == "Seat 2 knocks: claims the game"
    assert label(act("concede")) == "Concede the hand"
    assert label(act("bunch")).startswith("Bunch the hand")
    assert label(act("claim overlooked")) == "Claim the overlooked meld"
    assert label(binocle.legal_actions(binocle.start("classic", 1))[0]) == "Deal the next hand"
    s = binocle.new_game("cutthroat", seed=3)
    while binocle.legal_actions(s) != (act("meld"),):
        s = binocle.apply(s, binocle.legal_actions(s)[-1 if s.phase.value == "bidding" else 0])
    best = binocle.meld(s.hands[s.current_player], s.trump, "cutthroat").total
    view = binocle.observe(s, s.current_player)
    assert label(act("meld"), view) == f"Declare your best meld ({best})"
    assert meld_value(view, act("meld")) == meld_value(s, act("meld")) == best


def test_labels_in_the_classic_announcement() -> None:
    """Classic rules, Announcements: after a trick won, a pass is "Announce nothing" and
    the dix an exchange for the turn-up."""
    for before, _, _ in _seat_story("classic", 1, hands=1):
        if before.phase is binocle.Phase.ANNOUNCE:
            assert label(parse_action_text("pass"), before) == "Announce nothing"
            assert label(parse_action_text("dix"), before) == (
                "Exchange the Nine of trumps for the turn-up (dix, 10)"
            )
            return
    pytest.fail("no announcement")  # pragma: no cover


def test_meld_value_refuses_what_it_cannot_score() -> None:
    """``meld`` alone scores the hand of the player to act: without it (no position, the
    view of another seat) and for an action that is no meld, InvalidArgumentError."""
    s = binocle.new_game("cutthroat", seed=3)
    with pytest.raises(binocle.InvalidArgumentError):
        meld_value(None, parse_action_text("meld"))
    with pytest.raises(binocle.InvalidArgumentError):
        meld_value(s, parse_action_text("pass"))
    other = (s.current_player + 1) % 3
    with pytest.raises(binocle.InvalidArgumentError):
        meld_value(binocle.observe(s, other), parse_action_text("meld"))


# -- the seat told and the seats' names ---------------------------------------------------


def test_the_seat_told_is_you_and_the_others_go_by_their_names() -> None:
    """A narration for one seat calls that seat "you", as ``str(view)`` does ("you bid
    260", not "seat 2 bids 260"); the names the caller gives name the others, and
    ``narrate_all``, told to nobody, names every seat."""
    s = binocle.new_game("cutthroat", seed=1)
    s = binocle.apply(s, "bid 250")
    t = binocle.apply(s, "bid 260")
    names = ["Anna", "Ben", "Carla"]
    assert narrate(s, t, seat=2) == ["  you bid 260"]
    assert narrate(s, t, seat=0, names=names) == ["  Carla bids 260"]
    assert narrate(s, t, seat=2, names=names) == ["  you bid 260"]
    assert narrate_all(s, binocle.parse_action(s, "bid 260"), t, names=names) == [
        "  Carla bids 260"
    ]
    u = binocle.apply(t, "pass")
    assert narrate(t, u, seat=2, names=[None, "Ben", None]) == ["  seat 0 passes"]


def test_a_whole_told_hand_says_you_throughout() -> None:
    """Every line of a seat's narration of a whole cutthroat hand that names the seat
    told says "you" (never "seat n" for it, but in the lists of seats: "seat n (you)")."""
    for before, _, after in _seat_story("cutthroat", 3, hands=1):
        for seat in range(3):
            for line in narrate(before, after, seat=seat):
                assert not re.search(rf"seat {seat}(?! \(you\))", line), (seat, line)


@pytest.mark.parametrize("names", ["Anna Ben Carla", ["Anna"], [1, 2, 3], 7])
def test_names_that_are_not_one_a_seat_are_refused(names: object) -> None:
    """``names`` are one a seat, text or None: anything else raises InvalidArgumentError."""
    s = binocle.new_game("cutthroat", seed=1)
    t = binocle.apply(s, "bid 250")
    with pytest.raises(binocle.InvalidArgumentError, match="name"):
        narrate(s, t, seat=0, names=names)  # type: ignore[arg-type]


def test_an_action_of_another_phase_says_which_phase() -> None:
    """An action of another phase is refused with the phase the seat must act in
    (``play AS`` while the bidding goes on: a bid or a pass)."""
    s = binocle.new_game("cutthroat", seed=1)
    for text in ("play AS", "play A♠", "play as", "discard AS", "trump S"):
        with pytest.raises(binocle.IllegalActionError, match="must act in the bidding phase"):
            binocle.apply(s, text)
