"""Rules compiled on first use: a rare command's secret rule is not paid for by texts that never name it,
and once a text does, it finds what ``re.compile`` would."""

from __future__ import annotations

import re
import subprocess
import sys

from sbcore.observe import lazy_pattern
from sbcore.observe.lazy_pattern import Lazy


def test_searches_as_the_compiled_pattern_does() -> None:
    source = r"token[ \t]+(?P<v>\w+)"
    lazy, compiled = Lazy(source), re.compile(source, re.ASCII)
    text = "a token abc and token déf, token x9"
    assert [m.span("v") for m in lazy.finditer(text)] == [m.span("v") for m in compiled.finditer(text)]
    found, expected = lazy.search(text, 10), compiled.search(text, 10)
    assert found is not None and expected is not None and found.span() == expected.span()
    assert lazy.match(text) is None and lazy.match(text, 2) is not None
    assert lazy.fullmatch("token abc") is not None and lazy.fullmatch(text) is None
    assert lazy.fullmatch(text, 2, 11) is not None  # "token abc" inside the text, as re's pos/endpos give it
    # the flags are the caller's: without re.ASCII, \w takes the accented word whole
    unicode_match = Lazy(source, 0).search(text, 10)
    assert unicode_match is not None and unicode_match.group("v") == "déf"


def test_lazy_compiles_with_re_s_own_default_flags() -> None:
    source, text = r"token[ \t]+(?P<v>\w+)", "a token déf"
    found, expected = lazy_pattern.lazy(source).search(text), re.compile(source).search(text)
    assert found is not None and expected is not None
    assert found.group("v") == expected.group("v") == "déf"
    ascii_found = lazy_pattern.lazy(source, re.ASCII).search(text)  # flags given are kept
    assert ascii_found is not None and ascii_found.group("v") == "d"


def test_a_rare_commands_rule_compiles_only_when_a_text_names_the_command() -> None:
    probe = (
        "from sbcore.observe import redact, secret_forms\n"
        "rule = secret_forms._COMPOSER_CONFIG\n"
        "print(redact.redact('ls -la src/app.py && make build'), rule._compiled is None, sep='|')\n"
        "line = 'composer config --global github-oauth.github.com ghx0aB9cD8eF7gH6iJ5kL4mN3'\n"
        "print(redact.redact(line), rule._compiled is None, sep='|')\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == [
        "ls -la src/app.py && make build|True",
        "composer config --global github-oauth.github.com [REDACTED:token]|False",
    ]
