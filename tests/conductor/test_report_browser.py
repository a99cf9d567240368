"""The labels report as people see it: opened from disk in headless Chromium (Debian's package), offline.

The corpus replayed with the project's labelled set, written as HTML; Chromium renders it with the network
switched off, the screenshot is not blank, and every number the page shows under a ``data-key`` equals the
one in the ``--json`` result of the same run. Without Chromium the test skips and says why (``.ci/run``
installs it).
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main

HERE = Path(__file__).parent
LABELS = HERE.parent / "think" / "labels.yaml"
CORPUS = (HERE / "../../../shared/corpus/transcripts").resolve()
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)"),
    pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not present"),
    pytest.mark.slow,
]

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--proxy-server=127.0.0.1:9",  # nothing the page could ask for would arrive: it must ask for nothing
]


class Keyed(HTMLParser):
    """The text of every element carrying ``data-key``."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open.append(dict(attrs).get("data-key"))

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        key = next((k for k in reversed(self._open) if k), None)
        if key is not None:
            self.values[key] = self.values.get(key, "") + data.strip()


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    return subprocess.run(
        [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def distinct_bytes(png: Path) -> int:
    """How many distinct byte values the decoded image data holds (a blank page has one or two)."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        if kind == b"IDAT":
            chunks.append(data[at + 8 : at + 8 + length])
        at += 12 + length
    return len(set(zlib.decompress(b"".join(chunks))))


def shown(value: Any) -> str:
    """A JSON number as the page prints it."""
    if isinstance(value, float) and value <= 1:
        return f"{value:.2f}"
    return str(value)


def test_the_report_renders_offline_and_shows_the_json_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "report.html"
    report = ["--report", str(page), "--markdown", str(tmp_path / "report.md")]
    assert main(["replay", str(CORPUS), *report, "--labels", str(LABELS)]) == 0
    capsys.readouterr()
    assert main(["replay", "--json", "--labels", str(LABELS)]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert main(["replay", "--json", str(CORPUS)]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]

    html = page.read_text()
    assert "http://" not in html and "https://" not in html and "<script" not in html

    dom = chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    keyed = Keyed()
    keyed.feed(dom)
    values = keyed.values
    checked = 0
    for detector in ("repeat-failure", "standard-questions", "drift", "stall"):
        for key in ("tp", "fp", "fn", "tn", "precision", "recall"):
            assert values[f"{detector}.{key}"] == shown(scores[detector][key]), (detector, key)
            checked += 1
    assert values["summary.files"] == str(summary["files"])
    assert values["summary.delivered"] == str(summary["gate"]["delivered"])
    assert values["summary.turn_ends"] == str(summary["rates"]["turn_ends"])
    assert values["summary.delivered_per_active_hour"] == str(summary["rates"]["delivered_per_active_hour"])
    assert checked == 24
    wrong = [
        case for name in scores if isinstance(scores[name], dict) for case in scores[name].get("wrong", [])
    ]
    for case in wrong:
        assert f'id="case-{case}"' in dom  # every false alarm and miss has its section

    shot = tmp_path / "report.png"
    chromium(tmp_path, "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri())
    assert distinct_bytes(shot) > 16
    markdown = (tmp_path / "report.md").read_text()
    assert "| repeat-failure | " in markdown and "false alarms and misses" in markdown


def test_markup_in_a_transcript_or_a_label_is_shown_as_text_never_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A repository's transcript and labels file are untrusted: the page escapes them, so a prompt holding
    an `onerror` handler or the agent's text holding a script shows as text and runs nothing."""
    session = tmp_path / "t.jsonl"
    prompt = "please fix <img src=x onerror=\"document.body.setAttribute('data-pwned','prompt')\"> now"
    said = "<script>document.title='PWNED'</script>ok"
    records = [
        {
            "type": "user",
            "uuid": "u1",
            "timestamp": "2026-03-01T10:00:00Z",
            "sessionId": "x",
            "cwd": "/tmp",
            "message": {"role": "user", "content": prompt},
        },
        {
            "type": "assistant",
            "uuid": "a1",
            "timestamp": "2026-03-01T10:00:01Z",
            "sessionId": "x",
            "cwd": "/tmp",
            "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": said}]},
        },
    ]
    session.write_text("".join(json.dumps(record) + "\n" for record in records))
    labels = tmp_path / "labels.yaml"
    labels.write_text(
        "cases:\n- id: c1\n  transcript: t.jsonl\n  detector: repeat-failure\n  expect: fire\n"
        '  why: "label <b id=labelwhy>bold</b>"\n'
    )
    page = tmp_path / "report.html"
    main(["replay", "--labels", str(labels), "--report", str(page)])
    capsys.readouterr()
    html = page.read_text()
    assert "<script" not in html and "<img" not in html and "<b id=labelwhy>" not in html
    assert "&lt;script&gt;" in html and "&lt;b id=labelwhy&gt;" in html  # shown, as text
    dom = chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    assert "data-pwned" not in dom.split("<body", 1)[1].split(">", 1)[0]
    assert "<title>PWNED" not in dom and 'id="labelwhy"' not in dom
