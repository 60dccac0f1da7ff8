"""Speed benchmark of the engine, side by side with OpenSpiel's skat and hearts.

Run ``python benchmarks/bench.py [--seconds N] [--json]``; benchmarks/README.md
says what each line means.  Every rate is the best of three timed runs of
``--seconds`` each of the process's CPU time (``time.process_time``, so other
programs on a busy machine count less), after a short warm-up.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import binocle
from binocle.bots import RandomBot, play_game
from binocle.cards import Card, Suit, pack
from binocle.determinize import Determinizer

HANDS_PER_GAME = 6
RUNS = 3
WARMUP = 0.3
#: The floors of the playout lines, as a share of OpenSpiel skat's actions per second.
PLAYOUT_FLOORS = {"cutthroat": 0.5, "partnership": 0.5, "classic": 0.25, "three-handed": 0.25}
PUBLIC_MELD_FLOOR = 0.7  # binocle.meld against the internal counter
CLASSIC_MELD_TARGET = 20_000
STATE_BYTES_TARGET = 1024
MELD_HANDS = 20_000
#: The adapters' floors: OpenSpiel's as a share of skat, the environments' in steps a second.
OPENSPIEL_FLOOR = 0.3
PETTINGZOO_FLOOR = 0.06  # x skat, the loop the docs show
VECTOR_FLOOR = 0.6  # x skat, at VECTOR_ENVS games
LEARNER_FLOOR = 0.3  # one learning seat in many games (BinocleVectorEnv), agent steps
VECTOR_ENVS = 256
#: Actions that end a hand at once: an honest playout never chooses them.
HAND_ENDERS = frozenset({binocle.Kind.CLAIM, binocle.Kind.CONCEDE, binocle.Kind.BUNCH})

Row = dict[str, Any]
Work = Callable[[float], tuple[int, int, float]]


def best_rate(work: Work, seconds: float) -> tuple[float, float]:
    """The best of ``RUNS`` rates, and the second count's rate in that run.

    ``work(seconds)`` returns (count, second count, elapsed).
    """
    work(min(WARMUP, seconds))
    best = (0.0, 0.0)
    for _ in range(RUNS):
        gc.collect()
        n, m, elapsed = work(seconds)
        if n / elapsed > best[0]:
            best = (n / elapsed, m / elapsed)
    return best


def timed(batch: Callable[[], tuple[int, int]]) -> Work:
    """Run ``batch`` (which returns how much it did, as two counts) again and again
    for the time given; return the totals and the seconds it took."""

    def work(seconds: float) -> tuple[int, int, float]:
        clock = time.process_time
        n = m = 0
        start = clock()
        stop = start + seconds
        while True:
            a, b = batch()
            n += a
            m += b
            now = clock()
            if now >= stop:
                return n, m, now - start

    return work


# -- binocle random playouts -----------------------------------------------------


def binocle_playouts(name: str, *, uniform: bool = False) -> Work:
    """Random playouts of profile ``name``: games of up to ``HANDS_PER_GAME`` hands,
    counting every action (deals too) and every hand played to its last trick.

    Honest (the default): uniform over the legal actions except those that end a
    hand at once (claims, concessions, bunched hands), so every hand is dealt and
    played out.  ``uniform``: uniform over every legal action.
    """
    legal_actions, apply, new_game = binocle.legal_actions, binocle.apply, binocle.new_game
    over, between = binocle.Phase.OVER, binocle.Phase.DEAL
    enders = HAND_ENDERS
    rng = random.Random(1)
    choice = rng.choice
    seed = [0]

    def game() -> tuple[int, int]:
        seed[0] += 1
        s = new_game(name, seed=seed[0])
        n = 1  # the first deal
        while True:
            phase = s.phase
            if phase is over or (phase is between and s.hand_number >= HANDS_PER_GAME):
                break
            legal = legal_actions(s)
            a = choice(legal)
            if not uniform:
                while a.kind in enders:
                    a = choice(legal)
            s = apply(s, a)
            n += 1
        return n, sum(1 for r in s.results if r.outcome == "played")

    return timed(game)


# -- OpenSpiel ------------------------------------------------------------------------


def openspiel_playouts(
    pyspiel: Any,
    name: str,
    played: Callable[[Any], int] | None = None,
    enders: frozenset[int] = frozenset(),
) -> Work:
    """Random playouts of an OpenSpiel game, chance outcomes counted as actions:
    uniform over the legal actions, except ``enders`` (ids that end a hand at once)
    while another action is legal.

    The second count is the episodes, or with ``played`` what it counts of each
    finished state (binocle's games: the hands played to their last trick)."""
    game = pyspiel.load_game(name)
    rng = random.Random(1)

    choice = rng.choice

    def play() -> tuple[int, int]:
        n = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                a = choice(state.chance_outcomes())[0]
            else:
                legal = state.legal_actions()
                a = choice(legal)
                if a in enders:
                    calm = [x for x in legal if x not in enders]
                    if calm:
                        a = choice(calm)
            state.apply_action(a)
            n += 1
        return n, 1 if played is None else played(state)

    return timed(play)


def ender_ids(name: str) -> frozenset[int]:
    """The action ids of profile ``name`` that end a hand at once (claims, concessions)."""
    from binocle.encoding import action_labels

    return frozenset(i for i, label in enumerate(action_labels(name)) if label in _ENDER_LABELS)


_ENDER_LABELS = ("claim", "concede")


def played_out(state: binocle.GameState) -> int:
    """How many of the state's hands were played to their last trick (not ended by a
    claim or a concession)."""
    return sum(1 for r in state.results if r.outcome == "played")


def pettingzoo_playouts(name: str, *, uniform: bool = False) -> Work:
    """Random episodes (one hand each) of binocle's PettingZoo environment in the loop the
    docs show (``env()``, ``agent_iter()``, ``last()``, the legal ids read from the
    mask through a bool view, ``random.choice``), but (unless ``uniform``) with
    claims and concessions passed over while another id is allowed, as the honest
    playouts of line a; steps counted, and the hands played to their last trick."""
    from binocle.pettingzoo import env

    e = env(name)
    raw = e.unwrapped
    rng = random.Random(1)
    seed = [0]
    enders = frozenset() if uniform else ender_ids(name)

    def episode() -> tuple[int, int]:
        seed[0] += 1
        e.reset(seed=seed[0])
        n = 0
        for _agent in e.agent_iter():
            obs, _reward, termination, truncation, _info = e.last()
            if termination or truncation:
                e.step(None)
                continue
            legal = obs["action_mask"].view(bool).nonzero()[0].tolist()
            a = rng.choice(legal)
            if a in enders:
                calm = [x for x in legal if x not in enders]
                if calm:
                    a = rng.choice(calm)
            e.step(a)
            n += 1
        return n, played_out(raw.episode.state)

    return timed(episode)


def vector_playouts(name: str, num_envs: int = VECTOR_ENVS) -> Work:
    """``num_envs`` games of :class:`binocle.vector.VectorEnv` stepped together, each
    game's seat to decide choosing uniformly among its legal ids but claims and
    concessions (as the honest playouts do); agent steps (decisions) counted, and the
    hands played to their last trick.

    The draw is the one the docs' loop shows for a random policy,
    :meth:`~binocle.vector.VectorEnv.sample_legal`, with claims and concessions
    avoided: one number per game from the generator, as line c's driver draws one
    per state.  With the same numbers it picks the ids a uniform pick among each
    game's ids in their sparse form (``legal_ids()``, as the docs show it) picks."""
    import numpy as np

    from binocle.encoding import action_labels
    from binocle.vector import VectorEnv

    env = VectorEnv(name, num_envs=num_envs, seed=1)
    env.reset()
    enders = np.array([label in _ENDER_LABELS for label in action_labels(name)])
    rng = np.random.default_rng(1)

    def batch() -> tuple[int, int]:
        before = env.hands_played_out
        n = 0
        for _ in range(8):
            env.step(env.sample_legal(enders, rng))
            n += num_envs
        return n, env.hands_played_out - before

    return timed(batch)


def learner_playouts(name: str, num_envs: int = VECTOR_ENVS) -> Work:
    """One learning seat in ``num_envs`` games (:class:`binocle.gym.BinocleVectorEnv`,
    the random bot's policy in the other seats, drawn for every game at once), the
    learner choosing uniformly among its legal ids but claims and concessions (as the
    honest playouts do), drawn as the docs' loop draws a random policy's
    (``sample_legal``); agent steps (the decisions of every seat) counted, and the
    hands played to their last trick."""
    import numpy as np

    from binocle.encoding import action_labels
    from binocle.gym import BinocleVectorEnv

    env = BinocleVectorEnv(name, num_envs=num_envs, seed=1, copy=False)
    env.reset()
    enders = np.array([label in _ENDER_LABELS for label in action_labels(name)])
    rng = np.random.default_rng(1)
    games = env.games

    def batch() -> tuple[int, int]:
        before = games.hands_played_out
        decisions = 0
        for _ in range(8):
            moved = env.agent_steps
            env.step(env.sample_legal(enders, rng))
            decisions += env.agent_steps - moved
        return decisions, games.hands_played_out - before

    return timed(batch)


def _sampled(det: Determinizer, rng: random.Random, start: Any) -> tuple[int, int]:
    """One sample of a Determinizer (counted once)."""
    det.sample(rng, start)
    return 1, 0


def _determinized(view: binocle.View, rng: random.Random) -> tuple[int, int]:
    """One state drawn by :func:`binocle.determinize` from scratch (counted once)."""
    binocle.determinize(view, rng)
    return 1, 0


# -- melds ------------------------------------------------------------------------------


def random_hands(size: int, count: int, seed: int) -> list[tuple[tuple[Card, ...], Suit]]:
    """``count`` distinct random (sorted hand, trump) pairs from the 48-card pack."""
    rng = random.Random(seed)
    deck = list(pack(48))
    seen: set[tuple[tuple[Card, ...], Suit]] = set()
    out: list[tuple[tuple[Card, ...], Suit]] = []
    while len(out) < count:
        item = (tuple(sorted(rng.sample(deck, size))), rng.choice(list(Suit)))
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def over_hands(
    hands: list[tuple[tuple[Card, ...], Any]], fn: Callable[..., object], *more: object
) -> Work:
    """Call ``fn(hand, trump, *more)`` over the hands, again and again, for the time given."""

    def one_pass() -> tuple[int, int]:
        for hand, trump in hands:
            fn(hand, trump)
        return len(hands), len(hands)

    def one_pass_more() -> tuple[int, int]:
        (extra,) = more
        for hand, trump in hands:
            fn(hand, trump, extra)
        return len(hands), len(hands)

    return timed(one_pass_more if more else one_pass)


def cold_rate(
    hands: list[tuple[tuple[Card, ...], Any]], fn: Callable[[tuple[Card, ...], Any], object]
) -> float:
    """One pass over hands never seen before (memo caches empty for them)."""
    start = time.process_time()
    for hand, trump in hands:
        fn(hand, trump)
    return len(hands) / (time.process_time() - start)


# -- memory ------------------------------------------------------------------------------


def state_bytes(name: str, seed: int = 5) -> tuple[float, int]:
    """Traced bytes per state over one hand played out (as an honest playout plays it),
    every state kept alive and its legal actions computed.

    The same hand, with the same choices, is played once before it is measured: what
    it adds to the engine's caches (tables, memos of melds and plays, shared tuples)
    is added once in a process, not by every state, and would otherwise swing the
    figure by tens of bytes with the order the lines ran in."""
    ends = (binocle.Phase.DEAL, binocle.Phase.OVER)

    def one_hand(s: binocle.GameState, keep: list[binocle.GameState]) -> None:
        rng = random.Random(seed)
        while s.phase not in ends:
            legal = binocle.legal_actions(s)
            a = rng.choice(legal)
            while a.kind in HAND_ENDERS:
                a = rng.choice(legal)
            s = binocle.apply(s, a)
            keep.append(s)
        binocle.legal_actions(s)

    one_hand(binocle.new_game(name, seed=seed), [])  # the caches this hand fills
    s0 = binocle.new_game(name, seed=seed)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        keep: list[binocle.GameState] = []
        binocle.legal_actions(s0)
        one_hand(s0, keep)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / len(keep), len(keep)


# -- the report ---------------------------------------------------------------------------


def mid_hand_view(name: str, seed: int = 3) -> binocle.View:
    """The view of the player to act after a third of the hand's actions (baseline bots)."""
    from binocle.bots import BaselineBot

    s = binocle.new_game(name, seed=seed)
    bots = [BaselineBot(i) for i in range(s.profile.players)]
    for _ in range(30):
        p = s.current_player
        if p is None:
            break
        s = binocle.apply(s, bots[p].choose(binocle.observe(s, p)))
    p = s.current_player if s.current_player is not None else 0
    return binocle.observe(s, p)


# -- external engines: the protocol's overhead ---------------------------------------


def engine_decisions(name: str, bots: list[Any]) -> Work:
    """Games of one hand of ``name`` between ``bots`` (bot objects, kept from game to
    game), counting the decisions (every action a seat chose), in wall-clock time: an
    external engine's work is done in its own process, which the process time of
    this one does not see."""
    seed = [0]

    def game() -> tuple[int, int]:
        seed[0] += 1
        count = [0]

        def step(before: Any, action: Any, after: Any) -> None:
            count[0] += before.current_player is not None

        play_game(name, bots, seed=seed[0], max_hands=1, on_step=step)
        return count[0], 1

    def work(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        n = m = 0
        start = clock()
        while True:
            a, b = game()
            n, m = n + a, m + b
            if clock() - start >= seconds:
                return n, m, clock() - start

    return work


def engine_rows(seconds: float, row: Callable[..., Row], names: list[str]) -> None:
    """i. ``binocle engine --bot random`` at every seat, through pipes, beside the same
    random bots in this process (both in wall-clock time)."""
    from binocle.engine import ExternalBot

    command = [sys.executable, "-m", "binocle", "engine", "--bot", "random"]
    for name in names:
        n = binocle.profile(name).players
        local = best_rate(engine_decisions(name, [RandomBot(i) for i in range(n)]), seconds)
        engines = [ExternalBot(command, seed=i, persistent=True) for i in range(n)]
        try:
            piped = best_rate(engine_decisions(name, engines), seconds)
        finally:
            for e in engines:
                e.close()
        row(f"i. {name}, random bots in process", local[0], "decisions/s", "wall clock")
        row(
            f"i. {name}, binocle engine --bot random through pipes",
            piped[0],
            "decisions/s",
            f"{1000 / piped[0] - 1000 / local[0]:.2f} ms a decision more",
            piped[0] / local[0],
            "in process",
        )


def fmt_rate(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:,.0f}/s"


def run(seconds: float, only_engines: bool = False) -> dict[str, Any]:
    rows: list[Row] = []
    notes: list[str] = []

    def row(
        label: str,
        value: float | None,
        unit: str,
        extra: str = "",
        ratio: float | None = None,
        floor: str = "",
        ok: bool | None = None,
    ) -> Row:
        r = {
            "line": label,
            "value": value,
            "unit": unit,
            "extra": extra,
            "ratio": ratio,
            "floor": floor,
            "ok": ok,
        }
        rows.append(r)
        return r

    if only_engines:
        engine_rows(seconds, row, ["cutthroat", "classic", "three-handed"])
        return _report(seconds, rows, notes)

    # c. OpenSpiel first, so the reference is known for a. and b.
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        pyspiel = None
        notes.append(
            "OpenSpiel is missing: skat and hearts not measured (install: pip install open_spiel)"
        )
    spiel: dict[str, tuple[float, float] | None] = {"skat": None, "hearts": None}
    if pyspiel is not None:
        for game in spiel:
            spiel[game] = best_rate(openspiel_playouts(pyspiel, game), seconds)
    skat = spiel["skat"][0] if spiel["skat"] else None

    # a. honest playouts, every profile this installation offers (cutthroat first).
    names = list(binocle.profile_names())
    names.sort(key=lambda n: (n != "cutthroat", n))
    for uniform in (False, True):
        for name in names:
            try:
                rate, hands = best_rate(binocle_playouts(name, uniform=uniform), seconds)
            except Exception as exc:  # a profile under construction must not stop the report
                notes.append(f"profile {name}: playouts failed: {type(exc).__name__}: {exc}")
                continue
            ratio = rate / skat if skat else None
            if uniform:
                label, floor, ok = f"b. {name} playout, fully uniform", "", None
            else:
                need = PLAYOUT_FLOORS.get(name)
                label = f"a. {name} playout"
                floor = f">= {need} x skat" if need else ""
                ok = None if need is None or ratio is None else ratio >= need
            row(label, rate, "actions/s", f"{hands:,.0f} hands/s", ratio, floor, ok)
    for game in ("skat", "hearts"):
        rates = spiel[game]
        row(
            f"c. OpenSpiel {game} playout",
            rates[0] if rates else None,
            "actions/s",
            f"{rates[1]:,.0f} games/s" if rates else "",
            rates[0] / skat if rates and skat else None,
            "reference",
        )

    # g. the adapters: random playouts through OpenSpiel and PettingZoo, beside skat.
    adapter_names = [n for n in ("cutthroat", "classic", "three-handed") if n in names]
    if pyspiel is not None:
        importlib.import_module("binocle.openspiel")

        def os_played(state: Any) -> int:
            return played_out(state.episode.state)

        for name in adapter_names:
            game = "python_binocle_" + name.replace("-", "_")
            work = openspiel_playouts(pyspiel, game, os_played, ender_ids(name))
            rate, hands = best_rate(work, seconds)
            ratio = rate / skat if skat else None
            row(
                f"g. OpenSpiel {game} playout",
                rate,
                "actions/s",
                f"{hands:,.1f} hands played out/s",
                ratio,
                f">= {OPENSPIEL_FLOOR} x skat",
                None if ratio is None else ratio >= OPENSPIEL_FLOOR,
            )
        for name in adapter_names:
            game = "python_binocle_" + name.replace("-", "_")
            rate, hands = best_rate(openspiel_playouts(pyspiel, game, os_played), seconds)
            row(
                f"g. OpenSpiel {game} playout, fully uniform",
                rate,
                "actions/s",
                f"{hands:,.1f} hands played out/s",
                rate / skat if skat else None,
            )
    try:
        importlib.import_module("pettingzoo")
    except ImportError:
        notes.append("PettingZoo is missing: lines g (PettingZoo, VectorEnv) not measured")
    else:
        for name in adapter_names:
            rate, hands = best_rate(pettingzoo_playouts(name), seconds)
            row(
                f"g. PettingZoo binocle {name} playout",
                rate,
                "steps/s",
                f"{hands:,.1f} hands played out/s",
                rate / skat if skat else None,
                f">= {PETTINGZOO_FLOOR} x skat",
                None if skat is None else rate / skat >= PETTINGZOO_FLOOR,
            )
        for name in adapter_names:
            rate, hands = best_rate(pettingzoo_playouts(name, uniform=True), seconds)
            row(
                f"g. PettingZoo binocle {name} playout, fully uniform",
                rate,
                "steps/s",
                f"{hands:,.1f} hands played out/s",
                rate / skat if skat else None,
            )
        for name in adapter_names:
            rate, hands = best_rate(vector_playouts(name), seconds)
            row(
                f"g. VectorEnv {name}, {VECTOR_ENVS} games",
                rate,
                "agent steps/s",
                f"{hands:,.1f} hands played out/s",
                rate / skat if skat else None,
                f">= {VECTOR_FLOOR} x skat",
                None if skat is None else rate / skat >= VECTOR_FLOOR,
            )
        for name in adapter_names:
            rate, hands = best_rate(learner_playouts(name), seconds)
            ratio = rate / skat if skat else None
            row(
                f"g. BinocleVectorEnv {name}, {VECTOR_ENVS} games, one learner",
                rate,
                "agent steps/s",
                f"{hands:,.1f} hands played out/s",
                ratio,
                f">= {LEARNER_FLOOR} x skat",
                None if ratio is None else ratio >= LEARNER_FLOOR,
            )
        # Profiles VectorEnv steps through the engine (GameState and apply), not in place:
        # what that costs, beside the lines above; no floor.
        for name in (n for n in names if n not in adapter_names):
            rate, hands = best_rate(vector_playouts(name), seconds)
            row(
                f"g. VectorEnv {name}, {VECTOR_ENVS} games (through the engine)",
                rate,
                "agent steps/s",
                f"{hands:,.1f} hands played out/s",
                rate / skat if skat else None,
            )

    # d. cutthroat melds: the internal counter and the public function.
    from binocle.rules.cutthroat_melds import meld_total

    cutthroat = binocle.profile("cutthroat")
    hands15 = random_hands(15, MELD_HANDS, 15)
    hands15_int = [(h, int(t)) for h, t in hands15]
    count_rate = best_rate(over_hands(hands15_int, meld_total), seconds)[0]
    row("d. cutthroat meld_total (internal counter)", count_rate, "hands/s", "15-card hands")
    public_rate = best_rate(over_hands(hands15, binocle.meld, "cutthroat"), seconds)[0]
    row(
        "d. binocle.meld(cards, trump, 'cutthroat')",
        public_rate,
        "hands/s",
        "15-card hands, MeldResult",
        public_rate / count_rate,
        f">= {PUBLIC_MELD_FLOOR} x meld_total",
        public_rate / count_rate >= PUBLIC_MELD_FLOOR,
    )
    profile_rate = best_rate(over_hands(hands15, cutthroat.meld), seconds)[0]
    row(
        "d. cutthroat profile.meld (breakdown)",
        profile_rate,
        "hands/s",
        "15-card hands, MeldResult",
        profile_rate / count_rate,
    )

    # e. classic meld optimum.
    try:
        classic = importlib.import_module("binocle.rules.classic_melds")
    except ImportError:
        classic = None
        notes.append("binocle.rules.classic_melds is not importable: line e not measured")
    if classic is not None:
        for size in (12, 16):
            meld_hands = random_hands(size, MELD_HANDS, size)
            cold = cold_rate(meld_hands, classic.best_meld)
            rate = best_rate(over_hands(meld_hands, classic.best_meld), seconds)[0]
            r = row(
                f"e. classic best_meld, {size} cards",
                rate,
                "hands/s",
                f"first pass (cold memo) {fmt_rate(cold)}",
                None,
                f">= {CLASSIC_MELD_TARGET:,}/s",
                rate >= CLASSIC_MELD_TARGET,
            )
            r["cold"] = cold

    # f. memory per state, every profile.
    for name in names:
        per_state, states = state_bytes(name)
        row(
            f"f. bytes a {name} state adds",
            per_state,
            "bytes",
            f"mean over {states} states of one hand",
            None,
            f"<= {STATE_BYTES_TARGET:,} B",
            per_state <= STATE_BYTES_TARGET,
        )
    # h. determinize: full states sampled from a view in the middle of a hand.
    for name in names:
        view = mid_hand_view(name)
        det = Determinizer(view)
        rng = random.Random(1)
        start = det.hand_start(rng)
        rate = best_rate(timed(functools.partial(_sampled, det, rng, start)), seconds)[0]
        row(f"h. determinize, {name}, mid-hand", rate, "samples/s", "one Determinizer per view")
        rate = best_rate(timed(functools.partial(_determinized, view, rng)), seconds)[0]
        row(f"h. binocle.determinize(view, rng), {name}", rate, "samples/s", "from scratch")
    # i. the engine protocol's overhead.
    engine_rows(seconds, row, [n for n in adapter_names if n in names])
    return _report(seconds, rows, notes)


def _report(seconds: float, rows: list[Row], notes: list[str]) -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "build": "compiled" if binocle.compiled else "pure Python",
        "implementation": platform.python_implementation(),
        "machine": platform.platform(),
        "processor": platform.machine(),
        "seconds": seconds,
        "runs": RUNS,
        "rows": rows,
        "notes": notes,
    }


def show(report: dict[str, Any]) -> str:
    def value(r: Row) -> str:
        v = r["value"]
        if v is None:
            return "not measured"
        if r["unit"] == "bytes":
            return f"{v:,.0f} B"
        return f"{v:,.0f} {r['unit']}"

    table = [("line", "measured", "", "ratio", "floor", "met")]
    for r in report["rows"]:
        met = {True: "yes", False: "NO", None: ""}[r["ok"]]
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.3f}"
        table.append((r["line"], value(r), r["extra"], ratio, r["floor"], met))
    widths = [max(len(t[i]) for t in table) for i in range(len(table[0]))]
    lines = [
        f"binocle {binocle.__version__} ({report['build']} build) benchmark:"
        f" Python {report['python']}"
        f" ({report['implementation']}) on {report['machine']} [{report['processor']}]",
        f"best of {report['runs']} runs of {report['seconds']:g} s each;"
        " playout ratios are to OpenSpiel skat, meld ratios to meld_total",
        "",
    ]
    for i, t in enumerate(table):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(t, widths, strict=True)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.extend(f"note: {n}" for n in report["notes"])
    return "\n".join(lines)


