"""Secret redaction for every projected string.

``redact(text)`` replaces each recognised secret with ``[REDACTED:<kind>]``. The tables of formats and keys
are data in :mod:`sbcore.observe.secret_rules`; this module compiles them. Two kinds of rules:

* **Formats** — a secret recognisable by its own shape: a vendor prefix plus a body (``ghp_…``,
  ``xoxb-…``, ``AKIA…``, ``sk-ant-…``), a JWT, a PEM private-key block. The whole secret, prefix
  included, becomes the marker.
* **Contexts** — a value that is secret because of where it sits: ``password=…``, ``"api_key": "…"``,
  ``Authorization: Bearer …``, ``--token …``, the password in ``scheme://user:password@host``, the path
  of a webhook URL. The key, quotes and URL scaffolding stay; only the value becomes the marker, and the
  kind names the vendor when the key does (``DATADOG_API_KEY=…`` → ``datadog-api-key``). The contexts
  with no operator — ``name VALUE``, any ``Authorization`` scheme, commands taking a password
  (``mysql -p…``, ``echo … | sudo -S``), a key id's partner — and the formats with no anchor character
  are in :mod:`sbcore.observe.secret_contexts`.

Where a format secret sits inside a context (``GITHUB_TOKEN=ghp_…``) the union of both spans is
redacted under the more specific, format kind. ``KINDS`` lists every kind a marker can name.

Left alone on purpose (the tests pin each case): git SHAs and other hex, UUIDs, base64 of ordinary
data, npm ``sha512-`` integrity hashes, file paths, identifiers such as ``tokenizer`` or
``token_count=5``, and context values that are not literal secrets — variables and templates (``$X``,
``${X}``, ``${{ secrets.X }}``, ``%X%``, ``{{ x }}``), placeholders (``<your-token>``, ``***``,
``xxxx``, ``sk-...abcd``, ``your_api_key``, and ``changeme``/``changeit``, which are published defaults
rather than secrets), ``None``/``null``/``true``/``false``, and code: a call, an index, or a bare
identifier or type (``getpass()``, ``os.environ["X"]``, ``self.token``, ``token: str``). A bare value
of letters only (and ``_ . -``) counts only when it reads as random (:mod:`sbcore.observe.entropy`):
a letters-only API key goes, ``getApiKeyFromEnvironment`` stays; a quoted value need not.

Contract with the projector (caps): redact **before** capping, so that a secret straddling the cap
cannot leak a prefix. Redacting a huge body is wasteful, so the projector may redact only a head slice:
``text[: cap + MARGIN]`` with ``MARGIN >= MAX_SECRET_SPAN``, or the text up to the end of the line holding
the cap. The first is safe because a single-line rule recognises a secret from at most its first
``MAX_SECRET_SPAN`` characters and, once it has, redacts it up to the end of the slice even where the
slice cuts it short; a PEM ``BEGIN`` whose ``END`` lies beyond the slice is redacted to the end of the
slice. The second, because no match reads past the line its secret is on (a multi-line value, a PEM
block or a PuTTY key's lines, is redacted to the end of the slice), but for a key id's partner, found
from an id up to ``secret_contexts.PARTNER_REACH`` characters after it: a slice reaching an id's prefix
must go that much further. Markers change lengths, so cap the redacted slice, never the original.

Speed: ``redact`` runs on every projected string, and CPython's ``re`` is fast only while it scans for
a pattern's leading literal; every place where that literal occurs costs a trip into the matcher. So
the rules are compiled into six patterns, one per *anchor* character that each rule's prefix contains
(``_ - . A : =``), and a pattern runs only when its anchor occurs in the text. Within a pattern the
rules form a prefix trie over what follows the anchor, so most anchor occurrences are rejected after a
comparison or two; a rule whose body starts right after the anchor sits behind one look-behind over
the few characters before it. Text holding non-ASCII characters is scanned through an ASCII copy
(secrets are ASCII), which ``re`` reads up to twice as fast. No pattern nests repeats, so no input
backtracks catastrophically. Each pattern is compiled the first time its anchor occurs (a hook that
redacts one prompt pays only for the anchors it holds). A short string the families find nothing in
asks the other rules once whether it holds a substring they need (``quiet``; most hold none: one ``re``
alternation of them measured slower). ``python -m sbcore.bench.redaction T...`` prints throughput.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from sbcore.observe import family_needles, secret_categories, secret_contexts
from sbcore.observe.rule_patterns import dispatch, lookbehind, trie
from sbcore.observe.secret_rules import (
    CLI_FLAGS,
    FORMATS,
    KEY_KINDS,
    KEYS,
    SECOND_ARGUMENT_PASSWORD,
    URL_SIGNATURES,
    WHOLE_WORD_KEYS,
)
from sbcore.observe.secret_values import judged_span, kind_of_key, secret_kind, unquote

MAX_SECRET_SPAN = 1024
"""The longest prefix of a single-line secret that ``redact`` needs to see to recognise it."""

# A context value: JSON-escaped, double-, single- or back-quoted, or bare up to a delimiter ("&" and
# ";" only where another ``name=`` follows, as in a query or connection string). The resolver strips
# the quotes and judges the content. Patterns read at most _VALUE_SCAN characters of it, so a rejected
# value costs little however long its line; an accepted one is then followed to its end.
_VALUE_SCAN = 256


def _value_regex(repeat: str) -> str:
    bare = r"[^\s\"'`,;&\\)}\]<>|]"
    return (
        r"(?P<v>\\\"(?:[^\\\"\n]|\\[^\"\n])" + repeat + r"(?:\\\")?"
        r"|\"(?:[^\"\\\n]|\\.)" + repeat + r"\"?"
        r"|'[^'\n]" + repeat + r"'?"
        r"|`[^`\n]" + repeat + r"`?"
        r"|[^\s\"'`,;&\\)}\]<>|:=](?:" + bare + r"|[;&](?![\w.-]+=)(?=" + bare + "))" + repeat + ")"
    )


_VALUE = _value_regex(f"{{0,{_VALUE_SCAN}}}")
_WHOLE_VALUE = re.compile(_value_regex("*"), re.ASCII)
_CLOSERS = ("", '"', "'", '\\"', "`")

# How a match is judged: _AS_IS, the match is the secret; _JUDGED, its value must not be a placeholder;
# _KEYED, nor code either, and the key before the operator names the kind.
_AS_IS, _JUDGED, _KEYED = 0, 1, 2
# "Not preceded by a letter or digit", so a secret glued inside a longer word is not one. A marker's
# "]" counts as a letter: redacting a neighbour must not expose a glued secret to a second pass.
_GUARD = r"(?<![A-Za-z0-9\]])"
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@dataclass(frozen=True)
class _Alt:
    """One rule of a family: after the anchor, ``literal`` then ``pattern``, which holds group ``v``.

    A rule with no ``literal`` is reached through ``dispatch``: strings of one width, one of which
    must end just before the anchor (or, with no dispatch, it is tried at every anchor occurrence).
    ``head`` is for secrets whose start lies an unknown distance before the anchor: the run of token
    characters ending at the anchor must fully match it, and the span starts with that run. ``needs``
    names what else the rule cannot match without, so that a text lacking it never compiles the family.
    """

    kind: str  # "" for _KEYED rules: the key names the kind
    literal: str
    pattern: str | Callable[[], str]  # a function: built when the family is (a key trie takes milliseconds)
    back: int = 0  # characters before group ``v`` that belong to the secret
    priority: int = 2  # on overlap the highest priority names the kind: formats 2, contexts 1
    check: int = _AS_IS
    dispatch: tuple[str, ...] = ()
    head: re.Pattern[str] | None = None
    glued: bool = False  # a vendor format: token characters glued to its end go with it (see _glued_end)
    needs: tuple[str, ...] = ()  # lower-cased strings one of which it cannot match without (family_needles)


def _format_alt(kind: str, prefix: str, body: str) -> tuple[str, _Alt]:
    """Split ``prefix`` at its first anchor character; what follows it becomes the trie literal."""
    index = min(prefix.index(a) for a in "_-.A" if a in prefix)
    anchor, lead, rest = prefix[index], prefix[: index + 1], prefix[index + 1 :]
    if rest:
        pattern = lookbehind(re.escape(prefix), _GUARD) + f"(?P<v>{body})"
        return anchor, _Alt(kind, rest, pattern, back=len(prefix), glued=True)
    if index < 2:
        raise ValueError(f"format prefix {prefix!r} needs two characters before its anchor {anchor!r}")
    pattern = lookbehind(re.escape(lead), _GUARD) + f"(?P<v>{body})"
    return anchor, _Alt(kind, "", pattern, back=len(lead), dispatch=(lead[-3:-1],), glued=True)


def _spellings(words: tuple[str, ...]) -> set[str]:
    """How code spells a key: snake, kebab, dotted, joined; lower, UPPER, Title, camelCase, ACRONYMKey."""
    if len(words) == 1:
        return {words[0], words[0].upper(), words[0].capitalize()}
    found = set()
    for sep in ("_", "-", ".", ""):
        found |= {
            sep.join(words),
            sep.join(words).upper(),
            sep.join(w.capitalize() for w in words),
            words[0] + sep + sep.join(w.capitalize() for w in words[1:]),
            sep.join(words[:-1]).upper() + sep + words[-1].capitalize(),
        }
    return found


def _tails(keys: Iterable[tuple[str, ...]], closers: tuple[str, ...] = _CLOSERS) -> set[str]:
    """Each spelling followed by any of ``closers`` (a closing quote, or none) and an optional space: what
    precedes the operator."""
    return {
        word + closer + space
        for key in keys
        for word in _spellings(key)
        for closer in closers
        for space in ("", " ")
    }


def _exact(op: str, tails: Iterable[str], guard: str = "") -> str:
    """One look-behind per width (a look-behind has one width) matching any of ``tails`` before ``op``."""
    by_width: dict[int, set[str]] = {}
    for tail in tails:
        by_width.setdefault(len(tail), set()).add(tail.lower())
    checks = [
        lookbehind(f"(?i:{trie([(t, '') for t in sorted(group)])}){re.escape(op)}", guard)
        for _, group in sorted(by_width.items())
    ]
    return f"(?:{'|'.join(checks)})"


def _last(keys: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """Each key's last word, lower-cased: every spelling of the key holds it (:func:`_spellings`)."""
    return tuple(sorted({key[-1].lower() for key in keys}))


