"""The built-in pack's catalogue: twelve detectors, the right ones on, prompts and fallbacks that render."""

from __future__ import annotations

import glob
import textwrap
import tomllib
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from jsonschema import Draft202012Validator
from sbcore.detectors import catalogue_dir

from sbcore.config import load_config
from sbcore.config.trust import grant
from sbcore.observe.model import Observation
from sbcore.packs.catalogue import EffectiveCatalogue, assemble_catalogue
from sbcore.packs.manager import PackManager, get_plugin_manager
from sbcore.packs.model import DetectorDef
from sbcore.packs.templates import render
from sbcore.packs.types import TriggerMatch
from sbcore.state.taskindex import IndexedRegion, IndexedTask, Peers

ROOT = Path(__file__).resolve().parents[2]
ENABLED = {"default", "repeat-failure", "standard-questions"}
DISABLED = {
    "drift",  # off by default: no would-fire over the corpus (docs/soak.md, "Soaking detectors' verdicts")
    "stall",
    "recall",
    "git-log",
    "prior-art",
    "constraint-drift",
    "goal-drift",
    "static-analysis",
    "cross-task-collision",
}


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.fixture(scope="module")
def manager() -> PackManager:
    return get_plugin_manager(autoload=False)


def _trust(workspace: Path) -> None:
    """Approve the workspace's layer as it is now: the user's act, done directly, the test standing in."""
    state = load_config(workspace).trust
    assert state is not None
    with mock.patch("sbcore.config.user_act.refusal", lambda *args, **kwargs: None):
        grant(state)


def build(manager: PackManager, workspace: Path, **overrides: dict[str, Any]) -> EffectiveCatalogue:
    return assemble_catalogue(manager, workspace=workspace, overrides=overrides)


def definition(catalogue: EffectiveCatalogue, detector_id: str) -> DetectorDef:
    found = catalogue.get(detector_id)
    assert found is not None, detector_id
    return found.definition


def test_exactly_the_twelve_detectors_with_the_shipping_enablement(
    manager: PackManager, workspace: Path
) -> None:
    catalogue = build(manager, workspace)
    assert catalogue.errors == []
    assert {d.id: d.definition.enabled for d in catalogue.detectors} == {
        **dict.fromkeys(ENABLED, True),
        **dict.fromkeys(DISABLED, False),
    }
    for detector in catalogue.detectors:
        assert detector.definition.pack == "builtin"
        assert Path(detector.definition.source.path).parent == catalogue_dir()
        assert set(detector.origins.values()) == {"pack builtin"}


