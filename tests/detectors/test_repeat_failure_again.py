"""repeat-failure: the work failing again, however it was spelt (issue 22, eleventh round).

The tuning batches' last misses were one shape: an agent re-spelling one run (another option selecting the
same tests, a path option instead of a ``cd``, a second tool on the same target) and meeting the very same
error each time. Identity reads each spelling alone and keeps them apart; the session shows they are one.
A failure showing exactly the error the latest failing work last showed, in its folder or one nested with
it, joins that work's streak: the same program whatever the error said, another program when the error names
what failed. Never when the two are told apart as targets: each handed its own file, only a number changed (a
sweep over issues or jobs), folders side by side. (Vague errors across programs, inline probes, named scripts,
selections of their own and an unknown root keep their earlier tests in ``test_repeat_failure_families.py``
and ``test_repeat_failure_where.py``.) Every tool here is named in no table of the built-in pack.
"""

from __future__ import annotations

from tests.detectors.test_triggers import Session, fire

PARSE = 'Exit code 1\nSCRIPT ERROR: Parse Error: Identifier "ItemStack" not declared in the current scope.\n'
CONTEXT = (
    "Exit code 17\nfailed to solve: failed to compute cache key: failed to calculate checksum of ref "
    '9f2c1e7d::k3v0q7: "/app/requirements.lock": not found\n'
)


def test_one_run_spelt_three_ways_meeting_one_error_is_a_loop() -> None:
    """``qengine`` selecting its tests by folder, by config and by file: three spellings of one run, one
    parse error each time, nothing changed between."""
    s = Session()
    s.fail("qengine --headless -s tools/qut.qd -qdir=res://test/unit -qexit", PARSE)
    s.run("cat src/inventory.qd")
    s.fail("qengine --headless -s tools/qut.qd -qconfig=res://.qutconfig.json", PARSE)
    s.run("ls test/unit")
    s.fail("qengine --headless -s tools/qut.qd -qtest=res://test/unit/test_inventory.qd", PARSE)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_another_tool_on_one_target_meeting_one_error_is_the_same_loop() -> None:
    """A folder given as an option, then as a ``cd``, then by a second tool in it: one error all along."""
    s = Session()
    s.fail("zcompose -f deploy/zcompose.yml up --build -d", CONTEXT)
    s.fail("cd deploy && zcompose up --build -d", CONTEXT)
    s.fail("cd deploy && zbuildkit build --file Containerfile .", CONTEXT)
    assert fire(s) is not None


def test_each_spelling_handed_its_own_file_is_another_target() -> None:
    """Two test files can fail alike on one missing module: three files, three targets, no loop."""
    missing = "Exit code 1\nImportError: cannot import name 'Slug' from 'shared.text' (shared/text.zy)\n"
    s = Session()
    s.fail("zytest tests/test_cart.zy", missing)
    s.fail("zytest tests/test_user.zy", missing)
    s.fail("zytest tests/test_order.zy", missing)
    assert fire(s) is None


def test_a_sweep_over_numbered_targets_is_not_a_loop() -> None:
    """One command with only its number changed: one issue after another, each missing alike."""
    missing = 'Exit code 1\n{"success": false, "error": "plan_not_found", "message": "no plan for it"}\n'
    s = Session()
    for number in (7839, 7835, 7829, 7819):
        s.fail(f"qtrack exec get-plan-info {number}", missing)
    assert fire(s) is None


def test_folders_side_by_side_are_two_targets() -> None:
    """A survey of a workspace's packages, each failing on the export they share."""
    missing = "Exit code 1\nSyntaxError: Export named 'slugify' not found in module 'shared/index.zs'.\n"
    s = Session()
    for package in ("parser", "cli", "server"):
        s.fail(f"zun test --cwd packages/{package}", missing)
    assert fire(s) is None


def test_an_aggregate_task_beside_one_of_its_members_is_one_target() -> None:
    """`connectedQCheck` runs `:app:connectedDebugQCheck` among others: the member, then the aggregate,
    failing on one install error, are one loop (twelfth round). Two of a kind (`RoundingSpec`,
    `TaxBandSpec`) stay two (test_repeat_failure_families.py, `two_specs_of_one_task`)."""
    install = (
        "Exit code 1\ncom.acme.qlib.InstallException: INSTALL_FAILED_UPDATE_INCOMPATIBLE: "
        "existing package com.acme.notes signatures do not match\n"
    )
    s = Session()
    s.fail("./zgradle :app:connectedDebugQCheck -Pq.class=com.acme.notes.EditorTest", install)
    s.fail("Q_SERIAL=emu-1 ./zgradle :app:connectedDebugQCheck -Pq.class=com.acme.notes.EditorTest", install)
    s.fail("./zgradle connectedQCheck -Pq.class=com.acme.notes.EditorTest", install)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3
