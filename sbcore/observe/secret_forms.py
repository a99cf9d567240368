"""Secrets written in forms of code, SQL and command lines that name them without an operator after the name.

:mod:`.secret_contexts` finds a secret after a secret-ish name and a space, a flag, a pipe or a here-string;
these are the forms where something else stands between them, each found through the substring it needs:

* **A quoted secret-ish key handed its value** — ``define('DB_PASSWORD', 'VALUE')``,
  ``app.config['SECRET_KEY'] = 'VALUE'``, ``os.environ["API_KEY"] = "VALUE"``,
  ``SetEnvironmentVariable('API_KEY', 'VALUE')``, ``$cfg['Servers'][$i]['password'] = 'VALUE'``: a call's
  next argument or the default after it (``ENV.fetch("DB_PASSWORD") { "VALUE" }``, ``getenv('API_TOKEN')
  ?: 'VALUE'``, ``os.getenv("SECRET_KEY") or "VALUE"``), which must read as random, or an index's
  assignment.
* **An Ethereum account's private key** in a network's ``accounts: ["0x…"]`` (Hardhat, Truffle).
* **A value written into a file named for a secret** — ``echo VALUE > config/master.key``, ``printf VALUE >
  .vault-token`` (the value must read as random).
* **SQL** — ``CREATE USER … IDENTIFIED BY 'VALUE'`` (Oracle, MySQL, MariaDB) and ``SET PASSWORD FOR … =
  'VALUE'``.
* **A credential pair in code** — ``auth=('user', 'VALUE')``, ``HTTPBasicAuth('user', 'VALUE')``.
* **Commands** — ``ConvertTo-SecureString 'VALUE' -AsPlainText``, ``cmdkey … /pass:VALUE``, Windows' ``net
  user NAME VALUE``, ``cargo login TOKEN``, and a random-looking token as a URL's user with no password
  (``https://TOKEN@dev.azure.com/…``, a personal access token).
* **A command's positional secret** — where a CLI takes the secret as a plain argument after its
  subcommand: ``snyk auth TOKEN``, ``vault login TOKEN``, ``consul acl set-agent-token agent TOKEN``,
  ``bw unlock PASSWORD`` and ``bw login EMAIL PASSWORD``, ``mc alias set NAME URL ACCESS SECRET``,
  ``poetry config http-basic.REPO USER PASSWORD`` and ``pypi-token.REPO TOKEN``, ``composer config
  github-oauth.HOST TOKEN`` (``http-basic.HOST USER PASSWORD``), ``bundle config set HOST USER:PASSWORD``.
* **Redis** — ``requirepass VALUE`` and ``masterauth VALUE`` as a configuration line of their own, or
  set with ``CONFIG SET``.

Each rule runs only where its substring is, so a text holding none costs a few substring searches. A value
that is a variable, a template or a placeholder is left alone by ``redact``'s judgement, as everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from sbcore.observe.entropy import looks_random
from sbcore.observe.lazy_pattern import Lazy

Span = tuple[int, int, int, str]  # start, end, priority, kind
Judge = Callable[[str, int, int, "str | Callable[[], str]", bool], "Span | None"]

# Every pattern opens with a literal, so ``re`` skips to its occurrences at a substring search's speed, and
# the case-blind ones run over the lower-cased copy (same offsets): a case-blind or boundary-opened pattern
# is tried at every position of a long text.
_QUOTED = r"(?:'(?P<v>[^'\n]{1,256})'|\"(?P<w>[^\"\n]{1,256})\")"
# One word, quoted or bare (a line with spaces, an ssh public key's, is no secret's value).
_ONE_WORD = (
    r"(?:'(?P<v>[^'\s]{1,256})'|\"(?P<w>[^\"\s]{1,256})\"|(?P<b>[^\s'\"$@<>|;&-][^\s'\"<>|;&]{0,255}))"
)
# A quoted key ending in a secret word, matched from its opening quote (found back from the word).
_QUOTED_KEY = re.compile(
    r"['\"](?P<key>[\w.-]{0,40}(?:pass(?:word|wd|phrase)?|secret|token|key)[\w.-]{0,24})['\"]"
    rf"[ \t]*(?P<op>\][ \t]*=|,|\)[ \t]*(?:\{{|\|\||\?\?|\?:|or(?!\w)))[ \t]*{_QUOTED}",
    re.ASCII,
)
_QUOTED_KEY_STEMS = ("pass", "secret", "token", "key")
_QUOTE_REACH = 64  # how far before its secret word a key's opening quote may be
# echo or printf of one word into a file whose name says it holds a key, a secret, a token or a password.
_ECHO_INTO = re.compile(
    rf"(?:echo|printf)(?<![\w.-]echo)(?<![\w.-]printf)(?:[ \t]+-[ne]+)*[ \t]+{_ONE_WORD}[ \t]*>>?[ \t]*"
    r"[^\s;|&<>]*(?:key|secret|token|pass)[^\s;|&<>/]*(?<!\.pub)(?=[\s;|&)]|$)",
    re.ASCII,
)
# A file whose name says it holds a key, a secret, a token or a password (`config/master.key`, `.vault-token`;
# not a public key's `.pub`): what a call writes whole into it, one random word, is that secret.
_SECRET_FILE = re.compile(r"(?:key|secret|token|pass)[^/]*(?<!\.pub)$", re.IGNORECASE)


def secret_file_content(path: str, content: str) -> bool:
    """Whether ``content``, written whole to ``path``, is a secret: one word that reads as random, in a file
    named for a secret (``echo … > config/master.key`` as a Write)."""
    word = content.strip()
    return (
        bool(word)
        and len(word) <= 4096
        and not any(c.isspace() for c in word)
        and _SECRET_FILE.search(path) is not None
        and looks_random(word, 16, named=True)
    )


# An Ethereum account's private key in a network's accounts (Hardhat's and Truffle's configuration).
_ACCOUNTS = Lazy(
    r"accounts[\"']?[ \t]*:[ \t]*\[[ \t\r\n]*(?:'(?P<v>0x[0-9a-f]{64})'|\"(?P<w>0x[0-9a-f]{64})\")", re.ASCII
)
_SQL_IDENTIFIED = Lazy(
    rf"identified[ \t]+by(?:[ \t]+password)?[ \t]+(?:{_QUOTED}|(?P<b>[^\s;'\":@?$][^\s;'\"]{{0,255}}))",
    re.ASCII,
)
_SQL_SET_PASSWORD = Lazy(rf"set[ \t]+password\b[^\n;=]{{0,120}}=[ \t]*(?:password\()?{_QUOTED}", re.ASCII)
_AUTH_TUPLE = Lazy(rf"auth[ \t]*=[ \t]*\([ \t]*['\"][^'\"\n]{{0,128}}['\"][ \t]*,[ \t]*{_QUOTED}", re.ASCII)
_AUTH_CLASS = Lazy(rf"auth\([ \t]*['\"][^'\"\n]{{0,128}}['\"][ \t]*,[ \t]*{_QUOTED}", re.ASCII)
_SECURE_STRING = Lazy(rf"convertto-securestring(?:[ \t]+-string)?[ \t]+{_QUOTED}", re.ASCII)
_SLASH_PASS = Lazy(r"/pass(?:word)?:(?P<b>[^\s\"'/]{1,256})", re.ASCII)
_NET_USER = Lazy(r"net[ \t]+user[ \t]+(?:\"[^\"\n]+\"|[^\s/\"]+)[ \t]+(?P<b>[^\s/*\"][^\s\"]{0,255})", 0)
_CARGO_LOGIN = Lazy(r"cargo[ \t]+login[ \t]+(?P<b>[a-z0-9_-]{16,256})(?![\w-])", re.ASCII)
_URL_TOKEN_USER = Lazy(r"://(?P<b>[A-Za-z0-9_-]{20,256})@[\w.-]+", re.ASCII)
# A plain argument that is the secret: not an option, a variable or a file reference ("@file").
_ARGUMENT = rf"(?:{_QUOTED}|(?P<b>[^\s'\"$@-][^\s'\"]{{0,255}}))"
_WORD = r"[^\s'\"]+"  # an argument before the secret: a name, a URL, a user
# Each opens with its command's literal, then checks that no longer word holds it (see _command in
# secret_contexts), so that ``re`` skips to the literal's occurrences.
_SNYK_AUTH = Lazy(r"snyk(?<![\w.-]snyk)[ \t]+auth[ \t]+" + _ARGUMENT, re.ASCII)
_VAULT_LOGIN = Lazy(r"vault(?<![\w.-]vault)[ \t]+login[ \t]+(?![^\s'\"]*=)" + _ARGUMENT, re.ASCII)
_CONSUL_TOKEN = Lazy(r"set-agent-token[ \t]+[\w-]+[ \t]+" + _ARGUMENT, re.ASCII)
_BW = Lazy(rf"bw(?<![\w.-]bw)[ \t]+(?:unlock|login[ \t]+(?!-){_WORD})[ \t]+(?!--?\w)" + _ARGUMENT, re.ASCII)
_MC_ALIAS = Lazy(
    rf"mc(?<![\w.-]mc)[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)(?:[ \t]+{_WORD}){{3}}[ \t]+"
    + _ARGUMENT,
    re.ASCII,
)
_OPTIONS = r"(?:[ \t]+-[^\s'\"]*)*"  # options before a configuration key (--global, --local, -g)
_POETRY_CONFIG = Lazy(
    rf"poetry[ \t]+config{_OPTIONS}[ \t]+(?:http-basic\.[\w.-]+[ \t]+{_WORD}|pypi-token\.[\w.-]+)[ \t]+"
    + _ARGUMENT,
    re.ASCII,
)
_COMPOSER_CONFIG = Lazy(
    rf"composer[ \t]+(?:global[ \t]+)?config{_OPTIONS}[ \t]+"
    r"(?:(?:github-oauth|gitlab-oauth|gitlab-token|bitbucket-oauth)\.[\w.-]+"
    rf"|http-basic\.[\w.-]+[ \t]+{_WORD})[ \t]+" + _ARGUMENT,
    re.ASCII,
)
# bundle config set --global rubygems.pkg.github.com USER:PASSWORD: the password goes, the user stays.
_BUNDLE_CONFIG = Lazy(
    rf"bundle[ \t]+config(?:[ \t]+set)?{_OPTIONS}[ \t]+[\w-]+(?:\.[\w-]+)+[ \t]+[\"']?[^\s:'\"$]{{1,128}}:"
    r"(?P<b>[^\s'\"$][^\s'\"]{0,255})",
    re.ASCII,
)
# A configuration line of its own (redis.conf), or CONFIG SET: "requirepass is set" in prose is neither.
_REQUIREPASS, _MASTERAUTH = (
    Lazy(
        r"(?:(?P<set>config[ \t]+set[ \t]+)|(?m:^)[ \t]*)"
        + name
        + r"[ \t]+"
        + _ARGUMENT
        + r"(?(set)|(?=[ \t]*(?:\r?\n|$)))",
        re.ASCII,
    )
    for name in ("requirepass", "masterauth")
)


def may_hold(low: str) -> bool:
    """Whether a rule here may fire in ``low`` (a lower-cased text) that holds none of the secret words but
    "auth" (``pass``, ``secret``, ``token``, ``key``: the caller's prefilter tests those first, and every rule
    reached through them, ``/pass:`` and ``set password`` included, stays reachable). The commands sharing a
    word are looked for behind it: one search turns most texts away from all of them."""
    return (
        "auth" in low
        or "identified" in low
        or "://" in low
        or "net user" in low
        or ("login" in low and ("cargo login" in low or "vault login" in low))
        or "convertto-securestring" in low
        or (" config" in low and ("poetry config" in low or "composer" in low or "bundle config" in low))
        or "bw " in low
        or "mc " in low
        or ("0x" in low and "accounts" in low)
    )


# The rules after the quoted keys: (the secret word the text must hold, or "" for none; the substring the
# lower-cased text must hold; the pattern, run over that copy; the kind; whether the value must read as
# random). A new form is one row.
_RULES: tuple[tuple[str, str, Lazy, str, bool], ...] = (
    ("pass", "set password", _SQL_SET_PASSWORD, "password", False),
    ("pass", "/pass", _SLASH_PASS, "password", False),
    ("", "identified", _SQL_IDENTIFIED, "password", False),
    ("auth", "auth", _AUTH_TUPLE, "password", False),
    ("auth", "auth(", _AUTH_CLASS, "password", False),
    ("", "convertto-securestring", _SECURE_STRING, "password", False),
    ("", "net user", _NET_USER, "password", False),
    ("", "cargo login", _CARGO_LOGIN, "token", True),
    ("", "://", _URL_TOKEN_USER, "url-credentials", True),
    ("auth", "snyk", _SNYK_AUTH, "token", False),
    ("", "vault login", _VAULT_LOGIN, "token", False),
    ("token", "set-agent-token", _CONSUL_TOKEN, "token", False),
    ("", "bw ", _BW, "password", False),
    ("", "mc ", _MC_ALIAS, "secret-key", False),
    ("", "poetry config", _POETRY_CONFIG, "password", False),
    ("", "composer", _COMPOSER_CONFIG, "token", False),
    ("", "bundle config", _BUNDLE_CONFIG, "password", False),
    ("pass", "requirepass", _REQUIREPASS, "password", False),
    ("", "0x", _ACCOUNTS, "private-key", False),
    ("auth", "masterauth", _MASTERAUTH, "password", False),
)


def form_spans(
    text: str,
    scan: str,
    low: str,
    words: frozenset[str],
    judge: Judge,
    key_kind: Callable[[str], str],
) -> Iterator[Span]:
    """The secrets these forms hold in ``text`` (``scan``: its ASCII copy, ``low``: that lower-cased,
    ``words``: the secret words it holds, :func:`~.secret_contexts.words_in`). Each rule's substring is
    looked for once, here: a long text pays one search per rule."""
    if ("pass" in words or "secret" in words or "token" in words or "key" in words) and (
        "'" in scan or '"' in scan
    ):
        yield from _quoted_keys(text, scan, low, judge, key_kind)
    for word, needed, pattern, kind, strict in _RULES:
        if (not word or word in words) and needed in low:
            for match in pattern.finditer(low):
                yield from _judged(text, match, judge, kind, strict)


def echoed_into(text: str, low: str, judge: Judge) -> Iterator[Span]:
    """One word echoed or printed into a file named for a secret (the caller has found ``>`` and ``echo`` or
    ``printf`` in the text, which it looks for anyway)."""
    for match in _ECHO_INTO.finditer(low):
        yield from _judged(text, match, judge, "secret", True)


def _quoted_keys(
    text: str, scan: str, low: str, judge: Judge, key_kind: Callable[[str], str]
) -> Iterator[Span]:
    """A quoted secret-ish key handed its value, found back from each of its secret words: a call's next
    argument (`define('DB_PASSWORD', 'v')`) must read as random, so a list of field names (`['password',
    'email']`) is no secret; an index's assignment (`config['SECRET_KEY'] = 'v'`) sets a value."""
    tried: set[int] = set()
    for stem in _QUOTED_KEY_STEMS:
        at = low.find(stem)
        while at >= 0:
            floor = max(0, at - _QUOTE_REACH)
            quote = max(scan.rfind("'", floor, at), scan.rfind('"', floor, at))
            if quote >= 0 and quote not in tried:
                tried.add(quote)
                match = _QUOTED_KEY.match(low, quote)
                if match is not None:
                    key = text[match.start("key") : match.end("key")]
                    strict = not match.group("op").startswith("]")
                    yield from _judged(text, match, judge, lambda key=key: key_kind(key), strict)  # type: ignore[misc]
            at = low.find(stem, at + len(stem))


def _judged(
    text: str, match: re.Match[str], judge: Judge, kind: str | Callable[[], str], strict: bool = False
) -> Iterator[Span]:
    """The span of ``match``'s value (group ``v``, ``w`` or ``b``), if ``redact``'s judgement finds it a
    secret (``strict``: only a random-looking one, where nothing but the shape says so)."""
    name = next(group for group in ("v", "w", "b") if group in match.re.groupindex and match.group(group))
    span = judge(text, match.start(name), match.end(name), kind, strict)
    if span is not None:
        yield span
