"""Deprecated module name: the validator is :mod:`binocle.validation`.

``from binocle.validate import ViolationKind`` still works and warns with a
:class:`DeprecationWarning`; the module name goes in binocle 2.0.  The function
:func:`binocle.validate` is not deprecated.
"""

from __future__ import annotations

from binocle._deprecated_module import forwarder

__getattr__ = forwarder("binocle.validate", "binocle.validation")
