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
  ``ssh-keygen -N VALUE``, ``ldapsearch -w VALUE``, ``htpasswd -b file user VALUE``,
  ``openssl … pass:VALUE``, ``openssl enc -k VALUE`` / ``-K HEX``, ``sqlcmd``/``bcp``/``ipmitool``/
  ``mosquitto_pub``/``p4 -P VALUE``, ``twine``/``ncftp -p VALUE``, ``smbclient -U user%VALUE``,
  ``lftp -u user,VALUE``, ``snmpwalk -A VALUE -X VALUE``, ``influx -t VALUE``, Oracle's
  ``sqlplus user/VALUE@db`` (``rman``, ``expdp``, ``impdp``, ``sqlldr``; reached through the "@",
  or through a flag such as ``-s``), ``sudo -S … <<< VALUE``, ``echo VALUE | sudo -S`` (or
  ``--password-stdin``, ``passwd --stdin``, ``chpasswd``, ``kinit``) and the same commands fed a
  here-string (``kinit bob@REALM <<< VALUE``), and Windows' ``net use \\\\srv\\share VALUE``. Each
  belongs to its command: most commands' ``-p`` is a port or a plugin, and after ``git log -p`` or
  ``kubectl logs -p`` a random-looking word is a commit or a pod, so no rule takes "a random value
  after -p".
  A flag-shaped name ending in "pass" (``keytool -storepass VALUE``, ``--with-db-pass VALUE``) is
  a secret-ish name, above. (``redact``'s own families take ``SSHPASS=…``, ``xfreerdp /p:…``,
  ``--user=user%…``, ``vault login s.…``, ``wpa_passphrase`` and ``rabbitmqctl add_user``, each
  through an anchor character it already scans for.)
* **A key id's partner** — a random token near a key id that ``redact``'s formats found: an AWS
  ``AKIA…`` id's 40-character secret, an Alibaba ``LTAI…`` id's secret, a Twilio ``SK…`` API key's
  secret, wherever the pair is written, prose included.
* **Formats with no anchor character** — Databricks ``dapi…``, Twilio ``SK…``, an Azure AD client
  secret (``…Q~…``), a NuGet ``oy2…`` key.

Speed: these rules run on every projected string, so each is reached through substring searches,
which CPython runs several times faster than ``re`` scans for a pattern (and a one-character search
several times faster again): a secret-ish word in a lower-cased copy, then one ``finditer`` trying the
rule at each occurrence; a command's rules through one search for the flags they use (`` -p``,
`` -a``, …), then an anchored match of the value and a look back along the flag's line for the
command; Oracle's connect strings through a one-character search for "@" (``memchr``, far cheaper
than a word's search) before the commands' names are looked for; key ids through what
``redact``'s formats already found. A string holding none of the substrings costs about a dozen
searches and no rule. That is also the floor of their cost: on a long text each search reads every
character (about 0.7 ns each, some fourteen of them), and neither one alternation of every gate nor
testing each gate once without the short strings' prefilter is faster (both measured slower).
Patterns are compiled on first use, no pattern nests repeats, and each bounds how far it reads.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator

from sbcore.observe import secret_forms
from sbcore.observe.entropy import looks_random
from sbcore.observe.lazy_pattern import Lazy
from sbcore.observe.secret_rules import FORMATS

Span = tuple[int, int, int, str]  # start, end, priority, kind

WORDS = ("pass", "secret", "token", "key", "auth")
"""The words most secrets' names hold. ``redact`` looks for them once per text (a substring search each) and
hands what it found to these rules and to :mod:`sbcore.observe.secret_categories`, which would otherwise
each search again."""


def words_in(low: str) -> frozenset[str]:
    """Which of :data:`WORDS` the lower-cased text ``low`` holds.

    Looked up by which of the five it holds, among the 32 sets built once: building a set from a
    generator for every projected string cost three times the five substring searches themselves."""
    return _WORD_SETS["pass" in low, "secret" in low, "token" in low, "key" in low, "auth" in low]


_WORD_SETS = {
    held: frozenset(word for word, there in zip(WORDS, held, strict=True) if there)
    for held in itertools.product((False, True), repeat=len(WORDS))
}


Judge = Callable[[str, int, int, "str | Callable[[], str]", bool], "Span | None"]
"""``redact``'s judgement of a keyed value ``text[start:end]``: its span if it is a secret. The kind is
given, or a function naming it from the key, called only once the value passed the cheaper tests."""


