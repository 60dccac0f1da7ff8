"""The encoding for learning and search: action ids, tensors, chance and episodes.

The docs page "Binocle for AI research" describes the action tables and the
tensor layouts these tests pin.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Card, GameState, Phase
from binocle import encoding as E

GOLDEN = Path(__file__).parent / "golden"
PROFILES = ["cutthroat", "classic", "three-handed", "partnership"]
VARIANTS = [
    "cutthroat",
    "cutthroat(min_bid=300,max_bid=600,bunched_hands=true)",
    "classic",
    "classic(pack=64,grand_binocle=true)",
    "three-handed",
    "three-handed(claim_overlooked=true,grand_binocle=true)",
    "partnership(passing=3,all_pass=dealer)",
]


@pytest.mark.parametrize("name", PROFILES)
def test_the_action_table_never_changes_silently(name: str) -> None:
    """An id means the same thing in every release: the table matches its golden file.

    A deliberate change rewrites tests/golden/actions-<profile>.txt and says so
    in the changelog.
    """
    golden = (GOLDEN / f"actions-{name}.txt").read_text()
    assert E.action_space(name).table() == golden


def test_action_space_sizes_follow_the_options() -> None:
    """Cutthroat has one id per bid level; the 64-card pack adds Eights and Sevens."""
    assert E.num_distinct_actions("cutthroat") == 332
    assert E.num_distinct_actions("cutthroat(max_bid=600)") == 332 - 240
    assert E.num_distinct_actions("classic") == 2519
    assert E.num_distinct_actions("classic(pack=64)") == 2519 + 8 * 3
    assert E.num_distinct_actions("three-handed") == 2522
    labels = E.action_labels("cutthroat")
    assert labels[:3] == ("pass", "bid 250", "bid 260")
    assert len(set(labels)) == len(labels)


def _playout(name: str, seed: int, steps: int) -> list[GameState]:
    """The states of a random game (deals from the seed), at most ``steps`` of them."""
    rng = random.Random(seed)
    s = binocle.new_game(name, seed=seed)
    out = [s]
    while len(out) < steps and not binocle.is_over(s):
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
        out.append(s)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_every_legal_action_has_one_id_and_back(name: str) -> None:
    """Legal actions get distinct ids, each id decodes to its action, the mask agrees."""
    for seed in range(3):
        for s in _playout(name, seed, 400):
            if s.current_player is None:
                assert E.legal_ids(s) == ()
                continue
            actions = binocle.legal_actions(s)
            ids = [E.action_id(s, a) for a in actions]
            assert len(set(ids)) == len(ids)
            assert E.legal_ids(s) == tuple(sorted(ids))
            mask = E.legal_mask(s)
            assert sum(mask) == len(ids) and all(mask[i] for i in ids)
            for a, i in zip(actions, ids, strict=True):
                assert E.action_from_id(s, i) == a
                assert E.action_id(s, str(a)) == i


def test_ids_mean_the_same_everywhere() -> None:
    """A bid id is always that bid, a card id always that card."""
    space = E.action_space("cutthroat")
    for s in _playout("cutthroat", 5, 200):
        for a in binocle.legal_actions(s):
            if a.kind.value in ("bid", "play", "discard", "trump", "pass"):
                assert space.labels[E.action_id(s, a)] == str(a)


def test_table_copies_and_announcements_have_stable_ids() -> None:
    """Classic rules, Announcements: a card from the table or the hand are different ids,
    and the label says which cards come from the table."""
    deck = binocle.stack_deck(
        "classic", ["KS QS KS QS JD JD AH TH KH QH JH 9H", None], dealer=1, turn_up="9C"
    )
    s = binocle.new_game("classic", deck=deck, dealer=1)
    labels = E.action_labels("classic")
    i = E.action_id(s, "play KS")
    assert labels[i] == "play KS"
    s = binocle.apply(s, "play AH")
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    if s.current_player == 0 and s.phase is Phase.ANNOUNCE:
        s = binocle.apply(s, "meld marriage KS QS")
        assert s.phase is Phase.PLAY
    m = next(a for a in E.action_labels("classic") if a.startswith("meld marriage KS + QS"))
    assert m == "meld marriage KS + QS"


def test_out_of_range_and_illegal_ids_are_clear_errors() -> None:
    """Bad ids raise binocle errors that say what is wrong, and change nothing."""
    s = binocle.new_game("cutthroat", seed=1)
    with pytest.raises(binocle.InvalidArgumentError, match="outside"):
        E.action_from_id(s, 10_000)
    with pytest.raises(binocle.IllegalActionError, match=r"\(discard AS\) is not legal"):
        E.action_from_id(s, E.action_labels("cutthroat").index("discard AS"))
    with pytest.raises(binocle.InvalidArgumentError):
        E.action_from_id(s, "1")  # type: ignore[arg-type]
    with pytest.raises(binocle.InvalidArgumentError):
        E.legal_ids("cutthroat")  # type: ignore[arg-type]
    with pytest.raises(binocle.InvalidArgumentError, match="out of turn"):
        E.action_id(
            binocle.new_game("classic", seed=1), binocle.Action(binocle.Kind.CLAIM, number=0)
        )


@pytest.mark.parametrize("name", PROFILES)
def test_tensors_have_their_layouts_shape(name: str) -> None:
    """Both tensors have the layout's size at every step, for every seat."""
    info = E.tensor_layout(name)
    obs = E.tensor_layout(name, "observation")
    assert obs.size < info.size
    for s in _playout(name, 2, 150):
        for seat in range(s.profile.players):
            v = binocle.observe(s, seat)
            assert len(E.information_state_tensor(v)) == info.size
            assert len(E.observation_tensor(v)) == obs.size
            assert E.information_state_string(v).startswith(
                f"profile {s.profile.spec()}\nseat {seat}"
            )


