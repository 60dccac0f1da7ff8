"""The frozen behaviour and the generated constructors and copiers of state classes
(layer 3).

:func:`frozen_state` makes a written-out state class a frozen value in pure Python
(compiled, its ``Final`` fields already are).  :func:`state_builder`,
:func:`state_changer` and :func:`state_updater` compile, for one state class, the
code that builds or copies a state; :func:`python_changers` puts the generated
changers in place of the written-out ones where that is faster (pure Python).
They are part of :mod:`binocle.core`, where profiles import them.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Any, TypeVar

import attrs

__all__ = ["frozen_state", "python_changers", "state_builder", "state_changer", "state_updater"]

#: A state class (a :class:`binocle.core.GameState` subclass; this module sits below it).
T = TypeVar("T")
V = TypeVar("V")


def _layout(cls: type) -> tuple[list[str], dict[str, Any]]:
    """A state class's constructor fields in order, and its other fields with their
    plain defaults: from ``_FIELDS`` and the slots (a state class written out), or
    from ``attrs.fields`` (an attrs class)."""
    if attrs.has(cls):
        init: list[str] = []
        rest: dict[str, Any] = {}
        for f in attrs.fields(cls):
            if f.validator is not None or f.converter is not None:
                raise TypeError(f"{cls.__name__}.{f.name} has a validator or converter")
            if f.init:
                if f.default is not attrs.NOTHING:
                    raise TypeError(f"{cls.__name__}.{f.name}: only required init fields")
                init.append(f.name)
            else:
                if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
                    raise TypeError(f"{cls.__name__}.{f.name} has a factory default")
                rest[f.name] = f.default
        return init, rest
    names: tuple[str, ...] = getattr(cls, "_FIELDS", ())
    slots = [n for k in reversed(cls.__mro__) for n in vars(k).get("__slots__", ())]
    return list(names), {n: None for n in slots if n not in names}


def native_base(cls: type) -> type | None:
    """The class of ``cls``'s line (``cls`` itself or a base) that the compiled build
    made native, whose constructor is written in C; None in pure Python."""
    for k in cls.__mro__:
        init = vars(k).get("__init__")
        if k is not object and init is not None and not isinstance(init, FunctionType):
            return k
    return None


def frozen_state(cls: type[V]) -> type[V]:
    """Make the state class ``cls``, written out with its ``_FIELDS``, frozen (call it
    once, after the class).

    Compiled, ``cls`` is a native class whose ``Final`` fields are read-only
    already, and this changes nothing.  In pure Python its ``__init__`` is replaced
    by one that stores the same arguments past the frozen guard (an instance
    filled as its twin class, see :func:`state_builder`), and setting or
    deleting a field raises :class:`attrs.exceptions.FrozenInstanceError`, an
    :class:`AttributeError`.  Raises TypeError when the written ``__init__`` does
    not take the fields in their order.
    """
    written = vars(cls).get("__init__")
    if not isinstance(written, FunctionType):
        return cls
    names, rest = _layout(cls)
    code = written.__code__
    if list(code.co_varnames[1 : code.co_argcount]) != names:
        raise TypeError(f"{cls.__name__}.__init__ does not take {cls.__name__}._FIELDS in order")
    env: dict[str, Any] = {"_cls": cls, **{f"_default_{n}": v for n, v in rest.items()}}
    base = native_base(cls)
    if base is not None:
        # A Python subclass of a compiled state class: the native constructor stores
        # the base's fields (read-only to anything else), the slots store the rest.
        inherited: tuple[str, ...] = getattr(base, "_FIELDS", ())
        if names[: len(inherited)] != list(inherited):
            raise TypeError(f"{cls.__name__}._FIELDS does not begin with {base.__name__}'s")
        env["_base_init"] = vars(base)["__init__"]
        stores = [(n, n) for n in names[len(inherited) :]]
        stores += [(n, f"_default_{n}") for n in rest if not hasattr(base, n)]
        for n, _ in stores:
            env[f"_set_{n}"] = getattr(cls, n).__set__
        body = [
            f"    _base_init(self, {', '.join(inherited)})",
            *(f"    _set_{n}(self, {v})" for n, v in stores),
        ]
    else:
        stores = [(n, n) for n in names] + [(n, f"_default_{n}") for n in rest]
        for n, _ in stores:
            env[f"_set_{n}"] = getattr(cls, n).__set__
        slow = [f"        _set_{n}(self, {v})" for n, v in stores]
        twin = _twin(cls)
        if twin is not None:
            env["_twin"] = twin
            env["_set_class"] = vars(object)["__class__"].__set__
            body = [
                "    if self.__class__ is _cls:",
                "        _set_class(self, _twin)",
                *(f"        self.{n} = {v}" for n, v in stores),
                "        self.__class__ = _cls",
                "    else:",
                *slow,
            ]
        else:
            body = ["    if True:", *slow]
    # The guards are generated too: a compiled function set on a class would not bind.
    guards = [
        "def __setattr__(self, name, value):",
        "    raise _Frozen()",
        "def __delattr__(self, name):",
        "    raise _Frozen()",
    ]
    env["_Frozen"] = attrs.exceptions.FrozenInstanceError
    source = "\n".join([f"def __init__(self, {', '.join(names)}):", *body, *guards, ""])
    exec(compile(source, f"<frozen_state {cls.__qualname__}>", "exec"), env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = written.__doc__
    type.__setattr__(cls, "__init__", init)
    type.__setattr__(cls, "__setattr__", env["__setattr__"])
    type.__setattr__(cls, "__delattr__", env["__delattr__"])
    return cls


def python_changers(namespace: dict[str, Any], cls: type, *names: str) -> None:
    """In pure Python, put in ``namespace`` (a module's globals) the generated
    :func:`state_changer` of each written-out changer ``names``; compiled, change
    nothing.

    A changer written out, ``def change(s, field, ...)`` returning a ``cls`` that is
    ``s`` with those fields (its parameters, by name) set, is one native
    constructor call when compiled.  Interpreted, the generated changer of the
    same fields does the same at less cost, and the module's
    own calls, which look the name up at run time, reach it instead (compiled
    calls are bound when compiled).
    """
    if native_base(cls) is not None:
        return
    for name in names:
        code = namespace[name].__code__
        fields = code.co_varnames[1 : code.co_argcount]
        namespace[name] = state_changer(cls, *fields)


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
    if native_base(cls) is cls:
        return cls  # compiled: the class's own constructor is the fast one
    init, _ = _layout(cls)
    params = [f"a{i}" for i in range(len(init))]
    values = {n: f"a{i}" for i, n in enumerate(init)}
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
    init, _ = _layout(cls)
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
    init, rest = _layout(cls)
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    stores = [(n, values[n]) for n in init]  # (field name, value expression)
    for n, default in rest.items():
        env[f"_default_{n}"] = default
        stores.append((n, f"_default_{n}"))
    if native_base(cls) is not None:
        # Compiled: the class's constructor, given every constructor field in order.
        args = ", ".join(values[n] for n in init)
        source = f"def {name}({', '.join(params)}):\n    return _cls({args})\n"
        exec(compile(source, f"<state_{name} {cls.__qualname__}>", "exec"), env)
        native: Callable[..., V] = env[name]
        return native
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
    names, _ = _layout(cls)
    twin = None if native_base(cls) is not None else _twin(cls)
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