def _assignment_alts(op: str) -> list[_Alt]:
    """``key<op>value`` rules, reached through the last four characters of every key spelling."""
    keys, authorization = _tails(KEYS), _tails([("authorization",)])
    guarded = _tails(WHOLE_WORD_KEYS) if op == "=" else set()
    if op == "=":
        # make's "?=": a make variable is never quoted, so only the bare spellings take it (each tail is a
        # look-behind of its own width, and the quoted ones would double the family's pattern)
        keys |= {tail + "?" for tail in _tails(KEYS, ("",))}

    def suffixes(tails: set[str]) -> tuple[str, ...]:
        width = min(4, *map(len, tails))  # one width per rule: "pwd" is three characters
        return tuple(sorted({tail[-width:] for tail in tails}))

    # ":=" ... ":::=" (Go, make), "**:" (Markdown bold); "?=" (make) is a "?" closing the key, below
    after = r"(?::{0,2}=)?(?:\*\*)?" if op == ":" else r"[=>]?"
    value = f"{after}[ \\t]{{0,16}}{_VALUE}"

    def scheme() -> str:
        return _exact(op, authorization) + r"[ \t]*(?:\\?[\"'])?"

    credential = r"[ \t]+(?P<v>[^\s\"'\\,;]{6,})"
    return [
        _Alt(
            "authorization-bearer",
            "",
            lambda: scheme() + r"(?i:bearer|token)" + credential,
            priority=1,
            check=_JUDGED,
            dispatch=suffixes(authorization),
            needs=("authorization",),
        ),
        _Alt(
            "authorization-basic",
            "",
            lambda: scheme() + r"(?i:basic)" + credential,
            priority=1,
            check=_JUDGED,
            dispatch=suffixes(authorization),
            needs=("authorization",),
        ),
        _Alt(
            "",
            "",
            lambda: _exact(op, keys) + value,
            priority=1,
            check=_KEYED,
            dispatch=suffixes(keys),
            needs=_last(KEYS),
        ),
        *(
            [
                # SSHPASS=…, PGPASS=…, an upper-case name glued to PASS or PWD (not the shell's PWD, whose
                # path the placeholder rules leave alone, nor "bypass"); "_PASS" and "_PWD" are keys.
                _Alt(
                    "password",
                    "",
                    r"(?:(?<=[A-Z0-9]PASS=)|(?<=[A-Z0-9]PWD=))" + value,
                    priority=1,
                    check=_KEYED,
                    dispatch=("ASS", "PWD"),
                    needs=("pass", "pwd"),
                ),
                _Alt(
                    "",
                    "",
                    lambda: _exact(op, guarded, _GUARD) + value,
                    priority=1,
                    check=_KEYED,
                    dispatch=suffixes(guarded),
                    needs=_last(WHOLE_WORD_KEYS),
                ),
            ]
            if guarded
            else []
        ),
    ]


