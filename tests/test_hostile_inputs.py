"""Hostile inputs through `config show`, `project`, `measure` and `replay`, as a user would meet them.

Each case runs the real command in a child process (:mod:`sbcore.bench.hostile`): it must end with a clear
message or a correct result, never a traceback, and a FIFO must be refused, not opened. The large-file case
checks memory stays far below the file's size (the child's own peak RSS); its wall time and
the others' are figures of ``second-brain bench hostile``, not assertions.
"""

from __future__ import annotations

import os

import pytest

from sbcore.bench.hostile import CaseResult, hostile_cases, run_cli, write_large


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], CaseResult]:
    root = tmp_path_factory.mktemp("hostile")
    env = dict(os.environ, SBCORE_CONFIG_DIR=str(root / "config"), SBCORE_DATA_DIR=str(root / "data"))
    env.pop("CLAUDE_PLUGIN_DATA", None)
    out = {}
    for case, argv, cwd in hostile_cases(root):
        result = run_cli(case, argv, cwd=cwd, env=env, timeout_s=60)
        out[(case, argv[0])] = result
    return out


def test_no_hostile_input_prints_a_traceback(results: dict[tuple[str, str], CaseResult]) -> None:
    assert len(results) == 11
    assert [key for key, result in results.items() if result.traceback] == []


def test_an_alias_bomb_layer_is_refused_with_file_and_line(
    results: dict[tuple[str, str], CaseResult],
) -> None:
    result = results[("alias bomb layer", "config")]
    assert "==> File " in result.stderr_tail and "bomb-ws/.second-brain/config.yaml:7 " in result.stderr_tail
    assert "=====> not valid YAML" in result.stderr_tail
    assert "alias bomb" in result.stderr_tail


@pytest.mark.parametrize("command", ["project", "measure", "replay"])
def test_a_fifo_transcript_is_refused_not_opened(
    results: dict[tuple[str, str], CaseResult], command: str
) -> None:
    result = results[("FIFO", command)]
    assert result.exit_status == 2
    assert (
        "fifo.jsonl" in result.stderr_tail and "a FIFO (named pipe), not a regular file" in result.stderr_tail
    )


def test_a_fifo_layer_is_skipped_with_a_reason(results: dict[tuple[str, str], CaseResult]) -> None:
    tail = results[("FIFO layer", "config")].stderr_tail
    assert "cannot read the file: " in tail and "a FIFO (named pipe), not a regular file" in tail


@pytest.mark.parametrize("case", ["deep line", "half-written line"])
@pytest.mark.parametrize("command", ["project", "measure", "replay"])
def test_bad_lines_are_counted_and_the_rest_is_read(
    results: dict[tuple[str, str], CaseResult], case: str, command: str
) -> None:
    assert results[(case, command)].exit_status == 0


def test_project_names_the_deep_line_and_the_half_written_one(
    results: dict[tuple[str, str], CaseResult],
) -> None:
    assert results[("deep line", "project")].stderr_tail.endswith("deep.jsonl:22: not a JSON object; skipped")
    assert (
        "half.jsonl:41: the last line is incomplete" in results[("half-written line", "project")].stderr_tail
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [["project"], ["measure", "--repeat", "1"], ["replay"], ["replay", "--json"]],
    ids=["project", "measure", "replay", "replay-json"],
)
def test_a_200_mb_transcript_is_read_in_bounded_memory(
    tmp_path_factory: pytest.TempPathFactory, command: list[str]
) -> None:
    root = tmp_path_factory.getbasetemp() / "large"
    path = root / "large.jsonl"
    if not path.exists():
        root.mkdir(exist_ok=True)
        write_large(path, 200_000_000)
    env = dict(os.environ, SBCORE_CONFIG_DIR=str(root / "config"), SBCORE_DATA_DIR=str(root / "data"))
    result = run_cli("200 MB", [*command, str(path)], cwd=root, env=env, timeout_s=240)
    assert (result.exit_status, result.traceback) == (0, False)
    assert result.peak_rss_mb < 160, result  # the file is 200 MB: it was never held whole
