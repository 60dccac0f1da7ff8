"""Small Sphinx helpers for the binocle docs.

- ``.. binocle-cli:: [COMMAND]`` prints the real ``--help`` of the ``binocle``
  command, or of one of its subcommands, so the page always shows this build's
  help; a command that does not exist fails the build.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def _cli_parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    from binocle.cli import build_parser

    parser = build_parser()
    subs: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            subs.update(action.choices)
    return parser, subs


class CliHelp(SphinxDirective):
    """The ``--help`` text of ``binocle`` or of ``binocle COMMAND``."""

    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        old = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = "88"
        try:
            parser, subs = _cli_parsers()
            if not self.arguments:
                text = parser.format_help()
                command = "binocle"
            else:
                command = f"binocle {self.arguments[0]}"
                sub = subs.get(self.arguments[0])
                if sub is None:
                    raise self.error(f"{command}: no such command (known: {', '.join(subs)})")
                text = sub.format_help()
        finally:
            if old is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = old
        block = nodes.literal_block(f"$ {command} --help\n{text}", f"$ {command} --help\n{text}")
        block["language"] = "text"
        return [block]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("binocle-cli", CliHelp)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
