"""The public names as a program imports and types them: modules that are not
shadowed by functions, kinds that narrow an action, profile states and public
facts a type checker sees, explanations of legal actions, and a reference entry
for every public name."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

import binocle


def test_records_and_validation_are_modules_the_functions_stay() -> None:
    """``import binocle.records as R`` gives the module (``R.meld_value``), and
    ``binocle.record(state)`` / ``binocle.validate(record)`` still work."""
    import binocle.records as R
    import binocle.validation as V

    assert callable(R.meld_value) and R.record is binocle.record
    assert V.ViolationKind is binocle.ViolationKind and V.validate is binocle.validate
    s = binocle.start("cutthroat", seed=3)
    assert binocle.validate(binocle.record(s)).ok


def test_old_module_names_still_give_their_names_with_a_warning() -> None:
    """The deprecated module names ``binocle.record`` and ``binocle.validate`` give
    every name of the new modules and warn; the package's functions are not
    replaced by the modules when they are imported (in a fresh interpreter)."""
    code = (
        "import warnings, binocle\n"
        "warnings.simplefilter('error')\n"
        "try:\n"
        "    from binocle.record import schema\n"
        "except DeprecationWarning as e:\n"
        "    print('record:', e)\n"
        "try:\n"
        "    from binocle.validate import ViolationKind\n"
        "except DeprecationWarning as e:\n"
        "    print('validate:', e)\n"
        "warnings.simplefilter('ignore')\n"
        "from binocle.record import schema\n"
        "from binocle.validate import ViolationKind\n"
        "import binocle.records, binocle.validation\n"
        "assert schema is binocle.records.schema\n"
        "assert ViolationKind is binocle.validation.ViolationKind\n"
        "assert callable(binocle.record) and callable(binocle.validate)\n"
        "assert binocle.record.__module__ == 'binocle.records'\n"
        "assert binocle.validate.__module__ == 'binocle.validation'\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "record: the module binocle.record is deprecated" in out
    assert "import schema from binocle.records" in out
    assert "validate: the module binocle.validate is deprecated" in out


def test_old_module_names_refuse_unknown_names() -> None:
    """A name the new module lacks is an AttributeError from the old name too."""
    old = importlib.import_module("binocle.record")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
            old.nothing_here  # noqa: B018


@pytest.mark.parametrize("name", ["cutthroat", "classic", "three-handed"])
def test_explain_and_refusal_of_a_legal_action_raise(name: str) -> None:
    """Asked why a legal action is refused, Profile.explain and Profile.refusal raise
    InvalidArgumentError ("… is legal here"): no rule refuses it.  An illegal action
    is still explained."""
    import random

    rng = random.Random(2)
    s = binocle.start(name, seed=4)
    for _ in range(40):
        if binocle.is_over(s):
            break
        p = s.profile
        for action in binocle.legal_actions(s):
            with pytest.raises(binocle.InvalidArgumentError, match="is legal here"):
                p.explain(s, action)
            with pytest.raises(binocle.InvalidArgumentError, match="is legal here"):
                p.refusal(s, action)
        for seat in binocle.claimants(s):
            with pytest.raises(binocle.InvalidArgumentError, match="is legal here"):
                p.explain(s, binocle.actions.claim(seat))
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
    s = binocle.start(name, seed=4)
    illegal = binocle.actions.bid(5)
    assert illegal not in binocle.legal_actions(s)
    assert isinstance(s.profile.explain(s, illegal), str)
