"""External engines: bots in any language, one JSON object per line over pipes (a leaf).

A program that speaks the binocle engine protocol (``binocle-engine``, version
:data:`VERSION`; the docs page "The engine protocol" specifies it) can sit at any
seat a bot can: :class:`ExternalBot` starts it and is a
:class:`~binocle.bots.Bot`, so :func:`binocle.bots.play_game`,
:func:`binocle.arena`, ``binocle arena``, ``binocle ratings``, ``binocle play``
and ``binocle serve`` seat it, the last ones through the bot spec
``cmd:<command>`` (``--bots 'cmd:./mybot --level 3,baseline,baseline'``).

The host tells the engine only what its seat may know: each ``go`` message is
built from :func:`binocle.observe`'s view alone (:func:`view_json`), with the
legal actions as text and as :mod:`binocle.encoding` ids (:func:`legal_json`),
and the ``update`` message between its turns holds the seat's own history and
narration (:func:`binocle.narrate.narrate`).

:func:`run_engine` is the other side: any bot behind the protocol, which is what
``binocle engine --bot ismcts`` runs.

What happens when an engine fails is an :class:`~binocle.errors.EngineError`,
raised from ``choose`` once the process is stopped, naming the engine and
quoting what it sent: :class:`~binocle.errors.EngineCrashError` (it exited),
:class:`~binocle.errors.EngineTimeoutError` (no answer in time),
:class:`~binocle.errors.EngineProtocolError` (garbage),
:class:`~binocle.errors.EngineIllegalActionError` (an action not legal now) and
:class:`~binocle.errors.EngineOutputError` (too much output).  The runner fills in
the error's ``state``: the game up to there.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
import weakref
from collections.abc import Mapping, Sequence
from typing import IO, Any, Final

from binocle._json import JSON, DuplicateKeyError, JSONObject, parse_json
from binocle.actions import Action, Kind, new_action, parse_action_text
from binocle.bots import BotSpec, bot_names, resolve_bot
from binocle.cards import Card, Suit, parse_card
from binocle.core import HandResult, Meld, MeldResult, Phase, View
from binocle.encoding import action_space
from binocle.errors import (
    BinocleError,
    EngineCrashError,
    EngineError,
    EngineIllegalActionError,
    EngineOutputError,
    EngineProtocolError,
    EngineTimeoutError,
    InvalidArgumentError,
    excerpt,
    is_finite,
    shorten,
)
from binocle.narrate import narrate
from binocle.profiles import get_profile
from binocle.profiles._three_handed_state import Overlooked
from binocle.serial import encode

__all__ = [
    "PROTOCOL",
    "VERSION",
    "ExternalBot",
    "command_bot",
    "legal_json",
    "run_engine",
    "view_from_json",
    "view_json",
]

#: The protocol's name, sent in the ``hello`` and ``id`` messages.
PROTOCOL: Final = "binocle-engine"
#: The protocol's version this module speaks.
VERSION: Final = 1
#: How many characters of what an engine sent an error quotes.
_QUOTE: Final = 300
#: A message, as Python data.
_Msg = dict[str, Any]
_CARD_TEXT = re.compile(r"(?:10|[AKQJT987])[SHDC]\Z")


# -- what the seat may know, as JSON ---------------------------------------------------


def view_json(view: View) -> JSONObject:
    """The whole of a seat's view as JSON-ready data: every field of
    :class:`~binocle.View` (cards as text such as ``"TS"``, the history as
    ``{"seat", "action"}`` entries) but the legal actions, which :func:`legal_json`
    gives.  Nothing but the view is read, so no card hidden from the seat is in it.

    >>> import binocle
    >>> v = view_json(binocle.observe(binocle.new_game("cutthroat", seed=7), 0))
    >>> v["seat"], v["phase"], v["hand"][:3], v["history"]
    (0, 'bidding', ['AS', 'TS', 'KS'], [{'seat': None, 'action': 'deal'}])
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"view_json takes a View, not {excerpt(view)}")
    return {
        "profile": view.profile.spec(),
        "profile_name": view.profile.name,
        "players": view.profile.players,
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
        "log": list(view.log),
        "public": {name: encode(value) for name, value in view.public},
        "claimants": list(view.claimants),
        "history": [{"seat": seat, "action": str(a)} for a, seat in view.history],
        "deck": [None if c is None else str(c) for c in view.deck],
        "winner": view.winner,
    }


