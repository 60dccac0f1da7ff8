"""Sphinx configuration of the binocle documentation.

Build the site with ``python -m sphinx -n -W --keep-going -b html docs docs/_build/html``
and run every example with ``python -m sphinx -W -b doctest docs docs/_build/doctest``.
The ``docs`` extra alone builds every page: the optional parts' packages that are not
installed are mocked for autodoc, and the examples that need them are skipped.  Read
the Docs builds from ``.readthedocs.yaml``.

Links to other projects' documentation (Python, attrs, NumPy) come from their
intersphinx inventories, fetched over the network.  ``BINOCLE_DOCS_OFFLINE=1`` builds
without fetching them, for a machine with no network; the references to those
projects' names are then plain text, and ``nitpick_ignore_regex`` below lets them be.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
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
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "myst_parser",
    "binocle_docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}

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

# -- references ----------------------------------------------------------------
# Every cross-reference must resolve (``-n``), except names of the other projects below,
# which resolve through intersphinx where their inventories can be fetched.
nitpicky = True
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    "attrs": ("https://www.attrs.org/en/stable", None),
    "numpy": ("https://numpy.org/doc/stable", None),
}
if os.environ.get("BINOCLE_DOCS_OFFLINE"):
    intersphinx_mapping = {}
_EXTERNAL = (
    "argparse", "asyncio", "collections", "concurrent", "enum", "importlib", "os", "pathlib",
    "random", "sqlite3", "typing", "typing_extensions", "attr", "attrs", "numpy", "np",
    "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "starlette", "uvicorn", "h11",
    "websockets", "distributed", "stable_baselines3", "sb3_contrib", "torch",
)  # fmt: skip
nitpick_ignore_regex = [
    (r"py:.*", rf"({'|'.join(_EXTERNAL)})(\..*)?"),
    # Private names (a leading underscore) have no entry: the base classes and aliases that
    # signatures show, and the type variables of generic functions.
    (r"py:class", r"(binocle(\.\w+)*\.)?_\w+(\..*)?"),
    (r"py:class", r"binocle(\.\w+)*\.[A-Z]"),
    # The web application's connection object, which the documented Hub's methods take.
    (r"py:class", r"binocle\.web\.app\.Connection"),
]
# binocle.web.protocol's docstring still names ``handle``, since split into handle_action,
# handle_knock and handle_deal: this entry goes when that sentence is reworded.
nitpick_ignore = [("py:func", "handle")]

# -- autodoc -----------------------------------------------------------------
# The optional parts' packages that are not installed here are stood in for while autodoc
# imports the modules that need them (``pip install -e '.[docs]'`` builds every page).
# Where a package is installed, the real one is used, so the examples run against it.
_OPTIONAL = (
    "numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "starlette", "anyio", "uvicorn",
    "h11", "websockets", "tqdm", "distributed", "dask", "librt", "mypy_extensions",
    "stable_baselines3", "sb3_contrib", "torch",
)  # fmt: skip
autodoc_mock_imports = [m for m in _OPTIONAL if importlib.util.find_spec(m) is None]
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
# An example's exception is compared whole, message included (Sphinx's default flags
# ignore the message after the exception's name, so a page could show words the library
# no longer prints).
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1

# A page's examples that need an optional part's package say ``:skipif: not HAVE_PYSPIEL``
# (or ``HAVE_PETTINGZOO``): they are skipped where the extra is not installed.  CI installs
# every extra and runs them all.
doctest_global_setup = """
import importlib.util
import binocle
HAVE_PYSPIEL = importlib.util.find_spec("pyspiel") is not None
HAVE_PETTINGZOO = importlib.util.find_spec("pettingzoo") is not None
"""

# -- MyST (the changelog page is the project's CHANGELOG.md) ------------------------------
myst_heading_anchors = 2