def _pattern_alts() -> dict[str, list[_Alt]]:
    """Rules that are not a literal prefix plus a body, per anchor (``_assignment_alts`` come last)."""
    pem_label = r"[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
    # user:password, either part quoted or empty; with no password, the user part is the secret (an API
    # key passed as the user name: ``-u "sk_…:"``)
    bare_auth = r"[ \t=]+[\"']?[^\s:\"'$\[]{0,128}[\"']?:[\"']?(?P<v>[^\s\"']{1,256})"
    bare_user = r"[ \t=]+[\"']?(?P<v>[^\s:\"'$\[]{3,128}):(?=[\"'\s]|$)"
    # A positional argument (a user, a network's name) before the one that is the password.
    argument = r"[ \t]+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"|;&]+)[ \t]+"
    url = (
        # A 32-hex user name (and secret) is a Sentry DSN's key: it goes, the host stays.
        _Alt("sentry-dsn", "//", r"(?P<v>[0-9a-f]{32}(?::[0-9a-f]{32})?)@", needs=("@",)),
        _Alt(
            "slack-webhook",
            "//",
            r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[\w/+-]{16,})",
            needs=("hooks.slack.com/",),
        ),
        _Alt(
            "discord-webhook",
            "//",
            r"(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d{1,2})?/webhooks/\d{5,30}/(?P<v>[\w-]{20,})",
            needs=("discord",),
        ),
        _Alt(
            "teams-webhook",
            "//",
            r"[\w.-]{1,64}\.webhook\.office\.com/webhookb2/(?P<v>[^\s\"'<>]{20,})",
            needs=(".webhook.office.com/",),
        ),
        _Alt(
            "telegram-bot-token",
            "//",
            r"api\.telegram\.org/bot(?P<v>\d{5,16}:[\w-]{30,})",
            needs=("api.telegram.org/bot",),
        ),
        # user:password@host; the last "@" of the authority ends the password.
        _Alt(
            "url-credentials",
            "//",
            r"[^\s:/?#@\"'<>\\\[\]]{0,128}:(?P<v>[^\s/?#\"'<>\\]{1,256})@",
            priority=1,
            check=_JUDGED,
            needs=("@",),
        ),
    )
    return {
        # The whole block; with no END (cut off by a slice) up to the end of the text. Its own anchor, so
        # a token whose body takes dashes and letters (``glpat-…``) glued before it cannot hide its BEGIN.
        "-----BEGIN": [
            _Alt("private-key", "", rf"(?P<v>{pem_label}(?:(?s:.*?)-----END{pem_label}|(?s:.*)))", back=10)
        ],
        "-": [
            _Alt(
                "mailchimp-api-key",
                "us",
                lookbehind(r"[0-9a-f]{32}-us", r"(?<![\w\]-])") + r"(?P<v>\d{1,2})\b",
                back=35,
            ),
            # curl -u user:password, --user user:password: the user name stays.
            *(
                _Alt("basic-auth", literal, rf"(?<=\s-{literal})" + auth, priority=1, check=_JUDGED)
                for literal in ("u", "-user")
                for auth in (bare_auth, bare_user)
            ),
            # smbclient --user=alice%password: Samba's user%password (its "-U" form is a flag rule in
            # secret_contexts); what follows "%" must end the argument, so "%40" in a URL-encoded
            # user:password (curl's) is not taken for it.
            _Alt(
                "password",
                "-user",
                r"(?<=\s--user)[ \t=]+[\"']?[^\s%:\"'$\[]{1,128}%(?P<v>[^\s%:\"'\[]{3,256})(?=[\s\"']|$)",
                priority=1,
                check=_JUDGED,
            ),
            _Alt("password", "p", r"(?<=sshpass -p)[ \t]+" + _VALUE, priority=1, check=_JUDGED),
            # --password value, --token value: the flag names the kind.
            *(
                _Alt(
                    "",
                    f"-{flag}",
                    lookbehind(rf"\s--{re.escape(flag)}") + rf"[ \t]+{_VALUE}",
                    priority=1,
                    check=_KEYED,
                )
                for flag in CLI_FLAGS
            ),
        ],
        "_": [
            _Alt(
                "password",
                command.split("_")[-1],  # what follows the anchor
                rf"(?<=(?<![\w.-]){re.escape(command)})" + argument + _VALUE,
                priority=1,
                check=_JUDGED,
            )
            for command in SECOND_ARGUMENT_PASSWORD
        ],
        ".": [
            # Vault's tokens before "hvs.": "s." and 24 characters, after vault login.
            _Alt(
                "vault-token",
                "",
                r"(?<=(?<![\w.-])vault login s\.)(?P<v>[A-Za-z0-9]{24})(?![A-Za-z0-9])",
                back=2,
                dispatch=(" s",),
            ),
            # header.payload[.signature]: the header is the run of token characters before the dot.
            _Alt(
                "jwt",
                "eyJ",
                r"(?<=[\w-]{7}\.eyJ)(?P<v>[\w-]{7,}(?:\.[\w-]+)?)",
                head=re.compile(r"eyJ[\w-]{4,}", re.ASCII),
            ),
            _Alt(
                "terraform-cloud-token",
                "atlasv1.",
                lookbehind(r"[A-Za-z0-9]{14}\.atlasv1\.", _GUARD) + r"(?P<v>[\w=-]{60,})",
                back=23,
            ),
            # Airtable's pat…: no anchor in its prefix, so it is found from the dot before its body (a
            # substring search for "pat" meets every path and pattern).
            _Alt(
                "airtable-token",
                "",
                r"(?<=(?:(?<![\w/.\]-])|(?<=\\[nt]))pat[A-Za-z0-9]{14}\.)(?P<v>[a-f0-9]{64})(?![A-Za-z0-9])",
                back=18,
            ),
            _Alt(
                "discord-bot-token",
                "",
                r"[\w-]{6}\.(?<=[A-Za-z0-9]{23}\.[\w-]{6}\.)(?P<v>[\w-]{27,})",
                head=re.compile(r"[MNO][A-Za-z0-9]{23,25}", re.ASCII),
            ),
        ],
        ":": [
            *url,
            # xfreerdp /p:PASSWORD; not MSBuild's /p:Name=Value.
            _Alt(
                "password",
                "",
                r"(?<=\s/p:)(?![A-Za-z_][\w.]*=[^\s=])" + _VALUE,
                priority=1,
                check=_KEYED,
                dispatch=(" /p", "\t/p", "\n/p"),
            ),
            *(
                _Alt(
                    "telegram-bot-token",
                    "AA",
                    lookbehind(rf"\d{{{n}}}:AA", r"(?<![\w:\]])") + r"(?P<v>[\w-]{33})",
                    back=n + 3,
                )
                for n in (8, 9, 10)
            ),
            _Alt(
                "gcp-service-account-key",
                "",
                r'(?<="private_key":)[ \t]*"(?P<v>-----BEGIN(?:[^"\\]|\\.)*)',
                priority=3,
                dispatch=('key"',),
            ),
        ],
        "=": [_Alt(kind, "", pattern, priority=1, dispatch=lead) for kind, lead, pattern in URL_SIGNATURES],
    }


