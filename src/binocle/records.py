"""Game records (layer 4): a whole game as documented, versioned, hand-writable JSON.

A record is what a person or another program writes down to keep a game: who
sat where, which profile was played, and every action in order, each as its
text, every deal included as its explicit deck order.  :func:`record` writes one
from a state, :func:`replay` plays it back under the rules, :func:`record_json`
and :func:`load_record` turn it into text and back.  (:func:`binocle.dumps`
writes a *state*; a record is the game's score sheet: shorter, meant to be read
and written by people, and checked only by replaying it.)

The format, version 1 (``FORMAT``, ``VERSION``)::

    {
      "format": "binocle-record",           # required
      "version": 1,                          # required
      "profile": "cutthroat(min_bid=300)",   # required: a profile spec
      "seed": 7,                             # optional (0): the game's seed
      "first_dealer": 0,                     # optional (0): who dealt the first hand
      "seats": ["Anna", "Ben", null],        # optional: a name or null per seat
      "tags": {"event": "club night"},       # optional: free text, name -> text
      "actions": [                           # required, in order
        {"seat": null, "action": "deal AS TD ... 9C"},
        {"seat": 1, "action": "bid 250"},
        {"seat": 2, "action": "pass", "comment": "optional note"}
      ]
    }

Every entry of ``actions`` has ``seat`` (the seat that acted, or null for a
deal, which nobody "acts") and ``action`` (its text, as :func:`binocle.parse_action`
reads it: ``deal <48 or 64 cards>``, ``bid 260``, ``play TS``, ``meld``,
``meld <kind> <cards>``, ``claim`` …), and may have a ``comment``.  The seat
of a knock is the knocker, who need not be the player to act: a knock out of
turn is written ``{"seat": 2, "action": "claim 2"}`` (``"claim"`` with seat 2
reads the same).  A deal's
cards are the deck in dealing order, so a hand from a real table can be
written down and replayed card for card; the seed matters only for the deal
the engine proposes after the last recorded action.

One form is written only by people: ``meld <total>`` (e.g. ``meld 290``) is
the meld action with the total the player announced.  :func:`replay` accepts
it only when the total is exactly what the rules score (it means ``meld``);
:func:`binocle.validate` reports an announced total that is too high as an
over-scored meld.

Any other field, a wrong version, an impossible deck, a text that does not
parse, a seat that is not the player to act (but for a knock), or an action the rules forbid
makes :func:`replay` raise :class:`~binocle.errors.InvalidStateError`, naming
the entry (index and text) where it went wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Final, Literal, TypedDict, cast, overload

import attrs
from typing_extensions import NotRequired

from binocle._json import JSONObject, parse_json
from binocle.actions import CLAIM, Action, Kind, claim, parse_action_text
from binocle.core import GameState, Profile, View
from binocle.errors import (
    BinocleError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    excerpt,
    expect,
    is_whole,
    shorten,
)
from binocle.game import apply, check_seed, legal_actions, parse_action, start
from binocle.profiles import get_profile
from binocle.rules.classic_melds import KINDS

__all__ = [
    "FORMAT",
    "SCHEMAS",
    "VERSION",
    "Record",
    "RecordEntry",
    "load_record",
    "meld_value",
    "record",
    "record_json",
    "replay",
    "schema",
]

FORMAT: Final = "binocle-record"
VERSION: Final = 1

_REQUIRED: Final = ("format", "version", "profile", "actions")
_OPTIONAL: Final = ("seed", "first_dealer", "seats", "tags")
_ENTRY_KEYS: Final = frozenset({"seat", "action", "comment"})
#: The value of each named combination of the classic meld table (classic rules, Announcements).
KIND_VALUES: Final[dict[str, int]] = {name: value for name, _, value in KINDS}


#: The JSON Schemas (draft 2020-12) shipped in the package, by name: the record format,
#: and the validator's report as :meth:`binocle.ValidationReport.to_dict` gives it.
SCHEMAS: Final = ("record", "validation-report")


class RecordEntry(TypedDict):
    """One action of a record: the seat that acted (None for a deal) and the action's text."""

    seat: int | None
    action: str
    comment: NotRequired[str]


