"""The web front end's messages, with no web framework: tables, views as JSON, replies.

A :class:`Table` is one game: the immutable state, the seat the person plays,
and the bots at the other seats.  :func:`handle` reads one client message
(already decoded from JSON) and changes the table or answers; :func:`state_message`
is what the client of that seat is sent, built from ``observe(state, seat)``
alone, so no card hidden from the seat can reach it.  The transport
(:mod:`binocle.web.app`) only carries these dictionaries.

Client messages (``type`` and fields):

===========  ==========================================================================
``new``      ``profile`` (name), ``options`` (object), ``seat``, ``opponents`` (bot
             names for the other seats, in seat order), optional ``seed``,
             ``bot_delay`` (seconds between bot moves), ``autoplay`` (a bot name that
             plays the person's seat too: bot-only games).  A bot name is one of
             those the server offers (``/api/profiles``)
``table``    a table for people and bots: ``profile``, ``options``, ``seats`` (one
             entry a seat: ``"person"`` or a bot name), optional ``seat`` (the
             creator's, a person's seat; default the first), ``name``, ``seed``,
             ``bot_delay``, ``listed`` (shown in the lobby, default true).  The
             creator gets ``joined`` and a ``table`` message with every seat's link
``join``     ``game`` and ``token`` from an earlier ``joined`` (or a seat's link):
             back to that seat; optional ``name``
``sit``      ``game``, ``seat`` (a free person's seat) and optional ``name``: take it
``start``    begin play at a table once every person's seat is taken
``action``   ``action``: the text of one of the legal actions sent in ``controls``
``knock``    claim to have reached the target now, in turn or out of turn
``deal``     deal the next hand once the score sheet has been seen; optional ``step``
             (the step of the state that offered it): if another person dealt
             since, nothing happens and no error is sent
``record``   the game record (JSON record format), once the game is over
``replay``   ``record`` (object or JSON text): every step of a recorded game
``leave``    leave one's seat: optional ``bot`` (a bot name) takes it; once play has
             begun a bot always does (the first offered); before, without ``bot``,
             the seat is free again.  The seat's link stops working
``replace``  the table's maker hands ``seat``, a person's seat nobody is connected
             to, to a bot (optional ``bot``), as ``leave`` does
``ping``     answered by ``pong``
===========  ==========================================================================

Server messages: ``joined``, ``left`` (the seat is left), ``table`` (the seats, who sits and who is connected,
whether play has begun), ``state``, ``record``, ``replay``, ``pong`` and ``error``
(``message``: what was wrong; nothing changed).

Every field of every message is checked (type, length, range; text must be
valid Unicode, so a lone surrogate is refused) before anything is looked up.

The bots offered are bot specs chosen by whoever runs the server
(:func:`binocle.bots.resolve_bot`: names, spec text, importable paths, bot
objects, factories; :data:`BOT_NAMES` by default), each named by its label
(:func:`binocle.bots.bot_label`).  A client picks among those labels only: a
spec from the network is never resolved, since an importable path would let a
client run code on the server.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from binocle.actions import Action, Kind
from binocle.bots import Bot, BotSpec, bot_label, resolve_bot
from binocle.core import MAX_OPTION, GameState, Phase, View
from binocle.errors import BinocleError
from binocle.game import (
    apply,
    claimants,
    end_reason,
    legal_actions,
    new_game,
    observe,
    parse_action,
    profile,
    winner,
)
from binocle.narrate import label, narrate, narrate_all
from binocle.profiles import profile_names
from binocle.records import load_record, record, replay
from binocle.rules import classic_melds
from binocle.serial import dumps, encode, loads
from binocle.web.words import OPTION_HELP, in_names, seat_table

__all__ = [
    "BOT_NAMES",
    "MessageError",
    "Table",
    "handle_action",
    "handle_deal",
    "handle_knock",
    "leave_seat",
    "new_table",
    "offered_bots",
    "person_seats_table",
    "profiles_catalogue",
    "read_name",
    "read_text",
    "read_token",
    "record_message",
    "replay_message",
    "state_message",
    "table_doc",
    "table_from_doc",
    "table_summary",
]

#: The bots offered by default, strongest last (those this installation has).
BOT_NAMES: Final = ("random", "baseline", "ismcts")
#: What each classic announcement scores, by the name views give it.
MELD_VALUES: Final = {name: value for name, _, value in classic_melds.KINDS}
#: How many lines of the narration a table keeps and sends.
NARRATION_KEPT: Final = 200
#: Longest record the replay viewer reads (actions).
MAX_REPLAY_ACTIONS: Final = 20_000
#: Longest time a bot may wait between moves, in seconds.
MAX_BOT_DELAY: Final = 5.0
#: What a seat played by a person is called in a ``table`` message's ``seats``.
PERSON: Final = "person"
#: Longest name a person may give himself, in characters.
MAX_NAME: Final = 24
#: The form of a game id and of a seat's token (URL-safe base64 text).
TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


class MessageError(ValueError):
    """A client message that cannot be read: its ``str`` is sent back as the error."""


@dataclass
class Table:
    """One game in progress: the state and who plays which seat."""

    id: str
    token: str
    seat: int
    state: GameState
    bots: dict[int, Bot]
    names: tuple[str, ...]
    bot_delay: float = 0.0
    touched: float = field(default_factory=time.monotonic)
    #: How many actions have been applied at this table (public: no card in it).
    steps: int = 0
    #: The game told to the person's seat (:func:`binocle.narrate.narrate`), line by line.
    narration: list[str] = field(default_factory=list)
    #: Every seat a person plays, with its token (``token`` is ``seat``'s); empty in a
    #: bot-only game, whose ``token`` lets its watcher back in.
    tokens: dict[int, str] = field(default_factory=dict)
    #: What each other person's seat has been told (``narration`` is ``seat``'s).
    narrations: dict[int, list[str]] = field(default_factory=dict)
    #: Whether play has begun: a table for several people waits for them (``start``).
    started: bool = True
    #: The people's seats someone has taken, with the name he gave.
    taken: dict[int, str] = field(default_factory=dict)
    #: The bot at each bot seat, by the label it was chosen by (to rebuild it).
    bot_names: dict[int, str] = field(default_factory=dict)
    #: Whether the lobby lists the table while a person's seat is free.
    listed: bool = False
    #: When the table was made (seconds since the epoch).
    created: float = field(default_factory=time.time)
    #: How many times a seat's name changed (a person sat, left, a bot took a seat): a
    #: ``state`` message of the same step but a later seating is news (not stored).
    seating: int = 0

    def __post_init__(self) -> None:
        if not self.tokens and self.seat not in self.bots:
            self.tokens[self.seat] = self.token
            self.taken.setdefault(self.seat, self.names[self.seat])

    def snapshot(self) -> tuple[Any, ...]:
        """What :meth:`restore` puts back: the table's changing fields, copied."""
        return (self.state, self.steps, list(self.narration),
                {k: list(v) for k, v in self.narrations.items()}, dict(self.taken),
                self.names, self.started, dict(self.bots), dict(self.bot_names),
                dict(self.tokens))  # fmt: skip

    def restore(self, kept: tuple[Any, ...]) -> None:
        """Put the table back as :meth:`snapshot` saw it (a change that could not be
        stored is undone)."""
        (self.state, self.steps, narration, narrations, self.taken, self.names,
         self.started, self.bots, self.bot_names, self.tokens) = kept  # fmt: skip
        self.narration[:] = narration
        self.narrations = narrations

    def set_name(self, seat: int, name: str) -> None:
        """Name ``seat`` (a new seating: see :attr:`seating`)."""
        names = list(self.names)
        names[seat] = name
        self.names = tuple(names)
        self.seating += 1

    def told(self, seat: int) -> list[str]:
        """The narration kept for ``seat``."""
        return self.narration if seat == self.seat else self.narrations.setdefault(seat, [])

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (raises, changing nothing, on an illegal one), and tell
        it to every person's seat."""
        before = self.state
        self.state = apply(before, action)
        self.steps += 1
        for seat in {self.seat, *self.tokens}:
            lines = self.told(seat)
            lines.extend(narrate(before, self.state, seat))
            del lines[:-NARRATION_KEPT]

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token`` (compared in constant time), or None."""
        found = None
        for seat, known in ((self.seat, self.token), *self.tokens.items()):
            if secrets.compare_digest(token.encode("ascii"), known.encode("ascii")):
                found = seat
        return found

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play, in order."""
        return tuple(sorted(self.tokens))

    @property
    def ready(self) -> bool:
        """Whether every person's seat is taken (play may begin)."""
        return all(seat in self.taken for seat in self.tokens)

    @property
    def autoplay(self) -> bool:
        """Whether a bot plays the person's seat too (a bot-only game)."""
        return self.seat in self.bots

    def bot_to_act(self) -> tuple[int | None, Bot | None] | None:
        """Who moves next without the person: ``(seat, bot)``, ``(None, None)`` for a
        deal the bots may make, or None when the table waits for the person (or is over)."""
        s = self.state
        if s.phase is Phase.OVER or not self.started:
            return None
        p = s.current_player
        if p is None:
            return (None, None) if self.autoplay else None
        bot = self.bots.get(p)
        return None if bot is None else (p, bot)


