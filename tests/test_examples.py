"""The example data are made, not kept by hand: regenerating them gives the committed files.

``examples/revoke_game.json`` is what ``examples/validate_revoke.py
--regenerate`` writes (a cutthroat hand from a fixed seed, played by a fixed
rule, cut at a revoke), and the validator reports its revoke with the penalty
of the cutthroat rules, Revoke, as the example says.
"""

from __future__ import annotations

import errno
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import binocle
import binocle.bots
from binocle.records import dump_record
from binocle.validation import ViolationKind

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_committed_revoke_record_is_what_regeneration_makes() -> None:
    """``--regenerate`` would write exactly the committed ``revoke_game.json``."""
    made = dump_record(_example("validate_revoke").make_revoke_record())
    assert (EXAMPLES / "revoke_game.json").read_text(encoding="utf-8") == made


def test_regeneration_is_deterministic() -> None:
    """Two regenerations agree, and a record for another seed is another game."""
    example = _example("validate_revoke")
    assert example.make_revoke_record() == example.make_revoke_record()
    other = example.make_revoke_record(seed=example.SEED + 1)
    assert other["actions"][0] != example.make_revoke_record()["actions"][0]


def test_the_validator_catches_the_revoke_with_the_cutthroat_penalty() -> None:
    """Cutthroat rules, Revoke: the last entry is a revoke by an opponent of the bidder
    (he holds the suit led and plays another), everything before it is legal, and the
    report's penalty is the one the cutthroat profile gives for that seat."""
    doc = json.loads((EXAMPLES / "revoke_game.json").read_text(encoding="utf-8"))
    last = doc["actions"][-1]
    before = binocle.replay(dict(doc, actions=doc["actions"][:-1]))
    assert binocle.validate(dict(doc, actions=doc["actions"][:-1])).ok
    seat = last["seat"]
    assert seat == before.current_player
    bidder = binocle.observe(before, seat).get("bidder")
    assert isinstance(bidder, int) and bidder != seat  # an opponent's revoke, as documented
    card = binocle.parse_card(last["action"].split()[1])
    led = before.trick[0][1].suit
    assert card in before.hands[seat] and card.suit is not led
    assert any(c.suit is led for c in before.hands[seat])

    report = binocle.validate(doc)
    assert not report.ok and report.kind == "revoke"
    assert report.index == len(doc["actions"]) - 1 and report.seat == seat
    assert report.rule is not None and report.rule.startswith(f"must follow suit {led.letter}")
    # The penalty is the profile's, with the seats named as the record names them.
    named = {f"seat {k}": f"seat {k} ({name})" for k, name in enumerate(doc["seats"]) if name}
    expected = before.profile.revoke_penalty(before, seat)
    for plain, with_name in named.items():
        expected = re.sub(rf"\b{plain}\b", with_name, expected)
    assert report.penalty == expected and f"({doc['seats'][seat]})" in expected
    assert report.penalty is not None and "(cutthroat rules, Revoke)" in report.penalty


def test_the_example_prints_the_validators_penalty(capsys: pytest.CaptureFixture[str]) -> None:
    """The example runs: it prints the report's penalty and the command's exit status 1."""
    example = _example("validate_revoke")
    assert example.main([]) == 0
    out = capsys.readouterr().out
    report = binocle.validate((EXAMPLES / "revoke_game.json").read_text(encoding="utf-8"))
    assert f"penalty: {report.penalty}" in out
    assert f"what follows: {report.penalty}" in out and "(exit status 1)" in out


# -- a site's own game format, checked with the public API ---------------------------------


def _site() -> tuple[ModuleType, ModuleType]:
    return _example("site_validator"), _example("site_game_maker")


def test_the_committed_site_game_is_what_its_maker_makes() -> None:
    """``site_game_maker.py`` writes exactly the committed ``site_game.json``."""
    _, maker = _site()
    made = maker.dump(maker.make_game())
    assert (EXAMPLES / "site_game.json").read_text(encoding="utf-8") == made


def test_a_clean_site_game_has_no_finding() -> None:
    """The same hands without the three faults: every bid, meld, card and score stands."""
    validator, maker = _site()
    game = maker.make_game(faults=False)
    assert validator.check(game) == []
    report = binocle.validate(validator.to_record(game))
    assert report.ok and report.violations == () and len(report.hand_end_scores) == 2


