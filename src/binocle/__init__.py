"""binocle: the rules of Binocle and Pinochle, as an immutable game-state engine.

>>> import binocle
>>> from binocle.bots import play_game
>>> s = play_game("cutthroat", seed=7)
>>> binocle.is_over(s), binocle.winner(s) is not None
(True, True)
"""

from __future__ import annotations

import importlib.machinery as _machinery

from binocle import core as _core
from binocle import display as _display  # noqa: F401  (gives states and views their str())

# The deprecated module names binocle.record and binocle.validate (the modules are
# binocle.records and binocle.validation), loaded before the functions of the same
# names are bound here: a module loaded later would take the function's place.
from binocle import record as _record_module  # noqa: F401
from binocle import svg as _svg  # noqa: F401  (gives them pictures: _repr_svg_)
from binocle import validate as _validate_module  # noqa: F401
from binocle._json import JSON, JSONObject
from binocle.actions import Action, Kind
from binocle.cards import CARDS, Card, Rank, Suit, pack, parse_card, parse_cards, parse_suit
from binocle.core import GameState, HandResult, Meld, MeldResult, Phase, Profile, View
from binocle.determinize import determinize
from binocle.duplicate import ArenaReport, arena
from binocle.errors import (
    BinocleError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    NothingToUndoError,
    RuleCode,
    UnknownProfileError,
)
from binocle.game import (
    apply,
    claimants,
    current_winner,
    end_reason,
    is_over,
    legal_actions,
    meld,
    new_game,
    observe,
    parse_action,
    profile,
    score,
    stack_deck,
    start,
    winner,
)
from binocle.notation import from_position, position, view_from_position
from binocle.profiles import profile_names
from binocle.records import Record, RecordEntry, load_record, record, record_json, replay, schema
from binocle.serial import dumps, loads
from binocle.timeline import history, undo
from binocle.validation import ValidationReport, Violation, ViolationKind, validate


def _extension(module: object) -> bool:
    """Whether ``module`` was loaded from a C extension (the compiled build)."""
    path = getattr(module, "__file__", None) or ""
    return path.endswith(tuple(_machinery.EXTENSION_SUFFIXES))


__version__ = "1.1.0.dev0"

#: True when the engine's hot path runs compiled: the optional build whose rules
#: modules mypyc turned into C extensions (docs: Speed, "The compiled build").  It
#: behaves exactly as the pure-Python package, which is what ``pip install binocle``
#: gives from source.
compiled: bool = _extension(_core)

__all__ = [
    "CARDS",
    "JSON",
    "Action",
    "ArenaReport",
    "BinocleError",
    "Card",
    "GameState",
    "HandResult",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidNotationError",
    "InvalidStateError",
    "JSONObject",
    "Kind",
    "Meld",
    "MeldResult",
    "NothingToUndoError",
    "Phase",
    "Profile",
    "Rank",
    "Record",
    "RecordEntry",
    "RuleCode",
    "Suit",
    "UnknownProfileError",
    "ValidationReport",
    "View",
    "Violation",
    "ViolationKind",
    "__version__",
    "apply",
    "arena",
    "claimants",
    "compiled",
    "current_winner",
    "determinize",
    "dumps",
    "end_reason",
    "from_position",
    "history",
    "is_over",
    "legal_actions",
    "load_record",
    "loads",
    "meld",
    "new_game",
    "observe",
    "pack",
    "parse_action",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "position",
    "profile",
    "profile_names",
    "record",
    "record_json",
    "replay",
    "schema",
    "score",
    "stack_deck",
    "start",
    "undo",
    "validate",
    "view_from_position",
    "winner",
]
