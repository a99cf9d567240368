"""Whether a value found under a secret's name is one, and the kind its name gives it.

:mod:`sbcore.observe.redact` and :mod:`sbcore.observe.secret_contexts` find values where secrets sit (after
``password=``, ``--token``, ``"api_key":``); what is found there is often no secret at all: a placeholder
(``<your-token>``, ``${API_KEY}``, ``xxxx``), a template, a path, or code (``token = get_token()``). These
functions judge the value itself, the same way for every rule that hands one over, and name the kind from
the key (``DATADOG_API_KEY`` → ``datadog-api-key``). Standard library only: a hook redacting a prompt imports
them, and compiles their patterns only when a value gets to them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sbcore.observe.entropy import looks_random
from sbcore.observe.lazy_pattern import Lazy
from sbcore.observe.secret_rules import KEY_KINDS, PLACEHOLDER_PARTS, PLACEHOLDER_WORDS, SECRET_STORES

Span = tuple[int, int, int, str]  # start, end, priority, kind

_KEY_KIND_RES = tuple((Lazy(pattern, 0), kind) for pattern, kind in KEY_KINDS)
_SHORT_KINDS = frozenset({"password", "url-credentials", "basic-auth"})  # 3 characters suffice

_PARTS = re.compile(r"[-_.\s]+")
_PLACEHOLDER = Lazy(
    r"""(?ix)
    \$                                  # $VAR ${VAR} $(cmd) ${{ secrets.X }}
    | \{\{ | \{% | \{[\w.]*\}$          # templates, format fields
    | %[a-z_]\w*%$ | %\(?\w*\)?s$        # %VAR%, %s, %(name)s
    | <[^<>]*>$                         # <your-token>
    | ![a-z]                            # YAML tags: !vault, !Ref
    | (?:your|my)[_-] | replace[_-]?me
    | (.)\1{2,}$                        # xxx ***
    | .*(?:x{4}|\*{4}|\.\.\.|\u2026)      # masked or elided: ghp_xxxx, AKIA****, sk-...abcd
    | (?:~|\.{1,2})?/[\w./-]*$ | [a-z]:\\   # file paths
    """,
    0,
)
# A bare value that reads as code or a word: an identifier or a dotted path (unless its letters read
# as random, see ``entropy``), a call, an index.
_WORD_VALUE = Lazy(r"[A-Za-z_.-]+$", 0)
_CALL_VALUE = Lazy(r".*[(\[]", 0)


def kind_of_key(key: str) -> str:
    """The kind a key names: ``DATADOG_API_KEY`` → ``datadog-api-key``, ``db_pass`` → ``password``."""
    key = key.lower()
    return next((kind for pattern, kind in _KEY_KIND_RES if pattern.search(key)), "secret")


def unquote(raw: str, start: int) -> tuple[str, int, bool]:
    """Strip the quotes a context value kept: (content, where the content starts, whether it was quoted)."""
    for quote in ('\\"', '"', "'", "`"):
        if raw.startswith(quote):
            inner = raw[len(quote) :]
            if inner.endswith(quote):
                inner = inner[: -len(quote)]
            return inner, start + len(quote), True
    return raw, start, False


def secret_kind(
    value: str, quoted: bool, kind: str | Callable[[], str], keyed: bool, strict: bool = False
) -> str | None:
    """The kind of a context's value when it is a literal secret, not a placeholder, a template or code.

    ``keyed``: the context is a key, so a bare value must not read as code either (a call, an
    index, a bare number, or a word or identifier whose letters do not read as random). ``strict``:
    the context is loose (a secret-ish word in prose), so the value must read as random. ``kind`` may
    be a function naming it from the key: it is called only for a value the tests that need no kind
    have not refused already (most are), since naming a key tries a few dozen patterns.
    """
    lowered = value.lower()
    if (
        not value.strip()
        or "[REDACTED:" in value
        or lowered in PLACEHOLDER_WORDS
        or _PLACEHOLDER.match(value)
        or lowered.startswith(SECRET_STORES)
    ):
        return None
    if not PLACEHOLDER_PARTS.isdisjoint(_PARTS.split(lowered)) and not any(c.isdigit() for c in value):
        return None
    bare = keyed and not quoted
    if bare and (
        _CALL_VALUE.match(value) or (_WORD_VALUE.match(value) and not looks_random(value, named=True))
    ):
        return None
    if strict and not looks_random(value):
        return None
    if len(value) < 3:
        return None
    named = kind if isinstance(kind, str) else kind()
    if bare and value.isdigit() and named != "password":
        return None
    return named if len(value) >= (3 if named in _SHORT_KINDS else 6) else None


def judged_span(
    text: str, start: int, end: int, kind: str | Callable[[], str], strict: bool = False
) -> Span | None:
    """The span of the (possibly quoted) value ``text[start:end]`` of a keyed context, if it is a secret
    (``kind`` as :func:`secret_kind` takes it)."""
    value, start, quoted = unquote(text[start:end], start)
    named = secret_kind(value, quoted, kind, keyed=True, strict=strict)
    return None if named is None else (start, start + len(value), 1, named)
