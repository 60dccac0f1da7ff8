"""The game as a static site: the web client, with the engine in the browser (``binocle site``).

:func:`build_site` writes a directory any static file server can serve: the page
of ``binocle serve`` (the same ``index.html``, ``app.js``, ``lobby.js`` and
``style.css``), whose messages go to a Web Worker rather than to a websocket.
The worker loads Pyodide (CPython compiled to WebAssembly), unpacks binocle and
its two dependencies (attrs, typing-extensions) from a zip of the files installed
here, and answers the page with :class:`binocle.web.local.LocalHub`: one person
against the library's bots.  The game is kept in the browser's storage after
every step and taken back after a reload; a service worker keeps every file of
the site, so once loaded it plays offline.

Pyodide comes from the npm registry when the site is built (``npm pack``), kept in
a cache directory (:func:`pyodide_cache`), or from a tarball or directory given to
:func:`build_site`; nothing is fetched from elsewhere when the page runs.

Serve the directory with any static server (``python -m http.server -d DIR``) or
copy it to a static host.  A service worker needs a secure page: ``https://``, or
``http://`` on ``localhost`` or ``127.0.0.1``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from binocle.errors import InvalidArgumentError
from binocle.web.protocol import MELD_VALUES, available_bots, profiles_catalogue

__all__ = ["PYODIDE_FILES", "PYODIDE_VERSION", "build_site", "fetch_pyodide", "pyodide_cache"]

#: The Pyodide release the site runs (its Python is 3.14), from the npm registry.
PYODIDE_VERSION: Final = "314.0.7"
#: The files of Pyodide's npm package the site needs (under ``pyodide/`` in the site).
PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The web client's files, shared with ``binocle serve`` (not ``lobby.js``: tables for
#: several people need the server).
CLIENT_FILES: Final = ("app.js", "style.css")
#: The site's own files: the page's transport, the worker and the service worker.
SITE_FILES: Final = ("site.js", "worker.js", "sw.js")
#: The distributions the engine zip holds besides binocle (its dependencies).
DEPENDENCIES: Final = ("attrs", "typing-extensions")

_HERE = Path(__file__).resolve().parent
_STATIC = _HERE / "static"
_SITE_STATIC = _HERE / "site_static"
_BINARY = (".so", ".pyd", ".dylib", ".dll", ".pyc")


def pyodide_cache() -> Path:
    """Where downloaded Pyodide tarballs are kept: ``$BINOCLE_PYODIDE_CACHE``, else
    ``$XDG_CACHE_HOME/binocle/pyodide``, else ``~/.cache/binocle/pyodide``."""
    given = os.environ.get("BINOCLE_PYODIDE_CACHE")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "binocle" / "pyodide"


def fetch_pyodide(cache: Path | None = None, version: str = PYODIDE_VERSION) -> Path:
    """The npm tarball of Pyodide ``version``: from ``cache`` (default :func:`pyodide_cache`)
    when it is there, else downloaded into it with ``npm pack``.  Raises
    InvalidArgumentError when npm is missing or fails."""
    if not re.fullmatch(r"[0-9][0-9A-Za-z.+-]{0,40}", version):
        raise InvalidArgumentError(f"not a Pyodide version: {version[:60]!r}")
    cache = pyodide_cache() if cache is None else Path(cache)
    tarball = cache / f"pyodide-{version}.tgz"
    if tarball.is_file():
        return tarball
    npm = shutil.which("npm")
    if npm is None:
        raise InvalidArgumentError(
            "npm is needed to download Pyodide from the npm registry (or give a tarball"
            " or directory with --pyodide)"
        )
    cache.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            [npm, "pack", f"pyodide@{version}", "--pack-destination", str(cache)],
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InvalidArgumentError(f"npm pack pyodide@{version} failed: {exc}") from None
    if done.returncode != 0 or not tarball.is_file():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise InvalidArgumentError(f"npm pack pyodide@{version} failed: {' '.join(tail)}")
    return tarball


def _pyodide_files(source: Path) -> Iterator[tuple[str, bytes]]:
    """The :data:`PYODIDE_FILES` of an npm tarball or of a directory holding them (or
    holding ``package/`` with them)."""
    if source.is_dir():
        root = source / "package" if (source / "package" / PYODIDE_FILES[0]).is_file() else source
        for name in PYODIDE_FILES:
            path = root / name
            if not path.is_file():
                raise InvalidArgumentError(f"{source} has no Pyodide file {name}")
            yield name, path.read_bytes()
        return
    if not source.is_file():
        raise InvalidArgumentError(f"no Pyodide tarball or directory at {source}")
    try:
        with tarfile.open(source, "r:*") as tar:
            members = {m.name.split("/", 1)[-1]: m for m in tar.getmembers() if m.isfile()}
            for name in PYODIDE_FILES:
                member = members.get(name)
                handle = None if member is None else tar.extractfile(member)
                if handle is None:
                    raise InvalidArgumentError(f"{source} has no Pyodide file {name}")
                yield name, handle.read()
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise InvalidArgumentError(f"{source} is not a readable Pyodide tarball: {exc}") from None


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise InvalidArgumentError(f"the package {module} is not installed here")
    return Path(next(iter(spec.submodule_search_locations)))


def _tree(package: Path, prefix: str) -> Iterator[tuple[str, Path]]:
    """Every file of a package directory but byte code and compiled extensions: a compiled
    module without its source cannot run in the browser."""
    compiled = []
    for path in sorted(package.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        if path.name.endswith(_BINARY):
            if not path.name.endswith(".pyc") and "__mypyc" not in path.name:
                compiled.append(path)  # a compiled module (not mypyc's shared runtime)
            continue
        yield f"{prefix}/{path.relative_to(package).as_posix()}", path
    for path in compiled:
        source = path.with_name(path.name.split(".", 1)[0] + ".py")
        if not source.is_file():
            raise InvalidArgumentError(
                f"{path.name} is compiled with no Python source beside it: the browser runs"
                " the pure build of binocle (pip install --no-binary binocle binocle)"
            )


def _dependency_files(name: str) -> Iterator[tuple[str, Path]]:
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        raise InvalidArgumentError(f"{name} is not installed here") from None
    for file in dist.files or ():
        parts = file.parts
        if not parts or parts[0].endswith((".dist-info", ".egg-info")) or parts[0] == "..":
            continue
        if "__pycache__" in parts or file.name.endswith(_BINARY):
            continue
        yield file.as_posix(), Path(str(file.locate()))


def engine_zip() -> bytes:
    """binocle (the package imported here) and its dependencies as one zip, for the
    worker to unpack onto Python's path."""
    buffer = io.BytesIO()
    files = [*_tree(_package_dir("binocle"), "binocle")]
    for dep in DEPENDENCIES:
        files.extend(_dependency_files(dep))
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, path in files:
            if name.startswith(("binocle/web/static/", "binocle/web/site_static/")):
                continue  # the page's own files: the site has them
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return buffer.getvalue()


