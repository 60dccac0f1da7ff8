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


@pytest.mark.skipif(binocle.compiled, reason="mypy reads the Python source, not the compiled build")
def test_typed_programs_pass_mypy_strict(tmp_path: object) -> None:
    """The files of tests/typing, written as a bot or front end would be against the
    public names, pass ``mypy --strict`` with no error, and every ``reveal_type``
    shows the type written beside it: an action's card is a Card once its kind is
    checked, a state narrowed to its profile's class shows its fields, a view's
    public facts are typed per profile."""
    import os
    import re
    from pathlib import Path

    api = pytest.importorskip("mypy.api")
    here = Path(__file__).parent / "typing"
    src = Path(binocle.__file__).parent.parent
    files = sorted(here.glob("*.py"))
    old = os.environ.get("MYPYPATH")
    os.environ["MYPYPATH"] = str(src)  # the binocle under test, not another installed one
    try:
        out, err, status = api.run(
            ["--strict", "--cache-dir", str(Path(str(tmp_path)) / "cache"), *map(str, files)]
        )
    finally:
        if old is None:
            del os.environ["MYPYPATH"]
        else:
            os.environ["MYPYPATH"] = old
    assert status == 0 and " error:" not in out, out + err
    revealed = dict(re.findall(r":(\d+): note: Revealed type is \"(.+)\"", out))
    expected = 0
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = re.search(r"# revealed: (.+)$", line)
            if m:
                expected += 1
                assert revealed.get(str(number)) == m.group(1).strip(), (path.name, number, out)
    assert expected and len(revealed) == expected


def test_profile_states_and_facts() -> None:
    """binocle.profiles exports the profile state classes (isinstance narrows a state
    to its profile's class) and typed public facts per profile; the facts of a view
    of another profile are refused."""
    from binocle import profiles

    s = binocle.start("cutthroat", seed=2)
    assert isinstance(s, profiles.CutthroatState)
    assert not isinstance(s, (profiles.ClassicState, profiles.ThreeHandedState))
    view = binocle.observe(s, 0)
    assert profiles.cutthroat_facts(view) == dict(view.public)
    assert set(profiles.cutthroat_facts(view)) == set(profiles.CutthroatFacts.__annotations__)
    c = binocle.observe(binocle.start("classic", seed=1), 0)
    assert set(profiles.classic_facts(c)) == set(profiles.ClassicFacts.__annotations__)
    t = binocle.observe(binocle.start("three-handed", seed=1), 0)
    assert set(profiles.three_handed_facts(t)) <= set(profiles.ThreeHandedFacts.__annotations__)
    with pytest.raises(binocle.InvalidArgumentError, match="not a view of the classic game"):
        profiles.classic_facts(view)
    with pytest.raises(AttributeError):
        profiles.NoSuchState  # noqa: B018


def _public_modules() -> list[str]:
    """Every public module (those of tests/test_surface_snapshot.py)."""
    from test_surface_snapshot import public_modules

    return public_modules()


@pytest.mark.skipif(binocle.compiled, reason="the docs are built from the Python source")
def test_every_public_name_has_a_reference_entry() -> None:
    """Every name in ``binocle.__all__`` and in each public module's ``__all__`` has a
    reference entry in docs/api: named there (``module.name``), or documented by an
    ``automodule`` with ``:members:`` that does not exclude it (a class or function
    with a docstring; a constant must be named)."""
    import inspect
    import re
    import types
    from pathlib import Path

    api = Path(__file__).parent.parent / "docs" / "api"
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(api.glob("*.rst")))
    # An automodule with ``:members:`` documents every documented public member (those
    # it excludes aside); with a list, the members listed.  A ``data``/``function``/
    # ``class`` directive names its entry in the module the page is in.
    automodules: dict[str, set[str]] = {}
    listed: set[str] = set()
    for m in re.finditer(r"\.\. automodule:: (\S+)\n((?:   .*\n)*)", text):
        module_name, options = m.group(1), m.group(2)
        members = re.search(r":members:[ \t]*(.*(?:\n {13}.*)*)", options)
        if members is None:
            continue
        names = [x.strip() for x in members.group(1).replace("\n", " ").split(",") if x.strip()]
        if names:
            listed.update(f"{module_name}.{n}" for n in names)
            continue
        excluded = re.search(r":exclude-members: (.*)", options)
        automodules[module_name] = (
            {x.strip() for x in excluded.group(1).split(",")} if excluded else set()
        )
    for page in sorted(api.glob("*.rst")):
        current = ""
        for line in page.read_text(encoding="utf-8").splitlines():
            found = re.match(r"\.\. (?:auto|current)?module:: (\S+)", line)
            if found:
                current = found.group(1)
                continue
            found = re.match(
                r"\.\. (?:py:)?(?:data|function|class|autodata|autofunction|autoclass)::\s+([\w.]+)",
                line,
            )
            if found and current:
                listed.add(f"{current}.{found.group(1)}")
    modules = {}
    for module_name in _public_modules():
        try:
            module = importlib.import_module(module_name)
            for attr in getattr(module, "__all__", ()):  # a lazily imported name too
                getattr(module, attr)
        except ImportError:
            continue  # an optional part whose packages are not installed
        modules[module_name] = module

    def entry(module_name: str, name: str, obj: object) -> bool:
        if re.search(rf"{re.escape(module_name)}\.{re.escape(name)}\b", text):
            return True
        if f"{module_name}.{name}" in listed:
            return True
        # A type alias (``Callable[..., Bot]``) is a constant; Python 3.10 calls it a class.
        if (inspect.isclass(obj) and not isinstance(obj, types.GenericAlias)) or inspect.isroutine(
            obj
        ):
            documented = bool(inspect.getdoc(obj))
        else:
            # A constant autodoc documents: one with a ``#:`` comment in its module.
            source = inspect.getsource(modules[module_name])
            documented = bool(re.search(rf"^#:.*\n(?:#:.*\n)*{re.escape(name)}\b", source, re.M))
        excluded = automodules.get(module_name)
        return excluded is not None and name not in excluded and documented

    missing = []
    for module_name, module in modules.items():
        for name in getattr(module, "__all__", ()):
            if name.startswith("__"):
                continue
            obj = getattr(module, name)
            # The same object under another public module's name (binocle.apply is
            # binocle.game.apply) has one entry for both.
            homes = [m for m, mod in modules.items() if getattr(mod, name, None) is obj]
            if not any(entry(m, name, obj) for m in homes):
                missing.append(f"{module_name}.{name}")
    assert not missing, missing
