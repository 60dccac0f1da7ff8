"""The state-read tensors of the batched writer agree with the view-read ones.

:class:`binocle.encoding._fast.FastEncoder` writes a seat's observation tensor (and,
``full``, its information-state tensor) from the state's fields, for the
vectorized and PettingZoo environments; the public functions
:func:`binocle.encoding.observation_tensor` and
:func:`binocle.encoding.information_state_tensor` read the seat's view.  They
must give the same numbers for every seat in every position.
"""

from __future__ import annotations

import random

import pytest

import binocle
from binocle import encoding as E
from binocle.encoding._fast import FastEncoder
from binocle.profiles import get_profile

# Every game runs to its end (``max_hands`` makes sure it comes), so the positions
# between hands and at the end are met, and in three-handed the two-handed game
# after a retirement, with its own hands between and its own end.
SETTINGS = [
    ("cutthroat", {"max_hands": 3}),
    ("cutthroat", {"single_set": True, "max_bid": 400, "max_hands": 3}),
    ("classic", {"max_hands": 3}),
    ("classic", {"pack": 64, "max_hands": 3}),
    ("classic", {"target": 300, "max_hands": 6}),
    ("three-handed", {"max_hands": 4}),
    ("three-handed", {"claim_overlooked": True, "max_hands": 4}),
    ("three-handed", {"target": 300, "max_hands": 6}),
]
ENDERS = frozenset({binocle.Kind.CLAIM, binocle.Kind.CONCEDE})
BETWEEN = (binocle.Phase.DEAL, binocle.Phase.OVER)


def _written(
    encoder: FastEncoder, state: binocle.GameState, seat: int, with_gone: bool = True
) -> tuple[list[float], bool]:
    """``seat``'s tensor as :meth:`FastEncoder.observe` writes it, with its return value."""
    ones: list[int] = []
    at: list[int] = []
    values: list[float] = []
    whole = encoder.observe(state, seat, ones, at, values, with_gone)
    assert not set(ones) & set(at), "a column is written as a count and as a value"
    out = [0.0] * encoder.size
    for k in ones:
        out[k] += 1.0
    for k, v in zip(at, values, strict=True):
        out[k] = v
    return out, whole


def _dense(encoder: FastEncoder, state: binocle.GameState, seat: int) -> list[float]:
    return _written(encoder, state, seat)[0]


def _positions(name: str, options: dict[str, object], games: int) -> list[binocle.GameState]:
    """Every position of random games played to their end: mostly honest play, so
    tricks, melds on the table, stock draws and retirements happen; sometimes a claim."""
    profile = get_profile(name, **options)
    rng = random.Random(11)
    out: list[binocle.GameState] = []
    for game in range(games):
        s = binocle.start(profile, seed=game)
        out.append(s)
        while s.phase is not binocle.Phase.OVER:
            legal = binocle.legal_actions(s)
            calm = [a for a in legal if a.kind not in ENDERS]
            s = binocle.apply(s, rng.choice(calm if calm and rng.random() < 0.97 else legal))
            out.append(s)
    return out


def _sub(state: binocle.GameState) -> object:
    """The two-handed game inside a three-handed state after a retirement (or None)."""
    return getattr(state, "sub", None)


@pytest.mark.parametrize(("name", "options"), SETTINGS)
def test_every_seat_gets_the_views_tensors(name: str, options: dict[str, object]) -> None:
    """At every position of random games (every decision, between hands, the game's
    end), every seat's state-read observation and information-state tensors equal
    those read from its view, and they are read from the state, not the view: the
    encoder says so (False).  The positions between hands show the last hand's
    cards played (classic, three-handed: the view reads them from its log), and the
    games meet enough of them, and of the two-handed game after a retirement."""
    profile = get_profile(name, **options)
    short, full = FastEncoder(profile), FastEncoder(profile, full=True)
    assert full.size == E.tensor_layout(profile, "information_state").size
    gone = short.one["gone"]
    checked = between = last_plays = ends = sub = sub_between = 0
    for s in _positions(name, options, 6):
        for seat in range(profile.players):
            view = binocle.observe(s, seat)
            assert _written(full, s, seat) == (E.information_state_tensor(view), False)
            tensor = E.observation_tensor(view)
            assert _written(short, s, seat) == (tensor, False)
            checked += 1
        at_rest = s.phase in BETWEEN
        between += at_rest
        ends += s.phase is binocle.Phase.OVER
        last_plays += at_rest and any(tensor[gone : gone + short.width])
        if _sub(s) is not None:
            sub += 1
            sub_between += at_rest
    assert checked > 500
    assert between >= 12 and ends == 6
    if name != "cutthroat":  # cutthroat's view shows no cards played between hands
        assert last_plays >= 5
    if name == "three-handed":
        assert sub >= 150 and sub_between >= 5


