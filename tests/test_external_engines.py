"""External engines: the binocle engine protocol, its host (ExternalBot) and its engine side.

Docs: the page "The engine protocol".  An engine is a separate program that
speaks one JSON object per line; it is told only what its seat may know; every
way it can fail is an EngineError naming it and quoting what it sent, with the
game up to there; the reference engines (JavaScript, C) and ``binocle engine``
play whole deals of every profile.
"""

from __future__ import annotations

import copy
import io
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import NoReturn

import pytest

import binocle
from binocle.bots import play_game, resolve_bot
from binocle.cli import main
from binocle.encoding import legal_ids
from binocle.engine import ExternalBot, legal_json, run_engine, view_from_json, view_json
from binocle.errors import (
    EngineCrashError,
    EngineError,
    EngineIllegalActionError,
    EngineOutputError,
    EngineProtocolError,
    EngineTimeoutError,
    InvalidArgumentError,
)
from binocle.profiles import profile_names

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "examples" / "engines"
PROFILES = tuple(profile_names())  # every profile, partnership included

#: A scripted engine: it logs what it is sent to argv[1] and fails as argv[2] says
#: at its first (or argv[3]-th) decision, else answers the first legal action.
SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    log, mode = sys.argv[1], sys.argv[2]
    at = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    goes = 0
    def say(text):
        sys.stdout.write(text + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        with open(log, "a") as f:
            f.write(line)
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if mode == "mute":
                time.sleep(3600)
            version = 2 if mode == "version" else 1
            say(json.dumps({"type": "id", "protocol": "binocle-engine", "version": version,
                            "name": "scripted", "author": "tests",
                            "options": [{"name": "level", "type": "spin", "default": 1}]}))
        elif kind == "isready":
            say('{"type": "readyok"}')
        elif kind == "quit":
            break
        elif kind == "go":
            goes += 1
            if goes == at and mode != "fine":
                if mode == "crash":
                    sys.stderr.write("segmentation fault, sort of\\n"); sys.exit(3)
                if mode == "hang":
                    time.sleep(3600)
                if mode == "garbage":
                    say("e2e4"); continue
                if mode == "illegal":
                    say('{"type": "action", "action": "bid 5"}'); continue
                if mode == "twice":
                    say('{"type": "action", "action": "pass", "type": "info"}'); continue
                if mode == "illegal-id":
                    say('{"type": "action", "id": 99999}'); continue
                if mode == "long-line":
                    say('{"type": "info", "text": "' + "x" * 300000 + '"}'); continue
                if mode == "flood":
                    for _ in range(5000):
                        say('{"type": "info", "text": "' + "y" * 100 + '"}')
                if mode == "slow-after-stop":
                    while True:
                        extra = sys.stdin.readline()
                        with open(log, "a") as f:
                            f.write(extra)
                        if json.loads(extra)["type"] == "stop":
                            break
            if mode == "sluggish" and goes >= at:
                time.sleep(2)
            first = msg["legal"][0]
            say(json.dumps({"type": "info", "text": "thinking"}))
            say(json.dumps({"type": "action", "action": first["text"]}))
    """
)


#: The host runs engines on POSIX systems only (it waits on pipes with selectors).
posix = pytest.mark.skipif(os.name != "posix", reason="external engines need a POSIX system")


@pytest.fixture
def scripted(tmp_path: Path) -> object:
    """A factory of scripted engines: (mode, at) -> (ExternalBot, log path)."""
    if os.name != "posix":
        pytest.skip("external engines need a POSIX system")
    script = tmp_path / "engine.py"
    script.write_text(SCRIPT)

    def make(mode: str = "fine", at: int = 1, **kw: object) -> tuple[ExternalBot, Path]:
        log = tmp_path / f"log-{mode}-{at}-{len(list(tmp_path.iterdir()))}.txt"
        bot = ExternalBot([sys.executable, str(script), str(log), mode, str(at)], **kw)  # type: ignore[arg-type]
        return bot, log

    return make


def received(log: Path) -> list[dict[str, object]]:
    """The messages the scripted engine has logged, whole lines only (the host does not
    wait on ``game_over`` or ``quit``: the engine may be writing the last one)."""
    text = log.read_text()
    return [json.loads(line) for line in text[: text.rfind("\n") + 1].splitlines()]


# -- the messages: what a seat may know -------------------------------------------------


@pytest.mark.parametrize("name", (*PROFILES, "cutthroat(settlement=chips,max_hands=3)"))
def test_view_json_reads_back_and_ids_are_the_encodings(name: str) -> None:
    """The protocol's go message: the view's JSON reads back to the same view
    (view_from_json), and the ids given with the legal actions are binocle.encoding's
    ids of the same state, at every decision of a game of every profile."""
    n = binocle.profile(name).players
    seen = 0

    def step(before: binocle.GameState, action: binocle.Action, after: binocle.GameState) -> None:
        nonlocal seen
        p = before.current_player
        if p is None:
            return
        v = binocle.observe(before, p)
        legal = legal_json(v)
        ids = [e["id"] for e in legal]
        assert set(ids) - {None} <= set(legal_ids(before))
        assert len(set(ids) - {None}) == len([i for i in ids if i is not None])
        doc = json.loads(json.dumps(view_json(v)))
        assert view_from_json(doc, legal) == v
        seen += 1

    game = play_game(name, ["baseline"] * n, seed=5, max_hands=3, on_step=step)
    assert seen > 20
    last = binocle.observe(game, 0)
    assert last.results  # a hand's result (its chips too, where settled in chips) reads back
    assert view_from_json(json.loads(json.dumps(view_json(last)))) == last


def test_view_from_json_refuses_what_is_not_a_view() -> None:
    """view_from_json: anything that is not a view's JSON is InvalidArgumentError."""
    v = view_json(binocle.observe(binocle.new_game("classic", seed=1), 0))
    for bad in (None, [], {"seat": 0}, {**v, "hand": ["ZZ"]}, {**v, "phase": "dancing"}):
        with pytest.raises(InvalidArgumentError):
            view_from_json(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        view_from_json(v, [{"text": 5}])


def _swapped_decks(seed: int) -> tuple[list[binocle.Card], list[binocle.Card]]:
    """Two cutthroat decks (dealer 0) that differ only in cards exchanged between the
    hands of seats 1 and 2 (RULES.md §4 "Deal": three at a time, widow after the first
    round)."""

    def positions(seat: int) -> list[int]:
        k = [1, 2, 0].index(seat)
        return [9 * r + 3 * k + (3 if r >= 1 else 0) + j for r in range(5) for j in range(3)]

    deck = list(binocle.pack())
    random.Random(seed).shuffle(deck)
    other = list(deck)
    for i, j in [(0, 3), (4, 9), (7, 7), (12, 1), (14, 14)]:
        a, b = positions(1)[i], positions(2)[j]
        other[a], other[b] = other[b], other[a]
    return deck, other


def test_an_engine_is_told_nothing_its_seat_may_not_see(scripted: object) -> None:
    """The protocol reveals no card the seat may not see: two games that differ only in
    cards exchanged between the other two hands give the engine at seat 0 the very same
    messages, byte for byte, through the bidding (seat 1 bids, seat 2 passes); and no
    card of the others' hands is named in them unless seat 0 holds its twin or it lies
    in the widow, shown to all."""
    transcripts = []
    deck, other = _swapped_decks(11)
    for cards in (deck, other):
        bot, log = scripted("fine")  # type: ignore[operator]
        s = binocle.new_game("cutthroat", deck=cards, dealer=0)
        hidden = set(s.hands[1]) | set(s.hands[2])
        while s.phase is binocle.Phase.BIDDING:
            p = s.current_player
            assert p is not None
            action = bot.choose(binocle.observe(s, 0)) if p == 0 else ("bid 250", "pass")[p - 1]
            s = binocle.apply(s, action)
        bot.choose(binocle.observe(s, 0)) if s.current_player == 0 else None
        bot.close()
        text = log.read_text()
        transcripts.append(text)
        shown = set(binocle.observe(s, 0).get("widow") or ())
        named = {c for c in hidden - set(s.hands[0]) - shown if f'"{c}"' in text}
        assert not named
    assert transcripts[0] == transcripts[1]
    kinds = [m["type"] for m in received(log)]
    assert kinds[:4] == ["hello", "isready", "game", "update"] and "go" in kinds


def test_the_engine_is_told_the_game_its_turns_and_the_end(scripted: object) -> None:
    """The session: hello, isready, game (profile, seat, seed, time), an update with the
    seat's history and narration before each go, hand_end once a hand is over, game_over
    and quit at the end; the engine's info lines are skipped."""
    bot, log = scripted("fine", move_time=5, game_time=60)  # type: ignore[operator]
    play_game("classic", [bot, "baseline"], seed=3, max_hands=1)
    msgs = received(log)
    kinds = [m["type"] for m in msgs]
    assert kinds[0:3] == ["hello", "isready", "game"]
    game = msgs[2]
    assert game["seat"] == 0 and game["profile_name"] == "classic" and game["players"] == 2
    assert game["time"] == {"move": 5.0, "game": 60.0}
    assert kinds[-3:] == ["hand_end", "game_over", "quit"]
    go = next(m for m in msgs if m["type"] == "go")
    assert go["view"]["seat"] == 0 and go["legal"] and go["time"]["game_left"] <= 60  # type: ignore[index]
    updates = [m for m in msgs if m["type"] == "update"]
    assert any(m["narration"] for m in updates)
    assert msgs[-2]["scores"] == msgs[-2]["view"]["scores"]  # type: ignore[index]
    assert not bot.running


# -- failures ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "error", "words", "kw"),
    [
        ("crash", EngineCrashError, "exited with status 3", {}),
        ("garbage", EngineProtocolError, "not JSON: it sent 'e2e4'", {}),
        ("illegal", EngineIllegalActionError, "not legal now", {}),
        ("illegal-id", EngineIllegalActionError, "action id 99999", {}),
        ("twice", EngineProtocolError, "ambiguous JSON (the key 'type' appears twice", {}),
        ("long-line", EngineOutputError, "longer than 100000 bytes", {"max_line": 100_000}),
        ("flood", EngineOutputError, "more than 200000 bytes", {"max_output": 200_000}),
        ("hang", EngineTimeoutError, "did not answer within its 1 s for a move", {"move_time": 1, "grace": 0.5}),
        # 2 s a move from the third: the third fits the 3 s of the game, the fourth cannot.
        ("sluggish", EngineTimeoutError, "did not answer within its time for the game", {"game_time": 3, "grace": 0.5}),
    ],
)  # fmt: skip
def test_a_failing_engine_is_a_clear_error_with_the_game_so_far(
    scripted: object, mode: str, error: type[EngineError], words: str, kw: dict[str, object]
) -> None:
    """An engine that crashes, answers garbage, ambiguous JSON (a key twice: readers differ
    on which value counts) or an illegal action (text or id), writes too long a line or
    too much, or hangs past its move time or its time for the game and the grace after stop:
    the error of that kind names the engine and its seat and says what it sent; the
    process is stopped; play_game gives the error the state the engine was to act in,
    whose record replays to it (the game recorded up to there)."""
    bot, _ = scripted(mode, 3, **kw)  # type: ignore[operator]
    with pytest.raises(error) as info:
        play_game("cutthroat", ["baseline", bot, "baseline"], seed=4)
    exc = info.value
    assert words in str(exc) and "engine '" in str(exc) and "(seat 1)" in str(exc)
    assert exc.engine == bot.name and not bot.running
    if mode in ("garbage", "illegal"):
        assert exc.sent is not None and exc.sent in str(exc)
    if mode == "crash":
        assert "segmentation fault, sort of" in str(exc)
    state = exc.state
    assert isinstance(state, binocle.GameState) and state.current_player == 1
    assert binocle.replay(binocle.record(state)) == state
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is error and again.state == state and str(again) == str(exc)


def test_an_engine_may_answer_after_stop(scripted: object) -> None:
    """At the move limit the host sends stop; an answer within the grace counts."""
    bot, log = scripted("slow-after-stop", move_time=0.5, grace=30)  # type: ignore[operator]
    s = binocle.new_game("cutthroat", seed=2)
    action = bot.choose(binocle.observe(s, s.current_player or 0))
    assert action == binocle.legal_actions(s)[0]
    assert "stop" in [m["type"] for m in received(log)]
    bot.close()


def test_an_engine_silent_at_the_handshake_is_stopped(scripted: object) -> None:
    """``start_time``: an engine that sends no id in time is a timeout, and stopped."""
    bot, _ = scripted("mute", start_time=1)  # type: ignore[operator]
    with pytest.raises(EngineTimeoutError, match="did not send its handshake"):
        bot.start()
    assert not bot.running


def test_a_handshake_of_another_version_is_refused(scripted: object) -> None:
    """The host speaks version 1: an engine answering another version is refused."""
    bot, _ = scripted("version")  # type: ignore[operator]
    with pytest.raises(EngineProtocolError, match="version 2, not binocle-engine version 1"):
        bot.start()
    assert not bot.running


def test_options_are_sent_and_unknown_ones_refused(scripted: object) -> None:
    """Options the engine declared are sent before isready; any other is refused."""
    bot, log = scripted("fine", options={"level": 3})  # type: ignore[operator]
    bot.start()
    assert {"type": "option", "name": "level", "value": 3} in received(log)
    assert bot.engine_name == "scripted" and bot.engine_options[0]["name"] == "level"
    bot.close()
    bad, _ = scripted("fine", options={"depth": 3})  # type: ignore[operator]
    with pytest.raises(InvalidArgumentError, match="no option depth"):
        bad.start()
    assert not bad.running


def test_bad_settings_and_specs_are_refused() -> None:
    """ExternalBot and the cmd: spec refuse a missing program, an empty or unreadable
    command, limits that are not positive numbers and settings of the wrong kind,
    with InvalidArgumentError."""
    for bad in ("cmd:", "cmd:   ", "cmd:no-such-program-anywhere --x"):
        with pytest.raises(InvalidArgumentError):
            resolve_bot(bad)
    for kw in (
        {"move_time": 0}, {"move_time": "1"}, {"max_line": 0}, {"game_time": float("nan")},
        {"cwd": 5}, {"env": {"A": 1}}, {"options": {1: 2}}, {"seed": 1.5}, {"name": ""},
    ):  # fmt: skip
        with pytest.raises(InvalidArgumentError):
            ExternalBot([sys.executable], **kw)  # type: ignore[arg-type]
    for command in ([], [sys.executable, "a\0b"], "  ", 'echo "unclosed', 7):
        with pytest.raises(InvalidArgumentError):
            ExternalBot(command)  # type: ignore[arg-type]


def test_copies_and_pickles_carry_the_settings_not_the_process(scripted: object) -> None:
    """A copy (the arena copies bots for every deal) or a pickle is a new, unstarted
    bot with the same command and limits; a persistent bot plays game after game
    in one process."""
    bot, log = scripted("fine", move_time=3, persistent=True)  # type: ignore[operator]
    bot.start()
    for twin in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert not twin.running and twin.argv == bot.argv and twin.move_time == 3
    for seed in (1, 2):
        play_game("classic", [bot, "random"], seed=seed, max_hands=1)
    assert bot.running
    assert Counter(m["type"] for m in received(log))["hello"] == 1
    assert Counter(m["type"] for m in received(log))["game_over"] == 2
    bot.close()
    assert not bot.running


@posix
def test_the_cli_reports_a_failed_engine_with_status_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """binocle arena with an engine that fails: exit status 3, the message names the
    engine and what it sent, and the game up to there is written to a file."""
    script = tmp_path / "engine.py"
    script.write_text(SCRIPT)
    spec = f"cmd:{sys.executable} {script} {tmp_path / 'log'} garbage 2"
    status = main(["arena", "--profile", "classic", "--bots", f"{spec},baseline", "--deals", "1"])
    err = capsys.readouterr().err
    assert status == 3 and "it sent 'e2e4'" in err
    path = err.rsplit("the game up to there: ", 1)[1].split(")")[0]
    binocle.replay(Path(path).read_text())
    os.unlink(path)


# -- binocle as the engine -----------------------------------------------------------------


def test_run_engine_answers_the_protocol() -> None:
    """run_engine: the handshake declares a built-in bot's settings as options, isready
    is answered, a go gets one of its legal actions, and garbage or ambiguous JSON (a key
    twice) an error message."""
    s = binocle.new_game("cutthroat", seed=9)
    v = binocle.observe(s, s.current_player or 0)
    lines = [
        {"type": "hello", "protocol": "binocle-engine", "version": 1},
        {"type": "option", "name": "sudden", "value": False},
        {"type": "isready"},
        {"type": "game", "profile": "cutthroat", "seat": v.seat, "seed": 3},
        {"type": "go", "view": view_json(v), "legal": legal_json(v)},
    ]
    twice = '{"type": "quit", "type": "hello"}\n'  # a key twice: refused, not read as one
    src = io.StringIO("".join(json.dumps(m) + "\n" for m in lines) + "nonsense\n" + twice)
    out = io.StringIO()
    assert run_engine("random", src, out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0]["type"] == "id" and answers[0]["name"] == "binocle random"
    assert {"name": "sudden", "type": "check", "default": False} in answers[0]["options"]
    assert answers[1] == {"type": "readyok"}
    assert answers[2]["type"] == "action" and answers[2]["action"] in [
        str(a) for a in v.legal_actions
    ]
    assert answers[3]["type"] == "error"
    assert answers[4] == {
        "type": "error",
        "message": "ambiguous JSON: the key 'type' appears twice in one object",
    }
    assert len(answers) == 5


def _engine_env() -> dict[str, str]:
    """The environment in which ``python -m binocle`` finds the binocle under test (this
    checkout's source, or the installed wheel)."""
    return {**os.environ, "PYTHONPATH": str(Path(binocle.__file__).resolve().parent.parent)}


@posix
def test_two_binocle_engines_play_each_other() -> None:
    """Two ``binocle engine`` processes (random and baseline) play a whole hand of
    classic against each other through ExternalBot, each seeing only its own seat."""
    engines = [
        ExternalBot([sys.executable, "-m", "binocle", "engine", "--bot", bot], env=_engine_env())
        for bot in ("random", "baseline")
    ]
    s = play_game("classic", engines, seed=2, max_hands=1)
    assert s.results and len(s.results[0].delta) == 2
    assert [e.engine_name for e in engines] == ["binocle random", "binocle baseline"]
    assert not any(e.running for e in engines)


# -- the reference engines -------------------------------------------------------------------


def _missing(what: str) -> NoReturn:
    """In CI the reference engines must play: a missing runtime fails; elsewhere the
    test skips, saying why."""
    if os.environ.get("CI"):
        pytest.fail(f"{what}: CI plays the reference engines")
    pytest.skip(what)


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory: pytest.TempPathFactory) -> str:
    cc = shutil.which("cc")
    if cc is None:
        _missing("no C compiler (cc)")
    out = tmp_path_factory.mktemp("c") / "random_engine"
    subprocess.run([cc, "-O2", "-o", str(out), str(ENGINES / "random_engine.c")], check=True)
    return str(out)


