"""Fuzzing the error contract: generators of hostile input and one checker per entry point.

The contract (docs: front-end guide, "Errors"): every public function returns a
correct result or raises a :class:`binocle.BinocleError`; a refused action
leaves the state unchanged; ``loads`` never accepts a state that no real game
reaches.  Each ``check_*`` function below takes a ``random.Random`` and a
:class:`Tally`, builds one hostile input, runs it and counts what happened.
``run.py`` drives them at scale; ``tests/test_fuzz.py`` drives them from
hypothesis.  Everything is deterministic for a given seed.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import signal
import string
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

import binocle
from binocle import Action, BinocleError, Card, GameState, Kind, Phase, Suit, rulings
from binocle.errors import RuleCode, excerpt
from binocle.profiles.cutthroat import chip_value
from binocle.serial import snapshot
from binocle.testing import check_state

try:
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]

#: An input that takes more CPU time than this is a hang (CPU time, the process's own
#: and its finished children's: a loaded machine stretches the wall clock, not this).
HANG_SECONDS = 2.0
#: A real hang is broken off after this much of the process's CPU time (and counted).
ABORT_SECONDS = 10.0

#: Profiles the states are drawn from: every profile with its defaults, and with options.
PROFILE_SPECS = (
    "cutthroat",
    "cutthroat(single_set=true,easier_tricks=true,bunched_hands=true,widow_after_round=0)",
    "cutthroat(min_bid=10,max_bid=400,target=300)",
    "cutthroat(settlement=chips,max_hands=2)",
    "classic",
    "classic(pack=64,grand_binocle=true,target=300)",
    "three-handed",
    "three-handed(claim_overlooked=true,lowest_pays=true,grand_binocle=true,target=300)",
)


class Hang(Exception):
    """Raised by the alarm when one input runs past ``ABORT_SECONDS``."""


@attrs.define
class Tally:
    """What one target saw: inputs tried and every way the contract broke."""

    name: str
    tried: int = 0
    refused: int = 0
    foreign: int = 0  # exceptions other than BinocleError: must be 0
    hangs: int = 0  # inputs over HANG_SECONDS: must be 0
    unreal: int = 0  # states loads accepted that no real game reaches: must be 0
    changed: int = 0  # states changed by a refused action: must be 0
    wrong: int = 0  # accepted what the rules forbid, or a wrong result: must be 0
    slowest: float = 0.0
    examples: list[str] = attrs.field(factory=list)

    def failures(self) -> int:
        return self.foreign + self.hangs + self.unreal + self.changed + self.wrong

    def note(self, kind: str, what: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {what[:300]}")

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.name,
            "tried": self.tried,
            "refused": self.refused,
            "non_binocle_exceptions": self.foreign,
            "hangs_over_2s": self.hangs,
            "unreal_states_accepted": self.unreal,
            "state_changed_on_refusal": self.changed,
            "wrong_results": self.wrong,
            "slowest_seconds": round(self.slowest, 3),
            "examples": self.examples,
        }


def _alarm(signum: int, frame: Any) -> None:
    raise Hang


def timed(tally: Tally, what: Callable[[], str], body: Callable[[], Any]) -> tuple[bool, Any]:
    """Run ``body`` once: (True, result), or (False, the BinocleError) when it refused.

    Counts the input, its time, and anything that is not a BinocleError; ``what``
    describes the input for the examples (called only when something went wrong).
    """
    tally.tried += 1
    armed = hasattr(signal, "setitimer") and _main_thread()
    if armed:
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, ABORT_SECONDS)
    start = cpu_seconds()
    ok, result = False, None
    try:
        result = body()
        ok = True
    except BinocleError as exc:
        tally.refused += 1
        result = exc
    except Hang:
        tally.note("hangs", f"broken off after {ABORT_SECONDS}s: {_say(what)}")
        return False, None
    except Exception as exc:  # the contract says this never happens
        where = traceback.extract_tb(exc.__traceback__)[-1]
        tally.note(
            "foreign",
            f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}:"
            f" {_say(lambda e=exc: str(e))} <- {_say(what)}",
        )
        return False, None
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_PROF, 0)
    spent = cpu_seconds() - start
    tally.slowest = max(tally.slowest, spent)
    if spent > HANG_SECONDS:
        tally.note("hangs", f"{spent:.1f}s: {_say(what)}")
    return ok, result


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and by its children that have ended (a
    target that runs the command line counts its subprocess's time)."""
    if resource is None:  # pragma: no cover - Windows
        return time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _say(what: Callable[[], str]) -> str:
    """A description of an input, whatever it holds (a huge int has no repr)."""
    try:
        return what()[:300]
    except Exception as exc:
        return f"<input that cannot be shown: {type(exc).__name__}>"


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


# -- states ----------------------------------------------------------------------------------------


def random_state(rng: random.Random, spec: str | None = None, max_actions: int = 200) -> GameState:
    """A state reached by uniform random play (claims rarely) from a random seed."""
    s = binocle.new_game(spec or rng.choice(PROFILE_SPECS), seed=rng.randrange(2**32))
    for _ in range(rng.randrange(max_actions)):
        if binocle.is_over(s):
            break
        legal = binocle.legal_actions(s)
        calm = [a for a in legal if a.kind not in (Kind.CLAIM, Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(calm if calm and rng.random() > 0.02 else legal))
    return s


class Pool:
    """Random reachable states of every profile, built once and reused."""

    def __init__(self, rng: random.Random, per_spec: int = 6, max_actions: int = 200) -> None:
        self.states = [
            random_state(rng, spec, max_actions) for spec in PROFILE_SPECS for _ in range(per_spec)
        ]
        self.snapshots = [json.dumps(snapshot(s), sort_keys=True) for s in self.states]

    def pick(self, rng: random.Random) -> tuple[int, GameState]:
        i = rng.randrange(len(self.states))
        return i, self.states[i]


# -- hostile values ----------------------------------------------------------------------------------

_WORDS = [
    "pass",
    "bid",
    "play",
    "discard",
    "trump",
    "dix",
    "meld",
    "claim",
    "knock",
    "concede",
    "deal",
    "bunch",
    "table",
    "hand",
    "give",
    "up",
    "overlooked",
    "marriage",
    "run",
    "pinochle",
    "flush",
    "sequence",
    "four",
    "kings",
    "queens",
    "aces",
    "jacks",
    "+",
    "#",
    "royal",
    "double",
    "binocle",
    "grand",
]
_NUMBERS = (
    "0", "1", "2", "3", "10", "250", "255", "300", "-5", "+5", "1e99", "1_000", "²", "٣٠٠",
    "0x10", "999999999", "1000000000", "9" * 5000, " ", "", "00000000000000000000250", "NaN",
)  # fmt: skip


def junk_value(rng: random.Random, depth: int = 0) -> Any:
    """A value of any type, often the wrong one for where it goes."""
    r = rng.randrange(16)
    if r == 0:
        return None
    if r == 1:
        return rng.choice((True, False))
    if r == 2:
        return rng.choice((0, 1, -1, 31, 32, 99, 2**31, 2**64, -(2**70), 10**5000))
    if r == 3:
        return rng.choice((0.5, 1.0, float("inf"), float("nan"), -0.0, 1e308))
    if r == 4:
        return random_text(rng, 20)
    if r == 5:
        return rng.choice(binocle.CARDS)
    if r == 6:
        return rng.choice(list(Suit))
    if r == 7:
        return rng.choice(list(Kind))
    if r == 8 and depth < 3:
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if r == 9 and depth < 3:
        return tuple(junk_value(rng, depth + 1) for _ in range(rng.randrange(4)))
    if r == 10 and depth < 3:
        return {f"k{rng.randrange(100)}": junk_value(rng, depth + 1)}
    if r == 11:
        return rng.choice((b"AS", bytearray(b"x"), object(), 1j, range(3), frozenset({1})))
    if r == 12:
        return "x" * rng.choice((100, 10_000, 1_000_000))
    if r == 13:
        return rng.choice(_NUMBERS)
    if r == 14:
        return str(rng.choice(binocle.CARDS))
    return rng.choice(_WORDS)


def random_text(rng: random.Random, words: int = 6) -> str:
    """Text made of action words, cards, numbers, suit letters and odd characters."""
    out = []
    for _ in range(rng.randrange(words + 1)):
        r = rng.randrange(8)
        if r < 3:
            out.append(rng.choice(_WORDS))
        elif r < 5:
            c = str(rng.choice(binocle.CARDS))
            out.append(rng.choice((c, c.lower(), "10" + c[1], c[0] + "♠♥♦♣"[rng.randrange(4)])))
        elif r == 5:
            out.append(rng.choice(_NUMBERS))
        elif r == 6:
            out.append(rng.choice("SHDC♠♥♦♣") + rng.choice(("", "#3", "#²", "#" + "9" * 50)))
        else:
            alphabet = string.printable + "²³¹٣०\u00a0\u2003\u200b\ufeff\x00é♠"
            out.append("".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 8))))
    return rng.choice((" ", "  ", "\t", " \u3000 ")).join(out)


