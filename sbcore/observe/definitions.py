"""Which definitions with behaviour a piece of code adds: the names an edit defines that it did not before.

An edit that adds a function, a method or a class is new code, which a reviewer expects tests for, as
much as a file written whole. The projection caps an edit's text, so a definition in the cut part would
be invisible to the triggers: :mod:`.calls` reads the whole text and keeps the names it adds (``defines``
in the projected arguments). One pattern covers the definition keywords of most languages; a type or a
record declared alone is data, not a code path. Standard library only (it runs in the projection).
"""

from __future__ import annotations

import re

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
)
_EMPTY_BODY = re.compile(r"(?:\{\s*\}|:\s*(?:pass|\.\.\.)|=>\s*\{\s*\}|\bend)\s*;?\s*$")


def defined_names(text: str) -> set[str]:
    """The names ``text`` defines with behaviour: not an empty body on the same line (a stub, a no-op),
    not a line the projection cut short (what follows it is unknown). Names, so a definition changed in
    place (``def f`` made ``async def f``) is not a new one."""
    names: set[str] = set()
    for line in text.splitlines():
        opening = line.lstrip()
        if not (opening.startswith(_OPENINGS) or "=>" in line or "::" in line or "function" in line):
            continue  # no form of the pattern can match: most lines of code (checked at C speed)
        found = _DEFINITION.match(line)
        if found is not None and "…" not in line and not _EMPTY_BODY.search(line):
            names.add(next(value for value in found.groupdict().values() if value))
    return names


# What a line the pattern matches opens with, unless it holds "=>", "::" or "function" (a bound arrow or
# function expression, a Haskell signature): a modifier or a definition keyword.
_OPENINGS = (
    *("export ", "pub ", "pub(", "public ", "private ", "protected ", "internal ", "static ", "override "),
    *("abstract ", "final ", "async ", "unsafe ", "inline ", "extern ", "default ", "open ", "suspend "),
    *("virtual ", "const ", "def ", "def\t", "defp ", "defmacro ", "fn ", "func ", "class ", "fun ", "sub "),
    *("proc ", "let ", "var "),
)


def added_definitions(new: str, old: str) -> list[str]:
    """The names ``new`` defines that ``old`` did not, in the order ``new`` defines them."""
    added = defined_names(new)
    if added:  # the old text is read only when the new one defines something
        added -= defined_names(old)
    if not added:
        return []
    order = [line for line in new.splitlines() if any(name in line for name in added)]
    return sorted(added, key=lambda name: next((i for i, line in enumerate(order) if name in line), 0))
