"""The types of JSON-ready data that binocle's functions give (layer 1).

Offered as :data:`binocle.JSON` and :data:`binocle.JSONObject`.
"""

from __future__ import annotations

import json
import math
from typing import Any, TypeAlias, Union

__all__ = ["JSON", "JSONObject", "finite_json"]

#: A JSON value as Python data: a dict with text keys, a list, text, a number, a
#: truth value or None, nested to any depth.
JSON: TypeAlias = Union["dict[str, JSON]", "list[JSON]", str, int, float, bool, None]
#: A JSON object as a Python dict (a record, a report, a schema).
JSONObject: TypeAlias = "dict[str, JSON]"


class DuplicateKeyError(ValueError):
    """A JSON object that names one key twice (readers differ on which value counts)."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members as a dict; a key given twice is refused."""
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            shown = key if len(key) <= 40 else key[:36] + " …"
            raise DuplicateKeyError(f"the key {shown!r} appears twice in one object")
        doc[key] = value
    return doc


def parse_json(text: str | bytes | bytearray) -> Any:
    """JSON text parsed as :func:`json.loads` does, except that an object naming a key
    twice is refused (:class:`DuplicateKeyError`, a ValueError): every JSON reader of
    binocle reads through it, so no reader takes the last of two values where another
    tool would take the first."""
    return json.loads(text, object_pairs_hook=_unique)


def _defined(value: Any) -> Any:
    """``value`` with every figure that is not a finite number (NaN, an infinity: an
    interval over a single hand, a rating without a finite value) made None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _defined(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_defined(v) for v in value]
    return value


def finite_json(doc: Any, indent: int | None = 2) -> str:
    """``doc`` as strict JSON (RFC 8259): a figure that is undefined (NaN) or infinite
    is written ``null``, never the ``NaN``/``Infinity`` that JSON readers refuse."""
    return json.dumps(_defined(doc), indent=indent, allow_nan=False)
