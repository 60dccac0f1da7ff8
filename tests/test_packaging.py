"""What the published package promises: metadata, the README's first lines, the version."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import binocle
from helpers import load_tool

ROOT = Path(__file__).resolve().parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # the test extra brings tomli to Python 3.10
    tomllib = pytest.importorskip("tomli")

#: The Pythons the project supports, and so tests and builds wheels for.
PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14"]


def _pyproject() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config


def test_metadata_names_the_project_home_and_one_licence_statement() -> None:
    """Project URLs are set (the same home as the docs'); the licence is the PEP 639
    expression alone, without a licence classifier beside it."""
    meta = _pyproject()["project"]
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


def test_the_pythons_declared_are_the_pythons_tested_and_built() -> None:
    """The version classifiers name exactly the Pythons that the workflow's test matrix
    runs and that cibuildwheel builds compiled wheels for; requires-python starts there."""
    config = _pyproject()
    meta = config["project"]
    prefix = "Programming Language :: Python :: 3."
    declared = sorted(
        (
            c.removeprefix("Programming Language :: Python :: ")
            for c in meta["classifiers"]
            if c.startswith(prefix)
        ),
        key=lambda v: tuple(map(int, v.split("."))),
    )
    assert declared == PYTHONS
    assert meta["requires-python"] == f">={PYTHONS[0]}"
    built = config["tool"]["cibuildwheel"]["build"].split()
    assert built == [f"cp{v.replace('.', '')}-*" for v in PYTHONS]
    workflow = (ROOT / ".github" / "workflows" / "tests.yml").read_text(encoding="utf-8")
    matrix = re.search(r"python: \[(.*)\]", workflow)
    assert matrix is not None
    assert [v.strip().strip('"') for v in matrix.group(1).split(",")] == PYTHONS


def test_the_build_backend_minimum_is_the_one_ci_builds_with() -> None:
    """The declared hatchling minimum is a version that writes the PEP 639 licence fields
    (1.27), and .ci/run builds the package with exactly that minimum."""
    (requirement,) = _pyproject()["build-system"]["requires"]
    match = re.fullmatch(r"hatchling>=(\d+)\.(\d+)(?:\.\d+)?", requirement)
    assert match is not None and (int(match[1]), int(match[2])) >= (1, 27)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "hatchling>=" in ci and "hatchling==$minimum" in ci


def _release_check() -> ModuleType:
    return load_tool("check_release")


def _tree(tmp_path: Path, version: str, changelog: str) -> Path:
    (tmp_path / "src" / "binocle").mkdir(parents=True)
    (tmp_path / "src" / "binocle" / "__init__.py").write_text(f'__version__ = "{version}"\n')
    (tmp_path / "CHANGELOG.md").write_text(changelog)
    return tmp_path


_RELEASED = """# Changelog

## [Unreleased]

## [1.1.0] - 2027-01-10
### Added
- a thing

## [1.0.0] - 2026-12-01
### Added
- the first

[Unreleased]: https://example.org/compare/v1.1.0...HEAD
[1.1.0]: https://example.org/compare/v1.0.0...v1.1.0
[1.0.0]: https://example.org/releases/tag/v1.0.0
"""


def test_main_carries_a_development_version_after_the_newest_release() -> None:
    """CONTRIBUTING, Releasing: on main, ``__version__`` is the next version in
    development (X.Y.Z.devN, after the changelog's newest release), so nothing
    published from main can pass for the last release."""
    assert _release_check().problems(None) == []
    assert re.fullmatch(r"\d+\.\d+\.\d+\.dev\d+", binocle.__version__)


def test_a_release_tag_must_equal_the_version_and_the_changelog(tmp_path: Path) -> None:
    """CONTRIBUTING, Releasing: the release workflow refuses a tag that differs from
    ``__version__``, a changelog without the version's dated section, or changes still
    under [Unreleased]."""
    check = _release_check()
    good = _tree(tmp_path / "good", "1.1.0", _RELEASED)
    assert check.problems("v1.1.0", good) == []
    assert check.problems("v1.2.0", good) != []
    pending = _RELEASED.replace("## [Unreleased]\n", "## [Unreleased]\n### Fixed\n- more\n")
    assert "still holds changes" in " ".join(
        check.problems("v1.1.0", _tree(tmp_path / "pending", "1.1.0", pending))
    )
    assert check.problems("v1.1.0", _tree(tmp_path / "old", "1.0.0", _RELEASED)) != []
    # On main, a released number (not .devN) or one not after the newest release is refused.
    assert check.problems(None, _tree(tmp_path / "main", "1.1.0", _RELEASED)) != []
    assert check.problems(None, _tree(tmp_path / "behind", "1.0.1.dev0", _RELEASED)) != []
    assert check.problems(None, _tree(tmp_path / "ahead", "1.1.1.dev0", _RELEASED)) == []


def test_the_release_workflow_checks_the_tag_before_building() -> None:
    """The release workflow's first job runs the check with the pushed tag, and every
    job that builds or publishes waits for it."""
    workflow = (ROOT / ".github" / "workflows" / "wheels.yml").read_text()
    assert "python tools/check_release.py" in workflow
    assert workflow.count("needs: [version]") >= 2


def test_a_stable_release_says_so() -> None:
    """binocle 1.x promises a stable public surface (docs: Compatibility): the
    classifier says Production/Stable."""
    meta = _pyproject()["project"]
    assert "Development Status :: 5 - Production/Stable" in meta["classifiers"]