@pytest.fixture(scope="module")
def js_engine() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        _missing("no Node (Debian's nodejs)")
    return f"{node} {ENGINES / 'random_engine.js'}"


@posix
@pytest.mark.parametrize("name", PROFILES)
def test_the_reference_engines_play_the_arena(name: str, c_engine: str, js_engine: str) -> None:
    """The JavaScript and C reference engines, legal random players, play duplicate
    deals of every profile against baseline in the arena (every seat of every deal)."""
    n = binocle.profile(name).players
    line = [f"cmd:{js_engine}", f"cmd:{c_engine}", "baseline", "random"][:n]
    if n == 2:
        line = [f"cmd:{js_engine}", "baseline"]
    report = binocle.arena(name, line, deals=3, seed=8)
    assert report.get(f"cmd:{js_engine}").hands == 3 * n
    if n == 2:
        report = binocle.arena(name, [f"cmd:{c_engine}", "baseline"], deals=3, seed=8)
    assert report.get(f"cmd:{c_engine}").hands == 3 * n


@posix
def test_an_engine_is_rated_beside_the_built_in_bots(js_engine: str) -> None:
    """binocle.ratings: an engine spec (``cmd:``) is rated like any bot, over the same
    duplicate deals, the table naming it by its spec."""
    from binocle.ratings import ratings_table

    spec = f"cmd:{js_engine}"
    table = ratings_table("classic", [spec, "random", "baseline"], deals=2, seed=3, resamples=50)
    assert set(table.bots) == {spec, "random", "baseline"} and table.deals == 2
    rated = {r.bot: r for r in table.ratings}
    assert set(rated) == set(table.bots) and rated[spec].comparisons > 0


