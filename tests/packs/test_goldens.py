"""The built-in pack's golden cases, and the golden case loader and runner they go through.

``test_builtin_golden`` is the whole of what a pack needs (see
docs/pack-authoring.md): the sbcore pytest plugin parametrizes ``golden_case``
with every file under goldens/builtin/ and snapshots each normalised decision.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sbcore.api import TriggerMatch, hookimpl
from sbcore.cli import main
from sbcore.observe.model import Observation
from sbcore.observe.project import Projector
from sbcore.packs.manager import get_plugin_manager
from sbcore.schemas import load_schema
from sbcore.testing.golden_cases import (
    ENV_SHARED,
    GoldenError,
    case_files,
    case_test_id,
    inline_observations,
    is_case_file,
    load_case,
    load_cases,
)
from sbcore.testing.golden_replay import RecordedToolbox
from sbcore.testing.goldens import (
    MODEL_DECIDES,
    MODEL_ONLY,
    NO_TRIGGER,
    GoldenResult,
    GoldenRunner,
    default_runner,
    normalise,
)
from sbcore.think.tools.base import ToolResult
from sbcore.think.tools.dispatch import Grant
from sbcore.think.window import Window


@pytest.mark.sbcore_goldens("builtin")
def test_builtin_golden(golden_case, snapshot):
    golden_case.check(snapshot)


# -- loading ------------------------------------------------------------------------------------

VALID = textwrap.dedent(
    """\
    description: Two failures and a success.
    label: must_stay_silent
    observations:
      - {kind: tool, tool: Bash, tool_use_id: t1, args: {command: make}}
      - {kind: error, tool: Bash, tool_use_id: t1, text: "make: *** Error 1"}
    """
)


def write_case(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_case_loads_with_its_place_in_the_tree(tmp_path: Path) -> None:
    path = write_case(tmp_path, "goldens/builtin/repeat-failure/two-and-a-success.yaml", VALID)
    case = load_case(path)
    assert (case.pack, case.detector, case.name, case.id) == (
        "builtin",
        "repeat-failure",
        "two-and-a-success",
        "builtin/repeat-failure/two-and-a-success",
    )
    assert case.label == "must_stay_silent"
    assert case.turn_end is True
    assert case.observations is not None
    assert [(o.kind, o.tool, o.tool_use_id, o.text) for o in case.observations] == [
        ("tool", "Bash", "t1", "[tool] Bash\nmake"),
        ("error", "Bash", "t1", "[error] Bash: make: *** Error 1"),
    ]
    assert case_test_id(path) == "builtin.repeat-failure.two-and-a-success"


MODEL_CASE = textwrap.dedent(
    """\
    description: Asked for a typo fix, the agent rewrites the build.
    label: {label}
    observations:
      - {{kind: prompt, text: Fix the typo in the README.}}
      - {{kind: tool, tool: Write, tool_use_id: e1, args: {{file_path: build.py}}}}
    """
)
ADVISE = """\
  - response:
      content:
        - type: tool_use
          name: second_brain_detector_feedback
          input: {verdict: advise, headline: Off task, confidence: 0.9, dedup_key: goal-drift:build}
"""
PROSE = "  - response: {content: [{type: text, text: Looks fine to me.}]}\n"
SILENT = """\
  - response:
      content: [{type: tool_use, name: second_brain_detector_feedback, input: {verdict: silent}}]
"""
TOOL_STEP = """\
  - response: {{content: [{{type: tool_use, name: {name}, input: {input}}}]}}
    tool_results: [{{content: "src/net/backoff.py:7: def retry_with_backoff(func):"}}]
