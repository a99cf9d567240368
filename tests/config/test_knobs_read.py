"""Every knob in the configuration schema is read somewhere: a key nothing reads is a promise the docs make
and the code does not keep (issue 24 item 7)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sbcore.config import knobs

ROOT = Path(__file__).resolve().parents[2]
NOT_READERS = ("schemas", "docgen.py")  # the schema itself and the page printed from it


def _code() -> str:
    files = [*(ROOT / "sbcore").rglob("*.py"), *(ROOT / "detectors").rglob("*.py")]
    kept = [path for path in files if not any(part in path.parts for part in NOT_READERS)]
    return "\n".join(path.read_text(encoding="utf-8") for path in kept)


def _unread(keys: Iterable[str], code: str) -> list[str]:
    """The keys ``code`` spells neither whole (``config.get("gate.rate_per_hour")``) nor by their name within
    their group (``gate["rate_per_hour"]``, ``settings.rate_per_hour``, ``rate_per_hour=``)."""
    unread = []
    for key in keys:
        leaf = key.split(".")[-1]
        if not any(spelling in code for spelling in (key, f'"{leaf}"', f"'{leaf}'", f".{leaf}", f"{leaf}=")):
            unread.append(key)
    return unread


def test_every_knob_is_read_by_the_code() -> None:
    assert _unread((knob.key for knob in knobs()), _code()) == []


def test_a_knob_nothing_reads_is_named() -> None:
    code = _code()
    assert _unread(["gate.rate_per_fortnight", "gate.rate_per_hour"], code) == ["gate.rate_per_fortnight"]
