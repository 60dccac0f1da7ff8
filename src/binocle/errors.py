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
