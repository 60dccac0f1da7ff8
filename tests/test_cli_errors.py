"""The command line's error contract: every command ends with a clear message and a
documented exit status, never a traceback (docs: "The command line", exit status).

Most tests run ``binocle`` as a person does, in a subprocess, and read what it prints.
"""

from __future__ import annotations

import argparse
import builtins
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import binocle
from binocle.cli import build_parser, main
from binocle.cli import play as play_command

ROOT = Path(__file__).resolve().parent.parent


def _binocle(
    *args: str, stdin: str = "", cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python -m binocle ARGS`` in a subprocess."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("BINOCLE_TRACEBACK", None)
    return subprocess.run(
        [sys.executable, "-m", "binocle", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd or ROOT,
        env=env,
        check=False,
    )


def _clean(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr


# -- bad input: exit status 2 and one clear line -------------------------------------------


BAD_INPUT = [
    (["demo", "--max-hands", "0"], "--max-hands: must be at least 1, not 0"),
    (["demo", "--max-hands", "-1"], "--max-hands: must be at least 1, not -1"),
    (["demo", "--profile", "nope"], "unknown profile 'nope'"),
    (["demo", "--seed", "1" * 5000], "--seed: not a whole number"),
    (["demo", "--suits", "fancy"], "invalid choice: 'fancy'"),
    (["simulate", "--games", "0"], "--games: must be at least 1, not 0"),
    (["simulate", "--jobs", "-2"], "--jobs: must be at least 1, not -2"),
    (["simulate", "--max-hands", "²"], "--max-hands: not a whole number: '²'"),
    (["simulate", "--bots", "genius", "--games", "1"], "unknown bot 'genius'"),
    (["meld", "AS", "XZ", "--trump", "S"], "not a card: 'XZ'"),
    (["meld", "AS", "--trump", "X"], "not a suit: 'X'"),
    (["meld", "AS"], "the following arguments are required: --trump"),
    (["validate", "no-such-file.json"], "cannot read no-such-file.json"),
    (["validate", "examples"], "cannot read examples"),
    (["validate", "pyproject.toml"], "not a readable game record"),
    (["play", "--seat", "9"], "--seat is 0..2 in cutthroat"),
    (["play", "--save", "examples"], "examples is a directory: give a file name"),
    (["play", "--save", "no-such-dir/game.json"], "the directory"),
    ([], "the following arguments are required: COMMAND"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
]


@pytest.mark.parametrize(
    ("argv", "message"), BAD_INPUT, ids=[" ".join(a)[:40] for a, _ in BAD_INPUT]
)
def test_bad_input_is_explained_with_status_2(argv: list[str], message: str) -> None:
    """Bad input: the message on standard error, exit status 2, no traceback; ``play``
    refuses before the game starts (nothing on standard output but usage)."""
    done = _binocle(*argv)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    _clean(done)
    if argv[:1] == ["play"]:
        assert "baseline bot" not in done.stdout  # no game was started


def test_version() -> None:
    """``binocle --version`` prints the package's version."""
    done = _binocle("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"binocle {binocle.__version__}"


def test_every_option_states_its_default() -> None:
    """``--help`` of every command states the default of every option it has."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) >= {"demo", "play", "meld", "simulate", "validate"}
    for name, sub in commands.choices.items():
        formatter = sub._get_formatter()
        for action in sub._actions:
            if not action.option_strings or action.required or action.dest in ("help",):
                continue
            text = formatter._get_help_string(action) or ""  # type: ignore[attr-defined]
            assert "default" in text, f"binocle {name} {action.option_strings[0]}: {text!r}"
        shown = " ".join(sub.format_help().split())
        assert "(default: cutthroat)" in shown or "--profile" not in shown


def test_internal_errors_are_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug inside a command is reported in one line with exit status 70, not a
    traceback; ``BINOCLE_TRACEBACK=1`` shows the traceback for a bug report."""

    def broken(args: argparse.Namespace) -> int:
        raise RuntimeError("something inside broke")

    monkeypatch.setattr(play_command, "run", broken)
    monkeypatch.delenv("BINOCLE_TRACEBACK", raising=False)
    assert main(["play"]) == 70
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: something inside broke" in err
    monkeypatch.setenv("BINOCLE_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        main(["play"])


def test_a_closed_pipe_ends_quietly() -> None:
    """``binocle demo | head -1``: the rest of the output is dropped without a complaint."""
    done = subprocess.run(
        ["bash", "-c", f"'{sys.executable}' -m binocle demo --profile classic | head -n 1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    assert done.stdout.startswith("binocle demo: classic")
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["examples/terminal_frontend.py", "--profile", "nope"], "unknown profile 'nope'"),
        (["examples/terminal_frontend.py", "--seed", "x"], "invalid int value: 'x'"),
        (["examples/bots_match.py", "--games", "0"], "--games must be at least 1, not 0"),
    ],
)
def test_the_examples_refuse_bad_options(argv: list[str], message: str) -> None:
    """The examples end bad options with a usage error (status 2), no traceback."""
    done = subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    assert message in done.stderr
    _clean(done)


# -- Ctrl-C ----------------------------------------------------------------------------------


def _ctrl_c(*args: str, wait: float) -> subprocess.CompletedProcess[str]:
    """Run ``binocle ARGS`` in its own process group and press Ctrl-C after ``wait``
    seconds: SIGINT to the whole group, as a terminal sends it."""

    def keep_ctrl_c() -> None:  # a parent that ignores SIGINT must not hide it
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "binocle", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        preexec_fn=keep_ctrl_c,
    )
    time.sleep(wait)
    with contextlib.suppress(ProcessLookupError):  # it may have finished first
        os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:  # pragma: no cover - a hang fails the test, not the suite
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_during_simulate_keeps_the_finished_games(jobs: str) -> None:
    """Ctrl-C during ``binocle simulate`` ends the same clean way with one job or two:
    the summary of the games already finished, ``interrupted`` on standard error, exit
    status 130, and no traceback from the main process or a worker."""
    done = _ctrl_c("simulate", "--games", "100000", "--jobs", jobs, "--seed", "1", "--json", wait=4)
    assert done.returncode == 130, done.stderr
    _clean(done)
    assert "KeyboardInterrupt" not in done.stderr
    assert "interrupted:" in done.stderr and "of 100000 finished" in done.stderr
    doc = json.loads(done.stdout)
    assert doc["interrupted"] is True and doc["games_asked"] == 100000
    assert doc["games"] < 100000 and sum(doc["wins"]) + doc["no_winner"] == doc["games"]


def test_ctrl_c_during_demo() -> None:
    """Ctrl-C during ``binocle demo``: ``interrupted``, exit status 130, no traceback."""
    done = _ctrl_c("demo", "--bot", "random", "--max-hands", "100000", wait=3)
    assert done.returncode == 130
    assert done.stderr.strip().endswith("interrupted")
    _clean(done)


# -- play --save never loses a game ------------------------------------------------------------


def _leave_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def leave(prompt: str = "") -> str:
        return "quit"

    monkeypatch.setattr(builtins, "input", leave)


def test_play_saves_elsewhere_when_the_file_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """When writing the record fails after the game (the path was fine when it started),
    ``play`` says so and writes the record in the current directory; exit status 1."""
    _leave_at_once(monkeypatch)
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "later-a-directory"
    target.mkdir()  # it passes the check below, then open() fails
    monkeypatch.setattr(play_command, "_save_problem", lambda path: None)
    assert main(["play", "--seed", "4", "--save", str(target)]) == 1
    out, err = capsys.readouterr()
    assert f"cannot write {target}" in err
    saved = list(tmp_path.glob("binocle-game-4-*.json"))
    assert len(saved) == 1 and f"written to {saved[0]} instead" in out
    assert binocle.validate(saved[0].read_text(encoding="utf-8")).ok


def test_play_prints_the_record_when_nothing_can_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """When no file can be written at all, the record is printed, so the game survives."""
    _leave_at_once(monkeypatch)
    missing = str(tmp_path / "gone")
    monkeypatch.setattr(play_command, "_save_problem", lambda path: None)
    monkeypatch.setattr(play_command.os, "getcwd", lambda: missing)
    monkeypatch.setattr(play_command.tempfile, "gettempdir", lambda: missing)
    assert main(["play", "--seed", "4", "--save", os.path.join(missing, "g.json")]) == 1
    out = capsys.readouterr().out
    _, _, record = out.partition("Nowhere to write the game record; here it is:\n")
    assert record and binocle.validate(record).ok


def test_ctrl_c_while_the_bots_play_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while a bot is choosing leaves the game like ``quit`` and still saves it."""

    def interrupted(self: object, view: object) -> binocle.Action:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_command.BaselineBot, "choose", interrupted)
    path = tmp_path / "game.json"
    assert main(["play", "--seed", "4", "--seat", "2", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "You left the game." in out
    assert binocle.validate(path.read_text(encoding="utf-8")).ok


def test_play_reads_only_plain_digits_as_numbers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``²`` and a 5,000-digit number are not action numbers: explained, asked again."""
    feed = iter(["²", "9" * 5000, "quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(feed))
    assert main(["play", "--seed", "4", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "You left the game." in out
    assert out.count("not understood") + out.count("there is no action") == 2