def offered_bots(offer: Sequence[BotSpec] = BOT_NAMES) -> dict[str, BotSpec]:
    """The bots of ``offer`` that resolve here, by label (the first of a label wins)."""
    out: dict[str, BotSpec] = {}
    for spec in offer:
        try:
            resolve_bot(spec, seed=0, fresh=True)
        except BinocleError:
            continue
        out.setdefault(bot_label(spec), spec)
    return out


def available_bots(offer: Sequence[BotSpec] = BOT_NAMES) -> tuple[str, ...]:
    """The labels of the bots of ``offer`` (:data:`BOT_NAMES` by default) that resolve
    here: the names a client may choose."""
    return tuple(offered_bots(offer))


# -- reading fields ----------------------------------------------------------


def _field(msg: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = msg.get(name, default)
    if value is default:
        return value
    if isinstance(value, bool) and kind is not bool:
        raise MessageError(f"{name!r} must be {_kind_name(kind)}, not a boolean")
    if not isinstance(value, kind):
        raise MessageError(f"{name!r} must be {_kind_name(kind)}, not {type(value).__name__}")
    return value


def read_text(msg: Mapping[str, Any], name: str, limit: int, default: Any = None) -> Any:
    """The text field ``name`` of ``msg`` (``default`` when absent): at most ``limit``
    characters of valid Unicode (no lone surrogate), or MessageError."""
    value = _field(msg, name, str, default)
    if value is default:
        return value
    if len(value) > limit:
        raise MessageError(f"{name!r} is at most {limit} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MessageError(f"{name!r} is not valid Unicode text") from None
    return value


def read_token(msg: Mapping[str, Any], name: str) -> str:
    """A game id or seat token field: URL-safe text of 1 to 64 characters, or MessageError."""
    value = msg.get(name)
    if not isinstance(value, str) or TOKEN.fullmatch(value) is None:
        raise MessageError(f"{name!r} is the text of a link (letters, digits, '-' and '_')")
    return value


def read_name(msg: Mapping[str, Any], default: str) -> str:
    """The ``name`` a person gives himself: printable, 1 to :data:`MAX_NAME` characters."""
    name = read_text(msg, "name", MAX_NAME, None)
    if name is None:
        return default
    name = " ".join(name.split())
    if not name or not name.isprintable():
        raise MessageError("'name' is printable text: a name to show at the table")
    return name


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    words = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
             dict: "an object", list: "a list"}  # fmt: skip
    return " or ".join(words.get(k, k.__name__) for k in kinds)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


# -- tables --------------------------------------------------------------------


def _option_entry(field: Any) -> dict[str, Any]:
    """One option of the set-up form: its name, default, kind (``bool``, ``int`` or
    ``choice``), bounds or choices, whether it may be left empty, and its help."""
    default = field.default
    kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
    entry: dict[str, Any] = {"name": field.name, "default": default,
                             "help": OPTION_HELP.get(field.name, "")}  # fmt: skip
    if isinstance(default, bool) or kind == "bool":
        entry["kind"] = "bool"
    elif field.name == "pack":
        entry.update(kind="choice", choices=[48, 64])
    elif field.name == "settlement":
        entry.update(kind="choice", choices=["points", "chips"])
    elif field.name == "passing":
        entry.update(kind="choice", choices=[0, 3, 4])
    elif field.name == "all_pass":
        entry.update(kind="choice", choices=["redeal", "dealer"])
    elif isinstance(default, int) or field.name == "max_hands" or "int" in str(field.type):
        # max_hands (every profile's: a whole number or none) is named, since the compiled
        # build keeps no annotation text for a field the pure build reads as "int | None".
        entry.update(kind="int", min=1, max=MAX_OPTION, nullable=default is None)
        if field.name == "widow_after_round":
            entry.update(min=0, max=4)
        elif field.name in ("min_bid", "max_bid"):
            entry.update(min=10, step=10)
    else:
        entry["kind"] = "text"
    return entry


def profiles_catalogue() -> list[dict[str, Any]]:
    """Every profile with its seats and options, for the set-up form: each option's
    name, default, kind (``bool``, ``int``, ``choice`` or ``text``), bounds, whether it
    may be left empty (``nullable``: no value, as ``max_hands``), and a line of help."""
    import attrs

    out = []
    for name in profile_names():
        p = profile(name)
        options = [_option_entry(f) for f in attrs.fields(type(p))]
        options.sort(key=lambda o: (o["kind"] != "bool", o["name"]))
        out.append({"name": name, "players": p.players, "description": p.description,
                    "options": options})  # fmt: skip
    return out


def _read_profile(msg: Mapping[str, Any]) -> Any:
    name = read_text(msg, "profile", 40, "cutthroat")
    options = _field(msg, "options", dict, {})
    if len(options) > 40:
        raise MessageError("'options' has at most 40 entries")
    for key, value in options.items():
        if not isinstance(value, (bool, int, str)) or (isinstance(value, str) and len(value) > 40):
            raise MessageError(
                f"option {_short(str(key))!r}: a value is true/false, a number or short text"
            )
        read_text({"option": key}, "option", 40)
        if isinstance(value, str):
            read_text({"option": value}, "option", 40)
    return profile(name, **options)


def _read_seed_delay(msg: Mapping[str, Any], default_delay: float) -> tuple[int, float]:
    seed = _field(msg, "seed", int, None)
    if seed is None:
        seed = secrets.randbelow(2**32)
    elif not 0 <= seed < 2**63:
        raise MessageError("'seed' is a whole number from 0 to 2**63 - 1")
    delay = _field(msg, "bot_delay", (int, float), default_delay)
    if not math.isfinite(delay) or not 0 <= delay <= MAX_BOT_DELAY:
        raise MessageError(f"'bot_delay' is a number of seconds from 0 to {MAX_BOT_DELAY:g}")
    return seed, float(delay)


def _bot(known: Mapping[str, BotSpec], name: Any, seed: int, seat: int) -> Bot:
    if not isinstance(name, str) or name not in known:
        raise MessageError(f"unknown bot {_short(str(name))!r} (known: {', '.join(known)})")
    return resolve_bot(known[name], seed=(seed * 31 + seat) % 2**63, fresh=True)


def new_table(
    msg: Mapping[str, Any], offer: Sequence[BotSpec] = BOT_NAMES, default_delay: float = 0.0
) -> Table:
    """A new game from a ``new`` message, its bots among those of ``offer`` (by label):
    one person against bots, or bots alone (``autoplay``); ``default_delay`` is the
    ``bot_delay`` when the message gives none.  Raises MessageError or a BinocleError."""
    known = offered_bots(offer)
    p = _read_profile(msg)
    n = p.players
    seat = _field(msg, "seat", int, 0)
    if not 0 <= seat < n:
        raise MessageError(f"'seat' is 0..{n - 1} in {p.name}")
    opponents = _field(msg, "opponents", list, ["baseline"] * (n - 1))
    if len(opponents) != n - 1:
        raise MessageError(f"{p.name} needs {n - 1} opponents, not {len(opponents)}")
    seed, delay = _read_seed_delay(msg, default_delay)
    autoplay = read_text(msg, "autoplay", 80, None)
    bots: dict[int, Bot] = {}
    bot_names: dict[int, str] = {}
    names: list[str] = []
    others = iter(opponents)
    for s in range(n):
        if s == seat and autoplay is None:
            names.append("you")
            continue
        bot_name = autoplay if s == seat else next(others)
        bots[s] = _bot(known, bot_name, seed, s)
        bot_names[s] = bot_name
        names.append(f"{bot_name} {s}" if s != seat else f"you ({bot_name})")
    state = new_game(p, seed=seed)
    return Table(
        id=secrets.token_urlsafe(9), token=secrets.token_urlsafe(18), seat=seat, state=state,
        bots=bots, names=tuple(names), bot_delay=delay, bot_names=bot_names,
    )  # fmt: skip


def person_seats_table(
    msg: Mapping[str, Any], offer: Sequence[BotSpec] = BOT_NAMES, default_delay: float = 0.0
) -> Table:
    """A table for people and bots from a ``table`` message: ``seats`` gives each seat
    to a person (:data:`PERSON`) or to a bot of ``offer`` (by label).  The creator sits
    at ``seat`` (a person's seat, the first by default); play begins with ``start``.
    Raises MessageError or a BinocleError."""
    known = offered_bots(offer)
    p = _read_profile(msg)
    n = p.players
    seats = _field(msg, "seats", list, None)
    if seats is None or len(seats) != n:
        raise MessageError(f"'seats' lists the {n} seats of {p.name}: 'person' or a bot name")
    people = [s for s, who in enumerate(seats) if who == PERSON]
    if not people:
        raise MessageError("a table has at least one 'person' seat ('new' plays bots alone)")
    seat = _field(msg, "seat", int, people[0])
    if seat not in people:
        raise MessageError(f"'seat' is one of the people's seats: {people}")
    seed, delay = _read_seed_delay(msg, default_delay)
    listed = _field(msg, "listed", bool, True)
    bots: dict[int, Bot] = {}
    bot_names: dict[int, str] = {}
    names: list[str] = []
    for s, who in enumerate(seats):
        if who == PERSON:
            names.append(f"seat {s}")
        else:
            bots[s] = _bot(known, who, seed, s)
            bot_names[s] = who
            names.append(f"{who} {s}")
    names[seat] = read_name(msg, names[seat])
    tokens = {s: secrets.token_urlsafe(18) for s in people}
    return Table(
        id=secrets.token_urlsafe(9), token=tokens[seat], seat=seat, state=new_game(p, seed=seed),
        bots=bots, names=tuple(names), bot_delay=delay, tokens=tokens, started=False,
        taken={seat: names[seat]}, bot_names=bot_names, listed=listed,
    )  # fmt: skip


def table_summary(table: Table, connected: Sequence[int] = ()) -> dict[str, Any]:
    """A table as the lobby and its players see it: the game, each seat (a person's or
    a bot's, taken or free, connected or not), whether play has begun or ended, the
    seat of the table's maker (``maker``).  No token and no card."""
    s = table.state
    seats = []
    for seat, name in enumerate(table.names):
        person = seat in table.tokens
        seats.append({"seat": seat, "kind": PERSON if person else "bot", "name": name,
                      "taken": not person or seat in table.taken,
                      "connected": seat in connected})  # fmt: skip
    return {"id": table.id, "profile": s.profile.name, "players": s.profile.players,
            "seats": seats, "started": table.started, "over": s.phase is Phase.OVER,
            "ready": table.ready, "step": table.steps,
            "maker": table.seat if table.tokens else None}  # fmt: skip


#: The version of the stored form of a table (:func:`table_doc`).
TABLE_DOC_VERSION: Final = 1


def table_doc(table: Table) -> dict[str, Any]:
    """A table as JSON-ready data for a store: who sits where, the tokens, what each
    seat has been told, and the game as :func:`binocle.dumps` writes it."""
    return {
        "version": TABLE_DOC_VERSION, "id": table.id, "token": table.token, "seat": table.seat,
        "names": list(table.names), "bot_delay": table.bot_delay, "steps": table.steps,
        "narration": table.narration,
        "tokens": {str(k): v for k, v in table.tokens.items()},
        "narrations": {str(k): v for k, v in table.narrations.items()},
        "started": table.started, "taken": {str(k): v for k, v in table.taken.items()},
        "bots": {str(k): v for k, v in table.bot_names.items()}, "listed": table.listed,
        "created": table.created, "game": dumps(table.state),
    }  # fmt: skip


def table_from_doc(doc: Mapping[str, Any], offer: Sequence[BotSpec] = BOT_NAMES) -> Table:
    """The table :func:`table_doc` wrote, its game read back by :func:`binocle.loads`
    (checked action by action) and its bots made anew.  Every field is checked as a
    client's message would be: its type, the seats in range, the steps those of the
    game, the bots on bot seats only and among those offered, tokens and names of the
    right form.  Raises MessageError or a BinocleError for a document this server
    cannot take back."""
    if not isinstance(doc, Mapping) or doc.get("version") != TABLE_DOC_VERSION:
        raise MessageError("not a stored table of this version")
    # The bot that takes a late bot's seat is known whatever the offer.
    known = {**offered_bots(offer), LATE_BOT_REPLACEMENT: LATE_BOT_REPLACEMENT}
    game = doc.get("game")
    if not isinstance(game, str):
        raise MessageError("'game' is the game as binocle.dumps writes it")
    state = loads(game)
    n = state.profile.players
    table_id, token = read_token(doc, "id"), read_token(doc, "token")
    seat = _stored_seat(doc.get("seat"), n, "seat")
    steps = doc.get("steps")
    base = len(new_game(state.profile, seed=state.seed).moves())
    if not _whole(steps) or steps != len(state.moves()) - base:
        raise MessageError("'steps' is the number of actions of its game")
    delay = doc.get("bot_delay")
    if (not isinstance(delay, (int, float)) or isinstance(delay, bool) or not math.isfinite(delay)
            or not 0 <= delay <= MAX_BOT_DELAY):  # fmt: skip
        raise MessageError(f"'bot_delay' is a number of seconds from 0 to {MAX_BOT_DELAY}")
    names = _stored_list(doc, "names")
    if len(names) != n or not all(_stored_name(x, 100) for x in names):
        raise MessageError(f"'names' lists the {n} seats' names, each short printable text")
    narration = _stored_lines(doc.get("narration"), "narration")
    bot_names = {_stored_seat(k, n, "bots"): v for k, v in _stored_map(doc, "bots").items()}
    for name in bot_names.values():
        if not isinstance(name, str) or name not in known:
            raise MessageError("'bots' names bots this server offers")
    tokens = {_stored_seat(k, n, "tokens"): v for k, v in _stored_map(doc, "tokens").items()}
    for value in tokens.values():
        read_token({"token": value}, "token")
    people = set(tokens) if tokens else ({seat} - set(bot_names))
    if people & set(bot_names) or people | set(bot_names) != set(range(n)):
        raise MessageError("every seat is a person's (with a token) or a bot's, not both")
    if tokens and tokens.get(seat) != token:
        raise MessageError("'token' is the token of the table's 'seat'")
    if not tokens and seat not in bot_names and len(people) != 1:
        raise MessageError("a table without 'tokens' has one person, at 'seat'")
    narrations = {
        _stored_seat(k, n, "narrations"): _stored_lines(v, "narrations")
        for k, v in _stored_map(doc, "narrations").items()
    }
    if not set(narrations) <= set(tokens) - {seat}:
        raise MessageError("'narrations' are those of the other people's seats")
    taken = {_stored_seat(k, n, "taken"): v for k, v in _stored_map(doc, "taken").items()}
    if not set(taken) <= people or not all(_stored_name(x, MAX_NAME) for x in taken.values()):
        raise MessageError("'taken' names the people's seats taken, each by a short name")
    for flag in ("started", "listed"):
        if not isinstance(doc.get(flag), bool):
            raise MessageError(f"{flag!r} is true or false")
    created = doc.get("created")
    if (not isinstance(created, (int, float)) or isinstance(created, bool)
            or not math.isfinite(created) or created < 0):  # fmt: skip
        raise MessageError("'created' is a time in seconds since the epoch")
    if not doc["started"] and steps:
        raise MessageError("a table that has not started has no actions")
    bots = {s: _bot(known, name, state.seed + steps, s) for s, name in bot_names.items()}
    return Table(
        id=table_id, token=token, seat=seat, state=state, bots=bots, names=tuple(names),
        bot_delay=float(delay), steps=steps, narration=narration, tokens=tokens,
        narrations=narrations, started=doc["started"], taken=taken, bot_names=bot_names,
        listed=doc["listed"], created=float(created),
    )  # fmt: skip


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _stored_seat(value: Any, players: int, name: str) -> int:
    """A seat of a table of ``players``: a number for ``seat``, the text of one for a key
    of ``name``'s object."""
    if (
        name != "seat"
        and isinstance(value, str)
        and value.isdigit()
        and value.isascii()
        and len(value) < 3
    ):
        value = int(value)
    if not _whole(value) or not 0 <= value < players:
        raise MessageError(f"{name!r}: a seat is a whole number from 0 to {players - 1}")
    return int(value)


def _stored_list(doc: Mapping[str, Any], name: str) -> list[Any]:
    value = doc.get(name)
    if not isinstance(value, list):
        raise MessageError(f"{name!r} is a list")
    return value


def _stored_map(doc: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = doc.get(name)
    if not isinstance(value, dict):
        raise MessageError(f"{name!r} is an object keyed by seat")
    return value


def _stored_name(value: Any, limit: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit and value.isprintable()


def _stored_lines(value: Any, name: str) -> list[str]:
    """A kept narration: at most :data:`NARRATION_KEPT` lines of printable text."""
    if (not isinstance(value, list) or len(value) > NARRATION_KEPT
            or not all(isinstance(x, str) and len(x) <= 1000 and x.isprintable()
                       for x in value)):  # fmt: skip
        raise MessageError(f"{name!r}: a narration is a list of at most {NARRATION_KEPT} lines")
    return list(value)


# -- what the client sees -------------------------------------------------------------


def view_json(view: View) -> dict[str, Any]:
    """A seat's view as JSON-ready data (cards as text such as ``"TS"``)."""
    return {
        "profile": view.profile.spec(),
        "profile_name": view.profile.name,
        "seat": view.seat,
        "phase": view.phase.value,
        "dealer": view.dealer,
        "current_player": view.current_player,
        "trump": None if view.trump is None else str(view.trump),
        "hand": [str(c) for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "trick": [[seat, str(card)] for seat, card in view.trick],
        "scores": list(view.scores),
        "results": encode(view.results),
        "log": list(view.log[-40:]),
        "public": {name: encode(value) for name, value in view.public},
    }


def _action_json(view: View, action: Action) -> dict[str, Any]:
    return {
        "text": str(action),
        "kind": action.kind.value,
        "card": None if action.card is None else str(action.card),
        "source": action.source,
        "label": label(action, view),
    }


def controls(table: Table, seat: int | None = None) -> dict[str, Any]:
    """What the person at ``seat`` (default the table's ``seat``) may do now: the legal
    actions, why other cards are not playable, whether a knock is open, and whether a
    deal waits for them."""
    s = table.state
    seat = table.seat if seat is None else seat
    out: dict[str, Any] = {"actions": [], "unplayable": {}, "knock": False, "deal": False}
    if s.phase is Phase.OVER or seat in table.bots or not table.started:
        return out
    if s.current_player is None:
        out["deal"] = True
        return out
    out["knock"] = seat in claimants(s)
    if s.current_player != seat:
        return out
    view = observe(s, seat)
    legal = view.legal_actions
    out["actions"] = [_action_json(view, a) for a in legal if a.kind is not Kind.DEAL]
    playing = {a.kind for a in legal} & {Kind.PLAY, Kind.DISCARD, Kind.GIVE}
    if playing:
        kind = next(k for k in (Kind.PLAY, Kind.DISCARD, Kind.GIVE) if k in playing)
        ok = {str(a.card) for a in legal if a.kind is kind}
        for card in {str(c) for c in s.hands[seat]} - ok:
            try:
                apply(s, f"{kind.value} {card}")
            except BinocleError as exc:
                out["unplayable"][card] = str(exc)
    return out


def state_message(table: Table, seat: int | None = None) -> dict[str, Any]:
    """The ``state`` message for a person's ``seat`` (default the table's ``seat``):
    view, names, controls, outcome."""
    s = table.state
    seat = table.seat if seat is None else seat
    view = observe(s, seat)
    msg: dict[str, Any] = {
        "type": "state",
        "game": table.id,
        "step": table.steps,
        "seating": table.seating,
        "names": list(table.names),
        "view": view_json(view),
        # The narration in the table's names, the seat as "you" (words.in_names).
        "narration": in_names(table.told(seat)[-NARRATION_KEPT:], table.names, seat),
        "controls": controls(table, seat),
        # The table in words for this seat (binocle.web.words.seat_table), which
        # speaks to the seat as "you".
        "table": seat_table(
            s, seat, tuple("you" if i == seat else n for i, n in enumerate(table.names))
        ),
        "over": None,
    }
    if s.phase is Phase.OVER:
        msg["over"] = {"winner": winner(s), "scores": list(s.scores),
                       "reason": end_reason(s)}  # fmt: skip
    return msg


# -- the person's moves ------------------------------------------------------------------


def _check_started(table: Table) -> None:
    if not table.started:
        raise MessageError("the table has not started: every person's seat must be taken")


def handle_action(table: Table, msg: Mapping[str, Any], seat: int | None = None) -> None:
    """Apply the ``action`` (its text) of the person at ``seat`` (default the table's
    ``seat``) to the table, or raise without changing it."""
    seat = table.seat if seat is None else seat
    text = read_text(msg, "action", 400, None)
    if text is None:
        raise MessageError("an 'action' message needs 'action', the action's text")
    _check_started(table)
    s = table.state
    if s.current_player is None or seat in table.bots:
        raise MessageError("it is not your turn")
    if s.current_player != seat:
        raise MessageError(f"it is not your turn: seat {s.current_player} is to act")
    action = parse_action(s, text)
    if action.kind is Kind.DEAL:
        raise MessageError("deals come from the server: send a 'deal' message")
    if action.kind is Kind.CLAIM and action.number is not None and action.number != seat:
        raise MessageError("you may only claim for your own seat")
    table.apply(action)


def handle_knock(table: Table, seat: int | None = None) -> None:
    """The person at ``seat`` (default the table's ``seat``) knocks: claims to have
    reached the target, now."""
    seat = table.seat if seat is None else seat
    _check_started(table)
    s = table.state
    if seat in table.bots:
        raise MessageError("a bot plays this seat")
    if seat not in claimants(s):
        raise MessageError("no claim is possible now")
    table.apply(Action(Kind.CLAIM, number=seat))


def handle_deal(table: Table) -> None:
    """Deal the next hand (from the game's seed) once the person has seen the score sheet."""
    _check_started(table)
    s = table.state
    if s.current_player is not None or s.phase is Phase.OVER:
        raise MessageError("no deal is due: the hand is in progress" if s.phase is not Phase.OVER
                           else "the game is over")  # fmt: skip
    table.apply(legal_actions(s)[0])


def leave_seat(
    table: Table, seat: int, msg: Mapping[str, Any], offer: Sequence[BotSpec] = BOT_NAMES
) -> str | None:
    """The person at ``seat`` leaves it (a ``leave`` message, or the host's ``replace``):
    with ``bot`` (a label of ``offer``) or once play has begun, a bot takes the seat for
    the rest of the game (the first offered when none is named) and the seat's link
    stops working; before play, without ``bot``, the seat is free again for another
    person.  The table's maker keeps his seat.  Returns the bot's label (None: the
    seat freed).  Raises MessageError, changing nothing."""
    if seat not in table.tokens:
        raise MessageError("only a person's seat can be left")
    if seat == table.seat:
        raise MessageError("you made this table: your seat stays yours (close the page to go)")
    known = offered_bots(offer)
    name = read_text(msg, "bot", 80, None)
    if name is None and not table.started:
        table.taken.pop(seat, None)
        table.set_name(seat, f"seat {seat}")
        return None
    name = next(iter(known), None) if name is None else name
    _seat_bot(table, seat, str(name), _bot(known, name, table.state.seed + table.steps, seat))
    table.tokens = {s: t for s, t in table.tokens.items() if s != seat}
    table.taken = {s: n for s, n in table.taken.items() if s != seat}
    table.narrations = {s: n for s, n in table.narrations.items() if s != seat}
    return str(name)


def _seat_bot(table: Table, seat: int, label: str, bot: Bot) -> None:
    """``bot`` (chosen by ``label``) plays ``seat`` from now on, named after its label."""
    table.bots = {**table.bots, seat: bot}
    table.bot_names = {**table.bot_names, seat: label}
    table.set_name(seat, f"{label} {seat}")


#: The bot that takes the seat of a bot too slow to move (:func:`replace_late_bot`).
LATE_BOT_REPLACEMENT: Final = "baseline"


def replace_late_bot(table: Table, seat: int) -> str:
    """The bot at ``seat`` took too long to move: the baseline bot plays the seat for
    the rest of the game (kept by that label, so a restarted server rebuilds it).
    Returns the name the seat had."""
    late = table.names[seat]
    bot = resolve_bot(LATE_BOT_REPLACEMENT, seed=table.state.seed + table.steps + seat, fresh=True)
    _seat_bot(table, seat, LATE_BOT_REPLACEMENT, bot)
    return late


def bot_action(state: GameState, seat: int | None, bot: Bot | None) -> Action:
    """The next action of a bot seat in ``state`` (or the deal when ``seat`` is None)."""
    s = state
    if seat is None or bot is None:
        return legal_actions(s)[0]
    return bot.choose(observe(s, seat))


def bot_knocks(table: Table) -> Action | None:
    """A knock by a bot seat that is not to act, when its bot wants to make one."""
    s = table.state
    for seat in claimants(s):
        if seat == s.current_player:
            continue
        bot = table.bots.get(seat)
        knock = getattr(bot, "knock", None)
        if knock is not None and knock(observe(s, seat)):
            return Action(Kind.CLAIM, number=seat)
    return None


def record_message(table: Table) -> dict[str, Any]:
    """The game record, once the game is over (before then it would show hidden cards)."""
    if table.state.phase is not Phase.OVER:
        raise MessageError("the record is available when the game is over")
    seats = list(table.names)
    return {"type": "record", "record": record(table.state, seats=seats)}


def replay_message(msg: Mapping[str, Any]) -> dict[str, Any]:
    """Every step of a recorded game, everything shown: for the replay viewer."""
    rec = msg.get("record")
    if not isinstance(rec, (str, dict)):
        raise MessageError("a 'replay' message needs 'record': the record (object or JSON text)")
    doc = load_record(rec) if isinstance(rec, str) else rec
    moves = doc.get("actions")
    if isinstance(moves, list) and len(moves) > MAX_REPLAY_ACTIONS:
        raise MessageError(
            f"the replay viewer reads records of at most {MAX_REPLAY_ACTIONS} actions"
        )
    states = replay(doc, every=True)
    frames = [_frame(states[0], None, None, [])]
    # Each step is told from states whose history starts at the hand's deal: the
    # narration reads the current hand only, and observing a state walks its whole
    # history, so a whole game's history would make the replay quadratic in its length.
    node: Any = None
    before = _hand_only(states[0], None)
    for after, (action, seat) in zip(states[1:], states[-1].moves(), strict=True):
        node = (None if action.kind is Kind.DEAL else node, action, seat)
        short = _hand_only(after, node)
        frames.append(_frame(after, action, seat, narrate_all(before, action, short)))
        before = short
    return {"type": "replay", "profile": states[0].profile.spec(), "frames": frames,
            "seats": doc.get("seats")}  # fmt: skip


def _hand_only(state: GameState, history: Any) -> GameState:
    """``state`` with ``history`` (the current hand's actions) in place of its own."""
    fields = {name: getattr(state, name) for name in state._FIELDS if name != "history"}
    return type(state)(**fields, history=history)


def _frame(
    state: GameState, action: Action | None, seat: int | None, lines: list[str]
) -> dict[str, Any]:
    text = None
    if action is not None:
        text = "deal" if action.kind is Kind.DEAL else str(action)
    return {
        "action": text,
        "seat": seat,
        "lines": lines,
        "phase": state.phase.value,
        "hand": state.hand_number,
        "dealer": state.dealer,
        "trump": None if state.trump is None else str(state.trump),
        "hands": [[str(c) for c in h] for h in state.hands],
        "trick": [[p, str(c)] for p, c in state.trick],
        "scores": list(state.scores),
    }
