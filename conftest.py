"""Test collection: the optional adapters' modules need their extras.

Without the extra installed, their doctests are not collected (their tests in
tests/ skip with the reason); in CI (``CI`` set) the extras are installed and
nothing is left out.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/binocle/openspiel.py")
if importlib.util.find_spec("pettingzoo") is None:
    collect_ignore.append("src/binocle/pettingzoo.py")
if importlib.util.find_spec("gymnasium") is None:
    collect_ignore.append("src/binocle/gym.py")
if importlib.util.find_spec("numpy") is None:
    collect_ignore.append("src/binocle/vector.py")
if importlib.util.find_spec("starlette") is None:
    collect_ignore.append("src/binocle/web")
