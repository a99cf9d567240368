"""``second-brain bench secrets``: gitleaks' own fixtures, read from a checkout, through redaction.

The checkout here is made up: a rules file written the way gitleaks writes its own (literal ``tps``, an
``append``, a generated element, comments, a raw multi-line string, Go escapes), with secrets generated for
this test. The real figure needs a gitleaks checkout, which CI has no network to fetch: with
``SBCORE_GITLEAKS_CHECKOUT`` pointing at one at the pinned commit, the last test holds the published floor.
"""

from __future__ import annotations

import json
import os
import random
import string
from pathlib import Path

import pytest

from sbcore.bench.secrets import PINNED_COMMIT, bench, fixtures
from sbcore.cli import main

ALNUM = string.ascii_letters + string.digits


def _fake(size: int, seed: str) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(ALNUM) for _ in range(size))


PAT = "ghp_" + _fake(36, "pat")
PASSWORD = _fake(18, "pw") + "7"
RULES = f"""package rules

func Acme() *config.Rule {{
	r := config.Rule{{RuleID: "acme"}}
	// validate
	tps := []string{{
		// a comment before the first element
		"GITHUB_TOKEN={PAT}", // trailing comment, with a comma,
		`curl --user deploy:{PASSWORD} \\
  https://example.test/api`,
		"line one\\nline \\"two\\" {PAT}\\x21",
	}}
	tps = append(tps, utils.GenerateSampleSecrets("acme", secrets.NewSecret(`[a-z]{{32}}`))...)
	tps = append(tps,
		"nothing secret here at all",
	)
	fps := []string{{"not counted: {PAT}"}}
	return utils.Validate(r, tps, fps)
}}
"""


def _checkout(root: Path, head: str | None = PINNED_COMMIT) -> Path:
    rules = root / "cmd" / "generate" / "config" / "rules"
    rules.mkdir(parents=True)
    (rules / "acme.go").write_text(RULES)
    if head is not None:
        git = root / ".git"
        git.mkdir()
        (git / "HEAD").write_text("ref: refs/heads/master\n")
        (git / "packed-refs").write_text(f"# pack-refs with: peeled\n{head} refs/heads/master\n")
    return root


def test_the_literal_fixtures_are_read_as_go_writes_them(tmp_path: Path) -> None:
    found = fixtures(_checkout(tmp_path))
    texts = [fixture.text for fixture in found.literal]
    assert texts == [
        f"GITHUB_TOKEN={PAT}",
        f"curl --user deploy:{PASSWORD} \\\n  https://example.test/api",
        f'line one\nline "two" {PAT}!',
        "nothing secret here at all",
    ]
    assert found.generated == 1  # the GenerateSampleSecrets call; fps are not fixtures
    assert [fixture.line for fixture in found.literal] == [8, 9, 11, 15]


def test_each_fixture_is_judged_by_what_survives(tmp_path: Path) -> None:
    report = bench(_checkout(tmp_path))
    assert report.commit == PINNED_COMMIT
    assert [outcome.caught for outcome in report.outcomes] == [True, True, True, False]
    assert report.caught == 3 and report.ratio == 0.75
    assert PAT not in report.outcomes[0].redacted and PASSWORD not in report.outcomes[1].redacted


def test_the_command_prints_the_figure_and_gates_on_a_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = _checkout(tmp_path / "gitleaks", head="0" * 40)
    assert main(["bench", "secrets", str(checkout)]) == 0
    out = capsys.readouterr().out
    assert "3 of 4 literal fixtures redacted (75.0%)" in out
    assert f"not the pinned {PINNED_COMMIT[:12]}" in out
    assert "acme.go:15  nothing secret here at all" in out

    assert main(["bench", "secrets", str(checkout), "--json", "--fail-under", "0.8"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["fixtures"], data["redacted"], data["at_pin"]) == (4, 3, False)
    assert [miss["line"] for miss in data["misses"]] == [15]
    assert main(["bench", "secrets", str(checkout), "--fail-under", "0.75"]) == 0
    capsys.readouterr()

    assert main(["bench", "secrets", str(tmp_path / "nowhere")]) == 2
    assert "is this a gitleaks checkout?" in capsys.readouterr().err
    assert main(["bench", "secrets", str(checkout), "--fail-under", "75"]) == 2


@pytest.mark.skipif(
    not os.environ.get("SBCORE_GITLEAKS_CHECKOUT"),
    reason="needs a gitleaks checkout (SBCORE_GITLEAKS_CHECKOUT)",
)
def test_gitleaks_own_fixtures_at_the_pinned_commit() -> None:
    report = bench(Path(os.environ["SBCORE_GITLEAKS_CHECKOUT"]))
    assert report.commit == PINNED_COMMIT
    assert report.caught >= 0.954 * len(report.outcomes), report.text()
