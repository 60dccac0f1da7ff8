"""``binocle play`` for a person, and the JSON the deal-running commands print (docs: "The
command line"): colour only where the terminal has it, ``undo``, the knock offered only
when it would win, status lines that follow the hand, the game saved on SIGTERM and
SIGHUP, a saved game resumed with ``--load``; ``arena --json`` is strict JSON.

The command is driven through its input and output: ``input`` fed in-process, or a
subprocess for the signals.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import re
import selectors
import signal
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import binocle
from binocle.cli import build_parser, main
from binocle.cli._common import Painter, finite_json, use_color
from binocle.narrate import hand_by_suit

ROOT = Path(__file__).resolve().parent.parent
ESC = "\x1b["


def _feed(monkeypatch: pytest.MonkeyPatch, lines: Iterable[str]) -> list[str]:
    """Feed ``input()`` from ``lines`` (EOF after the last); returns the prompts seen."""
    it = iter(lines)
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


# -- arena --json: strict JSON ---------------------------------------------------------------


def test_arena_json_has_no_nan(capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle arena --deals 1 --json``: an interval over a single deal is undefined;
    it is printed as ``null``, so the output is JSON every reader accepts (no ``NaN``)."""
    argv = ["arena", "--bots", "random,random,random", "--deals", "1", "--seed", "1"]
    assert main([*argv, "--json", "--no-progress"]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out, parse_constant=_refuse_constant)
    stats = doc["stats"][0]
    assert stats["points_ci95"] == [None, None]
    assert stats["advantage_ci95"] == [None, None]
    assert isinstance(stats["mean_points"], float) and stats["deals"] == 3


def test_finite_json_writes_null_for_undefined_figures() -> None:
    """NaN and the infinities, however deep, become ``null``; other values stay."""
    doc = {"a": math.nan, "b": [1.5, -math.inf, (math.inf, 2)], "c": {"d": "NaN", "e": 0}}
    text = finite_json(doc, indent=None)
    assert json.loads(text, parse_constant=_refuse_constant) == {
        "a": None,
        "b": [1.5, None, [None, 2]],
        "c": {"d": "NaN", "e": 0},
    }


# -- colour ----------------------------------------------------------------------------------


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("choice", "tty", "env", "expected"),
    [
        ("auto", True, {}, True),
        ("auto", False, {}, False),  # a pipe or a file: no colour
        ("auto", True, {"NO_COLOR": "1"}, False),  # no-color.org: any non-empty value
        ("auto", True, {"NO_COLOR": ""}, True),  # empty: as if unset
        ("auto", True, {"TERM": "dumb"}, False),
        ("always", False, {"NO_COLOR": "1"}, True),  # the option overrides the variable
        ("never", True, {}, False),
    ],
)
def test_colour_only_where_the_terminal_has_it(
    choice: str, tty: bool, env: dict[str, str], expected: bool
) -> None:
    """``--color auto`` colours a terminal only, and never with ``NO_COLOR`` set to a
    non-empty value; ``always`` and ``never`` are what they say."""
    assert use_color(choice, _Tty(tty), env) is expected


def test_painter_colours_red_suits_and_marks_trumps() -> None:
    """Red suits red, cards of the trump suit bold and underlined; off, text unchanged."""
    on, off = Painter(True), Painter(False)
    line = "seat 1 plays T♥ on A♠ (trump ♠), then QD and 9C"
    assert off.cards(line, 0) == line
    painted = on.cards(line, 0)
    assert "\x1b[31mT♥\x1b[0m" in painted
    assert "\x1b[1;4mA♠\x1b[0m" in painted and "\x1b[1;4m♠\x1b[0m" in painted
    assert "\x1b[31mQD\x1b[0m" in painted and "9C" in painted and "m9C" not in painted
    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == line


