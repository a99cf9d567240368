"""Advisory text made safe to show: invisible and control characters gone, markup-like syntax removed.

The observer reads repository content and tool arguments, which anyone can write, and an advisory built
from them lands in the agent's context in a position of some trust. So before an advisory is remembered,
queued or framed, every part of it is cleaned here: :func:`sanitize` deletes invisible and
terminal-control characters and replaces anything shaped like a system reminder, a tool call, hook output
or a second frame with a visible ``[removed]``, so the user can see that something was taken out. The gate
cleans an advisory when it builds its envelope; delivery (:mod:`sbcore.deliver.framing`) cleans again at
render time. Standard library only.
"""

from __future__ import annotations

import re
import unicodedata

from sbcore.observe.sentinel import ADVISORY_SENTINEL

HEADLINE_CAP = 200
"""Longest headline, in characters (feedback_v1 allows no more either)."""
BODY_CEILING = 2000
"""Hard ceiling on a body at render time; the gate has already cut it to ``gate.body_cap``."""
EVIDENCE_ITEMS = 5
"""Evidence items shown; the rest are counted, not listed."""
EVIDENCE_CAP = 200
"""Longest evidence item, in characters."""
REMOVED = "[removed]"
"""What stands where markup-like text was taken out."""

# -- sanitising ---------------------------------------------------------------------------------

# Terminal escapes: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), the 8-bit CSI, and any
# other two-character ESC sequence.
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|\x1b[@-Z\\-_]"
)
# Names of tags the harness, the model API or the hooks use; any namespaced tag (``a:b``) too.
_TAG_NAMES = (
    "system-reminder|system|function_calls|function_results|invoke|parameter|tool_use|tool_result|"
    "tool_call|tool_calls|tool_use_error|task-notification|user-prompt-submit-hook|command-name|"
    "command-message|command-args|command-contents|local-command-stdout|local-command-stderr|"
    "local-command-caveat|bash-input|bash-stdout|bash-stderr|thinking|instructions|"
    r"[A-Za-z][\w.-]*:[\w.-]+"
)
_MARKUP = re.compile(
    # any closing tag
    r"</\s*[A-Za-z_][\w:.-]*\s*>"
    # an opening or self-closing tag of the names above, with or without its closing bracket
    rf"|<\s*(?:{_TAG_NAMES})(?![\w-])(?:\s+[\w:.-]+\s*=\s*(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s<>]*))*(?:\s*/?>)?"
    # hook output: the JSON keys Claude Code acts on, and a blocking decision
    r'|\{?\s*"(?:hookSpecificOutput|hookEventName|additionalContext|systemMessage|permissionDecision'
    r'|permissionDecisionReason|suppressOutput|stopReason)"\s*:?'
    r'|"decision"\s*:\s*"(?:block|approve|allow|deny|ask)"'
    r'|"continue"\s*:\s*false'
    # our own sentinel: a body must not be able to open a second frame
    rf"|{re.escape(ADVISORY_SENTINEL).replace(chr(92) + ' ', chr(92) + 's+')}",
    re.IGNORECASE,
)
_REPEATED_REMOVED = re.compile(rf"{re.escape(REMOVED)}(?:\s*{re.escape(REMOVED)})+")
# Variation selectors are not format characters but can carry hidden payloads just the same.
_VARIATION_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _invisible(char: str) -> bool:
    """Controls other than newline and tab, format characters (zero-width, bidi, tags), lone surrogates."""
    if char in "\n\t":
        return False
    return unicodedata.category(char) in ("Cc", "Cf", "Cs")


def sanitize(text: str) -> str:
    """``text`` with everything an advisory must not carry taken out.

    Deleted outright (they are invisible, so nothing visible is lost):
    terminal escape sequences, control characters other than ``\\n`` and
    ``\\t`` (``\\r\\n`` and a lone ``\\r`` become ``\\n``, as do Unicode line separators), format
    characters (zero-width spaces and joiners, bidi embeddings, overrides and
    isolates, the BOM, tag characters) and variation selectors.

    Replaced by ``[removed]``: any closing tag ``</…>``; opening tags used by
    the harness, the model API or hooks (``<system-reminder>``,
    ``<function_calls>``, ``<invoke …``, ``<tool_use>``, any ``<ns:name>``);
    the JSON keys hooks are obeyed through (``{"hookSpecificOutput"``,
    ``"additionalContext"``, ``"decision": "block"``, ...); and the advisory
    sentinel itself.

    Invisible characters go first, so ``<sys\\u200btem-reminder>`` cannot
    slip through, and the pass repeats until nothing changes. The result is a
    fixed point: ``sanitize(sanitize(t)) == sanitize(t)``.
    """
    current = text
    for _ in range(8):
        cleaned = current.replace("\r\n", "\n").replace("\r", "\n")
        cleaned = cleaned.replace("\u2028", "\n").replace("\u2029", "\n")
        cleaned = _ANSI.sub("", cleaned)
        cleaned = "".join(char for char in cleaned if not _invisible(char))
        cleaned = _VARIATION_SELECTORS.sub("", cleaned)
        cleaned = _MARKUP.sub(REMOVED, cleaned)
        cleaned = _REPEATED_REMOVED.sub(REMOVED, cleaned)
        if cleaned == current:
            return cleaned
        current = cleaned
    return current


def one_line(text: str) -> str:
    """Sanitised, with every run of whitespace (newlines included) made one space."""
    return " ".join(sanitize(text).split())


def cap(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the cut made visible: ``…[+N chars]``.

    The marker counts toward the limit and ``N`` is exactly the number of
    characters left out, so a reader knows how much is missing. The cut backs
    off to a word boundary when one is near.
    """
    if len(text) <= limit:
        return text
    if limit < 24:
        raise ValueError(f"a cap of {limit} characters leaves no room for the cut marker")
    keep = limit
    while True:
        kept = _head(text, keep)
        marker = f"…[+{len(text) - len(kept)} chars]"
        if len(kept) + len(marker) <= limit:
            return kept + marker
        keep = limit - len(marker)


_WORD_BACKOFF = 20


def _head(text: str, size: int) -> str:
    """The first ``size`` characters; when that splits a word, up to a whitespace just before it, if any."""
    head = text[:size]
    if size < len(text) and not text[size].isspace():
        space = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
        if space > 0 and size - space <= _WORD_BACKOFF:
            head = head[:space]
    return head.rstrip()


def clean_headline(text: str) -> str:
    """A headline as it may be shown: one sanitised line of at most :data:`HEADLINE_CAP` characters."""
    return cap(one_line(text), HEADLINE_CAP)


def clean_body(text: str, limit: int = BODY_CEILING) -> str:
    """A body as it may be shown: sanitised, trimmed, at most ``limit`` characters."""
    return cap(sanitize(text).strip(), limit)


def clean_evidence(items: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Evidence items as they may be shown: one line each, capped, empty ones dropped."""
    cleaned = (one_line(item) for item in items)
    return tuple(cap(item, EVIDENCE_CAP) for item in cleaned if item)
