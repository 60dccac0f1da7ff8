"""``stack_deck`` is the inverse of each profile's deal (RULES.md §2, §3, §4 "Deal")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle

PROFILES = ["cutthroat", "cutthroat(widow_after_round=3)", "classic", "classic(pack=64)",
            "three-handed"]  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PROFILES), st.integers(0, 2**32), st.integers(0, 2))
def test_stacked_deck_deals_the_hands_it_was_given(spec: str, seed: int, dealer: int) -> None:
    """Any deal read back through stack_deck gives the same deck, so hands and piles
    given to stack_deck are exactly what the deal hands out."""
    p = binocle.profile(spec)
    dealer %= p.players
    deck = list(binocle.pack(p.pack_size))
    random.Random(seed).shuffle(deck)
    hands, piles = p.split_deck(tuple(deck), dealer)
    extra = {k: v for k, v in piles.items()}
    if p.name == "three-handed":
        extra["turn_up"] = [hands[dealer][-1]]
    stacked = binocle.stack_deck(p, hands, dealer, **{k: _one(k, v) for k, v in extra.items()})
    assert list(stacked) == deck
    s = binocle.new_game(p, deck=stacked, dealer=dealer)
    assert s.hands == tuple(tuple(sorted(h)) for h in hands)


def _one(name: str, cards: list[binocle.Card]) -> object:
    return cards[0] if name == "turn_up" else cards


def test_parts_left_out_take_the_rest_of_the_pack() -> None:
    """RULES.md §2 "Deal": the turn-up's suit is trump; a stock left out is the rest."""
    deck = binocle.stack_deck("classic", ["AS AS TS TS KS KS QS QS JS JS 9S 9S", None],
                              dealer=0, turn_up="9H")  # fmt: skip
    s = binocle.new_game("classic", deck=deck)
    assert s.trump is binocle.Suit.HEARTS
    assert s.hands[0] == binocle.parse_cards("AS AS TS TS KS KS QS QS JS JS 9S 9S")
    # The dealer (seat 0) scores dix at once for a Nine turned up (RULES.md §2).
    assert s.meld_points == (10, 0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: binocle.stack_deck("cutthroat", ["AS"] * 2), "needs 3 hands"),
        (lambda: binocle.stack_deck("cutthroat", ["AS", None, None]), "gets 15 cards, not 1"),
        (lambda: binocle.stack_deck("cutthroat", [None] * 3, stock="AS"), "no pile 'stock'"),
        (lambda: binocle.stack_deck("cutthroat", [None] * 3, dealer=3), "dealer is a seat"),
        (
            lambda: binocle.stack_deck("classic", ["AS AS AS" + " 9D" * 9, None]),
            "more often than the pack",
        ),
        (
            lambda: binocle.stack_deck("three-handed", [None] * 3, turn_up="AS"),
            "must be in the dealer's hand",
        ),
    ],
)
def test_bad_stacks_are_refused(call: object, message: str) -> None:
    """Bad input gets a documented error naming the problem (RULES.md §5)."""
    with pytest.raises(binocle.BinocleError, match=message):
        call()  # type: ignore[operator]
