"""The fortieth round (b41): a failure read through time stamps, count rows, a verdict and a recipe's log.

repeat-failure, tuned on b41's misses (Packer builds, a CUE export behind make):

* a time stamp opening each line (`packer build -timestamp-ui`, `2025-05-20T16:30:01Z: …`) is not what
  failed: the line an error is read from, and what it says, are found without it;
* a row of counts, each after its label, with failures above zero wherever it stands on its line (goss's
  `Count: 23, Failed: 1, Skipped: 0` behind a builder's `docker.ubuntu: `), or of `name=count` (Ansible's
  recap, `ok=14 changed=9 unreachable=0 failed=1`), says the run failed, as does a build named in quotes
  that `errored`;
* a task runner's line saying only that a step of its recipe failed (`make: *** [Makefile:12: render]
  Error 1`) says nothing of how: the log a viewer reads next, by a name an earlier command gave it, is the
  one the recipe wrote again.

The programs are named in no table (`zbake`, `zcfg`).
"""

from __future__ import annotations

from test_judgment_status_rows import loop_failures

from sbcore.observe.outcome import error_line, read_outcome, says_nothing

_TIMEOUT = (
    "==> zbake.al2023: Waiting for SSH to become available...\n"
    "==> zbake.al2023: Timeout waiting for SSH.\n"
    "Build 'zbake.al2023' errored after 10 minutes 21 seconds: Timeout waiting for SSH.\n"
)


def _stamped(text: str) -> str:
    return "\n".join(f"2025-05-20T16:30:{index:02d}Z: {line}" for index, line in enumerate(text.splitlines()))


def test_a_time_stamp_opening_each_line_is_not_what_failed() -> None:
    assert error_line(_stamped(_TIMEOUT)) == error_line(_TIMEOUT)
    assert (
        loop_failures(
            ("time zbake build -only=al2023 .", _TIMEOUT),
            ("timeout 30m zbake build -only=al2023 -timestamp-ui .", _stamped(_TIMEOUT)),
            ("nice -n 10 zbake build -only=al2023 .", _TIMEOUT),
        )
        == 3
    )


def test_count_rows_and_a_named_build_that_errored_are_failed_runs() -> None:
    for text in (
        "    zbake.ubuntu: Total Duration: 0.318s\n    zbake.ubuntu: Count: 23, Failed: 1, Skipped: 0\n",
        "default : ok=14   changed=9    unreachable=0    failed=1    skipped=2    rescued=0\n",
        "Build 'zbake.rhel9' errored after 6 minutes 27 seconds: Error executing the provisioner\n",
        "Count: 30, Skipped: 2, Failed: 1\n",  # the failures last in the row
    ):
        outcome = read_outcome(text, "zbake build . 2>&1 | tail -n 40", is_error=False)
        assert outcome is not None and outcome["failed"], text
    for text in ("Count: 23, Failed: 0, Skipped: 0\n", "default : ok=14 changed=9 unreachable=0 failed=0\n"):
        outcome = read_outcome(text, "zbake build . 2>&1 | tail -n 40", is_error=False)
        assert outcome is None or not outcome["failed"], text


_INCOMPLETE = (
    "deployment.spec.containers.0.image: incomplete value string:\n    ./deploy/deployment.cue:14:12\n"
)


def test_a_recipe_that_says_only_that_it_failed_has_the_log_its_tool_wrote_again() -> None:
    assert says_nothing("make: *** [Makefile:12: render] Error 1")
    assert (
        loop_failures(
            ("zcfg export ./deploy > out/prod.yaml 2> build/zcfg.log", ""),
            ("cat build/zcfg.log", _INCOMPLETE, False),
            ("mkdir -p out build", "", False),
            ("zcfg export ./deploy --force -o out/prod.yaml 2> build/zcfg.log", ""),
            ("cat build/zcfg.log", _INCOMPLETE, False),
            ("make render ENV=prod", "make: *** [Makefile:12: render] Error 1"),
            ("tail -n 20 build/zcfg.log", _INCOMPLETE, False),
        )
        >= 3
    )


_THROWN = (
    "i  zemu: Watching /w/functions for functions...\n"
    "⚠  zemu: Error: Cannot find module 'zpay'\nRequire stack:\n- /w/functions/lib/pay.js\n"
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n"
)


def test_an_error_thrown_with_its_stack_behind_a_pipe_is_a_failed_run() -> None:
    """The forty-first round (b42): the JavaScript twin of Python's traceback, where a pipe hid the status."""
    piped = read_outcome(_THROWN, "timeout 40 zemu start 2>&1 | head -n 30", is_error=False)
    assert piped is not None and piped["failed"]
    assert read_outcome(_THROWN, "zemu start", is_error=False) is None  # no pipe: the exit status stands
    logged = "warn: retrying\n  zemu: Error: timeout talking to the cache (retry 1 of 3)\nall good\n"
    assert read_outcome(logged, "zemu start | tail", is_error=False) is None  # no stack: a logged message
