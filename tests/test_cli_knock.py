"""The command line's runners say when a game was stopped before its end and on what
(``demo``, ``simulate``, ``play``), and ``binocle play`` lets the person knock out of turn
(classic rules, Claiming (knocking))."""

from __future__ import annotations

import builtins
import json

import pytest

from binocle.cli import main


def test_demo_says_the_game_was_stopped_by_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle demo --max-hands 1``: the game ends at the limit, and the output says so
    plainly before the final scores."""
    assert main(["demo", "--profile", "cutthroat", "--max-hands", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(
        line.startswith("Game over: the hand limit is reached (max_hands=1)") for line in out
    )
    assert out[-2] == (
        "The game was stopped at the end of hand 1 (--max-hands 1), before the rules ended it."
    )
    assert out[-1].startswith("Final scores:")


def test_demo_to_the_end_does_not_mention_a_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """A game the rules end says how it ended and nothing about a limit."""
    assert main(["demo", "--profile", "classic", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "stopped" not in out and "hand limit" not in out
    assert "Game over (by a claim)" in out or "Game over (target reached)" in out


def test_simulate_counts_how_the_games_ended(capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle simulate``: how many games ended on the target, by a claim, or were
    stopped by the hand limit (uniform random cutthroat games never end by the rules)."""
    args = ["simulate", "--profile", "cutthroat", "--games", "3", "--seed", "1"]
    assert main([*args, "--bots", "random", "--max-hands", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sum(doc["ended"].values()) == 3 and doc["ended"]["limit"] == 3
    assert doc["finished"] == 0 and doc["hands"] == 6
    assert main([*args, "--bots", "random", "--max-hands", "2"]) == 0
    out = capsys.readouterr().out
    assert "3 stopped by the hand limit (--max-hands 2), the highest score winning" in out
    assert "finished games: 0 (0 on the target, 0 by a claim)" in out


def _answers(monkeypatch: pytest.MonkeyPatch, knock: str) -> list[str]:
    """The person plays action 1 at his turn and answers ``knock`` when asked to knock."""
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        if len(prompts) > 2000:
            raise EOFError
        return knock if prompt.startswith("knock now?") else "1"

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def test_play_lets_the_person_knock_out_of_turn(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After a trick he lost, the person is asked whether to knock before the others go
    on; his knock is applied out of turn (here wrongly: nobody has 1000, he loses)."""
    prompts = _answers(monkeypatch, "knock")
    assert main(["play", "--profile", "classic", "--seed", "2", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert sum(p.startswith("knock now?") for p in prompts) == 1
    assert "seat 0 knocks out of turn (seat 1 to act), claiming the game" in out
    assert "the claim is wrong: he loses the game to seat 1" in out
    assert "Seat 1 wins." in out


def test_play_goes_on_when_the_person_does_not_knock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Answering Enter goes on; a profile with a hand limit ends there, and play says so."""
    prompts = _answers(monkeypatch, "")
    argv = ["play", "--profile", "classic(max_hands=1)", "--seed", "2", "--seat", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert any(p.startswith("knock now?") for p in prompts)
    assert "The game stopped at the hand limit (max_hands=1)" in out
