"""Detector loading: good files load, broken files fail with a chain naming file, line and key.

Each broken fixture's rendered message is snapshot-tested (one snapshot per
case). Paths are given relative to this directory, so messages carry no
machine-specific prefix.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jinja2.exceptions import SecurityError, UndefinedError

from sbcore.packs.declarative import DECLARATIVE_TRIGGER
from sbcore.packs.errors import CatalogueError, ErrorChain, duplicate_error, render_chains
from sbcore.packs.loader import (
    catalogue_files,
    load_catalogue,
    load_detector_file,
    validate_detector_data,
)
from sbcore.packs.model import Cadence, DetectorDef, SourceRef, ToolGrant, TriggerRef
from sbcore.packs.templates import PROMPT_INPUTS, check_template, make_environment, render
from sbcore.schemas import load_schema

HERE = Path(__file__).parent

TRIGGERS: dict[str, dict[str, Any] | None] = {
    "repeat_failure": {
        "type": "object",
        "properties": {
            "min_failures": {
                "type": "integer",
                "minimum": 2,
                "description": "How many failures in a row fire the trigger.",
            }
        },
        "additionalProperties": False,
    },
    "turn_end": None,
}
KNOWN_TOOLS = {"ticket-lookup"}
MCP_SERVERS = {"search", "docs"}

# case -> the files loaded together (duplicate-id needs two).
BROKEN_CASES: dict[str, list[str]] = {
    name: [f"broken/{name}.yaml"]
    for name in (
        "alias-bomb",
        "bad-id",
        "bad-mcp-grant",
        "bad-trigger-params",
        "config-violates-schema",
        "declarative-bad-keys",
        "declarative-bad-patterns",
        "declarative-bad-selector-list",
        "declarative-name-and-match",
        "declarative-reserved-name",
        "duplicate-key",
        "every-nth-zero",
        "fallback-undeclared-input",
        "fallback-without-trigger",
        "floor-out-of-range",
        "huge-power",
        "invalid-config-schema",
        "jinja-syntax",
        "many-problems",
        "missing-prompt-file",
        "missing-required",
        "negative-deadline",
        "non-json-value",
        "not-a-mapping",
        "on-trigger-without-trigger",
        "prompt-and-prompt-file",
        "prompt-file-escapes",
        "prompt-file-symlink-out",
        "prompt-file-template-error",
        "run-metachar",
        "schema-extends-other",
        "schema-redefines-verdict",
        "schema-required-unknown",
        "schema-version-2",
        "undeclared-variable",
        "unknown-filter",
        "unknown-key",
        "unknown-tool",
        "unknown-trigger",
        "wrong-type",
        "yaml-syntax",
    )
}
BROKEN_CASES["duplicate-id"] = ["broken/duplicate-id-a.yaml", "broken/duplicate-id-b.yaml"]


@pytest.fixture(autouse=True)
def _relative_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(HERE)


def _load(paths: list[str], **overrides: Any) -> list[DetectorDef]:
    options: dict[str, Any] = {
        "pack": "test",
        "known_tools": KNOWN_TOOLS,
        "triggers": TRIGGERS,
        "mcp_servers": MCP_SERVERS,
        "on_warning": lambda chain: None,
    }
    options.update(overrides)
    return load_catalogue([Path(p) for p in paths], **options)


def _chains(paths: list[str], **overrides: Any) -> list[ErrorChain]:
    with pytest.raises(CatalogueError) as info:
        _load(paths, **overrides)
    return info.value.chains


# -- broken files --------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(BROKEN_CASES))
def test_broken_file_is_reported(case: str, snapshot: Any) -> None:
    chains = _chains(BROKEN_CASES[case])
    assert chains
    for chain in chains:
        assert chain.source.line is not None, chain.render()
        assert not Path(chain.source.path).is_absolute()
        assert chain.source.path.startswith("broken/")
    assert render_chains(chains) == snapshot


def test_every_broken_fixture_is_a_case() -> None:
    on_disk = {f"broken/{p.name}" for p in (HERE / "broken").glob("*.yaml")}
    assert on_disk == {path for paths in BROKEN_CASES.values() for path in paths}


def test_duplicate_id_files_are_each_valid_alone() -> None:
    for path in BROKEN_CASES["duplicate-id"]:
        assert [d.id for d in _load([path])] == ["duplicate-id"]


def test_all_errors_of_all_files_come_in_one_exception() -> None:
    every = sorted({path for paths in BROKEN_CASES.values() for path in paths})
    chains = _chains(every)
    reported = {c.source.path for c in chains} | {"broken/prompt-file-template-error.yaml"}  # blames its .j2
    assert reported >= {p for p in every if "duplicate-id" not in p}
    assert sum(1 for c in chains if c.source.path == "broken/many-problems.yaml") == 6


def test_error_order_is_deterministic() -> None:
    first = render_chains(_chains(["broken/many-problems.yaml"]))
    assert all(render_chains(_chains(["broken/many-problems.yaml"])) == first for _ in range(3))


def test_schema_version_gate_hides_the_rest() -> None:
    chains = _chains(["broken/schema-version-2.yaml"])
    assert [c.key for c in chains] == ["schema_version"]


def test_missing_path_is_reported() -> None:
    chains = _chains(["broken/no-such-file.yaml"])
    assert chains[0].render() == "==> File broken/no-such-file.yaml\n=====> no such file or directory"


def test_undecodable_file(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"id: caf\xe9\n")
    chains = _chains([str(bad)])
    assert "not UTF-8 text" in chains[0].problem


def test_empty_file_is_not_a_detector(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing here\n")
    (chain,) = _chains([str(empty)])
    assert chain.problem == "expected a mapping of detector keys, got an empty document"


# -- triggers ------------------------------------------------------------------


def test_disabled_detector_with_unknown_trigger_loads_with_a_warning() -> None:
    warnings: list[ErrorChain] = []
    (detector,) = _load(["good/disabled-unknown-trigger.yaml"], on_warning=warnings.append)
    assert detector.enabled is False
    assert detector.trigger == TriggerRef("cross_task_collision", {})
    (warning,) = warnings
    assert warning.severity == "warning"
    assert warning.key == "trigger.name"
    assert "=====> warning: trigger 'cross_task_collision' is not available" in warning.render()


def test_enabling_a_detector_whose_trigger_is_missing_fails() -> None:
    raw = _load(["good/disabled-unknown-trigger.yaml"])[0].raw
    source = SourceRef("good/disabled-unknown-trigger.yaml", 2)
    with pytest.raises(CatalogueError) as info:
        validate_detector_data({**raw, "enabled": True}, source=source, pack="test", triggers=TRIGGERS)
    (chain,) = info.value.chains
    assert chain.problem == "trigger 'cross_task_collision' is not available: no installed pack registers it"
    assert chain.severity == "error"


def test_trigger_without_params_schema_accepts_any_params() -> None:
    (detector,) = _load(["good/turn-end.yml"])
    assert detector.trigger == TriggerRef("turn_end", {"anything": "goes"})
    assert detector.cadence == Cadence("turn_end")


def test_declarative_trigger_loads_as_the_reserved_trigger_whatever_the_packs_register() -> None:
    (detector,) = _load(["good/declarative.yaml"], triggers={})
    assert detector.trigger is not None
    assert detector.trigger.name == DECLARATIVE_TRIGGER
    assert detector.trigger.params == {
        "calls": {"tool": ["Edit", "Write"], "path": ["src/**/*.py", "lib/*.py"], "outcome": "succeeded"},
        "absent": {"tool": "Bash", "command": "pytest|python -m pytest", "text": "passed"},
        "within": {"last": 50, "minutes": 30, "since": "prompt"},
        "at_least": 2,
    }


def test_declarative_trigger_cannot_be_overridden_by_params() -> None:
    raw = _load(["good/declarative.yaml"])[0].raw
    trigger = {**raw["trigger"], "params": {"min_failures": 2}}
    with pytest.raises(CatalogueError) as info:
        validate_detector_data(
            {**raw, "trigger": trigger}, source=SourceRef("good/declarative.yaml", 2), pack="test"
        )
    assert [chain.key for chain in info.value.chains] == ["trigger"]


# -- MCP servers -----------------------------------------------------------------


def test_mcp_servers_are_unchecked_when_not_given() -> None:
    (detector,) = _load(["good/full.yaml"], mcp_servers=None)
    assert "mcp:docs/*" in detector.grant_names


def test_mcp_server_must_be_configured_when_servers_are_given() -> None:
    chains = _chains(["good/full.yaml"], mcp_servers={"search"})
    assert [(c.key, c.problem) for c in chains] == [("tools[5]", "no MCP server named 'docs' is configured")]


# -- good files -----------------------------------------------------------------


def test_every_good_file_loads() -> None:
    detectors = _load(["good"])
    assert [d.id for d in detectors] == [
        "declarative",
        "disabled-unknown-trigger",
        "every-nth",
        "full",
        "minimal",
        "turn-end",
    ]
    assert all(d.pack == "test" for d in detectors)


def test_catalogue_files_skips_non_yaml() -> None:
    names = [p.name for p in catalogue_files([Path("good")])]
    assert names == sorted(names)
    assert "prompts" not in names
    assert all(name.endswith((".yaml", ".yml")) for name in names)


def test_minimal_detector_gets_the_defaults() -> None:
    detector = load_detector_file("good/minimal.yaml", pack="p")
    assert detector.source == SourceRef("good/minimal.yaml", 2)
    assert str(detector.source) == "good/minimal.yaml:2"
    assert (detector.status, detector.enabled) == ("preview", False)
    assert detector.tools == ()
    assert detector.cadence == Cadence("every_pass")
    assert detector.trigger is None
    assert detector.deadline_s is None
    assert detector.max_iterations == 4
    assert detector.confidence_floor is None and detector.finish_gate_floor is None
    assert detector.config == {} and detector.config_schema is None
    assert detector.fallback is None and detector.extras == {}
    assert detector.schema == load_schema("feedback_v1")


def test_full_detector_is_normalised() -> None:
    (detector,) = _load(["good/full.yaml"])
    assert detector.source == SourceRef("good/full.yaml", 3)
    assert detector.prompt == (HERE / "good/prompts/full.j2").read_text()
    assert detector.tools == (
        ToolGrant("builtin", "Read"),
        ToolGrant("builtin", "Grep"),
        ToolGrant("builtin", "Glob"),
        ToolGrant(
            "run",
            "Run",
            commands=("git log -n 20 --oneline", "git blame -- README.md", "git status --short"),
        ),
        ToolGrant("mcp", "mcp:search/query", server="search", tool="query"),
        ToolGrant("mcp", "mcp:docs/*", server="docs", tool="*"),
        ToolGrant("pack", "ticket-lookup"),
    )
    assert detector.run_commands == (
        "git log -n 20 --oneline",
        "git blame -- README.md",
        "git status --short",
    )
    assert detector.cadence == Cadence("on_trigger")
    assert str(Cadence("every_nth", 3)) == "every_nth: 3"
    assert detector.trigger == TriggerRef("repeat_failure", {"min_failures": 3})
    assert (detector.deadline_s, detector.max_iterations) == (8.0, 6)
    assert (detector.confidence_floor, detector.finish_gate_floor) == (0.6, 0.8)
    assert detector.extras == {"x-owner": "platform-team", "x-tags": ["ci", "tests"]}
    assert detector.fallback is not None and detector.fallback["confidence"] == 0.75


def test_extended_feedback_schema_is_merged() -> None:
    (detector,) = _load(["good/full.yaml"])
    base = load_schema("feedback_v1")
    schema = detector.schema
    assert "$id" not in schema
    assert schema["additionalProperties"] is False
    assert schema["properties"]["severity"] == {"enum": ["low", "high"]}
    assert {k: v for k, v in schema["properties"].items() if k != "severity"} == base["properties"]
    assert schema["required"] == ["verdict", "severity", "headline"]
    assert schema["description"] == "Adds a severity to feedback_v1."


def test_prompt_renders_with_the_declared_inputs() -> None:
    (detector,) = _load(["good/full.yaml"])
    text = render(
        detector.prompt,
        detector={"id": detector.id, "description": detector.description},
        config=detector.config,
        budget={"deadline_s": 8, "body_cap": 400, "max_iterations": 6},
        grant=detector.grant_names,
        open_advisories=[{"headline": "tests not run"}],
        match={"summary": "pytest failed 3 times"},
    )
    assert "You are full. You have about 8 s and 400 characters." in text
    assert "You may use: Read, Grep, Glob, Run, mcp:search/query, mcp:docs/*, ticket-lookup." in text
    assert "- still open: tests not run" in text
    assert "The trigger matched: pytest failed 3 times" in text
    assert "- Were the tests run?" in text


def test_fallback_renders_from_the_match() -> None:
    (detector,) = _load(["good/full.yaml"])
    assert detector.fallback is not None
    inputs: dict[str, Any] = {
        "detector": {"id": detector.id},
        "config": detector.config,
        "match": {"key": "pytest", "data": {"command": "pytest -x", "failures": 3}},
    }
    assert render(detector.fallback["headline"], **inputs) == "`pytest -x` failed 3 times"
    assert render(detector.fallback["dedup_key"], **inputs) == "full:pytest"


def test_literal_block_prompt_keeps_its_lines() -> None:
    (detector,) = _load(["good/every-nth.yaml"])
    text = render(
        detector.prompt,
        detector={"id": "every-nth", "description": "d"},
        open_advisories=[1, 2],
        config={},
        budget={},
        grant=[],
        match=None,
    )
    assert text == "Look again at what every-nth is for: d\nOpen advisories: 2\n"


def test_validate_detector_data_without_yaml_positions() -> None:
    data = {"schema_version": 1, "id": "inline", "description": "d", "prompt": "{{ nope }}"}
    with pytest.raises(CatalogueError) as info:
        validate_detector_data(data, source=SourceRef("overrides.yaml", 7), pack="workspace")
    (chain,) = info.value.chains
    assert chain.render() == (
        "==> File overrides.yaml:7\n"
        "==> At detector 'inline'\n"
        "==> At key: prompt\n"
        "=====> undeclared template variable 'nope'\n"
        "hint: templates may use only: budget, config, detector, grant, match, open_advisories"
    )
    ok = validate_detector_data({**data, "prompt": "hi"}, source=SourceRef("overrides.yaml", 7), pack="w")
    assert (ok.id, ok.pack, ok.source) == ("inline", "w", SourceRef("overrides.yaml", 7))


# -- duplicates across packs ---------------------------------------------------------


def test_duplicate_error_names_both_packs() -> None:
    (first,) = _load(["broken/duplicate-id-a.yaml"], pack="alpha")
    (second,) = _load(["broken/duplicate-id-b.yaml"], pack="beta")
    assert duplicate_error("duplicate-id", first, second).render() == (
        "==> File broken/duplicate-id-b.yaml:3\n"
        "==> At detector 'duplicate-id'\n"
        "==> At key: id\n"
        "=====> duplicate detector id 'duplicate-id': pack 'beta' defines it here and pack 'alpha' "
        "at broken/duplicate-id-a.yaml:2\n"
        "hint: detector ids are unique across all installed packs: rename one of them, "
        "or uninstall one of the two packs"
    )


# -- templates ------------------------------------------------------------------


def test_pack_filters_count_when_the_environment_has_them() -> None:
    source = "{% if match %}{{ match.summary | shout }}{% endif %}"
    assert [p.message for p in check_template(source, PROMPT_INPUTS)] == ["no filter named 'shout'"]

    def prepare(env: Any) -> None:
        env.filters["shout"] = str.upper

    env = make_environment(prepare)
    assert check_template(source, PROMPT_INPUTS, env) == []
    assert "shout" not in make_environment().filters
    assert render(source, environment=env, match={"summary": "it broke"}) == "IT BROKE"
    (detector,) = _load(["broken/unknown-filter.yaml"], environment=env)
    assert detector.id == "unknown-filter"


def test_unknown_filter_does_not_hide_undeclared_variables() -> None:
    env = make_environment()
    problems = check_template("{{ window | shout }}\n{{ detecter.id }}", PROMPT_INPUTS, env)
    assert [(p.line, p.message) for p in problems] == [
        (1, "no filter named 'shout'"),
        (1, "undeclared template variable 'window'"),
        (2, "undeclared template variable 'detecter'"),
    ]
    assert "shout" not in env.filters  # the stand-in never leaks into the real environment


@pytest.mark.parametrize(
    "source",
    ['{% extends "base.j2" %}', '{% include "other.j2" %}', '{% import "m.j2" as m %}'],
)
def test_templates_cannot_pull_in_other_templates(source: str) -> None:
    (problem,) = check_template(source, PROMPT_INPUTS)
    assert problem.message == "templates cannot extend, include or import other templates"


def test_locals_loops_and_globals_are_not_inputs() -> None:
    source = "{% set n = 2 %}{% for i in range(n) %}{{ loop.index }}{{ i }}{% endfor %}{{ namespace }}"
    assert check_template(source, PROMPT_INPUTS) == []


def test_render_is_strict() -> None:
    with pytest.raises(UndefinedError):
        render("{{ detector.idd }}", detector={"id": "x"})


@pytest.mark.parametrize(
    "source",
    [
        "{{ config.__class__.__mro__ }}",
        "{{ config.questions.append(1) }}",
        "{{ config.update({'a': 1}) }}",
    ],
)
def test_render_is_sandboxed_and_cannot_mutate_inputs(source: str) -> None:
    config: dict[str, Any] = {"questions": []}
    with pytest.raises((SecurityError, UndefinedError)):
        render(source, config=config)
    assert config == {"questions": []}


# -- second-brain detectors validate ------------------------------------------------


@pytest.fixture
def cli_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registrations as installed packs would provide them (the plugin manager's job in production)."""
    from sbcore.cli import detectors

    context = detectors.ValidationContext(known_tools=KNOWN_TOOLS, triggers=TRIGGERS, mcp_servers=MCP_SERVERS)
    monkeypatch.setattr(detectors, "validation_context", lambda: context)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from sbcore.cli import main

    code = main(["detectors", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.usefixtures("cli_context")
def test_cli_validates_good_files(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "validate", "good/minimal.yaml", "good/full.yaml")
    assert (code, out) == (0, "2 detectors OK\n")


@pytest.mark.usefixtures("cli_context")
def test_cli_prints_warnings_and_strict_fails_on_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "validate", "good")
    assert code == 0
    assert out.endswith("\n\n6 detectors OK (1 warning)\n")
    assert "=====> warning: trigger 'cross_task_collision' is not available" in out

    code, out, _ = _cli(capsys, "validate", "--strict", "good")
    assert code == 1
    assert "=====> trigger 'cross_task_collision' is not available" in out
    assert out.endswith("\n\n1 error in 1 file\n")


@pytest.mark.usefixtures("cli_context")
def test_cli_reports_every_problem(capsys: pytest.CaptureFixture[str], snapshot: Any) -> None:
    code, out, _ = _cli(
        capsys, "validate", "broken/unknown-key.yaml", "good/minimal.yaml", "broken/bad-id.yaml"
    )
    assert code == 1
    assert out == snapshot


@pytest.mark.usefixtures("cli_context")
def test_cli_reports_a_whole_directory(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "validate", "broken")
    assert code == 1
    expected = _chains([str(p) for p in catalogue_files([Path("broken")])])
    assert out.endswith(f"{len(expected)} errors in {len({c.source.path for c in expected})} files\n")
    assert render_chains(expected) in out


@pytest.mark.usefixtures("cli_context")
def test_cli_empty_directory_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _cli(capsys, "validate", str(tmp_path))
    assert code == 1
    assert f"==> File {tmp_path}\n=====> no detector files (*.yaml, *.yml) in this directory" in out


def test_effective_sources_default_to_the_builtin_catalogue() -> None:
    from sbcore.cli.detectors import effective_sources

    ((pack, path),) = effective_sources()
    assert pack == "builtin"
    assert (path / "__init__.py").is_file()


def test_validate_sources_catches_duplicates_across_packs() -> None:
    from sbcore.cli.detectors import ValidationContext, validate_sources

    report = validate_sources(
        [("alpha", Path("broken/duplicate-id-a.yaml")), ("beta", Path("broken/duplicate-id-b.yaml"))],
        ValidationContext(),
    )
    assert [d.pack for d in report.detectors] == ["alpha"]
    (error,) = report.errors
    assert "pack 'beta' defines it here and pack 'alpha' at broken/duplicate-id-a.yaml:2" in error.problem


def test_cli_group_without_action_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(capsys)
    assert (code, out) == (2, "")
    assert "validate" in err and "schema" in err


def test_cli_prints_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from sbcore.schemas import schema_path

    code, out, _ = _cli(capsys, "schema")
    assert code == 0 and json.loads(out) == load_schema("detector")
    code, out, _ = _cli(capsys, "schema", "feedback_v1")
    assert code == 0 and json.loads(out) == load_schema("feedback_v1")
    code, out, _ = _cli(capsys, "schema", "--path")
    assert (code, out) == (0, f"{schema_path('detector')}\n")


# -- what a template computes is bounded ------------------------------------------------------------


@pytest.mark.timeout(30)  # a guard against the hang this test is about, not a timing assertion
@pytest.mark.parametrize(
    "source",
    [
        "{{ 9 ** (9 ** 9) }}",
        "{% set n = 7 ** 99999999 %}{{ n }}",
        "{{ 'x' * 10 ** 9 }}",
        "{{ '%400000000s' % 'x' }}",  # a '%' format's width: folded while compiling unless intercepted
        "{{ '%.900000000f' % 1.5 }}",
    ],
)
def test_a_constant_too_large_to_compute_is_a_loading_problem_at_its_line(source: str) -> None:
    (problem,) = check_template("ok\n" + source, PROMPT_INPUTS)
    assert problem.line == 2 and problem.message.startswith("template computes too much")


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("source", "inputs", "refused"),
    [
        ("{{ config.base ** config.power }}", {"config": {"base": 9, "power": 387420489}}, "power"),
        ("{{ config.word * config.times }}", {"config": {"word": "ab", "times": 10**9}}, "repeating"),
        ("{{ config.word|center(config.width) }}", {"config": {"word": "x", "width": 10**9}}, "center"),
        ("{{ config.word|indent(width=config.width) }}", {"config": {"word": "x", "width": 10**9}}, "indent"),
        ("{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}", {}, "longer"),
        ("{% for a in range(100000) %}{{ 'abcdefgh' * 100 }}{% endfor %}", {}, "characters"),
        # one C call builds these whole, before any time bound or output cap could stop it
        ("{{ config.word % config.x }}", {"config": {"word": "%500000000s", "x": "x"}}, "'%' format"),
        ("{{ '%*s' % (config.width, 'x') }}", {"config": {"width": 10**9}}, "'\\*' size"),
        ("{{ config.word|format('x') }}", {"config": {"word": "%500000000s"}}, "'%' format"),
        ("{{ '{:>500000000}'.format(config.word) }}", {"config": {"word": "x"}}, "format field"),
        ("{{ '{:>{}}'.format('x', config.width) }}", {"config": {"width": 10**9}}, "nested size"),
        ("{{ '{w:>{n}}'.format_map(config) }}", {"config": {"w": "x", "n": 10**9}}, "nested size"),
        ("{{ config.word.ljust(config.width) }}", {"config": {"word": "x", "width": 10**9}}, "'ljust'"),
        ("{{ config.word.zfill(config.width) }}", {"config": {"word": "1", "width": 10**9}}, "'zfill'"),
        ("{{ config.w.expandtabs(config.width) }}", {"config": {"w": "a\tb", "width": 10**9}}, "expandtabs"),
    ],
)
def test_rendering_refuses_what_is_too_large_or_too_long(
    source: str, inputs: dict[str, Any], refused: str
) -> None:
    with pytest.raises(SecurityError, match=refused):
        render(source, **inputs)


def test_ordinary_arithmetic_and_filters_still_render() -> None:
    source = "{{ 3 * 4 }} {{ 2 ** 10 }} {{ 'ab' * 3 }} [{{ 'x'|center(5) }}] {{ 'a b c'|wordwrap(3) }}"
    assert render(source) == "12 1024 ababab [  x  ] a b\nc"
    formats = (
        "{{ 17 % 5 }} {{ '%5s|%.2f' % ('x', 3.14159) }} {{ '{:>4}|{:.1f}'.format('y', 2.25) }}"
        " {{ 'a'.ljust(3, '-') }}"
    )
    assert render(formats) == "2     x|3.14    y|2.2 a--"
