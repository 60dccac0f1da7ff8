"""The JSON Schemas shipped in the package: the record format and the validator's report
(docs: Record format, "JSON Schema"; Validating recorded games)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.test_violations import CASES

import binocle
from binocle.bots import RandomBot, play_game
from binocle.errors import RuleCode
from binocle.validation import ViolationKind
from helpers import load_tool

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
RECORD = binocle.schema("record")
REPORT = binocle.schema("validation-report")


def _errors(schema: dict[str, Any], doc: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [e.message for e in validator.iter_errors(doc)]


def test_the_schemas_are_draft_2020_12_with_an_id_and_a_description_of_every_property() -> None:
    """Each schema is a valid draft 2020-12 schema with ``$id`` and title, every property
    described, and ships in the package (``binocle/schemas``)."""
    for name, schema in (("record", RECORD), ("validation-report", REPORT)):
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"].endswith(f"/{name}.schema.json") and schema["title"]
        objects = [schema, *schema.get("$defs", {}).values()]
        for obj in objects:
            assert obj["description"]
            for prop, spec in obj.get("properties", {}).items():
                assert spec.get("description"), (name, prop)
        path = ROOT / "src" / "binocle" / "schemas" / f"{name}.schema.json"
        assert json.loads(path.read_text(encoding="utf-8")) == schema
    with pytest.raises(binocle.InvalidArgumentError):
        binocle.schema("state")


def test_the_report_schema_names_every_field_kind_and_code() -> None:
    """The report schema follows the classes: every field, every kind, every rule code."""
    import attrs

    from binocle.validation import ValidationReport, Violation

    assert set(REPORT["properties"]) == {f.name for f in attrs.fields(ValidationReport)}
    violation = REPORT["$defs"]["violation"]
    # The view a violation holds is a Python value, left out of its dict.
    assert set(violation["properties"]) == {f.name for f in attrs.fields(Violation)} - {"view"}
    assert REPORT["properties"]["kind"]["enum"] == [k.value for k in ViolationKind]
    assert violation["properties"]["code"]["enum"] == [c.value for c in RuleCode]


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_records_of_every_profile_follow_the_record_schema(profile: str) -> None:
    """Records written by ``binocle.record``, whole games and cut midway, with seat names,
    follow the record schema."""
    n = binocle.profile(profile).players
    names = ["Anna", "Ben", None, "Dora"][:n]
    for seed in (1, 2):
        final = play_game(
            profile, [RandomBot(seed * 10 + i) for i in range(n)], seed=seed, max_hands=3
        )
        states = binocle.replay(binocle.record(final), every=True)
        for s in (states[0], states[len(states) // 3], states[-1]):
            doc = binocle.record(s, seats=names)
            assert _errors(RECORD, doc) == []
            assert _errors(RECORD, json.loads(binocle.record_json(s))) == []
    whole = play_game(profile, seed=5)  # the baseline bots, to the game's end
    assert binocle.is_over(whole) and _errors(RECORD, binocle.record(whole, seats=names)) == []
    start = binocle.new_game(profile, seed=9, dealer=n - 1)
    assert _errors(RECORD, binocle.record(start)) == []


def test_the_example_record_follows_the_record_schema() -> None:
    doc = json.loads((ROOT / "examples" / "revoke_game.json").read_text(encoding="utf-8"))
    assert _errors(RECORD, doc) == []


@pytest.mark.parametrize("kind", list(CASES))
def test_every_report_follows_the_report_schema(kind: str) -> None:
    """A legal game's report and one of each kind, with its violations, as ``to_dict``
    gives them (and so as ``binocle validate --json`` prints them)."""
    _, report = CASES[kind]
    assert _errors(REPORT, report.to_dict()) == []
    first = binocle.validate(CASES[kind][0], first_only=True)
    assert _errors(REPORT, first.to_dict()) == []


@pytest.mark.parametrize("kind", list(CASES))
def test_the_dicts_hold_the_fields_their_types_declare(kind: str) -> None:
    """``to_dict`` gives exactly the keys of ``ValidationReportDict`` and, per
    violation, of ``ViolationDict``, and ``record()`` those of ``Record``: what a
    type checker is told is what a program reads."""
    from binocle.records import Record
    from binocle.validation import ValidationReportDict, ViolationDict

    doc = CASES[kind][1].to_dict()
    assert set(doc) == set(ValidationReportDict.__annotations__)
    for v in doc["violations"]:
        assert set(v) == set(ViolationDict.__annotations__)
    assert set(binocle.record(binocle.new_game("classic", seed=1))) == set(
        Record.__annotations__
    ) - {"tags"}


def test_the_arena_dict_holds_the_fields_its_type_declares() -> None:
    """``ArenaReport.as_dict`` gives exactly the keys of ``ArenaReportDict`` and, per
    bot, of ``BotStatsDict``."""
    from binocle.duplicate import ArenaReportDict, BotStatsDict

    doc = binocle.arena("classic", ["random", "baseline"], deals=1, seed=3).as_dict()
    assert set(doc) == set(ArenaReportDict.__annotations__)
    for st in doc["stats"]:
        assert set(st) == set(BotStatsDict.__annotations__)


def _base() -> dict[str, Any]:
    s = binocle.apply(binocle.new_game("cutthroat", seed=7), "pass")
    return dict(binocle.record(s, seats=["Anna", "Ben", "Carla"]))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(version=2),
        lambda d: d.update(format="pgn"),
        lambda d: d.update(players=3),
        lambda d: d.pop("profile"),
        lambda d: d.pop("actions"),
        lambda d: d["actions"][1].pop("action"),
        lambda d: d["actions"][1].pop("seat"),
        lambda d: d["actions"][1].update(note="x"),
        lambda d: d["actions"][1].update(action=5),
        lambda d: d["actions"][1].update(seat=7),
        lambda d: d["actions"][1].update(comment=["x"]),
        lambda d: d.update(tags={"event": 3}),
        lambda d: d.update(seats="Anna"),
        lambda d: d.update(first_dealer=-1),
        lambda d: d.update(seed=2**70),
        lambda d: d.update(actions={"seat": 1}),
        lambda d: d.update(profile="bogus"),
        lambda d: d.update(profile="cutthroat(lowest_pays=true)"),
        lambda d: d.update(profile="cutthroat(min_bid=300,)"),
        lambda d: d.update(profile="classic", seats=["Anna", "Ben", "Carla"]),
        lambda d: d.update(seats=["Anna", "Ben"]),
        lambda d: d.update(profile="classic", first_dealer=2),
        lambda d: d.update(profile="two-hand", actions=[{"seat": 2, "action": "pass"}]),
    ],
)
def test_malformed_records_are_refused_by_both(change: Any) -> None:
    """A record ``validate`` refuses for its form is refused by the schema too."""
    doc = _base()
    assert _errors(RECORD, doc) == [] and binocle.validate(doc).ok
    change(doc)
    with pytest.raises(binocle.InvalidStateError):
        binocle.validate(doc)
    assert _errors(RECORD, doc) != []


#: Profile texts, and whether binocle.profile reads them: names and aliases in any case,
#: space around, options of the profile (values every profile takes) or none.
_PROFILE_TEXTS = [
    ("classic", True),
    ("CLASSIC", True),
    (" Two-Hand ", True),
    ("three_handed", True),
    ("Three-Handed-Binocle(claim_overlooked=yes)", True),
    ("cut-throat(min_bid=300)", True),
    ("cutthroat( min_bid = 300 , single_set=true)", True),
    ("classic()", True),
    ("classic ( )", True),
    ("three(target=500,target=600)", True),
    ("bogus", False),
    ("", False),
    ("classic(", False),
    ("classic x", False),
    ("classic(lowest_pays=true)", False),
    ("cutthroat(min_bid=300,)", False),
    ("classic(target)", False),
    ("two_hand", False),  # an alias's hyphens stay hyphens; only names take underscores
    ("cut_throat", False),
    ("cutthroat(Min_bid=300)", False),  # option names are exact
]


@pytest.mark.parametrize(("text", "reads"), _PROFILE_TEXTS)
def test_the_profile_pattern_takes_what_binocle_profile_reads(text: str, reads: bool) -> None:
    """Record format, JSON Schema: the ``profile`` text matches the schema exactly when
    binocle.profile reads it (a profile's name or alias in any case, its own options),
    the values of options aside; and a record then holds the profile's seats."""
    try:
        p = binocle.profile(text)
    except binocle.BinocleError:
        p = None
    assert (p is not None) == reads
    doc = {"format": "binocle-record", "version": 1, "profile": text, "actions": []}
    assert (_errors(RECORD, doc) == []) == reads
    if p is not None:
        n = p.players
        assert _errors(RECORD, {**doc, "seats": [None] * n, "first_dealer": n - 1}) == []
        assert _errors(RECORD, {**doc, "seats": [None] * (5 - n)}) != []
        assert _errors(RECORD, {**doc, "first_dealer": n}) != []


def test_the_record_schema_is_what_the_profiles_write() -> None:
    """The profile patterns and the seats they hold are written from the profiles by
    ``tools/gen_record_schema.py``: a new profile, alias or option is in the schema."""
    gen = load_tool("gen_record_schema")
    path = ROOT / "src" / "binocle" / "schemas" / "record.schema.json"
    assert path.read_text(encoding="utf-8") == gen.text(gen.generated()), (
        "run tools/gen_record_schema.py"
    )
