"""Fuzz target ``cli_play_load``: ``binocle play --load FILE`` on a bent game record or
position (a state's or a view's).

The contract of the command line: the game is resumed (the person then leaves at his
first prompt: exit status 0), or the file is refused with one line on standard error
and exit status 2; never a traceback or an internal error.

Registered in ``fuzzlib.TARGETS`` by this module's ``TARGETS``.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import os
import random
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import binocle

if TYPE_CHECKING:
    import fuzzlib


def _lib() -> Any:
    """The fuzz library, looked up when first needed (it imports this module)."""
    return importlib.import_module("fuzzlib")


def _leave(prompt: str = "") -> str:
    raise EOFError


def check_cli_play_load(rng: random.Random, pool: fuzzlib.Pool, tally: fuzzlib.Tally) -> None:
    """``binocle play --load FILE --bots random`` on a bent record or position: exit
    status 0 or 2 and no traceback."""
    from binocle.cli import main

    lib = _lib()
    i, s = pool.pick(rng)
    r = rng.random()
    if r < 0.4:
        text, how = lib.mutate_doc(rng, binocle.record(s))
    else:
        text, how = lib.mutate_position(rng, lib._position_text(pool, i, s, r < 0.6))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write(text)
        name = f.name
    out, err = io.StringIO(), io.StringIO()
    os.environ["BINOCLE_TRACEBACK"] = "1"  # a bug raises instead of printing one line
    keep = builtins.input
    builtins.input = _leave
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            ok, code = lib.timed(
                tally,
                lambda: f"binocle play --load ({how}): {text[:200]}",
                lambda: main(["play", "--load", name, "--bots", "random", "--suits", "letters"]),
            )
    finally:
        builtins.input = keep
        os.unlink(name)
    if ok and code not in (0, 2):
        tally.note("wrong", f"exit status {code} ({how})")
    if "Traceback" in err.getvalue() or "internal error" in err.getvalue():
        tally.note("foreign", f"{err.getvalue()[:200]} ({how})")


#: This module's targets, added to ``fuzzlib.TARGETS``.
TARGETS: dict[str, tuple[Callable[[random.Random, Any, Any], None], float]] = {
    "cli_play_load": (check_cli_play_load, 1.0),
}
