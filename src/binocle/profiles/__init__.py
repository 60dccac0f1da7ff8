"""The profile registry: rule profiles found by name or alias (layer 3).

A profile is one module plus one entry in :data:`REGISTRY`; modules are imported
only when a profile is first asked for.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Final

import attrs

from binocle.core import Profile
from binocle.errors import UnknownProfileError

__all__ = ["REGISTRY", "get_profile", "profile_names"]

#: Profile name → ``"module:Class"``.  Add a line here for a new profile.
REGISTRY: Final[dict[str, str]] = {
    "classic": "binocle.profiles.classic:Classic",
    "three-handed": "binocle.profiles.three_handed:ThreeHanded",
    "cutthroat": "binocle.profiles.cutthroat:Cutthroat",
}
_CLASSES: dict[str, type[Profile]] = {}


def _load(name: str) -> type[Profile]:
    cls = _CLASSES.get(name)
    if cls is None:
        module, _, attr = REGISTRY[name].partition(":")
        cls = getattr(importlib.import_module(module), attr)
        _CLASSES[name] = cls
    return cls


def _available() -> list[str]:
    out = []
    for name in REGISTRY:
        try:
            _load(name)
        except ImportError:
            continue
        out.append(name)
    return out


def profile_names() -> tuple[str, ...]:
    """The names of the profiles this installation offers."""
    return tuple(_available())


def _aliases() -> dict[str, str]:
    table: dict[str, str] = {}
    for name in _available():
        table[name] = name
        table[name.replace("-", "_")] = name
        for alias in _load(name).aliases:
            table[alias] = name
    return table


_SPEC: Final = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)


def _value(text: str) -> Any:
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return t


def get_profile(spec: Any = "cutthroat", **options: Any) -> Profile:
    """A profile by name, alias or text such as ``"cutthroat(min_bid=300)"``.

    Keyword options override those in the text.  A profile object is returned
    as it is (with ``options`` applied on top).
    """
    if not options and type(spec) is str:
        # Profiles are frozen values: one read of a text serves every later call.
        found = _BY_TEXT.get(spec)
        if found is not None:
            return found
        found = _get_profile(spec)
        if len(_BY_TEXT) < 1024:
            _BY_TEXT[spec] = found
        return found
    return _get_profile(spec, **options)


_BY_TEXT: dict[str, Profile] = {}


def _get_profile(spec: Any, **options: Any) -> Profile:
    if isinstance(spec, Profile):
        if not options:
            return spec
        name, given = spec.name, spec.options()
    elif isinstance(spec, str):
        m = _SPEC.match(spec)
        if not m:
            raise UnknownProfileError(f"not a profile: {spec!r} (e.g. 'cutthroat(min_bid=300)')")
        key = m.group(1).lower()
        table = _aliases()
        if key not in table:
            known = ", ".join(profile_names())
            raise UnknownProfileError(f"unknown profile {m.group(1)!r} (known: {known})")
        name = table[key]
        given = {}
        if m.group(2) and m.group(2).strip():
            for part in m.group(2).split(","):
                if "=" not in part:
                    raise UnknownProfileError(f"profile option {part.strip()!r} needs name=value")
                k, _, v = part.partition("=")
                given[k.strip()] = _value(v)
    else:
        raise UnknownProfileError(
            f"a profile is a name such as 'cutthroat' or a profile object, not {type(spec).__name__}"
        )
    given.update(options)
    cls = _load(name)
    fields = {f.name for f in attrs.fields(cls)}
    unknown = sorted(set(given) - fields)
    if unknown:
        raise UnknownProfileError(
            f"unknown option {unknown[0]!r} for profile {name!r}"
            f" (options: {', '.join(sorted(fields))})"
        )
    try:
        return cls(**given)
    except (ValueError, TypeError) as exc:
        raise UnknownProfileError(f"invalid option for profile {name!r}: {exc}") from None
