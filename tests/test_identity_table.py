"""The identity table the action ids of interned actions are read from
(``binocle.encoding._identity``): an object is found only as itself, never by an
equal one, and every object put in is found whatever its address collides with."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from binocle import actions as A
from binocle.encoding._actions import _space
from binocle.encoding._identity import IdentityTable
from binocle.profiles import get_profile


def test_an_equal_object_is_not_found() -> None:
    """An equal action built afresh is another object: not in the table."""
    table = IdentityTable([(A.PLAY[5], 7)])
    again = A.Action(A.Kind.PLAY, card=A.PLAY[5].card)
    assert again == A.PLAY[5] and again is not A.PLAY[5]
    assert table.get(A.PLAY[5]) == 7
    assert table.get(again) is None
    assert table.get(None) is None


@given(st.integers(min_value=0, max_value=400), st.data())
def test_every_object_is_found_with_its_value(n: int, data: st.DataObject) -> None:
    """However many objects (and wherever their addresses fall), each one's own value
    comes back, and an object not put in is not found."""
    objects = [object() for _ in range(n)]
    table = IdentityTable((o, i) for i, o in enumerate(objects))
    assert len(table) == n
    for i, o in enumerate(objects):
        assert table.get(o) == i
    for _ in range(data.draw(st.integers(min_value=1, max_value=20))):
        assert table.get(object()) is None


def test_an_object_twice_is_refused() -> None:
    """A table gives one value an object: the same object twice is refused."""
    o = object()
    with pytest.raises(ValueError, match="twice"):
        IdentityTable([(o, 1), (o, 2)])


@pytest.mark.parametrize("name", ["cutthroat", "classic", "three-handed", "partnership"])
def test_the_fixed_ids_read_as_the_action_space_gives_them(name: str) -> None:
    """Built from an action space's fixed ids, the table gives each interned action
    the id the space gives it (the walk and the encoder read their ids this way)."""
    space = _space(get_profile(name))
    fixed = space._fixed
    table = IdentityTable(fixed.items())
    assert len(table) == len(fixed) > 0
    for action, i in fixed.items():
        assert table.get(action) == i
