"""The command line's runners say when a game was stopped before its end and on what
(``demo``, ``simulate``, ``play``)."""

from __future__ import annotations

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


# binocle play's knock (offered only when it would win, typed at the prompt): test_cli_play.py