def _index_html() -> str:
    """The server's page, its files named relative to the site (so it may live under any
    path), ``site.js`` (the worker transport) loaded first, and no lobby (tables for people need a server)."""
    page = (_STATIC / "index.html").read_text(encoding="utf-8")
    page = page.replace('"/static/', '"static/')
    page = re.sub(r'<script src="static/lobby\.js"></script>\n?', "", page)
    script = '<script src="site.js"></script>\n'
    match = re.search(r"<script[^>]*src=\"static/", page)
    if match is None:
        raise InvalidArgumentError("the web client's index.html loads no script")
    return page[: match.start()] + script + page[match.start() :]


def build_site(
    directory: str | os.PathLike[str], pyodide: str | os.PathLike[str] | None = None
) -> list[str]:
    """Write the static site into ``directory`` (made if missing; files of an earlier
    build are replaced) and return the paths written, relative to it.  ``pyodide``: an
    npm tarball of Pyodide or a directory holding its files; by default the tarball of
    :data:`PYODIDE_VERSION` from the cache, downloaded with npm when missing
    (:func:`fetch_pyodide`).  Raises InvalidArgumentError."""
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise InvalidArgumentError(f"{out} is not a directory")
    source = fetch_pyodide() if pyodide is None else Path(pyodide)
    files: dict[str, bytes] = {}
    for name, data in _pyodide_files(source):
        files[f"pyodide/{name}"] = data
    for name in CLIENT_FILES:
        files[f"static/{name}"] = (_STATIC / name).read_bytes()
    files["index.html"] = _index_html().encode("utf-8")
    catalogue = {"profiles": profiles_catalogue(), "bots": list(available_bots()),
                 "meld_values": MELD_VALUES}  # fmt: skip
    files["profiles.json"] = json.dumps(catalogue, indent=1).encode("utf-8")
    files["binocle-engine.zip"] = engine_zip()
    for name in SITE_FILES[:2]:
        files[name] = (_SITE_STATIC / name).read_bytes()
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name])
    cached = ["./", *sorted(files)]
    worker = (_SITE_STATIC / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("__VERSION__", digest.hexdigest()[:16])
    worker = worker.replace('"__FILES__"', json.dumps(cached))
    files["sw.js"] = worker.encode("utf-8")
    try:
        for name, data in files.items():
            path = out / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    except OSError as exc:
        raise InvalidArgumentError(f"cannot write the site into {out}: {exc}") from None
    return sorted(files)
