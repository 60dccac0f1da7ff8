"""The errors binocle raises.

Every public function either returns a correct result or raises one of these.
All of them are :class:`BinocleError`, and every subclass is also a
:class:`ValueError`, so ``except ValueError`` catches them as well.
"""

from __future__ import annotations

__all__ = [
    "BinocleError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidStateError",
    "UnknownProfileError",
]


class BinocleError(Exception):
    """Base class of every error binocle raises on purpose."""


class IllegalActionError(BinocleError, ValueError):
    """A well-formed action that breaks a rule in the given state.

    The message names the rule and what in the state forbids the action, for
    example ``"must follow suit: holds QH"``.
    """


class InvalidNotationError(BinocleError, ValueError):
    """Text (a card, an action, a profile spec) that does not parse."""


class InvalidStateError(BinocleError, ValueError):
    """A state or record read from outside that is inconsistent."""


class UnknownProfileError(BinocleError, ValueError):
    """An unknown profile name, or an unknown or invalid profile option."""


class InvalidArgumentError(BinocleError, ValueError):
    """An argument of the wrong type or out of range (a seat, a dealer, a seed)."""


#: How many characters of a caller's input an error message quotes at most.
EXCERPT: int = 80


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, ending in ``…`` when cut.

    Messages quote what they were given through this, so a 10 MB text gives a
    short message, never a 10 MB one.
    """
    if isinstance(value, str):
        text = repr(value[: limit + 1])
        return text if len(value) <= limit else text[: limit + 1] + "…"
    if isinstance(value, int) and not isinstance(value, bool):
        # repr of a huge int is slow (and above 4,300 digits refused): count its bits instead.
        if value.bit_length() > 200:
            return f"<a {value.bit_length()}-bit number>"
        return repr(value)
    if isinstance(value, (bytes, bytearray)):
        text = repr(bytes(value[: limit + 1]))
        return text if len(value) <= limit else text[: limit + 1] + "…"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"
    return shorten(text, limit)


def shorten(text: str, limit: int = EXCERPT) -> str:
    """``text`` cut to ``limit`` characters, ending in ``…`` when cut."""
    return text if len(text) <= limit else text[:limit] + "…"
