"""The front end's messages answered with no server: one person against bots, in the browser.

The static site (:mod:`binocle.web.site`, ``binocle site``) runs this module in
Pyodide inside a Web Worker.  A :class:`LocalHub` reads the messages the page
would send ``binocle serve`` over its websocket and answers them as the server
answers a one-person table against bots, with the same functions
(:mod:`binocle.web.protocol`): ``new``, ``join`` (the table kept in the
browser's storage), ``action``, ``knock``, ``deal``, ``record``, ``replay`` and
``ping``.  The bots move one step at a time (:meth:`LocalHub.step`): the worker
waits the table's ``bot_delay`` between steps, as the server does.  Tables for
several people (``table``, ``sit``, ``start``, ``lobby``) need a server and are
refused.

Every message in and out is JSON text, as on the websocket.  :meth:`LocalHub.saved`
is the table as :func:`~binocle.web.protocol.table_doc` writes it, to keep in the
browser's storage after every step and give back to a new hub after a reload.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from binocle._json import DuplicateKeyError, parse_json
from binocle.bots import BotSpec
from binocle.core import Phase
from binocle.errors import BinocleError
from binocle.web.protocol import (
    BOT_NAMES,
    MessageError,
    Table,
    bot_action,
    bot_knocks,
    handle_action,
    handle_deal,
    handle_knock,
    new_table,
    record_message,
    replay_message,
    state_message,
    table_doc,
    table_from_doc,
)

__all__ = ["MAX_MESSAGE", "LocalHub"]

#: Longest message read, in characters (as the server's limit).
MAX_MESSAGE: Final = 1_048_576
#: The answer to a message that needs a server.
NEEDS_SERVER: Final = (
    "tables for several people need a server (binocle serve): this page plays one person"
    " against bots"
)


def _text(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def _error(text: str) -> str:
    return _text({"type": "error", "message": text[:500]})


class LocalHub:
    """One person's game against bots, answered here rather than by a server.

    ``saved``: the text :meth:`saved` returned before (the game to take back), or
    None; a text that cannot be read back is ignored (a fresh start).  ``offer``: the
    bots a ``new`` message may choose among (by label),
    :data:`~binocle.web.protocol.BOT_NAMES` by default; ``bot_delay``: seconds between
    bot moves when the page asks for none.
    """

    def __init__(
        self,
        saved: str | None = None,
        offer: Sequence[BotSpec] = BOT_NAMES,
        bot_delay: float = 0.6,
    ) -> None:
        self.offer = tuple(offer)
        self.default_delay = bot_delay
        self.table: Table | None = None
        #: Whether a bot failed: the game then waits for a new one.
        self.stopped = False
        self._dirty = False
        if saved is not None:
            try:
                self.table = table_from_doc(parse_json(saved), self.offer)
            except (ValueError, TypeError, KeyError, AttributeError, BinocleError):
                self.table = None

    @property
    def delay(self) -> float:
        """Seconds to wait between two bot moves (the table's ``bot_delay``)."""
        return 0.0 if self.table is None else self.table.bot_delay

    def receive(self, raw: str) -> list[str]:
        """The answers (JSON texts, in order) to one client message (JSON text); a
        message that cannot be carried out gets an ``error`` answer and changes nothing."""
        try:
            return self._dispatch(raw)
        except (MessageError, BinocleError) as exc:
            return [_error(str(exc))]
        except Exception:  # a bug: the page says so, the game stays as it was
            return [_error("the game could not handle that")]

    def _dispatch(self, raw: str) -> list[str]:
        if not isinstance(raw, str):
            raise MessageError("every message is JSON text")
        if len(raw) > MAX_MESSAGE:
            raise MessageError(f"message too long: at most {MAX_MESSAGE} characters")
        try:
            msg = parse_json(raw)
        except DuplicateKeyError as exc:
            raise MessageError(f"ambiguous JSON: {exc}") from None
        except (ValueError, RecursionError):
            raise MessageError("not JSON: every message is a JSON object") from None
        if not isinstance(msg, dict):
            raise MessageError("every message is a JSON object with a 'type'")
        kind = msg.get("type")
        if kind == "ping":
            return [_text({"type": "pong"})]
        if kind == "new":
            made = new_table(msg, self.offer, self.default_delay)
            self.table, self.stopped, self._dirty = made, False, True
            return self._joined(made)
        if kind == "join":
            kept = self.table
            if kept is None or msg.get("game") != kept.id:
                raise MessageError("no such game (it may have ended long ago)")
            if msg.get("token") != kept.token:
                raise MessageError("wrong token for that game")
            return self._joined(kept)
        if kind == "replay":
            return [_text(replay_message(msg))]
        if kind in ("table", "sit", "start", "lobby"):
            raise MessageError(NEEDS_SERVER)
        if kind in ("action", "knock", "deal", "record"):
            table = self.table
            if table is None:
                raise MessageError("start a game ('new') first")
            if kind == "record":
                return [_text(record_message(table))]
            if kind == "action":
                handle_action(table, msg)
            elif kind == "knock":
                handle_knock(table)
            else:
                handle_deal(table)
            self._dirty = True
            return [_text(state_message(table))]
        shown = kind if isinstance(kind, str) else type(kind).__name__
        raise MessageError(
            f"unknown message type {shown[:40]!a} (known here: new, join, action, knock, deal,"
            " record, replay, ping)"
        )

    @staticmethod
    def _joined(table: Table) -> list[str]:
        joined = {"type": "joined", "game": table.id, "token": table.token, "seat": table.seat,
                  "names": list(table.names), "started": table.started}  # fmt: skip
        return [_text(joined), _text(state_message(table))]

    def step(self) -> list[str]:
        """One bot move (a knock by a bot that wants one, else the bot to act, or a deal
        in a bot-only game) and the ``state`` it gives; empty when the table waits for
        the person, is over, or has none."""
        table = self.table
        if table is None or self.stopped:
            return []
        try:
            knock = bot_knocks(table)
            if knock is not None:
                table.apply(knock)
            else:
                nxt = table.bot_to_act()
                if nxt is None:
                    return []
                table.apply(bot_action(table.state, *nxt))
        except Exception:  # a bug in a bot: say so and stop the bots, as the server does
            self.stopped = True
            return [_error("a bot failed: the game is stopped")]
        self._dirty = True
        return [_text(state_message(table))]

    def saved(self) -> str | None:
        """The table as JSON text (:func:`~binocle.web.protocol.table_doc`) when it changed
        since the last call, else None."""
        if not self._dirty or self.table is None:
            return None
        self._dirty = False
        return _text(table_doc(self.table))

    def summary(self) -> dict[str, Any] | None:
        """The table's game id, token and whether it is over (None with no table): what
        the page keeps beside the saved game, to join it again."""
        table = self.table
        if table is None:
            return None
        return {"game": table.id, "token": table.token,
                "over": table.state.phase is Phase.OVER}  # fmt: skip