# A secret-ish name: what it ends with, after any prefix (``db_``, ``client-``, ``AWS_SECRET_ACCESS_``).
_NAME_END = (
    r"pass(?:word|wd|phrase)|secret|token|api[ _.-]?key|(?:secret|access|private|signing|encryption"
    r"|master|license|account|app|auth)[_.-]?key|_pass"
)
# A value: quoted (JSON-escaped quotes too, or back-quoted as prose shows code), or bare up to a delimiter.
_VALUE = (
    r"(?:\\\"[^\"\\\n]{1,256}\\\"|'[^'\n]{1,256}'|\"[^\"\n]{1,256}\"|`[^`\n]{1,256}`"
    r"|[^\s\"'`,;|&<>(){}\[\]\\]{1,512})"
)
# What may stand between a name and its value besides an operator (``redact``'s business): an XML
# element's ">" (``<password>VALUE</password>``); a name/value pair's "value" key
# (``- name: DB_PASSWORD`` then ``value: VALUE``, ``{"name": "API_TOKEN", "value": "VALUE"}``,
# ``key="ApiKey" value="VALUE"``); what the secret is for, in prose (``the password for the staging db is
# VALUE``, ``the API key for prod: VALUE``); or spaces (``password VALUE``, ``the token is VALUE``).
#
# Written for ``re``'s speed, tried at every count of letters after each stem: an optional quote and an
# optional newline as alternatives ending with an empty one, not as ``(?:…)?``, which runs ``re``'s general
# repeat (far costlier than a branch); a pair first looks ahead for its "value" past the quotes, commas and
# (escaped) newlines and spaces only it may hold; runs that nothing after them can give characters back to
# are possessive. Each rewrite matches what the plain form matched, first way first.
_QUOTE = r"(?:\\[\"']|[\"']|)"
_BETWEEN = (
    r"(?:(?P<xml>>)"
    r"|(?P<pair>(?=[\\\"',\sn]*+value)"
    + _QUOTE
    + r",?[ \t]*(?:\r\n|\n|\\n|)[ \t]*"
    + _QUOTE
    + "value"
    + _QUOTE
    + r"[ \t]*[:=][ \t]*)"
    r"|[ \t]++(?:for|to)(?:[ \t]++[a-z0-9_.@/-]{1,40}+){1,4}?(?:[ \t]+(?:is|was)[ \t]+|:[ \t]+)"
    r"|" + _QUOTE + r"[ \t]+(?:(?:is|was|of)[ \t]+)?)"
)
# A name's last word, what stands between, then the value. One pattern per word, each opening with
# its literal so that a substring search finds where to try it; the rest of the name is found by
# walking back over name characters and must end as _NAME_END says.
_STEMS = ("pass", "secret", "token", "key")  # "_pwd" and "_auth" names are written with "=" or ":"
# What must follow the stem's letters for any of _BETWEEN's ways to start there: ">", a comma or a space; an
# escaped newline or quote; a quote and then one of the characters a pair or a space may follow it with; or
# "value". Most occurrences of a stem (``"max_tokens":``, ``tokenizer``) fail this first; where it holds,
# each count of letters is tried only if it is followed so (a letter is, by "value" alone). Trying
# _BETWEEN's ways one by one for each count of letters cost several times more.
_BETWEEN_OPENS = r"(?:[>,\s]|\\[n\"']|[\"'][,\s\\\"'v]|value)"
_STEM_FOLLOWED = r"(?=[a-z]{0,6}(?:[>,\s]|\\[n\"']|[\"'][,\s\\\"'v])|[a-z]{0,6}value)"
# The rest of the pattern is a look-ahead, so that ``finditer`` tries it at every occurrence of the
# stem in one call: a match consumes only the stem, and no stem can overlap another occurrence of itself
# (none begins with its own ending), so no occurrence is skipped; inside the look-ahead the first
# match is the one ``match`` at that occurrence would find, groups included.
_SPACED = tuple(
    (
        stem,
        Lazy(
            stem
            + r"(?="
            + _STEM_FOLLOWED
            + r"[a-z]{0,6}(?P<e>)(?="
            + _BETWEEN_OPENS
            + ")"
            + _BETWEEN
            + r"(?P<v>"
            + _VALUE
            + "))"
        ),
    )
    for stem in _STEMS
)
_NAME_OK = Lazy(r"(?:" + _NAME_END + r")$")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")
# A compound, flag-shaped or camelCase name is code or configuration, not prose.
_FIRM_NAME = Lazy(r".*(?:[-_.0-9]|[a-z][A-Z])")
_LINE_END = Lazy(r"[ \t]*(?:\r?\n|$)")
_LOOK_BACK = 256
_NETRC = Lazy(r"(?:^|[ \t])(?:machine|login|default)[ \t]")

