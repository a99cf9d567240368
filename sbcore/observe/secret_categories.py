"""Secrets recognised by category, for the formats no rule lists.

:mod:`sbcore.observe.redact` knows hundreds of vendor prefixes and the keys a secret usually sits under.
A fresh format slips past both: a service's own ``ACME_SERVICE_KEY=…``, a ``--key=…`` flag, base64 key
material under ``client-key-data:``, a session cookie, a ``.pgpass`` line, a PuTTY key's private lines, a
key nobody listed under a name that says it is one. So after the listed rules, these categories
are read, each by shape rather than by vendor:

* **a name that says secret, then a secret-shaped value**: any ``NAME=``, ``NAME:``, ``"NAME": "…"`` or
  ``--name=`` whose name holds *key*, *token*, *secret*, *password*, *pwd*, *auth*, *credential*, *cookie*
  or *session*, and whose value reads as random (:func:`~sbcore.observe.entropy.looks_random`, as a
  named value) — so ``cache_key=user_profile`` and ``sort_key: created_at`` stay;
* **cookies**: each value of a ``Cookie:`` or ``Set-Cookie:`` header that reads as random;
* **password files**: the last field of a ``host:port:database:user:password`` line;
* **a registry host's credentials in the environment**: ``user:password`` under a variable that spells a
  host with ``__`` for its dots (Bundler's ``BUNDLE_GEMS__EXAMPLE__COM``);
* **private-key containers**: a PuTTY key file's ``Private-Lines`` and ``Private-MAC``.

Not a category: a short word, ``_`` and random characters alone in prose (``tok_7Hq2…``). Message, request
and object ids have that shape (``msg_01UHi2…``, ``toolu_…``, ``cus_…``), and a real transcript holds
thousands of them; without a name saying *secret*, such a value is left alone.

The value becomes ``[REDACTED:<kind>]``; names, quotes and punctuation stay. Standard library only, and a
text holding none of the words these need is returned after a few substring checks: it runs on every
projected string, in every store (spool, events, recall index, request bodies) through ``redact``.
"""

from __future__ import annotations

import re

from sbcore.observe import secret_carriers
from sbcore.observe.entropy import looks_random
from sbcore.observe.lazy_pattern import lazy
from sbcore.observe.secret_contexts import words_in
from sbcore.observe.secret_rules import SECRET_STORES

_NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
# An operator with a value of twelve characters or more after it (in the lower-cased copy): a text with none
# holds no named secret, and most texts have none, so this check comes first. One pattern per operator:
# ``re`` finds a pattern's opening literal at the speed of a substring search, but tests a set of characters
# (``[:=]``) at every position, three times slower over the same text.
_EQUALS_THEN_VALUE = re.compile(r"=[ \t]*\\?(?:[\"'][\w!#$%&*+./:=?@^|~-]{12}|[a-z0-9+/_.~-]{12})")
_COLON_THEN_VALUE = re.compile(r":[ \t]*\\?(?:[\"'][\w!#$%&*+./:=?@^|~-]{12}|[a-z0-9+/_.~-]{12})")
# One pattern a word a name must hold, each opening with the word (scanned for at the speed of a
# substring search), asking for the operator and the value's first twelve characters after the name.
# Each is tried only where its gate occurs: ``redact`` has looked for the ``secret_contexts.WORDS`` already,
# and "cookie" is looked for once for its own category; the rest are looked for here.
# The operator: "=" or ":", or make's "?=", ":=", "::=" and ":::=".
_OPERATOR = r"[ \t]*(?:[?+]=|:{1,3}=|[:=])"
_SECRET_WORDS = (
    *(("pass", "passw"), ("key", "key"), ("token", "token"), ("secret", "secret"), ("auth", "auth")),
    *(("pwd", "pwd"), ("credential", "credential"), ("cookie", "cookie"), ("sess", "sess")),
)
_OWN_WORDS = ("pwd", "credential", "sess")
# the value's first twelve characters: a run of token characters, or inside quotes a password's punctuation
# too (`db_password = "Cb%y8…"`; not markup's or code's brackets, `'<h2>Sessions</h2>'`, `"${var.token}"`)
_QUOTED_CHARS = r"[\w!#$%&*+./:=?@^|~-]"
_VALUE_OPENS = r"[ \t]*\\?(?:[\"']" + _QUOTED_CHARS + r"{12}|[a-z0-9+/_.~-]{12}))"
# The rest of the name is taken possessively: what may follow a name (a backslash, a quote, a space or an
# operator) is none of its characters, so giving one back could never let the look-ahead match, and trying
# each shorter name cost a step per character of every name holding the word (``session_id``).
_WORDS_BEFORE_OPERATOR = tuple(
    (gate, word, lazy(word + r"[a-z0-9_.-]*+(?=\\?[\"']?" + _OPERATOR + _VALUE_OPENS))
    for gate, word in _SECRET_WORDS
)
_OPERATOR_VALUE = lazy(
    r"\\?\"?'?" + _OPERATOR + r"[ \t]*\\?(?:(?P<q>[\"'])(?P<qv>" + _QUOTED_CHARS + r"{12,256})(?P=q)|\"?'?"
    r"(?P<v>[A-Za-z0-9+/_.~-]{12,}={0,3}))",
    re.ASCII,
)
# Both read a lower-cased name: ``re.IGNORECASE`` would make each four times slower.
_NAME_SAYS_SECRET = lazy(r"key|token|secret|passw|pwd|auth|credential|cookie|sess")
# Names that hold a secret word but name something else: a public key, a key's id or file, a token count.
_NAME_SAYS_OTHERWISE = lazy(
    r"public|pubkey|_?ids?$|[_.-]id$|file$|path$|dir$|name$|type$|count$|length$|size$|limit$|url$|uri$"
    r"|author|kind$|format$|algorithm$|alg$|fingerprint$|version$|max[_-]?tokens?$|tokens?[_-]?max$"
    # keys of data, not of locks: a cache's, a table's, a map's
    r"|(?:cache|sort|primary|foreign|partition|shard|idempotency|dedupe?|lookup|map|dict|hash|row|range"
    r"|group|order|index|composite|unique|natural|surrogate|routing|object|bucket)[_.-]?keys?$"
)
# A registry host's credentials in an environment variable, the host spelled with "__" for its dots
# (Bundler: BUNDLE_GEMS__EXAMPLE__COM=user:password): the password goes, the user stays.
_HOST_CREDENTIALS = lazy(  # found from its last "__": opening with it, the scan finds it fast
    r"__(?<=[A-Z0-9]__)[A-Z]{2,6}[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"[^\s:\"'$<{;&/]{1,128}:(?P<v>[^\s:\"'$<{;&/]{3,256})(?![:/])"
)
# found in the lower-cased copy from its name (a literal); "set-" or a longer name before it: checked after
# (or a header's name handed to a call with its value: `.set('Cookie', '…')`, `headers.add("Cookie", "…")`)
_COOKIE_HEADER = lazy(r"cookie(?:[^\S\n]*:|['\"][^\S\n]*,[^\S\n]*['\"])(?P<rest>[^\n\"'\\]*)")
_COOKIE_PAIR = lazy(r"(?P<name>[^\s=;,]+)=(?P<v>[^\s;,]+)")
# host:port:database:user:password, five fields and no more (a path list or a compiler's file:line:col
# run together has other punctuation in its fields)
_PGPASS_PORT = lazy(r":(?:\d{1,5}|\*):")
_PGPASS = lazy(r"[\w.*-]+:(?:\d{1,5}|\*):[\w.*-]+:[\w.@*-]+:(?P<v>[^\s:\"']{4,})")
_TOKEN_EDGES = " \t\n\"'"
_PGPASS_REACH = 300
# A port then database:user:password, looked for first from its colon (a literal the scan finds fast): a text
# without one has no such line, and the token around each port is only worked out where one is.
_PGPASS_TAIL = re.compile(r":(?:\d{1,5}|\*):[\w.*-]+:[\w.@*-]+:[^\s:\"']{4,}")


def _pgpass_tail(low: str) -> bool:
    """Whether ``low`` holds a password file line's port, database, user and password (:data:`_PGPASS_TAIL`).

    Its four colons are counted first: a string with fewer (a URL, a time of day) has no such line, and the
    count costs a small part of the search, which stops at every colon."""
    return low.count(":") >= 4 and _PGPASS_TAIL.search(low) is not None


_PUTTY = lazy(
    r"(?m)^(?P<head>Private-(?:Lines:[^\S\n]*\d+\n|MAC:[^\S\n]*))"
    r"(?P<v>(?:(?!Private-)[A-Za-z0-9+/=]+(?:\n|$))+)"
)
_MARKER = "[REDACTED:"
_PLACEHOLDER = lazy(r"(?i)^(?:x+|\*+|(.)\1{5,}|.*(?:example|placeholder|changeme|dummy|redacted).*)$")


def quiet(low: str) -> bool:
    """Whether no category can fire in the lower-cased ASCII text ``low``: it holds none of what each one
    needs (an operator with a value and a secret word, a host's ``__``, a colon with a cookie header, a
    password file's port or a PuTTY field). Cheaper than :func:`redact_categories` on a text that holds
    none, as most short strings do, since it neither builds the set of words present nor finds spans."""
    if not secret_carriers.quiet(low):
        return False
    equals, colon = "=" in low, ":" in low
    if not (equals or colon):
        return True
    if "__" in low:
        return False
    if colon and ("private-" in low or _pgpass_tail(low)):
        return False
    if "cookie" in low and (colon or "," in low):  # a header, or its name and value handed to a call
        return False
    if (equals and _EQUALS_THEN_VALUE.search(low) is not None) or (
        colon and _COLON_THEN_VALUE.search(low) is not None
    ):
        return not any(gate in low for gate, _ in _SECRET_WORDS)
    return True


KINDS = frozenset(
    {"password", "session-cookie", "token", "credentials", "secret", "secret-key", "private-key"}
    | secret_carriers.KINDS
)
"""The kinds the categories' markers name (:func:`_kind`, a cookie, a PuTTY key), the carriers' with them."""


def redact_categories(text: str, low: str | None = None, words: frozenset[str] | None = None) -> str:
    """``text`` with every secret of the categories above replaced; ``text`` itself when none is found.

    ``low`` is the lower-cased ASCII copy of ``text`` and ``words`` the ``secret_contexts.WORDS`` it holds,
    when the caller has them. Each category is looked for where its own punctuation or words occur, in
    ``low`` (one byte a character, and the same offsets as ``text``): ``re`` is fast only while it scans
    for a literal, so a text holding none costs a few substring searches."""
    if low is None:
        low = (text if text.isascii() else text.encode("ascii", "replace").decode("ascii")).lower()
    # What carries a secret under a name that does not say so, each carrier behind its own gate; then the
    # categories here, which all need an operator or a colon: a named value, a header, a host's credentials,
    # a password file's line, a PuTTY key's field. One-character searches, at memchr's speed.
    spans = secret_carriers.carried_spans(text, low)
    equals, colon = "=" in low, ":" in low
    if not (equals or colon):
        return _replaced(text, spans) if spans else text
    cookie = "cookie" in low
    if (equals and _EQUALS_THEN_VALUE.search(low) is not None) or (
        colon and _COLON_THEN_VALUE.search(low) is not None
    ):
        present = {*(words_in(low) if words is None else words), *(w for w in _OWN_WORDS if w in low)}
        if cookie:
            present.add("cookie")
        if present:
            spans += _named_spans(text, low, present)
    if "__" in low:
        spans += [  # a port is no password: SERVICE__HOST=db:5432
            (m.start("v"), m.end("v"), "password")
            for m in _HOST_CREDENTIALS.finditer(text)
            if not m.group("v").isdigit()
        ]
    if cookie and (colon or "," in low):  # a header's name, then its colon (or a call's comma)
        spans += _cookie_spans(text, low)
    if colon and _pgpass_tail(low):
        spans += _pgpass_spans(text)
    if colon and "private-" in low:
        spans += [
            (m.start("v"), m.end("v") - m.group("v").endswith("\n"), "private-key")
            for m in _PUTTY.finditer(text)
        ]
    return _replaced(text, spans) if spans else text


def _named_spans(text: str, low: str, present: set[str]) -> list[tuple[int, int, str]]:
    """The values after names that say secret: a secret word, the rest of its name, then an operator
    (``present``: the gates of ``_SECRET_WORDS`` that ``low`` holds)."""
    found: dict[int, tuple[int, int, str]] = {}
    for gate, _, pattern in _WORDS_BEFORE_OPERATOR:
        if gate not in present:
            continue
        for hit in pattern.finditer(low):
            end = hit.end()
            if end in found:
                continue
            judged = _named(text, _name_start(text, hit.start()), end)
            if judged is not None:
                found[end] = judged
    return list(found.values())


def _name_start(text: str, start: int) -> int:
    """Where the name ending at ``start`` begins: back over name characters, a window at a time (``rstrip``
    reads them at C speed, where a loop over characters ran a step of Python each)."""
    while start > 0:
        window = max(0, start - _NAME_WINDOW)
        kept = len(text[window:start].rstrip(_NAME_CHARS))
        start = window + kept
        if kept:
            break
    return start


_NAME_WINDOW = 128
_BARE_KEY_LENGTH = 24


def _bare_keys_value(text: str, start: int, value: str) -> bool:
    """Whether the value of a bare ``key`` at ``start`` is a key's: on a configuration line of its own (not a
    log's `No cache found for key: …`), long, of both cases and digits (base64's; a cache's key is words and
    hex), and random as prose's would have to be."""
    line = text[text.rfind("\n", 0, start) + 1 : start]
    return (
        not line.strip()
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
        and looks_random(value, _BARE_KEY_LENGTH)
    )


def _cookie_spans(text: str, low: str) -> list[tuple[int, int, str]]:
    """The random-looking values of each ``Cookie:`` and ``Set-Cookie:`` header."""
    spans = []
    for header in _COOKIE_HEADER.finditer(low):
        opens = header.start() - 4 if low.startswith("set-", header.start() - 4) else header.start()
        if opens > 0 and (low[opens - 1].isalnum() or low[opens - 1] in "_-"):
            continue  # part of a longer name: "x-cookie:", "my_cookie:"
        rest = header.start("rest")
        for pair in _COOKIE_PAIR.finditer(text, rest, header.end("rest")):
            value = pair.group("v")
            if len(value) >= 16 and _MARKER not in value and looks_random(value, 16, named=True):
                spans.append((pair.start("v"), pair.end("v"), "session-cookie"))
    return spans


def _named(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """The span of the value after the name ``text[start:end]`` when the name says secret and the value
    reads so."""
    flag = text[start:end]
    name = flag.lstrip("-").lower()
    if not name or not (name[0].isalpha() or name[0] == "_") or not _NAME_SAYS_SECRET.search(name):
        return None
    if _NAME_SAYS_OTHERWISE.search(name):
        return None
    bare_key = name in ("key", "keys") and len(flag) == len(name)
    found = _OPERATOR_VALUE.match(text, end)
    if found is None:
        return None
    group = "qv" if found.group("qv") is not None else "v"
    if not _secret_value(found.group(group)):
        return None
    if bare_key and not _bare_keys_value(text, start, found.group(group)):
        # a bare `key:` is a cache's or a map's as often as a lock's (`--key=` is not): only a value random
        # as prose's would have to be, and long, is a key's (rclone's `key = K005cC…`)
        return None
    return found.start(group), found.end(group), _kind(name)


def _pgpass_spans(text: str) -> list[tuple[int, int, str]]:
    """The password of each ``host:port:database:user:password`` token, found from its port."""
    spans = []
    for port in _PGPASS_PORT.finditer(text):
        # the token around the port, looked for within a line's reach (a longer token is no such line)
        low, high = max(port.start() - _PGPASS_REACH, 0), port.end() + _PGPASS_REACH
        start = max(text.rfind(edge, low, port.start()) for edge in _TOKEN_EDGES) + 1
        ends = [at for edge in _TOKEN_EDGES if (at := text.find(edge, port.end(), high)) >= 0]
        end = min(ends, default=min(high, len(text)))
        if start == 0 and low > 0:
            continue
        match = _PGPASS.fullmatch(text, start, end)
        if match is not None:
            spans.append((match.start("v"), match.end("v"), "password"))
    return spans


def _replaced(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each span's value replaced by its marker (overlaps: the first one wins)."""
    parts, last = [], 0
    for start, end, kind in sorted(spans):
        if start < last:
            continue
        parts += [text[last:start], f"[REDACTED:{kind}]"]
        last = end
    return "".join(parts) + text[last:]


def _kind(low: str) -> str:
    """The kind a marker names, from the lower-cased name the value stood under."""
    if "passw" in low or "pwd" in low:
        return "password"
    if "cookie" in low or "sess" in low:
        return "session-cookie"
    if "token" in low:
        return "token"
    if "auth" in low or "credential" in low:
        return "credentials"
    if "secret" in low:
        return "secret"
    return "secret-key"


def _secret_value(value: str) -> bool:
    if _PLACEHOLDER.match(value) or value.startswith("http") or value.lower().startswith(SECRET_STORES):
        return False
    if _path_like(value):
        return False
    core = value.strip("=").rstrip(".")
    if looks_random(core, named=True):
        return True
    # URL-safe base64 cut by `-` and `_` into short pieces reads like snake-case words to the entropy
    # test; with both cases in it, it is judged without its separators (a snake-case identifier's
    # pieces still read as words once joined)
    joined = core.replace("-", "").replace("_", "").replace(".", "")
    mixed = any(c.isupper() for c in joined) and any(c.islower() for c in joined)
    return mixed and looks_random(joined, named=True)


def _path_like(value: str) -> bool:
    """Whether ``value`` reads as a path (``--ssh-key=/home/me/.ssh/id_ed25519``), not base64 key material.

    Base64 may open with ``/`` and hold more: it is not a path when it has ``+`` or padding, or when one
    of its pieces is a run of ten or more of both cases and digits (a path's pieces are words, versions,
    and hashes of one case)."""
    if not value.startswith(("/", "./", "~")) or value.count("/") < 2 or "+" in value or value[-1] == "=":
        return False
    return not any(
        len(piece) >= 10
        and any(c.isupper() for c in piece)
        and any(c.islower() for c in piece)
        and any(c.isdigit() for c in piece)
        and looks_random(piece, 10, named=True)
        for piece in value.split("/")
    )
