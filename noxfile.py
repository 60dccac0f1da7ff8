"""nox sessions: the checks of CONTRIBUTING.md, each in an environment of its own.

``nox`` runs the default sessions (tests on every supported Python found, typing, lint,
docs); ``nox -s fast`` is the fast subset; ``.ci/run`` is the whole of CI.
"""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "typing", "lint", "docs"]
nox.options.reuse_existing_virtualenvs = True

PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14"]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The README's test command: the whole suite on the pure-Python build."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", *session.posargs)


@nox.session
def fast(session: nox.Session) -> None:
    """The fast subset: no long tests, no optional part's tests."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-m", "not slow and not extras", *session.posargs)


@nox.session
def typing(session: nox.Session) -> None:
    """mypy --strict over the package, the examples, the typed programs of the tests and
    the benchmark."""
    session.install("-e", ".[dev,web,arena,openspiel,pettingzoo,distributed]")
    for target in ("src/binocle", "examples", "tests/typing", "benchmarks/bench.py"):
        session.run("python", "-m", "mypy", "--strict", target)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (lint and format) and import-linter (the layers)."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "ruff", "check", ".")
    session.run("python", "-m", "ruff", "format", "--check", ".")
    session.run("lint-imports")


@nox.session
def docs(session: nox.Session) -> None:
    """The docs with the docs extra alone: every page, every reference resolved, every example
    that needs no extra."""
    session.install("-e", ".[docs]")
    session.run(
        "python",
        "-m",
        "sphinx",
        "-n",
        "-W",
        "--keep-going",
        "-b",
        "html",
        "docs",
        "docs/_build/html",
    )
    session.run("python", "-m", "sphinx", "-W", "-b", "doctest", "docs", "docs/_build/doctest")
