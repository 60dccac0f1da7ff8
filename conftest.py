"""Test collection: the optional adapters' modules, the Hypothesis profiles, the marks.

Without the extra installed, the adapters' doctests are not collected (their tests in
tests/ skip with the reason); in CI (``CI`` set) the extras are installed and nothing is
left out.

Hypothesis: the ``ci`` profile (chosen when ``CI`` is set, or by ``HYPOTHESIS_PROFILE=ci``)
has no deadline, since a loaded machine can take longer than any fixed limit on one
example; it prints the blob that replays a failure.

Marks (CONTRIBUTING: the fast subset): ``slow`` for the long tests, ``extras`` for the
tests of the optional parts; the lists below give them, so the test modules stay as
they are.  ``python -m pytest -m "not slow"`` runs the rest.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

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

try:
    from hypothesis import settings
except ImportError:  # the docs' environment runs no tests
    pass
else:
    settings.register_profile("ci", deadline=None, print_blob=True)
    settings.load_profile(
        os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
    )

#: Test modules of the optional parts (web, openspiel, pettingzoo, distributed).
EXTRAS_MODULES = {
    "test_openspiel",
    "test_pettingzoo",
    "test_web",
    "test_web_browser",
    "test_web_hardening",
    "test_web_load",
    "test_web_newcomer",
}
EXTRAS_TESTS = {"test_arena.py::test_a_dask_cluster_gives_the_serial_results"}
#: Test modules and tests that take long: whole games by the thousand, search bots,
#: the fuzzer's corpus, a browser, a load test.
SLOW_MODULES = {
    "test_openspiel", "test_ismcts", "test_fuzz", "test_consistency", "test_web_browser",
    "test_web_load",
}  # fmt: skip
SLOW_TESTS = {
    "test_classic.py::test_consistency_checker",
    "test_classic_melds.py::test_everything_doubled",
    "test_cli_errors.py::test_bad_input_is_explained_with_status_2",
    "test_cli_errors.py::test_ctrl_c_during_simulate_keeps_the_finished_games",
    "test_errors.py::test_refused_bids_do_not_grow_memory",
    "test_knock.py::test_consistency_with_knocks_from_every_seat",
    "test_narrate.py::test_a_seats_narration_shows_no_card_its_view_hides",
    "test_positions.py::test_every_state_reads_back_from_its_position",
    "test_public_api.py::test_typed_programs_pass_mypy_strict",
    "test_rule_codes.py::test_refusals_at_random_positions",
    "test_rulings.py::test_stateless_answers_equal_the_states",
    "test_three_handed.py::test_consistency_checker",
    "test_web_hardening.py::test_every_socket_gets_each_step_once_and_in_order_under_load",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.stem
        test = f"{item.path.name}::{item.originalname if isinstance(item, pytest.Function) else item.name}"
        if module in SLOW_MODULES or test in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
        if module in EXTRAS_MODULES or test in EXTRAS_TESTS:
            item.add_marker(pytest.mark.extras)
