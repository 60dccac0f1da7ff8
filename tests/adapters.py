"""Shared by the adapter tests: import an extra's package, or skip with the reason.

In CI (``CI`` set) the extras are installed, so a missing package fails the
run instead of skipping.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str, extra: str) -> ModuleType:
    """``module`` imported, or the test module skipped when the extra is missing."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip(
            f"{module} is not installed: pip install 'binocle[{extra}]' to run these tests",
            allow_module_level=True,
        )
        raise  # pragma: no cover
