"""The prefilters for short strings only skip strings no rule could find a secret in.

``secret_contexts.quiet`` lets a short string skip every context rule at once, and with
``secret_categories.quiet`` it lets ``redact`` return a string the formats found nothing in without
asking the rules one by one. Each of their tests must be implied by the gate of a rule, so with the
prefilters or without them the same spans are found.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sbcore.observe import redact, secret_categories, secret_contexts
from sbcore.observe.redact import judged_span, kind_of_key

_PIECES = [
    " ",
    "\n",
    "=",
    ":",
    "|",
    "'",
    '"',
    "-",
    " -p",
    " -P",
    " -l",
    " -a",
    " -A",
    " -S",
    " -w",
    " -N",
    " -k",
    "mysql",
    "redis-cli",
    "sudo",
    "zip",
    "login",
    "ldapsearch",
    "ssh-keygen",
    "echo",
    "<<<",
    "pass:",
    "password",
    "token",
    "secret",
    "key",
    "api_key",
    "authorization",
    "Bearer",
    "Q~",
    "SK",
    "dapi",
    "oy2",
    "pat",
    "x9Qw7Lm2Zr5Tk8Vb",
    "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e",
    "hunter2",
    "a",
    # the command rules added later: their flags, commands and the characters their forms need
    " -U",
    " -u",
    " -s",
    " -t",
    " -X",
    " -K",
    "smbclient",
    "lftp",
    "snmpwalk",
    "openssl",
    "sqlplus",
    "rman",
    "scott/",
    "@",
    "%",
    ",",
    "kinit",
    " <<< ",
    "--password-stdin",
    "net use ",
    "\\\\fs\\s ",
    "define('",
    "DB_PASSWORD",
    "', '",
    " IDENTIFIED BY ",
    "auth=('u",
    "/pass:",
    "net user u ",
    "cargo login ",
    "https://",
    "@h",
    # the token flags, positional secrets, redis and prose forms added later
    "doctl",
    "jenkins-cli",
    " -auth u:",
    "snyk auth ",
    "vault login ",
    "set-agent-token a ",
    "bw unlock ",
    "bw login u ",
    "mc alias set a b c ",
    "poetry config pypi-token.x ",
    "composer config github-oauth.h ",
    "bundle config h.com u:",
    "CONFIG SET ",
    "requirepass ",
    "masterauth ",
    "secret put N ",
    " for the db is ",
]


_FORMAT_PIECES = ["dapi", "SK", "oy2", "pat", "0123456789abcdef", "0123456789abcdef0123456789abcdef", "q"]
_FORMAT_PIECES += ["ABCDEFGHIJKLMN", ".", "-12", " ", "\\n", "/", "x"]


def _spans(text: str) -> list[secret_contexts.Span]:
    spans: list[secret_contexts.Span] = []
    secret_contexts.context_spans(text, text, judged_span, kind_of_key, spans)
    return sorted(spans)


@example(["mysql", " -p", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["client: abc7Q~", "x9Qw7Lm2Zr5Tk8Vb", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["ls", " -l", "a", " ", "password", "=", "hunter2"])
@example(["redis-cli", " -a", " ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["sqlplus", " ", "scott/", "x9Qw7Lm2Zr5Tk8Vb", "@", "a"])
@example(["smbclient", " -U", " ", "a", "%", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["kinit", " <<< ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["define('", "DB_PASSWORD", "', '", "x9Qw7Lm2Zr5Tk8Vb", "')"])
@example([" IDENTIFIED BY ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["https://", "x9Qw7Lm2Zr5Tk8Vbx9Qw7Lm2Zr5Tk8Vb", "@h"])
@example(["net use ", "\\\\fs\\s ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["vault login ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["bw unlock ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["mc alias set a b c ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["bundle config h.com u:", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["\n", "masterauth ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["password", " for the db is ", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["jenkins-cli", " -auth u:", "x9Qw7Lm2Zr5Tk8Vb"])
@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_the_prefilter_skips_only_strings_without_a_context_secret(pieces: list[str]) -> None:
    text = "".join(pieces)
    filtered = _spans(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secret_contexts, "quiet", lambda low, scan: False)
        assert _spans(text) == filtered


_CATEGORY_PIECES = [*_PIECES, "__", "GEMS__EXAMPLE__COM", "user:", "cookie", "Set-Cookie: ", "sid=", "pwd"]
_CATEGORY_PIECES += ["credential", "session", "PRIVATE-MAC: ", "Private-Lines: 2\n", "db:5432:app:me:", "*:"]
_CATEGORY_PIECES += ["--key=", "AAAAB3NzaC1yc2EAAAADAQABAAABAQ", "r8Xq2Lm9Zt4Vb7Nc1Kd6", "\n"]


@example(["GEMS__EXAMPLE__COM", "=", "user:", "r8Xq2Lm9Zt4Vb7Nc1Kd6"])
@example(["Set-Cookie: ", "sid=", "r8Xq2Lm9Zt4Vb7Nc1Kd6", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["db:5432:app:me:", "hunter2"])
@example(["session", "=", "r8Xq2Lm9Zt4Vb7Nc1Kd6"])
@given(st.lists(st.sampled_from(_CATEGORY_PIECES), max_size=12))
def test_a_quiet_text_holds_nothing_a_category_finds(pieces: list[str]) -> None:
    text = "".join(pieces)
    if secret_categories.quiet(text.lower()):
        assert secret_categories.redact_categories(text) == text


@example(["mysql", " -p", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["session", "=", "r8Xq2Lm9Zt4Vb7Nc1Kd6"])
@example(["pat", "ABCDEFGHIJKLMN", ".", "0123456789abcdef" * 4])
@given(st.lists(st.sampled_from(_CATEGORY_PIECES + _FORMAT_PIECES), max_size=14))
def test_redact_gives_the_same_text_with_or_without_the_short_string_gates(pieces: list[str]) -> None:
    text = "".join(pieces)
    redact.forget_clean()
    gated = redact.redact(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secret_contexts, "quiet", lambda low, scan: False)
        patch.setattr(secret_categories, "quiet", lambda low: False)
        redact.forget_clean()
        assert redact.redact(text) == gated


_HEX32 = "0123456789abcdef0123456789abcdef"


@example(
    [
        "dapi",
        _HEX32,
        " ",
        "pat",
        "ABCDEFGHIJKLMN",
        ".",
        _HEX32,
        _HEX32,
        " ",
        "SK",
        _HEX32,
        "\\n",
        "dapi",
        _HEX32,
    ]
)
@given(st.lists(st.sampled_from(_FORMAT_PIECES), max_size=16))
def test_a_bare_format_is_found_at_every_occurrence_of_its_prefix(pieces: list[str]) -> None:
    """``finditer`` stands for a match tried at each occurrence: no match holds another's start."""
    text = "".join(pieces)
    for prefix, _, _, pattern in secret_contexts._BARE_FORMATS:
        at_each = []
        found = text.find(prefix)
        while found != -1:
            if match := pattern.match(text, found):
                at_each.append(match.span())
            found = text.find(prefix, found + 1)
        assert [match.span() for match in pattern.finditer(text)] == at_each


