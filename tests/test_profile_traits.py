"""What a profile states of its own rules, for the rest of binocle to read instead of
its name: the seats of a side (:meth:`Profile.side_of`)."""

from __future__ import annotations

import pytest

import binocle
from binocle import InvalidArgumentError


@pytest.mark.parametrize("name", binocle.profile_names())
def test_side_of_is_the_side_in_sides_that_holds_the_seat(name: str) -> None:
    """Each seat's side is the one of ``sides`` it sits in, itself among it; the sides
    cover every seat once."""
    p = binocle.profile(name)
    for seat in range(p.players):
        side = p.side_of(seat)
        assert seat in side and side in p.sides
        assert all(p.side_of(mate) == side for mate in side)
    assert sorted(s for side in p.sides for s in side) == list(range(p.players))


def test_side_of_pairs_partners_opposite_in_the_partnership_game() -> None:
    """§4b Players and pack: partners sit opposite, 0 and 2 against 1 and 3; elsewhere
    each seat plays alone."""
    p = binocle.profile("partnership")
    assert [p.side_of(s) for s in range(4)] == [(0, 2), (1, 3), (0, 2), (1, 3)]
    assert binocle.profile("cutthroat").side_of(2) == (2,)
    assert binocle.profile("classic").side_of(1) == (1,)


@pytest.mark.parametrize("name", binocle.profile_names())
def test_side_of_refuses_a_seat_not_at_the_table(name: str) -> None:
    """A seat below 0, past the last, or a bool is not a seat: InvalidArgumentError."""
    p = binocle.profile(name)
    for bad in (-1, p.players, p.players + 7, True):
        with pytest.raises(InvalidArgumentError, match="seat is a whole number"):
            p.side_of(bad)