@dataclass(frozen=True)
class _Family:
    """The rules sharing one anchor character, compiled into one pattern."""

    anchor: str
    regex: re.Pattern[str]
    alts: dict[str, _Alt]  # by group name


def _compile(anchor: str, alts: list[_Alt]) -> _Family:
    named = {f"r{index}": alt for index, alt in enumerate(alts)}
    items: list[tuple[str, str]] = []
    dispatched: dict[int, list[tuple[tuple[str, ...], str]]] = {}
    for name, alt in named.items():
        source = alt.pattern if isinstance(alt.pattern, str) else alt.pattern()
        pattern = source.replace("(?P<v>", f"(?P<{name}>")
        if alt.literal or not alt.dispatch:
            items.append((alt.literal, pattern))
            continue
        dispatched.setdefault(len(alt.dispatch[0]), []).append((alt.dispatch, pattern))
    for width, rules in dispatched.items():
        keys = {key for dispatch, _ in rules for key in dispatch}
        # Two character classes (bitmap tests) reject most occurrences before the exact keys are compared.
        classes = "".join(f"[{re.escape(''.join(sorted({key[i] for key in keys})))}]" for i in (-2, -1))
        items.append(
            ("", lookbehind(classes + re.escape(anchor)) + dispatch(anchor, keys, rules, f"k{width}_"))
        )
    return _Family(anchor, re.compile(re.escape(anchor) + trie(items), re.ASCII), named)