_AUTHORIZATION = Lazy(
    r"authorization(?:\\?[\"'])?(?:[ \t]*[:=]|(?P<spaced>[ \t]+)(?=\\?[\"']))[ \t]*(?:\\?[\"'])?"
    r"(?:(?P<scheme>[a-z][a-z0-9_.-]{1,30})[ \t]+)?(?P<v>[^\s\"'\\,;{}()\[\]]{6,1024})",
)
# Bearer, Token and Basic are redact's own rules; a Digest header's fields are a one-time response.
_SKIPPED_SCHEMES = frozenset({"bearer", "token", "basic", "digest"})

_ARG = r"(?P<v>'[^'\n]{1,256}'|\"[^\"\n]{1,256}\"|[^\s'\"|;&]{1,256})"
# How far back along its line a flag's command is looked for. The line is not cut at ";", "&" or "|":
# those may sit inside a quoted password, which redaction then removes, and a second pass must find
# what the first found. Far enough that the secrets redacted between a command and its flag, whose
# markers are shorter or longer than they were, cannot bring into reach in a second pass a command the
# first did not reach (a flag's command is on its line, however long the line is up to this bound).
_SEGMENT = 4096


def _word(literal: str) -> str:
    """``literal`` as a command word, then a check of what precedes it (see :func:`_command`).

    Opening with the literal lets ``re`` find it by a fast substring search: a pattern opening with
    a look-behind is tried at every position, several times slower.
    """
    escaped = re.escape(literal)
    return escaped + rf"(?:(?<![\w.-]{escaped})(?<!\w\]{escaped})|(?<=\\[nt]{escaped}))"


def _command(*names: str) -> Lazy:
    """A command word among ``names`` (each a literal, then perhaps a pattern: ``mysql\\w*``): not inside a
    longer word (after a "/" is fine).

    A word character just before it may be the ``n`` or ``t`` of a JSON-escaped newline or tab; a
    marker's ``]`` (after the letter ending its kind) counts as a letter, so that redacting a neighbour
    exposes nothing to a second pass, where a bracket closing a list (``"prod"}]mysql -pX``) is a boundary.
    Each name opens with its literal and checks what precedes it after (see :func:`_word`): a pattern
    opening with that check was tried at every position of the text, the one scan costing most of a long
    text's rules.
    """
    branches = []
    for name in names:
        rest = name.lstrip(_LITERAL_CHARS)
        branches.append(_word(name[: len(name) - len(rest)]) + rest)
    return Lazy(rf"(?:{'|'.join(branches)})\b")


_LITERAL_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_-"


