"""Where the web front end keeps its tables: a small interface and its SQLite default.

The server writes a table to its store after every action, so that a restart
loses nothing, and reads every table back when it starts.  A table reaches the
store as a :class:`StoredTable`: its id, whether its game is over, when it last
changed, and ``doc``, the JSON text of the table (who sits where, the seats'
tokens and the game as :func:`binocle.dumps` writes it; never a pickle).

:class:`TableStore` is all a store must do; :class:`SQLiteStore` (the standard
library's :mod:`sqlite3`, in a file or ``":memory:"``) is the default, and
:class:`MemoryStore` keeps nothing across a restart.  Another database goes
behind the same four methods: one row per table, keyed by id, holding the text.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol, runtime_checkable

__all__ = ["MemoryStore", "SQLiteStore", "StoredTable", "TableStore", "default_db_path"]

#: The file name of the default database, in the user's data directory.
DB_NAME: Final = "web.sqlite3"


@dataclass(frozen=True)
class StoredTable:
    """One table as a store keeps it."""

    #: The table's id (URL-safe text, at most 64 characters).
    id: str
    #: The table as JSON text (:func:`binocle.web.protocol.table_doc`).
    doc: str
    #: Whether its game is over (finished tables are dropped first).
    finished: bool
    #: When it last changed, in seconds since the epoch.
    updated: float


@runtime_checkable
class TableStore(Protocol):
    """What the server needs of a database: save, load every table, delete, close.

    ``save`` replaces the row of ``table.id`` (or adds it) and must be durable when it
    returns; ``load`` yields every table saved and not deleted, in any order.  The
    server calls these from its event loop, one at a time."""

    def save(self, table: StoredTable) -> None:
        """Write ``table``, replacing what was kept under its id."""

    def load(self) -> Iterator[StoredTable]:
        """Every table kept."""

    def delete(self, table_id: str) -> None:
        """Forget the table ``table_id`` (nothing happens if it is not kept)."""

    def close(self) -> None:
        """Release the database; the store is not used after this."""


class MemoryStore:
    """A store that keeps tables in a dict: nothing survives the process."""

    def __init__(self) -> None:
        self.tables: dict[str, StoredTable] = {}

    def save(self, table: StoredTable) -> None:
        """Keep ``table``."""
        self.tables[table.id] = table

    def load(self) -> Iterator[StoredTable]:
        """Every table kept."""
        return iter(list(self.tables.values()))

    def delete(self, table_id: str) -> None:
        """Forget a table."""
        self.tables.pop(table_id, None)

    def close(self) -> None:
        """Nothing to release."""


_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    finished INTEGER NOT NULL,
    updated REAL NOT NULL
)
"""


class SQLiteStore:
    """Tables in an SQLite database through :mod:`sqlite3`: ``path`` a file (made with
    its directory if missing) or ``":memory:"``.  Write-ahead logging; each ``save`` is
    one committed transaction."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            self.path = str(Path(self.path).expanduser())
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)

    def save(self, table: StoredTable) -> None:
        """Write ``table`` in one transaction."""
        with self._lock:
            self._db.execute(
                "INSERT INTO tables (id, doc, finished, updated) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(id) DO UPDATE SET doc = excluded.doc,"
                " finished = excluded.finished, updated = excluded.updated",
                (table.id, table.doc, int(table.finished), table.updated),
            )

    def load(self) -> Iterator[StoredTable]:
        """Every table kept, oldest change first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, doc, finished, updated FROM tables ORDER BY updated"
            ).fetchall()
        for id_, doc, finished, updated in rows:
            yield StoredTable(str(id_), str(doc), bool(finished), float(updated))

    def delete(self, table_id: str) -> None:
        """Forget a table."""
        with self._lock:
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


def default_db_path() -> Path:
    """Where ``binocle serve`` keeps its tables unless told (``--db``):
    ``$XDG_DATA_HOME/binocle/web.sqlite3``, by default under ``~/.local/share``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "binocle" / DB_NAME
