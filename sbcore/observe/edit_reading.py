"""What an edit changes, read from its whole text: the definitions it adds, and whether only comments.

An edit that adds a function, a method or a class is new code, which a reviewer expects tests for, as
much as a file written whole; an edit that leaves every code line as it was (a doc comment written above a
function, a comment put at a line's end) changes no behaviour. The projection caps an edit's text, so what
decides either can be in the part it cuts: :mod:`.calls` reads the whole text and keeps the answers in the
projected arguments (``defines``, ``comments_only``); the checklist reads the same functions from the text
it is shown when an observation has neither. One pattern covers the definition keywords of most languages (a
type or a record declared alone is data, not a code path), one the comment markers. Standard library only
(it runs in the projection).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import zip_longest

_DEFINITION = re.compile(
    r"^\s*(?:(?:export|pub(?:\([\w:]+\))?|public|private|protected|internal|static|override|abstract|final"
    r"|async|unsafe|inline|extern|default|open|suspend|virtual|const)\s+)*"
    r"(?:def|defp|defmacro|fn|func|function|class|fun|sub|proc|let\s+rec)\s+(?:\([^)]*\)\s*)?\(?"
    r"(?P<keyword>[\w$'\"][\w$.'\"]*)"
    r"|^\s*(?:(?:public|private|protected|internal|static|override|async|virtual|final)\s+)+[\w<>\[\],.?]+\s+"
    r"(?P<method>\w+)\s*\("
    r"|^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?(?P<bound>[\w$]+)\s*[:=]\s*(?:async\s+)?"
    r"(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)"
    r"|^(?P<signature>[a-z_][\w']*)\s*::"  # a Haskell signature
    # a class's accessor in JavaScript, TypeScript, Dart or C#'s style (`get daysOverdue() {`, `static get
    # rate(): number {`): code that runs, however plain its name
    r"|^\s*(?:(?:static|async|override|public|private|protected)\s+)*(?:get|set)\s+(?P<accessor>[\w$]+)\s*"
    r"\([^()]*\)\s*(?::\s*[\w<>\[\]|.? ]+)?\{?\s*$"
    # Fortran's and Ada's procedures, a result type or attributes before them (`pure real(dp) function f(`,
    # `subroutine solve(`, `procedure Bar (X : Integer) is`)
    r"|^\s*(?:(?:pure|elemental|recursive|impure|module|overriding)\s+)*"
    r"(?:(?:real|integer|logical|complex|character|double\s+precision|type)(?:\s*\([^)]*\))?\s+)?"
    r"(?i:function|subroutine|procedure)\s+(?P<procedure>\w+)"
    # C's and C++'s functions: a return type, the name, the parameters, and the body's brace or nothing
    # after them (a prototype ends with `;`, a call too): `static void *kmalloc_aligned(size_t n, size_t a) {`
    r"|^(?:(?:static|inline|extern|const|unsigned|signed|long|short|struct|enum)\s+)*"
    r"(?!(?:return|else|case|goto|throw|delete|new|await|yield|echo|print)\b)[A-Za-z_][\w:<>]*"
    r"(?:\s*\*+\s*|\s+)(?P<cfunction>(?!(?:if|while|for|switch|return|sizeof|else)\b)[A-Za-z_]\w*(?:::~?\w+)?)"
    r"\s*\([^;{}]*\)\s*(?:const\s*)?\{?\s*$"
)
_EMPTY_BODY = re.compile(r"(?:\{\s*\}|:\s*(?:pass|\.\.\.)|=>\s*\{\s*\}|\bend)\s*;?\s*$")


def defined_names(text: str) -> set[str]:
    """The names ``text`` defines with behaviour: not an empty body on the same line (a stub, a no-op),
    not a line the projection cut short (what follows it is unknown). Names, so a definition changed in
    place (``def f`` made ``async def f``) is not a new one."""
    return set(_in_order(text))


def _in_order(text: str) -> dict[str, None]:
    """:func:`defined_names`, in the order ``text`` defines them."""
    names: dict[str, None] = {}
    bound = "=>" in text or "::" in text or "function" in text
    for line in text.splitlines():
        opening = line.lstrip()
        if not (
            (opening[:3] in _OPENING_HEADS and opening.startswith(_OPENINGS))
            or (bound and ("=>" in line or "::" in line or "function" in line))
            or (
                (line[:1].isalpha() or line[:1] == "_")
                and "(" in line
                and line.rstrip().endswith(_C_HEAD_ENDS)
            )
        ):
            continue  # no form of the pattern can match: most lines of code
        found = _DEFINITION.match(line)
        if found is not None and "…" not in line and not _EMPTY_BODY.search(line):
            names[next(value for value in found.groupdict().values() if value)] = None
    return names


# What a line the pattern matches opens with, unless it holds "=>", "::" or "function" (a bound arrow or
# function expression, a Haskell signature): a modifier or a definition keyword.
_OPENINGS = (
    *("export ", "pub ", "pub(", "public ", "private ", "protected ", "internal ", "static ", "override "),
    *("abstract ", "final ", "async ", "unsafe ", "inline ", "extern ", "default ", "open ", "suspend "),
    *("virtual ", "const ", "def ", "def\t", "defp ", "defmacro ", "fn ", "func ", "class ", "fun ", "sub "),
    *("proc ", "let ", "var ", "pure ", "elemental ", "recursive ", "impure ", "overriding ", "subroutine "),
    *("procedure ", "real", "integer ", "logical ", "complex", "character", "double ", "type", "SUBROUTINE "),
    # C's and C++'s return types
    *("void", "int", "char", "unsigned ", "signed ", "size_t ", "ssize_t ", "bool ", "float ", "long "),
    *("short ", "uint", "struct ", "enum ", "auto "),
    *("get ", "set "),  # a class's accessor
)
# How a C function's head ends whatever type it returns (`Widget *make_widget(int n) {`, at the line's start):
# its parameters, its body's brace, or `const`.
_C_HEAD_ENDS = (")", "{", "const")
_OPENING_HEADS = frozenset(opening[:3] for opening in _OPENINGS)
"""The openings' first three characters: a set lookup turns most lines away before ``startswith`` tries
each opening in turn."""


def added_definitions(new: str, old: str) -> list[str]:
    """The names ``new`` defines that ``old`` did not, in the order ``new`` defines them."""
    added = _in_order(new)
    if not added:
        return []  # the old text is read only when the new one defines something
    before = _in_order(old)
    return [name for name in added if name not in before]


# A comment line in most languages: `#`, `//`, C's blocks (a `*` continuing one, COBOL's `*>` and `*---`,
# not a pointer's `*val = …` or `*(p + 1) = …`), `--` (SQL, Ada, Haskell, Elm), `;` (Lisp), `!` (Fortran),
# `%` (Erlang, TeX, MATLAB), ML's and Haskell's blocks (`(*`, `{-`), docstrings, a blank line.
_COMMENT_LINE = re.compile(r"^\s*(?:#|//|/\*|\*(?![\w(])|--|;|!|%|\(\*|\{-|-\}|<!--|-->|\"\"\"|\'\'\'|$)")
_DOCSTRING = re.compile(r"^\s*[rubf]*(?:\"\"\"|\'\'\')")
_TRAILING_COMMENT = re.compile(r"\s+(?:#|//|--|;|!|%)[^\n]*")


def code_lines(text: str) -> list[str]:
    """The lines of ``text`` that are not comments, docstrings or blank, stripped."""
    return list(_code_lines(text))


def _code_lines(text: str) -> Iterator[str]:
    inside = False
    closer = ""  # the end of the block comment the lines are in (`#>`, `*/`, `-}`, `=cut`), or none
    for line in text.splitlines():
        if closer:
            if closer in line:
                closer = ""
            continue
        quotes = line.count('"""') + line.count("'''")
        if inside or _DOCSTRING.match(line):
            if quotes % 2 == 1:
                inside = not inside
            continue
        if (opened := _BLOCK_OPENS.match(line)) is not None:
            end = _BLOCK_ENDS[opened.group(1)]
            closer = "" if end in line[opened.end() :] else end
            continue
        if not _COMMENT_LINE.match(line):
            yield line.strip()


