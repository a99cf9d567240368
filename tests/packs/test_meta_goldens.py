"""Meta-tests of the built-in goldens: every built-in detector has both labels, and pending never passes.

Model-only detectors cannot be decided offline: their cases carry the
model's side, recorded (provider_io), and run through the pass engine. A
case a model must decide that has no recording is pending, with the reason,
and never counted as passed; the built-in pack has none.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.declarative import DECLARATIVE_TRIGGER
from sbcore.packs.manager import get_plugin_manager
from sbcore.testing.golden_cases import load_cases
from sbcore.testing.goldens import MODEL_ONLY, GoldenRunner

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = ROOT / "goldens"
BUILTIN_CATALOGUE = ROOT / "catalogue"

pytest_plugins = ["pytester"]


def builtin_detector_ids() -> list[str]:
    return sorted(path.stem for path in BUILTIN_CATALOGUE.glob("*.yaml"))


def test_the_builtin_catalogue_is_the_one_the_goldens_cover() -> None:
    manager = get_plugin_manager(strict=True, autoload=False, only=())
    catalogue = assemble_catalogue(manager)
    installed = sorted(d.id for d in catalogue.detectors if d.definition.pack == "builtin")
    assert installed == builtin_detector_ids()
    assert len(installed) == 12


@pytest.mark.parametrize("detector", builtin_detector_ids())
def test_every_builtin_detector_has_a_must_fire_and_a_must_stay_silent_case(detector: str) -> None:
    labels = Counter(case.label for case in load_cases(GOLDENS, ["builtin"]) if case.detector == detector)
    assert labels["must_fire"] >= 1, (
        f"no must_fire golden case for {detector} under goldens/builtin/{detector}/"
    )
    assert labels["must_stay_silent"] >= 1, (
        f"no must_stay_silent golden case for {detector} under goldens/builtin/{detector}/"
    )


def test_no_case_is_filed_under_a_detector_that_does_not_exist() -> None:
    directories = sorted(path.name for path in (GOLDENS / "builtin").iterdir() if path.is_dir())
    assert directories == builtin_detector_ids()
    assert sorted(path.name for path in GOLDENS.iterdir()) == ["builtin"]


def test_pending_is_never_passed() -> None:
    """Each case's outcome follows from its detector: offline-decidable ones run, the rest are pending."""
    runner = GoldenRunner()
    catalogue = assemble_catalogue(runner.manager)
    registered = set(runner.manager.registry.triggers)
    for case in load_cases(GOLDENS, ["builtin"]):
        result = runner.run(case)
        detector = catalogue.get(case.detector)
        assert detector is not None
        trigger = detector.definition.trigger
        if trigger is None and not case.provider_io:
            assert (result.outcome, result.reason) == ("pending", MODEL_ONLY), case.id
        elif trigger is not None and trigger.name not in registered:
            assert result.outcome == "pending", case.id
            assert f"trigger {trigger.name!r} is not registered" in result.reason
        elif result.outcome != "skipped":  # a shared-corpus case without the corpus
            assert result.outcome == "passed", result.report()


def test_the_model_only_builtin_detectors_replay_recorded_provider_io() -> None:
    """Every case of a built-in detector without a trigger replays its recording: none of them is pending."""
    runner = GoldenRunner()
    catalogue = assemble_catalogue(runner.manager)
    model_only = {
        d.id for d in catalogue.detectors if d.definition.pack == "builtin" and d.definition.trigger is None
    }
    assert model_only == {"default", "goal-drift"}
    replayed = set()
    for case in load_cases(GOLDENS, ["builtin"]):
        if case.detector not in model_only:
            continue
        assert case.provider_io, f"{case.path}: a case of a model-only detector needs provider_io"
        result = runner.run(case)
        assert result.outcome == "passed", result.report()
        assert result.decision is not None and result.decision["decided_by"] == "provider"
        replayed.add((case.detector, case.label))
    assert replayed == {(d, label) for d in model_only for label in ("must_fire", "must_stay_silent")}


def test_the_builtin_model_detectors_with_a_declarative_trigger_are_golden_tested_on_both_sides() -> None:
    """A built-in model detector whose declarative trigger says when a pass is worth it has cases judged on
    the trigger alone that run it and that do not, and a recorded model reply advising once it runs."""
    runner = GoldenRunner()
    catalogue = assemble_catalogue(runner.manager)
    triggered = {
        d.id
        for d in catalogue.detectors
        if d.definition.pack == "builtin"
        and d.definition.trigger is not None
        and d.definition.trigger.name == DECLARATIVE_TRIGGER
        and not d.definition.fallback
    }
    assert triggered == {"constraint-drift", "git-log", "prior-art", "static-analysis"}
    seen = set()
    for case in load_cases(GOLDENS, ["builtin"]):
        if case.detector not in triggered:
            continue
        result = runner.run(case)
        if result.outcome == "skipped":  # a shared-corpus case without the corpus
            continue
        assert result.outcome == "passed", result.report()
        assert result.decision is not None
        seen.add((case.detector, case.judge, case.label, result.decision["decided_by"]))
    for detector in triggered:
        assert (detector, "trigger", "must_fire", "trigger") in seen, detector
        assert (detector, "trigger", "must_stay_silent", "trigger") in seen, detector
        assert (detector, "advisory", "must_fire", "provider") in seen, detector


def test_pytest_runs_every_builtin_case_and_none_is_pending(pytester: pytest.Pytester) -> None:
    runner = GoldenRunner()
    expected = Counter(
        "passed" if runner.run(case).outcome == "passed" else "skipped"
        for case in load_cases(GOLDENS, ["builtin"])
    )
    result = pytester.runpytest(
        "--sbcore-goldens",
        "-o",
        f"sbcore_goldens={GOLDENS}",
        "--rootdir",
        str(GOLDENS),
        "-p",
        "no:cacheprovider",
        "-rs",
        str(GOLDENS / "builtin"),
    )
    result.assert_outcomes(passed=expected["passed"], skipped=expected["skipped"])
    assert expected["passed"] >= 10
    assert "pending" not in result.stdout.str()
    assert "model-only detector" not in result.stdout.str()
