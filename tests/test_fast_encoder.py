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

SETTINGS = [
    ("cutthroat", {}),
    ("cutthroat", {"single_set": True, "max_bid": 400}),
    ("classic", {}),
    ("classic", {"pack": 64}),
    ("three-handed", {}),
    ("three-handed", {"claim_overlooked": True}),
]
ENDERS = frozenset({binocle.Kind.CLAIM, binocle.Kind.CONCEDE})


def _dense(encoder: FastEncoder, state: binocle.GameState, seat: int) -> list[float]:
    ones: list[int] = []
    at: list[int] = []
    values: list[float] = []
    encoder.observe(state, seat, ones, at, values)
    out = [0.0] * encoder.size
    for k in ones:
        out[k] += 1.0
    for k, v in zip(at, values, strict=True):
        out[k] += v
    return out


@pytest.mark.parametrize(("name", "options"), SETTINGS)
def test_every_seat_gets_the_views_tensors(name: str, options: dict[str, object]) -> None:
    """Over random games of three hands (mostly honest play, so tricks, melds on the
    table, stock draws and retirements happen; sometimes a claim), at every decision,
    every seat's state-read observation and information-state tensors equal those
    read from its view; and so between hands and at the game's end."""
    profile = get_profile(name, **options)
    short, full = FastEncoder(profile), FastEncoder(profile, full=True)
    assert full.size == E.tensor_layout(profile, "information_state").size
    rng = random.Random(11)
    checked = 0
    for game in range(6):
        s = binocle.start(profile, seed=game)
        while s.phase is not binocle.Phase.OVER and s.hand_number < 3:
            for seat in range(profile.players):
                view = binocle.observe(s, seat)
                assert _dense(full, s, seat) == E.information_state_tensor(view)
                assert _dense(short, s, seat) == E.observation_tensor(view)
                checked += 1
            legal = binocle.legal_actions(s)
            calm = [a for a in legal if a.kind not in ENDERS]
            s = binocle.apply(s, rng.choice(calm if calm and rng.random() < 0.97 else legal))
        for seat in range(profile.players):
            view = binocle.observe(s, seat)
            assert _dense(full, s, seat) == E.information_state_tensor(view)
            assert _dense(short, s, seat) == E.observation_tensor(view)
    assert checked > 500


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
