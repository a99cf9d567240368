"""Whether an error line only reports that something under a runner failed, not what went wrong.

A task runner, a script runner, a build tool or a test harness prints its own line when the work under it
fails (`make: *** [test] Error 2`, `error: script "test" exited with code 1`, `> Task :app:test FAILED`, a
status row `tst_queue ....***Failed  0.04 sec`, a count `1 FAILED`), and that line is the same whatever
failed. The outcome reader (:mod:`.outcome`) quotes the root error instead when the text has one, and
repeat-failure reads a loop from that quote: two runs that failed on different errors under one runner's
summary are not one failure. Standard library only (it runs in the projection).
"""

from __future__ import annotations

import re

from sbcore.observe.lazy_pattern import Lazy

# What such a line says, whatever the runner: the root error is elsewhere in the text, usually above. Each
# phrasing comes with a word every match of it holds, so that a line is searched for a phrasing only where its
# word is (most lines hold none), read in a lower-cased line (``re.IGNORECASE`` scans several times slower);
# ``None`` for a phrasing that is its word alone.
# A cause a run stopped for, after "because of" or "due to" (`ninja: build stopped: cannot make progress due
# to previous errors.`).
_STOPPED_FOR = r" (?:(?:previous|earlier|prior|the above) )?(?:errors|failures|a failure|an error)"
# An exception carrying only the script a step ran and its status, after its name (`ExecutionError('…/run.do_
# compile.51', 1, None, None)`).
_SCRIPT_AND_STATUS = r"\(\s*['\"][^'\"]*['\"],\s*-?\d+\b"
# A count of errors, problems or violations a task's tool found (`throw "PSScriptAnalyzer found 1 error(s)"`).
_COUNTED_FINDINGS = r" \d+ (?:[a-z]+ )?(?:errors?|error\(s\)|problems?|violations?)(?!\S)"
_PHRASINGS: tuple[tuple[str, str | None], ...] = (
    ("exit", r"exit(?:ed|ing)?[\s-]+(?:with[\s-]+)?(?:code|status|error)|exit code:?\s*-?\d|non-?zero exit"),
    ("exit", r"exited \(-?\d+\)"),
    ("returned ", r"returned non-?zero"),
    # a driver saying the program it ran failed (`Error: /usr/bin/ppcx64 returned an error exitcode`), not a
    # server or an API that returned an error (`the server returned an error: 401`): a root error
    (
        "returned ",
        r"returned (?:with )?(?:an? )?"
        r"(?:exit[\s-]?(?:code|status)|(?:error|failure) ?(?:exit[\s-]?)?(?:code|status))",
    ),
    ("did not ", r"did not (?:run|complete|finish) successfully"),
    ("error occurred while ", r"error occurred while (?:calling|running|executing)"),
    ("command finished with error", None),
    (
        "failed:",
        r"^failed:(?:\s+[\w@./:#-]+)+$",
    ),  # a build step's outputs (ninja's `FAILED: CMakeFiles/x obj/x.o`)
    # a task's status line (`shellcheck.......Failed`, `✖ eslint --fix [FAILED]`, a test's row with the time
    # it took: `1/1 Test #2: tst_model ......***Failed    0.04 sec`)
    ("....", r"\.{4,}[\s*]*failed(?:\s+[\d.]+\s*(?:s|sec|ms|seconds?))?$"),
    ("[failed]", r"\[failed\]$"),
    # a runner's count of failing tests (`error: test failed, to rerun pass -p x --lib`)
    ("error: test", r"^error: tests? failed\b"),
    # a harness's numbered row: which item of how many, its name, its verdict and its time (`7/12 lib:unit /
    # test_queue   FAIL   0.02s   killed by signal 6 SIGABRT`)
    ("/", r"^ *\d+/\d+ +\S.{0,160}? (?:fail|failed|error|timeout) +[\d.]+ *(?:s|sec|ms)\b"),
    ("because of", "because of" + _STOPPED_FOR),
    ("due to", "due to" + _STOPPED_FOR),
    # an error tag over the operation's name and "failed" alone (`Error (DeployFailed): Deploy failed.`,
    # `ERROR: publish failed`, `/usr/bin/ghdl:error: assertion failed`, `Error: test suite failed`): what
    # failed is printed elsewhere
    (
        " failed",
        r"^(?:[\w./-]{1,60}:)?[\w ]{0,20}(?:error|err!?)(?: \([\w.-]+\))?:"
        # (the package and its failed step may come first: `ERROR: app-1.0-r0 do_compile: oe_runmake failed`)
        r"(?: *[^\s:]{1,80}(?: [^\s:]{1,40})?:)? *(?:the )?[\w-]{1,40}(?: [\w-]{1,40}){0,2} failed\.?$",
    ),
    # an error whose message is one word saying only that something failed (`error: fatalError`, a build
    # driver's line under the compiler's diagnostics)
    ("error:", r"^(?:[\w./-]{1,60}:)? *(?:fatal )?error: *(?:fatal ?error|failure|failed|aborted)\.?$"),
    ("error(", r"\w*error" + _SCRIPT_AND_STATUS),
    ("exception(", r"\w*exception" + _SCRIPT_AND_STATUS),
    ("command failed", None),
    ("the following ", r"the following (?:build )?command"),
    ("recipe", r"\brecipe\b.{0,60}\bfailed"),
    ("script", r"\bscript\b.{0,60}\b(?:failed|exited)"),
    # a task runner's target failing (`-> BuildFailedException: Target 'Test' failed.`)
    ("target", r"\btarget\b.{0,60}\bfailed\.?$"),
    ("task", r"\btask\b.{0,60}\bfail"),
    ("lifecycle script", None),
    ("build failed", r"\bbuild failed"),
    ("err!", r"\berr!"),
    ("failed to ", r"failed to (?:run|execute|build|compile|link|bundle)\b"),
    ("elifecycle", None),
    ("process completed with", None),
    ("compilation failed", None),
    ("there w", r"there (?:were|was) (?:test )?failures?"),
    ("*** [", None),
    ("] error ", r"\] error \d+\s*$"),
    ("error: ", r"^error: \d+ (?:tests?|errors?) failed"),
    ("fail", r"\bfail(?:ed|ure) (?:for|in|of) (?:the )?(?:task|target|goal|step|job|project)\b"),
    ("test run failed", r"\btest run failed\b"),
    ("found ", r"\bfound" + _COUNTED_FINDINGS),
    ("encountered ", r"\bencountered" + _COUNTED_FINDINGS),
    # a check closing on that it found errors, or on its failures alone (`Error: R CMD check found errors`,
    # `Error: Test failures`, nginx's `configuration file /etc/nginx/nginx.conf test failed`)
    ("error: ", r"^error: [\w ]{0,40}\bfound (?:errors|failures|problems)\.?$"),
    ("error: ", r"^error: (?:test |check )?failures\.?$"),
    ("test failed", r"\btest failed\.?$"),
    # a loader saying it could not read what it was given (`FirebaseError: Functions codebase could not be
    # analyzed successfully`): the cause is printed elsewhere
    ("could not be analy", r"could not be analy[sz]ed\b"),
    # a status line saying only that the work failed (`Status: Failed | ███ | 7/7 Components (Errors:1)`)
    ("status:", r"^status: *fail"),
    ("status:", r"^status: *(?:[^\n]{0,60}?[,;|/] *)?[1-9]\d* +(?:errors?|failures?|failed)\b"),
    (
        "fail ",
        r"^\[ *fail \d+ *\|",
    ),  # a row of counts between bars (`[ FAIL 1 | WARN 0 | SKIP 2 | PASS 47 ]`)
    # a table's heading counting the failures under it (`Component Failures [1]`, `Errors (2)`)
    ("fail", r"^(?:[a-z]+ ){0,3}failures? [\[(]\d+[\])]:?$"),
    ("error", r"^(?:[a-z]+ ){0,3}errors? [\[(]\d+[\])]:?$"),
    # a pointer to where the error is (`ERROR - see: out/handler.log`, `see the log for details`)
    ("see", r"\bsee:? +(?:the )?\S*\.(?:log|txt|out|xml|json|html)$"),
    ("see ", r"\bsee (?:the )?(?:logs?|output|report)\b"),
    ("check ", r"\bcheck (?:the )?(?:logs?|output|report)\b"),
    # a count alone on its line, under the failures it counts (`1 FAILED`, `2 tests failed`); mocha's `1
    # failing` is read with the test it names (:mod:`.failing_test`)
    ("fail", r"^\d+ (?:(?:tests?|test cases?|examples?|specs?) )?(?:failed|failures?)\.?$"),
    ("error", r"^\d+ (?:(?:tests?|test cases?|examples?|specs?) )?errors?\.?$"),
)
_GATED = tuple((word, None if source is None else Lazy(source, 0)) for word, source in _PHRASINGS)
# Every phrasing in one pattern, for a long line (tried only near the words below).
_WRAPPER_SUMMARY = Lazy(
    "|".join(re.escape(word) if source is None else source for word, source in _PHRASINGS),
    0,
)


