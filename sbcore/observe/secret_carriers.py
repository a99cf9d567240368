"""Secrets recognised by what carries them, where no name says secret.

:mod:`sbcore.observe.secret_categories` needs a name that says *key*, *token*, *password* and the like. Some
secrets travel under names that say nothing of the sort, yet the place they sit gives them away:

* **a custom HTTP header's random value**: ``X-Honeycomb-Team: …``, ``X-Riot-Client: …``. A vendor picks
  the header's name; what it carries, one random token, is a credential unless the name says it is an id,
  a trace, a date or a version;
* **a URL query's random value**: ``?appid=…``, ``&sig=…``. A long value with both cases and digits that
  reads as random is a key or a signature far more often than anything a reader needs;
* **a login in prose**: ``the staging login is admin / …``, ``creds: deploy:…``. After *login*, *creds* or
  *credentials*, a user, a slash or a colon, then the password;
* **two-factor recovery codes**: ``backup codes: 4f8a-1c2d 9e0b-77aa …``, each too short and plain to read
  as a secret alone, a secret as a list.

Each category is looked for only where its own words or punctuation occur (a few substring searches for a
text holding none), in the lower-cased ASCII copy (same offsets as the text). Standard library only: it runs
through ``redact`` on every projected string.
"""

from __future__ import annotations

import re

from sbcore.observe.entropy import looks_random

Span = tuple[int, int, str]  # start, end, kind

KINDS = frozenset({"secret-key", "password", "recovery-codes"})
"""The kinds these carriers' markers name."""

_VALUE_CHARS = r"[a-z0-9_.+/=~%-]"
_HEADER = re.compile(
    rf"x-[a-z0-9-]{{2,40}}[^\S\n]*:[^\S\n]*(?P<v>{_VALUE_CHARS}{{16,256}})(?!{_VALUE_CHARS})"
)
# A header whose value is no secret: an id of a request or a trace, a date, a version, a digest, an address.
_HEADER_SAYS_OTHERWISE = re.compile(
    r"ids?$|-ids?-|trace|span|request|correlation|date|time|version|forwarded|ip$|content|sha|hash|digest"
    r"|host|agent|event|delivery|rate-?limit|cache|cdn|region|origin|frame|powered|nonce"
)
# one pattern for each character a parameter opens with, so that ``re`` scans for a literal
_QUERY_OPENS = {
    opens: re.compile(
        rf"{re.escape(opens)}[a-z][a-z0-9_.-]{{0,40}}=(?P<v>{_VALUE_CHARS}{{24,512}})(?!{_VALUE_CHARS})"
    )
    for opens in "?&"
}
# The word for logging in opens the pattern (its first letters are what ``re`` scans for); the boundary
# before it is asked for after it, by a look-behind.
_LOGIN = re.compile(
    r"(?:login|credentials?|creds)(?<!\wlogin)(?<!\wcreds)(?<!\wcredential)(?<!\wcredentials)\b[^\n.]{0,40}?"
    r"(?:\bis|\bare|:|=)[^\S\n]+[`\"']?(?P<user>[\w.@+-]{1,64})[`\"']?[^\S\n]*[/:][^\S\n]*[`\"']?"
    r"(?P<v>[^\s`\"']{4,128})"
)
_FILE_NAME = re.compile(r"[\w-]+\.[a-z]{1,5}")
_NOT_PASSWORDS = frozenset(("", "password", "passwd", "pass", "secret", "token", "pwd", "changeme"))
_CODES = re.compile(
    r"(?:recovery|backup|2fa|mfa|one-time|otp)[ -]codes?\b[^\n]{0,60}?[:\n][^\S\n]*\n?"
    r"(?P<v>(?:(?:[-*•]|\d{1,2}[.)])?[^\S\n]*(?:[a-z0-9]{4,5}-[a-z0-9]{4,5}|[a-z]*\d[a-z0-9]{5,15})"
    r"(?:[^\S\n]*[,;]?[^\S\n]*\n?[^\S\n]*)){3,})"
)


def quiet(low: str) -> bool:
    """Whether no carrier here can hold a secret in the lower-cased ASCII text ``low``: each carrier's gate,
    then its pattern, which opens with a literal (``re`` finds it at the speed of a substring search)."""
    return not (
        ("x-" in low and _HEADER.search(low) is not None)
        or ("?" in low and _QUERY_OPENS["?"].search(low) is not None)
        or ("&" in low and _QUERY_OPENS["&"].search(low) is not None)
        or (_logs_in(low) and _LOGIN.search(low) is not None)
        or ("codes" in low and _CODES.search(low) is not None)
    )


def _logs_in(low: str) -> bool:
    return "login" in low or "cred" in low


def carried_spans(text: str, low: str) -> list[Span]:
    """The secrets each carrier above holds in ``text`` (``low``: its lower-cased ASCII copy)."""
    spans: list[Span] = []
    if "x-" in low:
        spans += _header_spans(text, low)
    for opens, pattern in _QUERY_OPENS.items():
        if opens in low:
            spans += _query_spans(text, low, pattern)
    if _logs_in(low):
        spans += _login_spans(text, low)
    if "codes" in low:
        spans += [
            (m.start("v"), m.start("v") + len(m.group("v").rstrip(" \t\n,;")), "recovery-codes")
            for m in _CODES.finditer(low)
        ]
    return spans


def _header_spans(text: str, low: str) -> list[Span]:
    spans = []
    for match in _HEADER.finditer(low):
        name = low[match.start() : low.index(":", match.start())].rstrip()
        value = text[match.start("v") : match.end("v")]
        if _HEADER_SAYS_OTHERWISE.search(name) or "[redacted:" in match.group("v"):
            continue
        if looks_random(value, 16, named=True):
            spans.append((match.start("v"), match.end("v"), "secret-key"))
    return spans


def _query_spans(text: str, low: str, pattern: re.Pattern[str]) -> list[Span]:
    spans = []
    for match in pattern.finditer(low):
        value = text[match.start("v") : match.end("v")]
        if value.startswith("http") or "%" in value or "[redacted:" in match.group("v"):
            continue  # a URL passed on (a redirect), or text encoded for a URL
        mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
        if mixed and any(c.isdigit() for c in value) and looks_random(value, 24, named=True):
            spans.append((match.start("v"), match.end("v"), "secret-key"))
    return spans


def _login_spans(text: str, low: str) -> list[Span]:
    spans = []
    for match in _LOGIN.finditer(low):
        value = match.group("v").rstrip(".,;:!?)]}")
        if len(value) < 4 or value.replace(":", "").isdigit() or "/" in value or _FILE_NAME.fullmatch(value):
            continue  # a port (host:8080) or a time, a path (POST /api/login), a file name
        if value.startswith("[redacted:") or value.strip("<>{}[]$*x") in _NOT_PASSWORDS:
            continue  # a marker already, or the word for one (username/password), a placeholder
        spans.append((match.start("v"), match.start("v") + len(value), "password"))
    return spans
