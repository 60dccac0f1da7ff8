"""The class flags of the compiled build, read by mypyc alone (never compiled itself).

mypyc reads ``@mypyc_attr(...)`` in the source when it compiles binocle (it knows
the name as ``mypy_extensions.mypyc_attr``); here, at run time, the decorator
changes nothing, so neither build needs ``mypy_extensions``.  binocle uses
``native_class=False``: a plain base class of attrs classes (the profiles' rules
halves) stays a Python class, as the attrs classes built on it are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*flags, **options):
        """No-op at run time (see the module docstring)."""
        return lambda cls: cls


__all__ = ["mypyc_attr"]
