"""What a new contributor meets first: the README's test command on a machine without
the optional parts, tests that do not depend on how loaded the machine is, and doc
examples that show what the library prints."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))

import fuzzlib  # noqa: E402


def test_a_module_of_an_optional_part_skips_its_doctests_without_the_extra(
    tmp_path: Path,
) -> None:
    """CONTRIBUTING, "The checks": with the test extra alone, the README's test command
    passes; a module that needs an optional part's package (here numpy, hidden by a stand-in
    that cannot be imported) has its doctests skipped with the reason, not an error.  With
    CI set the same module is an error: CI installs every extra."""
    stand_in = tmp_path / "numpy"
    stand_in.mkdir()
    (stand_in / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'numpy'\", name='numpy')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT / "src")])
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-q"]
    target = "src/binocle/encoding/_arrays.py"
    done = subprocess.run(
        [*command, target], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    # 5: nothing else was collected (the whole suite has other tests and exits 0).
    assert done.returncode in (0, 5), done.stdout + done.stderr
    assert "SKIPPED" in done.stdout and "error" not in done.stdout.lower()
    assert "numpy is not installed: pip install 'binocle[pettingzoo]'" in done.stdout
    env["CI"] = "true"
    done = subprocess.run(
        [*command, target], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode not in (0, 5) and "error" in done.stdout, done.stdout


def test_the_fuzzer_judges_a_hang_by_cpu_time_not_the_wall_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fuzzer's hang limit counts CPU time: an input that waits (as on a loaded
    machine) is no hang, one that computes past the limit is."""
    monkeypatch.setattr(fuzzlib, "HANG_SECONDS", 0.2)
    waiting = fuzzlib.Tally("waiting")
    fuzzlib.timed(waiting, lambda: "sleeps", lambda: time.sleep(0.5))
    assert waiting.hangs == 0 and waiting.failures() == 0

    def compute() -> None:
        start = time.process_time()
        while time.process_time() - start < 0.5:
            pass

    computing = fuzzlib.Tally("computing")
    fuzzlib.timed(computing, lambda: "computes", compute)
    assert computing.hangs == 1


def test_the_docs_examples_compare_exception_messages_whole() -> None:
    """The docs' doctest flags do not ignore an exception's message, so a page cannot
    show words the library no longer prints."""
    namespace: dict[str, object] = {"__file__": str(ROOT / "docs" / "conf.py")}
    exec(compile((ROOT / "docs" / "conf.py").read_text(), "conf.py", "exec"), namespace)
    flags = namespace["doctest_default_flags"]
    assert isinstance(flags, int)
    assert not flags & doctest.IGNORE_EXCEPTION_DETAIL
    assert "IGNORE_EXCEPTION_DETAIL" not in (ROOT / "pyproject.toml").read_text()


def test_hypothesis_has_no_deadline_in_any_profile() -> None:
    """No test judges speed by the wall clock: the Hypothesis profile loaded (local or
    CI) has no deadline."""
    from hypothesis import settings

    assert settings().deadline is None