#: The double-dummy solver's floors (seconds of CPU a position, on the compiled build).
SOLVER_FLOORS = {
    "cutthroat last 6 tricks, exact value": (0.010, None),
    "cutthroat 15 tricks, can the bidder make the bid": (2.0, 20.0),
    "classic 12-trick endgame, exact value": (0.100, None),
}


def solver_position(name: str, seed: int, tricks: int) -> binocle.GameState:
    """A position of a game between baseline bots (seeded): the first trick boundary
    with ``tricks`` tricks left (the classic stock exhausted)."""
    from binocle.bots import BaselineBot

    s = binocle.new_game(name, seed=seed)
    bots = [BaselineBot(seed * 10 + i) for i in range(s.profile.players)]
    while True:
        p = s.current_player
        if (
            s.phase is binocle.Phase.PLAY
            and p is not None
            and not s.trick
            and len(s.hands[p]) == tricks
            and not getattr(s, "stock", ())
            and (name != "classic" or getattr(s, "turn_up", None) is None)
        ):
            return s
        if binocle.is_over(s):
            s = binocle.new_game(name, seed=seed + 1000)
            continue
        a = binocle.legal_actions(s)[0] if p is None else bots[p].choose(binocle.observe(s, p))
        s = binocle.apply(s, a)


def solver_rows(count: int, cap: float) -> list[Row]:
    """The solver lines: ``count`` seeded positions each, every search capped at ``cap``
    seconds (a capped search counts as at least ``cap``, and is reported).  Times are
    CPU seconds a position; nodes a second and the cache's hits over the positions."""
    from binocle.solve import solve
    from binocle.solve._position import DEFAULT_NODES, reach_search, read_position

    def makes_bid(s: binocle.GameState) -> tuple[bool | None, Any]:
        # binocle.solve.makes_bid's own steps, keeping its search to read the counters.
        pos = read_position(s)
        assert pos.needed is not None
        return reach_search(pos, pos.needed, DEFAULT_NODES, time.perf_counter() + cap)

    def measure(line: str, positions: list[binocle.GameState], ask: Callable[..., Any]) -> Row:
        times: list[float] = []
        nodes = probes = hits = capped = 0
        for s in positions:
            t0 = time.process_time()
            out = ask(s)
            spent = time.process_time() - t0
            if isinstance(out, tuple):
                out, search = out
                if search is not None:
                    nodes += search.nodes
                    probes += search.probes
                    hits += search.hits
            elif out is not None and not isinstance(out, bool):
                nodes += out.nodes
                probes += out.probes
                hits += out.hits
            if out is None or (not isinstance(out, bool) and not out.exact):
                capped += 1
                spent = max(spent, cap)  # unsolved: at least the cap
            times.append(spent)
        times.sort()
        median = times[len(times) // 2]
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        floor_median, floor_p95 = SOLVER_FLOORS.get(line, (None, None))
        ok = None
        if floor_median is not None:
            ok = median <= floor_median and (floor_p95 is None or p95 <= floor_p95)
            if capped > len(times) // 20:
                ok = False  # the tail is past the cap: the floor is not shown to be met
        extra = f"p95 {p95 * 1000:,.1f} ms, max {times[-1] * 1000:,.1f} ms"
        if nodes:
            extra += f", {nodes / sum(times):,.0f} nodes/s, cache hits {hits / max(probes, 1):.0%}"
        if capped:
            extra += f", {capped} of {len(times)} capped at {cap:g} s"
        floor = "" if floor_median is None else f"median <= {floor_median * 1000:g} ms"
        if floor_p95 is not None:
            floor += f", p95 <= {floor_p95:g} s"
        return {
            "line": f"j. solver: {line}",
            "value": median * 1000,
            "unit": "ms median",
            "extra": extra,
            "ratio": None,
            "floor": floor,
            "ok": ok,
        }

    seeds = range(1, count + 1)
    last6 = [solver_position("cutthroat", k, 6) for k in seeds]
    whole = [solver_position("cutthroat", k, 15) for k in seeds]
    classic = [solver_position("classic", k, 12) for k in seeds]
    rows = [
        measure(
            "cutthroat last 6 tricks, exact value",
            last6,
            lambda s: solve(s, cards=False, seconds=cap),
        ),
        measure(
            "cutthroat 15 tricks, can the bidder make the bid",
            whole,
            makes_bid,
        ),
        measure(
            "cutthroat 15 tricks, exact value",
            whole,
            lambda s: solve(s, cards=False, seconds=cap),
        ),
        measure(
            "classic 12-trick endgame, exact value",
            classic,
            lambda s: solve(s, cards=False, seconds=cap),
        ),
    ]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed run")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--engines", action="store_true", help="measure the engine protocol's lines (i.) alone"
    )
    parser.add_argument(
        "--solver",
        type=int,
        metavar="N",
        help="measure the double-dummy solver (lines j.) alone, on N seeded positions of each kind",
    )
    parser.add_argument(
        "--cap", type=float, default=60.0, help="with --solver: seconds a search may take at most"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.solver is not None:
        if args.solver < 1 or args.cap <= 0:
            parser.error("--solver needs at least 1 position and a positive --cap")
        report = {
            "binocle": binocle.__version__,
            "build": "compiled" if binocle.compiled else "pure Python",
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "machine": platform.platform(),
            "processor": platform.machine(),
            "seconds": args.cap,
            "runs": 1,
            "rows": solver_rows(args.solver, args.cap),
            "notes": [
                "CPU seconds a position (time.process_time), one core; a search past --cap"
                " stops (its time counts as the cap)"
            ],
        }
    else:
        report = run(args.seconds, only_engines=args.engines)
    print(json.dumps(report, indent=2) if args.json else show(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
