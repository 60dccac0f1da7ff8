"""What the published package promises: metadata, the README's first lines, the version."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import binocle

ROOT = Path(__file__).resolve().parent.parent

tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else None


@pytest.mark.skipif(tomllib is None, reason="tomllib needs Python 3.11")
def test_metadata_names_the_project_home_and_one_licence_statement() -> None:
    """Project URLs are set (the same home as the docs'); the licence is the PEP 639
    expression alone, without a licence classifier beside it."""
    assert tomllib is not None
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    urls = meta["urls"]
    home = "https://github.com/binocle-cards/binocle"
    assert urls["Homepage"] == home and urls["Repository"] == home
    assert urls["Documentation"].startswith("https://binocle.readthedocs.io")
    assert meta["license"] == "MIT"
    assert not [c for c in meta["classifiers"] if c.startswith("License ::")]
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    assert home in conf


def test_readme_starts_with_the_install_command_and_keeps_the_checkout_commands() -> None:
    """The README (the package's page) begins with ``pip install binocle``; the two
    set-up commands for a fresh checkout are still there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    assert first_block.strip() == "pip install binocle"
    assert text.index("pip install binocle") < text.index("## ")
    assert "python -m pip install . && binocle demo" in text
    assert "python -m pip install -e '.[test]' && python -m pytest" in text


def test_version_is_one_string() -> None:
    assert binocle.__version__.count(".") >= 2
