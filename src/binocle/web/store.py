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
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol, runtime_checkable

from binocle.errors import BinocleError

__all__ = [
    "MemoryStore",
    "SQLiteStore",
    "StoreError",
    "StoredTable",
    "TableStore",
    "default_db_path",
]

#: The file name of the default database, in the user's data directory.
DB_NAME: Final = "web.sqlite3"


class StoreError(BinocleError):
    """A store that cannot be used: in use by another server, read-only, not a
    database, damaged or cut short.  Its text names the file and what is wrong."""


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
    one committed transaction.

    One server writes a file at a time: the store holds a lock on ``path + ".lock"``
    (``flock``, released by the system when the process ends, however it ends) and a
    second store on the same file raises :class:`StoreError`.  So does a file that is
    read-only, not an SQLite database, damaged, or cut short (the database or its
    write-ahead log), naming the file and what is wrong: the server does not start on
    a store it would lose moves to."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._held: int | None = None
        if self.path != ":memory:":
            self.path = str(Path(self.path).expanduser())
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot make its directory ({exc})") from None
            self._held = _hold_lock(self.path)
            try:
                _check_files(self.path)
            except StoreError:
                self._release()
                raise
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            (check,) = self._db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise sqlite3.DatabaseError(f"damaged ({str(check)[:200]})")
            self._db.execute(_SCHEMA)
            self._db.execute("BEGIN IMMEDIATE")  # may this process write here?
            self._db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self._release()
            raise StoreError(
                f"{self.path}: cannot be used as the tables' database ({exc})"
            ) from None

    def _release(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()
        if self._held is not None:
            os.close(self._held)  # the lock goes with the descriptor
            self._held = None

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
        """Close the database and let another server have it."""
        with self._lock:
            self._release()


def _hold_lock(path: str) -> int | None:
    """Lock ``path + ".lock"`` for this process (None where ``flock`` is missing); raise
    StoreError if another process holds it."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no lock
        return None
    lock = path + ".lock"
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StoreError(f"{path}: cannot open its lock file {lock} ({exc})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        finally:
            os.close(fd)
        who = f" (process {holder})" if holder.isdigit() else ""
        raise StoreError(
            f"{path} is in use by another binocle serve{who}: one server per database"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


#: The first bytes of every SQLite database file.
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"


def _check_files(path: str) -> None:
    """Refuse (StoreError) a database file that this process may not write, that is not
    an SQLite database, or that is shorter than its header says, and a write-ahead log
    that is not a whole number of frames."""
    db = Path(path)
    if not db.exists():
        if not os.access(db.parent, os.W_OK):
            raise StoreError(f"{path}: its directory {db.parent} is read-only")
        return
    if not os.access(db, os.W_OK) or not os.access(db.parent, os.W_OK):
        raise StoreError(f"{path} is read-only: the server would keep no move (make it writable)")
    size = db.stat().st_size
    if size:
        with db.open("rb") as f:
            head = f.read(100)
        if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
            raise StoreError(f"{path} is not an SQLite database (or its header is damaged)")
        (page,) = struct.unpack(">H", head[16:18])
        page = 65536 if page == 1 else page
        (pages,) = struct.unpack(">I", head[28:32])
        counter, valid = head[24:28], head[92:96]
        if page < 512 or page & (page - 1) or size % page:
            raise StoreError(f"{path} is cut short or damaged ({size} bytes, pages of {page})")
        if counter == valid and pages and size < pages * page:
            raise StoreError(
                f"{path} is cut short: {size} bytes where its header says {pages * page}"
            )
    wal = Path(path + "-wal")
    if wal.exists() and wal.stat().st_size:
        size = wal.stat().st_size
        with wal.open("rb") as f:
            head = f.read(32)
        magic = struct.unpack(">I", head[:4])[0] if len(head) >= 4 else 0
        page = struct.unpack(">I", head[8:12])[0] if len(head) >= 12 else 0
        if size < 32 or magic not in (0x377F0682, 0x377F0683) or page < 512:
            raise StoreError(f"{wal} (the database's write-ahead log) is damaged")
        if (size - 32) % (page + 24):
            raise StoreError(
                f"{wal} (the database's write-ahead log) is cut short: {size} bytes is not"
                " a whole number of frames"
            )


def default_db_path() -> Path:
    """Where ``binocle serve`` keeps its tables unless told (``--db``):
    ``$XDG_DATA_HOME/binocle/web.sqlite3``, by default under ``~/.local/share``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "binocle" / DB_NAME
