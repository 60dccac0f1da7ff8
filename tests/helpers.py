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


def two_handed_continuation(seed: int, knock: str = "claim") -> GameState:
    """A three-handed game in which ``knock`` (at the first turn of the play) was wrong
    and retired the claimant, the hand finished and nobody won the deal: the two others
    go on with the classic game, its first hand not dealt (see three-handed rules,
    The two-handed game after a retirement)."""
    s = binocle.new_game("three-handed", seed=seed)
    while s.phase is not binocle.Phase.PLAY:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    s = binocle.apply(s, knock)
    while s.sub is None:
        plays = [a for a in binocle.legal_actions(s) if a.kind is binocle.Kind.PLAY]
        s = binocle.apply(s, plays[0])
    return s
