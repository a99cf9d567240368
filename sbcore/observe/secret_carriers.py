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
* **a call or a variable named for a secret**: a quoted literal handed to ``.bearer_auth(…)``,
  ``set_api_key(…)`` (when it reads as random), the password ``login("user", "…")`` is handed, a Terraform
  variable's ``default`` when the variable is named for a token, a key or a password, SQL's ``IDENTIFIED BY
  '…'``;
* **two-factor recovery codes**: ``backup codes: 4f8a-1c2d 9e0b-77aa …``, each too short and plain to read
  as a secret alone, a secret as a list.

Each category is looked for only where its own words or punctuation occur (a few substring searches for a
text holding none), in the lower-cased ASCII copy (same offsets as the text). Standard library only: it runs
through ``redact`` on every projected string.
"""

from __future__ import annotations

import re

from sbcore.observe.entropy import looks_random
from sbcore.observe.lazy_pattern import Lazy, lazy

Span = tuple[int, int, str]  # start, end, kind

KINDS = frozenset({"secret-key", "password", "recovery-codes"})
"""The kinds these carriers' markers name."""

_VALUE_CHARS = r"[a-z0-9_.+/=~%-]"
_HEADER = lazy(rf"x-[a-z0-9-]{{2,40}}[^\S\n]*:[^\S\n]*(?P<v>{_VALUE_CHARS}{{16,256}})(?!{_VALUE_CHARS})")
# A header whose value is no secret: an id of a request or a trace, a date, a version, a digest, an address.
_HEADER_SAYS_OTHERWISE = lazy(
    r"ids?$|-ids?-|trace|span|request|correlation|date|time|version|forwarded|ip$|content|sha|hash|digest"
    r"|host|agent|event|delivery|rate-?limit|cache|cdn|region|origin|frame|powered|nonce"
)
# A key in lower-case hex (32 characters or more), unless the parameter names a hash, a commit or an id.
_HEX_KEY = lazy(r"[0-9a-f]{32,128}")
_NAMES_A_HASH = lazy(
    r"sha\d*|hash|commit|ref|rev|revision|oid|etag|digest|checksum|md5|uuid|guid|ids?|[\w.-]*[_.-]ids?|tree|blob"
    r"|version|v|cache|cb|t|ts|head|base|after|before|since|until|cursor|state"
)
# one pattern for each character a parameter opens with, so that ``re`` scans for a literal
_QUERY_OPENS = {
    opens: lazy(
        rf"{re.escape(opens)}[a-z][a-z0-9_.-]{{0,40}}=(?P<v>{_VALUE_CHARS}{{24,512}})(?!{_VALUE_CHARS})"
    )
    for opens in "?&"
}
# The word for logging in opens the pattern (its first letters are what ``re`` scans for); the boundary
# before it is asked for after it, by a look-behind.
_LOGIN = lazy(
    r"(?:login|credentials?|creds)(?<!\wlogin)(?<!\wcreds)(?<!\wcredential)(?<!\wcredentials)\b[^\n.]{0,40}?"
    r"(?:\bis|\bare|:|=)[^\S\n]+[`\"']?(?P<user>[\w.@+-]{1,64})[`\"']?[^\S\n]*[/:][^\S\n]*[`\"']?"
    r"(?P<v>[^\s`\"']{4,128})"
)
_FILE_NAME = lazy(r"[\w-]+\.[a-z]{1,5}")
_NOT_PASSWORDS = frozenset(("", "password", "passwd", "pass", "secret", "token", "pwd", "changeme"))
_CODES = lazy(
    r"(?:recovery|backup|2fa|mfa|one-time|otp)[ -]codes?\b[^\n]{0,60}?[:\n][^\S\n]*\n?"
    r"(?P<v>(?:(?:[-*•]|\d{1,2}[.)])?[^\S\n]*(?:[a-z0-9]{4,5}-[a-z0-9]{4,5}|[a-z]*\d[a-z0-9]{5,15})"
    r"(?:[^\S\n]*[,;]?[^\S\n]*\n?[^\S\n]*)){3,})"
)


