"""The state classes' fields, constructors and changers are written from one table
(``tools/gen_states.py``): a field is named once, and the written-out code the compiled
build needs follows it."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType

import pytest

import binocle
from binocle.core import GameState
from binocle.profiles._classic_state import ClassicState
from binocle.profiles._cutthroat_state import Auction, CutthroatState
from binocle.profiles._three_handed_state import ThreeHandedState
from helpers import load_tool

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    return load_tool("gen_states")


def test_the_generated_code_is_what_the_table_writes() -> None:
    """Every generated region of the state modules is exactly what the generator writes
    from its table: nobody edited a constructor or changer by hand."""
    gen = _generator()
    for path in sorted({c.path for c in gen.CLASSES}):
        assert (ROOT / path).read_text() == gen.render(path), f"{path}: run tools/gen_states.py"


def test_the_table_names_each_class_fields_in_order() -> None:
    """The classes' ``_FIELDS`` (what ``replace``, pickling and the records read) are the
    table's, common fields first."""
    gen = _generator()
    classes = {
        "GameState": GameState,
        "Auction": Auction,
        "CutthroatState": CutthroatState,
        "ClassicState": ClassicState,
        "ThreeHandedState": ThreeHandedState,
    }
    assert {c.name for c in gen.CLASSES} == set(classes)
    for spec in gen.CLASSES:
        assert tuple(n for n, _ in spec.fields()) == classes[spec.name]._FIELDS, spec.name


@pytest.mark.skipif(binocle.compiled, reason="a compiled constructor has no Python signature")
def test_each_constructor_takes_the_fields_in_order() -> None:
    """The constructor's parameters are the fields, in ``_FIELDS`` order."""
    for cls in (GameState, Auction, CutthroatState, ClassicState, ThreeHandedState):
        params = list(inspect.signature(cls).parameters)
        assert params == list(cls._FIELDS), cls.__name__


def test_a_changer_copies_every_other_field() -> None:
    """A changer sets the fields it names and keeps every other one of the state."""
    from binocle.profiles import _classic_state as cs

    s = binocle.new_game("classic", seed=3)
    assert isinstance(s, ClassicState)
    changed = cs._change_lead(s, 1, s.hands, s.trick, s.history, s.concealed, s.tables)
    assert changed.current_player == 1
    for name in ClassicState._FIELDS:
        if name != "current_player":
            assert getattr(changed, name) is getattr(s, name), name
