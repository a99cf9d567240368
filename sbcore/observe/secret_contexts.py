"""Secrets known by their neighbourhood, where ``redact``'s operator rules cannot see them.

``redact``'s families find ``key=value``, ``key: value``, JSON and URL contexts through an operator
character. These rules find the rest of the ways a secret follows what names it:

* **A secret-ish name and a space** — ``aws configure set aws_secret_access_key VALUE``, a
  ``.netrc``'s ``password VALUE``, ``--client-secret VALUE``, ``the API key is VALUE``. A compound or
  flag-shaped name (``db_password``, ``--api-token``) or a name opening a line (config files) is a
  firm context: the value is judged as after ``=``. A plain word in prose (``the password …``) is a
  loose one: the value must read as random (:mod:`sbcore.observe.entropy`).
* **Any authorization scheme** — ``Authorization: SSWS …``, ``Authorization: Digest …``, or a bare
  credential with no scheme.
* **Commands that take a password as an argument or on stdin** — ``mysql -pVALUE``, ``7z -pVALUE``,
  ``zip -P VALUE``, ``sshpass -pVALUE``, ``docker login -p VALUE``, ``redis-cli -a VALUE``,
  ``ldapsearch -w VALUE``, ``htpasswd -b file user VALUE``, ``openssl … pass:VALUE``, and
  ``echo VALUE | sudo -S`` (or ``--password-stdin``, ``passwd --stdin``, ``chpasswd``).
* **A key id's partner** — a random token beside an AWS ``AKIA…`` id (its 40-character secret), an
  Alibaba ``LTAI…`` id, or a Twilio ``AC…``/``SK…`` id (the 32-hex auth token), wherever the pair is
  written, prose included.
* **Formats with no anchor character** — Databricks ``dapi…``, Twilio ``SK…``, an Azure AD client
  secret (``…Q~…``), a NuGet ``oy2…`` key, an Airtable ``pat….…`` token.

Speed: one combined keyword search over a lower-cased copy decides whether any rule can apply; most
projected strings hold none of the words, and cost that one scan. Each rule then runs only when its
own keyword is present. No pattern nests repeats, and each bounds how far it reads along a line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator

from sbcore.observe.entropy import looks_random

Span = tuple[int, int, int, str]  # start, end, priority, kind
Judge = Callable[[str, int, int, str, bool], "Span | None"]
"""``redact``'s judgement of a keyed value ``text[start:end]``: its span if it is a secret."""


