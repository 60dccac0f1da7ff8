"""The public surface is deliberate: its names and signatures are a snapshot.

Every public module's ``__all__`` (and ``binocle``'s own) with each name's
kind and signature — a function's parameters, a class's constructor and its
public methods and properties — is written in ``tests/golden/public_api.json``.
A change to the surface fails this test until the snapshot is written again::

    python tests/test_surface_snapshot.py --regenerate

and the change goes in the CHANGELOG with its deprecation path (docs:
Compatibility).  The snapshot is taken on the pure-Python build: compiled
functions do not all expose their signatures.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import pkgutil
import sys
import types
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import binocle

GOLDEN = Path(__file__).resolve().parent / "golden" / "public_api.json"
#: Modules whose names are not public API: private ones (a leading underscore) and the
#: command line's modules (the commands are its interface, documented on the CLI page).
PRIVATE_PREFIXES = ("binocle.cli.", "binocle.__main__")
#: Deprecated module names kept as forwarders to their new modules (docs: Compatibility).
DEPRECATED = {"binocle.record", "binocle.validate"}
#: Optional parts whose modules need their extra.
OPTIONAL = {"binocle.openspiel", "binocle.pettingzoo", "binocle.web", "binocle.web.app",
            "binocle.web.protocol", "binocle.web.server", "binocle.web.store",
            "binocle.web.words", "binocle.gym", "binocle.vector", "binocle.sb3"}  # fmt: skip


def public_modules() -> list[str]:
    """Every public module of the package, by name, sorted."""
    names = ["binocle"]
    for info in pkgutil.walk_packages(binocle.__path__, "binocle."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts) or info.name.startswith(PRIVATE_PREFIXES):
            continue
        if info.name in DEPRECATED or info.name.endswith("__mypyc"):
            continue  # a forwarder; the compiled build's shared library
        names.append(info.name)
    return sorted(names)


def _signature(obj: Any) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(…)"


def describe(obj: Any) -> Any:
    """A name's kind and signature, as the snapshot holds it.  A type alias such as
    ``Callable[..., Bot]`` is a value (Python 3.10 also calls it a class) named "type
    alias", whatever class the running Python makes it of (``Union[...]`` is a
    ``_UnionGenericAlias`` up to 3.13, a ``Union`` from 3.14)."""
    if typing.get_origin(obj) is not None:
        return {"value": "type alias"}
    if inspect.isclass(obj) and not isinstance(obj, types.GenericAlias):
        if issubclass(obj, enum.Enum):
            return {"enum": [m.name for m in obj]}
        members: dict[str, str] = {}
        for name, value in sorted(vars(obj).items()):
            if name.startswith("_"):
                continue
            if isinstance(value, property):
                members[name] = "property"
            elif isinstance(value, (staticmethod, classmethod)):
                members[name] = _signature(value.__func__)
            elif inspect.isfunction(value):
                members[name] = _signature(value)
        return {"class": _signature(obj), "members": members}
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return {"function": _signature(obj)}
    if inspect.ismodule(obj):
        return {"module": obj.__name__}
    return {"value": type(obj).__name__}


def snapshot() -> dict[str, dict[str, Any]]:
    """The public surface: by module, each name of its ``__all__`` described."""
    out: dict[str, dict[str, Any]] = {}
    for module in loaded_modules():
        names = getattr(module, "__all__", None)
        if names is not None:
            out[module.__name__] = {n: describe(getattr(module, n)) for n in sorted(names)}
    return out


def loaded_modules() -> list[ModuleType]:
    """The public modules this installation can import (an optional part's module
    needs its extra)."""
    out = []
    for name in public_modules():
        try:
            module = importlib.import_module(name)
            for attr in getattr(module, "__all__", ()):  # a lazily imported name too
                getattr(module, attr)
        except ImportError:
            if name not in OPTIONAL:
                raise
            continue
        out.append(module)
    return out


@pytest.mark.skipif(binocle.compiled, reason="compiled functions hide their signatures")
def test_the_public_surface_is_the_snapshot() -> None:
    """Public names and signatures change only on purpose (docs: Compatibility): the
    surface equals the committed snapshot."""
    have = snapshot()
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for name in sorted(set(want) - set(have)):
        if name not in OPTIONAL:
            pytest.fail(f"public module {name} is gone")
    for module in sorted(have):
        assert module in want, f"{module}: a new public module (regenerate the snapshot)"
        gone = sorted(set(want[module]) - set(have[module]))
        new = sorted(set(have[module]) - set(want[module]))
        assert not gone, f"{module}: public names removed: {gone}"
        assert not new, f"{module}: public names added: {new} (regenerate the snapshot)"
        for n in have[module]:
            assert have[module][n] == want[module][n], f"{module}.{n} changed"


def test_every_public_module_declares_its_names() -> None:
    """A public module says which of its names are public (``__all__``), and each of
    them exists."""
    for module in loaded_modules():
        names = getattr(module, "__all__", None)
        assert names is not None, f"{module.__name__} has no __all__"
        for n in names:
            assert hasattr(module, n), f"{module.__name__}.__all__ names {n}, which it lacks"


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(__doc__)
    GOLDEN.write_text(json.dumps(snapshot(), indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {GOLDEN}")
