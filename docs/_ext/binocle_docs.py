"""Small Sphinx helpers for the binocle docs.

- ``.. binocle-if:: NAME…`` keeps its content (autodoc directives, say) when
  every name is an importable module or an attribute of one, and otherwise says
  that it lands later: the build passes while a part is being written, and
  documents it as soon as it exists.
- ``.. binocle-cli:: [COMMAND]`` prints the real ``--help`` of the ``binocle``
  command (or of one of its subcommands), or says that the command lands later.
- Every builder but ``doctest`` shows the examples of parts still being written
  (``DOCS_SHOW_ALL``); the doctest builder skips them until they land.
"""

from __future__ import annotations

import argparse
import importlib
import os
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def _note(text: str) -> nodes.Node:
    """A 'lands later' admonition holding one paragraph."""
    note = nodes.note()
    note += nodes.paragraph(text=text)
    return note


def _exists(name: str) -> bool:
    """Whether ``name`` is an importable module or an attribute of one."""
    try:
        importlib.import_module(name)
    except ImportError:
        pass
    else:
        return True
    module, _, attr = name.rpartition(".")
    if not module:
        return False
    try:
        return hasattr(importlib.import_module(module), attr)
    except ImportError:
        return False


class IfPresent(SphinxDirective):
    """Its content when every name given exists, else a note that it lands later."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {"lands-with": directives.unchanged}  # noqa: RUF012 - the docutils protocol

    def run(self) -> list[nodes.Node]:
        names = self.arguments[0].split()
        missing = [n for n in names if not _exists(n)]
        if missing:
            what = self.options.get("lands-with") or "a later change"
            return [_note(f"{', '.join(missing)}: not in this build yet; lands with {what}.")]
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, self.content, node, self.content_offset)
        return list(node.children)


def _cli_parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    from binocle.cli import build_parser

    parser = build_parser()
    subs: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            subs.update(action.choices)
    return parser, subs


class CliHelp(SphinxDirective):
    """The ``--help`` text of ``binocle`` or of ``binocle COMMAND``, or a note."""

    optional_arguments = 1
    option_spec = {"lands-with": directives.unchanged}  # noqa: RUF012 - the docutils protocol

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
                    what = self.options.get("lands-with") or "a later change"
                    return [_note(f"{command} is not in this build yet: it lands with {what}.")]
                text = sub.format_help()
        finally:
            if old is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = old
        block = nodes.literal_block(f"$ {command} --help\n{text}", f"$ {command} --help\n{text}")
        block["language"] = "text"
        return [block]


def _builder_inited(app: Sphinx) -> None:
    if app.builder.name != "doctest":
        app.config.doctest_global_setup = "DOCS_SHOW_ALL = True\n" + app.config.doctest_global_setup


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("binocle-if", IfPresent)
    app.add_directive("binocle-cli", CliHelp)
    app.connect("builder-inited", _builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
