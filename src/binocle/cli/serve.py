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
    s.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file tables are kept in, so a restart loses no game (default:"
        " $XDG_DATA_HOME/binocle/web.sqlite3, else ~/.local/share/binocle/web.sqlite3;"
        " ':memory:' keeps nothing)",
    )
    s.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="seconds between bot moves when the player asks for no pace (0..5)",
    )
    s.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a page (scheme://host[:port]) that may open the game socket besides the"
        " served host's own; repeat for more; '*' allows any (default: the served host only)",
    )
    s.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers besides localhost, any IP address and --host"
        " (the name in the page's address, as cards.example); repeat for more; '*' answers"
        " any (a page elsewhere could then reach this server by DNS rebinding)",
    )
    s.add_argument("--max-tables", type=int, default=1000, metavar="N", help="tables held at once")
    s.add_argument(
        "--tables-per-minute",
        type=int,
        default=20,
        metavar="N",
        help="new tables one address may make in a minute",
    )
    s.add_argument(
        "--connections-per-address",
        type=int,
        default=16,
        metavar="N",
        help="game sockets open at once from one address",
    )
    s.add_argument(
        "--bot-seconds",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="the time a bot has to choose a move; a bot that takes longer loses its seat to"
        " the baseline bot for the rest of the game (0: no limit)",
    )
    s.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time a client has to send a request's headers",
    )
    s.add_argument(
        "--proxy-headers",
        action="store_true",
        help="behind a TLS proxy on this machine: read the client's address from"
        " X-Forwarded-For (uvicorn's proxy headers, trusted from 127.0.0.1 only; default:"
        " the connection's address)",
    )
    s.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve the front end until interrupted."""
    if not 0 <= args.port <= 65535:
        return fail("serve", f"a port is 0..65535, not {args.port}")
    if not 0 <= args.bot_delay <= 5:
        return fail("serve", f"--bot-delay is 0..5 seconds, not {args.bot_delay}")
    for name in ("max_tables", "tables_per_minute", "connections_per_address"):
        if getattr(args, name) < 1:
            return fail("serve", f"--{name.replace('_', '-')} is at least 1")
    if not 0 <= args.bot_seconds <= 86400:
        return fail("serve", f"--bot-seconds is 0..86400 seconds, not {args.bot_seconds}")
    if not 0 < args.header_timeout <= 600:
        return fail("serve", f"--header-timeout is 0..600 seconds, not {args.header_timeout}")
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
    from binocle.web.store import SQLiteStore, StoreError, default_db_path

    try:
        store = SQLiteStore(default_db_path() if args.db is None else args.db)
    except StoreError as exc:
        return fail("serve", str(exc))
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"binocle: serving on http://{host}:{args.port}/ (Ctrl-C to stop)", flush=True)
    from binocle.web.app import Limits

    limits = Limits(
        max_tables=args.max_tables,
        tables_per_minute=args.tables_per_minute,
        connections_per_address=args.connections_per_address,
        bot_seconds=args.bot_seconds or None,
    )
    serve(
        args.host, args.port, bots=bots, db=args.db, bot_delay=args.bot_delay,
        allow_origins=args.allow_origin, limits=limits, header_timeout=args.header_timeout,
        proxy_headers=args.proxy_headers, allowed_hosts=args.allowed_host, store=store,
    )  # fmt: skip
    return 0
