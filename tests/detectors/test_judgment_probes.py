"""The twenty-sixth round: a formatter's diff, a project's folder and its file, a program asked what it is.

repeat-failure: a formatter's check printing the diff it would apply (`Diff in lua/sort.lua:`) is the error,
so a lint target and the formatter run alone fail alike; a project's folder named like a file (`src/App.Web`)
and a file inside it (`src/App.Web/App.Web.csproj`) are one target, not two files; a program asked only what
it is (`<tool> --version`) runs none of its work, so its success ends no streak. The tools are named in no
table (`zfmt`, `zlint`, `qdot`).
"""

from __future__ import annotations

import pytest
from sbcore.detectors.identity import work_identity
from test_judgment_status_rows import loop_failures

from sbcore.observe.outcome import error_line

_DIFF = (
    "Diff in lua/pin/sort.lua:\n 14  14   |local function by_mtime(a, b)\n 15     |-  local sa, sb = x, y\n"
    "     15 |+  local sa, sb =\n     16 |+    x, y"
)


def test_a_formatters_diff_is_the_error_under_a_lint_targets_summary() -> None:
    assert error_line(
        f"zfmt --check lua/ plugin/\n{_DIFF}\nmake: *** [Makefile:14: lint] Error 1"
    ).startswith("Diff in lua/pin/sort.lua:")
    made = f"zfmt --check lua/ plugin/\n{_DIFF}\nmake: *** [Makefile:14: lint] Error 1"
    assert (
        loop_failures(
            ("make lint", made, True), ("zfmt --check lua/ plugin/", _DIFF, True), ("make lint", made, True)
        )
        == 3
    )


def test_a_projects_folder_and_a_file_in_it_are_one_target() -> None:
    bind = (
        "Unhandled exception. System.IO.IOException: Failed to bind to address http://127.0.0.1:5080: "
        "address already in use."
    )
    assert (
        loop_failures(
            ("qdot run --project src/Desk.Web", bind, True),
            ("qdot run --project src/Desk.Web/Desk.Web.csproj --launch-profile http", bind, True),
            ("cd src/Desk.Web && ENV=Development qdot run --no-build", bind, True),
        )
        == 3
    )


@pytest.mark.parametrize("asked", ["--version", "-h", "help"])
def test_a_program_asked_what_it_is_ends_no_streak(asked: str) -> None:
    found = "tasks/status.yml:12: fqcn[action-core]: Use FQCN for builtin module actions (lineinfile)."
    assert work_identity(f"zlint {asked}").key != work_identity("zlint").key
    assert (
        loop_failures(
            ("zlint", found, True),
            ("zlint --offline", found, True),
            (f"zlint {asked}", "zlint 24.2.0 using ansible-core:2.16.4", False),
            ("zlint", found, True),
        )
        == 3
    )
