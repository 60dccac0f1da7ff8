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
import sys
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


#: The package's modules whose extra is their own, whatever package they miss first
#: (binocle.sb3 misses numpy first, which the pettingzoo extra also brings).
MODULE_EXTRAS = {"openspiel": "openspiel", "sb3": "sb3"}


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
    extra = MODULE_EXTRAS.get(collector.path.stem, OPTIONAL_PACKAGES[missing])
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

#: Tests that need what Pyodide (CPython compiled to WebAssembly, which the static site
#: runs on) does not have, each with the reason: there (``sys.platform`` is
#: ``"emscripten"``; .ci/run's stage for Python 3.14) they skip, saying why; everywhere
#: else they run.
_PROCESS = "the test starts a process, which Pyodide cannot"
_THREAD = "the test starts a thread or a pool of workers, which Pyodide cannot"
EMSCRIPTEN_SKIPS = {
    "test_external_engines": "an external engine is a process, which Pyodide cannot start",
    "test_arena.py::test_results_do_not_depend_on_how_the_work_is_split": _THREAD,
    "test_arena.py::test_cheap_deals_travel_in_batches": _THREAD,
    "test_arena.py::test_a_bot_that_does_not_answer_in_time_stops_the_game": _THREAD,
    "test_bot_specs.py::test_a_bot_object_starts_every_deal_afresh_however_the_work_is_split": _THREAD,
    "test_cli.py::test_simulate_in_parallel_gives_the_same_results": _THREAD,
    "test_atomic_writes.py::test_play_save_past_a_file_size_limit_keeps_the_earlier_file": _PROCESS,
    "test_cli.py::test_example_terminal_frontend": _PROCESS,
    "test_cli.py::test_example_bots_match": _PROCESS,
    "test_cli.py::test_example_validate_revoke": _PROCESS,
    "test_cli_errors.py::test_version": _PROCESS,
    "test_cli_errors.py::test_a_closed_pipe_ends_quietly": _PROCESS,
    "test_cli_errors.py::test_the_examples_refuse_bad_options": _PROCESS,
    "test_cli_errors.py::test_ctrl_c_during_demo": _PROCESS,
    "test_cli_play.py::test_a_signal_saves_the_game": _PROCESS,
    "test_compiled.py::test_import_binocle_pulls_in_only_attrs_and_typing_extensions": _PROCESS,
    "test_encoding.py::test_import_binocle_does_not_import_the_adapters": _PROCESS,
    "test_examples.py::test_the_example_prints_the_validators_penalty": _PROCESS,
    "test_examples.py::test_the_greedy_bot_example_by_its_importable_path_on_the_command_line": _PROCESS,
    "test_first_contact.py::test_a_module_of_an_optional_part_skips_its_doctests_without_the_extra": _PROCESS,
    "test_public_api.py::test_old_module_names_still_give_their_names_with_a_warning": _PROCESS,
    "test_site.py::test_the_engine_zip_plays_with_the_standard_library_alone": _PROCESS,
    "test_first_contact.py::test_the_fuzzer_judges_a_hang_by_cpu_time_not_the_wall_clock": (
        "Pyodide's time.sleep keeps the processor busy, so a sleep is CPU time there"
    ),
    "test_errors.py::test_states_of_any_length_pickle_copy_and_round_trip": (
        "freeing a history of 20,000 actions (a chain of nested tuples) overflows the"
        " JavaScript stack under Pyodide 314.0.7; 5,000 actions pass"
    ),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    emscripten = sys.platform == "emscripten"
    for item in items:
        module = item.path.stem
        test = f"{item.path.name}::{item.originalname if isinstance(item, pytest.Function) else item.name}"
        if module in SLOW_MODULES or test in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
        if module in EXTRAS_MODULES or test in EXTRAS_TESTS:
            item.add_marker(pytest.mark.extras)
        if emscripten and (module in EMSCRIPTEN_SKIPS or test in EMSCRIPTEN_SKIPS):
            reason = EMSCRIPTEN_SKIPS.get(module) or EMSCRIPTEN_SKIPS[test]
            item.add_marker(pytest.mark.skip(reason=reason))


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
