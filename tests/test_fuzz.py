"""Fuzzing the error contract with hypothesis (docs: front-end guide, "Errors").

Every public function returns a correct result or raises a BinocleError; a
refused action leaves the state unchanged; ``loads`` accepts only states a real
game reaches.  The generators and checkers are those of ``tests/fuzz/run.py``,
which runs the same targets at scale; here hypothesis drives them, and also
feeds its own text to every reader.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import binocle
from binocle import BinocleError

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz"))

import contextlib

import fuzzlib

_POOL: fuzzlib.Pool | None = None


def _pool() -> fuzzlib.Pool:
    global _POOL
    if _POOL is None:
        _POOL = fuzzlib.Pool(random.Random(5), per_spec=2, max_actions=150)
    return _POOL


def _run(name: str, rng: random.Random, times: int = 1) -> None:
    check, _ = fuzzlib.TARGETS[name]
    tally = fuzzlib.Tally(name)
    for _ in range(times):
        check(rng, _pool(), tally)
    assert tally.failures() == 0, tally.examples


_FAST = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@pytest.mark.parametrize("target", sorted(fuzzlib.TARGETS))
@_FAST
@given(rng=st.randoms(use_true_random=False))
def test_every_target_keeps_the_contract(target: str, rng: random.Random) -> None:
    """Front-end guide, "Errors": each entry point, on hostile input built from the
    hypothesis seed, refuses with a BinocleError or gives a correct result; no refused
    action changes a state; loads accepts only real games."""
    _run(
        target,
        rng,
        times=1 if target in ("loads", "cli_validate", "cli_play_load", "records") else 5,
    )


_ANY_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60
) | st.sampled_from(["bid ²", "play KS table ٣", "meld 1" + "0" * 5000, "claim 99", "dix 3"])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=_ANY_TEXT)
def test_any_text_as_an_action(text: str) -> None:
    """Front-end guide, "Errors": any text given to parse_action or apply, in states of
    every profile, parses or is refused with a BinocleError, and a refusal changes
    nothing."""
    pool = _pool()
    for i in range(0, len(pool.states), 3):
        s = pool.states[i]
        before = binocle.dumps(s)
        with contextlib.suppress(BinocleError):
            binocle.parse_action(s, text)
        try:
            binocle.apply(s, text)
        except BinocleError:
            assert binocle.dumps(s) == before


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=_ANY_TEXT)
def test_any_text_as_a_card_profile_or_state(text: str) -> None:
    """Front-end guide, "Errors": any text given to parse_card, parse_cards, parse_suit,
    Card, Suit, profile, loads, load_record or validate is read or refused with a
    BinocleError."""
    readers: list[Any] = [
        binocle.parse_card, binocle.parse_cards, binocle.parse_suit, binocle.Card,
        binocle.Suit, binocle.profile, binocle.loads, binocle.load_record, binocle.validate,
    ]  # fmt: skip
    for read in readers:
        with contextlib.suppress(BinocleError):
            read(text)
    with contextlib.suppress(BinocleError):
        binocle.profile(f"cutthroat({text})")


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    spec=st.sampled_from(["cutthroat", "classic", "three-handed"]),
    option=st.sampled_from(["min_bid", "max_bid", "target", "pack", "single_set", "max_hands"]),
    value=st.one_of(
        st.integers(), st.floats(), st.text(max_size=12), st.none(), st.booleans(),
        st.lists(st.integers(), max_size=3), st.integers(min_value=10**20, max_value=10**30),
    ),
)  # fmt: skip
def test_any_profile_option(spec: str, option: str, value: Any) -> None:
    """Profiles: an option of any value, by keyword or in the text, gives a profile whose
    text reads back to it, or UnknownProfileError."""
    for make in (
        lambda: binocle.profile(spec, **{option: value}),
        lambda: binocle.profile(f"{spec}({option}={value})"),
    ):
        try:
            p = make()
        except binocle.UnknownProfileError:
            continue
        assert binocle.profile(p.spec()) == p


def test_loads_check_finds_an_edited_snapshot() -> None:
    """The fuzzer's own check: a state whose snapshot was edited is not a real game, so
    if loads ever accepted one the fuzzer would count it."""
    s = _pool().states[0]
    doc = json.loads(binocle.dumps(s))
    assert fuzzlib.real_game(json.dumps(doc), s, s)
    doc["state"]["scores"] = [x + 10 for x in doc["state"]["scores"]]
    other = binocle.new_game(s.profile, seed=s.seed + 1)
    assert not fuzzlib.real_game(json.dumps(doc), other, s)


def test_same_figures_in_threads() -> None:
    """Front-end guide, "Errors": the engine gives the same answers from several threads
    at once as from one: the fuzzer's figures for a seed do not change."""
    from concurrent.futures import ThreadPoolExecutor

    def figures(seed: int) -> tuple[int, int, int]:
        tally = fuzzlib.Tally("threads")
        rng = random.Random(seed)
        for _ in range(150):
            fuzzlib.check_apply_text(rng, _pool(), tally)
            fuzzlib.check_apply_action(rng, _pool(), tally)
        return tally.tried, tally.refused, tally.failures()

    alone = [figures(seed) for seed in range(4)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(figures, range(4)))
    assert together == alone and all(f == 0 for _, _, f in alone)