# Words every alternative of ``_WRAPPER_SUMMARY`` holds (lowercase): most lines hold none, and looking for
# them is cheaper than the pattern's scan, which tries each of its openings at every position.
_WRAPPER_WORDS = (
    *("exit", "non-zero", "nonzero", "command failed", "the following", "recipe", "script", "task"),
    *("lifecycle", "build failed", "failed to", "err!", "process completed", "compilation failed"),
    *("failure", "*** [", "] error", "error:", "failed for", "failed in", "failed of", "test run failed"),
    *("successfully", "error occurred", "....", "[failed]", "because of", "finished with error", "failed:"),
    *("due to", "target"),
    *("found ", "returned ", "status:", "failures [", "failures (", "errors [", "errors (", "error ["),
    *(" failed", " error", "see", "check the", "error(", "exception(", " fail ", " timeout "),
    *("encountered ", "could not be ", "[ fail", "[fail"),
)


def is_wrapper_summary(line: str) -> bool:
    """Whether ``line`` only reports that something under a runner failed (``make: *** [test] Error 2``,
    ``error: script "test" exited with code 1``, ``> Task :app:test FAILED``, ``npm ERR! Test failed``),
    so a more telling line, the root error, should be quoted instead when the text has one."""
    low = line.lower()
    if len(low) <= _WRAPPER_SCAN_WHOLE:
        for word, pattern in _GATED:
            if word in low and (pattern is None or pattern.search(low) is not None):
                return True
        return False
    # A long line (an assertion quoting a page): the pattern, with no literal to skip to, would try each
    # of its openings at every position; every match starts at most _WRAPPER_LEAD characters before one
    # of the words, so it is tried there only.
    for word in _WRAPPER_WORDS:
        at = low.find(word)
        while at >= 0:
            if any(_WRAPPER_SUMMARY.match(low, start) for start in range(max(0, at - _WRAPPER_LEAD), at + 1)):
                return True
            at = low.find(word, at + 1)
    return False


_WRAPPER_SCAN_WHOLE = 256
_WRAPPER_LEAD = 16
"""The most characters an alternative of ``_WRAPPER_SUMMARY`` opens with before its word (``there were test
failures``: 16 before ``failure``)."""
