"""Small Sphinx helpers for the binocle docs.

- ``.. binocle-cli:: [COMMAND]`` prints the real ``--help`` of the ``binocle``
  command, or of one of its subcommands, so the page always shows this build's
  help; a command that does not exist fails the build.
- ``.. binocle-action-table:: PROFILE`` prints the profile's action ids as ranges
  with what they mean, from :mod:`binocle.encoding` itself.
- ``.. binocle-tensor-layout:: PROFILE`` prints the parts of the
  information-state, observation and perfect-recall tensors, with their
  offsets, shapes and what each holds.
- ``.. binocle-picture:: [CAPTION]`` draws a picture with :mod:`binocle.svg` while the
  docs are built: its content is Python (``binocle``, ``Card``, ``Suit``, ``parse_cards``
  and the functions of :mod:`binocle.svg` are at hand) whose last line is an expression
  giving the SVG text (or a tuple of them, shown side by side), which the HTML page
  carries inline.  An error fails the build.
- A reference by the name a reader uses finds the entry where the object is
  documented: ``binocle.IllegalActionError`` is :class:`binocle.errors.IllegalActionError`,
  ``RuleCode.WRONG_VALUE`` in a module that imports ``RuleCode`` is the member of
  :class:`binocle.errors.RuleCode`, ``undo`` in :mod:`binocle.timeline` is
  :func:`binocle.undo`.  A name that is documented nowhere stays unresolved, and
  ``sphinx -n`` reports it.
- The docstrings of attributes and constants are prose, their types given by their
  annotations: napoleon is kept from reading the words before a first colon
  ("The game is over: no action is possible.") as the attribute's type.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import os
import sys
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


#: What each part of a tensor holds, by part name (a hand's parts by the name after the dot).
_PART_MEANING = {
    "seat": "the seat the tensor is for, one-hot",
    "to_act": "the seat to act, one-hot (zeros when nobody acts)",
    "dealer": "the dealer, one-hot",
    "phase": "the phase, one-hot in the order of binocle.Phase",
    "trump": "trump, one-hot by suit (S H D C); zeros before it is known",
    "hand": "the seat's cards, a count (0-2) per card kind",
    "hand_sizes": "how many cards each seat holds",
    "trick": "the trick so far, a row per card played: the seat one-hot, then the card one-hot",
    "scores": "each seat's game score (points)",
    "played": "the cards each seat played this hand, a row of counts per seat",
    "gone": "the cards played this hand, counts",
    "bids": "the bidding: a row per bid level, 1 in the column of the seat that bid it",
    "passed": "1 for each seat that passed",
    "bidder": "the bidder, one-hot",
    "bid": "the winning bid (points)",
    "widow": "the widow once shown, counts",
    "discards": "the seat's own discards, counts",
    "discard_count": "how many cards the bidder discarded",
    "meld_points": "each seat's meld points this hand",
    "melds": "the cards of each seat's meld shown, a row of counts per seat",
    "turn_up": "the turned-up card, one-hot",
    "stock_size": "cards left in the stock",
    "concealed": "the seat's concealed cards (not on the table), counts",
    "tables": "each seat's cards on the table, a row of counts per seat",
    "taken": "each seat's card points taken this hand",
    "dixes": "how many dixes were declared",
    "targets": "each seat's target",
    "table_melds": "the combinations on each seat's table by kind: intact, broken (counts)",
    "exchanged": "1 once the turn-up was exchanged for the dix",
    "dix_shown": "how many dixes each seat showed",
    "announced": "each seat's announced meld points",
    "scored": "1 for each seat whose melds were scored",
    "recorded": "each seat's recorded points",
    "retired": "the seat that retired, one-hot",
    "overlooked": "the seat whose overlooked meld is offered, one-hot, then its points",
    "steps": "how many steps (decisions and chance outcomes) the episode has taken",
    "hand.steps": (
        "every decision of the hand in order, a row each: the seat that took it one-hot,"
        " 1 (a step), 1 if its id is hidden from this seat (another seat's face-down"
        " discard), then the id in binary, highest bit first; rows after the last zero"
    ),
    "hand.seen": "the cards this seat saw of the deal: a row per place in the deal, one-hot",
    "hand.melds": "the cards of each seat's meld shown in the hand, a row of counts per seat",
    "hand.result": "once the hand is over: meld points, trick points, score change, by seat",
}


def _meaning(name: str) -> str:
    if name.startswith("hand") and "." in name:
        return _PART_MEANING["hand." + name.partition(".")[2]]
    return _PART_MEANING[name]


class TensorLayoutTable(SphinxDirective):
    """The parts of a profile's tensors: the view's information-state and observation
    tensors, and the perfect-recall tensor of a one-hand episode (each further hand
    repeats the ``hand0`` parts)."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from binocle import encoding

        out: list[nodes.Node] = []
        for kind in ("information_state", "observation", "perfect_recall"):
            layout = encoding.tensor_layout(self.arguments[0], kind)
            rows = [
                (name, str(start), " x ".join(map(str, shape)), _meaning(name))
                for name, (start, shape) in layout.offsets().items()
            ]
            title = kind.replace("_", " ")
            if kind == "perfect_recall":
                two = encoding.tensor_layout(self.arguments[0], kind, hands=2)
                rows = rows[-(len(two.parts) - len(layout.parts)) - 1 :]
                text = (
                    f"perfect recall tensor: {layout.size} floats for one hand, each further"
                    f" hand {two.size - layout.size} more; the information state tensor's"
                    " parts first, then:"
                )
            else:
                text = f"{title} tensor: {layout.size} floats"
            out.append(nodes.paragraph(text=text))
            out.append(_table(("part", "offset", "shape", "what"), rows, (14, 7, 9, 50)))
        return out