# A call whose name says it takes a secret, handed a quoted literal (`.bearer_auth("ff61…")`,
# `client.set_api_key('…')`, `withToken("…", …)`): its first argument, or its second after a quoted first
_SECRET_CALL = lazy(
    r"(?:auth|token|passw(?:or)?d|secret|api_?key|credentials?|bearer)[a-z0-9_]*[^\S\n]*\([^\S\n]*"
    r"(?:[\"'][^\"'\n]{0,80}[\"'][^\S\n]*,[^\S\n]*)?[\"'](?P<v>[^\"'\s]{12,256})[\"']"
)
# `login(user, password)` with both literal (`server.login("reports@acme.io", "smdz ojko tqzz dgsp")`)
_LOGIN_CALL = lazy(
    r"login[^\S\n]*\([^\S\n]*[\"'][^\"'\n]{1,80}[\"'][^\S\n]*,[^\S\n]*[\"'](?P<v>[^\"'\n]{4,128})[\"']"
)
# A Terraform variable named for a secret, with a default (`variable "pagerduty_token" { … default = "…" }`)
_VARIABLE_DEFAULT = lazy(
    r"variable[^\S\n]+\"(?P<name>[^\"\n]{1,80})\"[^\S\n]*\{[^{}]{0,600}?\bdefault[^\S\n]*=[^\S\n]*"
    r"\"(?P<v>[^\"\n]{6,256})\""
)
_NAME_SAYS_SECRET = lazy(r"key|token|secret|passw|pwd|auth|credential")
# SQL's password for a user (`CREATE USER 'm'@'%' IDENTIFIED BY '…'`, Oracle's `IDENTIFIED BY "…"`)
_IDENTIFIED_BY = lazy(
    r"identified[^\S\n]+(?:with[^\S\n]+\w+[^\S\n]+)?by[^\S\n]+(?:password[^\S\n]+)?"
    r"(?P<q>['\"])(?P<v>[^'\"\n]{4,128})(?P=q)"
)


def quiet(low: str) -> bool:
    """Whether no carrier here can hold a secret in the lower-cased ASCII text ``low``: each carrier's gate (a
    few substring searches), then its pattern, only where the gate passes."""
    return not (
        ("x-" in low and _HEADER.search(low) is not None)
        or ("?" in low and _QUERY_OPENS["?"].search(low) is not None)
        or ("&" in low and _QUERY_OPENS["&"].search(low) is not None)
        or (_logs_in(low) and _LOGIN.search(low) is not None)
        or ("codes" in low and _CODES.search(low) is not None)
        or (
            _calls_literal(low)
            and (_SECRET_CALL.search(low) is not None or _LOGIN_CALL.search(low) is not None)
        )
        or ("default" in low and "variable" in low and _VARIABLE_DEFAULT.search(low) is not None)
        or ("identified" in low and _IDENTIFIED_BY.search(low) is not None)
    )


def _calls_literal(low: str) -> bool:
    return '("' in low or "('" in low


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
    if _calls_literal(low):
        spans += _call_spans(text, low)
    if "default" in low and "variable" in low:
        spans += _default_spans(text, low)
    if "identified" in low:
        spans += [
            (m.start("v"), m.end("v"), "password")
            for m in _IDENTIFIED_BY.finditer(low)
            if m.group("v").strip(" <>{}[]$*x") not in _NOT_PASSWORDS and "[redacted:" not in m.group("v")
        ]
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


def _query_spans(text: str, low: str, pattern: Lazy) -> list[Span]:
    spans = []
    for match in pattern.finditer(low):
        value = text[match.start("v") : match.end("v")]
        if value.startswith("http") or "%" in value or "[redacted:" in match.group("v"):
            continue  # a URL passed on (a redirect), or text encoded for a URL
        mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
        if mixed and any(c.isdigit() for c in value) and looks_random(value, 24, named=True):
            spans.append((match.start("v"), match.end("v"), "secret-key"))
        elif _HEX_KEY.fullmatch(value) and not _NAMES_A_HASH.fullmatch(_parameter(low, match.start("v"))):
            spans.append((match.start("v"), match.end("v"), "secret-key"))  # `appid=db44a3…`: a hex key
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


def _call_spans(text: str, low: str) -> list[Span]:
    spans = []
    for match in _SECRET_CALL.finditer(low):
        value = text[match.start("v") : match.end("v")]
        if "[redacted:" not in match.group("v") and looks_random(value, 12, named=True):
            spans.append((match.start("v"), match.end("v"), "secret-key"))
    for match in _LOGIN_CALL.finditer(low):
        value = match.group("v")
        if value.strip(" <>{}[]$*x") not in _NOT_PASSWORDS and "[redacted:" not in value and "{" not in value:
            spans.append((match.start("v"), match.end("v"), "password"))
    return spans


def _default_spans(text: str, low: str) -> list[Span]:
    spans = []
    for match in _VARIABLE_DEFAULT.finditer(low):
        value = match.group("v")
        if not _NAME_SAYS_SECRET.search(match.group("name")) or "${" in value or "[redacted:" in value:
            continue
        if value.strip(" <>{}[]$*x") not in _NOT_PASSWORDS and len(value) >= 8:
            spans.append((match.start("v"), match.end("v"), "secret-key"))
    return spans


def _parameter(low: str, value_start: int) -> str:
    """The name of the query parameter whose value starts at ``value_start``."""
    opens = max(low.rfind("?", 0, value_start), low.rfind("&", 0, value_start))
    return low[opens + 1 : value_start - 1]
