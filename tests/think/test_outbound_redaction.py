"""Every string sent to a provider passes the redactor: prompts, prompt files, configuration, tool text."""

from __future__ import annotations

import asyncio
import secrets
import string
from pathlib import Path
from typing import Any

from sbcore.observe.model import Observation
from sbcore.observe.redact import redact
from sbcore.packs.loader import load_detector_file, validate_detector_data
from sbcore.packs.model import DetectorDef, SourceRef
from sbcore.testing import FakeProvider, feedback, tool_call
from sbcore.think.outbound import redacted
from sbcore.think.pass_ import PassEngine
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.base import (
    Message,
    ProviderSettings,
    Request,
    RetryPolicy,
    Secret,
    ToolResultBlock,
    ToolSpec,
    ToolUseBlock,
)
from sbcore.think.tools.dispatch import Toolbox


def fresh(alphabet: str, length: int) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


def github_token() -> str:
    return "ghp_" + fresh(string.ascii_letters + string.digits, 36)


def aws_key_id() -> str:
    return "AKIA" + fresh("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)


def password() -> str:
    return fresh(string.ascii_letters, 6) + fresh(string.digits, 4) + "!x"


def detector_data(ident: str, **fields: Any) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "id": ident,
        "description": "A test lens.",
        "enabled": True,
        "schema": "feedback_v1",
        "max_iterations": 2,
        **fields,
    }


def test_no_recorded_request_carries_a_secret_from_a_prompt_a_prompt_file_or_configuration(
    tmp_path: Path,
) -> None:
    in_prompt, in_file, in_config, in_observation = github_token(), aws_key_id(), password(), github_token()
    in_tool_file = "-----BEGIN RSA PRIVATE KEY-----\n" + fresh(string.ascii_letters, 64) + "\n"
    for value in (in_prompt, in_file, f"password={in_config}", in_observation):
        assert redact(value) != value  # each is something the redactor recognises
    inline = validate_detector_data(
        detector_data(
            "inline",
            prompt=f"Use the deploy token {in_prompt}. Note: {{{{ config.note }}}}",
            config={"note": f"db password={in_config}"},
            tools=["Read"],
        ),
        source=SourceRef("<test>"),
        pack="test",
    )
    pack = tmp_path / "pack"
    (pack / "prompts").mkdir(parents=True)
    (pack / "prompts" / "filed.j2").write_text(f"Check the key {in_file} is rotated.\n")
    (pack / "filed.yaml").write_text(
        "schema_version: 1\nid: filed\ndescription: From a file.\nenabled: true\n"
        "prompt_file: prompts/filed.j2\n"
    )
    filed = load_detector_file(pack / "filed.yaml", pack="test")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "deploy.pem").write_text(in_tool_file + "-----END RSA PRIVATE KEY-----\n")

    async def run(fake: FakeProvider, detectors: list[DetectorDef]) -> None:
        settings = ProviderSettings(
            "anthropic",
            "claude-haiku-4-5",
            base_url=fake.anthropic_base_url,
            api_key=Secret("t"),
            retry=RetryPolicy(max_retries=0),
        )
        model = AnthropicProvider(settings)
        engine = PassEngine(detectors, model, toolbox=Toolbox(workspace), triggers={})
        await engine.run_pass(
            [Observation("text", f"[text] exporting GH={in_observation}", timestamp="2026-01-05T14:00:00Z")]
        )
        await model.aclose()

    with FakeProvider() as fake:
        fake.script("inline", tool_call("Read", {"path": "deploy.pem"}), feedback("silent"))
        asyncio.run(run(fake, [inline, filed]))
        raw = b"".join(record.raw for record in fake.requests)
        assert {record.detector for record in fake.requests} == {"inline", "filed"}
        assert len(fake.requests_for("inline")) == 2  # the Read result went back to the model
    for secret in (in_prompt, in_file, in_config, in_observation, in_tool_file.split("\n")[1]):
        assert secret.encode() not in raw
    assert b"[REDACTED:" in raw


def test_redacted_covers_system_tools_and_echoed_tool_calls() -> None:
    token = github_token()
    request = Request(
        model="m",
        system=(f"observer {token}",),
        messages=(
            Message.user(f"look {token}"),
            Message.assistant(ToolUseBlock("t1", "Read", {"path": token, "nested": [{token: token}]})),
            Message.user(ToolResultBlock("t1", f"content {token}")),
        ),
        tools=(ToolSpec("Read", f"reads {token}", {"description": token}),),
        breakpoint=0,
    )
    clean = redacted(request)
    assert token not in repr(clean)
    assert (clean.model, clean.breakpoint, clean.tools[0].name) == ("m", 0, "Read")
    assert redacted(request) == clean  # deterministic: the cached prefix stays byte-identical
