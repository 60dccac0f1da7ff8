"""Deprecated module name: the game records are :mod:`binocle.records`.

``from binocle.record import schema`` still works and warns with a
:class:`DeprecationWarning`; the module name goes in binocle 2.0.  The function
:func:`binocle.record` is not deprecated.
"""

from __future__ import annotations

from binocle._deprecated_module import forwarder

__getattr__ = forwarder("binocle.record", "binocle.records")
