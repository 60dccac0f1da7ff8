"""The web front end's pictures in the docs are the browser tests' own screenshots.

Rule (docs): every picture of ``docs/_static/web`` is a copy of one a browser test saves
(``tools/update_screenshots.py`` lists which and copies them), every picture the docs
show there exists, and each listed source is one a listed test saves.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

from helpers import load_tool

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    return load_tool("update_screenshots")


def _saved_patterns(paths: tuple[str, ...]) -> list[re.Pattern[str]]:
    """The names the tests save under SHOTS, an f-string's fields as wildcards."""
    patterns = []
    for path in paths:
        text = (ROOT / path).read_text(encoding="utf-8")
        for literal in re.findall(r'SHOTS / f?"([^"]+)"', text):
            parts = re.split(r"\{[^}]*\}", literal)
            patterns.append(re.compile(".+".join(re.escape(p) for p in parts) + r"\Z"))
    return patterns


def test_every_docs_picture_is_a_listed_test_screenshot() -> None:
    tool = _tool()
    on_disk = {p.name for p in (ROOT / "docs" / "_static" / "web").glob("*.png")}
    assert on_disk == set(tool.PICTURES), on_disk ^ set(tool.PICTURES)
    patterns = _saved_patterns(tool.TESTS)
    assert patterns, "the tests save no screenshot under SHOTS"
    for source in tool.PICTURES.values():
        assert any(p.match(source) for p in patterns), f"no listed test saves {source}"


def test_every_picture_the_docs_show_exists() -> None:
    shown = set()
    for page in (ROOT / "docs").rglob("*.rst"):
        shown |= set(re.findall(r"_static/web/([\w.-]+\.png)", page.read_text(encoding="utf-8")))
    assert shown
    missing = {name for name in shown if not (ROOT / "docs" / "_static" / "web" / name).is_file()}
    assert not missing, missing
