"""Secrets written in forms of code, SQL and command lines that name them without an operator after the name.

:mod:`.secret_contexts` finds a secret after a secret-ish name and a space, a flag, a pipe or a here-string;
these are the forms where something else stands between them, each found through the substring it needs:

* **A quoted secret-ish key handed its value** — ``define('DB_PASSWORD', 'VALUE')``,
  ``app.config['SECRET_KEY'] = 'VALUE'``, ``os.environ["API_KEY"] = "VALUE"``,
  ``SetEnvironmentVariable('API_KEY', 'VALUE')``, ``$cfg['Servers'][$i]['password'] = 'VALUE'``: a call's
  next argument (which must read as random) or an index's assignment.
* **SQL** — ``CREATE USER … IDENTIFIED BY 'VALUE'`` (Oracle, MySQL, MariaDB) and ``SET PASSWORD FOR … =
  'VALUE'``.
* **A credential pair in code** — ``auth=('user', 'VALUE')``, ``HTTPBasicAuth('user', 'VALUE')``.
* **Commands** — ``ConvertTo-SecureString 'VALUE' -AsPlainText``, ``cmdkey … /pass:VALUE``, Windows' ``net
  user NAME VALUE``, ``cargo login TOKEN``, and a random-looking token as a URL's user with no password
  (``https://TOKEN@dev.azure.com/…``, a personal access token).

Each rule runs only where its substring is, so a text holding none costs a few substring searches. A value
that is a variable, a template or a placeholder is left alone by ``redact``'s judgement, as everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

Span = tuple[int, int, int, str]  # start, end, priority, kind
Judge = Callable[[str, int, int, "str | Callable[[], str]", bool], "Span | None"]

_NAME = (
    r"[\w.-]*(?:pass(?:word|wd|phrase)?|secret|token|api[_.-]?key|(?:auth|private|secret|access)[_.-]?key)"
    r"[\w.-]*"
)
_QUOTED = r"(?:'(?P<v>[^'\n]{1,256})'|\"(?P<w>[^\"\n]{1,256})\")"
_QUOTED_KEY = re.compile(
    rf"(?i:['\"](?P<key>{_NAME})['\"])[ \t]*(?P<op>\][ \t]*=|,)[ \t]*{_QUOTED}", re.ASCII
)
_SQL_IDENTIFIED = re.compile(
    rf"(?i:\bidentified[ \t]+by)(?:[ \t]+(?i:password))?[ \t]+"
    rf"(?:{_QUOTED}|(?P<b>[^\s;'\":@?$][^\s;'\"]{{0,255}}))",
    re.ASCII,
)
_SQL_SET_PASSWORD = re.compile(
    rf"(?i:\bset[ \t]+password\b)[^\n;=]{{0,120}}=[ \t]*(?:(?i:password)\()?{_QUOTED}"
)
_CREDENTIAL_PAIR = re.compile(
    rf"(?:\bauth[ \t]*=[ \t]*\(|\b\w*(?:Basic|Digest)Auth\()[ \t]*['\"][^'\"\n]{{0,128}}['\"][ \t]*,"
    rf"[ \t]*{_QUOTED}",
    re.ASCII,
)
_SECURE_STRING = re.compile(rf"(?i:convertto-securestring)(?:[ \t]+-(?i:string))?[ \t]+{_QUOTED}", re.ASCII)
_SLASH_PASS = re.compile(r"(?i:/pass(?:word)?:)(?P<b>[^\s\"'/]{1,256})", re.ASCII)
_NET_USER = re.compile(
    r"(?i:\bnet[ \t]+user)[ \t]+(?:\"[^\"\n]+\"|[^\s/\"]+)[ \t]+(?P<b>[^\s/*\"][^\s\"]{0,255})"
)
_CARGO_LOGIN = re.compile(r"\bcargo[ \t]+login[ \t]+(?P<b>[A-Za-z0-9_-]{16,256})\b", re.ASCII)
_URL_TOKEN_USER = re.compile(r"://(?P<b>[A-Za-z0-9_-]{20,256})@[\w.-]+", re.ASCII)


def quiet(low: str) -> bool:
    """Whether no rule here can fire in ``low`` (a lower-cased text): it holds none of their substrings."""
    return not (
        (("'" in low or '"' in low) and ("pass" in low or "secret" in low or "token" in low or "key" in low))
        or "identified" in low
        or "set password" in low
        or "auth" in low
        or "convertto-securestring" in low
        or "/pass" in low
        or "net user" in low
        or "cargo login" in low
        or ("://" in low and "@" in low)
    )


def form_spans(
    text: str, scan: str, low: str, judge: Judge, key_kind: Callable[[str], str]
) -> Iterator[Span]:
    """The secrets these forms hold in ``text`` (``scan``: its ASCII copy, ``low``: that lower-cased)."""
    if ("'" in scan or '"' in scan) and ("pass" in low or "secret" in low or "token" in low or "key" in low):
        for match in _QUOTED_KEY.finditer(scan):
            key = match.group("key")
            # a call's next argument (`define('DB_PASSWORD', 'v')`) must read as random: a list of field names
            # (`['password', 'email']`) is no secret; an index's assignment sets a value
            strict = match.group("op") == ","
            yield from _judged(text, match, judge, lambda key=key: key_kind(key), strict)  # type: ignore[misc]
    if "identified" in low:
        for match in _SQL_IDENTIFIED.finditer(scan):
            yield from _judged(text, match, judge, "password")
    if "set password" in low:
        for match in _SQL_SET_PASSWORD.finditer(scan):
            yield from _judged(text, match, judge, "password")
    if "auth" in low:
        for match in _CREDENTIAL_PAIR.finditer(scan):
            yield from _judged(text, match, judge, "password")
    if "convertto-securestring" in low:
        for match in _SECURE_STRING.finditer(scan):
            yield from _judged(text, match, judge, "password")
    if "/pass" in low:
        for match in _SLASH_PASS.finditer(scan):
            yield from _judged(text, match, judge, "password")
    if "net user" in low:
        for match in _NET_USER.finditer(scan):
            yield from _judged(text, match, judge, "password")
    if "cargo login" in low:
        for match in _CARGO_LOGIN.finditer(scan):
            yield from _judged(text, match, judge, "token", strict=True)
    if "://" in scan and "@" in scan:
        for match in _URL_TOKEN_USER.finditer(scan):
            yield from _judged(text, match, judge, "url-credentials", strict=True)


def _judged(
    text: str, match: re.Match[str], judge: Judge, kind: str | Callable[[], str], strict: bool = False
) -> Iterator[Span]:
    """The span of ``match``'s value (group ``v``, ``w`` or ``b``), if ``redact``'s judgement finds it a
    secret (``strict``: only a random-looking one, where nothing but the shape says so)."""
    name = next(group for group in ("v", "w", "b") if group in match.re.groupindex and match.group(group))
    span = judge(text, match.start(name), match.end(name), kind, strict)
    if span is not None:
        yield span
