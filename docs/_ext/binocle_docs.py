"""Small Sphinx helpers for the binocle docs.

- ``.. binocle-cli:: [COMMAND]`` prints the real ``--help`` of the ``binocle``
  command, or of one of its subcommands, so the page always shows this build's
  help; a command that does not exist fails the build.
- ``.. binocle-action-table:: PROFILE`` prints the profile's action ids as ranges
  with what they mean, from :mod:`binocle.encoding` itself.
- ``.. binocle-tensor-layout:: PROFILE`` prints the parts of the
  information-state and observation tensors, with their offsets and shapes.
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


def _table(
    header: tuple[str, ...], rows: list[tuple[str, ...]], widths: tuple[int, ...]
) -> nodes.table:
    """A docutils table with a header row and relative column widths."""
    table = nodes.table()
    group = nodes.tgroup(cols=len(header))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)

    def row(cells: tuple[str, ...]) -> nodes.row:
        r = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += nodes.paragraph(text=cell)
            r += entry
        return r

    head = nodes.thead()
    head += row(header)
    body = nodes.tbody()
    for cells in rows:
        body += row(cells)
    group += head
    group += body
    return table


def _family(label: str) -> str:
    """The group an action label belongs to in the summary table."""
    words = label.split()
    if words[0] in ("bid", "discard", "trump"):
        return words[0]
    if words[0] == "play":
        return "play table" if len(words) > 2 else "play"
    if words[0] == "meld" and len(words) > 1:
        return "meld combination"
    return label


class ActionTable(SphinxDirective):
    """The action ids of a profile, as ranges."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from binocle import encoding

        space = encoding.action_space(self.arguments[0])
        labels = space.labels
        rows: list[tuple[str, ...]] = []
        i = 0
        while i < len(labels):
            fam = _family(labels[i])
            j = i
            if fam == "meld combination":
                # One combination: every way its cards can come from the hand or the table.
                head = labels[i].split(" + ")[0]
                while j + 1 < len(labels) and _family(labels[j + 1]) == fam:
                    nxt = labels[j + 1]
                    if "+" not in nxt and not nxt.startswith(head):
                        break
                    j += 1
                what = f"{head}, then each split of its cards between hand and table, to"
                rows.append((f"{i}-{j}", f"{what} {labels[j]}", str(j - i + 1)))
            else:
                while j + 1 < len(labels) and _family(labels[j + 1]) == fam and fam != labels[i]:
                    j += 1
                ids = str(i) if i == j else f"{i}-{j}"
                what = labels[i] if i == j else f"{labels[i]}, {labels[i + 1]}, ... {labels[j]}"
                rows.append((ids, what, str(j - i + 1)))
            i = j + 1
        return [_table(("ids", "actions", "count"), rows, (11, 70, 6))]


class TensorLayoutTable(SphinxDirective):
    """The parts of a profile's two tensors."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from binocle import encoding

        out: list[nodes.Node] = []
        for kind in ("information_state", "observation"):
            layout = encoding.tensor_layout(self.arguments[0], kind)
            rows = [
                (name, str(start), " x ".join(map(str, shape)))
                for name, (start, shape) in layout.offsets().items()
            ]
            title = kind.replace("_", " ")
            out.append(nodes.paragraph(text=f"{title} tensor: {layout.size} floats"))
            out.append(_table(("part", "offset", "shape"), rows, (16, 8, 10)))
        return out


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("binocle-cli", CliHelp)
    app.add_directive("binocle-action-table", ActionTable)
    app.add_directive("binocle-tensor-layout", TensorLayoutTable)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
