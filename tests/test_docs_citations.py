"""User-facing text cites the docs' own rules pages, and every citation names a real section.

Messages, docstrings, validator reports and profile descriptions cite a rule as
"<profile> rules, <Section>" (e.g. "three-handed rules, Revoke"), the page
``docs/profiles/<profile>.rst`` and one of its section headings; the rules
common to every profile are "common rules, <Section>" (``docs/profiles/index.rst``).
Users have those pages, and nothing else: no internal rule book, no source
numbers.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "classic": ROOT / "docs" / "profiles" / "classic.rst",
    "three-handed": ROOT / "docs" / "profiles" / "three-handed.rst",
    "cutthroat": ROOT / "docs" / "profiles" / "cutthroat.rst",
    "common": ROOT / "docs" / "profiles" / "index.rst",
}
#: Citations whose profile is filled in at run time ("{...} rules, Revoke") hold for every page.
CITATION = re.compile(
    r"(classic|three-handed|cutthroat|common|\{[^{}]*\}) rules, ([A-Z][^\n\"'`]*)"
)
UNDERLINE = re.compile(r"^([=\-~^])\1+$")


def _headings(page: Path) -> list[str]:
    lines = page.read_text(encoding="utf-8").splitlines()
    return [
        lines[i - 1].strip()
        for i in range(1, len(lines))
        if UNDERLINE.match(lines[i]) and lines[i - 1].strip()
    ]


def _sources() -> list[Path]:
    files = sorted((ROOT / "src" / "binocle").rglob("*.py"))
    return files + sorted((ROOT / "examples").glob("*.py"))


def _citations() -> list[tuple[str, int, str, str]]:
    found = []
    for path in _sources():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CITATION.finditer(line):
                where = f"{path.relative_to(ROOT)}:{n}"
                found.append((where, n, m.group(1), m.group(2)))
    return found


def test_the_code_cites_the_rules_pages() -> None:
    """There are citations to check (the pattern still matches how the code cites)."""
    profiles = {who for _, _, who, _ in _citations()}
    assert {"classic", "three-handed", "cutthroat", "common"} <= profiles


@pytest.mark.parametrize(("where", "line", "page", "text"), _citations())
def test_every_citation_names_a_section_of_its_page(
    where: str, line: int, page: str, text: str
) -> None:
    """ "<profile> rules, <Section>": <Section> is a heading of that profile's page."""
    pages = [page] if page in PAGES else ["classic", "three-handed", "cutthroat"]
    for name in pages:
        heads = _headings(PAGES[name])
        assert any(text.startswith(h) and not text[len(h) : len(h) + 1].isalnum() for h in heads), (
            f"{where}: '{name} rules, {text}' names no section of {PAGES[name].name}: {heads}"
        )


def _user_facing_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of ``path`` a user may read: all of a page, and a module without its
    ``#`` comments (docstrings and string literals stay: the API docs and messages show them)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return list(enumerate(text.splitlines(), 1))
    out: list[tuple[int, str]] = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            continue
        for k, line in enumerate(tok.string.splitlines()):
            out.append((tok.start[0] + k, line))
    return out


def test_no_user_facing_text_cites_the_internal_rule_book() -> None:
    """Only ``#`` comments (read by maintainers) may cite RULES.md or a source number."""
    bad = []
    files = _sources() + sorted((ROOT / "docs").rglob("*.rst"))
    for path in files:
        if "_build" in path.parts:
            continue
        for n, line in _user_facing_lines(path):
            if re.search(r"RULES\.md|seeds? 00\d", line):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)
