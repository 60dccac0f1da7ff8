"""determinize: full states sampled consistently with what one seat may know.

Rules checked (docs: the bots page, "Determinization"; the rules pages of each
profile for what play reveals): the sampled state shows the seat exactly its
view; it is a real game (its record replays, dumps/loads accept it); a player
who did not follow suit holds none of it; the hidden cards are placed uniformly.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest

import binocle
from binocle import InvalidArgumentError, Kind, Phase, Rank
from binocle.bots import BaselineBot
from binocle.determinize import Determinizer
from binocle.encoding import Episode
from helpers import two_handed_continuation


def positions_of_a_game(profile: str, seed: int, every: int) -> list[binocle.GameState]:
    """States of one game between baseline bots, every ``every`` actions."""
    s = binocle.new_game(profile, seed=seed)
    bots = [BaselineBot(seed * 10 + i) for i in range(s.profile.players)]
    out = []
    k = 0
    while not binocle.is_over(s) and len(s.results) < 3:
        p = s.current_player
        a = binocle.legal_actions(s)[0] if p is None else bots[p].choose(binocle.observe(s, p))
        s = binocle.apply(s, a)
        k += 1
        if k % every == 0:
            out.append(s)
    out.append(s)
    return out


@pytest.mark.parametrize(
    "profile", ["cutthroat", "classic", "three-handed", "partnership(passing=3)"]
)
def test_a_sample_shows_the_seat_exactly_its_view_and_is_a_real_game(profile: str) -> None:
    """The sampled state's view equals the view given, the seat's own cards are its
    own, and the state's record replays under the rules (dumps/loads accept it)."""
    seen = 0
    for s in positions_of_a_game(profile, 3, 17):
        for seat in range(s.profile.players):
            v = binocle.observe(s, seat)
            t = binocle.determinize(v, random.Random(seat))
            assert binocle.observe(t, seat) == v
            assert t.hands[seat] == s.hands[seat]
            assert binocle.loads(binocle.dumps(t)) == t
            seen += 1
    assert seen > 20


@pytest.mark.parametrize("profile", ["cutthroat", "classic", "three-handed", "partnership"])
def test_hidden_cards_vary_between_samples(profile: str) -> None:
    """Over many samples of one position the others' hands differ, each consistent."""
    s = binocle.new_game(profile, seed=11)
    v = binocle.observe(s, 0)
    det = Determinizer(v)
    rng = random.Random(4)
    others = {det.sample(rng).hands[1] for _ in range(20)}
    assert len(others) > 15


def test_partners_know_the_cards_passed_and_the_other_side_does_not() -> None:
    """Partnership rules, Trump and passing: a sample for the bidder's partner has the
    cards he passed in the bidder's hand (until played); for the other side, any deal
    whose passes replay; every sample shows the seat exactly its view."""
    s = binocle.new_game("partnership(passing=3)", seed=7)
    for a in ("bid 250", "pass", "pass", "pass", "trump S", "give TS", "give 9S", "give 9S"):
        s = binocle.apply(s, a)
    rng = random.Random(2)
    for _ in range(5):
        t = binocle.determinize(binocle.observe(s, 3), rng)
        assert Counter(t.hands[1]) & Counter(binocle.parse_cards("TS 9S 9S")) == Counter(
            binocle.parse_cards("TS 9S 9S")
        )
        for seat in (0, 2):
            u = binocle.determinize(binocle.observe(s, seat), rng)
            assert binocle.observe(u, seat) == binocle.observe(s, seat)
            assert u.hands[seat] == s.hands[seat]


def test_same_seed_same_state() -> None:
    """determinize is a function of the view and the seed."""
    s = positions_of_a_game("cutthroat", 5, 25)[1]
    v = binocle.observe(s, 2)
    a, b = binocle.determinize(v, 99), binocle.determinize(v, random.Random(99))
    assert a == b and a.moves() == b.moves()


