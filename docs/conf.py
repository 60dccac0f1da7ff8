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
html_static_path: list[str] = ["_static"]

html_theme = "furo"
# The project's home, as in pyproject.toml's [project.urls].
html_theme_options = {
    "source_repository": "https://github.com/binocle-cards/binocle/",
    "source_branch": "main",
    "source_directory": "docs/",
}
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

doctest_global_setup = """
import binocle
"""