def test_tensor_parts_hold_what_they_say() -> None:
    """The hand part counts the seat's cards; the seat part is one-hot."""
    s = binocle.new_game("cutthroat", seed=3)
    v = binocle.observe(s, 1)
    t = E.information_state_tensor(v)
    at = E.tensor_layout("cutthroat").offsets()
    start, (n,) = at["hand"]
    assert sum(t[start : start + n]) == 15
    start, _ = at["seat"]
    assert t[start : start + 3] == [0.0, 1.0, 0.0]


def _swap_hidden(s: GameState, seat: int, rng: random.Random) -> GameState | None:
    """``s`` with two cards exchanged between places hidden from ``seat``, or None."""
    name = s.profile.name
    if name == "classic":
        other = 1 - seat
        concealed = s.concealed  # type: ignore[attr-defined]
        stock = list(s.stock)  # type: ignore[attr-defined]
        mine = list(concealed[other])
        if not stock or not mine:
            return None
        i, j = rng.randrange(len(mine)), rng.randrange(len(stock))
        mine[i], stock[j] = stock[j], mine[i]
        new = list(concealed)
        new[other] = tuple(sorted(mine))
        hands = list(s.hands)
        hands[other] = tuple(sorted((*new[other], *s.tables[other].cards)))  # type: ignore[attr-defined]
        return s.replace(concealed=tuple(new), stock=tuple(stock), hands=tuple(hands))
    if getattr(s, "sub", None) is not None:
        return None
    others = [i for i in range(3) if i != seat and s.hands[i]]
    if len(others) < 2:
        return None
    a, b = others
    ha, hb = list(s.hands[a]), list(s.hands[b])
    i, j = rng.randrange(len(ha)), rng.randrange(len(hb))
    ha[i], hb[j] = hb[j], ha[i]
    hands = list(s.hands)
    hands[a], hands[b] = tuple(sorted(ha)), tuple(sorted(hb))
    return s.replace(hands=tuple(hands))


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(PROFILES),
    seed=st.integers(0, 10_000),
    steps=st.integers(1, 120),
    seat=st.integers(0, 2),
)
def test_hidden_cards_never_leak(name: str, seed: int, steps: int, seat: int) -> None:
    """Two states that differ only in cards hidden from a seat give that seat equal
    strings and tensors (the view is all the encoding reads)."""
    s = _playout(name, seed, steps)[-1]
    seat %= s.profile.players
    if s.phase in (Phase.DEAL, Phase.OVER):
        return
    other = _swap_hidden(s, seat, random.Random(seed))
    if other is None:
        return
    v1, v2 = binocle.observe(s, seat), binocle.observe(other, seat)
    assert E.information_state_string(v1) == E.information_state_string(v2)
    assert E.information_state_tensor(v1) == E.information_state_tensor(v2)
    assert E.observation_string(v1) == E.observation_string(v2)
    assert E.observation_tensor(v1) == E.observation_tensor(v2)


def _random_episode(name: str, seed: int, hands: int) -> tuple[E.Episode, int, list[int]]:
    rng = random.Random(seed)
    ep = E.Episode.new(name, hands=hands)
    decisions = 0
    total = [0] * ep.profile.players
    while not ep.is_terminal():
        if ep.is_chance():
            outcomes = ep.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            ids = [i for i, _ in outcomes]
            ep = ep.apply(rng.choices(ids, [p for _, p in outcomes])[0])
        else:
            total = [a + b for a, b in zip(total, ep.rewards(), strict=True)]
            ep = ep.apply(rng.choice(ep.legal_ids()))
            decisions += 1
    total = [a + b for a, b in zip(total, ep.rewards(), strict=True)]
    return ep, decisions, total


@pytest.mark.parametrize("name", VARIANTS)
def test_episodes_end_within_their_bounds(name: str) -> None:
    """Episodes end; decisions stay within max_decisions_per_hand times the hands; returns
    stay within the utility bounds and are the sum of the rewards."""
    for seed in range(4):
        ep, decisions, total = _random_episode(name, seed, 2)
        assert decisions <= 2 * E.max_decisions_per_hand(name)
        low, high = E.utility_bounds(name, 2)
        assert all(low <= r <= high for r in ep.returns())
        assert list(ep.returns()) == total
        assert len(ep.state.results) <= 2