def test_a_player_who_did_not_follow_suit_holds_none_of_it() -> None:
    """Cutthroat rules, Play: you must follow suit if you can; so a player who
    played another suit to a trick holds none of the suit led, in every sample."""
    checked = 0
    for seed in range(6):
        for s in positions_of_a_game("cutthroat", seed, 9):
            if s.phase is not Phase.PLAY:
                continue
            v = binocle.observe(s, 0)
            voids: dict[int, set[int]] = {1: set(), 2: set()}
            for trick in (*v.get("played"), v.trick):
                if not trick:
                    continue
                led = trick[0][1].suit
                for seat, c in trick[1:]:
                    if seat != 0 and c.suit != led:
                        voids[seat].add(led)
            if not any(voids.values()):
                continue
            rng = random.Random(seed)
            for _ in range(5):
                t = binocle.determinize(v, rng)
                for seat, suits in voids.items():
                    assert not [c for c in t.hands[seat] if c.suit in suits]
                    checked += 1
    assert checked > 20


def test_discards_stay_with_the_bidder_and_are_hidden_from_the_others() -> None:
    """Cutthroat rules, Widow and trump: the bidder's discards are face down; a
    sample gives him three discards drawn from what he could hold."""
    for seed in range(8):
        for s in positions_of_a_game("cutthroat", seed, 7):
            if s.phase is not Phase.PLAY or s.bidder is None:
                continue
            watcher = (s.bidder + 1) % 3
            v = binocle.observe(s, watcher)
            t = binocle.determinize(v, 3)
            assert len(t.discards) == 3 and t.bidder == s.bidder
            assert binocle.observe(t, watcher) == v
            return
    pytest.fail("no position in the play")


def test_placement_of_hidden_cards_is_uniform() -> None:
    """Before the bidding, a card the seat holds once has its other copy with either
    opponent (15 cards each) or in the widow (3) with chances 15/33, 15/33, 3/33:
    a chi-square test (2 degrees of freedom, 0.1% level) per card."""
    s = binocle.new_game("cutthroat", seed=21)
    v = binocle.observe(s, 0)
    singles = [c for c, n in Counter(v.hand).items() if n == 1][:3]
    assert singles
    det = Determinizer(v)
    rng = random.Random(2026)
    n = 600
    tallies = {c: Counter() for c in singles}
    for _ in range(n):
        t = det.sample(rng)
        for c in singles:
            where = 1 if c in t.hands[1] else 2 if c in t.hands[2] else 3
            assert c in t.widow or where != 3
            tallies[c][where] += 1
    for c, tally in tallies.items():
        expected = {1: n * 15 / 33, 2: n * 15 / 33, 3: n * 3 / 33}
        chi2 = sum((tally[k] - e) ** 2 / e for k, e in expected.items())
        assert chi2 < 13.82, (c, tally)


def test_bad_arguments_raise_documented_errors() -> None:
    """Anything but a view, or a generator that is neither Random nor an int, is refused."""
    s = binocle.new_game("classic", seed=1)
    with pytest.raises(InvalidArgumentError, match="not a view"):
        binocle.determinize(s, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="rng"):
        binocle.determinize(binocle.observe(s, 0), "seed")  # type: ignore[arg-type]


def test_the_two_handed_game_after_a_retirement_is_sampled() -> None:
    """Three-handed rules, The two-handed game after a retirement: after a wrong claim
    the two others play the classic game on.  A view of either of them is sampled like
    any other: the sample shows the seat exactly its view, keeps its cards and the
    retirement, and replays; the other player's hidden cards vary between samples.  The
    retired player's view, a spectator's, is sampled too (before, it was refused), and
    its position reads back to it."""
    s = two_handed_continuation(4)
    rng = random.Random(5)
    checked = varied = spectated = 0
    for step in range(200):
        if binocle.is_over(s):
            break
        if step % 6 == 0:
            for seat in s.pair:
                v = binocle.observe(s, seat)
                det = Determinizer(v)
                samples = [det.sample(rng) for _ in range(3)]
                for t in samples:
                    assert binocle.observe(t, seat) == v
                    assert t.hands[seat] == s.hands[seat]
                    assert (t.retired, t.pair) == (s.retired, s.pair)
                    assert binocle.loads(binocle.dumps(t)) == t
                    checked += 1
                other = s.pair[1 - s.pair.index(seat)]
                varied += len({t.hands[other] for t in samples}) > 1
        if step % 18 == 0:  # the retired player's view (its position samples it too)
            out = binocle.observe(s, s.retired)
            text = binocle.position(s, seat=s.retired)
            assert binocle.view_from_position(text) == out
            t = binocle.determinize(out, 1)
            assert binocle.observe(t, s.retired) == out
            assert (t.retired, t.pair) == (s.retired, s.pair)
            spectated += 1
        plays = [a for a in binocle.legal_actions(s) if a.kind is not binocle.Kind.CLAIM]
        s = binocle.apply(s, rng.choice(plays or binocle.legal_actions(s)))
    assert len(s.results) >= 3  # the sampled positions span two-handed hands
    assert checked > 100 and varied > 10 and spectated >= 8