def _grouped() -> dict[str, list[_Alt]]:
    """Every rule, by anchor: the format rules first, so that the first matching rule still wins."""
    grouped: dict[str, list[_Alt]] = {}
    for kind, prefix, body in FORMATS:
        anchor, alt = _format_alt(kind, prefix, body)
        grouped.setdefault(anchor, []).append(alt)
    for anchor, alts in _pattern_alts().items():
        grouped.setdefault(anchor, []).extend(alts)
    return grouped


_RULES = _grouped()
_ASSIGNMENTS = (":", "=")  # their key=value rules are built with the family: the costliest to build
_ANCHORS = tuple(dict.fromkeys([*_RULES, *_ASSIGNMENTS]))
_FAMILIES: dict[str, _Family] = {}
"""The compiled families, each built the first time a text holds what one of its rules needs
(:mod:`.family_needles`).

Building them all costs tens of milliseconds, which a hook recording one short prompt would pay for
rules its text could never match."""


@cache
def _rules(anchor: str) -> list[_Alt]:
    """Every rule of one anchor, in the order that makes the first matching rule win (built once: the
    prefilter reads them before the family is compiled)."""
    rules = _RULES.get(anchor, [])
    return [*rules, *_assignment_alts(anchor)] if anchor in _ASSIGNMENTS else rules