def random_action(rng: random.Random, junk: bool) -> dict[str, Any]:
    """Keyword arguments of ``Action``: well typed (``junk`` False) or of any type."""
    if junk:
        fields = ("card", "number", "suit", "cards", "name", "source")
        kw = {f: junk_value(rng) for f in fields if rng.random() < 0.4}
        kw["kind"] = junk_value(rng) if rng.random() < 0.3 else rng.choice(list(Kind))
        return kw
    kind = rng.choice(list(Kind))
    kw: dict[str, Any] = {"kind": kind}
    if rng.random() < 0.8 or kind in (Kind.PLAY, Kind.DISCARD):
        kw["card"] = rng.choice(binocle.CARDS)
    if rng.random() < 0.5 or kind is Kind.BID:
        kw["number"] = rng.choice((0, 1, 2, 3, 7, 250, 255, 300, 3000, 999_999_999))
    if rng.random() < 0.3 or kind is Kind.TRUMP:
        kw["suit"] = rng.choice(list(Suit))
    if rng.random() < 0.5 or kind is Kind.DEAL:
        n = rng.choice((0, 1, 2, 4, 5, 12, 48, 64))
        kw["cards"] = tuple(rng.choice(binocle.CARDS) for _ in range(n)) or (binocle.CARDS[0],)
    if rng.random() < 0.4:
        kw["name"] = rng.choice(("marriage", "run", "four kings", "pinochle", "x", "", "dix"))
    if rng.random() < 0.4:
        kw["source"] = rng.choice(("table", "hand", "KS", "KS#3 QS", "garbage", "", "QS#99"))
    return kw


# -- mutations of JSON text -------------------------------------------------------------------------


def mutate_text(rng: random.Random, text: str) -> str:
    """One character replaced, inserted or deleted."""
    if not text:
        return rng.choice(string.printable)
    i = rng.randrange(len(text))
    r = rng.randrange(3)
    c = rng.choice(string.printable + '²é♠\x00\\"{}[]:,0123456789')
    if r == 0:
        return text[:i] + c + text[i + 1 :]
    if r == 1:
        return text[:i] + c + text[i:]
    return text[:i] + text[i + 1 :]


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            if len(doc) < 80 or i % 7 == 0:
                yield from _paths(v, (*prefix, i))


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def json_junk(rng: random.Random) -> Any:
    """A JSON value of any type."""
    r = rng.randrange(10)
    if r == 0:
        return None
    if r == 1:
        return rng.choice((True, False))
    if r == 2:
        return rng.choice((0, 1, -1, 2, 3, 7, 250, 2**63, 10**300, 1.0, 0.5))
    if r == 3:
        return random_text(rng, 4)
    if r == 4:
        return str(rng.choice(binocle.CARDS))
    if r == 5:
        return []
    if r == 6:
        return {}
    if r == 7:
        return [json_junk(rng)]
    if r == 8:
        return rng.choice(("pass", "meld", "claim", "bid 250", "play AS", "meld 290", "meld ²"))
    return {"seat": rng.choice((None, 0, 1, 2, 5, "0")), "action": random_text(rng, 3)}