def test_the_pack_table_in_the_docs_says_what_ships_enabled(manager: PackManager, workspace: Path) -> None:
    """docs/hooks.md's table of the built-in pack is what a user reads to know what runs: its Enabled
    column must be the catalogue's, row for row."""
    text = (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8")
    table = text[text.index("## The built-in pack") :].split("\n\n")[1]
    rows = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`") and cells[0].endswith("`"):
            rows[cells[0].strip("`")] = cells[1].split()[0] == "yes"
    catalogue = build(manager, workspace)
    assert rows == {d.id: d.definition.enabled for d in catalogue.detectors}


def test_the_builtin_catalogue_has_no_warning_and_every_detector_is_available(
    manager: PackManager, workspace: Path
) -> None:
    catalogue = build(manager, workspace)
    assert catalogue.warnings == []
    assert {d.id: d.unavailable_reason for d in catalogue.detectors if not d.available} == {}


def test_enabled_detectors_are_tool_less(manager: PackManager, workspace: Path) -> None:
    """Enablement stops where tools begin: what ships on reads the window and nothing else."""
    catalogue = build(manager, workspace)
    for detector_id in ENABLED:
        assert definition(catalogue, detector_id).tools == (), detector_id
        assert definition(catalogue, detector_id).max_iterations == 1


def test_tool_grants_of_the_disabled_detectors(manager: PackManager, workspace: Path) -> None:
    catalogue = build(manager, workspace)
    assert definition(catalogue, "prior-art").grant_names == ["Read", "Grep", "Glob"]
    assert definition(catalogue, "constraint-drift").grant_names == ["Read", "Grep", "Glob"]
    assert definition(catalogue, "goal-drift").tools == ()
    git_log = definition(catalogue, "git-log").run_commands
    assert git_log and all(command.startswith("git ") for command in git_log)
    assert not any(" blame" in command for command in git_log)  # exact allowlist: no path to blame
    static = definition(catalogue, "static-analysis").run_commands
    assert "git diff --check" in static
    # conservative: nothing that installs, fetches or writes caches into the working tree
    for command in static:
        assert "install" not in command.split()
        if command.startswith("ruff"):
            assert "--no-cache" in command
        if command.startswith("mypy"):
            assert "--cache-dir=/dev/null" in command
        if command.startswith("npx"):
            assert "--no-install" in command


def test_triggered_detectors(manager: PackManager, workspace: Path) -> None:
    catalogue = build(manager, workspace)
    repeat = definition(catalogue, "repeat-failure")
    assert str(repeat.cadence) == "on_trigger"
    assert repeat.trigger is not None and repeat.trigger.name == "repeat_failure"
    questions = definition(catalogue, "standard-questions")
    assert str(questions.cadence) == "turn_end"
    assert questions.trigger is not None and questions.trigger.name == "standard_questions"
    assert definition(catalogue, "constraint-drift").confidence_floor == 0.8


def test_every_prompt_file_is_used_by_exactly_one_detector(manager: PackManager, workspace: Path) -> None:
    catalogue = build(manager, workspace)
    used = sorted(d.definition.raw["prompt_file"] for d in catalogue.detectors)
    shipped = sorted(f"prompts/{path.name}" for path in (catalogue_dir() / "prompts").glob("*.j2"))
    assert used == shipped


def test_prompt_templates_ship_as_package_data() -> None:
    """Files that package-data patterns miss are missing from the wheel (setuptools globs per package dir)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = [
        *setuptools["package-data"].get("*", []),
        *setuptools["package-data"].get("sbcore.catalogue", []),
    ]
    packaged = {match for pattern in patterns for match in glob.glob(pattern, root_dir=catalogue_dir())}
    data_files = {
        str(path.relative_to(catalogue_dir()))
        for path in catalogue_dir().rglob("*")
        if path.is_file() and path.suffix in (".yaml", ".j2")
    }
    assert data_files - packaged == set()


# -- overrides -----------------------------------------------------------------------------------------


def test_each_disabled_detector_is_one_flip_away(manager: PackManager, workspace: Path) -> None:
    catalogue = build(manager, workspace, **{d: {"enabled": True} for d in DISABLED})
    assert catalogue.errors == []
    for detector_id in DISABLED:
        assert definition(catalogue, detector_id).enabled
        assert catalogue.get(detector_id).origins["enabled"] == "override"  # type: ignore[union-attr]


def test_a_workspace_config_changes_and_extends_the_checklist(manager: PackManager, workspace: Path) -> None:
    (workspace / ".second-brain").mkdir()
    (workspace / ".second-brain" / "config.yaml").write_text(
        textwrap.dedent(
            """\
            detectors:
              standard-questions:
                config:
                  questions:
                    - id: docs_updated
                      enabled: false
                    - id: migration_written
                      question: Was a migration written for both directions?
                      applies_after: edit
                      answered_by:
                        edits: ["migrations/**"]
              repeat-failure:
                trigger:
                  params: {min_failures: 4}
            """
        )
    )
    catalogue = assemble_catalogue(manager, workspace=workspace)
    assert catalogue.errors == []
    questions = catalogue.get("standard-questions")
    assert questions is not None
    by_id = {q["id"]: q for q in questions.definition.config["questions"]}
    assert list(by_id) == [
        "tests_run",
        "tests_added",
        "compiles",
        "deployed",
        "docs_updated",
        "migration_written",
    ]
    assert by_id["docs_updated"]["enabled"] is False
    assert by_id["docs_updated"]["question"] == "Was the documentation updated along with the code?"
    assert questions.origins["config"] == "pack builtin + workspace config"
    repeat = definition(catalogue, "repeat-failure")
    assert repeat.trigger is not None and repeat.trigger.params == {"min_failures": 4}


def test_a_checklist_override_is_validated_by_the_config_schema(
    manager: PackManager, workspace: Path
) -> None:
    catalogue = build(
        manager,
        workspace,
        **{
            "standard-questions": {
                "config": {"questions": [{"id": "Bad Id", "question": "?", "answered_by": {}}]}
            }
        },
    )
    keys = sorted(error.key or "" for error in catalogue.errors)
    assert keys and all(key.startswith("detectors.standard-questions.config.questions[5]") for key in keys)
    assert (
        len(definition(catalogue, "standard-questions").config["questions"]) == 5
    )  # the override was refused


def test_the_shipped_config_schema_is_valid_and_strict() -> None:
    import yaml

    document = yaml.safe_load((catalogue_dir() / "standard-questions.yaml").read_text())
    Draft202012Validator.check_schema(document["config_schema"])
    validator = Draft202012Validator(document["config_schema"])
    assert list(validator.iter_errors(document["config"])) == []
    wrong = {
        "questions": [{"id": "x1", "question": "?", "answered_by": {"edits": []}, "applies_after": "later"}]
    }
    assert [e.validator for e in validator.iter_errors(wrong)] == ["enum"]
    assert list(validator.iter_errors({"questionz": []}))


def test_a_workspace_detector_joins_and_cannot_reuse_a_builtin_id(
    manager: PackManager, workspace: Path
) -> None:
    directory = workspace / ".second-brain" / "detectors"
    directory.mkdir(parents=True)
    body = "schema_version: 1\nid: {id}\ndescription: Team rule.\nprompt: Check the team rule.\n"
    (directory / "team-rule.yaml").write_text(body.format(id="team-rule"))
    (directory / "default.yaml").write_text(body.format(id="default"))
    catalogue = assemble_catalogue(manager, workspace=workspace)
    assert definition(catalogue, "team-rule").pack == "workspace"
    assert catalogue.get("team-rule").origins["prompt"] == "workspace detectors"  # type: ignore[union-attr]
    [error] = catalogue.errors
    assert "duplicate detector id 'default'" in error.problem and "pack 'builtin'" in error.problem
    assert definition(catalogue, "default").pack == "builtin"


def test_catalogue_file_replaces_the_bundle(manager: PackManager, workspace: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "only-one.yaml").write_text(
        "schema_version: 1\nid: only-one\ndescription: Mine.\nenabled: true\nprompt: Mine.\n"
    )
    (workspace / ".second-brain").mkdir()
    (workspace / ".second-brain" / "config.yaml").write_text(f"catalogue:\n  file: {mine}\n")
    _trust(workspace)  # a workspace's catalogue.file applies once trusted
    catalogue = assemble_catalogue(manager, workspace=workspace)
    assert [d.id for d in catalogue.detectors] == ["only-one"]
    assert catalogue.source == f"catalogue.file: {mine}"
    assert catalogue.detectors[0].origins["enabled"] == "catalogue.file"
    assert catalogue.problems == []  # nothing about the bundle, which is not in force


def test_a_broken_catalogue_file_falls_back_to_the_bundle_loudly(
    manager: PackManager, workspace: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("schema_version: 1\nid: mine\ndescription: Broken.\nprompt: x\nconfidence_floor: 1.5\n")
    (workspace / ".second-brain").mkdir()
    (workspace / ".second-brain" / "config.yaml").write_text(f"catalogue:\n  file: {mine}\n")
    mine.write_text(mine.read_text())  # exists when set; broken at load
    _trust(workspace)  # a workspace's catalogue.file applies once trusted
    catalogue = assemble_catalogue(manager, workspace=workspace)
    assert catalogue.source == "packs"
    assert len(catalogue.detectors) == 12
    assert catalogue.errors == []
    problems = [w.problem for w in catalogue.warnings]
    assert "catalogue.file is broken: falling back to the bundled catalogue" in problems
    assert any(w.key == "confidence_floor" and w.source.path == str(mine) for w in catalogue.warnings)


def test_an_unknown_override_field_is_refused(manager: PackManager, workspace: Path) -> None:
    catalogue = build(manager, workspace, default={"tool": ["Read"]})
    [error] = catalogue.errors
    assert "'tool' cannot be overridden (did you mean 'tools'?)" in error.problem
    assert definition(catalogue, "default").tools == ()


def test_a_prompt_override_replaces_the_prompt_file(manager: PackManager, workspace: Path) -> None:
    catalogue = build(manager, workspace, default={"prompt": "Only {{ detector.id }} speaks."})
    detector = catalogue.get("default")
    assert detector is not None
    assert detector.definition.prompt == "Only {{ detector.id }} speaks."
    assert detector.origins["prompt"] == "override"
    bad = build(manager, workspace, default={"prompt": "{{ detectr.id }}"})
    [error] = bad.errors
    assert "undeclared template variable 'detectr'" in error.problem
    assert error.hint == "Typo? did you mean 'detector'?"


# -- templates render with real trigger output ------------------------------------------------------


def session_with_retry_loop() -> list[Observation]:
    observations = []
    for n in range(3):
        observations.append(
            Observation(
                kind="tool",
                text="[tool] Bash npm run build",
                timestamp=f"2026-01-01T10:0{n}:00Z",
                tool="Bash",
                tool_use_id=f"t{n}",
                args={"command": "npm run build 2>&1 | tail -5" if n else "npm run build"},
            )
        )
        observations.append(
            Observation(
                kind="error",
                text="Exit code 2\nsrc/app.ts(4,7): error TS2322: Type 'string' is not assignable.",
                tool="Bash",
                tool_use_id=f"t{n}",
            )
        )
    return observations


def session_editing_a_region() -> list[Observation]:
    return [
        Observation(
            kind="tool",
            text="[tool] Edit /repo/src/a.py @L10-L14",
            timestamp="2026-01-01T10:05:00Z",
            tool="Edit",
            tool_use_id="e1",
            args={
                "file_path": "/repo/src/a.py",
                "anchor": "L10-L14",
                "new_string": "x = 1",
                "old_string": "x",
            },
        )
    ]


def another_task_on_that_region() -> Peers:
    region = IndexedRegion("src/a.py", 12, 20, at=1000.0, ref="t9")
    other = IndexedTask("task-b", "session-b", "/repo", "/repo", None, "speed up a.py", (), 1000.0, (region,))
    return Peers("/repo", 1120.0, (other,))


def session_with_unverified_edit() -> list[Observation]:
    return [
        Observation(kind="prompt", text="fix the parser"),
        # the project has tests and a type-checker: the checklist asks only what it can answer
        Observation(
            kind="tool", text="[tool] Read", tool="Read", tool_use_id="r1", args={"file_path": "/r/tests"}
        ),
        Observation(
            kind="tool", text="[tool] Read", tool="Read", tool_use_id="r2", args={"file_path": "/r/mypy.ini"}
        ),
        Observation(
            kind="tool",
            text="[tool] Write",
            tool="Write",
            tool_use_id="e1",
            args={"file_path": "/r/parse.py"},
        ),
        Observation(kind="text", text="Done: the parser handles empty input now."),
    ]


PROMPT_INPUTS: dict[str, Any] = {
    "budget": {"deadline_s": 8, "body_cap": 600, "max_iterations": 4},
    "config": {},
}


TOPIC_MATCHES = {
    "drift": TriggerMatch(
        key="goal1@7",
        summary="4 steps in a row far from the goal",
        data={
            "goal": "Fix the login 500 on an expired session",
            "goal_time": None,
            "steps": ["Moving the logger to JSON output", "Rotating file handler"],
            "since": None,
            "goal_similarity": 0.05,
            "work_similarity": 0.1,
            "turns": 10,
        },
    ),
    "stall": TriggerMatch(
        key="epoch1@1",
        summary="4 steps in a row saying much the same",
        data={
            "steps": ["The loader must override the timeout"] * 4,
            "since": None,
            "similarity": 0.7,
            "turns": 4,
        },
    ),
}


@pytest.mark.parametrize(
    "open_advisories", [[], [{"advice_id": "a1", "headline": "Run the tests"}, "plain text"]]
)
def test_every_prompt_renders(manager: PackManager, workspace: Path, open_advisories: list[Any]) -> None:
    catalogue = build(manager, workspace)
    environment = manager.template_environment()
    matches = {
        "repeat-failure": manager.registry.triggers["repeat_failure"].invoke(
            session_with_retry_loop(), {}, {}
        ),
        "standard-questions": manager.registry.triggers["standard_questions"].invoke(
            session_with_unverified_edit(), {}, {}, config=definition(catalogue, "standard-questions").config
        ),
        "cross-task-collision": manager.registry.triggers["cross_task_collision"].invoke(
            session_editing_a_region(), {}, {}, peers=another_task_on_that_region()
        ),
        "drift": TOPIC_MATCHES["drift"],
        "stall": TOPIC_MATCHES["stall"],
    }
    assert all(match is not None for match in matches.values())
    for detector in catalogue.detectors:
        d = detector.definition
        match = matches.get(d.id)
        if d.id == "recall":  # the fields recall_offers documents (its own tests build real ones)
            from sbcore.packs.types import TriggerMatch

            offer = {
                "kind": "past_fix",
                "label": "Past fix",
                "handle": "docs/adr/0001.md#fix",
                "region": "docs/adr",
                "why": "names this error: psycopg",
                "excerpt": "Use the pool.",
            }
            match = TriggerMatch(
                key="recall:t1",
                summary="past fix",
                data={"error": "E psycopg", "command": "pytest", "offers": [offer], "dominant_region": "x"},
            )
        text = render(
            d.prompt,
            environment=environment,
            detector={"id": d.id, "description": d.description},
            config=d.config,
            budget=PROMPT_INPUTS["budget"],
            grant=d.grant_names,
            open_advisories=open_advisories,
            match=None if match is None else match.as_template_input(),
        )
        assert d.id in text
        assert "second_brain_detector_feedback" in text
        assert "600 characters" in text
        assert ("a1: Run the tests" in text) == bool(open_advisories), d.id
    repeat_prompt = render(
        definition(catalogue, "repeat-failure").prompt,
        environment=environment,
        detector={"id": "repeat-failure"},
        config={},
        budget=PROMPT_INPUTS["budget"],
        grant=[],
        open_advisories=[],
        match=matches["repeat-failure"].as_template_input(),  # type: ignore[union-attr]
    )
    assert "error TS2322" in repeat_prompt
    assert "3 in a row" in repeat_prompt


def test_offline_fallbacks_render_from_real_matches(manager: PackManager, workspace: Path) -> None:
    catalogue = build(manager, workspace)
    environment = manager.template_environment()

    def fallback(detector_id: str, match: Any) -> dict[str, str]:
        d = definition(catalogue, detector_id)
        assert d.fallback is not None
        inputs = {"detector": {"id": d.id}, "config": d.config, "match": match.as_template_input()}
        return {
            name: render(d.fallback[name], environment=environment, **inputs)
            for name in ("headline", "body", "dedup_key")
        }

    repeat = fallback(
        "repeat-failure",
        manager.registry.triggers["repeat_failure"].invoke(session_with_retry_loop(), {}, {}),
    )
    assert repeat["headline"] == (
        "`npm run build 2>&1 | tail -5` has failed 3 times in a row: "
        "src/app.ts(4,7): error TS2322: Type 'string' is not assignable."
    )
    assert "error TS2322" in repeat["body"]
    assert repeat["dedup_key"] == "repeat-failure:js-script build"

    questions_def = definition(catalogue, "standard-questions")
    match = manager.registry.triggers["standard_questions"].invoke(
        session_with_unverified_edit(), {}, {}, config=questions_def.config
    )
    questions = fallback("standard-questions", match)
    assert (
        questions["headline"]
        == "Not yet checked since the edit to /r/parse.py: tests_run, tests_added, compiles"
    )
    since = " Nothing observed answers it since the edit to /r/parse.py."
    assert [line for line in questions["body"].splitlines() if line] == [
        "- Were the tests run after the latest code change?" + since,
        "- Were tests added or updated for the new code paths?" + since,
        "- Does the code still build and type-check after the latest change?" + since,
    ]
    assert questions["dedup_key"] == "standard-questions:compiles,tests_added,tests_run@e1"


# -- retuning a built-in's declarative trigger ---------------------------------------------------------------

OCAML_EDITS = {"calls": {"tool": ["Edit", "Write"], "path": ["*.ml", "*.mli"]}, "at_least": 2}


def test_a_declarative_trigger_is_retuned_by_restating_its_check(
    manager: PackManager, workspace: Path
) -> None:
    catalogue = build(manager, workspace, **{"static-analysis": {"trigger": {"match": OCAML_EDITS}}})
    assert catalogue.errors == []
    found = catalogue.get("static-analysis")
    assert found is not None and found.origins["trigger"] == "override"
    trigger = found.definition.trigger
    assert trigger is not None and trigger.name == "sbcore.match" and trigger.params == OCAML_EDITS


def test_a_workspace_layer_retunes_a_declarative_trigger_with_file_and_line_on_error(
    manager: PackManager, workspace: Path
) -> None:
    layer = workspace / ".second-brain" / "config.yaml"
    layer.parent.mkdir()
    layer.write_text(
        "detectors:\n  prior-art:\n    trigger:\n      match:\n        calls: {tool: Write, path: '*.ml'}\n"
    )
    catalogue = assemble_catalogue(manager, workspace=workspace)
    assert catalogue.errors == []
    prior = definition(catalogue, "prior-art")
    assert prior.trigger is not None and prior.trigger.params == {"calls": {"tool": "Write", "path": "*.ml"}}

    broken = {"tool": "Write", "command": "(unclosed"}
    layer.write_text(
        "detectors:\n  prior-art:\n    trigger:\n      match:\n"
        "        calls: {tool: Write, command: '(unclosed'}\n"
    )
    catalogue = assemble_catalogue(manager, workspace=workspace)
    [error] = catalogue.errors
    assert error.source.path == str(layer) and error.key is not None
    assert error.key.startswith("detectors.prior-art.trigger.match")
    kept = definition(catalogue, "prior-art").trigger
    assert kept is not None and kept.params != {"calls": broken}  # the file's own check stays


@pytest.mark.parametrize(
    ("detector", "trigger", "problem"),
    [
        ("static-analysis", {"params": {"at_least": 2}}, "declarative: override trigger.match"),
        ("repeat-failure", {"match": OCAML_EDITS}, "not declarative: override trigger.params"),
        ("default", {"match": OCAML_EDITS}, "no trigger to override"),
    ],
)
def test_a_trigger_override_of_the_wrong_kind_is_refused(
    manager: PackManager, workspace: Path, detector: str, trigger: dict[str, Any], problem: str
) -> None:
    catalogue = build(manager, workspace, **{detector: {"trigger": trigger}})
    assert [problem in error.problem for error in catalogue.errors] == [True]
