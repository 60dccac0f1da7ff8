"""Test collection: the optional adapters' modules, the Hypothesis profiles, the marks.

Without the extra installed, a module of an optional part (one that imports numpy,
librt, pyspiel, pettingzoo, gymnasium or the web stack) has its doctests skipped with
the reason, as its tests in tests/ are; in CI (``CI`` set) the extras are installed and
nothing is left out: a module that cannot be imported there fails the run.

Hypothesis: no profile has a deadline, since a loaded machine can take longer than any
fixed limit on one example (no test judges speed by the wall clock).  The ``ci`` profile
(chosen when ``CI`` is set, or by ``HYPOTHESIS_PROFILE=ci``) also prints the blob that
replays a failure.

Marks (CONTRIBUTING: the fast subset): ``slow`` for the long tests, ``extras`` for the
tests of the optional parts; the lists below give them, so the test modules stay as
they are.  ``python -m pytest -m "not slow"`` runs the rest.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The optional parts' packages, each with the extra that installs it.
OPTIONAL_PACKAGES = {
    "numpy": "pettingzoo",
    "librt": "pettingzoo",
    "gymnasium": "pettingzoo",
    "pettingzoo": "pettingzoo",
    "pyspiel": "openspiel",
    "starlette": "web",
    "uvicorn": "web",
    "websockets": "web",
    "h11": "web",
    "anyio": "web",
    "tqdm": "arena",
    "distributed": "distributed",
    "stable_baselines3": "sb3",
    "sb3_contrib": "sb3",
    "torch": "sb3",
}


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    """A module of the package whose doctests cannot be imported for want of an optional
    part's package is skipped with the reason (outside CI); any other error stands."""
    outcome = yield
    report: pytest.CollectReport = outcome.get_result()  # type: ignore[attr-defined]
    if not report.failed or os.environ.get("CI") or not isinstance(collector, pytest.Module):
        return
    missing = _missing_optional_package(collector.path)
    if missing is None:
        return
    extra = "openspiel" if collector.path.stem == "openspiel" else OPTIONAL_PACKAGES[missing]
    reason = f"{missing} is not installed: pip install 'binocle[{extra}]'"
    skipped = pytest.CollectReport(
        report.nodeid, "skipped", (str(collector.path), 0, f"Skipped: {reason}"), []
    )
    outcome.force_result(skipped)  # type: ignore[attr-defined]


def _missing_optional_package(path: Path) -> str | None:
    """The optional package whose absence stops the module at ``path`` importing, if any."""
    try:
        parts = path.resolve().relative_to(SOURCE).with_suffix("").parts
    except ValueError:
        return None
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        return top if top in OPTIONAL_PACKAGES else None
    except Exception:
        return None
    return None


SOURCE = Path(__file__).resolve().parent / "src"

try:
    from hypothesis import settings
except ImportError:  # the docs' environment runs no tests
    pass
else:
    settings.register_profile("local", deadline=None)
    settings.register_profile("ci", deadline=None, print_blob=True)
    settings.load_profile(
        os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "local")
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
    "test_svg_browser",
    "test_site_browser",
    "test_learner_vector",
}
EXTRAS_TESTS = {
    "test_examples.py::test_the_ppo_example_trains_and_plays_in_smoke_mode",
    "test_external_engines.py::test_an_engine_takes_a_seat_at_a_web_table",
}
#: Test modules and tests that take long: whole games by the thousand, search bots,
#: the fuzzer's corpus, a browser, a load test.
SLOW_MODULES = {
    "test_openspiel", "test_ismcts", "test_fuzz", "test_consistency", "test_web_browser",
    "test_web_load", "test_svg_browser", "test_site_browser",
}  # fmt: skip
SLOW_TESTS = {
    # Stable-Baselines3 and PyTorch: the sb3 extra, installed where the slow tests run.
    "test_learner_vector.py::test_stable_baselines3_trains_on_it_with_masks_and_self_play",
    "test_learner_vector.py::test_stable_baselines3_check_env_passes_the_one_seat_environment",
    "test_examples.py::test_the_ppo_example_trains_and_plays_in_smoke_mode",
    "test_classic.py::test_consistency_checker",
    "test_classic_melds.py::test_everything_doubled",
    "test_cli_errors.py::test_bad_input_is_explained_with_status_2",
    "test_cli_errors.py::test_ctrl_c_during_simulate_keeps_the_finished_games",
    "test_errors.py::test_refused_bids_do_not_grow_memory",
    "test_external_engines.py::test_the_reference_engines_play_the_arena",
    "test_external_engines.py::test_two_binocle_engines_play_each_other",
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


#: ``.ci/run`` names a file here: the README's test command (the test extra alone) writes
#: the node ids of what it skipped, and the next stage runs exactly those with every extra
#: installed, so nothing runs twice and nothing is left untried.
_SKIPPED_FILE = os.environ.get("BINOCLE_SKIPPED_FILE")


def _note_skipped(report: pytest.CollectReport | pytest.TestReport) -> None:
    if _SKIPPED_FILE and report.skipped and report.nodeid:
        with open(_SKIPPED_FILE, "a", encoding="utf-8") as f:
            f.write(report.nodeid + "\n")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    _note_skipped(report)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "teardown":
        _note_skipped(report)