_PREFILTER = family_needles.Prefilter(_rules)


def _family(anchor: str) -> _Family:
    family = _FAMILIES.get(anchor)
    if family is None:
        family = _FAMILIES[anchor] = _compile(anchor, _rules(anchor))
    return family


def __getattr__(name: str) -> frozenset[str]:
    """``KINDS``: every kind a marker can name (built on first use, as the families are)."""
    if name != "KINDS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    kinds = {alt.kind for anchor in _ANCHORS for alt in _rules(anchor) if alt.kind}
    return frozenset(kinds | {k for _, k in KEY_KINDS} | secret_contexts.KINDS | secret_categories.KINDS)


_Span = tuple[int, int, int, str]  # start, end, priority, kind
_KEY_RUN = re.compile(r"[\w.-]+$")


def _key_kind(text: str, match: re.Match[str], value_start: int) -> str:
    """Name the kind after the key: a CLI flag inside the match, else the key before the anchor."""
    key = text[match.start() : value_start].strip(" \t\"'`=:>*\\-")
    if not key:
        head = text[max(0, match.start() - 96) : match.start()].rstrip(" \t\"'`=:>*\\")
        found = _KEY_RUN.search(head)
        key = found.group(0) if found else ""
    return kind_of_key(key)


def _context_span(text: str, scan: str, match: re.Match[str], name: str, alt: _Alt) -> _Span | None:
    """Judge a context value: skip placeholders and code; a _KEYED rule's key names the kind."""
    value, start, quoted = unquote(text[match.start(name) : match.end(name)], match.start(name))
    keyed = alt.check == _KEYED
    kind: str | Callable[[], str] = (
        alt.kind or (lambda: _key_kind(text, match, match.start(name))) if keyed else alt.kind
    )
    named = secret_kind(value, quoted, kind, keyed)
    if named is None:
        return None
    if match.end(name) - match.start(name) >= _VALUE_SCAN and (
        whole := _WHOLE_VALUE.match(scan, match.start(name))
    ):
        value, start, quoted = unquote(text[whole.start() : whole.end()], whole.start())
    return start, start + len(value), alt.priority, named