class _Lazy:
    """A pattern compiled on first use.

    A hook imports this module to redact one prompt; most rules never run on it, so none of them is
    compiled until a text reaches it.
    """

    __slots__ = ("_compiled", "_source")

    def __init__(self, source: str) -> None:
        self._source = source
        self._compiled: re.Pattern[str] | None = None

    def _regex(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, re.ASCII)
        return self._compiled

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self._regex().finditer(text, pos, endpos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._regex().search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._regex().match(text, pos, endpos)


# A secret-ish name: what it ends with, after any prefix (``db_``, ``client-``, ``AWS_SECRET_ACCESS_``).
_NAME_END = (
    r"pass(?:word|wd|phrase)|secret|token|api[ _.-]?key|(?:secret|access|private|signing|encryption"
    r"|master|license|account|app|auth)[_.-]?key|_pass"
)
_VALUE = r"(?:'[^'\n]{1,256}'|\"[^\"\n]{1,256}\"|[^\s\"'`,;|&<>(){}\[\]]{1,512})"
# A name's last word, then spaces (an operator is ``redact``'s business), then the value. One pattern
# per word, each opening with its literal so that ``re`` finds it by a fast substring search; the
# rest of the name is found by walking back over name characters and must end as _NAME_END says.
_STEMS = ("pass", "secret", "token", "key")  # "_pwd" and "_auth" names are written with "=" or ":"
_SPACED = tuple(
    (
        stem,
        _Lazy(stem + r"[a-z]{0,6}(?P<e>)[\"']?[ \t]+(?:(?:is|was|of)[ \t]+)?(?P<v>" + _VALUE + ")"),
    )
    for stem in _STEMS
)
_NAME_OK = _Lazy(r"(?:" + _NAME_END + r")$")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")
# A compound, flag-shaped or camelCase name is code or configuration, not prose.
_FIRM_NAME = _Lazy(r".*(?:[-_.0-9]|[a-z][A-Z])")
_LINE_END = _Lazy(r"[ \t]*(?:\r?\n|$)")
_NETRC = _Lazy(r"(?:^|[ \t])(?:machine|login|default)[ \t]")

_AUTHORIZATION = _Lazy(
    r"authorization(?:\\?[\"'])?[ \t]*[:=][ \t]*(?:\\?[\"'])?"
    r"(?:(?P<scheme>[a-z][a-z0-9_.-]{1,30})[ \t]+)?(?P<v>[^\s\"'\\,;]{6,1024})",
)
_HANDLED_SCHEMES = frozenset({"bearer", "token", "basic"})  # redact's own rules name these

_ARG = r"(?P<v>'[^'\n]{1,256}'|\"[^\"\n]{1,256}\"|[^\s'\"|;&]{1,256})"
_IN_COMMAND = r"\b[^\n|;&]{0,200}?[ \t]"  # further along the same simple command


def _command(name: str, rest: str) -> str:
    """``name`` as a command word (not inside a path or a longer word), then ``rest``.

    The pattern opens with the literal name, so ``re`` finds it by a fast substring search, and
    checks what precedes it with a look-behind after it.
    """
    name = re.escape(name)
    # not after a word character, unless that is the "n" or "t" of a JSON-escaped newline or tab; a
    # marker's "]" counts as one, so that redacting a neighbour exposes nothing to a second pass
    return name + f"(?:(?<![\\w/.\\]-]{name})|(?<=\\\\[nt]{name}))" + rest


_PIPE_TARGET = (
    # a password for the command the pipe feeds: sudo -S, a --password-stdin, passwd --stdin, chpasswd
    r"[ \t]*\|[ \t]*(?:sudo\b[^\n|;&]{0,100}?[ \t]-[A-Za-z]*S\b|[^\n|;&]{0,200}?--password-stdin"
    r"|passwd\b[^\n|;&]{0,60}?--stdin|chpasswd|[^\n|;&]{0,200}?-pass(?:in)?[ \t]+stdin)"
)
_ECHOED = r"(?:[ \t]+-[neE]+)*[ \t]+(?:(?:'%s\\n'|\"%s\\n\")[ \t]+)?" + _ARG + _PIPE_TARGET
# Nested gates: a rule runs only where its flag (or pipe) and its command name are both present,
# and the flags only where some flag is: (outer gate, ((gate, ((command, pattern), ...)), ...)).
_Rules = tuple[tuple[str, _Lazy], ...]
_Flags = tuple[tuple[str, _Rules], ...]
_FLAGS: _Flags = (
    (
        "-p",
        (
            ("mysql", _Lazy(_command("mysql", r"\w*" + _IN_COMMAND + r"-p" + _ARG))),
            ("mariadb", _Lazy(_command("mariadb", r"\w*" + _IN_COMMAND + r"-p" + _ARG))),
            ("7z", _Lazy(_command("7z", r"[ar]?" + _IN_COMMAND + r"-p" + _ARG))),
            ("rar", _Lazy(_command("rar", _IN_COMMAND + r"-p" + _ARG))),
            ("sshpass", _Lazy(_command("sshpass", r"[ \t]+-p" + _ARG))),
            ("login", _Lazy(_command("login", _IN_COMMAND + r"-p[ \t]+" + _ARG))),
            ("mongo", _Lazy(_command("mongo", r"(?:sh)?" + _IN_COMMAND + r"-p[ \t]+" + _ARG))),
        ),
    ),
    (
        "-P",
        (
            ("zip", _Lazy(_command("zip", _IN_COMMAND + r"-P[ \t]*" + _ARG))),
            ("unzip", _Lazy(_command("unzip", _IN_COMMAND + r"-P[ \t]*" + _ARG))),
        ),
    ),
    ("-a", (("redis-cli", _Lazy(_command("redis-cli", _IN_COMMAND + r"-a[ \t]+" + _ARG))),)),
    ("-w", (("ldap", _Lazy(_command("ldap", r"\w+" + _IN_COMMAND + r"-w[ \t]+" + _ARG))),)),
    ("pass:", (("-", _Lazy(r"-(?:passin|passout|pass|password|k)[ \t]+pass:" + _ARG)),)),
    (
        "<<<",
        (
            (
                "sudo",
                _Lazy(
                    _command("sudo", r"\b[^\n|;&]{0,100}?[ \t]-[A-Za-z]*S\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG)
                ),
            ),
        ),
    ),
)
_PIPES: _Flags = (
    ("|", (("echo", _Lazy(_command("echo", _ECHOED))), ("printf", _Lazy(_command("printf", _ECHOED))))),
)
_COMMANDS = ((" -", _FLAGS), ("|", _PIPES))  # the outer gate, then its flags
# htpasswd -b[cBmsp…] [file] user password: the last of the arguments (two of them with -n).
_HTPASSWD = _Lazy(
    _command(
        "htpasswd", r"(?P<flags>(?:[ \t]+-[A-Za-z]+)+)(?:[ \t]+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"|;&]+)){2,3}"
    ),
)
_WORDS = _Lazy(r"'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"|;&]+")