def test_the_site_validator_reports_the_three_faults() -> None:
    """Over-claimed meld (classic and cutthroat rules, Over-scored melds: taken down),
    revoke (must follow suit; cutthroat rules, Revoke) and a wrong score on the sheet,
    each at its place, and nothing else."""
    validator, _ = _site()
    game = json.loads((EXAMPLES / "site_game.json").read_text(encoding="utf-8"))
    report = binocle.validate(validator.to_record(game))
    assert [(v.kind, v.code, v.hand) for v in report.violations] == [
        (ViolationKind.OVER_SCORED_MELD, binocle.RuleCode.WRONG_VALUE, 1),
        (ViolationKind.REVOKE, binocle.RuleCode.MUST_FOLLOW, 2),
    ]
    over, revoke = report.violations
    assert over.claimed_value is not None and over.correct_value is not None
    assert over.claimed_value - over.correct_value == 20
    assert "(cutthroat rules, Revoke)" in revoke.penalty
    lines = validator.check(game)
    assert len(lines) == 6
    assert lines[0].startswith("hand 1: over-scored meld by ")
    assert lines[2].startswith("hand 2: revoke by ") and "[must-follow]" in lines[2]
    assert lines[4].startswith("hand 1: ") and "[wrong-value]" in lines[4]
    assert lines[5] == "hand 2: wrong score on the sheet: cy 380 (binocle: 370)"
    sheet = [[h["score"][p] for p in game["players"]] for h in game["hands"]]
    assert sheet[0] == list(report.hand_end_scores[0])
    assert sheet[1] == [a + (10 if i == 2 else 0) for i, a in enumerate(report.hand_end_scores[1])]


