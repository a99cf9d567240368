"""A capped value is redacted over a slice ending with the line that holds the cap: what it lets the
projection keep is what redacting the whole value gives there.

``elide.prepare`` does not read ``MAX_SECRET_SPAN`` characters past every cap: a slice ends with the line
holding the cap, since no rule's match reads past the line its secret is on, and goes further only where a key
id that makes a token before the cap a secret (its partner) may follow. These tests hold that claim against
every secret the redaction suites know (formats, contexts, partners, the blind probes) and their near misses,
each set among lines of code and cut at many places around it: the safe prefix is always a prefix of the whole
value's redaction, so the slice changes nothing the projection keeps. (What the rest of the value holds is
judged where a marker lists its paths: ``test_redaction_placements.py``.)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sbcore.observe import elide
from sbcore.observe.elide import MAX_SECRET_SPAN, prepare
from sbcore.observe.redact import redact
from sbcore.observe.secret_contexts import PARTNER_REACH
from tests.observe.test_redact import AKIA, CONTEXTS, FORMAT_CASES, NEGATIVES, PARTNERS, leaked
from tests.observe.test_redaction_probe import _PROBES

BEFORE = "".join(f"    total_{i} = compute(items[{i}], factor={i})  # step {i}\n" for i in range(6))
AFTER = "".join(f"    log.info('row %s done', row_{i})\n" for i in range(40))


def _texts() -> Iterator[tuple[str, str, str]]:
    """``(id, text, secret)``: every secret the suites hold, and near misses (secret "") that must stay."""
    for case in CONTEXTS:
        yield f"context-{case.kind}", case.text, case.secret
    for kind, template, secret in PARTNERS:
        yield f"partner-{kind}", template.format(secret), secret
    for index, (kind, token) in enumerate(FORMAT_CASES[::7]):
        yield f"format-{kind}-{index}", f"export API_TOKEN={token}", token
    for name, probe in _PROBES.items():
        for item in probe["leaks"]:
            yield f"{name}-{item['id']}", item["text_reversed"][::-1], item["secret_reversed"][::-1]
        for item in probe["keeps"][::3]:
            yield f"{name}-keep-{item['id']}", item["text"], ""
    for index, text in enumerate(NEGATIVES[::5]):
        yield f"negative-{index}", text, ""


CASES = list(_texts())


def _cuts(value: str, start: int, end: int) -> list[int]:
    """Caps before, across and after ``value[start:end]``, and at the line breaks around it."""
    cuts = set(range(max(1, start - 3), min(len(value), end + 3), 5))
    cuts |= {start, end, value.rfind("\n", 0, start) + 1, value.find("\n", end)}
    return sorted(cut for cut in cuts if 0 < cut < len(value))


@pytest.mark.parametrize(("text", "secret"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_what_a_line_bounded_slice_makes_safe_is_what_the_whole_value_redacts(text: str, secret: str) -> None:
    value = BEFORE + text + "\n" + AFTER
    whole = redact(value)
    start = len(BEFORE)
    for cut in _cuts(value, start, start + len(text)):
        work, safe = prepare(value, cut)
        assert whole.startswith(work[:safe]), f"cap {cut}: the slice redacted differently"
        if secret:  # no fragment the whole value's redaction does not show (a key's name may hold one)
            width = min(8, len(secret))
            assert set(leaked(secret, work[:safe], width)) <= set(leaked(secret, whole, width)), f"cap {cut}"


def test_the_slice_ends_with_the_line_holding_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the speed comes from: an edit capped at 200 characters is read to its line's end, not 1,024
    characters further."""
    read: list[int] = []
    real = elide.redact
    monkeypatch.setattr(elide, "redact", lambda text: read.append(len(text)) or real(text))
    value = BEFORE + AFTER * 3
    cut = len(BEFORE) + 10
    work, safe = prepare(value, cut)
    line_end = value.index("\n", cut) + 1
    assert read == [line_end]
    assert (work, safe) == (value, line_end)


def test_a_key_id_after_the_cap_widens_the_slice_to_its_partner_reach() -> None:
    """A token before the cap is an AWS secret only because of the key id on a later line: the slice reads on
    to that line, and the token is redacted."""
    secret = "Zq4v" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9wX1yZ3bC5"
    value = f"{secret}\n{AKIA}\n" + AFTER
    assert "[REDACTED:aws-secret-access-key]" in redact(value)
    work, safe = prepare(value, 20)
    assert secret[:12] not in work[:safe]
    assert safe > len(secret) + 1 + len(AKIA)  # read to the id's line, at least


def test_a_line_that_runs_on_keeps_the_margin_rule() -> None:
    """A line longer than ``MAX_SECRET_SPAN`` past the cap: the slice ends there and its last
    ``MAX_SECRET_SPAN`` characters are not kept, as before."""
    value = "x" * 5000
    work, safe = prepare(value, 100)
    assert (work, safe) == (value, 100)
    assert PARTNER_REACH < MAX_SECRET_SPAN