def mutate_doc(rng: random.Random, doc: dict[str, Any]) -> tuple[str, str]:
    """A mutated copy of a state's or record's JSON, as text, and what was done."""
    text = json.dumps(doc)
    r = rng.randrange(100)
    if r < 25:
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            text = mutate_text(rng, text)
        return text, "character"
    d = json.loads(text)
    if r < 55:  # an edited field, anywhere
        paths = list(_paths(d))[1:]
        path = rng.choice(paths)
        old = _get(d, path)
        choice = rng.randrange(4)
        if choice == 0 and isinstance(old, int) and not isinstance(old, bool):
            new: Any = old + rng.choice((-10, -1, 1, 10, 2**64))
        elif choice == 1 and isinstance(old, str):
            new = old[: rng.randrange(len(old) + 1)] + random_text(rng, 1)
        elif choice == 2:
            new = _get(d, rng.choice(paths))  # another field's value
            new = json.loads(json.dumps(new))
        else:
            new = json_junk(rng)
        return json.dumps(_set(d, path, new)), f"field {path}"
    if r < 70:  # two cards swapped (in the snapshot, a deal, an action)
        cards = [str(c) for c in binocle.pack(64)[::2]]
        a, b = rng.sample(cards, 2)
        places = [i for i in range(len(text) - 1) if text[i : i + 2] == a]
        if places:
            i = rng.choice(places)
            text = text[:i] + b + text[i + 2 :]
            if rng.random() < 0.5:
                js = [j for j in range(len(text) - 1) if text[j : j + 2] == b and j != i]
                if js:
                    j = rng.choice(js)
                    text = text[:j] + a + text[j + 2 :]
        return text, f"swap {a} {b}"
    if r < 82 and isinstance(d.get("actions"), list) and d["actions"]:  # truncated history
        keep = rng.randrange(len(d["actions"]))
        d["actions"] = d["actions"][:keep]
        return json.dumps(d), f"truncated to {keep}"
    if r < 88:  # deep nesting somewhere
        depth = rng.choice((50, 1000, 100_000))
        path = rng.choice(list(_paths(d))[1:])
        return json.dumps(_set(d, path, None)).replace(
            "null", "[" * depth + "]" * depth, 1
        ), f"nested {depth}"
    if r < 92:  # a big input
        size = rng.choice((64_000, 1_000_000, 10_000_000))
        path = rng.choice(list(_paths(d))[1:])
        filler = rng.choice((" " * size, "9" * size, "KS " * (size // 3), "[" * size))
        if filler.startswith("["):
            return text[: len(text) // 2] + filler, f"big {size} unclosed"
        return json.dumps(_set(d, path, filler)), f"big {size} at {path}"
    if r < 96:  # an action entry duplicated or removed
        acts = d.get("actions")
        if isinstance(acts, list) and acts:
            i = rng.randrange(len(acts))
            if rng.random() < 0.5:
                acts.insert(i, acts[i])
            else:
                del acts[i]
        return json.dumps(d), "entry duplicated or removed"
    return random_text(rng, 30), "random text"


# -- the targets ---------------------------------------------------------------------------------------


def check_loads(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``loads`` on a mutated saved state: refuses, or gives a real game's state."""
    _, s = pool.pick(rng)
    original = json.loads(binocle.dumps(s))
    text, how = mutate_doc(rng, original)
    as_bytes = rng.random() < 0.1
    given: Any = text.encode() if as_bytes else text
    ok, got = timed(tally, lambda: f"{how}: {text[:200]}", lambda: binocle.loads(given))
    if not ok or got is None:
        return
    if not real_game(text, got, s):
        tally.note("unreal", f"{how}: {text[:200]}")


def real_game(text: str, got: GameState, saved: GameState) -> bool:
    """Whether a state ``loads`` accepted from ``text`` is one a real game reaches: the
    state that was saved, or the game its (edited) record plays, whose snapshot is the
    one the text holds and whose invariants hold."""
    if got == saved and got.actions() == saved.actions():
        return True
    try:
        doc = json.loads(text)
        record = {k: v for k, v in doc.items() if k != "state"}
        record["format"] = "binocle-record"
        real = binocle.replay(record)
        check_state(got)
    except Exception:
        return False
    return (
        json.dumps(snapshot(real), sort_keys=True) == json.dumps(doc["state"], sort_keys=True)
        and real == got
        and got.actions() == real.actions()
    )


def _refusal_changed(pool: Pool, i: int, s: GameState) -> bool:
    return json.dumps(snapshot(s), sort_keys=True) != pool.snapshots[i]


def check_apply_text(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``parse_action`` and ``apply`` on random text in a random reachable state."""
    i, s = pool.pick(rng)
    legal = binocle.legal_actions(s)
    if legal and rng.random() < 0.3:  # a legal action's text, bent a little
        text = mutate_text(rng, str(rng.choice(legal)))
    else:
        text = random_text(rng, rng.choice((1, 2, 3, 6, 20)))
    ok, action = timed(tally, lambda: repr(text), lambda: binocle.parse_action(s, text))
    ok2, after = timed(tally, lambda: repr(text), lambda: binocle.apply(s, text))
    _after_apply(pool, i, s, ok2, after, action if ok else None, text, tally)


def check_apply_action(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``Action(...)`` with well-typed or junk fields, then ``apply`` in a random state."""
    i, s = pool.pick(rng)
    kw = random_action(rng, junk=rng.random() < 0.5)
    ok, action = timed(tally, lambda: repr(kw)[:200], lambda: Action(**kw))
    if not ok or action is None:
        return
    ok2, after = timed(tally, lambda: repr(action)[:200], lambda: binocle.apply(s, action))
    _after_apply(pool, i, s, ok2, after, action, repr(action), tally)


def _after_apply(
    pool: Pool, i: int, s: GameState, ok: bool, after: Any, action: Action | None, what: str,
    tally: Tally,
) -> None:  # fmt: skip
    if _refusal_changed(pool, i, s):
        tally.note("changed", what)
        pool.snapshots[i] = json.dumps(snapshot(s), sort_keys=True)
    if not ok or not isinstance(after, GameState) or action is None:
        return
    legal = binocle.legal_actions(s)
    allowed = (
        action in legal
        or (action.kind is Kind.DEAL and s.phase is Phase.DEAL)
        or (action.kind is Kind.CLAIM and action.number in binocle.claimants(s))
    )
    if not allowed:
        tally.note("wrong", f"accepted an action not offered: {what}")


def check_cards(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``parse_card``, ``parse_cards``, ``Card``, ``Suit``, ``parse_suit``, ``pack`` on
    anything."""
    value = junk_value(rng) if rng.random() < 0.4 else random_text(rng, rng.choice((1, 3, 30)))
    for fn in (
        binocle.parse_card,
        binocle.parse_cards,
        Card,
        Suit,
        binocle.parse_suit,
        binocle.pack,
    ):
        ok, got = timed(
            tally, lambda fn=fn: f"{fn.__name__}({value!r:.200})", lambda fn=fn: fn(value)
        )
        if ok and fn is binocle.parse_card and Card(str(got)) is not got:
            tally.note("wrong", f"parse_card({value!r:.100}) does not read back")


def check_meld(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``meld`` on random or junk cards, trump and profile."""
    r = rng.random()
    if r < 0.5:
        pack = binocle.pack(rng.choice((48, 64)))
        cards: Any = rng.sample(pack, rng.randrange(0, 25))
        if rng.random() < 0.3:
            cards = " ".join(map(str, cards))
    elif r < 0.8:
        cards = random_text(rng, 16)
    else:
        cards = junk_value(rng)
    trump = rng.choice(list(Suit)) if rng.random() < 0.6 else junk_value(rng)
    prof = rng.choice(PROFILE_SPECS) if rng.random() < 0.8 else junk_value(rng)
    ok, got = timed(
        tally,
        lambda: f"meld({cards!r:.200}, {trump!r}, {prof!r:.60})",
        lambda: binocle.meld(cards, trump, prof),
    )
    if ok and (got.total < 0 or (got.total != sum(m.value for m in got.melds) and got.melds)):
        tally.note("wrong", f"meld total {got.total} of {got.melds}")


_MELD_NAMES = ("run", "double run", "marriage", "royal marriage", "dix", "pinochle",
               "double pinochle", "aces around", "kings around", "double queens around",
               "binocle", "double binocle", "grand binocle", "sequence", "four aces",
               "eight kings", "four jacks", "nope", "", "Four  Kings")  # fmt: skip
_MUST = frozenset({RuleCode.MUST_FOLLOW, RuleCode.MUST_BEAT, RuleCode.MUST_TRUMP,
                   RuleCode.MUST_OVERTRUMP, RuleCode.MUST_UNDERTRUMP})  # fmt: skip


def _some_cards(rng: random.Random, most: int) -> Any:
    """Cards as the stateless rules take them (objects, numbers, text), or junk."""
    r = rng.random()
    if r < 0.7:
        cards: Any = rng.sample(binocle.pack(48), rng.randrange(0, most + 1))
        form = rng.random()
        if form < 0.3:
            return " ".join(map(str, cards))
        if form < 0.45:
            return [int(c) for c in cards]
        return cards
    if r < 0.85:
        return random_text(rng, most)
    return junk_value(rng)


def check_rulings(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """The stateless rules (binocle.rulings) on random or junk cards, trumps, profiles
    and declarations: a ruling consistent with itself, or a BinocleError."""
    prof = rng.choice(PROFILE_SPECS) if rng.random() < 0.85 else junk_value(rng)
    hand = _some_cards(rng, 15)
    trick = _some_cards(rng, 2)
    trump = rng.choice((*Suit, "H", "spades", 2, None)) if rng.random() < 0.8 else junk_value(rng)
    stock = rng.choice((True, False, None, None)) if rng.random() < 0.9 else junk_value(rng)
    # Dead cards (positions of the trick) and the two-handed game after a retirement.
    more: dict[str, Any] = {}
    if rng.random() < 0.3:
        more["dead"] = (
            rng.choice(([0], [1], [0, 1], [], [2], (-1,), "0"))
            if rng.random() < 0.85
            else junk_value(rng)
        )
    if rng.random() < 0.15:
        more["two_handed"] = True if rng.random() < 0.8 else junk_value(rng)
    which = rng.randrange(4)
    if which == 0:
        ok, got = timed(
            tally,
            lambda: (
                f"allowed_plays({prof!r:.60}, {hand!r:.200}, {trick!r:.60}, {trump!r:.30},"
                f" {more!r:.60})"
            ),
            lambda: rulings.allowed_plays(prof, hand, trick, trump, stock_exhausted=stock, **more),
        )
        if ok:
            held = set(got.hand)
            if not got.allowed and held:
                tally.note("wrong", f"nothing allowed from {got.hand}")
            if set(got.allowed) | {r.card for r in got.refused} != held or any(
                r.rule not in _MUST or r.allowed for r in got.refused
            ):
                tally.note("wrong", f"allowed_plays gave {got}")
    elif which == 1:
        card = rng.choice(binocle.pack(48)) if rng.random() < 0.8 else junk_value(rng)
        ok, got = timed(
            tally,
            lambda: f"check_play({prof!r:.60}, {card!r:.30}, {hand!r:.200}, {trick!r:.60})",
            lambda: rulings.check_play(
                prof, card, hand, trick, trump, stock_exhausted=stock, **more
            ),
        )
        if ok and got.allowed == (got.rule is not None):
            tally.note("wrong", f"check_play gave {got}")
    elif which == 2:
        ok, got = timed(
            tally,
            lambda: f"trick_winner({prof!r:.60}, {trick!r:.60}, {trump!r:.30})",
            lambda: rulings.trick_winner(prof, trick, trump, **more),
        )
        if ok and not 0 <= got < 3:
            tally.note("wrong", f"trick_winner gave {got}")
    else:
        declared: Any = [
            (rng.choice(_MELD_NAMES), _some_cards(rng, 5),
             rng.choice((None, 20, 40, 100, 150, -5, 10**9)))
            for _ in range(rng.randrange(5))
        ]  # fmt: skip
        if rng.random() < 0.1:
            declared = junk_value(rng)
        ok, got = timed(
            tally,
            lambda: f"check_meld({prof!r:.60}, {hand!r:.200}, {trump!r:.30}, {declared!r:.200})",
            lambda: rulings.check_meld(prof, hand, trump, declared),
        )
        if ok and (
            got.worth != sum(r.worth for r in got.rulings)
            or any(r.worth < 0 or (r.ok and not r.worth) for r in got.rulings)
            or got.best < 0
        ):
            tally.note("wrong", f"check_meld gave {got}")


_OPTION_NAMES = ("min_bid", "max_bid", "single_set", "target", "pack", "grand_binocle",
                 "claim_overlooked", "lowest_pays", "widow_after_round", "bunched_hands",
                 "easier_tricks", "max_hands", "settlement", "nope", "", "min bid", "(min_bid")  # fmt: skip
_OPTION_VALUES = (*_NUMBERS, "true", "false", "yes", "off", "abc", "(300)", "((300))", "'300'",
                  '"x"', "3.5", "64", "48", "10", "-0", "True", "1e3", "chips", "points")  # fmt: skip


def random_spec(rng: random.Random) -> str:
    """A profile text: a name or alias (or junk), then options of any shape."""
    name = rng.choice(
        ("cutthroat", "classic", "three-handed", "three_handed", "auction", "Cut-Throat", "nope",
         "", "1abc", "cutthroat cutthroat", "a" + " " * rng.choice((1, 1000, 64000)) + "x")
    )  # fmt: skip
    if rng.random() < 0.3:
        return name
    parts = []
    for _ in range(rng.randrange(5)):
        k = rng.choice(_OPTION_NAMES)
        v = rng.choice(_OPTION_VALUES)
        parts.append(rng.choice((f"{k}={v}", f" {k} = {v} ", k, f"{k}=({v})", f"{k}={v}=1")))
    inside = ",".join(parts)
    if rng.random() < 0.2:
        inside = "(" * rng.randrange(1, 50) + inside + ")" * rng.randrange(0, 50)
    return f"{name}({inside})" + rng.choice(("", "", ")", " ", "(", "x"))


def check_profile(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``profile`` on option texts, and keyword options of any type; a profile given
    is usable: its text reads back and a game starts."""
    if rng.random() < 0.7:
        spec = random_spec(rng) if rng.random() < 0.9 else mutate_text(rng, random_spec(rng))
        ok, p = timed(tally, lambda: repr(spec)[:200], lambda: binocle.profile(spec))
    else:
        kw = {rng.choice(_OPTION_NAMES): junk_value(rng) for _ in range(rng.randrange(1, 3))}
        name = rng.choice(("cutthroat", "classic", "three-handed"))
        ok, p = timed(tally, lambda: f"{name} {kw!r:.200}", lambda: binocle.profile(name, **kw))
    if ok and p is not None:
        ok2, again = timed(tally, lambda: f"spec of {p!r}", lambda: binocle.profile(p.spec()))
        if ok2 and again != p:
            tally.note("wrong", f"{p.spec()} reads back as another profile")
        s = None
        ok3, s = timed(tally, lambda: f"new_game({p.spec()})", lambda: binocle.new_game(p, seed=1))
        if ok3 and s is not None:
            timed(tally, lambda: f"play {p.spec()}", lambda: random_state(rng, p.spec(), 60))


def check_records(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``load_record``, ``replay`` and ``validate`` on a mutated record (text or dict)."""
    _, s = pool.pick(rng)
    text, how = mutate_doc(rng, binocle.record(s))
    forms: list[Any] = [text]
    with contextlib.suppress(ValueError, RecursionError):
        forms.append(json.loads(text))
    for given in forms:
        for fn in (binocle.load_record, binocle.replay, binocle.validate):
            ok, got = timed(
                tally,
                lambda fn=fn: f"{fn.__name__} {how}: {text[:200]}",
                lambda fn=fn, given=given: fn(given),
            )
            if ok and fn is binocle.validate:
                timed(tally, lambda: f"str(report) {how}", lambda got=got: str(got))


def check_cli_validate(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``binocle validate FILE`` on a mutated record: exit 0, 1 or 2 and no traceback."""
    from binocle.cli import main

    _, s = pool.pick(rng)
    text, how = mutate_doc(rng, binocle.record(s))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        f.write(text)
        name = f.name
    out, err = io.StringIO(), io.StringIO()
    os.environ["BINOCLE_TRACEBACK"] = "1"  # a bug raises instead of printing one line
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            ok, code = timed(
                tally,
                lambda: f"binocle validate ({how}): {text[:200]}",
                lambda: main(["validate", name] + (["--json"] if rng.random() < 0.3 else [])),
            )
    finally:
        os.unlink(name)
    if ok and code not in (0, 1, 2):
        tally.note("wrong", f"exit status {code} ({how})")
    if "Traceback" in err.getvalue() or "internal error" in err.getvalue():
        tally.note("foreign", f"{err.getvalue()[:200]} ({how})")


_POSITIONS: dict[tuple[int, int, bool], str] = {}


def _position_text(pool: Pool, i: int, s: GameState, view: bool) -> str:
    """The position of pool state ``i`` (or of its player to act's view), written once."""
    key = (id(pool), i, view)
    if key not in _POSITIONS:
        seat = (s.current_player or 0) if view else None
        try:
            _POSITIONS[key] = binocle.position(s, seat=seat)
        except BinocleError:  # a view determinize cannot sample: the state's instead
            _POSITIONS[key] = binocle.position(s)
    return _POSITIONS[key]


def mutate_position(rng: random.Random, text: str) -> tuple[str, str]:
    """A position text bent: characters, a field, the moves cut or swapped, or junk."""
    r = rng.randrange(100)
    if r < 35:
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = mutate_text(rng, text)
        return text, "character"
    head, _, rest = text.partition(" | ")
    summary, _, moves = rest.partition(" | ")
    if r < 50:  # a summary field changed or another's value given
        fields = summary.split()
        if fields:
            k = rng.randrange(len(fields))
            name = fields[k].partition("=")[0]
            value = (
                rng.choice(fields).partition("=")[2] if rng.random() < 0.5 else random_text(rng, 1)
            )
            fields[k] = f"{name}={value}"
        return f"{head} | {' '.join(fields)} | {moves}", "field"
    if r < 62:  # the moves cut short, with or without the summary
        cut = moves.split(",")[: rng.randrange(len(moves.split(",")) + 1)]
        keep = summary if rng.random() < 0.5 else ""
        return f"{head} | {keep} | {','.join(cut)}", "cut"
    if r < 74:  # two moves swapped, or one repeated
        ms = moves.split(",")
        if len(ms) > 1:
            a, b = rng.randrange(len(ms)), rng.randrange(len(ms))
            if rng.random() < 0.5:
                ms[a], ms[b] = ms[b], ms[a]
            else:
                ms.insert(a, ms[b])
        return f"{head} | {summary} | {','.join(ms)}", "moves"
    if r < 82:  # two cards swapped
        cards = [str(c) for c in binocle.pack(64)[::2]]
        a, b = rng.sample(cards, 2)
        return text.replace(a, b, 1), f"swap {a} {b}"
    if r < 88:  # the game part edited
        head = rng.choice((random_spec(rng), head + " seed=" + rng.choice(_NUMBERS),
                           head.replace("first=0", "first=" + rng.choice(_NUMBERS)),
                           head + " view=" + rng.choice(_NUMBERS)))  # fmt: skip
        return f"{head} | {summary} | {moves}", "game"
    if r < 93:  # a big input
        return text + rng.choice(("," * 300_000, " x" * 1000, "|" * 50)), "big"
    return random_text(rng, 30), "random text"


def check_positions(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``from_position`` and ``view_from_position`` on a bent position: refuse with
    InvalidNotationError or InvalidStateError, or give a real game's state (one that
    ``loads`` accepts back, its invariants holding) or view."""
    i, s = pool.pick(rng)
    view = rng.random() < 0.25
    original = _position_text(pool, i, s, view)
    view = " view=" in original.partition(" | ")[0]
    text, how = mutate_position(rng, original)
    read = binocle.view_from_position if view else binocle.from_position
    ok, got = timed(tally, lambda: f"{how}: {text[:200]}", lambda: read(text))
    if not ok:
        if got is not None and not isinstance(
            got, (binocle.InvalidNotationError, binocle.InvalidStateError)
        ):
            tally.note("wrong", f"{type(got).__name__} ({how}): {text[:200]}")
        return
    if view:
        if not isinstance(got, binocle.View):
            tally.note("wrong", f"not a view ({how}): {text[:200]}")
        return
    try:
        check_state(got)
        back = binocle.loads(binocle.dumps(got))
        real = back == got and back.actions() == got.actions()
        real = real and binocle.from_position(binocle.position(got)) == got
    except Exception:
        real = False
    if not real:
        tally.note("unreal", f"{how}: {text[:200]}")


# -- the learning encodings and the adapters ---------------------------------------------------------


def _junk_id(rng: random.Random, legal: tuple[int, ...]) -> Any:
    """An action id: a legal one, an illegal one, or a value of another type."""
    r = rng.random()
    if r < 0.4 and legal:
        return rng.choice(legal)
    if r < 0.7:
        return rng.choice((0, 1, 5, 31, 331, 2518, 2521, 10**6, -1, -(2**40), 2**70))
    return junk_value(rng)


_EPISODES: dict[int, Any] = {}


def _episode(pool: Pool, i: int, s: GameState) -> Any:
    from binocle import encoding as E

    if i not in _EPISODES:
        _EPISODES[i] = E.Episode.from_state(s)
    return _EPISODES[i]


def check_encoding(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``binocle.encoding`` on junk: ids, seats, kinds, reward options and profiles given
    to an episode of a reachable state and to the encoding functions; an id accepted
    is a legal one, and the episode it was applied to is unchanged."""
    from binocle import encoding as E

    i, s = pool.pick(rng)
    ep = _episode(pool, i, s)
    legal = ep.legal_ids()
    action = _junk_id(rng, legal)
    seat = rng.choice((0, 1, 2, 3, -1, True, None, 1.0, "0")) if rng.random() < 0.5 else 0
    kind = rng.choice(("information_state", "observation", "perfect_recall", "x", None, 3))
    hands = rng.choice((1, 2, 0, -1, True, 1.5, "2", 10**9 if rng.random() < 0.01 else 3))
    reward = rng.choice(("score", "normalised", "win", "Score", "", None, 1))
    prof = rng.choice(PROFILE_SPECS) if rng.random() < 0.8 else junk_value(rng)
    before = (ep.state, ep.history, ep.deck)
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("apply", lambda: ep.apply(action)),
        ("action_label", lambda: ep.action_label(action)),
        ("perfect_recall_tensor", lambda: E.perfect_recall_tensor(ep, seat)),
        ("perfect_recall_string", lambda: E.perfect_recall_string(ep, seat)),
        ("episode_returns", lambda: E.episode_returns(ep, reward)),
        ("reward_bounds", lambda: E.reward_bounds(prof, hands, reward)),
        ("tensor_layout", lambda: E.tensor_layout(prof, kind, hands if hands != 10**9 else 2)),
        ("tensor_bounds", lambda: E.tensor_bounds(prof, kind, 1, bool(rng.random() < 0.5))),
        ("action_from_id", lambda: E.action_from_id(s, action)),
        ("action_id", lambda: E.action_id(s, random_text(rng, 3))),
        ("information_state_tensor", lambda: E.information_state_tensor(junk_value(rng))),
    ]
    name, call = rng.choice(calls)
    ok, _ = timed(tally, lambda: f"{name}({action!r:.40}, seat {seat!r}, {kind!r})", call)
    if (ep.state, ep.history, ep.deck) != before:
        tally.note("changed", f"{name}({action!r:.40})")
    if ok and name == "apply" and action not in legal:
        tally.note("wrong", f"apply accepted id {action!r:.40}, legal {legal[:10]}")


def check_pettingzoo(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """The PettingZoo environment: options of any value, then steps with legal ids,
    illegal ids and junk; a refused step changes neither the episode nor the rewards
    not yet collected."""
    try:
        from binocle.pettingzoo import raw_env
    except ImportError:  # the extra is not installed: nothing to try
        return
    spec = rng.choice(("cutthroat", "classic", "three-handed"))
    kw: dict[str, Any] = {}
    for key, values in (
        ("hands", (1, 2, 0, True, "2", 1.0, -(10**5000))),
        ("dealer", (0, 1, 2, 3, "rotate", "random", "left", None, 1.0, [10**5000])),
        ("reward", ("score", "normalised", "win", "x")),
        ("observation", ("information_state", "observation", "perfect_recall", "x")),
        ("normalised", (True, False, 1)),
        ("max_bid", (400, 7, "x")),
    ):
        if rng.random() < 0.35 and not (key == "max_bid" and spec != "cutthroat"):
            kw[key] = rng.choice(values)
    ok, env = timed(tally, lambda: f"raw_env({spec}, {kw})", lambda: raw_env(spec, **kw))
    if not ok or env is None:
        return
    seed = rng.randrange(1000) if rng.random() < 0.8 else _junk_seed(rng)
    ok, _ = timed(tally, lambda: f"reset(seed={seed!r:.40}) {kw}", lambda: env.reset(seed=seed))
    if not ok:
        return
    for _ in range(rng.randrange(1, 40)):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        if rng.random() < 0.1:  # an agent of the game or anything else
            who = rng.choice((*env.possible_agents, "player_9", junk_value(rng)))
            for method in (env.observe, env.action_space, env.observation_space):
                timed(tally, lambda m=method, w=who: f"{m.__name__}({w!r:.40}) {kw}",
                      lambda m=method, w=who: m(w))  # fmt: skip
        mask = env.observe(agent)["action_mask"]
        legal = tuple(int(x) for x in mask.nonzero()[0])
        action = _junk_id(rng, legal) if rng.random() < 0.3 else rng.choice(legal)
        before = (env.episode, dict(env._cumulative_rewards), env.agent_selection)
        ok, _ = timed(
            tally,
            lambda action=action: f"step({action!r:.40}) {kw}",
            lambda action=action: env.step(action),
        )
        if not ok and (env.episode, dict(env._cumulative_rewards), env.agent_selection) != before:
            tally.note("changed", f"step({action!r:.40}) {kw}")
        if ok and action not in legal:
            tally.note("wrong", f"step accepted {action!r:.40}, legal {legal[:10]}")


def _junk_seed(rng: random.Random) -> Any:
    """A generator's seed: a good one, or a value that is not one; never None, which
    would seed from the system's entropy, so that a run stays its seed's own."""
    seed = rng.choice((0, 2**80, -1, True, 1.5, "7", [1, 2], junk_value(rng)))
    return rng.randrange(1000) if seed is None else seed


def check_gym(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """The Gymnasium wrapper: settings of any value, resets with any seed, then steps
    with legal ids, illegal ids and junk; a refused step changes neither the state nor
    the legal ids, an accepted id was legal, and ``illegal=<reward>`` ends the
    episode with that reward."""
    try:
        import numpy as np

        from binocle.gym import BinocleEnv
    except ImportError:  # the extra is not installed: nothing to try
        return
    spec = rng.choice(("cutthroat", "classic", "three-handed", "cutthroat(max_bid=400)"))
    kw: dict[str, Any] = {}
    for key, values in (
        ("opponents", ("random", "baseline", ["random", "random"], "no-bot", 5, None)),
        ("seat", (0, 1, 2, 3, "random", "left", True, 1.0)),
        ("dealer", (0, 2, 3, "rotate", "random", None)),
        ("hands", (1, 2, 0, "2", -(10**5000))),
        ("illegal", ("raise", -5, 0.5, float("nan"), float("inf"), 10**400, "x", True)),
        ("render_mode", (None, "ansi", "rgb_array")),
    ):
        if rng.random() < 0.3:
            kw[key] = rng.choice(values) if rng.random() < 0.9 else junk_value(rng)
    ok, env = timed(tally, lambda: f"BinocleEnv({spec}, {kw})", lambda: BinocleEnv(spec, **kw))
    if not ok or env is None:
        return
    seed = rng.randrange(1000) if rng.random() < 0.8 else _junk_seed(rng)
    ok, got = timed(tally, lambda: f"gym reset(seed={seed!r:.40}) {kw}",
                    lambda: env.reset(seed=seed))  # fmt: skip
    if not ok or got is None:
        return
    info = got[1]
    for _ in range(rng.randrange(1, 40)):
        legal = tuple(int(x) for x in np.flatnonzero(info["action_mask"]))
        if not legal:
            break
        action = _junk_id(rng, legal) if rng.random() < 0.3 else rng.choice(legal)
        before = (env.state, dict(env._legal))
        ok, got = timed(tally, lambda a=action: f"gym step({a!r:.40}) {kw}",
                        lambda a=action: env.step(a))  # fmt: skip
        if not ok:
            if (env.state, dict(env._legal)) != before:
                tally.note("changed", f"gym step({action!r:.40}) {kw}")
            continue
        _, reward, done, _, info = got
        if action not in legal and not info["illegal"]:
            tally.note("wrong", f"gym step accepted {action!r:.40}, legal {legal[:10]}")
        if info["illegal"] and (not done or reward != float(env.illegal)):
            tally.note("wrong", f"gym illegal={env.illegal!r}: reward {reward}, done {done}")
        if done:
            break


def check_openspiel(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """The OpenSpiel adapter: state texts bent or forged (pickles among them) read by
    ``pyspiel.deserialize_game_and_state`` and ``game.deserialize_state`` (refused with
    InvalidStateError, or read to the state written), and ids applied to states."""
    try:
        import pyspiel

        import binocle.openspiel as bos
    except ImportError:  # the extra is not installed: nothing to try
        return
    name = rng.choice(list(bos.GAMES.values()))
    params = rng.choice(("", "(max_bid=400)" if "cut" in name else "", "(hands=2)",
                         "(dealer_choice=random)", "(reward=win,dealer=1)"))  # fmt: skip
    game = pyspiel.load_game(name + params)
    state = game.new_initial_state()
    for _ in range(rng.randrange(60)):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    r = rng.random()
    if r < 0.15:
        import base64
        import pickle

        forged = base64.b64encode(pickle.dumps({"episode": rng.randrange(9)})).decode()
        text = text.split("[State]")[0] + f"[State]\nhistory=\nmove_number=0\n__dict__={forged}\n"
        how = "pickled"
    elif r < 0.75:
        for _ in range(rng.choice((1, 1, 2, 5))):
            text = mutate_text(rng, text)
        how = "character"
    else:
        head, _, body = text.partition("[State]\n")
        try:
            doc = json.loads(body)
            text = head + "[State]\n" + mutate_doc(rng, doc)[0]
        except ValueError:
            pass
        how = "field"
    original = str(state)
    if "python_binocle_" in text:  # a text of another game is OpenSpiel's to read
        ok, got = timed(
            tally, lambda: f"{how}: {text[:200]}", lambda: pyspiel.deserialize_game_and_state(text)
        )
        if ok and how == "pickled":
            tally.note("wrong", f"a pickled text was read: {text[:200]}")
        elif not ok and got is not None and not isinstance(got, binocle.InvalidStateError):
            tally.note("wrong", f"{type(got).__name__} ({how}): {text[:200]}")
    state_text = text.partition("[State]\n")[2]
    timed(tally, lambda: f"deserialize_state {how}: {state_text[:200]}",
          lambda: game.deserialize_state(state_text))  # fmt: skip
    if not state.is_terminal():
        legal = tuple(state.legal_actions())
        action = rng.choice((*legal, 10**6, -3, 2**40)) if legal else 5
        ok, _ = timed(tally, lambda: f"apply_action({action})", lambda: state.apply_action(action))
        if not ok and str(state) != original:
            tally.note("changed", f"apply_action({action})")


def _count(rng: random.Random) -> Any:
    """A count of wins: a good one (whole, half or large), or anything else."""
    r = rng.random()
    if r < 0.6:
        return rng.choice((0, 1, 2, 7, 0.5, 3.5))
    if r < 0.8:
        return rng.choice((1e300, 1e308, 5e-324, 2**53, 10**400, -1, math.inf, math.nan))
    return junk_value(rng)


def check_ratings(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``binocle.duplicate.wilson`` and ``binocle.ratings.bradley_terry`` on counts of
    any value: an interval lies in [0, 1] around the rate; ratings are finite, the
    anchor's 0, and two bots' difference is 400 log10 of their odds with the prior."""
    from binocle.duplicate import wilson
    from binocle.ratings import bradley_terry

    n = rng.choice((0, 1, 10, 2**53, 2**53 + 1, -3)) if rng.random() < 0.3 else _count(rng)
    k = rng.choice((0, 1, 5)) if rng.random() < 0.5 else _count(rng)
    z = rng.choice((1.96, 0, 3, 1e300, -1, math.nan)) if rng.random() < 0.7 else junk_value(rng)
    ok, got = timed(tally, lambda: f"wilson({k!r:.30}, {n!r:.30}, {z!r:.30})",
                    lambda: wilson(k, n, z))  # fmt: skip
    if ok and n and not 0.0 <= got[0] <= k / n <= got[1] <= 1.0:
        tally.note("wrong", f"wilson({k}, {n}, {z}) = {got}")
    size = rng.choice((2, 2, 3, 4)) if rng.random() < 0.9 else rng.randrange(0, 6)
    wins: Any = [[_count(rng) if i != j else 0 for j in range(size)] for i in range(size)]
    if rng.random() < 0.05:
        wins = junk_value(rng)
    prior = rng.choice((1.0, 1.0, 0, 0.5)) if rng.random() < 0.9 else junk_value(rng)
    anchor = rng.choice((0, 0, 1)) if rng.random() < 0.9 else junk_value(rng)
    ok, got = timed(tally, lambda: f"bradley_terry({wins!r:.80}, {prior!r:.20}, {anchor!r:.20})",
                    lambda: bradley_terry(wins, prior=prior, anchor=anchor))  # fmt: skip
    if not ok:
        return
    if not all(math.isfinite(r) for r in got) or got[anchor] != 0.0:
        tally.note("wrong", f"bradley_terry({wins!r:.80}) = {got}")
    elif size == 2 and prior:
        odds = (wins[0][1] + prior / 2) / (wins[1][0] + prior / 2)
        want = 400 * math.log10(odds) * (1 if anchor == 1 else -1)
        if abs(got[1 - anchor] - want) > 1e-6 * max(1.0, abs(want)):
            tally.note("wrong", f"bradley_terry({wins!r:.80}) = {got}, not {want}")


def _helpers() -> list[tuple[str, Callable[..., Any], int, int]]:
    """The public helpers of the text and record modules: (name, function, fewest
    and most arguments)."""
    from binocle import bots, display, narrate, records, serial, svg, testing

    return [
        ("svg.card_svg", svg.card_svg, 1, 1),
        ("svg.hand_svg", svg.hand_svg, 1, 1),
        ("svg.trick_svg", svg.trick_svg, 2, 2),
        ("svg.melds_svg", svg.melds_svg, 1, 1),
        ("svg.table_svg", svg.table_svg, 1, 1),
        ("svg.picture", svg.picture, 1, 1),
        ("display.card_text", display.card_text, 1, 2),
        ("display.cards_text", display.cards_text, 1, 2),
        ("display.hand_by_suit", display.hand_by_suit, 1, 2),
        ("display.state_text", display.state_text, 1, 2),
        ("display.view_text", display.view_text, 1, 2),
        ("display.action_text", display.action_text, 1, 2),
        ("narrate.plural", narrate.plural, 2, 3),
        ("narrate.hand_summary", narrate.hand_summary, 2, 3),
        ("narrate.narrate", narrate.narrate, 2, 4),
        ("narrate.narrate_all", narrate.narrate_all, 3, 4),
        ("narrate.label", narrate.label, 1, 3),
        ("narrate.game_over_line", narrate.game_over_line, 1, 1),
        # the keyword options: the last argument is the names, the one before ``you``
        ("narrate.narrate names", lambda *a: narrate.narrate(*a[:-1], names=a[-1]), 3, 5),
        (
            "narrate.narrate_all names",
            lambda *a: narrate.narrate_all(*a[:-1], names=a[-1]),
            4,
            5,
        ),
        (
            "narrate.hand_summary names",
            lambda *a: narrate.hand_summary(*a[:-2], you=a[-2], names=a[-1]),
            4,
            5,
        ),
        (
            "narrate.game_over_line names",
            lambda *a: narrate.game_over_line(a[0], you=a[1], names=a[2]),
            3,
            3,
        ),
        ("profiles.cutthroat.chip_value", chip_value, 1, 2),
        ("records.meld_value", records.meld_value, 2, 2),
        ("serial.snapshot", serial.snapshot, 1, 1),
        ("bots.knocker", bots.knocker, 2, 2),
        # no games played: the settings alone are checked
        ("testing.check_consistency", lambda *a: testing.check_consistency(a[0], 0, *a[1:]), 1, 2),
    ]


def _pool_meld(s: GameState, seat: int) -> binocle.MeldResult | None:
    """The meld of the first cards of a seat's hand, or None when there is no trump."""
    if s.trump is None:
        return None
    return binocle.meld(s.hands[seat][:8], s.trump, s.profile)


def check_helpers(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """The text helpers (display, narrate), the pictures (svg), ``meld_value``,
    ``snapshot``, ``knocker`` and ``check_consistency``'s settings on reachable states,
    their views, actions, hand results, tricks, melds and junk: text (or lines of it, or a
    number) or a BinocleError."""
    name, fn, fewest, most = rng.choice(_helpers())
    _, s = pool.pick(rng)
    seat = s.current_player if s.current_player is not None else 0
    goods: list[Any] = [s, binocle.observe(s, seat), "symbols", "letters", seat, 0, 1, None]
    goods += list(binocle.legal_actions(s))[:3] if s.phase is not Phase.OVER else []
    goods += [list(s.hands[seat]), s.scores, *s.results[-1:], s.trick, s.profile.players]
    goods += [*s.hands[seat][:1], *(r for r in [_pool_meld(s, seat)] if r is not None)]
    goods += [250, 460, s.trump]
    goods += [["Anna", "Ben", "Carla"][: len(s.hands)], [None] * len(s.hands), ["x"]]
    args = [
        rng.choice(goods) if rng.random() < 0.7 else junk_value(rng)
        for _ in range(rng.randint(fewest, most))
    ]
    ok, got = timed(tally, lambda: f"{name}({', '.join(excerpt(a, 60) for a in args)})",
                    lambda: fn(*args))  # fmt: skip
    if ok and not (
        isinstance(got, (str, int, dict, type(None)))
        or (isinstance(got, list) and all(isinstance(x, str) for x in got))
        or name.startswith("testing.")
    ):
        tally.note("wrong", f"{name} gave {excerpt(got)}")


def check_vector(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """The vectorized environment: settings of any value, then steps whose ids are legal,
    illegal or junk (whole arrays of junk too); a refused step changes no game and no
    array, an accepted one only legal ids."""
    try:
        import numpy as np

        from binocle.vector import VectorEnv
    except ImportError:  # the extra is not installed: nothing to try
        return
    spec = rng.choice(
        (
            "cutthroat",
            "classic",
            "three-handed",
            "cutthroat(max_bid=400)",
            "classic(pack=64)",
            "three-handed(claim_overlooked=true)",
        )
    )
    kw: dict[str, Any] = {}
    for key, values in (
        ("num_envs", (1, 2, 5, 0, -1, True, 2.0, "3", -(10**5000))),
        ("hands", (1, 2, 0, True, "2", -(10**5000), [10**5000])),
        ("dealer", (0, 1, 2, 3, "rotate", "random", "left", None)),
        ("seed", (0, 7, -1, 2**80, "x", 1.5)),
        ("target", (300, 0, "x")),
    ):
        if rng.random() < 0.35:
            kw[key] = rng.choice(values)
    kw.setdefault("num_envs", rng.randrange(1, 5))
    kw.setdefault("seed", rng.randrange(1000))  # the run stays the seed's own
    ok, env = timed(tally, lambda: f"VectorEnv({spec}, {kw})", lambda: VectorEnv(spec, **kw))
    if not ok or env is None:
        return
    ok, _ = timed(tally, lambda: f"vector reset {kw}", env.reset)
    if not ok:
        return
    n = env.num_envs
    names = ("observations", "action_masks", "rewards", "dones", "returns", "current_player")
    for _ in range(rng.randrange(1, 60)):
        ids, starts = env.legal_ids()
        legal = [tuple(ids[starts[i] : starts[i + 1]].tolist()) for i in range(n)]
        r = rng.random()
        actions: Any
        if r < 0.25:
            actions = _fuzz_sample_legal(rng, env, legal, kw, tally)
        elif r < 0.7:
            actions = np.array([rng.choice(x) for x in legal])
        elif r < 0.9:
            actions = [_junk_id(rng, x) for x in legal]
        else:
            actions = junk_value(rng)
        before = [env.state(i) for i in range(n)], [getattr(env, k).copy() for k in names]
        ok, _ = timed(
            tally,
            lambda actions=actions: f"vector step({actions!r:.60}) {kw}",
            lambda actions=actions: env.step(actions),
        )
        if not ok:
            after = [env.state(i) for i in range(n)], [getattr(env, k) for k in names]
            same = before[0] == after[0] and all(
                np.array_equal(x, y) for x, y in zip(before[1], after[1], strict=True)
            )
            if not same:
                tally.note("changed", f"vector step({actions!r:.60}) {kw}")
            continue
        chosen = np.asarray(actions).tolist() if not isinstance(actions, str) else actions
        if any(a not in x for a, x in zip(chosen, legal, strict=True)):
            tally.note("wrong", f"vector step accepted {actions!r:.60}, legal {legal}")


def _fuzz_sample_legal(
    rng: random.Random,
    env: Any,
    legal: list[tuple[int, ...]],
    kw: dict[str, Any],
    tally: Tally,
    games: Any = None,
) -> Any:
    """``sample_legal`` of ``env`` (a ``VectorEnv``, or a learner's environment over
    the ``VectorEnv`` ``games``) with an ``avoid`` and an ``rng`` of any value: the ids
    it gives are legal and avoid what ``avoid`` marks where a game may; refused, it
    changes nothing (the games' own generator included)."""
    import numpy as np

    games = env if games is None else games
    size = games.num_actions
    avoid: Any = None
    r = rng.random()
    if r < 0.4:
        avoid = np.random.default_rng(rng.randrange(2**32)).random(size) < rng.random()
    elif r < 0.55:
        avoid = rng.choice(
            (np.zeros(size + 1, bool), np.zeros(size, np.uint8), [False] * size, "x", 3)
        )
    gen: Any = None
    r = rng.random()
    if r < 0.4:
        gen = np.random.default_rng(rng.randrange(100))
    elif r < 0.5:
        gen = rng.choice((random.Random(1), 7, "rng", np.random.RandomState(1)))
    state = games._sampler.bit_generator.state
    ok, got = timed(
        tally,
        lambda: f"vector sample_legal({excerpt(avoid)}, {excerpt(gen)}) {kw}",
        lambda: env.sample_legal(avoid, gen),
    )
    if not ok:
        if games._sampler.bit_generator.state != state:
            tally.note("changed", f"vector sample_legal({excerpt(avoid)}) moved the generator")
        return np.array([x[0] for x in legal])
    chosen = got.tolist()
    for a, x in zip(chosen, legal, strict=True):
        calm = [b for b in x if avoid is None or not avoid[b]]
        if a not in (calm or x):
            tally.note(
                "wrong", f"vector sample_legal gave {a}, legal {x}, avoided {excerpt(avoid)}"
            )
    return got


def check_learner_vector(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """The learner's vector environment: settings of any value, then steps whose ids are
    legal, illegal or junk, and opponent policies that answer junk; a refused learner's
    step changes no game and no array, an accepted one only legal ids, and a refused
    opponent policy leaves the environment refusing steps until a reset."""
    try:
        import numpy as np

        from binocle.gym import BinocleVectorEnv
    except ImportError:  # the extra is not installed: nothing to try
        return
    spec = rng.choice(("cutthroat", "classic", "three-handed", "partnership", "classic(pack=64)"))
    kw: dict[str, Any] = {}
    for key, values in (
        ("num_envs", (1, 2, 5, 0, True, 2.0, -(10**5000))),
        ("seat", (0, 1, 3, "random", "left", True, None)),
        ("reward", ("score", "normalised", "margin", "win", None, 3)),
        ("normalised", (True, False, 1, "yes")),
        ("copy", (True, False, None)),
        ("opponents", ("random", "baseline", ["random", "nope"], 7, "os:system")),
        ("seed", (0, 7, -1, 2**80, "x", 1.5)),
    ):
        if rng.random() < 0.3:
            kw[key] = rng.choice(values)
    kw.setdefault("num_envs", rng.randrange(1, 4))
    kw.setdefault("seed", rng.randrange(1000))
    policy_kind = rng.random()
    if policy_kind < 0.15:

        def junk_policy(obs: Any, masks: Any) -> Any:
            return junk_value(rng)

        kw["opponent_policy"] = junk_policy
    elif policy_kind < 0.3:

        def lowest(obs: Any, masks: Any) -> Any:
            return np.array([int(np.flatnonzero(m)[0]) for m in masks], np.int64)

        kw["opponent_policy"] = lowest
    ok, env = timed(
        tally, lambda: f"BinocleVectorEnv({spec}, {kw})", lambda: BinocleVectorEnv(spec, **kw)
    )
    if not ok or env is None:
        return
    ok, _ = timed(tally, lambda: f"learner reset {kw}", env.reset)
    if not ok:
        return
    n = env.num_envs
    for _ in range(rng.randrange(1, 30)):
        try:
            ids, starts = env.legal_ids()
        except binocle.InvalidArgumentError:
            return  # a refused opponent policy: the environment waits for a reset
        legal = [tuple(ids[starts[i] : starts[i + 1]].tolist()) for i in range(n)]
        r = rng.random()
        actions: Any
        if r < 0.2:
            actions = _fuzz_sample_legal(rng, env, legal, kw, tally, env.games)
        elif r < 0.75:
            actions = np.array([rng.choice(x) for x in legal])
        elif r < 0.9:
            actions = [_junk_id(rng, x) for x in legal]
        else:
            actions = junk_value(rng)
        before = (
            [env.games.state(i) for i in range(n)],
            env.games.observations.copy(),
            env.action_masks().copy(),
        )
        ok, _ = timed(
            tally,
            lambda actions=actions: f"learner step({actions!r:.60}) {spec} {kw}",
            lambda actions=actions: env.step(actions),
        )
        if ok:
            chosen = np.asarray(actions).tolist()
            if any(a not in x for a, x in zip(chosen, legal, strict=True)):
                tally.note("wrong", f"learner step accepted {actions!r:.60}, legal {legal}")
            continue
        if not env._ready:  # the opponent policy was refused after the learner moved
            step = timed(tally, lambda: "step after a refused policy", lambda: env.step([0] * n))
            if step[0]:
                tally.note("wrong", "a step went on after a refused opponent policy")
            return
        same = (
            [env.games.state(i) for i in range(n)] == before[0]
            and np.array_equal(env.games.observations, before[1])
            and np.array_equal(env.action_masks(), before[2])
        )
        if not same:
            tally.note("changed", f"learner step({actions!r:.60}) {spec} {kw}")


#: Every target, by name: (checker, relative cost weight for a time budget).
def _junk_doc(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """``value`` (a view's JSON) with one entry, somewhere inside, replaced by junk or
    removed."""
    if isinstance(value, dict) and value and depth < 3 and rng.random() < 0.9:
        out = dict(value)
        key = rng.choice(sorted(out))
        if rng.random() < 0.15:
            del out[key]
        else:
            out[key] = _junk_doc(rng, out[key], depth + 1)
        return out
    if isinstance(value, list) and value and depth < 4 and rng.random() < 0.7:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        out_list[i] = _junk_doc(rng, out_list[i], depth + 1)
        return out_list
    return junk_value(rng)


def check_engine(rng: random.Random, pool: Pool, tally: Tally) -> None:
    """``binocle.engine``: a view's JSON with junk inside, junk legal actions, junk
    views: view_from_json reads it or refuses with a BinocleError; view_json and
    legal_json refuse what is not a view; an untouched document reads back to the
    view it was written from."""
    from binocle import engine as E

    _, s = pool.pick(rng)
    seat = s.current_player if s.current_player is not None else 0
    view = binocle.observe(s, seat)
    doc = E.view_json(view)
    legal = E.legal_json(view)
    roll = rng.random()
    if roll < 0.1:
        ok, got = timed(tally, lambda: "genuine view", lambda: E.view_from_json(doc, legal))
        if ok and got != view:
            tally.note("wrong", f"view_from_json(view_json(v)) != v for {s.profile.spec()}")
        return
    if roll < 0.2:
        junk = junk_value(rng)
        call = rng.choice((E.view_json, E.legal_json))
        timed(tally, lambda: f"{call.__name__}({junk!r:.60})", lambda: call(junk))
        return
    bad = _junk_doc(rng, doc)
    bad_legal: Any = legal if rng.random() < 0.7 else _junk_doc(rng, legal)
    timed(tally, lambda: f"view_from_json({bad!r:.120})", lambda: E.view_from_json(bad, bad_legal))


TARGETS: dict[str, tuple[Callable[[random.Random, Pool, Tally], None], float]] = {
    "loads": (check_loads, 3.0),
    "apply_text": (check_apply_text, 2.0),
    "apply_action": (check_apply_action, 2.0),
    "cards": (check_cards, 0.5),
    "meld": (check_meld, 0.5),
    "rulings": (check_rulings, 1.0),
    "profile": (check_profile, 1.0),
    "records": (check_records, 2.0),
    "cli_validate": (check_cli_validate, 1.0),
    "positions": (check_positions, 2.0),
    "encoding": (check_encoding, 1.0),
    "pettingzoo": (check_pettingzoo, 1.5),
    "gym": (check_gym, 1.0),
    "openspiel": (check_openspiel, 1.5),
    "vector": (check_vector, 1.5),
    "learner_vector": (check_learner_vector, 1.0),
    "ratings": (check_ratings, 0.5),
    "helpers": (check_helpers, 1.0),
    "engine": (check_engine, 1.0),
}

# Targets kept in modules of their own add themselves here.
from fuzz_determinize import TARGETS as _DETERMINIZE_TARGETS  # noqa: E402
from fuzz_records import TARGETS as _RECORDS_TARGETS  # noqa: E402

TARGETS.update(_DETERMINIZE_TARGETS)
TARGETS.update(_RECORDS_TARGETS)

from fuzz_cli_play import TARGETS as _CLI_PLAY_TARGETS  # noqa: E402

TARGETS.update(_CLI_PLAY_TARGETS)

from fuzz_solve import TARGETS as _SOLVE_TARGETS  # noqa: E402

TARGETS.update(_SOLVE_TARGETS)