def _lookup(name: str) -> object | None:
    """The object a dotted name stands for: the longest importable module, then attributes."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except Exception:  # not a module, or an optional part's module that cannot load
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _documented_names(obj: object) -> list[str]:
    """The names under which ``obj`` may have its reference entry."""
    import binocle

    names: list[str] = []
    if isinstance(obj, enum.Enum):
        cls = type(obj)
        names.append(f"{cls.__module__}.{cls.__qualname__}.{obj.name}")
        return names
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        names.append(f"{module}.{qualname}")
        head = qualname.partition(".")[0]
        home = sys.modules.get(module)
        if home is not None and getattr(binocle, head, None) is getattr(home, head, None):
            names.append(f"binocle.{qualname}")
    return names


def _holders(obj: object, name: str) -> list[str]:
    """For a value with no name of its own (a constant): each loaded binocle module that
    holds it under the name's last part."""
    if hasattr(obj, "__qualname__"):
        return []
    last = name.rpartition(".")[2]
    return [
        f"{loaded}.{last}"
        for loaded in sorted(m for m in sys.modules if m.startswith("binocle"))
        if getattr(sys.modules[loaded], last, None) is obj
    ]


def _resolve_by_object(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    """``missing-reference``: find a Python reference's entry by the object it names."""
    if node.get("refdomain") != "py":
        return None
    target: str = node["reftarget"]
    module = node.get("py:module")
    klass = node.get("py:class")
    tried = [target]
    if module and klass:
        tried.append(f"{module}.{klass}.{target}")
    if module:
        tried.append(f"{module}.{target}")
    tried.append(f"binocle.{target}")
    # A name written short (``Classic.meld``) is looked for in every loaded binocle module.
    head = target.partition(".")[0]
    for loaded in sorted(m for m in sys.modules if m.startswith("binocle.")):
        if hasattr(sys.modules[loaded], head):
            tried.append(f"{loaded}.{target}")
    domain = env.get_domain("py")
    for name in tried:
        obj = _lookup(name)
        if obj is None:
            continue
        for documented in [name, *_documented_names(obj), *_holders(obj, name)]:
            if documented == target:
                continue
            for kind in (node["reftype"], "obj"):
                found = domain.resolve_xref(
                    env, node["refdoc"], app.builder, kind, documented, node, contnode
                )
                if found is not None:
                    return found
    return None


def _prose_attribute_docstring(self: Any) -> list[str]:
    """An attribute's docstring as written (napoleon's own reading takes ``X: text`` as a
    type ``X``)."""
    lines: list[str] = self._consume_to_end()
    return lines


class Picture(SphinxDirective):
    """An SVG picture made by binocle.svg from the directive's Python content."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        import ast

        import binocle
        import binocle.svg

        namespace: dict[str, Any] = {"binocle": binocle}
        namespace.update({n: getattr(binocle, n) for n in ("Card", "Suit", "parse_cards")})
        namespace.update({n: getattr(binocle.svg, n) for n in binocle.svg.__all__})
        source = "\n".join(self.content)
        tree = ast.parse(source)
        if not tree.body or not isinstance(tree.body[-1], ast.Expr):
            raise self.error("binocle-picture: the last line must be an expression giving SVG")
        last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, self.get_source_info()[0], "exec"), namespace)
        svg = eval(compile(last, self.get_source_info()[0], "eval"), namespace)
        svgs = svg if isinstance(svg, tuple) else (svg,)
        if not svgs or not all(isinstance(s, str) and s.startswith("<svg") for s in svgs):
            raise self.error("binocle-picture: the expression did not give SVG text")
        caption = self.arguments[0] if self.arguments else ""
        html = '<figure class="binocle-picture" style="overflow-x: auto">' + " ".join(svgs)
        if caption:
            html += f"<figcaption>{binocle.svg._escape(caption)}</figcaption>"
        return [nodes.raw("", html + "</figure>", format="html")]


def setup(app: Sphinx) -> dict[str, Any]:
    from sphinx.ext.napoleon.docstring import GoogleDocstring

    GoogleDocstring._parse_attribute_docstring = _prose_attribute_docstring  # type: ignore[method-assign]
    app.connect("missing-reference", _resolve_by_object)
    app.add_directive("binocle-cli", CliHelp)
    app.add_directive("binocle-action-table", ActionTable)
    app.add_directive("binocle-tensor-layout", TensorLayoutTable)
    app.add_directive("binocle-picture", Picture)
    return {"version": "3", "parallel_read_safe": True, "parallel_write_safe": True}
