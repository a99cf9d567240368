"""The sbcore pytest plugin, exercised in throwaway projects (pytester) against the installed built-in pack.

The inner sessions run in process; pytester forgets the modules each one
imports, so the golden runner is imported and warmed up here, once, and the
inner sessions reuse it (the installed packs do not change between them).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sbcore.testing.golden_cases import load_case
from sbcore.testing.goldens import default_runner

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]

HEADER = "# a golden case written by test_pytest_plugin.py\n"
FIRES = HEADER + textwrap.dedent(
    """\
    description: Three failures of one command.
    label: must_fire
    observations:
      - {kind: tool, tool: Bash, tool_use_id: t1, args: {command: make}}
      - {kind: error, tool: Bash, tool_use_id: t1, text: "make: *** [all] Error 1"}
      - {kind: tool, tool: Bash, tool_use_id: t2, args: {command: make}}
      - {kind: error, tool: Bash, tool_use_id: t2, text: "make: *** [all] Error 1"}
      - {kind: tool, tool: Bash, tool_use_id: t3, args: {command: make}}
      - {kind: error, tool: Bash, tool_use_id: t3, text: "make: *** [all] Error 1"}
    expect: {dedup_key: "repeat-failure:make"}
    """
)
SILENT = HEADER + textwrap.dedent(
    """\
    description: One failure, then a success.
    label: must_stay_silent
    observations:
      - {kind: tool, tool: Bash, tool_use_id: t1, args: {command: make}}
      - {kind: error, tool: Bash, tool_use_id: t1, text: "make: *** [all] Error 1"}
      - {kind: tool, tool: Bash, tool_use_id: t2, args: {command: make}}
      - {kind: text, text: Built.}
    """
)
MODEL_ONLY = HEADER + textwrap.dedent(
    """\
    description: A case of a detector that only a model can judge.
    label: must_fire
    observations:
      - {kind: prompt, text: Fix the bug.}
    """
)
TEST_FILE = textwrap.dedent(
    """\
    import pytest

    @pytest.mark.sbcore_goldens("builtin")
    def test_golden(golden_case, snapshot):
        golden_case.check(snapshot)
    """
)


@pytest.fixture(scope="module", autouse=True)
def warm_runner() -> None:
    """Run one real case first, so every module a case needs is imported outside the inner sessions."""
    import syrupy.extensions.json  # noqa: F401

    result = default_runner().run(
        load_case(ROOT / "goldens/builtin/repeat-failure/three-identical-failures.yaml")
    )
    assert result.outcome == "passed", result.report()


def write(pytester: pytest.Pytester, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = Path(pytester.path, relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_marker_parametrizes_cases_and_snapshots_decisions(pytester: pytest.Pytester) -> None:
    write(
        pytester,
        {
            "goldens/builtin/repeat-failure/fires.yaml": FIRES,
            "goldens/builtin/repeat-failure/silent.yaml": SILENT,
            "test_inner_goldens.py": TEST_FILE,
        },
    )
    missing = pytester.runpytest("-v")
    missing.assert_outcomes(failed=2)
    missing.stdout.fnmatch_lines(
        [
            "*fires.yaml: no snapshot of this case's decision is recorded yet*",
            "*record it with: pytest --snapshot-update"
            " 'test_inner_goldens.py::test_golden[[]builtin.repeat-failure.fires[]]'*",
        ]
    )

    pytester.runpytest("--snapshot-update").assert_outcomes(passed=2)
    snapshots = sorted(p.name for p in Path(pytester.path, "__snapshots__", "test_inner_goldens").iterdir())
    assert snapshots == [
        "test_golden[builtin.repeat-failure.fires].json",
        "test_golden[builtin.repeat-failure.silent].json",
    ]

    again = pytester.runpytest("-v")
    again.assert_outcomes(passed=2)
    again.stdout.fnmatch_lines(
        ["*test_golden[[]builtin.repeat-failure.fires[]] PASSED*", "*2 snapshots passed*"]
    )

    # A change in behaviour shows up as a snapshot diff, not a silent pass.
    write(
        pytester,
        {"goldens/builtin/repeat-failure/fires.yaml": FIRES.replace("[all] Error 1", "[all] Error 2")},
    )
    changed = pytester.runpytest()
    changed.assert_outcomes(passed=1, failed=1)
    changed.stdout.fnmatch_lines(
        [
            "*fires.yaml: the decision differs from its snapshot*",
            "*re-record it with: pytest --snapshot-update*fires[]]'*",
        ]
    )


def test_a_case_contradicting_its_label_fails_naming_the_file(pytester: pytest.Pytester) -> None:
    write(
        pytester,
        {
            "goldens/builtin/repeat-failure/wrong.yaml": FIRES.replace(
                "label: must_fire", "label: must_stay_silent"
            ).replace('expect: {dedup_key: "repeat-failure:make"}\n', ""),
            "test_inner_goldens.py": TEST_FILE,
        },
    )
    result = pytester.runpytest("--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*goldens/builtin/repeat-failure/wrong.yaml (must_stay_silent): Three failures of one command.",
            "*failed: expected silence, but the detector advised: '`make` has failed 3 times in a row: *'",
        ]
    )
    assert not Path(pytester.path, "__snapshots__").exists()


def test_model_only_cases_are_pending_never_passed(pytester: pytest.Pytester) -> None:
    write(
        pytester,
        {"goldens/builtin/default/needs-a-model.yaml": MODEL_ONLY, "test_inner_goldens.py": TEST_FILE},
    )
    result = pytester.runpytest("-rs", "--snapshot-update")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["*pending: model-only detector: the case records no provider I/O (provider_io) to replay its fork*"]
    )
    assert not Path(pytester.path, "__snapshots__").exists()


def test_an_invalid_case_fails_alone_with_its_errors(pytester: pytest.Pytester) -> None:
    write(
        pytester,
        {
            "goldens/builtin/repeat-failure/fires.yaml": FIRES,
            "goldens/builtin/repeat-failure/typo.yaml": SILENT.replace("label:", "lable:"),
            "test_inner_goldens.py": TEST_FILE,
        },
    )
    result = pytester.runpytest("--snapshot-update")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*invalid golden case *typo.yaml:",
            "==> File *typo.yaml:3",
            "==> At detector 'repeat-failure'",
            "=====> unknown key 'lable'",
            "hint: Typo? did you mean 'label'?",
        ]
    )


def test_no_cases_for_a_marked_pack_is_an_error(pytester: pytest.Pytester) -> None:
    write(pytester, {"test_inner_goldens.py": TEST_FILE.replace('"builtin"', '"nothing-here"')})
    result = pytester.runpytest()
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*no golden cases (<pack>/<detector>/<case>.yaml) under *nothing-here*"])


def test_the_goldens_root_comes_from_the_ini_option_or_the_marker(pytester: pytest.Pytester) -> None:
    write(
        pytester,
        {
            "cases/builtin/repeat-failure/fires.yaml": FIRES,
            "elsewhere/builtin/repeat-failure/silent.yaml": SILENT,
            "pyproject.toml": '[tool.pytest.ini_options]\nsbcore_goldens = "cases"\n',
            "test_inner_goldens.py": TEST_FILE
            + textwrap.dedent(
                """
                @pytest.mark.sbcore_goldens("builtin", root="elsewhere")
                def test_elsewhere(golden_case, snapshot):
                    golden_case.check(snapshot)
                """
            ),
        },
    )
    result = pytester.runpytest("-v", "--snapshot-update")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*test_golden[[]builtin.repeat-failure.fires[]] PASSED*",
            "*test_elsewhere[[]builtin.repeat-failure.silent[]] PASSED*",
        ]
    )


def test_flag_collects_case_files_as_items(pytester: pytest.Pytester) -> None:
    write(
        pytester,
        {
            "goldens/builtin/repeat-failure/fires.yaml": FIRES,
            "goldens/builtin/default/needs-a-model.yaml": MODEL_ONLY,
            "goldens/ghost/some-detector/case.yaml": SILENT,
            "goldens/README.yaml": "not: a case\n",
        },
    )
    assert pytester.runpytest().ret == pytest.ExitCode.NO_TESTS_COLLECTED

    only_builtin = pytester.runpytest("--sbcore-goldens", "--sbcore-pack", "builtin", "-v", "-rs")
    only_builtin.assert_outcomes(passed=1, skipped=1)
    only_builtin.stdout.fnmatch_lines(["*builtin.repeat-failure.fires PASSED*"])

    everything = pytester.runpytest("--sbcore-goldens")
    everything.assert_outcomes(passed=1, skipped=1, failed=1)
    everything.stdout.fnmatch_lines(["*no pack named 'ghost' is installed*"])


def test_shared_corpus_cases_get_the_corpus_mark_when_the_project_has_it(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SBCORE_SHARED_DIR", str(tmp_path / "absent"))
    corpus_case = HEADER + textwrap.dedent(
        """\
        description: From the shared corpus.
        label: must_stay_silent
        transcript: {path: "shared:corpus/transcripts/x.jsonl"}
        """
    )
    write(
        pytester,
        {
            "goldens/builtin/repeat-failure/corpus.yaml": corpus_case,
            "goldens/builtin/repeat-failure/silent.yaml": SILENT,
            "pyproject.toml": '[tool.pytest.ini_options]\nmarkers = ["corpus: reads ../shared/corpus"]\n',
            "test_inner_goldens.py": TEST_FILE,
        },
    )
    deselected = pytester.runpytest("-m", "not corpus", "--snapshot-update")
    deselected.assert_outcomes(passed=1, deselected=1)
    absent = pytester.runpytest("-rs", "--snapshot-update")
    absent.assert_outcomes(passed=1, skipped=1)
    absent.stdout.fnmatch_lines(["*skipped: shared transcript corpus/transcripts/x.jsonl is not available*"])