def test_the_site_validator_runs_as_a_program(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``python examples/site_validator.py`` prints the findings and exits 1; a file
    binocle cannot read gives exit 2 and a message, not a traceback."""
    validator, maker = _site()
    assert validator.main([]) == 1
    assert "wrong score on the sheet" in capsys.readouterr().out
    game = maker.make_game(faults=False)
    game["hands"][0]["deal"]["ann"][0] = "11H"
    path = tmp_path / "bad_site_game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    assert validator.main([str(path)]) == 2
    assert "not a game binocle can read" in capsys.readouterr().out


def test_the_greedy_bot_example_plays_the_arena_against_the_baseline() -> None:
    """``examples/greedy_bot.py``: a cutthroat bot written against the public API takes a
    seat in the arena by object, and the report counts its hands and the baseline's."""
    greedy = _example("greedy_bot")
    bot = greedy.GreedyBot()
    assert isinstance(bot, binocle.bots.Bot)
    report = binocle.arena("cutthroat", [bot, "baseline", "baseline"], deals=3, seed=5)
    assert report.bots == ("greedy", "baseline", "baseline")
    mine, theirs = report.get("greedy"), report.get("baseline")
    assert (mine.hands, theirs.hands, mine.deals) == (9, 18, 3)
    assert all(len(hand) == 3 for deal in report.points for hand in deal)
    # An advantage is over the other seats of the same hands: over all seats they cancel.
    assert abs(mine.advantage + 2 * theirs.advantage) < 1e-6


def test_the_greedy_bot_example_by_its_importable_path_on_the_command_line() -> None:
    """``binocle arena --bots examples.greedy_bot:GreedyBot,...`` run from the repository's
    root finds the module there, as the example says, even when the command's search
    path does not hold the current directory (an installed ``binocle`` script)."""
    script = (
        "import sys; sys.path[:] = [p for p in sys.path if p not in ('', '.')];"
        " from binocle.cli import main; raise SystemExit(main(sys.argv[1:]))"
    )
    src = str(Path(binocle.__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", script, "arena", "--profile", "cutthroat", "--deals", "2",
         "--seed", "3", "--json", "--bots", "examples.greedy_bot:GreedyBot(margin=60),baseline,baseline"],
        cwd=EXAMPLES.parent, env={**os.environ, "PYTHONPATH": src}, capture_output=True,
        text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["bots"][0] == "examples.greedy_bot:GreedyBot(margin=60)"
    assert [st["hands"] for st in doc["stats"]] == [6, 12]


# -- a console front end for classic, with save, load and undo ----------------------------


def _console(script: list[str], *argv: str) -> tuple[int, str]:
    """Run ``examples/console_classic.py`` on a scripted input; its exit status and output."""
    console = _example("console_classic")
    out = io.StringIO()
    status = console.main(
        list(argv), stdin=io.StringIO("".join(f"{s}\n" for s in script)), stdout=out
    )
    return status, out.getvalue()


def _saved(path: Path) -> binocle.GameState:
    return binocle.replay(path.read_text(encoding="utf-8"))


def test_the_console_saves_undoes_loads_and_plays_a_hand_through(tmp_path: Path) -> None:
    """Two decisions, a save, two undos back to the state before them (the bot's moves in
    between undone too), the save loaded back, then play on to the end of the hand."""
    s = [str(tmp_path / f"s{i}.json") for i in range(5)]
    script = [f"save {s[0]}", "1", "play 9X", "1", f"save {s[1]}", "undo", "undo",
              f"save {s[2]}", "undo", f"load {s[1]}", f"save {s[3]}", "position",
              *["1"] * 40, f"save {s[4]}", "quit"]  # fmt: skip
    status, out = _console(script, "--seed", "7")
    assert status == 0 and out.rstrip().endswith("bye")
    before, saved = _saved(Path(s[0])), _saved(Path(s[1]))
    assert before.current_player == 0 == saved.current_player
    mine = [seat for seat, _ in binocle.history(saved)[len(binocle.history(before)) :]]
    assert mine.count(0) == 2 and 1 in mine  # two decisions, the bot's moves between them
    assert _saved(Path(s[2])) == before  # undone twice: the state before the two moves
    assert "nothing to undo: no earlier decision of yours" in out
    assert _saved(Path(s[3])) == saved  # the save loaded back
    assert "not a card: '9X'" in out  # an action refused, the game goes on
    assert f"> {binocle.position(saved, seat=0)}\n" in out  # the seat's position, one line
    after = _saved(Path(s[4]))
    assert binocle.history(after)[: len(binocle.history(saved))] == binocle.history(saved)
    assert len(after.results) >= 1 and "hand over" in out  # the hand was played through
    assert not list(tmp_path.glob(".save-*"))  # no temporary file left behind


def _unwritable(console: ModuleType, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``folder`` refuse new files.  Its mode is taken away; root writes whatever the
    mode, so there the refusal the kernel gives any other user is raised in its place."""
    folder.chmod(0o555)
    if os.access(folder, os.W_OK):
        mkstemp = tempfile.mkstemp

        def refuse(*args: Any, **kwargs: Any) -> Any:
            if Path(str(kwargs.get("dir"))).resolve() == folder.resolve():
                raise PermissionError(errno.EACCES, "Permission denied", str(folder))
            return mkstemp(*args, **kwargs)

        monkeypatch.setattr(console.tempfile, "mkstemp", refuse)


def test_a_save_into_an_unwritable_directory_leaves_the_earlier_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    game = folder / "game.json"
    assert _console([f"save {game}", "quit"])[0] == 0
    earlier = game.read_bytes()
    console = _example("console_classic")
    _unwritable(console, folder, monkeypatch)
    try:
        status, out = _console(["1", "1", f"save {game}", "quit"])
    finally:
        folder.chmod(0o755)
    assert status == 0 and f"cannot save {game}: Permission denied" in out
    assert game.read_bytes() == earlier and sorted(folder.iterdir()) == [game]


def test_a_save_that_fails_once_written_leaves_the_earlier_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new record is written in full to a temporary file first; if it cannot take the
    old one's place, the old file stays as it was and the temporary file is removed."""
    game = tmp_path / "game.json"
    assert _console([f"save {game}", "quit"])[0] == 0
    earlier = game.read_bytes()
    console = _example("console_classic")

    def full(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(console.os, "replace", full)
    status, out = _console(["1", f"save {game}", "quit"])
    assert status == 0 and f"cannot save {game}: No space left on device" in out
    assert game.read_bytes() == earlier and sorted(tmp_path.iterdir()) == [game]


def test_the_console_loads_only_a_record_of_classic(tmp_path: Path) -> None:
    """A record of another game, or a file that is no record, is refused with the reason,
    and the game goes on from where it was."""
    other = tmp_path / "cutthroat.json"
    other.write_text(binocle.record_json(binocle.new_game("cutthroat", seed=1)), encoding="utf-8")
    junk = tmp_path / "junk.json"
    junk.write_text("{", encoding="utf-8")
    mine = tmp_path / "mine.json"
    status, out = _console([f"load {other}", f"load {junk}", f"load {tmp_path / 'none'}",
                            f"save {mine}", "quit"])  # fmt: skip
    assert status == 0 and "not a game of classic: cutthroat" in out
    assert f"cannot load {tmp_path / 'none'}: No such file or directory" in out
    assert "a record is JSON text" in out
    assert _saved(mine).profile.name == "classic" and len(binocle.history(_saved(mine))) == 2


@pytest.mark.parametrize("name", ["reinforce_vector", "self_play"])
def test_the_learning_examples_run_in_smoke_mode(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The learning examples (numpy and binocle.vector, the pettingzoo extra) train, evaluate against the
    random bot and print the margin with its interval; ``--smoke`` runs them in seconds."""
    from adapters import need

    need("numpy", "pettingzoo")
    need("librt", "pettingzoo")
    assert _example(name).main(["--smoke"]) == 0
    out = capsys.readouterr().out
    margin = [line for line in out.splitlines() if line.startswith("margin: ")]
    assert len(margin) == 1 and " over 20 episodes each" in margin[0]
    assert "random bot in seat 0:" in out


def test_the_ppo_example_trains_and_plays_in_smoke_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The training example (the sb3 extra) trains masked PPO against the baseline bot,
    saves the model, loads it as a bot that never claims, and reports the arena's
    figures; ``--smoke`` runs it in about a minute."""
    from adapters import need

    need("sb3_contrib", "sb3")
    example = _example("train_ppo")
    out = tmp_path / "smoke.zip"
    assert example.main(["--smoke", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert out.exists() and "trained in" in printed
    result = json.loads(printed[printed.index("{") :])
    assert result["deals"] == 2 and result["ppo"]["points a hand"] >= 0
    bot = example.TrainedBot(path=str(out))
    state = binocle.new_game("classic", seed=3)
    while state.current_player is None:
        state = binocle.apply(state, binocle.legal_actions(state)[0])
    view = binocle.observe(state, state.current_player)
    assert bot.choose(view) in view.legal_actions


#: The optional parts' modules and packages an example may import, each with the extras
#: that bring it (the docstring names one of them).
_NEEDS = {
    "numpy": ("pettingzoo", "sb3"),
    "binocle.vector": ("pettingzoo", "sb3"),
    "binocle.pettingzoo": ("pettingzoo",),
    "binocle.gym": ("pettingzoo", "sb3"),
    "gymnasium": ("pettingzoo", "sb3"),
    "pettingzoo": ("pettingzoo",),
    "pyspiel": ("openspiel",),
    "binocle.openspiel": ("openspiel",),
    "binocle.web": ("web",),
    "starlette": ("web",),
    "tqdm": ("arena",),
    "distributed": ("distributed",),
    "torch": ("sb3",),
    "stable_baselines3": ("sb3",),
    "sb3_contrib": ("sb3",),
    "binocle.sb3": ("sb3",),
}


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_an_example_names_the_extras_its_imports_need(path: Path) -> None:
    """An example's docstring names the extra of every optional package or module it
    imports (``Needs the ``pettingzoo`` extra``), and names none it does not import."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    needed = [
        extras
        for name in imported
        for module, extras in _NEEDS.items()
        if name == module or name.startswith(module + ".")
    ]
    named = {extra for extras in _NEEDS.values() for extra in extras if f"``{extra}`` extra" in doc}
    for extras in needed:
        assert named & set(extras), (
            f"{path.name} imports what the {' or '.join(extras)} extra brings"
        )
    for extra in named:
        assert any(extra in extras for extras in needed), (
            f"{path.name} names the {extra} extra it does not need"
        )