def test_a_two_handed_view_with_wrong_seats_is_refused() -> None:
    """A view whose two-handed game names seats it could not have is refused with the
    documented error, not a crash."""
    s = two_handed_continuation(4)
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    v = binocle.observe(s, s.current_player or 0)
    for pair in [(0, 5), (1,), "02", (v.seat, v.seat + 1 if v.seat < 2 else 0)]:
        public = tuple((k, pair if k == "pair" else x) for k, x in v.public)
        bad = attrs.evolve(v, public=public)
        if bad == v:
            continue
        with pytest.raises(InvalidArgumentError):
            binocle.determinize(bad, 1)


def finished_game(spec: str, seed: int) -> binocle.GameState:
    """A game of ``spec`` played to its end by uniformly random calm choices."""
    rng = random.Random(seed)
    s = binocle.new_game(spec, seed=seed)
    while not binocle.is_over(s):
        legal = binocle.legal_actions(s)
        calm = [a for a in legal if a.kind not in (binocle.Kind.CLAIM, binocle.Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(calm or legal))
    return s


@pytest.mark.parametrize(
    ("spec", "seed"),
    [
        ("three-handed(target=300)", 1),
        ("three-handed(target=300)", 8),
        ("classic(pack=64,target=300)", 3),
    ],
)
def test_the_view_of_a_finished_game_is_sampled(spec: str, seed: int) -> None:
    """A finished game's view is a view like any other.  In the three-handed game the
    last hand's melds and turn-up stay on show once the game is over (three-handed
    rules, Melds): the sample is a finished game whose last hand showed exactly those,
    for every seat.  The classic game can end on an announcement after the stock is
    out, which draws nothing (classic rules, The draw)."""
    s = finished_game(spec, seed)
    for seat in range(s.profile.players):
        v = binocle.observe(s, seat)
        for k in range(3):
            t = binocle.determinize(v, k)
            assert binocle.is_over(t) and binocle.observe(t, seat) == v
            assert binocle.loads(binocle.dumps(t)) == t


@pytest.mark.parametrize("seed", [1, 2, 5, 7])
def test_the_two_handed_game_is_sampled_with_claim_overlooked_on(seed: int) -> None:
    """Three-handed rules, The two-handed game after a retirement, with the option
    claim_overlooked on: the turn-up and the melds of the hand the retirement ended stay
    on show in the two-handed game; the sample shows them as they were, keeps the
    seat's cards, and the search bot picks a legal action from the view."""
    from binocle.ismcts import ISMCTSBot

    s = two_handed_continuation(seed, profile="three-handed(claim_overlooked=true)")
    s = binocle.apply(s, binocle.legal_actions(s)[0])  # the two-handed game's first deal
    seat = s.current_player
    assert seat is not None and seat in s.pair
    v = binocle.observe(s, seat)
    for k in range(3):
        t = binocle.determinize(v, k)
        assert binocle.observe(t, seat) == v and t.hands[seat] == s.hands[seat]
    assert ISMCTSBot(seed, iterations=20).choose(v) in binocle.legal_actions(s)


#: Three-handed hands in play where players announced ``meld`` (the best declaration):
#: the game's profile and seed, its actions, the seat whose view is sampled, the
#: seeds to sample with (the first of them was refused before), the seats whose
#: melds shown are whole melds, and what seat 1 shows.
WHOLE_MELDS = {
    # Seat 1 showed four Queens and a binocle (100) as his whole meld: he holds no King.
    "four queens and no king": (
        "three-handed", 14,
        ("pass", "pass", "dix", "meld", "pass", "meld",
         "play AH", "play 9H", "play JH", "play AD", "play TD", "play KD", "play AC"),
        2, (3, 9, 0, 1, 2), (0, 1), ("four queens", "binocle"),
    ),
    # A duplicate deal of a ratings table (seed 2026, deal 2): seat 1 announced a
    # royal marriage (40) as his whole meld, seat 0 a marriage (20) at his turn in
    # the first trick, before his first card.
    "ratings deal": (
        "three-handed(max_hands=1)", 2026021933,
        ("pass", "dix", "pass", "meld", "meld", "pass", "play AD", "play QD", "meld",
         "play KD", "play QC", "play AC", "play AC", "play AS", "play JS", "play KS"),
        2, (234, 0, 1), (0, 1), ("royal marriage",),
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(WHOLE_MELDS))
def test_a_three_handed_meld_announced_whole_is_the_whole_meld_of_every_sample(
    case: str,
) -> None:
    """Three-handed rules, Melds: ``meld`` announces the best total the hand makes, so
    what such a player shows is all the meld of the sixteen cards he held after the
    dix (four Queens shown alone: no King, each would make a marriage).  So few
    placements of the hidden cards allow that that uniform proposals alone could all
    miss it and the view was refused (as it was in a ratings run); every sample now
    shows the seat exactly its view, and each such player's cards in it meld exactly
    what he showed."""
    spec, game_seed, actions, seat, seeds, whole, names = WHOLE_MELDS[case]
    s = binocle.new_game(spec, seed=game_seed)
    for text in actions:
        s = binocle.apply(s, binocle.parse_action(s, text))
    v = binocle.observe(s, seat)
    shown = v.get("melds")
    assert tuple(m.name for m in shown[1].melds) == names
    for seed in seeds:
        t = binocle.determinize(v, seed)
        assert binocle.observe(t, seat) == v
        for melder in whole:
            played = [a.card for a, who in t.moves() if who == melder and a.kind is Kind.PLAY]
            cards = tuple(sorted((*t.hands[melder], *played)))
            assert t.profile.meld(cards, t.trump) == shown[melder]
            if "four queens" in names and melder == 1:
                assert Rank.KING not in {c.rank for c in cards}


def a_view_in_play(spec: str, seed: int = 3, steps: int = 25) -> binocle.View:
    """The view of seat 0 after ``steps`` random calm actions of a game of ``spec``."""
    rng = random.Random(seed)
    s = binocle.new_game(spec, seed=seed)
    for _ in range(steps):
        legal = binocle.legal_actions(s)
        calm = [a for a in legal if a.kind not in (binocle.Kind.CLAIM, binocle.Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(calm or legal))
    return binocle.observe(s, 0)


SPECS = ["cutthroat", "classic", "three-handed", "classic(pack=64)"]


@pytest.mark.parametrize(("spec", "other"), [(a, b) for a in SPECS[:3] for b in SPECS if a != b])
def test_a_view_edited_to_another_profile_is_refused(spec: str, other: str) -> None:
    """A view edited so that its profile no longer fits its history, cards and deal
    (``attrs.evolve(view, profile=...)``) is refused with InvalidArgumentError."""
    v = a_view_in_play(spec)
    bad = attrs.evolve(v, profile=binocle.profile(other))
    with pytest.raises(InvalidArgumentError):
        binocle.determinize(bad, 1)


EDITS = {
    "seat out of range": {"seat": 7},
    "seat not a number": {"seat": "0"},
    "phase over": {"phase": Phase.OVER},
    "another dealer": {"dealer": 1},
    "scores changed": {"scores": (990, 0, 0)},
    "a hand size wrong": {"hand_sizes": (1, 1, 1)},
    "a card of the hand changed": {"hand": ()},
    "history cut": {"history": ()},
    "history not actions": {"history": (("deal", None),)},
    "deck cut": {"deck": (None,) * 5},
    "results added": {"results": (binocle.HandResult(0, None, (0,) * 3, (0,) * 3, (0,) * 3),)},
    "public facts dropped": {"public": ()},
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_view_is_refused(edit: str) -> None:
    """A view edited by hand so that its parts contradict each other (another seat,
    phase, dealer, scores, hand, history, deal, results or public facts than its
    history gives) is refused with InvalidArgumentError, by a check of its parts or
    after a bounded number of deals (STRIKES, FAILURES, MISSES), never another error."""
    v = a_view_in_play("cutthroat")
    bad = attrs.evolve(v, **EDITS[edit])
    assert bad != v
    with pytest.raises(InvalidArgumentError):
        binocle.determinize(bad, 1)


def _uniform_episode(profile: str, seed: int, hands: int) -> Episode:
    """An episode of ``hands`` hands played by uniformly random legal ids (so with many
    concessions), its chance drawn as the episode weighs it."""
    rng = random.Random(seed)
    ep = Episode.new(profile, hands=hands)
    while not ep.is_terminal():
        if ep.is_chance():
            outcomes = ep.chance_outcomes()
            ep = ep.apply(rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            ep = ep.apply(rng.choice(ep.legal_ids()))
    return ep


@pytest.mark.parametrize("seed", [1, 12, 22])
def test_views_of_multi_hand_episodes_with_concessions(seed: int) -> None:
    """Cutthroat rules, Conceding, and Melds: a hand the bidder conceded after the melds
    scores each other player the meld he showed; an earlier hand is sampled so that it
    ends as the view's results say, melds included.  Every seat's view of a two-hand
    episode (uniformly random moves: hands conceded after melding) is sampled, never
    refused, and the sample shows the seat exactly that view."""
    ep = _uniform_episode("cutthroat", seed, 2)
    assert any(r.outcome == "conceded" for r in ep.state.results)
    for seat in range(3):
        v = ep.view(seat)
        assert binocle.observe(binocle.determinize(v, seed), seat) == v


def test_fresh_meld_cards_are_held_besides_those_laid_down() -> None:
    """Three-handed rules, Melds: the cards an announcement names before ``+`` are laid
    down fresh, so a player who announced ``four kings KH KC + KD KS`` after ``marriage
    KH QH`` holds two Kings of hearts.  A view showing such announcements is sampled
    with both copies in that player's hand, for any seed."""
    s = binocle.new_game(
        "three-handed(target=300,claim_overlooked=true,lowest_pays=true,grand_binocle=true)",
        seed=3007142936,
        dealer=2,
    )
    moves = (
        "pass, dix, pass, meld marriage KS QS, meld marriage KD QD, meld marriage KH QH,"
        " meld four queens QC + QD QH QS, meld four kings KH KC + KD KS,"
        " meld royal marriage QC + KC, meld royal marriage KC + QC#6, pass, pass,"
        " meld marriage KD QD, pass"
    )
    for text in moves.split(", "):
        s = binocle.apply(s, text)
    v = binocle.observe(s, 1)
    for seed in range(12):
        t = binocle.determinize(v, seed)
        assert binocle.observe(t, 1) == v
        assert t.hands[0].count(binocle.Card("KH")) == 2


def test_a_meld_that_reached_the_target_is_sampled() -> None:
    """Cutthroat rules, Conceding, and The end of the game: when the bidder concedes,
    each other player scores the meld he showed, and a score reaching the target ends
    the game.  Whether the hand ended the game follows from the hidden melds, not from
    the actions alone: a view of such a game is sampled, the sample ending the game
    with the same melds."""
    s = binocle.new_game("cutthroat(min_bid=10,max_bid=400,target=300)", seed=2560158802, dealer=2)
    moves = (
        "bid 200, bid 250, bid 290, bid 350, bid 380, pass, bid 400, pass, discard AC,"
        " discard KH, discard KS, trump D, meld, meld, meld, concede"
    )
    for text in moves.split(", "):
        s = binocle.apply(s, text)
    assert binocle.is_over(s)
    v = binocle.observe(s, 0)
    for seed in range(2):
        t = binocle.determinize(v, seed)
        assert binocle.observe(t, 0) == v and t.results[0].meld == s.results[0].meld
