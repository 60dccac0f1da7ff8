"""The profile registry: rule profiles found by name or alias (layer 3).

A profile is one module plus one entry in :data:`REGISTRY`; modules are imported
only when a profile is first asked for.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Final, TypedDict, cast

import attrs

from binocle.cards import Card
from binocle.core import MeldResult, Profile, View
from binocle.errors import InvalidArgumentError, UnknownProfileError, excerpt, shorten
from binocle.profiles._classic_state import ClassicState
from binocle.profiles._cutthroat_state import CutthroatState
from binocle.profiles._three_handed_state import Overlooked, ThreeHandedState

__all__ = [
    "REGISTRY",
    "ClassicFacts",
    "ClassicState",
    "CutthroatFacts",
    "CutthroatState",
    "ThreeHandedFacts",
    "ThreeHandedState",
    "classic_facts",
    "cutthroat_facts",
    "get_profile",
    "profile_names",
    "three_handed_facts",
]

#: Profile name → ``"module:Class"``.  Add a line here for a new profile.
REGISTRY: Final[dict[str, str]] = {
    "classic": "binocle.profiles.classic:Classic",
    "three-handed": "binocle.profiles.three_handed:ThreeHanded",
    "cutthroat": "binocle.profiles.cutthroat:Cutthroat",
    "partnership": "binocle.profiles.partnership:Partnership",
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


# Only the name is matched by a pattern (it cannot backtrack); the rest is read by
# hand, so reading a spec takes time in proportion to its length, whatever it holds.
_NAME: Final = re.compile(r"[A-Za-z][\w-]*")
_NUMBER: Final = re.compile(r"[+-]?[0-9]+", re.ASCII)
#: The most digits a number in a profile option may have.
_DIGITS: Final = 9


def _split_spec(spec: str) -> tuple[str, str | None] | None:
    """``"cutthroat(min_bid=300)"`` → ``("cutthroat", "min_bid=300")``; None if no spec."""
    t = spec.strip()
    m = _NAME.match(t)
    if m is None:
        return None
    rest = t[m.end() :].lstrip()
    if not rest:
        return m.group(), None
    if rest[0] != "(" or rest[-1] != ")":
        return None
    return m.group(), rest[1:-1]


def _value(name: str, text: str) -> Any:
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if _NUMBER.fullmatch(t):
        if len(t.lstrip("+-")) > _DIGITS:
            raise UnknownProfileError(
                f"profile option {name!r}: {excerpt(t)} has more than {_DIGITS} digits"
            )
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
        parts = _split_spec(spec)
        if parts is None:
            raise UnknownProfileError(
                f"not a profile: {excerpt(spec)} (e.g. 'cutthroat(min_bid=300)')"
            )
        word, inside = parts
        table = _aliases()
        if word.lower() not in table:
            known = ", ".join(profile_names())
            raise UnknownProfileError(f"unknown profile {excerpt(word)} (known: {known})")
        name = table[word.lower()]
        given = {}
        if inside and inside.strip():
            for part in inside.split(","):
                if "=" not in part:
                    raise UnknownProfileError(
                        f"profile option {excerpt(part.strip())} needs name=value"
                    )
                k, _, v = part.partition("=")
                given[k.strip()] = _value(k.strip(), v)
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
            f"unknown option {excerpt(unknown[0])} for profile {name!r}"
            f" (options: {', '.join(sorted(fields))})"
        )
    try:
        return cls(**given)
    except (ValueError, TypeError) as exc:
        raise UnknownProfileError(
            f"invalid option for profile {name!r}: {shorten(str(exc), 200)}"
        ) from None


class CutthroatFacts(TypedDict):
    """The public facts of a cutthroat :class:`~binocle.core.View` (``view.public``)."""

    calls: tuple[tuple[int, int], ...]
    bidder: int | None
    bid: int | None
    widow: tuple[Card, ...] | None
    discards: tuple[Card, ...] | None
    discard_count: int
    melds: tuple[MeldResult | None, ...]
    played: tuple[tuple[tuple[int, Card], ...], ...]


class ClassicFacts(TypedDict):
    """The public facts of a classic :class:`~binocle.core.View` (``view.public``)."""

    turn_up: Card | None
    stock_size: int
    tables: tuple[tuple[Card, ...], ...]
    table_melds: tuple[tuple[tuple[str, tuple[Card, ...], bool], ...], ...]
    concealed: tuple[Card, ...]
    meld_points: tuple[int, ...]
    dixes: int
    last_trick: tuple[tuple[int, Card], ...]
    targets: tuple[int, ...]
    taken: tuple[int, ...]
    claim_totals: tuple[int, ...]


class _ThreeHandedBase(TypedDict):
    turn_up: Card | None
    exchanged: bool
    dix_shown: tuple[int, ...]
    announced: tuple[int, ...]
    melds: tuple[MeldResult, ...]
    scored: tuple[bool, ...]
    recorded: tuple[int, ...]
    overlooked: Overlooked | None
    targets: tuple[int, ...]
    retired: int | None
    payers: tuple[int, ...]
    tricks: int
    pair: tuple[int, ...] | None
    taken: tuple[int, ...]
    claim_totals: tuple[int, ...]


class ThreeHandedFacts(_ThreeHandedBase, total=False):
    """The public facts of a three-handed :class:`~binocle.core.View` (``view.public``);
    ``two_handed`` (the classic game's facts as ``(name, value)`` pairs, without
    ``concealed`` for the retired player) only while the two-handed game runs."""

    two_handed: tuple[tuple[str, object], ...]


def _facts(view: View, name: str) -> dict[str, object]:
    if not isinstance(view, View):
        raise InvalidArgumentError(f"not a view: {type(view).__name__}")
    if not isinstance(view.profile, _load(name)):
        raise InvalidArgumentError(f"not a view of the {name} game: {view.profile}")
    return dict(view.public)


def cutthroat_facts(view: View) -> CutthroatFacts:
    """The public facts of a cutthroat view, typed (:class:`CutthroatFacts`); raises
    InvalidArgumentError for a view of another profile."""
    return cast(CutthroatFacts, _facts(view, "cutthroat"))


def classic_facts(view: View) -> ClassicFacts:
    """The public facts of a classic view, typed (:class:`ClassicFacts`); raises
    InvalidArgumentError for a view of another profile."""
    return cast(ClassicFacts, _facts(view, "classic"))


def three_handed_facts(view: View) -> ThreeHandedFacts:
    """The public facts of a three-handed view, typed (:class:`ThreeHandedFacts`);
    raises InvalidArgumentError for a view of another profile."""
    return cast(ThreeHandedFacts, _facts(view, "three-handed"))