def _head_start(text: str, anchor: int, head: re.Pattern[str]) -> int | None:
    """Where the run of token characters ending at ``anchor`` starts, if ``head`` matches all of it."""
    start, floor = anchor, max(0, anchor - MAX_SECRET_SPAN)
    while start > floor and text[start - 1] in _RUN_CHARS:
        start -= 1
    return start if head.fullmatch(text, start, anchor) else None


def _collect(text: str, scan: str, match: re.Match[str] | None, family: _Family, spans: list[_Span]) -> None:
    """Add the span of every match of ``family`` from ``match`` on, judged on the original text."""
    while match is not None:
        name = match.lastgroup
        assert name is not None  # every alternative is one named group
        alt = family.alts[name]
        span: _Span | None = None
        if alt.check != _AS_IS:
            span = _context_span(text, scan, match, name, alt)
        else:
            start = (
                match.start(name) - alt.back
                if alt.head is None
                else _head_start(text, match.start(), alt.head)
            )
            if start is not None and not _masked(scan, match.start(name) + len(alt.literal), match.end(name)):
                end = _glued_end(scan, match.end(name)) if alt.glued else match.end(name)
                span = (start, end, alt.priority, alt.kind)
        if span is not None:
            spans.append(span)
        # After a secret, scanning resumes beyond it (a value may extend past its match). A rejected
        # match may have run over a real secret (a placeholder-looking value that swallowed
        # "KEY=..."), so then it resumes right after the anchor.
        match = family.regex.search(
            scan, max(match.end(), span[1]) if span is not None else match.start() + 1
        )


def _masked(scan: str, start: int, end: int) -> bool:
    """Whether a vendor format's body is one character repeated (``sk_test_xxxx…``): a mask, not a key."""
    return end - start >= 8 and len(set(scan[start:end])) == 1


def _glued_end(scan: str, end: int) -> int:
    """Where a format secret ending at ``end`` really ends: token characters glued to it go with it.

    A body rule stops where the vendor's format does (or, unbounded, where its characters do), so what
    follows without a break is either more of the same token or another secret written end to end, whose
    own rule cannot see it: its guard refuses a match preceded by a letter or digit. A greedy body can
    also run into the next one's prefix (``ghp_…ghp``), leaving that one's body bare.
    """
    glued = _GLUED_TAIL.match(scan, end)
    return glued.end() if glued is not None else end


_GLUED_TAIL = re.compile(r"[\w-]*(?:[.+/=~:$]+[\w-]+)*", re.ASCII)
"""A run of token characters, with the punctuation of other tokens' bodies inside it (a JWT's dots,
base64's ``+/=``, an Azure secret's ``~``); punctuation that ends the run (a sentence's ``.``) is left."""


def _splice(text: str, spans: list[_Span]) -> str:
    """Replace each union of overlapping spans by one marker naming its highest-priority kind."""
    spans.sort()
    pieces: list[str] = []
    cursor = 0
    start, end, priority, kind = spans[0]
    for s_start, s_end, s_priority, s_kind in spans[1:]:
        if s_start < end:
            end = max(end, s_end)
            if s_priority > priority:
                priority, kind = s_priority, s_kind
            continue
        pieces += (text[cursor:start], f"[REDACTED:{kind}]")
        cursor, start, end, priority, kind = end, s_start, s_end, s_priority, s_kind
    pieces += (text[cursor:start], f"[REDACTED:{kind}]", text[end:])
    return "".join(pieces)


_SHORTEST = 8  # no rule matches fewer characters ("pass=abc")

# Short strings recur (a path edit after edit, a command run again, a locator list): the ones found to
# hold no secret are remembered, boundedly, and pass at the cost of a set lookup. Only those: a string
# with a secret in it is never kept, so the memo holds nothing the projection would not show as it is.
_CLEAN: set[str] = set()
_CLEAN_LONGEST = 512
_CLEAN_KEPT = 4096


def forget_clean() -> None:
    """Empty the memo of clean strings, so a measurement starts cold instead of reusing an earlier run's."""
    _CLEAN.clear()


