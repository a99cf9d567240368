"""A family of redaction rules is passed over before it is compiled only where none of its rules could match.

``family_needles`` lets a hook that redacts one prompt skip compiling the ``:`` and ``=`` families (tens of
milliseconds each) when the text holds nothing they need. Skipping must never lose a span: these tests hold
the needles to every family's own pattern on the probed secrets, the redaction tests' texts and the corpus,
and compare a fresh process's redaction (families compiled only as the prefilter asks) with a warm one's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sbcore.observe import family_needles, redact
from sbcore.observe.measure import string_leaves
from tests.observe.test_redact import CONTEXTS, FORMAT_TOKENS, NEGATIVES
from tests.observe.test_redaction_probe import _PROBES

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "transcripts"


def _probe_texts() -> list[str]:
    return [
        item["text_reversed"][::-1]
        for probe in _PROBES.values()
        for part in ("leaks", "keeps")
        for item in probe.get(part, ())
        if "text_reversed" in item
    ]


def _corpus_texts(files: int = 8) -> list[str]:
    texts: list[str] = []
    for path in sorted(CORPUS.glob("*.jsonl"))[:files]:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                texts += [text for text in string_leaves(json.loads(line)) if len(text) >= 8]
            except ValueError:
                continue
    return texts


def _scan(text: str) -> str:
    return text if text.isascii() else text.encode("ascii", "replace").decode("ascii")


def _assert_needed(texts: list[str]) -> int:
    """Every text a family's pattern matches holds what the family's needles say; returns how many matched."""
    matched = 0
    for anchor in redact._ANCHORS:
        family = redact._family(anchor)
        found = family_needles.needles(anchor, redact._rules(anchor))
        for text in texts:
            scan = _scan(text)
            if anchor in scan and family.regex.search(scan) is not None:
                matched += 1
                assert family_needles.holds(found, scan), (anchor, text[:200])
    return matched


def _probed() -> list[str]:
    return [
        *_probe_texts(),
        *FORMAT_TOKENS,
        *(f"see {token} here" for token in FORMAT_TOKENS),
        *(case.text for case in CONTEXTS),
        *NEGATIVES,
    ]


def test_every_text_a_family_matches_holds_its_needles_probes_and_formats() -> None:
    texts = _probed()
    assert len(texts) > 600
    assert _assert_needed(texts) > 300  # the families do match these: the check is not vacuous


def test_every_text_a_rule_matches_alone_holds_that_rules_needles() -> None:
    """Rule by rule, so that one rule's needles cannot hide behind another's in its family."""
    texts = [(text, _scan(text)) for text in _probed()]
    matched = set()
    for anchor in redact._ANCHORS:
        for index, rule in enumerate(redact._rules(anchor)):
            alone = redact._compile(anchor, [rule])
            found = family_needles.needles(anchor, [rule])
            for text, scan in texts:
                if anchor in scan and alone.regex.search(scan) is not None:
                    matched.add((anchor, index))
                    assert family_needles.holds(found, scan), (anchor, rule.kind, text[:200])
    assert len(matched) > 100


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_every_text_a_family_matches_holds_its_needles_corpus() -> None:
    texts = _corpus_texts()
    assert len(texts) > 2000
    assert _assert_needed(texts) > 0  # real sessions hold few matches: each is held to the needles


def test_the_assignment_families_have_needles_and_a_rule_without_any_opens_its_family() -> None:
    for anchor in (":", "=", "_", "-"):
        assert family_needles.needles(anchor, redact._rules(anchor)) is not None, anchor
    open_rule = redact._Alt("x", "", "(?P<v>x)")
    assert family_needles.needles(".", [open_rule]) is None
    needing = redact._Alt("x", "", "(?P<v>x)", needs=("@",))
    found = family_needles.needles(".", [needing])
    assert family_needles.holds(found, "a.b@c") and not family_needles.holds(found, "a.b")


def test_a_family_is_compiled_after_a_few_texts_whatever_they_hold() -> None:
    prefilter = family_needles.Prefilter(redact._rules)
    plain = "time: noon"
    assert not any(prefilter.wanted(":", plain) for _ in range(family_needles.TRIES))
    assert prefilter.wanted(":", plain)


_FRESH = """
import json, sys
from sbcore.observe import redact
texts = json.loads(sys.stdin.read())
out = []
for text in texts:
    out.append([redact.redact(text), sorted(redact._FAMILIES)])
print(json.dumps(out))
"""


def test_a_fresh_process_redacts_as_a_warm_one_and_compiles_only_what_a_text_needs() -> None:
    """Each text in a fresh interpreter, as a hook redacts it: the same result as with every family
    compiled, and for a plain message or prompt no ``:`` or ``=`` family."""
    texts = [
        "All 42 tests pass now. I changed src/parser.py and added tests/test_parser.py.",
        "fix the build: npm run build fails with TS2345 in src/api/client.ts, see https://example.com/x",
        "the summary: description: a new option = 3",
        "export DB_PASSWORD=Zq8xK2mW9pL4vT7n and then deploy",
        'config = {"api_key": "sk-proj-8f3Kq2LmN5pR7sT9vW1xY3zA5bC7dE9fG1hJ3kL5"}',
        "clone https://deploy:gh0sTpAss9921x@git.example.com/repo.git",
        "SSHPASS=hunter2hunter2 sshpass -e ssh host",
    ]
    for text in texts:
        done = subprocess.run(
            [sys.executable, "-c", _FRESH],
            input=json.dumps([text]),
            capture_output=True,
            text=True,
            check=True,
        )
        [(fresh, compiled)] = json.loads(done.stdout)
        for anchor in redact._ANCHORS:  # warm: every family compiled
            redact._family(anchor)
        assert fresh == redact.redact(text), text
        if text in texts[:3]:
            assert ":" not in compiled and "=" not in compiled, (text, compiled)
    assert "[REDACTED:" in redact.redact(texts[3]) and "[REDACTED:" in redact.redact(texts[5])
