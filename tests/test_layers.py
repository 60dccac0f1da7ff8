"""DESIGN.md "Architecture": four layers, each importing only from those below it.

import-linter checks the contracts of pyproject.toml (``[tool.importlinter]``): the
layers, the leaves, no circle.  It counts an import wherever it is written (module
level, inside a function, under TYPE_CHECKING), an upward one or a circular one alike.
What it cannot tell apart is a downward import written inside a function: layers 1
to 3 (cards and actions, the rule pieces, the profiles and the engine) import all they
use at module level, which the first test checks.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import binocle

SRC = Path(__file__).resolve().parents[1] / "src" / "binocle"
ROOT = SRC.parents[1]

#: The modules of layers 1 to 3, as pyproject's layers contract places them.
LOWER_LAYERS = (
    "errors.py",
    "_mypyc.py",
    "_io.py",
    "_deprecated_module.py",
    "_json.py",
    "cards.py",
    "actions.py",
    "rules",
    "_build.py",
    "core.py",
    "_step.py",
    "profiles",
)


def _lower_modules() -> list[Path]:
    out: list[Path] = []
    for name in LOWER_LAYERS:
        path = SRC / name
        out.extend(sorted(path.glob("*.py")) if path.is_dir() else [path])
    return out


def _nested_binocle_imports(path: Path) -> list[str]:
    """The imports of binocle not written at the top level of the module: inside a
    function or class, or under an ``if`` (TYPE_CHECKING) or ``try``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if id(node) in top:
            continue
        if any(n == "binocle" or n.startswith("binocle.") for n in names):
            found.append(f"{path.relative_to(SRC.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_lower_layers_import_binocle_only_at_module_level() -> None:
    """Layers 1-3 never import from binocle inside a function, a class or a condition."""
    modules = _lower_modules()
    assert len(modules) >= 20, modules  # the globs found the package's files
    found = [line for path in modules for line in _nested_binocle_imports(path)]
    assert not found, "\n".join(found)


def test_the_lower_layers_are_those_of_the_contract() -> None:
    """The modules named above are the lowest layers of pyproject's layers contract."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["id"] == "layers")["layers"]
    start = layers.index("profiles | _step")
    named = {part.strip() for layer in layers[start:] for part in layer.split("|")}
    assert named == {Path(name).stem for name in LOWER_LAYERS}


@pytest.mark.skipif(binocle.compiled, reason="import-linter reads the Python source")
def test_the_import_contracts_are_kept() -> None:
    """``lint-imports`` keeps every contract of pyproject.toml (CI runs it too)."""
    pytest.importorskip("importlinter")
    # The script beside this interpreter first (a venv not on PATH), then PATH's.
    beside = Path(sys.executable).with_name("lint-imports")
    command = str(beside) if beside.is_file() else shutil.which("lint-imports")
    if command is None:
        pytest.skip("lint-imports is not beside this Python nor on the PATH")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC.parent), *sys.path])}
    run = subprocess.run(
        [command, "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