def test_deal_is_card_by_card_chance() -> None:
    """The first chance node offers every card kind, weighted by its two copies."""
    ep = E.Episode.new("cutthroat")
    outcomes = ep.chance_outcomes()
    assert len(outcomes) == 24 and all(abs(p - 2 / 48) < 1e-12 for _, p in outcomes)
    for _ in range(48):
        ep = ep.apply(ep.chance_outcomes()[0][0])
    assert not ep.is_chance() and ep.current_player == 1
    assert ep.state.phase is Phase.BIDDING


def test_classic_stock_cards_are_chance_when_drawn() -> None:
    """Classic rules, Deal and Announcements: the hands and turn-up are dealt (25 chance
    outcomes); each draw is chance just before the trick's winner announces."""
    ep = E.Episode.new("classic")
    for _ in range(25):
        assert ep.is_chance()
        ep = ep.apply(ep.chance_outcomes()[-1][0])
    assert not ep.is_chance()
    while not ep.is_chance():
        ep = ep.apply(next(i for i in ep.legal_ids() if E.action_labels("classic")[i] != "claim"))
    assert ep.state.phase is Phase.ANNOUNCE
    stock = ep.state.stock  # type: ignore[attr-defined]
    first = ep.chance_outcomes()
    assert sum(p for _, p in first) == pytest.approx(1)
    assert len(first) == len(set(stock))
    ep = ep.apply(first[0][0]).apply(ep.chance_outcomes()[0][0])
    assert not ep.is_chance()
    drawn = ep.state.stock[:2]  # type: ignore[attr-defined]
    cards = binocle.cards.kinds(48)
    assert drawn[0] == cards[first[0][0]]
    winner = ep.current_player
    after = ep.apply(E.action_labels("classic").index("pass"))
    assert drawn[0] in after.state.hands[winner]


def test_episode_errors() -> None:
    """Bad hands counts and bad outcomes raise binocle errors."""
    with pytest.raises(binocle.InvalidArgumentError):
        E.Episode.new("cutthroat", hands=0)
    ep = E.Episode.new("cutthroat")
    with pytest.raises(binocle.IllegalActionError):
        ep.apply(99)
    card_index = binocle.cards.kinds(48).index(binocle.parse_card("AS"))
    ep = ep.apply(card_index).apply(card_index)
    with pytest.raises(binocle.IllegalActionError, match="no copy"):
        ep.apply(card_index)


def test_import_binocle_does_not_import_the_adapters() -> None:
    """The core never imports the ecosystems' packages."""
    import subprocess
    import sys

    code = (
        "import sys, binocle, binocle.encoding; "
        "print(sorted(m for m in ('pyspiel','pettingzoo','numpy','gymnasium') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


_ = Card


def test_classic_episode_states_replay_from_their_history() -> None:
    """With the stock drawn as chance, the hand's deal is rewritten to the drawn order, so
    an episode's state still replays from its history (saved states load it back)."""
    rng = random.Random(2)
    ep = E.Episode.new("classic")
    labels = E.action_labels("classic")
    while not ep.is_terminal():
        if ep.is_chance():
            outcomes = ep.chance_outcomes()
            ep = ep.apply(rng.choices([i for i, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            ep = ep.apply(rng.choice([i for i in ep.legal_ids() if labels[i] != "claim"]))
        if ep.state.phase is Phase.PLAY and rng.random() < 0.2:
            assert binocle.loads(binocle.dumps(ep.state)) == ep.state
    assert ep.state.results[-1].outcome == "played"
    assert binocle.loads(binocle.dumps(ep.state)) == ep.state


@pytest.mark.parametrize("name", VARIANTS)
def test_the_action_functions_take_a_view(name: str) -> None:
    """AI page, "A policy as a bot": legal_ids, legal_mask, action_id and action_from_id
    take the View a bot receives and answer as the state does for the seat to act (meld
    table plays and announcements over table cards included); for a seat not to act
    there are no legal ids, and an id is refused as not legal."""
    checked = 0
    for seed in range(3):
        for s in _playout(name, seed, 400)[::3]:
            p = s.current_player
            if p is None:
                continue
            v = binocle.observe(s, p)
            ids = E.legal_ids(s)
            assert E.legal_ids(v) == ids and E.legal_mask(v) == E.legal_mask(s)
            for i in ids:
                a = E.action_from_id(v, i)
                assert a == E.action_from_id(s, i) and E.action_id(v, a) == i
                checked += 1
            other = binocle.observe(s, (p + 1) % s.profile.players)
            assert E.legal_ids(other) == ()
            if ids:
                with pytest.raises(binocle.IllegalActionError):
                    E.action_from_id(other, ids[0])
    assert checked > 50
