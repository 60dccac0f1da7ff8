"""The two builds (docs: Speed, "The compiled build"): the pure-Python package and the
optional one whose rules modules are compiled by mypyc.  CI runs the whole suite
against each; these tests check that the build under test is the one asked for and
that the compiled one keeps the promises a compiled module could break."""

from __future__ import annotations

import ast
import importlib
import os
import random
import subprocess
import sys
from typing import Any, ClassVar

import attrs
import pytest

import binocle
from binocle.bots import play_game
from binocle.profiles.cutthroat import Cutthroat

#: The modules the compiled build compiles (pyproject.toml, the mypyc build hook).
COMPILED = [
    "binocle.core",
    "binocle._build",
    "binocle._step",
    "binocle.profiles.cutthroat",
    "binocle.profiles._cutthroat_rules",
    "binocle.profiles.classic",
    "binocle.profiles._classic_rules",
    "binocle.profiles.three_handed",
    "binocle.profiles._three_handed_rules",
    "binocle.rules.classic_melds._announcements",
    "binocle.rules.classic_melds._best",
    "binocle.rules.cutthroat_melds",
    "binocle.rules.deal",
    "binocle.profiles._common",
    "binocle.rules.tricks",
    "binocle.rules.points",
    "binocle.encoding._fast",
]
#: Modules that stay Python in both builds: the public functions check their arguments
#: themselves (game.py), Card is an int subclass (cards.py), the bots belong to no build.
INTERPRETED = [
    "binocle.game",
    "binocle.cards",
    "binocle.actions",
    "binocle.profiles",
    "binocle.rules",
    "binocle.rules.classic_melds",
    "binocle.ismcts",
    "binocle.encoding",
    "binocle.encoding._tensors",
]


def _is_extension(name: str) -> bool:
    path = importlib.import_module(name).__file__ or ""
    return not path.endswith(".py")


def test_compiled_says_which_build_is_loaded() -> None:
    """``binocle.compiled`` is True exactly when the rules modules are C extensions; in CI
    (``BINOCLE_BUILD`` set to ``pure`` or ``compiled``) it is the build the run asked for."""
    assert isinstance(binocle.compiled, bool)
    assert [_is_extension(m) for m in COMPILED] == [binocle.compiled] * len(COMPILED)
    assert not any(_is_extension(m) for m in INTERPRETED)
    wanted = os.environ.get("BINOCLE_BUILD")
    if wanted is not None:
        assert wanted in ("pure", "compiled")
        assert binocle.compiled is (wanted == "compiled")


@attrs.frozen(slots=True)
class _QuickCutthroat(Cutthroat):
    """A house variant defined in plain Python: cutthroat to 500."""

    name: ClassVar[str] = "quick-cutthroat"
    target: int = 500


def test_a_profile_subclassed_in_python_plays_in_either_build() -> None:
    """A new profile may be written as a subclass of one (docs: Profiles): the compiled
    methods it inherits accept it, and it plays as its base with its own options."""
    p = _QuickCutthroat()
    assert isinstance(p, binocle.Profile) and p.target == 500 and p.min_bid == 250
    assert binocle.profile(p) is p and p.spec() == "quick-cutthroat"
    s = play_game(p, seed=3)
    assert binocle.is_over(s) and binocle.winner(s) is not None
    assert max(binocle.score(s)) >= 500
    # The same hands as the base profile, dealt from the same seed.
    first = binocle.new_game(p, seed=3)
    assert first.hands == binocle.new_game("cutthroat", seed=3).hands


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"max_hands": 2.5}, "max_hands"),
        ({"single_set": "yes"}, "single_set"),
        ({"min_bid": "300"}, "min_bid"),
        ({"widow_after_round": None}, "widow_after_round"),
    ],
)
def test_options_of_a_wrong_type_are_refused_with_their_name(
    options: dict[str, Any], words: str
) -> None:
    """Profiles' options are checked by their own rules in both builds: a value of the
    wrong type names the option (a compiled validator must not stop it earlier with a
    bare TypeError)."""
    with pytest.raises(binocle.UnknownProfileError, match=words):
        binocle.profile("cutthroat", **options)


def test_after_the_stock_a_classic_hand_is_one_tuple_in_either_build() -> None:
    """Once the stock is gone and the tables are taken back, a classic state's ``hands``
    and ``concealed`` are one tuple, and stay so from card to card: that sharing keeps a
    classic state under 1 KB (docs: Speed, "Measured"), compiled or not."""
    s = binocle.new_game("classic", seed=11)
    rng = random.Random(11)
    checked = 0
    while not binocle.is_over(s) and checked < 5:
        legal = [a for a in binocle.legal_actions(s) if a.kind is not binocle.Kind.CLAIM]
        before = s
        s = binocle.apply(s, rng.choice(legal))
        shared = getattr(before, "concealed", None) is before.hands
        if shared and s.phase is binocle.Phase.PLAY and s.hand_number == before.hand_number:
            assert s.hands is s.concealed  # type: ignore[attr-defined]
            checked += 1
    assert checked == 5


def test_import_binocle_pulls_in_only_attrs_and_typing_extensions() -> None:
    """``import binocle`` loads no third-party package but attrs (and typing-extensions),
    in either build: the compiled modules need nothing of mypy at run time."""
    code = (
        "import sys; before = set(sys.modules); import binocle; "
        "print(sorted({m.split('.')[0] for m in set(sys.modules) - before}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600
    )
    loaded = set(ast.literal_eval(done.stdout))
    third_party = {m for m in loaded if m not in sys.stdlib_module_names and m != "binocle"}
    assert third_party <= {"attr", "attrs", "typing_extensions"}, third_party
    assert "mypy_extensions" not in loaded
