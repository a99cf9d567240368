"""The twentieth round: b21's read of the nineteenth (infrastructure as code, Kotlin Multiplatform, the
WebAssembly component model, OpenResty), each rule with tools named in no table (`zform`, `qgradle`, `znode`).

repeat-failure: a count row naming failures before their number (`ℹ fail 1`) shows a run failing in a log
read back or behind a pipe; an error line saying no more than counts with their labels (`# tests completed, #
failed`, `ℹ fail #`) or a fallback's word (`FAILED`) says nothing a log-writing run's other attempts
contradict. standard-questions: a build's test source set (`src/commonTest/`) shows the project has tests; a
LuaRocks spec is a manifest, so its description alone is metadata; an infrastructure tool's `synth`
compiles the app describing its stacks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sbcore.detectors.progress import _UNINFORMATIVE
from sbcore.detectors.standard_questions import standard_questions
from sbcore.detectors.triggers import repeat_failure
from test_judgment_scanners import _asking, asked_then_answered
from test_judgment_templates import _edit
from test_triggers import Session, ask, open_ids

from sbcore.observe.outcome import read_outcome
from sbcore.observe.project import Projector
from sbcore.observe.project_facts import is_build_path, read_project
from tests.observe.test_log_reads import bash_records

NODE_LOG = (
    "file:///srv/filters/test/filters.test.js:1\n"
    "Error [ERR_UNSUPPORTED_ESM_URL_SCHEME]: Only URLs with a scheme in: file, data, and node are supported\n"
    "\u2139 tests 1\n\u2139 pass 0\n\u2139 fail 1"
)


def test_a_count_row_naming_failures_first_shows_a_failure() -> None:
    outcome = read_outcome(NODE_LOG, "znode --test test/ 2>&1 | tail -5", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert "ERR_UNSUPPORTED_ESM_URL_SCHEME" in outcome["line"]
    for passing in ("\u2139 tests 1\n\u2139 pass 1\n\u2139 fail 0", "Fail: 0 ( 0%)\nPass: 31 (100%)"):
        quiet = read_outcome(passing, "znode --test test/ 2>&1 | tail -5", is_error=False)
        assert quiet is None or not quiet["failed"]


@pytest.mark.parametrize(
    "signature", ["# tests completed, # failed", "\u2139 fail #", "fail: # ( #%)", "failed", "exit=#"]
)
def test_an_error_line_of_counts_or_a_fallbacks_word_says_nothing_more(signature: str) -> None:
    assert _UNINFORMATIVE.match(signature)
    assert not _UNINFORMATIVE.match("assertion failed: # != #")


def test_a_run_writing_its_log_failing_alike_through_counts_and_fallbacks_is_a_loop() -> None:
    records = bash_records(
        ('znode test > /tmp/t.log 2>&1; echo "exit=$?"', "exit=1", False),
        ("tail -20 /tmp/t.log", NODE_LOG, False),
        ("znode --version", "v22.12.0", False),
        ("znode test > /tmp/t.log 2>&1 || echo FAILED", "FAILED", False),
        ("znode test 2>&1 | tee /tmp/t.log | tail -3", "\u2139 pass 0\n\u2139 fail 1\n", False),
    )
    match = repeat_failure(Projector().feed(records), {}, {})
    assert match is not None and match.data["failures"] >= 3


def test_a_builds_test_source_set_shows_the_project_has_tests(tmp_path: Path) -> None:
    test_file = (
        tmp_path / "shared" / "src" / "commonTest" / "kotlin" / "org" / "tide" / "sync" / "SyncTest.kt"
    )
    test_file.parent.mkdir(parents=True)
    test_file.write_text("class SyncTest")
    (tmp_path / "shared" / "src" / "commonMain").mkdir()
    project = read_project(tmp_path)
    assert project.has_tests
    checklist = _asking("tests_run")
    s = Session()
    s.edit("/repo/shared/src/commonMain/kotlin/org/tide/sync/SyncEngine.kt")
    s.run("qgradle ktlintCheck")
    assert standard_questions(s.observations, {}, {}, checklist) is None  # nothing shows tests
    assert "tests_run" in open_ids(standard_questions(s.observations, {}, {}, checklist, project=project))


def test_a_luarocks_specs_description_is_metadata() -> None:
    assert is_build_path("gateway-0.4.0-1.rockspec")
    checklist = _asking("tests_run")
    records = [
        {
            "type": "assistant",
            "uuid": "a1",
            "timestamp": "2026-01-01T10:00:00Z",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_r1",
                        "name": "Edit",
                        "input": {
                            "file_path": "/repo/gateway-0.4.0-1.rockspec",
                            "old_string": 'description = {\n   summary = "A gateway",\n}',
                            "new_string": 'description = {\n   summary = "An API gateway on OpenResty",\n'
                            '   homepage = "https://example.org/gateway",\n}',
                        },
                    }
                ]
            },
        }
    ]
    s = Session()
    s.run("ls spec")
    s.observations.extend(Projector().feed(records))
    assert ask(s, checklist) is None
    code = Session()
    code.run("ls spec")
    _edit(code, "/repo/gateway-0.4.0-1.rockspec", 'build = {\n   type = "builtin",\n}', old="build = {}")
    assert "tests_run" in open_ids(ask(code, checklist))


def test_an_infrastructure_tools_synth_builds() -> None:
    synth = "npx zform synth OrdersStack -c alarmEmail=oncall@example.org > /tmp/orders.yaml"
    asked_then_answered("compiles", "npm run build", "/repo/lib/orders-stack.ts", synth)
