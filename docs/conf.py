"""Sphinx configuration of the binocle documentation.

Build the site with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``
and run every example with ``python -m sphinx -W -b doctest docs docs/_build/doctest``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import binocle

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "binocle"
author = "The binocle authors"
copyright = "The binocle authors"
version = binocle.__version__
release = binocle.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "binocle_docs",
]

root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
html_static_path: list[str] = []

html_theme = "furo"
html_title = f"binocle {release}"
pygments_style = "sphinx"

# -- autodoc -----------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_default_options = {"show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# -- doctest -----------------------------------------------------------------
# Only the ``.. doctest::`` and ``.. testcode::`` blocks of these pages run here;
# the examples in docstrings run under pytest (``--doctest-modules``).
doctest_test_doctest_blocks = ""

# Pages about parts still being written keep their examples in their own
# ``.. doctest::`` blocks with ``:skipif: not HAS_...``: the doctest builder
# skips them until the part lands, then tests them.  The HTML build always
# shows them (binocle_docs sets DOCS_SHOW_ALL for every builder but doctest).
doctest_global_setup = """
import binocle
DOCS_SHOW_ALL = globals().get("DOCS_SHOW_ALL", False)
HAS_THREE_HANDED = DOCS_SHOW_ALL or "three-handed" in binocle.profile_names()
HAS_RECORD = DOCS_SHOW_ALL or (
    callable(getattr(binocle, "record", None)) and callable(getattr(binocle, "replay", None))
)
HAS_VALIDATE = DOCS_SHOW_ALL or callable(getattr(binocle, "validate", None))


def _cli_commands():
    import argparse

    try:
        from binocle.cli import build_parser

        for action in build_parser()._actions:
            if isinstance(action, argparse._SubParsersAction):
                return set(action.choices)
    except Exception:
        pass
    return set()


CLI_COMMANDS = {"demo", "play", "meld", "simulate", "validate"} if DOCS_SHOW_ALL else _cli_commands()
"""
