"""The thirty-eighth round: the cause under a build's banner, and an R package's manifest.

repeat-failure: Gradle ends every failed build with one banner (``FAILURE: Build failed with an
exception.``) and says what went wrong under it, each ``>`` line a cause of the one above; the innermost
cause is the failure, so three builds failing for three reasons are three failures, not a loop.

standard-questions: R's ``DESCRIPTION`` is a package's manifest, so an edit of only its title, version, date
and links is metadata, and ``R CMD INSTALL`` (as ``build`` and ``check``) compiles a package's native code.
Code written for a type-checker (Sorbet's signatures, its ``# typed: strict`` sigil) asks whether it still
checks, and ``srb tc`` answers: the catalogue's tables, read as hints.
"""

from __future__ import annotations

from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_standard_questions_precision import edit
from test_triggers import Session, ask, open_ids

from sbcore.observe.manifest_reading import metadata_only
from sbcore.observe.outcome import error_line
from sbcore.observe.project_facts import is_build_path


def _failed_build(*causes: str) -> str:
    nested = "\n".join(f"{'   ' * depth}> {cause}" for depth, cause in enumerate(causes))
    return (
        "\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\n"
        f"A problem occurred configuring root project 'ring'.\n{nested}\n\n"
        "* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 8s\n"
    )


def test_the_innermost_cause_under_a_builds_banner_is_its_failure() -> None:
    text = _failed_build("Could not resolve all files.", "Could not GET 'https://repo/x.pom'. 403 Forbidden")
    assert error_line(text) == "Could not GET 'https://repo/x.pom'. 403 Forbidden"
    # a banner with no section under it stays the line
    assert error_line("FAILURE: Build failed with an exception.\n\nBUILD FAILED in 2s\n").startswith(
        "FAILURE"
    )


def test_builds_failing_for_different_reasons_under_one_banner_are_no_loop() -> None:
    assert (
        loop_failures(
            (
                "./zgrade buildPlugin",
                _failed_build("Could not resolve ring.", "Connect to proxy failed: refused"),
            ),
            (
                "./zgrade buildPlugin --offline",
                _failed_build("Could not resolve ring.", "No cached version of ring"),
            ),
            (
                "./zgrade help -Dhttps.proxyHost=",
                _failed_build("Could not resolve ring.", "Received status 403"),
            ),
        )
        == 0
    )
    same = _failed_build("Could not resolve ring.", "No cached version of ring")
    assert loop_failures(*(("./zgrade buildPlugin --offline", same),) * 3) == 3


def test_an_r_packages_manifest_edit_of_its_title_and_release_is_metadata() -> None:
    assert is_build_path("pkg/DESCRIPTION")
    assert metadata_only("Version: 0.2.1\nDate: 2025-04-09\n", "Version: 0.2.0\nDate: 2025-04-02\n")
    assert metadata_only("URL: https://a.example, https://b.example\nBugReports: https://a.example/i\n", "")
    assert not metadata_only("Imports: lubridate, vctrs\n", "Imports: lubridate\n")


def test_r_cmd_install_builds_a_packages_native_code() -> None:
    s = Session()
    s.edit("/repo/src/week.cpp")
    s.run("ls")
    assert "compiles" in open_ids(ask(s, _asking("compiles")))
    s.run("R CMD INSTALL --preclean .")
    assert ask(s, _asking("compiles")) is None


def test_code_written_for_a_type_checker_asks_whether_it_still_checks() -> None:
    """Ruby runs uncompiled, but a file under Sorbet (its strictness sigil, its signatures) is type-checked:
    the edit asks "does it still check?", and `srb tc` answers."""
    s = Session()
    edit(s, "/repo/lib/pay/merchant.zrb", "  sig { returns(T.nilable(String)) }\n  def api_key; end\n", "x")
    s.run("ls")
    assert "compiles" in open_ids(ask(s, _asking("compiles")))
    s.run("bundle exec srb tc")
    assert ask(s, _asking("compiles")) is None
    plain = Session()
    edit(plain, "/repo/lib/pay/merchant.zrb", "  def api_key; end\n", "x")
    plain.run("ls")
    assert ask(plain, _asking("compiles")) is None
