"""``binocle site DIR``: the game as a static site, the engine in the browser (Pyodide)."""

from __future__ import annotations

import argparse

from binocle.cli._common import Subparsers, add_command, fail
from binocle.errors import BinocleError

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle site``."""
    s = add_command(
        sub, "site", "write the game as a static site: the web page with the engine in the browser"
    )
    s.add_argument("directory", metavar="DIR", help="where to write the site (made if missing)")
    s.add_argument(
        "--pyodide",
        default=None,
        metavar="PATH",
        help="a Pyodide npm tarball (pyodide-VERSION.tgz) or a directory holding its files"
        " (default: the tarball of Pyodide 314.0.7 kept in $BINOCLE_PYODIDE_CACHE, else"
        " ~/.cache/binocle/pyodide, downloaded there with npm pack when missing)",
    )
    s.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the site and say how to serve it."""
    from binocle.web.site import build_site

    try:
        files = build_site(args.directory, pyodide=args.pyodide)
    except BinocleError as exc:
        return fail("site", str(exc))
    print(f"binocle: wrote {len(files)} files to {args.directory}")
    print(f"serve it with:  python -m http.server -b 127.0.0.1 -d {args.directory} 8000")
    print("then open http://127.0.0.1:8000/ (or copy the directory to any static host)")
    return 0
