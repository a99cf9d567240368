"""Secret redaction for every projected string (placeholder rule set; see tests).

``redact`` replaces each secret with ``[REDACTED:<kind>]``. It runs on a string
before that string is capped, so a secret straddling a cap cannot leak a prefix.
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aws-access-key-id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b")),
)


def redact(text: str) -> str:
    """Return ``text`` with every recognised secret replaced by a marker."""
    for kind, pattern in _RULES:
        text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text
