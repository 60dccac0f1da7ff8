"""Small helpers shared by the test modules."""

from __future__ import annotations

import binocle
from binocle import Card, GameState
from binocle.testing import check_state


def cs(text: str) -> tuple[Card, ...]:
    """Cards from text, in the order given."""
    return binocle.parse_cards(text)


def hand(text: str) -> tuple[Card, ...]:
    """Cards from text, sorted as a hand is."""
    return tuple(sorted(binocle.parse_cards(text)))


def run(s: GameState, *actions: str, check: bool = False) -> GameState:
    """Apply action texts in order (checking every state's invariants with ``check``)."""
    for a in actions:
        s = binocle.apply(s, a)
        if check:
            check_state(s)
    return s


def texts(s: GameState) -> list[str]:
    """The texts of the legal actions."""
    return [str(a) for a in binocle.legal_actions(s)]
