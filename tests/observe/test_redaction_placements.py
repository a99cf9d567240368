"""Every probed secret, placed where the projection cuts: past a cap's redacted slice, in an edit's unchanged
lines, deep in a heredoc or an error's output. Nothing of it may reach an observation's text, arguments or
locators.

The probe tests (``test_redaction_probe.py``) put each secret where it is read whole. Cut text is where a
secret can slip by unread: a marker lists the paths the cut text held, and part of that text was never
redacted. Four private keys (a PuTTY key, an OpenSSH key file, a GCP service account's JSON, a SASL config's
base64) were listed there as paths, in ten of these placements, before markers judged what they list.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from sbcore.observe.project import Projector
from tests.observe.test_redaction_probe import _PROBES, GAPS, _records

_FILL = "".join(f"step {i}: run the thing number {i}\n" for i in range(150))
_SECRETS = [
    (f"{name}/{item['id']}", item["text_reversed"][::-1], item["secret_reversed"][::-1])
    for name, probe in _PROBES.items()
    for item in probe["leaks"]
    if f"{name}/{item['id']}" not in GAPS  # each gap is listed, and marked, where it is read whole
]


def _assistant(*content: dict[str, Any]) -> dict[str, Any]:
    return {"type": "assistant", "timestamp": "2026-01-01T10:00:00Z", "message": {"content": list(content)}}


def _call(name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    return [_assistant({"type": "tool_use", "id": "toolu_01", "name": name, "input": arguments})]


def _unchanged(text: str) -> dict[str, str]:
    return {"old_string": f"{text}\nx = 1\n{text}", "new_string": f"{text}\nx = 2\n{text}"}


PLACEMENTS: dict[str, Callable[[str], list[dict[str, Any]]]] = {
    "write-past-the-cap": lambda t: _call(
        "Write", {"file_path": "/repo/a.conf", "content": f"{_FILL}{t}\n{_FILL}"}
    ),
    "edit-past-the-cap": lambda t: _call(
        "Edit", {"file_path": "/repo/a.conf", "old_string": "a = 1", "new_string": f"{_FILL}{t}\n{_FILL}"}
    ),
    "edit-unchanged-lines": lambda t: _call("Edit", {"file_path": "/repo/a.conf", **_unchanged(t)}),
    "multiedit-unchanged-lines": lambda t: _call(
        "MultiEdit", {"file_path": "/repo/a.conf", "edits": [_unchanged(t)]}
    ),
    "notebook-past-the-cap": lambda t: _call(
        "NotebookEdit", {"notebook_path": "/repo/n.ipynb", "new_source": _FILL + t}
    ),
    "bash-past-whole-redaction": lambda t: _call(
        "Bash", {"command": "echo start; " + "x" * 17_000 + "\n" + t}
    ),
    "bash-heredoc-body": lambda t: _call("Bash", {"command": f"cat > /tmp/f <<'EOF'\n{_FILL}{t}\nEOF"}),
    "task-prompt": lambda t: _call("Task", {"description": "do it", "prompt": f"{_FILL}{t}\n{_FILL}"}),
    "todo-item": lambda t: _call("TodoWrite", {"todos": [{"content": _FILL + t, "status": "pending"}]}),
    "webfetch-prompt": lambda t: _call("WebFetch", {"url": "https://example.com/x", "prompt": _FILL + t}),
    "error-output": lambda t: _records("error", f"{_FILL}{t}\n{_FILL}"),
}


@pytest.mark.parametrize("placement", list(PLACEMENTS))
def test_no_probed_secret_survives_where_the_projection_cuts(placement: str) -> None:
    leaked = []
    for key, text, secret in _SECRETS:
        observations = Projector().feed(PLACEMENTS[placement](text))
        sent = "".join(
            o.text + json.dumps(o.args, ensure_ascii=False) + json.dumps(list(o.locators), ensure_ascii=False)
            for o in observations
        )
        if secret in sent:
            leaked.append(key)
    assert leaked == []
    assert len(_SECRETS) > 300
