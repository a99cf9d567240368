"""standard-questions reads what a container or a pod ran: ``<tool> run|exec [options] NAME COMMAND…``.

A test run inside a container (``docker compose run --rm worker npm test``, ``kubectl exec api -- pytest``)
is a test run; which of the tool's options take a value differs from tool to tool, so each of the first
few names past ``run``/``exec`` is taken as the container's, and the words after it as a candidate command.
The tests use a container tool named in no table (``boxr``, ``podctl``).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from sbcore.detectors.checklist import invocations
from test_triggers import ROOT, Session, ask, open_ids


@pytest.fixture
def checklist() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())
    config: dict[str, Any] = document["config"]
    return config


@pytest.mark.parametrize(
    ("command", "inside"),
    [
        ("boxr compose run --rm worker npm test -- --runInBand", "npm test -- --runInBand"),
        ("boxr run --rm -e CI=1 -v .:/w img:1 cargo test", "cargo test"),
        ("podctl exec api-7f9 -- python -m pytest -q", "python -m pytest -q"),
        ("boxr compose exec -T web sh -c 'bin/rails test'", "bin/rails test"),
    ],
)
def test_the_command_run_inside_is_an_invocation(command: str, inside: str) -> None:
    assert inside in invocations(command)


@pytest.mark.parametrize("command", ["npm run test -- --watch", "boxr run --rm img", "boxr ps"])
def test_a_run_of_a_script_or_of_nothing_has_nothing_inside(command: str) -> None:
    assert invocations(command) == [command]


@pytest.mark.parametrize(
    "run",
    [
        "boxr compose run --rm worker npm test -- --runInBand",
        "podctl exec deploy/api -- python -m pytest -q",
        "boxr run --rm -v .:/w -w /w img:1 cargo test --workspace",
    ],
)
def test_a_test_run_inside_a_container_answers(checklist: dict[str, Any], run: str) -> None:
    s = Session()
    s.run("ls tests t")
    s.edit("/repo/src/retry.ts")
    assert "tests_run" in open_ids(ask(s, checklist))
    s.run(run)
    assert "tests_run" not in open_ids(ask(s, checklist))