# By flag letter: (the commands the flag belongs to, or None for any; the value, matched from the
# letter on; the kind). A rule is reached through its flag's occurrences: the value is matched there
# first (anchored, it fails at once after most flags), then its command is looked for on the same line
# before the flag, so a text holding none of the flags costs one scan for them all. A command table
# rather than "a random value after -p": ``git log -p <sha>`` and ``kubectl logs -p <pod>`` put
# random-looking words there too, and most commands' ``-p`` is a port, a plugin or a parents flag.
_FLAG = re.compile(r" -([pPawSkNKUuAXts])", re.ASCII)  # runs on every text
_PW = "password"
# net-snmp refuses a passphrase under eight characters: "grep -A 3" is not even tried for its command.
_ARG8 = r"(?P<v>'[^'\n]{8,256}'|\"[^\"\n]{8,256}\"|[^\s'\"|;&]{8,256})"
# An Oracle user/password connect string (``scott/tiger@orcl``), its user name first.
_CONNECT = r"[\"']?(?:userid=)?[A-Za-z_][\w$#]{0,63}/(?P<v>[^\s@/'\"|;&]{1,128})"
_ORACLE = r"sqlplus|sqlldr|rman|expdp|impdp"
_BY_FLAG: dict[str, tuple[tuple[Lazy | None, Lazy, str], ...]] = {
    "p": (
        # mysql -pVALUE, 7z -pVALUE, sshpass -pVALUE: the value is glued to the flag
        (_command(r"mysql\w*", r"mariadb\w*", "7z[ar]?", "unrar", "rar", "sshpass"), Lazy(r"p" + _ARG), _PW),
        # docker login -p VALUE, mongosh -p VALUE, twine upload -p VALUE, ncftp -u bob -p VALUE
        (
            _command("login", "mongo", "mongosh", "twine", r"ncftp\w*", "psexec", "paexec"),
            Lazy(r"p[ \t]+" + _ARG),
            _PW,
        ),
        # openssl -pass pass:VALUE, -passin pass:VALUE
        (None, Lazy(r"pass(?:in|out|word)?[ \t]+pass:" + _ARG), _PW),
    ),
    "k": (
        (None, Lazy(r"k[ \t]+pass:" + _ARG), _PW),
        # openssl enc -k VALUE: the passphrase itself (a "pass:" one is the rule above's); not a URL,
        # which "curl -k" later on the line (after "&&") takes
        (_command("openssl"), Lazy(r"k[ \t]+(?!pass:|-|[\w+.-]*://)" + _ARG), _PW),
    ),
    # openssl enc -K HEXKEY: the raw key
    "K": ((_command("openssl"), Lazy(r"K[ \t]+(?P<v>[0-9A-Fa-f]{16,256})\b"), "secret-key"),),
    "P": (
        (_command("zip", "unzip"), Lazy(r"P[ \t]*" + _ARG), _PW),
        # ssh-keygen -P old-passphrase, -N new-passphrase; sqlcmd/bcp -U sa -P VALUE, mosquitto_pub,
        # ipmitool, p4 -P VALUE
        (
            _command("ssh-keygen", "sqlcmd", "osql", "bcp", "mosquitto_(?:pub|sub|rr)", "ipmitool", "p4"),
            Lazy(r"P[ \t]+" + _ARG),
            _PW,
        ),
    ),
    "N": ((_command("ssh-keygen"), Lazy(r"N[ \t]+" + _ARG), _PW),),
    "a": (
        (_command("redis-cli"), Lazy(r"a[ \t]+" + _ARG), _PW),
        # jenkins-cli -auth USER:TOKEN: the user stays ("-auth @FILE" names a file)
        (
            _command("jenkins-cli"),
            Lazy(r"auth[ \t]+[\"']?[^\s:@'\"|;&][^\s:'\"|;&]{0,127}:(?P<v>[^\s'\"|;&]{1,256})"),
            _PW,
        ),
    ),
    "w": ((_command(r"ldap\w+"), Lazy(r"w[ \t]+" + _ARG), _PW),),
    "S": (
        # sudo -S … <<< 'VALUE'
        (_command("sudo"), Lazy(r"S\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG), _PW),
        # sqlplus -S scott/VALUE
        (_command(*_ORACLE.split("|")), Lazy(r"S[ \t]+" + _CONNECT), _PW),
    ),
    "s": ((_command(*_ORACLE.split("|")), Lazy(r"s[ \t]+" + _CONNECT), _PW),),
    # smbclient //fs/share -U alice%VALUE (rpcclient, net rpc, smbcacls: Samba's user%password)
    "U": (
        (
            _command(r"smb\w*", "rpcclient", "net", "winexe"),
            Lazy(r"U[ \t]*[\"']?[^\s%'\"|;&]{1,128}%(?P<v>[^\s'\"|;&]{1,256})"),
            _PW,
        ),
    ),
    # lftp -u bob,VALUE
    "u": ((_command("lftp"), Lazy(r"u[ \t]+[\"']?[^\s,'\"|;&]{1,128},(?P<v>[^\s'\"|;&]{1,256})"), _PW),),
    # snmpwalk -v3 -u user -A auth-passphrase -X privacy-passphrase (net-snmp)
    "A": ((_command(r"snmp\w+"), Lazy(r"A[ \t]+" + _ARG8), _PW),),
    "X": ((_command(r"snmp\w+"), Lazy(r"X[ \t]+" + _ARG8), _PW),),
    # influx … -t TOKEN; the CLIs whose -t is their access token (doctl, vercel, flyctl, glab, codecov)
    "t": (
        (
            _command("influx", "doctl", "vercel", "flyctl", "glab", "codecov"),
            Lazy(r"t[ \t]+" + _ARG),
            "token",
        ),
    ),
}
# echo VALUE | sudo -S, | … --password-stdin, | passwd --stdin, | chpasswd, | kinit, | wrangler secret put
# NAME: the value comes first.
_ECHOED = tuple(
    Lazy(
        _word(command)
        + r"(?:[ \t]+-[neE]+)*[ \t]+(?:(?:'%s\\n'|\"%s\\n\")[ \t]+)?"
        + _ARG
        + r"[ \t]*\|[ \t]*(?:sudo\b[^\n|;&]{0,100}?[ \t]-[A-Za-z]*S\b"
        # `--password-stdin`, openconnect's `--passwd-on-stdin`, `--password-from-stdin`, `--stdin-password`
        r"|[^\n|;&]{0,200}?--(?:pass(?:word|wd)?[-_](?:(?:on|from)[-_])?stdin|stdin[-_]pass(?:word|wd)?)"
        r"|passwd\b[^\n|;&]{0,60}?--stdin|(?:sudo[ \t]+(?:-\S+[ \t]+)*)?chpasswd|kinit\b"
        r"|[^\n|;&]{0,200}?-pass(?:in)?[ \t]+stdin|[^\n|;&]{0,200}?--with-token"
        r"|[^\n|;&]{0,200}?secrets?[ \t]+(?:put|set|add|create)\b)"
    )
    for command in ("echo", "printf")
)
# kinit alice@REALM <<< VALUE, … --password-stdin <<< VALUE, passwd --stdin bob <<< VALUE, openssl …
# -passin stdin <<< VALUE: a here-string into a command that reads a password from its input (sudo -S's
# is found through its flag); chpasswd reads "user:password".
_HERE_STRINGS = (
    Lazy(_word("kinit") + r"[^\n|;&]{0,200}?<<<[ \t]*" + _ARG),
    Lazy(r"--password-stdin\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG),
    Lazy(r"--with-token\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG),
    Lazy(_word("passwd") + r"[^\n|;&]{0,60}?--stdin\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG),
    Lazy(r"-pass(?:in)?[ \t]+stdin\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG),
    Lazy(_word("chpasswd") + r"[^\n|;&]{0,100}?<<<[ \t]*['\"]?[^\s:'\"|;&]{1,64}:(?P<v>[^\s'\"|;&]{1,256})"),
    # wrangler secret put NAME <<< VALUE, gh secret set NAME <<< VALUE: a secret store fed its value
    Lazy(r"secrets?[ \t]+(?:put|set|add|create)\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG),
)
# net use Z: \\fs01\share VALUE /user:CORP\alice (Windows): the first plain word after the share is its
# password ("*" asks for it); the device, the share and the /options around them are not.
_NET_USE = Lazy(r"net[ \t]+use\b(?P<args>[^\n|;&]{1,512})")
_NET_USE_WORD = Lazy(r"\"[^\"\n]*\"|[^\s\"]+")
# sqlplus scott/VALUE@orcl, rman target sys/VALUE@db, expdp system/VALUE@db, sqlldr userid=u/VALUE@db;
# reached through the "@" (the forms with none take a flag, found through it above).
_CONNECTED = tuple(
    (command, Lazy(_word(command) + r"\b(?:[ \t]+(?:-\w+|target|auxiliary|catalog))*[ \t]+" + _CONNECT))
    for command in _ORACLE.split("|")
)
# Commands that store a secret, found where the word "secret" is: gh secret set NAME --body VALUE,
# kubectl create secret … --from-literal=NAME=VALUE, fly secrets set NAME=VALUE ….
_SECRET_SETTERS = (
    Lazy(_word("gh") + r"[ \t]+secret[ \t]+set\b[^\n]{0,200}?[ \t](?:--body|-b)(?:[ \t]+|=)?" + _ARG),
    Lazy(r"--from-literal=[^\s='\"]{1,64}=" + _ARG),
)
_SECRETS_SET = Lazy(_word("fly") + r"(?:ctl)?[ \t]+secrets[ \t]+set(?P<pairs>(?:[ \t]+[^\s|;&]+)+)")
_PAIR = Lazy(r"[^\s=]{1,64}=(?P<v>'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"|;&]+)")
# htpasswd -b[cBmsp…] [file] user password: the last of the arguments (two of them with -n).
_HTPASSWD = Lazy(
    _word("htpasswd") + r"(?P<flags>(?:[ \t]+-[A-Za-z]+)+)"
    r"(?:[ \t]+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"|;&]+)){2,3}"
)
_WORDS = Lazy(r"'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"|;&]+")

_BOUNDED = r"(?![A-Za-z0-9])"
# A key id that ``redact``'s formats found (by the kind they named it), and the kind and shape of the
# secret that goes with it.
_PARTNERS: dict[str, tuple[str, Lazy]] = {
    "aws-access-key-id": (
        "aws-secret-access-key",
        Lazy(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"),
    ),
    "alibaba-access-key-id": (
        "alibaba-access-key-secret",
        Lazy(r"(?<![A-Za-z0-9])[A-Za-z0-9]{30}" + _BOUNDED),
    ),
    "twilio-api-key": ("twilio-api-key-secret", Lazy(r"(?<![A-Za-z0-9])[A-Za-z0-9]{32}" + _BOUNDED)),
}
_MIXED_CASE = frozenset({"aws-access-key-id", "alibaba-access-key-id"})  # a hex digest is not their secret
_NEIGHBOURHOOD = 320  # characters either side of a key id searched for its partner

# Formats whose prefix holds none of ``redact``'s anchor characters: (prefix, a character of it that
# is rare in text or "" when none is, kind, pattern opening with the prefix). A substring search finds
# a prefix faster than ``re`` scans for it, and a one-character search (``memchr``) is several times
# faster again: most long texts hold no "K", so "SK" is looked for in few of them. No match can hold
# the start of another (the guard before the prefix fails inside a body), so ``finditer`` finds the
# match at every occurrence of the prefix.
_GUARDED = r"(?:(?<![\w/.\]-]{0})|(?<=\\[nt]{0}))"  # see _command; a marker's "]" counts as a letter
_BARE_FORMATS: tuple[tuple[str, str, str, Lazy], ...] = tuple(
    (prefix, rare, kind, Lazy(prefix + _GUARDED.format(prefix) + rest + _BOUNDED))
    for prefix, rare, kind, rest in (
        ("dapi", "", "databricks-token", r"[0-9a-f]{32}(?:-\d{1,2})?"),
        ("SK", "K", "twilio-api-key", r"[0-9a-f]{32}"),
        ("oy2", "2", "nuget-api-key", r"[a-z0-9]{43}"),
    )
)
# An Azure AD client secret: three characters, a digit, "Q~", then 31 to 34 more.
_AZURE = Lazy(r"(?<![\w~.-])[\w~.-]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])")

_ID_PREFIXES = tuple(
    sorted(
        {prefix for kind, prefix, _ in FORMATS if kind in _PARTNERS}
        | {prefix for prefix, _, kind, _ in _BARE_FORMATS if kind in _PARTNERS}
    )
)
PARTNER_REACH = _NEIGHBOURHOOD
"""How far past a secret a key id that makes it one (its partner, :func:`_partners`) may start."""


def key_id_between(text: str, start: int, end: int) -> bool:
    """Whether a key id that has a partner rule may start in ``text[start:end]``: one of their prefixes
    does. A slice that ends before such an id would not see what makes a token before it a secret."""
    return any(text.find(prefix, start, end + len(prefix) - 1) >= 0 for prefix in _ID_PREFIXES)


_SHORT = 512  # see quiet

KINDS = frozenset(
    {"password", "authorization", "azure-ad-client-secret"}
    | {kind for kind, _ in _PARTNERS.values()}
    | {kind for _, _, kind, _ in _BARE_FORMATS}
)
"""The kinds these rules name besides those a key names (see ``secret_rules.KEY_KINDS``)."""


def context_spans(
    text: str,
    scan: str,
    judge: Judge,
    key_kind: Callable[[str], str],
    spans: list[Span],
    low: str | None = None,
    words: frozenset[str] | None = None,
) -> None:
    """Add every secret these rules find in ``text`` to ``spans`` (``scan``: its ASCII copy; ``low``:
    that lower-cased, and ``words``: the :data:`WORDS` it holds, when the caller has them already).

    ``spans`` holds what ``redact``'s own rules found: a key id among them has its partner looked
    for. Each rule runs only where a substring it cannot match without is present, and those tests
    come first, so a string holding none of them costs a few substring searches and no rule.
    """
    if low is None:
        low = scan.lower()
    if words is None:
        words = words_in(low)
    if len(low) < _SHORT and quiet(low, scan) and not (spans and any(s[3] in _PARTNERS for s in spans)):
        return
    stems = [(stem, pattern) for stem, pattern in _SPACED if stem in words]
    for stem, pattern in stems:
        spans.extend(_spaced(text, low, pattern, judge, key_kind))
        if stem == "secret":
            spans.extend(_secret_setters(text, scan, judge))
    if "auth" in words and "authoriz" in low:
        spans.extend(_authorization(text, low, judge))
    if " -" in scan and (flag := _FLAG.search(scan)) is not None:
        spans.extend(_flagged(text, scan, flag.start(), judge))
    if any(stem == "pass" for stem, _ in stems) and "htpasswd" in low:  # "htpasswd" holds "pass"
        spans.extend(_htpasswd(text, scan, judge))
    if ("|" in scan or ">" in scan) and ("echo" in scan or "printf" in scan):
        if "|" in scan:
            spans.extend(_echoed(text, scan, judge))
        if ">" in scan:
            spans.extend(secret_forms.echoed_into(text, low, judge))
    if "<<<" in scan:
        for pattern in _HERE_STRINGS:
            spans.extend(_matched(text, scan, pattern, judge))
    if "net use" in low:
        spans.extend(_net_use(text, low, judge))
    spans.extend(secret_forms.form_spans(text, scan, low, words, judge, key_kind))
    # Commands whose secret no flag or word leads to, each behind a character its form needs: a memchr
    # finds that a text lacks it at a small part of the cost of a substring search.
    if "@" in scan:
        for command, pattern in _CONNECTED:
            if command in low:
                spans.extend(_matched(text, low, pattern, judge))
    for prefix, rare, kind, pattern in _BARE_FORMATS:
        if rare in scan and prefix in scan:
            spans.extend((m.start(), m.end(), 2, kind) for m in pattern.finditer(scan))
    if "~" in scan:
        spans.extend(_azure(scan))
    ids = [(start, end, kind) for start, end, _, kind in spans if kind in _PARTNERS]
    if ids:
        spans.extend(_partners(scan, ids))


def quiet(low: str, scan: str) -> bool:
    """Whether no rule here can fire in a text (``low``: lower-cased, ``scan``: as is), a key id's
    partner aside: it holds none of the substrings they need.

    Most projected strings are short and hold none: for them this one expression costs less than the
    steps of testing each rule's gates in turn (a long text goes straight to those). Each test is
    implied by the gate of the rule it stands for.
    """
    return not (
        "pass" in low
        or "secret" in low
        or "token" in low
        or "key" in low  # _STEMS
        or (" -" in low and _FLAG.search(scan) is not None)  # "ls -la", "git add -A": no flag of a rule
        or "authoriz" in low
        or ("|" in scan and ("echo" in scan or "printf" in scan))
        or "<<<" in scan
        or "net use" in low
        or secret_forms.may_hold(low)
        or ("@" in scan and _oracle(low))
        or "Q~" in scan
        or "SK" in scan
        or "dapi" in scan
        or "oy2" in scan
    )


def _oracle(low: str) -> bool:
    """Whether ``low`` names a command that takes an Oracle connect string."""
    return "sqlplus" in low or "rman" in low or "expdp" in low or "impdp" in low or "sqlldr" in low


def _spaced(
    text: str, low: str, pattern: Lazy, judge: Judge, key_kind: Callable[[str], str]
) -> Iterator[Span]:
    """``name VALUE`` where the name ends in ``stem``."""
    for match in pattern.finditer(low):
        if (span := _spaced_span(text, low, match, judge, key_kind)) is not None:
            yield span


def _spaced_span(
    text: str, low: str, match: re.Match[str], judge: Judge, key_kind: Callable[[str], str]
) -> Span | None:
    """Judge one ``name VALUE`` match: walk back to the name's start, decide how firm it is.

    Firm: an XML element, a name/value pair, a compound, flag-shaped or upper-case name, a name opening
    a configuration line that its value ends, a ``.netrc`` line. Loose: a word in prose.
    """
    start, floor, name_end = match.start(), max(0, match.start() - 64), match.start("e")
    while start > floor and low[start - 1] in _NAME_CHARS:
        start -= 1
    if low[start - 4 : start] in ("api ", "app "):
        start -= 4  # "API key", spelt as two words in prose
    if not _NAME_OK.search(low, start, name_end) and not _pass_flag(low, start, name_end):
        return None
    key = text[start:name_end]
    if key == "wpa_passphrase":
        return None  # its first argument is the network's name (``redact`` takes the second)
    firm = match.group("xml") is not None or match.group("pair") is not None
    firm = firm or bool(_FIRM_NAME.match(key)) or (key.isupper() and " " not in key)
    # a quoted value after a word for a password (`nmcli … password 'Meadow-…'`, `the password "…"`) is one,
    # however pronounceable: people choose words
    firm = firm or (low[match.start("v")] in "'\"" and _PASSWORD_WORD.search(key) is not None)
    if not firm:
        # The line so far, read back at most _LOOK_BACK characters: a name further along a line is
        # not at its start, and reading back no further keeps a long line linear.
        floor = max(0, start - _LOOK_BACK)
        newline = low.rfind("\n", floor, start)
        before = low[newline + 1 if newline != -1 else floor : start]
        opens_line = (newline != -1 or floor == 0) and not before.strip()
        ends_line = _LINE_END.match(low, match.end("v")) is not None
        firm = (opens_line and ends_line) or _NETRC.search(before) is not None
    return judge(text, match.start("v"), match.end("v"), lambda: key_kind(key), not firm)


_PASSWORD_WORD = re.compile(r"pass(?:word|wd|phrase)?$|pwd$")


def _pass_flag(low: str, start: int, end: int) -> bool:
    """A flag whose name ends in "pass" (``-storepass``, ``-srcstorepass``, ``--with-db-pass``).

    Not openssl's ``-pass``, whose value is a source (``pass:…``, ``env:…``, ``file:…``, found by
    its own rule), nor ``--pass``, which ``redact``'s flags cover.
    """
    return low[start] == "-" and low.endswith("pass", start, end) and low[start:end].lstrip("-") != "pass"


def _authorization(text: str, low: str, judge: Judge) -> Iterator[Span]:
    """``Authorization: <scheme> <credential>`` for schemes other than Bearer, Token and Basic; every scheme
    where the header's value is quoted after a space (nginx's ``proxy_set_header Authorization "Basic …"``),
    which ``redact``'s own rules, reached through an operator, do not see."""
    for match in _AUTHORIZATION.finditer(low):
        scheme = match.group("scheme")
        if scheme in _SKIPPED_SCHEMES and match.group("spaced") is None:
            continue
        if (span := judge(text, match.start("v"), match.end("v"), "authorization", False)) is not None:
            yield span


def _flagged(text: str, scan: str, first: int, judge: Judge) -> Iterator[Span]:
    """Passwords given to a command as a flag's argument, from the first flag at ``first`` on."""
    places: dict[Lazy, tuple[list[int], list[int]]] = {}
    for flag in _FLAG.finditer(scan, first):
        at = flag.start(1)
        floor = max(0, at - _SEGMENT)
        line = scan.rfind("\n", floor, at) + 1 or floor
        for command, value, kind in _BY_FLAG[flag.group(1)]:
            found = value.match(scan, at)
            if found is None or (command is not None and not _occurs(places, command, scan, line, at)):
                continue
            if span := judge(text, found.start("v"), found.end("v"), kind, False):
                yield span


def _occurs(
    places: dict[Lazy, tuple[list[int], list[int]]], command: Lazy, scan: str, start: int, stop: int
) -> bool:
    """Whether ``command`` occurs in ``scan`` between ``start`` and ``stop``. Its places in the text are found
    once per text: a line of many flags (hostile, or a long generated command) costs one scan, not one back
    along the line for each flag, which made such a text quadratic."""
    if command not in places:
        hits = list(command.finditer(scan))
        places[command] = ([hit.start() for hit in hits], [hit.end() for hit in hits])
    starts, ends = places[command]
    index = bisect_left(starts, start)
    return index < len(starts) and ends[index] <= stop


def _matched(text: str, low: str, pattern: Lazy, judge: Judge) -> Iterator[Span]:
    """The password in each of ``pattern``'s matches in ``low`` (its group ``v``)."""
    for match in pattern.finditer(low):
        if (span := judge(text, match.start("v"), match.end("v"), "password", False)) is not None:
            yield span


def _echoed(text: str, scan: str, judge: Judge) -> Iterator[Span]:
    """A password echoed into a command that reads it from stdin."""
    for pattern in _ECHOED:
        for match in pattern.finditer(scan):
            if (span := judge(text, match.start("v"), match.end("v"), "password", False)) is not None:
                yield span


def _net_use(text: str, low: str, judge: Judge) -> Iterator[Span]:
    """The password ``net use`` is given: the first plain word after the share."""
    for match in _NET_USE.finditer(low):
        shared = False
        for word in _NET_USE_WORD.finditer(low, match.start("args"), match.end("args")):
            value = word.group(0)
            if value.startswith("/"):
                continue
            if not shared:
                shared = value.lstrip('"').startswith("\\\\")
                continue
            if value != "*" and (span := judge(text, word.start(), word.end(), "password", False)):
                yield span
            break


def _secret_setters(text: str, scan: str, judge: Judge) -> Iterator[Span]:
    """The values given to commands that store secrets."""
    for pattern in _SECRET_SETTERS:
        for match in pattern.finditer(scan):
            if (span := judge(text, match.start("v"), match.end("v"), "secret", False)) is not None:
                yield span
    for command in _SECRETS_SET.finditer(scan):
        for pair in _PAIR.finditer(scan, command.start("pairs"), command.end("pairs")):
            if (span := judge(text, pair.start("v"), pair.end("v"), "secret", False)) is not None:
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


def _azure(scan: str) -> Iterator[Span]:
    """Azure AD client secrets, found through their ``Q~``."""
    mark = scan.find("Q~")
    while mark != -1:
        if mark >= 4 and (found := _AZURE.match(scan, mark - 4)):
            yield found.start(), found.end(), 2, "azure-ad-client-secret"
        mark = scan.find("Q~", mark + 2)


def _partners(scan: str, ids: list[tuple[int, int, str]]) -> Iterator[Span]:
    """A random token of the partner's shape near a key id: the id's secret."""
    for start, end, id_kind in ids:
        kind, shape = _PARTNERS[id_kind]
        for partner in shape.finditer(scan, max(0, start - _NEIGHBOURHOOD), end + _NEIGHBOURHOOD):
            token = partner.group(0)
            if start <= partner.start() < end or not looks_random(token) or token.isalpha():
                continue
            if id_kind in _MIXED_CASE and (token.lower() == token or token.upper() == token):
                continue
            yield partner.start(), partner.end(), 2, kind
