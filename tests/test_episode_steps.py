"""An episode's steps keep what a step does not change (where it stands, the chance
counts, the views of a finished hand) and answer as an episode rebuilt from its fields
would (docs: "Binocle for AI research", Episodes)."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

import binocle
from binocle import encoding as E

PROFILES = ["cutthroat", "classic", "three-handed", "three-handed(claim_overlooked=true)"]


def _rebuilt(ep: E.Episode) -> E.Episode:
    """The same episode made afresh from its public fields, nothing kept from its steps."""
    return E.Episode(
        ep.state, ep.hands, ep.first_results, ep.start_scores, ep.deck, ep.ready, ep.history,
        ep.base, ep.actors, ep.ended,
    )  # fmt: skip


def _answers(ep: E.Episode) -> tuple[object, ...]:
    return (
        ep.is_terminal(), ep.is_chance(), ep.current_player, ep.chance_outcomes(),
        ep.legal_ids(), ep.returns(), ep.rewards(),
    )  # fmt: skip


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("hands", [1, 3])
def test_a_stepped_episode_answers_as_one_rebuilt_from_its_fields(profile: str, hands: int) -> None:
    """At every step of random episodes (chance by its odds, decisions uniform): where it
    stands, the chance outcomes, the legal ids, returns and rewards, and the next step
    are the same for the stepped episode and for one rebuilt from its fields (its legal
    ids asked for first, or not)."""
    stepped = 0
    for seed in range(6):
        rng = random.Random(seed)
        ep = E.Episode.new(profile, hands=hands, dealer=seed % 2)
        while not ep.is_terminal():
            fresh = _rebuilt(ep)
            assert _answers(ep) == _answers(fresh)
            if ep.is_chance():
                outcomes = ep.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                step = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                step = rng.choice(ep.legal_ids())
            after, again = ep.apply(step), fresh.apply(step)
            assert after.state == again.state
            # An episode whose legal ids were never asked for steps the same.
            assert _rebuilt(ep).apply(step).state == after.state
            assert after.state.actions() == again.state.actions()
            assert (after.history, after.actors, after.deck, after.base, after.ready) == (
                again.history, again.actors, again.deck, again.base, again.ready,
            )  # fmt: skip
            if len(after.state.results) > len(ep.state.results):
                # The views of a finished hand: every seat's, just before its last action.
                views = tuple(binocle.observe(ep.state, i) for i in range(len(ep.state.scores)))
                assert after.ended[-1] == (len(after.history), views)
                assert after.ended == again.ended
            ep = after
            stepped += 1
        assert _answers(ep) == _answers(_rebuilt(ep))
        assert ep.legal_ids() == () and ep.chance_outcomes() == []
    assert stepped > 100


def test_refused_chance_outcomes_change_nothing() -> None:
    """A chance outcome that is not a card index, or whose copies are all dealt, is
    refused with IllegalActionError; the episode still offers the same outcomes."""
    ep = E.Episode.new("cutthroat")
    for i in (3, 3):
        ep = ep.apply(i)
    before = ep.chance_outcomes()
    assert 3 not in [a for a, _ in before]
    for bad in (3, 24, -1):
        with pytest.raises(binocle.IllegalActionError):
            ep.apply(bad)
        assert ep.chance_outcomes() == before
        assert ep.legal_ids() == tuple(a for a, _ in before)
    assert len(ep.history) == 2


def test_ended_is_a_field_like_the_others() -> None:
    """``ended`` is given to ``Episode(...)`` and ``attrs.evolve`` by that name and read
    back as given."""
    ep = E.Episode.new("classic")
    view = ep.view(0)
    marked = attrs.evolve(ep, ended=((0, (view, view)),))
    assert marked.ended == ((0, (view, view)),)
    assert E.Episode(ep.state, ended=((5, (view,)),)).ended == ((5, (view,)),)
    assert attrs.evolve(marked, hands=2).ended == marked.ended


@pytest.mark.parametrize("profile", [*PROFILES, "classic(pack=64)"])
@pytest.mark.parametrize("hands", [1, 2])
def test_a_walk_stepped_in_place_reaches_the_episodes_steps(profile: str, hands: int) -> None:
    """A walk (the steps in place that the OpenSpiel state takes) stepped through whole
    random episodes, read only now and then, stands where the episode stepped one id at a
    time stands: the same state and history (a classic stock's draws written into the
    hand's deal when the walk is read), the same legal ids, outcomes and fields; a
    copy of it moves on alone, and a refused id changes nothing.  At chance, the copies
    of each card kind it draws from (kept from the last deal or draw in a classic hand)
    are those the state's stock and the cards drawn so far leave."""
    from binocle.encoding._walk import CHANCE, END, remaining

    for seed in range(4):
        rng = random.Random(seed)
        ep = E.Episode.new(profile, hands=hands, dealer=seed % 2)
        walk = ep._walk()
        steps = 0
        while walk.where() != END:
            ids = walk.legal_ids()
            if walk.where() == CHANCE:
                assert walk.counts() == remaining(walk.raw, walk.deck)
                outcomes = walk.outcomes()
                assert outcomes == ep.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                step = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                step = rng.choice(ids)
            assert ids == ep.legal_ids()
            if steps % 17 == 3:
                with pytest.raises(binocle.BinocleError):
                    walk.step(10_000)
            walk.step(step)
            ep = ep.apply(step)
            steps += 1
            if rng.random() < 0.1:
                # Read now and then: the walk's own episode is the stepped one.
                seen = E.Episode._of_walk(walk)
                assert seen.state == ep.state == _replayed(seen.state)
                assert seen.state.actions() == ep.state.actions()
                assert (seen.history, seen.actors, seen.deck, seen.base) == (
                    ep.history, ep.actors, ep.deck, ep.base,
                )  # fmt: skip
            if steps == 40:
                alone = walk.copy()
                alone.step(alone.legal_ids()[0])
                assert len(walk.history) == steps
                # Pickled in the middle of a stock's draws, it comes back where it stood.
                back = pickle.loads(pickle.dumps(walk))
                assert back.legal_ids() == walk.legal_ids()
                assert back.state.actions() == walk.state.actions() == ep.state.actions()
        assert ep.is_terminal()
        done = E.Episode._of_walk(walk)
        assert done.state == ep.state and done.state.actions() == ep.state.actions()
        assert done.history == ep.history and done.ended == ep.ended
        # The history replays to the state: each hand's deal holds its stock in the
        # order the stock was drawn.
        assert _replayed(done.state) == done.state
        for _, views in done.ended:
            for view in views:
                assert view.deck is not None


def _replayed(state: binocle.GameState) -> binocle.GameState:
    s = binocle.start(state.profile, state.seed, state.first_dealer)
    for action in state.actions():
        s = binocle.apply(s, action)
    return s


@pytest.mark.parametrize(
    ("profile", "games", "least"), [("classic", 40, 40), ("three-handed", 6, 0)]
)
def test_a_walks_legal_ids_are_the_action_spaces_over_many_meld_tables(
    profile: str, games: int, least: int
) -> None:
    """At every decision of long multi-hand games (many meld tables, melds, plays
    from the table), the walk's legal ids are those the action space gives the
    state (docs: "Binocle for AI research", action ids), and each id is the legal
    action the space reads it as.  The walk keeps the ids that depend on the
    player's meld table (a meld naming a table copy, a play of one of two table
    copies) with the table they were worked out with: the same action with
    another table has its own id."""
    from binocle.encoding._walk import CHANCE, END, action_of

    labels = E.action_labels(profile)
    copies = 0  # table-copy actions met
    for seed in range(games):
        rng = random.Random(seed)
        walk = E.Episode.new(profile, hands=3, dealer=seed % 2)._walk()
        while walk.where() != END:
            ids = walk.legal_ids()
            if walk.where() != CHANCE:
                state = walk.state
                assert ids == E.legal_ids(state)
                for i in ids:
                    assert action_of(walk.raw, walk.legal, i) == E.action_from_id(state, i)
                copies += sum(
                    "#" in (a.source or "") or (a.source == "table" and a.number is not None)
                    for a in walk.legal[2]
                )
                # Claims only when nothing else is legal: hands played to their end.
                calm = [i for i in ids if not labels[i].startswith(("claim", "concede"))]
                ids = tuple(calm) or ids
            walk.step(rng.choice(ids))
    assert copies >= least
