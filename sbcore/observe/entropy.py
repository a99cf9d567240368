"""Whether a value reads as random characters rather than words: the entropy floor of redaction.

A context rule (``apikey=…``) must tell a secret from a word or an identifier. Digits and
punctuation are a weak sign: an API key may be letters only, and ``getSecretKeyFromEnv`` is letters
too. So a letters-only value, or a value found by a looser context (a secret-ish word in prose), is
judged by how random it reads:

* **Shannon entropy** — bits per character of the value's own character distribution, and the total
  over its length: a short or repetitive value carries too little to be a key.
* **Word shape** — identifiers and prose are made of pronounceable pieces (split at case changes,
  digits and separators: each with a vowel and short consonant runs), and their case changes fall
  at piece boundaries. Random letters give short, unpronounceable pieces, long consonant runs and
  case flips everywhere.

Cheap enough to run on every candidate: a few passes over a short string, standard library only.
"""

from __future__ import annotations

import math
import re
from collections import Counter

_PIECES = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_CONSONANT_RUN = re.compile(r"[bcdfghjklmnpqrstvwxz]{5,}", re.IGNORECASE)
_VOWELS = frozenset("aeiouyAEIOUY")
_SEPARATORS = re.compile(r"[._-]+")
_HEX = re.compile(r"[0-9a-f]+|[0-9A-F]+")


def shannon_bits(value: str) -> float:
    """Bits per character of ``value``'s character distribution (0 for an empty string)."""
    if not value:
        return 0.0
    size = len(value)
    return -sum(count / size * math.log2(count / size) for count in Counter(value).values())


def _wordy(piece: str) -> bool:
    """A piece that could be a word or a compound of words: a vowel, no long consonant run.

    Random letters are about a quarter vowels (``y`` counted); a long compound of words has more.
    """
    if len(piece) < 3 or _CONSONANT_RUN.search(piece):
        return False
    vowels = sum(ch in _VOWELS for ch in piece)
    return vowels >= (0.28 * len(piece) if len(piece) >= 14 else 1)


def looks_random(value: str, min_length: int = 12, *, named: bool = False) -> bool:
    """Whether ``value`` reads as random characters: long enough, dense enough, not made of words.

    ``named``: the value follows a name that says it is a secret (``--api-key VALUE``), so it need
    only not be mostly words; otherwise (prose) most of it must be unpronounceable.
    """
    size = len(value)
    if size < min_length:
        return False
    if _HEX.fullmatch(value):
        # Sixteen symbols: a random hex string of n characters has a little under 4 bits each.
        return size >= 16 and shannon_bits(value) >= 2.9
    # The cheapest test first: most values a context rule meets are dotted or snake-case words.
    if max(map(len, _SEPARATORS.split(value))) < 12:
        return False  # "last_modified_at.strftime", "app.config.mjs"
    # A random value of n characters has close to log2(n) bits per character, up to its alphabet's
    # (letters 5.7, base64 6); demand most of it, and 48 bits in all.
    bits = shannon_bits(value)
    if bits < min(3.2, 0.8 * math.log2(size)) or bits * size < 48:
        return False
    pieces = _PIECES.findall(value)
    # Case flips everywhere: identifiers change case once per word, so their pieces are longer
    # and seldom of one or two letters.
    short = sum(len(piece) for piece in pieces if len(piece) <= 2)
    upper = sum(ch.isupper() for ch in value)
    lower = sum(ch.islower() for ch in value)
    if len(pieces) >= 4 and (
        size < 3.2 * len(pieces) or short >= 0.3 * size or min(upper, lower) >= 0.3 * size
    ):
        return True
    wordy = sum(len(piece) for piece in pieces if _wordy(piece))
    return wordy < (0.75 if named else 0.5) * size
