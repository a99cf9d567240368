"""The thirty-fifth round: what a tool's settings are, and what a build tool's task is.

standard-questions: a table a manifest keeps for another tool's settings (``[tool.zorp]`` in
``pyproject.toml``) is tested in ``test_standard_questions_metadata.py``; here, a release's number by
Android's names for it.

repeat-failure: a setting that counts or times a run stands alone as often as it takes a number
(``--parallel`` then the task, ``--parallel 4``), so the word after it is its value only when it is one; a
build tool's task named in camel case or by its project's path (``assembleDebug``, ``:app:nativeBuild``) is
a subcommand, so two of them stopping at one specific error are the aggregate and the member failing in it;
a settings option handed through a package manager's script (``yarn e2e --timeout=60000``) tunes it as it
does the tool. The tools are named in no table (``zgrade``, ``zplay``), save yarn and JupyterLab's copy of
it, ``jlpm``, which the launcher table names: the hint the identity reads.
"""

from __future__ import annotations

from sbcore.detectors.identity import work_identity
from test_judgment_status_rows import loop_failures

from sbcore.observe.manifest_reading import metadata_only

_LINK = (
    "> Task :app:buildNative[arm64] FAILED\n"
    "ld.lld: error: undefined symbol: acme::Decoder::decode(unsigned char const*, unsigned long)\n"
    ">>> referenced by bridge.cpp:58\n"
)


def test_a_counted_setting_takes_the_next_word_only_when_it_is_a_number() -> None:
    plain = work_identity("zgrade assembleDebug").body
    assert work_identity("zgrade --no-daemon --parallel assembleDebug").body == plain
    assert work_identity("zgrade --parallel 4 assembleDebug").body == plain
    assert work_identity("zgrade --timeout 60s assembleDebug").body == plain
    assert work_identity("zgrade --parallel lintDebug").body != plain  # the task is still the work


def test_a_build_tools_tasks_failing_at_one_error_are_one_loop() -> None:
    assert (
        loop_failures(
            ("./zgrade assembleDebug", _LINK),
            ("./zgrade :app:buildNative > /tmp/b.log 2>&1 || cat /tmp/b.log", _LINK),
            ("./zgrade --no-daemon --parallel assembleDebug", _LINK),
        )
        == 3
    )
    # two tasks failing once each at errors of their own are two works, not a loop
    other = _LINK.replace("acme::Decoder::decode", "acme::Mixer::mix")
    assert loop_failures(("./zgrade assembleDebug", _LINK), ("./zgrade :app:buildMixer", other)) == 0


def test_a_scripts_timing_settings_leave_its_work_as_it_is() -> None:
    plain = work_identity("yarn zplay test").body
    assert work_identity("yarn zplay test --timeout=60000").body == plain
    assert work_identity("yarn zplay test --workers 1 --reporter=line").body == plain
    assert work_identity("jlpm zplay test").body == plain  # JupyterLab's copy of yarn
    assert work_identity("yarn zplay test --grep=cart").body != plain  # a selection stays
    assert work_identity("yarn zplay test --parallel smoke").body != plain  # so does a word no count is


def test_a_releases_number_by_androids_names_for_it_is_metadata() -> None:
    old = 'versionCode = 41\nversionName = "2.3"\n'
    assert metadata_only('versionCode = 42\nversionName = "2.4.0"\n', old)
    assert not metadata_only("versionControl = true\n", "versionControl = false\n")