def test_play_in_colour_and_plain(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--color always`` paints the table; output to a pipe (not a terminal), or with
    ``NO_COLOR``, is plain text."""
    _feed(monkeypatch, ["quit"])
    assert main(["play", "--seed", "3", "--seat", "1", "--color", "always"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[31m♥ " in out and "\x1b[1m— your turn" in out
    _feed(monkeypatch, ["quit"])
    assert main(["play", "--seed", "3", "--seat", "1"]) == 0  # capsys: not a terminal
    assert ESC not in capsys.readouterr().out
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("NO_COLOR", "1")
    _feed(monkeypatch, ["quit"])
    assert main(["play", "--seed", "3", "--seat", "1"]) == 0
    assert ESC not in capsys.readouterr().out
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.delenv("TERM", raising=False)
    _feed(monkeypatch, ["quit"])
    assert main(["play", "--seed", "3", "--seat", "1"]) == 0
    assert ESC in capsys.readouterr().out


def test_the_partner_is_named_as_such_at_the_console(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Partnership rules, Players and pack: partners sit opposite.  The person at seat 1
    reads seat 3 as "your partner" in the deal, the narration and the score lines;
    seats 0 and 2 stay plain seats."""
    _feed(monkeypatch, ["pass", "quit"])
    assert main(["play", "--profile", "partnership", "--seed", "3", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "seat 3 (your partner): 12 cards" in out
    assert "scores: seat 0 0, seat 1 (you) 0, seat 2 0, seat 3 (your partner) 0" in out
    assert re.search(r"^  your partner (bids|passes)", out, re.M), out
    assert "seat 0 (your partner)" not in out and "seat 2 (your partner)" not in out
    _feed(monkeypatch, ["quit"])
    assert main(["play", "--profile", "cutthroat", "--seed", "3"]) == 0
    assert "partner" not in capsys.readouterr().out  # no partners: plain seats


# -- undo ------------------------------------------------------------------------------------


def _record(path: Path) -> list[tuple[int | None, str]]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [(e["seat"], e["action"]) for e in doc["actions"]]


def test_undo_takes_back_the_persons_decision_and_the_bots_replies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``undo`` goes back to the person's previous decision: his action and every bot's
    move since are taken back (binocle.undo); with none to take back, it says so."""
    path = tmp_path / "game.json"
    _feed(monkeypatch, ["undo", "bid 260", "undo", "quit"])
    argv = ["play", "--seed", "3", "--seat", "1", "--suits", "letters", "--save", str(path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "nothing to undo: no earlier decision of yours" in out
    assert "you bid 260" in out
    assert "undone: back to your previous decision" in out
    after_undo = out.split("undone: back to your previous decision")[1]
    assert "· bidding ·" in after_undo and "high bid" not in after_undo.split("\n")[3]
    moves = _record(path)
    assert [seat for seat, _ in moves] == [None]  # the deal alone: his bid and the replies gone
    assert binocle.validate(path.read_text(encoding="utf-8")).ok


# -- the knock -------------------------------------------------------------------------------


def _knock_script(monkeypatch: pytest.MonkeyPatch, answers: Iterable[str]) -> list[str]:
    """The person plays action 1 at his turn and answers the knock offer from ``answers``."""
    offers = iter(answers)
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        if len(prompts) > 3000:
            raise EOFError
        if prompt.startswith("knock now?"):
            return next(offers, "")
        return "1"

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def test_no_knock_offered_when_a_knock_would_lose(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Classic rules, Claiming (knocking): a knock short of the target loses the game, so
    the person is not asked after the tricks he loses far from 1000 (he may still type
    ``knock``)."""
    prompts = _knock_script(monkeypatch, [])
    argv = ["play", "--profile", "classic(max_hands=1)", "--seed", "2", "--seat", "0"]
    assert main([*argv, "--suits", "letters"]) == 0
    out = capsys.readouterr().out
    assert "-> seat 1" in out  # he lost tricks
    assert not any(p.startswith("knock now?") for p in prompts)
    assert "The game stopped at the hand limit (max_hands=1)" in out


def test_knock_offered_when_it_would_win(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With his total at the target after a trick he lost, the person is asked, the
    prompt gives the figures and what other input does; other input is explained and
    asked again; ``knock`` claims out of turn and wins."""
    prompts = _knock_script(monkeypatch, ["perhaps", "knock"])
    argv = ["play", "--profile", "classic(target=150)", "--seed", "5", "--seat", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    offers = [p for p in prompts if p.startswith("knock now?")]
    assert len(offers) == 2  # asked again after "perhaps"
    assert offers[0] == (
        "knock now? you have 156 of 150: a knock wins the game (knock; Enter goes on; quit leaves)> "
    )
    assert "type knock to knock now, or press Enter to go on" in out
    assert "you knock out of turn (seat 1 to act), claiming the game" in out
    assert "the claim is correct: you win the game" in out and "You win!" in out


def test_enter_at_the_knock_offer_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Enter at the offer goes on: no knock, the others play on."""
    prompts = _knock_script(monkeypatch, [""])
    argv = ["play", "--profile", "classic(target=150)", "--seed", "5", "--seat", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert any(p.startswith("knock now?") for p in prompts)
    assert "you knock out of turn" not in out


def test_knock_typed_at_the_persons_turn(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``knock`` at the prompt: where it would be wrong, the figures and a question first
    (anything but yes goes back); yes claims (wrongly: he loses). Where the rules have
    no knock, it says so."""
    _feed(monkeypatch, ["knock", "no", "knock", "yes"])
    assert main(["play", "--profile", "classic", "--seed", "2", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "knock: you have 0 of 1000: a knock now is wrong" in out
    assert "you knock, claiming the game: the claim is wrong" in out
    assert "Seat 1 wins." in out
    _feed(monkeypatch, ["bid 250", "knock", "quit"])
    assert main(["play", "--profile", "cutthroat", "--seed", "2", "--seat", "1"]) == 0
    assert "no knock now: there is no claiming (knocking)" in capsys.readouterr().out


# -- status lines ----------------------------------------------------------------------------


def test_the_turn_up_line_follows_the_dix_exchange(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three-handed rules, Dix: the first other player to show the Nine of trumps
    exchanges it for the turn-up; the status line then shows the Nine in its place."""
    _feed(monkeypatch, ["1", "1", "quit"])
    argv = ["play", "--profile", "three-handed", "--seed", "0", "--seat", "0"]
    assert main([*argv, "--suits", "letters"]) == 0
    out = capsys.readouterr().out
    assert "exchanging it for the turn-up" in out
    tables = out.split("— your turn")[1:]
    assert tables and all("turn-up 9H (exchanged for AH)" in t for t in tables)
    assert "turn-up AH" not in out


# -- --load ----------------------------------------------------------------------------------


def _game(profile: str, seed: int, moves: int) -> binocle.GameState:
    s = binocle.new_game(profile, seed=seed)
    for _ in range(moves):
        s = binocle.apply(s, binocle.legal_actions(s)[0])
    return s


@pytest.mark.parametrize("kind", ["record", "position", "view"])
def test_load_resumes_a_saved_game(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--load FILE`` plays on from a game record, a state's position or a view's
    position, whichever the file holds: the person's seat is the record's ``you`` (or
    the view's), the table is the one the file left, and a new ``--save`` keeps the
    whole game."""
    s = _game("classic", 3, 12)
    me = s.current_player
    assert me is not None
    path = tmp_path / "saved.txt"
    if kind == "record":
        seats = ["you" if i == me else "baseline bot" for i in range(2)]
        path.write_text(binocle.record_json(s, seats=seats), encoding="utf-8")
    elif kind == "position":
        path.write_text(binocle.position(s) + "\n", encoding="utf-8")
    else:
        path.write_text(binocle.position(s, seat=me), encoding="utf-8")
    out_path = tmp_path / "again.json"
    _feed(monkeypatch, ["quit"])
    argv = ["play", "--load", str(path), "--save", str(out_path), "--suits", "letters"]
    if kind == "position":
        argv += ["--seat", str(me)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"You are seat {me} against 1 baseline bot; resumed from" in out
    assert f"resumed from {path}, a" in out
    assert "seed 3" in out or kind == "view"
    hand = binocle.observe(s, me).hand
    assert f"your hand: {hand_by_suit(hand, 'letters')}" in out
    again = binocle.replay(out_path.read_text(encoding="utf-8"))
    assert len(binocle.history(again)) == len(binocle.history(s))
    if kind != "view":  # a view's position makes up the hands hidden from the seat
        assert again == s


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (None, [], "cannot read"),
        ("", [], "is empty: neither a game record nor a position"),
        ("{not json", [], "is not a game record the rules accept"),
        (
            '{"format": "binocle-record", "version": 1, "profile": "nope", "actions": []}',
            [],
            "is not a game record the rules accept",
        ),
        ("hello world", [], "is neither a game record nor a position"),
        ("one\ntwo\n", [], "neither a game record (JSON) nor a position (one line of text)"),
        ("classic seed=3 first=0 | turn=0 | *,play ZZ", [], "a position the rules refuse"),
        ("classic seed=3 first=0 | | *", ["--seed", "4"], "--seed and --load do not go together"),
        (
            "classic seed=3 first=0 | | *",
            ["--profile", "three-handed"],
            "holds a game of classic, not of --profile three-handed",
        ),
        ("classic seed=3 first=0 | | *", ["--seat", "2"], "--seat is 0..1 in classic"),
    ],
)
def test_load_refuses_a_bad_file(
    content: str | None,
    extra: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A file that holds no game to play on is refused before any game starts: one line
    on standard error and exit status 2, as bad input is everywhere."""
    path = tmp_path / "saved.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["play", "--load", str(path), *extra]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("binocle play: ") and message in err, err
    assert "your turn" not in out


def test_load_refuses_a_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record of a game that is over leaves nothing to play: refused, status 2."""
    from binocle.bots import play_game

    path = tmp_path / "over.json"
    path.write_text(binocle.record_json(play_game("classic", seed=3)), encoding="utf-8")
    assert main(["play", "--load", str(path)]) == 2
    assert "is over: nothing to play on" in capsys.readouterr().err


# -- SIGTERM and SIGHUP ----------------------------------------------------------------------


def _read_until(proc: subprocess.Popen[bytes], marks: int, sel: selectors.BaseSelector) -> str:
    """Standard output of ``proc`` up to its ``marks``-th prompt ``your move> `` (a
    generous bound on the wait as a safety net; the test waits on output, not time)."""
    assert proc.stdout is not None
    seen = b""
    while seen.count(b"your move> ") < marks:
        if not sel.select(timeout=120):
            raise AssertionError(f"no prompt: {seen[-400:]!r}")
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            raise AssertionError(f"ended early: {seen[-400:]!r}")
        seen += chunk
    return seen.decode("utf-8")


def _signals() -> Iterator[Any]:
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            yield pytest.param(getattr(signal, name), id=name)


@pytest.mark.parametrize("sig", list(_signals()))
def test_a_signal_saves_the_game(sig: int, tmp_path: Path) -> None:
    """SIGTERM or SIGHUP mid-game ends ``play`` as ``quit`` does: the record (every move
    so far) is written to ``--save`` and the exit status is 128 + the signal's number;
    the saved game plays on with ``--load``."""
    path = tmp_path / "game.json"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUNBUFFERED": "1"}
    env.pop("NO_COLOR", None)
    argv = ["play", "--seed", "4", "--seat", "1", "--save", str(path), "--suits", "letters"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "binocle", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    try:
        first = _read_until(proc, 1, sel)
        assert "bidding" in first
        proc.stdin.write(b"bid 250\n")
        proc.stdin.flush()
        _read_until(proc, 1, sel)  # the next prompt: the bots have answered
        proc.send_signal(sig)
        rest, err = proc.communicate(timeout=120)
    finally:
        sel.close()
        if proc.poll() is None:  # pragma: no cover - a hang fails the test, not the suite
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + sig, err
    text = rest.decode("utf-8")
    assert f"Stopped by {signal.Signals(sig).name}" in text
    assert f"Game record written to {path}" in text
    assert "Traceback" not in err.decode("utf-8")
    record = path.read_text(encoding="utf-8")
    assert binocle.validate(record).ok
    assert (1, "bid 250") in _record(path)
    assert json.loads(record)["seats"][1] == "you"


# -- the command table -----------------------------------------------------------------------


def _commands() -> set[str]:
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_every_command_is_in_the_readme_and_the_docs() -> None:
    """The README's command table and the docs' page name every command, and the docs
    describe play's new options."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## The command line", 1)[1].split("\n\n")[1]
    listed = set(re.findall(r"^\| `binocle (\w+)", table, flags=re.M))
    assert listed == _commands()
    docs = (ROOT / "docs" / "cli.rst").read_text(encoding="utf-8")
    assert {c for c in _commands() if f"``binocle {c}``" in docs} == _commands()
    for option in ("--load", "--color", "NO_COLOR", "undo", "SIGTERM"):
        assert option in docs