# A block comment opening a line, and what closes it: PowerShell's comment-based help (`<# .SYNOPSIS … #>`),
# C's, Haskell's, ML's, Lua's and Lisp's blocks, Ruby's `=begin` and Perl's POD.
_BLOCK_ENDS = {"<#": "#>", "/*": "*/", "{-": "-}", "(*": "*)", "--[[": "]]", "#|": "|#", "=begin": "=end"}
_BLOCK_ENDS |= dict.fromkeys(("=pod", "=head", "=over", "=item", "=encoding", "=for"), "=cut")
_BLOCK_OPENS = re.compile(r"^\s*(<#|/\*|\{-|\(\*|--\[\[|#\||=begin|=pod|=head|=over|=item|=encoding|=for)")


def same_code(new: list[str], old: list[str]) -> bool:
    """Whether two texts' code lines (:func:`code_lines`) are the same, a comment put at or taken off a
    line's end aside (``x(:)`` and ``x(:)  !! sample values``)."""
    return len(new) == len(old) and all(_same_line(one, other) for one, other in zip(new, old, strict=True))


def comments_only(new: str, old: str) -> bool:
    """Whether replacing ``old`` with ``new`` changes comments, docstrings or blank lines only (read line by
    line from both, stopping at the first code line that differs: most edits change code early)."""
    if not (new.strip() or old.strip()):
        return False
    pairs = zip_longest(_code_lines(new), _code_lines(old))
    return all(one is not None and other is not None and _same_line(one, other) for one, other in pairs)


def _same_line(one: str, other: str) -> bool:
    if one == other:
        return True
    shorter, longer = sorted((one, other), key=len)
    return longer.startswith(shorter) and _TRAILING_COMMENT.fullmatch(longer, len(shorter)) is not None
