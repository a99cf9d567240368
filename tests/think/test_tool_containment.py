"""The file tools' containment: whole-file redaction before lines, and an isolated helper process."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import secrets
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from sbcore.jail import Jail
from sbcore.think.tools.base import Tool, ToolResult
from sbcore.think.tools.files import GlobTool, GrepTool, ReadTool
from sbcore.think.tools.redacted_lines import CONTINUED, redacted_lines
from sbcore.think.tools.run import RunLimits, run_command


def run(tool: Tool, **args: Any) -> ToolResult:
    return asyncio.run(tool.call(args))


def pem_body(lines: int = 25) -> list[str]:
    """Random base64 lines shaped like a PEM key body (fresh each run, so nothing can be hard-coded)."""
    raw = base64.b64encode(secrets.token_bytes(48 * lines)).decode()
    return [raw[i : i + 64] for i in range(0, len(raw), 64)][:lines]


@pytest.fixture
def keyed(tmp_path: Path) -> tuple[Path, list[str]]:
    root = tmp_path / "ws"
    root.mkdir()
    body = pem_body()
    text = "\n".join(
        [
            "# deploy key",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            *body,
            "-----END OPENSSH PRIVATE KEY-----",
            "after = 1",
        ]
    )
    (root / "id_deploy").write_text(text + "\n")
    return root, body


def leaked(text: str, body: list[str]) -> list[str]:
    """Body lines (or a 16-character piece of one) that appear in ``text``."""
    return [line for line in body if any(line[i : i + 16] in text for i in range(0, len(line) - 16, 8))]


def test_read_redacts_a_pem_block_as_a_whole_and_keeps_line_numbers(keyed: tuple[Path, list[str]]) -> None:
    root, body = keyed
    result = run(ReadTool(Jail(root)), path="id_deploy")
    assert leaked(result.text, body) == []
    lines = result.text.splitlines()
    assert lines[0] == "     1\t# deploy key"
    assert lines[1].endswith("[REDACTED:private-key]")
    assert lines[2] == f"     3\t{CONTINUED}"
    assert lines[-1] == f"{len(body) + 4:>6}\tafter = 1"  # the numbering is still the file's


@pytest.mark.parametrize("offset", [3, 10, 20])
def test_reading_from_the_middle_of_a_key_block_shows_none_of_it(
    keyed: tuple[Path, list[str]], offset: int
) -> None:
    root, body = keyed
    result = run(ReadTool(Jail(root)), path="id_deploy", offset=offset, limit=4)
    assert leaked(result.text, body) == []
    assert result.text.splitlines()[0] == f"{offset:>6}\t{CONTINUED}"


def test_grep_cannot_find_or_print_a_key_body(keyed: tuple[Path, list[str]]) -> None:
    root, body = keyed
    probe = body[5][:12]
    result = run(GrepTool(Jail(root)), pattern=probe.replace("+", r"\+"))
    assert result.text.startswith("no matches")  # matching runs on the redacted lines: no probing
    everything = run(GrepTool(Jail(root)), pattern=".")
    assert leaked(everything.text, body) == []
    assert "id_deploy:2: [REDACTED:private-key]" in everything.text


def test_a_pretty_printed_json_credential_is_redacted_across_its_lines(tmp_path: Path) -> None:
    body = pem_body(12)
    key = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(body) + "\\n-----END PRIVATE KEY-----\\n"
    document = '{\n  "type": "service_account",\n  "private_key":\n    "' + key + '",\n  "x": 1\n}\n'
    (tmp_path / "sa.json").write_text(document)
    result = run(ReadTool(Jail(tmp_path)), path="sa.json")
    assert leaked(result.text, body) == []
    assert '"x": 1' in result.text


def test_redacted_lines_pair_every_original_line() -> None:
    body = pem_body(6)
    text = "a\n-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END RSA PRIVATE KEY-----\nb\n"
    lines = redacted_lines(text + text)
    assert len(lines) == 2 * (len(body) + 4)
    assert lines[0] == "a" and lines[len(body) + 3] == "b" and lines[-1] == "b"
    assert lines.count(CONTINUED) == 2 * (len(body) + 1)


def test_back_to_back_key_blocks_keep_the_line_count_and_show_no_body() -> None:
    blocks = [pem_body(5) for _ in range(4)]
    begin, end = "-----BEGIN EC PRIVATE KEY-----", "-----END EC PRIVATE KEY-----"
    text = "\n".join("\n".join([begin, *body, end]) for body in blocks)
    lines = redacted_lines(text + "\ntail\n")
    assert len(lines) == 4 * 7 + 1 and lines[-1] == "tail"
    assert all(leaked("\n".join(lines), body) == [] for body in blocks)


def test_redacted_lines_without_multi_line_secrets_are_the_file_lines() -> None:
    assert redacted_lines("x = 1\r\ny = 2\n") == ["x = 1", "y = 2"]


# -- the helper process ---------------------------------------------------------------------------


def test_a_json_py_in_the_workspace_is_never_imported_by_the_helper(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    root = tmp_path / "ws"
    root.mkdir()
    for name in ("json.py", "fnmatch.py", "sitecustomize.py"):
        (root / name).write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    (root / "a.txt").write_text("needle\n")
    grep = run(GrepTool(Jail(root)), pattern="needle")
    glob = run(GlobTool(Jail(root)), pattern="*.txt")
    assert "a.txt:1: needle" in grep.text
    assert glob.text.startswith("a.txt")
    assert not marker.exists()


def test_the_helper_gets_no_api_keys_or_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    planted = {
        "ANTHROPIC_API_KEY": "sk-ant-planted",
        "OPENAI_API_KEY": "sk-planted",
        "GITHUB_TOKEN": "planted",
        "MY_SERVICE_SECRET_VALUE": "planted",
        "PYTHONPATH": str(tmp_path),
    }
    for name, value in planted.items():
        monkeypatch.setenv(name, value)
    # A probe standing in for the helper's interpreter reports what it was started with.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json, os, sys\n"
        "sys.stdin.buffer.read()\n"
        "print(json.dumps({'text': json.dumps({'env': dict(os.environ), 'flags': sys.flags.isolated,"
        " 'path': sys.path}), 'is_error': False, 'refused': False}))\n"
    )
    monkeypatch.setattr("sbcore.think.tools.files._CHILD_BOOT", probe.read_text())
    result = run(GrepTool(Jail(tmp_path)), pattern="x")
    seen = json.loads(result.text)
    assert seen["flags"] == 1  # python -I
    assert str(tmp_path) not in seen["path"] and "" not in seen["path"]
    assert not set(planted) & set(seen["env"])
    assert not [name for name in seen["env"] if re.search(r"_KEY$|_TOKEN$|SECRET|API_KEY", name)]
    assert os.environ["ANTHROPIC_API_KEY"] == "sk-ant-planted"  # the parent's own environment is untouched


def test_run_output_cut_inside_a_key_block_shows_none_of_its_body(tmp_path: Path) -> None:
    body = pem_body(60)
    script = tmp_path / "emit.py"
    script.write_text(
        "print('-----BEGIN RSA PRIVATE KEY-----')\n"
        f"for line in {body!r}:\n    print(line)\n"
        "print('-----END RSA PRIVATE KEY-----')\nprint('done')\n"
    )
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    result = asyncio.run(run_command(command, cwd=tmp_path, limits=RunLimits(max_output_chars=1200)))
    assert "bytes of output omitted" in result.text  # the head and the tail are separate pieces
    assert leaked(result.text, body) == []
    assert result.text.rstrip().endswith("done")
