"""The consistency checker runs for every profile (DESIGN.md "Quality bar")."""

from __future__ import annotations

import pytest

import binocle
from binocle.testing import check_consistency


@pytest.mark.parametrize("name", ["cutthroat", "classic", "classic(pack=64,grand_binocle=true)"])
def test_random_playouts_keep_every_invariant(name: str) -> None:
    """RULES.md §5: random games keep every invariant at every step."""
    report = check_consistency(name, games=4, seed=11, max_hands=3)
    assert report.actions > 100
    assert report.illegal_tried > 100
    assert report.hands >= 4


def test_options_from_text() -> None:
    """RULES.md §4 Options: profiles are found by alias and read from text."""
    p = binocle.profile("auction(min_bid=300,single_set=true)")
    assert (p.name, p.min_bid, p.single_set) == ("cutthroat", 300, True)