class Record(TypedDict):
    """A record as Python data (the format above): what :func:`record` gives and
    :func:`load_record` reads; ``json.dumps`` writes it as the file."""

    format: str
    version: int
    profile: str
    actions: list[RecordEntry]
    seed: NotRequired[int]
    first_dealer: NotRequired[int]
    seats: NotRequired[list[str | None]]
    tags: NotRequired[dict[str, str]]


def schema(name: str = "record") -> JSONObject:
    """The JSON Schema (draft 2020-12) ``name`` as a dict: ``"record"`` (this format) or
    ``"validation-report"`` (:meth:`binocle.ValidationReport.to_dict`, ``binocle validate
    --json``).  The files are ``binocle/schemas/<name>.schema.json`` in the package.

    The record schema checks a record's form, never its actions: only a replay does.

    >>> import binocle
    >>> s = binocle.schema("record")
    >>> s["$schema"], s["properties"]["version"]
    ('https://json-schema.org/draft/2020-12/schema', {'const': 1, 'description': "The format's version: 1."})
    """
    if name not in SCHEMAS:
        raise InvalidArgumentError(f"schema: one of {', '.join(SCHEMAS)}, not {excerpt(name)}")
    path = resources.files("binocle").joinpath("schemas").joinpath(f"{name}.schema.json")
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


# -- writing -------------------------------------------------------------------------------


