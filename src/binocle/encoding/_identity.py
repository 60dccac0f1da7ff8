"""Values kept for particular objects, found by the objects' identity.

The engine's common actions are interned (one ``play KS`` object for all states),
and an action space's id for one of them does not depend on the state: a step maps
several legal actions to their ids.  A dictionary keyed by ``id(action)`` boxes
each address into a new integer to look it up; :class:`IdentityTable` hashes the
address itself into a list, and compares the object found there by identity.

The compiled build compiles this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["IdentityTable"]


class IdentityTable:
    """A fixed table from objects to values, read by the objects' identity (an
    equal object that is not one of them is not found).  The table holds its
    objects, so their addresses stay theirs while it lasts."""

    def __init__(self, items: Iterable[tuple[object, Any]]) -> None:
        pairs = list(items)
        size = 16
        while size < 4 * len(pairs):  # at most a quarter full: probes stay short
            size *= 2
        mask = size - 1
        slots: list[tuple[object, Any] | None] = [None] * size
        for obj, value in pairs:
            k = (id(obj) >> 4) & mask
            while True:
                held = slots[k]
                if held is None:
                    slots[k] = (obj, value)
                    break
                if held[0] is obj:
                    raise ValueError("an object is in the table twice")
                k = (k + 1) & mask
        self._mask = mask
        self._slots = slots
        self._count = len(pairs)

    def __len__(self) -> int:
        return self._count

    def get(self, obj: object) -> Any:
        """The value kept for ``obj`` itself, or None."""
        mask = self._mask
        slots = self._slots
        # Objects are 16-byte aligned: the address's low bits say nothing.
        k = (id(obj) >> 4) & mask
        while True:
            held = slots[k]
            if held is None:
                return None
            if held[0] is obj:
                return held[1]
            k = (k + 1) & mask
