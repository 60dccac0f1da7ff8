"""``binocle serve``: the reference web front end (needs the ``web`` extra)."""

from __future__ import annotations

import argparse

from binocle.cli._common import Subparsers, add_command, fail

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle serve``."""
    s = add_command(sub, "serve", "play against bots in a web browser (pip install 'binocle[web]')")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on")
    s.add_argument("--port", type=int, default=8000, help="port to listen on")
    s.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve the front end until interrupted."""
    if not 0 <= args.port <= 65535:
        return fail("serve", f"a port is 0..65535, not {args.port}")
    try:
        from binocle.web import serve
    except ImportError as exc:
        return fail(
            "serve", f"the web front end needs its extra: pip install 'binocle[web]' ({exc})"
        )
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"binocle: serving on http://{host}:{args.port}/ (Ctrl-C to stop)", flush=True)
    serve(args.host, args.port)
    return 0
