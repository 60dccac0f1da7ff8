"""Every Python example of the docs passes ``mypy --strict``, as the examples do.

The pages under ``docs/`` and the README are read as the doctest builder and
pytest run them: the ``>>>`` statements of each ``.. doctest::`` block (their
expected output dropped; a statement whose output is a traceback is kept, as a
call that raises still has to be a well-typed call), every ``.. testcode::``
block and every ``.. code-block:: python``, and in the README each fenced
``python`` block.  A page's blocks of one doctest group become one module, in
page order and after the builder's own setup (``import binocle``), so a name a
block defines is known to the blocks after it, as when the page runs; as in an
interactive session, a name may be bound again to a value of another type
(``--allow-redefinition``).  Blocks in another language (``console``,
``json``, ``toml``, ``text``, ``::`` literal blocks) are not Python and are left
out.  An error is reported at its line in the page.
"""

from __future__ import annotations

import doctest
import re
import textwrap
from pathlib import Path

import attrs
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = (*sorted((ROOT / "docs").rglob("*.rst")), ROOT / "README.md")
#: What the doctest builder runs before every group (docs/conf.py, doctest_global_setup).
SETUP = "import binocle"
_DIRECTIVE = re.compile(
    r"^(?P<indent> *)\.\. (?P<name>doctest|testcode|testsetup|code-block|code|sourcecode)::(?P<arg>.*)$"
)
_FENCE = re.compile(r"^```(?P<lang>\w*)\s*$")


@attrs.frozen
class Block:
    """One example: its page, the line of its first line there, its kind and its text."""

    page: Path
    line: int
    doctest: bool
    group: str
    text: str


def _rst_blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        found = _DIRECTIVE.match(lines[i])
        i += 1
        if found is None:
            continue
        name, arg = found["name"], found["arg"].strip()
        if name in ("code-block", "code", "sourcecode") and arg not in (
            "python",
            "python3",
            "py",
            "pycon",
        ):
            continue  # another language
        outer = len(found["indent"])
        while i < len(lines) and re.match(rf"^ {{{outer + 1},}}:\w[\w-]*:", lines[i]):
            i += 1  # the directive's options
        start = i
        while i < len(lines) and (
            not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > outer
        ):
            i += 1
        while start < i and not lines[start].strip():
            start += 1  # the blank line after the directive
        body = textwrap.dedent("\n".join(lines[start:i])).rstrip()
        doctest_like = name == "doctest" or (name != "testcode" and body.lstrip().startswith(">>>"))
        group = arg if name in ("doctest", "testcode", "testsetup") and arg else "default"
        blocks.append(Block(page, start + 1, doctest_like, group, body))
    return blocks


def _md_blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        found = _FENCE.match(lines[i])
        i += 1
        if found is None:
            continue
        start = i
        while i < len(lines) and not lines[i].startswith("```"):
            i += 1
        if found["lang"] in ("python", "py", "pycon"):
            body = "\n".join(lines[start:i])
            blocks.append(Block(page, start + 1, body.lstrip().startswith(">>>"), "default", body))
        i += 1
    return blocks


def blocks(page: Path) -> list[Block]:
    """The Python examples of a page, in page order."""
    return _md_blocks(page) if page.suffix == ".md" else _rst_blocks(page)


def source(block: Block) -> list[tuple[str, int]]:
    """The block's statements as ``(line of code, line in the page)`` pairs."""
    if not block.doctest:
        return [(text, block.line + k) for k, text in enumerate(block.text.splitlines())]
    out: list[tuple[str, int]] = []
    for example in doctest.DocTestParser().get_examples(block.text):
        for k, text in enumerate(example.source.splitlines()):
            out.append((text, block.line + example.lineno + k))
    return out


def modules() -> dict[str, tuple[str, list[tuple[Path, int]]]]:
    """One module per page and doctest group: its name, its text and, for each of its
    lines, where the line comes from (page, line; line 0 for the setup)."""
    made: dict[str, tuple[str, list[tuple[Path, int]]]] = {}
    for page in PAGES:
        groups: dict[str, list[tuple[str, tuple[Path, int]]]] = {}
        for block in blocks(page):
            lines = groups.setdefault(block.group, [(SETUP, (page, 0))])
            lines.extend((text, (page, at)) for text, at in source(block))
        stem = re.sub(r"\W", "_", str(page.relative_to(ROOT).with_suffix("")))
        for group, lines in groups.items():
            name = stem if group == "default" else stem + "__" + re.sub(r"\W", "_", group)
            made[name] = ("\n".join(text for text, _ in lines) + "\n", [at for _, at in lines])
    return made


def test_every_page_has_its_examples_found() -> None:
    """The extraction finds the blocks it should: a doctest page, a testcode page, the README."""
    found = modules()
    assert "docs_frontend" in found and "docs_validating__rule_codes" in found
    assert "README" in found and "binocle.apply" in found["README"][0]
    assert "def run(" in found["docs_frontend"][0] and "class MyState" in found["docs_speed"][0]
    assert not any("Traceback (most recent" in text for text, _ in found.values())


def test_each_line_is_reported_at_its_place_in_the_page() -> None:
    """Every line of code taken from a page is the text of the page's line it is mapped to."""
    for text, places in modules().values():
        for code, (page, at) in zip(text.splitlines(), places, strict=True):
            if at:
                assert code.strip() in page.read_text(encoding="utf-8").splitlines()[at - 1]


def test_the_docs_examples_pass_mypy_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = pytest.importorskip("mypy.api")
    package = tmp_path / "docs_examples"
    package.mkdir()
    (package / "__init__.py").write_text("")
    made = modules()
    for name, (text, _) in made.items():
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    monkeypatch.setenv("MYPYPATH", str(ROOT / "src"))  # this checkout's binocle
    out, err, status = api.run(
        [
            "--strict",
            "--allow-redefinition",  # a page rebinds a name as it goes, as a session does
            "--untyped-calls-exclude", "distributed",  # Dask's client has no annotations
            "--config-file", str(ROOT / "pyproject.toml"),
            "--cache-dir", str(ROOT / ".mypy_cache" / "docs-examples"),
            "--show-error-codes", "--no-error-summary", "--no-pretty",
            str(package),
        ]
    )  # fmt: skip
    problems = []
    for line in out.splitlines():
        found = re.match(r"^(?:.*[\\/])?docs_examples[\\/](\w+)\.py:(\d+): (.*)$", line)
        if found is None:
            problems.append(line)
            continue
        page, at = made[found[1]][1][int(found[2]) - 1]
        where = f"{page.relative_to(ROOT)}:{at}" if at else f"{page.relative_to(ROOT)} (setup)"
        problems.append(f"{where}: {found[3]}")
    assert status == 0 and not problems, "\n".join([*problems, err])