def record(state: GameState, *, seats: Sequence[str | None] | None = None) -> Record:
    """The record of the game that led to ``state``: a JSON-ready dict (format above).

    ``seats`` names the players, one name (or None) per seat.

    >>> import binocle
    >>> s = binocle.apply(binocle.new_game("cutthroat", seed=7), "bid 250")
    >>> r = binocle.record(s, seats=["Anna", "Ben", "Carla"])
    >>> r["format"], r["version"], r["profile"], r["seats"]
    ('binocle-record', 1, 'cutthroat', ['Anna', 'Ben', 'Carla'])
    >>> [e["action"][:7] for e in r["actions"]], r["actions"][1]
    (['deal 9D', 'bid 250'], {'seat': 1, 'action': 'bid 250'})
    >>> binocle.replay(r) == s
    True
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    n = state.profile.players
    names: list[str | None]
    if seats is None:
        names = [None] * n
    else:
        if not isinstance(seats, (list, tuple)):
            raise InvalidArgumentError(
                f"seats: a list of {n} names (text or None), not {excerpt(seats)}"
            )
        names = list(seats)
        if len(names) != n or not all(x is None or isinstance(x, str) for x in names):
            raise InvalidArgumentError(
                f"seats: a list of {n} names (text or None), not {excerpt(seats)}"
            )
    return {
        "format": FORMAT,
        "version": VERSION,
        "profile": state.profile.spec(),
        "seed": state.seed,
        "first_dealer": state.first_dealer,
        "seats": names,
        "actions": [{"seat": seat, "action": str(action)} for action, seat in state.moves()],
    }


def record_json(
    state: GameState, indent: int | None = 2, *, seats: Sequence[str | None] | None = None
) -> str:
    """The record of ``state`` as JSON text, one action to a line (``indent=None``: one line).

    >>> import binocle
    >>> text = binocle.record_json(binocle.new_game("classic", seed=1))
    >>> print(text[:60])
    {
      "format": "binocle-record",
      "version": 1,
      "profile":
    >>> binocle.replay(binocle.load_record(text)) == binocle.new_game("classic", seed=1)
    True
    """
    check_indent(indent)
    doc = record(state, seats=seats)
    return dump_record(doc, indent)


#: The widest indent that :func:`record_json` and :func:`binocle.dumps` take.
MAX_INDENT: Final = 16


def check_indent(indent: Any) -> None:
    """Raise InvalidArgumentError unless ``indent`` is None or a whole number 0..16."""
    if indent is not None and (
        isinstance(indent, bool) or not isinstance(indent, int) or not 0 <= indent <= MAX_INDENT
    ):
        raise InvalidArgumentError(
            f"indent is None or a whole number 0..{MAX_INDENT}, not {excerpt(indent)}"
        )


def dump_record(doc: Mapping[str, object], indent: int | None = 2) -> str:
    """A record dict as JSON text, each action entry on one line (``indent=None``: one line)."""
    check_indent(indent)
    if indent is None:
        return json.dumps(doc, ensure_ascii=False)
    pad = " " * indent
    lines = ["{"]
    keys = list(doc)
    for k, key in enumerate(keys):
        comma = "," if k < len(keys) - 1 else ""
        value = doc[key]
        if key == "actions" and isinstance(value, list) and value:
            lines.append(f"{pad}{json.dumps(key)}: [")
            for i, entry in enumerate(value):
                sep = "," if i < len(value) - 1 else ""
                lines.append(f"{pad}{pad}{json.dumps(entry, ensure_ascii=False)}{sep}")
            lines.append(f"{pad}]{comma}")
        else:
            lines.append(f"{pad}{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- reading -------------------------------------------------------------------------------


def load_record(text: str | bytes | Mapping[str, object]) -> Record:
    """Read a record and check its form (not yet its actions).

    ``text`` is JSON text (``str``, or ``bytes`` in UTF-8, 16 or 32) or the
    dict it parses to; a new dict is returned either way.  Raises
    InvalidStateError for anything that is not a record of this version;
    :func:`replay` checks the actions.
    """
    doc = read_json(text, "a record")
    read_header(doc)
    return cast(Record, dict(doc))  # its form checked


def read_json(text: Any, what: str) -> Any:
    """JSON text parsed, or a dict as it is; raise InvalidStateError (naming ``what``)
    for anything else.

    The one rule of :func:`binocle.loads`, :func:`load_record`, :func:`replay` and
    :func:`binocle.validate`: each takes JSON text as ``str`` or ``bytes`` /
    ``bytearray``, or the dict that text parses to.  Text whose object names one key
    twice is refused (readers differ on which of the two values counts).
    """
    if isinstance(text, dict):
        return text
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidStateError(
            f"{what} is JSON text (str or bytes) or a dict, not {type(text).__name__}"
        )
    try:
        return parse_json(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStateError(f"{what} is JSON text: {shorten(str(exc))}") from None


@attrs.frozen
class Header:
    """A record's fields, checked: the profile object and the entries as (seat, text)."""

    profile: Profile
    seed: int
    first_dealer: int
    seats: tuple[str | None, ...]
    moves: tuple[tuple[int | None, str], ...]


def read_header(doc: Any) -> Header:
    """Check a record's form (fields, version, profile, entries); raise InvalidStateError."""
    if not isinstance(doc, dict):
        raise InvalidStateError(f"a record is a JSON object, not {type(doc).__name__}")
    if doc.get("format") != FORMAT:
        raise InvalidStateError(
            f"not a binocle record: format is {excerpt(doc.get('format'))}, not {FORMAT!r}"
        )
    if not is_whole(doc.get("version")) or doc.get("version") != VERSION:  # not true, not 1.0
        raise InvalidStateError(
            f"record version {excerpt(doc.get('version'))} is not supported"
            f" (this binocle reads {VERSION})"
        )
    unknown = sorted(str(k) for k in doc if k not in _REQUIRED and k not in _OPTIONAL)
    if unknown:
        known = ", ".join((*_REQUIRED, *_OPTIONAL))
        raise InvalidStateError(f"record: unknown field {excerpt(unknown[0])} (fields: {known})")
    missing = [k for k in _REQUIRED if k not in doc]
    if missing:
        raise InvalidStateError(f"record: field {missing[0]!r} is missing")
    if not isinstance(doc["profile"], str):
        raise InvalidStateError(f"record: profile is a spec text, not {excerpt(doc['profile'])}")
    try:
        p = get_profile(doc["profile"])
    except BinocleError as exc:
        raise InvalidStateError(f"record: profile: {exc}") from None
    seed = doc.get("seed", 0)
    try:
        check_seed(seed)
    except InvalidArgumentError as exc:
        raise InvalidStateError(f"record: {exc}") from None
    first = doc.get("first_dealer", 0)
    if not is_whole(first) or not 0 <= first < p.players:
        raise InvalidStateError(
            f"record: first_dealer is a seat 0..{p.players - 1}, not {excerpt(first)}"
        )
    seats = doc.get("seats", [None] * p.players)
    if (
        not isinstance(seats, list)
        or len(seats) != p.players
        or not all(x is None or isinstance(x, str) for x in seats)
    ):
        raise InvalidStateError(
            f"record: seats is a list of {p.players} names (text or null), not {excerpt(seats)}"
        )
    tags = doc.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
        raise InvalidStateError(f"record: tags is an object of texts, not {excerpt(tags)}")
    entries = doc["actions"]
    if not isinstance(entries, list):
        raise InvalidStateError("record: actions is a list of {seat, action} entries")
    moves: list[tuple[int | None, str]] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise InvalidStateError(
                f"action {i}: an entry is an object {{seat, action}}, not {excerpt(entry)}", index=i
            )
        extra = sorted(str(k) for k in entry if k not in _ENTRY_KEYS)
        if extra:
            raise InvalidStateError(
                f"action {i}: unknown field {excerpt(extra[0])} (fields: seat, action, comment)",
                index=i,
            )
        if "seat" not in entry or "action" not in entry:
            raise InvalidStateError(
                f"action {i}: an entry needs both seat and action: {excerpt(entry)}", index=i
            )
        seat, text = entry["seat"], entry["action"]
        if not isinstance(text, str):
            raise InvalidStateError(f"action {i}: the action is text, not {excerpt(text)}", index=i)
        if seat is not None and (not is_whole(seat) or not 0 <= seat < p.players):
            raise InvalidStateError(
                f"action {i} ({short_text(text)!r}): seat is 0..{p.players - 1} or null,"
                f" not {excerpt(seat)}",
                index=i,
            )
        if not isinstance(entry.get("comment", ""), str):
            raise InvalidStateError(
                f"action {i} ({short_text(text)!r}): a comment is text", index=i
            )
        moves.append((seat, text))
    return Header(p, seed, first, tuple(seats), tuple(moves))


# -- one step ------------------------------------------------------------------------------


def claimed_meld(text: str) -> int | None:
    """The total of a ``meld <total>`` text (e.g. ``meld 290``), or None for any other text.

    The total is ASCII digits, at most nine; ``meld`` then anything else that
    looks like a number (``meld ²``, ``meld 1e3``, ten digits) is not this form
    and is left to :func:`binocle.parse_action`, which refuses it.
    """
    words = text.split(None, 2)
    if len(words) != 2 or words[0].lower() != "meld":
        return None
    total = words[1]
    if 0 < len(total) <= 9 and total.isascii() and total.isdigit():
        return int(total)
    return None


def meld_value(position: GameState | View | None, action: Action) -> int:
    """What a meld ``action`` of the player to act scores, by the rules.

    A named combination (``meld royal marriage KS QS``) scores its meld-table value
    (classic rules, Announcements), whatever the position (which may be None);
    ``meld`` alone scores the best meld of the hand of the player to act, as the
    profile counts it: ``position`` is then the state, or that player's view.

    >>> from binocle.actions import parse_action_text
    >>> from binocle.records import meld_value
    >>> meld_value(None, parse_action_text("meld royal marriage KS QS"))
    40

    Raises InvalidArgumentError for an action that is not a meld, and for ``meld``
    alone without the hand it scores (no position, or the view of a seat not to act).
    """
    expect(action, Action, "action is an Action")
    expect(position, (GameState, View, type(None)), "position is a GameState, a View or None")
    if action.kind is not Kind.MELD:
        raise InvalidArgumentError(f"{action} is not a meld")
    if action.name is not None:
        return KIND_VALUES.get(action.name, 0)
    if position is None:
        raise InvalidArgumentError("'meld' scores the hand of the player to act: give the position")
    p = position.current_player
    if isinstance(position, View):
        if p != position.seat:
            raise InvalidArgumentError(
                f"'meld' scores the hand of the player to act, not seat {position.seat}'s view"
            )
        hand = position.hand
    else:
        if p is None:
            raise InvalidArgumentError("nobody is to act: no hand to meld")
        hand = position.hands[p]
    return position.profile.meld(hand, position.trump).total


def read_action(state: GameState, text: str) -> tuple[Action, int | None]:
    """The action a record's text means in ``state``, with the total of ``meld <total>``.

    Raises InvalidNotationError when the text does not parse.
    """
    total = claimed_meld(text)
    if total is not None:
        return parse_action(state, "meld"), total
    return parse_action(state, text), None


def turn_problem(state: GameState, seat: int | None) -> str | None:
    """Why ``seat`` may not take the next action of ``state``, or None."""
    current = state.current_player
    if seat == current:
        return None
    if current is None:
        if state.profile.winner(state) is not None or not legal_actions(state):
            return f"the game is over, yet seat {seat} acts"
        return f"seat {seat} acts, but the hand is over and the next action is a deal (seat null)"
    if seat is None:
        return f"no seat given, but seat {current} is to act"
    return f"seat {seat} acts, but the player to act is seat {current}"


def entry_knock(state: GameState, seat: int | None, text: str) -> Action | None:
    """The knock an entry records when its seat is not the player to act: ``claim``
    or ``claim <seat>`` with the knocker in the seat field; None for any other entry."""
    if seat is None or seat == state.current_player:
        return None
    try:
        action = parse_action_text(text)
    except InvalidNotationError:
        return None
    if action == CLAIM or action == claim(seat):
        return claim(seat)
    return None


def knock_mismatch(action: Action, seat: int | None) -> str | None:
    """Why a knock ``claim <n>`` does not fit its entry's seat, or None."""
    if action.kind is Kind.CLAIM and action.number is not None and action.number != seat:
        return f"the knock names seat {action.number}, but the entry's seat is {seat}"
    return None


def step(state: GameState, index: int, seat: int | None, text: str) -> GameState:
    """Apply one record entry; raise InvalidStateError naming the entry (and with its
    ``index``) when it is refused."""
    where = f"action {index} ({short_text(text)!r})"
    knock = entry_knock(state, seat, text)
    problem = None if knock is not None else turn_problem(state, seat)
    if problem is not None:
        raise InvalidStateError(f"{where}: {problem}", index=index)
    try:
        action, total = (knock, None) if knock is not None else read_action(state, text)
        mismatch = knock_mismatch(action, seat)
        if mismatch is not None:
            raise InvalidStateError(f"{where}: {mismatch}", index=index)
        if total is not None and action in legal_actions(state):
            worth = meld_value(state, action)
            if total != worth:
                raise InvalidStateError(
                    f"{where} by seat {seat}: announces {total}, but the meld is worth {worth}",
                    index=index,
                )
        return apply(state, action)
    except (IllegalActionError, InvalidNotationError) as exc:
        who = "" if seat is None else f" by seat {seat}"
        raise InvalidStateError(f"{where}{who}: {exc}", index=index) from None


def short_text(text: str) -> str:
    """An action text short enough for a message (a deal's 48 cards are cut)."""
    return text if len(text) <= 40 else text[:36] + " …"


@overload
def replay(
    record: Mapping[str, object] | str | bytes, *, every: Literal[False] = False
) -> GameState: ...
@overload
def replay(
    record: Mapping[str, object] | str | bytes, *, every: Literal[True]
) -> list[GameState]: ...
def replay(
    record: Mapping[str, object] | str | bytes, *, every: bool = False
) -> GameState | list[GameState]:
    """Play a record back under the rules: the final state, or with ``every`` every state.

    ``record`` is a dict or its JSON text (``str`` or ``bytes``).  With ``every=True`` the list holds
    the state before the first action and then the state after each action,
    so ``len(states) == len(record["actions"]) + 1``.  An inconsistent record
    raises InvalidStateError whose message names the entry: ``action 12
    ('play QS') by seat 2: must follow suit H: holds AH``.

    >>> import binocle
    >>> r = {"format": "binocle-record", "version": 1, "profile": "cutthroat",
    ...      "actions": [{"seat": 1, "action": "bid 250"}]}
    >>> binocle.replay(r)
    Traceback (most recent call last):
    ...
    binocle.errors.InvalidStateError: action 0 ('bid 250'): seat 1 acts, but the hand is over and the next action is a deal (seat null)
    """
    head = read_header(read_json(record, "a record"))
    state = start(head.profile, head.seed, head.first_dealer)
    states = [state]
    for i, (seat, text) in enumerate(head.moves):
        state = step(state, i, seat, text)
        if every:
            states.append(state)
    head.profile.check(state)
    if not every:
        return state
    return states
