"""Undo, the public history and positions (docs: Undo, history and positions)."""

from __future__ import annotations

import itertools
import pickle
import random
import string
import sys
import tracemalloc

import pytest

import binocle
from binocle import Kind

#: Every profile, with its defaults and with options that change the deal or the play.
SPECS = (
    "cutthroat",
    "cutthroat(single_set=true,bunched_hands=true,widow_after_round=0)",
    "classic",
    "classic(pack=64,grand_binocle=true,target=300)",
    "three-handed",
    "three-handed(claim_overlooked=true,lowest_pays=true,target=300)",
)
_PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")


def _playout(
    spec: str, seed: int, max_hands: int = 2, knock: float = 0.02
) -> list[binocle.GameState]:
    """Every state of a random game (knocks and concessions now and then), the first
    deal's included."""
    p = binocle.profile(spec)
    if p.max_hands is None:
        p = binocle.profile(p, max_hands=max_hands)
    rng = random.Random(seed)
    s = binocle.new_game(p, seed=seed, dealer=seed % p.players)
    states = [s]
    while not binocle.is_over(s):
        legal = binocle.legal_actions(s)
        calm = [a for a in legal if a.kind not in (Kind.CLAIM, Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(calm if calm and rng.random() > knock else legal))
        states.append(s)
    return states


# -- undo ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_undo_gives_the_state_before_each_action(spec: str) -> None:
    """undo(s) is the state before s's last action, with the history before it: along a
    whole game, undoing each state gives the one before it."""
    states = _playout(spec, 3)
    for before, after in itertools.pairwise(states):
        back = binocle.undo(after)
        assert back == before
        assert back.actions() == before.actions()
        assert binocle.legal_actions(back) == binocle.legal_actions(before)


def test_undo_walks_back_to_the_first_deal_then_refuses() -> None:
    """Undo after undo walks back the whole game; the first deal is not undone:
    a new game has nothing to undo (NothingToUndoError, a BinocleError)."""
    states = _playout("cutthroat", 4, max_hands=1)
    s = states[-1]
    for expected in reversed(states[:-1]):
        s = binocle.undo(s)
        assert s == expected
    with pytest.raises(binocle.NothingToUndoError, match="nothing to undo"):
        binocle.undo(s)
    with pytest.raises(binocle.NothingToUndoError):
        binocle.undo(binocle.new_game("classic", seed=1))
    with pytest.raises(binocle.NothingToUndoError):
        binocle.undo(binocle.start("classic", seed=1))
    assert issubclass(binocle.NothingToUndoError, binocle.BinocleError)


def test_undo_of_a_second_deal_gives_the_end_of_the_hand_before() -> None:
    """A deal other than the first is undone as any action: back between hands."""
    states = _playout("cutthroat", 6, max_hands=3)
    second = next(i for i, s in enumerate(states) if s.hand_number == 2)
    assert binocle.undo(states[second]) == states[second - 1]
    assert states[second - 1].phase is binocle.Phase.DEAL


def test_undo_works_after_loads_pickle_and_replay() -> None:
    """A state read back (loads, pickle, replay, from_position) undoes as the original."""
    states = _playout("classic", 2)
    s, before = states[40], states[39]
    for copy in (
        binocle.loads(binocle.dumps(s)),
        pickle.loads(pickle.dumps(s)),
        binocle.replay(binocle.record(s)),
        binocle.from_position(binocle.position(s)),
    ):
        assert binocle.undo(copy) == before
        assert binocle.undo(copy).actions() == before.actions()


def test_undo_refuses_what_is_not_a_state() -> None:
    with pytest.raises(binocle.InvalidArgumentError):
        binocle.undo("cutthroat")  # type: ignore[arg-type]


def _retained(states: list[binocle.GameState]) -> int:
    """Bytes allocated to build ``states`` by replaying their game, keeping only the last."""
    record = binocle.record(states[-1])
    binocle.replay(record)  # the caches of the rules filled before measuring
    tracemalloc.start()
    kept = binocle.replay(record)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert kept == states[-1]
    return size


def test_a_state_costs_no_more_memory_than_its_slots_and_history() -> None:
    """A state holds its fields and one history node per action, no earlier state: its
    own size is that of its slots, and a game kept as its last state costs less than
    half of keeping every state of it."""
    states = _playout("cutthroat", 8, max_hands=1)
    s = states[-1]
    assert sys.getsizeof(s) == sys.getsizeof(binocle.new_game("cutthroat", seed=1))
    assert len(s.history) == 3  # (earlier node, action, seat): no state in the node
    assert not any(isinstance(x, binocle.GameState) for x in s.history)
    record = binocle.record(s)
    binocle.replay(record, every=True)  # the caches of the rules filled before measuring
    tracemalloc.start()
    every = binocle.replay(record, every=True)
    all_states = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(every) == len(states) + 1  # the state before the first deal too
    kept = _retained(states)
    assert kept * 2 < all_states, (kept, all_states)


# -- history ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_history_is_every_seat_and_action_in_order(spec: str) -> None:
    """binocle.history gives (seat, action) pairs, oldest first: the actions are those
    of actions(), the seats those of moves(), a deal has no seat, and a knock out of
    turn names the knocker."""
    states = _playout(spec, 5, knock=0.1)
    s = states[-1]
    h = binocle.history(s)
    assert [a for _, a in h] == list(s.actions())
    assert [(a, seat) for seat, a in h] == list(s.moves())
    assert len(h) == len(states) - 1 + 1  # the first deal, then one entry per apply
    for (seat, action), before in zip(h[1:], states[:-1], strict=True):
        if action.kind is Kind.DEAL:
            assert seat is None
        elif action.kind is Kind.CLAIM and action.number is not None:
            assert seat == action.number
        else:
            assert seat == before.current_player


def test_history_of_a_new_game_is_its_deal() -> None:
    assert binocle.history(binocle.start("cutthroat", seed=1)) == ()
    ((seat, deal),) = binocle.history(binocle.new_game("cutthroat", seed=1))
    assert seat is None and deal.kind is Kind.DEAL and len(deal.cards) == 48


@pytest.mark.skipif(binocle.compiled, reason="the compiled state class carries no docstring")
def test_history_field_docstring_names_nodes_not_states() -> None:
    """The history field is documented as linked nodes of actions, not of states."""
    doc = binocle.GameState.__doc__ or ""
    assert "(previous, action, seat)" not in doc
    assert "binocle.history" in doc


# -- positions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_reads_back_from_its_position(spec: str, seed: int) -> None:
    """Every state of random games of every profile: its position is one line of printable
    ASCII, reads back to an equal state with the same history, legal actions, views of
    every seat, and a dumps that loads accepts."""
    states = _playout(spec, seed, knock=0.05)
    for s in states:
        text = binocle.position(s)
        assert set(text) <= _PRINTABLE, text
        back = binocle.from_position(text)
        assert back == s
        assert back.actions() == s.actions()
        assert binocle.legal_actions(back) == binocle.legal_actions(s)
        for seat in range(s.profile.players):
            assert binocle.observe(back, seat) == binocle.observe(s, seat)
        assert binocle.position(back) == text
    assert binocle.loads(binocle.dumps(back)) == s


@pytest.mark.parametrize("spec", SPECS)
def test_a_views_position_reads_back_to_the_view(spec: str) -> None:
    """position(state, seat=n) reads back, by view_from_position, to observe(state, n); its
    summary shows the seat's own cards and only the others' counts."""
    states = _playout(spec, 7)
    for s in states[:: max(1, len(states) // 6)]:
        for seat in range(s.profile.players):
            view = binocle.observe(s, seat)
            text = binocle.position(s, seat=seat)
            assert text == binocle.position(view)
            assert "\n" not in text and set(text) <= _PRINTABLE
            assert binocle.view_from_position(text) == view
            hands = dict(f.split("=", 1) for f in text.split(" | ")[1].split())["hands"]
            for other, part in enumerate(hands.split("/")):
                if other != seat:
                    assert part == f"?{len(s.hands[other])}"


def test_position_fields_for_people() -> None:
    """The summary names the profile, seed, scores, dealer, phase, turn, hands, trick and
    piles; a deal from the seed is written '*'."""
    s = binocle.apply(binocle.new_game("cutthroat", seed=7), "bid 250")
    head, summary, moves = binocle.position(s).split(" | ")
    assert head == "cutthroat seed=7 first=0"
    fields = dict(f.split("=", 1) for f in summary.split())
    assert list(fields) == [
        "hand", "phase", "dealer", "turn", "trump", "scores", "hands", "trick", "widow",
    ]  # fmt: skip
    assert fields["phase"] == "bidding" and fields["turn"] == "2" and fields["scores"] == "0,0,0"
    assert fields["hands"].split("/")[0] == "".join(map(str, s.hands[0]))
    assert moves == "*,bid 250"
    stacked = binocle.new_game("classic", deck=binocle.stack_deck("classic", [None, None]))
    assert binocle.position(stacked).split(" | ")[2].startswith("deal AS AS TS")


def test_a_hand_written_position_may_leave_out_the_summary() -> None:
    """Summary fields may be left out; those given are checked against the moves."""
    game = binocle.new_game("classic", seed=3, dealer=1)
    play = str(binocle.legal_actions(game)[0])
    s = binocle.from_position(f"classic seed=3 first=1 |  | *,{play}")
    assert s == binocle.apply(game, play)
    assert binocle.from_position(f"classic seed=3 first=1 | turn=1 phase=play | *,{play}") == s
    with pytest.raises(binocle.InvalidStateError, match="turn=0 disagrees"):
        binocle.from_position(f"classic seed=3 first=1 | turn=0 | *,{play}")


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("", binocle.InvalidNotationError, "three parts"),
        ("cutthroat seed=7", binocle.InvalidNotationError, "three parts"),
        ("nope seed=7 | | *", binocle.InvalidNotationError, "profile"),
        ("cutthroat seed=x | | *", binocle.InvalidNotationError, "seed"),
        ("cutthroat seed=1 seed=2 | | *", binocle.InvalidNotationError, "twice"),
        ("cutthroat seed=" + "9" * 30 + " | | *", binocle.InvalidNotationError, "seed"),
        ("cutthroat seed=7 first=5 | | *", binocle.InvalidNotationError, "dealer"),
        ("cutthroat seed=7 | colour=red | *", binocle.InvalidNotationError, "unknown"),
        ("cutthroat seed=7 | | *,*", binocle.InvalidStateError, "move 1"),
        ("cutthroat seed=7 | | *,play AS", binocle.InvalidStateError, "move 1"),
        ("cutthroat seed=7 | | *,bid x", binocle.InvalidStateError, "move 1"),
        ("cutthroat seed=7 | | deal AS", binocle.InvalidStateError, "move 0"),
        ("cutthroat seed=7 view=0 | | *", binocle.InvalidNotationError, "view"),
    ],
)
def test_junk_positions_are_refused_with_notation_or_state_errors(
    text: str, error: type[Exception], words: str
) -> None:
    """Reading junk raises InvalidNotationError or InvalidStateError, saying why."""
    with pytest.raises(error, match=words):
        binocle.from_position(text)


def test_positions_refuse_other_types_and_the_other_kind() -> None:
    with pytest.raises(binocle.InvalidNotationError):
        binocle.from_position(b"cutthroat | | *")  # type: ignore[arg-type]
    with pytest.raises(binocle.InvalidNotationError, match=r"binocle\.from_position"):
        binocle.view_from_position("cutthroat seed=7 | | *")
    with pytest.raises(binocle.InvalidArgumentError):
        binocle.position("cutthroat")  # type: ignore[arg-type]
    view = binocle.observe(binocle.new_game("cutthroat", seed=7), 1)
    with pytest.raises(binocle.InvalidArgumentError):
        binocle.position(view, seat=0)
