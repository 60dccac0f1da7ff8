"""JSON text for states (layer 4): ``dumps`` writes, ``loads`` reads and validates.

A state's JSON carries its profile, seed, first dealer and every action that led
to it, plus a readable snapshot of every field.  ``loads`` replays the actions
under the rules and refuses the text unless the snapshot agrees with the replay
field by field, so an inconsistent state can never be read.
"""

from __future__ import annotations

import enum
import json
from typing import Any, Final

import attrs

from binocle.cards import Card
from binocle.core import GameState, Profile
from binocle.errors import BinocleError, InvalidArgumentError, InvalidStateError
from binocle.profiles import get_profile

__all__ = ["FORMAT", "VERSION", "dumps", "encode", "loads", "snapshot"]

FORMAT: Final = "binocle-state"
VERSION: Final = 1
_SKIP: Final = frozenset({"profile", "history", "_legal", "seed", "first_dealer"})


def encode(value: Any) -> Any:
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
    if attrs.has(type(value)):
        return {f.name: encode(getattr(value, f.name)) for f in attrs.fields(type(value))}
    return str(value)


def snapshot(state: GameState) -> dict[str, Any]:
    """Every field of a state (but the profile and history) in JSON-ready form."""
    return {
        f.name: encode(getattr(state, f.name))
        for f in attrs.fields(type(state))
        if f.name not in _SKIP
    }


def dumps(state: GameState, *, indent: int | None = None) -> str:
    """The state as JSON text that :func:`loads` reads back to an equal state."""
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "profile": state.profile.spec(),
        "seed": state.seed,
        "first_dealer": state.first_dealer,
        "actions": [[seat, str(action)] for action, seat in state.moves()],
        "state": snapshot(state),
    }
    return json.dumps(doc, indent=indent, ensure_ascii=False)


_KEYS: Final = {"format", "version", "profile", "seed", "first_dealer", "actions", "state"}


def loads(text: str | bytes) -> GameState:
    """Read a state written by :func:`dumps`; raise InvalidStateError if inconsistent."""
    from binocle.game import apply

    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidStateError(f"a state is JSON text, not {type(text).__name__}")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise InvalidStateError("a state is a JSON object")
    if doc.get("format") != FORMAT:
        raise InvalidStateError(f"not a binocle state (format {doc.get('format')!r})")
    if doc.get("version") != VERSION:
        raise InvalidStateError(
            f"unsupported state version {doc.get('version')!r} (reads {VERSION})"
        )
    missing = sorted(_KEYS - set(doc))
    extra = sorted(set(doc) - _KEYS)
    if missing or extra:
        raise InvalidStateError(f"state fields: missing {missing}, unknown {extra}")
    try:
        p = get_profile(doc["profile"])
    except BinocleError as exc:
        raise InvalidStateError(f"profile: {exc}") from None
    seed, first = doc["seed"], doc["first_dealer"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidStateError(f"seed must be a whole number, not {seed!r}")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < p.players:
        raise InvalidStateError(f"first_dealer must be a seat 0..{p.players - 1}, not {first!r}")
    moves = doc["actions"]
    if not isinstance(moves, list):
        raise InvalidStateError("actions must be a list of [seat, text] pairs")
    state = p.initial(seed, first)
    for i, move in enumerate(moves):
        if (
            not isinstance(move, list)
            or len(move) != 2
            or not isinstance(move[1], str)
            or not (move[0] is None or (isinstance(move[0], int) and not isinstance(move[0], bool)))
        ):
            raise InvalidStateError(f"action {i}: not a [seat, text] pair: {move!r}")
        seat, text = move[0], str(move[1])
        if seat != state.current_player:
            raise InvalidStateError(
                f"action {i} ({text!r}): seat {seat} acts, but the player to act is"
                f" {state.current_player}"
            )
        try:
            state = apply(state, text)
        except BinocleError as exc:
            raise InvalidStateError(f"action {i} ({text!r}) by seat {seat}: {exc}") from None
    if not isinstance(doc["state"], dict):
        raise InvalidStateError("state must be an object of fields")
    replayed = snapshot(state)
    for key in sorted(set(replayed) | set(doc["state"])):
        if key not in doc["state"]:
            raise InvalidStateError(f"state field {key!r} is missing")
        if key not in replayed:
            raise InvalidStateError(f"unknown state field {key!r}")
        # Compared as JSON text: true or 1.0 must not pass for 1.
        given, expected = doc["state"][key], replayed[key]
        if json.dumps(given, sort_keys=True) != json.dumps(expected, sort_keys=True):
            raise InvalidStateError(
                f"state field {key!r} disagrees with the actions that led to it:"
                f" {doc['state'][key]!r} != {replayed[key]!r}"
            )
    p.check(state)
    return state
