"""JSON text for states (layer 4): ``dumps`` writes, ``loads`` reads and validates.

A state's JSON is the record of the game that led to it (the
``binocle-record`` form of :mod:`binocle.records`: profile, seed, first dealer,
every action as ``{"seat", "action"}``), with format ``binocle-state`` and a
readable snapshot of every field of the state under ``state``.  ``loads`` replays the actions
under the rules and refuses the text unless the snapshot agrees with the replay
field by field, so an inconsistent state can never be read.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Final

import attrs

from binocle._json import JSON, JSONObject
from binocle.cards import Card
from binocle.core import FrozenValue, GameState, Profile
from binocle.errors import InvalidArgumentError, InvalidStateError, excerpt, expect

__all__ = ["FORMAT", "VERSION", "dumps", "encode", "loads", "snapshot"]

FORMAT: Final = "binocle-state"
VERSION: Final = 1
_SKIP: Final = frozenset({"profile", "history", "_legal", "seed", "first_dealer"})


def encode(value: object) -> JSON:
    """A JSON-ready form of a state field: cards and suits as text, tuples as lists."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return str(value) if isinstance(value, int) else value.value
    if isinstance(value, int):
        return value
    if isinstance(value, (tuple, list, frozenset)):
        return [encode(v) for v in value]
    if isinstance(value, Profile):
        return value.spec()
    if isinstance(value, GameState):
        return {"profile": value.profile.spec(), **snapshot(value)}
    if isinstance(value, FrozenValue):
        return {n: encode(getattr(value, n)) for n in value.fields()}
    kind = type(value)
    if attrs.has(kind):
        return {f.name: encode(getattr(value, f.name)) for f in attrs.fields(kind)}
    return str(value)


def snapshot(state: GameState) -> JSONObject:
    """Every field of a state (but the profile and history) in JSON-ready form."""
    expect(state, GameState, "state is a GameState")
    return {n: encode(getattr(state, n)) for n in state.fields() if n not in _SKIP}


def dumps(state: GameState, *, indent: int | None = None) -> str:
    """The state as JSON text that :func:`loads` reads back to an equal state.

    The text is the game's record (:func:`binocle.record`: profile, seed, first
    dealer, every action) with format ``binocle-state`` and one more field,
    ``state``: a readable snapshot of every field of the state.
    """
    from binocle.records import check_indent, record

    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    check_indent(indent)
    doc: dict[str, object] = dict(record(state))
    doc["format"] = FORMAT
    doc["state"] = snapshot(state)
    return json.dumps(doc, indent=indent, ensure_ascii=False)


def loads(text: str | bytes | Mapping[str, object]) -> GameState:
    """Read a state written by :func:`dumps`; raise InvalidStateError if inconsistent.

    ``text`` is the JSON text (``str`` or ``bytes``) or the dict it parses to,
    the same rule as :func:`binocle.replay` and :func:`binocle.validate`.  The
    actions are replayed under the rules (as :func:`binocle.replay` does) and
    the snapshot must agree with the replayed state field by field.  What the
    check covers is what the actions decide: the ``seed`` and ``profile`` are
    taken as written, so a text whose seed or profile was edited still loads
    when every recorded action is legal under the edited ones (the state is
    then that game's, with the later deals drawn from the edited seed).
    """
    from binocle.records import FORMAT as RECORD_FORMAT
    from binocle.records import read_json, replay

    doc = read_json(text, "a state")
    if not isinstance(doc, dict):
        raise InvalidStateError("a state is a JSON object")
    doc = dict(doc)  # a dict given by the caller is left as it was
    if doc.get("format") != FORMAT:
        raise InvalidStateError(f"not a binocle state (format {excerpt(doc.get('format'))})")
    if "state" not in doc:
        raise InvalidStateError("state field 'state' is missing")
    given = doc.pop("state")
    if not isinstance(given, dict):
        raise InvalidStateError("state must be an object of fields")
    state = replay({**doc, "format": RECORD_FORMAT})
    replayed = snapshot(state)
    for key in sorted(set(replayed) | set(given)):
        if key not in given:
            raise InvalidStateError(f"state field {excerpt(key)} is missing")
        if key not in replayed:
            raise InvalidStateError(f"unknown state field {excerpt(key)}")
        # Compared as JSON text: true or 1.0 must not pass for 1.
        if json.dumps(given[key], sort_keys=True) != json.dumps(replayed[key], sort_keys=True):
            raise InvalidStateError(
                f"state field {key!r} disagrees with the actions that led to it:"
                f" {excerpt(given[key])} != {excerpt(replayed[key])}"
            )
    return state