@example(["password", " ", "password", " ", "hunter2"])
@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_a_spaced_rule_is_tried_at_every_occurrence_of_its_stem(pieces: list[str]) -> None:
    """A spaced rule's look-ahead form finds, at each stem, what the plain pattern matched there."""
    low = "".join(pieces).lower()
    for stem, pattern in secret_contexts._SPACED:
        source = pattern._source
        assert source.startswith(stem + "(?=") and source.endswith(")")
        plain = re.compile(stem + source[len(stem) + 3 : -1], re.ASCII)
        expected = []
        found = low.find(stem)
        while found != -1:
            if match := plain.match(low, found):
                expected.append((match.start(), match.span("e"), match.span("v"), match.group("xml", "pair")))
            found = low.find(stem, found + 1)
        got = [
            (match.start(), match.span("e"), match.span("v"), match.group("xml", "pair"))
            for match in pattern.finditer(low)
        ]
        assert got == expected


def test_the_secret_words_a_text_holds_are_each_subset_of_them() -> None:
    """``words_in`` looks its answer up among prebuilt sets: every subset of the words maps to itself."""
    from itertools import combinations

    from sbcore.observe.secret_contexts import WORDS, words_in

    for size in range(len(WORDS) + 1):
        for chosen in combinations(WORDS, size):
            text = " ".join(f"my_{word}_here" for word in chosen) or "nothing at all"
            assert words_in(text.lower()) == frozenset(chosen), chosen
