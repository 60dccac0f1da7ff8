"""Regenerate the web front end's pictures in the docs from the browser tests.

The browser tests save what a person sees under ``build/screenshots``; the docs show
some of those pictures from ``docs/_static/web``.  ``PICTURES`` says which: a docs
picture is always a copy of one a test takes, so the docs show the page as it is.

    python tools/update_screenshots.py          # run the browser tests, then copy
    python tools/update_screenshots.py --copy   # copy what the last run saved

It needs the ``web`` and ``web-test`` extras and Chromium (``BINOCLE_CHROMIUM`` or
``/usr/bin/chromium``).  ``tests/test_docs_pictures.py`` checks that every picture of
``docs/_static/web`` is listed here and that a test saves each source.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "screenshots"
DOCS = ROOT / "docs" / "_static" / "web"

#: The docs picture (in docs/_static/web) -> the picture a test saves (in build/screenshots).
PICTURES = {
    "classic.png": "classic.png",
    "cutthroat.png": "cutthroat.png",
    "three-handed.png": "three-handed.png",
    "score-sheet.png": "classic-score-sheet.png",
    "newcomer-mid-hand-desktop.png": "newcomer-mid-hand-desktop.png",
    "newcomer-mid-hand-phone.png": "newcomer-mid-hand-phone.png",
    "newcomer-game-over-desktop.png": "newcomer-game-over-desktop.png",
    "newcomer-game-over-phone.png": "newcomer-game-over-phone.png",
    "newcomer-leave.png": "newcomer-leave.png",
    "newcomer-replace.png": "newcomer-replace.png",
}

#: The tests that take those pictures.
TESTS = ("tests/test_web_browser.py", "tests/test_web_newcomer_browser.py")


def run_tests() -> int:
    """Run the browser tests that take the pictures (CI set: none may skip)."""
    env = {**os.environ, "CI": "true"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *TESTS]
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def copy() -> list[str]:
    """Copy each listed picture into the docs; returns the names of those missing."""
    DOCS.mkdir(parents=True, exist_ok=True)
    missing = []
    for name, source in PICTURES.items():
        if (SHOTS / source).is_file():
            shutil.copyfile(SHOTS / source, DOCS / name)
        else:
            missing.append(source)
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copy", action="store_true", help="copy only, run no test")
    args = parser.parse_args(argv)
    if not args.copy and (status := run_tests()) != 0:
        print(f"the browser tests failed (exit {status}): nothing copied", file=sys.stderr)
        return status
    missing = copy()
    if missing:
        print(f"not saved by the tests: {', '.join(missing)}", file=sys.stderr)
        return 1
    print(f"{len(PICTURES)} pictures copied into {DOCS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
