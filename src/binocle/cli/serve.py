"""``binocle serve``: the reference web front end (needs the ``web`` extra)."""

from __future__ import annotations

import argparse

from binocle.cli._common import Subparsers, add_command, bot_help, fail, search_here, split_bots

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Register ``binocle serve``."""
    s = add_command(sub, "serve", "play against bots in a web browser (pip install 'binocle[web]')")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on")
    s.add_argument("--port", type=int, default=8000, help="port to listen on")
    s.add_argument(
        "--bots",
        default=None,
        metavar="B,...",
        help="the bots players may choose from, separated by commas (default: random,"
        " baseline, ismcts); " + bot_help(),
    )
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
    bots = None
    if args.bots is not None:
        search_here()
        bots = [b for b in split_bots(args.bots) if b]
        from binocle.web import create_app

        create_app(bots=bots)  # a bad bot fails here, before the server starts
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"binocle: serving on http://{host}:{args.port}/ (Ctrl-C to stop)", flush=True)
    serve(args.host, args.port, bots=bots)
    return 0
