"""The example data are made, not kept by hand: regenerating them gives the committed files.

``examples/revoke_game.json`` is what ``examples/validate_revoke.py
--regenerate`` writes (a cutthroat hand from a fixed seed, played by a fixed
rule, cut at a revoke), and the validator reports its revoke with the penalty
of the cutthroat rules, Revoke, as the example says.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

import binocle
from binocle.record import dump_record

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_committed_revoke_record_is_what_regeneration_makes() -> None:
    """``--regenerate`` would write exactly the committed ``revoke_game.json``."""
    made = dump_record(_example("validate_revoke").make_revoke_record())
    assert (EXAMPLES / "revoke_game.json").read_text(encoding="utf-8") == made


def test_regeneration_is_deterministic() -> None:
    """Two regenerations agree, and a record for another seed is another game."""
    example = _example("validate_revoke")
    assert example.make_revoke_record() == example.make_revoke_record()
    other = example.make_revoke_record(seed=example.SEED + 1)
    assert other["actions"][0] != example.make_revoke_record()["actions"][0]


def test_the_validator_catches_the_revoke_with_the_cutthroat_penalty() -> None:
    """Cutthroat rules, Revoke: the last entry is a revoke by an opponent of the bidder
    (he holds the suit led and plays another), everything before it is legal, and the
    report's penalty is the one the cutthroat profile gives for that seat."""
    doc = json.loads((EXAMPLES / "revoke_game.json").read_text(encoding="utf-8"))
    last = doc["actions"][-1]
    before = binocle.replay(dict(doc, actions=doc["actions"][:-1]))
    assert binocle.validate(dict(doc, actions=doc["actions"][:-1])).ok
    seat = last["seat"]
    assert seat == before.current_player
    bidder = binocle.observe(before, seat).get("bidder")
    assert isinstance(bidder, int) and bidder != seat  # an opponent's revoke, as documented
    card = binocle.parse_card(last["action"].split()[1])
    led = before.trick[0][1].suit
    assert card in before.hands[seat] and card.suit is not led
    assert any(c.suit is led for c in before.hands[seat])

    report = binocle.validate(doc)
    assert not report.ok and report.kind == "revoke"
    assert report.index == len(doc["actions"]) - 1 and report.seat == seat
    assert report.rule is not None and report.rule.startswith(f"must follow suit {led.letter}")
    assert report.penalty == before.profile.revoke_penalty(before, seat)
    assert report.penalty is not None and "(cutthroat rules, Revoke)" in report.penalty


def test_the_example_prints_the_validators_penalty(capsys: pytest.CaptureFixture[str]) -> None:
    """The example runs: it prints the report's penalty and the command's exit status 1."""
    example = _example("validate_revoke")
    assert example.main([]) == 0
    out = capsys.readouterr().out
    report = binocle.validate((EXAMPLES / "revoke_game.json").read_text(encoding="utf-8"))
    assert f"penalty: {report.penalty}" in out
    assert f"what follows: {report.penalty}" in out and "(exit status 1)" in out
