"""The ``binocle`` command line and the examples."""

from __future__ import annotations

import builtins
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import binocle
from binocle.cli import main
from binocle.narrate import hand_by_suit

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PROFILES = binocle.profile_names()


def _script(monkeypatch: pytest.MonkeyPatch, lines: list[str] | Iterator[str]) -> list[str]:
    """Feed ``input()`` from ``lines``; EOF after the last. Returns the prompts seen."""
    feed = iter(lines)
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def _forever(text: str) -> Iterator[str]:
    while True:
        yield text


# -- demo ----------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_demo_still_runs(profile: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle demo`` prints a game between bots, for every profile."""
    assert main(["demo", "--profile", profile, "--max-hands", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"binocle demo: {binocle.profile(profile).name}")
    assert "Final scores" in out


# -- meld ----------------------------------------------------------------------------------


def test_meld_prints_the_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    """Cutthroat rules, Melds, worked example: clubs trump, A♣ 10♣ K♣ Q♣ J♣ Q♠ J♦ A♠
    A♥ A♦ = 290 (run 150, pinochle 40, Aces around 100)."""
    argv = ["meld", "AC", "10C", "KC", "QC", "JC", "QS", "JD", "AS", "AH", "AD", "--trump", "C"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "trump ♣" in lines[0]
    assert lines[1].split() == ["run", "A♣", "T♣", "K♣", "Q♣", "J♣", "150"]
    assert lines[2].split() == ["pinochle", "Q♠", "J♦", "40"]
    assert lines[3].split() == ["aces", "around", "A♠", "A♥", "A♦", "A♣", "100"]
    assert lines[-1].split() == ["total", "290"]
    assert main([*argv, "--suits", "letters"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("S A Q  H A  D A J  C A T K Q J") and "trump C" in lines[0]
    assert lines[1].split() == ["run", "AC", "TC", "KC", "QC", "JC", "150"]
    assert out.isascii()  # one style for the whole output


def test_meld_for_the_classic_game(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md §2 worked consequence: four Kings and four Queens are worth at most 220."""
    cards = "KS KH KD KC QS QH QD QC"
    assert main(["meld", cards, "--trump", "spades", "--profile", "classic"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "220"]
    assert main(["meld", "9S", "--trump", "H", "--profile", "classic"]) == 0
    assert "no meld" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["meld", "AC", "XZ", "--trump", "C"], "not a card: 'XZ'"),
        (["meld", "AC", "--trump", "Q"], "not a suit: 'Q'"),
        (["meld", "AS", "AS", "AS", "--trump", "S"], "AS appears 3 times"),
        (["meld", "AS", "--trump", "S", "--profile", "euchre"], "unknown profile 'euchre'"),
    ],
)
def test_meld_refuses_bad_cards(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed card, suit or profile is explained on stderr with exit status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# -- simulate ------------------------------------------------------------------------------


def test_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """Wins by seat, meld, trick points and points per hand, and how often the bidder
    makes his contract (RULES.md §4 "Scoring a hand": made or set)."""
    argv = ["simulate", "--profile", "cutthroat", "--games", "3", "--seed", "1"]
    assert main([*argv, "--bots", "baseline,random,baseline"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no progress bar: stderr is not a terminal
    assert "3 games, bots baseline random baseline" in out
    for label in ("wins", "meld per hand", "tricks per hand", "points per hand"):
        assert any(line.strip().startswith(label) for line in out.splitlines()), label
    assert "the bidder made the contract in" in out


@pytest.mark.parametrize("profile", PROFILES)
def test_simulate_json(profile: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--json``: machine-readable results; every game is counted once; contracts only
    where there is bidding."""
    args = ["simulate", "--profile", profile, "--games", "2", "--seed", "4", "--json"]
    assert main([*args, "--max-hands", "30"]) == 0
    doc = json.loads(capsys.readouterr().out)
    n = binocle.profile(profile).players
    assert doc["games"] == 2 and len(doc["wins"]) == n
    assert sum(doc["wins"]) + doc["no_winner"] == 2
    assert len(doc["meld_per_hand"]) == n and len(doc["points_per_hand"]) == n
    has_bidding = binocle.profile(profile).name in ("cutthroat", "partnership")
    assert (doc["contracts"] is not None) == has_bidding
    if has_bidding:
        c = doc["contracts"]
        assert c["made"] + c["set"] == c["hands"] and 0 <= c["made_rate"] <= 1


def test_simulate_in_parallel_gives_the_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    """``--jobs 2`` runs the games in worker processes; the results are those of one job."""
    args = ["simulate", "--profile", "classic", "--games", "4", "--seed", "2", "--json"]
    assert main([*args, "--bots", "random"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*args, "--bots", "random", "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    for doc in (one, two):
        del doc["seconds"], doc["jobs"]
    assert one == two


def test_simulate_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The progress bar is drawn on stderr only when stderr is a terminal."""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    assert main(["simulate", "--profile", "classic", "--games", "3", "--seed", "1"]) == 0
    assert "[" + "#" * 30 + "] 3/3 games" in fake.getvalue()


@pytest.mark.parametrize(
    ("bots", "message"),
    [("baseline,random", "one bot for every seat or 3 bots"), ("genius", "unknown bot 'genius'")],
)
def test_simulate_refuses_bad_bots(
    bots: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad bot lists are explained with exit status 2."""
    assert main(["simulate", "--profile", "cutthroat", "--games", "1", "--bots", bots]) == 2
    assert message in capsys.readouterr().err


# -- validate ------------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_validate_a_legal_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A legal game: the report with final scores and winner, exit status 0."""
    from binocle.bots import play_game

    final = play_game("cutthroat", seed=3)
    path = _write(tmp_path, "game.json", binocle.record_json(final))
    assert main(["validate", path]) == 0
    out = capsys.readouterr().out
    assert "legal game (cutthroat)" in out and f"seat {binocle.winner(final)} wins" in out
    assert main(["validate", path, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] is True and doc["scores"] == list(final.scores)


def test_validate_catches_the_example_revoke(capsys: pytest.CaptureFixture[str]) -> None:
    """Cutthroat rules, Revoke: the example record's revoke (an opponent's), with the
    cutthroat penalty; exit status 1."""
    assert main(["validate", str(EXAMPLES / "revoke_game.json")]) == 1
    out = capsys.readouterr().out
    assert "revoke at action" in out and "rule broken: must follow suit" in out
    assert "an opponent, scores no card points for hand" in out and "cannot be set" in out
    assert "score for cards" not in out  # not the three-handed penalty


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json at all", "not a readable game record"),
        ('{"format": "binocle-state", "version": 1}', "not a binocle record"),
        (None, "cannot read"),
    ],
)
def test_validate_unreadable_file(
    tmp_path: Path, content: str | None, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unreadable file (missing, not JSON, not a record) gives exit status 2."""
    path = (
        str(tmp_path / "missing.json") if content is None else _write(tmp_path, "x.json", content)
    )
    assert main(["validate", path]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_validate_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``binocle validate -`` reads the record from standard input."""
    text = binocle.record_json(binocle.new_game("classic", seed=1))
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["validate", "-"]) == 0
    assert "the game goes on" in capsys.readouterr().out


# -- play ----------------------------------------------------------------------------------


def test_play_answers_help_hint_and_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The play loop explains bad input and asks again; help, hint and quit work; the
    other players' cards are never shown (RULES.md §5 views: no hidden card)."""
    prompts = _script(
        monkeypatch,
        ["", "help", "hint", "0", "play ZZ", "bid 5", "discard AS", "bid 260", "show", "quit"],
    )
    assert main(["play", "--profile", "cutthroat", "--seed", "3", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    mine = binocle.new_game("cutthroat", seed=3).hands[1]
    assert f"your hand: {hand_by_suit(mine)}" in out
    assert "type a number or an action" in out
    assert "Commands: help" in out
    assert "hint: " in out and "(what the baseline bot would do)" in out
    assert "there is no action 0" in out
    assert "not understood: not a card: 'ZZ'" in out
    assert "not allowed: the lowest bid is 250 (bid 5)" in out
    assert "not allowed: seat 1 must act in the bidding phase" in out
    assert "you bid 260" in out
    assert "You left the game." in out and "Traceback" not in out
    assert len(prompts) == 10
    assert "seat 0: ♠" not in out and "seat 2: ♠" not in out  # no other hand is shown


@pytest.mark.parametrize("error", [EOFError, KeyboardInterrupt])
def test_play_quits_cleanly_on_eof_and_ctrl_c(
    error: type[BaseException],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """End of input and Ctrl-C leave the game with exit status 0, no traceback."""

    def stop(prompt: str = "") -> str:
        raise error

    monkeypatch.setattr(builtins, "input", stop)
    assert main(["play", "--profile", "classic", "--seed", "1"]) == 0
    assert "You left the game." in capsys.readouterr().out


@pytest.mark.parametrize("profile", PROFILES)
def test_play_a_whole_game_and_save_it(
    profile: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A person (always choosing action 1) plays a whole game to its end; the saved
    record is a legal game (validate exit status 0)."""
    _script(monkeypatch, _forever("1"))
    path = str(tmp_path / "game.json")
    assert main(["play", "--profile", profile, "--seed", "5", "--seat", "1", "--save", path]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and ("win!" in out or "wins." in out or " win." in out)
    assert main(["validate", path]) == 0
    assert "legal game" in capsys.readouterr().out


def test_play_refuses_a_seat_not_at_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """``--seat`` must be a seat of the profile's table (exit status 2)."""
    assert main(["play", "--profile", "classic", "--seat", "2"]) == 2
    assert "--seat is 0..1" in capsys.readouterr().err


# -- examples ------------------------------------------------------------------------------


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
        check=False,
    )


def test_example_terminal_frontend() -> None:
    """The terminal front end plays a whole game with ``--auto`` and quits on input."""
    done = _run("examples/terminal_frontend.py", "--auto", "--profile", "classic")
    assert done.returncode == 0, done.stderr
    assert "game over: seat" in done.stdout
    done = _run("examples/terminal_frontend.py", stdin="play ZZ\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "not a card: 'ZZ'" in done.stdout and "bye" in done.stdout


def test_example_bots_match() -> None:
    """The bot match runs for every profile."""
    done = _run("examples/bots_match.py", "--games", "2")
    assert done.returncode == 0, done.stderr
    for name in PROFILES:
        assert f"{name}: baseline bot won" in done.stdout


def test_example_validate_revoke() -> None:
    """The revoke example shows ``binocle validate`` catching it: exit status 1 and the
    penalty of the cutthroat rules, Revoke (an opponent's revoke: no card points for him)."""
    done = _run("examples/validate_revoke.py")
    assert done.returncode == 0, done.stderr
    assert "revoke at action" in done.stdout and "(exit status 1)" in done.stdout
    assert "scores no card points for hand" in done.stdout
    assert "(cutthroat rules, Revoke)" in done.stdout


def test_example_revoke_record_is_a_real_game_with_one_play_changed() -> None:
    """``revoke_game.json`` is a real game's record with one play replaced by a card that
    breaks the follow-suit rule (RULES.md §4 "Play"), cut after it: everything before is
    legal, the card really played (kept in the comment) was legal, the new one a revoke."""
    stored = json.loads((EXAMPLES / "revoke_game.json").read_text(encoding="utf-8"))
    last = stored["actions"][-1]
    before = binocle.replay(dict(stored, actions=stored["actions"][:-1]))
    assert binocle.validate(dict(stored, actions=stored["actions"][:-1])).ok
    real = last["comment"].rpartition("had ")[2]
    assert binocle.parse_action(before, real) in binocle.legal_actions(before)
    report = binocle.validate(stored)
    assert report.kind == "revoke" and report.index == len(stored["actions"]) - 1
    assert report.rule is not None and report.rule.startswith("must follow suit")


def test_play_tells_the_game_as_the_persons_seat_knows_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``binocle play`` tells the classic game with ``binocle.narrate.narrate``: the
    person's own draws by card, the other's as "a card" (classic rules, Announcements),
    the other's hand at a deal as a count; its menu names actions by their labels."""
    _script(monkeypatch, _forever("1"))
    assert main(["play", "--profile", "classic", "--seed", "5", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 draws a card" in out and re.search(r"you draw [AKQJT9][♠♥♦♣]", out)
    assert "  seat 0: 12 cards" in out and "seat 1 draws" not in out
    assert " 1) Play " in out
