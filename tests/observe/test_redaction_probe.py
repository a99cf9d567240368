"""Blind probes of redaction: secrets in formats and places helpers chose without reading the rules.

Each ``redaction_probe/probe-*.yaml`` holds texts with a fake secret each (a Bash command, the agent's prose,
a file written or edited, a failing command's error line) and near misses that must come through as they
are: b36 144 and 52, b40 (by a helper who had not seen b36 either) 191 and 66. Each secret must be gone from
what ``redact`` returns and from every observation the projection makes of the record it sits in. The forms
the rules do not cover yet are listed here with why, and marked to fail: one that starts passing must leave
the list (docs/privacy.md names the same gaps).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from sbcore.observe.project import Projector
from sbcore.observe.redact import redact

_SIZES = {"b36": (144, 52), "b40": (191, 66)}
_PROBES = {
    name: yaml.safe_load((Path(__file__).parent / "redaction_probe" / f"probe-{name}.yaml").read_text())
    for name in _SIZES
}

# b40's first read, on b273150 (before any rule read it): 24 of 191 leaked, 4 of 66 near misses damaged.
GAPS: dict[str, str] = {
    "b40/prose-decoded-basic-auth": "`user:password` decoded from a Basic header, in prose",
    "b40/prose-heroku-api-key-uuid": "an API key shaped as a UUID, in prose",
    "b40/prose-markdown-env-table": "a token in a Markdown table's cell beside its variable's name",
    "b40/prose-cloudflare-api-token": "a token in parentheses after the variable that holds it, in prose",
    "b40/prose-fcm-server-key": "FCM's legacy server key (`AAAA…:APA91b…`), in prose",
    "b40/prose-azure-devops-pat": "a lower-case base32 token after `PAT`, in prose",
    "b40/prose-wandb-key": "a hex key pasted at a login prompt, in prose",
    "b40/prose-human-passphrase": "a passphrase of words after `the password you gave me`",
    "b40/prose-mistral-key-bare": "a key in parentheses after `set MISTRAL_API_KEY to the value`",
    "b40/prose-plaid-secret": "a hex secret after `the one in .env.production is`",
    "b40/rails-master-key-file": (
        "a key file's whole content written by Write: the probe writes every file to /repo/app.conf, and a"
        " key file is known by its name (a Write to config/master.key is redacted: test_secret_carriers.py)"
    ),
    "b40/err-helm-template-value": "a password quoted in a template error after `password must be …, got`",
}
KEEP_GAPS: dict[str, str] = {
    # redacted on purpose: a marker where a public id stood costs the observer little, a missed key a leak
    "b40/keep-aws-documented-example": "AWS's documented example key id is redacted as a key id",
    "b40/keep-mapbox-public-token": "Mapbox's public `pk.` token is redacted with its format",
    "b40/keep-sentry-dsn-frontend": "a Sentry DSN's key is redacted, public in a browser's bundle or not",
}


def _records(where: str, text: str) -> list[dict[str, Any]]:
    """The transcript records that carry ``text`` where the probe put it."""

    def call(name: str, arguments: dict[str, str]) -> dict[str, Any]:
        use = {"type": "tool_use", "id": "toolu_01", "name": name, "input": arguments}
        return {"type": "assistant", "timestamp": "2026-01-01T10:00:00Z", "message": {"content": [use]}}

    if where == "text":
        content = [{"type": "text", "text": text}]
        return [{"type": "assistant", "timestamp": "2026-01-01T10:00:00Z", "message": {"content": content}}]
    if where == "bash":
        return [call("Bash", {"command": text})]
    if where == "write":
        return [call("Write", {"file_path": "/repo/app.conf", "content": text})]
    if where == "edit":
        return [call("Edit", {"file_path": "/repo/app.conf", "old_string": "x = 1", "new_string": text})]
    assert where == "error"
    result = {
        "type": "tool_result",
        "tool_use_id": "toolu_01",
        "is_error": True,
        "content": f"Exit code 1\n{text}",
    }
    returned = {"type": "user", "timestamp": "2026-01-01T10:00:05Z", "message": {"content": [result]}}
    return [call("Bash", {"command": "make deploy"}), returned]


def _cases(part: str, gaps: dict[str, str]) -> list[Any]:
    cases = []
    for name, probe in _PROBES.items():
        for item in probe[part]:
            key = f"{name}/{item['id']}"
            marks = [pytest.mark.xfail(reason=gaps[key], strict=True)] if key in gaps else []
            cases.append(pytest.param(item, id=key, marks=marks))
    return cases


@pytest.mark.parametrize("leak", _cases("leaks", GAPS))
def test_a_probed_secret_is_gone_from_the_text_and_from_every_observation(leak: dict[str, str]) -> None:
    text, secret = leak["text_reversed"][::-1], leak["secret_reversed"][::-1]
    assert secret in text
    assert secret not in redact(text)
    observations = Projector().feed(_records(leak["where"], text))
    assert observations
    for observation in observations:
        assert secret not in observation.text
        assert secret not in json.dumps(observation.args, ensure_ascii=False)


@pytest.mark.parametrize("keep", _cases("keeps", KEEP_GAPS))
def test_a_probed_near_miss_comes_through_as_it_is(keep: dict[str, Any]) -> None:
    kept = redact(keep["text"])
    assert [part for part in keep["keep"] if part not in kept] == []


def test_each_probe_is_the_size_it_was_written() -> None:
    for name, probe in _PROBES.items():
        assert (len(probe["leaks"]), len(probe["keeps"])) == _SIZES[name]
    ids = {
        f"{name}/{item['id']}" for name, probe in _PROBES.items() for item in probe["leaks"] + probe["keeps"]
    }
    assert set(GAPS) | set(KEEP_GAPS) <= ids
