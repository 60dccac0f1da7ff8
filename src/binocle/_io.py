"""Files binocle writes, written whole or not at all.

Every file is first written to a temporary file in the directory it goes to,
flushed to the disk (``fsync``), then moved over the file's name in one step
(:func:`os.replace`).  A write that fails (a full disk, a file size limit, no
permission) leaves the earlier file whole and no temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile

__all__ = ["write_text_atomic", "write_text_new"]


def _written(directory: str, name: str, text: str) -> str:
    """A temporary file in ``directory`` holding ``text``, flushed to the disk: its path.

    If anything fails, the temporary file is removed and the error raised.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _sync_directory(directory: str) -> None:
    """Flush a directory's entries to the disk, where the system allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, replacing the file in one step.

    Raises :class:`OSError` when it cannot be written; the earlier file at
    ``path`` (if any) is then left as it was, and no temporary file remains.
    """
    target = os.fspath(path)
    directory, name = os.path.split(os.path.abspath(target))
    tmp = _written(directory, name, text)
    try:
        if os.name == "posix" and os.path.exists(target):
            # Keep the permissions of the file replaced.
            with contextlib.suppress(OSError):
                os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        elif os.name == "posix":
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_directory(directory)


def write_text_new(directory: str, prefix: str, suffix: str, text: str) -> str:
    """Write ``text`` to a new file ``<prefix><random><suffix>`` in ``directory``, whole
    or not at all (no existing file is replaced); returns its path.

    Raises :class:`OSError` when it cannot be written, leaving no file behind.
    """
    for _ in range(100):
        target = os.path.join(directory, f"{prefix}{secrets.token_hex(4)}{suffix}")
        if os.path.lexists(target):
            continue
        tmp = _written(directory, os.path.basename(target), text)
        try:
            link = getattr(os, "link", None)
            if link is None:  # no hard links on this system (Pyodide, WASI)
                raise OSError("os.link is not available")
            link(tmp, target)  # fails if the name was taken meanwhile
        except FileExistsError:
            continue
        except OSError:
            # A file system without hard links: the name was free a moment ago.
            if os.path.lexists(target):
                continue
            os.replace(tmp, target)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        _sync_directory(directory)
        return target
    raise FileExistsError(f"no free file name {prefix}…{suffix} in {directory}")