@pytest.mark.parametrize(("name", "options"), SETTINGS[::2])
def test_without_the_cards_played(name: str, options: dict[str, object]) -> None:
    """``with_gone=False`` (the vectorized environment keeps the cards played this
    hand itself): in a hand of the game's own seats the tensor lacks the ``gone``
    part and the encoder returns False; between hands, at the end and in the
    two-handed game after a retirement it writes the whole tensor and returns True
    (the caller then takes it whole)."""
    profile = get_profile(name, **options)
    encoder = FastEncoder(profile)
    gone = slice(encoder.one["gone"], encoder.one["gone"] + encoder.width)
    whole_seen = 0
    for s in _positions(name, options, 3):
        for seat in range(profile.players):
            tensor = E.observation_tensor(binocle.observe(s, seat))
            written, whole = _written(encoder, s, seat, with_gone=False)
            expect_whole = s.phase in BETWEEN or _sub(s) is not None
            assert whole is expect_whole
            if not whole:
                tensor[gone] = [0.0] * encoder.width
            assert written == tensor
            whole_seen += whole
    assert whole_seen >= 10


@pytest.mark.parametrize("name", ["cutthroat", "classic", "three-handed"])
def test_no_view_is_built_between_hands_or_after_a_retirement(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The three built-in families write every position from the state's fields: no
    view is built (it costs some fifty times as much), between hands, at the game's
    end and in the two-handed game after a retirement included."""
    import binocle.game

    options: dict[str, object] = {"max_hands": 4}
    positions = [
        s for s in _positions(name, options, 3) if s.phase in BETWEEN or _sub(s) is not None
    ]
    assert len(positions) >= 10
    profile = get_profile(name, **options)
    encoders = [FastEncoder(profile), FastEncoder(profile, full=True)]

    def refused(state: object, seat: int) -> None:
        raise AssertionError("a view was built")

    monkeypatch.setattr(binocle.game, "observe", refused)
    for s in positions:
        for encoder in encoders:
            for seat in range(profile.players):
                assert encoder.observe(s, seat, [], [], []) is False


def test_a_profile_without_a_state_writer_reads_its_view() -> None:
    """Partnership has no state writer: its tensors are the view's, and the encoder
    says they were read whole from the view (True)."""
    profile = get_profile("partnership")
    short, full = FastEncoder(profile), FastEncoder(profile, full=True)
    s = binocle.start(profile, seed=1)
    rng = random.Random(3)
    for _ in range(40):
        if s.phase is binocle.Phase.OVER:
            break
        for seat in (0, 3):
            view = binocle.observe(s, seat)
            assert _written(short, s, seat, with_gone=False) == (E.observation_tensor(view), True)
            assert _written(full, s, seat) == (E.information_state_tensor(view), True)
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))


def test_an_encoder_pickles_as_its_profile_and_kind() -> None:
    """The environments that hold an encoder pickle: it travels as its profile and
    tensor kind, and writes the same tensor afterwards."""
    import pickle

    profile = get_profile("cutthroat")
    s = binocle.start(profile, seed=3)
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    for full in (False, True):
        encoder = FastEncoder(profile, full=full)
        copy = pickle.loads(pickle.dumps(encoder))
        assert copy.full is full and copy.size == encoder.size
        assert _dense(copy, s, 1) == _dense(encoder, s, 1)
