"""Small helpers shared by the test modules."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import binocle
from binocle import Card, GameState
from binocle.rules.tricks import trick_winner
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


def last_trick_bonus(s: GameState, seat: int) -> int:
    """The classic last trick's 10 for ``seat`` once it is taken and the hand not yet
    counted (classic rules, Play after the stock), else 0."""
    trick = getattr(s, "last_trick", ())
    if any(s.hands) or not trick:
        return 0
    won = trick_winner([c for _, c in trick], s.trump)
    return 10 if trick[won][0] == seat else 0


def two_handed_continuation(
    seed: int, knock: str = "claim", profile: str = "three-handed"
) -> GameState:
    """A three-handed game in which ``knock`` (at the first turn of the play) was wrong
    and retired the claimant, the hand finished and nobody won the deal: the two others
    go on with the classic game, its first hand not dealt (see three-handed rules,
    The two-handed game after a retirement)."""
    s = binocle.new_game(profile, seed=seed)
    while s.phase is not binocle.Phase.PLAY:
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    s = binocle.apply(s, knock)
    while s.sub is None:
        plays = [a for a in binocle.legal_actions(s) if a.kind is binocle.Kind.PLAY]
        s = binocle.apply(s, plays[0])
    return s


# Three-handed, trump hearts (the turn-up 9H).  Seats 0 and 2 each hold four Kings and
# four Queens (220 by the plenty-of-time count: 80 + 60 and the four marriages but one);
# seat 2 also binocle (QS JD); seat 1 every Ace and Ten.
KQ = {
    0: "KS KH KD KC QS QH QD QC 9C 9C JC JC 9D 9D 9S 9H",
    1: "AH AH TH TH AS AS TS TS AD AD TD TD AC AC TC TC",
    2: "KS KH KD KC QS QH QD QC JS JS JH JH JD JD 9S 9H",
}


def kings_and_queens_laid_down(
    dealer: int, profile: str = "three-handed(claim_overlooked=true)"
) -> GameState:
    """KQ dealt by ``dealer`` (0 or 2: the holders of the turn-up), every dix turn passed;
    seat 0 lays down four Kings and four Queens as two combinations (140), announcing none
    of their marriages (three-handed rules, Melds); the seats before him pass."""
    hands = [KQ[0], KQ[1], KQ[2]]
    deck = binocle.stack_deck("three-handed", hands, dealer=dealer, turn_up="9H")
    s = binocle.new_game(profile, seed=7, deck=deck, dealer=dealer)
    while s.phase is binocle.Phase.DIX:
        s = run(s, "pass", check=True)
    while s.current_player != 0:
        s = run(s, "pass", check=True)
    return run(s, "meld four kings KS KH KD KC", "meld four queens QS QH QD QC", "pass", check=True)


def load_tool(name: str) -> ModuleType:
    """The module ``tools/<name>.py`` of this repository, loaded from its file."""
    path = Path(__file__).resolve().parent.parent / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