@posix
def test_an_engine_takes_a_seat_at_a_web_table(tmp_path: Path) -> None:
    """binocle serve: an engine offered as a bot (``--bots 'cmd:...'``) plays a seat of a
    web table, its moves made through the same bot_action as any bot's."""
    pytest.importorskip("starlette")
    from binocle.web import protocol

    script = tmp_path / "engine.py"
    script.write_text(SCRIPT)
    spec = f"cmd:{sys.executable} {script} {tmp_path / 'log'} fine"
    msg = {"type": "new", "profile": "classic", "options": {"max_hands": 1}, "seat": 0,
           "opponents": [spec], "autoplay": "baseline", "seed": 4}  # fmt: skip
    table = protocol.new_table(msg, offer=[spec, "baseline"])
    table.started = True
    while (nxt := table.bot_to_act()) is not None:
        seat, bot = nxt
        table.apply(protocol.bot_action(table.state, seat, bot))
    assert table.state.phase is binocle.Phase.OVER
    kinds = [m["type"] for m in received(tmp_path / "log")]
    assert kinds[:3] == ["hello", "isready", "game"] and kinds.count("go") > 5
    engine = table.bots[1]
    assert isinstance(engine, ExternalBot)
    engine.close()


@posix
def test_an_engine_plays_against_a_person_at_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """binocle play --bots 'cmd:...': the engine is the person's opponent at the terminal."""
    script = tmp_path / "engine.py"
    script.write_text(SCRIPT)
    answers = iter(["1"] * 8 + ["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    spec = f"cmd:{sys.executable} {script} {tmp_path / 'log'} fine"
    assert main(["play", "--profile", "classic", "--seed", "2", "--bots", spec]) == 0
    assert "You left the game." in capsys.readouterr().out
    assert [m["type"] for m in received(tmp_path / "log")].count("go") >= 3


@posix
def test_an_engine_runs_in_a_directory_of_its_own(tmp_path: Path) -> None:
    """By default an engine runs in a new empty working directory, removed when it
    stops; a shell runs the command only when asked (shell=True)."""
    script = tmp_path / "engine.py"
    script.write_text(SCRIPT)
    where = tmp_path / "cwd.txt"
    command = f"pwd > {where} && ls -A >> {where} && exec {sys.executable} {script} {tmp_path / 'log'} fine"
    bot = ExternalBot(command, shell=True)
    bot.start()
    lines = where.read_text().splitlines()
    assert Path(lines[0]) != Path.cwd() and lines[1:] == []
    assert Path(lines[0]).is_dir()
    bot.close()
    assert not Path(lines[0]).exists()
    plain = ExternalBot(command)  # no shell: 'pwd' is the program, the rest its arguments
    with pytest.raises(EngineError):
        plain.start()
    assert where.read_text().splitlines() == lines
