"""The triggers know the project from its checkout: a replay given one (``--checkout``, a labelled case's
``checkout``) reads it as the session found it (issue 22, item 2)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sbcore.api import UNKNOWN, Observation, ProjectFacts, TriggerMatch
from sbcore.cli import main
from sbcore.conductor.replay import Replayer
from sbcore.config import load_config
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.manager import get_plugin_manager
from sbcore.packs.model import Cadence, DetectorDef, TriggerRef
from sbcore.packs.registry import Contributions, TriggerSpec
from sbcore.think.providers import OfflineProvider
from tests.worker.worker_helpers import Records


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))


def session(tmp_path: Path) -> Path:
    """Code edited and the turn handed over; nothing the session shows says the project has tests."""
    r = Records("s-checkout", "/home/dev/shop", start=datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    call_id, edit = r.call(
        "Edit", {"file_path": "/home/dev/shop/src/cart.zorp", "old_string": "a - b", "new_string": "a + b"}
    )
    records: list[dict[str, Any]] = [
        r.prompt("Fix the cart total."),
        edit,
        r.result(call_id, "The file was updated."),
        r.say("Fixed the total; done."),
    ]
    records[-1]["message"]["stop_reason"] = "end_turn"
    records.append({**r._base("system"), "subtype": "turn_duration", "durationMs": 1000})
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def asked(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    code = main(["replay", "--json", "--detectors", "standard-questions", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    (replayed,) = json.loads(out)["sessions"]
    return [
        result["feedback"]["headline"]
        for one in replayed["passes"]
        for result in one["results"]
        if result["detector"] == "standard-questions" and result["verdict"] == "advise"
    ]


def test_a_checkout_with_tests_makes_the_question_apply_that_the_session_never_showed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = session(tmp_path)
    assert asked(capsys, str(transcript)) == []  # the session alone shows no tests
    checkout = tmp_path / "shop"
    (checkout / "test").mkdir(parents=True)
    (checkout / "gleam.toml").write_text('name = "shop"\n')
    (checkout / "test" / "cart_test.gleam").write_text("pub fn total_test() { todo }\n")
    headlines = asked(capsys, "--checkout", str(checkout), str(transcript))
    assert len(headlines) == 1 and "tests_run" in headlines[0]


def test_a_checkout_that_is_not_a_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--checkout", str(tmp_path / "missing"), str(session(tmp_path))]) == 2
    assert "is not a folder" in capsys.readouterr().err


def _peeking(seen: list[ProjectFacts]) -> tuple[DetectorDef, dict[str, TriggerSpec]]:
    """standard-questions' definition, asking a pack's trigger that declares ``project`` and records it."""

    def peek(
        observations: Sequence[Observation],
        params: Mapping[str, Any],
        state: dict[str, Any],
        project: ProjectFacts,
    ) -> TriggerMatch | None:
        seen.append(project)
        if project.root:  # the checkout changes after the session started: replay keeps the start's reading
            (Path(project.root) / "justfile").write_text("spell:\n  typos\n")
        return None

    pack = Contributions("peeking-pack")
    pack.register_trigger("peek_project", peek)
    manager = get_plugin_manager()
    catalogue = assemble_catalogue(manager, config=load_config(None))
    (base,) = [d.definition for d in catalogue.detectors if d.id == "standard-questions"]
    definition = dataclasses.replace(base, trigger=TriggerRef("peek_project"), cadence=Cadence("every_pass"))
    return definition, {**manager.registry.triggers, **pack.triggers}


def _replay_peeking(transcript: Path, checkout: Path | None) -> list[ProjectFacts]:
    seen: list[ProjectFacts] = []
    definition, triggers = _peeking(seen)
    replayer = Replayer(
        config=load_config(None),
        detectors=[definition],
        provider=OfflineProvider(),
        triggers=triggers,
        environment=get_plugin_manager().template_environment(),
        checkout=checkout,
    )
    asyncio.run(replayer.replay_file(transcript))
    return seen


def test_a_trigger_declaring_project_gets_the_checkout_as_the_session_found_it(tmp_path: Path) -> None:
    transcript = session(tmp_path)
    checkout = tmp_path / "shop"
    (checkout / "src").mkdir(parents=True)
    (checkout / "package.json").write_text(json.dumps({"scripts": {"links": "lychee docs"}}))
    (checkout / "src" / "cart.spec.js").write_text("")
    seen = _replay_peeking(transcript, checkout)
    assert seen and all(project is seen[0] for project in seen)  # one reading, at the session's start
    assert seen[0].root == str(checkout) and seen[0].scripts == {"links": "lychee docs"}
    assert seen[0].tests == ("src/cart.spec.js",) and "justfile" not in seen[0].paths
    assert (checkout / "justfile").is_file()  # the trigger did change the checkout


def test_without_a_checkout_a_trigger_declaring_project_gets_the_unknown_facts(tmp_path: Path) -> None:
    seen = _replay_peeking(session(tmp_path), None)
    assert seen and all(project is UNKNOWN for project in seen)
    assert not UNKNOWN.has_tests and UNKNOWN.paths == () and UNKNOWN.scripts == {}
