"""The generated constructors and copiers of state classes (layer 3).

:func:`state_builder`, :func:`state_changer` and :func:`state_updater` compile, for
one frozen state class, the code that builds or copies a state on the hot paths
of every profile.  They are part of :mod:`binocle.core`, where profiles import them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

if TYPE_CHECKING:
    from binocle.core import GameState

__all__ = ["state_builder", "state_changer", "state_updater"]

T = TypeVar("T", bound="GameState")
V = TypeVar("V", bound=attrs.AttrsInstance)


def state_builder(cls: type[V]) -> Callable[..., V]:
    """A positional constructor for the state class ``cls`` (or another frozen
    attrs class of plain fields), for hot paths.

    It takes the same arguments as ``cls(...)`` and gives an equal state at a
    fraction of the cost of attrs' frozen ``__init__``, which stores each field
    through ``object.__setattr__``.  The new state is filled as an instance of
    a private twin of ``cls`` (the same base and slots, without the frozen
    guard), where each store is a plain slot store, and then becomes a ``cls``
    (assigning ``__class__`` between classes of one layout).  Where that is not
    possible, each slot is filled through its descriptor instead.  Generated
    from ``attrs.fields(cls)``, so it follows the fields; states have no
    validators or converters, and fields left out of ``__init__`` take their
    plain default.
    """
    params = [f"a{i}" for i, f in enumerate(attrs.fields(cls)) if f.init]
    values = {f.name: f"a{i}" for i, f in enumerate(attrs.fields(cls)) if f.init}
    build = _generate(cls, "build", params, values)
    build.__doc__ = f"Build a {cls.__name__} positionally (see binocle.core.state_builder)."
    return build


def state_changer(cls: type[T], *names: str) -> Callable[..., T]:
    """``change(state, *values)``: a copy of a ``cls`` state with the fields ``names``
    set to ``values``, in that order, and every other field shared.

    The fastest way to make the next state where a transition changes a few
    fields of many (generated like :func:`state_builder`, one plain read per
    field kept).
    """
    init = [f.name for f in attrs.fields(cls) if f.init]
    unknown = [n for n in names if n not in init]
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    values = {n: f"s.{n}" for n in init}
    values.update({n: f"v{i}" for i, n in enumerate(names)})
    params = ["s", *(f"v{i}" for i in range(len(names)))]
    change = _generate(cls, "change", params, values)
    change.__doc__ = f"A copy of a {cls.__name__} with {', '.join(names)} changed."
    return change


def _generate(
    cls: type[V], name: str, params: list[str], values: dict[str, str], *, finish: bool = True
) -> Callable[..., V]:
    """Compile ``name(*params)``, which builds a ``cls`` from the expressions
    ``values`` (by init field name); fields left out of ``__init__`` take their
    plain default.  ``finish=False`` (with a twin class only): leave the new
    object a twin, for more stores before it becomes a ``cls``."""
    stores: list[tuple[str, str]] = []  # (field name, value expression)
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for i, f in enumerate(attrs.fields(cls)):
        if f.validator is not None or f.converter is not None:
            raise TypeError(f"{cls.__name__}.{f.name} has a validator or converter")
        if f.init:
            if f.default is not attrs.NOTHING:
                raise TypeError(f"{cls.__name__}.{f.name}: only required init fields")
            stores.append((f.name, values[f.name]))
        else:
            if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
                raise TypeError(f"{cls.__name__}.{f.name} has a factory default")
            env[f"_default{i}"] = f.default
            stores.append((f.name, f"_default{i}"))
    twin = _twin(cls)
    if twin is not None:
        env["_twin"] = twin
        body = ["    o = _new(_twin)", *(f"    o.{n} = {v}" for n, v in stores)]
        if finish:
            body.append("    o.__class__ = _cls")
    else:
        body = ["    o = _new(_cls)"]
        for i, (n, v) in enumerate(stores):
            env[f"_set{i}"] = getattr(cls, n).__set__
            body.append(f"    _set{i}(o, {v})")
    source = "\n".join([f"def {name}({', '.join(params)}):", *body, "    return o", ""])
    exec(compile(source, f"<state_{name} {cls.__qualname__}>", "exec"), env)
    made: Callable[..., V] = env[name]
    return made


def _twin(cls: type) -> type | None:
    """A class of the same layout as ``cls`` whose slots take plain stores, or None.

    Its base is ``cls``'s base (with the same slots added), so an instance can
    become a ``cls`` by assigning ``__class__``; that base must store
    attributes as ``object`` does (GameState is not frozen, its subclasses are).
    """
    if cls in _TWINS:
        return _TWINS[cls]
    _TWINS[cls] = None
    base = cls.__base__
    own = cls.__dict__.get("__slots__")
    plain: Any = getattr(base, "__setattr__", None)
    if own is None or base is None or plain is not object.__setattr__:
        return None
    twin = type(f"_{cls.__name__}Twin", (base,), {"__slots__": tuple(own)})
    try:
        probe: Any = object.__new__(twin)
        probe.__class__ = cls
    except TypeError:  # pragma: no cover - layouts differ (another Python)
        return None
    _TWINS[cls] = twin
    return twin


_TWINS: dict[type, type | None] = {}


def state_updater(cls: type[T]) -> Callable[..., T]:
    """``update(state, **changes)``: a copy of a ``cls`` state with some fields changed.

    Built on :func:`state_builder`, so it costs a fraction of ``attrs.evolve``;
    the copy shares every field that did not change.  ``current`` may stand for
    ``current_player``.
    """
    names = [f.name for f in attrs.fields(cls) if f.init]
    twin = _twin(cls)
    if twin is not None:
        # Every field copied by a plain store, then the few changes stored over them.
        values = {n: f"s.{n}" for n in names}
        copy = _generate(cls, "copy", ["s"], values, finish=False)
        setters = {n: getattr(twin, n).__set__ for n in names}
        setters["current"] = setters["current_player"]
        env0: dict[str, Any] = {"_copy": copy, "_setters": setters, "_cls": cls}
        source0 = (
            "def update(s, **c):\n"
            "    o = _copy(s)\n"
            "    for k, v in c.items():\n"
            "        _setters[k](o, v)\n"
            "    o.__class__ = _cls\n"
            "    return o\n"
        )
        exec(compile(source0, f"<state_updater {cls.__qualname__}>", "exec"), env0)
        fast: Callable[..., T] = env0["update"]
        fast.__doc__ = f"A copy of a {cls.__name__} with some fields changed (state_updater)."
        return fast
    # Generated, like state_builder: one plain attribute read per unchanged field.
    args = ", ".join(f"c[{n!r}] if {n!r} in c else s.{n}" for n in names)
    source = (
        "def update(s, **c):\n"
        "    if 'current' in c:\n"
        "        c['current_player'] = c.pop('current')\n"
        f"    return build({args})\n"
    )
    env: dict[str, Any] = {"build": state_builder(cls)}
    exec(compile(source, f"<state_updater {cls.__qualname__}>", "exec"), env)
    update: Callable[..., T] = env["update"]
    update.__doc__ = f"A copy of a {cls.__name__} with some fields changed (state_updater)."
    return update
