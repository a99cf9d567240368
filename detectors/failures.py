"""Whether two error signatures are one failure, however two runs or two runners rendered it.

Repeat-failure ties attempts together by their errors: a runner's line and the line of the tool under it
(a formatter's ``✗ testTotal, XCTAssertEqual failed: …`` beside ``Tests.swift:#: error: -[Tests testTotal] :
XCTAssertEqual failed: …``), one test named by two runners with their own decorations, a diagnostic at one
line of one file named from two folders, a line cut at the outcome's cap beside its whole. These readings
compare the signatures alone (:mod:`.signatures` folds what varies between two runs); what the works were
that failed so is :mod:`.same_work`'s.
"""

from __future__ import annotations

import re
import string

# A file (its digits folded: `vec#_spec.lua`) and a place in it: `f.c:#:#: …`; `f.nim(#, #) …`, `a.cs(#,#):
# …`; a bundler's `src/db.ts (#:#): …`; the program that says so may come first (C's `assert`: `test_q:
# ../tests/q.c:#: test_wrap: Assertion … failed.`).
_LOCATED = re.compile(
    r"(?:[\w.+-]+: +)?(?:(?:e|error): +)?(?:file://)?[\w./~+#-]+\.[a-z]\w{0,9}"
    r"(?:(?::#){1,2}(?::| +- +| +[^\s#])|\(#(?:, ?#)?\):? | \(#:#\): )"
)


def located(signature: str) -> bool:
    """Whether an error signature is a diagnostic at a place in a file (``src/geo.erl:#:#: function …``,
    ``src/a.ts:#:# - error ts#: …``, ``src/http.nim(#, #) error: …``): the fault is in that file, whatever
    command compiled it."""
    return _LOCATED.match(signature) is not None


def same_failure(one: str, other: str) -> bool:
    """Whether two error signatures are one failure: equal, or two runners' renderings of one message
    (``✗ testTotal, XCTAssertEqual failed: (21.0) is not equal to (21.5)`` from a formatter and
    ``Tests.swift:#: error: -[Tests testTotal] : XCTAssertEqual failed: (21.0) is not equal to (21.5)``
    from the tool under it): the same ending, at least :data:`MIN_SHARED` characters of it and most of
    the shorter, whatever else the shorter says being in the longer too. A different ending (``Received:
    100``, then ``Received: NaN``) or another name before one ending (``'discount' is assigned a value
    but never used``, then ``'total' is …``) is another failure."""
    if one == other:
        return True
    one, other = _plainly(one), _plainly(other)
    if one == other:
        return True
    for cut, whole in ((one, other), (other, one)):
        tail = cut[-_CUT_TAIL - 1 : -1]
        if cut.endswith("…") and len(cut) > _CUT_TAIL and tail in whole:
            # a line cut at the outcome's cap: its last words stand in the other, whose end it lost; what
            # each says before them, the one saying less says in the other's too (a formatter's test name)
            before = sorted((cut[: -_CUT_TAIL - 1], whole[: whole.index(tail)]), key=len)
            return all(word in before[1] for word in _WORDS.findall(before[0]))
    test = failing_test(one)
    if test and test == failing_test(other):
        return True
    if located(one) and located(other) and _from_file_name(one) == _from_file_name(other):
        return True
    shorter, longer = sorted((one, other), key=len)
    shared = _shared_ending(shorter, longer)
    if shared < MIN_SHARED or shared < 0.6 * len(shorter):
        return False
    # what the shorter says before that ending (the test's name in a formatter's line) the longer says too
    return all(word in longer for word in _WORDS.findall(shorter[: len(shorter) - shared]))


_WORDS = re.compile(r"[a-z0-9_]{3,}")


def _from_file_name(signature: str) -> str:
    """A located diagnostic from its file's name on (``hid-ftec.c:#:#: error: too many arguments …``): one
    file compiled in two trees (a packaging tool's copy of the source and the source itself) fails at one
    line with one message, whatever folders each names it from."""
    return signature[signature.rfind("/", 0, _LOCATED.match(signature).end()) + 1 :]  # type: ignore[union-attr]