def redact(text: str) -> str:
    """Return ``text`` with every recognised secret replaced by ``[REDACTED:<kind>]``."""
    size = len(text)
    if size < _SHORTEST or (size <= _CLEAN_LONGEST and text in _CLEAN):
        return text
    # Every secret is ASCII and the patterns run in ASCII mode, so they find the same spans in a copy
    # with each other character replaced by "?" (offsets unchanged); ``re`` scans a one-byte string
    # up to twice as fast as one holding, say, an emoji.
    scan = text if text.isascii() else text.encode("ascii", "replace").decode("ascii")
    low = scan.lower()
    spans = _format_spans(text, scan)
    if (
        not spans
        and size <= _CLEAN_LONGEST
        and secret_contexts.quiet(low, scan)
        and secret_categories.quiet(low)
    ):
        # Most short strings: asked once here rather than rule by rule, most of what such a string costs.
        _remember_clean(text)
        return text
    # The secret words are worked out once, for the context rules and the categories both.
    words = secret_contexts.words_in(low)
    listed = _redact_listed(text, scan, low, words, spans)
    # the listed rules, then the categories for the rest
    out = (
        secret_categories.redact_categories(text, low, words)
        if listed is text
        else secret_categories.redact_categories(listed)
    )
    if out is text and size <= _CLEAN_LONGEST:
        _remember_clean(text)
    return out


def _remember_clean(text: str) -> None:
    if len(_CLEAN) >= _CLEAN_KEPT:
        _CLEAN.clear()
    _CLEAN.add(text)


def _redact_listed(text: str, scan: str, low: str, words: frozenset[str], spans: list[_Span]) -> str:
    """``text`` with every secret the listed formats and contexts find replaced (``text`` itself: none);
    ``spans``: what the formats found in it."""
    out = _redact_once(text, scan, low, words, spans)
    if out is text:
        return text
    # A secret glued to the start of another (``sk-…-----BEGIN … PRIVATE KEY``) is missed while a rule
    # that needs a boundary after it sees the other's characters there; once the other is a marker, it is
    # found. So a text that held a secret is read again until nothing more is found: a second reading
    # for nearly every such text (it finds nothing), one more for each secret of a glued chain.
    for _ in range(_MORE_READINGS):
        again = _redact_once(out)
        if again is out or again == out:  # a rule may match its own marker again (a webhook URL's path)
            return out
        out = again
    # A longer chain (only a hostile text holds one): what is still glued to a marker goes whole.
    return _GLUED.sub(_glued_whole, out)


_MORE_READINGS = 8
_GLUED = re.compile(r"([\w+/.-]*)(\[REDACTED:[a-z0-9-]+\])([\w+/=.-]*)")


def _glued_whole(match: re.Match[str]) -> str:
    before, marker, after = match.groups()
    return (_GLUED_MARKER if before else "") + marker + (_GLUED_MARKER if after else "")


_GLUED_MARKER = "[REDACTED:secret]"


def _redact_once(
    text: str,
    scan: str | None = None,
    low: str | None = None,
    words: frozenset[str] | None = None,
    spans: list[_Span] | None = None,
) -> str:
    """One reading of ``text``: every secret its rules find, replaced; ``text`` itself when none is.

    ``scan``, ``low``, ``words`` and the formats' ``spans`` are as ``redact`` works them out; a second
    reading works them out again."""
    if scan is None:
        scan = text if text.isascii() else text.encode("ascii", "replace").decode("ascii")
    if spans is None:
        spans = _format_spans(text, scan)
    secret_contexts.context_spans(text, scan, judged_span, kind_of_key, spans, low, words)
    return _splice(text, spans) if spans else text


def _format_spans(text: str, scan: str) -> list[_Span]:
    """The spans the anchored families (formats and operator contexts) find in ``text``."""
    spans: list[_Span] = []
    for anchor in _ANCHORS:
        if anchor in scan:
            family = _FAMILIES.get(anchor)
            if family is None:
                if not _PREFILTER.wanted(anchor, scan):
                    continue  # nothing the family's rules need: no compiling it for this text
                family = _family(anchor)
            if (match := family.regex.search(scan)) is not None:
                _collect(text, scan, match, family, spans)
    return spans
