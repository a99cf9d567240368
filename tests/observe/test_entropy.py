"""The entropy floor: random values read as random, words and identifiers do not."""

from __future__ import annotations

import random
import string

import pytest

from sbcore.observe.entropy import looks_random, shannon_bits

IDENTIFIERS = [
    "getApiKeyFromEnvironment",
    "AutoTokenizer.from_pretrained",
    "last_modified_at.strftime",
    "isVisibleInTranscriptOnly",
    "TestLogsOnlyRewind_RestoresTranscript",
    "authenticationtoken",
    "PASSWORD_RESET_TEMPLATE",
    "request.form.password",
    "passwordConfirmation",
    "access_token_expires_at",
    "DefaultEndpointsProtocol",
    "settings.SECRET_KEY",
    "the quick brown fox jumps",
]


def test_shannon_bits_counts_the_distribution() -> None:
    assert shannon_bits("") == 0.0
    assert shannon_bits("aaaa") == 0.0
    assert shannon_bits("abab") == 1.0
    assert shannon_bits("abcd") == 2.0


@pytest.mark.parametrize("value", IDENTIFIERS)
def test_words_and_identifiers_do_not_read_as_random(value: str) -> None:
    assert not looks_random(value)
    assert not looks_random(value, named=True)


@pytest.mark.parametrize(
    ("alphabet", "length", "share"),
    [
        (string.ascii_letters, 24, 0.98),
        (string.ascii_letters, 40, 0.99),
        (string.ascii_letters + string.digits, 20, 0.98),
        (string.ascii_letters + string.digits + "+/", 40, 0.99),
        ("0123456789abcdef", 32, 0.99),
    ],
)
def test_random_values_read_as_random(alphabet: str, length: int, share: float) -> None:
    rng = random.Random(f"{alphabet}{length}")
    values = ["".join(rng.choice(alphabet) for _ in range(length)) for _ in range(500)]
    assert sum(looks_random(value, named=True) for value in values) >= share * len(values)


def test_short_or_repetitive_values_are_not_random() -> None:
    assert not looks_random("aB3dE5")  # too short
    assert not looks_random("abcabcabcabcabcabc")  # too few bits
    assert not looks_random("deadbeefdeadbeef")  # a hex word, repeated
