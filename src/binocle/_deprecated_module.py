"""The module names kept for programs written before a module was renamed.

``binocle.record`` and ``binocle.validate`` were both a module and a function of
:mod:`binocle`; the function won, so ``import binocle.record as R`` gave the
function.  The modules are now :mod:`binocle.records` and
:mod:`binocle.validation`; the old module names still give their names
(``from binocle.record import schema``) with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable


def forwarder(old: str, new: str) -> Callable[[str], object]:
    """A module ``__getattr__`` that reads a name of module ``new`` and warns that
    the module name ``old`` is deprecated."""

    def __getattr__(name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        module = importlib.import_module(new)
        try:
            value: object = getattr(module, name)
        except AttributeError:
            raise AttributeError(f"module {old!r} has no attribute {name!r}") from None
        warnings.warn(
            f"the module {old} is deprecated and will be removed in binocle 2.0:"
            f" import {name} from {new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return value

    return __getattr__