def failing_test(signature: str) -> str:
    """The test a runner's line says failed, when the line says no more (``failed parser.numbers.parses
    negative literal [# ms]`` from one runner, ``[#:#:# err] parser.numbers.parses negative literal failed in
    #:#:#.…`` from another): its name without the verdict, the timing and the log's tag around it, or ``""``.
    Two runners naming one failing test so are one failure, however each decorates the name."""
    head = _VERDICT_BEFORE.match(signature)  # matches at the start of any line: every part is optional
    begin, verdict = (head.end(), head.group(1)) if head else (0, None)
    tail = _VERDICT_AFTER.search(signature, begin)
    said = verdict or (tail.group(1) if tail else None)
    name = signature[begin : tail.start() if tail else len(signature)]
    if not said or not _TEST_NAME.fullmatch(name) or _ERROR_WORD.search(name):
        return ""
    return name


# What decorates a test's name in a runner's line: a log's bracketed tags and a verdict before it (`[#:#:#
# err] `, `failed `, `✗ `), and a verdict, a timing or both after it (` failed in #:#:#.…`, ` [# ms]`).
_VERDICT_BEFORE = re.compile(r"(?:\[[^\]\n]{1,30}\]\s*)*(?:(failed|fail|not ok(?: #)?|[✗✘✕×])(?::\s*|\s+))?")
_VERDICT_AFTER = re.compile(
    r"(?:\s+(failed|fail)\b[^\n]{0,30}|\s*(?:[\[(]#(?:\.#)?\s*m?s[\])]|\(#(?:\.#)?\s*m?s\)))\.?$"
)
# A test's name: dotted, spaced or pathed words, long enough to tell one test from another.
_TEST_NAME = re.compile(r"[\w][\w.:/<>'\- ]{14,}[\w)]")
_ERROR_WORD = re.compile(r"\b(?:error|exception|expected|assert\w*|panic\w*|undefined|cannot|not found)\b")


def _shared_ending(shorter: str, longer: str) -> int:
    """How many characters at the end of ``shorter`` end ``longer`` too, a path in ``shorter`` standing for
    the longer path that ends with it (``tests/a_test.yaml`` and ``charts/web/tests/a_test.yaml``: one file,
    named from two folders by two runs in them)."""
    at, other = len(shorter) - 1, len(longer) - 1
    while at >= 0 and other >= 0:
        if shorter[at] == longer[other]:
            at, other = at - 1, other - 1
        elif (
            longer[other] == "/"
            and shorter[at] not in _PATH_CHARACTERS
            and at + 1 < len(shorter)
            and shorter[at + 1] in _PATH_CHARACTERS
        ):
            while other >= 0 and longer[other] in _PATH_CHARACTERS:
                other -= 1  # the folders the longer path names before the shorter one's first
        else:
            break
    return len(shorter) - 1 - at


_PATH_CHARACTERS = frozenset(string.ascii_letters + string.digits + "_./-~#")  # "#": digits, folded
# A severity word after a place and the blanks around a colon, which two renderings of one diagnostic spell
# differently (`quickstart.rst:#: warning: undefined label: 'x'` from one runner, `quickstart.rst:#:undefined
# label: 'x'` from another).
_SEVERITY = re.compile(r"(?<=:)\s*(?:(?:fatal )?error|warning|note)\s*:\s*|(?<=:)\s+")


def _plainly(signature: str) -> str:
    """``signature`` without a severity's word, a path's ``./`` or its spacing (a runner's short and long
    tracebacks indent one assertion differently: `E   assert …`, `E       assert …`)."""
    return " ".join(_HERE.sub("", _SEVERITY.sub("", signature)).split())


# A path's leading `./`, which one run writes and another does not (`insmod ./sx#x.ko`, `insmod sx#x.ko`)
_HERE = re.compile(r"(?<![\w./~-])\./")


_CUT_TAIL = 40
"""How much of a cut line's end (before its ``…``) the other rendering must hold to be the same failure."""
MIN_SHARED = 24
"""The shortest ending two renderings of one error must share to be taken for one failure."""