_BOUNDED = r"(?![A-Za-z0-9])"
# A key id (literal prefix, then the rest), and the shape of the secret that goes with it.
_KEY_IDS: tuple[tuple[str, str, _Lazy], ...] = tuple(
    (prefix, vendor, _Lazy(_command(prefix, rest + _BOUNDED)))
    for prefix, vendor, rest in (
        *((prefix, "aws", r"[A-Z2-7]{16}") for prefix in ("AKIA", "ASIA", "ABIA", "ACCA")),
        ("LTAI", "alibaba", r"[A-Za-z0-9]{12,30}"),
        ("AC", "twilio", r"[0-9a-f]{32}"),
        ("SK", "twilio_key", r"[0-9a-f]{32}"),
    )
)
_PARTNERS: dict[str, tuple[str, _Lazy]] = {
    "aws": (
        "aws-secret-access-key",
        _Lazy(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"),
    ),
    "alibaba": (
        "alibaba-access-key-secret",
        _Lazy(r"(?<![A-Za-z0-9])[A-Za-z0-9]{30}(?![A-Za-z0-9])"),
    ),
    "twilio": ("twilio-auth-token", _Lazy(r"(?<![A-Za-z0-9])[0-9a-f]{32}(?![A-Za-z0-9])")),
    "twilio_key": (
        "twilio-auth-token",
        _Lazy(r"(?<![A-Za-z0-9])[A-Za-z0-9]{32}(?![A-Za-z0-9])"),
    ),
}
_MIXED_CASE = frozenset({"aws", "alibaba"})  # their secrets are mixed case: a hex digest is not one
_NEIGHBOURHOOD = 320  # characters either side of a key id searched for its partner

# Formats whose prefix holds none of ``redact``'s anchor characters: (prefix, kind, pattern).
_BARE_FORMATS: tuple[tuple[str, str, _Lazy], ...] = tuple(
    (prefix, kind, _Lazy(_command(prefix, rest + _BOUNDED)))
    for prefix, kind, rest in (
        ("dapi", "databricks-token", r"[0-9a-f]{32}(?:-\d{1,2})?"),
        ("oy2", "nuget-api-key", r"[a-z0-9]{43}"),
        ("pat", "airtable-token", r"[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    )
)
# Where a key id, a Twilio API key or an Azure AD secret may be: one search for all the upper-case marks.
_UPPER_GATE = re.compile(r"A(?:KIA|SIA|BIA|CCA|C[0-9a-f])|LTAI|SK[0-9a-f]|Q~", re.ASCII)  # runs on every text
_TWILIO_API_KEY = _Lazy(_command("SK", r"[0-9a-f]{32}" + _BOUNDED))
# An Azure AD client secret: three characters, a digit, "Q~", then 31 to 34 more.
_AZURE_MARK = "Q~"
_AZURE = _Lazy(r"(?<![\w~.-])[\w~.-]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])")

KINDS = frozenset(
    {"password", "authorization", *(kind for kind, _ in _PARTNERS.values())}
    | {kind for _, kind, _ in _BARE_FORMATS}
    | {"azure-ad-client-secret", "twilio-api-key"}
)
"""The kinds these rules name besides those a key names (see ``redact._KEY_KINDS``)."""


def context_spans(
    text: str, scan: str, judge: Judge, key_kind: Callable[[str], str], spans: list[Span]
) -> None:
    """Add every secret these rules find in ``text`` to ``spans`` (``scan``: its ASCII copy).

    Each rule runs only when a substring it cannot match without is present (a command's rules only
    where a flag or a pipe is, then only where the flag and the command are), and the substring
    tests come first, so a string holding none of them costs a few substring searches and no rule.
    """
    low = scan.lower()
    for stem, pattern in _SPACED:
        if stem in low:
            spans.extend(_spaced(text, low, stem, pattern, judge, key_kind))
    if "authoriz" in low:
        spans.extend(_authorization(text, low, judge))
    for outer, flags in _COMMANDS:
        if outer in scan:
            spans.extend(_commands(text, scan, flags, judge))
    if _UPPER_GATE.search(scan) is not None:
        spans.extend(_upper_case_marks(scan))
    for prefix, kind, pattern in _BARE_FORMATS:
        if prefix in scan:
            spans.extend((start, end, 2, kind) for start, end in _at_each(scan, prefix, pattern))


def _commands(text: str, scan: str, flags: _Flags, judge: Judge) -> Iterator[Span]:
    """Passwords given to commands as arguments or on stdin."""
    for flag, rules in flags:
        if flag in scan:
            for command, pattern in rules:
                if command in scan:
                    for match in pattern.finditer(scan):
                        if (
                            span := judge(text, match.start("v"), match.end("v"), "password", False)
                        ) is not None:
                            yield span
    if flags is _FLAGS and "htpasswd" in scan:
        yield from _htpasswd(text, scan, judge)


def _upper_case_marks(scan: str) -> Iterator[Span]:
    """Key ids' partners, Twilio API keys, Azure AD client secrets."""
    for prefix, vendor, pattern in _KEY_IDS:
        if prefix in scan:
            yield from _partners(scan, vendor, pattern)
    if "SK" in scan:
        yield from ((m.start(), m.end(), 2, "twilio-api-key") for m in _TWILIO_API_KEY.finditer(scan))
    mark = scan.find(_AZURE_MARK)
    while mark != -1:
        if mark >= 4 and (found := _AZURE.match(scan, mark - 4)):
            yield found.start(), found.end(), 2, "azure-ad-client-secret"
        mark = scan.find(_AZURE_MARK, mark + 2)


def _at_each(text: str, literal: str, pattern: _Lazy) -> Iterator[tuple[int, int]]:
    """Where ``pattern`` (which opens with ``literal``) matches at an occurrence of ``literal``.

    A substring search finds the occurrences faster than ``re`` scans for them.
    """
    found = text.find(literal)
    while found != -1:
        if match := pattern.match(text, found):
            yield match.start(), match.end()
        found = text.find(literal, found + 1)


def _spaced(
    text: str, low: str, stem: str, pattern: _Lazy, judge: Judge, key_kind: Callable[[str], str]
) -> Iterator[Span]:
    """``name VALUE`` where the name ends in ``stem``."""
    found = low.find(stem)
    while found != -1:
        if (match := pattern.match(low, found)) is not None and (
            span := _spaced_span(text, low, match, judge, key_kind)
        ) is not None:
            yield span
        found = low.find(stem, found + 1)


def _spaced_span(
    text: str, low: str, match: re.Match[str], judge: Judge, key_kind: Callable[[str], str]
) -> Span | None:
    """Judge one ``name VALUE`` match: walk back to the name's start, decide how firm it is."""
    start, floor, name_end = match.start(), max(0, match.start() - 64), match.start("e")
    while start > floor and low[start - 1] in _NAME_CHARS:
        start -= 1
    if low[start - 4 : start] in ("api ", "app "):
        start -= 4  # "API key", spelt as two words in prose
    if not _NAME_OK.search(low, start, name_end):
        return None
    key = text[start:name_end]
    firm = bool(_FIRM_NAME.match(key)) or (key.isupper() and " " not in key)
    if not firm:
        line_start = low.rfind("\n", 0, start) + 1
        before = low[line_start:start]
        firm = bool(not before.strip() and _LINE_END.match(low, match.end("v")))
        firm = firm or bool(_NETRC.search(before))
    return judge(text, match.start("v"), match.end("v"), key_kind(key), not firm)


def _authorization(text: str, low: str, judge: Judge) -> Iterator[Span]:
    """``Authorization: <scheme> <credential>`` for schemes other than Bearer, Token and Basic."""
    for match in _AUTHORIZATION.finditer(low):
        scheme = match.group("scheme")
        if scheme in _HANDLED_SCHEMES:
            continue
        if (span := judge(text, match.start("v"), match.end("v"), "authorization", False)) is not None:
            yield span


def _htpasswd(text: str, scan: str, judge: Judge) -> Iterator[Span]:
    """``htpasswd -b`` takes the password as its last argument: the third, or the second with ``-n``."""
    for match in _HTPASSWD.finditer(scan):
        flags = match.group("flags")
        if "b" not in flags:
            continue
        words = list(_WORDS.finditer(scan, match.end("flags"), match.end()))
        wanted = 2 if "n" in flags else 3
        if len(words) >= wanted:
            word = words[wanted - 1]
            if (span := judge(text, word.start(), word.end(), "password", False)) is not None:
                yield span


def _partners(scan: str, vendor: str, pattern: _Lazy) -> Iterator[Span]:
    """A random token of the partner's shape near a key id: the id's secret."""
    kind, shape = _PARTNERS[vendor]
    for match in pattern.finditer(scan):
        low, high = max(0, match.start() - _NEIGHBOURHOOD), match.end() + _NEIGHBOURHOOD
        for partner in shape.finditer(scan, low, high):
            token = partner.group(0)
            if partner.start() == match.start() or not looks_random(token) or token.isalpha():
                continue
            if vendor in _MIXED_CASE and (token.lower() == token or token.upper() == token):
                continue
            yield partner.start(), partner.end(), 2, kind
