"""Every file binocle writes is written whole or not at all: a write that fails (a
full disk, a file size limit) leaves the earlier file as it was and no fragment,
neither beside it nor in the current or temporary directory."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from binocle import _io
from binocle._io import write_text_atomic, write_text_new

EARLIER = '{"format": "binocle-record", "earlier": true}\n'


def test_write_replaces_the_file_whole(tmp_path: Path) -> None:
    """A successful write replaces the file's text, keeps its permissions and leaves
    nothing else in the directory."""
    path = tmp_path / "saved.json"
    path.write_text(EARLIER, encoding="utf-8")
    path.chmod(0o640)
    write_text_atomic(path, "new ♠ text\n")
    assert path.read_text(encoding="utf-8") == "new ♠ text\n"
    assert os.listdir(tmp_path) == ["saved.json"]
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o640


def test_a_failing_write_leaves_the_earlier_file_and_no_fragment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails midway (here: flushing to the disk) raises OSError, and the
    earlier file is whole with no temporary file beside it."""
    path = tmp_path / "saved.json"
    path.write_text(EARLIER, encoding="utf-8")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_io.os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_text_atomic(path, "x" * 100_000)
    with pytest.raises(OSError, match="No space left"):
        write_text_new(str(tmp_path), "binocle-game-1-", ".json", "x" * 100_000)
    assert path.read_text(encoding="utf-8") == EARLIER
    assert os.listdir(tmp_path) == ["saved.json"]


def test_write_new_needs_no_hard_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the system has no hard links (Pyodide and WASI have no ``os.link``), a new
    file is still written under a fresh name, the files there left as they were."""
    monkeypatch.delattr(_io.os, "link", raising=False)
    first = write_text_new(str(tmp_path), "binocle-game-7-", ".json", "one")
    second = write_text_new(str(tmp_path), "binocle-game-7-", ".json", "two")
    assert first != second
    assert Path(first).read_text(encoding="utf-8") == "one"
    assert Path(second).read_text(encoding="utf-8") == "two"
    assert sorted(os.listdir(tmp_path)) == sorted([Path(first).name, Path(second).name])


def test_write_new_never_replaces_a_file(tmp_path: Path) -> None:
    """A new file gets a fresh name; the files there stay as they were."""
    first = write_text_new(str(tmp_path), "binocle-game-7-", ".json", "one")
    second = write_text_new(str(tmp_path), "binocle-game-7-", ".json", "two")
    assert first != second
    assert Path(first).read_text(encoding="utf-8") == "one"
    assert Path(second).read_text(encoding="utf-8") == "two"
    assert sorted(os.listdir(tmp_path)) == sorted([Path(first).name, Path(second).name])


@pytest.mark.skipif(sys.platform == "win32", reason="file size limits are POSIX")
def test_play_save_past_a_file_size_limit_keeps_the_earlier_file(tmp_path: Path) -> None:
    """``binocle play --save saved.json`` on a disk that takes no more (a file size
    limit, SIGXFSZ ignored, so a write fails with EFBIG as on a full disk): the
    earlier saved.json is whole, and no fragment is left in its directory, in the
    current directory or in the temporary directory; the record is printed."""
    saves, cwd, tmp = tmp_path / "saves", tmp_path / "cwd", tmp_path / "tmp"
    for d in (saves, cwd, tmp):
        d.mkdir()
    path = saves / "saved.json"
    path.write_text(EARLIER, encoding="utf-8")
    code = textwrap.dedent(
        f"""
        import resource, signal, sys
        from binocle.cli.play import _save
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        sys.exit(_save("x" * 100_000, {str(path)!r}, 7))
        """
    )
    env = {**os.environ, "TMPDIR": str(tmp)}
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert run.returncode == 1, run.stderr
    assert "cannot write" in run.stderr
    assert "Nowhere to write the game record" in run.stdout
    assert path.read_text(encoding="utf-8") == EARLIER
    assert os.listdir(saves) == ["saved.json"]
    assert os.listdir(cwd) == [] and os.listdir(tmp) == []