def _legal_ids(view: View) -> list[int | None]:
    """The :mod:`binocle.encoding` id of each legal action, in the view's order; None
    for an action whose id depends on the history of the player's meld table, which
    the view does not hold (classic: a table copy such as ``play KS#3``)."""
    space = action_space(view.profile)
    position: Any = types.SimpleNamespace(current_player=view.seat, tables=None)
    out: list[int | None] = []
    for a in view.legal_actions:
        try:
            out.append(space.id(position, a))
        except InvalidArgumentError:
            out.append(None)
    return out


def legal_json(view: View) -> list[JSONObject]:
    """The legal actions of a view, each as ``{"id", "text"}``: its
    :mod:`binocle.encoding` id and its text (:func:`binocle.parse_action` reads it).
    The id is None (JSON null) for an action whose id depends on the history of
    the player's meld table, which the view does not hold (classic: a play or an
    announcement naming a table copy such as ``KS#3``); an engine answers those
    by their text.

    >>> import binocle
    >>> legal_json(binocle.observe(binocle.new_game("cutthroat", seed=7), 1))[:2]
    [{'id': 0, 'text': 'pass'}, {'id': 1, 'text': 'bid 250'}]
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"legal_json takes a View, not {excerpt(view)}")
    ids = _legal_ids(view)
    return [{"id": i, "text": str(a)} for i, a in zip(ids, view.legal_actions, strict=True)]


def _decode(value: Any) -> Any:
    """A public fact back from its JSON form: cards from their text, lists as tuples,
    melds, meld results and overlooked melds from their fields."""
    if isinstance(value, str):
        return parse_card(value) if _CARD_TEXT.match(value) else value
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if isinstance(value, dict):
        keys = set(value)
        if keys == {"total", "melds"}:
            return MeldResult(int(value["total"]), _decode(value["melds"]))
        if keys == {"name", "cards", "value"}:
            return Meld(str(value["name"]), _decode(value["cards"]), int(value["value"]))
        if keys == {"seat", "points", "asked", "resume"}:
            return Overlooked(
                int(value["seat"]), int(value["points"]), _decode(value["asked"]),
                int(value["resume"]),
            )  # fmt: skip
        raise ValueError(f"an unknown public fact {excerpt(value)}")
    return value


def _seen_action(text: str) -> Action:
    """An action of a view's history from its text: a deal or another seat's face-down
    discard shows no card, and its text is the kind alone (``"deal"``)."""
    if text in _BARE:
        return new_action(Kind(text))
    return parse_action_text(text)


_BARE: Final = frozenset({Kind.DEAL.value, Kind.DISCARD.value})


def _result(doc: Mapping[str, Any]) -> HandResult:
    trump = doc["trump"]
    made, game_end = doc["made"], doc["game_end"]
    if made is not None and not isinstance(made, bool):
        raise ValueError(f"made is true, false or null, not {excerpt(made)}")
    if game_end is not None and not isinstance(game_end, str):
        raise ValueError(f"game_end is text or null, not {excerpt(game_end)}")
    return HandResult(
        dealer=_whole(doc["dealer"], "a dealer"),
        trump=None if trump is None else Suit(trump),
        meld=tuple(int(x) for x in doc["meld"]),
        tricks=tuple(int(x) for x in doc["tricks"]),
        delta=tuple(int(x) for x in doc["delta"]),
        bidder=_whole(doc["bidder"], "a bidder", none=True),
        bid=_whole(doc["bid"], "a bid", none=True),
        made=made,
        outcome=str(doc["outcome"]),
        game_end=game_end,
        chips=_whole(doc.get("chips"), "chips", none=True),
    )


def _whole(value: Any, what: str, *, none: bool = False, below: int | None = None) -> Any:
    """``value`` if it is a whole number (from 0, below ``below``), or None where allowed."""
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} is a whole number, not {excerpt(value)}")
    if below is not None and value >= below:
        raise ValueError(f"{what} is below {below}, not {value}")
    return value


def _card_or_none(text: Any) -> Card | None:
    return None if text is None else parse_card(text)


def view_from_json(doc: Mapping[str, Any], legal: Sequence[Any] = ()) -> View:
    """The :class:`~binocle.View` that :func:`view_json` wrote, with the legal actions
    of ``legal`` (:func:`legal_json`'s entries, or action texts): what an engine
    written in Python, such as :func:`run_engine`, hands its bot.

    Anything that is not such a document is refused with
    :class:`~binocle.errors.InvalidArgumentError`.

    >>> import binocle
    >>> v = binocle.observe(binocle.new_game("classic", seed=3), 1)
    >>> view_from_json(view_json(v), legal_json(v)) == v
    True
    """
    if not isinstance(doc, Mapping):
        raise InvalidArgumentError(f"a view's JSON is an object, not {excerpt(doc)}")
    if isinstance(legal, (str, bytes)) or not isinstance(legal, Sequence):
        raise InvalidArgumentError(f"legal is a list of actions, not {excerpt(legal)}")
    try:
        texts = [a["text"] if isinstance(a, Mapping) else a for a in legal]
        if not all(isinstance(t, str) for t in texts):
            raise ValueError("an action is its text")
        history = tuple((_seen_action(str(h["action"])), h["seat"]) for h in doc["history"])
        trump = doc["trump"]
        profile = get_profile(str(doc["profile"]))
        n = profile.players
        view = View(
            profile=profile,
            seat=_whole(doc["seat"], "a seat", below=n),
            phase=Phase(doc["phase"]),
            dealer=_whole(doc["dealer"], "a dealer", below=n),
            current_player=_whole(doc["current_player"], "a seat", none=True, below=n),
            trump=None if trump is None else Suit(trump),
            hand=tuple(parse_card(c) for c in doc["hand"]),
            hand_sizes=tuple(int(n) for n in doc["hand_sizes"]),
            trick=tuple((int(seat), parse_card(c)) for seat, c in doc["trick"]),
            scores=tuple(int(x) for x in doc["scores"]),
            results=tuple(_result(r) for r in doc["results"]),
            legal_actions=tuple(parse_action_text(t) for t in texts),
            log=tuple(str(x) for x in doc["log"]),
            public=tuple(sorted((str(k), _decode(v)) for k, v in doc["public"].items())),
            claimants=tuple(int(x) for x in doc["claimants"]),
            history=history,
            deck=tuple(_card_or_none(c) for c in doc["deck"]),
            winner=_whole(doc["winner"], "a seat", none=True, below=n),
        )
    except BinocleError as exc:
        raise InvalidArgumentError(f"not a view's JSON: {exc}") from None
    except Exception as exc:  # any shape that is not a view's: refused, never a crash
        raise InvalidArgumentError(
            f"not a view's JSON: {type(exc).__name__}: {excerpt(str(exc))}"
        ) from None
    return view


# -- binocle as the host -----------------------------------------------------------------


def _seconds(value: object, what: str, *, none: bool = False) -> float | None:
    if value is None and none:
        return None
    if isinstance(value, bool) or not is_finite(value) or not 0 < value <= 86_400:
        raise InvalidArgumentError(f"{what} is a number of seconds above 0, not {excerpt(value)}")
    return float(value)


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(f"{what} is a whole number from 1, not {excerpt(value)}")
    return value


def _kill(proc: subprocess.Popen[bytes], cwd: str | None) -> None:
    """Stop a process and everything it started, and remove its own working directory."""
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)
            else:  # pragma: no cover - not POSIX
                proc.kill()
    with contextlib.suppress(Exception):
        proc.wait(5)
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    if cwd is not None:
        shutil.rmtree(cwd, ignore_errors=True)


class _Timeout(Exception):
    """No whole line before the deadline (inside the host only)."""


class ExternalBot:
    """A bot that is a separate program speaking the engine protocol over its standard
    input and output (the docs page "The engine protocol").

    ``command``: the program and its arguments, a list (run as it is) or text (split
    as a POSIX shell splits words; with ``shell=True`` the text is run by
    ``/bin/sh``, which nothing else asks for).  The program's path, and every
    word of the text that names an existing file relative to the current
    directory and has a ``/`` in it, are made absolute, so the engine runs in its
    own working directory: ``cwd``, or by default a new empty temporary directory
    removed when it stops.  ``env``: its environment (default this process's).

    Limits: ``move_time`` seconds per move and ``game_time`` for all its moves
    of a game (None: no game limit) -- at the limit the host sends ``stop`` and
    the engine has ``grace`` more seconds to answer; ``start_time`` seconds to
    answer the handshake; ``max_line`` bytes in one line and ``max_output``
    bytes written in one game (its standard output and error together).

    ``options``: values of the options the engine declared in its handshake
    (UCI's ``setoption``), sent before its first game; one it did not declare is
    refused.  ``seed`` is sent with each game (an engine may seed its random
    numbers from it).  ``name`` names the bot in reports (default: the command).

    The process starts at the first decision (or :meth:`start`) and stops at the
    end of the game (told by the runner, :meth:`game_over`) unless
    ``persistent``, at :meth:`close`, on any failure, or when the bot is dropped.
    A copy (the arena copies bots for every deal) is a new, unstarted bot with
    the same settings.  Needs a POSIX system (pipes that can be waited on);
    elsewhere it cannot be started (:class:`~binocle.errors.EngineCrashError`).
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        seed: int | None = None,
        name: str | None = None,
        options: Mapping[str, JSON] | None = None,
        move_time: float = 10.0,
        game_time: float | None = None,
        grace: float = 1.0,
        start_time: float = 10.0,
        max_line: int = 1 << 20,
        max_output: int = 64 << 20,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        shell: bool = False,
        persistent: bool = False,
    ) -> None:
        if isinstance(command, str):
            if not command.strip():
                raise InvalidArgumentError("an engine's command is not empty")
            text = command.strip()
            try:
                argv = [text] if shell else shlex.split(text)
            except ValueError as exc:
                raise InvalidArgumentError(
                    f"cannot read the command {excerpt(text)}: {exc}"
                ) from None
        elif isinstance(command, Sequence) and command and all(isinstance(w, str) for w in command):
            argv = list(command)
            text = shlex.join(argv)
        else:
            raise InvalidArgumentError(
                f"an engine's command is text or a list of words, not {excerpt(command)}"
            )
        if any("\0" in w for w in argv):
            raise InvalidArgumentError("an engine's command holds no NUL character")
        if not shell:
            argv = self._absolute(argv)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidArgumentError(f"a seed is a whole number or None, not {excerpt(seed)}")
        if options is not None and (
            not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options)
        ):
            raise InvalidArgumentError(f"options map names to values, not {excerpt(options)}")
        if cwd is not None and not isinstance(cwd, (str, os.PathLike)):
            raise InvalidArgumentError(f"cwd is a directory's path, not {excerpt(cwd)}")
        if env is not None and (
            not isinstance(env, Mapping)
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        ):
            raise InvalidArgumentError(f"env maps names to text, not {excerpt(env)}")
        if name is not None and (not isinstance(name, str) or not name):
            raise InvalidArgumentError(f"name is text, not {excerpt(name)}")
        self.command: Final = text
        self.argv: Final = tuple(argv)
        self.shell: Final = bool(shell)
        self.seed = seed
        self.name: str = name or text
        self.options: dict[str, JSON] = dict(options or {})
        self.move_time: float = _seconds(move_time, "move_time") or 10.0
        self.game_time: float | None = _seconds(game_time, "game_time", none=True)
        self.grace: float = _seconds(grace, "grace") or 1.0
        self.start_time: float = _seconds(start_time, "start_time") or 10.0
        self.max_line: int = _count(max_line, "max_line")
        self.max_output: int = _count(max_output, "max_output")
        self.cwd = None if cwd is None else str(os.fspath(cwd))
        self.env = None if env is None else dict(env)
        self.persistent = bool(persistent)
        #: What the engine said of itself in its handshake (None until it started).
        self.engine_name: str | None = None
        self.engine_author: str | None = None
        self.engine_options: tuple[dict[str, Any], ...] = ()
        self._reset()

    def _reset(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._own_dir: str | None = None
        self._stderr: IO[bytes] | None = None
        self._buf = bytearray()
        self._held = bytearray()
        self._written = 0
        self._err_base = 0
        self._last: View | None = None
        self._game_left: float | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._seat: int | None = None

    @staticmethod
    def _absolute(argv: list[str]) -> list[str]:
        program = argv[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            argv[0] = os.path.abspath(program)
        else:
            found = shutil.which(program)
            if found is None:
                raise InvalidArgumentError(f"no program {excerpt(program)} on the PATH")
            argv[0] = found
        for i, word in enumerate(argv[1:], 1):
            if "/" in word and not word.startswith("-") and os.path.exists(word):
                argv[i] = os.path.abspath(word)
        return argv

    # -- copies and pickles: the settings, never the process --------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> ExternalBot:
        new = copy.copy(self)
        new.options = dict(self.options)
        new.engine_name = new.engine_author = None
        new.engine_options = ()
        new._reset()
        return new

    def __getstate__(self) -> dict[str, Any]:
        keep = dict(self.__dict__)
        for key in list(keep):
            if key.startswith("_"):
                del keep[key]
        return keep

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._reset()

    def __repr__(self) -> str:
        return f"ExternalBot({self.command!r})"

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the process ------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the engine's process is running."""
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the engine and do the handshake (``hello``, ``id``, ``option``,
        ``isready``/``readyok``), if it is not running yet."""
        if self._proc is not None:
            return
        if os.name != "posix":
            raise EngineCrashError(
                f"engine {self.name!r} cannot be started: external engines need a POSIX"
                " system (pipes that can be waited on)",
                self.name,
            )
        cwd = self.cwd
        if cwd is None:
            cwd = self._own_dir = tempfile.mkdtemp(prefix="binocle-engine-")
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115  (kept open while it runs)
        try:
            proc = subprocess.Popen(
                self.command if self.shell else list(self.argv),
                shell=self.shell,
                cwd=cwd,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                bufsize=0,
                start_new_session=True,
            )
        except (OSError, ValueError) as exc:
            self._stop()
            raise EngineCrashError(
                f"engine {self.name!r} cannot be started: {exc}", self.name
            ) from None
        self._proc = proc
        self._finalizer = weakref.finalize(self, _kill, proc, self._own_dir)
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._written = 0
        deadline = time.monotonic() + self.start_time
        self._send({"type": "hello", "protocol": PROTOCOL, "version": VERSION}, deadline)
        msg = self._expect("id", deadline, "its handshake (an id message)")
        if msg.get("protocol", PROTOCOL) != PROTOCOL or msg.get("version") != VERSION:
            self._fail(
                EngineProtocolError,
                f"speaks {excerpt(msg.get('protocol'))} version {excerpt(msg.get('version'))},"
                f" not {PROTOCOL} version {VERSION}",
            )
        name, author, options = msg.get("name"), msg.get("author"), msg.get("options", [])
        if not isinstance(name, str) or not isinstance(author, (str, type(None))):
            self._fail(EngineProtocolError, "its id message gives no name (text)")
        if not isinstance(options, list) or not all(
            isinstance(o, dict) and isinstance(o.get("name"), str) for o in options
        ):
            self._fail(EngineProtocolError, "its options are not a list of {name, ...} objects")
        self.engine_name, self.engine_author = name, author
        self.engine_options = tuple(options)
        declared = {o["name"] for o in options}
        unknown = sorted(set(self.options) - declared)
        if unknown:
            self._stop()
            raise InvalidArgumentError(
                f"engine {self.name!r} has no option {', '.join(unknown)}"
                f" (its options: {', '.join(sorted(declared)) or 'none'})"
            )
        for key, value in self.options.items():
            self._send({"type": "option", "name": key, "value": value}, deadline)
        self._send({"type": "isready"}, deadline)
        self._expect("readyok", deadline, "readyok")

    def close(self) -> None:
        """Send ``quit`` and stop the engine (after ``grace`` seconds it is killed)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send({"type": "quit"}, time.monotonic() + self.grace)
            except EngineError:
                return  # it could not be told: stopped already
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(self.grace)
        self._stop()

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        elif self._own_dir is not None:
            shutil.rmtree(self._own_dir, ignore_errors=True)
        if self._stderr is not None:
            with contextlib.suppress(OSError):
                self._stderr.close()
        self._reset()

    def _stderr_tail(self) -> str:
        f = self._stderr
        if f is None:
            return ""
        try:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - 400))
            tail = f.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""
        return f"; its last words on standard error: {tail!r}" if tail else ""

    def _fail(self, kind: type[EngineError], what: str, sent: bytes | str | None = None) -> Any:
        """Stop the engine and raise ``kind`` naming the engine and what it sent."""
        text = sent.decode("utf-8", "replace") if isinstance(sent, bytes) else sent
        quoted = None if text is None else shorten(text, _QUOTE)
        seat = "" if self._seat is None else f" (seat {self._seat})"
        message = f"engine {self.name!r}{seat} {what}"
        if quoted is not None:
            message += f": it sent {quoted!r}"
        message += self._stderr_tail()
        self._stop()
        raise kind(message, self.name, quoted)

    def _exited(self) -> str:
        proc = self._proc
        code = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = proc.wait(0.5)
        return "closed its output" if code is None else f"exited with status {code}"

    def _send(self, msg: _Msg, deadline: float, *, later: bool = False) -> None:
        """Send ``msg`` (with those held back before it); ``later``: hold it back until
        the next message is sent, so the lines of one turn go in one write."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        self._held += json.dumps(msg, separators=(",", ":")).encode() + b"\n"
        if later:
            return
        data = memoryview(bytes(self._held))
        self._held.clear()
        fd = proc.stdin.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while data:
                try:
                    n = os.write(fd, data)
                except BlockingIOError:
                    n = 0
                except (BrokenPipeError, ConnectionResetError):
                    self._fail(EngineCrashError, f"{self._exited()} before it read all it was sent")
                data = data[n:]
                if data:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        self._fail(EngineTimeoutError, "did not read what it was sent in time")
                    sel.select(left)

    def _line(self, deadline: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                end = self._buf.find(b"\n")
                if end >= 0:
                    line = bytes(self._buf[:end])
                    del self._buf[: end + 1]
                    return line
                if len(self._buf) > self.max_line:
                    self._fail(
                        EngineOutputError,
                        f"wrote a line longer than {self.max_line} bytes",
                        bytes(self._buf[:_QUOTE]),
                    )
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    if time.monotonic() >= deadline:
                        raise _Timeout
                    continue
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    self._fail(
                        EngineCrashError,
                        self._exited(),
                        bytes(self._buf) if self._buf else None,
                    )
                self._written += len(chunk)
                self._check_output()
                self._buf += chunk

    def _stderr_size(self) -> int:
        if self._stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                return os.fstat(self._stderr.fileno()).st_size
        return 0

    def _check_output(self) -> None:
        if self._written + self._stderr_size() - self._err_base > self.max_output:
            self._fail(
                EngineOutputError,
                f"wrote more than {self.max_output} bytes in a game",
                bytes(self._buf[-_QUOTE:]) or None,
            )

    def _message(self, deadline: float) -> _Msg:
        """The next message but ``info`` (and blank lines), read before ``deadline``."""
        while True:
            raw = self._line(deadline)
            if not raw.strip():
                continue
            try:
                msg = parse_json(raw)
            except DuplicateKeyError as exc:
                self._fail(EngineProtocolError, f"wrote ambiguous JSON ({exc})", raw)
            except (ValueError, RecursionError):
                self._fail(EngineProtocolError, "wrote a line that is not JSON", raw)
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                self._fail(EngineProtocolError, "wrote a JSON value that is not a message", raw)
            if msg["type"] == "info":
                continue
            msg["_raw"] = raw.decode("utf-8", "replace")
            return msg  # type: ignore[no-any-return]

    def _expect(self, kind: str, deadline: float, what: str) -> _Msg:
        try:
            msg = self._message(deadline)
        except _Timeout:
            return self._fail(EngineTimeoutError, f"did not send {what} in time")  # type: ignore[no-any-return]
        if msg["type"] != kind:
            self._fail(
                EngineProtocolError, f"sent a {msg['type']!r} message, not {what}", str(msg["_raw"])
            )
        return msg

    # -- a game -----------------------------------------------------------------------

    def _tell(self, view: View, deadline: float) -> None:
        """Open the game if it is new, and send what happened since the last decision."""
        last = self._last
        done = 0 if last is None else len(last.history)
        if last is not None and (
            last.profile != view.profile
            or last.seat != view.seat
            or len(view.history) < done
            or view.history[:done] != last.history
        ):
            last, done = None, 0  # another game: the last one was left unfinished
        if last is None:
            self._seat = view.seat
            self._game_left = self.game_time
            self._written = 0
            self._err_base = self._stderr_size()
            self._send(
                {
                    "type": "game",
                    "profile": view.profile.spec(),
                    "profile_name": view.profile.name,
                    "players": view.profile.players,
                    "seat": view.seat,
                    "seed": self.seed,
                    "time": {"move": self.move_time, "game": self.game_time},
                },
                deadline,
                later=True,
            )
        events: list[JSON] = [{"seat": s, "action": str(a)} for a, s in view.history[done:]]
        lines: list[JSON] = []
        if last is not None:
            lines = [line for line in narrate(last, view, suits="letters") if line.strip()]
        if events:
            self._send(
                {"type": "update", "events": events, "narration": lines}, deadline, later=True
            )
        before = 0 if last is None else len(last.results)
        for n, result in enumerate(view.results[before:], before + 1):
            self._send(
                {
                    "type": "hand_end",
                    "hand": n,
                    "result": encode(result),
                    "scores": list(view.scores),
                },
                deadline,
                later=True,
            )
        self._last = view

    def choose(self, view: View) -> Action:
        """Send the decision to the engine and return the legal action it answers.

        Raises an :class:`~binocle.errors.EngineError` (the process stopped) when it
        fails: see the module."""
        if not isinstance(view, View):
            raise InvalidArgumentError(f"choose takes a View, not {excerpt(view)}")
        if not view.legal_actions:
            raise InvalidArgumentError("the view has no legal action to choose from")
        self.start()
        begun = time.monotonic()
        self._tell(view, begun + self.move_time)
        budget = self.move_time
        if self._game_left is not None:
            budget = min(budget, max(self._game_left, 0.0))
        legal = view.legal_actions
        ids = _legal_ids(view)
        go: _Msg = {
            "type": "go",
            "view": view_json(view),
            "legal": [{"id": i, "text": str(a)} for i, a in zip(ids, legal, strict=True)],
            "time": {"move": budget, "game_left": self._game_left},
        }
        self._send(go, begun + budget + self.grace)
        try:
            msg = self._message(begun + budget)
        except _Timeout:
            self._send({"type": "stop"}, time.monotonic() + self.grace)
            try:
                msg = self._message(time.monotonic() + self.grace)
            except _Timeout:
                limit = (
                    "its time for the game"
                    if budget < self.move_time
                    else (f"its {self.move_time:g} s for a move")
                )
                return self._fail(  # type: ignore[no-any-return]
                    EngineTimeoutError,
                    f"did not answer within {limit} and {self.grace:g} s after stop",
                )
        if self._game_left is not None:
            self._game_left -= time.monotonic() - begun
        return self._read_action(msg, legal, ids)

    def _read_action(self, msg: _Msg, legal: tuple[Action, ...], ids: list[int | None]) -> Action:
        raw = str(msg["_raw"])
        if msg["type"] != "action":
            self._fail(EngineProtocolError, f"sent a {msg['type']!r} message, not an action", raw)
        if "id" in msg and msg["id"] is not None:
            i = msg["id"]
            if isinstance(i, bool) or not isinstance(i, int):
                self._fail(EngineProtocolError, "sent an action id that is not a whole number", raw)
            if ids.count(i) == 1:
                return legal[ids.index(i)]
            self._fail(EngineIllegalActionError, f"chose the action id {i}, not legal now", raw)
        text = msg.get("action")
        if not isinstance(text, str):
            self._fail(
                EngineProtocolError, "sent an action message with neither action nor id", raw
            )
        assert isinstance(text, str)
        for a in legal:
            if str(a) == text:
                return a
        try:
            wanted = parse_action_text(text)
        except BinocleError:
            wanted = None
        if wanted is not None and wanted in legal:
            return legal[legal.index(wanted)]
        return self._fail(EngineIllegalActionError, "chose an action not legal now", raw)  # type: ignore[no-any-return]

    def game_over(self, view: View) -> None:
        """Tell the engine the game is over (the last ``update``, ``hand_end`` and
        ``game_over``), then stop it unless ``persistent``.  The runners call this
        at the end of a game; an engine that is not running is not started."""
        if not isinstance(view, View):
            raise InvalidArgumentError(f"game_over takes a View, not {excerpt(view)}")
        if not self.running or self._last is None:
            return
        deadline = time.monotonic() + self.grace
        try:
            self._tell(view, deadline)
            reason = view.results[-1].game_end if view.results else None
            self._send(
                {
                    "type": "game_over",
                    "winner": view.winner,
                    "scores": list(view.scores),
                    "reason": reason,
                    "view": view_json(view),
                },
                deadline,
            )
        finally:
            self._last = None
            if not self.persistent:
                self.close()


def command_bot(command: str, seed: int | None = None) -> ExternalBot:
    """The bot of the spec ``cmd:<command>`` (:func:`binocle.bots.resolve_bot`): an
    :class:`ExternalBot` running ``command`` with the default limits."""
    return ExternalBot(command, seed=seed)


# -- binocle as the engine ---------------------------------------------------------------


def _bot_options(spec: str) -> list[_Msg]:
    """The options a built-in bot named ``spec`` takes: its settings with plain
    defaults (none for a spec with settings, a path or anything else)."""
    import inspect

    if spec not in bot_names():
        return []
    bot = resolve_bot(spec, 0)
    try:
        params = inspect.signature(type(bot)).parameters.values()
    except (TypeError, ValueError):
        return []
    kinds = {bool: "check", int: "spin", float: "number", str: "string"}
    out: list[_Msg] = []
    for p in params:
        d = p.default
        if p.name == "seed" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            continue
        if type(d) in kinds or (d is None and p.name == "time_limit"):
            out.append({"name": p.name, "type": kinds.get(type(d), "number"), "default": d})
    return out


def run_engine(
    bot: BotSpec,
    input: IO[str] | None = None,
    output: IO[str] | None = None,
    *,
    name: str | None = None,
) -> int:
    """Run a bot behind the engine protocol: read the host's messages from ``input``
    (default standard input), answer on ``output`` (default standard output) until
    ``quit`` or the end of the input; returns 0.

    ``bot``: a bot spec (:func:`binocle.bots.resolve_bot`), made anew for every game
    with the game's seed.  A built-in bot named alone (``"ismcts"``) declares its
    settings as options the host may set.  A message it cannot read is answered
    with an ``error`` message, and the engine goes on.
    """
    src = sys.stdin if input is None else input
    out = sys.stdout if output is None else output
    resolve_bot(bot, 0)  # a bad spec fails before the handshake
    label = name or (bot if isinstance(bot, str) else type(bot).__name__)
    options = _bot_options(bot) if isinstance(bot, str) else []
    settings: dict[str, Any] = {}
    player: Any = None
    seed: int | None = None

    def say(msg: _Msg) -> None:
        out.write(json.dumps(msg, separators=(",", ":")) + "\n")
        out.flush()

    for line in src:
        if not line.strip():
            continue
        try:
            msg = parse_json(line)
            kind = msg["type"]
        except DuplicateKeyError as exc:
            say({"type": "error", "message": f"ambiguous JSON: {exc}"})
            continue
        except (ValueError, TypeError, KeyError, RecursionError):
            say({"type": "error", "message": f"not a message: {shorten(line.strip(), 80)}"})
            continue
        if kind == "hello":
            say({"type": "id", "protocol": PROTOCOL, "version": VERSION, "name": f"binocle {label}",
                 "author": "binocle", "options": options})  # fmt: skip
        elif kind == "option":
            settings[str(msg.get("name"))] = msg.get("value")
        elif kind == "isready":
            say({"type": "readyok"})
        elif kind == "game":
            seed = msg.get("seed") if isinstance(msg.get("seed"), int) else None
            player = None
        elif kind == "go":
            try:
                if player is None:
                    player = _make(bot, seed, settings)
                view = view_from_json(msg["view"], msg["legal"])
                action = player.choose(view)
                ids = {e["text"]: e["id"] for e in msg["legal"]}
                say({"type": "action", "action": str(action), "id": ids.get(str(action))})
            except (BinocleError, KeyError, TypeError) as exc:
                say({"type": "error", "message": str(exc)})
        elif kind == "game_over":
            player = None
        elif kind == "quit":
            break
    return 0


def _make(bot: BotSpec, seed: int | None, settings: Mapping[str, Any]) -> Any:
    if settings and isinstance(bot, str):
        args = ", ".join(f"{k}={v!r}" for k, v in settings.items())
        return resolve_bot(f"{bot}({args})", seed)
    return resolve_bot(bot, seed, fresh=True)
