"""The types of JSON-ready data that binocle's functions give (layer 1).

Offered as :data:`binocle.JSON` and :data:`binocle.JSONObject`.
"""

from __future__ import annotations

from typing import TypeAlias, Union

__all__ = ["JSON", "JSONObject"]

#: A JSON value as Python data: a dict with text keys, a list, text, a number, a
#: truth value or None, nested to any depth.
JSON: TypeAlias = Union["dict[str, JSON]", "list[JSON]", str, int, float, bool, None]
#: A JSON object as a Python dict (a record, a report, a schema).
JSONObject: TypeAlias = "dict[str, JSON]"
