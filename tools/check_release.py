"""Check that the version, the changelog and (for a release) the tag agree.

    python tools/check_release.py            # on main: the version is the next one, in development
    python tools/check_release.py v1.1.0     # for the tag v1.1.0: this is release 1.1.0

On main, ``__version__`` (``src/binocle/__init__.py``) is a development version
``X.Y.Z.devN`` after the newest released section of ``CHANGELOG.md``, and the changelog
opens with ``## [Unreleased]``.  For a tag ``vX.Y.Z``, ``__version__`` is ``X.Y.Z``, the
changelog's first version section is ``## [X.Y.Z] - YYYY-MM-DD`` with the changes under
it, the ``[Unreleased]`` section above it is empty, and its link definitions name the
version.  The release workflow (``.github/workflows/wheels.yml``) runs it with the tag
before anything is built; the tests run it without one.  Exit status 0 when they agree,
1 with the reasons when they do not.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELEASE = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
DEVELOPMENT = re.compile(r"^(\d+)\.(\d+)\.(\d+)\.dev(\d+)$")
SECTION = re.compile(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$", re.MULTILINE)


def version(root: Path = ROOT) -> str:
    """``__version__`` as written in the package's ``__init__.py``."""
    text = (root / "src" / "binocle" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    if found is None:
        raise SystemExit("no __version__ in src/binocle/__init__.py")
    return found.group(1)


def problems(tag: str | None, root: Path = ROOT) -> list[str]:
    """What disagrees among the version, the changelog and ``tag`` (none: all agree)."""
    current = version(root)
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = [(m.group(1), m.group(2), m.start(), m.end()) for m in SECTION.finditer(changelog)]
    if not sections or sections[0][0] != "Unreleased":
        return ["CHANGELOG.md must open with a '## [Unreleased]' section"]
    released = [(name, date) for name, date, _, _ in sections[1:]]
    found: list[str] = []
    for name, date in released:
        if not RELEASE.match(name) or date is None:
            found.append(f"CHANGELOG.md: '## [{name}]' is not 'X.Y.Z' with a date")
    if tag is None:
        dev = DEVELOPMENT.match(current)
        if dev is None:
            found.append(
                f"__version__ {current!r} on main must be a development version X.Y.Z.devN"
            )
        elif released and RELEASE.match(released[0][0]):
            newest = tuple(int(part) for part in released[0][0].split("."))
            if tuple(int(part) for part in dev.groups()[:3]) <= newest:
                found.append(
                    f"__version__ {current!r} must come after the newest release, {released[0][0]}"
                )
        return found
    if not tag.startswith("v") or RELEASE.match(tag[1:]) is None:
        return found + [f"the tag {tag!r} is not vX.Y.Z"]
    number = tag[1:]
    if current != number:
        found.append(f"__version__ is {current!r}, the tag says {number!r}")
    if not released or released[0][0] != number:
        found.append(f"the changelog's newest version section is not '## [{number}] - YYYY-MM-DD'")
    else:
        unreleased = changelog[sections[0][3] : sections[1][2]].strip()
        if unreleased:
            found.append("the changelog's [Unreleased] section still holds changes")
        end = sections[2][2] if len(sections) > 2 else len(changelog)
        if not changelog[sections[1][3] : end].strip():
            found.append(f"the changelog's section for {number} is empty")
    if f"\n[{number}]: " not in changelog:
        found.append(f"CHANGELOG.md has no link definition for [{number}]")
    return found


def main(argv: list[str]) -> int:
    tag = argv[0] if argv else None
    found = problems(tag)
    for problem in found:
        print(problem, file=sys.stderr)
    if not found:
        print(f"version {version()}: the changelog agrees" + (f" and so does {tag}" if tag else ""))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