"""


INVALID = dict(
    [
        ("unknown-key", VALID.replace("label:", "lable:")),
        ("observations-and-transcript", VALID + "transcript: {path: t.jsonl}\n"),
        ("neither-observations-nor-transcript", "description: Nothing.\nlabel: must_fire\n"),
        ("expect-on-silent", VALID + "expect: {dedup_key: x}\n"),
        ("error-without-text", VALID.replace(', text: "make: *** Error 1"', "")),
        ("bad-label", VALID.replace("must_stay_silent", "must_be_quiet")),
        (
            "bad-headline-regex",
            VALID.replace("must_stay_silent", "must_fire") + "expect: {headline_pattern: '(['}\n",
        ),
        (
            "bad-record-range",
            "description: R.\nlabel: must_fire\ntranscript: {path: t.jsonl, records: '0-9'}\n",
        ),
        ("unknown-override", VALID + "config: {params: {min_failures: 2}}\n"),
        ("not-a-mapping", "- just a list\n"),
        ("invalid-yaml", "description: [unclosed\nlabel: must_fire\n"),
        ("duplicate-key", VALID + "label: must_fire\n"),
        ("unknown-key-beside-a-note", VALID + "x-note: kept\nexpected: {dedup_key: k}\n"),
        (
            "tool-results-missing",
            MODEL_CASE.format(label="must_fire")
            + "provider_io:\n"
            + TOOL_STEP.format(name="Grep", input="{pattern: x}").splitlines(keepends=True)[0],
        ),
        (
            "tool-results-after-feedback",
            MODEL_CASE.format(label="must_fire")
            + "provider_io:\n"
            + ADVISE
            + "    tool_results: [{content: unused}]\n",
        ),
        (
            "backwards-range",
            "description: R.\nlabel: must_fire\ntranscript: {path: t.jsonl, records: '9-3'}\n",
        ),
        (
            "judged-trigger-with-recording",
            MODEL_CASE.format(label="must_fire")
            + "judge: trigger\nexpect: {dedup_key: k}\nprovider_io:\n"
            + ADVISE,
        ),
        ("bad-judge", VALID + "judge: model\n"),
        ("bad-split", VALID + "family: make\nsplit: heldout\n"),
    ]
)


@pytest.mark.parametrize("name", list(INVALID))
def test_invalid_cases_are_reported_with_file_line_and_key(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write_case(Path("goldens"), "builtin/repeat-failure/case.yaml", INVALID[name])
    with pytest.raises(GoldenError) as raised:
        load_case(path)
    assert str(raised.value) == snapshot


def test_family_and_split_are_kept_on_the_case(tmp_path: Path) -> None:
    path = write_case(
        tmp_path, "goldens/builtin/repeat-failure/c.yaml", VALID + "family: make\nsplit: held-out\n"
    )
    case = load_case(path)
    assert (case.family, case.split) == ("make", "held-out")


# tsc fails at lines 3, 7, 11, 15, 19 and 23 of this transcript; the third failure is at line 11
LOOP = Path(__file__).parents[1] / "think" / "replay_cases" / "rf-long-fix-loop.jsonl"
RANGED = (
    "description: A range of a tsc loop.\nlabel: {label}\n"
    "transcript: {{path: loop.jsonl, records: '{records}'}}\n"
)


@pytest.mark.parametrize(
    ("records", "label"),
    [
        ("6-11", "must_fire"),  # two failures in the range, the third before it: the loop is there
        ("12-27", "must_stay_silent"),  # three failures of its own, but the loop was reported at line 11
    ],
)
def test_a_range_is_judged_with_the_records_before_it(tmp_path: Path, records: str, label: str) -> None:
    path = write_case(tmp_path, "repeat-failure/c.yaml", RANGED.format(label=label, records=records))
    shutil.copy(LOOP, path.parent / "loop.jsonl")
    result = default_runner().run(load_case(path, "builtin"))
    assert result.outcome == "passed", result.reason


def test_a_range_takes_no_recording(tmp_path: Path) -> None:
    text = RANGED.format(label="must_fire", records="6-11") + "provider_io:\n" + SILENT
    path = write_case(tmp_path, "repeat-failure/c.yaml", text)
    shutil.copy(LOOP, path.parent / "loop.jsonl")
    result = default_runner().run(load_case(path, "builtin"))
    assert result.outcome == "failed" and "replayed offline: drop its provider_io" in result.reason


def test_the_directory_must_be_a_detector_id(tmp_path: Path) -> None:
    path = write_case(tmp_path, "goldens/builtin/Repeat_Failure/case.yaml", VALID)
    with pytest.raises(GoldenError, match="the case's directory 'Repeat_Failure' is not a detector id"):
        load_case(path)


def test_load_cases_reports_every_bad_file_at_once(tmp_path: Path) -> None:
    write_case(tmp_path, "builtin/repeat-failure/good.yaml", VALID)
    write_case(tmp_path, "builtin/repeat-failure/bad-one.yaml", VALID.replace("label:", "lable:"))
    write_case(
        tmp_path, "builtin/standard-questions/bad-two.yaml", VALID.replace("must_stay_silent", "maybe")
    )
    write_case(tmp_path, "other/some-detector/ignored.yaml", "not: valid\n")
    with pytest.raises(GoldenError) as raised:
        load_cases(tmp_path, ["builtin"])
    assert sorted(Path(chain.source.path).name for chain in raised.value.chains) == [
        "bad-one.yaml",
        "bad-two.yaml",
    ]


def test_case_files_follow_the_pack_detector_case_layout(tmp_path: Path) -> None:
    for relative in (
        "builtin/repeat-failure/a.yaml",
        "builtin/repeat-failure/b.yml",
        "builtin/repeat-failure/notes.txt",
        "builtin/README.yaml",
        "acme/acme-x/c.yaml",
        ".hidden/x/d.yaml",
    ):
        write_case(tmp_path, relative, VALID)
    assert [str(p.relative_to(tmp_path)) for p in case_files(tmp_path)] == [
        "acme/acme-x/c.yaml",
        "builtin/repeat-failure/a.yaml",
        "builtin/repeat-failure/b.yml",
    ]
    assert [p.name for p in case_files(tmp_path, ["acme"])] == ["c.yaml"]
    assert is_case_file(tmp_path / "acme/acme-x/c.yaml", tmp_path)
    assert not is_case_file(tmp_path / "builtin/README.yaml", tmp_path)
    assert not is_case_file(tmp_path / "README.yaml", tmp_path)
    assert not is_case_file(tmp_path / ".hidden/x/d.yaml", tmp_path)


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(load_schema("golden"))


# -- running against the installed built-in pack ---------------------------------------------------

FAILURES = textwrap.dedent(
    """\
    description: Three failures of make.
    label: {label}
    observations:
      - {{kind: tool, tool: Bash, tool_use_id: t1, args: {{command: make}}, timestamp: "10:00"}}
      - {{kind: error, tool: Bash, tool_use_id: t1, text: "make: *** Error 1"}}
      - {{kind: tool, tool: Bash, tool_use_id: t2, args: {{command: make}}, timestamp: "10:01"}}
      - {{kind: error, tool: Bash, tool_use_id: t2, text: "make: *** Error 1"}}
      - {{kind: tool, tool: Bash, tool_use_id: t3, args: {{command: make}}, timestamp: "10:02"}}
      - {{kind: error, tool: Bash, tool_use_id: t3, text: "make: *** Error 1"}}
    """
)


def run(tmp_path: Path, relative: str, text: str, runner: GoldenRunner | None = None) -> GoldenResult:
    return (runner or default_runner()).run(load_case(write_case(tmp_path, relative, text)))


@pytest.mark.parametrize(
    ("expect", "outcome", "reason"),
    [
        ('{dedup_key: "repeat-failure:make", headline_pattern: "^`make` has failed 3"}', "passed", ""),
        (
            '{dedup_key: "repeat-failure:make -k"}',
            "failed",
            "expected dedup_key 'repeat-failure:make -k', got",
        ),
        (
            '{headline_pattern: "twice"}',
            "failed",
            "headline '`make` has failed 3 times in a row: make: *** Error 1' does not match",
        ),
    ],
)
def test_expectations_of_a_firing_case(tmp_path: Path, expect: str, outcome: str, reason: str) -> None:
    text = FAILURES.format(label="must_fire") + f"expect: {expect}\n"
    result = run(tmp_path, "goldens/builtin/repeat-failure/case.yaml", text)
    assert (result.outcome, result.reason[: len(reason)]) == (outcome, reason)


def test_a_firing_case_labelled_silent_fails(tmp_path: Path) -> None:
    result = run(
        tmp_path, "goldens/builtin/repeat-failure/case.yaml", FAILURES.format(label="must_stay_silent")
    )
    assert result.outcome == "failed"
    assert (
        result.reason == "expected silence, but the detector advised: "
        "'`make` has failed 3 times in a row: make: *** Error 1'"
    )
    assert result.decision is not None and result.decision["fired"] is True


def test_a_silent_case_labelled_fire_fails_saying_what_decided(tmp_path: Path) -> None:
    text = FAILURES.format(label="must_fire").replace("tool_use_id: t3, text", "tool_use_id: t9, text")
    result = run(tmp_path, "goldens/builtin/repeat-failure/case.yaml", text)
    assert result.outcome == "failed"
    assert result.reason == (
        "expected the detector to fire, but it stayed silent: "
        "trigger 'repeat_failure' found no match in 6 observation(s)"
    )


def test_a_turn_end_detector_is_not_due_mid_turn(tmp_path: Path) -> None:
    text = textwrap.dedent(
        """\
        description: A code edit, mid-turn.
        label: must_fire
        turn_end: false
        observations:
          - {kind: tool, tool: Edit, tool_use_id: e1, args: {file_path: src/a.py}}
        """
    )
    result = run(tmp_path, "goldens/builtin/standard-questions/case.yaml", text)
    assert result.outcome == "failed"
    assert result.decision is not None and result.decision["decided_by"] == "cadence"
    assert "not due before the turn ends" in result.reason


def test_model_only_detectors_are_pending_with_the_reason(tmp_path: Path) -> None:
    result = run(tmp_path, "goldens/builtin/goal-drift/case.yaml", MODEL_CASE.format(label="must_fire"))
    assert (result.outcome, result.reason) == ("pending", MODEL_ONLY)


REPLAYS = {
    "advise": ("goal-drift", "must_fire", ADVISE, "passed", ""),
    "advise-labelled-silent": (
        "goal-drift",
        "must_stay_silent",
        ADVISE,
        "failed",
        "expected silence, but the detector advised: 'Off task'",
    ),
    # prior-art may use tools, so its first call is not forced to the feedback tool and prose can end it.
    "prose": (
        "prior-art",
        "must_fire",
        PROSE,
        "failed",
        "expected the detector to fire, but it stayed silent: "
        "the model's reply was prose, which the engine reads as silence",
    ),
    "too-many-replies": (
        "goal-drift",
        "must_fire",
        ADVISE + ADVISE,
        "failed",
        "the fork made 1 model call(s), but provider_io records 2: "
        "the recording no longer matches this detector (re-record it)",
    ),
    # goal-drift makes one model call, forced to the feedback tool: a prose reply cannot be what it got.
    "prose-where-feedback-was-forced": (
        "goal-drift",
        "must_stay_silent",
        PROSE,
        "failed",
        "model call 1 was the fork's last and forced second_brain_detector_feedback, but its recorded "
        "response does not call it (re-record it, or end the recording sooner)",
    ),
    "ungranted-tool": (
        "prior-art",
        "must_stay_silent",
        TOOL_STEP.format(name="Run", input='{command: "git status --short --branch"}') + SILENT,
        "failed",
        'the recorded call Run {"command": "git status --short --branch"} is refused: refused: detector '
        "'prior-art' is not granted 'Run' (its tools: Glob, Grep, Read)",
    ),
    "command-outside-the-allowlist": (
        "git-log",
        "must_stay_silent",
        TOOL_STEP.format(name="Run", input='{command: "git log -p"}') + SILENT,
        "failed",
        'the recorded call Run {"command": "git log -p"} is refused: refused: '
        "'git log -p' is not in detector 'git-log''s allowlist (allowed: "
        "git log -n 40 --date=short --name-only --format=%h%x09%ad%x09%an%x09%s; "
        "git log -n 40 --diff-filter=D --date=short --name-only --format=%h%x09%ad%x09%s; "
        "git status --short --branch)",
    ),
}


@pytest.mark.parametrize("name", list(REPLAYS))
def test_recorded_provider_io_replays_the_fork_through_the_pass_engine(tmp_path: Path, name: str) -> None:
    detector, label, replies, outcome, reason = REPLAYS[name]
    text = MODEL_CASE.format(label=label) + "provider_io:\n" + replies
    result = run(tmp_path, f"goldens/builtin/{detector}/case.yaml", text)
    assert (result.outcome, result.reason) == (outcome, reason), result.report()
    if outcome == "passed":
        assert result.decision is not None
        assert result.decision["decided_by"] == "provider"
        assert result.decision["feedback"] == {
            "verdict": "advise",
            "headline": "Off task",
            "confidence": 0.9,
            "dedup_key": "goal-drift:build",
        }


def test_a_recorded_tool_call_is_answered_from_the_recording_and_reaches_the_model(tmp_path: Path) -> None:
    grep = TOOL_STEP.format(name="Grep", input='{pattern: "def retry", glob: "*.py"}')
    advise = ADVISE.replace("goal-drift:build", "prior-art:retry")
    result = run(
        tmp_path,
        "goldens/builtin/prior-art/case.yaml",
        MODEL_CASE.format(label="must_fire") + "provider_io:\n" + grep + advise,
    )
    assert result.outcome == "passed", result.report()
    assert result.decision is not None
    assert result.decision["replay"] == {
        "model_calls": 2,
        "tool_calls": [
            {"tool": "Grep", "input": {"pattern": "def retry", "glob": "*.py"}, "is_error": False}
        ],
    }


def test_the_recorded_toolbox_checks_like_dispatch_and_never_runs_anything(tmp_path: Path) -> None:
    grant = Grant.parse(["Read", {"run": ["git status --short --branch"]}])
    toolbox = RecordedToolbox(
        tmp_path,
        recorded=[
            ("Read", {"path": "a.py"}, ToolResult("1\tx = 1")),
            ("Run", {"command": "git status --short --branch"}, ToolResult("## main", is_error=True)),
        ],
    )
    (tmp_path / "a.py").write_text("not what the recording says\n", encoding="utf-8")

    def call(name: str, args: object) -> ToolResult:
        return asyncio.run(toolbox.dispatch("lens", grant, name, args))

    assert call("Read", {"path": "a.py"}) == ToolResult("1\tx = 1")
    assert call("Run", {"command": "git status --short --branch"}) == ToolResult("## main", is_error=True)
    assert call("Read", {"path": "a.py"}).text == "refused: the recording has no result for this Read call"
    assert call("Grep", {"pattern": "x"}).text == (
        "refused: detector 'lens' is not granted 'Grep' (its tools: Read, Run)"
    )
    assert call("Read", {"file_path": "a.py"}).text.startswith("invalid arguments for Read: ")
    assert all(call("Read", {"path": "a.py"}).refused for _ in range(2))


def test_a_fork_whose_window_lost_an_observation_fails_the_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Window.append_episode

    def forgetful(self: Window, number: int, observations: Any, **kwargs: Any) -> Any:
        return original(self, number, observations[:-1], **kwargs)

    monkeypatch.setattr(Window, "append_episode", forgetful)
    text = MODEL_CASE.format(label="must_fire") + "provider_io:\n" + ADVISE
    result = run(tmp_path, "goldens/builtin/goal-drift/case.yaml", text)
    assert (result.outcome, result.reason) == (
        "failed",
        "model call 1 did not show the model observation 2 ('[tool] Write build.py'): "
        "its window lacks what the case describes",
    )


def test_inline_observations_are_written_as_the_projector_writes_them() -> None:
    edit = {"file_path": "src/a.py", "old_string": "x = 1", "new_string": "x = 2"}
    observations = inline_observations(
        [
            {"kind": "prompt", "text": "Fix it."},
            {"kind": "tool", "tool": "Edit", "tool_use_id": "e1", "args": edit},
            {"kind": "error", "tool": "Bash", "text": "boom"},
            {"kind": "report", "tool": "Task", "text": "All done."},
            {"kind": "text", "text": "[text] tagged already"},
            {"kind": "tool", "tool": "Bash", "text": "[tool] Bash as written", "args": {"command": "make"}},
        ]
    )
    record = {
        "type": "assistant",
        "message": {
            "id": "m1",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "e1", "name": "Edit", "input": edit}],
        },
    }
    projected = Projector().feed([record])
    assert [o.text for o in observations] == [
        "[prompt] Fix it.",
        projected[0].text,
        "[error] Bash: boom",
        "[report] Task: All done.",
        "[text] tagged already",
        "[tool] Bash as written",
    ]
    assert projected[0].text == "[tool] Edit src/a.py\n+ x = 2\n- x = 1"
    assert observations[1].args == edit  # triggers read the case's arguments as given
    assert observations[1].locators == projected[0].locators == ("src/a.py",)


def test_an_unregistered_trigger_is_pending(tmp_path: Path) -> None:
    manager = get_plugin_manager()
    del manager.registry.triggers["cross_task_collision"]  # as if no installed pack registered it
    text = "description: Anything.\nlabel: must_stay_silent\nobservations: [{kind: prompt, text: hi}]\n"
    result = run(tmp_path, "goldens/builtin/cross-task-collision/case.yaml", text, GoldenRunner(manager))
    assert result.outcome == "pending"
    assert result.reason.startswith("trigger 'cross_task_collision' is not registered by any installed pack")


def test_refused_overrides_name_the_case_file(tmp_path: Path) -> None:
    text = FAILURES.format(label="must_fire") + "config:\n  trigger: {params: {min_failures: 1}}\n"
    result = run(tmp_path, "goldens/builtin/repeat-failure/case.yaml", text)
    assert result.outcome == "failed"
    assert result.reason.startswith("the case's config overrides are refused:\n==> File ")
    assert (
        "case.yaml:10\n==> At detector 'repeat-failure'\n==> At key: config.trigger.params.min_failures\n"
        "=====> 1 is less than the minimum of 2\n" in (result.reason)
    )


def test_unknown_pack_and_misfiled_detector(tmp_path: Path) -> None:
    ghost = run(tmp_path, "goldens/ghost/repeat-failure/case.yaml", FAILURES.format(label="must_fire"))
    assert ghost.outcome == "failed"
    assert ghost.reason.startswith("no pack named 'ghost' is installed (installed: builtin")
    misfiled = run(
        tmp_path, "goldens/builtin-providers/repeat-failure/case.yaml", FAILURES.format(label="must_fire")
    )
    assert misfiled.reason == (
        "detector 'repeat-failure' comes from pack 'builtin', but this case is filed under pack "
        "'builtin-providers': move it to goldens/builtin/repeat-failure/"
    )
    missing = run(tmp_path, "goldens/builtin/no-such-detector/case.yaml", FAILURES.format(label="must_fire"))
    assert missing.reason.startswith(
        "pack 'builtin' as installed defines no detector 'no-such-detector' (it defines: "
    )
    assert "package data" in missing.reason


# -- transcripts -----------------------------------------------------------------------------------


def transcript_lines(failures: int) -> list[str]:
    """A small Claude Code transcript of our own: ``failures`` failing `make` calls, then narration."""
    lines = []
    for n in range(1, failures + 1):
        call = {
            "type": "assistant",
            "uuid": f"a{n}",
            "timestamp": f"2026-01-01T10:0{n}:00Z",
            "message": {
                "id": f"m{n}",
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": "make"}}
                ],
            },
        }
        result = {
            "type": "user",
            "uuid": f"u{n}",
            "timestamp": f"2026-01-01T10:0{n}:05Z",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": f"toolu_{n}",
                        "is_error": True,
                        "content": "Error 2",
                    }
                ],
            },
        }
        lines += [json.dumps(call), json.dumps(result)]
    narration = {
        "type": "assistant",
        "uuid": "z",
        "message": {"id": "mz", "role": "assistant", "content": [{"type": "text", "text": "Hmm."}]},
    }
    return [*lines, json.dumps(narration)]


def test_a_transcript_range_is_projected_like_the_observer_does(tmp_path: Path) -> None:
    case_dir = tmp_path / "goldens/builtin/repeat-failure"
    case_dir.mkdir(parents=True)
    (case_dir / "session.jsonl").write_text("\n".join(transcript_lines(3)) + "\n", encoding="utf-8")
    whole = run(
        tmp_path,
        "goldens/builtin/repeat-failure/all.yaml",
        TRANSCRIPT_CASE.format(label="must_fire", records=""),
    )
    assert whole.outcome == "passed", whole.report()
    assert whole.decision is not None
    assert whole.decision["feedback"]["evidence"] == [f"<time{n}>: Error 2" for n in (1, 3, 5)]
    cut = run(
        tmp_path,
        "goldens/builtin/repeat-failure/cut.yaml",
        TRANSCRIPT_CASE.format(label="must_stay_silent", records=", records: '1-4'"),
    )
    assert cut.outcome == "passed", cut.report()
    assert cut.decision is not None and cut.decision["observations"] == 4


def test_a_missing_transcript_fails_the_case(tmp_path: Path) -> None:
    text = TRANSCRIPT_CASE.format(label="must_fire", records="")
    result = run(tmp_path, "goldens/builtin/repeat-failure/case.yaml", text)
    assert result.outcome == "failed"
    assert "==> At key: transcript.path\n=====> no transcript at " in result.reason


TRANSCRIPT_CASE = (
    "description: From a transcript.\nlabel: {label}\ntranscript: {{path: session.jsonl{records}}}\n"
)


def test_shared_transcripts_resolve_through_the_environment_or_beside_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    (shared / "corpus").mkdir(parents=True)
    (shared / "corpus" / "s.jsonl").write_text("\n".join(transcript_lines(3)) + "\n", encoding="utf-8")
    text = "description: Shared.\nlabel: must_fire\ntranscript: {path: 'shared:corpus/s.jsonl'}\n"
    monkeypatch.delenv(ENV_SHARED, raising=False)
    beside = run(tmp_path, "repo/goldens/builtin/repeat-failure/case.yaml", text)  # tmp/repo/../shared
    assert beside.outcome == "passed", beside.report()
    assert beside.case.uses_shared_corpus
    assert beside.snapshot_value is not None and set(beside.snapshot_value) == {
        "detector",
        "pack",
        "label",
        "observations",
        "decided_by",
        "fired",
        "decision_sha256",
    }

    monkeypatch.setenv(ENV_SHARED, str(tmp_path / "nowhere"))
    absent = run(tmp_path, "repo/goldens/builtin/repeat-failure/case.yaml", text)
    assert (absent.outcome, absent.decision) == ("skipped", None)
    assert absent.reason.startswith(
        "shared transcript corpus/s.jsonl is not available: set SBCORE_SHARED_DIR"
    )


# -- a pack of our own: triggers without fallbacks, broken fallbacks ---------------------------------


def fake_pack_runner(tmp_path: Path, fallback_headline: str | None, trigger: object) -> GoldenRunner:
    """A runner over the built-in packs plus pack ``fake``: one on_trigger detector, ``fake-detector``."""
    catalogue = tmp_path / "catalogue"
    catalogue.mkdir()
    fallback = ""
    if fallback_headline:
        fallback = f'fallback: {{headline: "{fallback_headline}", confidence: 0.5, dedup_key: "k"}}\n'

    (catalogue / "fake-detector.yaml").write_text(
        "schema_version: 1\nid: fake-detector\ndescription: A test detector.\nprompt: Look.\n"
        "cadence: on_trigger\ntrigger: {name: fake_trigger}\n" + fallback,
        encoding="utf-8",
    )
    module = types.ModuleType("fake_pack")

    @hookimpl
    def register_catalogues(register: Any) -> None:
        register(catalogue)

    @hookimpl
    def register_triggers(register: Any) -> None:
        register("fake_trigger", trigger)

    module.register_catalogues = register_catalogues  # type: ignore[attr-defined]
    module.register_triggers = register_triggers  # type: ignore[attr-defined]
    manager = get_plugin_manager(strict=True, autoload=False, only=())
    assert manager.add_pack("fake", module)
    return GoldenRunner(manager)


def fires_when_told(observations: Any, params: Any, state: Any) -> TriggerMatch | None:
    if any(obs.text == "[prompt] fire" for obs in observations):
        return TriggerMatch(key="k", summary="x" * 300, evidence=("e",))
    return None


PROMPT_CASE = "description: A case.\nlabel: {label}\nobservations: [{{kind: prompt, text: {text}}}]\n"


def test_a_trigger_without_fallback_settles_silence_but_leaves_firing_to_the_model(tmp_path: Path) -> None:
    runner = fake_pack_runner(tmp_path, None, fires_when_told)
    silent = run(
        tmp_path,
        "goldens/fake/fake-detector/quiet.yaml",
        PROMPT_CASE.format(label="must_stay_silent", text="hi"),
        runner,
    )
    assert (silent.outcome, silent.decision and silent.decision["decided_by"]) == ("passed", "trigger")
    fire = run(
        tmp_path,
        "goldens/fake/fake-detector/fire.yaml",
        PROMPT_CASE.format(label="must_fire", text="fire"),
        runner,
    )
    assert (fire.outcome, fire.reason) == ("pending", MODEL_DECIDES)
    assert fire.decision is not None and fire.decision["trigger"]["match"]["key"] == "k"


UNCHECKED_EDIT = textwrap.dedent(
    """\
    description: Code edited after the last lint run.
    label: {label}
    judge: trigger
    turn_end: {turn_end}
    observations:
      - {{kind: prompt, text: Rename the loader.}}
      - {{kind: tool, tool: Bash, tool_use_id: t1, args: {{command: ruff check .}}}}
      - {{kind: tool, tool: Edit, tool_use_id: e1, args: {{file_path: src/config.py, new_string: "def f("}}}}
      - {{kind: text, text: Renamed.}}
    """
)


@pytest.mark.parametrize(
    ("label", "turn_end", "outcome", "reason"),
    [
        ("must_fire", "true", "passed", ""),
        (
            "must_stay_silent",
            "true",
            "failed",
            "expected the detector not to run, but its trigger matched: the trigger matched, so the detector "
            "runs: 1 matching call(s), the last Edit `src/config.py` (succeeded), and no call matching "
            "`absent` after them",
        ),
        (
            "must_fire",
            "false",
            "failed",
            "expected the trigger to run the detector, but it did not: "
            "cadence turn_end: the detector is not due before the turn ends",
        ),
        ("must_stay_silent", "false", "passed", ""),
    ],
)
def test_a_case_judged_on_its_trigger_needs_no_model(
    tmp_path: Path, label: str, turn_end: str, outcome: str, reason: str
) -> None:
    text = UNCHECKED_EDIT.format(label=label, turn_end=turn_end)
    result = run(tmp_path, "goldens/builtin/static-analysis/case.yaml", text)
    assert (result.outcome, result.reason) == (outcome, reason), result.report()
    assert result.decision is not None
    assert result.decision["decided_by"] == ("trigger" if turn_end == "true" else "cadence")


def test_a_case_judged_on_its_trigger_fails_when_the_trigger_finds_nothing(tmp_path: Path) -> None:
    checked = UNCHECKED_EDIT.format(label="must_fire", turn_end="true") + (
        "  - {kind: tool, tool: Bash, tool_use_id: t2, args: {command: uv run mypy src}}\n"
    )
    result = run(tmp_path, "goldens/builtin/static-analysis/case.yaml", checked)
    assert (result.outcome, result.reason) == (
        "failed",
        "expected the trigger to run the detector, but it did not: "
        "trigger 'sbcore.match' found no match in 5 observation(s)",
    )


@pytest.mark.parametrize(("case", "fired"), [("same-file-as-other-task", True), ("no-overlap", False)])
def test_an_interleaved_case_can_be_judged_on_its_trigger(tmp_path: Path, case: str, fired: bool) -> None:
    source = Path(__file__).resolve().parents[2] / "goldens/builtin/cross-task-collision"
    target = tmp_path / "goldens/builtin/cross-task-collision"
    shutil.copytree(source, target)
    path = target / f"{case}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.split("expect:")[0] + "judge: trigger\n", encoding="utf-8")
    result = default_runner().run(load_case(path))
    assert result.outcome == "passed", result.report()
    assert result.decision is not None
    assert (result.decision["decided_by"], result.decision["fired"]) == ("trigger", fired)


def test_a_case_judged_on_a_trigger_the_detector_lacks_fails(tmp_path: Path) -> None:
    text = MODEL_CASE.format(label="must_fire") + "judge: trigger\n"
    result = run(tmp_path, "goldens/builtin/goal-drift/case.yaml", text)
    assert (result.outcome, result.reason) == ("failed", NO_TRIGGER)


def test_a_fallback_breaking_the_feedback_schema_fails(tmp_path: Path) -> None:
    runner = fake_pack_runner(tmp_path, "{{ match.summary }}", fires_when_told)
    result = run(
        tmp_path,
        "goldens/fake/fake-detector/fire.yaml",
        PROMPT_CASE.format(label="must_fire", text="fire"),
        runner,
    )
    assert result.outcome == "failed"
    assert result.reason.startswith(
        "the fallback renders feedback that breaks the detector's schema at headline: "
    )


@pytest.mark.parametrize("label", ["must_fire", "must_stay_silent"])
def test_a_trigger_that_raises_fails_the_case_naming_the_error(tmp_path: Path, label: str) -> None:
    def broken(observations: Any, params: Any, state: Any) -> None:
        raise ZeroDivisionError("trigger bug")

    runner = fake_pack_runner(tmp_path, "x", broken)
    result = run(
        tmp_path,
        "goldens/fake/fake-detector/c.yaml",
        PROMPT_CASE.format(label=label, text="a"),
        runner,
    )
    assert result.outcome == "failed"
    assert "trigger bug" in result.reason and "ZeroDivisionError" in result.reason


# -- normalisation ----------------------------------------------------------------------------------


def test_normalise_replaces_ids_and_times_and_rounds_floats() -> None:
    observations = [
        Observation("tool", "", timestamp="2026-01-01T10:00:00Z", tool_use_id="toolu_01AbC", uuid="rec-1"),
        Observation("error", "boom", timestamp="2026-01-01T10:00:05Z", tool_use_id="toolu_01AbC"),
    ]
    value = {
        "key": "make@toolu_01AbC",
        "when": ["2026-01-01T10:00:05Z", "at 2026-01-01T10:00:00Z"],
        "other": "seen 2025-12-31 23:59:59+01:00 in 0b5ec9a8-16ad-4b58-9d6c-7a34ab0f8c11",
        "confidence": 0.6666666,
        "count": 3,
        "flag": True,
        "nested": ({"record": "rec-1"},),
    }
    assert normalise(value, observations) == {
        "key": "make@<id1>",
        "when": ["<time2>", "at <time1>"],
        "other": "seen <time> in <uuid>",
        "confidence": 0.667,
        "count": 3,
        "flag": True,
        "nested": [{"record": "<id2>"}],
    }


# -- second-brain pack test ---------------------------------------------------------------------------


def test_pack_test_runs_the_builtin_goldens(capfd: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[2] / "goldens"
    assert main(["pack", "test", "builtin", "--goldens", str(root)]) == 0
    out = capfd.readouterr().out
    # Every case runs (the cross-task-collision ones interleave transcripts); without the shared corpus its
    # 2 cases are skipped. No case is pending, for want of a trigger or of a recording.
    assert re.search(r"\b[2-9][0-9] passed(, 2 skipped)?\b", out), out
    assert "pending" not in out
    assert "model-only detector" not in out


def test_pack_test_runs_no_python_of_the_folder_it_tests(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """`--goldens` is a folder of a repository, untrusted: its conftest.py and test files are not imported."""
    cases = tmp_path / "goldens" / "builtin" / "default"
    cases.mkdir(parents=True)
    (cases / "quiet.yaml").write_text(
        "description: nothing happens\nlabel: must_stay_silent\n"
        "observations:\n  - {kind: prompt, text: hello}\n"
    )
    for name in ("goldens/conftest.py", "goldens/builtin/conftest.py", "goldens/builtin/test_x.py"):
        marker = tmp_path / f"ran-{name.replace('/', '-')}"
        (tmp_path / name).write_text(f"open({str(marker)!r}, 'w').close()\ndef test_nothing(): pass\n")
    assert main(["pack", "test", "builtin", "--goldens", str(tmp_path / "goldens")]) == 0
    assert "1 skipped" in capfd.readouterr().out  # the YAML case collected (a model-only detector's: pending)
    assert not list(tmp_path.glob("ran-*"))


def test_pack_test_refuses_what_it_cannot_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "test", "ghost", "--goldens", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "cannot test pack 'ghost': no such pack is installed" in err
    assert "installed packs: builtin" in err
    assert main(["pack", "test", "builtin", "--goldens", str(tmp_path)]) == 1
    assert (
        f"no golden cases for pack 'builtin' under {tmp_path.resolve() / 'builtin'}"
        in capsys.readouterr().err
    )


def test_a_recorded_run_of_repository_code_is_answered_only_in_a_trusted_workspace(tmp_path: Path) -> None:
    """A golden replays its tool calls through live dispatch: ``npx tsc`` runs the repository's own
    toolchain, so its recorded result is refused unless the case says its workspace is trusted."""
    goldens = Path(__file__).resolve().parents[2] / "goldens"
    shipped = goldens / "builtin/static-analysis/type-error-left-behind.yaml"
    trusted = shipped.read_text(encoding="utf-8")
    assert "\ntrusted: true\n" in trusted
    assert run(tmp_path / "trusted", "goldens/builtin/static-analysis/case.yaml", trusted).outcome == "passed"
    untrusted = trusted.replace("\ntrusted: true\n", "\n")
    result = run(tmp_path / "untrusted", "goldens/builtin/static-analysis/case.yaml", untrusted)
    assert result.outcome == "failed"
    assert "npx --no-install tsc --noEmit' executes code from the repository" in result.reason
    assert "this workspace's content is not trusted" in result.reason
